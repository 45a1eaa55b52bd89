"""``python -m koikoi.devtools.oracle``: expert's search on the true hidden cards."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable

import pytest

from koikoi.ai.basic import GreedyPlayer
from koikoi.ai.simulate import SimulationSpec, deck_seed
from koikoi.devtools import oracle
from koikoi.driver import seed_decks
from koikoi.engine.match import Match, Observation, Settings
from koikoi.engine.round import Action, Phase
from tests.conftest import REPO

Chooser = Callable[[Match, int, Observation], Action]


def play_matches(rng: random.Random, matches: int, choose: Chooser) -> None:
    """Play ``matches`` whole matches on random decks, each action by ``choose``."""
    for _ in range(matches):
        match = Match()
        while not match.finished:
            if match.needs_deal:
                match.deal(rng.sample(range(48), 48))
                continue
            seat = match.current_seat()
            assert seat is not None and match.round is not None
            obs = match.observation(seat)
            match.apply(choose(match, seat, obs), seat)


@pytest.mark.parametrize("sees", ["hand", "all"])
def test_the_oracle_deals_its_samples_from_the_true_hidden_cards(sees: str) -> None:
    player = oracle.OraclePlayer(sees)
    rng = random.Random(7)
    checked = 0

    def choose(match: Match, seat: int, obs: Observation) -> Action:
        nonlocal checked
        assert match.round is not None
        player.match = match
        true = match.round
        sample = player.draw_for(obs)(random.Random(checked))
        assert sample.hands == true.hands
        stock = sample.stock[sample.stock_pos :]
        truth = true.stock[true.stock_pos :]
        if sees == "all":
            assert stock == truth
        else:
            assert sorted(stock) == sorted(truth)
        checked += 1
        return rng.choice(obs.legal_actions)

    play_matches(rng, 2, choose)
    assert checked > 40


def test_a_greedy_opponents_hand_is_always_one_its_posterior_allows() -> None:
    """Against ``greedy`` the reader's posterior never rules out the hand really held, and
    it does rule cards out: the reading can fail either way."""
    greedy = GreedyPlayer()
    reader = oracle.GreedyReader()
    rng = random.Random(11)
    checked = narrowed = 0

    def choose(match: Match, seat: int, obs: Observation) -> Action:
        nonlocal checked, narrowed
        if seat == 1:
            return greedy.choose(obs, obs.legal_actions, rng)
        assert match.round is not None
        posterior = reader.observe(obs)
        held = match.round.hands[1]
        allowed = sum(1 << c for c in posterior.allowed)
        assert held & ~allowed == 0
        narrowed += allowed != obs.unseen
        sample = posterior.draw(random.Random(checked))
        assert sample.hands[1] & ~allowed == 0
        assert sample.hands[1].bit_count() == obs.opponent_hand_size
        checked += 1
        return rng.choice(obs.legal_actions)

    play_matches(rng, 12, choose)
    assert checked > 200
    assert narrowed > checked // 3


def test_the_oracle_is_dealt_simulate_s_decks_and_shown_each_match() -> None:
    spec = SimulationSpec("expert", "hard", 4, Settings(), "oracle-test")
    for i in range(4):
        player = oracle.OraclePlayer("hand")
        watched = oracle.watched_decks(spec, i, player)
        plain = seed_decks(deck_seed(spec.seed, i // 2))
        match = Match()
        assert watched(match) == plain(match)
        assert player.match is match


def test_the_playouts_can_play_the_opponents_seat_exactly_as_greedy_does() -> None:
    greedy = GreedyPlayer()
    rng = random.Random(3)
    compared = {"play": 0, "pick": 0, "decide": 0}

    def choose(match: Match, seat: int, obs: Observation) -> Action:
        assert match.round is not None
        if seat == 1:
            policy = oracle.GreedyOpponentPolicy(match.observation(0))
            r = match.round.copy()
            if obs.phase == Phase.PLAY:
                kind, move = "play", policy.play(r)
            elif obs.phase == Phase.DECIDE:
                kind, move = "decide", policy.decide(r)
            else:
                kind, move = "pick", policy.pick(r)
            assert move == greedy.choose(obs, obs.legal_actions, rng), kind
            compared[kind] += 1
        return rng.choice(obs.legal_actions)

    play_matches(rng, 8, choose)
    assert min(compared.values()) > 0, compared


def run_oracle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "koikoi.devtools.oracle", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--sees", "hand"],
        ["--sees", "greedy"],
        ["--sees", "greedy", "--playout-opponent", "greedy"],
    ],
)
def test_the_oracle_command_prints_simulate_s_json(args: list[str]) -> None:
    done = run_oracle(*args, "--b", "greedy", "--games", "2", "--playouts", "30", "--seed", "t")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["a"], out["b"], out["games"]) == (f"oracle-{args[1]}", "greedy", 2)
    assert out["a_wins"] + out["b_wins"] + out["draws"] == 2
    assert out["a_decisions"] > 0


@pytest.mark.parametrize(
    "args",
    [
        ["--sees", "greedy", "--b", "hard"],
        ["--sees", "hand", "--b", "greedy", "--playout-opponent", "greedy"],
    ],
)
def test_the_greedy_readings_are_refused_against_another_player(args: list[str]) -> None:
    done = run_oracle(*args, "--games", "1")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "greedy" in done.stderr.splitlines()[-1]
