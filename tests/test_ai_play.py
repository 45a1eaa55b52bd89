"""The players play sensibly in positions built by hand (rule ids of RULES.md in names)."""

from __future__ import annotations

import random

import pytest

from koikoi.ai import LEVELS, PLAYERS, UnknownPlayer, get_player
from koikoi.ai.base import Budget
from koikoi.ai.hard import Policy, distinct, sample
from koikoi.ai.koikoi_model import outlook
from koikoi.ai.stakes import match_value, settle
from koikoi.engine.cards import parse_card
from koikoi.engine.match import Match
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Phase
from tests.ai_positions import cards, position

SMALL = Budget(playouts=200)


def choose(name: str, m, seed: int = 0, budget: Budget = SMALL) -> int:
    seat = m.current_seat()
    obs = m.observation(seat)
    return get_player(name).choose(obs, obs.legal_actions, random.Random(seed), budget)


def test_registry_names_levels_and_errors():
    assert PLAYERS == ("random", "greedy", "easy", "normal", "hard", "expert")
    assert set(LEVELS) <= set(PLAYERS)
    for name in PLAYERS:
        player = get_player(name)
        assert player.name == name
        assert callable(player.choose)
    with pytest.raises(UnknownPlayer, match="unknown player 'grandmaster'"):
        get_player("grandmaster")


# -- greedy ---------------------------------------------------------------------------------


def test_greedy_takes_the_capture_worth_most_yaku_points_R6():
    # Holding boar and deer, the butterfly on the field makes inoshikacho (5): greedy takes it
    # rather than the crane, which is worth more card points but makes no yaku yet.
    m = position(
        hands=(
            cards("botan_plain_1", "matsu_plain_1", "kiri_plain_1"),
            cards("ume_plain_1", "ume_plain_2", "fuji_plain_1"),
        ),
        field=cards("botan_butterfly", "matsu_crane", "sakura_plain_1"),
        captured=(cards("hagi_boar", "momiji_deer"), 0),
    )
    assert choose("greedy", m) == parse_card("botan_plain_1")


def test_greedy_takes_more_card_points_without_yaku_and_throws_the_cheapest():
    m = position(
        hands=(cards("matsu_plain_1", "sakura_plain_1"), cards("ume_plain_1", "ume_plain_2")),
        field=cards("matsu_plain_2", "sakura_curtain"),
    )
    assert choose("greedy", m) == parse_card("sakura_plain_1")  # the light, not the plain
    m = position(
        hands=(cards("matsu_crane", "kiri_plain_1"), cards("ume_plain_1", "ume_plain_2")),
        field=cards("fuji_plain_1", "ayame_plain_1"),
    )
    assert choose("greedy", m) == parse_card("kiri_plain_1")  # nothing to take: keep the light


def test_greedy_picks_the_better_card_and_shobus_at_once_R5_2_R7_1():
    m = position(
        hands=(cards("kiri_plain_1"), cards("ume_plain_1")),
        field=cards("sakura_plain_1", "sakura_curtain"),
        turn=0,
        phase=Phase.PICK_PLAYED,
        pending=parse_card("sakura_plain_2"),
    )
    assert choose("greedy", m) == PICK_BASE + parse_card("sakura_curtain")
    m = position(
        hands=(cards("kiri_plain_1", "kiri_plain_2"), cards("ume_plain_1", "ume_plain_2")),
        field=cards("fuji_plain_1"),
        captured=(cards("hagi_boar", "momiji_deer", "botan_butterfly"), 0),
        phase=Phase.DECIDE,
    )
    assert choose("greedy", m) == SHOBU


# -- koikoi or shobu --------------------------------------------------------------------------


def last_round_position(scores, mine: int, theirs: int, hand_cards: int = 3):
    hands = (
        cards(*["kiri_plain_1", "kiri_plain_2", "yanagi_lightning"][:hand_cards]),
        cards(*["ume_plain_1", "ume_plain_2", "fuji_plain_1"][:hand_cards]),
    )
    return position(
        hands=hands,
        field=cards("ayame_plain_1", "ayame_plain_2"),
        captured=(mine, theirs),
        phase=Phase.DECIDE,
        scores=scores,
        round_no=6,
    )


