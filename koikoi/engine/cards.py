"""The 48 hanafuda cards (花札), their months and kinds, and sets of cards as bit sets.

A card is an int from 0 to 47: ``month * 4 + k`` with months counted from 0 (matsu) to 11
(kiri), in the order of RULES.md R1.1. A set of cards is one int with bit ``card`` set for
each card in it, as python-chess does with squares, so "captured lights" is
``captured & LIGHTS`` and a count is ``.bit_count()``.

>>> card_id(MATSU_CRANE)
'matsu_crane'
>>> parse_card("kiku_sake_cup") == KIKU_SAKE_CUP
True
>>> month_of(parse_card("yanagi_lightning"))
10
>>> [card_id(c) for c in iter_cards(LIGHTS)]
['matsu_crane', 'sakura_curtain', 'susuki_moon', 'yanagi_rainman', 'kiri_phoenix']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from functools import reduce
from importlib.machinery import EXTENSION_SUFFIXES
from operator import or_
from typing import Final

Card = int
"""A card: 0..47, ``month * 4 + k`` in the order of RULES.md R1.1."""

CardSet = int
"""A set of cards: bit ``card`` is set for each card in the set."""


class Kind(IntEnum):
    """The four kinds of card (R1.2), valued by their card points."""

    PLAIN = 1  # kasu カス
    RIBBON = 5  # tanzaku 短冊
    TANE = 10  # tane タネ (animals and objects)
    LIGHT = 20  # hikari 光

    @property
    def points(self) -> int:
        """Card points (R1.2): they rank cards when choosing the first oya, never score."""
        return int(self.value)


MONTH_NAMES: Final = (
    "matsu", "ume", "sakura", "fuji", "ayame", "botan",
    "hagi", "susuki", "kiku", "momiji", "yanagi", "kiri",
)  # fmt: skip

_L, _T, _R, _P = Kind.LIGHT, Kind.TANE, Kind.RIBBON, Kind.PLAIN
_DECK: Final[tuple[tuple[str, Kind], ...]] = (
    ("matsu_crane", _L), ("matsu_ribbon", _R), ("matsu_plain_1", _P), ("matsu_plain_2", _P),
    ("ume_warbler", _T), ("ume_ribbon", _R), ("ume_plain_1", _P), ("ume_plain_2", _P),
    ("sakura_curtain", _L), ("sakura_ribbon", _R), ("sakura_plain_1", _P), ("sakura_plain_2", _P),
    ("fuji_cuckoo", _T), ("fuji_ribbon", _R), ("fuji_plain_1", _P), ("fuji_plain_2", _P),
    ("ayame_bridge", _T), ("ayame_ribbon", _R), ("ayame_plain_1", _P), ("ayame_plain_2", _P),
    ("botan_butterfly", _T), ("botan_ribbon", _R), ("botan_plain_1", _P), ("botan_plain_2", _P),
    ("hagi_boar", _T), ("hagi_ribbon", _R), ("hagi_plain_1", _P), ("hagi_plain_2", _P),
    ("susuki_moon", _L), ("susuki_geese", _T), ("susuki_plain_1", _P), ("susuki_plain_2", _P),
    ("kiku_sake_cup", _T), ("kiku_ribbon", _R), ("kiku_plain_1", _P), ("kiku_plain_2", _P),
    ("momiji_deer", _T), ("momiji_ribbon", _R), ("momiji_plain_1", _P), ("momiji_plain_2", _P),
    ("yanagi_rainman", _L), ("yanagi_swallow", _T), ("yanagi_ribbon", _R),
    ("yanagi_lightning", _P),
    ("kiri_phoenix", _L), ("kiri_plain_yellow", _P), ("kiri_plain_1", _P), ("kiri_plain_2", _P),
)  # fmt: skip

NUM_CARDS: Final = 48
CARD_IDS: Final[tuple[str, ...]] = tuple(name for name, _ in _DECK)
"""The 48 card ids of R1.1, in card order."""
CARD_KINDS: Final[tuple[Kind, ...]] = tuple(kind for _, kind in _DECK)
_BY_ID: Final[dict[str, Card]] = {name: i for i, name in enumerate(CARD_IDS)}

ALL_CARDS: Final[CardSet] = (1 << NUM_CARDS) - 1
MONTH_MASKS: Final[tuple[CardSet, ...]] = tuple(0xF << (4 * m) for m in range(12))
"""``MONTH_MASKS[m]``: the four cards of month m (0 = matsu)."""
CARD_MONTH_MASK: Final[tuple[CardSet, ...]] = tuple(MONTH_MASKS[c >> 2] for c in range(48))
"""``CARD_MONTH_MASK[card]``: the four cards of that card's month (fast lookup)."""


MONTH_LOW_BITS: Final[CardSet] = sum(1 << (4 * m) for m in range(12))
"""The first card of each month: ``set & (set >> 1) & (set >> 2) & (set >> 3) & MONTH_LOW_BITS``
has a bit for each month all four of whose cards are in the set."""


def full_months(cards: CardSet) -> CardSet:
    """One bit (the month's first card) for each month whose four cards are all in ``cards``."""
    return cards & (cards >> 1) & (cards >> 2) & (cards >> 3) & MONTH_LOW_BITS


