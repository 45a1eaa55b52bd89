"""The room's clock (docs/protocol.md, "Time"; CLI.md ``host --clock``): agreed in the
handshake, seconds for each action and a reserve for the match, run only while the seat's
table is ready. Attack first: a joiner cannot choose the clock, a relay cannot change it, a
peer cannot grow its reserve or stop its abandon time by saying it is not ready.
All on a stepped clock."""

from __future__ import annotations

from typing import Any, cast

import pytest

from koikoi.engine.match import Settings
from koikoi.net.errors import HandshakeError, ProtocolError
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session.clock import DEFAULT_CLOCK, ClockSetting, TurnClock
from koikoi.net.session.events import OutOfTime, PeerOverdue
from koikoi.net.wire import encode_message, pack, unpack
from tests.net_support import Table, handshake_pair, in_play

PRIVATE = {role: ("private",) for role in Role}
"""Version 4, which carries the clock in its hellos and says when a table is ready."""


def table_with(host: ClockSetting, joiner: ClockSetting = DEFAULT_CLOCK, **kwargs: Any) -> Table:
    return in_play(
        4,
        seeds=range(5, 45),
        silence_timeout=10_000.0,
        dealings=PRIVATE,
        clocks={Role.HOST: host, Role.JOINER: joiner},
        **kwargs,
    )


def mover_of(table: Table) -> Role:
    """The side whose move clock runs (what either side still owed of the dealing delivered
    first: until then the clock waits for that)."""
    for _ in range(10):
        for role in Role:
            clock = table.sessions[role].clock(table.now)
            if clock is not None and clock.local and table.sessions[role].local_turn is not None:
                return role
        for role in Role:
            table.deliver(role, table.sessions[role].outgoing())
    raise AssertionError("nobody's clock runs")


def out_of_time(table: Table, role: Role) -> list[OutOfTime]:
    return [e for e in table.sessions[role].tick(table.now) if isinstance(e, OutOfTime)]


# --- the setting ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("60+300", ClockSetting(60, 300)),
        (" 30+180 ", ClockSetting(30, 180)),
        ("120", ClockSetting(120, 0)),
        ("off", ClockSetting(0)),
        ("OFF", ClockSetting(0)),
    ],
)
def test_a_clock_is_written_seconds_plus_reserve_or_off(text: str, clock: ClockSetting) -> None:
    assert ClockSetting.parse(text) == clock
    assert ClockSetting.parse(clock.text()) == clock


@pytest.mark.parametrize(
    "text", ["", "0", "0+30", "60+", "+60", "-5", "60+-1", "1e3", "60 + 300", "3601", "60+36001"]
)
def test_a_clock_that_is_not_one_is_refused_saying_so(text: str) -> None:
    with pytest.raises(ValueError):
        ClockSetting.parse(text)


def test_the_joiner_takes_the_rooms_clock_from_the_hosts_hello() -> None:
    _, established = handshake_pair(
        dealings=PRIVATE, clocks={Role.HOST: ClockSetting(30, 180), Role.JOINER: DEFAULT_CLOCK}
    )
    assert established[Role.HOST].clock == ClockSetting(30, 180)
    assert established[Role.JOINER].clock == ClockSetting(30, 180)


def test_a_relay_that_changes_the_clock_in_a_hello_breaks_the_handshake() -> None:
    """The hellos are the Noise prologue: a clock changed on the way (to give the joiner an
    hour, or none) leaves the two sides with different prologues, and the handshake fails."""
    shakes = {role: shake(role, ClockSetting(30, 0)) for role in Role}
    to_host = shakes[Role.JOINER].start()
    to_joiner = [out for m in to_host for out in shakes[Role.HOST].receive(m)]
    hello = cast("dict[str, Any]", unpack(to_joiner[0]))
    assert hello["t"] == "hello" and hello["clock"] == {"seconds": 30, "reserve": 0}
    hello["clock"] = {"seconds": 3600, "reserve": 0}
    to_joiner[0] = pack(hello)
    with pytest.raises((HandshakeError, ProtocolError)):
        to_host = [out for m in to_joiner for out in shakes[Role.JOINER].receive(m)]
        for m in to_host:
            shakes[Role.HOST].receive(m)
    assert shakes[Role.HOST].result is None


def shake(role: Role, clock: ClockSetting = DEFAULT_CLOCK) -> Handshake:
    """One side's version-4 handshake with ``clock`` in its hello."""
    return Handshake(
        role,
        identity=Identity.generate(),
        nickname=role.value,
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
        dealings=("private",),
        clock=clock,
    )


@pytest.mark.parametrize(
    "clock",
    [
        {"seconds": 0, "reserve": 60},
        {"seconds": 99999, "reserve": 0},
        {"seconds": -1, "reserve": 0},
    ],
)
def test_a_hello_with_an_impossible_clock_is_refused(clock: dict[str, int]) -> None:
    joiner, host = shake(Role.JOINER), shake(Role.HOST)
    answer = host.receive(joiner.start()[0])
    hello = cast("dict[str, Any]", unpack(answer[0]))
    hello["clock"] = clock
    with pytest.raises(ProtocolError, match="clock"):
        joiner.receive(pack(hello))


