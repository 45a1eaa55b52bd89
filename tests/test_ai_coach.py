"""The coach's ranking (koikoi/ai/coach.py): every move, best first, each with the chance of
the same sampled deals and the reasons a player can check on the table."""

from __future__ import annotations

import random
from dataclasses import replace

from koikoi.ai.base import Budget
from koikoi.ai.coach import Advice, _advice, advise, card_of
from koikoi.ai.hard import distinct
from koikoi.engine.cards import CARD_MONTH_MASK, parse_card
from koikoi.engine.match import Match, Observation, Settings
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Phase
from koikoi.engine.yaku import Yaku


def first_play(seed: int) -> Observation:
    rng = random.Random(seed)
    match = Match(Settings())
    while True:
        order = list(range(48))
        rng.shuffle(order)
        match.deal(order)
        if match.round is not None and not match.round.over:
            return match.observation(match.round.turn)


def bits(*names: str) -> int:
    return sum(1 << parse_card(n) for n in names)


def test_every_move_is_ranked_on_the_same_deals_best_first() -> None:
    obs = first_play(1)
    ranked = advise(obs, random.Random(5), budget=Budget(playouts=400))
    assert sorted(a.action for a in ranked) == sorted(distinct(obs, obs.legal_actions))
    chances = [a.chance for a in ranked]
    assert chances == sorted(chances, reverse=True) and all(0 <= c <= 1 for c in chances)
    assert len({a.samples for a in ranked}) == 1 and ranked[0].samples >= 2
    for advice in ranked:  # what each card meets on the field
        card = card_of(advice.action)
        assert card is not None
        meets = obs.field & CARD_MONTH_MASK[card]
        assert advice.takes == meets and advice.choice == (meets.bit_count() == 2)
    # the same generator, the same ranking: a hint can be told again
    again = advise(obs, random.Random(5), budget=Budget(playouts=400))
    assert again == ranked


def test_a_lone_move_is_given_without_a_search() -> None:
    obs = first_play(2)
    only = obs.legal_actions[0]
    (advice,) = advise(replace(obs, legal_actions=(only,)), random.Random(0))
    assert advice.action == only and advice.samples == 0


def test_no_move_no_advice() -> None:
    assert advise(replace(first_play(3), legal_actions=()), random.Random(0)) == []


def test_a_capture_that_completes_boar_deer_butterflies_makes_it() -> None:
    obs = replace(
        first_play(4),
        hand=bits("botan_plain_1", "kiri_plain_1"),
        field=bits("botan_butterfly", "matsu_plain_1"),
        captured=(bits("hagi_boar", "momiji_deer"), 0),
        seat=0,
    )
    advice = _advice(obs, parse_card("botan_plain_1"), 0.5, 10)
    assert advice.takes == bits("botan_butterfly") and not advice.choice
    assert advice.makes == (Yaku.INOSHIKACHO,)


def test_the_second_of_three_lights_brings_three_lights_within_one_card() -> None:
    obs = replace(
        first_play(5),
        hand=bits("matsu_crane", "kiri_plain_1"),
        field=bits("matsu_plain_1", "ume_plain_1"),
        captured=(bits("sakura_curtain"), 0),
        seat=0,
    )
    advice = _advice(obs, parse_card("matsu_crane"), 0.5, 10)
    assert Yaku.SANKO in advice.near and advice.makes == ()
    # before it, one light in the pile: no light yaku was one card away
    thrown = _advice(obs, parse_card("kiri_plain_1"), 0.5, 10)
    assert thrown.takes == 0 and Yaku.SANKO not in thrown.near


def test_a_card_thrown_that_completes_the_opponents_yaku_is_said() -> None:
    obs = replace(
        first_play(6),
        hand=bits("kiku_sake_cup", "ume_plain_1"),
        field=bits("matsu_plain_1"),
        captured=(0, bits("sakura_curtain")),
        seat=0,
    )
    advice = _advice(obs, parse_card("kiku_sake_cup"), 0.5, 10)
    assert advice.takes == 0 and Yaku.HANAMI in advice.offers


def test_a_pick_takes_the_picked_card() -> None:
    obs = replace(first_play(7), phase=Phase.PICK_PLAYED, pending=parse_card("matsu_crane"))
    advice = _advice(obs, PICK_BASE + parse_card("matsu_ribbon"), 0.5, 10)
    assert advice.takes == bits("matsu_ribbon") and not advice.choice


def test_koikoi_and_shobu_carry_chances_only() -> None:
    obs = replace(first_play(8), phase=Phase.DECIDE)
    for action in (KOIKOI, SHOBU):
        assert _advice(obs, action, 0.4, 10) == Advice(action, 0.4, 10)