AKATAN_PLUS_ONE = cards("matsu_ribbon", "ume_ribbon", "sakura_ribbon", "fuji_ribbon")  # 6


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "expert"])
def test_shobu_in_the_last_round_when_it_wins_the_match_R2_4(name):
    m = last_round_position((20, 30), AKATAN_PLUS_ONE, cards("botan_plain_1"))
    # shobu: 20 + 6 = 26 against 24, and the match is won
    assert settle((20, 30), 0, 0, 6) == 26
    for seed in range(5):
        assert choose(name, m, seed) == SHOBU


@pytest.mark.parametrize("name", ["normal", "hard", "expert"])
def test_koikoi_in_the_last_round_when_shobu_cannot_save_the_match_R7_1(name):
    # Five ribbons (tan, 1 point) and 18 points left against 32: a shobu ends the match
    # lost 19 to 31, while going on may still double the stake or make akatan.
    mine = cards("matsu_ribbon", "ume_ribbon", "fuji_ribbon", "ayame_ribbon", "hagi_ribbon")
    m = last_round_position((18, 32), mine, cards("botan_plain_1"))
    assert choose(name, m, budget=Budget(playouts=400)) == KOIKOI


def threatened_position() -> Match:
    """Round 2, our tan (1 point) with five turns left, and the opponent holding the cherry
    curtain and the moon while the sake cup lies on the field and every other kiku card is
    unseen: one kiku card from hanami + tsukimi, 10 points, doubled to 20, then doubled
    again by our koikoi."""
    mine = cards("fuji_ribbon", "ayame_ribbon", "hagi_ribbon", "yanagi_ribbon", "botan_ribbon")
    theirs = cards("sakura_curtain", "susuki_moon", "sakura_plain_1")
    return position(
        hands=(
            cards("matsu_plain_1", "ume_plain_1", "fuji_plain_1", "kiri_plain_1", "hagi_plain_1"),
            cards("ume_plain_2", "sakura_plain_2", "fuji_plain_2", "ayame_plain_1", "kiri_plain_2"),
        ),
        field=cards("kiku_sake_cup", "momiji_plain_1", "yanagi_lightning"),
        captured=(mine, theirs),
        phase=Phase.DECIDE,
        round_no=2,
    )


@pytest.mark.parametrize("name", ["normal", "hard", "expert"])
def test_no_koikoi_when_the_opponent_is_one_card_from_a_big_yaku_R9_2_R9_3(name):
    m = threatened_position()
    for seed in range(3):
        assert choose(name, m, seed, Budget(playouts=400)) == SHOBU


def safe_position() -> Match:
    """Round 1, our tan with the lights of matsu, sakura and kiri in hand and nothing of the
    opponent's in reach: going on is worth it."""
    return position(
        hands=(
            cards(
                "matsu_crane",
                "matsu_plain_1",
                "sakura_curtain",
                "sakura_plain_2",
                "kiri_phoenix",
                "kiri_plain_1",
            ),
            cards(
                "ume_plain_2",
                "fuji_plain_2",
                "ayame_plain_1",
                "hagi_plain_2",
                "kiri_plain_2",
                "susuki_plain_2",
            ),
        ),
        field=cards("matsu_plain_2", "sakura_plain_1", "kiri_plain_yellow", "momiji_plain_1"),
        captured=(
            cards("fuji_ribbon", "ayame_ribbon", "hagi_ribbon", "yanagi_ribbon", "botan_ribbon"),
            cards("ume_plain_1"),
        ),
        phase=Phase.DECIDE,
        round_no=1,
    )


