"""One door for emitting a Qt signal.

PySide6 6.12.0 on CPython 3.11 handed back ``None`` from void methods and ``True`` from
``SignalInstance.emit()`` without a reference, so that a busy window aborted ("Fatal Python
error: none_dealloc"). pyproject.toml excludes that build and ``tests/test_ui_pyside.py`` fails
on any build with the same fault, so no guard is installed any more. Emitting still goes
through :func:`emit`, so that a workaround, should a build need one again, has one place.
"""

from __future__ import annotations

from typing import Any


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``."""
    signal.emit(*args)
