"""What ``hard`` reads from the opponent's play: a seat that threw a card away held nothing
that could capture on the field it faced (``koikoi.ai.hard.suspects``), and the sampled
hands follow that reading while the stock stays uniformly shuffled. ``expert`` reads every
play (``koikoi.ai.expert.Reading``): its samples come closer to the hand really held."""

from __future__ import annotations

import math
import random

from koikoi.ai import get_player
from koikoi.ai.expert import Reading
from koikoi.ai.hard import sample, suspects
from koikoi.engine.cards import CARD_MONTH_MASK
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Observation, Settings


def _matches(count: int) -> list[tuple[Match, list[Observation]]]:
    """``normal`` against ``normal``; every observation of either seat along the way."""
    out = []
    player = get_player("normal")
    for i in range(count):
        m = Match(Settings(rounds=6), first_oya=i % 2)
        seen: list[Observation] = []
        while not m.finished:
            if m.needs_deal:
                m.deal(deck_from_seed(b"inference-%d" % i, m.round_no, m.deal_no))
                continue
            seat = m.current_seat()
            assert seat is not None and m.round is not None
            for s in (0, 1):
                obs = m.observation(s)
                # a player that always captures when it can never holds a suspect card
                assert not suspects(obs) & m.round.hands[1 - s], (i, s, obs.moves)
                seen.append(obs)
            obs = m.observation(seat)
            m.apply(player.choose(obs, obs.legal_actions, random.Random(0)), seat)
        out.append((m, seen))
    return out


def test_a_capturing_player_never_holds_a_suspect_card() -> None:
    played = _matches(6)
    # and the reading is not empty: throws happen, and they rule cards out
    assert sum(bool(suspects(obs)) for _, seen in played for obs in seen) > 50


def test_suspects_are_the_unseen_cards_of_the_months_on_a_field_met_by_a_throw() -> None:
    for _, seen in _matches(2):
        for obs in seen:
            expected = 0
            for move in obs.moves:
                card = move.action
                if move.seat != obs.seat and card < 48 and not move.field & CARD_MONTH_MASK[card]:
                    for c in range(48):
                        if move.field & CARD_MONTH_MASK[c]:
                            expected |= 1 << c
            assert suspects(obs) == expected & obs.unseen


def test_samples_weigh_suspects_down_and_leave_the_stock_uniform() -> None:
    obs = next(
        o
        for _, seen in _matches(1)
        for o in seen
        if suspects(o).bit_count() >= 3 and o.opponent_hand_size >= 5 and o.stock_size >= 10
    )
    s = suspects(obs)
    rng = random.Random(7)
    n = 3000
    in_hand = {True: 0, False: 0}
    stock_pos = {True: 0.0, False: 0.0}
    for weighted in (True, False):
        for _ in range(n):
            r = sample(obs, rng, s if weighted else 0)
            opponent = r.hands[1 - obs.seat]
            assert opponent.bit_count() == obs.opponent_hand_size
            in_hand[weighted] += (opponent & s).bit_count()
            stock = r.stock[r.stock_pos :]
            where = [i / (len(stock) - 1) for i, c in enumerate(stock) if s >> c & 1]
            stock_pos[weighted] += sum(where) / len(where) if where else 0.5
    uniform_share = obs.opponent_hand_size / obs.unseen.bit_count()
    assert abs(in_hand[False] / (n * s.bit_count()) - uniform_share) < 0.03
    assert in_hand[True] < 0.25 * in_hand[False]
    # the suspect cards left in the stock lie anywhere in it, not pushed to one end
    assert abs(stock_pos[True] / n - 0.5) < 0.03


def _positions_with_truth(count: int) -> list[tuple[Observation, int]]:
    """``normal`` against ``normal``: seat 0's observations with seat 1's real hand, where
    seat 1 has made a play this deal."""
    out = []
    player = get_player("normal")
    for i in range(count):
        m = Match(Settings(rounds=6), first_oya=i % 2)
        while not m.finished:
            if m.needs_deal:
                m.deal(deck_from_seed(b"reading-%d" % i, m.round_no, m.deal_no))
                continue
            seat = m.current_seat()
            assert seat is not None and m.round is not None
            obs = m.observation(0)
            if obs.opponent_hand_size >= 2 and any(move.seat == 1 for move in obs.moves):
                out.append((obs, m.round.hands[1]))
            obs = m.observation(seat)
            m.apply(player.choose(obs, obs.legal_actions, random.Random(0)), seat)
    return out


def test_expert_reads_the_opponents_hand_better_than_a_uniform_guess() -> None:
    """The reading of every play (koikoi.ai.expert.Reading, sampled by its chain) gives the
    cards the opponent really holds more probability than the uniform deal does: a lower
    log-loss of "this unseen card is in its hand" over real positions."""
    rng = random.Random(3)
    positions = _positions_with_truth(8)[::2]
    assert len(positions) > 40
    loss = {"uniform": 0.0, "reading": 0.0}
    cards = 0
    n = 200
    for obs, truth in positions:
        reading = Reading(obs)
        assert reading.terms  # the opponent has played: there is something to read
        counts = [0] * 48
        for _ in range(n):
            r = reading.draw(rng)
            hand = r.hands[1]
            assert hand.bit_count() == obs.opponent_hand_size and not hand & ~obs.unseen
            for c in range(48):
                counts[c] += hand >> c & 1
        share = obs.opponent_hand_size / obs.unseen.bit_count()
        for c in range(48):
            if obs.unseen >> c & 1:
                held = bool(truth >> c & 1)
                p = min(0.98, max(0.02, counts[c] / n))
                loss["reading"] -= math.log(p if held else 1 - p)
                loss["uniform"] -= math.log(share if held else 1 - share)
                cards += 1
    assert loss["reading"] / cards < loss["uniform"] / cards - 0.02, loss


def test_expert_samples_few_hands_that_could_have_captured_where_it_threw() -> None:
    """A throw onto a field says the thrower had nothing of its months; the reading's
    samples hold such cards far less often than a uniform deal would."""
    rng = random.Random(4)
    held = expected = 0.0
    for obs, _ in _positions_with_truth(6):
        s = suspects(obs)
        if not s:
            continue
        reading = Reading(obs)
        share = obs.opponent_hand_size / obs.unseen.bit_count()
        for _ in range(20):
            held += (reading.draw(rng).hands[1] & s).bit_count()
            expected += share * s.bit_count()
    assert expected > 100
    assert held < 0.5 * expected, (held, expected)
