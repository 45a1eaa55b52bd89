"""The coach's hint in practice (issue 24): H, or the Hint button, on the real window.

The hint comes from the computer's helper process, as the computer's moves do; it glows on
the best card, is said in the log (and so to screen readers), marks the match as played with
help, and goes when the player moves. The ranking itself is tested in tests/test_ai_coach.py.
"""

from __future__ import annotations

import random

from PySide6.QtCore import Qt

from koikoi.ai.coach import card_of
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU
from koikoi.stats.tally import ASSISTED_KEY
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.table.panels import DecisionPanel
from tests.ui_driver import (
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    press,
    start_practice,
    wait_for_input,
)

SEED = b"coach-hint-0000000000000000000001"


def log_text(window: MainWindow) -> str:
    return str(window.game.side.log.toPlainText())


def to_the_first_play(qtbot, window) -> None:
    start_practice(window, seed=SEED)
    click(qtbot, panel_button(window))  # the first oya is drawn: to the table
    play_by_clicks(qtbot, window, random.Random(3), until=lambda w: w.controller.mode is Mode.PLAY)
    assert wait_for_input(qtbot, window) is Mode.PLAY


def test_h_glows_on_the_best_card_says_why_and_marks_the_match(qtbot) -> None:
    window = open_window(qtbot)
    to_the_first_play(qtbot, window)
    coach = window.coach
    assert coach.button.isVisible() and coach.button.isEnabled()
    assert "Hint:" not in log_text(window)  # nothing until asked
    press(window, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: bool(coach.last), timeout=10_000)
    best = coach.last[0]
    card = card_of(best.action)
    assert card is not None and best.action < PICK_BASE
    obs = window.controller.observation()
    assert obs is not None and card in [c for c in range(48) if obs.hand >> c & 1]
    # every move of the hand, best first, with the chances of the same sampled deals
    chances = [a.chance for a in coach.last]
    assert chances == sorted(chances, reverse=True)
    assert len({a.samples for a in coach.last}) == 1
    widget = window.game.table.card_widget(card)
    assert widget is not None and widget.glow == "hint"
    said = log_text(window).splitlines()[-1]
    assert said.startswith("Hint: play ") and "win chance" in said and " %" in said
    assert "it takes" in said
    record = window.controller.record
    assert record is not None and record.extra[ASSISTED_KEY] == ["hint"]
    # the player plays another card: the hint was of that move, it goes
    play_by_clicks(
        qtbot, window, random.Random(4), until=lambda w: w.controller.mode is not Mode.PLAY
    )
    assert window.game.hinted is None
    assert all(w.glow != "hint" for w in window.game.table.widgets.values())
    close_window(window)


def test_the_hint_button_asks_the_same_and_is_off_while_the_computer_moves(qtbot) -> None:
    window = open_window(qtbot)
    to_the_first_play(qtbot, window)
    click(qtbot, window.coach.button)
    qtbot.waitUntil(lambda: bool(window.coach.last), timeout=10_000)
    assert log_text(window).splitlines()[-1].startswith("Hint: ")
    assert "Hint (H)" in window.coach.button.text()
    window.controller.mode = Mode.BUSY  # as while the computer thinks
    window.controller.mode_changed.emit(Mode.BUSY)
    assert not window.coach.button.isEnabled() and not window.coach.ask()
    close_window(window)


DECIDING = b"screenshots-match-0000000000000001"
"""A practice match whose player makes a yaku early (tests/test_ui_layout.py)."""


def test_at_koikoi_or_shobu_h_gives_both_chances_in_the_decisions_panel(qtbot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=DECIDING)
    click(qtbot, panel_button(window))
    play_by_clicks(
        qtbot, window, random.Random(1), until=lambda w: w.controller.mode is Mode.DECIDE
    )
    press(window, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: bool(window.coach.last), timeout=10_000)
    assert {a.action for a in window.coach.last} == {KOIKOI, SHOBU}
    panel = window.game.overlay.panel
    assert isinstance(panel, DecisionPanel) and panel.hint is not None
    text = panel.hint.text()
    assert text.startswith("Hint: ") and "Koikoi" in text and "Shobu" in text and "%" in text
    assert panel.hint.isVisible()
    assert window.rect().contains(panel.hint.mapTo(window, panel.hint.rect().bottomRight()))
    press(window, Qt.Key.Key_S)  # shobu: the panel goes
    qtbot.waitUntil(lambda: window.controller.mode is not Mode.DECIDE)
    close_window(window)
