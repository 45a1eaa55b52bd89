"""Resuming a session over a new connection after the old one dropped (XEP-0198 style), sans-I/O.

A connection that drops (or falls silent) after the coin toss, while the match is in play,
*suspends* the session instead of ending it: the match, its log and its keys stay, and for
:data:`RESUME_WINDOW` seconds the joiner dials again. The new connection runs a fresh
handshake (new Noise keys) between the same two identities; then each side sends ``resume``
with the session id, how many log entries it holds and the hash its next entry must chain
to (in version 4 also how many of the peer's dealing messages it took). Each side checks
the other's claim against its own log and resends the entries the other does not hold, as
ordinary ``move`` messages that go through every usual check, and, privately dealt, the
dealing messages it lacks, each in its place among those entries. A
claim that does not fit is refused with ``noresume`` and a code (:data:`REFUSALS`), and the
suspended session waits on for a better connection. docs/protocol.md, "Resume", is the
normative text; :class:`~koikoi.net.connection.Connection` calls this module at three places:
the drop, the end of the new handshake, and the peer's ``resume``.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from koikoi.engine.match import Settings
from koikoi.net.errors import HandshakeError, ProtocolError
from koikoi.net.fair import TossPhase, TossResult
from koikoi.net.handshake import Established, Peer
from koikoi.net.hello import PROTOCOL_NAME, VERSIONS, protocol_name
from koikoi.net.identity import Identity, PinCheck, PinStatus
from koikoi.net.lockstep import (
    HASH_LEN,
    MAX_SEQ,
    Lockstep,
    decode_entry,
    entry_hash,
    genesis_hash,
)
from koikoi.net.noise import CipherState
from koikoi.net.roles import Role
from koikoi.net.sas import sas_cards
from koikoi.net.session.clock import DEFAULT_CLOCK, DEFAULT_SILENCE_TIMEOUT, ClockSetting
from koikoi.net.session.core import Session
from koikoi.net.session.endings import Stage
from koikoi.net.session.events import SessionEvent
from koikoi.net.session.messages import BYE
from koikoi.net.wire import Bytes, Fields, Int, OneOf, Record, decode_message, encode_message

RESUME_WINDOW: Final = 180.0
"""Seconds a suspended session waits for a new connection before it ends as ``dropped``."""

REFUSALS: Final = {
    "session": "there is no such session to resume here",
    "key": "the session was played with another identity",
    "future": "the peer claims log entries this side has not signed and cannot hold",
    "dealt": "the peer claims dealing messages this side has not sent",
    "chain": "the peer's head hash is not on this side's log",
    "over": "the session is over",
}
"""The codes of ``noresume`` and what they mean."""

RESUME: Final = Record(
    {
        "session": Bytes(HASH_LEN, HASH_LEN),
        "seq": Int(0, MAX_SEQ),
        "head": Bytes(HASH_LEN, HASH_LEN),
    }
)
RESUME_V3: Final = Record({**RESUME.fields, "dealt": Int(0, MAX_SEQ)})
"""Version 3's ``resume``: also how many dealing messages the sender took (0 with the
joint seed)."""
NORESUME: Final = Record({"reason": OneOf(tuple(REFUSALS))})


class ResumeRefused(HandshakeError):
    """A resume claim does not fit this side's log; ``code`` is one of :data:`REFUSALS`.

    ``farewell`` (set by the connection) is the encrypted ``noresume`` to send.
    """

    def __init__(self, code: str, by_peer: bool = False) -> None:
        meaning = REFUSALS[code]
        text = f"the peer cannot resume: {meaning}" if by_peer else f"cannot resume: {meaning}"
        super().__init__(text)
        self.code = code
        self.by_peer = by_peer


@dataclass(frozen=True)
class Suspended:
    """The connection dropped mid-match: the session waits for a new one until ``deadline``
    (a loop time); ``reason`` says what happened to the old one (``silent``: the peer sent
    nothing for the silence timeout; ``detail``: the error the connection ended with)."""

    deadline: float
    reason: str
    silent: bool = False
    detail: str = ""


def expire(session: Session, suspended: Suspended, now: float) -> list[SessionEvent]:
    """The window passed without a resume: the session ends as it would have without one,
    ``silent`` or ``dropped`` (nothing changes for a session that finished meanwhile)."""
    if suspended.silent:
        return session.tick(max(now, session.heard_at + session.silence_timeout))
    detail = suspended.detail + "; " if suspended.detail else ""
    return session.connection_lost(now, f"{detail}not resumed in time")


@dataclass(frozen=True)
class Resumed:
    """A new connection carries the session on; ``resent`` messages went to the peer again
    (its missing entries, and with private dealing its missing dealing messages)."""

    resent: int


def suspendable(session: Session | None) -> bool:
    """A session that a dropped connection suspends rather than ends: its match is in play
    (a finished one, privately dealt or not, is over at its last move: a drop then suspends
    it only while the peer may lack entries, :attr:`Connection.awaiting_goodbye`)."""
    return (
        session is not None
        and session.stage is Stage.PLAYING
        and session.lockstep is not None
        and not session.lockstep.match.finished
    )


def restorable(session: Session | None) -> bool:
    """A session whose record lets a side that crashed take the match back
    (:func:`restore_session`): every suspendable one. A privately dealt one's record file
    has this side's seeds and its journal beside it (its sidecar, read back as its ``local``
    key: :mod:`koikoi.net.recordfile`, "A side that crashed" in docs/protocol.md)."""
    return suspendable(session)


def finished(session: Session | None) -> bool:
    """The match is over here (its last move is in the log). Until the peer shows it holds
    every entry too (its ``bye`` ``finished``, or a ``resume`` claiming them all), a
    finished session can still be resumed: the peer may lack the last entries."""
    return (
        session is not None
        and session.lockstep is not None
        and session.ending is not None
        and session.ending.finished
    )


def log_entries(lockstep: Lockstep) -> list[tuple[int, bytes, bytes]]:
    """Every accepted entry in order: (mover's seat, entry bytes, signature)."""
    out = []
    for deal in lockstep.record.deals:
        for action in deal.actions:
            out.append(
                (
                    int(action["seat"]),
                    base64.b64decode(action["entry"]),
                    base64.b64decode(action["sig"]),
                )
            )
    return out


def head_at(lockstep: Lockstep, entries: list[tuple[int, bytes, bytes]], seq: int) -> bytes:
    """The ``prev_hash`` the entry ``seq`` chains to: the genesis hash, or the hash of
    entry ``seq - 1``."""
    if seq == 0:
        return genesis_hash(lockstep.session, lockstep.seed)
    return entry_hash(entries[seq - 1][1])


def versioned(session: Session) -> bool:
    """Whether the session speaks the private-dealing version (not 2), whose ``resume``
    says ``dealt``."""
    return session.protocol != protocol_name(2)


def resume_message(session: Session) -> bytes:
    """This side's claim: ``resume`` with the session id, its entry count and its head (and
    in version 4 how many dealing messages it took)."""
    lockstep = session.lockstep
    assert lockstep is not None, "only a session in play is resumed"
    if versioned(session):
        return encode_message(
            "resume",
            session=session.session_id,
            seq=lockstep.seq,
            head=lockstep.prev_hash,
            dealt=session.dealing_received,
        )
    return encode_message(
        "resume", session=session.session_id, seq=lockstep.seq, head=lockstep.prev_hash
    )


def resume_schema(session: Session) -> Record:
    """The ``resume`` a peer of this session sends: with ``dealt`` in version 4 only."""
    return RESUME_V3 if versioned(session) else RESUME


def fields_of(message: bytes) -> Fields:
    """The checked fields of a ``resume`` message (tests and the doctest)."""
    schema = RESUME_V3 if b"dealt" in message else RESUME
    return decode_message(message, {"resume": schema}).fields


def _seat_to_move(session: Session) -> int | None:
    """The seat whose entry comes next: the seat to move, or between two privately dealt
    deals the next deal's oya (the peer may have laid it out and moved already)."""
    lockstep = session.lockstep
    assert lockstep is not None
    seat = lockstep.match.current_seat()
    if seat is None and session.dealing == "private" and lockstep.match.needs_deal:
        return lockstep.match.oya
    return seat


def check_claim(session: Session, peer_key: bytes, claim: Fields) -> list[bytes]:
    """Check the peer's ``resume`` against this side's log; return the ``move`` messages to
    resend (the entries the peer does not hold). Raises :class:`ResumeRefused`.

    In order: the session is still in play (``over``); the session id is this one
    (``session``); the new handshake proved the identity the session was played with
    (``key``); a claim of more entries than this side holds is only possible for entries the
    peer signed itself, so the seat to move at this side's head must be the peer's
    (``future``); a claim of at most as many must chain to this side's log (``chain``).
    """
    lockstep = session.lockstep
    if not (suspendable(session) or finished(session)) or lockstep is None:
        raise ResumeRefused("over")
    if claim.get("session", bytes) != session.session_id:
        raise ResumeRefused("session")
    if peer_key != session.peer.public_key:
        raise ResumeRefused("key")
    seq = claim.get("seq", int)
    head = claim.get("head", bytes)
    dealt = claim.maybe("dealt", int) or 0
    if dealt > session.dealing_sent:
        raise ResumeRefused("dealt")
    dealing = session.dealing_to_resend(dealt)
    if seq > lockstep.seq:
        if session.closed or _seat_to_move(session) != session.role.peer.seat:
            raise ResumeRefused("future")
        return [message for _, message in dealing]
    entries = log_entries(lockstep)
    if head != head_at(lockstep, entries, seq):
        raise ResumeRefused("chain")
    # one order, as they first went: a dealing message sent while this side held n entries
    # goes before its entry n (docs/protocol.md, "Sending again")
    moves = [
        (n, 1, encode_message("move", entry=raw, sig=sig))
        for n, (_, raw, sig) in enumerate(entries[seq:], start=seq)
    ]
    ordered = sorted([(n, 0, message) for n, message in dealing] + moves, key=lambda m: m[:2])
    return [message for _, _, message in ordered]


def read_reply(plaintext: bytes, expected: str, schema: Record = RESUME) -> Fields:
    """The peer's first message on a resumed connection: its ``resume`` (returned, checked
    against ``schema``, :func:`resume_schema`), or a ``noresume`` or ``bye`` (raised as
    :class:`ResumeRefused` / :class:`ProtocolError`)."""
    message = decode_message(plaintext, {expected: schema, "noresume": NORESUME, "bye": BYE})
    if message.kind == "noresume":
        raise ResumeRefused(message.fields.get("reason", str), by_peer=True)
    if message.kind == "bye":
        detail = message.fields.maybe("detail", str)
        raise ProtocolError(
            "the peer ended the session instead of resuming it" + (f" ({detail})" if detail else "")
        )
    return message.fields


__all__ = [
    "NORESUME",
    "REFUSALS",
    "RESUME",
    "RESUME_V3",
    "RESUME_WINDOW",
    "NotResumable",
    "ResumeRefused",
    "Resumed",
    "Suspended",
    "check_claim",
    "expire",
    "fields_of",
    "log_entries",
    "finished",
    "read_reply",
    "restorable",
    "restore_session",
    "resume_message",
    "resume_schema",
    "suspendable",
    "unfinished_record",
]


# --- a side that crashed: the session again from its record ------------------------------


class NotResumable(ValueError):
    """The record is not an unfinished match of this identity in this role (one line)."""


def unfinished_record(data: Mapping[str, Any]) -> bool:
    """A signed network record of a match in play: its toss done, no ``end`` (a side that
    crashed or was killed wrote the record after its last entry, never its end)."""
    net = data.get("net")
    return isinstance(net, dict) and "seed" in net and "toss" in net and "end" not in data


def _handshake_signatures(net: Mapping[str, Any]) -> tuple[bytes, bytes]:
    """The host's and the joiner's session signatures of a record's ``net.handshake`` (the
    record verified, so both are there and sound)."""
    signatures = {block["role"]: base64.b64decode(block["sig"]) for block in net["handshake"]}
    return signatures[Role.HOST.value], signatures[Role.JOINER.value]


def _extends(replayed: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> bool:
    """Whether the replayed record's entries begin with the record file's, each as the file
    has it (with its acknowledgement, if it has one). A record file is written when its
    signed record grew, after the journal: the journal may have gone a step further."""
    again = [action for deal in replayed for action in deal["actions"]]
    kept = [action for deal in recorded for action in deal["actions"]]
    return len(kept) <= len(again) and all(
        all(new.get(key) == value for key, value in old.items())
        for old, new in zip(kept, again, strict=False)
    )


def _replayed(
    session: Session, data: Mapping[str, Any], local: Mapping[str, Any], now: float
) -> Session:
    """A privately dealt session replayed from its record's ``local`` key, which must give
    back the record's entries exactly (docs/protocol.md, "A side that crashed")."""
    try:
        session.replay(local, now)
    except (ValueError, ProtocolError) as error:
        raise NotResumable(f"its local journal does not replay: {error}") from None
    lockstep = session.lockstep
    if lockstep is None or not _extends(session.record().to_json()["deals"], data["deals"]):
        raise NotResumable("its local journal does not replay to its entries")
    if lockstep.match.finished and not suspendable(session):
        raise NotResumable("its match is over: nothing to resume")
    return session


def restore_session(
    data: Mapping[str, Any],
    identity: Identity,
    nickname: str,
    role: Role,
    settings: Settings,
    *,
    now: float,
    silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
) -> Session:
    """The session of an unfinished record, as it stood after its last entry, ready to be
    resumed (:attr:`Connection.resuming`, or a room's
    :meth:`~koikoi.net.transport.room.Room.adopt`).

    The record must verify (every entry, signature and state hash, :mod:`koikoi.net.verify`),
    name this identity in ``role`` and hold ``settings``; raises :class:`NotResumable`
    saying why not. Its transport keys are placeholders until a new handshake gives real ones.
    """
    from koikoi.net.verify import NotARecord, VerificationFailed, verify_record

    if not unfinished_record(data):
        raise NotResumable("it holds no match in play (its coin toss not done, or its end written)")
    try:
        verify_record(data)
    except (NotARecord, VerificationFailed) as error:
        raise NotResumable(f"it does not verify: {error}") from None
    net = data["net"]
    versions = {protocol_name(version): version for version in VERSIONS}
    version = versions.get(str(net.get("protocol")))
    if version is None:
        raise NotResumable(f"it is a record of {net.get('protocol')}, not of {PROTOCOL_NAME}")
    dealing = net.get("dealing", "seed")
    if dealing not in ("seed", "private"):
        raise NotResumable(f"it was dealt by {dealing!r}, a dealing this side does not know")
    local = data.get("local")
    if dealing == "private" and not isinstance(local, dict):
        # its deal in play needs this side's secret seed and what it took of the dealing,
        # which only the record file of the side itself keeps (docs/protocol.md)
        raise NotResumable("it was dealt privately and keeps no local seeds and journal to replay")
    if isinstance(local, dict) and dealing == "private":
        # a sidecar (koikoi.net.recordfile) names its match and side: one of another is no use
        if local.get("session", net["session"]) != net["session"]:
            raise NotResumable("its local file is of another match")
        if local.get("role", role.value) != role.value:
            raise NotResumable(f"its local file is of the {role.peer.value}'s side, not this one")
    players = {p["role"]: p for p in net["players"]}
    mine, theirs = players.get(role.value), players.get(role.peer.value)
    if mine is None or theirs is None or base64.b64decode(mine["key"]) != identity.public_key:
        raise NotResumable(f"this identity is not its {role.value}")
    record_settings = data.get("settings", {})
    if (record_settings.get("rounds"), record_settings.get("doubling")) != (
        settings.rounds,
        settings.doubling,
    ):
        raise NotResumable("its match settings differ from these")
    session_id = base64.b64decode(net["session"])
    toss = net["toss"]
    host_random = base64.b64decode(toss["host_random"])
    joiner_random = base64.b64decode(toss["joiner_random"])
    result = TossResult(
        first_oya=int(data["first_oya"]),
        seed=base64.b64decode(net["seed"]),
        commitment=base64.b64decode(toss["commit"]),
        host_random=host_random,
        joiner_random=joiner_random,
        cards=sas_cards(session_id, host_random, joiner_random),
        # version 4's toss after the cards (verify_record checked them); empty in version 2
        toss_commitment=base64.b64decode(toss.get("toss_commit", "")),
        host_toss=base64.b64decode(toss.get("host_toss", "")),
        joiner_toss=base64.b64decode(toss.get("joiner_toss", "")),
    )
    peer = Peer(str(theirs["nick"]), base64.b64decode(theirs["key"]))
    clock = _clock_of(net)
    established = Established(
        role=role,
        send=CipherState(),
        recv=CipherState(),
        handshake_hash=session_id,
        settings=settings,
        private=False,
        peer=peer,
        dealing=dealing,
        pin=PinCheck(PinStatus.KNOWN, peer.nickname, peer.public_key, ()),
        peer_settings_signature=b"",
        peer_signed_hash=b"",
        session_signatures=_handshake_signatures(net),
        version=version,
        clock=clock,
    )
    session = Session(established, identity, nickname, now=now, silence_timeout=silence_timeout)
    session.toss.result = result
    session.toss.cards = result.cards
    session.toss.phase = TossPhase.DONE
    if isinstance(local, dict) and dealing == "private":
        return _replayed(session, data, local, now)
    lockstep = Lockstep(settings, result.first_oya, result.seed, session_id)
    for deal in data["deals"]:
        for action in deal["actions"]:
            raw = base64.b64decode(action["entry"])
            entry = decode_entry(raw)
            seat = int(action["seat"])
            _, deals_before = lockstep.apply(seat, entry.action)
            lockstep.commit(entry, base64.b64decode(action["sig"]), seat, deals_before)
            if "ack" in action:
                ack = base64.b64decode(action["ack"])
                lockstep.record_ack(entry.seq, ack, base64.b64decode(action["ack_sig"]))
    session.restored(lockstep)
    if lockstep.match.finished:
        raise NotResumable("its match is over: nothing to resume")
    return session


def _clock_of(net: Mapping[str, Any]) -> ClockSetting:
    """The move clock a record's handshake agreed (a record without one: the default)."""
    raw = net.get("clock")
    if raw is None:
        return DEFAULT_CLOCK
    try:
        return ClockSetting(int(raw["seconds"]), int(raw["reserve"]))
    except (TypeError, KeyError, ValueError) as error:
        raise NotResumable(f"its clock is not one this side knows ({error})") from None
