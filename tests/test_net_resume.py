"""Resume, sans-I/O: a match whose connection drops goes on over a new one, and a resume
that does not fit is refused with a named reason (docs/protocol.md, "Resume").

Two real :class:`Connection` objects per connection, real handshakes and keys; the test
moves the bytes itself, so it can cut the stream anywhere (also inside a frame) and lose
whatever was in flight, as a reset connection does.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeFailed
from koikoi.net.errors import PeerRefused
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.lockstep import ack_signed_data, encode_ack, entry_hash
from koikoi.net.resume import (
    REFUSALS,
    Resumed,
    ResumeRefused,
    Suspended,
    check_claim,
    fields_of,
    finished,
    log_entries,
    restore_session,
    resume_message,
)
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import Ended
from koikoi.net.verify import compare_records, verify_record
from koikoi.net.wire import encode_message

WINDOW = 180.0


@dataclass
class Side:
    role: Role
    identity: Identity = field(default_factory=Identity.generate)
    known: KnownPeers = field(default_factory=lambda: KnownPeers(None))
    events: list[ConnectionEvent] = field(default_factory=list)
    nick: str = ""
    dealings: tuple[str, ...] = ("seed",)
    """The dealings this side offers (``("private", "seed")``: private dealing first)."""

    def connection(self, now: float) -> Connection:
        conn = Connection(
            self.role,
            identity=self.identity,
            nickname=self.nick or self.role.value,
            settings=Settings(),
            password="",
            known_peers=self.known,
            now=now,
            dealings=self.dealings,
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
        self.waiting: set[Role] = set()
        """The sides whose session waits to be resumed."""
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
            if isinstance(event, Suspended):
                self.waiting.add(role)
            elif isinstance(event, Resumed):
                self.waiting.discard(role)
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
        """Both sessions closed, and neither waits to be resumed (a finished match whose
        peer may lack the last entry, or whose mover may lack the last ack, still does)."""
        closed = all(role in self.session and self.session[role].closed for role in Role)
        gone = all(self.conn(role).closed for role in Role)
        return closed and gone and not self.waiting

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
                # a side that closed cleanly writes what it still holds (the last ack, bye)
                if not any(self.conn(role).suspended for role in Role) and self.step():
                    continue
                for role in Role:  # the other end notices by silence (or a deadline)
                    if not self.conn(role).closed:
                        self.now += 16.0
                        self.record(role, self.conn(role).tick(self.now))
                if self.over():
                    return
                assert not any(
                    self.session[role].closed and not finished(self.session[role]) for role in Role
                ), self.sides
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


# --- acknowledgements across a resume (docs/protocol.md, "Sending again") ------------------


def host_moved_and_joiner_accepted(seed: int, *, ack_arrives: bool) -> tuple[Match, int]:
    """The host plays a move the joiner accepts and acknowledges; the acknowledgement reaches
    the host or is lost with the connection, which is cut right after. Returns the move."""
    match = playing(seed)
    while match.conn(Role.HOST).local_turn is None:
        match.step()
    host = match.conn(Role.HOST)
    turn = host.local_turn
    assert turn is not None
    match.record(Role.HOST, host.play(turn.legal_actions[0], match.now))
    moved = match.session[Role.HOST].unacknowledged[-1]
    match.record(Role.JOINER, match.link.joiner.receive_data(host.data_to_send(), match.now))
    answer = match.link.joiner.data_to_send()  # the ack (and maybe a move)
    if ack_arrives:
        match.record(Role.HOST, host.receive_data(answer, match.now))
    for role in Role:
        match.record(role, match.conn(role).connection_lost(match.now, "connection reset"))
    match.now += 1.0
    return match, moved


def resume_until_joiner_resent(match: Match) -> Session:
    """Dial again and step until the joiner has read the host's ``resume``: its resent
    messages wait in its session, not yet written."""
    match.link = match.dial()
    while not any(isinstance(e, Resumed) for e in match.sides[Role.JOINER].events):
        match.step()
    return match.session[Role.JOINER]


def replace_resent(joiner: Session, messages: list[bytes]) -> None:
    """A hostile joiner sends ``messages`` in place of what its client resends."""
    unsent = joiner.outgoing()
    joiner._tx.set_nonce(joiner._tx.n - len(unsent))
    for message in messages:
        joiner._send(message)


def the_lost_ack(joiner: Session, seq: int) -> tuple[bytes, bytes]:
    assert joiner.lockstep is not None
    ack = joiner.lockstep.recorded_ack(seq)
    assert ack is not None
    return ack


@pytest.mark.parametrize("seed", range(4))
def test_an_ack_lost_with_the_connection_is_sent_again_before_the_moves(seed: int) -> None:
    match, moved = host_moved_and_joiner_accepted(seed, ack_arrives=False)
    assert match.session[Role.HOST].unacknowledged[-1:] == (moved,)
    joiner = resume_until_joiner_resent(match)
    assert joiner.acks_to_resend(moved + 1)[-1:] == [
        encode_message(
            "ack", ack=the_lost_ack(joiner, moved)[0], sig=the_lost_ack(joiner, moved)[1]
        )
    ]
    match.run()
    assert_same_verified_records(match)


def test_an_ack_that_arrived_before_the_drop_is_resent_and_ignored() -> None:
    match, moved = host_moved_and_joiner_accepted(2, ack_arrives=True)
    assert match.session[Role.HOST].unacknowledged == ()
    joiner = resume_until_joiner_resent(match)
    assert joiner.acks_to_resend(moved + 1), "the joiner resends what the host may lack"
    match.run()
    assert_same_verified_records(match)


def ended_after_resent(match: Match, messages: list[bytes]) -> Ended:
    joiner = resume_until_joiner_resent(match)
    replace_resent(joiner, messages)
    for _ in range(5):
        match.step()
    ended = [e for e in match.sides[Role.HOST].events if isinstance(e, Ended)]
    assert ended, "the host took what the joiner sent"
    return ended[0]


def refused_ack(ending: Ending, sent: int) -> None:
    """The host ended the match on the joiner's ack of move ``sent``: as not the one due
    (cheat; the host may have moved meanwhile), or as acknowledging nothing owed (protocol)."""
    assert ending.by is Role.JOINER and not ending.finished
    if ending.how == "protocol":
        assert ending.reason == "the peer acknowledged a move this side did not send"
        return
    assert ending.how == "cheat", ending
    found = re.fullmatch(
        rf"the peer's acknowledgement of move (\d+): it acknowledges move {sent} where move "
        r"(\d+) is due",
        ending.reason,
    )
    assert found and found[1] == found[2] != str(sent), ending.reason


def test_a_forged_ack_after_a_resume_is_a_cheat() -> None:
    match, _ = host_moved_and_joiner_accepted(1, ack_arrives=False)
    due = match.session[Role.HOST].unacknowledged[0]
    ack, sig = the_lost_ack(match.session[Role.JOINER], due)
    forged = bytes([sig[0] ^ 1]) + sig[1:]
    ending = ended_after_resent(match, [encode_message("ack", ack=ack, sig=forged)]).ending
    assert ending.how == "cheat" and ending.by is Role.JOINER
    assert ending.reason == (
        f"the peer's acknowledgement of move {due}: its signature over the acknowledgement of "
        f"move {due} does not verify"
    )


def test_an_out_of_order_ack_after_a_resume_is_a_cheat() -> None:
    match, moved = host_moved_and_joiner_accepted(1, ack_arrives=False)
    joiner = match.session[Role.JOINER]
    owed = match.session[Role.HOST].unacknowledged
    later = encode_ack(moved + 1, bytes(32))  # signed by the joiner's own key, but not due
    sig = joiner.identity.sign(ack_signed_data(joiner.session_id, later))
    ending = ended_after_resent(match, [encode_message("ack", ack=later, sig=sig)]).ending
    refused_ack(ending, moved + 1)
    assert owed and owed[0] <= moved


def test_a_duplicated_ack_after_a_resume_is_refused() -> None:
    """Only a copy of an ack recorded before the resume, among the first messages of the
    new connection, is let through; the same ack twice on it is not."""
    match, _ = host_moved_and_joiner_accepted(1, ack_arrives=False)
    owed = match.session[Role.HOST].unacknowledged
    ack, sig = the_lost_ack(match.session[Role.JOINER], owed[0])
    message = encode_message("ack", ack=ack, sig=sig)
    ending = ended_after_resent(match, [message, message]).ending
    refused_ack(ending, owed[0])


def test_an_old_ack_after_play_went_on_is_refused() -> None:
    """Once play went on over the resumed connection, a copy of an old ack is no longer let
    through."""
    match, moved = host_moved_and_joiner_accepted(2, ack_arrives=True)
    joiner = resume_until_joiner_resent(match)
    host = match.session[Role.HOST]
    assert host.lockstep is not None
    resumed_at = host.lockstep.seq
    for _ in range(2000):  # play on, until the host has nothing owed and the joiner sent all
        if host.lockstep.seq >= resumed_at + 3 and not host.unacknowledged and not joiner._out:
            break
        match.step()
    assert not host.closed
    ack, sig = the_lost_ack(joiner, moved)
    joiner._send(encode_message("ack", ack=ack, sig=sig))
    for _ in range(3):
        match.step()
    ended = [e for e in match.sides[Role.HOST].events if isinstance(e, Ended)]
    assert ended
    refused_ack(ended[0].ending, moved)


# --- a side restored from its record (docs/protocol.md, "A side that crashed") -------------


@pytest.mark.parametrize("crashed", list(Role))
def test_a_side_restored_from_its_record_resumes_and_both_records_agree(crashed: Role) -> None:
    """The side that crashed right after its move (its record holds the move, not the ack
    that came for it) is restored from that record: it owes the same entries, has both
    handshake signatures and every ack, and its record after the match verifies and agrees
    with the peer's, move by move."""
    match = playing(seed=11)
    while match.conn(crashed).local_turn is None:
        match.step()
    conn = match.conn(crashed)
    turn = conn.local_turn
    assert turn is not None
    match.record(crashed, conn.play(turn.legal_actions[0], match.now))
    on_disk = json.loads(json.dumps(match.session[crashed].record().to_json()))
    before = match.session[crashed]
    owed = before.unacknowledged
    assert before.lockstep is not None and owed[-1:] == (before.lockstep.seq - 1,)
    # the peer accepts it and acknowledges it; the crashed side never reads the ack
    peer = match.conn(crashed.peer)
    match.record(crashed.peer, peer.receive_data(conn.data_to_send(), match.now))
    assert peer.data_to_send()
    for role in Role:
        match.record(role, match.conn(role).connection_lost(match.now, "connection reset"))
    side = match.sides[crashed]
    restored = restore_session(
        on_disk, side.identity, side.nick or crashed.value, crashed, Settings(), now=match.now
    )
    assert restored.unacknowledged == owed
    assert restored.cards == before.cards and restored.confirmed and restored.peer_confirmed
    assert restored.record().to_json()["net"] == on_disk["net"]
    assert restored.record().to_json()["deals"] == on_disk["deals"]
    match.session[crashed] = restored
    match.now += 100.0  # the restart took a while: the turn's clock starts again
    match.link = match.dial()
    while not all(any(isinstance(e, Resumed) for e in match.sides[r].events) for r in Role):
        match.step()
    for role in Role:
        clock = match.session[role].clock(match.now)
        assert clock is not None and clock.waited < 1.0, (role, clock)
    match.run()
    assert_same_verified_records(match)
    reports = [verify_record(s.record().to_json()) for s in match.session.values()]
    assert compare_records(reports[0], reports[1]) == reports[0].moves


