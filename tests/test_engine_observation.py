"""What a seat may see (DESIGN.md "Hidden information") and determinization for search."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.engine.cards import to_set
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Observation, Settings, determinize, observe
from koikoi.engine.round import KOIKOI, Phase, Round
from tests.engine_support import snapshot

OBSERVATION_FIELDS = {
    "seat", "settings", "scores", "round_no", "oya", "turn", "phase", "hand", "field",
    "captured", "stock_size", "opponent_hand_size", "pending", "candidates", "koikoi_count",
    "koikoi_calls", "baselines", "totals", "legal_actions", "moves",
}  # fmt: skip


def hidden_from(r: Round, seat: int) -> int:
    """The cards ``seat`` has not seen: the opponent's hand and the stock still to draw."""
    return r.hands[1 - seat] | to_set(r.stock[r.stock_pos :])


def positions(seed: bytes, rng: random.Random, koikoi: float) -> Iterator[Match]:
    """A random match, yielded at every position (after each deal and each action)."""
    m = Match(Settings(rounds=6), first_oya=rng.randrange(2))
    while not m.finished:
        if m.needs_deal:
            m.deal(deck_from_seed(seed, m.round_no, m.deal_no))
        else:
            assert m.round is not None
            legal = m.legal_actions()
            if m.round.phase == Phase.DECIDE and KOIKOI in legal:
                action = legal[0] if rng.random() < koikoi else legal[-1]
            else:
                action = rng.choice(legal)
            m.apply(action, m.current_seat())
        yield m


def test_observation_has_no_field_for_hidden_cards() -> None:
    # A new field must be checked here before it may reach the AI or the window.
    assert {f.name for f in dataclasses.fields(Observation)} == OBSERVATION_FIELDS


def check_observation(m: Match, seat: int) -> Observation:
    r = m.round
    assert r is not None
    obs = m.observation(seat)
    hidden = hidden_from(r, seat)
    assert obs.unseen == hidden
    assert obs.seat == seat and obs.hand == r.hands[seat]
    assert obs.field == r.field and obs.captured == tuple(r.captured)
    assert obs.stock_size == r.stock_left
    assert obs.opponent_hand_size == r.hands[1 - seat].bit_count()
    assert (obs.scores, obs.round_no, obs.settings) == (m.scores, m.round_no, m.settings)
    assert (obs.oya, obs.turn, obs.phase, obs.pending) == (r.oya, r.turn, r.phase, r.pending)
    assert (obs.koikoi_count, obs.koikoi_calls) == (r.koikoi_count, tuple(r.koikoi_calls))
    assert (obs.baselines, obs.totals) == (tuple(r.baselines), tuple(r.totals))
    assert obs.candidates == r.candidates()
    # nothing the seat is shown is a hidden card
    pending = 1 << obs.pending if obs.pending >= 0 else 0
    shown = obs.hand | obs.field | obs.captured[0] | obs.captured[1] | obs.candidates | pending
    assert not shown & hidden
    if not r.over and r.turn == seat:
        assert obs.legal_actions == r.legal_actions()
    else:
        assert obs.legal_actions == ()
    for action in obs.legal_actions:  # plays of its own cards, picks of field cards
        card = action % 48 if action < 96 else -1
        assert card < 0 or not (1 << card) & hidden
    # the deal's moves are public: the same for both seats, and every card in them was shown
    assert obs.moves == m.observation(1 - seat).moves == tuple(m.moves)
    for move in obs.moves:
        card = move.action % 48 if move.action < 96 else -1
        assert not move.field & hidden and (card < 0 or not (1 << card) & hidden)
    return obs


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=8), st.randoms(use_true_random=False), st.floats(0, 1))
def test_observation_holds_no_hidden_card(seed: bytes, rng: random.Random, koikoi: float) -> None:
    for m in positions(seed, rng, koikoi):
        if m.round is not None:
            for seat in (0, 1):
                check_observation(m, seat)


