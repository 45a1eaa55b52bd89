"""One door for emitting a Qt signal (and one for dropping a signal's slots).

PySide6 6.12.0 on CPython 3.11 handed back ``None`` from void methods and ``True`` from
``SignalInstance.emit()`` without a reference, so that a busy window aborted ("Fatal Python
error: none_dealloc"). pyproject.toml excludes that build and ``tests/test_ui_pyside.py`` fails
on any build with the same fault, so no guard is installed any more. Emitting still goes
through :func:`emit`, so that a workaround, should a build need one again, has one place.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

from PySide6.QtCore import SignalInstance


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``."""
    signal.emit(*args)


def drop_slots(*signals: SignalInstance) -> None:
    """Drop every slot of each of ``signals`` (a link's or a room's, from its owner). A
    signal whose slots are gone already (the match was handed over) is no error and no
    warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # PySide's "Failed to disconnect"
        for signal in signals:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect()
