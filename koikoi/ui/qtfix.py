"""A guard against a reference-count bug of PySide6 6.12 on CPython 3.11.

That build hands back ``None`` from every void method (``painter.setPen(...)``,
``widget.update()``, ``timer.start()`` …) and ``True`` from ``SignalInstance.emit()``
without taking a reference, so each such call costs the singleton one reference and a busy
window aborts within seconds ("Fatal Python error: none_dealloc"). CPython 3.12 made these
singletons immortal, which is why the bug hides there.

:func:`install` measures whether the running PySide6 has the bug and, if so, gives
``None``, ``True`` and ``False`` a reserve of 2**48 references — more than a window can
spend in years — which is what immortality amounts to. It does nothing on CPython 3.12+ or
on a PySide6 without the bug. It runs when ``koikoi.ui`` is imported.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Final

RESERVE: Final = 1 << 48


def _leaks() -> bool:
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(16):
        probe.setObjectName("probe")
    return sys.getrefcount(None) <= before - 16


def install() -> bool:
    """Give the singletons their reserve if this PySide6 needs it; True when it did."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    if sys.getrefcount(None) > RESERVE // 2:  # already done (a second import)
        return False
    if not _leaks():
        return False
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += RESERVE
    return True


INSTALLED = install()


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``: one place to change should emitting need care again."""
    signal.emit(*args)
