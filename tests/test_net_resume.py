"""Resume, sans-I/O: a match whose connection drops goes on over a new one, and a resume
that does not fit is refused with a named reason (docs/protocol.md, "Resume").

Two real :class:`Connection` objects per connection, real handshakes and keys; the test
moves the bytes itself, so it can cut the stream anywhere (also inside a frame) and lose
whatever was in flight, as a reset connection does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeFailed
from koikoi.net.errors import PeerRefused
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.lockstep import entry_hash
from koikoi.net.resume import (
    REFUSALS,
    Resumed,
    ResumeRefused,
    Suspended,
    check_claim,
    fields_of,
    log_entries,
    resume_message,
)
from koikoi.net.roles import Role
from koikoi.net.session import Ended, Session
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_message

WINDOW = 180.0


@dataclass
class Side:
    role: Role
    identity: Identity = field(default_factory=Identity.generate)
    known: KnownPeers = field(default_factory=lambda: KnownPeers(None))
    events: list[ConnectionEvent] = field(default_factory=list)
    nick: str = ""

    def connection(self, now: float) -> Connection:
        conn = Connection(
            self.role,
            identity=self.identity,
            nickname=self.nick or self.role.value,
            settings=Settings(),
            password="",
            known_peers=self.known,
            now=now,
        )
        conn.resume_window = WINDOW
        return conn


@dataclass
class Link:
    """The two ends of one connection, with the bytes in flight each way."""

    host: Connection
    joiner: Connection
    flight: dict[Role, bytearray] = field(
        default_factory=lambda: {Role.HOST: bytearray(), Role.JOINER: bytearray()}
    )


class Match:
    """A match between two sides over as many connections as it takes."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = 0.0
        self.sides = {role: Side(role) for role in Role}
        self.session: dict[Role, Session] = {}
        self.resumed = 0
        self.cuts = 0
        self.link = self.dial(resume=False)

    def conn(self, role: Role) -> Connection:
        return self.link.host if role is Role.HOST else self.link.joiner

    def dial(self, *, resume: bool = True) -> Link:
        host = self.sides[Role.HOST].connection(self.now)
        joiner = self.sides[Role.JOINER].connection(self.now)
        if resume:
            joiner.resuming = self.session[Role.JOINER]
            host.busy = lambda: True
            host.resume_candidate = self.candidate
        joiner.start()
        return Link(host, joiner)

    def candidate(self, key: bytes) -> Session | None:
        session = self.session[Role.HOST]
        return session if key == session.peer.public_key else None

    def record(self, role: Role, events: list[ConnectionEvent]) -> None:
        self.sides[role].events.extend(events)
        for event in events:
            if isinstance(event, Resumed) and role is Role.HOST:
                self.resumed += 1
        conn = self.conn(role)
        if conn.session is not None:
            self.session[role] = conn.session

    def step(self) -> bool:
        """Each side moves if it can and sends; returns whether any byte moved."""
        moved = False
        for role in Role:
            conn = self.conn(role)
            turn = conn.local_turn
            if turn is not None and not conn.closed:
                self.record(role, conn.play(self.rng.choice(turn.legal_actions), self.now))
            self.link.flight[role] += conn.data_to_send()
        for role in Role:
            data = bytes(self.link.flight[role])
            self.link.flight[role].clear()
            if data:
                moved = True
                self.record(role.peer, self.conn(role.peer).receive_data(data, self.now))
        return moved

    def cut(self) -> None:
        """Reset the connection: part of what is in flight arrives, the rest is lost."""
        for role in Role:
            data = self.link.flight[role]
            keep = self.rng.randrange(len(data) + 1) if data else 0
            if keep:
                self.record(role.peer, self.conn(role.peer).receive_data(bytes(data[:keep]), 0))
        for role in Role:
            self.record(role, self.conn(role).connection_lost(self.now, "connection reset"))
        self.now += 1.0

    def over(self) -> bool:
        return all(role in self.session and self.session[role].closed for role in Role)

    def run(self, cut_chance: float = 0.0, max_steps: int = 20_000) -> None:
        for _ in range(max_steps):
            if self.over():
                return
            in_play = all(
                role in self.session and self.session[role].lockstep is not None for role in Role
            )
            if in_play and cut_chance and (self.cuts == 0 or self.rng.random() < cut_chance):
                self.cuts += 1
                self.cut()
            if self.link.host.closed or self.link.joiner.closed:
                for role in Role:  # the other end notices by silence (or a deadline)
                    if not self.conn(role).closed:
                        self.now += 16.0
                        self.record(role, self.conn(role).tick(self.now))
                if self.over():
                    return
                assert not any(self.session[role].closed for role in Role), self.sides
                self.link = self.dial()
                continue
            self.now += 0.01
            if not self.step():
                for role in Role:
                    self.record(role, self.conn(role).tick(self.now))
        raise AssertionError("the match did not end")


