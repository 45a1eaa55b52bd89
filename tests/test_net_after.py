"""After the match (docs/protocol.md, "After the match"; koikoi/net/session/after.py): two real
:class:`Connection` objects with real handshakes play a match to its end, then stay connected
while their players read the result. A hostile peer built on the same modules sends what it
may not (a match message, a stamp off the list, a flood) or falls silent: each ends only the
time after the match, never the result. Time is the test's own, stepped by hand."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session.after import AFTER_FOR, FLOOD_MAX, AfterOver, Over, PeerWantsRematch
from koikoi.net.session.events import Ended, StampReceived
from koikoi.net.stamps import RECEIVE_MAX, SEND_INTERVAL, STAMPS
from koikoi.net.wire import FrameDecoder, encode_message, unpack

SILENCE = 15.0


@dataclass
class Pair:
    """Two connections, the bytes between them and what each side heard."""

    after: dict[Role, bool]
    seed: int = 3
    stamps: dict[Role, tuple[str, ...]] = field(
        default_factory=lambda: {Role.HOST: STAMPS, Role.JOINER: STAMPS}
    )
    now: float = 0.0
    conns: dict[Role, Connection] = field(init=False)
    heard: dict[Role, list[ConnectionEvent]] = field(init=False)
    sent: dict[Role, list[bytes]] = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.conns = {
            role: Connection(
                role,
                identity=Identity.generate(),
                nickname=role.value,
                settings=Settings(rounds=6),
                password="",
                known_peers=KnownPeers(None),
                now=self.now,
                silence_timeout=SILENCE,
                dealings=("private", "seed"),
                stamps=self.stamps[role],
                after=self.after[role],
            )
            for role in Role
        }
        self.heard = {role: [] for role in Role}
        self.sent = {role: [] for role in Role}
        self.conns[Role.JOINER].start()

    def step(self) -> bool:
        """Each side plays when it may, then the bytes cross; whether any moved."""
        moved = False
        for role, conn in self.conns.items():
            turn = conn.local_turn
            if turn is not None and not conn.closed:
                self.heard[role] += conn.play(self.rng.choice(turn.legal_actions), self.now)
        for role, conn in self.conns.items():
            data = conn.data_to_send()
            if data:
                moved = True
                self.sent[role].append(data)
                self.heard[role.peer] += self.conns[role.peer].receive_data(data, self.now)
        return moved

    def play_out(self) -> None:
        """The whole match, to both sides' ending and the goodbyes."""
        for _ in range(50_000):
            self.now += 0.01
            if not self.step():
                if all(self.ended(role) for role in Role):
                    return
                for role, conn in self.conns.items():
                    self.heard[role] += conn.tick(self.now)
        raise AssertionError("the match did not end")

    def ended(self, role: Role) -> bool:
        return any(isinstance(e, Ended) for e in self.heard[role])

    def of(self, role: Role, kind: type) -> list[object]:
        return [e for e in self.heard[role] if isinstance(e, kind)]

    def wait(self, seconds: float, step: float = 1.0) -> None:
        """Time passes: both sides tick and their heartbeats cross."""
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + step)
            for role, conn in self.conns.items():
                self.heard[role] += conn.tick(self.now)
            self.step()


BOTH = {Role.HOST: True, Role.JOINER: True}


def finished_pair(after: dict[Role, bool] = BOTH) -> Pair:
    pair = Pair(after)
    pair.play_out()
    for role in Role:
        (ended,) = pair.of(role, Ended)
        assert isinstance(ended, Ended) and ended.ending.finished
    return pair


def test_both_tables_stay_connected_after_the_match_and_a_rematch_call_crosses_once() -> None:
    pair = finished_pair()
    host, joiner = pair.conns[Role.HOST], pair.conns[Role.JOINER]
    results = {role: pair.conns[role].session.result_json() for role in Role}  # type: ignore[union-attr]
    assert all(conn.after_open and not conn.closed for conn in (host, joiner))
    # ありがとうございました after the last move, both ways
    assert joiner.send_stamp("thanks", pair.now) and host.send_stamp("thanks", pair.now)
    pair.step()
    assert [e.stamp for e in pair.of(Role.HOST, StampReceived)][-1:] == ["thanks"]  # type: ignore[attr-defined]
    assert [e.stamp for e in pair.of(Role.JOINER, StampReceived)][-1:] == ["thanks"]  # type: ignore[attr-defined]
    # the joiner clicks Rematch (twice): the host hears it once
    assert joiner.rematch(pair.now) and joiner.rematch(pair.now)
    pair.step()
    assert len(pair.of(Role.HOST, PeerWantsRematch)) == 1
    # heartbeats keep it open while the players read
    pair.wait(3 * SILENCE)
    assert host.after_open and joiner.after_open
    # the host goes home: the joiner is told, both close, nothing of the match changed
    assert host.leave(pair.now) == [AfterOver(Over.QUIT, "the player left the result", True)]
    pair.step()
    (over,) = pair.of(Role.JOINER, AfterOver)
    assert isinstance(over, AfterOver) and over.how is Over.LEFT and not over.wanted
    assert host.closed and joiner.closed
    for role in Role:
        assert pair.conns[role].session.result_json() == results[role]  # type: ignore[union-attr]
        assert pair.conns[role].next_timer() is None


@pytest.mark.parametrize("side", list(Role))
def test_a_side_that_does_not_say_after_closes_at_the_end_as_before(side: Role) -> None:
    pair = finished_pair({side: False, side.peer: True})
    pair.wait(5.0)
    assert all(conn.closed and not conn.after_open for conn in pair.conns.values())
    assert not pair.conns[side.peer].rematch(pair.now)
    assert not pair.conns[side.peer].send_stamp("thanks", pair.now)
    assert pair.of(Role.HOST, AfterOver) == [] == pair.of(Role.JOINER, AfterOver)


