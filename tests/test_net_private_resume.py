"""Resume of a privately dealt match (docs/protocol.md, "Resume" and "Private dealing"):
a connection cut anywhere in the dealing — the shuffle and lock exchange, between the two
keys of a draw, right after a ``play`` key, during the seeds' reveal, at the last move —
is resumed, the dealing messages lost in flight are sent again in their places, and the
match finishes with both records verified (dealing included) and alike.

The same sans-I/O harness as tests/test_net_resume.py (two real :class:`Connection` objects
per connection, real handshakes and keys, bytes moved by the test), with both sides
offering private dealing. The attacks are a peer built from the same modules that sends
something else than its client would after the resume.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from koikoi.engine.match import Settings
from koikoi.engine.round import PICK_BASE, SHOBU
from koikoi.net.dealing import Phase as DealPhase
from koikoi.net.errors import ProtocolError
from koikoi.net.fair import TossPhase
from koikoi.net.resume import (
    REFUSALS,
    NotResumable,
    Resumed,
    ResumeRefused,
    check_claim,
    fields_of,
    read_reply,
    restore_session,
    resume_message,
    resume_schema,
    suspendable,
)
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.messages import ACK, MOVE
from koikoi.net.session.messages import DEALING as DEALING_SCHEMAS
from koikoi.net.session.turns import say_ready_again
from koikoi.net.verify import compare_records, verify_record
from koikoi.net.wire import FrameDecoder, Record, decode_message, encode_message
from tests.test_net_resume import (
    Link,
    Match,
    Side,
    assert_same_verified_records,
    until_play,
)

PRIVATE = ("private", "seed")


class PrivateMatch(Match):
    """A match dealt privately, over as many connections as it takes."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = 0.0
        self.sides = {role: Side(role, dealings=PRIVATE) for role in Role}
        self.session = {}
        self.resumed = 0
        self.cuts = 0
        self.waiting = set()
        self.link = self.dial(resume=False)

    def fill(self) -> None:
        """The first half of a step: each side moves if it can; what it sends is in flight.
        ``marks[role]`` is how many frames were in flight before its move, ``played[role]``
        the move (or None)."""
        self.marks: dict[Role, int] = {}
        self.played: dict[Role, int | None] = {}
        for role in Role:
            conn = self.conn(role)
            self.link.flight[role] += conn.data_to_send()
            self.marks[role] = len(payloads(bytes(self.link.flight[role])))
            self.played[role] = None
            turn = conn.local_turn
            if turn is not None and not conn.closed:
                legal = turn.legal_actions  # shobu at once: longer matches, more deals
                action = SHOBU if SHOBU in legal else self.rng.choice(legal)
                self.played[role] = action
                self.record(role, conn.play(action, self.now))
            self.link.flight[role] += conn.data_to_send()

    def deliver(self, frames: dict[Role, int] | None = None) -> bool:
        """The second half: what is in flight arrives (only the first ``frames[role]`` whole
        frames of a side, when given; the rest stays in flight)."""
        moved = False
        for role in Role:
            data = bytes(self.link.flight[role])
            if frames is not None:
                data = data[: frame_bytes(data, frames.get(role, 0))]
            del self.link.flight[role][: len(data)]
            if data:
                moved = True
                self.record(role.peer, self.conn(role.peer).receive_data(data, self.now))
        return moved

    def drop(self) -> None:
        """The connection resets: what is still in flight is lost."""
        for role in Role:
            self.link.flight[role].clear()
        for role in Role:
            self.record(role, self.conn(role).connection_lost(self.now, "connection reset"))
        assert all(self.conn(role).suspended is not None for role in Role), self.sides
        self.now += 1.0


def frame_bytes(data: bytes, frames: int) -> int:
    """How many bytes the first ``frames`` whole frames of ``data`` take (``frames`` < 0:
    all but the last ``-frames``)."""
    if frames < 0:
        frames = max(0, len(payloads(data)) + frames)
    at = 0
    for _ in range(frames):
        if at + 4 > len(data):
            break
        at += 4 + int.from_bytes(data[at : at + 4], "big")
    return min(at, len(data))


def payloads(data: bytes) -> list[bytes]:
    return FrameDecoder().feed(data)


