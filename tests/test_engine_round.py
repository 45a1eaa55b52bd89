"""One deal through the engine API: deal checks, matching, picks, koikoi and shobu, teyaku,
events and illegal actions (RULES.md R4, R5, R7, R8), on deals built card by card."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.engine.cards import CARD_IDS, parse_card, to_set
from koikoi.engine.deck import deal_from_order, deck_from_seed
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    DecisionNeeded,
    Event,
    KoikoiDeclared,
    PlacedOnField,
    RoundEnded,
    StockTurned,
    TurnStarted,
    YakuFormed,
)
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.round import (
    KOIKOI,
    SHOBU,
    IllegalAction,
    Phase,
    Round,
    action_str,
    parse_action,
    pick,
    play,
)
from koikoi.engine.yaku import Yaku
from tests.engine_support import (
    assert_conserved,
    c,
    cs,
    find_position,
    koikoi_policy,
    make_deal,
    random_policy,
    seeded_rounds,
    snapshot,
)

# -- D1: a deal for matching. The field holds three sakura, two fuji, one ayame, two kiku. ----

D1_FIELD = [
    "sakura_curtain", "sakura_ribbon", "sakura_plain_1",
    "fuji_cuckoo", "fuji_ribbon",
    "ayame_bridge",
    "kiku_plain_1", "kiku_plain_2",
]  # fmt: skip
D1_HAND0 = [
    "sakura_plain_2",  # 3 matches
    "fuji_plain_1",  # 2 matches
    "ayame_ribbon",  # 1 match
    "matsu_crane",  # no match
    "ume_warbler", "hagi_boar", "susuki_moon", "momiji_deer",
]  # fmt: skip
D1_HAND1 = [
    "matsu_ribbon", "ume_ribbon", "botan_ribbon", "hagi_ribbon",
    "susuki_geese", "momiji_ribbon", "yanagi_swallow", "kiri_phoenix",
]  # fmt: skip


def d1(stock_top: list[str], hand0: list[str] = D1_HAND0, oya: int = 0) -> Round:
    r = Round(make_deal(hand0, D1_HAND1, D1_FIELD, stock_top), oya)
    assert r.phase == Phase.PLAY and not r.over
    return r


def rule_of(r: Round, action: int, seat: int | None = None) -> str:
    before = snapshot(r)
    with pytest.raises(IllegalAction) as info:
        r.apply(action, seat)
    assert snapshot(r) == before, "an illegal action changed the state"
    return info.value.rule


# -- R4: the deal ------------------------------------------------------------------------------


def test_R4_2_four_of_a_month_on_the_field_is_a_redeal() -> None:
    field = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2"]
    field += ["matsu_crane", "ume_warbler", "sakura_curtain", "fuji_cuckoo"]
    r = Round(make_deal(_eight_singles(0), _eight_singles(1), field))
    assert r.over and r.phase == Phase.OVER
    kiri = to_set(parse_card(c) for c in field[:4])
    assert r.result == RoundResult(Outcome.REDEAL, redeal_cards=kiri)  # the cause, to show it
    assert r.legal_actions() == ()


def test_R4_2_a_redeal_names_every_month_of_four_on_the_field() -> None:
    field = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2"]
    field += ["momiji_deer", "momiji_ribbon", "momiji_plain_1", "momiji_plain_2"]
    r = Round(make_deal(_eight_singles(0), _eight_singles(1), field))
    assert r.result is not None and r.result.outcome is Outcome.REDEAL
    assert r.result.redeal_cards == to_set(parse_card(c) for c in field)
    three = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "matsu_crane"]
    three += ["ume_warbler", "sakura_curtain", "fuji_cuckoo", "ayame_bridge"]
    r = Round(make_deal(_eight_singles(0), _eight_singles(1), three))  # three of a month
    assert r.result is None


def test_R4_4_redeal_beats_teyaku() -> None:
    teshi = ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "matsu_plain_2"]
    teshi += ["ume_warbler", "sakura_curtain", "fuji_cuckoo", "ayame_bridge"]
    field = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2"]
    field += ["ume_ribbon", "sakura_ribbon", "fuji_ribbon", "ayame_ribbon"]
    hand1 = ["botan_butterfly", "botan_ribbon", "hagi_boar", "hagi_ribbon"]
    hand1 += ["susuki_moon", "susuki_geese", "kiku_sake_cup", "kiku_ribbon"]  # kuttsuki too
    for oya in (0, 1):
        r = Round(make_deal(teshi, hand1, field), oya)
        assert r.result is not None and r.result.outcome is Outcome.REDEAL


@pytest.mark.parametrize(
    "field",
    [
        # R4.3: four pairs
        ["matsu_crane", "matsu_ribbon", "ume_warbler", "ume_ribbon",
         "sakura_curtain", "sakura_ribbon", "fuji_cuckoo", "fuji_ribbon"],
        # R4.3: three of a month
        ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "ume_warbler",
         "sakura_curtain", "sakura_ribbon", "fuji_cuckoo", "fuji_ribbon"],
        # two threes
        ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "ume_warbler",
         "ume_ribbon", "ume_plain_1", "fuji_cuckoo", "fuji_ribbon"],
    ],
)  # fmt: skip
def test_R4_3_pairs_and_threes_are_no_redeal(field: list[str]) -> None:
    rest = [n for n in CARD_IDS if n not in field]
    hand0 = [rest[i] for i in range(0, 32, 4)][:8]
    hand1 = [rest[i] for i in range(1, 32, 4)][:8]
    r = Round(make_deal(hand0, hand1, field))
    assert not r.over and r.phase == Phase.PLAY and r.turn == 0


def _eight_singles(offset: int) -> list[str]:
    """Eight cards of eight different months (no teyaku): plain ``offset + 1`` of months 0-7
    and never month 11 (kiri)."""
    return [CARD_IDS[4 * m + 2 + offset] for m in range(8)]


# -- R8: teyaku ----------------------------------------------------------------------------

TESHI_HAND = ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "matsu_plain_2",
              "ume_warbler", "sakura_curtain", "fuji_cuckoo", "ayame_bridge"]  # fmt: skip
KUTTSUKI_HAND = ["botan_butterfly", "botan_ribbon", "hagi_boar", "hagi_ribbon",
                 "susuki_moon", "susuki_geese", "kiku_sake_cup", "kiku_ribbon"]  # fmt: skip
PLAIN_FIELD = ["ume_ribbon", "sakura_ribbon", "fuji_ribbon", "ayame_ribbon",
               "momiji_deer", "yanagi_rainman", "kiri_phoenix", "momiji_ribbon"]  # fmt: skip
NO_TEYAKU = ["ume_plain_1", "sakura_plain_1", "fuji_plain_1", "ayame_plain_1",
             "botan_plain_1", "hagi_plain_1", "susuki_plain_1", "kiku_plain_1"]  # fmt: skip


@pytest.mark.parametrize("oya", [0, 1])
@pytest.mark.parametrize(("seat", "hand", "yaku"), [
    (0, TESHI_HAND, Yaku.TESHI), (1, TESHI_HAND, Yaku.TESHI),
    (0, KUTTSUKI_HAND, Yaku.KUTTSUKI), (1, KUTTSUKI_HAND, Yaku.KUTTSUKI),
])  # fmt: skip
def test_R8_2_teyaku_ends_the_round(oya: int, seat: int, hand: list[str], yaku: Yaku) -> None:
    hands = (hand, NO_TEYAKU) if seat == 0 else (NO_TEYAKU, hand)
    r = Round(make_deal(hands[0], hands[1], PLAIN_FIELD), oya)
    assert r.over and r.legal_actions() == ()
    assert r.result == RoundResult(
        Outcome.TEYAKU, seat, ((yaku, 6),), 6, False, 0, 6, teyaku_hand=cs(*hand)
    )


@pytest.mark.parametrize("oya", [0, 1])
def test_R8_3_both_teyaku_the_oyas_counts(oya: int) -> None:
    r = Round(make_deal(TESHI_HAND, KUTTSUKI_HAND, PLAIN_FIELD), oya)
    assert r.result is not None
    assert r.result.winner == oya
    assert r.result.yaku == (((Yaku.TESHI if oya == 0 else Yaku.KUTTSUKI), 6),)
    assert r.result.points == 6


def test_R8_4_teyaku_with_doubling_off_is_six() -> None:
    r = Round(make_deal(TESHI_HAND, NO_TEYAKU, PLAIN_FIELD), 1, doubling=False)
    assert r.result is not None and (r.result.winner, r.result.points) == (0, 6)


# -- R5: matching the played card ----------------------------------------------------------

NO_MATCH_DRAW = ["kiri_plain_1"]  # no kiri on the D1 field


def test_R5_2_played_card_no_match_stays_on_field() -> None:
    r = d1(NO_MATCH_DRAW)
    events = r.apply(play(c("matsu_crane")), 0)
    assert events == [
        CardPlayed(0, c("matsu_crane")),
        PlacedOnField(0, c("matsu_crane")),
        StockTurned(0, c("kiri_plain_1")),
        PlacedOnField(0, c("kiri_plain_1")),
        TurnStarted(1),
    ]
    assert r.field == cs(*D1_FIELD, "matsu_crane", "kiri_plain_1")
    assert r.hands[0] == cs(*D1_HAND0) & ~cs("matsu_crane")
    assert r.captured == [0, 0]
    assert (r.turn, r.phase, r.stock_left) == (1, Phase.PLAY, 23)
    assert_conserved(r)


def test_R5_2_played_card_one_match_takes_both() -> None:
    r = d1(NO_MATCH_DRAW)
    events = r.apply(play(c("ayame_ribbon")))
    assert events[:2] == [
        CardPlayed(0, c("ayame_ribbon")),
        Captured(0, c("ayame_ribbon"), (c("ayame_bridge"),)),
    ]
    assert r.captured[0] == cs("ayame_ribbon", "ayame_bridge")
    assert not r.field & cs("ayame_bridge", "ayame_ribbon")  # R5.3: not left on the field
    assert_conserved(r)


def test_R5_2_played_card_three_matches_takes_all_four() -> None:
    r = d1(NO_MATCH_DRAW)
    events = r.apply(play(c("sakura_plain_2")))
    taken = (c("sakura_curtain"), c("sakura_ribbon"), c("sakura_plain_1"))
    assert events[1] == Captured(0, c("sakura_plain_2"), taken)
    assert r.captured[0] == cs("sakura_curtain", "sakura_ribbon", "sakura_plain_1",
                               "sakura_plain_2")  # fmt: skip
    assert r.turn == 1
    assert_conserved(r)


def test_R5_2_played_card_two_matches_the_player_picks() -> None:
    r = d1(NO_MATCH_DRAW)
    events = r.apply(play(c("fuji_plain_1")))
    assert events == [
        CardPlayed(0, c("fuji_plain_1")),
        ChoiceNeeded(0, c("fuji_plain_1"), (c("fuji_cuckoo"), c("fuji_ribbon")), False),
    ]
    assert r.phase == Phase.PICK_PLAYED and r.turn == 0
    assert r.pending == c("fuji_plain_1")
    assert r.candidates() == cs("fuji_cuckoo", "fuji_ribbon")
    assert r.legal_actions() == (pick(c("fuji_cuckoo")), pick(c("fuji_ribbon")))
    assert r.stock_left == 24  # R5.4: the draw waits for the pick
    assert_conserved(r)
    events = r.apply(pick(c("fuji_ribbon")), 0)
    assert events == [
        Captured(0, c("fuji_plain_1"), (c("fuji_ribbon"),)),
        StockTurned(0, c("kiri_plain_1")),
        PlacedOnField(0, c("kiri_plain_1")),
        TurnStarted(1),
    ]
    assert r.captured[0] == cs("fuji_plain_1", "fuji_ribbon")
    assert r.field & cs("fuji_cuckoo")  # the other stays
    assert r.pending == -1
    assert_conserved(r)


def test_R5_1_any_hand_card_may_be_played() -> None:
    r = d1(NO_MATCH_DRAW)
    assert r.legal_actions() == tuple(sorted(play(c(n)) for n in D1_HAND0))


# -- R5.4: matching the drawn card -----------------------------------------------------------


def test_R5_4_drawn_card_no_match() -> None:
    r = d1(["kiri_plain_1"])
    r.apply(play(c("ayame_ribbon")))
    assert r.field & cs("kiri_plain_1")


def test_R5_4_drawn_card_one_match() -> None:
    r = d1(["ayame_plain_1"])
    events = r.apply(play(c("matsu_crane")))
    assert events[2:] == [
        StockTurned(0, c("ayame_plain_1")),
        Captured(0, c("ayame_plain_1"), (c("ayame_bridge"),)),
        TurnStarted(1),
    ]
    assert r.captured[0] == cs("ayame_plain_1", "ayame_bridge")


def test_R5_4_drawn_card_takes_the_card_just_played() -> None:
    r = d1(["matsu_plain_1"])
    events = r.apply(play(c("matsu_crane")))
    assert Captured(0, c("matsu_plain_1"), (c("matsu_crane"),)) in events
    assert r.captured[0] == cs("matsu_crane", "matsu_plain_1")


def test_R5_4_drawn_card_three_matches() -> None:
    hand0 = [n if n != "sakura_plain_2" else "kiri_plain_2" for n in D1_HAND0]
    r = d1(["sakura_plain_2"], hand0=hand0)
    events = r.apply(play(c("kiri_plain_2")))
    taken = (c("sakura_curtain"), c("sakura_ribbon"), c("sakura_plain_1"))
    assert events[2:4] == [
        StockTurned(0, c("sakura_plain_2")),
        Captured(0, c("sakura_plain_2"), taken),
    ]
    assert r.field & cs("kiri_plain_2")


def test_R5_4_drawn_card_two_matches_the_player_picks() -> None:
    r = d1(["kiku_sake_cup"])
    events = r.apply(play(c("matsu_crane")))
    assert events[-1] == ChoiceNeeded(
        0, c("kiku_sake_cup"), (c("kiku_plain_1"), c("kiku_plain_2")), True
    )
    assert r.phase == Phase.PICK_DRAWN and r.pending == c("kiku_sake_cup")
    assert r.legal_actions() == (pick(c("kiku_plain_1")), pick(c("kiku_plain_2")))
    assert_conserved(r)
    events = r.apply(pick(c("kiku_plain_2")))
    assert events == [Captured(0, c("kiku_sake_cup"), (c("kiku_plain_2"),)), TurnStarted(1)]
    assert r.field & cs("kiku_plain_1")
    assert_conserved(r)


def test_R5_2_two_picks_in_one_turn_played_first() -> None:
    r = d1(["kiku_sake_cup"])
    events = r.apply(play(c("fuji_plain_1")))
    assert isinstance(events[-1], ChoiceNeeded) and not events[-1].drawn
    events = r.apply(pick(c("fuji_cuckoo")))
    assert events[-1] == ChoiceNeeded(
        0, c("kiku_sake_cup"), (c("kiku_plain_1"), c("kiku_plain_2")), True
    )
    # the first pick is settled: fuji_ribbon is no longer a candidate
    assert rule_of(r, pick(c("fuji_ribbon"))) == "R5.2"
    events = r.apply(pick(c("kiku_plain_1")))
    assert events[0] == Captured(0, c("kiku_sake_cup"), (c("kiku_plain_1"),))
    assert r.captured[0] == cs("fuji_plain_1", "fuji_cuckoo", "kiku_sake_cup", "kiku_plain_1")
    assert r.turn == 1


# -- IllegalAction: every rule named --------------------------------------------------------


def test_R5_7_out_of_turn() -> None:
    r = d1(NO_MATCH_DRAW)
    assert rule_of(r, play(c("matsu_ribbon")), seat=1) == "R5.7"
    assert rule_of(r, play(c("matsu_crane")), seat=1) == "R5.7"
    r.apply(play(c("matsu_crane")), seat=0)
    assert rule_of(r, play(c("ume_warbler")), seat=0) == "R5.7"


def test_R5_7_out_of_turn_names_what_the_mover_owes_first() -> None:
    r = d1(NO_MATCH_DRAW)
    assert rule_of(r, KOIKOI, seat=1) == "R7.1"  # a decision nobody is due
    assert rule_of(r, pick(c("fuji_cuckoo")), seat=1) == "R5.2"  # a pick nobody is due
    r.apply(play(c("fuji_plain_1")), seat=0)
    assert rule_of(r, play(c("matsu_ribbon")), seat=1) == "R5.3"  # seat 0 owes a pick
    assert rule_of(r, pick(c("fuji_cuckoo")), seat=1) == "R5.3"


def test_R5_1_card_not_in_hand() -> None:
    r = d1(NO_MATCH_DRAW)
    assert rule_of(r, play(c("matsu_ribbon"))) == "R5.1"  # the opponent's
    assert rule_of(r, play(c("ayame_bridge"))) == "R5.1"  # on the field
    assert rule_of(r, play(c("kiri_plain_1"))) == "R5.1"  # in the stock
    assert rule_of(r, 98) == "R5.1"  # not an action at all
    assert rule_of(r, -1) == "R5.1"


def test_R5_2_extra_pick() -> None:
    r = d1(NO_MATCH_DRAW)
    assert rule_of(r, pick(c("fuji_cuckoo"))) == "R5.2"


def test_R5_3_missing_pick() -> None:
    r = d1(NO_MATCH_DRAW)
    r.apply(play(c("fuji_plain_1")))
    assert rule_of(r, play(c("matsu_crane"))) == "R5.3"
    assert rule_of(r, KOIKOI) == "R5.3"
    assert rule_of(r, SHOBU) == "R5.3"


def test_R5_2_pick_of_a_non_candidate() -> None:
    r = d1(NO_MATCH_DRAW)
    r.apply(play(c("fuji_plain_1")))
    assert rule_of(r, pick(c("kiku_plain_1"))) == "R5.2"  # on the field, other month
    assert rule_of(r, pick(c("fuji_plain_1"))) == "R5.2"  # the pending card itself
    assert rule_of(r, pick(c("fuji_plain_2"))) == "R5.2"  # same month, in the stock


def test_R7_1_koikoi_or_shobu_when_no_total_rose() -> None:
    r = d1(NO_MATCH_DRAW)
    assert rule_of(r, KOIKOI) == "R7.1"
    assert rule_of(r, SHOBU) == "R7.1"


# -- S: a scripted round for R5.6, R7 and the R9.5 examples ------------------------------------

S_FIELD = ["kiku_sake_cup", "susuki_moon", "sakura_curtain", "botan_butterfly",
           "momiji_deer", "hagi_boar", "fuji_ribbon", "fuji_plain_1"]  # fmt: skip
S_HAND0 = ["kiku_plain_1", "susuki_plain_1", "sakura_plain_1", "matsu_plain_1",
           "ume_plain_1", "ayame_plain_1", "yanagi_lightning", "kiri_plain_1"]  # fmt: skip
S_HAND1 = ["botan_plain_1", "momiji_plain_1", "hagi_plain_1", "matsu_ribbon",
           "ume_ribbon", "ayame_ribbon", "yanagi_ribbon", "kiri_plain_2"]  # fmt: skip
S_STOCK = ["matsu_plain_2", "momiji_plain_2", "fuji_cuckoo", "ayame_plain_2",
           "fuji_plain_2", "ume_plain_2", "kiri_plain_yellow"]  # fmt: skip


def s_round(doubling: bool = True) -> Round:
    r = Round(make_deal(S_HAND0, S_HAND1, S_FIELD, S_STOCK), 0, doubling)
    assert not r.over
    return r


def s_to_tsukimi(r: Round) -> list[Event]:
    """T1: seat 0 takes the cup; T2: seat 1 takes butterfly and deer; T3: seat 0 plays the
    susuki plain onto the moon (tsukimi) and draws a fuji with two matches."""
    r.apply(play(c("kiku_plain_1")), 0)  # takes the cup; draws matsu_plain_2 onto the field
    assert r.turn == 1 and r.totals == [0, 0]
    r.apply(play(c("botan_plain_1")), 1)  # takes butterfly; draws momiji_plain_2, takes deer
    assert r.captured[1] == cs("botan_plain_1", "botan_butterfly", "momiji_plain_2",
                               "momiji_deer")  # fmt: skip
    return r.apply(play(c("susuki_plain_1")), 0)


def test_R5_6_yaku_checked_only_after_the_draw_resolves() -> None:
    r = s_round()
    events = s_to_tsukimi(r)
    # The played card completed tsukimi, but the drawn fuji has two matches: no decision yet.
    assert events == [
        CardPlayed(0, c("susuki_plain_1")),
        Captured(0, c("susuki_plain_1"), (c("susuki_moon"),)),
        StockTurned(0, c("fuji_cuckoo")),
        ChoiceNeeded(0, c("fuji_cuckoo"), (c("fuji_ribbon"), c("fuji_plain_1")), True),
    ]
    assert r.phase == Phase.PICK_DRAWN
    assert KOIKOI not in r.legal_actions() and SHOBU not in r.legal_actions()
    assert rule_of(r, SHOBU) == "R5.3"
    events = r.apply(pick(c("fuji_plain_1")), 0)
    assert events == [
        Captured(0, c("fuji_cuckoo"), (c("fuji_plain_1"),)),
        YakuFormed(0, ((Yaku.TSUKIMI, 5),), 5, 0),
        DecisionNeeded(0, True),
    ]
    assert (r.phase, r.legal_actions()) == (Phase.DECIDE, (KOIKOI, SHOBU))
    assert r.totals[0] == 5


def test_R7_1_missing_decision() -> None:
    r = s_round()
    s_to_tsukimi(r)
    r.apply(pick(c("fuji_plain_1")))
    assert rule_of(r, play(c("matsu_plain_1"))) == "R7.1"
    assert rule_of(r, pick(c("fuji_ribbon"))) == "R7.1"
    # the other seat acting while a decision is owed: the missing decision is named first
    assert rule_of(r, KOIKOI, seat=1) == "R7.1"
    assert rule_of(r, play(c("momiji_plain_1")), seat=1) == "R7.1"


def _s_to_second_turn_of_seat_1(r: Round, seat1_yaku: bool) -> None:
    s_to_tsukimi(r)
    r.apply(pick(c("fuji_plain_1")))
    assert r.apply(KOIKOI, 0) == [KoikoiDeclared(0, 1), TurnStarted(1)]
    assert r.baselines == [5, 0] and r.koikoi_calls == [1, 0]
    if seat1_yaku:
        # T4: seat 1 takes the boar: inoshikacho. Draws ayame_plain_2 onto the field.
        events = r.apply(play(c("hagi_plain_1")), 1)
        assert events[-2:] == [
            YakuFormed(1, ((Yaku.INOSHIKACHO, 5),), 5, 0),
            DecisionNeeded(1, True),
        ]
    else:
        events = r.apply(play(c("kiri_plain_2")), 1)
        assert events[-1] == TurnStarted(0)


def test_R7_1_asked_again_only_when_the_total_rises() -> None:
    r = s_round()
    _s_to_second_turn_of_seat_1(r, seat1_yaku=True)
    assert r.apply(KOIKOI, 1) == [KoikoiDeclared(1, 2), TurnStarted(0)]
    # T5: seat 0 takes two matsu plains and the fuji ribbon: captures, but no new points.
    events = r.apply(play(c("matsu_plain_1")), 0)
    assert events[-1] == TurnStarted(1)
    assert not any(isinstance(e, (YakuFormed, DecisionNeeded)) for e in events)
    assert r.captured[0] & cs("matsu_plain_2", "fuji_ribbon", "fuji_plain_2")
    assert r.totals[0] == r.baselines[0] == 5
    # T6: seat 1 takes the ayame plain: no new points either.
    events = r.apply(play(c("ayame_ribbon")), 1)
    assert events[-1] == TurnStarted(0) and r.totals[1] == 5
    # T7: seat 0 takes the curtain: hanami, the total rises to 10.
    events = r.apply(play(c("sakura_plain_1")), 0)
    assert events[-2:] == [
        YakuFormed(0, ((Yaku.HANAMI, 5), (Yaku.TSUKIMI, 5)), 10, 5),
        DecisionNeeded(0, True),
    ]


def test_R9_5_tsukimi_koikoi_opponent_koikoi_then_hanami_is_60() -> None:
    """Also R7.4: the opponent's inoshikacho scores nothing."""
    r = s_round()
    _s_to_second_turn_of_seat_1(r, seat1_yaku=True)
    r.apply(KOIKOI, 1)
    r.apply(play(c("matsu_plain_1")), 0)
    r.apply(play(c("ayame_ribbon")), 1)
    r.apply(play(c("sakura_plain_1")), 0)
    events = r.apply(SHOBU, 0)
    result = RoundResult(Outcome.WIN, 0, ((Yaku.HANAMI, 5), (Yaku.TSUKIMI, 5)), 10, True, 2, 60)
    assert events == [RoundEnded(result)]
    assert r.result == result and r.over and r.legal_actions() == ()
    assert r.totals[1] == 5  # seat 1 held a yaku and lost anyway
    assert rule_of(r, play(c("ume_plain_1")), 0) == "R7.4"  # nothing after the round


