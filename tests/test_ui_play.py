"""Playing details through the window: the first oya, a choice between two field cards,
the drawn card's 5 seconds (R5.5), the koikoi/shobu and result panels against the engine,
and a window that stays live while the hard computer thinks."""

from __future__ import annotations

import logging
import random
import time
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from koikoi.engine.cards import CARD_IDS, CARD_MONTH_MASK, parse_card
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI
from koikoi.engine.yaku import Yaku, round_points, yaku_of
from koikoi.ui.common.names import card_accessible_name, yaku_japanese
from koikoi.ui.common.settings import settings_path
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.controller import COMPUTER, HUMAN
from koikoi.ui.match.matchview import DecisionInfo, Mode
from koikoi.ui.match.timings import Timings
from koikoi.ui.table.panels import DecisionPanel, FirstOyaPanel, RoundResultPanel
from tests.ui_driver import (
    FAST,
    StallMeter,
    click,
    close_window,
    find_card,
    open_window,
    panel_button,
    play_by_clicks,
    press,
    start_practice,
    wait_for_input,
)

TWO_IN_HAND = b"two-matches-00000000000000000005"
"""You are oya; your kiku_sake_cup matches kiku_ribbon and kiku_plain_2 on the field."""
DRAWN_TWO = b"ui-test-seed-0000000000000000002"
"""You are oya; play matsu_ribbon (no match) and the drawn hagi_ribbon has two matches."""
DRAWN_ONE = b"ui-test-seed-0000000000000000007"
"""You are oya; play sakura_curtain (no match) and the drawn sakura_plain_1 takes it."""
TURNED_TWICE = b"ui-test-seed-0000000000000000027"
"""First oya: two plains of ayame (turn again), then fuji vs kiri."""


def deal(qtbot: QtBot, window: MainWindow, seed: bytes, timings: Timings | None = None) -> None:
    start_practice(window, seed=seed)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY


def last_actions(window: MainWindow, n: int) -> list[dict[str, Any]]:
    record = window.controller.record
    assert record is not None
    actions: list[dict[str, Any]] = record.deals[-1].actions[-n:]
    return actions


def test_R3_1_first_oya_turned_cards_are_shown_and_explained(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=TURNED_TWICE)
    wait_for_input(qtbot, window)
    panel = window.game.overlay.panel
    assert isinstance(panel, FirstOyaPanel)
    first = window.controller.first
    assert first is not None
    assert len(first.turns) == 2
    texts = " ".join(label.text() for label in panel.findChildren(QLabel))
    assert "turn again" in texts  # two plains of one month
    assert "comes before" in texts  # then the earlier month
    assert "You are oya" in texts and first.oya == HUMAN
    for a, b in first.turns:  # the four turned cards are on the panel, by name
        for card in (a, b):
            assert any(
                w.accessibleName() == card_accessible_name(card) for w in panel.findChildren(QLabel)
            )
    close_window(window)


