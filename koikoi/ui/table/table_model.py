"""What the local player sees of the table, changed one engine event at a time (no Qt).

:class:`TableModel` keeps the hand, the field's slots, both capture piles, the opponent's
face-down cards and the stock count, in the order the table shows them. It never decides a
rule: where a played or drawn card goes is what the engine's next event says (``Captured``
takes ``taken`` from the field, ``PlacedOnField`` lays it in a free slot, ``ChoiceNeeded``
leaves it waiting for a pick), so the model cannot disagree with the engine about a capture.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Final

from koikoi.engine.cards import CARD_MONTH_MASK, Card, CardSet, Kind, card_list
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    Dealt,
    Event,
    PlacedOnField,
    StockTurned,
)
from koikoi.engine.match import Observation
from koikoi.engine.round import Phase
from koikoi.engine.yaku import Yaku, yaku_of

HUMAN: Final = 0
COMPUTER: Final = 1

KIND_ORDER: Final = (Kind.LIGHT, Kind.TANE, Kind.RIBBON, Kind.PLAIN)
"""Capture piles are grouped by kind in this order (lights first, as in the rules)."""

Key = int | str
"""A card widget's key: the card for a face, ``"opp<n>"`` for an opponent's hidden card."""

PLAYED: Final = "played"
"""Staging of a card just played from a hand: the next event says where it goes."""
DRAWN: Final = "drawn"
"""Staging of a card just turned from the stock: the next event says where it goes."""


@dataclass
class TableModel:
    """What the local player sees, in table order. Changed only by events (:meth:`apply`).

    >>> from koikoi.engine.cards import parse_card
    >>> m = TableModel()
    >>> crane, pine = parse_card("matsu_crane"), parse_card("matsu_plain_1")
    >>> m.deal(1 << crane, 8, 1 << pine, 24)
    >>> m.apply(CardPlayed(HUMAN, crane)); m.staged
    {0: 'played'}
    >>> m.apply(Captured(HUMAN, crane, (pine,))); m.captured[HUMAN], m.staged
    ([2, 0], {})
    """

    hand: list[Card] = _field(default_factory=list)
    opponent: list[str] = _field(default_factory=list)
    """Keys of the opponent's face-down cards, left to right."""
    field: list[Card | None] = _field(default_factory=list)
    """Field slots; None is an empty slot, kept so that other cards do not move."""
    captured: tuple[list[Card], list[Card]] = _field(default_factory=lambda: ([], []))
    stock: int = 0
    staged: dict[Card, str] = _field(default_factory=dict)
    """Cards between places, beside the stock: :data:`PLAYED` (from a hand) or :data:`DRAWN`
    (from the stock); with :attr:`candidates` while a pick between two is due."""
    candidates: tuple[Card, ...] = ()
    round_no: int = 0
    oya: int = 0
    me: int = HUMAN
    """The local player's seat (0, or 1 for a network match's joiner): their hand is shown."""
    _rng: random.Random = _field(default_factory=lambda: random.Random(7))
    _backs: int = 0

    # views of the model

    def field_cards(self) -> CardSet:
        return sum(1 << c for c in self.field if c is not None)

    def captured_set(self, seat: int) -> CardSet:
        return sum(1 << c for c in self.captured[seat])

    def yaku(self, seat: int) -> list[tuple[Yaku, int]]:
        return list(yaku_of(self.captured_set(seat)))

    def matches(self, card: Card) -> list[Card]:
        """Field cards of the card's month, in slot order: what the table shows as the
        card's matches (the glows and the keyboard); the engine's events decide captures."""
        mask = CARD_MONTH_MASK[card]
        return [c for c in self.field if c is not None and mask >> c & 1]

    # changes

    def _new_back(self) -> str:
        self._backs += 1
        return f"opp{self._backs}"

    def _free_slot(self) -> int:
        for i, c in enumerate(self.field):
            if c is None:
                return i
        self.field.append(None)
        return len(self.field) - 1

    def _remove_from_field(self, card: Card) -> None:
        i = self.field.index(card)
        self.field[i] = None
        while self.field and self.field[-1] is None and len(self.field) > 8:
            self.field.pop()

    def deal(self, hand: CardSet, opponent_count: int, field_cards: CardSet, stock: int) -> None:
        self.hand = card_list(hand)
        self.opponent = [self._new_back() for _ in range(opponent_count)]
        self.field = list(card_list(field_cards))
        self.captured = ([], [])
        self.stock = stock
        self.staged = {}
        self.candidates = ()

    def restore(self, obs: Observation, events: Iterable[Event] = ()) -> None:
        """Show a round as the engine has it (a resumed match). ``events``: the round's
        events so far, from its ``Dealt`` on: played through again, the field keeps the
        places its cards had while the round was played; events that do not lead to ``obs``
        (or none) give the cards in their plain order."""
        events = list(events)
        start = max((n for n, e in enumerate(events) if isinstance(e, Dealt)), default=None)
        if start is not None:
            for event in events[start:]:
                self.apply(event)
            pending = {obs.pending} if obs.pending >= 0 else set()
            if not self.check_against(obs) and set(self.staged) == pending:
                self.round_no, self.oya = obs.round_no, obs.oya
                return
        self.deal(obs.hand, obs.opponent_hand_size, obs.field, obs.stock_size)
        self.captured = (card_list(obs.captured[0]), card_list(obs.captured[1]))
        self.round_no = obs.round_no
        self.oya = obs.oya
        if obs.pending >= 0:
            self.staged[obs.pending] = PLAYED if obs.phase is Phase.PICK_PLAYED else DRAWN
            self.candidates = tuple(card_list(obs.candidates))

    def play(self, seat: int, card: Card) -> str | None:
        """A card leaves a hand and waits for the next event to say where it goes; returns
        the opponent's back key that turned into it."""
        back = None
        if seat == self.me:
            self.hand.remove(card)
        else:
            back = self.opponent.pop(self._rng.randrange(len(self.opponent)))
        self.staged[card] = PLAYED
        return back

    def turn_stock(self, card: Card) -> None:
        self.stock -= 1
        self.staged[card] = DRAWN

    def choice(self, card: Card, candidates: Iterable[Card], drawn: bool) -> None:
        """``card`` matches two field cards: it waits beside the stock for a pick."""
        self.staged[card] = DRAWN if drawn else PLAYED
        self.candidates = tuple(candidates)

    def capture(self, seat: int, card: Card, taken: Iterable[Card]) -> None:
        self.staged.pop(card, None)
        for c in taken:
            self._remove_from_field(c)
            self.captured[seat].append(c)
        self.captured[seat].append(card)
        self.candidates = ()

    def place(self, card: Card) -> None:
        self.staged.pop(card, None)
        if card not in self.field:
            self.field[self._free_slot()] = card

    def apply(self, event: Event, human: int | None = None) -> None:
        if human is None:
            human = self.me
        if isinstance(event, Dealt):
            self.round_no, self.oya = event.round_no, event.oya
            # a privately dealt deal knows the other hand and the stock as counts only
            opponent = event.hand_size(1 - human)
            self.deal(event.hands[human], opponent, event.field, event.stock_size)
        elif isinstance(event, CardPlayed):
            self.play(event.seat, event.card)
        elif isinstance(event, StockTurned):
            self.turn_stock(event.card)
        elif isinstance(event, ChoiceNeeded):
            self.choice(event.card, event.candidates, event.drawn)
        elif isinstance(event, Captured):
            self.capture(event.seat, event.card, event.taken)
        elif isinstance(event, PlacedOnField):
            self.place(event.card)

    def check_against(self, obs: Observation) -> list[str]:
        """Differences from the engine's observation (empty when the table is right)."""
        problems = []
        if sum(1 << c for c in self.hand) != obs.hand:
            problems.append("hand")
        if len(self.opponent) != obs.opponent_hand_size:
            problems.append("opponent hand size")
        if self.field_cards() != obs.field:
            problems.append("field")
        for seat in (0, 1):
            if self.captured_set(seat) != obs.captured[seat]:
                problems.append(f"captured {seat}")
        if self.stock != obs.stock_size:
            problems.append("stock")
        return problems
