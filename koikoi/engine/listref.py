"""A plain list-based engine of one round: the yardstick ``koikoi bench`` measures against.

The game never runs this. It plays the same rules as :class:`koikoi.engine.round.Round`
(RULES.md R4.2, R5, R6, R7, R8, R9) with the most straightforward data a first version
would use: hands, field and piles as lists of card numbers (0..47, as in
:mod:`koikoi.engine.cards`), months by ``card // 4``, kinds from a table, yaku by counting.
Its actions are the engine's (``card``, ``48 + card``, 96, 97) in the engine's order, so the
same deck order and the same random choices play the same round in both; the tests hold
them to that, and the bench's ratio compares like with like.

>>> from koikoi.engine.deck import deck_from_seed
>>> r = ListRound(deck_from_seed(b"doc", 1, 0), oya=0)
>>> len(r.legal_actions()), r.over
(8, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from koikoi.engine.cards import CARD_IDS, CARD_KINDS

PICK: Final = 48
KOIKOI: Final = 96
SHOBU: Final = 97

KIND: Final[list[str]] = [kind.name for kind in CARD_KINDS]
"""Each card's kind by name: ``'LIGHT'``, ``'TANE'``, ``'RIBBON'`` or ``'PLAIN'``."""
RAIN_MAN: Final = CARD_IDS.index("yanagi_rainman")
SAKE_CUP: Final = CARD_IDS.index("kiku_sake_cup")
CURTAIN: Final = CARD_IDS.index("sakura_curtain")
MOON: Final = CARD_IDS.index("susuki_moon")
BOAR_DEER_BUTTERFLY: Final = [
    CARD_IDS.index(n) for n in ("hagi_boar", "momiji_deer", "botan_butterfly")
]
RED_RIBBONS: Final = [CARD_IDS.index(m + "_ribbon") for m in ("matsu", "ume", "sakura")]
BLUE_RIBBONS: Final = [CARD_IDS.index(m + "_ribbon") for m in ("botan", "kiku", "momiji")]


def month(card: int) -> int:
    return card // 4


def has_all(pile: list[int], cards: list[int]) -> bool:
    return all(c in pile for c in cards)


def yaku_points(pile: list[int]) -> int:
    """The sum of the yaku in a pile (R6, R9.1), counted card by card."""
    lights = [c for c in pile if KIND[c] == "LIGHT"]
    tane = [c for c in pile if KIND[c] == "TANE"]
    ribbons = [c for c in pile if KIND[c] == "RIBBON"]
    plains = [c for c in pile if KIND[c] == "PLAIN"]
    points = 0
    if len(lights) == 5:
        points += 10
    elif len(lights) == 4:
        points += 7 if RAIN_MAN in lights else 8
    elif len(lights) == 3 and RAIN_MAN not in lights:
        points += 5
    if SAKE_CUP in pile and CURTAIN in pile:
        points += 5
    if SAKE_CUP in pile and MOON in pile:
        points += 5
    if has_all(pile, BOAR_DEER_BUTTERFLY):
        points += 5 + len(tane) - 3
    red = has_all(pile, RED_RIBBONS)
    blue = has_all(pile, BLUE_RIBBONS)
    if red and blue:
        points += 10 + len(ribbons) - 6
    elif red or blue:
        points += 5 + len(ribbons) - 3
    if len(tane) >= 5:
        points += len(tane) - 4
    if len(ribbons) >= 5:
        points += len(ribbons) - 4
    if len(plains) >= 10:
        points += len(plains) - 9
    return points


def has_teyaku(hand: list[int]) -> bool:
    """Four of a month (teshi) or four pairs of months (kuttsuki) in a dealt hand (R8.1)."""
    counts = [0] * 12
    for card in hand:
        counts[month(card)] += 1
    return 4 in counts or sorted(counts)[-4:] == [2, 2, 2, 2]


