"""Time in the session: the link's (when the peer was last heard and this side last sent:
silence and heartbeats) and the move clock (each turn's, with the automatic safe move when
the local one runs out and the abandon time of the peer's). Times are plain seconds from any
monotonic clock, passed in.

The move clock is a room setting (:class:`ClockSetting`, agreed in the handshake): seconds
for each action and a reserve for the whole match, chess-style. A seat's clock runs only
while that seat's table is ready for it to act (:meth:`TurnClock.set_ready`, and the peer's
``clock`` message): the time a table shows a result, the toss or an animation is the other
side's to wait, not the player's to lose.

>>> clock = TurnClock(move_clock=60.0, abandon_after=180.0)
>>> clock.follow(seq=4, now=10.0)
>>> clock.state(seat=1, local=False, now=260.0)
MoveClock(seat=1, local=False, left=0.0, waited=250.0, overdue=True, reserve=0.0, ready=True,
          timed=True)
>>> clock.due(local=True), clock.due(local=False)
(70.0, 250.0)
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
"""Seconds without a move from a connected peer, past the time its clock still gave it,
before the waiting side may end the match as abandoned by that peer (heartbeats do not
count)."""
MAX_CLOCK_SECONDS: Final = 3600
"""The longest clock for one action a room may set."""
MAX_RESERVE_SECONDS: Final = 36000
"""The longest reserve a room may set."""


@dataclass(frozen=True)
class ClockSetting:
    """A room's move clock: ``seconds`` for each action (0: no clock) and a ``reserve`` for
    the whole match, spent once an action's seconds are. ``koikoi host --clock`` and the
    lobby write it ``60+300`` (``60``: no reserve; ``off``).

    >>> ClockSetting.parse("30+180"), ClockSetting.parse("off").text()
    (ClockSetting(seconds=30, reserve=180), 'off')
    >>> ClockSetting.parse("90").text()
    '90+0'
    """

    seconds: int
    reserve: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.seconds <= MAX_CLOCK_SECONDS:
            raise ValueError(f"seconds per action must be 0 to {MAX_CLOCK_SECONDS}")
        if not 0 <= self.reserve <= MAX_RESERVE_SECONDS:
            raise ValueError(f"the reserve must be 0 to {MAX_RESERVE_SECONDS} seconds")
        if self.seconds == 0 and self.reserve:
            raise ValueError("no clock has no reserve")

    @property
    def off(self) -> bool:
        """No move clock: only the abandon rule for a peer that never answers."""
        return self.seconds == 0

    @classmethod
    def parse(cls, text: str) -> ClockSetting:
        """``SECONDS[+RESERVE]`` or ``off``; :class:`ValueError` saying what is wrong."""
        text = text.strip()
        if text.lower() == "off":
            return cls(0)
        head, plus, tail = text.partition("+")
        if not head.isdigit() or (plus and not tail.isdigit()):
            raise ValueError(f"{text!r} is not SECONDS[+RESERVE] or off")
        seconds, reserve = int(head), int(tail) if plus else 0
        if seconds == 0:
            raise ValueError("seconds per action must be at least 1 (or the clock off)")
        return cls(seconds, reserve)

    def text(self) -> str:
        """How ``--clock`` writes it: ``60+300``, or ``off``."""
        return "off" if self.off else f"{self.seconds}+{self.reserve}"


DEFAULT_CLOCK: Final = ClockSetting(60, 300)
"""The room setting a room has unless its host chose another (NETWORK.md, "Time")."""
LEGACY_CLOCK: Final = ClockSetting(60, 0)
"""The clock of a peer or room that does not say one (a koikoi from before the setting):
60 s for each move, no reserve."""
CLOCK_CHOICES: Final = (
    ClockSetting(30, 180),
    DEFAULT_CLOCK,
    ClockSetting(120, 600),
    ClockSetting(0),
)
"""The settings the app offers for a room."""


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
    """The peer's turn has lasted its clock and the abandon time: the match may be ended as
    abandoned."""
    reserve: float = 0.0
    """Seconds of the seat's reserve left (the peer's as it last said)."""
    ready: bool = True
    """The seat's table is ready for it to act: its clock runs (else it reads a result,
    watches an animation: the other side waits)."""
    timed: bool = True
    """A move clock runs at all (False: the room has none, only the abandon time)."""

    @property
    def remaining(self) -> float:
        """Seconds before the seat's automatic move: the action's and the reserve."""
        return self.left + self.reserve


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
    used: tuple[float, float] = (0.0, 0.0)
    """Seconds the turn's clock ran before the last readiness change: the local side's and
    the peer's."""
    since: tuple[float | None, float | None] = (None, None)
    """Since when each side's table is ready (None: not ready)."""
    charged: bool = False
    """The local seat's time of this turn came off its reserve (or is not its to pay: the
    wait for the peer's key of a card it draws)."""