def test_the_hello_says_after_only_when_asked() -> None:
    said = {}
    for after in (True, False):
        pair = Pair({Role.HOST: after, Role.JOINER: after})
        (frame,) = FrameDecoder().feed(pair.conns[Role.JOINER].data_to_send())
        hello = unpack(frame)
        assert isinstance(hello, dict)
        said[after] = hello.get("after")
    assert said == {True: True, False: None}


def hostile_send(pair: Pair, role: Role, message: bytes) -> None:
    """``role``'s side sends ``message`` encrypted with its real keys, after the match."""
    session = pair.conns[role].session
    assert session is not None
    session._send(message)
    pair.step()


@pytest.mark.parametrize(
    ("message", "said"),
    [
        (encode_message("clock", ready=True, reserve=0), "the peer sent"),  # of the match
        (encode_message("stamp", id="rude!"), "the peer sent"),  # a stamp off the list
        (encode_message("stamp", id=7), "the peer sent"),  # off the schema
        (encode_message("rematch", now=True), "the peer sent"),
    ],
    ids=["clock", "unlisted-stamp", "stamp-off-schema", "rematch-off-schema"],
)
def test_a_message_off_the_list_ends_the_time_after_the_match_not_the_result(
    message: bytes, said: str
) -> None:
    pair = finished_pair()
    joiner = pair.conns[Role.JOINER]
    result = joiner.session.result_json()  # type: ignore[union-attr]
    hostile_send(pair, Role.HOST, message)
    (over,) = pair.of(Role.JOINER, AfterOver)
    assert isinstance(over, AfterOver) and over.how is Over.PROTOCOL and said in over.detail
    assert joiner.closed and joiner.session.result_json() == result  # type: ignore[union-attr]
    assert not joiner.rematch(pair.now)


def test_a_table_readiness_before_the_peers_goodbye_is_dropped_and_after_it_ends_it() -> None:
    """A ``clock`` the peer sent before it knew the match was over (its table started an
    animation) may reach a side whose time after the match began, ahead of the peer's
    goodbye of the match: it is dropped. After that goodbye a ``clock`` is off the list."""
    pair = finished_pair()
    joiner = pair.conns[Role.JOINER]
    assert joiner.after is not None and joiner.after.goodbye
    joiner.after.goodbye = False  # as if the host's goodbye were still on its way
    hostile_send(pair, Role.HOST, encode_message("clock", ready=False, reserve=1000))
    assert pair.of(Role.JOINER, AfterOver) == [] and joiner.after_open
    hostile_send(pair, Role.HOST, encode_message("bye", reason="finished"))
    assert joiner.after_open  # the match's goodbye, late
    hostile_send(pair, Role.HOST, encode_message("clock", ready=True, reserve=1000))
    (over,) = pair.of(Role.JOINER, AfterOver)
    assert isinstance(over, AfterOver) and over.how is Over.PROTOCOL


def test_a_flood_after_the_match_is_cut_off() -> None:
    pair = finished_pair()
    for _ in range(FLOOD_MAX + 1):
        hostile_send(pair, Role.HOST, encode_message("ping"))
    (over,) = pair.of(Role.JOINER, AfterOver)
    assert isinstance(over, AfterOver) and over.how is Over.PROTOCOL and "more than" in over.detail


def test_a_stamp_flood_after_the_match_is_dropped_as_in_the_match() -> None:
    pair = finished_pair()
    before = len(pair.of(Role.JOINER, StampReceived))
    for _ in range(RECEIVE_MAX + 3):
        hostile_send(pair, Role.HOST, encode_message("stamp", id="nice"))
    assert len(pair.of(Role.JOINER, StampReceived)) - before == RECEIVE_MAX
    assert pair.conns[Role.JOINER].after_open
    # and this side keeps to its own rate
    joiner = pair.conns[Role.JOINER]
    assert joiner.send_stamp("thanks", pair.now) and not joiner.send_stamp("nice", pair.now)
    pair.now += SEND_INTERVAL
    assert joiner.send_stamp("nice", pair.now)


def test_a_silent_peer_is_let_go_after_the_silence_timeout() -> None:
    pair = finished_pair()
    joiner = pair.conns[Role.JOINER]
    pair.now += SILENCE  # the host's heartbeats never come (its cable is cut)
    assert (
        joiner.tick(pair.now) == [AfterOver(Over.SILENT, f"nothing for {SILENCE:g} s", False)]
        and joiner.closed
    )


def test_the_time_after_the_match_ends_after_ten_minutes() -> None:
    pair = finished_pair()
    pair.conns[Role.JOINER].rematch(pair.now)
    pair.wait(AFTER_FOR + 2.0, step=2.0)
    overs = {role: pair.of(role, AfterOver) for role in Role}
    hows = {role: [o.how for o in found] for role, found in overs.items()}  # type: ignore[attr-defined]
    assert Over.TIME in hows[Role.HOST] + hows[Role.JOINER], hows
    assert all(len(found) == 1 for found in overs.values()), overs
    assert all(conn.closed for conn in pair.conns.values())


def test_a_drop_after_the_goodbyes_ends_it_without_a_resume() -> None:
    pair = finished_pair()
    for role in Role:
        events = pair.conns[role].connection_lost(pair.now, "connection reset")
        assert events == [AfterOver(Over.DROPPED, "the connection dropped", False)]
        assert pair.conns[role].suspended is None and pair.conns[role].closed
