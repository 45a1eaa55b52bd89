"""Resuming a session over a new connection after the old one dropped (XEP-0198 style), sans-I/O.

A connection that drops (or falls silent) after the coin toss, while the match is in play,
*suspends* the session instead of ending it: the match, its log and its keys stay, and for
:data:`RESUME_WINDOW` seconds the joiner dials again. The new connection runs a fresh
handshake (new Noise keys) between the same two identities; then each side sends ``resume``
with the session id, how many log entries it holds and the hash its next entry must chain
to. Each side checks the other's claim against its own log and resends the entries the
other does not hold, as ordinary ``move`` messages that go through every usual check. A
claim that does not fit is refused with ``noresume`` and a code (:data:`REFUSALS`), and the
suspended session waits on for a better connection. docs/protocol.md, "Resume", is the
normative text; :class:`~koikoi.net.connection.Connection` calls this module at three places:
the drop, the end of the new handshake, and the peer's ``resume``.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Final

from koikoi.net.errors import HandshakeError, ProtocolError
from koikoi.net.lockstep import HASH_LEN, MAX_SEQ, Lockstep, entry_hash, genesis_hash
from koikoi.net.session import BYE, Session, SessionEvent, Stage
from koikoi.net.wire import Bytes, Fields, Int, OneOf, Record, decode_message, encode_message

RESUME_WINDOW: Final = 180.0
"""Seconds a suspended session waits for a new connection before it ends as ``dropped``."""

REFUSALS: Final = {
    "session": "there is no such session to resume here",
    "key": "the session was played with another identity",
    "future": "the peer claims log entries this side has not signed and cannot hold",
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
    """A new connection carries the session on; ``resent`` entries went to the peer."""

    resent: int


def suspendable(session: Session | None) -> bool:
    """A session that a dropped connection suspends rather than ends: its match is in play."""
    return (
        session is not None
        and session.stage is Stage.PLAYING
        and session.lockstep is not None
        and not session.lockstep.match.finished
    )


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


def resume_message(session: Session) -> bytes:
    """This side's claim: ``resume`` with the session id, its entry count and its head."""
    lockstep = session.lockstep
    assert lockstep is not None, "only a session in play is resumed"
    return encode_message(
        "resume", session=session.session_id, seq=lockstep.seq, head=lockstep.prev_hash
    )


def fields_of(message: bytes) -> Fields:
    """The checked fields of a ``resume`` message (tests and the doctest)."""
    return decode_message(message, {"resume": RESUME}).fields


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
    if seq > lockstep.seq:
        if session.closed or lockstep.match.current_seat() != session.role.peer.seat:
            raise ResumeRefused("future")
        return []
    entries = log_entries(lockstep)
    if head != head_at(lockstep, entries, seq):
        raise ResumeRefused("chain")
    return [encode_message("move", entry=raw, sig=sig) for _, raw, sig in entries[seq:]]


def read_reply(plaintext: bytes, expected: str) -> Fields:
    """The peer's first message on a resumed connection: its ``resume`` (returned), or a
    ``noresume`` or ``bye`` (raised as :class:`ResumeRefused` / :class:`ProtocolError`)."""
    message = decode_message(plaintext, {expected: RESUME, "noresume": NORESUME, "bye": BYE})
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
    "RESUME_WINDOW",
    "ResumeRefused",
    "Resumed",
    "Suspended",
    "check_claim",
    "expire",
    "fields_of",
    "log_entries",
    "finished",
    "read_reply",
    "resume_message",
    "suspendable",
]
