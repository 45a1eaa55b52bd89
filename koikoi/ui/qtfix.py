"""One door for emitting a Qt signal.

This module used to hold a guard against PySide6 6.12.0 on CPython 3.11, which handed back
``None`` from void methods and ``True`` from ``SignalInstance.emit()`` without a reference,
so that a busy window aborted ("Fatal Python error: none_dealloc"). pyproject.toml excludes
that build, the PySide6 in use (6.11.3) is clean, and ``tests/test_ui_pyside.py`` fails on
any build with the same fault; the guard, which patched reference counts through ctypes, is
gone. :func:`emit` stays, so that the modules emitting through it need no change should
emitting need care again.
"""

from __future__ import annotations

from typing import Any


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``."""
    signal.emit(*args)
