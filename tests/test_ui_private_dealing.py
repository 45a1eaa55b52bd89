"""The desktop app deals privately by default (issue 15; docs/protocol.md, "Private dealing").

Real windows offscreen, real zeroconf bound to 127.0.0.1, real sockets on loopback. Two app
windows open a room and join it through their lobbies (the room listed by mDNS, joined by a
double-click), confirm the four cards and play a whole match by clicks: every deal is dealt
by SRA mental poker, each table shows each deal, both signed records hold the dealing and
verify, dealing included. A room announced as version 2 is still joined, with the joint
seed, when the player allowed it; a peer that withholds its part of a deal is waited for in
words; a privately dealt match cut off by a crash is not offered for reconnecting (it is
not resumed yet).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import secrets
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from koikoi.engine.events import Dealt, Event
from koikoi.engine.match import Settings
from koikoi.net.discovery.advertiser import RoomAdvertiser
from koikoi.net.discovery.txt import Advertisement, announced_version, room_txt
from koikoi.net.hello import PRIVATE_VERSION, PROTOCOL_VERSION
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.recordfile import local_path
from koikoi.net.transport.options import PeerOptions
from koikoi.net.verify import VerificationFailed, verify_record
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY, SaveStore, kept_matches
from koikoi.ui.net.netlink.base import APP_DEALINGS
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.replay.viewer import OpenTableModel
from koikoi.ui.smoke import LOOPBACK
from koikoi.ui.table import game_screen
from tests.stepped_clock import SteppedClock
from tests.test_ui_clock import STEP, ClockPair
from tests.test_ui_clock import options as clock_options
from tests.test_ui_crash_resume import crash, lobby_window, net_records
from tests.test_ui_lobby import both_at_the_cards, open_room, row_of, wait_listed
from tests.test_ui_network import ended_message, log_text, saved_record
from tests.test_ui_viewer import open_viewer
from tests.ui_driver import (
    actions_so_far,
    click,
    close_window,
    double_click_room,
    play_windows_by_clicks,
)

PRIVATE_TEXT = "Private dealing: neither side can see the other's hand or the stock"
SEED_TEXT = "Deals from a joint seed"


class DealsShown:
    """Every ``Dealt`` a window's table presented (the game screen is the presenter)."""

    def __init__(self, window: MainWindow) -> None:
        self.deals: list[Dealt] = []
        screen = window.game
        present = screen.present

        def counting(event: Event, controller: GameController) -> int:
            if isinstance(event, Dealt):
                self.deals.append(event)
            return present(event, controller)

        screen.present = counting  # type: ignore[method-assign]


def join_listed_room(qtbot: QtBot, host: MainWindow, joiner: MainWindow, title: str) -> None:
    """The joiner finds the host's room in its lobby's list and double-clicks it; both see
    the four cards and confirm them; each window takes its match."""
    wait_listed(qtbot, joiner.lobby, title, timeout=15_000)
    double_click_room(joiner.lobby, title)
    both_at_the_cards(qtbot, host.lobby, joiner.lobby)
    for window in (joiner, host):
        click(qtbot, window.lobby.prematch.same_button)
    qtbot.waitUntil(
        lambda: host.controller.remote is not None and joiner.controller.remote is not None,
        timeout=20_000,
    )


def close_lobby_windows(qtbot: QtBot, *windows: MainWindow) -> None:
    """Close the windows and wait for their rooms' announcers: none outlives its test."""
    for window in windows:
        announcer = window.lobby.announcer
        close_window(window)
        if announcer is not None:
            announcer.wait()


