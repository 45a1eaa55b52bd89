"""Yaku (役) and round points: RULES.md R6, R8 and R9.

>>> from koikoi.engine.cards import parse_card, to_set
>>> pile = to_set(parse_card(c) for c in ["sakura_curtain", "susuki_moon", "kiku_sake_cup"])
>>> [(y.value, p) for y, p in yaku_of(pile)]
[('hanami', 5), ('tsukimi', 5)]
>>> score(pile, koikoi=1).points  # R9.5: 10 -> x2 (8 or more) -> x2 (one koikoi)
40
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from koikoi.engine.cards import (
    AKATAN,
    AOTAN,
    INOSHIKACHO,
    KIKU_SAKE_CUP,
    LIGHTS,
    MONTH_MASKS,
    PLAINS,
    RIBBONS,
    SAKURA_CURTAIN,
    SUSUKI_MOON,
    TANE,
    YANAGI_RAINMAN,
    CardSet,
    full_months,
    iter_cards,
    months_present,
    parse_card,
    popcount,
    to_set,
)


class Yaku(Enum):
    """Every yaku, in the order of the R6 table, then the teyaku (手役) of R8."""

    GOKO = "goko"  # 五光
    SHIKO = "shiko"  # 四光
    AME_SHIKO = "ame_shiko"  # 雨四光
    SANKO = "sanko"  # 三光
    HANAMI = "hanami"  # 花見で一杯
    TSUKIMI = "tsukimi"  # 月見で一杯
    INOSHIKACHO = "inoshikacho"  # 猪鹿蝶
    AKATAN = "akatan"  # 赤短
    AOTAN = "aotan"  # 青短
    AKATAN_AOTAN = "akatan_aotan"  # 赤短・青短の重複
    TANE = "tane"  # タネ
    TAN = "tan"  # タン
    KASU = "kasu"  # カス
    TESHI = "teshi"  # 手四
    KUTTSUKI = "kuttsuki"  # くっつき


YakuList = list[tuple[Yaku, int]]

TEYAKU_POINTS: Final = 6
DOUBLING_THRESHOLD: Final = 8

_RAIN: Final = 1 << YANAGI_RAINMAN
_CUP: Final = 1 << KIKU_SAKE_CUP
_CURTAIN: Final = 1 << SAKURA_CURTAIN
_MOON: Final = 1 << SUSUKI_MOON
_BOTH_TAN: Final = AKATAN | AOTAN


def base_points(cards: CardSet) -> int:
    """The sum of the yaku in a pile (R9.1), without building the list.

    The end-of-turn check runs this after every capture, so it stays branch-light;
    :func:`yaku_of` gives the same total itemised (a property test holds them together).
    """
    points = 0
    # Three of a kind or more (the set less its two lowest cards is not empty) before
    # counting: most piles hold fewer, and a count is the dearer step.
    x = cards & LIGHTS
    x &= x - 1
    if x & (x - 1):
        n = popcount(cards & LIGHTS)
        if n == 5:
            points = 10
        elif n == 4:
            points = 7 if cards & _RAIN else 8
        elif not cards & _RAIN:
            points = 5
    if cards & _CUP:
        if cards & _CURTAIN:
            points += 5
        if cards & _MOON:
            points += 5
    x = cards & TANE
    x &= x - 1
    if x & (x - 1):
        t = popcount(cards & TANE)
        if cards & INOSHIKACHO == INOSHIKACHO:
            points += t + 2  # 5, +1 per other tane
        if t >= 5:
            points += t - 4
    x = cards & RIBBONS
    x &= x - 1
    if x & (x - 1):
        r = popcount(cards & RIBBONS)
        both = cards & _BOTH_TAN
        if both == _BOTH_TAN:
            points += r + 4  # 10, +1 per other ribbon
        elif both & AKATAN == AKATAN or both & AOTAN == AOTAN:
            points += r + 2  # 5, +1 per other ribbon
        if r >= 5:
            points += r - 4
    k = popcount(cards & PLAINS)
    if k >= 10:
        points += k - 9
    return points


def yaku_of(cards: CardSet) -> YakuList:
    """The yaku a pile holds with their points, in R6 order (R6.1, R6.2)."""
    result: YakuList = []
    n = popcount(cards & LIGHTS)
    rain = bool(cards & _RAIN)
    if n == 5:
        result.append((Yaku.GOKO, 10))
    elif n == 4:
        result.append((Yaku.AME_SHIKO, 7) if rain else (Yaku.SHIKO, 8))
    elif n == 3 and not rain:
        result.append((Yaku.SANKO, 5))
    if cards & _CUP and cards & _CURTAIN:
        result.append((Yaku.HANAMI, 5))
    if cards & _CUP and cards & _MOON:
        result.append((Yaku.TSUKIMI, 5))
    t = popcount(cards & TANE)
    if cards & INOSHIKACHO == INOSHIKACHO:
        result.append((Yaku.INOSHIKACHO, 5 + t - 3))
    r = popcount(cards & RIBBONS)
    akatan = cards & AKATAN == AKATAN
    aotan = cards & AOTAN == AOTAN
    if akatan and aotan:
        result.append((Yaku.AKATAN_AOTAN, 10 + r - 6))
    elif akatan:
        result.append((Yaku.AKATAN, 5 + r - 3))
    elif aotan:
        result.append((Yaku.AOTAN, 5 + r - 3))
    if t >= 5:
        result.append((Yaku.TANE, t - 4))
    if r >= 5:
        result.append((Yaku.TAN, r - 4))
    k = popcount(cards & PLAINS)
    if k >= 10:
        result.append((Yaku.KASU, k - 9))
    return result


def teyaku_of(hand: CardSet) -> Yaku | None:
    """The teyaku of a dealt hand of 8 (R8.1): teshi beats kuttsuki; at most one."""
    months = popcount(months_present(hand))
    if months > 5:  # the usual case: teshi needs at most 5 months, kuttsuki exactly 4
        return None
    if full_months(hand):
        return Yaku.TESHI
    if months == 4 and all((hand & m).bit_count() in (0, 2) for m in MONTH_MASKS):
        return Yaku.KUTTSUKI
    return None


@dataclass(frozen=True, slots=True)
class Score:
    """What a round is worth to its winner before the stake cap (R9)."""

    yaku: tuple[tuple[Yaku, int], ...]
    base: int
    doubled: bool
    koikoi: int
    points: int

    @property
    def multiplier(self) -> int:
        """The shared koikoi multiplier: koikoi calls by both players + 1 (R9.3)."""
        return self.koikoi + 1

    def to_json(self) -> dict[str, object]:
        """The ``koikoi score`` JSON of CLI.md."""
        return {
            "yaku": [{"id": y.value, "points": p} for y, p in self.yaku],
            "base": self.base,
            "doubled": self.doubled,
            "koikoi": self.koikoi,
            "multiplier": self.multiplier,
            "points": self.points,
        }


def round_points(base: int, koikoi: int, doubling: bool) -> tuple[bool, int]:
    """(doubled, points) for a base: ×2 at 8 or more when doubling is on, × (koikoi + 1)."""
    doubled = doubling and base >= DOUBLING_THRESHOLD
    return doubled, base * (2 if doubled else 1) * (koikoi + 1)


def score_yaku(yaku: YakuList, koikoi: int = 0, doubling: bool = True) -> Score:
    base = sum(p for _, p in yaku)
    doubled, points = round_points(base, koikoi, doubling)
    return Score(tuple(yaku), base, doubled, koikoi, points)


def score(cards: CardSet, koikoi: int = 0, doubling: bool = True) -> Score:
    """Score a pile as the winner's captures of a round (the ``koikoi score`` command)."""
    return score_yaku(yaku_of(cards), koikoi, doubling)


