"""Deck orders from a seed, reproducible by any implementation (docs/deck.md).

Peers that share a seed must get the same deck without trusting each other's shuffle, and
``random.shuffle`` is not promised stable across Python versions, so the shuffle is
specified here byte for byte: Fisher–Yates driven by SHAKE-256 with rejection sampling.

>>> order = deck_from_seed(bytes(32), 1, 0)
>>> len(order), len(set(order))
(48, 48)
>>> deck_from_seed(bytes(32), 1, 0) == order != deck_from_seed(bytes(32), 1, 1)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

from koikoi.engine.cards import ALL_CARDS, NUM_CARDS, Card, CardSet
from koikoi.engine.value import Value

DOMAIN: Final = b"koikoi/deck/v1"


def _stream(seed: bytes, round_no: int, deal_no: int) -> bytes:
    if not 0 <= round_no < 1 << 16 or not 0 <= deal_no < 1 << 16:
        raise ValueError("round_no and deal_no must be in 0..65535")
    if len(seed) > 255:
        raise ValueError("seed must be at most 255 bytes")
    return (
        DOMAIN
        + bytes([len(seed)])
        + seed
        + round_no.to_bytes(2, "big")
        + deal_no.to_bytes(2, "big")
    )


def deck_from_seed(seed: bytes, round_no: int, deal_no: int) -> list[Card]:
    """The deck order (48 cards, index 0 dealt first) for one deal of a match.

    ``round_no`` counts rounds from 1; ``deal_no`` counts the deals of that round from 0
    (a redeal is the next deal of the same round).
    """
    message = _stream(seed, round_no, deal_no)
    size = 128
    stream = hashlib.shake_256(message).digest(size)
    pos = 0
    deck = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        n = i + 1
        limit = 256 - 256 % n  # bytes at or above this would bias j
        while True:
            if pos == size:
                size *= 2  # SHAKE output is a stream: a longer digest extends the shorter one
                stream = hashlib.shake_256(message).digest(size)
            b = stream[pos]
            pos += 1
            if b < limit:
                break
        j = b % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_DEAL_FIELDS: Final = ("hands", "field", "stock")


class Deal(Value):
    """One deal (R4.1): two hands of 8, a field of 8 and a stock of 24 (index 0 drawn first).

    A :class:`~koikoi.engine.value.Value` (it was a named tuple, whose ``__new__`` runs
    interpreted: a fifth of laying out a deal, compiled).
    """

    __slots__ = _DEAL_FIELDS

    def __init__(
        self, hands: tuple[CardSet, CardSet], field: CardSet, stock: tuple[Card, ...]
    ) -> None:
        self.hands: Final = hands
        self.field: Final = field
        self.stock: Final = stock

    def names(self) -> tuple[str, ...]:
        return _DEAL_FIELDS


def deal_from_order(order: Sequence[Card], oya: int) -> Deal:
    """Lay out a deck order: 8 to the oya's hand, 8 to the other's, 8 to the field, 24 stock."""
    # 48 powers of two add up to 48 one-bits only if no two are equal, so one sum both
    # checks the order and, per part, gives each part's set.
    try:
        cards = tuple(order)
        if len(cards) != NUM_CARDS:
            raise ValueError("a deck order must hold each of the 48 cards once")
        first = _set_of(cards, 0, 8)
        second = _set_of(cards, 8, 16)
        field = _set_of(cards, 16, 24)
        rest = _set_of(cards, 24, NUM_CARDS)
    except TypeError:
        raise ValueError("a deck order holds only cards 0..47") from None
    if first + second + field + rest != ALL_CARDS:
        raise ValueError("a deck order must hold each of the 48 cards once")
    hands = (first, second) if oya == 0 else (second, first)
    return Deal(hands, field, cards[24:])


def _set_of(cards: tuple[Card, ...], start: int, stop: int) -> CardSet:
    """The sum of the cards' bits from ``start`` to ``stop`` (no card outside 0..47)."""
    total = 0
    for i in range(start, stop):  # compiled, indexing makes no slice
        card = cards[i]
        if not 0 <= card < NUM_CARDS:
            raise ValueError("a deck order holds only cards 0..47")
        total += 1 << card
    return total
