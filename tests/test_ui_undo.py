"""Undo in practice through the real window: Ctrl+Z and the table's button take back the
player's own last turn exactly (hand, field, captures, the whole observation), the table,
the log and the save agree, the match is marked assisted; nothing happens before the
player's first play or in a network match."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from koikoi.engine.match import Observation
from koikoi.paths import koikoi_home
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore
from koikoi.ui.match.undo import take_back, undo_point
from tests.ui_driver import (
    Bot,
    _wait_progress,
    actions_so_far,
    click,
    close_window,
    start_practice,
    step_by_click,
    wait_for_input,
)


def _my_plays(c: GameController) -> int:
    assert c.record is not None and c.record.deals
    return sum(1 for a in c.record.deals[-1].actions if a["seat"] == c.me and "play" in a)


def _to_my_play(qtbot: Bot, window: MainWindow, rng: random.Random) -> None:
    """Click on until the player is to play a hand card."""
    c = window.controller
    for _ in range(200):
        if wait_for_input(qtbot, window) is Mode.PLAY:
            return
        step_by_click(qtbot, window, rng)
        qtbot.waitUntil(lambda: c.mode not in (Mode.FIRST_OYA, Mode.ROUND_OVER), timeout=10_000)
    raise AssertionError("the player never got to play")


def _play_a_turn(qtbot: Bot, window: MainWindow, rng: random.Random) -> None:
    """From the player's PLAY: play a card and everything it asks, until the player is to
    play again in the same deal."""
    c = window.controller
    plays = _my_plays(c)
    while True:
        mode = wait_for_input(qtbot, window)
        if mode is Mode.PLAY and _my_plays(c) > plays:
            return
        assert mode is not Mode.ROUND_OVER, "the round ended: pick another seed"
        before = (actions_so_far(window), mode)
        step_by_click(qtbot, window, rng, koikoi_rate=1.0)
        _wait_progress(qtbot, window, before)


def _table_shows(window: MainWindow, obs: Observation) -> None:
    model = window.game.table.model
    assert set(model.hand) == {c for c in range(48) if obs.hand >> c & 1}
    assert not model.check_against(obs), model.check_against(obs)


def _ctrl_z(window: MainWindow) -> None:
    """Ctrl+Z as the player presses it: to the focused widget (else the window)."""
    target = QApplication.focusWidget()
    if target is None or target.window() is not window:
        target = window
    QTest.keyClick(target, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def _open(qtbot: Bot) -> MainWindow:
    from tests.ui_driver import open_window

    return open_window(qtbot, size=(1024, 640))


def test_ctrl_z_takes_back_the_players_turn_exactly_and_the_save_follows(qtbot: Bot) -> None:
    window = _open(qtbot)
    c = window.controller
    rng = random.Random(4)
    start_practice(window, level="easy", seed=b"undo-exact")
    _to_my_play(qtbot, window, rng)
    assert undo_point(c) is None and not window.undo.button.isEnabled()
    first = c.observation()
    saved_before = json.dumps(c.record.to_json() if c.record else None)
    _ctrl_z(window)  # before the first play of the deal: nothing
    assert c.mode is Mode.PLAY and json.dumps(c.record.to_json() if c.record else None) == (
        saved_before
    )
    _play_a_turn(qtbot, window, rng)  # a first turn, then the one to take back
    before = c.observation()
    theirs = c.observation(c.them)  # what the computer could see at that moment
    assert before is not None and before != first
    lines = len(window.game.side._lines)
    _play_a_turn(qtbot, window, rng)
    assert c.observation() != before and window.undo.button.isEnabled()
    _ctrl_z(window)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    after = c.observation()
    assert after == before  # hand, field, both captures, stock, calls, the moves seen
    assert c.observation(c.them) == theirs  # the computer sees nothing it did not see then
    _table_shows(window, before)
    said = window.game.side._lines
    assert len(said) > lines and said[-1].startswith("Undo: your play of"), said[-1]
    assert "taken back" in said[-1]
    assert c.record is not None and c.record.to_json()["assisted"] == ["undo"]
    # the save is the cut record: resumed, it stands where the undo left it
    saved = SaveStore(koikoi_home()).load().saved
    assert saved is not None and saved.data["assisted"] == ["undo"]
    assert saved.replay.match.observation(c.me) == before
    click(qtbot, window.game.side.menu_button)
    assert window.resume()
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert c.observation() == before and c.record.to_json()["assisted"] == ["undo"]
    _table_shows(window, before)
    close_window(window)


def test_ctrl_z_at_koikoi_or_shobu_takes_the_whole_turn_back(qtbot: Bot) -> None:
    """While the player decides koikoi or shobu (the panel lies over the score column,
    and its button with it) Ctrl+Z takes the whole turn back."""
    window = _open(qtbot)
    c = window.controller
    rng = random.Random(9)
    start_practice(window, level="easy", seed=b"undo-button")
    start: Observation | None = None
    for _ in range(400):
        mode = wait_for_input(qtbot, window)
        if mode is Mode.DECIDE:
            break
        if mode is Mode.PLAY:
            start = c.observation()
        before = (actions_so_far(window), mode)
        step_by_click(qtbot, window, rng, koikoi_rate=1.0)
        _wait_progress(qtbot, window, before)
    else:
        raise AssertionError("no koikoi decision came")
    _ctrl_z(window)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert start is not None and c.observation() == start
    assert not window.game.overlay.isVisible()  # the koikoi panel is gone with the turn
    _table_shows(window, start)
    close_window(window)


def test_the_tables_undo_button_takes_back_a_turn(qtbot: Bot) -> None:
    window = _open(qtbot)
    c = window.controller
    rng = random.Random(4)
    start_practice(window, level="easy", seed=b"undo-exact")
    _to_my_play(qtbot, window, rng)
    _play_a_turn(qtbot, window, rng)
    before = c.observation()
    assert before is not None
    _play_a_turn(qtbot, window, rng)
    assert window.undo.button.isVisible() and window.undo.button.isEnabled()
    assert "Ctrl+Z" in window.undo.button.accessibleName()
    click(qtbot, window.undo.button)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert c.observation() == before
    _table_shows(window, before)
    close_window(window)


def test_undo_does_nothing_in_a_network_match(qtbot: Bot) -> None:
    """The controller refuses it when the match is a network one (the session holds it),
    even at a moment that practice would allow; the table's button is hidden."""
    window = _open(qtbot)
    c = window.controller
    rng = random.Random(4)
    start_practice(window, level="easy", seed=b"undo-exact")
    _to_my_play(qtbot, window, rng)
    _play_a_turn(qtbot, window, rng)
    _play_a_turn(qtbot, window, rng)
    assert undo_point(c) is not None  # practice would take it back
    record = json.dumps(c.record.to_json() if c.record else None)
    c.remote = cast(Any, object())  # as start_network leaves it: a remote opponent
    try:
        window.undo.refresh()
        assert not window.undo.button.isVisible()
        assert undo_point(c) is None and not take_back(c)
        assert json.dumps(c.record.to_json() if c.record else None) == record
    finally:
        c.remote = None
    close_window(window)