def test_R9_5_tsukimi_koikoi_then_hanami_is_40() -> None:
    r = s_round()
    _s_to_second_turn_of_seat_1(r, seat1_yaku=False)
    r.apply(play(c("matsu_plain_1")), 0)
    r.apply(play(c("ayame_ribbon")), 1)
    r.apply(play(c("sakura_plain_1")), 0)
    r.apply(SHOBU, 0)
    assert r.result == RoundResult(
        Outcome.WIN, 0, ((Yaku.HANAMI, 5), (Yaku.TSUKIMI, 5)), 10, True, 1, 40
    )


def test_R9_2_doubling_off() -> None:
    r = s_round(doubling=False)
    _s_to_second_turn_of_seat_1(r, seat1_yaku=False)
    r.apply(play(c("matsu_plain_1")), 0)
    r.apply(play(c("ayame_ribbon")), 1)
    r.apply(play(c("sakura_plain_1")), 0)
    r.apply(SHOBU, 0)
    assert r.result is not None and (r.result.doubled, r.result.points) == (False, 20)


def test_R9_3_multiplier_is_shared_whoever_wins() -> None:
    """Seat 1 calls shobu on inoshikacho after seat 0's koikoi: 5 x 2 = 10 (R7.4: seat 0's
    tsukimi scores nothing)."""
    r = s_round()
    _s_to_second_turn_of_seat_1(r, seat1_yaku=True)
    r.apply(SHOBU, 1)
    assert r.result == RoundResult(Outcome.WIN, 1, ((Yaku.INOSHIKACHO, 5),), 5, False, 1, 10)