def until_play(match: Match) -> None:
    """Step until both sides finished the toss."""
    while not all(
        role in match.session and match.session[role].lockstep is not None for role in Role
    ):
        match.step()


def assert_same_verified_records(match: Match) -> None:
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    assert host.ending is not None and joiner.ending is not None
    assert host.ending.finished and joiner.ending.finished, (host.ending, joiner.ending)
    h, j = host.record().to_json(), joiner.record().to_json()
    assert h["deals"] == j["deals"] and h["net"] == j["net"]
    for record in (h, j):
        report = verify_record(record)
        assert report.result == host.result_json() == joiner.result_json()


# --- resuming ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_a_match_goes_on_after_random_resets(seed: int) -> None:
    match = Match(seed)
    match.run(cut_chance=0.03)
    assert_same_verified_records(match)
    assert match.resumed >= 1 and match.cuts >= 1


def test_entries_lost_in_flight_are_resent() -> None:
    match = Match(7)
    until_play(match)
    # The joiner moves; its entry is lost with the connection.
    for _ in range(200):
        mover = next((r for r in Role if match.conn(r).local_turn is not None), None)
        if mover is not None:
            break
        match.step()
    assert mover is not None
    conn = match.conn(mover)
    turn = conn.local_turn
    assert turn is not None
    match.record(mover, conn.play(turn.legal_actions[0], match.now))
    conn.data_to_send()  # written into a socket that is already dead
    ahead = match.session[mover].lockstep
    behind = match.session[mover.peer].lockstep
    assert ahead is not None and behind is not None and ahead.seq == behind.seq + 1
    for role in Role:
        match.record(role, match.conn(role).connection_lost(match.now, "connection reset"))
    match.link = match.dial()
    match.run()
    resumed = [e for e in match.sides[mover].events if isinstance(e, Resumed)]
    assert resumed and resumed[0].resent == 1
    assert_same_verified_records(match)


def test_a_suspended_session_ends_dropped_when_nobody_resumes() -> None:
    match = Match(3)
    until_play(match)
    match.cut()
    suspended = [e for e in match.sides[Role.HOST].events if isinstance(e, Suspended)]
    assert suspended and suspended[0].deadline == pytest.approx(match.now - 1.0 + WINDOW)
    host = match.session[Role.HOST]
    assert not host.closed
    events = host.connection_lost(suspended[0].deadline, "not resumed within 3 minutes")
    assert isinstance(events[0], Ended) and events[0].ending.how == "dropped"


def test_a_drop_during_the_toss_still_ends_the_session() -> None:
    match = Match(4)
    while Role.HOST not in match.session:
        match.step()  # until the handshake is done; the toss is in flight
    assert match.session[Role.HOST].lockstep is None
    events = match.link.host.connection_lost(match.now, "connection reset")
    assert isinstance(events[0], Ended) and events[0].ending.how == "dropped"


# --- attacks: every claim that does not fit is refused, named -----------------------------


def playing(seed: int = 5, moves: int = 6) -> Match:
    match = Match(seed)
    while (
        match.session.get(Role.JOINER) is None
        or match.session[Role.JOINER].lockstep is None
        or match.session[Role.JOINER].lockstep.seq < moves  # type: ignore[union-attr]
    ):
        match.step()
    return match


def refused(code: str, call: object) -> ResumeRefused:
    assert callable(call)
    with pytest.raises(ResumeRefused) as caught:
        call()
    assert caught.value.code == code and REFUSALS[code] in str(caught.value)
    return caught.value


def test_a_resume_of_an_unknown_session_is_refused() -> None:
    match = playing()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    claim = fields_of(
        encode_message("resume", session=bytes(32), seq=0, head=bytes(32))  # never played
    )
    refused("session", lambda: check_claim(host, joiner.identity.public_key, claim))


def test_a_resume_under_another_key_is_refused() -> None:
    match = playing()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    claim = fields_of(resume_message(joiner))
    stranger = Identity.generate()
    refused("key", lambda: check_claim(host, stranger.public_key, claim))


def test_a_resume_from_the_future_is_refused() -> None:
    match = playing()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    lockstep = host.lockstep
    assert lockstep is not None
    if lockstep.match.current_seat() != host.seat:  # the peer to move may hold one more
        match.step()
    while lockstep.match.current_seat() != host.seat:
        match.step()
    claim = fields_of(
        encode_message("resume", session=host.session_id, seq=lockstep.seq + 3, head=bytes(32))
    )
    refused("future", lambda: check_claim(host, joiner.identity.public_key, claim))