def test_R5_2_a_played_card_with_two_matches_waits_for_the_players_choice(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    deal(qtbot, window, TWO_IN_HAND)
    cup, ribbon, plain = (parse_card(n) for n in ("kiku_sake_cup", "kiku_ribbon", "kiku_plain_2"))
    click(qtbot, find_card(window, cup))
    assert wait_for_input(qtbot, window) is Mode.PICK
    table = window.game.table
    assert table.widgets[ribbon].glow == "candidate" and table.widgets[plain].glow == "candidate"
    assert "matches two cards" in window.game.prompt.text()
    assert "Enter" in window.game.prompt.text()  # the keys that work are named too
    click(qtbot, find_card(window, plain))
    wait_for_input(qtbot, window)
    assert last_actions(window, 2) == [
        {"seat": 0, "play": "kiku_sake_cup"},
        {"seat": 0, "pick": "kiku_plain_2"},
    ]
    obs = window.controller.observation(HUMAN)
    assert obs is not None
    assert obs.captured[HUMAN] >> plain & 1 and obs.field >> ribbon & 1
    close_window(window)


def test_R5_2_keys_select_then_take_the_focused_field_card(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    deal(qtbot, window, TWO_IN_HAND)
    cup = parse_card("kiku_sake_cup")
    hand = window.game.table.model.hand
    press(window, getattr(Qt.Key, f"Key_{hand.index(cup) + 1}"))
    assert window.game.selected == cup
    assert window.game.table.widgets[parse_card("kiku_ribbon")].glow == "match"  # assist on
    press(window, Qt.Key.Key_Up)  # to the first field card it can take
    press(window, Qt.Key.Key_Right)  # the second
    press(window, Qt.Key.Key_Return)  # take it
    wait_for_input(qtbot, window)
    assert last_actions(window, 2) == [
        {"seat": 0, "play": "kiku_sake_cup"},
        {"seat": 0, "pick": "kiku_plain_2"},
    ]
    close_window(window)


def test_assist_off_shows_no_hints_and_keeps_the_rules(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    deal(qtbot, window, TWO_IN_HAND)
    window.game.side.assist.setChecked(False)  # the table's own switch
    table = window.game.table
    assert not any(w.glow for w in table.widgets.values())
    cup = parse_card("kiku_sake_cup")
    press(window, getattr(Qt.Key, f"Key_{table.model.hand.index(cup) + 1}"))
    assert table.widgets[cup].glow == "selected"
    assert table.widgets[parse_card("kiku_ribbon")].glow is None  # no hint
    press(window, Qt.Key.Key_Return)  # play it: a pick is still required (R5.3)
    assert wait_for_input(qtbot, window) is Mode.PICK
    assert table.widgets[parse_card("kiku_ribbon")].glow == "candidate"  # the question itself
    close_window(window)


def test_R5_5_a_drawn_card_with_one_way_resolves_by_itself(qtbot: QtBot) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=400))
    deal(qtbot, window, DRAWN_ONE)
    c = window.controller
    click(qtbot, find_card(window, parse_card("sakura_curtain")))
    assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
    drawn = parse_card("sakura_plain_1")
    assert c.draw_wait is not None
    assert c.draw_wait.card == drawn and c.draw_wait.taken == (parse_card("sakura_curtain"),)
    assert "by itself" in window.game.prompt.text()
    shown = time.monotonic()
    qtbot.waitUntil(lambda: c.mode is not Mode.DRAW_WAIT, timeout=5000)  # no click
    assert time.monotonic() - shown >= 0.3
    assert window.game.table.model.captured[HUMAN][-1] == drawn
    close_window(window)


def test_R5_5_a_click_resolves_the_drawn_card_sooner(qtbot: QtBot) -> None:
    window = open_window(qtbot)  # the drawn card would wait 60 s
    deal(qtbot, window, DRAWN_ONE)
    c = window.controller
    click(qtbot, find_card(window, parse_card("sakura_curtain")))
    assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
    assert c.draw_wait is not None
    click(qtbot, find_card(window, c.draw_wait.card))
    assert c.mode is not Mode.DRAW_WAIT
    close_window(window)


def test_R5_5_a_drawn_card_with_two_candidates_waits_for_the_choice(qtbot: QtBot) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=50))
    deal(qtbot, window, DRAWN_TWO)
    c = window.controller
    click(qtbot, find_card(window, parse_card("matsu_ribbon")))
    assert wait_for_input(qtbot, window) is Mode.PICK
    qtbot.wait(400)  # far beyond the automatic take: still waiting
    assert c.mode is Mode.PICK
    obs = c.observation(HUMAN)
    assert obs is not None and obs.pending is not None
    assert CARD_IDS[obs.pending] == "hagi_ribbon"
    target = sorted(c.candidates())[1]
    click(qtbot, find_card(window, target))
    wait_for_input(qtbot, window)
    assert c.record is not None
    assert {"seat": 0, "pick": CARD_IDS[target]} in c.record.deals[-1].actions
    close_window(window)