def test_R7_2_koikoi_any_number_of_times() -> None:
    r = s_round()
    _s_to_second_turn_of_seat_1(r, seat1_yaku=True)
    r.apply(KOIKOI, 1)
    r.apply(play(c("matsu_plain_1")), 0)
    r.apply(play(c("ayame_ribbon")), 1)
    r.apply(play(c("sakura_plain_1")), 0)
    assert r.apply(KOIKOI, 0) == [KoikoiDeclared(0, 3), TurnStarted(1)]
    assert r.baselines == [10, 5] and r.koikoi_calls == [2, 1] and r.koikoi_count == 3


# -- R7.3 and R7.5, found by playing seeded rounds -----------------------------------------------


def _last_turn_decision(r: Round) -> bool:
    return r.phase == Phase.DECIDE and r.last_turn


def test_R7_3_last_turn_only_shobu() -> None:
    r, *_ = find_position(b"R7.3", koikoi_policy, _last_turn_decision)
    assert not (r.hands[0] | r.hands[1])
    assert r.legal_actions() == (SHOBU,)
    assert rule_of(r, KOIKOI) == "R7.3"
    seat, count, total = r.turn, r.koikoi_count, r.totals[r.turn]
    events = r.apply(SHOBU)
    assert r.result is not None and r.result.outcome is Outcome.WIN
    assert (r.result.winner, r.result.koikoi, r.result.base) == (seat, count, total)
    assert events == [RoundEnded(r.result)]