def test_a_resume_whose_head_is_not_on_the_chain_is_refused() -> None:
    match = playing()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    lockstep = host.lockstep
    assert lockstep is not None
    forked = entry_hash(b"another entry 2")
    claim = fields_of(encode_message("resume", session=host.session_id, seq=2, head=forked))
    refused("chain", lambda: check_claim(host, joiner.identity.public_key, claim))


def test_a_resume_of_a_match_that_ended_unfinished_is_refused() -> None:
    match = playing()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    claim = fields_of(resume_message(joiner))
    host.leave(match.now)  # the host's player left: nothing is left to resume
    refused("over", lambda: check_claim(host, joiner.identity.public_key, claim))


def test_a_finished_match_can_be_resumed_only_to_fetch_its_last_entries() -> None:
    """The match is over here, but the peer may lack the last entries: a claim of fewer is
    answered with them, a claim of more is from the future."""
    match = Match(6)
    match.run()
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    lockstep = host.lockstep
    assert lockstep is not None and host.ending is not None and host.ending.finished
    behind = lockstep.seq - 2
    head = entry_hash(log_entries(lockstep)[behind - 1][1])
    claim = fields_of(encode_message("resume", session=host.session_id, seq=behind, head=head))
    assert len(check_claim(host, joiner.identity.public_key, claim)) == 2
    ahead = fields_of(
        encode_message("resume", session=host.session_id, seq=lockstep.seq + 1, head=head)
    )
    refused("future", lambda: check_claim(host, joiner.identity.public_key, ahead))


def test_a_refused_resume_reaches_the_joiner_named_and_the_real_one_still_resumes() -> None:
    """The joiner of an old session dials the host of a new one between the same two
    identities: the host refuses ``session``; its suspended match waits on and the right
    session resumes afterwards."""
    match = playing(seed=8)
    old = Match(9)  # the same two players, an earlier session
    old.sides = match.sides
    old.session = {}
    old.link = old.dial(resume=False)
    until_play(old)
    match.cut()
    stale = match.sides[Role.JOINER].connection(match.now)
    stale.resuming = old.session[Role.JOINER]
    host = match.sides[Role.HOST].connection(match.now)
    host.busy = lambda: True
    host.resume_candidate = match.candidate
    stale.start()
    match.link = Link(host, stale)
    for _ in range(10):
        match.step()
    failure = stale.failure
    assert isinstance(failure, ResumeRefused) and failure.code == "session" and failure.by_peer
    assert str(failure) == "the peer cannot resume: there is no such session to resume here"
    assert isinstance(host.failure, ResumeRefused) and host.failure.code == "session"
    assert not match.session[Role.HOST].closed  # still waiting for its own peer
    match.link = match.dial()
    match.run()
    assert_same_verified_records(match)


def test_the_host_room_refuses_another_identity_as_busy() -> None:
    match = playing()
    match.cut()
    intruder = Side(Role.JOINER, nick="mallory")
    conn = intruder.connection(match.now)
    conn.resuming = match.session[Role.JOINER]  # it even holds the joiner's session state
    host = match.sides[Role.HOST].connection(match.now)
    host.busy = lambda: True
    host.resume_candidate = match.candidate
    conn.start()
    match.link = Link(host, conn)
    for _ in range(10):
        match.step()
    events = [e for e in match.sides[Role.JOINER].events if isinstance(e, HandshakeFailed)]
    assert isinstance(conn.failure, PeerRefused) and conn.failure.code == "busy", events
    assert not match.session[Role.HOST].closed


def test_a_joiner_refuses_a_host_with_another_key() -> None:
    match = playing()
    match.cut()
    impostor = Side(Role.HOST, nick="mallory")
    host = impostor.connection(match.now)
    joiner = match.sides[Role.JOINER].connection(match.now)
    joiner.resuming = match.session[Role.JOINER]
    joiner.start()
    match.link = Link(host, joiner)
    for _ in range(10):
        match.step()
    assert isinstance(joiner.failure, ResumeRefused) and joiner.failure.code == "key"
    assert not match.session[Role.JOINER].closed


def test_the_turns_clock_starts_again_when_the_match_resumes() -> None:
    """The drop was nobody's move: after 100 s away, the player to move has a fresh clock
    (and the waiting side no cause to call the match abandoned)."""
    match = Match(10)
    until_play(match)
    match.cut()
    match.now += 100.0
    match.link = match.dial()
    while not all(any(isinstance(e, Resumed) for e in match.sides[r].events) for r in Role):
        match.step()
    for role in Role:
        clock = match.session[role].clock(match.now)
        assert clock is not None and clock.waited < 1.0, (role, clock)