# -- panels against the engine ---------------------------------------------------------------


def check_decision_panel(window: MainWindow) -> None:
    c = window.controller
    if c.mode is not Mode.DECIDE:
        return
    panel = window.game.overlay.panel
    assert isinstance(panel, DecisionPanel)
    obs = c.observation(HUMAN)
    info = c.decision
    assert obs is not None and info is not None
    yaku = tuple(yaku_of(obs.captured[HUMAN]))
    assert info.yaku == yaku
    assert info.total == obs.totals[HUMAN] == sum(p for _, p in yaku) > obs.baselines[HUMAN]
    doubled, points = round_points(info.total, obs.koikoi_count, obs.settings.doubling)
    assert (info.doubled, info.points) == (doubled, points)
    assert info.pay == min(points, obs.scores[COMPUTER])
    assert info.can_koikoi == (KOIKOI in obs.legal_actions)
    # what the panel says
    shown = [label.text() for label in panel.findChildren(QLabel, "yakuJa")]
    assert shown == [yaku_japanese(y) for y, _ in yaku]
    assert panel.findChildren(QLabel, "calcTotal")[-1].text() == str(points)
    assert str(info.pay) in panel.pay_label.text()
    assert str(info.pay) in panel.shobu_button.text()
    assert (panel.findChild(QPushButton, "koikoi") is not None) == info.can_koikoi


def check_round_panel(window: MainWindow) -> None:
    c = window.controller
    if c.mode is not Mode.ROUND_OVER:
        return
    panel = window.game.overlay.panel
    assert isinstance(panel, RoundResultPanel)
    assert c.match is not None and c.summary is not None
    outcome = c.match.history[-1]
    r = outcome.result
    assert c.summary.outcome == outcome
    texts = [label.text() for label in panel.findChildren(QLabel)]
    if r.outcome in (Outcome.WIN, Outcome.TEYAKU):
        shown = [label.text() for label in panel.findChildren(QLabel, "yakuJa")]
        assert shown == [yaku_japanese(y) for y, _ in r.yaku]
        values = [label.text() for label in panel.findChildren(QLabel, "calcValue")]
        assert values[0] == str(r.base)
        assert ("× 2" in values) == r.doubled
        assert f"× {r.koikoi + 1}" in values
        assert values[-1] == str(r.points)
        assert panel.findChildren(QLabel, "calcTotal")[-1].text() == str(outcome.paid)
        assert any("Capped" in t for t in texts) == outcome.capped
    if r.outcome is not Outcome.REDEAL:
        stakes = [label.text() for label in panel.findChildren(QLabel, "stakeValue")]
        assert stakes[0].endswith(f"→ {outcome.scores[HUMAN]}")
        assert stakes[1].endswith(f"→ {outcome.scores[COMPUTER]}")


