"""What the other side does is impossible to miss (issue 22): a banner with the yaku's cards and
points for the other player's koikoi and shobu calls, new yaku and teyaku (and one's own
calls), a lit "your turn" prompt said once a turn — in practice and between two windows on
loopback. The banner's time is the controller's ``Timings.banner_ms`` (set long here, so
that a banner stays until the test has read it; play does not wait for it: ``announce_ms``
is 0)."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

import koikoi.net.fair as fair
import tests.test_ui_network as net
from koikoi.engine.cards import card_list
from koikoi.engine.outcome import Outcome
from koikoi.engine.yaku import yaku_cards, yaku_of
from koikoi.ui.common import names
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore
from koikoi.ui.table.banner import KOIKOI, TEYAKU, YAKU, CallBanner
from koikoi.ui.table.overlay import CardPicture
from koikoi.ui.table.turn_cue import ACTING
from tests.test_ui_lobby import (
    LOOPBACK,
    Ready,
    _title,
    both_at_the_cards,
    close_lobby,
    leave_match,
    make_lobby,
    open_room,
)
from tests.test_ui_network import Pair
from tests.ui_driver import (
    FAST,
    click,
    close_window,
    find_card,
    panel_button,
    play_windows_by_clicks,
    start_practice,
)

READ = replace(FAST, banner_ms=600_000)
"""Fast play; a banner stays up until the next one (or the test) takes it down."""

TEYAKU_SEED = hashlib.sha256(b"calls 25").digest()
"""A practice seed: the player is oya and the computer's first hand is a teshi (手四)."""
NET_SEED = hashlib.sha256(b"calls net").digest()
"""The network match's joint seed (its deals)."""


def card_names(banner: CallBanner) -> list[str]:
    return [p.accessibleName() for p in banner.cards.findChildren(CardPicture)]


def named(cards: int) -> list[str]:
    return [names.card_accessible_name(c) for c in card_list(cards)]


def made_of(pile: int) -> int:
    """The cards that make a pile's yaku, as the engine says."""
    cards = 0
    for _, made, _ in yaku_cards(pile):
        cards |= made
    return cards