def in_play(match: PrivateMatch) -> bool:
    return all(role in match.session and match.session[role].lockstep is not None for role in Role)


def cut_when(
    match: PrivateMatch,
    point: Callable[[PrivateMatch], dict[Role, int] | None],
    max_steps: int = 20_000,
) -> bool:
    """Step until ``point`` says the connection is cut now (after the sides sent, before
    it arrives); it gives how many whole frames of each side still get through. False:
    the match ended before the point came."""
    for _ in range(max_steps):
        match.now += 0.01
        match.fill()
        joiner = match.session.get(Role.JOINER)
        if joiner is not None and joiner.toss.phase is TossPhase.TOSSED:
            # version 4: the host's toss (tA) and its first shuffle go in one write; the toss
            # arrives first, so that a cut can fall on the shuffle with both sides in play
            match.deliver({Role.HOST: 1})
        if in_play(match):
            through = point(match)
            if through is not None:
                match.deliver(through)
                match.drop()
                return True
        if not match.deliver():
            if all(role in match.session and match.session[role].closed for role in Role):
                return False  # the match ended first (a player lost every point)
            for role in Role:
                match.record(role, match.conn(role).tick(match.now))
    raise AssertionError("the match stalled")


def dealer_phase(session: Session) -> DealPhase | None:
    dealing = session._private
    return None if dealing is None else dealing.deal.dealer.phase


def during_the_exchange(
    deal: int, lost: Role, phases: tuple[DealPhase, ...]
) -> Callable[[PrivateMatch], dict[Role, int] | None]:
    """The ``deal``-th deal's shuffle/lock exchange: ``lost``'s messages are in flight (and
    lost), sent as it went on to one of ``phases``."""

    def point(match: PrivateMatch) -> dict[Role, int] | None:
        session = match.session[lost]
        lockstep = session.lockstep
        assert lockstep is not None
        if len(lockstep.record.deals) != deal or not match.link.flight[lost]:
            return None
        if dealer_phase(session) in phases:
            return {}
        return None

    return point


def between_the_draw_keys(match: PrivateMatch) -> dict[Role, int] | None:
    """A mover sent its key of a draw; the other's key has not come (the mover's arrives)."""
    for role in Role:
        dealing = match.session[role]._private
        private = None if dealing is None else dealing.deal
        if private is not None and private.pending is not None and match.link.flight[role]:
            lockstep = match.session[role].lockstep
            if lockstep is not None and lockstep.seq >= 6:
                return {role: 99}  # the mover's keys arrive; the answer is lost
    return None


def right_after_a_play_key(match: PrivateMatch) -> dict[Role, int] | None:
    """A mover plays a card of its hand: only its key of the card (its first message of
    the move) gets through."""
    for role in Role:
        action = match.played[role]
        lockstep = match.session[role].lockstep
        if action is not None and action < PICK_BASE and lockstep is not None and lockstep.seq >= 4:
            return {role: match.marks[role] + 1, role.peer: 99}
    return None


def during_the_seed_reveal(match: PrivateMatch) -> dict[Role, int] | None:
    """A deal is over; a side revealed its seed, which is lost (the other's is not)."""
    for role in Role:
        dealing = match.session[role]._private
        private = None if dealing is None else dealing.deal
        seeds = 0 if private is None else len(private.dealer.transcript.seeds)
        if private is not None and private.seed_sent and match.link.flight[role] and seeds < 2:
            return {role.peer: 99}  # the peer's seed is not in: this side's is lost
    return None


def at_the_last_move(match: PrivateMatch) -> dict[Role, int] | None:
    """The match's last move is played: the move gets through, its mover's seed does not."""
    for role in Role:
        lockstep = match.session[role].lockstep
        if lockstep is not None and lockstep.match.finished and match.link.flight[role]:
            return {role: -1, role.peer: 99}
    return None


SHUFFLED, LOCKED = DealPhase.AWAIT_SHUFFLE, DealPhase.AWAIT_DEAL
"""The host waits for the joiner's shuffle (its own went); the joiner waits for the host's
keys (its lock and its ``deal`` went)."""