def test_R7_3_decision_event_says_no_koikoi_on_the_last_turn() -> None:
    def before_last_decision(r: Round) -> bool:
        if r.phase != Phase.PLAY or r.hands[0] | r.hands[1] != r.hands[r.turn]:
            return False
        if r.hands[r.turn].bit_count() != 1:
            return False
        probe = r.copy()
        probe.push(probe.legal_actions()[0])
        while probe.phase in (Phase.PICK_PLAYED, Phase.PICK_DRAWN):
            probe.push(probe.legal_actions()[0])
        return probe.phase == Phase.DECIDE

    r, *_ = find_position(b"R7.3-event", koikoi_policy, before_last_decision)
    events = r.apply(r.legal_actions()[0])
    while r.phase in (Phase.PICK_PLAYED, Phase.PICK_DRAWN):
        events = r.apply(r.legal_actions()[0])
    assert events[-1] == DecisionNeeded(r.turn, False)
    assert isinstance(events[-2], YakuFormed)


def test_R7_5_nagare() -> None:
    def nagare(r: Round) -> bool:
        return r.result is not None and r.result.outcome is Outcome.NAGARE

    r, actions, *_ = find_position(b"R7.5", koikoi_policy, nagare)
    assert r.result == RoundResult(Outcome.NAGARE, koikoi=r.koikoi_count)
    assert r.result.winner is None and r.result.points == 0
    assert r.hands == [0, 0] and r.stock_left == 8  # 16 turns, one draw each
    assert sum(1 for a in actions if a < 48) == 16
    assert_conserved(r)


