"""A guard against a reference-count bug of PySide6 6.12 on CPython 3.11.

There ``SignalInstance.emit()`` called from Python hands back ``True`` without taking a
reference to it, so every emit costs ``True`` one reference and after a few hundred emits the
interpreter aborts ("Fatal Python error: bool_dealloc"). Signals emitted by Qt itself (a
timer, a button) are not affected. Every emit of this package goes through :func:`emit`,
which gives the reference back when (and only when) the running PySide6 is found to need it;
on CPython 3.12+ ``True`` is immortal and nothing is done.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal

_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]
_incref.restype = None


class _Probe(QObject):
    ping = Signal()


def _emit_steals_true() -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(8):
        probe.ping.emit()
    after = sys.getrefcount(True)
    lost = before - after
    for _ in range(max(0, lost)):
        _incref(True)
    return lost >= 8


STEALS_TRUE = _emit_steals_true()


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``, safe from the reference bug above."""
    result = signal.emit(*args)
    if STEALS_TRUE and isinstance(result, bool):
        _incref(result)
