"""How a deal ended: :class:`Outcome` and :class:`RoundResult` (R9), made at every round's end.

They are events' parts (:class:`~koikoi.engine.events.RoundEnded`), here in a module of
their own so that the compiled core (koikoi/engine/compiled.py) compiles them with the
round: every playout of the search ends by making a :class:`RoundResult`. It was a frozen
dataclass, whose ``__init__`` (made by :mod:`dataclasses`, so interpreted, and setting each
field through ``object.__setattr__``) took a microsecond even compiled, a tenth of a whole
compiled round. As a :class:`~koikoi.engine.value.Value` it takes under a tenth of that,
with a dataclass's equality, hashing, ``repr`` and pickling.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from koikoi.engine.cards import CardSet
from koikoi.engine.value import Value
from koikoi.engine.yaku import Yaku


class Outcome(Enum):
    """How a deal ended."""

    WIN = "win"  # a shobu (勝負), R7.4
    TEYAKU = "teyaku"  # a dealt hand (手役), R8
    NAGARE = "nagare"  # nobody called shobu (流れ), R7.5
    REDEAL = "redeal"  # four of a month on the field (配り直し), R4.2


_FIELDS: Final = (
    "outcome",
    "winner",
    "yaku",
    "base",
    "doubled",
    "koikoi",
    "points",
    "teyaku_hand",
    "redeal_cards",
)


class RoundResult(Value):
    """The end of a deal, before the stakes: who won what (R9).

    ``teyaku_hand``: for a teyaku, the winner's dealt hand, to show it. ``redeal_cards``: for
    a redeal, its cause, the four cards of each month dealt whole to the field (R4.2).
    """

    __slots__ = _FIELDS

    def __init__(
        self,
        outcome: Outcome,
        winner: int | None = None,
        yaku: tuple[tuple[Yaku, int], ...] = (),
        base: int = 0,
        doubled: bool = False,
        koikoi: int = 0,
        points: int = 0,
        teyaku_hand: CardSet = 0,
        redeal_cards: CardSet = 0,
    ) -> None:
        self.outcome: Final = outcome
        self.winner: Final = winner
        self.yaku: Final = yaku
        self.base: Final = base
        self.doubled: Final = doubled
        self.koikoi: Final = koikoi
        self.points: Final = points
        self.teyaku_hand: Final = teyaku_hand
        self.redeal_cards: Final = redeal_cards

    def names(self) -> tuple[str, ...]:
        return _FIELDS