POINTS: dict[str, Callable[[PrivateMatch], dict[Role, int] | None]] = {
    "the first deal's shuffle": during_the_exchange(0, Role.HOST, (SHUFFLED,)),
    "the second deal's shuffle": during_the_exchange(1, Role.HOST, (SHUFFLED,)),
    "the second deal's lock": during_the_exchange(1, Role.JOINER, (LOCKED,)),
    "between the draw keys": between_the_draw_keys,
    "right after a play key": right_after_a_play_key,
    "the seed reveal": during_the_seed_reveal,
    "the last move": at_the_last_move,
}


def assert_verified_and_alike(match: PrivateMatch) -> None:
    assert_same_verified_records(match)
    records = [match.session[role].record().to_json() for role in Role]
    assert all(record["net"]["dealing"] == "private" for record in records)
    assert all("dealing" in deal and "sealed" not in deal for deal in records[0]["deals"])
    reports = [verify_record(record) for record in records]
    assert compare_records(reports[0], reports[1]) == reports[0].moves


def cut_match(
    point: Callable[[PrivateMatch], dict[Role, int] | None], *, unfinished: bool = False
) -> PrivateMatch:
    """A match cut at ``point`` (the cards are random: a match may end before it comes);
    ``unfinished``: one whose records have no end yet (a seed reveal may come after the
    match's last deal, which ends it)."""
    for seed in range(21, 31):
        match = PrivateMatch(seed)
        if cut_when(match, point) and not (
            unfinished and any("end" in match.session[role].record().to_json() for role in Role)
        ):
            return match
    raise AssertionError("ten matches ended before the cut point")


@pytest.mark.parametrize("point", list(POINTS))
def test_a_private_match_cut_in_its_dealing_resumes_and_finishes(point: str) -> None:
    match = cut_match(POINTS[point])
    match.link = match.dial()
    match.run()
    assert match.resumed >= 1
    # what the cut lost was sent again (a dealing message at least)
    events = [event for side in match.sides.values() for event in side.events]
    resent = [event.resent for event in events if isinstance(event, Resumed)]
    assert sum(resent) >= 1, resent
    assert_verified_and_alike(match)


@pytest.mark.parametrize("seed", range(3))
def test_a_private_match_goes_on_after_random_resets(seed: int) -> None:
    match = PrivateMatch(seed)
    match.run(cut_chance=0.02)
    assert match.resumed >= 1 and match.cuts >= 1
    assert_verified_and_alike(match)


# --- attacks: claims that do not fit, and resent dealing that is not the dealing ----------


def refused(code: str, call: Callable[[], object]) -> None:
    with pytest.raises(ResumeRefused) as caught:
        call()
    assert caught.value.code == code and REFUSALS[code] in str(caught.value)


def test_a_claim_of_dealing_messages_never_sent_is_refused() -> None:
    match = cut_match(between_the_draw_keys)
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    assert host.lockstep is not None
    honest = fields_of(resume_message(joiner))
    assert honest.get("dealt", int) == joiner.dealing_received <= host.dealing_sent
    check_claim(host, joiner.identity.public_key, honest)  # the honest claim fits
    inflated = fields_of(
        encode_message(
            "resume",
            session=host.session_id,
            seq=host.lockstep.seq,
            head=host.lockstep.prev_hash,
            dealt=host.dealing_sent + 1,
        )
    )
    refused("dealt", lambda: check_claim(host, joiner.identity.public_key, inflated))


def test_a_version_3_resume_must_say_how_many_dealing_messages_it_took() -> None:
    match = cut_match(between_the_draw_keys)
    host, joiner = match.session[Role.HOST], match.session[Role.JOINER]
    assert joiner.lockstep is not None
    bare = encode_message(
        "resume", session=host.session_id, seq=joiner.lockstep.seq, head=joiner.lockstep.prev_hash
    )
    with pytest.raises(ProtocolError, match="missing key 'dealt'"):
        read_reply(bare, "resume", resume_schema(host))


def test_the_refusal_reaches_the_joiner_and_the_suspended_host_waits_on() -> None:
    """Over real connections: a joiner that claims one dealing message more than the host
    sent is refused ``dealt``; the host's match is still suspended, and resumes honestly."""
    match = cut_match(POINTS["the first deal's shuffle"])
    joiner = match.session[Role.JOINER]
    joiner.dealing_received += 5  # the joiner's claim now says it took more than was sent
    match.link = match.dial()
    for _ in range(10):
        match.step()
    failure = match.link.host.failure
    assert isinstance(failure, ResumeRefused) and failure.code == "dealt"
    assert isinstance(match.link.joiner.failure, ResumeRefused)
    assert match.link.joiner.failure.by_peer and match.link.joiner.failure.code == "dealt"
    assert suspendable(match.session[Role.HOST]) and not match.session[Role.HOST].closed
    joiner.dealing_received -= 5
    match.link = match.dial()
    match.run()
    assert_verified_and_alike(match)


