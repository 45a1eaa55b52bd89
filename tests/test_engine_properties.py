"""Random full matches through the checked door (``Match.apply``), invariants at every step,
and the record written as they go replaying to the same results (STYLE.md: random playouts
checking that 48 cards are conserved, stakes sum to 50 and nobody goes below 0)."""

from __future__ import annotations

import random

from hypothesis import event, given, settings
from hypothesis import strategies as st

from koikoi.engine.deck import deal_from_order, deck_from_seed
from koikoi.engine.events import Dealt, MatchEnded, RoundEnded, StakesPaid
from koikoi.engine.match import Match, Settings
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import GameRecord, loads, replay, replay_text
from koikoi.engine.round import KOIKOI, SHOBU, Phase
from tests.engine_support import assert_conserved

MAX_ACTIONS_PER_DEAL = 16 + 32 + 16  # plays, at most two picks per turn, decisions


def gather(order: list[int], month: int, at: int) -> list[int]:
    """The order with the four cards of ``month`` moved to positions ``at``..``at + 3``: at 16
    they are on the field (a redeal, R4.2), at 0 or 8 in one hand (teshi, R8.1)."""
    out = list(order)
    for k in range(4):
        card = 4 * month + k
        i = out.index(card)
        out[i], out[at + k] = out[at + k], out[i]
    return out


def check_hidden(m: Match) -> None:
    r = m.round
    assert r is not None
    for seat in (0, 1):
        obs = m.observation(seat)
        hidden = r.hands[1 - seat]
        for card in r.stock[r.stock_pos :]:
            hidden |= 1 << card
        assert obs.unseen == hidden
        pending = 1 << obs.pending if obs.pending >= 0 else 0
        assert not (obs.hand | obs.field | obs.captured[0] | obs.captured[1] | pending) & hidden
        assert obs.legal_actions == (r.legal_actions() if r.turn == seat and not r.over else ())


@settings(max_examples=80, deadline=None)
@given(
    seed=st.binary(max_size=16),
    rng_seed=st.integers(0, 2**32),
    rounds=st.sampled_from([6, 12]),
    doubling=st.booleans(),
    first_oya=st.integers(0, 1),
    koikoi=st.floats(0, 1),
    special=st.sampled_from([0.0, 0.0, 0.2, 0.5]),
)
def test_random_full_matches(
    seed: bytes,
    rng_seed: int,
    rounds: int,
    doubling: bool,
    first_oya: int,
    koikoi: float,
    special: float,
) -> None:
    rng = random.Random(rng_seed)
    m = Match(Settings(rounds, doubling), first_oya)
    rec = GameRecord(m.settings, first_oya)
    deals = 0
    actions_this_deal = 0
    while not m.finished:
        before = m.scores
        if m.needs_deal:
            order = deck_from_seed(seed, m.round_no, m.deal_no)
            if rng.random() < special:  # now and then a redeal or a teyaku, rare when shuffled
                order = gather(order, rng.randrange(12), rng.choice([0, 8, 16]))
            oya, round_no, deal_no = m.oya, m.round_no, m.deal_no
            events = m.deal(order)
            r = m.round
            assert r is not None
            expected = deal_from_order(order, oya)
            assert events[0] == Dealt(oya, round_no, deal_no, expected.field, expected.hands)
            assert (r.hands[0], r.hands[1], r.field, tuple(r.stock)) == (
                *expected.hands, expected.field, expected.stock
            )  # fmt: skip
            rec.add_deal(r.dealt_hands, r.field, r.stock)
            deals += 1
            actions_this_deal = 0
        else:
            r = m.round
            assert r is not None
            seat = m.current_seat()
            assert seat == r.turn
            legal = m.legal_actions()
            assert legal
            if r.phase == Phase.DECIDE and KOIKOI in legal:
                action = KOIKOI if rng.random() < koikoi else SHOBU
            else:
                action = rng.choice(legal)
            events = m.apply(action, seat)
            rec.add_action(seat, action, t=actions_this_deal)  # an extra key, ignored on replay
            actions_this_deal += 1
            assert actions_this_deal <= MAX_ACTIONS_PER_DEAL
        # -- invariants at every step --
        r = m.round
        assert r is not None
        assert_conserved(r)
        assert r.hands[0] | r.hands[1] | r.field | r.captured[0] | r.captured[1] != 0
        assert sum(m.scores) == 50 and min(m.scores) >= 0
        check_hidden(m)
        paid = [e for e in events if isinstance(e, StakesPaid)]
        ended = [e for e in events if isinstance(e, RoundEnded)]
        assert len(paid) == len(ended) == (1 if r.over else 0)
        if paid:
            result = ended[0].result
            assert result == r.result
            if result.winner is None:
                assert m.scores == before and paid[0].paid == 0
            else:
                loser_had = before[1 - result.winner]
                assert paid[0].paid == min(result.points, loser_had)  # R2.2, R9.4
                assert result.points > 0
                assert m.scores[result.winner] == before[result.winner] + paid[0].paid
            if result.outcome is Outcome.NAGARE:
                assert r.hands == [0, 0]
        assert (MatchEnded(m.scores, m.winner) in events) == m.finished
    for h in m.history:
        event(h.result.outcome.value)
    # -- the end (R2.3, R2.4) --
    assert m.rounds_played == rounds or 0 in m.scores
    assert m.rounds_played <= rounds
    assert len(m.history) == deals
    assert sum(h.result.outcome is not Outcome.REDEAL for h in m.history) == m.rounds_played
    # -- the record replays to the same results --
    expected_replay = {
        "rounds": [h.to_json() for h in m.history],
        "scores": list(m.scores),
        "winner": m.winner,
        "finished": True,
    }
    assert replay(rec.to_json()) == expected_replay
    assert replay_text(rec.dumps()) == expected_replay
    assert loads(rec.dumps()) == rec.to_json()


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(max_size=16), rng_seed=st.integers(0, 2**32))
def test_records_cut_anywhere_replay_as_far_as_they_go(seed: bytes, rng_seed: int) -> None:
    """A record that stops inside a deal replays that deal as ``in_progress``."""
    rng = random.Random(rng_seed)
    m = Match(Settings(6, True), 0)
    rec = GameRecord(m.settings, 0)
    stop = rng.randrange(1, 200)
    for _ in range(stop):
        if m.finished:
            break
        if m.needs_deal:
            m.deal(deck_from_seed(seed, m.round_no, m.deal_no))
            assert m.round is not None
            rec.add_deal(m.round.dealt_hands, m.round.field, m.round.stock)
        else:
            seat = m.current_seat()
            assert seat is not None
            action = rng.choice(m.legal_actions())
            m.apply(action, seat)
            rec.add_action(seat, action)
    r = m.round
    if r is not None and r.phase == Phase.DECIDE and r.last_turn:
        m.apply(SHOBU)  # R7.3: the last turn's shobu may go unwritten; replay supplies it
    out = replay(rec.to_json())
    assert out["scores"] == list(m.scores) and out["finished"] == m.finished
    if m.round is not None and not m.round.over:
        assert out["rounds"][-1] == {"result": "in_progress"}
        assert out["rounds"][:-1] == [h.to_json() for h in m.history]
        assert out["winner"] is None
    else:
        assert out["rounds"] == [h.to_json() for h in m.history]
