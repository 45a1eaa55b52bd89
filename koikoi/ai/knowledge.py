"""What a good player knows about a position: captures, yaku in reach, and card counting.

Everything here works from what one seat may see (its hand, the field, both capture piles
and the unseen cards), in the units of the game: round points. The players of this package
build on it; none of it looks at hidden cards.
"""

from __future__ import annotations

from math import comb
from typing import Final

from koikoi.engine.cards import (
    AKATAN,
    AOTAN,
    CARD_KINDS,
    CARD_MONTH_MASK,
    INOSHIKACHO,
    KIKU_SAKE_CUP,
    LIGHTS,
    NUM_CARDS,
    PLAINS,
    RIBBONS,
    SAKURA_CURTAIN,
    SUSUKI_MOON,
    TANE,
    YANAGI_RAINMAN,
    Card,
    CardSet,
    card_tuple,
)
from koikoi.engine.yaku import base_points, round_points

CUP: Final = 1 << KIKU_SAKE_CUP
CURTAIN: Final = 1 << SAKURA_CURTAIN
MOON: Final = 1 << SUSUKI_MOON
RAIN: Final = 1 << YANAGI_RAINMAN

CARD_POINTS: Final[tuple[int, ...]] = tuple(k.points for k in CARD_KINDS)
"""R1.2 card points (20/10/5/1): the beginner's sense of what a card is worth."""


def _static_value(card: Card) -> float:
    bit = 1 << card
    if bit & CUP:
        return 7.0
    if bit & RAIN:
        return 4.0
    if bit & LIGHTS:
        return 6.0
    if bit & INOSHIKACHO:
        return 5.0
    if bit & (AKATAN | AOTAN):
        return 4.0
    if bit & TANE:
        return 3.0
    if bit & RIBBONS:
        return 2.0
    return 1.0


STATIC_VALUE: Final[tuple[float, ...]] = tuple(_static_value(c) for c in range(NUM_CARDS))
"""A card's worth with no context: how often it helps a yaku, and how much."""


def captures(card: Card, field: CardSet) -> CardSet:
    """The field cards ``card`` would meet (R5.2): 0, 1, 2 (a pick is due) or 3 cards."""
    return field & CARD_MONTH_MASK[card]


# -- yaku in reach ---------------------------------------------------------------------------

_LIGHT_STEP: Final = (0.0, 0.9, 2.4, 1.6, 1.2, 0.0)
_SET_STEP: Final = (0.0, 0.7, 2.2, 0.0)
_COUNT_SETS: Final = ((INOSHIKACHO, 5), (AKATAN, 5), (AOTAN, 5))


def progress(pile: CardSet, dead: CardSet) -> float:
    """How far ``pile`` is along yaku it can still make, in round points beyond what it has.

    ``dead`` holds the cards the other player has captured: a yaku that needs one of them is
    out of reach and worth nothing here.
    """
    p = 0.0
    lights = pile & LIGHTS
    n = lights.bit_count()
    if n < 5:
        open_lights = LIGHTS & ~dead & ~pile
        if n + open_lights.bit_count() >= 3:
            if n == 2 and lights & RAIN and (open_lights & ~RAIN).bit_count() < 2:
                p += 0.4  # rain and one light: sanko is out, only shiko is left
            else:
                p += _LIGHT_STEP[n]
    if not dead & CUP:
        if pile & CUP:
            for partner in (CURTAIN, MOON):
                if not (pile | dead) & partner:
                    p += 2.0
        else:
            for partner in (CURTAIN, MOON):
                if pile & partner:
                    p += 1.4
    for cards, _ in _COUNT_SETS:
        if not dead & cards:
            p += _SET_STEP[(pile & cards).bit_count()]
    t = (pile & TANE).bit_count()
    if 2 <= t < 5 and (TANE & ~dead).bit_count() >= 5:
        p += (t - 1) * 0.3
    r = (pile & RIBBONS).bit_count()
    if 2 <= r < 5 and (RIBBONS & ~dead).bit_count() >= 5:
        p += (r - 1) * 0.3
    k = (pile & PLAINS).bit_count()
    if 5 <= k < 10 and (PLAINS & ~dead).bit_count() >= 10:
        p += (k - 4) * 0.2
    return p


def worth(pile: CardSet, dead: CardSet) -> float:
    """A pile's yaku points plus its progress toward more (see :func:`progress`)."""
    return base_points(pile) + progress(pile, dead)


def card_gains(pile: CardSet, dead: CardSet, cards: CardSet) -> list[float]:
    """For each card of ``cards`` (others 0): how much adding it alone would raise
    :func:`worth`. Sums of these approximate the worth of a capture."""
    gains = [0.0] * NUM_CARDS
    before = worth(pile, dead)
    for c in card_tuple(cards):
        gains[c] = worth(pile | 1 << c, dead) - before
    return gains


def rising_cards(pile: CardSet, baseline: int, cards: CardSet) -> CardSet:
    """The cards of ``cards`` each of which alone would lift ``pile``'s total above
    ``baseline``: the yaku one card away."""
    out = 0
    for c in card_tuple(cards):
        if base_points(pile | 1 << c) > baseline:
            out |= 1 << c
    return out


# -- card counting ---------------------------------------------------------------------------


def hold_probability(matching: int, unseen: int, hand: int) -> float:
    """P(a hand of ``hand`` cards drawn from ``unseen`` holds at least one of ``matching``)."""
    if matching <= 0 or hand <= 0:
        return 0.0
    if unseen - matching < hand:
        return 1.0
    return 1.0 - comb(unseen - matching, hand) / comb(unseen, hand)


def win_points(base: int, koikoi_count: int, doubling: bool) -> int:
    """Round points for a shobu on ``base`` (R9)."""
    return round_points(base, koikoi_count, doubling)[1]