def test_two_apps_play_a_whole_match_privately_dealt_and_both_records_verify(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    announced: list[str] = []
    monkeypatch.setattr(game_screen, "announce", lambda _widget, text: announced.append(text))
    host = lobby_window(qtbot, tmp_path / "hana", "hana", dealings=APP_DEALINGS)
    joiner = lobby_window(qtbot, tmp_path / "taro", "taro", dealings=APP_DEALINGS)
    title = f"Private {secrets.token_hex(3)}"
    try:
        shown = [DealsShown(host), DealsShown(joiner)]
        open_room(host.lobby, title)
        assert host.lobby.room is not None
        assert host.lobby.room.options.dealings == ("private",)
        # the room is announced as speaking version 4, and joined offering private dealing
        wait_listed(qtbot, joiner.lobby, title, timeout=15_000)
        listed = joiner.lobby.finder.model.rooms()[row_of(joiner.lobby, title)]
        assert listed.version == PRIVATE_VERSION
        double_click_room(joiner.lobby, title)
        both_at_the_cards(qtbot, host.lobby, joiner.lobby)
        # the four cards' panel says how the match deals, on both sides
        for window in (host, joiner):
            assert window.lobby.prematch.dealing.text() == PRIVATE_TEXT
        for window in (joiner, host):
            click(qtbot, window.lobby.prematch.same_button)
        qtbot.waitUntil(
            lambda: host.controller.remote is not None and joiner.controller.remote is not None,
            timeout=20_000,
        )
        for window in (host, joiner):
            remote = window.controller.remote
            assert remote is not None and remote.session is not None  # waited for above
            session = remote.session
            assert session.dealing == "private" and session.protocol == "koikoi-net/4"
            # the score column says it and a screen reader hears it; the log does not say
            # it again under the score column (issue 22: it was written twice)
            line = window.game.side.dealing
            assert line.isVisible() and line.text() == PRIVATE_TEXT
            assert PRIVATE_TEXT not in log_text(window)
        assert announced.count(PRIVATE_TEXT) == 2  # to a screen reader, at each table
        play_windows_by_clicks(
            qtbot,
            [host, joiner],
            random.Random(15),
            until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in (host, joiner)),
            koikoi_rate=0.0,  # shobu at once: small stakes, so the match runs several deals
        )
        qtbot.waitUntil(lambda: host.net_record is not None and joiner.net_record is not None)
        records = [saved_record(w) for w in (host, joiner)]
        for record in records:
            assert record["net"]["dealing"] == "private"
            assert record["net"]["protocol"] == "koikoi-net/4"
            assert RESUME_KEY not in record and record["end"]["finished"] is True
            assert all("dealing" in deal and "sealed" not in deal for deal in record["deals"])
            report = verify_record(record)
            assert report.to_json()["valid"] is True and report.result["finished"] is True
            assert report.to_json()["proven"]["deals"] == len(record["deals"])
        assert records[0]["deals"] == records[1]["deals"]
        # the dealing is checked: a seed changed in the record is caught, its sender named
        tampered = copy.deepcopy(records[1])
        seeds = tampered["deals"][-1]["dealing"]["seeds"]
        seeds["joiner"] = base64.b64encode(bytes(32)).decode()
        with pytest.raises(VerificationFailed, match="joiner"):
            verify_record(tampered)
        # each table showed every deal of the match, its own hand as dealt; of the other
        # hand and the stock, its deal events held the counts and no card (the audited
        # record has them all)
        deals = records[0]["deals"]
        assert len(deals) == len(host.controller.match.history)  # type: ignore[union-attr]
        # the first deal came with the toss, the others were laid out later; now and then a
        # random first deal is a stake lost whole (R2.3: the match ends there), so only a
        # match that ended so may hold a single deal
        scores = host.controller.match.scores  # type: ignore[union-attr]
        assert len(deals) >= 2 or 0 in scores, (len(deals), scores)
        for window, seen in zip((host, joiner), shown, strict=True):
            me = window.controller.me
            assert len(seen.deals) == len(deals)
            for dealt, deal in zip(seen.deals, deals, strict=True):
                assert sorted(_ids(dealt.hands[me])) == sorted(deal["hands"][me])
                assert sorted(_ids(dealt.field)) == sorted(deal["field"])
                sealed = {*deal["hands"][1 - me], *deal["stock"]}
                assert not sealed & {*_ids(dealt.hands[0] | dealt.hands[1] | dealt.field)}
                assert (dealt.hand_size(1 - me), dealt.stock_size) == (8, 24)
        assert host.controller.match.scores == joiner.controller.match.scores  # type: ignore[union-attr]
        seconds = host.controller.remote.session.deal_seconds  # type: ignore[union-attr]
        print(
            f"\nprivately dealt: {len(deals)} deals, ms each: {[round(t * 1000) for t in seconds]}"
        )
        # the games are listed, finished, nothing to reconnect
        for window in (host, joiner):
            (kept,) = kept_matches(window.saves)
            assert kept.network and kept.finished and not kept.reconnect
    finally:
        close_lobby_windows(qtbot, host, joiner)


def _ids(cards: int) -> list[str]:
    from koikoi.engine.cards import CARD_IDS

    return [CARD_IDS[c] for c in range(48) if cards >> c & 1]


