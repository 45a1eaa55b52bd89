"""How a session stands and how it ended: its stages, the :class:`Ending` kept in the record
(with the deals' :class:`Audit`), the ``bye`` codes and what they mean, and the words of
both (docs/protocol.md, "End of the match, leaving, silence").

``how`` and the audit's ``result`` are :class:`enum.StrEnum` members: they compare equal
to, and serialize (JSON, msgpack, f-strings) as, the very strings the record, CLI.md's JSON
and ``koikoi verify`` hold.

>>> ending = Ending(False, How.LEFT, None, "the player left", "play", 3, "t")
>>> ending.how == "left", f"{How.SILENT}", ending.to_json()["how"].__class__.__name__
(True, 'silent', 'str')
>>> Audit(AuditResult.DONE).to_json()
{'result': 'done'}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum, StrEnum
from typing import Any, Final

from koikoi.net.dealing import DealingCheat
from koikoi.net.roles import Role

MAX_DETAIL: Final = 200

CARDS_DIFFER: Final = "the four cards differ on the two screens"
"""The ``bye`` detail of a player who saw other cards than the peer (with reason ``cheat``)."""
CARDS_DIFFER_PEER: Final = (
    "the other player saw different cards: someone may be between you; the match did not start"
)

BYE_REASONS: Final = {
    "finished": "the match is over",
    "quit": "the player left",
    "cheat": "it caught a cheat or a disagreement",
    "protocol": "it received a malformed or unexpected message",
    "timeout": "it heard nothing from this side for too long",
    "error": "it failed",
    "abandoned": "it waited too long for a move from this side",
}
"""Codes of the ``bye`` message and what they mean to the side that receives them."""


class Stage(Enum):
    TOSS = "toss"
    """The coin toss and the four cards, until both players confirmed them and the outcome
    is drawn (version 4: the cards first, then the ``toss`` exchange; version 2: the toss
    then the cards)."""
    PLAYING = "play"
    CLOSED = "closed"


class How(StrEnum):
    """How a session ended (the record's ``end.how``; see :class:`Ending`)."""

    FINISHED = "finished"
    LEFT = "left"
    SILENT = "silent"
    DROPPED = "dropped"
    CHEAT = "cheat"
    PROTOCOL = "protocol"
    STOPPED = "stopped"
    ERROR = "error"
    CARDS = "cards"
    ABANDONED = "abandoned"
    """The waiting side ended the match: ``by`` sent no move (or owed dealing message) for
    the abandon time, or withheld its seed of a deal over."""


class AuditResult(StrEnum):
    """How the deals' audits went (the record's ``end.audit.result``; see :class:`Audit`)."""

    DONE = "done"
    REFUSED = "refused"
    CHEAT = "cheat"
    UNFINISHED = "unfinished"


AUDITS: Final = tuple(AuditResult)
"""How the deals' audits went (the record's ``end.audit``, CLI.md's ``audit``)."""


@dataclass(frozen=True)
class Audit:
    """How the audits of a privately dealt match's deals went (docs/protocol.md, "The
    audit"): ``done`` (every deal that reached its end was audited, and checked);
    ``refused`` (``by`` did not reveal its seed of ``deal``: it withheld it past the wait,
    left, said goodbye or dropped the connection without it); ``cheat`` (``by`` revealed a
    seed that is not its committed one, or the audit of ``deal`` names it); ``unfinished``
    (this side stopped waiting for the peer's seed itself). ``deal`` counts the record's
    deals from 0, as the moves' places do."""

    result: AuditResult
    by: Role | None = None
    deal: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": str(self.result)}
        if self.by is not None:
            out["by"] = self.by.seat
            out["role"] = self.by.value
        if self.deal is not None:
            out["deal"] = self.deal
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class Ending:
    """How a session ended; its :meth:`to_json` is the record's ``end`` key.

    ``how``: ``finished``; ``left`` (``by`` announced leaving); ``silent`` (``by`` sent nothing
    for the silence timeout); ``dropped`` (the connection broke without a goodbye); ``cheat``
    (``by`` sent a move, an entry or a coin-toss reveal that does not check); ``protocol``
    (``by`` sent a malformed or unexpected message); ``stopped`` (``by`` ended the session,
    saying this side was at fault); ``error`` (``by``'s own program failed); ``cards`` (a
    player, ``by`` when it was the peer, saw other four cards: the match never started);
    ``abandoned`` (``by`` sent no move for the abandon time, or withheld a seed).
    ``suspicious``: the toss was abandoned after seeing the result, whatever the ending
    looked like (docs/protocol.md, "Toss aborts"). Version 4: by the host once it had the
    joiner's ``toss``, or by either side once the outcome is drawn and before the match's
    first move; the four cards compared before the outcome count against nobody. Version 2:
    by the host once it had the answer, or by either side once the reveal was sent (the four
    cards being compared). Or a deal was abandoned after its cards were seen, before its
    first move (``stage`` ``play``, "Deal aborts" there).
    ``audit`` (privately dealt, once a deal was dealt): how the deals' audits went; it is
    apart from the result (a finished match is the signed moves', whatever its last audit).
    """

    finished: bool
    how: How
    by: Role | None
    reason: str
    stage: str
    moves: int
    time: str
    suspicious: bool = False
    rejected: dict[str, str] | None = None
    audit: Audit | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"finished": self.finished, "how": str(self.how)}
        if self.by is not None:
            out["by"] = self.by.seat
            out["role"] = self.by.value
        out.update(reason=self.reason, stage=self.stage, moves=self.moves, time=self.time)
        if self.suspicious:
            out["suspicious"] = True
        if self.rejected is not None:
            out["rejected"] = self.rejected
        if self.audit is not None:
            out["audit"] = self.audit.to_json()
        return out


def now_text() -> str:
    """The wall-clock time of an ending, as the record's ``end.time`` holds it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def duration(seconds: float) -> str:
    """``3 min``, ``2 min 5 s`` or ``42 s``.

    >>> duration(180.2), duration(125), duration(4.5)
    ('3 min', '2 min 5 s', '4 s')
    """
    whole = int(seconds)
    minutes, secs = divmod(whole, 60)
    if not minutes:
        return f"{secs} s"
    return f"{minutes} min" + (f" {secs} s" if secs else "")


def cheat_text(error: DealingCheat) -> str:
    """A dealing cheat in words for the ``audit``: "the joiner sent …" (no "cheat: ")."""
    return str(error).removeprefix("cheat: ")


def clean(text: str) -> str:
    """A reason fit for the ``detail`` field: one line, no control characters, capped."""
    kept = "".join(ch if ch.isprintable() else "?" for ch in text)
    return kept[:MAX_DETAIL]
