"""The match: stakes, the cap, the end, rounds that count and the oya (RULES.md R2, R3)."""

from __future__ import annotations

import random

import pytest

from koikoi.engine.cards import CARD_KINDS, Kind, month_of, parse_card
from koikoi.engine.deck import Deal, deck_from_seed
from koikoi.engine.events import Dealt, MatchEnded, RoundEnded, StakesPaid
from koikoi.engine.match import (
    STAKE,
    Match,
    MatchOver,
    Settings,
    first_oya_of,
    turn_for_first_oya,
)
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI, SHOBU, Phase, pick, play
from tests.engine_support import c, find_position, koikoi_policy, make_deal

TESHI = ["matsu_crane", "matsu_ribbon", "matsu_plain_1", "matsu_plain_2",
         "ume_warbler", "sakura_curtain", "fuji_cuckoo", "ayame_bridge"]  # fmt: skip
SINGLES = ["ume_plain_1", "sakura_plain_1", "fuji_plain_1", "ayame_plain_1",
           "botan_plain_1", "hagi_plain_1", "susuki_plain_1", "kiku_plain_1"]  # fmt: skip
FIELD = ["ume_ribbon", "sakura_ribbon", "fuji_ribbon", "ayame_ribbon",
         "momiji_deer", "yanagi_rainman", "kiri_phoenix", "momiji_ribbon"]  # fmt: skip
FOUR_KIRI = ["kiri_phoenix", "kiri_plain_yellow", "kiri_plain_1", "kiri_plain_2",
             "ume_ribbon", "sakura_ribbon", "fuji_ribbon", "ayame_ribbon"]  # fmt: skip
SINGLES_2 = ["matsu_plain_1", "ume_plain_2", "sakura_plain_2", "fuji_plain_2",
             "botan_plain_2", "hagi_plain_2", "susuki_plain_2", "kiku_plain_2"]  # fmt: skip


def teyaku_deal(seat: int) -> Deal:
    """A deal that ends at once: ``seat`` holds teshi (6 points)."""
    return make_deal(TESHI, SINGLES, FIELD) if seat == 0 else make_deal(SINGLES, TESHI, FIELD)


def redeal_deal() -> Deal:
    return make_deal(SINGLES, SINGLES_2, FOUR_KIRI)


def deal(m: Match, d: Deal) -> list[object]:
    return list(m.deal_cards(d.hands, d.field, d.stock))


def teyaku_rounds(m: Match, *winners: int) -> None:
    for seat in winners:
        deal(m, teyaku_deal(seat))


# The scripted round of test_engine_round (R9.5): seat 0, oya, wins 10 x 2 x 3 = 60.
S_FIELD = ["kiku_sake_cup", "susuki_moon", "sakura_curtain", "botan_butterfly",
           "momiji_deer", "hagi_boar", "fuji_ribbon", "fuji_plain_1"]  # fmt: skip
S_HAND0 = ["kiku_plain_1", "susuki_plain_1", "sakura_plain_1", "matsu_plain_1",
           "ume_plain_1", "ayame_plain_1", "yanagi_lightning", "kiri_plain_1"]  # fmt: skip
S_HAND1 = ["botan_plain_1", "momiji_plain_1", "hagi_plain_1", "matsu_ribbon",
           "ume_ribbon", "ayame_ribbon", "yanagi_ribbon", "kiri_plain_2"]  # fmt: skip
S_STOCK = ["matsu_plain_2", "momiji_plain_2", "fuji_cuckoo", "ayame_plain_2",
           "fuji_plain_2", "ume_plain_2", "kiri_plain_yellow"]  # fmt: skip
S_ACTIONS = [
    (0, play(c("kiku_plain_1"))), (1, play(c("botan_plain_1"))),
    (0, play(c("susuki_plain_1"))), (0, pick(c("fuji_plain_1"))), (0, KOIKOI),
    (1, play(c("hagi_plain_1"))), (1, KOIKOI),
    (0, play(c("matsu_plain_1"))), (1, play(c("ayame_ribbon"))),
    (0, play(c("sakura_plain_1"))), (0, SHOBU),
]  # fmt: skip


def play_s_round(m: Match) -> list[object]:
    assert m.oya == 0
    deal(m, make_deal(S_HAND0, S_HAND1, S_FIELD, S_STOCK))
    events: list[object] = []
    for seat, action in S_ACTIONS:
        events = list(m.apply(action, seat))
    return events