@dataclass(frozen=True, slots=True)
class YakuRule:
    """What makes a yaku and what it is worth (R6, R8), as the rules window states it.

    A pile makes a yaku of R6 when it holds every card of ``needed`` and at least ``more`` of
    ``pool``, and no yaku it also makes ``replaces`` it (R6.1: only the highest light yaku
    counts; both ribbon sets replace each alone). It then scores ``points``, and a ``per_card``
    ("~") yaku one more for each card of ``bonus`` and each card of ``pool`` beyond ``more``.
    A teyaku (R8.1) is a matter of months, not of cards: ``example`` is a dealt hand that
    holds it (the seed's: the four cherry cards for teshi). :data:`YAKU_RULES` holds one for
    each :class:`Yaku`; the tests hold them to :func:`yaku_of` and :func:`teyaku_of`.
    """

    points: int
    """The fewest points the yaku scores (R6's points column, without its "~")."""
    needed: CardSet = 0
    pool: CardSet = 0
    more: int = 0
    """How many cards of ``pool`` it takes at least."""
    bonus: CardSet = 0
    per_card: bool = False
    """R6's "~": one more point for each extra card (each of ``bonus``, each of ``pool``
    beyond ``more``)."""
    replaces: frozenset[Yaku] = frozenset()
    """The yaku this one replaces when a pile makes both."""
    example: CardSet = 0
    """A teyaku's example hand; 0 for the yaku of R6."""

    @property
    def teyaku(self) -> bool:
        return bool(self.example)

    @property
    def cards(self) -> CardSet:
        """Every card that counts for the yaku (for a teyaku: its example hand)."""
        return self.needed | self.pool | self.bonus | self.example

    def fewest(self) -> CardSet:
        """The fewest cards that make it: all needed, then the first ``more`` of the pool (a
        teyaku: its example hand)."""
        if self.example:
            return self.example
        pile = self.needed
        for card in list(iter_cards(self.pool))[: self.more]:
            pile |= 1 << card
        return pile


