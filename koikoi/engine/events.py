"""What happened: the events an applied action yields.

A window animates them and a log narrates them without re-deriving the rules. Only the
checked door (:meth:`Round.apply`, :meth:`Match.apply`) yields events; the fast door for
search (``push``) yields none.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi.engine.cards import NUM_CARDS, Card, CardSet
from koikoi.engine.outcome import RoundResult
from koikoi.engine.yaku import Yaku


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal is laid out (R4.1). It carries both hands: a window shows only its own seat's."""

    oya: int
    round_no: int
    deal_no: int
    field: CardSet
    hands: tuple[CardSet, CardSet]

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` was dealt (a seat's own view may hold only the count)."""
        return self.hands[seat].bit_count()

    @property
    def stock_size(self) -> int:
        """How many cards the stock (山札) holds as the deal starts."""
        return NUM_CARDS - self.field.bit_count() - self.hand_size(0) - self.hand_size(1)


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class StockTurned:
    """The top stock card is turned face up (R5.4)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Captured:
    """``card`` (played or drawn) took ``taken`` from the field (R5.2)."""

    seat: int
    card: Card
    taken: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlacedOnField:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ChoiceNeeded:
    """``card`` has two field matches: the seat picks one (R5.2)."""

    seat: int
    card: Card
    candidates: tuple[Card, Card]
    drawn: bool


@dataclass(frozen=True, slots=True)
class YakuFormed:
    """At the end of a turn the seat's total rose above its baseline (R7.1)."""

    seat: int
    yaku: tuple[tuple[Yaku, int], ...]
    total: int
    baseline: int


@dataclass(frozen=True, slots=True)
class DecisionNeeded:
    """Koikoi or shobu; on the last turn only shobu (R7.3)."""

    seat: int
    can_koikoi: bool


@dataclass(frozen=True, slots=True)
class KoikoiDeclared:
    seat: int
    koikoi_count: int
    """Koikoi calls this round by both players together, this one included (R9.3)."""


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    result: RoundResult


@dataclass(frozen=True, slots=True)
class StakesPaid:
    """The loser paid the winner (R2.2, capped at what the loser had)."""

    winner: int | None
    paid: int
    capped: bool
    scores: tuple[int, int]
    next_oya: int
    round_counts: bool
    """False for a redeal, which is not a round (R2.5)."""


@dataclass(frozen=True, slots=True)
class MatchEnded:
    scores: tuple[int, int]
    winner: int | None
    """The winning seat, or None for a draw (R2.4)."""


Event = (
    Dealt
    | CardPlayed
    | StockTurned
    | Captured
    | PlacedOnField
    | ChoiceNeeded
    | YakuFormed
    | DecisionNeeded
    | KoikoiDeclared
    | TurnStarted
    | RoundEnded
    | StakesPaid
    | MatchEnded
)
