"""A whole practice match with the keyboard alone, from the start screen to the match result
and back, in English and (once its translation ships) in Japanese.

Every key goes to the widget that has the focus (``QTest.keyClick`` on
``QApplication.focusWidget()``, see ``tests/keyboard_player.py``): a moment where nothing has
the focus, or where the key the scheme of ``koikoi/ui/common/keys.py`` names does nothing, fails.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QPushButton

from koikoi.engine.events import MatchEnded
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.replay.history import load
from tests import keyboard_player
from tests.keyboard_player import focused, key
from tests.ui_driver import close_window, describe, open_window, wait_for_input

REPO = Path(__file__).resolve().parent.parent
QM_JA = REPO / "assets" / "i18n" / "koikoi_ja.qm"


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The app's language: English as written, or Japanese from its ``.qm``."""
    lang: str = request.param
    if lang == "en":
        yield lang
        return
    assert QM_JA.exists(), "assets/i18n/koikoi_ja.qm is shipped: it must exist"
    translator = QTranslator()
    assert translator.load(str(QM_JA)), f"{QM_JA} does not load"
    app = QCoreApplication.instance()
    assert app is not None
    app.installTranslator(translator)
    try:
        yield lang
    finally:
        app.removeTranslator(translator)


def tab_to(qtbot: object, window: MainWindow, widget: object, most: int = 40) -> None:
    """Tab until ``widget`` has the focus, as a keyboard player would."""
    for _ in range(most):
        if QApplication.focusWidget() is widget:
            return
        key(qtbot, window, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reaches {widget!r}: {describe(window)}")


def log_by_tab(qtbot: object, window: MainWindow) -> None:
    """The game log is reached by Tab (a screen reader reads it back there), and the game's
    keys still work from it."""
    log = window.game.side.log
    assert isinstance(log, QPlainTextEdit)
    unfocused = log.grab().toImage()
    tab_to(qtbot, window, log)
    QApplication.processEvents()
    assert log.grab().toImage() != unfocused, "the log shows no sign of the keyboard's focus"
    first = window.game.table.model.hand[0]
    key(qtbot, window, Qt.Key.Key_1, lambda: window.game.selected == first)
    key(qtbot, window, Qt.Key.Key_Escape, lambda: window.game.selected is None)


def test_a_whole_match_by_keyboard_alone(qtbot: object, language: str) -> None:
    window = open_window(qtbot)
    try:
        start = window.start.practice_button
        window.activateWindow()  # a window left open by an earlier test may hold the focus
        qtbot.waitUntil(  # type: ignore[attr-defined]
            lambda: (w := QApplication.focusWidget()) is not None and w.window() is window
        )
        assert focused(window) is start, "the start screen opens with Practice focused"
        key(qtbot, window, Qt.Key.Key_Space, lambda: window.stack.currentWidget() is window.game)
        rng = random.Random(f"keys-{language}")
        log_checked = False
        steps = 0
        while True:
            mode = wait_for_input(qtbot, window)
            if mode is Mode.MATCH_OVER:
                break
            if mode is Mode.PLAY and not log_checked:
                log_by_tab(qtbot, window)
                log_checked = True
            goes_on = keyboard_player.goes_on(window)
            keyboard_player.step(qtbot, window, rng, koikoi_rate=0.5)
            qtbot.waitUntil(goes_on, timeout=10_000)  # type: ignore[attr-defined]
            steps += 1
            assert steps < 2000, describe(window)
        c = window.controller
        assert c.match is not None and c.match.finished
        rec = c.record
        assert rec is not None and c.match.settings.rounds == 6
        # the match result: its buttons by Tab, "back to the start" by Space
        panel = window.game.overlay.panel
        assert panel is not None
        home = (
            panel.findChild(QPushButton, "home")
            or [b for b in panel.findChildren(QPushButton) if b.objectName() != "default"][0]
        )
        assert isinstance(focused(window), QPushButton), "the match result has the focus"
        tab_to(qtbot, window, home)
        key(qtbot, window, Qt.Key.Key_Space, lambda: window.stack.currentWidget() is window.start)
        kept = sorted((Path(window.saves.path).parent).rglob("practice-*.json"))
        assert kept, "the finished match was not kept"
        _, replayed = load(str(kept[-1]))
        events = [e for step in replayed.steps for e in step.events]
        assert any(isinstance(e, MatchEnded) for e in events)
    finally:
        close_window(window)