def test_observe_without_a_match() -> None:
    m = next(positions(b"solo", random.Random(0), 0.5))
    assert m.round is not None
    obs = observe(m.round, 0)
    assert obs.scores == (25, 25) and obs.round_no == 1
    assert obs.settings.doubling == m.round.doubling
    assert obs.rounds_left == obs.settings.rounds - 1


def _play_out(a: Round, b: Round, rng: random.Random) -> None:
    """Push the same random actions to both rounds; they must stay identical."""
    while not a.over:
        assert a.legal_actions() == b.legal_actions()
        action = rng.choice(a.legal_actions())
        a.push(action)
        b.push(action)
        assert snapshot(a) == snapshot(b)
    assert b.over and a.result == b.result


@settings(max_examples=15, deadline=None)
@given(st.binary(max_size=8), st.randoms(use_true_random=False))
def test_determinize_with_the_real_cards_round_trips(seed: bytes, rng: random.Random) -> None:
    for m in positions(seed, rng, 0.7):
        r = m.round
        if r is None or r.over:
            continue
        for seat in (0, 1):
            obs = m.observation(seat)
            real = determinize(obs, r.hands[1 - seat], r.stock[r.stock_pos :])
            assert snapshot(real) == snapshot(r)
            assert real.legal_actions() == r.legal_actions()
            assert observe(real, seat, m) == obs
            _play_out(r.copy(), real, random.Random(rng.random()))


@settings(max_examples=15, deadline=None)
@given(st.binary(max_size=8), st.randoms(use_true_random=False))
def test_determinize_any_sample_gives_the_same_observation(seed: bytes, rng: random.Random) -> None:
    for m in positions(seed, rng, 0.7):
        r = m.round
        if r is None or r.over:
            continue
        seat = rng.randrange(2)
        obs = m.observation(seat)
        unseen = [c for c in range(48) if obs.unseen >> c & 1]
        rng.shuffle(unseen)
        k = obs.opponent_hand_size
        sample = determinize(obs, to_set(unseen[:k]), unseen[k:])
        assert observe(sample, seat, m) == obs
        assert sample.hands[seat] == r.hands[seat]
        while not sample.over:  # a sampled round plays to its end like any other
            sample.push(rng.choice(sample.legal_actions()))


def test_determinize_rejects_cards_that_do_not_fit() -> None:
    m = next(m for m in positions(b"fit", random.Random(3), 0.5) if not m.round.over)  # type: ignore[union-attr]
    r = m.round
    assert r is not None
    seat = 1 - r.turn
    obs = m.observation(seat)
    opp, stock = r.hands[1 - seat], list(r.stock[r.stock_pos :])
    mine = r.hands[seat] & -r.hands[seat]  # one of the seat's own (seen) cards
    low_opp = opp & -opp
    bad = [
        (opp & ~low_opp, stock),  # one card short
        (opp, stock[:-1]),  # stock too short
        (opp, [*stock[:-1], stock[0]]),  # a stock card twice
        ((opp & ~low_opp) | mine, stock),  # a seen card in the opponent's hand
        ((opp & ~low_opp) | (1 << stock[0]), [low_opp.bit_length() - 1, *stock[1:]]),
    ]
    for hand, s in bad[:4]:
        with pytest.raises(ValueError):
            determinize(obs, hand, s)
    hand, s = bad[4]  # swapping a hand card with a stock card is a fine sample
    assert observe(determinize(obs, hand, s), seat, m) == obs


def test_moves_log_the_deal_as_played() -> None:
    m = Match(Settings(rounds=6), first_oya=0)
    m.deal(deck_from_seed(b"moves", 1, 0))
    assert m.round is not None and m.moves == []
    seen = []
    while not m.round.over:
        seat, field_before = m.round.turn, m.round.field
        action = m.legal_actions()[0]
        m.apply(action, seat)
        seen.append((seat, action, field_before))
        assert [tuple(move) for move in m.observation(0).moves] == seen
    m.deal(deck_from_seed(b"moves", m.round_no, m.deal_no))
    assert m.observation(1).moves == ()  # a new deal starts a new log
