"""The 48 cards and card sets (RULES.md R1.1, R1.2), against the rules page's own list."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine.cards import (
    AKATAN,
    ALL_CARDS,
    AOTAN,
    CARD_IDS,
    CARD_KINDS,
    CARD_MONTH_MASK,
    INOSHIKACHO,
    LIGHTS,
    MONTH_LOW_BITS,
    MONTH_MASKS,
    MONTH_NAMES,
    NUM_CARDS,
    PLAINS,
    RIBBONS,
    TANE,
    Kind,
    UnknownCardError,
    bit,
    card_id,
    card_list,
    card_tuple,
    full_months,
    ids,
    iter_cards,
    kind_of,
    month_of,
    months_present,
    parse_card,
    popcount,
    to_set,
)

# R1.1 copied from RULES.md, month by month: (id, kind).
L, T, R, P = "light", "tane", "ribbon", "plain"
R1_1 = [
    [("matsu_crane", L), ("matsu_ribbon", R), ("matsu_plain_1", P), ("matsu_plain_2", P)],
    [("ume_warbler", T), ("ume_ribbon", R), ("ume_plain_1", P), ("ume_plain_2", P)],
    [("sakura_curtain", L), ("sakura_ribbon", R), ("sakura_plain_1", P), ("sakura_plain_2", P)],
    [("fuji_cuckoo", T), ("fuji_ribbon", R), ("fuji_plain_1", P), ("fuji_plain_2", P)],
    [("ayame_bridge", T), ("ayame_ribbon", R), ("ayame_plain_1", P), ("ayame_plain_2", P)],
    [("botan_butterfly", T), ("botan_ribbon", R), ("botan_plain_1", P), ("botan_plain_2", P)],
    [("hagi_boar", T), ("hagi_ribbon", R), ("hagi_plain_1", P), ("hagi_plain_2", P)],
    [("susuki_moon", L), ("susuki_geese", T), ("susuki_plain_1", P), ("susuki_plain_2", P)],
    [("kiku_sake_cup", T), ("kiku_ribbon", R), ("kiku_plain_1", P), ("kiku_plain_2", P)],
    [("momiji_deer", T), ("momiji_ribbon", R), ("momiji_plain_1", P), ("momiji_plain_2", P)],
    [("yanagi_rainman", L), ("yanagi_swallow", T), ("yanagi_ribbon", R), ("yanagi_lightning", P)],
    [("kiri_phoenix", L), ("kiri_plain_yellow", P), ("kiri_plain_1", P), ("kiri_plain_2", P)],
]
KIND_NAMES = {Kind.LIGHT: L, Kind.TANE: T, Kind.RIBBON: R, Kind.PLAIN: P}

card_sets = st.integers(min_value=0, max_value=ALL_CARDS)


def test_R1_1_48_distinct_ids_in_rules_order() -> None:
    expected = [name for month in R1_1 for name, _ in month]
    assert list(CARD_IDS) == expected
    assert len(set(CARD_IDS)) == NUM_CARDS == 48
    assert [card_id(c) for c in range(48)] == expected
    assert [parse_card(name) for name in expected] == list(range(48))


def test_R1_1_months_in_order() -> None:
    assert MONTH_NAMES == (
        "matsu", "ume", "sakura", "fuji", "ayame", "botan",
        "hagi", "susuki", "kiku", "momiji", "yanagi", "kiri",
    )  # fmt: skip
    for m, month in enumerate(R1_1):
        for name, _ in month:
            card = parse_card(name)
            assert month_of(card) == m
            assert name.startswith(MONTH_NAMES[m] + "_")
            assert CARD_MONTH_MASK[card] == MONTH_MASKS[m]
        assert MONTH_MASKS[m] == to_set(parse_card(name) for name, _ in month)


def test_R1_2_kinds_and_counts() -> None:
    for month in R1_1:
        for name, kind in month:
            assert KIND_NAMES[kind_of(parse_card(name))] == kind
    counts = {k: sum(1 for c in CARD_KINDS if c is k) for k in Kind}
    assert counts == {Kind.LIGHT: 5, Kind.TANE: 9, Kind.RIBBON: 10, Kind.PLAIN: 24}
    assert [k.points for k in (Kind.LIGHT, Kind.TANE, Kind.RIBBON, Kind.PLAIN)] == [20, 10, 5, 1]


def test_R1_2_kind_masks_partition_the_deck() -> None:
    assert LIGHTS | TANE | RIBBONS | PLAINS == ALL_CARDS
    masks = [LIGHTS, TANE, RIBBONS, PLAINS]
    assert sum(m.bit_count() for m in masks) == 48
    assert [m.bit_count() for m in masks] == [5, 9, 10, 24]
    for kind, mask in zip((Kind.LIGHT, Kind.TANE, Kind.RIBBON, Kind.PLAIN), masks, strict=True):
        assert mask == to_set(c for c in range(48) if kind_of(c) is kind)
    assert ids(LIGHTS) == [
        "matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix"
    ]  # fmt: skip


def test_R1_2_special_cards() -> None:
    # The sake cup is a tane card; lightning and the yellow kiri are plain (R6 kasu row).
    assert parse_card("kiku_sake_cup") in iter_cards(TANE)
    assert bit(parse_card("yanagi_lightning")) & PLAINS
    assert bit(parse_card("kiri_plain_yellow")) & PLAINS
    assert ids(AKATAN) == ["matsu_ribbon", "ume_ribbon", "sakura_ribbon"]
    assert ids(AOTAN) == ["botan_ribbon", "kiku_ribbon", "momiji_ribbon"]
    assert ids(INOSHIKACHO) == ["botan_butterfly", "hagi_boar", "momiji_deer"]


def test_R1_1_month_masks_partition_the_deck() -> None:
    assert len(MONTH_MASKS) == 12
    assert sum(MONTH_MASKS) == ALL_CARDS
    assert all(m.bit_count() == 4 for m in MONTH_MASKS)
    assert ids(MONTH_LOW_BITS) == [month[0][0] for month in R1_1]


@pytest.mark.parametrize("bad", ["", "matsu", "MATSU_CRANE", "kiku_sake", None, 3, "matsu_crane "])
def test_R1_1_unknown_ids_are_rejected(bad: object) -> None:
    with pytest.raises(UnknownCardError):
        parse_card(bad)
    assert issubclass(UnknownCardError, ValueError)


@given(card_sets)
def test_R1_1_set_views_agree(cards: int) -> None:
    expected = [c for c in range(48) if cards >> c & 1]
    assert list(iter_cards(cards)) == expected
    assert card_tuple(cards) == tuple(expected)
    assert card_list(cards) == expected
    assert to_set(expected) == cards
    assert to_set(expected + expected[::-1]) == cards  # a repeated card counts once
    assert ids(cards) == [CARD_IDS[c] for c in expected]


@given(card_sets)
def test_R1_1_month_helpers(cards: int) -> None:
    full = [m for m in range(12) if cards & MONTH_MASKS[m] == MONTH_MASKS[m]]
    present = [m for m in range(12) if cards & MONTH_MASKS[m]]
    assert full_months(cards) == to_set(4 * m for m in full)
    assert months_present(cards) == to_set(4 * m for m in present)


@given(st.lists(st.integers(min_value=0, max_value=47)))
def test_R1_1_to_set_of_any_list(cards: list[int]) -> None:
    s = to_set(cards)
    assert set(iter_cards(s)) == set(cards)
    assert s.bit_count() == len(set(cards))


@given(card_sets)
def test_popcount_counts_like_bit_count(cards: int) -> None:
    assert popcount(cards) == cards.bit_count()
    for m in MONTH_MASKS:
        assert popcount(cards & m) == (cards & m).bit_count()