# --- a drop right at the end ----------------------------------------------------------------


def exchange(match: Match) -> None:
    """Deliver everything both sides send until nothing moves (nobody plays)."""
    moved = True
    while moved:
        moved = False
        for role in Role:
            data = match.conn(role).data_to_send()
            if data:
                moved = True
                match.record(role.peer, match.conn(role.peer).receive_data(data, match.now))


def last_move_played(seed: int) -> Role:
    """Play until the match's last move is played (and not sent yet); returns its mover."""
    match_rng = random.Random(seed)
    match = LAST[seed] = Match(seed)
    until_play(match)
    while True:
        exchange(match)
        mover = next(r for r in Role if match.conn(r).local_turn is not None)
        turn = match.conn(mover).local_turn
        assert turn is not None
        match.record(mover, match.conn(mover).play(match_rng.choice(turn.legal_actions), 0))
        lockstep = match.session[mover].lockstep
        assert lockstep is not None
        if lockstep.match.finished:
            return mover


LAST: dict[int, Match] = {}


@pytest.mark.parametrize("lost", ["the last entry", "its ack"])
@pytest.mark.parametrize("seed", range(3))
def test_a_drop_right_after_the_last_move_loses_neither_the_move_nor_its_ack(
    seed: int, lost: str
) -> None:
    """The mover of the last move waits up to LAST_ACK_GRACE for its ack; a drop in that
    wait suspends the match on both sides, and the resume brings the peer the last entry
    and the mover its ack: both records end the same, finished and verified."""
    mover = last_move_played(seed)
    match = LAST.pop(seed)
    sent = match.conn(mover).data_to_send()
    if lost == "its ack":
        peer = match.conn(mover.peer)
        match.record(mover.peer, peer.receive_data(sent, match.now))
        peer.data_to_send()  # the ack and the goodbye, into a dead socket
    for role in Role:
        match.record(role, match.conn(role).connection_lost(match.now, "connection reset"))
    mover_ended = [e for e in match.sides[mover].events if isinstance(e, Ended)]
    assert len(mover_ended) == 1 and mover_ended[0].ending.finished  # the match is over
    assert match.conn(mover).suspended is not None  # but resumable, for the peer's sake
    # the peer waits too: for the last entry, or to resend its ack (no goodbye came)
    assert match.conn(mover.peer).suspended is not None
    match.now += 1.0
    match.link = match.dial()
    match.run()
    assert_same_verified_records(match)
    deals = match.session[mover].record().to_json()["deals"]
    assert "ack" in [action for deal in deals for action in deal["actions"]][-1]
    assert [type(e) for e in match.sides[mover].events].count(Ended) == 1
    assert all(match.session[role].closed for role in Role)


