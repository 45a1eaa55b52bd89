"""The bench's yardstick (koikoi/engine/listref.py) plays the engine's rules: the same deck
order and the same random choices give the same legal actions at every step and the same end."""

from __future__ import annotations

import random

import pytest

from koikoi.engine.cards import NUM_CARDS
from koikoi.engine.deck import deal_from_order
from koikoi.engine.listref import ListRound, has_teyaku, yaku_points
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import Round
from koikoi.engine.yaku import base_points, teyaku_of


def test_same_rounds_as_the_engine():
    rng = random.Random(24)
    outcomes = set()
    for n in range(3000):
        order = list(range(NUM_CARDS))
        rng.shuffle(order)
        oya = n & 1
        doubling = n % 3 != 0
        r = Round(deal_from_order(order, oya), oya, doubling)
        lr = ListRound(order, oya, doubling)
        while not r.over:
            actions = r.legal_actions()
            assert list(actions) == lr.legal_actions()
            action = rng.choice(actions)
            r.push(action)
            lr.push(action)
            assert lr.over == r.over
        assert r.result is not None
        assert lr.legal_actions() == []
        assert lr.outcome == r.result.outcome.value
        assert lr.winner == (-1 if r.result.winner is None else r.result.winner)
        assert lr.points == r.result.points
        outcomes.add(r.result.outcome)
    assert outcomes == set(Outcome)  # every way a round ends was compared


def test_yaku_points_and_teyaku_agree_with_the_engine():
    rng = random.Random(5)
    for _ in range(5000):
        pile = rng.sample(range(NUM_CARDS), rng.randint(0, 24))
        bits = sum(1 << c for c in pile)
        assert yaku_points(pile) == base_points(bits)
        hand = pile[:8]
        if len(hand) == 8:
            assert has_teyaku(hand) == (teyaku_of(sum(1 << c for c in hand)) is not None)


def test_a_bad_order_is_refused():
    with pytest.raises(ValueError):
        ListRound([0] * 48)