@pytest.mark.parametrize("mode", [Mode.BUSY, Mode.ROUND_OVER, Mode.MATCH_OVER, Mode.IDLE])
def test_undo_waits_for_the_players_move(mode: Mode) -> None:
    """While the computer moves or a result is shown, there is nothing to take back."""
    c = GameController()
    c.mode = mode
    assert undo_point(c) is None and not take_back(c)


def test_ctrl_z_while_the_drawn_card_waits_takes_back_play_and_draw(qtbot: Bot) -> None:
    """R5.5: the player's drawn card is shown and waits; Ctrl+Z then takes back the play
    and the draw (the card goes back on the stock), and the wait is over."""
    window = _open(qtbot)
    c = window.controller
    rng = random.Random(5)
    start_practice(window, level="easy", seed=b"undo-draw")
    start: Observation | None = None
    for _ in range(400):
        mode = wait_for_input(qtbot, window)
        if mode is Mode.DRAW_WAIT and start is not None:
            break
        if mode is Mode.PLAY:
            start = c.observation()
        before = (actions_so_far(window), mode)
        step_by_click(qtbot, window, rng)
        _wait_progress(qtbot, window, before)
    else:
        raise AssertionError("no drawn card waited")
    assert start is not None and c.draw_wait is not None
    _ctrl_z(window)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert c.draw_wait is None and not c._auto_timer.isActive()
    assert c.observation() == start
    _table_shows(window, start)
    assert "the draw of" in window.game.side._lines[-1]
    close_window(window)