def test_koikoi_shobu_and_result_panels_show_the_engines_numbers(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    start_practice(window, rounds=12, seed=b"panels-and-numbers-00000000000001")
    seen = {"decide": 0, "round": 0}

    def check(w: MainWindow) -> None:
        if w.controller.mode is Mode.DECIDE:
            seen["decide"] += 1
        if w.controller.mode is Mode.ROUND_OVER:
            seen["round"] += 1
        check_decision_panel(w)
        check_round_panel(w)

    play_by_clicks(qtbot, window, random.Random(3), koikoi_rate=0.6, check=check)
    assert seen["decide"] >= 2 and seen["round"] >= 2, seen
    close_window(window)


def test_decision_panel_says_when_the_opponents_stakes_cap_the_win(qtbot: QtBot) -> None:
    info = DecisionInfo(
        seat=HUMAN,
        yaku=((Yaku.HANAMI, 5), (Yaku.TSUKIMI, 5)),
        new_yaku=frozenset({Yaku.HANAMI}),
        total=10,
        baseline=5,
        koikoi_count=1,
        doubling=True,
        doubled=True,
        points=40,
        opponent_stake=25,
        pay=25,
        can_koikoi=False,
    )
    window = open_window(qtbot)
    panel = DecisionPanel(window.art, info, 0, lambda: None, lambda: None)
    qtbot.addWidget(panel)
    values = [label.text() for label in panel.findChildren(QLabel, "calcValue")]
    assert values == ["10", "× 2", "× 2"]  # R9.5: 10 -> x2 (8 or more) -> x2 (one koikoi)
    assert panel.findChildren(QLabel, "calcTotal")[-1].text() == "40"
    assert "only 25" in panel.pay_label.text()
    assert panel.koikoi_button is None  # the last turn: only shobu (R7.3)
    assert [t.text() for t in panel.findChildren(QLabel, "newTag")] == ["new"]
    close_window(window)


# -- the computer thinks off the UI thread ---------------------------------------------------


def test_the_window_stays_live_while_the_hard_computer_thinks(qtbot: QtBot) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=10))
    start_practice(window, level="hard", seed=b"live-while-thinking-0000000000001")
    # as while a player reads the first-oya panel, the card pictures are drawn ahead
    qtbot.waitUntil(lambda: not window.game.table.warming, timeout=10_000)
    c = window.controller
    last = [0]

    def same_move() -> bool:  # two ticks while the computer thinks about one move
        busy = c.ai.thinking_about if c.ai is not None else 0
        counts = bool(busy) and busy == last[0]
        last[0] = busy
        return counts

    meter = StallMeter(same_move)
    meter.start()
    started = time.monotonic()

    def enough(w: object) -> bool:
        return len(meter.gaps) * 0.01 >= 1.5 or time.monotonic() - started > 40

    play_by_clicks(qtbot, window, random.Random(2), until=enough, koikoi_rate=0.0)
    meter.stop()
    print(f"hard computer: {meter.summary()}")
    assert len(meter.gaps) > 50, "the hard computer hardly thought"
    # the search runs in another process: this one only waits for its answer, whatever
    # the machine's load stretches a gap to in wall time (StallMeter)
    assert meter.largest_busy < 0.1, f"the UI thread stalled: {meter.summary()}"
    close_window(window)


def test_months_match_for_the_two_candidates() -> None:
    # a guard for the seeds above: they still mean what their docstrings say
    assert CARD_MONTH_MASK[parse_card("kiku_sake_cup")] >> parse_card("kiku_plain_2") & 1
    assert FAST.auto_take_ms == 60_000


def _choose_draw_pace(qtbot: QtBot, window: MainWindow, pace: str) -> None:
    """Choose the drawn card's pace in the display options, opened from the start screen."""
    click(qtbot, window.start.display_button)
    dialog = window._display_dialog
    assert dialog is not None and dialog.isVisible()
    combo = dialog.draw_pace
    combo.setCurrentIndex(combo.findData(pace))  # as choosing in the list does
    dialog.close()


@pytest.mark.parametrize(("pace", "wait_ms"), [("1s", 1000), ("instant", 0)])
def test_R5_5_the_drawn_cards_pace_is_a_display_option_and_stays(
    qtbot: QtBot, pace: str, wait_ms: int
) -> None:
    timings = Timings.instant(auto_take_ms=5000)  # R5.5's 5 s, the cards without animation
    window = open_window(qtbot, timings)
    assert window.display.draw_pace == "5s"  # the default: R5.5's pace
    _choose_draw_pace(qtbot, window, pace)
    assert window.display.draw_pace == pace
    deal(qtbot, window, DRAWN_ONE)
    c = window.controller
    click(qtbot, find_card(window, parse_card("sakura_curtain")))
    if wait_ms:
        assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
        assert c.draw_wait is not None and c.draw_wait.ms == wait_ms  # the pacing hook
        assert c._auto_timer.interval() == wait_ms
    qtbot.waitUntil(lambda: c.mode is not Mode.DRAW_WAIT, timeout=4000)  # no click
    assert window.game.table.model.captured[HUMAN][-1] == parse_card("sakura_plain_1")
    close_window(window)
    again = open_window(qtbot, timings)  # kept with the other display options
    assert again.display.draw_pace == pace
    assert again.controller.timings.auto_take_ms == wait_ms
    close_window(again)


