"""The PySide6 in use keeps its references: PySide6 6.12.0 on CPython 3.11 handed back
``None`` from void methods and ``True`` from ``emit()`` without a reference, and a busy
window aborted within seconds ("Fatal Python error: none_dealloc"). pyproject.toml excludes
that build; this test fails on it, or on any other with the same fault, before a player
meets it."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, QTimer, Signal


class _Emitter(QObject):
    ping = Signal(int)


CALLS = 1000


def test_void_calls_and_emits_keep_the_references_to_none_true_and_false() -> None:
    probe = QObject()
    timer = QTimer()
    emitter = _Emitter()
    got: list[int] = []
    emitter.ping.connect(got.append)
    before = [sys.getrefcount(x) for x in (None, True, False)]
    for n in range(CALLS):
        probe.setObjectName("probe")  # void: hands back None
        timer.setInterval(n)  # void
        emitter.ping.emit(n)  # hands back True or False
    after = [sys.getrefcount(x) for x in (None, True, False)]
    assert len(got) == CALLS
    # a leaking build loses one reference a call; allow for the interpreter's own churn
    lost = [b - a for b, a in zip(before, after, strict=True)]
    assert max(lost) < CALLS // 2, f"references lost by None, True, False: {lost}"