def test_koikoi_model_sees_the_threat_and_the_lack_of_one():
    m = threatened_position()
    view = outlook(m.observation(0))
    assert not view.go_on
    assert view.theirs_first > 0.3
    # The same yaku with nothing of the opponent's in reach, early in the round: go on.
    safe = safe_position()
    view = outlook(safe.observation(0))
    assert view.go_on
    assert view.mine_first > view.theirs_first


def test_hard_without_time_for_one_sample_follows_the_koikoi_model():
    """With no time to search, the card-counting model decides koikoi or shobu alone."""
    for m, expected in ((threatened_position(), SHOBU), (safe_position(), KOIKOI)):
        assert outlook(m.observation(0)).go_on is (expected == KOIKOI)
        for budget in (Budget(deadline=0.0), Budget(stop=lambda: True)):
            assert choose("hard", m, budget=budget) == expected


def test_match_value_is_a_probability_that_rises_with_the_score():
    for rounds_left in range(12):
        values = [match_value(s, rounds_left) for s in range(51)]
        assert values[0] == 0.0 and values[50] == 1.0
        assert all(0.0 <= v <= 1.0 for v in values)
        assert values == sorted(values)
        assert abs(values[25] - 0.5) < 1e-9  # the game is symmetric


# -- the search's pieces ---------------------------------------------------------------------


def test_two_plains_of_a_month_are_one_move():
    m = position(
        hands=(
            cards("matsu_plain_1", "matsu_plain_2", "matsu_crane"),
            cards("ume_plain_1", "ume_plain_2", "fuji_plain_1"),
        ),
        field=cards("kiri_plain_1"),
    )
    obs = m.observation(0)
    assert distinct(obs, obs.legal_actions) == [
        parse_card("matsu_crane"),
        parse_card("matsu_plain_1"),
    ]


def test_playouts_end_every_round_and_value_it_as_a_probability():
    from tests.ai_positions import random_positions

    for m in random_positions(30, seed=11):
        seat = m.current_seat()
        assert seat is not None  # a position is a seat's choice
        obs = m.observation(seat)
        policy = Policy(obs)
        rng = random.Random(1)
        for a in obs.legal_actions:
            r = sample(obs, rng)
            r.push(a)
            v = policy.run(r)
            assert r.over and 0.0 <= v <= 1.0


@pytest.mark.parametrize("name", LEVELS)
def test_a_wall_clock_cap_still_answers_legally(name):
    from tests.ai_positions import random_positions

    for m in random_positions(5, seed=5):
        seat = m.current_seat()
        assert seat is not None  # a position is a seat's choice
        obs = m.observation(seat)
        expired = Budget(playouts=10**9, deadline=0.0)
        action = get_player(name).choose(obs, obs.legal_actions, random.Random(0), expired)
        assert action in obs.legal_actions
        stopped = Budget(playouts=10**9, stop=lambda: True)
        action = get_player(name).choose(obs, obs.legal_actions, random.Random(0), stopped)
        assert action in obs.legal_actions


def test_easy_is_beatable_but_never_absurd_R5_1_R5_2():
    """Easy grabs the wrong capture now and then, but it never throws a card away while it
    could take one, never throws away more than its cheapest kind of card, and always picks
    the better of two field cards."""
    from koikoi.ai.knowledge import CARD_POINTS, STATIC_VALUE
    from koikoi.engine.cards import CARD_MONTH_MASK
    from tests.ai_positions import random_positions

    for i, m in enumerate(random_positions(120, seed=21)):
        seat = m.current_seat()
        assert seat is not None  # a position is a seat's choice
        obs = m.observation(seat)
        action = choose("easy", m, seed=i)
        legal = obs.legal_actions
        if obs.phase == Phase.PLAY:
            takes = [c for c in legal if obs.field & CARD_MONTH_MASK[c]]
            if takes:
                assert action in takes
            else:
                assert CARD_POINTS[action] == min(CARD_POINTS[c] for c in legal)
        elif obs.phase != Phase.DECIDE:
            best = max(STATIC_VALUE[a - PICK_BASE] for a in legal)
            assert STATIC_VALUE[action - PICK_BASE] == best
