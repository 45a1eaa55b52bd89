"""Yaku, teyaku and round points (RULES.md R6, R8.1, R9) against slow references written
here from the rules page, plus the page's worked examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine.cards import ALL_CARDS, CARD_IDS, parse_card, to_set
from koikoi.engine.yaku import (
    Score,
    Yaku,
    base_points,
    round_points,
    score,
    score_yaku,
    teyaku_of,
    yaku_of,
)

# -- the rules page, restated as plain sets of ids --------------------------------------------

LIGHT_IDS = {"matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix"}
TANE_IDS = {
    "ume_warbler", "fuji_cuckoo", "ayame_bridge", "botan_butterfly", "hagi_boar",
    "susuki_geese", "kiku_sake_cup", "momiji_deer", "yanagi_swallow",
}  # fmt: skip
RIBBON_IDS = {f"{m}_ribbon" for m in (
    "matsu", "ume", "sakura", "fuji", "ayame", "botan", "hagi", "kiku", "momiji", "yanagi"
)}  # fmt: skip
PLAIN_IDS = set(CARD_IDS) - LIGHT_IDS - TANE_IDS - RIBBON_IDS
AKATAN_IDS = {"matsu_ribbon", "ume_ribbon", "sakura_ribbon"}
AOTAN_IDS = {"botan_ribbon", "kiku_ribbon", "momiji_ribbon"}
ISC_IDS = {"hagi_boar", "momiji_deer", "botan_butterfly"}
R6_ORDER = [
    "goko", "shiko", "ame_shiko", "sanko", "hanami", "tsukimi", "inoshikacho",
    "akatan", "aotan", "akatan_aotan", "tane", "tan", "kasu",
]  # fmt: skip


def ref_yaku(pile: set[str]) -> list[tuple[str, int]]:
    """R6 read line by line, on sets of ids."""
    out: list[tuple[str, int]] = []
    lights = len(pile & LIGHT_IDS)
    rain = "yanagi_rainman" in pile
    if lights == 5:
        out.append(("goko", 10))
    elif lights == 4:
        out.append(("ame_shiko", 7) if rain else ("shiko", 8))
    elif lights == 3 and not rain:
        out.append(("sanko", 5))
    if {"sakura_curtain", "kiku_sake_cup"} <= pile:
        out.append(("hanami", 5))
    if {"susuki_moon", "kiku_sake_cup"} <= pile:
        out.append(("tsukimi", 5))
    tane = len(pile & TANE_IDS)
    ribbons = len(pile & RIBBON_IDS)
    plains = len(pile & PLAIN_IDS)
    if pile >= ISC_IDS:
        out.append(("inoshikacho", 5 + (tane - 3)))
    if pile >= AKATAN_IDS | AOTAN_IDS:
        out.append(("akatan_aotan", 10 + (ribbons - 6)))
    elif pile >= AKATAN_IDS:
        out.append(("akatan", 5 + (ribbons - 3)))
    elif pile >= AOTAN_IDS:
        out.append(("aotan", 5 + (ribbons - 3)))
    if tane >= 5:
        out.append(("tane", 1 + (tane - 5)))
    if ribbons >= 5:
        out.append(("tan", 1 + (ribbons - 5)))
    if plains >= 10:
        out.append(("kasu", 1 + (plains - 10)))
    return out


def ref_teyaku(hand: list[int]) -> str | None:
    """R8.1 on month counts: any four is teshi; otherwise four pairs is kuttsuki."""
    counts = [sum(1 for c in hand if c // 4 == m) for m in range(12)]
    if 4 in counts:
        return "teshi"
    if all(n in (0, 2) for n in counts):
        return "kuttsuki"
    return None


def pile(*names: str) -> int:
    return to_set(parse_card(n) for n in names)


def names_of(cards: int) -> set[str]:
    return {CARD_IDS[c] for c in range(48) if cards >> c & 1}


def yk(cards: int) -> list[tuple[str, int]]:
    return [(y.value, p) for y, p in yaku_of(cards)]


LIGHTS5 = ["matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix"]
OTHER_TANE = ["ume_warbler", "fuji_cuckoo", "ayame_bridge", "susuki_geese", "yanagi_swallow"]
PLAIN_RIBBONS = ["fuji_ribbon", "ayame_ribbon", "hagi_ribbon", "yanagi_ribbon"]
ORDINARY_PLAINS = sorted(PLAIN_IDS - {"yanagi_lightning", "kiri_plain_yellow"})

# -- thresholds and extras ----------------------------------------------------------------------

CASES: list[tuple[str, list[str], list[tuple[str, int]]]] = [
    ("R6 goko", LIGHTS5, [("goko", 10)]),
    ("R6 shiko", ["matsu_crane", "sakura_curtain", "susuki_moon", "kiri_phoenix"], [("shiko", 8)]),
    ("R6 ame_shiko", ["matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman"],
     [("ame_shiko", 7)]),
    ("R6 sanko", ["matsu_crane", "susuki_moon", "kiri_phoenix"], [("sanko", 5)]),
    ("R6 rain and two lights", ["yanagi_rainman", "matsu_crane", "kiri_phoenix"], []),
    ("R6 two lights", ["matsu_crane", "kiri_phoenix"], []),
    ("R6 hanami", ["sakura_curtain", "kiku_sake_cup"], [("hanami", 5)]),
    ("R6 tsukimi", ["susuki_moon", "kiku_sake_cup"], [("tsukimi", 5)]),
    ("R6 cup alone", ["kiku_sake_cup"], []),
    ("R6 inoshikacho", sorted(ISC_IDS), [("inoshikacho", 5)]),
    ("R6 inoshikacho +1", sorted(ISC_IDS) + OTHER_TANE[:1], [("inoshikacho", 6)]),
    ("R6.3 inoshikacho +2", sorted(ISC_IDS) + OTHER_TANE[:2], [("inoshikacho", 7), ("tane", 1)]),
    ("R6 two of inoshikacho", ["hagi_boar", "momiji_deer"], []),
    ("R6 akatan", sorted(AKATAN_IDS), [("akatan", 5)]),
    ("R6 akatan +1", sorted(AKATAN_IDS) + PLAIN_RIBBONS[:1], [("akatan", 6)]),
    ("R6.3 akatan +2", sorted(AKATAN_IDS) + PLAIN_RIBBONS[:2], [("akatan", 7), ("tan", 1)]),
    ("R6 aotan", sorted(AOTAN_IDS), [("aotan", 5)]),
    ("R6 aotan +1", sorted(AOTAN_IDS) + ["matsu_ribbon"], [("aotan", 6)]),
    ("R6 akatan_aotan replaces both", sorted(AKATAN_IDS | AOTAN_IDS),
     [("akatan_aotan", 10), ("tan", 2)]),
    ("R6.3 all six +1", sorted(AKATAN_IDS | AOTAN_IDS) + PLAIN_RIBBONS[:1],
     [("akatan_aotan", 11), ("tan", 3)]),
    ("R6 four tane", OTHER_TANE[:4], []),
    ("R6 tane", OTHER_TANE, [("tane", 1)]),
    ("R6 sake cup is tane", OTHER_TANE[:4] + ["kiku_sake_cup"], [("tane", 1)]),
    ("R6 tane +1", OTHER_TANE + ["kiku_sake_cup"], [("tane", 2)]),
    ("R6 four ribbons", PLAIN_RIBBONS, []),
    ("R6 tan", PLAIN_RIBBONS + ["matsu_ribbon"], [("tan", 1)]),
    ("R6 tan +1", PLAIN_RIBBONS + ["matsu_ribbon", "kiku_ribbon"], [("tan", 2)]),
    ("R6 nine plains", ORDINARY_PLAINS[:9], []),
    ("R6 kasu", ORDINARY_PLAINS[:10], [("kasu", 1)]),
    ("R6 kasu +1", ORDINARY_PLAINS[:11], [("kasu", 2)]),
    ("R6 all plains", sorted(PLAIN_IDS), [("kasu", 15)]),
    ("R6 lightning and kiri yellow are kasu",
     ORDINARY_PLAINS[:8] + ["yanagi_lightning", "kiri_plain_yellow"], [("kasu", 1)]),
    ("R6 sake cup is not kasu", ORDINARY_PLAINS[:9] + ["kiku_sake_cup"], []),
    ("R6.2 cup in hanami, tsukimi and tane",
     ["sakura_curtain", "susuki_moon", "kiku_sake_cup"] + OTHER_TANE[:4],
     [("hanami", 5), ("tsukimi", 5), ("tane", 1)]),
    ("R6.1 sanko with hanami and tsukimi", ["matsu_crane", "sakura_curtain", "susuki_moon",
     "kiku_sake_cup"], [("sanko", 5), ("hanami", 5), ("tsukimi", 5)]),
    ("R6.2 all tane", sorted(TANE_IDS), [("inoshikacho", 11), ("tane", 5)]),
    ("R6.2 all ribbons", sorted(RIBBON_IDS), [("akatan_aotan", 14), ("tan", 6)]),
    ("empty", [], []),
]  # fmt: skip


@pytest.mark.parametrize(("case", "cards", "expected"), CASES, ids=[c[0] for c in CASES])
def test_R6_yaku_table(case: str, cards: list[str], expected: list[tuple[str, int]]) -> None:
    p = pile(*cards)
    assert len(cards) == len(set(cards))
    assert yk(p) == expected
    assert ref_yaku(set(cards)) == expected  # the reference agrees with the table too
    assert base_points(p) == sum(points for _, points in expected)


def test_R6_1_only_highest_light_yaku() -> None:
    lights = [parse_card(n) for n in LIGHTS5]
    for k in range(6):
        for combo in itertools.combinations(lights, k):
            found = [y for y, _ in yaku_of(to_set(combo))]
            light_yaku = [y for y in found if y in (Yaku.GOKO, Yaku.SHIKO, Yaku.AME_SHIKO,
                                                     Yaku.SANKO)]  # fmt: skip
            assert len(light_yaku) <= 1


def test_R6_3_examples() -> None:
    assert base_points(pile(*sorted(ISC_IDS), *OTHER_TANE[:2])) == 8
    assert base_points(pile(*sorted(AKATAN_IDS), *PLAIN_RIBBONS[:2])) == 8
    assert base_points(pile(*sorted(AKATAN_IDS | AOTAN_IDS), PLAIN_RIBBONS[0])) == 14


def test_R6_ids_and_order() -> None:
    assert [y.value for y in Yaku][: len(R6_ORDER)] == R6_ORDER
    assert [y.value for y in Yaku][len(R6_ORDER) :] == ["teshi", "kuttsuki"]


any_pile = st.one_of(
    st.integers(min_value=0, max_value=ALL_CARDS),
    st.sets(st.integers(min_value=0, max_value=47), max_size=24).map(to_set),
    # piles made of the kinds that form yaku, to hit the thresholds often
    st.sets(st.sampled_from(sorted(LIGHT_IDS | TANE_IDS | RIBBON_IDS)), max_size=16).map(
        lambda s: pile(*s)
    ),
)


@given(any_pile)
def test_R6_yaku_of_matches_reference(cards: int) -> None:
    expected = ref_yaku(names_of(cards))
    assert yk(cards) == expected
    order = [R6_ORDER.index(name) for name, _ in expected]
    assert order == sorted(order)


@given(any_pile)
def test_R9_1_base_points_is_sum_of_yaku(cards: int) -> None:
    assert base_points(cards) == sum(p for _, p in yaku_of(cards))


@given(any_pile, st.integers(min_value=0, max_value=15), st.booleans())
def test_R9_score_matches_reference(cards: int, koikoi: int, doubling: bool) -> None:
    base = sum(p for _, p in ref_yaku(names_of(cards)))
    doubled = doubling and base >= 8
    s = score(cards, koikoi, doubling)
    assert s.base == base
    assert s.doubled == doubled
    assert s.koikoi == koikoi
    assert s.multiplier == koikoi + 1
    assert s.points == base * (2 if doubled else 1) * (koikoi + 1)
    assert round_points(base, koikoi, doubling) == (doubled, s.points)


def test_R9_2_doubling_threshold() -> None:
    assert round_points(7, 0, True) == (False, 7)
    assert round_points(8, 0, True) == (True, 16)
    assert round_points(8, 0, False) == (False, 8)
    assert round_points(0, 3, True) == (False, 0)


def test_R9_5_examples() -> None:
    # Tsukimi (koikoi), then hanami, shobu: 10 -> x2 -> x2 = 40.
    both = pile("sakura_curtain", "susuki_moon", "kiku_sake_cup")
    assert score(both, koikoi=1).points == 40
    # Tsukimi koikoi, opponent koikoi, then hanami+tsukimi shobu: 10 x 2 x 3 = 60.
    assert score(both, koikoi=2).points == 60
    # Sanko, koikoi, then shiko: 8 x 2 x 2 = 32, 16 with doubling off.
    shiko = pile("matsu_crane", "sakura_curtain", "susuki_moon", "kiri_phoenix")
    assert score(shiko, koikoi=1).points == 32
    assert score(shiko, koikoi=1, doubling=False).points == 16
    # Ame-shiko alone: 7.
    ame = pile("matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman")
    s = score(ame)
    assert (s.base, s.doubled, s.points) == (7, False, 7)


def test_R8_4_teyaku_points_stay_six() -> None:
    s = score_yaku([(Yaku.TESHI, 6)])
    assert (s.base, s.doubled, s.points) == (6, False, 6)


def test_score_json() -> None:
    s = score(pile("sakura_curtain", "susuki_moon", "kiku_sake_cup"), koikoi=1)
    assert isinstance(s, Score)
    assert s.to_json() == {
        "yaku": [{"id": "hanami", "points": 5}, {"id": "tsukimi", "points": 5}],
        "base": 10, "doubled": True, "koikoi": 1, "multiplier": 2, "points": 40,
    }  # fmt: skip
    assert score(0).to_json() == {
        "yaku": [], "base": 0, "doubled": False, "koikoi": 0, "multiplier": 1, "points": 0
    }  # fmt: skip


# -- teyaku (R8.1) ---------------------------------------------------------------------------


def month_cards(month: int, n: int) -> list[int]:
    return [4 * month + k for k in range(n)]


def hand_of_shape(*shape: int) -> int:
    cards = [c for m, n in enumerate(shape) for c in month_cards(m, n)]
    assert len(cards) == 8
    return to_set(cards)


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((4, 1, 1, 1, 1), Yaku.TESHI),
        ((4, 2, 2), Yaku.TESHI),  # four and two more pairs is teshi, not kuttsuki
        ((4, 4), Yaku.TESHI),  # two fours: one teyaku
        ((4, 3, 1), Yaku.TESHI),
        ((2, 2, 2, 2), Yaku.KUTTSUKI),
        ((3, 3, 2), None),
        ((2, 2, 2, 1, 1), None),
        ((3, 1, 2, 2), None),
        ((1, 1, 1, 1, 1, 1, 1, 1), None),
        ((3, 3, 1, 1), None),
    ],
)
def test_R8_1_teyaku_shapes(shape: tuple[int, ...], expected: Yaku | None) -> None:
    assert teyaku_of(hand_of_shape(*shape)) is expected


def _month_counts(months: int, left: int) -> list[tuple[int, ...]]:
    """Every way to spread ``left`` cards over ``months`` months, at most 4 in each."""
    if months == 1:
        return [(left,)] if left <= 4 else []
    return [
        (n, *rest) for n in range(min(4, left) + 1) for rest in _month_counts(months - 1, left - n)
    ]


def test_R8_1_teyaku_every_month_shape() -> None:
    """Every way 8 cards spread over the 12 months, against the reference."""
    seen: dict[str | None, int] = {"teshi": 0, "kuttsuki": 0, None: 0}
    for counts in _month_counts(12, 8):
        cards = [c for m, n in enumerate(counts) for c in month_cards(m, n)]
        expected = ref_teyaku(cards)
        seen[expected] += 1
        found = teyaku_of(to_set(cards))
        assert (found.value if found else None) == expected, counts
    assert seen["kuttsuki"] == 495  # C(12, 4) ways to pick the four paired months
    assert all(seen.values())


@st.composite
def dealt_hands(draw: st.DrawFn) -> list[int]:
    """8 cards drawn by month shape, so every teyaku shape comes up often."""
    shape = draw(st.sampled_from(SHAPES))
    months = draw(st.permutations(range(12)))
    cards: list[int] = []
    for m, n in zip(months, shape, strict=False):
        ks = draw(st.permutations(range(4)))[:n]
        cards += [4 * m + k for k in ks]
    return cards


def _partitions(n: int, most: int) -> list[tuple[int, ...]]:
    if n == 0:
        return [()]
    return [(p, *rest) for p in range(min(n, most), 0, -1) for rest in _partitions(n - p, p)]


SHAPES = _partitions(8, 4)


@given(st.one_of(dealt_hands(), st.sets(st.integers(0, 47), min_size=8, max_size=8).map(list)))
def test_R8_1_teyaku_matches_reference(hand: list[int]) -> None:
    found = teyaku_of(to_set(hand))
    assert (found.value if found else None) == ref_teyaku(hand)