class ListRound:
    """One deal played with lists: ``legal_actions()`` / ``push()`` as in :class:`Round`."""

    def __init__(self, order: Sequence[int], oya: int = 0, doubling: bool = True) -> None:
        if sorted(order) != list(range(48)):
            raise ValueError("a deck order must hold each of the 48 cards once")
        first, second = list(order[0:8]), list(order[8:16])
        self.hands = [first, second] if oya == 0 else [second, first]
        self.field = list(order[16:24])
        self.stock = list(order[24:])
        self.captured: list[list[int]] = [[], []]
        self.oya = oya
        self.turn = oya
        self.doubling = doubling
        self.phase = "play"  # play, pick_played, pick_drawn, decide, over
        self.pending = -1
        self.took = False
        self.totals = [0, 0]
        self.baselines = [0, 0]
        self.koikoi_count = 0
        self.over = False
        self.outcome = ""
        self.winner = -1
        self.points = 0
        field_months = [month(c) for c in self.field]
        if any(field_months.count(m) == 4 for m in range(12)):  # R4.2
            self.end("redeal", -1, 0)
            return
        for seat in (oya, 1 - oya):  # R8.3: the oya's teyaku first
            if has_teyaku(self.hands[seat]):
                self.end("teyaku", seat, self.round_points(6))
                return

    def round_points(self, base: int) -> int:
        doubled = self.doubling and base >= 8
        return base * (2 if doubled else 1) * (self.koikoi_count + 1)

    def end(self, outcome: str, winner: int, points: int) -> None:
        self.outcome, self.winner, self.points = outcome, winner, points
        self.phase = "over"
        self.over = True

    def matches(self, card: int) -> list[int]:
        return [c for c in self.field if month(c) == month(card)]

    def legal_actions(self) -> list[int]:
        if self.phase == "play":
            return sorted(self.hands[self.turn])
        if self.phase == "decide":
            return [KOIKOI, SHOBU] if self.hands[0] or self.hands[1] else [SHOBU]
        if self.phase == "over":
            return []
        return [PICK + c for c in sorted(self.matches(self.pending))]

    def push(self, action: int) -> None:
        if self.phase == "play":
            self.hands[self.turn].remove(action)
            self.took = False
            if self.match(action, drawn=False):
                self.draw()
        elif self.phase == "decide":
            self.decide(action == KOIKOI)
        else:
            target = action - PICK
            self.field.remove(target)
            self.captured[self.turn] += [self.pending, target]
            self.took = True
            drawn = self.phase == "pick_drawn"
            self.phase = "play"
            self.pending = -1
            if drawn:
                self.end_turn()
            else:
                self.draw()

    def match(self, card: int, drawn: bool) -> bool:
        """Match a played or drawn card (R5.2, R5.3); False when a pick is due."""
        found = self.matches(card)
        if not found:
            self.field.append(card)
        elif len(found) == 2:
            self.phase = "pick_drawn" if drawn else "pick_played"
            self.pending = card
            return False
        else:
            for c in found:
                self.field.remove(c)
            self.captured[self.turn] += [card, *found]
            self.took = True
        return True

    def draw(self) -> None:
        card = self.stock.pop(0)  # R5.4
        if self.match(card, drawn=True):
            self.end_turn()

    def end_turn(self) -> None:
        seat = self.turn
        if self.took:  # R5.6, R7.1
            self.totals[seat] = yaku_points(self.captured[seat])
            if self.totals[seat] > self.baselines[seat]:
                self.phase = "decide"
                return
        self.next_turn()

    def next_turn(self) -> None:
        if not self.hands[0] and not self.hands[1]:  # R7.5
            self.end("nagare", -1, 0)
            return
        self.turn = 1 - self.turn
        self.phase = "play"

    def decide(self, koikoi: bool) -> None:
        seat = self.turn
        if koikoi:  # R7.1, R7.2
            self.koikoi_count += 1
            self.baselines[seat] = self.totals[seat]
            self.next_turn()
        else:  # R7.4
            self.end("win", seat, self.round_points(self.totals[seat]))
