"""A stepped clock for the Qt link (``PeerLink``/``QtRoom`` take ``now`` and ``timer``): its
timers fire when the test moves time on, never on their own, so a heartbeat, a deadline or
a close grace is proven without waiting real seconds (the sockets stay real)."""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot


class SteppedTimer:
    """A single-shot timer of :class:`SteppedClock`."""

    def __init__(self, clock: SteppedClock, parent: QObject, slot: Callable[[], None]) -> None:
        self.clock = clock
        self.parent = parent
        self.slot = slot
        self.due: float | None = None

    def start(self, msec: int) -> None:
        self.due = self.clock.t + msec / 1000

    def stop(self) -> None:
        self.due = None


class SteppedClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.timers: list[SteppedTimer] = []

    def now(self) -> float:
        return self.t

    def timer(self, parent: QObject, slot: Callable[[], None]) -> SteppedTimer:
        timer = SteppedTimer(self, parent, slot)
        self.timers.append(timer)
        return timer

    def fire_due(self) -> int:
        """Fire the timers due by now, earliest first; how many fired."""
        fired = 0
        while True:
            live = [t for t in self.timers if t.due is not None and shiboken6.isValid(t.parent)]
            due = [t for t in live if t.due is not None and t.due <= self.t]
            if not due:
                return fired
            timer = min(due, key=lambda t: t.due or 0.0)
            timer.due = None
            timer.slot()
            fired += 1

    def advance(self, seconds: float, qtbot: QtBot, step: float = 0.1) -> None:
        """Move time on by ``seconds`` in steps, firing what falls due and letting Qt move
        the bytes (a few real milliseconds a step) after each."""
        end = self.t + seconds
        while self.t < end:
            self.t = min(end, self.t + step)
            self.fire_due()
            qtbot.wait(5)