_DRY_LIGHTS: Final = LIGHTS & ~_RAIN
_LIGHT_YAKU: Final = (Yaku.GOKO, Yaku.SHIKO, Yaku.AME_SHIKO, Yaku.SANKO)

YAKU_RULES: Final[dict[Yaku, YakuRule]] = {
    Yaku.GOKO: YakuRule(10, LIGHTS, replaces=frozenset(_LIGHT_YAKU[1:])),
    Yaku.SHIKO: YakuRule(8, _DRY_LIGHTS, replaces=frozenset(_LIGHT_YAKU[3:])),
    Yaku.AME_SHIKO: YakuRule(7, _RAIN, _DRY_LIGHTS, 3, replaces=frozenset(_LIGHT_YAKU[3:])),
    Yaku.SANKO: YakuRule(5, 0, _DRY_LIGHTS, 3),  # rain man + 2 lights is nothing
    Yaku.HANAMI: YakuRule(5, _CURTAIN | _CUP),
    Yaku.TSUKIMI: YakuRule(5, _MOON | _CUP),
    Yaku.INOSHIKACHO: YakuRule(5, INOSHIKACHO, bonus=TANE & ~INOSHIKACHO, per_card=True),
    Yaku.AKATAN: YakuRule(5, AKATAN, bonus=RIBBONS & ~AKATAN, per_card=True),
    Yaku.AOTAN: YakuRule(5, AOTAN, bonus=RIBBONS & ~AOTAN, per_card=True),
    Yaku.AKATAN_AOTAN: YakuRule(
        10,
        _BOTH_TAN,
        bonus=RIBBONS & ~_BOTH_TAN,
        per_card=True,
        replaces=frozenset({Yaku.AKATAN, Yaku.AOTAN}),
    ),
    Yaku.TANE: YakuRule(1, 0, TANE, 5, per_card=True),
    Yaku.TAN: YakuRule(1, 0, RIBBONS, 5, per_card=True),
    Yaku.KASU: YakuRule(1, 0, PLAINS, 10, per_card=True),
    Yaku.TESHI: YakuRule(
        TEYAKU_POINTS, replaces=frozenset({Yaku.KUTTSUKI}), example=MONTH_MASKS[2]
    ),
    Yaku.KUTTSUKI: YakuRule(
        TEYAKU_POINTS,
        example=to_set(  # four pairs of months: pine, plum, wisteria, chrysanthemum
            parse_card(card)
            for card in (
                "matsu_crane",
                "matsu_plain_1",
                "ume_warbler",
                "ume_plain_1",
                "fuji_cuckoo",
                "fuji_plain_1",
                "kiku_sake_cup",
                "kiku_plain_1",
            )
        ),
    ),
}
"""The rule of every yaku, in :class:`Yaku` order."""


def yaku_cards(cards: CardSet) -> list[tuple[Yaku, CardSet, CardSet]]:
    """For each yaku of a pile (as :func:`yaku_of` lists them): the cards that make it, and
    among those the cards it is named for (R6), by the yaku's rule (:data:`YAKU_RULES`).

    The cards that make a yaku are those its points count (of its rule's ``cards``): every
    light of a light yaku, the two cards of hanami and tsukimi, and for the "~" yaku the named
    cards plus each extra card that adds a point. The named cards (all but the rule's
    ``bonus``) are the boar, deer and butterflies of inoshikacho, the three ribbons of akatan
    or aotan (six for both), the two of hanami and tsukimi; for the others (counted yaku)
    every card that counts is named.

    >>> from koikoi.engine.cards import ids, parse_card, to_set
    >>> pile = to_set(parse_card(c) for c in [
    ...     "hagi_boar", "momiji_deer", "botan_butterfly", "ume_warbler",
    ...     "matsu_ribbon", "ume_ribbon", "sakura_ribbon", "kiri_plain_1"])
    >>> [(y.value, ids(made), ids(named)) for y, made, named in yaku_cards(pile)][0]
    ('inoshikacho', ['ume_warbler', 'botan_butterfly', 'hagi_boar', 'momiji_deer'], \
['botan_butterfly', 'hagi_boar', 'momiji_deer'])
    >>> [(y.value, ids(named)) for y, made, named in yaku_cards(pile)][1]
    ('akatan', ['matsu_ribbon', 'ume_ribbon', 'sakura_ribbon'])
    >>> yaku_cards(to_set([parse_card("yanagi_rainman"), parse_card("matsu_crane")]))
    []
    """
    out: list[tuple[Yaku, CardSet, CardSet]] = []
    for yaku, _ in yaku_of(cards):
        rule = YAKU_RULES[yaku]
        made = cards & rule.cards
        out.append((yaku, made, made & ~rule.bonus))
    return out
