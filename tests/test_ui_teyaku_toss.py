"""A network match whose first deal ends as it is dealt (a teyaku) still shows the coin toss,
then that deal's result, on both screens.

The engine scores a teyaku at the deal and deals the next round at once, before anyone moves
(R8). The window took a match with a finished round in it for one taken over later (a resume)
and laid out the second deal straight away: no coin toss, no result of the first round, and a
player (or ``tests/app_player.py``, waiting for the toss) was left wondering; about one match
in 55 deals a teyaku first. Two lobbies in this process open and join a password room, both
confirm the four cards, and each hands its match to a window as the app does
(``connect_match_ready``). The deck's seed is fixed to one whose first deal holds a teshi,
whoever is oya: the toss's randoms and the session id decide it otherwise.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

import koikoi.net.fair as fair
from koikoi.engine.match import Settings
from koikoi.engine.outcome import Outcome
from koikoi.net.hello import SEED_ONLY
from koikoi.net.lockstep import Lockstep
from koikoi.net.session.clock import ClockSetting
from koikoi.net.session.private_dealing import PrivateDealing
from koikoi.ui.lobby.lobby import Lobby, connect_match_ready
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode
from tests.net_support import deal_seeds
from tests.stepped_clock import SteppedClock
from tests.test_ui_clock import STEP, ClockPair, options
from tests.test_ui_lobby import (
    LOOPBACK,
    PASSWORD,
    _title,
    both_at_the_cards,
    close_lobby,
    make_lobby,
    open_room,
)
from tests.test_ui_network import LatePair, clock_shown, log_text, open_window
from tests.test_ui_panels import PRIVATE_NOTE, SEED_NOTE
from tests.ui_driver import click, close_window, panel_button, play_windows_by_clicks

TESHI_SEED = hashlib.sha256(b"teyaku 6").digest()
"""A deck seed whose first deal ends at once with a teshi (checked below)."""


def test_the_seed_deals_a_teyaku_first_whoever_is_oya() -> None:
    for oya in (0, 1):
        lockstep = Lockstep(Settings(rounds=6), oya, TESHI_SEED, bytes(32))
        assert lockstep.seq == 0
        assert [deal.result.outcome for deal in lockstep.match.history] == [Outcome.TEYAKU]


def test_a_first_deal_that_ends_at_once_shows_the_toss_then_its_result(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair, "joint_seed", lambda *_args: TESHI_SEED)
    host, guest = make_lobby(qtbot, tmp_path, "hana"), make_lobby(qtbot, tmp_path, "tsuki")
    windows: list[MainWindow] = [
        open_window(qtbot, tmp_path / "table-hana"),
        open_window(qtbot, tmp_path / "table-tsuki"),
    ]
    lobbies: list[Lobby] = [host, guest]
    for lobby in lobbies:  # the joint seed, fixed above; a private deal is random
        lobby.dealings = SEED_ONLY
    try:
        for lobby, window in zip(lobbies, windows, strict=True):
            assert connect_match_ready(lobby, window)
        open_room(host, _title("Teshi"), password=PASSWORD)
        guest.address.setText(f"{LOOPBACK}:{host.room.port}")  # type: ignore[union-attr]
        guest.address_password.setText(PASSWORD)
        QTest.mouseClick(guest.address_button, Qt.MouseButton.LeftButton)
        both_at_the_cards(qtbot, host, guest)
        for lobby in lobbies:
            QTest.mouseClick(lobby.prematch.same_button, Qt.MouseButton.LeftButton)
        for window in windows:
            c = window.controller
            qtbot.waitUntil(lambda: c.remote is not None, timeout=10_000)  # noqa: B023
            assert c.mode is Mode.FIRST_OYA, f"no coin toss: the window is at {c.mode}"
            panel = window.game.overlay.panel
            assert panel is not None and panel.accessibleName() == "Coin toss"
            assert SEED_NOTE in texts_of(panel)  # the joint seed: the numbers shuffle each deal
        for window in windows:
            deal_the_first_round(qtbot, window)
    finally:
        for lobby in lobbies:
            close_lobby(qtbot, lobby)
        for window in windows:
            close_window(window)


def texts_of(panel: QWidget | None) -> list[str]:
    assert panel is not None
    return [label.text() for label in panel.findChildren(QLabel)]


def at(controller: GameController, *modes: Mode) -> Callable[[], bool]:
    return lambda: controller.mode in modes


def deal_the_first_round(qtbot: QtBot, window: MainWindow) -> None:
    """Press the toss panel's "Deal the cards": the teyaku deal's result, then the next."""
    c = window.controller
    click(qtbot, panel_button(window))
    qtbot.waitUntil(at(c, Mode.ROUND_OVER), timeout=5_000)
    assert c.summary is not None and c.summary.round_no == 1
    assert c.summary.outcome.result.outcome is Outcome.TEYAKU
    click(qtbot, panel_button(window))  # the next round
    qtbot.waitUntil(at(c, Mode.PLAY, Mode.BUSY), timeout=5_000)
    assert c.match is not None and len(c.match.history) == 1


def test_a_window_taking_over_after_the_peer_moved_shows_the_toss_and_the_teyaku_first(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair, "joint_seed", lambda *_args: TESHI_SEED)
    pair = LatePair(qtbot, tmp_path)
    host_link: Any = pair.held[0][1]
    session = host_link.session
    assert session is not None and session.lockstep is not None
    second = session.lockstep.match.round
    assert second is not None
    quick, late = pair.windows[second.turn], pair.windows[1 - second.turn]
    late_link: Any = pair.held[1 - second.turn][1]
    pair.take_over(second.turn)
    assert quick.controller.mode is Mode.FIRST_OYA
    deal_the_first_round(qtbot, quick)
    # the second deal's first turn, before the other window has taken its match over
    late_seat = 1 - second.turn
    play_windows_by_clicks(
        qtbot, [quick], random.Random(3), until=lambda: to_move(late_link) == late_seat
    )
    qtbot.waitUntil(lambda: to_move(late_link) == late_seat, timeout=5_000)
    pair.take_over(late_seat)
    assert late.controller.mode is Mode.FIRST_OYA  # the toss first, then the teyaku's result
    deal_the_first_round(qtbot, late)
    # then the deal in play and the peer's move: the late side's turn, the table as it stands
    qtbot.waitUntil(at(late.controller, Mode.PLAY), timeout=10_000)
    obs = late.controller.observation()
    model = late.game.table.model
    assert obs is not None
    assert sum(1 << card for card in model.hand) == obs.hand
    assert sum(1 << c for c in model.field if c is not None) == obs.field
    pair.close()


def to_move(link: Any) -> int | None:
    """The seat to move in the link's match (None before the deal or between deals)."""
    session = link.session
    if session is None or session.lockstep is None or session.lockstep.match.round is None:
        return None
    return int(session.lockstep.match.round.turn)


