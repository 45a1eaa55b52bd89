"""The four-card gate: with the hold on, the coin toss waits until both players confirm.

Sans-I/O first (two real connections after a real handshake, bytes passed by hand), then over
real sockets on 127.0.0.1 with the Qt links the lobby uses.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session import CARDS_DIFFER, Ended, Stage, TossDone
from koikoi.ui.netlink import LinkError, PeerInfo, QtJoin, QtRoom
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


def test_without_the_hold_the_toss_runs_at_once() -> None:
    _, seen = handshake(hold=False)
    assert all(tossed(seen[role]) for role in Role)


@pytest.mark.parametrize("first", list(Role))
def test_the_toss_waits_for_both_players(first: Role) -> None:
    conns, seen = handshake(hold=True)
    for role in Role:
        assert any(isinstance(e, HandshakeDone) for e in seen[role])
        assert not tossed(seen[role])
    conns[first].confirm(1.0)
    after_one = pump(conns)
    assert not any(tossed(after_one[role]) for role in Role)
    session = conns[first].session
    assert session is not None and session.stage is Stage.TOSS and session.confirmed
    conns[first.peer].confirm(2.0)
    after_both = pump(conns)
    assert all(tossed(after_both[role]) for role in Role)
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
    conns[who.peer].confirm(1.0)  # the other one already said "the same": still no toss
    mine = conns[who].confirm(1.0, same=False)
    seen = pump(conns)
    ending = [e for e in mine if isinstance(e, Ended)][0].ending
    assert ending.how == "cards" and not ending.finished and ending.reason == CARDS_DIFFER
    theirs = [e for e in seen[who.peer] if isinstance(e, Ended)][0].ending
    assert theirs.how == "cards" and theirs.by is who
    assert "saw different cards" in theirs.reason
    assert not any(tossed(seen[role]) for role in Role)
    assert all(conns[role].closed for role in Role)


def test_confirm_before_the_handshake_is_a_caller_mistake() -> None:
    conns = pair(hold=True)
    with pytest.raises(ValueError, match="no session yet"):
        conns[Role.HOST].confirm(0.0)


# --- over sockets -------------------------------------------------------------------------


class Watch:
    def __init__(self, link: QtRoom | QtJoin) -> None:
        self.peer: PeerInfo | None = None
        self.tossed: TossDone | None = None
        self.ending: object = None
        self.failure: LinkError | None = None
        link.established.connect(lambda p: setattr(self, "peer", p))
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
    assert host.peer.sas == joiner.peer.sas
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
    qtbot.waitUntil(lambda: host.peer is not None and joiner.peer is not None, timeout=10000)
    room.confirm_sas(same=False)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=5000)
    assert getattr(joiner.ending, "how", None) == "cards"
    assert "saw different cards" in getattr(joiner.ending, "reason", "")
    assert host.tossed is None and joiner.tossed is None
    close_room(qtbot, room)
