"""Cycles are collected on the UI thread only (koikoi/ui/common/collect.py): a worker thread
that allocates never runs the collector, so never destroys a Qt object off its thread."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from koikoi.ui.common.collect import INTERVAL_MS, UiThreadCollector


class Cycle:
    def __init__(self) -> None:
        self.me = self
        self.qt = QObject()  # a Qt object in a cycle: what must die on the UI thread


def test_the_app_collects_on_the_ui_thread_only(qtbot: QtBot) -> None:
    assert not gc.isenabled(), "the app's collector (conftest: as make_app) switched it off"
    gc.collect()
    dead: list[str] = []
    garbage = Cycle()
    weakref.finalize(garbage, lambda: dead.append(threading.current_thread().name))
    del garbage

    kept: list[list[object]] = []

    def allocate() -> None:  # far past gen 0's threshold: the automatic collector would run
        kept.extend([] for _ in range(100_000))

    worker = threading.Thread(target=allocate, name="allocating worker")
    worker.start()
    worker.join()
    assert dead == [], "a worker thread collected the cycle"
    qtbot.waitUntil(lambda: dead != [], timeout=INTERVAL_MS * 6)
    assert dead == [threading.main_thread().name]
    kept.clear()


def test_each_generation_is_collected_past_its_threshold() -> None:
    collector = UiThreadCollector()
    collector.thresholds = (10**9, 10**9, 10**9)
    gc.collect()
    garbage = Cycle()
    alive = weakref.ref(garbage)
    del garbage
    collector.check()
    assert alive() is not None  # below every threshold: nothing collected
    collector.thresholds = (0, 10**9, 10**9)
    collector.check()
    assert alive() is None
