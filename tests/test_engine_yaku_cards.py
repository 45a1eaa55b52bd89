"""The cards that make each yaku (RULES.md R6), as the window shows them beside the list."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine.cards import ALL_CARDS, ids, parse_card, to_set
from koikoi.engine.match import STAKE, STARTING_SCORES, Match, payment
from koikoi.engine.yaku import Yaku, yaku_cards, yaku_of
from tests.test_engine_yaku import (
    AKATAN_IDS,
    AOTAN_IDS,
    ISC_IDS,
    LIGHT_IDS,
    PLAIN_IDS,
    RIBBON_IDS,
    TANE_IDS,
)

BASE = {Yaku.INOSHIKACHO: 5, Yaku.AKATAN: 5, Yaku.AOTAN: 5, Yaku.AKATAN_AOTAN: 10}
NAMED = {
    Yaku.HANAMI: {"sakura_curtain", "kiku_sake_cup"},
    Yaku.TSUKIMI: {"susuki_moon", "kiku_sake_cup"},
    Yaku.INOSHIKACHO: ISC_IDS,
    Yaku.AKATAN: AKATAN_IDS,
    Yaku.AOTAN: AOTAN_IDS,
    Yaku.AKATAN_AOTAN: AKATAN_IDS | AOTAN_IDS,
}
KIND = {
    Yaku.GOKO: LIGHT_IDS,
    Yaku.SHIKO: LIGHT_IDS,
    Yaku.AME_SHIKO: LIGHT_IDS,
    Yaku.SANKO: LIGHT_IDS,
    Yaku.INOSHIKACHO: TANE_IDS,
    Yaku.AKATAN: RIBBON_IDS,
    Yaku.AOTAN: RIBBON_IDS,
    Yaku.AKATAN_AOTAN: RIBBON_IDS,
    Yaku.TANE: TANE_IDS,
    Yaku.TAN: RIBBON_IDS,
    Yaku.KASU: PLAIN_IDS,
}
COUNTED = {Yaku.TANE: 4, Yaku.TAN: 4, Yaku.KASU: 9}  # points = cards - this


def pile_of(*names: str) -> int:
    return to_set(parse_card(n) for n in names)


def test_inoshikacho_shows_its_three_and_the_tane_that_add_a_point() -> None:
    pile = pile_of("hagi_boar", "momiji_deer", "botan_butterfly", "ume_warbler", "matsu_ribbon")
    ((yaku, made, named),) = yaku_cards(pile)
    assert yaku is Yaku.INOSHIKACHO
    assert set(ids(named)) == ISC_IDS
    assert set(ids(made)) == ISC_IDS | {"ume_warbler"}  # 5 + 1 = 6 points (R6 "5~")
    assert "matsu_ribbon" not in ids(made)


def test_akatan_names_the_red_ribbons_not_every_ribbon() -> None:
    pile = pile_of(*AKATAN_IDS, "fuji_ribbon", "botan_ribbon", "kiri_plain_1")
    by_yaku = {y: (made, named) for y, made, named in yaku_cards(pile)}
    assert set(by_yaku) == {Yaku.AKATAN, Yaku.TAN}  # R6.3: akatan 7 + tan 1
    made, named = by_yaku[Yaku.AKATAN]
    assert set(ids(named)) == AKATAN_IDS
    assert set(ids(made)) == AKATAN_IDS | {"fuji_ribbon", "botan_ribbon"}


def test_rain_and_two_lights_make_nothing() -> None:
    assert yaku_cards(pile_of("yanagi_rainman", "matsu_crane", "kiri_phoenix")) == []


@given(st.integers(min_value=0, max_value=ALL_CARDS))
def test_each_yakus_cards_account_for_its_points(pile: int) -> None:
    listed = yaku_cards(pile)
    assert [y for y, _, _ in listed] == [y for y, _ in yaku_of(pile)]
    points = dict(yaku_of(pile))
    for yaku, made, named in listed:
        assert made & ~pile == 0 and named & ~made == 0
        made_ids, named_ids = set(ids(made)), set(ids(named))
        if yaku in NAMED:
            assert named_ids == NAMED[yaku]
        if yaku in KIND:
            assert made_ids == set(ids(pile)) & KIND[yaku]
        if yaku in BASE:  # "~": the named cards give the base, each other card one point
            assert points[yaku] == BASE[yaku] + len(made_ids - named_ids)
        if yaku in COUNTED:
            assert points[yaku] == len(made_ids) - COUNTED[yaku]
        if yaku in (Yaku.HANAMI, Yaku.TSUKIMI):
            assert made_ids == named_ids


def test_payment_is_capped_by_what_the_loser_has() -> None:
    assert payment(12, 25) == 12
    assert payment(40, 9) == 9
    assert STARTING_SCORES == (STAKE, STAKE) == Match().scores
