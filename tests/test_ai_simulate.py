"""The driver loop and ``koikoi simulate`` (CLI.md), run as the real command."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from koikoi.ai.seat import AiSeat, bot_seat
from koikoi.ai.simulate import SimulationSpec, play_one, wilson
from koikoi.driver import play_match, seed_decks
from koikoi.engine.events import Dealt, Event, MatchEnded
from koikoi.engine.match import Observation, Settings
from koikoi.engine.record import GameRecord, replay
from koikoi.engine.round import Action, IllegalAction
from tests.conftest import run_koikoi

KEYS = {
    "games", "a_wins", "b_wins", "draws", "a_win_rate", "a_win_rate_ci95",
    "a_points_per_round", "b_points_per_round", "a_koikoi_calls", "a_koikoi_success",
    "b_koikoi_calls", "b_koikoi_success", "a_decision_ms_mean", "a_decision_ms_p95",
    "b_decision_ms_mean", "b_decision_ms_p95", "seconds",
}  # fmt: skip


class Recorder:
    """A seat that plays the first legal action and keeps every event it is told."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[0]

    def notify(self, events: Sequence[Event]) -> None:
        self.events.extend(events)


def test_driver_plays_a_whole_match_and_writes_a_record_that_replays():
    recorder = Recorder()
    record = GameRecord(Settings(rounds=12), first_oya=1)
    match = play_match(Settings(rounds=12), 1, (recorder, bot_seat("normal", seed=4)),
                       seed_decks(b"driver"), record)  # fmt: skip
    assert match.finished
    assert sum(match.scores) == 50
    replayed = replay(record.to_json())
    assert replayed["finished"] and replayed["scores"] == list(match.scores)
    assert replayed["winner"] == match.winner
    assert len(record.deals) == len(match.history)
    assert isinstance(recorder.events[0], Dealt)
    assert isinstance(recorder.events[-1], MatchEnded)


def test_the_driver_knows_no_computer_player():
    """The one loop runs any two seats; computer players live in koikoi.ai."""
    import subprocess
    import sys

    code = "import sys, koikoi.driver; print(sorted(m for m in sys.modules if 'koikoi.ai' in m))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_driver_is_reproducible_from_the_seeds():
    def run() -> dict[str, Any]:
        seats = (bot_seat("easy", seed=1), bot_seat("random", seed=2))
        record = GameRecord(Settings(), first_oya=0)
        play_match(Settings(), 0, seats, seed_decks(b"same"), record)
        return record.to_json()

    assert run() == run()


def test_driver_refuses_an_illegal_answer_R5_1():
    class Wrong(Recorder):
        def choose(self, observation):
            return 97  # shobu, when a card must be played

    with pytest.raises(IllegalAction) as caught:
        play_match(Settings(), 0, (Wrong(), Wrong()), seed_decks(b"x"))
    assert caught.value.rule == "R7.1"


def test_ai_seat_times_only_real_choices():
    seat = AiSeat(__import__("koikoi.ai").ai.get_player("greedy"), random.Random(0))
    play_match(Settings(), 0, (seat, bot_seat("greedy", seed=0)), seed_decks(b"t"))
    assert seat.decision_seconds and all(t >= 0 for t in seat.decision_seconds)


def test_a_match_of_a_run_depends_only_on_the_seed_and_its_number():
    spec = SimulationSpec("easy", "hard", 4, Settings(), "s", playouts=30)
    first = play_one(spec, 3)
    again = play_one(spec, 3)
    assert (first.winner, first.a_score, first.rounds) == (
        again.winner,
        again.a_score,
        again.rounds,
    )
    assert first.a_koikoi_calls == again.a_koikoi_calls


def test_wilson_interval():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.2 < hi < 0.35
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and 0.65 < lo < 0.8
    lo, hi = wilson(150, 200)
    assert lo < 0.75 < hi


def check_sane(out: dict[str, Any], games: int) -> None:
    assert out.keys() >= KEYS
    assert out["games"] == games
    assert out["a_wins"] + out["b_wins"] + out["draws"] == games
    assert out["a_win_rate"] == pytest.approx(out["a_wins"] / games)
    lo, hi = out["a_win_rate_ci95"]
    assert 0.0 <= lo <= out["a_win_rate"] <= hi <= 1.0
    assert out["a_points_per_round"] == pytest.approx(-out["b_points_per_round"])
    for side in "ab":
        assert 0.0 <= out[f"{side}_koikoi_success"] <= 1.0
        assert out[f"{side}_koikoi_calls"] >= 0
        assert out[f"{side}_decision_ms_mean"] >= 0.0
        assert out[f"{side}_decision_ms_p95"] >= 0.0
    assert out["seconds"] >= 0
    assert None not in out.values()