def test_R7_5_nagare_after_koikoi_keeps_the_count() -> None:
    def nagare_after_koikoi(r: Round) -> bool:
        return r.result is not None and r.result.outcome is Outcome.NAGARE and r.koikoi_count > 0

    r, *_ = find_position(b"R7.5-koikoi", koikoi_policy, nagare_after_koikoi)
    assert r.result is not None and r.result.koikoi == r.koikoi_count > 0
    assert r.result.points == 0


@pytest.mark.parametrize(
    ("outcome", "rule"),
    [(Outcome.NAGARE, "R7.5"), (Outcome.TEYAKU, "R8.2"), (Outcome.REDEAL, "R4.2")],
)
def test_no_action_after_the_round(outcome: Outcome, rule: str) -> None:
    def ended(r: Round) -> bool:
        return r.result is not None and r.result.outcome is outcome

    r, *_ = find_position(b"over", koikoi_policy, ended, tries=3000)
    for action in (0, 47, pick(0), KOIKOI, SHOBU):
        assert rule_of(r, action) == rule
        assert rule_of(r, action, seat=1 - r.turn) == rule


# -- the two doors ----------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=1, max_size=8), st.integers(0, 1), st.randoms(use_true_random=False))
def test_push_and_apply_reach_the_same_states(seed: bytes, oya: int, rng: random.Random) -> None:
    deal = deal_from_order(deck_from_seed(seed, 1, 0), oya)
    slow, fast = Round(deal, oya), Round(deal, oya)
    assert snapshot(slow) == snapshot(fast)
    events: list[Event] = []
    while not slow.over:
        legal = slow.legal_actions()
        assert fast.legal_actions() == legal
        action = rng.choice(legal)
        events = slow.apply(action, slow.turn)
        assert events, "the checked door always says what happened"
        fast.push(action)
        assert snapshot(slow) == snapshot(fast)
        assert_conserved(slow)
    assert slow.result is not None
    if events:
        assert events[-1] == RoundEnded(slow.result)


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_check_accepts_exactly_the_legal_actions(seed: bytes, rng: random.Random) -> None:
    r = Round(deal_from_order(deck_from_seed(seed, 1, 0), 0))
    while not r.over:
        legal = set(r.legal_actions())
        for action in range(-1, 99):
            try:
                r.check(action, r.turn)
            except IllegalAction:
                assert action not in legal
            else:
                assert action in legal
        r.push(rng.choice(sorted(legal)))


def test_copy_is_independent() -> None:
    r = next(seeded_rounds(b"copy", 1))
    before = snapshot(r)
    other = r.copy()
    rng = random.Random(1)
    while not other.over:
        other.push(random_policy(other, rng))
    assert snapshot(r) == before


@pytest.mark.parametrize("action", [0, 47, pick(0), pick(47), KOIKOI, SHOBU])
def test_action_strings_round_trip(action: int) -> None:
    assert parse_action(action_str(action)) == action
    with pytest.raises(ValueError):
        parse_action("draw matsu_crane")
