"""The four-card gate: in version 2 the toss, then the four cards drawn from it, then (once
both players confirmed) the first deal; in version 4 the four cards, both confirm, then the
toss's outcome and the first deal (tests/test_net_toss_cards_first.py has its attacks).

Sans-I/O first (two real connections after a real handshake, bytes passed by hand), then over
real sockets on 127.0.0.1 with the Qt links the lobby uses.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.sas import sas_cards
from koikoi.net.session.endings import CARDS_DIFFER, Stage
from koikoi.net.session.events import CardsShown, Ended, TossDone
from koikoi.net.wire import encode_frame, encode_message
from koikoi.ui.net.netlink.base import LinkError, PeerInfo
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests.test_ui_netlink import close_room, open_room, options


def pair(hold: bool) -> dict[Role, Connection]:
    return {
        role: Connection(
            role,
            identity=Identity.generate(),
            nickname=role.value,
            settings=Settings(),
            password="",
            known_peers=KnownPeers(None),
            now=0.0,
            hold_for_confirmation=hold,
        )
        for role in Role
    }


def pump(conns: dict[Role, Connection]) -> dict[Role, list[ConnectionEvent]]:
    """Carry bytes both ways until the wire is quiet; every event each side saw."""
    seen: dict[Role, list[ConnectionEvent]] = {role: [] for role in Role}
    moving = True
    while moving:
        moving = False
        for role in Role:
            data = conns[role].data_to_send()
            if data:
                moving = True
                seen[role.peer].extend(conns[role.peer].receive_data(data, 0.0))
    return seen


def handshake(hold: bool) -> tuple[dict[Role, Connection], dict[Role, list[ConnectionEvent]]]:
    conns = pair(hold)
    conns[Role.JOINER].start()
    return conns, pump(conns)


def tossed(events: list[ConnectionEvent]) -> bool:
    return any(isinstance(e, TossDone) for e in events)


def shown(events: list[ConnectionEvent]) -> CardsShown:
    (event,) = [e for e in events if isinstance(e, CardsShown)]
    return event


def test_without_the_hold_the_deal_comes_at_once() -> None:
    _, seen = handshake(hold=False)
    for role in Role:
        kinds = [type(e).__name__ for e in seen[role]]
        assert kinds == ["HandshakeDone", "CardsShown", "TossDone"], kinds


def test_the_cards_come_from_the_session_and_the_toss() -> None:
    conns, seen = handshake(hold=True)
    cards = {role: shown(seen[role]).cards for role in Role}
    assert cards[Role.HOST] == cards[Role.JOINER] and len(set(cards[Role.HOST])) == 4
    session = conns[Role.HOST].session
    assert session is not None and session.cards == cards[Role.HOST]
    result = session.toss.result
    assert result is not None
    assert cards[Role.HOST] == sas_cards(
        session.session_id, result.host_random, result.joiner_random
    )


@pytest.mark.parametrize("first", list(Role))
def test_the_toss_runs_and_the_deal_waits_for_both_players(first: Role) -> None:
    conns, seen = handshake(hold=True)
    for role in Role:
        assert any(isinstance(e, HandshakeDone) for e in seen[role])
        assert shown(seen[role]).cards == shown(seen[role.peer]).cards  # the toss is over
        assert not tossed(seen[role])  # but no deal
        session = conns[role].session
        assert session is not None and session.lockstep is None and session.local_turn is None
    conns[first].confirm(1.0)
    after_one = pump(conns)
    assert not any(tossed(after_one[role]) for role in Role)
    session = conns[first].session
    assert session is not None and session.stage is Stage.TOSS and session.confirmed
    assert session.peer_confirmed is False
    last = conns[first.peer].confirm(2.0)  # the peer's confirm is in: its deal comes now
    after_both = pump(conns)
    assert tossed(last) and tossed(after_both[first])
    results = [conns[role].session.toss.result for role in Role]  # type: ignore[union-attr]
    assert results[0] == results[1] is not None


def test_heartbeats_go_on_while_a_player_looks_at_the_cards() -> None:
    conns, _ = handshake(hold=True)
    host = conns[Role.HOST]
    for now in (6.0, 12.0, 18.0, 24.0):
        for role in Role:
            conns[role].tick(now)
        for role in Role:
            data = conns[role].data_to_send()
            conns[role.peer].receive_data(data, now)
    assert host.session is not None and host.session.stage is Stage.TOSS


@pytest.mark.parametrize("who", list(Role))
def test_cards_that_differ_end_both_sides_with_the_reason(who: Role) -> None:
    conns, _ = handshake(hold=True)
    conns[who.peer].confirm(1.0)  # the other one already said "the same": still no deal
    mine = conns[who].confirm(1.0, same=False)
    seen = pump(conns)
    ending = [e for e in mine if isinstance(e, Ended)][0].ending
    assert ending.how == "cards" and not ending.finished and ending.reason == CARDS_DIFFER
    theirs = [e for e in seen[who.peer] if isinstance(e, Ended)][0].ending
    assert theirs.how == "cards" and theirs.by is who
    assert "saw different cards" in theirs.reason
    assert not any(tossed(seen[role]) for role in Role)
    assert all(conns[role].closed for role in Role)
    # Refused after the toss: abandoning the toss after seeing the result, on both records,
    # and counted in the refuser's pin on the other side.
    assert ending.suspicious and theirs.suspicious and theirs.stage == ending.stage == "toss"
    assert conns[who.peer].toss_aborts == 1 and conns[who].toss_aborts is None


def test_a_confirm_before_the_cards_stands_for_them() -> None:
    # A rematch with a key already compared confirms at the handshake.
    conns = pair(hold=True)
    conns[Role.JOINER].start()
    seen: dict[Role, list[ConnectionEvent]] = {role: [] for role in Role}
    while not all(conns[role].session is not None for role in Role):
        for role, events in pump_once(conns).items():
            seen[role] += events
    for role in Role:
        conns[role].confirm(0.5)
    for role, events in pump(conns).items():
        seen[role] += events
    assert all(tossed(seen[role]) for role in Role)


def pump_once(conns: dict[Role, Connection]) -> dict[Role, list[ConnectionEvent]]:
    seen: dict[Role, list[ConnectionEvent]] = {role: [] for role in Role}
    for role in Role:
        data = conns[role].data_to_send()
        if data:
            seen[role.peer].extend(conns[role.peer].receive_data(data, 0.0))
    return seen


def test_a_second_confirm_from_the_peer_is_refused() -> None:
    conns, _ = handshake(hold=True)
    conns[Role.HOST].confirm(1.0)
    pump(conns)
    session = conns[Role.HOST].session
    assert session is not None
    # The same message again, sealed with the host's next nonce as a modified client would.
    forged = session._tx.encrypt_with_ad(b"", encode_message("confirm"))
    events = conns[Role.JOINER].receive_data(encode_frame(forged), 2.0)
    (ended,) = [e for e in events if isinstance(e, Ended)]
    assert ended.ending.how == "protocol" and "unexpected message 'confirm'" in ended.ending.reason


def test_confirm_before_the_handshake_is_a_caller_mistake() -> None:
    conns = pair(hold=True)
    with pytest.raises(ValueError, match="no session yet"):
        conns[Role.HOST].confirm(0.0)


# --- over sockets -------------------------------------------------------------------------


class Watch:
    def __init__(self, link: QtRoom | QtJoin) -> None:
        self.peer: PeerInfo | None = None
        self.cards: CardsShown | None = None
        self.tossed: TossDone | None = None
        self.ending: object = None
        self.failure: LinkError | None = None
        link.established.connect(lambda p: setattr(self, "peer", p))
        link.cards_shown.connect(lambda c: setattr(self, "cards", c))
        link.tossed.connect(lambda t: setattr(self, "tossed", t))
        link.ended.connect(lambda e: setattr(self, "ending", e))
        if isinstance(link, QtJoin):
            link.failed.connect(lambda f: setattr(self, "failure", f))


@pytest.mark.parametrize("password", ["", "matsu ni tsuru"])
def test_the_gate_over_sockets(qtbot: QtBot, password: str) -> None:
    room = open_room(qtbot, replace(options("hana", password), hold_for_confirmation=True))
    join = QtJoin(replace(options("tsuki", password), hold_for_confirmation=True))
    host, joiner = Watch(room), Watch(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.peer is not None and joiner.peer is not None, timeout=10000)
    assert host.peer is not None and joiner.peer is not None
    qtbot.waitUntil(lambda: host.cards is not None and joiner.cards is not None, timeout=5000)
    assert host.cards is not None and joiner.cards is not None
    assert host.cards.cards == joiner.cards.cards and host.cards.result == joiner.cards.result
    qtbot.wait(300)
    assert host.tossed is None and joiner.tossed is None
    join.confirm_sas()
    qtbot.wait(200)
    assert host.tossed is None and joiner.tossed is None
    room.confirm_sas()
    qtbot.waitUntil(lambda: host.tossed is not None and joiner.tossed is not None, timeout=5000)
    assert host.tossed is not None and joiner.tossed is not None
    assert host.tossed.result == joiner.tossed.result
    join.leave()
    close_room(qtbot, room)


def test_cards_that_differ_over_sockets(qtbot: QtBot) -> None:
    room = open_room(qtbot, replace(options("hana"), hold_for_confirmation=True))
    join = QtJoin(replace(options("tsuki"), hold_for_confirmation=True))
    host, joiner = Watch(room), Watch(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.cards is not None and joiner.cards is not None, timeout=10000)
    room.confirm_sas(same=False)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=5000)
    assert getattr(joiner.ending, "how", None) == "cards"
    assert "saw different cards" in getattr(joiner.ending, "reason", "")
    assert host.tossed is None and joiner.tossed is None
    close_room(qtbot, room)


@pytest.mark.parametrize("presser", [Role.HOST, Role.JOINER])
def test_an_honest_they_differ_over_sockets_counts_against_nobody(
    qtbot: QtBot, presser: Role, tmp_path: Path
) -> None:
    """Version 4 through the Qt links the lobby uses, pins in files: "They differ" before
    anyone knows who deals first ends both sides with ``cards`` and counts in neither pin."""
    both = ("private", "seed")
    host_opts = replace(
        options("hana"),
        hold_for_confirmation=True,
        dealings=both,
        known_peers=KnownPeers(tmp_path / "hana.json"),
    )
    join_opts = replace(
        options("tsuki"),
        hold_for_confirmation=True,
        dealings=both,
        known_peers=KnownPeers(tmp_path / "tsuki.json"),
    )
    room = open_room(qtbot, host_opts)
    join = QtJoin(join_opts)
    host, joiner = Watch(room), Watch(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.cards is not None and joiner.cards is not None, timeout=10000)
    assert isinstance(host.cards, CardsShown) and host.cards.result is None  # no outcome yet
    link = room.match if presser is Role.HOST else join
    assert link is not None
    link.confirm_sas(same=False)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=5000)
    watches = {Role.HOST: host, Role.JOINER: joiner}
    for watch in watches.values():
        ending = watch.ending
        assert getattr(ending, "how", None) == "cards" and not getattr(ending, "suspicious", True)
        assert watch.tossed is None
    assert "saw different cards" in getattr(watches[presser.peer].ending, "reason", "")
    for role, opts in ((Role.HOST, host_opts), (Role.JOINER, join_opts)):
        peer = join_opts if role is Role.HOST else host_opts
        pins = KnownPeers(tmp_path / f"{opts.nickname}.json")
        assert pins.toss_aborts(peer.nickname, peer.identity.public_key) == 0
    close_room(qtbot, room)
