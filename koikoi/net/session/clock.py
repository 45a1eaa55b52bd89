"""Time in the session: the link's (when the peer was last heard and this side last sent:
silence and heartbeats) and the move clock (each turn's, with the automatic safe move when
the local one runs out and the abandon time of the peer's). Times are plain seconds from any
monotonic clock, passed in.

>>> clock = TurnClock(move_clock=60.0, abandon_after=180.0)
>>> clock.follow(seq=4, now=10.0)
>>> clock.state(seat=1, local=False, now=200.0)
MoveClock(seat=1, local=False, left=0.0, waited=190.0, overdue=True)
>>> clock.due(local=True), clock.due(local=False)
(70.0, 190.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Final, Protocol

from koikoi.engine.match import Observation
from koikoi.engine.round import SHOBU, Action

DEFAULT_SILENCE_TIMEOUT: Final = 15.0
"""Seconds without a byte from the peer before it counts as disconnected."""
DEFAULT_MOVE_CLOCK: Final = 60.0
"""Seconds a player has for each move before its own client plays a safe one for it."""
DEFAULT_ABANDON_AFTER: Final = 180.0
"""Seconds without a move from a connected peer before the waiting side may end the match
as abandoned by that peer (heartbeats do not count)."""


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


@dataclass
class LinkClock:
    """The connection's times: now, the peer's last message (or heartbeat) and this side's."""

    now: float
    last_rx: float
    last_tx: float

    @classmethod
    def at(cls, now: float) -> LinkClock:
        """A new connection: heard from and sent to just now."""
        return cls(now, now, now)


@dataclass
class Turn:
    """The move clock: both sides start it from the same event, the move that gave the turn
    (or the first deal), and stop it at the next move into the log."""

    seq: int = -1
    started: float = 0.0
    told: bool = False
    """:class:`OutOfTime` or :class:`PeerOverdue` went out for this turn."""


class TurnClock:
    """The move clock of the turn in play: ``move_clock`` seconds for the local seat's moves,
    ``abandon_after`` for the peer's before the waiting side may end the match. Which seat's
    clock runs is the session's to say (a dealing message owed stops it, or gives it to the
    side that owes it)."""

    def __init__(self, move_clock: float, abandon_after: float) -> None:
        if move_clock <= 0 or abandon_after <= 0:
            raise ValueError("move_clock and abandon_after must be positive")
        self.move_clock = move_clock
        self.abandon_after = abandon_after
        self.turn = Turn()

    def restart(self, seq: int, now: float) -> None:
        """A turn begins now, at log entry ``seq`` (a move, the first deal, a resume)."""
        self.turn = Turn(seq, now)

    def follow(self, seq: int, now: float) -> None:
        """The log stands at ``seq``: a move that went into it began a new turn."""
        if self.turn.seq != seq:
            self.restart(seq, now)

    def state(self, seat: int, local: bool, now: float) -> MoveClock:
        """How ``seat``'s clock stands at ``now`` (``local``: the local seat's)."""
        waited = max(0.0, now - self.turn.started)
        overdue = not local and waited >= self.abandon_after
        return MoveClock(seat, local, max(0.0, self.move_clock - waited), waited, overdue)

    def due(self, local: bool) -> float | None:
        """When the clock running (the local seat's or the peer's) next has something to say
        (once per turn: None once it said it)."""
        if self.turn.told:
            return None
        limit = self.move_clock if local else self.abandon_after
        return self.turn.started + limit


class SafeMove(Protocol):
    """Chooses the move a player whose clock ran out makes (``rng`` is seeded by the
    session, so the choice is the same wherever it is made): a computer player's
    ``choose``, such as :meth:`koikoi.ai.basic.GreedyPlayer.choose`."""

    def __call__(self, obs: Observation, legal: Sequence[Action], rng: Random, /) -> Action: ...


def safe_action(observation: Observation, choose: SafeMove, session_id: bytes, seq: int) -> Action:
    """The automatic move: shobu whenever koikoi or shobu is asked, else ``choose``'s, with
    a random of the session and the log's place."""
    legal = observation.legal_actions
    if SHOBU in legal:
        return SHOBU
    rng = Random(int.from_bytes(session_id[:8], "big") ^ seq)
    return choose(observation, legal, rng)