# --- a drop before the first deal: no resume ------------------------------------------------


@pytest.mark.parametrize("holder", list(Role))
def test_a_drop_while_the_four_cards_are_compared_ends_the_match_as_in_the_toss(
    holder: Role,
) -> None:
    """The toss is done and its four cards are shown, but one player has not confirmed them
    yet: a drop now ends the session (never resumed, the toss is not repeated), as a drop
    in the toss does, and counts as abandoning the toss after seeing the result."""
    match = Match(12)
    match.conn(holder).hold_for_confirmation = True
    for _ in range(50):
        match.step()
    sessions = [match.session[role] for role in Role]
    assert all(s.cards is not None and s.lockstep is None for s in sessions)
    assert not match.session[holder].confirmed and match.session[holder.peer].confirmed
    for role in Role:
        events = match.conn(role).connection_lost(match.now, "connection reset")
        assert not any(isinstance(e, Suspended) for e in events)
        ended = [e for e in events if isinstance(e, Ended)]
        assert ended and ended[0].ending.how == "dropped" and ended[0].ending.stage == "toss"
        assert ended[0].ending.suspicious  # the cards were drawn: the outcome was known
        assert match.conn(role).suspended is None and match.session[role].closed
        record = match.session[role].record().to_json()
        assert record["deals"] == [] and "toss" in record["net"]
        verify_record(record)