def resumed_until(match: PrivateMatch, role: Role) -> Session:
    """Dial again and step until ``role`` read the peer's ``resume``: what it resends waits
    in its session, not yet written."""
    match.link = match.dial()
    for _ in range(50):
        if any(isinstance(e, Resumed) for e in match.sides[role].events):
            return match.session[role]
        match.step()
    raise AssertionError("no resume")


def resend_instead(
    match: PrivateMatch, cheat: Role, change: Callable[[list[bytes], Session], list[bytes]]
) -> None:
    """``cheat`` sends ``change(what its client resends)`` in place of what it resends."""
    session = resumed_until(match, cheat)
    peer = match.session[cheat.peer]
    assert peer.lockstep is not None
    honest = check_claim(session, peer.identity.public_key, fields_of(resume_message(peer)))
    acks = session.acks_to_resend(peer.lockstep.seq)
    unsent = session.outgoing()
    assert len(unsent) == len(acks) + len(honest) + 1  # and its readiness, said again
    session._tx.set_nonce(session._tx.n - len(unsent))
    for message in acks + change(honest, session):
        session._send(message)
    say_ready_again(session)


def caught(match: PrivateMatch, cheat: Role) -> str:
    """Play on until the honest side ends the match; it must name ``cheat``."""
    honest = match.session[cheat.peer]
    for _ in range(5_000):
        if honest.closed:
            break
        match.now += 0.01
        match.step()
    ending = honest.ending
    assert ending is not None and ending.how == "cheat" and ending.by is cheat, ending
    return ending.reason


def kind_of(message: bytes) -> str:
    schemas: dict[str, Record] = {"move": MOVE, "ack": ACK, **DEALING_SCHEMAS}
    return decode_message(message, schemas).kind


def test_a_resent_key_that_is_not_the_one_sent_is_caught_and_named() -> None:
    """The joiner's ``deal`` was lost; after the resume it sends keys its seed does not
    give (one key swapped for another position's)."""
    match = cut_match(during_the_exchange(0, Role.JOINER, (LOCKED,)))

    def other_keys(resent: list[bytes], session: Session) -> list[bytes]:
        out = []
        for message in resent:
            if kind_of(message) == "deal":
                keys = decode_message(message, DEALING_SCHEMAS).fields.get("keys", bytes)
                keys = keys[32:64] + keys[:32] + keys[64:]
                message = encode_message("deal", keys=keys)
            out.append(message)
        assert out != resent
        return out

    resend_instead(match, Role.JOINER, other_keys)
    assert "the joiner sent a key of position" in caught(match, Role.JOINER)


def test_a_resent_deck_that_is_not_the_one_sent_is_caught_and_named() -> None:
    """The joiner's ``lock`` (the final deck) was lost; after the resume it sends another
    deck: two of its points swapped."""
    match = cut_match(during_the_exchange(0, Role.JOINER, (LOCKED,)))

    def other_deck(resent: list[bytes], session: Session) -> list[bytes]:
        out = []
        for message in resent:
            if kind_of(message) == "lock":
                deck = decode_message(message, DEALING_SCHEMAS).fields.get("deck", bytes)
                deck = deck[32:64] + deck[:32] + deck[64:]  # the host's first two cards
                message = encode_message("lock", deck=deck)
            out.append(message)
        assert out != resent
        return out

    resend_instead(match, Role.JOINER, other_deck)
    # the host opens a swapped position of its hand (the host is oya), or the joiner's hand
    # message seals the deck it keeps, not the one the host received (the joiner is oya)
    reason = caught(match, Role.JOINER)
    assert (
        "the joiner sent a key of position" in reason
        or "the peer's sealed deck is not the one" in reason
    ), reason