# -- R2.1, R2.6 --------------------------------------------------------------------------------


def test_R2_1_stakes_and_settings() -> None:
    m = Match()
    assert m.scores == (STAKE, STAKE) == (25, 25)
    assert m.settings == Settings(rounds=6, doubling=True)
    assert (m.round_no, m.rounds_played, m.deal_no, m.finished) == (1, 0, 0, False)
    assert m.needs_deal and m.current_seat() is None and m.legal_actions() == ()
    assert Settings(rounds=12).rounds == 12
    for bad in (0, 5, 7, 13):
        with pytest.raises(ValueError):
            Settings(rounds=bad)
    with pytest.raises(ValueError):
        Settings(doubling="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Match(first_oya=2)


def test_R3_3_the_oya_deals_and_moves_first() -> None:
    for first in (0, 1):
        m = Match(first_oya=first)
        events = m.deal(deck_from_seed(b"oya", 1, 0))
        assert isinstance(events[0], Dealt) and events[0].oya == first
        assert (events[0].round_no, events[0].deal_no) == (1, 0)
        assert m.round is not None and m.round.oya == first
        if not m.round.over:
            assert m.current_seat() == first
            assert m.legal_actions() == m.round.legal_actions()


def test_deal_while_a_round_is_in_progress_is_refused() -> None:
    m = Match()
    with pytest.raises(ValueError):
        m.apply(play(0))  # no deal yet
    with pytest.raises(ValueError):
        m.observation(0)
    deal(m, make_deal(SINGLES, SINGLES_2, FIELD))
    assert not m.needs_deal
    with pytest.raises(ValueError):
        m.deal(deck_from_seed(b"x", 1, 0))


# -- R2.2, R9.4: paying ---------------------------------------------------------------------------


def test_R2_2_the_loser_pays_the_winner() -> None:
    m = Match()
    events = deal(m, teyaku_deal(1))
    result = m.history[-1].result
    assert events[1] == RoundEnded(result)
    assert events[2] == StakesPaid(1, 6, False, (19, 31), 1, True)
    assert m.scores == (19, 31) and m.rounds_played == 1
    assert m.history[-1].to_json() == {
        "result": "teyaku", "winner": 1, "yaku": [{"id": "teshi", "points": 6}], "base": 6,
        "koikoi": 0, "points": 6, "paid": 6, "scores": [19, 31], "next_oya": 1,
    }  # fmt: skip


def test_R2_2_payment_capped_at_the_losers_points() -> None:
    m = Match()
    teyaku_rounds(m, 0, 0, 0, 0)
    assert m.scores == (49, 1) and not m.finished
    events = deal(m, teyaku_deal(0))
    assert events[2] == StakesPaid(0, 1, True, (50, 0), 0, True)
    assert m.history[-1].paid == 1 and m.history[-1].capped
    assert m.history[-1].result.points == 6  # the round's points stay uncapped


def test_R9_4_sixty_points_against_25() -> None:
    m = Match()
    events = play_s_round(m)
    assert isinstance(events[0], RoundEnded)
    assert events[0].result.points == 60
    assert events[1] == StakesPaid(0, 25, True, (50, 0), 0, True)
    assert events[2] == MatchEnded((50, 0), 0)
    assert m.history[-1].to_json() == {
        "result": "win", "winner": 0,
        "yaku": [{"id": "hanami", "points": 5}, {"id": "tsukimi", "points": 5}],
        "base": 10, "koikoi": 2, "points": 60, "paid": 25, "scores": [50, 0], "next_oya": 0,
    }  # fmt: skip


# -- R2.3, R2.4: the end ---------------------------------------------------------------------


def test_R2_3_a_player_at_zero_ends_the_match() -> None:
    m = Match()
    teyaku_rounds(m, 1, 1, 1, 1, 1)
    assert m.scores == (0, 50) and m.rounds_played == 5
    assert m.finished and m.winner == 1 and not m.needs_deal
    assert m.round_no == 5 and m.current_seat() is None
    with pytest.raises(MatchOver):
        m.deal(deck_from_seed(b"x", 6, 0))
    with pytest.raises(MatchOver):
        deal(m, teyaku_deal(0))
    with pytest.raises(MatchOver):
        m.apply(play(0))
    assert issubclass(MatchOver, ValueError)


@pytest.mark.parametrize(
    ("winners", "scores", "winner"),
    [
        ((0, 1, 0, 1, 0, 1), (25, 25), None),  # R2.4: equal is a draw
        ((0, 0, 1, 0, 1, 0), (37, 13), 0),
        ((1, 1, 1, 0, 0, 1), (13, 37), 1),
    ],
)
def test_R2_4_after_the_last_round(
    winners: tuple[int, ...], scores: tuple[int, int], winner: int | None
) -> None:
    m = Match()
    teyaku_rounds(m, *winners[:-1])
    assert not m.finished and m.winner is None  # no winner while the match goes on
    events = deal(m, teyaku_deal(winners[-1]))
    assert m.finished and m.scores == scores and m.winner == winner
    assert events[-1] == MatchEnded(scores, winner)
    assert m.rounds_played == 6 and m.round_no == 6


def test_R2_1_twelve_rounds() -> None:
    m = Match(Settings(rounds=12))
    teyaku_rounds(m, *([0, 1] * 5), 0)
    assert not m.finished and m.round_no == 12
    deal(m, teyaku_deal(1))
    assert m.finished and m.rounds_played == 12 and m.winner is None


# -- R2.5, R4.5: redeals ---------------------------------------------------------------------


def test_R2_5_redeals_do_not_count() -> None:
    m = Match(first_oya=1)
    events = deal(m, redeal_deal())
    assert events[1] == RoundEnded(m.history[-1].result)
    assert m.history[-1].result.outcome is Outcome.REDEAL
    assert events[2] == StakesPaid(None, 0, False, (25, 25), 1, False)
    assert m.history[-1].to_json() == {"result": "redeal"}
    assert (m.rounds_played, m.round_no, m.deal_no, m.oya) == (0, 1, 1, 1)  # R4.5
    events = deal(m, redeal_deal())
    assert isinstance(events[0], Dealt) and (events[0].round_no, events[0].deal_no) == (1, 1)
    assert (m.rounds_played, m.deal_no) == (0, 2)
    teyaku_rounds(m, 0)
    assert (m.rounds_played, m.round_no, m.deal_no) == (1, 2, 0)
    for seat in (1, 0, 1, 0, 1):
        deal(m, redeal_deal())
        teyaku_rounds(m, seat)
    assert m.finished and m.rounds_played == 6 and len(m.history) == 2 + 1 + 10


def test_R2_5_redeal_order_from_the_seed_uses_the_deal_number() -> None:
    m = Match()
    deal(m, redeal_deal())
    dealt = m.deal(deck_from_seed(b"seed", m.round_no, m.deal_no))[0]
    assert isinstance(dealt, Dealt) and dealt.deal_no == 1


# -- R3.3: the next oya ----------------------------------------------------------------------


def test_R3_3_next_oya_after_a_win_and_a_teyaku() -> None:
    m = Match(first_oya=0)
    teyaku_rounds(m, 1)
    assert m.oya == 1 and m.history[-1].next_oya == 1
    teyaku_rounds(m, 0)
    assert m.oya == 0
    m2 = Match(first_oya=0)
    play_s_round(m2)
    assert m2.history[-1].next_oya == 0


def test_R3_3_teyaku_of_the_non_oya_makes_it_oya() -> None:
    m = Match(first_oya=0)
    deal(m, make_deal(SINGLES, TESHI, FIELD))
    assert m.history[-1].result.winner == 1 and m.oya == 1


@pytest.mark.parametrize("oya", [0, 1])
def test_R3_3_R7_5_nagare_keeps_the_oya(oya: int) -> None:
    def nagare(r: object) -> bool:
        result = getattr(r, "result", None)
        return result is not None and result.outcome is Outcome.NAGARE

    found = find_position(b"nagare-%d" % oya, koikoi_policy, nagare)
    if found.oya != oya:  # the seeded deals alternate the oya; take the next with ours
        found = find_position(
            b"nagare-%d" % oya, koikoi_policy, lambda r: nagare(r) and r.oya == oya
        )
    m = Match(first_oya=oya)
    deal(m, found.deal)
    events: list[object] = []
    for action in found.actions:
        assert m.round is not None
        events = list(m.apply(action, m.round.turn))
    assert m.history[-1].result.outcome is Outcome.NAGARE
    assert events[-1] == StakesPaid(None, 0, False, (25, 25), oya, True)
    assert m.oya == oya and m.rounds_played == 1  # R2.5: a nagare counts
    koikoi = found.round.koikoi_count
    assert m.history[-1].to_json() == {
        "result": "nagare", "koikoi": koikoi, "scores": [25, 25], "next_oya": oya
    }  # fmt: skip


# -- R3.1: the first oya ---------------------------------------------------------------------


def test_R3_1_examples_of_the_seed() -> None:
    assert first_oya_of(parse_card("ume_warbler"), parse_card("kiku_plain_1")) == 0
    assert first_oya_of(parse_card("kiku_plain_1"), parse_card("ume_warbler")) == 1
    assert first_oya_of(parse_card("sakura_plain_1"), parse_card("sakura_curtain")) == 1
    assert first_oya_of(parse_card("sakura_curtain"), parse_card("sakura_plain_1")) == 0
    assert first_oya_of(parse_card("sakura_plain_1"), parse_card("sakura_plain_2")) is None
    assert first_oya_of(parse_card("kiri_plain_1"), parse_card("kiri_plain_yellow")) is None


def test_R3_1_every_pair_of_cards() -> None:
    for a in range(48):
        for b in range(48):
            if a == b:
                continue
            got = first_oya_of(a, b)
            ma, mb = month_of(a), month_of(b)
            pa, pb = CARD_KINDS[a].points, CARD_KINDS[b].points
            if ma != mb:
                assert got == (0 if ma < mb else 1)
            elif pa != pb:
                assert got == (0 if pa > pb else 1)
            else:
                assert got is None and CARD_KINDS[a] is CARD_KINDS[b] is Kind.PLAIN


def test_R3_1_turn_for_first_oya() -> None:
    repeats = 0
    for seed in range(3000):
        result = turn_for_first_oya(random.Random(seed))
        *again, last = result.turns
        assert first_oya_of(*last) == result.oya
        for a, b in [*again, last]:
            assert a != b and 0 <= a < 48 and 0 <= b < 48
        for a, b in again:
            assert month_of(a) == month_of(b)
            assert CARD_KINDS[a] is CARD_KINDS[b] is Kind.PLAIN
        repeats += bool(again)
    assert repeats > 0  # two plains of a month do come up, and are turned again


# -- a match played through ------------------------------------------------------------------


def test_match_of_seeded_deals_with_shobu_at_once() -> None:
    """Random plays, shobu at every decision, decks from the seed: the match always ends."""
    rng = random.Random(7)
    m = Match(first_oya=1)
    deals = 0
    while not m.finished:
        if m.needs_deal:
            m.deal(deck_from_seed(b"match", m.round_no, m.deal_no))
            deals += 1
            continue
        assert m.round is not None
        legal = m.legal_actions()
        action = SHOBU if m.round.phase == Phase.DECIDE else rng.choice(legal)
        m.apply(action, m.current_seat())
    assert len(m.history) == deals
    assert sum(m.scores) == 50
    assert m.rounds_played == 6 or 0 in m.scores


def test_a_copy_plays_on_alone_on_either_core() -> None:
    """Match.copy (koikoi/net/verify.py's last-turn shobu): the copy, taken mid-round, plays
    to the match's end while the original stays where it was; the compiled round cannot be
    deep-copied."""
    rng = random.Random(8)
    m = Match()

    def step(match: Match) -> None:
        if match.needs_deal:
            match.deal(deck_from_seed(b"copy", match.round_no, match.deal_no))
        else:
            match.apply(rng.choice(match.legal_actions()))

    while not (m.history and len(m.moves) >= 3 and m.current_seat() is not None):
        step(m)
    seat = m.current_seat()
    assert seat is not None
    seen = m.observation(seat)
    before = (m.scores, m.oya, m.rounds_played, list(m.history), list(m.moves), m.finished)
    other = m.copy()
    while not other.finished:
        step(other)
    after = (m.scores, m.oya, m.rounds_played, list(m.history), list(m.moves), m.finished)
    assert after == before and len(other.history) > len(m.history)
    assert m.observation(seat) == seen and m.legal_actions() == seen.legal_actions
