"""The coach's hint in practice (issue 24): H, or the Hint button, on the real window.

The hint comes from the computer's helper process, as the computer's moves do; it glows on
the best card, is said in the log (and so to screen readers), marks the match as played with
help, and goes when the player moves. The ranking itself is tested in tests/test_ai_coach.py.
"""

from __future__ import annotations

import random
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from koikoi.ai.coach import card_of
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU
from koikoi.stats.tally import ASSISTED_KEY
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match import coach as coach_module
from koikoi.ui.match.matchview import Mode
from koikoi.ui.table.panels import DecisionPanel, RoundResultPanel
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


@pytest.fixture(autouse=True)
def _playouts_bound_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint and the review search by the match's seed; here their playouts end them, not
    the time caps, so a slow or busy machine sees the same ranking. (The caps hold a hint to
    500 ms on this machine: ``python -m koikoi.devtools.hintbench``, docs/benchmarks.md.)"""
    monkeypatch.setattr(coach_module, "CAP_SECONDS", 60.0)
    monkeypatch.setattr(coach_module, "REVIEW_SECONDS", 60.0)


def on_top(window: MainWindow, widget: QWidget) -> bool:
    """The widget is shown and nothing covers its middle (what a click there reaches)."""
    if not widget.isVisible():
        return False
    seen = window.childAt(widget.mapTo(window, widget.rect().center()))
    return seen is widget or (seen is not None and widget.isAncestorOf(seen))


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
    shobu = next(a for a in window.coach.last if a.action == SHOBU)
    koikoi = next(a for a in window.coach.last if a.action == KOIKOI)
    decision = window.controller.decision
    assert decision is not None and shobu.points == decision.points and shobu.lost == 0
    assert 0 < koikoi.lost < 1  # a koikoi risks the round
    panel = window.game.overlay.panel
    assert isinstance(panel, DecisionPanel) and panel.hint is not None
    text = panel.hint.text()
    assert text.startswith("Hint: call ") and f"{decision.points} points now" in text
    assert "Koikoi: win chance " in text and "points on average" in text
    qtbot.waitUntil(panel.hint.isVisible)  # shown by Qt's next turn, as a layout's new child
    assert window.rect().contains(panel.hint.mapTo(window, panel.hint.rect().bottomRight()))
    press(window, Qt.Key.Key_S)  # shobu: the panel goes
    qtbot.waitUntil(lambda: window.controller.mode is not Mode.DECIDE)
    close_window(window)


REVIEWED = b"coach-review-00000000000000000000"


def test_a_rounds_review_names_the_costliest_choices_and_opens_the_replay_there(qtbot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=REVIEWED)
    click(qtbot, panel_button(window))
    # plays at random, koikoi always: the coach finds three costly choices (its playouts
    # are drawn from the match seed, as the computer's are)
    play_by_clicks(
        qtbot,
        window,
        random.Random(2),
        until=lambda w: w.controller.mode in (Mode.ROUND_OVER, Mode.MATCH_OVER),
        koikoi_rate=1.0,
    )
    assert window.controller.mode is Mode.ROUND_OVER
    panel = window.game.overlay.panel
    assert isinstance(panel, RoundResultPanel)
    strip = panel.findChild(QWidget, "coachReview")
    assert strip is not None
    (button,) = strip.findChildren(QPushButton)
    assert button.text() == "Review this round with the coach"
    click(qtbot, button)
    qtbot.waitUntil(lambda: not button.isVisible() or not button.isEnabled(), timeout=2_000)
    qtbot.waitUntil(lambda: window.coach.runner.asked is None, timeout=20_000)
    lines = [label.text() for label in strip.findChildren(QLabel)]
    assert lines, "the review said nothing"
    shows = [b for b in strip.findChildren(QPushButton) if b.text() == "Show"]
    assert len(shows) == 3 and len(lines) == 3, lines
    assert lines[0].startswith("1. You chose to ") and "the coach would " in lines[0]
    record = window.controller.record
    assert record is not None and "assisted" not in record.extra  # a review is no help in play
    # the lines and their buttons are laid out, and the panel placed again, on Qt's next turns
    qtbot.waitUntil(lambda: all(on_top(window, show) for show in shows), timeout=5_000)
    click(qtbot, shows[0])
    (viewer,) = window.coach.viewers
    assert viewer.isVisible() and viewer.note.text() == lines[0]
    step = viewer.replayed.steps[viewer.index + 1]  # the next step is the choice reviewed
    assert step.seat == window.controller.me
    viewer.close()
    qtbot.waitUntil(lambda: not window.coach.viewers)
    close_window(window)


def test_the_hint_and_the_review_speak_japanese(qtbot, japanese: None) -> None:
    window = open_window(qtbot)
    to_the_first_play(qtbot, window)
    assert window.coach.button.text() == "助言（H）"
    press(window, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: bool(window.coach.last), timeout=10_000)
    said = log_text(window).splitlines()[-1]
    assert said.startswith("助言：") and "勝つ見込み" in said and said.endswith("。")
    assert not re.search("[A-Za-z]{3,}", said), said
    close_window(window)
