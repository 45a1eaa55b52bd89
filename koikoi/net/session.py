"""The session after the handshake, as a sans-I/O state machine: coin toss, lockstep, goodbye.

Feed it every frame payload from the peer (:meth:`Session.receive`), the local seat's moves
(:meth:`Session.play`) and the passing of time (:meth:`Session.tick`, by
:meth:`Session.next_timer`); send what :meth:`Session.outgoing` returns, in order, and close
the connection once :attr:`Session.closed`. Times are plain seconds from any monotonic
clock, passed in, so tests step them by hand; nothing here blocks or touches a socket.

Stages: the coin toss (:mod:`koikoi.net.fair`) and the four cards, which both players
confirm (``confirm``; in version 4 before the toss's outcome is drawn by the ``toss``
messages, in version 2 after it), then play in lockstep
(:mod:`koikoi.net.lockstep`): the seat to move signs a log entry and sends it; the other
checks the entry's place in the chain, its signature, the move with its own engine and the
state hash. Anything wrong freezes the match with a reason naming the move. Every ending —
the match finished, a peer left, went silent, dropped the connection, cheated or sent
garbage — is an :class:`Ending` kept in the record; an unfinished match is never scored.

>>> from koikoi.engine.match import Settings
>>> from koikoi.net.handshake import Handshake
>>> from koikoi.net.identity import Identity, KnownPeers
>>> ids = {Role.HOST: Identity.generate(), Role.JOINER: Identity.generate()}
>>> shakes = {role: Handshake(role, identity=ids[role], nickname=role.value,
...                           settings=Settings(), password="", known_peers=KnownPeers(None))
...           for role in Role}
>>> to_host = shakes[Role.JOINER].start()
>>> while to_host:
...     to_joiner = [out for m in to_host for out in shakes[Role.HOST].receive(m)]
...     to_host = [out for m in to_joiner for out in shakes[Role.JOINER].receive(m)]
>>> host, joiner = (Session(shakes[r].result, ids[r], r.value, now=0.0) for r in Role)
>>> host.start()
>>> pending = {host: joiner, joiner: host}
>>> while not (host.closed and joiner.closed):
...     for me, peer in pending.items():
...         for payload in me.outgoing():
...             _ = peer.receive(payload, now=0.0)
...         if me.local_turn is not None:
...             _ = me.play(me.local_turn.legal_actions[0], now=0.0)
>>> host.ending.finished, host.result_json() == joiner.result_json()
(True, True)
"""

from __future__ import annotations

import base64
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Final

from koikoi.engine.events import Event
from koikoi.engine.match import Observation
from koikoi.engine.record import GameRecord, replay_record
from koikoi.engine.round import PICK_BASE, Action, IllegalAction
from koikoi.engine.yaku import teyaku_of
from koikoi.net.dealing import (
    DEAL,
    DRAW,
    LOCK,
    PLAY,
    SEED,
    SEED_LEN,
    SHUFFLE,
    Dealer,
    DealingCheat,
    hand_positions,
    sealed_hash,
)
from koikoi.net.dealing import Phase as DealPhase
from koikoi.net.errors import CheatDetected, DecryptError, ProtocolError
from koikoi.net.fair import CoinToss, TossPhase, TossResult
from koikoi.net.handshake import PRIVATE_VERSION, Established, protocol_name, session_statement
from koikoi.net.identity import Identity, verify_signature
from koikoi.net.lockstep import (
    MAX_ACK,
    MAX_ENTRY,
    Lockstep,
    LogEntry,
    b64,
    decode_entry,
    signed_data,
)
from koikoi.net.private import PrivateLockstep, seat_view
from koikoi.net.roles import Role
from koikoi.net.wire import (
    Bool,
    Bytes,
    Message,
    OneOf,
    Record,
    Str,
    decode_message,
    encode_message,
)

logger = logging.getLogger(__name__)

DEFAULT_SILENCE_TIMEOUT: Final = 15.0
"""Seconds without a byte from the peer before it counts as disconnected."""
DEFAULT_MOVE_CLOCK: Final = 60.0
"""Seconds a player has for each move before its own client plays a safe one for it."""
DEFAULT_ABANDON_AFTER: Final = 180.0
"""Seconds without a move from a connected peer before the waiting side may end the match
as abandoned by that peer (heartbeats do not count)."""
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

MOVE = Record({"entry": Bytes(1, MAX_ENTRY), "sig": Bytes(64, 64)})
ACK = Record({"ack": Bytes(1, MAX_ACK), "sig": Bytes(64, 64)})
"""The receiver's signed acknowledgement of a move it accepted (docs/protocol.md)."""
LAST_ACK_GRACE: Final = 2.0
"""Seconds the mover of the match's last move keeps reading for the peer's acknowledgement
of it (for the record only: the result is already final)."""
PING = Record({})
CONFIRM = Record({})
"""The local player sees the same four cards as the peer (once a side; in version 4 before
the toss's outcome is drawn, in version 2 after it)."""
HAND = Record({"teyaku": Bool(), "dealing": Bytes(32, 32)})
"""Private dealing: once a side's hand is open, whether it holds a teyaku (R8), declared by
the ``play`` keys of the whole hand sent just before, and the sealed hash of the deal as the
side sent and received its decks (docs/protocol.md)."""
DEALING: Final = {
    "shuffle": SHUFFLE,
    "lock": LOCK,
    "deal": DEAL,
    "draw": DRAW,
    "play": PLAY,
    "seed": SEED,
    "hand": HAND,
}
"""The messages of private dealing a session in play takes (koikoi.net.dealing's, and
``hand``)."""
BYE = Record(
    {"reason": OneOf(tuple(BYE_REASONS)), "detail": Str(MAX_DETAIL)}, optional=frozenset({"detail"})
)


class Stage(Enum):
    TOSS = "toss"
    """The coin toss and the four cards, until both players confirmed them and the outcome
    is drawn (version 4: the cards first, then the ``toss`` exchange; version 2: the toss
    then the cards)."""
    PLAYING = "play"
    CLOSED = "closed"


AUDITS: Final = ("done", "refused", "cheat", "unfinished")
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

    result: str
    by: Role | None = None
    deal: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": self.result}
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
    player, ``by`` when it was the peer, saw other four cards: the match never started).
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
    how: str
    by: Role | None
    reason: str
    stage: str
    moves: int
    time: str
    suspicious: bool = False
    rejected: dict[str, str] | None = None
    audit: Audit | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"finished": self.finished, "how": self.how}
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


@dataclass(frozen=True)
class CardsShown:
    """The four cards are drawn: show them and ask the player (:meth:`Session.confirm`).

    ``result``: version 2 only, the toss decided with the cards; None in version 4, whose
    outcome is drawn once both players confirmed (it comes with :class:`TossDone`). The first
    deal waits until both players confirmed."""

    cards: tuple[str, str, str, str]
    result: TossResult | None = None


@dataclass(frozen=True)
class TossDone:
    """Both players confirmed the four cards after the toss; the first deal is laid out
    (``events``; dealt privately, its ``Dealt`` is this side's view, as in
    :class:`DealLaidOut`)."""

    result: TossResult
    events: tuple[Event, ...]


@dataclass(frozen=True)
class MovePlayed:
    """A move (local or the peer's, checked) went into the log; ``events`` is what happened."""

    seq: int
    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True)
class DealLaidOut:
    """Private dealing: the next deal is dealt and laid out (``events``, its ``Dealt``
    first, a :class:`~koikoi.net.private.SealedDealt`: this side's hand and the field, the
    other hand and the stock as counts); with the joint seed a deal comes in the events of
    the move before it."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class Ended:
    ending: Ending


@dataclass(frozen=True)
class OutOfTime:
    """The local seat's move clock ran out (once per turn): its client now plays
    :meth:`Session.automatic_action` for it, and says so."""

    seat: int
    seq: int


@dataclass(frozen=True)
class PeerOverdue:
    """The peer, connected, sent no move for ``seconds`` (once per turn): the waiting side
    may end the match with :meth:`Session.abandon`."""

    seat: int
    seq: int
    seconds: float


@dataclass(frozen=True)
class MoveClock:
    """Whose move clock runs and how it stands (:meth:`Session.clock`)."""

    seat: int
    local: bool
    """The local seat's clock (else the peer's)."""
    left: float
    """Seconds left of the move clock (0 once it ran out)."""
    waited: float
    """Seconds since the turn began (the move that gave it, or the first deal)."""
    overdue: bool
    """The peer's turn has lasted the abandon time: the match may be ended as abandoned."""


SessionEvent = CardsShown | TossDone | MovePlayed | DealLaidOut | Ended | OutOfTime | PeerOverdue


def _now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _duration(seconds: float) -> str:
    """``3 min``, ``2 min 5 s`` or ``42 s``.

    >>> _duration(180.2), _duration(125), _duration(4.5)
    ('3 min', '2 min 5 s', '4 s')
    """
    whole = int(seconds)
    minutes, secs = divmod(whole, 60)
    if not minutes:
        return f"{secs} s"
    return f"{minutes} min" + (f" {secs} s" if secs else "")


