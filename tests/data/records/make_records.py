"""Write the golden `koikoi-record/1` files in this folder (run: python make_records.py).

Every deck here is laid out by hand so that what happens follows from RULES.md alone, and
every expected `koikoi replay` output is written out literally, worked by hand from the rules
(the comments give the reasoning). Nothing here imports the engine: these files check it from
the outside. The only computing done here is bookkeeping (the stock's unused tail is the rest
of the 48 cards in R1.1 order) and sanity checks on the data itself (48 distinct cards, the
intended hands are or are not teyaku, the field does or does not hold a whole month).

Each legal record carries its expected output under the top-level key "expect" (readers
ignore keys they do not know, CLI.md). An illegal record's "expect" is
{"exit": 2, "error_prefix": "koikoi: deal D action A:", "rules": [...]}: the one stderr line
must start with the prefix and name one of the listed rule ids (an empty list: no rule id is
required, e.g. malformed JSON). Malformed JSON cannot hold its own expectation, so it has a
sidecar `<name>.expect.json`.

Conventions for where an illegal record fails: A is the index (from 0, within the deal) of the
first action that cannot be accepted as it stands, e.g. for a missing pick, the action that
came where the pick was due; D counts every entry of "deals", redeals included.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

Json = dict[str, Any]
"""A JSON object: a record, a deal, an action or an expected output."""

Mutation = Callable[[Json], None]
"""A change made to a copy of a legal record to make it illegal."""

# R1.1, month by month, exactly as spelled there.
MONTHS = [
    ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "matsu_plain_2"],
    ["ume_warbler", "ume_ribbon", "ume_plain_1", "ume_plain_2"],
    ["sakura_curtain", "sakura_ribbon", "sakura_plain_1", "sakura_plain_2"],
    ["fuji_cuckoo", "fuji_ribbon", "fuji_plain_1", "fuji_plain_2"],
    ["ayame_bridge", "ayame_ribbon", "ayame_plain_1", "ayame_plain_2"],
    ["botan_butterfly", "botan_ribbon", "botan_plain_1", "botan_plain_2"],
    ["hagi_boar", "hagi_ribbon", "hagi_plain_1", "hagi_plain_2"],
    ["susuki_moon", "susuki_geese", "susuki_plain_1", "susuki_plain_2"],
    ["kiku_sake_cup", "kiku_ribbon", "kiku_plain_1", "kiku_plain_2"],
    ["momiji_deer", "momiji_ribbon", "momiji_plain_1", "momiji_plain_2"],
    ["yanagi_rainman", "yanagi_swallow", "yanagi_ribbon", "yanagi_lightning"],
    ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2"],
]
ALL = [c for m in MONTHS for c in m]
MONTH_OF = {c: i + 1 for i, m in enumerate(MONTHS) for c in m}
assert len(set(ALL)) == 48


# ---------------------------------------------------------------- actions
def P(seat: int, card: str) -> Json:
    return {"seat": seat, "play": card}


def PK(seat: int, card: str) -> Json:
    return {"seat": seat, "pick": card}


def K(seat: int, go_on: bool) -> Json:
    return {"seat": seat, "koikoi": go_on}


# ---------------------------------------------------------------- data sanity (not rules)
def month_counts(cards: Iterable[str]) -> Counter[int]:
    return Counter(MONTH_OF[c] for c in cards)


def is_teyaku_hand(hand: list[str]) -> bool:
    counts = sorted(month_counts(hand).values())
    return 4 in counts or counts == [2, 2, 2, 2]


def field_has_whole_month(field: Iterable[str]) -> bool:
    return 4 in month_counts(field).values()


def deal(
    hands: Sequence[Sequence[str]],
    field: Sequence[str],
    stock_head: Sequence[str],
    actions: Iterable[Json] = (),
    *,
    teyaku: Sequence[int] = (),
    redeal: bool = False,
) -> Json:
    """A deal: the stock is stock_head followed by the other cards in R1.1 order."""
    used = list(hands[0]) + list(hands[1]) + list(field) + list(stock_head)
    assert len(used) == len(set(used)), Counter(used).most_common(3)
    assert all(c in MONTH_OF for c in used), [c for c in used if c not in MONTH_OF]
    stock = list(stock_head) + [c for c in ALL if c not in set(used)]
    d: Json = {
        "hands": [list(hands[0]), list(hands[1])],
        "field": list(field),
        "stock": stock,
        "actions": list(actions),
    }
    assert len(d["hands"][0]) == 8 and len(d["hands"][1]) == 8 and len(field) == 8
    assert len(stock) == 24
    assert field_has_whole_month(field) == redeal
    for seat in (0, 1):
        assert is_teyaku_hand(d["hands"][seat]) == (seat in teyaku), (seat, d["hands"][seat])
    return d


def teyaku_deal(h0: list[str], h1: list[str], *, teyaku: Sequence[int]) -> Json:
    """A deal decided by the hands alone: field = one card of each of 8 months left over."""
    rest = [c for c in ALL if c not in set(h0) | set(h1)]
    rest.sort(key=lambda c: (MONTHS[MONTH_OF[c] - 1].index(c), MONTH_OF[c]))
    return deal([h0, h1], rest[:8], [], teyaku=teyaku)


# ---------------------------------------------------------------- expected-output helpers
def Y(*pairs: tuple[str, int]) -> list[Json]:
    return [{"id": i, "points": p} for i, p in pairs]


def win(
    winner: int,
    yaku: list[Json],
    base: int,
    koikoi: int,
    points: int,
    paid: int,
    scores: list[int],
    next_oya: int,
    result: str = "win",
) -> Json:
    return {
        "result": result,
        "winner": winner,
        "yaku": yaku,
        "base": base,
        "koikoi": koikoi,
        "points": points,
        "paid": paid,
        "scores": scores,
        "next_oya": next_oya,
    }


def teyaku(winner: int, kind: str, paid: int, scores: list[int]) -> Json:
    # R8.2/R8.4: 6 points, never doubled (6 < 8), no koikoi yet; the holder is next oya.
    return win(winner, Y((kind, 6)), 6, 0, 6, paid, scores, winner, result="teyaku")


def nagare(koikoi: int, scores: list[int], next_oya: int) -> Json:
    return {"result": "nagare", "koikoi": koikoi, "scores": scores, "next_oya": next_oya}


REDEAL = {"result": "redeal"}
IN_PROGRESS = {"result": "in_progress"}


def out(rounds: list[Json], scores: list[int], winner: int | None, finished: bool) -> Json:
    return {"rounds": rounds, "scores": scores, "winner": winner, "finished": finished}


def record(
    deals: list[Json],
    *,
    first_oya: int = 0,
    rounds: int = 6,
    doubling: bool = True,
    expect: Json | None,
    **extra: Any,
) -> Json:
    r = {
        "format": "koikoi-record/1",
        "settings": {"rounds": rounds, "doubling": doubling},
        "first_oya": first_oya,
    }
    r.update(extra)
    r["deals"] = deals
    r["expect"] = expect
    return r


def error(deal_ix: int | str, action_ix: int | str, rules: Iterable[str]) -> Json:
    return {
        "exit": 2,
        "error_prefix": f"koikoi: deal {deal_ix} action {action_ix}:",
        "rules": list(rules),
    }


# ================================================================ teyaku hands (R8.1)
# 000's own pictures: teshi = the four sakura cards; kuttsuki = matsu, ume, fuji, kiku pairs.
TESHI_422 = [
    "sakura_curtain",
    "sakura_ribbon",
    "sakura_plain_1",
    "sakura_plain_2",
    "matsu_crane",
    "matsu_plain_1",
    "ume_warbler",
    "ume_plain_1",
]  # 4 + 2 pairs: teshi
PLAIN_HAND_A = [
    "fuji_cuckoo",
    "ayame_bridge",
    "botan_butterfly",
    "hagi_boar",
    "susuki_geese",
    "kiku_ribbon",
    "momiji_deer",
    "yanagi_swallow",
]
KUTTSUKI_000 = [
    "matsu_crane",
    "matsu_plain_1",
    "ume_warbler",
    "ume_plain_1",
    "fuji_cuckoo",
    "fuji_plain_1",
    "kiku_sake_cup",
    "kiku_plain_1",
]
PLAIN_HAND_B = [
    "sakura_curtain",
    "ayame_ribbon",
    "botan_ribbon",
    "hagi_ribbon",
    "susuki_moon",
    "momiji_ribbon",
    "yanagi_rainman",
    "kiri_phoenix",
]
TESHI_41111 = [
    "kiri_phoenix",
    "kiri_plain_yellow",
    "kiri_plain_1",
    "kiri_plain_2",
    "matsu_ribbon",
    "ume_ribbon",
    "sakura_ribbon",
    "fuji_ribbon",
]
KUTTSUKI_B = [
    "botan_butterfly",
    "botan_plain_1",
    "hagi_boar",
    "hagi_plain_1",
    "susuki_moon",
    "susuki_plain_1",
    "momiji_deer",
    "momiji_plain_1",
]
TESHI_TWO_FOURS = MONTHS[6] + MONTHS[9]  # all hagi + all momiji: one teshi, 6 points
KUTTSUKI_C = [
    "matsu_crane",
    "matsu_ribbon",
    "ume_warbler",
    "ume_ribbon",
    "sakura_curtain",
    "sakura_ribbon",
    "fuji_cuckoo",
    "fuji_ribbon",
]
TESHI_YANAGI = MONTHS[10] + ["kiri_phoenix", "matsu_plain_2", "ume_plain_2", "sakura_plain_2"]
PLAIN_HAND_C = [
    "matsu_crane",
    "ume_warbler",
    "sakura_curtain",
    "fuji_cuckoo",
    "ayame_bridge",
    "botan_butterfly",
    "hagi_boar",
    "susuki_moon",
]
KUTTSUKI_D = [
    "kiku_sake_cup",
    "kiku_ribbon",
    "momiji_deer",
    "momiji_ribbon",
    "kiri_phoenix",
    "kiri_plain_yellow",
    "yanagi_swallow",
    "yanagi_ribbon",
]
TESHI_BOTAN_422 = MONTHS[5] + ["hagi_ribbon", "hagi_plain_2", "ayame_ribbon", "ayame_plain_2"]
PLAIN_HAND_E = [
    "matsu_crane",
    "ume_warbler",
    "sakura_curtain",
    "fuji_cuckoo",
    "ayame_bridge",
    "botan_butterfly",
    "susuki_moon",
    "kiku_sake_cup",
]
PLAIN_HAND_D = [
    "ayame_bridge",
    "botan_butterfly",
    "hagi_boar",
    "susuki_moon",
    "kiku_sake_cup",
    "momiji_deer",
    "yanagi_rainman",
    "kiri_phoenix",
]


def redeal_deal() -> Json:
    # R4.2: all four kiku on the field. R4.4: both hands hold teyaku, yet nothing scores.
    field = MONTHS[8] + ["matsu_plain_2", "ume_plain_2", "hagi_plain_2", "kiri_plain_2"]
    h0 = KUTTSUKI_C
    h1 = MONTHS[4] + ["botan_butterfly", "susuki_moon", "momiji_deer", "yanagi_rainman"]
    return deal([h0, h1], field, [], teyaku=(0, 1), redeal=True)


# ================================================================ played deals
# P1 -- 000's worked example (点数計算のあらまし): tsukimi, koikoi, then the curtain too for
# hanami, shobu: 10 -> x2 (>= 8) -> x2 (1 koikoi) = 40; the opponent has 25 and pays 25,
# "ここで対戦が終わります". Oya seat 0 (first_oya 0) moves first.
#  T1 s0 plays susuki_plain_1: the field's only susuki is the moon -> takes it. Draws
#     kiku_plain_1: the field's only kiku is the sake cup -> takes it. Pile: tsukimi 5 > 0 ->
#     decision: koikoi (baseline 5, 1 koikoi).
#  T2 s1 plays hagi_plain_1 (no hagi on the field -> stays), although it holds fuji_plain_2,
#     which would take the field's fuji_plain_1 (R5.1). Draws momiji_plain_1 (none) -> stays.
#  T3 s0 plays sakura_plain_1 -> takes the curtain (the only sakura). Draws kiri_plain_1 (no
#     kiri) -> stays. Pile: hanami 5 + tsukimi 5 = 10 > 5 (two lights: no sanko) -> shobu.
P1_FIELD = [
    "susuki_moon",
    "kiku_sake_cup",
    "sakura_curtain",
    "matsu_plain_1",
    "ume_plain_1",
    "fuji_plain_1",
    "ayame_plain_1",
    "botan_plain_1",
]
P1_H0 = [
    "susuki_plain_1",
    "sakura_plain_1",
    "kiri_phoenix",
    "yanagi_swallow",
    "momiji_ribbon",
    "ayame_ribbon",
    "botan_ribbon",
    "ume_ribbon",
]
P1_H1 = [
    "hagi_plain_1",
    "fuji_plain_2",
    "matsu_crane",
    "yanagi_rainman",
    "kiku_ribbon",
    "hagi_boar",
    "susuki_geese",
    "kiri_plain_yellow",
]
P1_STOCK = ["kiku_plain_1", "momiji_plain_1", "kiri_plain_1"]
P1_ACTIONS = [
    P(0, "susuki_plain_1"),
    K(0, True),
    P(1, "hagi_plain_1"),
    P(0, "sakura_plain_1"),
    K(0, False),
]


def p1(actions: list[Json] = P1_ACTIONS) -> Json:
    return deal([P1_H0, P1_H1], P1_FIELD, P1_STOCK, copy.deepcopy(actions))


P1_RESULT = win(0, Y(("hanami", 5), ("tsukimi", 5)), 10, 1, 40, 25, [50, 0], 0)


# P2 -- 004's worked example: tsukimi koikoi, the opponent makes a yaku and koikoi, then hanami:
# 10 x2 x3 = 60. Seat 0 moves first (it won the teyaku deal before). The field holds three
# botan cards (R4.3: no redeal).
#  T1 s0: susuki_plain_1 takes the moon; draw kiku_plain_1 takes the cup: tsukimi -> koikoi (1).
#  T2 s1: hagi_plain_1 takes the boar; draw momiji_plain_1 takes the deer (2 tane: nothing).
#  T3 s0: ume_plain_1 (no ume) stays; draw fuji_plain_1 (no fuji) stays. 5, no rise.
#  T4 s1: botan_butterfly meets three botan -> takes all four (R5.2). Draw ayame_plain_1 stays.
#     s1: boar, deer, butterfly = inoshikacho 5 (3 tane, 1 ribbon, 4 plains) -> koikoi (2).
#  T5 s0: sakura_plain_1 takes the curtain; draw matsu_plain_1 stays. 10 > 5 -> shobu:
#     10 x2 x3 = 60; seat 1 has 19 left and pays 19.
P2_FIELD = [
    "susuki_moon",
    "kiku_sake_cup",
    "sakura_curtain",
    "hagi_boar",
    "momiji_deer",
    "botan_ribbon",
    "botan_plain_1",
    "botan_plain_2",
]
P2_H0 = [
    "susuki_plain_1",
    "ume_plain_1",
    "sakura_plain_1",
    "kiri_phoenix",
    "yanagi_ribbon",
    "fuji_ribbon",
    "matsu_ribbon",
    "kiku_ribbon",
]
P2_H1 = [
    "hagi_plain_1",
    "botan_butterfly",
    "matsu_crane",
    "ume_warbler",
    "yanagi_rainman",
    "susuki_geese",
    "kiri_plain_yellow",
    "ayame_ribbon",
]
P2_STOCK = ["kiku_plain_1", "momiji_plain_1", "fuji_plain_1", "ayame_plain_1", "matsu_plain_1"]
P2_ACTIONS = [
    P(0, "susuki_plain_1"),
    K(0, True),
    P(1, "hagi_plain_1"),
    P(0, "ume_plain_1"),
    P(1, "botan_butterfly"),
    K(1, True),
    P(0, "sakura_plain_1"),
    K(0, False),
]


def p2() -> Json:
    return deal([P2_H0, P2_H1], P2_FIELD, P2_STOCK, copy.deepcopy(P2_ACTIONS))


# P3 -- 004's table: sanko, koikoi, then shiko: 8 x2 x2 = 32 (doubling off: 8 x2 = 16).
#  T1 s0: matsu_plain_1 takes the crane; draw sakura_plain_1 takes the curtain (2 lights).
#  T2 s1: hagi_plain_1 stays; draw momiji_plain_1 stays.
#  T3 s0: kiri_plain_1 takes the phoenix (the only kiri); draw yanagi_lightning stays.
#     crane, curtain, phoenix = sanko 5 -> koikoi (1).
#  T4 s1: kiku_plain_1 (no kiku on the field) stays; draw matsu_ribbon (no matsu) stays.
#  T5 s0: susuki_plain_1 takes the moon; draw sakura_ribbon (no sakura) stays.
#     4 lights without rain: shiko 8 (replaces sanko), 4 plains: 8 > 5 -> shobu.
P3_FIELD = [
    "matsu_crane",
    "sakura_curtain",
    "kiri_phoenix",
    "susuki_moon",
    "ume_plain_1",
    "fuji_plain_1",
    "ayame_plain_1",
    "botan_plain_1",
]
P3_H0 = [
    "matsu_plain_1",
    "kiri_plain_1",
    "susuki_plain_1",
    "ume_warbler",
    "fuji_cuckoo",
    "ayame_ribbon",
    "botan_ribbon",
    "yanagi_rainman",
]
P3_H1 = [
    "hagi_plain_1",
    "kiku_plain_1",
    "hagi_boar",
    "momiji_deer",
    "kiku_sake_cup",
    "yanagi_swallow",
    "susuki_geese",
    "ume_ribbon",
]
P3_STOCK = ["sakura_plain_1", "momiji_plain_1", "yanagi_lightning", "matsu_ribbon", "sakura_ribbon"]
P3_ACTIONS = [
    P(0, "matsu_plain_1"),
    P(1, "hagi_plain_1"),
    P(0, "kiri_plain_1"),
    K(0, True),
    P(1, "kiku_plain_1"),
    P(0, "susuki_plain_1"),
    K(0, False),
]


def p3() -> Json:
    return deal([P3_H0, P3_H1], P3_FIELD, P3_STOCK, copy.deepcopy(P3_ACTIONS))


# P5 -- the koikoi caller loses (R7.4, R9.3): s0 tsukimi -> koikoi; s1 then makes inoshikacho
# with a drawn card that meets three botan (takes all four) and calls shobu: 5 x (1+1) = 10.
#  T1 s0: susuki_plain_1 takes the moon; draw kiku_plain_1 takes the cup: tsukimi -> koikoi.
#  T2 s1: hagi_plain_1 takes the boar; draw momiji_plain_1 takes the deer.
#  T3 s0: ume_plain_1 stays; draw fuji_plain_1 stays (no rise).
#  T4 s1: ayame_plain_1 stays; draw botan_butterfly meets three botan -> takes all four.
#     s1: inoshikacho 5 (3 tane, 1 ribbon, 4 plains) -> shobu. s0's tsukimi scores nothing.
P5_FIELD = [
    "susuki_moon",
    "kiku_sake_cup",
    "hagi_boar",
    "momiji_deer",
    "botan_ribbon",
    "botan_plain_1",
    "botan_plain_2",
    "matsu_plain_1",
]
P5_H0 = [
    "susuki_plain_1",
    "ume_plain_1",
    "sakura_curtain",
    "kiri_phoenix",
    "matsu_ribbon",
    "yanagi_ribbon",
    "fuji_ribbon",
    "kiku_ribbon",
]
P5_H1 = [
    "hagi_plain_1",
    "ayame_plain_1",
    "matsu_crane",
    "ume_warbler",
    "yanagi_rainman",
    "susuki_geese",
    "kiri_plain_yellow",
    "sakura_ribbon",
]
P5_STOCK = ["kiku_plain_1", "momiji_plain_1", "fuji_plain_1", "botan_butterfly"]
P5_ACTIONS = [
    P(0, "susuki_plain_1"),
    K(0, True),
    P(1, "hagi_plain_1"),
    P(0, "ume_plain_1"),
    P(1, "ayame_plain_1"),
    K(1, False),
]


def p5() -> Json:
    return deal([P5_H0, P5_H1], P5_FIELD, P5_STOCK, copy.deepcopy(P5_ACTIONS))


# P6 -- picks (R5.2), with first_oya 1 so seat 1 moves first. The field is four pairs
# (R4.3: no redeal).
#  T1 s1 plays sakura_curtain: two sakura on the field -> pick sakura_ribbon (000's own example:
#     the curtain can take either; the akatan is the better pick). Draws ume_plain_1: two ume
#     -> pick ume_ribbon. Pile: 1 light, 2 ribbons, 1 plain: nothing.
#  T2 s0 plays hagi_boar: two hagi plains -> pick hagi_plain_2 (a pick even between two
#     plains). Draws kiri_plain_2 (no kiri) -> stays.
#  T3 s1 plays matsu_plain_1: matsu_ribbon, matsu_plain_2 -> pick matsu_ribbon. Draws
#     kiri_plain_yellow: one kiri (kiri_plain_2) -> takes it. Pile: the three akatan ->
#     akatan 5 (3 ribbons, 4 plains, 1 light) -> shobu. 5 points, seat 0 pays 5.
P6_FIELD = [
    "sakura_ribbon",
    "sakura_plain_1",
    "ume_ribbon",
    "ume_plain_2",
    "matsu_ribbon",
    "matsu_plain_2",
    "hagi_plain_1",
    "hagi_plain_2",
]
P6_H0 = [
    "hagi_boar",
    "matsu_crane",
    "ume_warbler",
    "sakura_plain_2",
    "kiri_phoenix",
    "momiji_deer",
    "kiku_ribbon",
    "yanagi_swallow",
]
P6_H1 = [
    "sakura_curtain",
    "matsu_plain_1",
    "susuki_moon",
    "kiku_sake_cup",
    "yanagi_rainman",
    "botan_butterfly",
    "fuji_ribbon",
    "ayame_plain_1",
]
P6_STOCK = ["ume_plain_1", "kiri_plain_2", "kiri_plain_yellow"]
P6_ACTIONS = [
    P(1, "sakura_curtain"),
    PK(1, "sakura_ribbon"),
    PK(1, "ume_ribbon"),
    P(0, "hagi_boar"),
    PK(0, "hagi_plain_2"),
    P(1, "matsu_plain_1"),
    PK(1, "matsu_ribbon"),
    K(1, False),
]


def p6(actions: list[Json] = P6_ACTIONS) -> Json:
    return deal([P6_H0, P6_H1], P6_FIELD, P6_STOCK, copy.deepcopy(actions))


P6_RESULT = win(1, Y(("akatan", 5)), 5, 0, 5, 5, [20, 30], 1)


# P7 -- R5.6: yaku are checked only once the drawn card is resolved. The played card completes
# tsukimi, the drawn card then needs a pick, and only then comes the decision.
#  T1 s0: kiku_plain_1 takes the sake cup (the only kiku); draw hagi_plain_1 stays.
#  T2 s1: botan_plain_1 stays (no botan on the field); draw kiri_plain_1 stays.
#  T3 s0: susuki_plain_1 takes the moon (tsukimi is complete), then draws momiji_deer: two
#     momiji plains -> pick momiji_plain_1. Pile: tsukimi 5 (2 tane, 3 plains) -> shobu.
P7_FIELD = [
    "kiku_sake_cup",
    "susuki_moon",
    "momiji_plain_1",
    "momiji_plain_2",
    "matsu_plain_1",
    "ume_plain_1",
    "fuji_plain_1",
    "ayame_plain_1",
]
P7_H0 = [
    "kiku_plain_1",
    "susuki_plain_1",
    "matsu_crane",
    "ume_warbler",
    "fuji_cuckoo",
    "ayame_bridge",
    "yanagi_rainman",
    "kiri_phoenix",
]
P7_H1 = [
    "botan_plain_1",
    "sakura_curtain",
    "sakura_ribbon",
    "hagi_boar",
    "susuki_geese",
    "kiku_ribbon",
    "momiji_ribbon",
    "yanagi_swallow",
]
P7_STOCK = ["hagi_plain_1", "kiri_plain_1", "momiji_deer"]
P7_ACTIONS = [
    P(0, "kiku_plain_1"),
    P(1, "botan_plain_1"),
    P(0, "susuki_plain_1"),
    PK(0, "momiji_plain_1"),
    K(0, False),
]


def p7(actions: list[Json] = P7_ACTIONS) -> Json:
    return deal([P7_H0, P7_H1], P7_FIELD, P7_STOCK, copy.deepcopy(actions))


# ---------------------------------------------------------------- "pairs" deals
# Field: four pairs (sakura, susuki, kiku, kiri plains; R4.3 no redeal). The other cards of
# those four months are the stock's last 8 cards, never drawn (16 draws a round). Every turn
# the mover plays a card of a month that is not on the field (it stays), then draws the
# other card of the same month, which takes it (a drawn card matching). So each turn moves one
# known pair to the mover's pile and leaves the field as it was; the turn order is fixed.
PAIRS_FIELD = [
    "sakura_plain_1",
    "sakura_plain_2",
    "susuki_plain_1",
    "susuki_plain_2",
    "kiku_plain_1",
    "kiku_plain_2",
    "kiri_plain_1",
    "kiri_plain_2",
]


def pairs_deal(
    first: int,
    first_pairs: list[tuple[str, str]],
    second_pairs: list[tuple[str, str]],
    decisions: dict[int, list[Json]] | None = None,
    stop_after: int = 16,
) -> Json:
    """first_pairs/second_pairs: the 8 (hand card, drawn card) pairs of the oya (moving first)
    and of the other seat, in turn order. decisions: {turn (1-based): [actions after it]}."""
    decisions = decisions or {}
    second = 1 - first
    hands: list[list[str]] = [[], []]
    hands[first] = [h for h, _ in first_pairs]
    hands[second] = [h for h, _ in second_pairs]
    stock_head, actions = [], []
    for t in range(1, 17):
        seat, pairs = (first, first_pairs) if t % 2 else (second, second_pairs)
        hand_card, drawn = pairs[(t - 1) // 2]
        assert MONTH_OF[hand_card] == MONTH_OF[drawn]
        stock_head.append(drawn)
        if t <= stop_after:
            actions.append(P(seat, hand_card))
            actions.extend(decisions.get(t, []))
    return deal(hands, PAIRS_FIELD, stock_head, actions)


# Nagare (R7.5). Oya's pile: crane; cuckoo, butterfly, deer, swallow (4 tane, no boar);
# ume, ayame, hagi, yanagi ribbons (4); 7 plains -> no yaku. Other pile: rain only among the
# lights; warbler, bridge, boar (3 tane); matsu, fuji, botan, momiji ribbons (4: no akatan
# without sakura, no aotan without kiku); 8 plains -> no yaku. Nobody's total ever rises:
# nagare, no points, the oya stays.
NAGARE_FIRST = [
    ("matsu_plain_1", "matsu_crane"),
    ("ume_plain_1", "ume_ribbon"),
    ("fuji_plain_1", "fuji_cuckoo"),
    ("ayame_plain_1", "ayame_ribbon"),
    ("botan_plain_1", "botan_butterfly"),
    ("hagi_plain_1", "hagi_ribbon"),
    ("momiji_plain_1", "momiji_deer"),
    ("yanagi_ribbon", "yanagi_swallow"),
]
NAGARE_SECOND = [
    ("matsu_plain_2", "matsu_ribbon"),
    ("ume_plain_2", "ume_warbler"),
    ("fuji_plain_2", "fuji_ribbon"),
    ("ayame_plain_2", "ayame_bridge"),
    ("botan_plain_2", "botan_ribbon"),
    ("hagi_plain_2", "hagi_boar"),
    ("momiji_plain_2", "momiji_ribbon"),
    ("yanagi_lightning", "yanagi_rainman"),
]


def nagare_deal(oya: int) -> Json:
    return pairs_deal(oya, NAGARE_FIRST, NAGARE_SECOND)


# Last turn (R7.3): as the nagare but the two yanagi pairs swapped. The oya ends with rain +
# crane, 3 tane, 3 ribbons, 8 plains: nothing. The other seat's 16th turn (the round's last:
# both hands now empty) brings yanagi_ribbon + swallow: 5 ribbons = tan 1 (4 tane), a rise ->
# it can only be shobu: win 1 point.
LAST_FIRST = NAGARE_FIRST[:7] + [("yanagi_lightning", "yanagi_rainman")]
LAST_SECOND = NAGARE_SECOND[:7] + [("yanagi_ribbon", "yanagi_swallow")]

# Koikoi then no rise (R7.1, R7.5, 004: こいこいした後に点数が上がらずに終わった場合も同じ).
# Oya: butterfly (T1), boar (T3), deer (T5): inoshikacho 5 -> koikoi; then only ribbons and
# plains: matsu, ume, fuji, ayame ribbons (4, no sakura -> no akatan), 8 plains, rain: stays 5.
# Other: crane; warbler, cuckoo, bridge, swallow (4); botan, hagi, momiji, yanagi ribbons (4,
# no kiku -> no aotan); 7 plains: nothing.
KOI_FIRST = [
    ("botan_plain_1", "botan_butterfly"),
    ("hagi_plain_1", "hagi_boar"),
    ("momiji_plain_1", "momiji_deer"),
    ("matsu_plain_1", "matsu_ribbon"),
    ("ume_plain_1", "ume_ribbon"),
    ("fuji_plain_1", "fuji_ribbon"),
    ("ayame_plain_1", "ayame_ribbon"),
    ("yanagi_lightning", "yanagi_rainman"),
]
KOI_SECOND = [
    ("matsu_plain_2", "matsu_crane"),
    ("ume_plain_2", "ume_warbler"),
    ("fuji_plain_2", "fuji_cuckoo"),
    ("ayame_plain_2", "ayame_bridge"),
    ("botan_plain_2", "botan_ribbon"),
    ("hagi_plain_2", "hagi_ribbon"),
    ("momiji_plain_2", "momiji_ribbon"),
    ("yanagi_ribbon", "yanagi_swallow"),
]
# Variant: the yanagi pairs swapped, so the oya's own last turn (T15; the other seat still
# holds a card, so it is not the round's last turn) brings swallow + yanagi_ribbon:
# inoshikacho 6 + tan 1 = 7 > 5: a rise; koikoi is still allowed there. The other seat ends
# with crane + rain, 3 tane, 3 ribbons, 8 plains: nothing.
KOI_FIRST_V = KOI_FIRST[:7] + [("yanagi_ribbon", "yanagi_swallow")]
KOI_SECOND_V = KOI_SECOND[:7] + [("yanagi_lightning", "yanagi_rainman")]

# Rises again (R7.1 "one more card in a ~ yaku"; R7.2 koikoi any number of times; R6.3's
# inoshikacho + 2 tane = 8 in a real round). Oya: butterfly T1, boar T3, deer T5 ->
# inoshikacho 5 -> koikoi (1); warbler T7 -> inoshikacho 6 -> koikoi (2); cuckoo T9 ->
# inoshikacho 7 + tane 1 (5 tane) = 8 -> shobu. Other seat by T8: matsu, ayame, botan ribbons,
# rain, 4 plains: nothing. (The pairs after T9 are never reached.)
RISE_FIRST = [
    ("botan_plain_1", "botan_butterfly"),
    ("hagi_plain_1", "hagi_boar"),
    ("momiji_plain_1", "momiji_deer"),
    ("ume_plain_1", "ume_warbler"),
    ("fuji_plain_1", "fuji_cuckoo"),
    ("hagi_plain_2", "hagi_ribbon"),
    ("momiji_plain_2", "momiji_ribbon"),
    ("yanagi_ribbon", "yanagi_swallow"),
]
RISE_SECOND = [
    ("matsu_plain_1", "matsu_ribbon"),
    ("ayame_plain_1", "ayame_ribbon"),
    ("yanagi_lightning", "yanagi_rainman"),
    ("botan_plain_2", "botan_ribbon"),
    ("matsu_plain_2", "matsu_crane"),
    ("ume_plain_2", "ume_ribbon"),
    ("fuji_plain_2", "fuji_ribbon"),
    ("ayame_plain_2", "ayame_bridge"),
]


def rise_deal() -> Json:
    return pairs_deal(
        0,
        RISE_FIRST,
        RISE_SECOND,
        {5: [K(0, True)], 7: [K(0, True)], 9: [K(0, False)]},
        stop_after=9,
    )


# ================================================================ the records
RECORDS: dict[str, Json] = {}


def add(name: str, rec: Json) -> None:
    assert name not in RECORDS
    RECORDS[name] = rec


# --- whole matches made of teyaku deals (each ends at once)
# R8.1-R8.4, R3.3, R4.2/R4.4/R4.5, R2.4 (draw), R2.5 (the redeal is not a round).
#  d0 oya 0: s0 teshi (4 + two pairs: teshi, not kuttsuki)  -> [31, 19], oya 0
#  d1 oya 0: s1 kuttsuki (000's picture)                    -> [25, 25], oya 1
#  d2 oya 1: s0 teshi and s1 kuttsuki: the oya's counts      -> [19, 31], oya 1
#  d3 oya 1: all four kiku on the field: redeal, though both hands hold teyaku (R4.4)
#  d4 oya 1: s1 two fours (one teshi, 6) and s0 kuttsuki: oya -> [13, 37], oya 1
#  d5 oya 1: s0 teshi (4+1+1+1+1), s1 none                  -> [19, 31], oya 0
#  d6 oya 0: s0 kuttsuki and s1 teshi: the oya's counts      -> [25, 25]; 6 rounds: a draw
TEYAKU_MATCH = [
    teyaku_deal(TESHI_422, PLAIN_HAND_A, teyaku=(0,)),
    teyaku_deal(PLAIN_HAND_B, KUTTSUKI_000, teyaku=(1,)),
    teyaku_deal(TESHI_41111, KUTTSUKI_B, teyaku=(0, 1)),
    redeal_deal(),
    teyaku_deal(KUTTSUKI_C, TESHI_TWO_FOURS, teyaku=(0, 1)),
    teyaku_deal(TESHI_YANAGI, PLAIN_HAND_C, teyaku=(0,)),
    teyaku_deal(KUTTSUKI_D, TESHI_BOTAN_422, teyaku=(0, 1)),
]
TEYAKU_MATCH_ROUNDS = [
    teyaku(0, "teshi", 6, [31, 19]),
    teyaku(1, "kuttsuki", 6, [25, 25]),
    teyaku(1, "kuttsuki", 6, [19, 31]),
    REDEAL,
    teyaku(1, "teshi", 6, [13, 37]),
    teyaku(0, "teshi", 6, [19, 31]),
    teyaku(0, "kuttsuki", 6, [25, 25]),
]
add(
    "teyaku_match_draw",
    record(
        copy.deepcopy(TEYAKU_MATCH),
        first_oya=0,
        expect=out(TEYAKU_MATCH_ROUNDS, [25, 25], None, True),
    ),
)

# R2.1: the same six rounds in a 12-round match are not the end.
add(
    "teyaku_rounds12_unfinished",
    record(
        copy.deepcopy(TEYAKU_MATCH),
        first_oya=0,
        rounds=12,
        expect=out(TEYAKU_MATCH_ROUNDS, [25, 25], None, False),
    ),
)

# R2.4 (win after the last round), R2.5 and R7.5 (nagare counts as a round, the oya stays,
# both when seat 0 and when seat 1 is oya).
add(
    "teyaku_nagare_match_win",
    record(
        [
            teyaku_deal(TESHI_422, PLAIN_HAND_A, teyaku=(0,)),  # oya 0 -> [31, 19], oya 0
            nagare_deal(0),  # oya 0 stays
            teyaku_deal(PLAIN_HAND_B, KUTTSUKI_000, teyaku=(1,)),  # -> [25, 25], oya 1
            nagare_deal(1),  # oya 1 stays (moves first)
            teyaku_deal(KUTTSUKI_C, PLAIN_HAND_D, teyaku=(0,)),  # -> [31, 19], oya 0
            teyaku_deal(TESHI_YANAGI, PLAIN_HAND_C, teyaku=(0,)),  # -> [37, 13]; 6 rounds
        ],
        first_oya=0,
        expect=out(
            [
                teyaku(0, "teshi", 6, [31, 19]),
                nagare(0, [31, 19], 0),
                teyaku(1, "kuttsuki", 6, [25, 25]),
                nagare(0, [25, 25], 1),
                teyaku(0, "kuttsuki", 6, [31, 19]),
                teyaku(0, "teshi", 6, [37, 13]),
            ],
            [37, 13],
            0,
            True,
        ),
    ),
)

# R2.2/R9.4 stake cap and R2.3 the match ends at 0 (after 5 of 6 rounds). first_oya 1.
STAKE_DEALS = [
    teyaku_deal(PLAIN_HAND_A, TESHI_422, teyaku=(1,)),
    teyaku_deal(PLAIN_HAND_B, KUTTSUKI_000, teyaku=(1,)),
    teyaku_deal(PLAIN_HAND_C, TESHI_YANAGI, teyaku=(1,)),
    teyaku_deal(PLAIN_HAND_D, KUTTSUKI_C, teyaku=(1,)),
    teyaku_deal(PLAIN_HAND_E, TESHI_TWO_FOURS, teyaku=(1,)),
]
add(
    "stake_cap_teyaku_zero",
    record(
        copy.deepcopy(STAKE_DEALS),
        first_oya=1,
        expect=out(
            [
                teyaku(1, "teshi", 6, [19, 31]),
                teyaku(1, "kuttsuki", 6, [13, 37]),
                teyaku(1, "teshi", 6, [7, 43]),
                teyaku(1, "kuttsuki", 6, [1, 49]),
                teyaku(1, "teshi", 1, [0, 50]),  # 6 points, seat 0 has 1 left: pays 1, out
            ],
            [0, 50],
            1,
            True,
        ),
    ),
)

# --- played rounds
add("koikoi_40_example_000", record([p1()], first_oya=0, expect=out([P1_RESULT], [50, 0], 0, True)))

add(
    "koikoi_60_example_004",
    record(
        [
            teyaku_deal(TESHI_422, PLAIN_HAND_A, teyaku=(0,)),  # -> [31, 19], seat 0 stays oya
            p2(),
        ],
        first_oya=0,
        expect=out(
            [
                teyaku(0, "teshi", 6, [31, 19]),
                win(0, Y(("hanami", 5), ("tsukimi", 5)), 10, 2, 60, 19, [50, 0], 0),
            ],
            [50, 0],
            0,
            True,
        ),
    ),
)

add(
    "sanko_koikoi_shiko_32_004",
    record(
        [p3()],
        first_oya=0,
        expect=out(
            [
                win(0, Y(("shiko", 8)), 8, 1, 32, 25, [50, 0], 0),
            ],
            [50, 0],
            0,
            True,
        ),
    ),
)

add(
    "sanko_koikoi_shiko_16_no_doubling_004",
    record(
        [p3()],
        first_oya=0,
        doubling=False,
        expect=out([win(0, Y(("shiko", 8)), 8, 1, 16, 16, [41, 9], 0)], [41, 9], None, False),
    ),
)

# R7.4/R9.3: the koikoi caller's opponent wins with the shared multiplier; R9.3 it resets:
# the next round's teyaku is 6; then a nagare with seat 1 as oya (it moves first).
add(
    "koikoi_caller_loses",
    record(
        [
            p5(),
            teyaku_deal(PLAIN_HAND_B, KUTTSUKI_000, teyaku=(1,)),
            nagare_deal(1),
        ],
        first_oya=0,
        expect=out(
            [
                win(1, Y(("inoshikacho", 5)), 5, 1, 10, 10, [15, 35], 1),
                teyaku(1, "kuttsuki", 6, [9, 41]),
                nagare(0, [9, 41], 1),
            ],
            [9, 41],
            None,
            False,
        ),
    ),
)

add(
    "nagare_after_koikoi",
    record(
        [pairs_deal(0, KOI_FIRST, KOI_SECOND, {5: [K(0, True)]})],
        first_oya=0,
        expect=out([nagare(1, [25, 25], 0)], [25, 25], None, False),
    ),
)

add(
    "koikoi_on_own_last_turn",
    record(
        [pairs_deal(0, KOI_FIRST_V, KOI_SECOND_V, {5: [K(0, True)], 15: [K(0, True)]})],
        first_oya=0,
        expect=out([nagare(2, [25, 25], 0)], [25, 25], None, False),
    ),
)

# The same, but shobu at T15: inoshikacho 6 + tan 1 = 7: not doubled (R9.2), x2 (1 koikoi).
add(
    "shobu_seven_not_doubled",
    record(
        [
            pairs_deal(
                0, KOI_FIRST_V, KOI_SECOND_V, {5: [K(0, True)], 15: [K(0, False)]}, stop_after=15
            )
        ],
        first_oya=0,
        expect=out(
            [
                win(0, Y(("inoshikacho", 6), ("tan", 1)), 7, 1, 14, 14, [39, 11], 0),
            ],
            [39, 11],
            None,
            False,
        ),
    ),
)

# Rises again, doubling off: 8 x3 = 24, paid 24 -> [49, 1]; then seat 0 (oya) has teshi:
# 6 points, seat 1 pays its last 1 and is out.
add(
    "koikoi_twice_no_doubling",
    record(
        [
            rise_deal(),
            teyaku_deal(TESHI_422, PLAIN_HAND_A, teyaku=(0,)),
        ],
        first_oya=0,
        doubling=False,
        expect=out(
            [
                win(0, Y(("inoshikacho", 7), ("tane", 1)), 8, 2, 24, 24, [49, 1], 0),
                teyaku(0, "teshi", 1, [50, 0]),
            ],
            [50, 0],
            0,
            True,
        ),
    ),
)

# Doubling on: exactly 8 is doubled (R9.2): 8 x2 x3 = 48, paid 25.
add(
    "koikoi_twice_doubling_at_8",
    record(
        [rise_deal()],
        first_oya=0,
        expect=out(
            [
                win(0, Y(("inoshikacho", 7), ("tane", 1)), 8, 2, 48, 25, [50, 0], 0),
            ],
            [50, 0],
            0,
            True,
        ),
    ),
)

# Picks, first_oya 1, with writer-added keys at every level (readers ignore them).
_p6 = p6()
_p6["seed"] = 20261129
for i, a in enumerate(_p6["actions"]):
    a["ms"] = 700 + 10 * i
add(
    "picks_first_oya_1",
    record(
        [_p6],
        first_oya=1,
        players=["Aoi", "Botan"],
        saved_at="2026-11-29T12:00:00Z",
        expect=out([P6_RESULT], [20, 30], None, False),
    ),
)

# R4.2/R4.5: a redeal, then the same oya (seat 1) deals and moves first.
add(
    "redeal_then_play",
    record(
        [redeal_deal(), p6()], first_oya=1, expect=out([REDEAL, P6_RESULT], [20, 30], None, False)
    ),
)

add(
    "stops_after_redeal",
    record([redeal_deal()], first_oya=0, expect=out([REDEAL], [25, 25], None, False)),
)

# R7.3: a rise on the round's last turn is a win, with or without {"koikoi": false}.
_last = pairs_deal(0, LAST_FIRST, LAST_SECOND)
LAST_RESULT = win(1, Y(("tan", 1)), 1, 0, 1, 1, [24, 26], 1)
add(
    "last_turn_shobu_implicit",
    record([copy.deepcopy(_last)], first_oya=0, expect=out([LAST_RESULT], [24, 26], None, False)),
)
_last_explicit = copy.deepcopy(_last)
_last_explicit["actions"].append(K(1, False))
add(
    "last_turn_shobu_explicit",
    record([_last_explicit], first_oya=0, expect=out([LAST_RESULT], [24, 26], None, False)),
)

add(
    "yaku_by_play_then_drawn_pick",
    record(
        [p7()],
        first_oya=0,
        expect=out(
            [
                win(0, Y(("tsukimi", 5)), 5, 0, 5, 5, [30, 20], 0),
            ],
            [30, 20],
            None,
            False,
        ),
    ),
)

# Records that stop inside a deal or before any deal.
add(
    "in_progress_pick_pending",
    record([p6(P6_ACTIONS[:1])], first_oya=1, expect=out([IN_PROGRESS], [25, 25], None, False)),
)
add(
    "in_progress_decision_pending",
    record([p1(P1_ACTIONS[:1])], first_oya=0, expect=out([IN_PROGRESS], [25, 25], None, False)),
)
# Seat 1 wins P6 and is oya of the next deal, which stops after its first play.
add(
    "in_progress_after_win",
    record(
        [
            p6(),
            pairs_deal(1, NAGARE_FIRST, NAGARE_SECOND, stop_after=1),
        ],
        first_oya=1,
        expect=out([P6_RESULT, IN_PROGRESS], [20, 30], None, False),
    ),
)
add("no_deals", record([], first_oya=0, expect=out([], [25, 25], None, False)))


# ================================================================ illegal records
def illegal(name: str, base: Json, expect: Json, mutate: Mutation | None = None) -> None:
    r = copy.deepcopy(base)
    r.pop("expect", None)
    if mutate:
        mutate(r)
    r["expect"] = expect
    add("illegal_" + name, r)


B1 = record([p1()], first_oya=0, expect=None)  # P1 as the base of most faults
B6 = record([p6()], first_oya=1, expect=None)  # P6: picks


def set_action(deal_ix: int, action_ix: int, action: Json) -> Mutation:
    def f(r: Json) -> None:
        r["deals"][deal_ix]["actions"][action_ix] = action

    return f


def insert_action(deal_ix: int, action_ix: int, action: Json) -> Mutation:
    def f(r: Json) -> None:
        r["deals"][deal_ix]["actions"].insert(action_ix, action)

    return f


def delete_action(deal_ix: int, action_ix: int) -> Mutation:
    def f(r: Json) -> None:
        del r["deals"][deal_ix]["actions"][action_ix]

    return f


def replace_card(where: str, old: str, new: str) -> Mutation:
    def f(r: Json) -> None:
        lst = r["deals"][0][where] if where != "hand0" else r["deals"][0]["hands"][0]
        lst[lst.index(old)] = new

    return f


# R1.1 / R4.1: faults of the deal itself (action -).
illegal(
    "unknown_card_in_hand",
    B1,
    error(0, "-", ["R1.1"]),
    replace_card("hand0", "ume_ribbon", "ume_tanzaku"),
)
# matsu_crane is also in hand 1.
illegal(
    "repeated_card",
    B1,
    error(0, "-", ["R1.1", "R4.1"]),
    replace_card("field", "botan_plain_1", "matsu_crane"),
)


def _short_stock(r: Json) -> None:
    r["deals"][0]["stock"].pop()


illegal("deck_of_47", B1, error(0, "-", ["R4.1", "R1.1"]), _short_stock)


def _hand_of_7(r: Json) -> None:
    d = r["deals"][0]
    d["stock"].append(d["hands"][0].pop())  # still 48 distinct cards, but 7 + 8 + 8 + 25


illegal("hand_of_7", B1, error(0, "-", ["R4.1"]), _hand_of_7)

# Plays (R5.1), turn order (R3.3 oya first, R5.7 alternate).
illegal(
    "unknown_card_played", B1, error(0, 0, ["R1.1", "R5.1"]), set_action(0, 0, P(0, "sakura_crane"))
)
# kiku_plain_2 is in the stock.
illegal("card_not_in_hand", B1, error(0, 0, ["R5.1"]), set_action(0, 0, P(0, "kiku_plain_2")))
# Seat 1 holds hagi_plain_1.
illegal("opponents_card", B1, error(0, 0, ["R5.1"]), set_action(0, 0, P(0, "hagi_plain_1")))
illegal(
    "non_oya_moves_first", B1, error(0, 0, ["R3.3", "R5.7"]), set_action(0, 0, P(1, "hagi_plain_1"))
)
illegal("same_seat_twice", B1, error(0, 2, ["R5.7", "R3.3"]), set_action(0, 2, P(0, "ume_ribbon")))

# Picks (R5.2).
# susuki_plain_1 had one match; the turn then ended with tsukimi, so a decision is due.
illegal(
    "extra_pick_single_match",
    B1,
    error(0, 1, ["R5.2", "R7.1"]),
    insert_action(0, 1, PK(0, "susuki_moon")),
)
# Seat 1, to play, sends a pick instead (nothing to pick from).
illegal(
    "pick_instead_of_play",
    B1,
    error(0, 2, ["R5.2", "R5.1"]),
    insert_action(0, 2, PK(1, "hagi_boar")),
)
illegal(
    "extra_pick_drawn_single_match",
    B6,
    error(0, 7, ["R5.2", "R7.1"]),
    insert_action(0, 7, PK(1, "kiri_plain_2")),
)
# ume_ribbon is on the field, but it is not sakura.
illegal("pick_other_month", B6, error(0, 1, ["R5.2"]), set_action(0, 1, PK(1, "ume_ribbon")))
# hagi_ribbon is hagi, but in the stock.
illegal("pick_card_not_on_field", B6, error(0, 4, ["R5.2"]), set_action(0, 4, PK(0, "hagi_ribbon")))
# The decision comes where the played card's pick is due.
illegal("missing_pick_played", B6, error(0, 6, ["R5.2", "R5.3"]), delete_action(0, 6))
# Seat 1 still owes the drawn card's pick (R5.2); seat 0's play comes instead. The fault is
# the missing pick, not seat 0's turn order.
illegal("missing_pick_drawn", B6, error(0, 2, ["R5.2", "R5.3", "R5.5"]), delete_action(0, 2))


def _redeal_then_bad_pick(r: Json) -> None:
    r["deals"].insert(0, redeal_deal())
    r["deals"][1]["actions"][1] = PK(1, "ume_ribbon")


illegal("bad_pick_after_redeal", B6, error(1, 1, ["R5.2"]), _redeal_then_bad_pick)

# R5.6: the decision may not come before the drawn card's pick.
illegal(
    "decision_before_drawn_pick",
    record([p7()], expect=None),
    error(0, 3, ["R5.2", "R5.3", "R5.6"]),
    lambda r: r["deals"][0]["actions"].__setitem__(
        slice(3, 5), [K(0, False), PK(0, "momiji_plain_1")]
    ),
)

# Koikoi decisions (R7.1, R7.3).
illegal("koikoi_without_yaku", B1, error(0, 3, ["R7.1"]), insert_action(0, 3, K(1, True)))
illegal("shobu_without_yaku", B1, error(0, 3, ["R7.1"]), insert_action(0, 3, K(1, False)))
# Seat 0's tsukimi needs its decision (R7.1); seat 1's play comes instead.
illegal("missing_koikoi_decision", B1, error(0, 1, ["R7.1"]), delete_action(0, 1))
# After the koikoi at T5 (actions 4, 5), T7's play is action 7; seat 0's total stays 5.
illegal(
    "koikoi_after_koikoi_no_rise",
    record([pairs_deal(0, KOI_FIRST, KOI_SECOND, {5: [K(0, True)]})], expect=None),
    error(0, 8, ["R7.1"]),
    insert_action(0, 8, K(0, True)),
)
illegal(
    "koikoi_true_on_last_turn",
    record([copy.deepcopy(_last)], expect=None),
    error(0, 16, ["R7.3"]),
    lambda r: r["deals"][0]["actions"].append(K(1, True)),
)

# R7.3/R7.4: a rise on the round's last turn ends the round at once (only shobu remains), so
# an action after it is one after the round ended, whether the optional shobu was written
# (action 17) or not (action 16), by either seat.
illegal(
    "action_after_last_turn_win_shobu_unwritten",
    record([copy.deepcopy(_last)], expect=None),
    error(0, 16, ["R7.4"]),
    lambda r: r["deals"][0]["actions"].append(P(0, "matsu_plain_1")),
)
illegal(
    "action_by_winner_after_last_turn_win_shobu_unwritten",
    record([copy.deepcopy(_last)], expect=None),
    error(0, 16, ["R7.4"]),
    lambda r: r["deals"][0]["actions"].append(P(1, "matsu_plain_2")),
)
illegal(
    "action_after_last_turn_win_shobu_written",
    record([copy.deepcopy(_last_explicit)], expect=None),
    error(0, 17, ["R7.4"]),
    lambda r: r["deals"][0]["actions"].append(P(0, "matsu_plain_1")),
)

# Leftover actions after the round ended.
illegal(
    "action_after_shobu",
    B1,
    error(0, 5, []),
    lambda r: r["deals"][0]["actions"].append(P(1, "kiku_ribbon")),
)
illegal(
    "action_after_nagare",
    record([nagare_deal(0)], expect=None),
    error(0, 16, []),
    lambda r: r["deals"][0]["actions"].append(P(0, "matsu_plain_1")),
)
illegal(
    "action_after_teyaku",
    record(copy.deepcopy(STAKE_DEALS[:1]), first_oya=1, expect=None),
    error(0, 0, []),
    lambda r: r["deals"][0]["actions"].append(P(1, "sakura_curtain")),
)
illegal(
    "action_in_redeal",
    record([redeal_deal()], expect=None),
    error(0, 0, []),
    lambda r: r["deals"][0]["actions"].append(P(0, "matsu_crane")),
)

# A deal after the match ended (R2.3 at 0; R2.4 after the last round).
illegal(
    "deal_after_zero",
    record(copy.deepcopy(STAKE_DEALS), first_oya=1, expect=None),
    error(5, "-", ["R2.3"]),
    lambda r: r["deals"].append(teyaku_deal(PLAIN_HAND_B, KUTTSUKI_000, teyaku=(1,))),
)
illegal(
    "deal_after_shobu_to_zero",
    B1,
    error(1, "-", ["R2.3"]),
    lambda r: r["deals"].append(nagare_deal(0)),
)
illegal(
    "deal_after_last_round",
    record(copy.deepcopy(TEYAKU_MATCH), expect=None),
    error(7, "-", ["R2.4", "R2.1", "R2.5"]),
    lambda r: r["deals"].append(teyaku_deal(TESHI_422, PLAIN_HAND_A, teyaku=(0,))),
)

# Malformed actions: no verb, two verbs, an unknown key instead of a verb.
illegal(
    "two_verbs",
    B1,
    error(0, 0, []),
    set_action(0, 0, {"seat": 0, "play": "susuki_plain_1", "koikoi": True}),
)
illegal("no_verb", B1, error(0, 2, []), set_action(0, 2, {"seat": 1}))
illegal(
    "unknown_verb_only",
    B1,
    error(0, 2, []),
    set_action(0, 2, {"seat": 1, "discard": "hagi_plain_1"}),
)

# The record as a whole (deal -).
illegal(
    "unknown_format", B1, error("-", "-", []), lambda r: r.__setitem__("format", "koikoi-record/2")
)
illegal("missing_settings", B1, error("-", "-", []), lambda r: r.pop("settings"))
illegal("rounds_7", B1, error("-", "-", ["R2.1"]), lambda r: r["settings"].__setitem__("rounds", 7))
illegal("first_oya_2", B1, error("-", "-", []), lambda r: r.__setitem__("first_oya", 2))

MALFORMED = {
    # A record cut short in the middle of the stock list.
    "illegal_malformed_json": '{"format": "koikoi-record/1", "settings": {"rounds": 6, '
    '"doubling": true}, "first_oya": 0, "deals": [{"hands": [["matsu_',
    "illegal_not_an_object": '["koikoi-record/1"]\n',
}


# ================================================================ writing
def _line(v: object) -> str:
    return json.dumps(v, ensure_ascii=False)


def _deal_text(d: Json) -> str:
    keys = [f"     {_line(k)}: {_line(v)}" for k, v in d.items() if k != "actions"]
    acts = d.get("actions", [])
    body = ",\n".join(keys)
    if "actions" in d:
        if acts:
            body += ',\n     "actions": [\n' + ",\n".join(f"       {_line(a)}" for a in acts)
            body += "]"
        else:
            body += ',\n     "actions": []'
    return "    {" + body.lstrip() + "}"


def dump(rec: Json) -> str:
    """JSON with one deal field, one action and one expected round per line."""
    parts = []
    for k, v in rec.items():
        if k == "deals" and v:
            parts.append('  "deals": [\n' + ",\n".join(_deal_text(d) for d in v) + "]")
        elif k == "expect" and isinstance(v, dict) and v.get("rounds"):
            rest = {kk: vv for kk, vv in v.items() if kk != "rounds"}
            rounds = ",\n".join(f"     {_line(r)}" for r in v["rounds"])
            parts.append('  "expect": {"rounds": [\n' + rounds + "],\n   " + _line(rest)[1:])
        else:
            parts.append(f"  {_line(k)}: {_line(v)}")
    return "{\n" + ",\n".join(parts) + "\n}"


def main() -> None:
    for old in HERE.glob("*.json"):
        old.unlink()
    for name, rec in RECORDS.items():
        text = dump(rec) + "\n"
        assert json.loads(text) == rec
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")
    for name, text in MALFORMED.items():
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")
        (HERE / f"{name}.expect.json").write_text(
            json.dumps({"expect": error("-", "-", [])}) + "\n", encoding="utf-8"
        )
    print(f"{len(RECORDS) + len(MALFORMED)} records written to {HERE}")


if __name__ == "__main__":
    main()