def months_present(cards: CardSet) -> CardSet:
    """One bit (the month's first card) for each month with a card in ``cards``."""
    return (cards | (cards >> 1) | (cards >> 2) | (cards >> 3)) & MONTH_LOW_BITS


COMPILED: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))
"""This module runs compiled (koikoi/engine/compiled.py), not from its source."""


def popcount(cards: CardSet) -> int:
    """How many cards a set holds: ``cards.bit_count()``.

    Compiled, ``int.bit_count`` is a method looked up by name, on a number boxed for it, at
    every call; so the compiled engine counts in shifts and masks, which are machine
    instructions there. From source the shifts would be five times slower than
    ``bit_count``, so the source engine keeps it.

    >>> popcount(0), popcount(ALL_CARDS), popcount(0b1011)
    (0, 48, 3)
    """
    if not COMPILED:
        return cards.bit_count()
    x = cards - (cards >> 1 & 0x555555555555)
    x = (x & 0x333333333333) + (x >> 2 & 0x333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    return (x + (x >> 32)) & 0x3F


def _mask(kind: Kind) -> CardSet:
    return sum(1 << i for i, k in enumerate(CARD_KINDS) if k is kind)


LIGHTS: Final = _mask(Kind.LIGHT)
TANE: Final = _mask(Kind.TANE)
RIBBONS: Final = _mask(Kind.RIBBON)
PLAINS: Final = _mask(Kind.PLAIN)

MATSU_CRANE: Final = _BY_ID["matsu_crane"]
SAKURA_CURTAIN: Final = _BY_ID["sakura_curtain"]
SUSUKI_MOON: Final = _BY_ID["susuki_moon"]
YANAGI_RAINMAN: Final = _BY_ID["yanagi_rainman"]
KIRI_PHOENIX: Final = _BY_ID["kiri_phoenix"]
KIKU_SAKE_CUP: Final = _BY_ID["kiku_sake_cup"]
HAGI_BOAR: Final = _BY_ID["hagi_boar"]
MOMIJI_DEER: Final = _BY_ID["momiji_deer"]
BOTAN_BUTTERFLY: Final = _BY_ID["botan_butterfly"]

AKATAN: Final = sum(1 << _BY_ID[f"{m}_ribbon"] for m in ("matsu", "ume", "sakura"))
"""The three red poem ribbons (赤短)."""
AOTAN: Final = sum(1 << _BY_ID[f"{m}_ribbon"] for m in ("botan", "kiku", "momiji"))
"""The three blue ribbons (青短)."""
INOSHIKACHO: Final = (1 << HAGI_BOAR) | (1 << MOMIJI_DEER) | (1 << BOTAN_BUTTERFLY)
"""Boar, deer and butterflies (猪鹿蝶)."""


class UnknownCardError(ValueError):
    """A card id that is not one of the 48 of R1.1."""


def card_id(card: Card) -> str:
    """The card's id, e.g. ``'matsu_crane'``."""
    return CARD_IDS[card]


def parse_card(name: object) -> Card:
    """The card with this id; raises :class:`UnknownCardError` for anything else (a record's
    card may be any JSON value: typed ``object``, so compiled code takes it too)."""
    card = _BY_ID.get(name) if isinstance(name, str) else None
    if card is None:
        raise UnknownCardError(f"unknown card id {name!r}")
    return card


def month_of(card: Card) -> int:
    """The card's month, 0 (matsu, January) to 11 (kiri, December)."""
    return card >> 2


def kind_of(card: Card) -> Kind:
    return CARD_KINDS[card]


def bit(card: Card) -> CardSet:
    return 1 << card


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


_CHUNK: Final = 12
_CHUNK_MASK: Final = (1 << _CHUNK) - 1
CARD_TUPLES_BY_CHUNK: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(tuple(base + i for i in range(_CHUNK) if bits >> i & 1) for bits in range(1 << _CHUNK))
    for base in range(0, NUM_CARDS, _CHUNK)
)
"""For each 12-card chunk of the deck, the cards of every subset of it, by its bits."""


def card_tuple(cards: CardSet) -> tuple[Card, ...]:
    """The cards of a set, lowest first, as a tuple: four table look-ups, no loop.

    Legal moves are listed this way in every playout, so it is the hottest path of search.
    """
    t0, t1, t2, t3 = CARD_TUPLES_BY_CHUNK
    return (
        t0[cards & _CHUNK_MASK]
        + t1[cards >> 12 & _CHUNK_MASK]
        + t2[cards >> 24 & _CHUNK_MASK]
        + t3[cards >> 36 & _CHUNK_MASK]
    )


def card_list(cards: CardSet) -> list[Card]:
    return list(card_tuple(cards))


_BITS: Final = tuple(1 << c for c in range(NUM_CARDS))


def to_set(cards: Iterable[Card]) -> CardSet:
    """The set of the given cards (a repeated card counts once)."""
    return reduce(or_, map(_BITS.__getitem__, cards), 0)


def ids(cards: CardSet) -> list[str]:
    """The ids of a set's cards in card order."""
    return [CARD_IDS[c] for c in iter_cards(cards)]