@pytest.mark.parametrize(
    "clock",
    [{"seconds": 0, "reserve": 36000}, {"seconds": 99999, "reserve": 0}],
)
def test_a_joiners_hello_with_an_impossible_clock_is_refused_too(clock: dict[str, int]) -> None:
    """The room's clock wins, so the host used to let a joiner's clock go unread: an
    impossible one is the same malformed hello from either side."""
    joiner, host = shake(Role.JOINER), shake(Role.HOST)
    hello = cast("dict[str, Any]", unpack(joiner.start()[0]))
    hello["clock"] = clock
    with pytest.raises(ProtocolError, match="clock"):
        host.receive(pack(hello))


# --- the reserve ---------------------------------------------------------------------------


def test_time_past_an_actions_seconds_comes_off_the_reserve_and_then_the_clock_runs_out() -> None:
    table = table_with(ClockSetting(10, 30))
    mover = mover_of(table)
    session = table.sessions[mover]
    table.now += 25.0  # 10 s of the action, then 15 s of the reserve
    clock = session.clock(table.now)
    assert clock is not None and clock.local
    assert clock.left == 0.0 and clock.reserve == pytest.approx(15.0)
    assert not out_of_time(table, mover)
    table.events[mover].extend(session.play(table.choose(session), table.now))
    table.deliver(mover, session.outgoing())
    # The peer moves (at once) until this side's turn comes again: its reserve stays spent.
    peer = table.sessions[mover.peer]
    for _ in range(20):
        for role in Role:
            table.deliver(role, table.sessions[role].outgoing())
        if session.local_turn is not None and mover_of(table) is mover:
            break
        if peer.local_turn is not None:
            table.events[mover.peer].extend(peer.play(table.choose(peer), table.now))
    clock = session.clock(table.now)
    assert clock is not None and clock.left == 10.0 and clock.reserve == pytest.approx(15.0)
    table.now += 24.9
    assert not out_of_time(table, mover)
    table.now += 0.2
    assert len(out_of_time(table, mover)) == 1


def test_no_clock_never_plays_for_the_player() -> None:
    table = table_with(ClockSetting(0))
    mover = mover_of(table)
    table.now += 2 * 3600.0
    assert not out_of_time(table, mover)
    clock = table.sessions[mover].clock(table.now)
    assert clock is not None and clock.left == 0.0 and clock.reserve == 0.0


# --- a table that is not ready ---------------------------------------------------------------


def test_the_clock_waits_while_the_local_table_shows_a_result_and_the_peer_sees_why() -> None:
    table = table_with(ClockSetting(10, 0))
    mover = mover_of(table)
    session, peer = table.sessions[mover], table.sessions[mover.peer]
    session.set_ready(False, table.now)  # the result panel, the toss, an animation
    table.deliver(mover, session.outgoing())
    table.now += 90.0  # the oya reads the result for a minute and a half
    assert not out_of_time(table, mover)
    clock = session.clock(table.now)
    assert clock is not None and clock.left == 10.0 and not clock.ready
    seen = peer.clock(table.now)
    assert seen is not None and not seen.local and not seen.ready  # "reading the result"
    session.set_ready(True, table.now)
    table.deliver(mover, session.outgoing())
    seen = peer.clock(table.now)
    assert seen is not None and seen.ready and seen.left == 10.0
    table.now += 9.9
    assert not out_of_time(table, mover)
    table.now += 0.2
    assert len(out_of_time(table, mover)) == 1


def test_readiness_said_twice_is_sent_once() -> None:
    table = table_with(ClockSetting(10, 0))
    mover = mover_of(table)
    session = table.sessions[mover]
    session.outgoing()
    session.set_ready(True, table.now)
    assert session.outgoing() == []
    session.set_ready(False, table.now)
    session.set_ready(False, table.now)
    assert len(session.outgoing()) == 1


def test_a_peer_that_is_never_ready_is_still_abandoned_after_its_clock_and_the_abandon_time() -> (
    None
):
    """Saying "not ready" forever would stop the peer's clock for good: the abandon time
    counts from the turn's start whatever the peer says, past what its clock gave it."""
    table = table_with(ClockSetting(10, 20))
    mover = mover_of(table)
    waiter = table.sessions[mover.peer]
    waiter.abandon_after = 30.0
    table.inject(mover, encode_message("clock", ready=False, reserve=20_000))
    table.now += 59.0  # 10 + 20 + 30 = 60 s
    assert not [e for e in waiter.tick(table.now) if isinstance(e, PeerOverdue)]
    table.now += 1.5
    assert [e for e in waiter.tick(table.now) if isinstance(e, PeerOverdue)]


