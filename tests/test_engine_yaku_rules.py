"""The engine's table of what makes each yaku (``YAKU_RULES``, RULES.md R6 and R8), which the
rules window draws: scoring a pile by the table's words gives what ``yaku_of`` scores, and
every card set it lists makes its yaku."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine.cards import (
    ALL_CARDS,
    CARD_IDS,
    LIGHTS,
    MONTH_MASKS,
    NUM_CARDS,
    CardSet,
    ids,
    iter_cards,
    parse_card,
)
from koikoi.engine.yaku import YAKU_RULES, Yaku, YakuList, teyaku_of, yaku_cards, yaku_of
from tests.test_engine_yaku import AKATAN_IDS, ISC_IDS, LIGHT_IDS, PLAIN_IDS, RIBBON_IDS, TANE_IDS

TEYAKU = (Yaku.TESHI, Yaku.KUTTSUKI)
R6 = [y for y in Yaku if y not in TEYAKU]


def by_the_table(pile: CardSet) -> YakuList:
    """The yaku of a pile as the table says: every needed card and ``more`` of the pool make
    it, it scores its points and one per extra card if "~", and a yaku another one made
    replaces goes."""
    made: YakuList = []
    for yaku in R6:
        rule = YAKU_RULES[yaku]
        in_pool = (pile & rule.pool).bit_count()
        if pile & rule.needed != rule.needed or in_pool < rule.more:
            continue
        extra = (pile & rule.bonus).bit_count() + in_pool - rule.more if rule.per_card else 0
        made.append((yaku, rule.points + extra))
    replaced = {r for y, _ in made for r in YAKU_RULES[y].replaces}
    return [(y, p) for y, p in made if y not in replaced]


def formed(yaku: Yaku, cards: CardSet) -> int | None:
    """The engine's points for ``yaku`` in a pile (teyaku: in a dealt hand), or None."""
    if yaku in TEYAKU:
        return 6 if teyaku_of(cards) is yaku else None
    return dict(yaku_of(cards)).get(yaku)


def test_every_yaku_has_a_rule_in_the_order_of_the_r6_table() -> None:
    assert list(YAKU_RULES) == list(Yaku)
    assert [y for y in YAKU_RULES if YAKU_RULES[y].teyaku] == list(TEYAKU)


def test_the_table_states_r6s_points_column_and_its_cards() -> None:
    column = {y: f"{YAKU_RULES[y].points}{'~' if YAKU_RULES[y].per_card else ''}" for y in Yaku}
    assert column == {
        Yaku.GOKO: "10", Yaku.SHIKO: "8", Yaku.AME_SHIKO: "7", Yaku.SANKO: "5",
        Yaku.HANAMI: "5", Yaku.TSUKIMI: "5", Yaku.INOSHIKACHO: "5~", Yaku.AKATAN: "5~",
        Yaku.AOTAN: "5~", Yaku.AKATAN_AOTAN: "10~", Yaku.TANE: "1~", Yaku.TAN: "1~",
        Yaku.KASU: "1~", Yaku.TESHI: "6", Yaku.KUTTSUKI: "6",
    }  # fmt: skip
    rule = YAKU_RULES
    assert set(ids(rule[Yaku.GOKO].cards)) == LIGHT_IDS
    assert set(ids(rule[Yaku.SANKO].pool)) == LIGHT_IDS - {"yanagi_rainman"}
    assert (rule[Yaku.SANKO].more, rule[Yaku.AME_SHIKO].more) == (3, 3)
    assert ids(rule[Yaku.AME_SHIKO].needed) == ["yanagi_rainman"]
    assert set(ids(rule[Yaku.INOSHIKACHO].needed)) == ISC_IDS
    assert set(ids(rule[Yaku.INOSHIKACHO].bonus)) == TANE_IDS - ISC_IDS
    assert set(ids(rule[Yaku.AKATAN].bonus)) == RIBBON_IDS - AKATAN_IDS
    assert (set(ids(rule[Yaku.TANE].pool)), rule[Yaku.TANE].more) == (TANE_IDS, 5)
    assert (set(ids(rule[Yaku.TAN].pool)), rule[Yaku.TAN].more) == (RIBBON_IDS, 5)
    assert (set(ids(rule[Yaku.KASU].pool)), rule[Yaku.KASU].more) == (PLAIN_IDS, 10)
    assert "kiku_sake_cup" not in ids(rule[Yaku.KASU].cards)  # tane only
    assert rule[Yaku.TESHI].example == MONTH_MASKS[2]  # the seed's example: the cherry cards