def test_a_room_announced_as_version_2_is_joined_with_the_joint_seed(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A released koikoi-net/2 host answers only a version-2 hello: with joint-seed dealing
    allowed for joining (the lobby's option; off, the room is not dialled:
    tests/test_ui_dealing_refusal.py), the lobby offers it the joint seed alone, so the
    handshake is version 2 (a private-dealing hello would make it 4)."""
    room = QtRoom(
        PeerOptions(
            identity=Identity.generate(),
            nickname="hana",
            settings=Settings(),
            known_peers=KnownPeers(None),
            dealings=("seed",),
        )
    )
    room.listen(LOOPBACK, 0)
    title = f"Older {secrets.token_hex(3)}"
    ad = Advertisement(title, "hana", room.port, version=PROTOCOL_VERSION)
    assert room_txt(ad)["v"] == "2"
    advertiser = RoomAdvertiser(ad, bind=LOOPBACK)
    advertiser.publish()
    joiner = lobby_window(qtbot, tmp_path / "taro", "taro", dealings=APP_DEALINGS)
    joiner.lobby.dealings = None  # the player's choice:
    joiner.lobby.join_seed.setChecked(True)  # joint-seed dealing allowed, for older koikoi
    try:
        wait_listed(qtbot, joiner.lobby, title, timeout=15_000)
        listed = joiner.lobby.finder.model.rooms()[row_of(joiner.lobby, title)]
        assert listed.version == PROTOCOL_VERSION
        double_click_room(joiner.lobby, title)
        qtbot.waitUntil(
            lambda: (
                joiner.lobby.pages.currentWidget() is joiner.lobby.prematch
                and joiner.lobby.prematch.painted
            ),
            timeout=15_000,
        )
        assert joiner.lobby.prematch.dealing.text() == SEED_TEXT
        click(qtbot, joiner.lobby.prematch.same_button)
        qtbot.waitUntil(lambda: joiner.controller.remote is not None, timeout=20_000)
        remote = joiner.controller.remote
        assert remote is not None and remote.session is not None  # waited for above
        session = remote.session
        assert joiner.link is not None and joiner.link.options.dealings == ("seed",)
        assert session.protocol == "koikoi-net/2" and session.dealing == "seed"
        assert joiner.game.side.dealing.text() == SEED_TEXT
        assert SEED_TEXT not in log_text(joiner)  # the score column says it, once
        assert "dealing" not in session.record().to_json()["net"]  # a version-2 record
    finally:
        close_lobby_windows(qtbot, joiner)
        room.leave()
        advertiser.withdraw()


def test_a_host_announces_the_version_it_speaks() -> None:
    for dealings, version in ((APP_DEALINGS, 4), (("private",), 4), (("seed",), 2)):
        assert announced_version(dealings) == version
        ad = Advertisement("Hanami", "hana", 4000, version=announced_version(dealings))
        assert room_txt(ad)["v"] == str(version)


def test_the_peer_withholding_its_part_of_the_deal_is_waited_for_in_words(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The joiner's program stops reading mid-match (a frozen or hostile peer; it still
    sends its heartbeats): the host, whose draw waits for the joiner's key, says it waits for
    taro to unlock the card it draws, then that taro sent nothing of the deal, and may end
    the match as abandoned; both records say so."""
    hana, taro = clock_options("hana", 60.0, 3.0), clock_options("taro", 60.0, 60.0)
    clock = SteppedClock()  # both links' clock, moved on by the test
    pair = ClockPair(qtbot, tmp_path, hana, taro, clock)
    host, joiner = pair.windows
    try:
        pair.to_the_table()
        play_windows_by_clicks(
            qtbot,
            pair.windows,
            random.Random(3),
            until=lambda: actions_so_far(host) >= 4 and host.controller.mode is Mode.PLAY,
        )
        socket = pair.join.socket
        assert socket is not None
        socket.readyRead.disconnect()  # the joiner reads nothing more: no key comes back
        c = host.controller
        card = c.legal_plays()[0]
        matches = [m for m in range(48) if c.matches_on_field(card) >> m & 1]
        # a card with two matches takes one of them at once: no pick left, the draw is next
        assert c.play(card, matches[0] if len(matches) == 2 else None)
        qtbot.waitUntil(lambda: c.peer_dealing(), timeout=10_000)
        clock.advance(1.0, qtbot, STEP)  # the table's clock redraws the prompt each second
        assert host.game.prompt.text().startswith(
            "Waiting for taro to unlock the card you draw… "
        ), host.game.prompt.text()
        clock.advance(1.5, qtbot, STEP)
        assert not host.game.side.abandon_button.isVisible()  # not before the abandon time
        clock.advance(1.0, qtbot, STEP)
        qtbot.waitUntil(lambda: "has sent nothing of the deal" in log_text(host), timeout=5_000)
        assert host.game.side.abandon_button.isVisible()
        assert "taro has sent nothing of the deal for " in host.game.prompt.text()
        # "3 seconds" once the English plurals are compiled (assets/i18n, at the merge)
        assert "taro has sent nothing of the deal for 3 second" in log_text(host)
        click(qtbot, host.game.side.abandon_button)
        box = ended_message(qtbot, host)
        assert isinstance(box, QMessageBox)
        record = saved_record(host)
        assert record["end"]["how"] == "abandoned" and record["net"]["dealing"] == "private"
        assert "the peer sent no " in record["end"]["reason"]
        assert verify_record(record).to_json()["valid"] is True
        box.accept()
    finally:
        pair.close()


def test_a_privately_dealt_match_cut_by_a_crash_is_offered_for_reconnecting(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A privately dealt match is restored after a crash (its record file has this side's
    seeds and journal beside it, its sidecar): its record says how to reconnect and the app started
    again offers it (the resume itself: tests/test_ui_crash_resume.py, privately dealt); the
    peer waits for a resume as after any drop."""
    host = lobby_window(qtbot, tmp_path / "hana", "hana", dealings=APP_DEALINGS)
    joiner = lobby_window(qtbot, tmp_path / "taro", "taro", keep=False, dealings=APP_DEALINGS)
    title = f"Crash {secrets.token_hex(3)}"
    try:
        open_room(host.lobby, title)
        join_listed_room(qtbot, host, joiner, title)
        play_windows_by_clicks(
            qtbot,
            [host, joiner],
            random.Random(8),
            until=lambda: actions_so_far(joiner) >= 6,
        )
        (path,) = net_records(tmp_path / "taro")
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["net"]["dealing"] == "private" and RESUME_KEY in written
        assert "local" not in written and oct(path.stat().st_mode & 0o777) == "0o600"
        # this side's seeds and journal: beside the record, as private as it
        assert oct(local_path(path).stat().st_mode & 0o777) == "0o600"
        assert verify_record(written).to_json()["valid"] is True
        crash(qtbot, joiner)
        # the host waits for a resume, as after a dropped connection
        qtbot.waitUntil(host.game.reconnecting.isVisible, timeout=15_000)
        again = lobby_window(qtbot, tmp_path / "taro", "", keep=True, dealings=APP_DEALINGS)
        again.go_home()
        (kept,) = kept_matches(SaveStore(tmp_path / "taro"))
        assert not kept.finished and kept.reconnect
        assert again.start.reconnectable is not None
        assert again.start.reconnect_button.isVisible()
        close_window(again)
        # the replay viewer shows the deal cut short only as taro saw it: the record holds
        # stand-ins for hana's cards he never saw, never to be shown as her hand
        data = json.loads(path.read_text(encoding="utf-8"))
        last = len(data["deals"]) - 1
        assert data["deals"][last]["sealed"] is True
        viewer = open_viewer(qtbot, data, path)
        assert viewer.open and last in viewer.replayed.sealed
        viewer.go(viewer.last)
        assert viewer.view(last) == (1, False) and viewer.check() == []
        assert viewer.where.text().startswith("Dealt privately, never shown")
        model = viewer.table.model
        assert isinstance(model, OpenTableModel) and not model.show_open and model.me == 1
        backs = [w for w in viewer.table.widgets.values() if w.isVisible() and not w.face_up]
        assert len(backs) == viewer.step.observations[1].opponent_hand_size > 0
        viewer.close()
    finally:
        close_lobby_windows(qtbot, host)


def test_a_window_that_replays_a_private_record_mid_deal_gets_only_its_own_view() -> None:
    """A window that takes over late replays the record's last deal (the controller's
    ``narration.last_deal_events``): mid-deal, that deal holds stand-ins for the other hand and the
    stock. The ``Dealt`` it gets holds this seat's hand and the field and no card of the other
    hand as the other side dealt it; the other hand and the stock come as counts."""
    from koikoi.net.private import SealedDealt
    from koikoi.net.roles import Role
    from koikoi.ui.match.narration import last_deal_events
    from tests.test_net_private_session import _card_set, _mid_deal, private_table

    table = private_table(seed=4)
    _mid_deal(table, 2)
    for role in Role:
        session, peer = table.sessions[role], table.sessions[role.peer]
        me, other = session.seat, peer.seat
        record = session.record().to_json()
        assert record["deals"][-1].get("sealed") is True  # not audited yet: stand-ins
        theirs = _card_set(peer.record().to_json()["deals"][-1]["hands"][other])
        (dealt,) = [e for e in last_deal_events(record, me) if isinstance(e, Dealt)]
        assert isinstance(dealt, SealedDealt) and dealt.viewer == me
        assert dealt.hands[other] == 0 and dealt.hands[me] & theirs == 0
        assert dealt.hands[me] == _card_set(record["deals"][-1]["hands"][me])
        assert (dealt.hand_size(other), dealt.stock_size) == (8, 24)