def _cheat_text(error: DealingCheat) -> str:
    """A dealing cheat in words for the ``audit``: "the joiner sent …" (no "cheat: ")."""
    return str(error).removeprefix("cheat: ")


def _clean(text: str) -> str:
    """A reason fit for the ``detail`` field: one line, no control characters, capped."""
    kept = "".join(ch if ch.isprintable() else "?" for ch in text)
    return kept[:MAX_DETAIL]


@dataclass
class _Clock:
    now: float
    last_rx: float
    last_tx: float


@dataclass
class _Turn:
    """The move clock: both sides start it from the same event, the move that gave the turn
    (or the first deal), and stop it at the next move into the log."""

    seq: int = -1
    started: float = 0.0
    told: bool = False
    """:class:`OutOfTime` or :class:`PeerOverdue` went out for this turn."""


@dataclass
class _Acks:
    """The signed record's acknowledgements: the session signatures from the handshake, this
    side's entries the peer has not acknowledged yet (oldest first), and, once the match is
    over, until when the acknowledgement of its last move is still read."""

    handshake: tuple[bytes, bytes]
    unacked: list[int] = field(default_factory=list)
    last_until: float | None = None
    seed_until: float | None = None
    """Privately dealt, once the match is over: until when the peer's seed of the last deal
    is still read (its audit; nothing it brings changes the result)."""
    bye: bool = False
    """The peer's ``bye`` came while the last move's acknowledgement was read."""
    told: bool = False
    """:class:`Ended` went out for the finished match (it goes out once)."""
    replayed: bool = False
    """Right after a resume, until the peer's first message that is not one: the peer
    resends acknowledgements, and an exact copy of one already recorded is let through."""


@dataclass
class _Private:
    """Where the private dealing of the current deal stands (docs/protocol.md, "The
    lockstep with hidden cards")."""

    dealer: Dealer
    declared: bool = False
    """This side's ``hand`` went out."""
    peer_teyaku: bool | None = None
    """The peer's ``hand``: None until it came."""
    laid: bool = False
    pending: Action | None = None
    """A local move that waits for the peer's key of the card it draws."""
    peer_card: int | None = None
    """The card the peer's ``play`` opened for its next move."""
    peer_drew: bool = False
    """The card the peer's next move draws is open (both keys crossed)."""
    seed_sent: bool = False


