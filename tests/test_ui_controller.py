"""The controller without pixels: whole matches against the computer with a presenter that
only keeps the table model, checked against the engine at every question; the numbers of
the koikoi panel; teyaku, redeal and the computer's time cap; the narration."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import pytest

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI
from koikoi.engine.yaku import round_points, yaku_of
from koikoi.ui.match.ai_worker import AiRunner
from koikoi.ui.match.controller import COMPUTER, HUMAN, GameController
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore
from koikoi.ui.match.timings import Timings
from koikoi.ui.table.table_model import TableModel

TEYAKU_OF_YOURS = b"special-deal-0000000000000000002"
TEYAKU_OF_THEIRS = b"special-deal-0000000000000000013"
REDEAL_FIRST = b"special-deal-0000000000000000393"


class ModelPresenter:
    """Keeps a table model from the events, as the table does, and nothing else."""

    def __init__(self) -> None:
        self.model = TableModel()
        self.events: list[Event] = []

    def present(self, event: Event, controller: GameController) -> int:
        self.events.append(event)
        self.model.apply(event)
        return 0

    def restore(
        self,
        obs: Observation,
        controller: GameController,
        events: Sequence[Event] = (),
        *,
        keep_log: bool = False,
    ) -> None:
        self.model = TableModel(me=self.model.me)
        self.model.restore(obs, events)


def run(qtbot, controller: GameController, rng: random.Random, until=None, on_input=None):
    c = controller
    for _ in range(5000):
        qtbot.waitUntil(
            lambda: c.mode not in (Mode.BUSY, Mode.IDLE) and not c._pump_timer.isActive(),
            timeout=30_000,
        )
        if on_input:
            on_input(c)
        if until and until(c):
            return
        mode = c.mode
        if mode is Mode.FIRST_OYA:
            c.start_dealing()
        elif mode is Mode.PLAY:
            assert c.play(rng.choice(c.legal_plays()))
        elif mode is Mode.PICK:
            assert c.pick(rng.choice(c.candidates()))
        elif mode is Mode.DRAW_WAIT:
            assert c.continue_draw()
        elif mode is Mode.DECIDE:
            assert c.decision is not None  # a decision comes with the panel's numbers
            assert c.decide(c.decision.can_koikoi and rng.random() < 0.5)
        elif mode is Mode.ROUND_OVER:
            assert c.match is not None
            if c.match.finished:
                c.next_round()
                assert c.mode is Mode.MATCH_OVER
                return
            c.next_round()
    raise AssertionError("too many steps")


def make(tmp_path, presenter=None) -> GameController:
    return GameController(presenter or ModelPresenter(), Timings.instant(), SaveStore(tmp_path))


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_whole_matches_keep_the_table_model_equal_to_the_engine(qtbot, tmp_path, level):
    presenter = ModelPresenter()
    c = make(tmp_path, presenter)
    checks = [0]
    decisions: list[tuple[int, int, bool]] = []

    def check(c: GameController) -> None:
        obs = c.observation(HUMAN)
        if obs is not None and c.mode in (Mode.PLAY, Mode.PICK, Mode.DECIDE, Mode.ROUND_OVER):
            assert presenter.model.check_against(obs) == []
            checks[0] += 1
        if c.mode is Mode.DECIDE:  # the koikoi panel's numbers are the engine's (R7, R9)
            info = c.decision
            assert obs is not None and info is not None
            assert info.yaku == tuple(yaku_of(obs.captured[HUMAN]))
            assert info.total == obs.totals[HUMAN] > obs.baselines[HUMAN]
            doubled, points = round_points(info.total, obs.koikoi_count, obs.settings.doubling)
            assert (info.doubled, info.points, info.multiplier) == (
                doubled,
                points,
                obs.koikoi_count + 1,
            )
            assert info.pay == min(points, obs.scores[COMPUTER])
            assert info.can_koikoi == (KOIKOI in obs.legal_actions)
            decisions.append((info.points, info.pay, info.can_koikoi))

    for seed in (1, 2):
        c.new_match(Settings(6, seed == 1), level, seed=b"headless-%d" % seed)
        run(qtbot, c, random.Random(seed), on_input=check)
        assert c.match is not None
        assert c.match.finished and sum(c.match.scores) == 50
        summary = c.match_summary()
        assert [o for _, o in summary.rows] == c.match.history
    assert checks[0] > 30 and decisions
    c.shutdown()


def test_R8_a_dealt_teyaku_ends_the_round_at_once_and_is_shown(qtbot, tmp_path):
    for seed, winner in ((TEYAKU_OF_YOURS, HUMAN), (TEYAKU_OF_THEIRS, COMPUTER)):
        c = make(tmp_path)
        c.new_match(Settings(), "easy", seed=seed)
        c.start_dealing()
        qtbot.waitUntil(lambda c=c: c.mode is Mode.ROUND_OVER)
        assert c.summary is not None  # a round over has its summary
        r = c.summary.outcome.result
        assert r.outcome is Outcome.TEYAKU and r.winner == winner
        assert r.teyaku_hand.bit_count() == 8 and r.points == 6  # R8.4: 6 stays 6
        assert c.summary.outcome.next_oya == winner  # R8.2
        assert c.summary.round_no == 1
        c.shutdown()


def test_R4_2_a_redeal_is_not_a_round_and_the_same_oya_deals_again(qtbot, tmp_path):
    c = make(tmp_path)
    c.new_match(Settings(), "easy", seed=REDEAL_FIRST)
    assert c.match is not None and c.record is not None
    oya = c.match.oya
    c.start_dealing()
    qtbot.waitUntil(lambda: c.mode is Mode.ROUND_OVER)
    assert c.summary is not None
    assert c.summary.outcome.result.outcome is Outcome.REDEAL
    assert c.summary.round_no == 1 and c.match.rounds_played == 0
    c.next_round()
    qtbot.waitUntil(lambda: c.mode not in (Mode.BUSY, Mode.ROUND_OVER))
    assert c.match.round_no == 1 and c.match.deal_no == 1 and c.match.oya == oya
    assert len(c.record.deals) == 2 and c.record.deals[0].actions == []
    c.shutdown()


def test_the_computers_time_cap_answers_with_a_legal_move(qtbot, monkeypatch, tmp_path):
    class Dawdler:
        name = "dawdler"

        def choose(self, obs, legal, rng, budget=None):
            time.sleep(3)
            return legal[0]

    monkeypatch.setattr("koikoi.ui.match.ai_worker.load_player", lambda level: Dawdler())
    runner = AiRunner("normal", cap_ms=100, in_process=False)
    c = make(tmp_path)
    c.new_match(Settings(), "easy", seed=b"cap-seed")
    c.start_dealing()
    qtbot.waitUntil(lambda: c.mode is not Mode.BUSY)
    assert c.match is not None
    seat = c.match.current_seat()
    assert seat is not None  # dealt, someone to move
    obs = c.match.observation(seat)
    started = time.monotonic()
    with qtbot.waitSignal(runner.decided, timeout=5000) as blocker:
        runner.request(obs, random.Random(1))
    assert time.monotonic() - started < 2.5
    assert blocker.args[1] in obs.legal_actions
    runner.shutdown(wait_ms=5000)
    c.shutdown()


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_computer_answers_from_its_process_and_from_a_thread(qtbot, tmp_path, level):
    c = make(tmp_path)
    c.new_match(Settings(), "easy", seed=b"both-ways")
    c.start_dealing()
    qtbot.waitUntil(lambda: c.mode is not Mode.BUSY)
    assert c.match is not None
    seat = c.match.current_seat()
    assert seat is not None  # dealt, someone to move
    obs = c.match.observation(seat)
    for in_process in (True, False):
        runner = AiRunner(level, cap_ms=8000, in_process=in_process)
        with qtbot.waitSignal(runner.decided, timeout=15_000) as blocker:
            runner.request(obs, random.Random(3))
        assert blocker.args[1] in obs.legal_actions
        runner.shutdown()
    c.shutdown()


def test_every_event_is_said_in_words(qtbot, tmp_path):
    presenter = ModelPresenter()
    c = make(tmp_path, presenter)
    lines: list[str] = []
    c.said.connect(lines.append)
    c.new_match(Settings(), "easy", seed=b"words")
    run(qtbot, c, random.Random(8), until=lambda c: c.mode is Mode.ROUND_OVER)
    kinds = {type(e).__name__ for e in presenter.events}
    assert {"Dealt", "RoundEnded", "StakesPaid"} <= kinds
    for event in presenter.events:
        text = c.describe(event)
        if type(event).__name__ not in ("ChoiceNeeded", "StakesPaid", "DecisionNeeded"):
            assert text, event
        assert "{" not in text and "\n" not in text
    assert len(lines) >= len(presenter.events) // 2
    c.shutdown()
