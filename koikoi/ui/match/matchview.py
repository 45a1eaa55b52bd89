"""What the controller tells the table about a match: what it waits for (:class:`Mode`),
the :class:`Presenter` that shows its events, and the panels' data (the koikoi/shobu
decision, a deal's and the match's results, the drawn card that waits), each worked out
from the engine (R5.5, R7, R9); :class:`ShownDeal`, the deal as the table has shown it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Final, Protocol

from koikoi.engine.cards import Card, CardSet
from koikoi.engine.events import Captured, Dealt, Event, KoikoiDeclared, PlacedOnField, StakesPaid
from koikoi.engine.match import DealOutcome, Match, Observation, payment
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI
from koikoi.engine.yaku import Yaku, round_points, yaku_of

if TYPE_CHECKING:
    from koikoi.ui.match.controller import GameController


class Mode(Enum):
    """What the controller waits for."""

    IDLE = "idle"  # no match
    FIRST_OYA = "first_oya"  # the first-oya cards are shown; waiting for "deal"
    BUSY = "busy"  # events are being shown, or the computer is thinking
    PLAY = "play"  # the local player plays a hand card
    PICK = "pick"  # the local player picks one of two field cards
    DRAW_WAIT = "draw_wait"  # the local player's drawn card waits (R5.5)
    DECIDE = "decide"  # koikoi or shobu
    ROUND_OVER = "round_over"  # a result panel is up; waiting for "next round"
    MATCH_OVER = "match_over"


TABLE_READY: Final = frozenset({Mode.PLAY, Mode.PICK, Mode.DRAW_WAIT, Mode.DECIDE})
"""The modes in which the table waits for the local player to act: a network match's move
clock runs only in these (never during a result panel, the toss or an animation)."""


class Presenter(Protocol):
    """What shows the game: the table. ``present`` returns the milliseconds it animates."""

    def present(self, event: Event, controller: GameController) -> int: ...

    def restore(
        self,
        obs: Observation,
        controller: GameController,
        events: Sequence[Event] = (),
        *,
        keep_log: bool = False,
    ) -> None:
        """A fresh table showing ``obs``, its cards where the round's ``events`` put them
        (``keep_log``: the log keeps what it said, as after an undo)."""


class NullPresenter:
    """Shows nothing, takes no time: for running the controller headless."""

    def present(self, event: Event, controller: GameController) -> int:
        return 0

    def restore(
        self,
        obs: Observation,
        controller: GameController,
        events: Sequence[Event] = (),
        *,
        keep_log: bool = False,
    ) -> None:
        pass


@dataclass(frozen=True)
class DecisionInfo:
    """What the koikoi/shobu panel shows, all from the engine (R7, R9)."""

    seat: int
    yaku: tuple[tuple[Yaku, int], ...]
    new_yaku: frozenset[Yaku]
    """Yaku formed or grown this turn."""
    total: int
    baseline: int
    koikoi_count: int
    doubling: bool
    doubled: bool
    points: int
    """What shobu is worth now: total, ×2 when doubled, × (koikoi_count + 1)."""
    opponent_stake: int
    pay: int
    """What shobu would be paid now: ``points`` capped by the opponent's stakes (R9.4)."""
    can_koikoi: bool

    @classmethod
    def of(cls, obs: Observation, seat: int, captured_before: CardSet) -> DecisionInfo:
        """The decision of ``seat`` as ``obs`` shows it; ``captured_before``: its pile
        before this turn (what it held then is not new)."""
        pile = obs.captured[seat]
        yaku = tuple(yaku_of(pile))
        before = dict(yaku_of(captured_before)) if captured_before else {}
        new = frozenset(y for y, p in yaku if before.get(y, 0) < p)
        total = obs.totals[seat]
        doubled, points = round_points(total, obs.koikoi_count, obs.settings.doubling)
        stake = obs.scores[1 - seat]
        return cls(
            seat=seat,
            yaku=yaku,
            new_yaku=new,
            total=total,
            baseline=obs.baselines[seat],
            koikoi_count=obs.koikoi_count,
            doubling=obs.settings.doubling,
            doubled=doubled,
            points=points,
            opponent_stake=stake,
            pay=payment(points, stake),
            can_koikoi=KOIKOI in obs.legal_actions,
        )

    @property
    def multiplier(self) -> int:
        return self.koikoi_count + 1

    @property
    def capped(self) -> bool:
        return self.pay < self.points


@dataclass(frozen=True)
class RoundSummary:
    """A finished deal as the result panel shows it."""

    round_no: int
    rounds: int
    outcome: DealOutcome
    scores_before: tuple[int, int]
    koikoi_calls: tuple[int, int]
    doubling: bool
    match_finished: bool
    match_winner: int | None
    loser_yaku: tuple[tuple[Yaku, int], ...] = ()
    """The yaku the loser of a won round held; they count for nothing (R7.4)."""


@dataclass(frozen=True)
class MatchSummary:
    scores: tuple[int, int]
    winner: int | None
    rounds: int
    rows: tuple[tuple[int, DealOutcome], ...]
    """(round number, outcome) for every deal, redeals included (numbered with their round)."""

    @classmethod
    def of(cls, match: Match) -> MatchSummary:
        rows: list[tuple[int, DealOutcome]] = []
        round_no = 1
        for outcome in match.history:
            rows.append((round_no, outcome))
            if outcome.result.outcome is not Outcome.REDEAL:
                round_no += 1
        return cls(match.scores, match.winner, match.settings.rounds, tuple(rows))


@dataclass(frozen=True)
class DrawWait:
    """The local player's drawn card, shown before it resolves by itself (R5.5)."""

    card: Card
    taken: tuple[Card, ...]
    """The field cards it takes; empty when it is placed on the field."""
    ms: int


@dataclass
class ShownDeal:
    """The deal as the table has shown it, from events (a network match's engine may
    already be in the next deal when a round's result is shown)."""

    calls: list[int] = field(default_factory=lambda: [0, 0])
    on_field: CardSet = 0
    captured: list[CardSet] = field(default_factory=lambda: [0, 0])
    outcomes: int = 0
    """StakesPaid events shown so far: one per entry of ``Match.history``."""

    def note(self, event: Event) -> None:
        if isinstance(event, Dealt):
            self.calls, self.on_field, self.captured = [0, 0], event.field, [0, 0]
        elif isinstance(event, KoikoiDeclared):
            self.calls[event.seat] += 1
        elif isinstance(event, Captured):
            for card in event.taken:
                self.on_field &= ~(1 << card)
                self.captured[event.seat] |= 1 << card
            self.captured[event.seat] |= 1 << event.card
        elif isinstance(event, PlacedOnField):
            self.on_field |= 1 << event.card
        elif isinstance(event, StakesPaid):
            self.outcomes += 1
