"""Python's cyclic garbage collector, run on the UI thread only.

Left to itself the collector runs in whichever thread happens to allocate when a threshold is
passed: the identity loader, the pin writer, zeroconf's loop. A Qt object in a reference cycle
is then destroyed there, off its thread: ``QObject::~QObject`` holds Qt's connection lock
while the binding waits for the interpreter lock, and the UI thread, holding the interpreter
lock, waits for that connection lock in its next ``connect`` (a window frozen for good: seen
as a test that hung while it built a lobby). So the automatic collector is switched off and a
timer on the UI thread collects each generation when its threshold is passed, as the
automatic one would.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500
"""How often the UI thread looks at the collector's counts."""


class UiThreadCollector(QObject):
    """Once :meth:`start`\\ ed, cycles are collected on this object's thread alone."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.check)

    def start(self) -> None:
        gc.disable()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()

    def check(self) -> None:
        """Collect the oldest generation whose count has passed its threshold."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                gc.collect(generation)
                return


def collect_on_the_ui_thread(parent: QObject) -> UiThreadCollector:
    """Switch the automatic collector off and collect from ``parent``'s thread instead."""
    collector = UiThreadCollector(parent)
    collector.start()
    return collector