def test_a_peer_cannot_grow_its_reserve_by_saying_so() -> None:
    table = table_with(ClockSetting(10, 20))
    mover = mover_of(table)
    waiter = table.sessions[mover.peer]
    waiter.abandon_after = 30.0
    table.inject(mover, encode_message("clock", ready=True, reserve=5_000))
    table.inject(mover, encode_message("clock", ready=False, reserve=36_000_000))
    seen = waiter.clock(table.now)
    assert seen is not None and seen.reserve == pytest.approx(5.0)
    table.now += 10 + 5 + 30 + 0.5
    assert [e for e in waiter.tick(table.now) if isinstance(e, PeerOverdue)]


@pytest.mark.parametrize(
    "message",
    [
        encode_message("clock", ready=1, reserve=0),
        encode_message("clock", ready=True, reserve=-1),
        encode_message("clock", ready=True),
        encode_message("clock", ready=True, reserve=0, extra=1),
    ],
)
def test_a_malformed_clock_message_ends_the_match_as_a_protocol_failure(message: bytes) -> None:
    table = table_with(ClockSetting(10, 20))
    mover = mover_of(table)
    events = table.inject(mover, message)
    ending = table.sessions[mover.peer].ending
    assert events and ending is not None and ending.how == "protocol" and ending.by is mover


def test_a_joint_seed_session_sends_no_clock_message() -> None:
    """Version 2 (an older koikoi) knows no ``clock`` message: nothing is said to it."""
    table = in_play(4, seeds=range(5, 45), silence_timeout=10_000.0)
    mover = mover_of(table)
    session = table.sessions[mover]
    session.outgoing()
    session.set_ready(False, table.now)
    assert session.outgoing() == []


def test_the_turn_clock_runs_only_while_ready() -> None:
    clock = TurnClock(move_clock=10.0, abandon_after=60.0, reserve=5.0)
    clock.restart(seq=1, now=0.0)
    clock.set_ready(0, False, 2.0)
    clock.set_ready(0, True, 50.0)
    assert clock.ran(0, 53.0) == pytest.approx(5.0)
    assert clock.due(local=True) == pytest.approx(50.0 + 10.0 + 5.0 - 2.0)
    clock.set_ready(0, False, 53.0)
    assert clock.due(local=True) is None


# --- what the room says in the lobby -------------------------------------------------------


def _txt(properties: dict[str, str]) -> bytes:
    items = [f"{k}={v}".encode() for k, v in properties.items()]
    return b"".join(bytes([len(item)]) + item for item in items)


@pytest.mark.parametrize(
    ("clock", "shown"),
    [
        (ClockSetting(30, 180), {"clock": 30, "reserve": 180}),
        (ClockSetting(0), {"clock": 0}),
        (DEFAULT_CLOCK, {"clock": 60, "reserve": 300}),
    ],
)
def test_a_room_announces_its_clock_and_koikoi_rooms_prints_it(
    clock: ClockSetting, shown: dict[str, int]
) -> None:
    from koikoi.net.discovery.txt import Advertisement, parse_room, room_txt

    txt = room_txt(Advertisement("Hanami", "hana", 4000, version=4, dealing="private", clock=clock))
    room = parse_room("Hanami._koikoi._tcp.local.", _txt(txt), ["127.0.0.1"], 4000)
    assert room.clock == clock
    data = room.to_json()
    assert {k: v for k, v in data.items() if k in ("clock", "reserve")} == shown


@pytest.mark.parametrize("value", [None, "forever", "0+60", "99999+0", "60+-1"])
def test_a_room_without_a_clock_or_with_a_broken_one_is_listed_with_the_older_one(
    value: str | None,
) -> None:
    """A hint: the room stays listed (the handshake says the clock), with the clock of the
    hosts from before the key."""
    from koikoi.net.discovery.txt import parse_room
    from koikoi.net.session.clock import LEGACY_CLOCK

    properties = {"v": "4", "title": "Hanami", "rounds": "6", "doubling": "1"}
    properties |= {"private": "0", "status": "open", "dealing": "private"}
    if value is not None:
        properties["clock"] = value
    room = parse_room("Hanami._koikoi._tcp.local.", _txt(properties), ["127.0.0.1"], 4000)
    assert room.clock == LEGACY_CLOCK
    assert room.to_json()["clock"] == 60 and room.to_json()["reserve"] == 0


def test_a_hello_whose_version_is_true_is_malformed_not_a_version() -> None:
    """``"v": true`` is no version (a bool is not a count): the hello is malformed, not
    "koikoi-net/True", an older program's."""
    joiner, host = shake(Role.JOINER), shake(Role.HOST)
    hello = cast("dict[str, Any]", unpack(joiner.start()[0]))
    hello["v"] = True
    with pytest.raises(ProtocolError) as refused:
        host.receive(pack(hello))
    assert "True" not in str(refused.value), refused.value