class TurnClock:
    """The move clock of the turn in play: ``move_clock`` seconds for each action (0: no
    clock) and ``reserve`` seconds for the match, run only while the seat's table is ready;
    ``abandon_after`` past what the peer's clock still gave it before the waiting side may
    end the match. Which seat's clock runs is the session's to say (a dealing message owed
    stops it, or gives it to the side that owes it)."""

    def __init__(self, move_clock: float, abandon_after: float, reserve: float = 0.0) -> None:
        if move_clock < 0 or reserve < 0 or abandon_after <= 0:
            raise ValueError("move_clock and reserve must not be negative, abandon_after positive")
        self.move_clock = move_clock
        self.abandon_after = abandon_after
        self.reserves = [reserve, reserve]
        """Seconds of reserve left: the local seat's, and the peer's as it said."""
        self.ready = [True, True]
        """Whether each side's table is ready (the local one's, the peer's): sticky across
        turns until the side says otherwise."""
        self.turn = Turn()

    def restart(self, seq: int, now: float, charged: bool = False) -> None:
        """A turn begins now, at log entry ``seq`` (a move, the first deal, a resume);
        ``charged``: none of it comes off the local reserve."""
        since = tuple(now if ready else None for ready in self.ready)
        self.turn = Turn(seq, now, since=(since[0], since[1]), charged=charged)

    def follow(self, seq: int, now: float) -> None:
        """The log stands at ``seq``: a move that went into it began a new turn."""
        if self.turn.seq != seq:
            self.restart(seq, now)

    def set_ready(self, side: int, ready: bool, now: float) -> bool:
        """Side ``side`` (0: local, 1: the peer) says whether its table is ready; False when
        that changes nothing."""
        if self.ready[side] == ready:
            return False
        self.ready[side] = ready
        turn = self.turn
        used, since = list(turn.used), list(turn.since)
        started = since[side]
        if ready:
            since[side] = now
        elif started is not None:
            used[side] += max(0.0, now - started)
            since[side] = None
        turn.used, turn.since = (used[0], used[1]), (since[0], since[1])
        return True

    def ran(self, side: int, now: float) -> float:
        """Seconds side ``side``'s clock has run in this turn."""
        started = self.turn.since[side]
        return self.turn.used[side] + (0.0 if started is None else max(0.0, now - started))

    def charge(self, now: float) -> None:
        """The local seat moved: what it took past the action's seconds comes off its
        reserve (once a turn)."""
        if self.turn.charged:
            return
        self.turn.charged = True
        over = self.ran(0, now) - self.move_clock
        if self.move_clock and over > 0:
            self.reserves[0] = max(0.0, self.reserves[0] - over)

    def peer_reserve(self, seconds: float) -> None:
        """The peer's reserve as it says: it only ever goes down."""
        self.reserves[1] = max(0.0, min(self.reserves[1], seconds))

    def state(self, seat: int, local: bool, now: float, owed: bool = False) -> MoveClock:
        """How ``seat``'s clock stands at ``now`` (``local``: the local seat's; ``owed``: the
        peer owes a dealing message, which its program sends by itself: the abandon time
        alone)."""
        side = 0 if local else 1
        waited = max(0.0, now - self.turn.started)
        ran = self.ran(side, now)
        reserve = self.reserves[side]
        if self.move_clock:
            left = max(0.0, self.move_clock - ran)
            reserve = max(0.0, reserve - max(0.0, ran - self.move_clock))
        else:
            left = reserve = 0.0
        overdue = not local and waited >= self._abandon_limit(owed)
        return MoveClock(
            seat, local, left, waited, overdue, reserve, self.ready[side], bool(self.move_clock)
        )

    def _abandon_limit(self, owed: bool = False) -> float:
        """Seconds the peer's turn may last before it counts as abandoned: what its clock
        gave it (not for a dealing message owed), and the abandon time."""
        clock = self.move_clock + self.reserves[1] if self.move_clock and not owed else 0.0
        return clock + self.abandon_after

    def due(self, local: bool, owed: bool = False) -> float | None:
        """When the clock running (the local seat's or the peer's) next has something to say
        (once per turn: None once it said it, or while the local table is not ready)."""
        if self.turn.told:
            return None
        if not local:
            return self.turn.started + self._abandon_limit(owed)
        started = self.turn.since[0]
        if not self.move_clock or started is None:
            return None
        return started + self.move_clock + self.reserves[0] - self.turn.used[0]


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