def open_window(qtbot: QtBot, home: Path) -> MainWindow:
    window = MainWindow(saves=SaveStore(home), timings=READ)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_computers_teyaku_is_a_banner_with_its_hand_and_points(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = open_window(qtbot, tmp_path)
    try:
        start_practice(window, seed=TEYAKU_SEED)
        c = window.controller
        qtbot.waitUntil(lambda: c.mode is Mode.FIRST_OYA)
        banner = window.game.banner
        assert not banner.isVisible()
        click(qtbot, panel_button(window))  # deal
        qtbot.waitUntil(lambda: c.mode is Mode.ROUND_OVER, timeout=10_000)
        result = c.summary.outcome.result if c.summary is not None else None
        assert result is not None and result.outcome is Outcome.TEYAKU and result.winner == 1
        call = banner.call
        assert banner.isVisible() and call is not None and call.kind == TEYAKU
        assert banner.title.text() == "The computer: Teyaku!"
        teshi = names.yaku_with_points(*result.yaku[0])
        assert banner.yaku.text() == teshi == "Four of a month in hand (6 points)"
        assert banner.line.text() == f"The computer wins the round: {result.points} points."
        assert card_names(banner) == named(result.teyaku_hand)  # the dealt hand, drawn
        assert teshi in banner.accessibleName()
        # it stays its time (the controller's), and lets clicks through to the table
        assert banner.duration_ms == READ.banner_ms
        centre = banner.geometry().center()
        assert window.game.childAt(centre) is not banner
        assert window.game.childAt(centre) not in banner.findChildren(CardPicture)
    finally:
        close_window(window)


def test_the_turn_is_lit_and_heard_once_a_turn(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    try:
        start_practice(window, seed=hashlib.sha256(b"calls turn").digest())
        c = window.controller
        game = window.game
        cue = game.turn_cue
        seen: list[tuple[Mode, bool]] = []  # each mode, and the prompt lit or not then
        c.mode_changed.connect(lambda m: seen.append((m, bool(game.prompt.property("yourTurn")))))
        qtbot.waitUntil(lambda: c.mode is Mode.FIRST_OYA)
        click(qtbot, panel_button(window))
        for _ in range(4):
            qtbot.waitUntil(lambda: c.mode is Mode.PLAY, timeout=10_000)
            assert game.prompt.property("yourTurn") is True
            assert game.prompt.text().startswith("Your turn")
            turns = [m for m, _ in seen].count(Mode.PLAY)
            assert cue.turns == turns  # lit once a turn, and heard once: the narration's line
            said = [line for line in game.side._lines if line.startswith("Your turn")]
            assert len(said) == turns
            click(qtbot, find_card(window, c.legal_plays()[0]))
            qtbot.waitUntil(lambda: c.mode is not Mode.PLAY)
            while c.mode in (Mode.DRAW_WAIT, Mode.PICK, Mode.DECIDE):
                if c.mode is Mode.DRAW_WAIT and c.draw_wait is not None:
                    click(qtbot, find_card(window, c.draw_wait.card))
                elif c.mode is Mode.PICK:
                    click(qtbot, find_card(window, c.candidates()[0]))
                else:
                    click(qtbot, panel_button(window, "koikoi"))
                qtbot.wait(5)
        assert cue.turns >= 4
        assert [lit for _, lit in seen] == [m in ACTING for m, _ in seen]  # lit only then
        assert (Mode.BUSY, False) in seen
    finally:
        close_window(window)


def test_both_tables_see_the_others_yaku_and_koikoi_with_its_cards(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair, "joint_seed", lambda *_args: NET_SEED)  # the deals, fixed
    monkeypatch.setattr(fair, "first_oya", lambda *_args: 0)  # the host deals first
    monkeypatch.setattr(net, "open_window", open_window)  # the pair's windows read banners
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    nick = {host: "taro", joiner: "hana"}  # the other player, as each window names them

    def theirs(kind: str) -> MainWindow | None:
        for w in pair.windows:
            call = w.game.banner.call
            shown = w.game.banner.isVisible() and call is not None
            if shown and call is not None and call.kind == kind and not call.mine:
                return w
        return None

    try:
        # up to a first yaku: its maker decides, the other table shows the yaku
        play_windows_by_clicks(
            qtbot,
            pair.windows,
            random.Random(3),
            until=lambda: any(w.controller.mode is Mode.DECIDE for w in pair.windows),
        )
        caller = next(w for w in pair.windows if w.controller.mode is Mode.DECIDE)
        seen = joiner if caller is host else host
        qtbot.waitUntil(lambda: theirs(YAKU) is seen, timeout=10_000)
        banner = seen.game.banner
        call = banner.call
        assert call is not None and call.seat == caller.controller.me
        pile = seen.game.table.model.captured_set(call.seat)
        assert pile == caller.game.table.model.captured_set(call.seat)
        assert banner.title.text() == f"{nick[seen]}: a new yaku!"
        expected = ", ".join(names.yaku_with_points(y, p) for y, p in yaku_of(pile))
        assert banner.yaku.text() == expected and expected
        total = sum(p for _, p in yaku_of(pile))
        assert banner.line.text() == names.points(total).join(("", " in all."))
        assert card_names(banner) == named(made_of(pile)) and card_names(banner)
        # the caller calls koikoi: both tables show the call
        c = caller.controller
        assert c.decision is not None and c.decision.can_koikoi
        click(qtbot, panel_button(caller, "koikoi"))
        qtbot.waitUntil(lambda: theirs(KOIKOI) is seen, timeout=10_000)
        assert banner.title.text() == f"{nick[seen]}: Koi-koi!"
        assert banner.line.text() == "The round goes on at ×2."
        assert card_names(banner) == named(made_of(pile))
        own = caller.game.banner
        qtbot.waitUntil(lambda: own.call is not None and own.call.kind == KOIKOI and own.call.mine)
        assert own.title.text() == "Koi-koi!" and own.isVisible()
        assert card_names(own) == named(made_of(pile))
        # the koikoi passes the turn: lit on the other table, out on the caller's
        qtbot.waitUntil(lambda: seen.controller.mode is Mode.PLAY, timeout=10_000)
        assert seen.game.prompt.property("yourTurn") is True
        prompt = seen.game.prompt.geometry().translated(seen.game.table.pos())
        assert banner.isVisible() and not banner.geometry().intersects(prompt)  # never hidden
        assert not caller.game.prompt.property("yourTurn")
        assert "Your turn: " in seen.game.prompt.text()
    finally:
        pair.close()


def test_the_four_cards_page_says_who_confirmed_and_who_is_waited_for(
    qtbot: QtBot, tmp_path: Path
) -> None:
    host = make_lobby(qtbot, tmp_path, "hana")
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    try:
        ready = Ready(host), Ready(guest)
        open_room(host, _title("Confirm"))
        guest.address.setText(f"{LOOPBACK}:{host.room.port}")  # type: ignore[union-attr]
        QTest.mouseClick(guest.address_button, Qt.MouseButton.LeftButton)
        both_at_the_cards(qtbot, host, guest)
        assert host.prematch.status.text() == guest.prematch.status.text() == ""
        QTest.mouseClick(guest.prematch.same_button, Qt.MouseButton.LeftButton)
        # the guest waits for the host; the host is told the guest confirmed
        assert guest.prematch.status.text() == (
            "Waiting for hana to confirm the four cards; then the coin is tossed…"
        )
        said = "tsuki confirmed the four cards. Do you see the same four?"
        qtbot.waitUntil(lambda: host.prematch.status.text() == said, timeout=10_000)
        assert host.prematch.same_button.isEnabled()  # the host still compares
        assert ready[0].args is None and ready[1].args is None
        QTest.mouseClick(host.prematch.same_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: all(r.args is not None for r in ready), timeout=10_000)
        assert guest.prematch.status.text().startswith("Waiting for hana")  # nothing new
        leave_match(qtbot, ready)
    finally:
        close_lobby(qtbot, host)
        close_lobby(qtbot, guest)