def test_simulate_command_prints_the_contract_json():
    args = ["simulate", "--a", "hard", "--b", "greedy", "--games", "4", "--seed", "7",
            "--playouts", "60"]  # fmt: skip
    proc = run_koikoi(*args)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    check_sane(out, 4)
    assert out["a_decision_ms_mean"] > 0  # hard searched
    # processes share the work without changing any result
    proc2 = run_koikoi(*args, "--jobs", "2")
    out2 = json.loads(proc2.stdout)
    timing = {k for k in out if "_ms_" in k} | {"seconds"}
    assert {k: v for k, v in out.items() if k not in timing} == {
        k: v for k, v in out2.items() if k not in timing
    }


def test_simulate_plays_expert_the_same_way_for_a_seed():
    """``expert`` is one of simulate's AI names (CLI.md), and a seed fixes its whole run."""
    args = ["simulate", "--a", "expert", "--b", "hard", "--games", "2", "--seed", "e",
            "--playouts", "40"]  # fmt: skip
    proc = run_koikoi(*args)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    check_sane(out, 2)
    assert out["a"] == "expert" and out["a_decisions"] > 0
    again = json.loads(run_koikoi(*args).stdout)
    timing = {k for k in out if "_ms_" in k} | {"seconds"}
    assert {k: v for k, v in out.items() if k not in timing} == {
        k: v for k, v in again.items() if k not in timing
    }


def test_simulate_twelve_rounds_without_doubling():
    proc = run_koikoi("simulate", "--a", "normal", "--b", "easy", "--games", "6",
                      "--rounds", "12", "--no-doubling", "--seed", "x")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    check_sane(out, 6)
    assert out["settings"] == {"rounds": 12, "doubling": False}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--a", "hard", "--b", "nobody", "--games", "2"], "unknown player 'nobody'"),
        (["--a", "hard", "--b", "easy", "--games", "0"], "--games"),
        (["--a", "hard", "--b", "easy", "--games", "two"], "--games"),
        (["--a", "hard", "--b", "easy", "--games", "1_0"], "--games"),
        (["--a", "hard", "--b", "easy", "--games", "+3"], "--games"),
        (["--a", "hard", "--b", "easy", "--games", "2", "--rounds", "7"], "--rounds"),
        (["--a", "hard", "--b", "easy", "--games", "2", "--jobs", "0"], "--jobs"),
        (["--a", "hard", "--games", "2"], "--b"),
    ],
)
def test_simulate_bad_arguments_are_one_line_and_exit_2(args, fragment):
    proc = run_koikoi("simulate", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("koikoi: ")
    assert fragment in lines[0]


def test_a_seed_of_any_bytes_plays_and_its_utf8_text_is_the_same_seed():
    """CLI.md: ``--seed`` is any text. A command line's bytes that are not UTF-8 are a seed
    too (as they were given); a seed that is UTF-8 plays as it always did."""
    import os
    import subprocess
    import sys

    from koikoi.ai.simulate import deck_seed
    from tests.conftest import REPO, user_environment

    def simulate(seed: bytes) -> dict[str, Any]:
        args = [sys.executable, "-m", "koikoi", "simulate", "--a", "random", "--b", "greedy"]
        cmd = [os.fsencode(a) for a in args] + [b"--games", b"2", b"--seed", seed]
        proc = subprocess.run(cmd, capture_output=True, cwd=REPO, env=user_environment())
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        out = json.loads(proc.stdout)
        return {k: v for k, v in out.items() if "second" not in k and "ms" not in k}

    assert simulate(b"\xff\xfe") == simulate(b"\xff\xfe")  # reproducible by its bytes
    ff, fe = os.fsdecode(b"\xff\xfe"), os.fsdecode(b"\xfe\xff")
    assert deck_seed(ff, 0) != deck_seed(fe, 0)
    assert deck_seed("koi", 0) == deck_seed(os.fsdecode(b"koi"), 0)
