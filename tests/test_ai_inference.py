"""What ``hard`` reads from the opponent's play: a seat that threw a card away held nothing
that could capture on the field it faced (``koikoi.ai.hard.suspects``), and the sampled
hands follow that reading while the stock stays uniformly shuffled."""

from __future__ import annotations

import random

from koikoi.ai import get_player
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