def test_an_old_deals_message_resent_in_place_of_the_lost_one_is_caught() -> None:
    """The host's ``shuffle`` of the second deal was lost; after the resume it sends its
    first deal's ``shuffle`` again instead: the deal it leads to does not open."""
    match = cut_match(POINTS["the second deal's shuffle"])

    def replayed(resent: list[bytes], session: Session) -> list[bytes]:
        old = session._journal.dealing_sent[0][1]
        assert kind_of(old) == "shuffle"
        out = [old if kind_of(m) == "shuffle" else m for m in resent]
        assert out != resent
        return out

    resend_instead(match, Role.HOST, replayed)
    # its keys open the old deck's points, which are no cards under this deal's keys
    assert "the host sent a key of position" in caught(match, Role.HOST)


# --- a side that crashed (docs/protocol.md, "A side that crashed") ------------------------


def crash_and_restore(match: PrivateMatch, crashed: Role) -> None:
    """``crashed`` crashes: its session is gone and a new one is restored from what its
    record file held (the record as written, through JSON)."""
    on_disk = json.loads(json.dumps(match.session[crashed].record().to_json()))
    assert on_disk["net"]["dealing"] == "private" and "end" not in on_disk
    assert "local" in on_disk  # this side's seeds and journal, its own file only
    side = match.sides[crashed]
    restored = restore_session(
        on_disk, side.identity, crashed.value, crashed, Settings(), now=match.now
    )
    assert restored.record().to_json()["deals"] == on_disk["deals"]
    assert restored.dealing_received == match.session[crashed].dealing_received
    assert restored.dealing_sent == match.session[crashed].dealing_sent
    match.session[crashed] = restored


@pytest.mark.parametrize("crashed", list(Role))
@pytest.mark.parametrize("point", [point for point in POINTS if point != "the last move"])
def test_a_private_match_cut_by_a_crash_is_restored_resumes_and_finishes(
    point: str, crashed: Role
) -> None:
    """Each kind of point of the dealing: the crashed side's record (written as the
    connection went) holds its seeds and journal; the session replayed from it resumes
    and the match finishes, both records verified, dealing included, and alike."""
    match = cut_match(POINTS[point], unfinished=True)
    crash_and_restore(match, crashed)
    match.link = match.dial()
    match.run()
    assert match.resumed >= 1
    assert_verified_and_alike(match)
    assert all("local" not in match.session[role].record().to_json() for role in Role)


def test_a_match_cut_at_its_last_move_is_over_on_both_sides_there_is_nothing_to_restore() -> None:
    """At the last move the match is over by its signed moves: each side's record says so
    (a side that crashed then has nothing to restore), with the result of the moves, the
    last deal's audit still to come."""
    match = cut_match(at_the_last_move)
    for role in Role:
        session = match.session[role]
        assert session.ending is not None and session.ending.finished
        assert session.lockstep is not None and session.lockstep.match.finished
        record = session.record().to_json()
        assert record["end"]["finished"] is True and "local" not in record
        assert verify_record(record).result["finished"] is True


@pytest.mark.parametrize("seed", range(3))
def test_a_private_match_goes_on_after_random_crashes(seed: int) -> None:
    """Resets at random, and each time one side or the other crashes too (a side whose
    match ended already, a cut at the last move, has a finished record: nothing to restore;
    the other side resumes and takes the end)."""
    match = PrivateMatch(seed)
    rng = random.Random(seed)
    original = match.dial

    def dial(*, resume: bool = True) -> Link:
        crashed = rng.choice(list(Role))
        if resume and match.session[crashed].ending is None:
            crash_and_restore(match, crashed)
        return original(resume=resume)

    match.dial = dial  # type: ignore[method-assign]
    match.run(cut_chance=0.02)
    assert match.resumed >= 1 and match.cuts >= 1
    assert_verified_and_alike(match)


