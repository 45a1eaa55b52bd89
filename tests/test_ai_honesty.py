"""Every computer player is honest, legal and reproducible.

Honest: a player sees only its seat's observation, so dealing the hidden cards anew (the
opponent's hand and the stock order) while the observation and the random seed stay the
same never changes its choice. Legal: whatever it answers is one of the legal actions.
Reproducible: the same seed gives the same choice.
"""

from __future__ import annotations

import random

import pytest

from koikoi.ai import PLAYERS, get_player
from koikoi.ai.base import Budget
from koikoi.ai.expert import Reading
from koikoi.ai.seat import AiSeat
from koikoi.engine.match import observe
from koikoi.engine.round import Phase
from tests.ai_positions import random_positions, reshuffled, with_round

# Small search budgets keep the suite quick; the search code is the same at any budget.
BUDGET = {"hard": Budget(playouts=60), "expert": Budget(playouts=60)}
SEARCHERS = tuple(BUDGET)
POSITIONS = list(random_positions(80, seed=3))


def choose(name: str, m, seed: int) -> int:
    seat = m.current_seat()
    player = get_player(name)
    obs = m.observation(seat)
    return player.choose(obs, obs.legal_actions, random.Random(seed), BUDGET.get(name, Budget()))


@pytest.mark.parametrize("name", PLAYERS)
def test_hidden_cards_never_change_a_choice(name):
    positions = POSITIONS if name not in SEARCHERS else POSITIONS[:30]
    for i, m in enumerate(positions):
        seat = m.current_seat()
        assert m.round is not None and seat is not None  # a position is a seat's choice
        expected = choose(name, m, seed=i)
        real = (m.round.hands[1 - seat], tuple(m.round.stock[m.round.stock_pos :]))
        differs = False
        for k in range(8 if name not in SEARCHERS else 4):
            other = with_round(m, reshuffled(m, seed=1000 * i + k))
            assert other.round is not None
            assert observe(other.round, seat, other) == m.observation(seat)
            differs |= (other.round.hands[1 - seat], tuple(other.round.stock)) != real
            assert choose(name, other, seed=i) == expected, (name, i, k)
        assert differs or m.observation(seat).unseen.bit_count() < 2


@pytest.mark.parametrize("name", PLAYERS)
def test_every_choice_is_legal_and_reproducible(name):
    for i, m in enumerate(POSITIONS):
        first = choose(name, m, seed=i)
        assert first in m.legal_actions()
        if name in ("random", "easy", *SEARCHERS):  # the players that use their generator
            assert choose(name, m, seed=i) == first


def test_seats_through_the_driver_are_checked():
    """An AiSeat refuses to pass on an action its player should never have chosen."""

    class Cheat:
        name = "cheat"

        def choose(self, obs, legal, rng, budget=None):
            return 95

    m = POSITIONS[0]
    to_act = m.current_seat()
    assert to_act is not None
    seat = AiSeat(Cheat(), random.Random(0))
    with pytest.raises(ValueError, match="cheat"):
        seat.choose(m.observation(to_act))


def test_the_positions_cover_every_kind_of_choice():
    phases = {m.round.phase for m in POSITIONS if m.round is not None}
    assert {Phase.PLAY, Phase.DECIDE} <= phases
    assert phases & {Phase.PICK_PLAYED, Phase.PICK_DRAWN}
    # and the opponent's earlier plays, which hard and expert read, are in the observations
    searched = POSITIONS[:30]
    seats = [m.current_seat() for m in searched]
    assert None not in seats  # every position has a seat to act
    readings = [
        Reading(m.observation(seat))
        for m, seat in zip(searched, seats, strict=True)
        if seat is not None
    ]
    assert sum(bool(r.terms) for r in readings) >= 10