def _b64_one(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise ValueError("its local key holds bytes that are not base64") from None


def _b64_list(value: object, size: int) -> list[bytes]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError("its local seeds are not a list of strings")
    out = [_b64_one(x) for x in value]
    if any(len(x) != size for x in out):
        raise ValueError(f"its local seeds are not {size} bytes each")
    return out


@dataclass
class _Names:
    mine: str
    peer: str
    keys: dict[Role, bytes] = field(default_factory=dict)


class Session:
    """One side of a session; ``established`` is the finished handshake.

    ``silence_timeout`` (seconds) is how long the peer may stay silent; a heartbeat goes out
    whenever this side has sent nothing for a third of it. ``toss_secret`` fixes this side's
    coin-toss contribution to the four cards (rA or rB), ``toss_second`` its toss random of
    version 4 (tA or tB; tests only).

    ``move_clock`` (seconds) is each move's clock: when the local seat's runs out,
    :meth:`tick` says :class:`OutOfTime` and the client plays :meth:`automatic_action`.
    ``abandon_after`` (seconds) is how long the peer may go without a move, heartbeats or not,
    before :meth:`tick` says :class:`PeerOverdue` and :meth:`abandon` may end the match.

    The toss runs at once; its reveal draws the four cards (:class:`CardsShown`) and each
    side sends ``confirm`` once its player sees the same four on both screens; in version 4
    the joiner then sends its ``toss`` and the host answers, which draws the outcome; the
    first deal (:class:`TossDone`) comes once both confirmed and the outcome is drawn.
    ``hold_for_confirmation`` makes this side wait for :meth:`confirm` (the desktop app);
    off, it confirms by itself as the cards are drawn (docs/protocol.md, "Waiting for the
    four cards"). :meth:`reject_cards` ends the session instead.
    """

    def __init__(
        self,
        established: Established,
        identity: Identity,
        nickname: str,
        *,
        now: float,
        silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
        toss_secret: bytes | None = None,
        toss_second: bytes | None = None,
        hold_for_confirmation: bool = False,
        move_clock: float = DEFAULT_MOVE_CLOCK,
        abandon_after: float = DEFAULT_ABANDON_AFTER,
    ) -> None:
        if silence_timeout <= 0:
            raise ValueError("silence_timeout must be positive")
        if move_clock <= 0 or abandon_after <= 0:
            raise ValueError("move_clock and abandon_after must be positive")
        self.move_clock = move_clock
        self.abandon_after = abandon_after
        self._turn = _Turn()
        if established.dealing not in ("seed", "private"):
            raise ValueError(f"unknown dealing {established.dealing!r}")
        self.dealing = established.dealing
        """How the deals are made (CLI.md's ``dealing``): ``private`` or ``seed``."""
        self._private: _Private | None = None
        self.deal_seconds: list[float] = []
        """Private dealing: for each deal, the seconds from its dealer's start to the deal
        laid out (both peers' work and the messages; ``koikoi bench --net``)."""
        self._deal_started = 0.0
        self.play_seconds: list[float] = []
        """Private dealing: for each deal, the seconds from the deal laid out to its last
        move (the moves alone: no dealing setup, no seeds, no audit; ``koikoi bench --net``)."""
        self._deal_laid = 0.0
        self.dealer_seeds: list[bytes] = []
        """Private dealing: this side's seeds for the coming deals, first used first (tests
        only; else each is random)."""
        self._dealing_sent: list[tuple[int, bytes]] = []
        """Private dealing: every dealing message this side sent in the match, in order, each
        with the number of log entries this side held as it went (its place among this
        side's entries): what a resumed connection sends again (docs/protocol.md, "Resume")."""
        self.dealing_received = 0
        """Private dealing: how many of the peer's dealing messages this side took in the
        match (the ``dealt`` of its ``resume``)."""
        self._seed_since: float | None = None
        """Private dealing: when this side revealed its seed of the deal just over (the
        peer's is due within the silence timeout; a resume restarts the wait)."""
        self._audit_fault: Audit | None = None
        """Private dealing: a deal's audit that failed or was refused (the ending's
        ``audit``; None: every audit so far is done)."""
        self._own_seeds: list[bytes] = []
        """Private dealing: this side's seed of each deal so far, in order (the last one is
        secret until its deal's end; only the local record keeps it)."""
        self._journal: list[list[str]] = []
        """Private dealing: what this side took and did since the deals began, in order:
        ``["in", message]`` for each message of the peer, ``["play", action]`` for each local
        move, ``["resumed"]`` for each new connection. With :attr:`_own_seeds` it replays the
        session to where it stood (docs/protocol.md, "A side that crashed")."""
        self.protocol = protocol_name(established.version)
        self.role = established.role
        self.seat = self.role.seat
        self.settings = established.settings
        self.session_id = established.handshake_hash
        self.peer = established.peer
        self.identity = identity
        self.silence_timeout = silence_timeout
        self.seed_wait = silence_timeout
        """Private dealing: seconds the peer's seed of a deal over may come after this side's
        (docs/protocol.md, "End of a deal"); later, it withheld it and refused the audit."""
        self.heartbeat_interval = silence_timeout / 3
        self.stage = Stage.TOSS
        self.cards_first = established.version >= PRIVATE_VERSION
        """Version 4: the four cards are compared before the toss's outcome is drawn."""
        self.toss = CoinToss(
            self.role,
            self.session_id,
            secret=toss_secret,
            toss_secret=toss_second,
            cards_first=self.cards_first,
        )
        self.lockstep: Lockstep | None = None
        self.ending: Ending | None = None
        self._tx = established.send
        self._rx = established.recv
        self._out: list[bytes] = []
        self.confirmed = not hold_for_confirmation
        """Whether the local player confirmed the four cards (always True without the hold;
        a :meth:`confirm` before the cards are drawn stands for them when they come)."""
        self.peer_confirmed = False
        """Whether the peer's ``confirm`` arrived."""
        self._confirm_sent = False
        self._clock = _Clock(now, now, now)
        self._acks = _Acks(established.session_signatures)
        self._names = _Names(
            nickname,
            established.peer.nickname,
            {self.role: identity.public_key, self.role.peer: established.peer.public_key},
        )

    # --- what the transport reads --------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Send what :meth:`outgoing` still holds, then close the connection."""
        return self.stage is Stage.CLOSED and not self._waiting

    @property
    def _waiting(self) -> bool:
        """The match is over, and the last move's acknowledgement or the peer's seed of the
        last deal is still read (for the record and the audit: the result is final)."""
        return self._acks.last_until is not None or self._acks.seed_until is not None

    @property
    def local_turn(self) -> Observation | None:
        """The local seat's observation when it is to move, else None."""
        if self.stage is not Stage.PLAYING or self.lockstep is None:
            return None
        match = self.lockstep.match
        if match.current_seat() != self.seat:
            return None
        private = self._private
        if private is not None and (not private.laid or private.pending is not None):
            return None
        return match.observation(self.seat)

    @property
    def unacknowledged(self) -> tuple[int, ...]:
        """Sequence numbers of this side's entries the peer has not acknowledged yet, oldest
        first: what a resumed connection sends again (docs/protocol.md, "Session messages")."""
        return tuple(self._acks.unacked)

    def outgoing(self) -> list[bytes]:
        """Frame payloads (Noise ciphertexts) to send, in order; each is returned once."""
        out, self._out = self._out, []
        return out

    def next_timer(self) -> float | None:
        """When :meth:`tick` next has something to do (None once closed)."""
        if self.closed:
            return None
        if self._waiting:
            return min(t for t in (self._acks.last_until, self._acks.seed_until) if t is not None)
        clock = self._clock
        due = min(clock.last_rx + self.silence_timeout, clock.last_tx + self.heartbeat_interval)
        seed_due = None if self._seed_since is None else self._seed_since + self.seed_wait
        if seed_due is not None and seed_due > clock.now and self._peer_seed_owed():
            due = min(due, seed_due)  # (once past, the silence timeout decides)
        turn = self._clock_due()
        return due if turn is None else min(due, turn)

    def clock(self, now: float) -> MoveClock | None:
        """The move clock at ``now``: whose it is and how it stands; None outside play."""
        seat = self._clock_seat()
        if seat is None:
            return None
        waited = max(0.0, now - self._turn.started)
        local = seat == self.seat
        overdue = not local and waited >= self.abandon_after
        return MoveClock(seat, local, max(0.0, self.move_clock - waited), waited, overdue)

    def automatic_action(self) -> Action:
        """A safe move for the local seat whose clock ran out: the greedy player's choice,
        and shobu whenever koikoi or shobu is asked (``ValueError`` when not its move)."""
        from random import Random

        from koikoi.ai.basic import GreedyPlayer
        from koikoi.engine.round import SHOBU

        observation = self.local_turn
        if observation is None or self.lockstep is None:
            raise ValueError("it is not this seat's move")
        legal = observation.legal_actions
        if SHOBU in legal:
            return SHOBU
        rng = Random(int.from_bytes(self.session_id[:8], "big") ^ self.lockstep.seq)
        return GreedyPlayer().choose(observation, legal, rng)

    def abandon(self, now: float) -> list[SessionEvent]:
        """End the match as abandoned by the peer, which sent no move for the abandon time.

        The peer is told (``bye`` ``abandoned``); the record keeps every move signed so far.
        Raises :class:`ValueError` when it is not the peer's turn or its time is not up.
        """
        if self.closed:
            return []
        self._clock.now = now
        state = self.clock(now)
        if state is None or state.local or not state.overdue:
            raise ValueError(
                "the peer is not overdue: it can be declared gone only after "
                f"{self.abandon_after:g} s without a move"
            )
        reason = f"the peer sent no move for {_duration(state.waited)}: it abandoned the match"
        owed = self._owed_message()
        if owed is not None:
            reason = (
                f"the peer sent no {owed} for {_duration(state.waited)}: it abandoned the match"
            )
        return self._close(
            self._ending(False, "abandoned", self.role.peer, reason), announce="abandoned"
        )

    def _clock_seat(self) -> int | None:
        if self.stage is not Stage.PLAYING or self.lockstep is None:
            return None
        if self._turn.seq != self.lockstep.seq:  # a move went into the log: a new turn
            self._turn = _Turn(self.lockstep.seq, self._clock.now)
        private = self._private
        if (
            isinstance(self.lockstep, PrivateLockstep)
            and private is not None
            and (not private.laid or private.pending is not None or self.lockstep.deal_over)
        ):  # a dealing message is owed: the clock waits for the side that owes it
            return self.role.peer.seat if self._owed_by_peer(private) else None
        if self.lockstep.match.finished:
            return None
        return self.lockstep.match.current_seat()

    def _owed_message(self) -> str | None:
        """What dealing message the peer owes, in words (None: none, or joint-seed dealing)."""
        private = self._private
        if private is None or not self._owed_by_peer(private):
            return None
        waiting = private.dealer.waiting_for
        if waiting is None and private.pending is not None:
            waiting = f"the {self.role.peer.value}'s key of the draw"
        if waiting is None:
            waiting = f"the {self.role.peer.value}'s " + ("hand" if not private.laid else "seed")
        return waiting.replace(f"the {self.role.peer.value}'s ", "", 1)

    def _owed_by_peer(self, private: _Private) -> bool:
        """Whether this side waits for a dealing message of the peer (a deck, a key, its
        ``hand`` or its seed): the withholder is the one the clock waits for."""
        if private.dealer.waiting_for is not None or private.pending is not None:
            return True
        if not private.laid:
            return private.declared and private.peer_teyaku is None
        return private.seed_sent and len(private.dealer.transcript.seeds) < 2

    def _clock_due(self) -> float | None:
        """When the move clock next has something to say (once per turn)."""
        seat = self._clock_seat()
        if seat is None or self._turn.told:
            return None
        limit = self.move_clock if seat == self.seat else self.abandon_after
        return self._turn.started + limit

    # --- inputs --------------------------------------------------------------------------

    @property
    def cards(self) -> tuple[str, str, str, str] | None:
        """The four cards to compare, once drawn (None before)."""
        return self.toss.cards

    def start(self) -> None:
        """The host commits to its coin-toss number; the joiner has nothing to send."""
        for message in self.toss.start():
            self._send(message)

    def confirm(self, now: float) -> list[SessionEvent]:
        """The local player sees the same four cards as the peer: ``confirm`` goes out, and
        the first deal comes once the peer's ``confirm`` is in too (:class:`TossDone`).

        Before the cards are drawn it stands for them (a rematch with a key already
        compared). Does nothing when already confirmed or closed.
        """
        if self.closed or self.confirmed:
            return []
        self._clock.now = now
        self.confirmed = True
        return self._confirm_and_deal()

    def reject_cards(self, now: float) -> list[SessionEvent]:
        """The local player says the four cards differ: the match never starts.

        The peer is told by a ``bye`` (``cheat``, a disagreement) whose detail says the cards
        differ; both sides end with ``how`` = ``cards``. Only before the first deal. In
        version 4 it comes before the toss's outcome is drawn and counts against nobody; in
        version 2 the toss is over, and refusing the cards counts as abandoning it after
        seeing the result.
        """
        if self.closed:
            return []
        if self.stage is not Stage.TOSS:
            raise ValueError("the four cards are compared before the first deal, not after it")
        self._clock.now = now
        return self._close(
            self._ending(False, "cards", None, CARDS_DIFFER), announce="cheat", detail=CARDS_DIFFER
        )

    def receive(self, payload: bytes, now: float) -> list[SessionEvent]:
        """One frame payload from the peer."""
        if self.closed:
            return []
        if self.stage is Stage.CLOSED:
            self._clock.now = self._clock.last_rx = now
            return self._after_the_end(payload)
        self._clock.now = self._clock.last_rx = now
        try:
            plaintext = self._rx.decrypt_with_ad(b"", payload)
        except DecryptError:
            return self._fail(
                "protocol",
                self.role.peer,
                "a message from the peer did not decrypt: it was changed, replayed, reordered "
                "or dropped on the way",
            )
        try:
            message = decode_message(plaintext, self._expected())
        except ProtocolError as error:
            return self._fail("protocol", self.role.peer, f"the peer sent {error}")
        if message.kind == "ping":
            return []
        if self.dealing == "private" and self.lockstep is not None:
            self._journal.append(["in", b64(plaintext)])
        return self._take(plaintext, message)

    def _take(self, plaintext: bytes, message: Message) -> list[SessionEvent]:
        """One decrypted message of the peer (not a ping), decoded."""
        if message.kind != "ack":
            self._acks.replayed = False
        if message.kind == "bye":
            reason = message.fields.get("reason", str)
            return self._on_bye(reason, message.fields.maybe("detail", str))
        if message.kind == "move":
            return self._on_move(
                message.fields.get("entry", bytes), message.fields.get("sig", bytes)
            )
        if message.kind == "confirm":
            self.peer_confirmed = True
            return self._confirm_and_deal()
        if message.kind == "ack":
            return self._on_ack(message.fields.get("ack", bytes), message.fields.get("sig", bytes))
        if message.kind in DEALING:
            return self._on_dealing(plaintext, message)
        return self._on_toss(plaintext)

    def play(self, action: Action, now: float) -> list[SessionEvent]:
        """The local seat's move: applied, signed, sent.

        Raises :class:`ValueError` when it is not the local seat's move and
        :class:`~koikoi.engine.round.IllegalAction` for an illegal one (a local bug: nothing
        is sent and nothing changes).
        """
        if self.local_turn is None:
            raise ValueError("it is not this seat's move")
        self._clock.now = now
        private = self._private
        if private is not None:
            lockstep = self.lockstep
            assert isinstance(lockstep, PrivateLockstep)
            lockstep.match.round.check(action, self.seat)  # type: ignore[union-attr]
            self._journal.append(["play", str(action)])
            if action < PICK_BASE:  # the card played shows: this side's key of it
                self._send_dealing(private.dealer.play(lockstep.position_of(action)))
            if lockstep.draws(action):  # the card drawn shows once both keys crossed
                self._send_dealing(private.dealer.draw())
                private.pending = action
                self._turn = _Turn(lockstep.seq, now)  # the peer's key is owed from now
                return []  # the move goes out with the peer's key (see _on_dealing)
        return self._sign_and_send(action)

    def _sign_and_send(self, action: Action) -> list[SessionEvent]:
        lockstep = self.lockstep
        assert lockstep is not None
        now = self._clock.now
        seq = lockstep.seq
        entry, signature, events = lockstep.sign_move(self.identity, self.seat, action)
        self._turn = _Turn(lockstep.seq, now)  # the peer's clock starts with this move
        self._send(encode_message("move", entry=entry.raw, sig=signature))
        self._acks.unacked.append(seq)
        out: list[SessionEvent] = [MovePlayed(seq, self.seat, action, tuple(events))]
        if self._private is not None:
            return out + self._after_private_move()
        if lockstep.match.finished:
            out += self._finish_locally()
        return out

    def tick(self, now: float) -> list[SessionEvent]:
        """Time passed: send a heartbeat when due; end the session if the peer fell silent."""
        if self.closed:
            return []
        if self._waiting:
            self._clock.now = now
            acks = self._acks
            if acks.last_until is not None and now >= acks.last_until:
                acks.last_until = None  # no acknowledgement of the last move came
            if acks.seed_until is not None and now >= acks.seed_until:
                wait = f"{self.seed_wait:g} s"
                if now - self._clock.last_rx >= self.seed_wait:  # not even a heartbeat
                    self._refuse_audit(
                        f"sent nothing for {wait}, its seed of deal {{deal}} included"
                    )
                else:
                    self._refuse_audit(f"withheld its seed of deal {{deal}} for {wait}")
            return self._maybe_done()
        clock = self._clock
        clock.now = now
        if now - clock.last_rx >= self.silence_timeout:
            seconds = f"{self.silence_timeout:g}"
            return self._close(
                self._ending(
                    False,
                    "silent",
                    self.role.peer,
                    f"the peer sent nothing for {seconds} s: it is disconnected",
                ),
                announce="timeout",
            )
        if (
            self._seed_since is not None
            and self._peer_seed_owed()
            and now - self._seed_since >= self.seed_wait
            and now - clock.last_rx <= 2 * self.heartbeat_interval
        ):  # heard from lately (its heartbeats), yet no seed: withheld, not a link gone
            return self._withheld_seed()
        if now - clock.last_tx >= self.heartbeat_interval:
            self._send(encode_message("ping"))
        due = self._clock_due()
        if due is None or now < due:
            return []
        self._turn.told = True
        state = self.clock(now)
        assert state is not None and self.lockstep is not None
        seq = self.lockstep.seq
        if state.local:
            logger.info("the local seat's move clock ran out (move %d)", seq)
            return [OutOfTime(state.seat, seq)]
        return [PeerOverdue(state.seat, seq, state.waited)]

    def leave(self, now: float, reason: str = "the player left") -> list[SessionEvent]:
        """The local player leaves: the peer is told, the match ends unfinished (after the
        last move, the wait for the peer's acknowledgement or seed ends)."""
        if self.closed:
            return []
        self._clock.now = now
        if self._waiting:
            return self._stop_waiting(why="local")
        return self._close(self._ending(False, "left", self.role, reason), announce="quit")

    def connection_lost(self, now: float, detail: str = "") -> list[SessionEvent]:
        """The connection ended (closed, reset, or unreadable frames from the peer)."""
        if self.closed:
            return []
        self._clock.now = now
        if self._waiting:
            return self._stop_waiting(
                goodbye=False, why="dropped the connection before its seed of deal {deal}"
            )
        reason = "the connection dropped" + (f": {detail}" if detail else "")
        return self._close(self._ending(False, "dropped", self.role.peer, reason))

    def protocol_failure(self, now: float, reason: str) -> list[SessionEvent]:
        """The transport caught the peer breaking the framing rules."""
        if self.closed:
            return []
        self._clock.now = now
        return self._fail("protocol", self.role.peer, f"the peer sent {reason}")

    def local_failure(self, now: float, reason: str) -> list[SessionEvent]:
        """This side cannot go on (its player failed): the peer is told, the match is off."""
        if self.closed:
            return []
        self._clock.now = now
        return self._fail("error", self.role, reason)

    # --- resume (koikoi/net/resume.py) ---------------------------------------------------

    @property
    def heard_at(self) -> float:
        """When the peer's last message (or heartbeat) arrived."""
        return self._clock.last_rx

    @property
    def peer_said_goodbye(self) -> bool:
        """The peer's ``bye`` ended the wait for the last move's acknowledgement (what
        :meth:`is_goodbye` says of a ``bye`` after it)."""
        return self._acks.bye

    def is_goodbye(self, payload: bytes) -> bool:
        """After the match finished here: whether ``payload`` is the peer's ``bye``: its
        ``bye`` ``finished`` says it holds every entry; any other code says it will not
        resume (nothing is resumed after a ``bye``), and changes nothing of the result.
        Anything else is ignored."""
        try:
            plaintext = self._rx.decrypt_with_ad(b"", payload)
            message = decode_message(plaintext, {"move": MOVE, "ping": PING, "bye": BYE})
        except (DecryptError, ProtocolError):
            return False
        return message.kind == "bye"

    def reconnect(self, established: Established, now: float, resend: list[bytes]) -> None:
        """A new connection carries the suspended session on (docs/protocol.md, "Resume"):
        its keys replace the old connection's, whatever the old one still held unsent is
        dropped, and ``resend`` (the log entries the peer does not hold) goes first."""
        self._tx, self._rx = established.send, established.recv
        self._out = []
        self._clock = _Clock(now, now, now)
        self._acks.replayed = True
        if self._journal:
            self._journal.append(["resumed"])
        if self.lockstep is not None:  # the drop was nobody's move: the turn's clock restarts
            self._turn = _Turn(self.lockstep.seq, now)
        if self._seed_since is not None:  # and so does the wait for the peer's seed
            self._seed_since = now
        for message in resend:
            self._send(message)
        if self.ending is not None and self.ending.finished:
            if self._acks.unacked:  # the peer resends the last move's ack if it has it
                self._acks.last_until = now + LAST_ACK_GRACE  # the goodbye follows it
            if self._peer_seed_owed():  # and its seed of the last deal, lost with the drop
                self._acks.seed_until = now + self.seed_wait
                if self._audit_fault is not None and self._audit_fault.result == "refused":
                    self._audit_fault = None
            if not self._waiting:  # this side holds every entry and ack: it says so again
                self._send(encode_message("bye", reason="finished"))

    def restored(self, lockstep: Lockstep) -> None:
        """The session of a record (:func:`koikoi.net.resume.restore_session`) stands where
        the record stops: both players confirmed the cards before the first deal, every
        acknowledgement is in ``lockstep`` and this side's entries without one are still
        owed, oldest first."""
        self.confirmed = self.peer_confirmed = self._confirm_sent = True
        self.lockstep = lockstep
        self.stage = Stage.PLAYING
        self._acks.unacked = [
            seq
            for seq, action in enumerate(lockstep.actions)
            if int(str(action["seat"])) == self.seat and "ack" not in action
        ]
        self._turn = _Turn(lockstep.seq, self._clock.now)

    @property
    def dealing_sent(self) -> int:
        """How many dealing messages this side sent in the match (private dealing)."""
        return len(self._dealing_sent)

    def dealing_to_resend(self, peer_dealt: int) -> list[tuple[int, bytes]]:
        """The dealing messages the peer lacks, having taken ``peer_dealt`` of them (the
        ``dealt`` of its ``resume``), in the order they went, each with the number of log
        entries this side held as it went: a resumed connection sends each just before
        this side's entry of that number (docs/protocol.md, "Sending again")."""
        if not 0 <= peer_dealt <= len(self._dealing_sent):
            raise ValueError(f"this side sent {len(self._dealing_sent)} dealing messages")
        return self._dealing_sent[peer_dealt:]

    def acks_to_resend(self, peer_holds: int) -> list[bytes]:
        """The ``ack`` messages a resumed connection sends first (docs/protocol.md, "Sending
        again"): this side's acknowledgements of the peer's entries after the last entry of
        its own that the peer holds (``peer_holds``: the ``seq`` of the peer's ``resume``).
        The peer read every earlier one before that entry of ours; these it may lack."""
        lockstep = self.lockstep
        if lockstep is None:
            return []
        held = min(peer_holds, lockstep.seq)
        seats = [int(str(action["seat"])) for action in lockstep.actions]
        start = next((n + 1 for n in range(held - 1, -1, -1) if seats[n] == self.seat), 0)
        out = []
        for seq in range(start, held):
            ack = lockstep.recorded_ack(seq)
            if seats[seq] != self.seat and ack is not None:
                out.append(encode_message("ack", ack=ack[0], sig=ack[1]))
        return out

    # --- the record ----------------------------------------------------------------------

    def record(self, local: bool = True) -> GameRecord:
        """The signed record so far (``koikoi-record/1`` with the ``net`` and ``end`` keys),
        privately dealt and in play also with the ``local`` key unless ``local`` is False
        (:meth:`local_json`: a record file keeps it beside the record,
        :mod:`koikoi.net.recordfile`)."""
        toss = self.toss.result
        if self.lockstep is not None:
            if isinstance(self.lockstep, PrivateLockstep):
                self.lockstep.refresh_record()
            record = self.lockstep.record
        elif toss is not None:  # ended while the four cards were compared: the toss, no deal
            record = GameRecord(self.settings, first_oya=toss.first_oya)
        else:  # the toss never finished: no deal, and first_oya means nothing (end.stage)
            record = GameRecord(self.settings, first_oya=0)
        record.extra["net"] = self._net_json()
        record.extra.pop("local", None)
        if self.ending is not None:
            record.extra["end"] = self.ending.to_json()
        elif self._own_seeds and local:
            record.extra["local"] = self.local_json()
        return record

    @property
    def record_mark(self) -> tuple[object, ...]:
        """How far the signed record has grown (the toss, the entries, the deals, the
        acknowledgements of this side's entries, the end): a record file written at one mark
        and the record at another differ (a privately dealt deal in play also shows more of
        its dealing as it goes: the journal keeps that)."""
        lockstep = self.lockstep
        ending = None if self.ending is None else self.ending.to_json()
        if lockstep is None:
            return self.toss.result is not None, ending
        deals = len(lockstep.record.deals)
        return True, lockstep.seq, deals, len(self._acks.unacked), ending

    @property
    def local_size(self) -> tuple[int, int]:
        """How many seeds and journal items the local part (:meth:`local_json`) holds:
        :meth:`local_items` gives what came after an earlier size."""
        return len(self._own_seeds), len(self._journal)

    def local_items(self, seeds: int = 0, journal: int = 0) -> list[list[str]]:
        """The local part's items after ``seeds`` seeds and ``journal`` journal items, as a
        record file appends them (:mod:`koikoi.net.recordfile`): each new seed as
        ``["seed", seed]``, then each new journal item as it is."""
        out = [["seed", b64(seed)] for seed in self._own_seeds[seeds:]]
        return out + [list(item) for item in self._journal[journal:]]

    @property
    def local_mark(self) -> tuple[int, int]:
        """How far the local part of the record (:meth:`local_json`) and the dealing sent
        have grown: files written at one mark and read at another lack something. A client
        writes what changed whenever it changed (the record file's sidecar,
        :mod:`koikoi.net.recordfile`), before what it sends goes out (docs/protocol.md,
        "A side that crashed")."""
        return len(self._journal), len(self._dealing_sent)

    def local_json(self) -> dict[str, Any]:
        """What only this side's own record file keeps, beside it, of a privately dealt match
        in play (its sidecar, read back as the ``local`` key; docs/protocol.md, "A side that
        crashed"): this side's seeds,
        the last one still secret, and the journal that replays the session from them."""
        return {
            "seeds": [b64(seed) for seed in self._own_seeds],
            "journal": [list(item) for item in self._journal],
        }

    def replay(self, local: Mapping[str, Any], now: float) -> None:
        """The session of a crashed side's record, replayed from its ``local`` key (its seeds
        and journal; :func:`koikoi.net.resume.restore_session`): the toss done, the deals
        dealt again from the kept seeds, the peer's messages taken again and the local moves
        played again in their order. What this side would send goes nowhere: the peer took
        it, or a resume sends it again. Raises :class:`ValueError` (one line) for a journal
        this session does not take as it did."""
        self._clock = _Clock(now, now, now)
        self.confirmed = self.peer_confirmed = self._confirm_sent = True
        self.dealer_seeds = list(_b64_list(local.get("seeds"), SEED_LEN))
        self._confirm_and_deal()
        journal = local.get("journal")
        if not isinstance(journal, list):
            raise ValueError("its journal is not a list")
        for n, item in enumerate(journal):
            if self.stage is Stage.CLOSED:
                break
            if not isinstance(item, list) or not item or not all(isinstance(x, str) for x in item):
                raise ValueError(f"its journal item {n} is not a list of strings")
            if item[0] == "in" and len(item) == 2:
                plaintext = _b64_one(item[1])
                self._journal.append(["in", item[1]])
                try:
                    message = decode_message(plaintext, self._expected())
                except ProtocolError as error:
                    raise ValueError(f"its journal item {n}: {error}") from None
                self._take(plaintext, message)
            elif item[0] == "play" and len(item) == 2 and item[1].isdigit():
                try:
                    self.play(int(item[1]), now)
                except (ValueError, IllegalAction) as error:
                    raise ValueError(f"its journal item {n}: a move not to play: {error}") from None
            elif item == ["resumed"]:
                self._journal.append(["resumed"])
                self._acks.replayed = True
            else:
                raise ValueError(f"its journal item {n} is of no known kind")
        if self.closed or self.ending is not None:
            raise ValueError("its journal ends the session")
        if self.dealer_seeds:
            raise ValueError("it keeps seeds for deals that were never dealt")
        self._out = []
        if self.lockstep is not None:
            self._turn = _Turn(self.lockstep.seq, now)

    def _handshake_json(self) -> list[dict[str, str]]:
        """Both sides' signatures over the session id from the handshake, with the bytes
        each signed (docs/protocol.md, "The signed record")."""
        return [
            {
                "role": role.value,
                "signed": b64(session_statement(role, self.session_id, self.settings)),
                "sig": b64(signature),
            }
            for role, signature in zip((Role.HOST, Role.JOINER), self._acks.handshake, strict=True)
        ]

    def result_json(self) -> dict[str, Any]:
        """The ``koikoi replay`` JSON of the match as it stands (``finished`` per the ending).

        A finished match is its signed moves' result, as this side's engine played them (a
        privately dealt last deal whose audit did not come holds stand-ins for the cards
        nobody opened: nothing of the result depends on them)."""
        lockstep = self.lockstep
        if self.ending is not None and self.ending.finished and lockstep is not None:
            match = lockstep.match
            return {
                "rounds": [outcome.to_json() for outcome in match.history],
                "scores": list(match.scores),
                "winner": match.winner,
                "finished": match.finished,
            }
        result = replay_record(self.record().to_json()).to_json()
        if self.ending is not None and not self.ending.finished:
            result["finished"] = False
            result["winner"] = None
        return result

    def _net_json(self) -> dict[str, Any]:
        players = []
        for role in (Role.HOST, Role.JOINER):
            nick = self._names.mine if role is self.role else self._names.peer
            players.append(
                {
                    "seat": role.seat,
                    "role": role.value,
                    "nick": nick,
                    "key": b64(self._names.keys[role]),
                }
            )
        net: dict[str, Any] = {
            "protocol": self.protocol,
            "session": b64(self.session_id),
            "players": players,
            "handshake": self._handshake_json(),
        }
        if self.protocol != protocol_name(2):  # version 4 names the dealing agreed
            net["dealing"] = self.dealing
        result = self.toss.result
        if result is not None:
            net["toss"] = {
                "commit": b64(result.commitment),
                "host_random": b64(result.host_random),
                "joiner_random": b64(result.joiner_random),
            }
            if self.cards_first:  # version 4: the toss drawn after the cards
                net["toss"].update(
                    toss_commit=b64(result.toss_commitment),
                    host_toss=b64(result.host_toss),
                    joiner_toss=b64(result.joiner_toss),
                )
            net["seed"] = b64(result.seed)
        return net

    # --- steps ---------------------------------------------------------------------------

    def _expected(self) -> dict[str, Record]:
        base = {"ping": PING, "bye": BYE}
        if self.stage is Stage.PLAYING:
            if self._private is not None:
                return {"move": MOVE, "ack": ACK, **DEALING, **base}
            return {"move": MOVE, "ack": ACK, **base}
        if self.stage is Stage.TOSS:
            toss = self.toss.expected()
            if self.toss.cards is not None and not self.peer_confirmed:
                return {"confirm": CONFIRM, **base}  # version 4: the peer's toss comes after
            if "toss" in toss and not self._confirm_sent:
                return base  # version 4, the host: the joiner's toss only after its confirm
            return {**toss, **base}
        return base

    def _on_toss(self, plaintext: bytes) -> list[SessionEvent]:
        try:
            replies = self.toss.receive(plaintext)
        except CheatDetected as error:
            return self._fail("cheat", self.role.peer, str(error))
        except ProtocolError as error:
            return self._fail("protocol", self.role.peer, f"the peer sent {error}")
        for reply in replies:
            self._send(reply)
        result, cards = self.toss.result, self.toss.cards
        if result is not None:
            logger.info("coin toss done: seat %d is the first oya", result.first_oya)
        if self.cards_first and result is not None:  # version 4: the toss after the cards
            return self._confirm_and_deal()
        if cards is None:
            return []
        return [CardsShown(cards, result), *self._confirm_and_deal()]

    def _confirm_and_deal(self) -> list[SessionEvent]:
        """Send ``confirm`` once the cards are drawn and the local player confirmed; once the
        peer's is in too, in version 4 the joiner sends its ``toss`` (the outcome comes with
        the host's answer); deal once the outcome is drawn."""
        if self.toss.cards is None or self.stage is not Stage.TOSS or not self.confirmed:
            return []
        if not self._confirm_sent:
            self._confirm_sent = True
            self._send(encode_message("confirm"))
        if not self.peer_confirmed:
            return []
        result = self.toss.result
        if result is None:  # version 4: both confirmed, the outcome is still to be drawn
            if self.role is Role.JOINER and self.toss.phase is TossPhase.CARDS:
                for message in self.toss.toss():
                    self._send(message)
            return []
        if self.dealing == "private":
            self.lockstep = PrivateLockstep(
                self.settings, result.first_oya, result.seed, self.session_id, self.seat
            )
            self.stage = Stage.PLAYING
            self._turn = _Turn(self.lockstep.seq, self._clock.now)
            self._start_deal()
            return []  # TossDone comes with the first deal laid out
        lockstep = Lockstep(self.settings, result.first_oya, result.seed, self.session_id)
        self.lockstep = lockstep
        self.stage = Stage.PLAYING
        self._turn = _Turn(lockstep.seq, self._clock.now)  # the first move's clock
        out: list[SessionEvent] = [TossDone(result, tuple(lockstep.events))]
        if lockstep.match.finished:  # only a run of teyaku could do this, but be exact
            out += self._finish_locally()
        return out

    def _on_move(self, raw: bytes, signature: bytes) -> list[SessionEvent]:
        lockstep = self.lockstep
        assert lockstep is not None
        seat = self.role.peer.seat
        rejected = {"entry": b64(raw), "sig": b64(signature)}

        def cheat(what: str, where: str) -> list[SessionEvent]:
            return self._fail("cheat", self.role.peer, f"{where}: {what}", rejected)

        try:
            entry = decode_entry(raw)
        except ProtocolError as error:
            return cheat(str(error), lockstep.where(seat))
        where = lockstep.where(seat, entry.action)
        if self._acks.unacked:
            return cheat(
                f"the peer moved without acknowledging move {self._acks.unacked[0]}", where
            )
        if entry.seq != lockstep.seq:
            return cheat(
                f"sequence number {entry.seq} where {lockstep.seq} is due: "
                "a replayed, reordered or dropped log entry",
                where,
            )
        if entry.prev_hash != lockstep.prev_hash:
            return cheat("the entry does not chain to the previous one (prev_hash differs)", where)
        if not verify_signature(self.peer.public_key, signature, signed_data(raw)):
            return cheat("the peer's signature over the entry does not verify", where)
        if self._private is not None:
            refused = self._check_private_move(entry.action)
            if refused is not None:
                return cheat(refused, where)
        try:
            events, deals_before = lockstep.apply(seat, entry.action)
        except IllegalAction as error:
            return cheat(f"illegal move: {error}", where)
        if lockstep.state_hash() != entry.state_hash:
            lockstep.rollback_record(deals_before)
            return cheat("the state hash differs: the two engines disagree after this move", where)
        lockstep.commit(entry, signature, seat, deals_before)
        self._turn = _Turn(lockstep.seq, self._clock.now)  # the move gave the turn: its clock
        ack, ack_sig = lockstep.acknowledge(self.identity, entry.seq)
        self._send(encode_message("ack", ack=ack, sig=ack_sig))
        out: list[SessionEvent] = [MovePlayed(entry.seq, seat, entry.action, tuple(events))]
        if self._private is not None:
            self._private.peer_card, self._private.peer_drew = None, False
            return out + self._after_private_move()
        if lockstep.match.finished:
            out += self._finish_locally()
        return out

    # --- private dealing (docs/protocol.md, "The lockstep with hidden cards") -------------

    def _start_deal(self) -> None:
        """The next deal's dealing: a new dealer; the host sends its shuffled deck."""
        lockstep = self.lockstep
        assert isinstance(lockstep, PrivateLockstep)
        seed = self.dealer_seeds.pop(0) if self.dealer_seeds else os.urandom(SEED_LEN)
        self._own_seeds.append(seed)
        self._deal_started = self._clock.now
        self._private = _Private(lockstep.new_dealer(seed))
        for message in self._private.dealer.start():
            self._send_dealing(message)

    def _on_dealing(self, plaintext: bytes, message: Message) -> list[SessionEvent]:
        kind, fields = message.kind, message.fields
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        dealer, peer = private.dealer, self.role.peer
        self.dealing_received += 1
        if kind == "hand":
            return self._on_hand(fields.get("teyaku", bool), fields.get("dealing", bytes))
        if kind == "draw" and private.pending is None and not self._peer_may_draw():
            return self._fail(
                "cheat", peer, "the peer asked for the key of a draw its move does not make"
            )
        if kind == "play" and private.laid and not self._peer_may_play():
            return self._fail("cheat", peer, "the peer opened a card out of its turn")
        if kind == "seed" and not (private.laid and lockstep.deal_over):
            return self._fail(
                "cheat",
                peer,
                f"the peer revealed its seed of deal {self._deal_index()} before the deal ended",
            )
        try:
            replies = dealer.receive(plaintext, message)  # decoded once, with its schema
        except DealingCheat as error:
            if kind == "seed":
                self._audit_fault = Audit(
                    "cheat", error.culprit, self._deal_index(), _cheat_text(error)
                )
            return self._fail("cheat", error.culprit, str(error))
        except ProtocolError as error:
            return self._fail("protocol", peer, f"the peer sent {error}")
        for reply in replies:
            self._send_dealing(reply)
        if kind in ("shuffle", "lock", "deal"):
            if dealer.phase is DealPhase.PLAYING and not private.declared:
                self._declare()
            return self._maybe_lay_out()
        if kind == "play" and private.laid:
            return self._opened_peer_card()
        if kind == "draw":
            return self._opened_draw()
        if kind == "seed":
            return self._maybe_audit()
        return []

    def _peer_may_play(self) -> bool:
        private, lockstep = self._private, self.lockstep
        assert private is not None and lockstep is not None
        rnd = lockstep.match.round
        return (
            rnd is not None
            and not rnd.over
            and rnd.turn == self.role.peer.seat
            and int(rnd.phase) == 0
            and private.peer_card is None
        )

    def _peer_may_draw(self) -> bool:
        """The peer, to move, asks for this side's key of the next draw: only when the move it
        opened (a play) or owes (the pick of a played card) turns a stock card."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        rnd = lockstep.match.round
        if rnd is None or rnd.over or rnd.turn != self.role.peer.seat or private.peer_drew:
            return False
        if int(rnd.phase) == 0:
            return private.peer_card is not None and lockstep.draws(private.peer_card)
        return int(rnd.phase) == 1  # a pick of the played card: every pick draws

    def _declare(self) -> None:
        """This side's hand is open: a teyaku is declared with the keys of the whole hand."""
        private = self._private
        assert private is not None
        dealer = private.dealer
        hand = sum(1 << card for card in dealer.hand)
        teyaku = teyaku_of(hand) is not None
        if teyaku:
            for position in hand_positions(dealer.role, dealer.oya):
                self._send_dealing(dealer.play(position))
        lockstep = self.lockstep
        assert isinstance(lockstep, PrivateLockstep)
        sealed = sealed_hash(dealer.transcript, lockstep.dealing_hash)
        self._send_dealing(encode_message("hand", teyaku=teyaku, dealing=sealed))
        private.declared = True

    def _on_hand(self, teyaku: bool, sealed: bytes) -> list[SessionEvent]:
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        dealer, peer = private.dealer, self.role.peer
        if private.peer_teyaku is not None or dealer.phase is not DealPhase.PLAYING:
            return self._fail("protocol", peer, "the peer sent an unexpected hand message")
        if sealed != sealed_hash(dealer.transcript, lockstep.dealing_hash):
            return self._fail(
                "cheat",
                peer,
                "the peer's sealed deck is not the one of the decks it sent and this side"
                " received (a deck it sent is not the one it keeps)",
            )
        if teyaku:
            cards = [dealer.card_at(p) for p in hand_positions(peer, dealer.oya)]
            if None in cards or teyaku_of(sum(1 << c for c in cards if c is not None)) is None:
                return self._fail(
                    "cheat", peer, "the peer declared a teyaku its opened hand does not hold"
                )
        private.peer_teyaku = teyaku
        return self._maybe_lay_out()

    def _maybe_lay_out(self) -> list[SessionEvent]:
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        if private.laid or not private.declared or private.peer_teyaku is None:
            return []
        dealer = private.dealer
        other = None
        if private.peer_teyaku:
            positions = hand_positions(self.role.peer, dealer.oya)
            other = sum(1 << (dealer.card_at(p) or 0) for p in positions)
        # the engine's Dealt holds stand-ins for the sealed cards: what goes out is this
        # seat's view of the deal (docs/protocol.md, "The lockstep with hidden cards")
        events = tuple(seat_view(lockstep.lay_out(dealer, other), self.seat))
        private.laid = True
        self.deal_seconds.append(self._clock.now - self._deal_started)
        self._deal_laid = self._clock.now
        self._turn = _Turn(lockstep.seq, self._clock.now)
        result = self.toss.result
        assert result is not None
        out: list[SessionEvent] = [
            TossDone(result, events) if len(lockstep.transcripts) == 1 else DealLaidOut(events)
        ]
        if lockstep.deal_over:  # a teyaku or four of a month: over at once
            out += self._end_deal()
        return out

    def _opened_peer_card(self) -> list[SessionEvent]:
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        position, card = private.dealer.opened[-1]
        lockstep.open(position, card)
        private.peer_card = card
        return []

    def _opened_draw(self) -> list[SessionEvent]:
        """A draw's keys crossed: the peer answered this side's move, or this side answers
        the peer's (its key goes out now)."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        position = lockstep.next_draw
        if private.pending is None:
            try:  # opens it here (the peer's key came first)
                self._send_dealing(private.dealer.draw())
            except DealingCheat as error:
                return self._fail("cheat", error.culprit, str(error))
            private.peer_drew = True
        card = private.dealer.card_at(position)
        assert card is not None
        lockstep.open(position, card)
        if private.pending is not None:
            action, private.pending = private.pending, None
            return self._sign_and_send(action)
        return []

    def _check_private_move(self, action: Action) -> str | None:
        """Why the peer's move does not fit the cards it opened (None: it does)."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        if not private.laid or lockstep.deal_over:
            return "a move while no deal is in play"
        rnd = lockstep.match.round
        assert rnd is not None
        if int(rnd.phase) == 0 and action < PICK_BASE and action != private.peer_card:
            opened = "no card" if private.peer_card is None else f"card {private.peer_card}"
            return f"the move plays card {action}, but the peer's play opened {opened}"
        try:
            rnd.check(action, self.role.peer.seat)
        except IllegalAction:
            return None  # the engine names it
        if lockstep.draws(action) != private.peer_drew:
            return (
                "the move draws a card whose keys did not cross"
                if not private.peer_drew
                else "the move draws no card, yet the peer asked for the key of one"
            )
        return None

    def _after_private_move(self) -> list[SessionEvent]:
        lockstep = self.lockstep
        assert isinstance(lockstep, PrivateLockstep)
        return self._end_deal() if lockstep.deal_over else []

    def _end_deal(self) -> list[SessionEvent]:
        """The deal is over: this side reveals its seed; the audit follows the peer's."""
        private = self._private
        assert private is not None
        if not private.seed_sent:
            private.seed_sent = True
            self._seed_since = self._clock.now
            self.play_seconds.append(self._clock.now - self._deal_laid)
            self._send_dealing(private.dealer.reveal())
        assert self.lockstep is not None
        if self.lockstep.match.finished:
            return self._finish_private()
        return self._maybe_audit()

    def _maybe_audit(self) -> list[SessionEvent]:
        """Both seeds are in: audit the dealing, replay the deal with every card, record it,
        then deal the next one (or finish the match)."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        transcript = private.dealer.transcript
        if not private.seed_sent or len(transcript.seeds) < 2:
            return []
        if not lockstep.deal_over:
            return self._fail("cheat", self.role.peer, "the peer revealed its seed mid-deal")
        fault = self._audit_deal()
        if fault is not None:
            return self._fail("cheat", fault.by or self.role.peer, f"cheat: {fault.reason}")
        if lockstep.match.finished:  # not reached: the last deal's audit follows the end
            return self._finish_private()
        self._seed_since = None
        self._start_deal()
        return []

    def _audit_deal(self) -> Audit | None:
        """Audit the deal just over (both seeds in) and replay it with every card: on
        success the record holds it as dealt; else the fault (also kept for the ending)."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        index = len(lockstep.transcripts) - 1
        try:
            deck = private.dealer.audit()
            lockstep.check_deal(deck)
        except DealingCheat as error:
            self._audit_fault = Audit("cheat", error.culprit, index, _cheat_text(error))
            return self._audit_fault
        lockstep.record.deals[index].extra["dealing"] = private.dealer.transcript.to_json()
        return None

    def _deal_index(self) -> int:
        """The record's index of the deal being dealt or played (or just over)."""
        private, lockstep = self._private, self.lockstep
        assert private is not None and isinstance(lockstep, PrivateLockstep)
        return len(lockstep.transcripts) - (1 if private.laid else 0)

    def _peer_seed_owed(self) -> bool:
        """Private dealing: this side revealed its seed of the deal over, the peer not yet."""
        private = self._private
        return (
            private is not None
            and private.seed_sent
            and self.role.peer not in private.dealer.transcript.seeds
        )

    def _refuse_audit(self, what: str) -> None:
        """The wait for the peer's seed of the last deal is over without it: the peer
        refused the audit (``what`` says how, with ``{deal}`` for the deal)."""
        self._acks.seed_until = None
        if self._audit_fault is None and self._peer_seed_owed():
            deal = self._deal_index()
            reason = f"the {self.role.peer.value} " + what.replace("{deal}", str(deal))
            self._audit_fault = Audit("refused", self.role.peer, deal, reason)

    def _withheld_seed(self) -> list[SessionEvent]:
        """Mid-match, the peer's seed of the deal over did not come within the wait (its
        heartbeats did): it withheld it, which ends the match as abandoned by it."""
        self._refuse_audit(f"withheld its seed of deal {{deal}} for {self.seed_wait:g} s")
        fault = self._audit_fault
        assert fault is not None
        reason = f"{fault.reason}: it refused the deal's audit and abandoned the match"
        return self._close(
            self._ending(False, "abandoned", self.role.peer, reason), announce="abandoned"
        )

    def _finish_private(self) -> list[SessionEvent]:
        """Privately dealt, the last move is played (or the last deal was over at once): the
        match is over here and now, its result the signed moves' (docs/protocol.md, "End of
        the match"). This side's seed went out; the peer's is read for up to
        :attr:`seed_wait`, and the last move's acknowledgement for :data:`LAST_ACK_GRACE`,
        for the audit and the record only. :class:`Ended` comes once both are in or their
        waits ran out, its ``audit`` saying how the last audit went."""
        self._close(self._ending(True, "finished", None, "the match is over"))
        now = self._clock.now
        if self._acks.unacked:
            self._acks.last_until = now + LAST_ACK_GRACE
        if self._peer_seed_owed():
            self._acks.seed_until = now + self.seed_wait
        else:  # both seeds are in (a journal replayed, a resume)
            self._audit_deal()
        return self._maybe_done()

    def _maybe_done(self) -> list[SessionEvent]:
        return [] if self._waiting else self._stop_waiting()

    def _last_seed(self, plaintext: bytes, message: Message) -> None:
        """The peer's seed of the last deal, after the match's end: check it, then audit."""
        private = self._private
        assert private is not None
        self._acks.seed_until = None
        self.dealing_received += 1
        try:
            private.dealer.receive(plaintext, message)
        except DealingCheat as error:
            self._audit_fault = Audit(
                "cheat", error.culprit, self._deal_index(), _cheat_text(error)
            )
            return
        except ProtocolError as error:  # not reached: decoded with its schema already
            self._refuse_audit(f"sent {error} for its seed of deal {{deal}}")
            return
        self._audit_deal()

    def _on_ack(self, raw: bytes, signature: bytes) -> list[SessionEvent]:
        """The peer's signed acknowledgement of this side's oldest unacknowledged move."""
        lockstep = self.lockstep
        assert lockstep is not None
        if self._acks.replayed:
            if lockstep.is_recorded_ack(raw, signature, self.seat):
                return []  # resent after a resume, already here: nothing new
            self._acks.replayed = False
        if not self._acks.unacked:
            return self._fail(
                "protocol", self.role.peer, "the peer acknowledged a move this side did not send"
            )
        due = self._acks.unacked[0]
        refused = lockstep.check_ack(self.peer.public_key, raw, signature, due)
        if refused is not None:
            return self._fail(
                "cheat", self.role.peer, f"the peer's acknowledgement of move {due}: {refused}"
            )
        self._acks.unacked.pop(0)
        return []

    def _after_the_end(self, payload: bytes) -> list[SessionEvent]:
        """After the last move: only the acknowledgement of it and, privately dealt, the
        peer's seed of the last deal are still taken (into the record and the audit);
        anything else, or nothing within their waits, ends the wait. Nothing here changes
        the result: a missing or wrong seed goes into the ending's ``audit``."""
        lockstep = self.lockstep
        assert lockstep is not None
        expected = {"ack": ACK, "bye": BYE, "ping": PING}
        if self._acks.seed_until is not None:
            expected["seed"] = SEED
        try:
            plaintext = self._rx.decrypt_with_ad(b"", payload)
            message = decode_message(plaintext, expected)
        except (DecryptError, ProtocolError) as error:
            return self._stop_waiting(why=f"sent {error} instead of its seed of deal {{deal}}")
        if message.kind == "ping":
            return []
        if message.kind == "bye":
            self._acks.bye = True
            code = message.fields.get("reason", str)
            return self._stop_waiting(
                why=f"said goodbye ({code}) without its seed of deal {{deal}}"
            )
        if message.kind == "seed":
            self._last_seed(plaintext, message)
            return self._maybe_done()
        raw, signature = message.fields.get("ack", bytes), message.fields.get("sig", bytes)
        if self._acks.replayed and lockstep.is_recorded_ack(raw, signature, self.seat):
            return []  # resent after a resume, already here
        self._acks.replayed = False
        acks = self._acks
        if (
            acks.unacked
            and lockstep.check_ack(self.peer.public_key, raw, signature, acks.unacked[0]) is None
        ):
            acks.unacked.pop(0)
            if not acks.unacked:
                acks.last_until = None
            return self._maybe_done()
        return self._stop_waiting(
            why="sent an acknowledgement that does not check instead of its seed of deal {deal}"
        )

    def _stop_waiting(self, goodbye: bool = True, why: str = "") -> list[SessionEvent]:
        """The wait for the last move's acknowledgement (and the last seed) is over: the
        ending goes out now, so a record saved on it holds that acknowledgement when it
        came, and so does the goodbye (``bye`` ``finished`` after the ack says this side
        holds it too). A seed still owed is a refused audit (``why`` says how)."""
        if self._acks.seed_until is not None and why == "local":
            self._acks.seed_until = None
            if self._audit_fault is None and self._peer_seed_owed():
                deal, peer = self._deal_index(), self.role.peer.value
                reason = f"this side stopped waiting for the {peer}'s seed of deal {deal}"
                self._audit_fault = Audit("unfinished", None, deal, reason)
        if self._acks.seed_until is not None:
            self._refuse_audit(why or "did not reveal its seed of deal {deal}")
        self._acks.last_until = None
        assert self.ending is not None
        if self.dealing == "private" and self.ending.finished:
            self.ending = replace(self.ending, audit=self._audit_fault or Audit("done"))
        if goodbye:
            self._send(encode_message("bye", reason="finished"))
        if self._acks.told:  # a wait again after a resume: the ending went out before
            return []
        self._acks.told = True
        return [Ended(self.ending)]

    def stop_waiting(self) -> list[SessionEvent]:
        """The connection dropped while the last move's acknowledgement (or the peer's seed
        of the last deal) was read: the match is over, its ending goes out now (a resume
        may still bring the ack and the seed)."""
        if not self._waiting:
            return []
        return self._stop_waiting(
            goodbye=False, why="dropped the connection before its seed of deal {deal}"
        )

    def _on_bye(self, code: str, detail: str | None) -> list[SessionEvent]:
        said = f" ({detail})" if detail else ""
        if code == "quit":
            return self._close(self._ending(False, "left", self.role.peer, f"the peer left{said}"))
        if code == "cheat" and detail == CARDS_DIFFER and self.stage is Stage.TOSS:
            return self._close(self._ending(False, "cards", self.role.peer, CARDS_DIFFER_PEER))
        if code == "abandoned":
            state = self.clock(self._clock.now)
            if state is not None and state.local:  # this side's turn: the claim fits
                waited = _duration(state.waited)
                return self._close(
                    self._ending(
                        False,
                        "abandoned",
                        self.role,
                        f"the peer ended the match: no move came from this side for {waited}",
                    )
                )
        if code == "finished":
            reason = "the peer said the match is over, but it is not over here"
        else:
            reason = f"the peer stopped the match: {BYE_REASONS[code]}{said}"
        return self._close(self._ending(False, "stopped", self.role.peer, reason))

    def _finish_locally(self) -> list[SessionEvent]:
        """The last move is played: the match is over here and now (protocol version 2).

        The goodbye is a courtesy: nothing the peer sends or withholds afterwards changes
        the signed moves, so nobody waits for it. The mover of the last move sends it once
        the acknowledgement of that move came (or the wait for it ran out), so that a peer
        whose connection drops before the goodbye resumes and resends the acknowledgement.
        """
        ending = self._ending(True, "finished", None, "the match is over")
        if self._acks.unacked:  # this side moved last: its acknowledgement is on the way
            self._close(ending)
            self._acks.last_until = self._clock.now + LAST_ACK_GRACE
            return []  # Ended comes with the acknowledgement, or when the wait runs out
        return self._close(ending, announce="finished")

    # --- endings -------------------------------------------------------------------------

    def _send(self, message: bytes) -> None:
        self._out.append(self._tx.encrypt_with_ad(b"", message))
        self._clock.last_tx = self._clock.now

    def _send_dealing(self, message: bytes) -> None:
        """A dealing message goes out, and into the list a resume sends again from."""
        seq = 0 if self.lockstep is None else self.lockstep.seq
        self._dealing_sent.append((seq, message))
        self._send(message)

    def _ending(
        self,
        finished: bool,
        how: str,
        by: Role | None,
        reason: str,
        rejected: dict[str, str] | None = None,
    ) -> Ending:
        stage = "toss" if self.stage is Stage.TOSS else "play"
        suspicious = False
        # A local "cards" ending has no ``by`` (this player said so), but it is this side
        # that ends the toss: after the reveal, as suspicious as any other way of leaving.
        leaver = self.role if by is None and how == "cards" else by
        if self.stage is Stage.TOSS and leaver is not None:
            abort = self.toss.abort(leaver, reason)
            suspicious = abort.suspicious
            if how not in ("cheat", "protocol", "cards"):  # those keep their own reason
                reason = abort.describe()
        elif not finished and leaver is not None and self._cards_seen_unplayed(leaver):
            suspicious = True  # docs/protocol.md, "Deal aborts"
            if how not in ("cheat", "protocol"):
                reason = (
                    f"{reason} (the {leaver.value} had seen its cards of the deal, which"
                    " had no move yet: that counts as abandoning a deal after seeing its cards)"
                )
        elif by is not None and not finished and self._toss_just_decided():
            suspicious = True  # version 4: "after tA", the first deal before its first move
        moves = self.lockstep.seq if self.lockstep is not None else 0
        audit = None
        if not finished and self.dealing == "private" and self.lockstep is not None:
            audit = self._audit_fault
            if audit is None and self._peer_seed_owed():
                deal = self._deal_index()
                audit = Audit(
                    "refused",
                    self.role.peer,
                    deal,
                    f"the {self.role.peer.value} did not reveal its seed of deal {deal} before"
                    " the match ended",
                )
            audit = audit or Audit("done")
        return Ending(
            finished, how, by, reason, stage, moves, _now_text(), suspicious, rejected, audit
        )

    def _cards_seen_unplayed(self, leaver: Role) -> bool:
        """Whether ``leaver`` had seen its cards of a deal that had no move yet (the first
        deal at move 0, or any later one before its first move): leaving then is as
        suspicious as abandoning the toss after seeing the result. Privately dealt, a side
        has seen its hand once its ``hand`` went (the peer's: once it came)."""
        lockstep = self.lockstep
        if self.stage is not Stage.PLAYING or lockstep is None:
            return False
        rnd = lockstep.match.round
        private = self._private
        if private is not None:
            seen = private.declared if leaver is self.role else private.peer_teyaku is not None
            if not seen:
                return False
            if not private.laid:
                return True
        return rnd is not None and not rnd.over and not lockstep.match.moves

    def _toss_just_decided(self) -> bool:
        """Version 4: the toss's outcome is drawn on both sides (the host sent ``tA``, the
        joiner read it) and the match's first move is not made yet: both know who deals
        first, and a side leaving now abandons the toss after seeing the result (the window
        version 2 had while the cards were compared, docs/protocol.md "Toss aborts")."""
        lockstep = self.lockstep
        return (
            self.cards_first
            and self.stage is Stage.PLAYING
            and lockstep is not None
            and lockstep.seq == 0
            and len(lockstep.record.deals) <= 1
        )

    def _fail(
        self, how: str, by: Role, reason: str, rejected: dict[str, str] | None = None
    ) -> list[SessionEvent]:
        code = "error" if by is self.role else ("cheat" if how == "cheat" else "protocol")
        return self._close(
            self._ending(False, how, by, reason, rejected), announce=code, detail=reason
        )

    def _close(
        self, ending: Ending, announce: str | None = None, detail: str | None = None
    ) -> list[SessionEvent]:
        if self.stage is Stage.CLOSED:  # over already (reading the last acknowledgement)
            return self._stop_waiting() if self._waiting else []
        if announce is not None:
            if detail:
                self._send(encode_message("bye", reason=announce, detail=_clean(detail)))
            else:
                self._send(encode_message("bye", reason=announce))
        self.ending = ending
        self.stage = Stage.CLOSED
        if ending.finished:
            logger.info("session over: the match finished")
        else:
            logger.info("session over: %s", ending.reason)
        return [Ended(ending)]


__all__ = [
    "AUDITS",
    "Audit",
    "BYE_REASONS",
    "CARDS_DIFFER",
    "DEFAULT_ABANDON_AFTER",
    "DEFAULT_MOVE_CLOCK",
    "CardsShown",
    "DEFAULT_SILENCE_TIMEOUT",
    "Ended",
    "Ending",
    "LogEntry",
    "MoveClock",
    "MovePlayed",
    "OutOfTime",
    "PeerOverdue",
    "Session",
    "SessionEvent",
    "Stage",
    "TossDone",
]