def test_R5_5_the_default_pace_keeps_the_timings_wait(qtbot: QtBot) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=5000))
    assert window.controller.timings.auto_take_ms == 5000
    close_window(window)


DRAWN_NOTHING = b"draw-matches-nothing-00000000001"
"""You are oya; play matsu_plain_1 (no match) and the drawn kiri_plain_1 matches nothing."""


def _play_to_a_lone_drawn_card(
    qtbot: QtBot, window: MainWindow, hold: bool = False
) -> list[tuple[int, int]]:
    """Play the seeded hand card; the waits the drawn card (that matches nothing) is given,
    each with its timer's interval. ``hold`` stops the timer as it starts (in the same call:
    no time can pass first), for the test to say when the time is up."""
    start_practice(window, seed=DRAWN_NOTHING)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    waits: list[tuple[int, int]] = []
    timer = window.controller._auto_timer

    def started(wait: Any) -> None:
        waits.append((wait.ms, timer.interval() if timer.isActive() else -1))
        if hold:
            timer.stop()

    window.controller.draw_waiting.connect(started)
    click(qtbot, find_card(window, parse_card("matsu_plain_1")))
    return waits


def _on_the_field(window: MainWindow, card_id: str) -> bool:
    return parse_card(card_id) in window.game.table.model.field


def test_R5_5_instant_puts_a_drawn_card_that_matches_nothing_on_the_field_at_once(
    qtbot: QtBot,
) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=5000))
    _choose_draw_pace(qtbot, window, "instant")
    waits = _play_to_a_lone_drawn_card(qtbot, window)
    qtbot.waitUntil(lambda: _on_the_field(window, "kiri_plain_1"), timeout=2000)
    assert [ms for ms, _ in waits] == [0]  # no wait at all, not R5.5's 5 s
    assert window.controller.mode is not Mode.DRAW_WAIT
    close_window(window)


def test_R5_5_one_second_waits_its_second_on_the_timer_then_goes_to_the_field(
    qtbot: QtBot,
) -> None:
    window = open_window(qtbot, Timings.instant(auto_take_ms=5000))
    _choose_draw_pace(qtbot, window, "1s")
    waits = _play_to_a_lone_drawn_card(qtbot, window, hold=True)
    c = window.controller
    assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
    assert waits == [(1000, 1000)]  # a 1 s wait on the timer, not R5.5's 5 s
    QApplication.processEvents()  # what is due runs; the held timer's second never comes
    assert not _on_the_field(window, "kiri_plain_1")  # the timer has not said time is up
    assert c.mode is Mode.DRAW_WAIT
    c._auto_timer.timeout.emit()  # its second is up (the held timer stands in for the clock)
    qtbot.waitUntil(lambda: _on_the_field(window, "kiri_plain_1"), timeout=2000)
    close_window(window)


def test_R5_5_a_damaged_pace_in_the_settings_file_is_the_default_5_s(
    qtbot: QtBot, caplog: pytest.LogCaptureFixture
) -> None:
    path = settings_path()
    assert path is not None  # under the test's own KOIKOI_HOME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[display]\ndraw_pace=2s\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        window = open_window(qtbot, Timings.instant(auto_take_ms=5000))
    assert window.display.draw_pace == "5s"
    lines = [r.getMessage() for r in caplog.records if "display/draw_pace" in r.getMessage()]
    assert len(lines) == 1 and "2s" in lines[0] and "\n" not in lines[0]
    waits = _play_to_a_lone_drawn_card(qtbot, window)
    assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
    assert waits == [(5000, 5000)]
    close_window(window)
