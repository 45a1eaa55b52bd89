"""Whole practice matches through the real window: by mouse clicks, by keys alone.

The cards are found the way a screen reader finds them, by accessible name, and clicked or
keyed as a player would. After the match, every number on the result panel is checked
against the engine's history, and the autosave has become a finished record that replays
to the same stakes.
"""

from __future__ import annotations

import json
import logging
import random

import pytest
from PySide6.QtWidgets import QAbstractButton, QTableWidget

from koikoi.engine.cards import CARD_IDS, iter_cards
from koikoi.engine.match import Settings
from koikoi.engine.record import replay_record
from koikoi.paths import koikoi_home
from koikoi.ui.common.names import card_accessible_name
from koikoi.ui.match.controller import COMPUTER, HUMAN
from koikoi.ui.match.matchview import Mode
from koikoi.ui.table.card_widget import CardWidget
from koikoi.ui.table.panels import MatchResultPanel
from tests.ui_driver import (
    click,
    close_window,
    find_card,
    open_window,
    panel_button,
    play_by_clicks,
    play_by_keys,
    start_practice,
    wait_for_input,
)


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture):
    """Fail a test on any ERROR logged by the app (e.g. the table disagreeing with the engine)."""
    caplog.set_level(logging.WARNING, logger="koikoi")
    yield caplog
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


def _check_match_result(window) -> None:
    c = window.controller
    m = c.match
    assert m.finished
    panel = window.game.overlay.panel
    assert isinstance(panel, MatchResultPanel)
    table = panel.findChild(QTableWidget, "roundsTable")
    assert table is not None and table.rowCount() == len(m.history)
    for row, outcome in enumerate(m.history):
        if outcome.result.outcome.value == "redeal":
            continue
        mine, theirs = table.item(row, 4), table.item(row, 5)
        assert mine is not None and theirs is not None  # a round's row has its scores
        assert mine.text() == str(outcome.scores[HUMAN])
        assert theirs.text() == str(outcome.scores[COMPUTER])
    # the finished match was archived from the autosave and replays to the same stakes
    assert not (koikoi_home() / "practice.json").exists()
    games = list((koikoi_home() / "games").glob("*.json"))
    assert len(games) == 1
    replayed = replay_record(json.loads(games[0].read_text(encoding="utf-8")))
    assert replayed.match.finished
    assert replayed.match.scores == m.scores


def test_whole_match_by_mouse_clicks(qtbot, no_errors):
    window = open_window(qtbot)
    click(qtbot, window.start.practice_button)  # the start screen's own button
    c = window.controller
    assert c.match is not None
    assert c.match.settings == Settings(6, True)  # R2.7: 6 rounds, doubling on by default
    assert window.game.table.assist
    play_by_clicks(qtbot, window, random.Random(11))
    _check_match_result(window)
    # a rematch starts over with the same settings
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    assert c.match is not None
    assert c.match.scores == (25, 25) and c.match.settings == Settings(6, True)
    close_window(window)


def test_whole_match_by_keys_alone(qtbot, no_errors):
    window = open_window(qtbot)
    start_practice(window, rounds=6, level="normal")
    play_by_keys(qtbot, window, random.Random(5))
    _check_match_result(window)
    close_window(window)


def test_every_card_and_control_has_an_accessible_name(qtbot):
    window = open_window(qtbot)
    for control in window.findChildren(QAbstractButton):
        assert control.accessibleName() or control.text(), control
    start_practice(window, seed=b"accessible-names-0000000000000001")
    click(qtbot, panel_button(window))  # deal
    wait_for_input(qtbot, window)
    obs = window.controller.observation(HUMAN)
    assert obs is not None  # dealt
    shown = [w for w in window.findChildren(CardWidget) if w.isVisible()]
    assert len(shown) == 8 + 8 + 8  # both hands and the field; the stock is one widget
    for card in iter_cards(obs.hand | obs.field):
        widget = find_card(window, card)  # by name, as QTest and screen readers do
        assert widget.accessibleDescription()
    assert find_card(window, 0).accessibleName() == "Pine crane, January light"
    backs = [w for w in shown if w.card is None]
    assert len(backs) == 8 and all(w.accessibleName() == "Face-down card" for w in backs)
    assert "24" in window.game.table.stock.accessibleName()
    for control in window.findChildren(QAbstractButton):
        if control.isVisible():
            assert control.accessibleName() or control.text(), control
    names = {card_accessible_name(c) for c in range(48)}
    assert len(names) == 48, "two cards share a name"
    assert all(CARD_IDS[c] for c in range(48))
    close_window(window)