@given(st.integers(min_value=0, max_value=ALL_CARDS))
def test_scoring_by_the_table_is_scoring(pile: int) -> None:
    assert by_the_table(pile) == yaku_of(pile)


@given(st.sets(st.integers(min_value=0, max_value=NUM_CARDS - 1), max_size=16))
def test_scoring_by_the_table_is_scoring_for_small_piles(cards: set[int]) -> None:
    pile = sum(1 << c for c in cards)
    assert by_the_table(pile) == yaku_of(pile)


def test_scoring_by_the_table_is_scoring_for_every_mix_of_lights_and_the_cup() -> None:
    cards = [*iter_cards(LIGHTS), parse_card("kiku_sake_cup")]
    for n in range(len(cards) + 1):
        for chosen in itertools.combinations(cards, n):
            pile = sum(1 << c for c in chosen)
            assert by_the_table(pile) == yaku_of(pile), ids(pile)


@pytest.mark.parametrize("yaku", list(Yaku), ids=lambda y: y.value)
def test_every_card_set_the_table_lists_makes_its_yaku(yaku: Yaku) -> None:
    rule = YAKU_RULES[yaku]
    fewest = rule.fewest()
    assert formed(yaku, fewest) == rule.points
    for card in iter_cards(rule.needed | rule.example):  # each needed card is needed
        assert formed(yaku, fewest & ~(1 << card)) is None, CARD_IDS[card]
    pool = list(iter_cards(rule.pool))
    for card in pool:  # any ``more`` of the pool make it, with the needed cards
        others = [c for c in pool if c != card][: rule.more - 1]
        assert formed(yaku, rule.needed | sum(1 << c for c in [card, *others])) == rule.points
    for card in range(NUM_CARDS):  # and no card outside the pool stands in for one
        if pool and not (rule.pool | rule.needed) >> card & 1:
            short = rule.needed | sum(1 << c for c in pool[: rule.more - 1]) | 1 << card
            assert formed(yaku, short) is None, CARD_IDS[card]
    for card in iter_cards(rule.bonus):  # each bonus card adds one point
        assert formed(yaku, fewest | 1 << card) == rule.points + 1, CARD_IDS[card]
    extra = (rule.pool & ~fewest).bit_count()
    if pool:  # the whole pool: one more point per card beyond ``more`` for a "~" yaku
        whole = formed(yaku, rule.needed | rule.pool)
        expect = rule.points + (extra if rule.per_card else 0)
        replaced_by = [y for y in Yaku if yaku in YAKU_RULES[y].replaces]
        assert whole == expect or (whole is None and replaced_by), (yaku, whole)
    if not rule.teyaku:  # the cards it lists are the cards it counts
        listed = dict((y, made) for y, made, _ in yaku_cards(rule.needed | rule.pool | rule.bonus))
        if yaku in listed:
            assert listed[yaku] == rule.cards


def test_teshi_replaces_kuttsuki_in_one_hand() -> None:
    hand = MONTH_MASKS[0] | 0b11 << 4 | 0b11 << 8  # 4 pine cards, two plum, two cherry
    assert teyaku_of(hand) is Yaku.TESHI
    assert Yaku.KUTTSUKI in YAKU_RULES[Yaku.TESHI].replaces