def test_a_privately_dealt_first_deal_that_ends_at_once_shows_the_toss_then_its_result(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Private dealing (the app's default): the first deal's teyaku is declared by its holder
    opening the hand, the next deal is dealt by both sides afterwards and comes to the window
    as a ``DealLaidOut``. Each table shows the toss, the teyaku's result, then that deal. Both
    sessions draw the dealer seeds that give the teyaku, then a deal that is played (both are
    in this process)."""
    start_deal = PrivateDealing.start_deal

    def teyaku_first(private: PrivateDealing) -> None:
        session, match = private._session, private.lockstep.match
        first = not session._journal.own_seeds  # the next deal is played (a random one may not be)
        seeds = deal_seeds(session.session_id, match.round_no, match.deal_no, teyaku=first)
        session.dealer_seeds.append(seeds[session.role])
        start_deal(private)

    monkeypatch.setattr(PrivateDealing, "start_deal", teyaku_first)
    pair = ClockPair(
        qtbot, tmp_path, options("hana", 3600.0, 3600.0), options("taro", 3600.0, 3600.0)
    )
    try:
        for window in pair.windows:
            c = window.controller
            assert c.remote is not None and c.remote.dealing == "private"
            qtbot.waitUntil(at(c, Mode.FIRST_OYA), timeout=20_000)
            texts = texts_of(window.game.overlay.panel)
            assert PRIVATE_NOTE in texts and SEED_NOTE not in texts  # not from the numbers
            deal_the_first_round(qtbot, window)
        qtbot.waitUntil(  # one to move, the other waiting for the move
            lambda: {w.controller.mode for w in pair.windows} == {Mode.PLAY, Mode.BUSY},
            timeout=10_000,
        )
        for window in pair.windows:
            c = window.controller
            assert c.match is not None and c.match.round is not None
            assert c.observation() is not None
            model = window.game.table.model
            assert len(model.hand) == 8 and sum(1 for c in model.field if c is not None) == 8
    finally:
        pair.close()


def test_the_oya_reading_the_result_panel_for_90_s_loses_no_time(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22's case: the next round's clock ran while the oya still read the round's
    result, and played their first move for them. Here the first deal ends at once in a
    teyaku (its result panel up on both tables), the other player clicks on at once and the
    oya reads for a minute and a half on the links' stepped clock: no move is played for
    the oya, whose table then starts the deal with the whole clock, action and reserve;
    meanwhile the other table says whom it waits for and why."""
    start_deal = PrivateDealing.start_deal

    def teyaku_first(private: PrivateDealing) -> None:
        session, match = private._session, private.lockstep.match
        first = not session._journal.own_seeds
        seeds = deal_seeds(session.session_id, match.round_no, match.deal_no, teyaku=first)
        session.dealer_seeds.append(seeds[session.role])
        start_deal(private)

    monkeypatch.setattr(PrivateDealing, "start_deal", teyaku_first)
    clock = SteppedClock()
    room = ClockSetting(20, 60)
    pair = ClockPair(
        qtbot,
        tmp_path,
        options("hana", None, 3600.0, clock=room),
        options("taro", None, 3600.0),
        clock,
    )
    try:
        for window in pair.windows:
            qtbot.waitUntil(at(window.controller, Mode.FIRST_OYA), timeout=20_000)
            click(qtbot, panel_button(window))
            qtbot.waitUntil(at(window.controller, Mode.ROUND_OVER), timeout=5_000)
        match = pair.host.controller.match
        assert match is not None and len(match.history) == 1
        oya = pair.windows[match.oya]  # the teyaku's holder deals next (R8.2)
        other = pair.windows[1 - match.oya]
        name = "hana" if oya is pair.host else "taro"
        click(qtbot, panel_button(other))
        clock.advance(90.0, qtbot, STEP)  # the oya reads the result
        assert "Your time ran out" not in log_text(oya)
        assert oya.controller.mode is Mode.ROUND_OVER
        waiting = other.game.prompt.text()
        assert waiting == f"Waiting for {name}: their table still shows the last play or a result"
        click(qtbot, panel_button(oya))
        qtbot.waitUntil(at(oya.controller, Mode.PLAY), timeout=10_000)
        prompt = oya.game.prompt.text()
        assert prompt.startswith("Your move — 0:20 (+1:00)"), prompt
        clock.advance(19.0, qtbot, STEP)
        assert "Your time ran out" not in log_text(oya)
        qtbot.waitUntil(lambda: clock_shown(other.game.prompt.text()) <= 2, timeout=5_000)
        for session in (pair.room.session, pair.join.session):
            assert session is not None and session.clock_setting == room  # the room's, agreed
    finally:
        pair.close()