def tampered(change: Callable[[dict[str, Any]], None]) -> str:
    match = cut_match(between_the_draw_keys)
    data = json.loads(json.dumps(match.session[Role.JOINER].record().to_json()))
    change(data)
    side = match.sides[Role.JOINER]
    with pytest.raises(NotResumable) as caught:
        restore_session(data, side.identity, "joiner", Role.JOINER, Settings(), now=match.now)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def other_bytes(text: str) -> str:
    raw = bytearray(base64.b64decode(text))
    raw[len(raw) // 2] ^= 1
    return base64.b64encode(bytes(raw)).decode()


def test_a_record_without_its_local_key_is_not_restored() -> None:
    """A privately dealt record without this side's seeds (the peer's copy, or a file of an
    older version): one line says why, nothing else."""
    message = tampered(lambda data: data.pop("local"))
    assert message.startswith("it was dealt privately and keeps no local seeds")


def test_a_changed_kept_seed_is_refused_in_one_line() -> None:
    def change(data: dict[str, Any]) -> None:
        data["local"]["seeds"][-1] = other_bytes(data["local"]["seeds"][-1])

    assert tampered(change).startswith("its local journal does not replay")


def test_a_changed_peer_message_in_the_journal_is_refused_in_one_line() -> None:
    def change(data: dict[str, Any]) -> None:
        journal = data["local"]["journal"]
        taken = [item for item in journal if item[0] == "in"]
        taken[len(taken) // 2][1] = other_bytes(taken[len(taken) // 2][1])

    assert tampered(change).startswith("its local journal does not replay")


@pytest.mark.parametrize(
    "junk", [None, 5, [["play"]], [["in", "!!"]], [["play", "x"]], [["what"]], [[1, 2]]]
)
def test_a_malformed_journal_is_refused_in_one_line(junk: object) -> None:
    def change(data: dict[str, Any]) -> None:
        data["local"]["journal"] = junk

    assert tampered(change).startswith("its local journal does not replay")


def test_a_journal_cut_short_is_refused_in_one_line() -> None:
    """The journal ends before this side's first move, which its record holds (the cut
    comes six entries in). Cutting only its last items would not do: the journal is written
    before the record, and its tail may be a move still waiting for its keys, or dealing
    messages past the record's entries, which an earlier write could have left too."""

    def change(data: dict[str, Any]) -> None:
        journal = data["local"]["journal"]
        first_play = next(n for n, item in enumerate(journal) if item[0] == "play")
        data["local"]["journal"] = journal[:first_play]

    assert tampered(change).startswith("its local journal does not replay")


@pytest.mark.parametrize("crashed", list(Role))
def test_a_version_3_match_dealt_from_the_seed_is_restored_after_a_crash(crashed: Role) -> None:
    """A joiner that offers private dealing to a host that offers only the joint seed plays
    version 3 with the seed: its record is restored like a version-2 one, and resumes."""
    for seed in range(13, 23):  # the cards are random: a match may be over within 3 moves
        match = Match(seed)
        match.sides[Role.JOINER] = Side(Role.JOINER, dealings=PRIVATE)
        match.session = {}
        match.link = match.dial(resume=False)
        until_play(match)
        session = match.session[crashed]
        while session.lockstep is not None and session.lockstep.seq < 3 and not session.closed:
            match.step()
        if not session.closed:
            break
    assert not session.closed
    assert session.protocol == "koikoi-net/4" and session.dealing == "seed"
    on_disk = session.record().to_json()
    match.cut()
    side = match.sides[crashed]
    restored = restore_session(
        on_disk, side.identity, crashed.value, crashed, Settings(), now=match.now
    )
    assert restored.protocol == "koikoi-net/4"
    assert restored.record().to_json()["net"] == on_disk["net"]
    match.session[crashed] = restored
    match.link = match.dial()
    match.run()
    assert_same_verified_records(match)


def test_a_table_that_stopped_being_ready_while_the_connection_was_down_says_so_again() -> None:
    """Readiness (version 4, docs/protocol.md "Time") is said again on the resumed connection: the
    peer's view of it is the last ``clock`` before the drop, and a table may stop being
    ready meanwhile (a result panel comes up)."""
    match = PrivateMatch(11)  # version 4: readiness is said
    until_play(match)
    match.cut()
    match.session[Role.JOINER].set_ready(False, match.now)  # while nobody hears it
    assert match.session[Role.HOST]._moves.ready[1] is True
    match.link = match.dial()
    while not all(any(isinstance(e, Resumed) for e in match.sides[r].events) for r in Role):
        match.step()
    match.step()
    assert match.session[Role.HOST]._moves.ready[1] is False
    assert match.session[Role.JOINER]._moves.ready[1] is True  # the host's, said again too
