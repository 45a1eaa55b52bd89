"""The replay viewer: a record shown move by move exactly as the engine had it, forward and
back, by deal, with either hand hidden; opened from the start screen's history and by
``koikoi view``; bad records in one line (exit 2) or a message box."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QPushButton

from koikoi.engine.cards import card_list
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Observation, Settings
from koikoi.engine.record import GameRecord, parse
from koikoi.engine.round import KOIKOI
from koikoi.paths import games_dir
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.names import card_accessible_name
from koikoi.ui.common.style import apply_style
from koikoi.ui.match.matchview import Mode
from koikoi.ui.replay import viewer as viewer_module
from koikoi.ui.replay.history import steps_of, verdict_of
from koikoi.ui.replay.viewer import OPEN, ReplayViewer
from koikoi.ui.table.card_widget import CardWidget
from tests.conftest import REPO, run_koikoi
from tests.ui_driver import (
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)

RECORDS = REPO / "tests" / "data" / "records"
Record = dict[str, Any]


def played_match(seed: int = 4, owner: int = 0) -> Record:
    """A whole practice match of random legal moves (koikoi called half the time it may
    be), kept as the window keeps one."""
    rng = random.Random(seed)
    settings = Settings(6, True)
    match = Match(settings, 0)
    extra = {"kind": "practice", "ai_level": "hard", "human_seat": owner, "seed": "01" * 32}
    record = GameRecord(settings, 0, extra=extra)
    while not match.finished:
        match.deal(deck_from_seed(b"view%d" % seed, match.round_no, match.deal_no))
        rnd = match.round
        assert rnd is not None
        record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        while not rnd.over:
            seat = rnd.turn
            legal = match.legal_actions()
            action = KOIKOI if KOIKOI in legal and rng.random() < 0.5 else rng.choice(legal)
            match.apply(action, seat)
            record.add_action(seat, action)
    return record.to_json()


def engine_states(data: Record) -> list[tuple[Observation, Observation]]:
    """Both seats' observations after each deal and each action, from an engine of the
    test's own (the records here write every shobu)."""
    rec = parse(data)
    match = Match(rec.settings, rec.first_oya)
    out = []
    for deal in rec.deals:
        match.deal_cards(deal.hands, deal.field, deal.stock)
        out.append((match.observation(0), match.observation(1)))
        for act in deal.actions:
            match.apply(act.action, act.seat)
            out.append((match.observation(0), match.observation(1)))
    return out


def open_viewer(qtbot, data: Record, path: Path | None = None, anim: float = 0.0) -> ReplayViewer:
    viewer = ReplayViewer(steps_of(data, path), "test", verdict_of(data), anim_scale=anim)
    apply_style(viewer)  # as koikoi view shows it
    qtbot.addWidget(viewer)
    viewer.resize(1280, 800)
    viewer.show()
    qtbot.waitExposed(viewer)
    viewer.setFocus()
    return viewer


def press(viewer: ReplayViewer, key: Qt.Key) -> None:
    """A key as the player presses it: to the viewer's focused widget, else the viewer
    (offscreen, the window need not be the active one)."""
    target = viewer.focusWidget() or viewer
    QTest.keyClick(target, key)


_ZONES = (
    ("Your hand", "hand"),
    ("Your captures", "mine"),
    ("Field", "field"),
    ("Played", "staged"),
    ("Turned from the stock", "staged"),
    ("The computer's hand", "theirs_hand"),
    ("The computer's captures", "theirs"),
)


def seen(viewer: ReplayViewer) -> tuple[dict[str, set[int]], int, str]:
    """What the table shows, read off its card widgets as a screen reader reads them:
    visible face-up cards by where their description says they are, the face-down cards,
    and the bottom player's stakes."""
    zones: dict[str, set[int]] = defaultdict(set)
    backs = 0
    for w in viewer.table.findChildren(CardWidget):
        if not w.isVisible():
            continue
        if not w.face_up or w.accessibleName() == "Face-down card":
            backs += 1
            continue
        assert w.card is not None  # a card face up shows which card it is
        assert w.accessibleName() == card_accessible_name(w.card)
        zone = next(z for prefix, z in _ZONES if w.where.startswith(prefix))
        zones[zone].add(w.card)
    return dict(zones), backs, str(viewer.me_box.stake_points)


def expected(mine: Observation, theirs: Observation | None) -> tuple[dict[str, set[int]], int, str]:
    """What the table must show: ``mine`` is the bottom seat's observation, ``theirs`` the
    other seat's when both hands are open."""
    seat = mine.seat
    zones = {
        "hand": set(card_list(mine.hand)),
        "mine": set(card_list(mine.captured[seat])),
        "field": set(card_list(mine.field)),
        "staged": {mine.pending} if mine.pending >= 0 else set(),
        "theirs": set(card_list(mine.captured[1 - seat])),
    }
    backs = mine.opponent_hand_size
    if theirs is not None:
        zones["theirs_hand"] = set(card_list(theirs.hand))
        backs = 0
    return {k: v for k, v in zones.items() if v}, backs, str(mine.scores[seat])


def test_forward_through_a_whole_match_shows_the_engine_state_and_back_undoes_it(qtbot) -> None:
    data = played_match()
    states = engine_states(data)
    viewer = open_viewer(qtbot, data)
    assert len(viewer.replayed.steps) == len(states) > 50
    shown = [seen(viewer)]
    for i in range(1, len(states)):
        press(viewer, Qt.Key.Key_Right)
        assert viewer.index == i
        shown.append(seen(viewer))
        obs = states[i]
        assert shown[-1] == expected(obs[0], obs[1]), f"step {i}"
        assert viewer.table.stock.count == obs[0].stock_size
    press(viewer, Qt.Key.Key_Right)  # the last step: nothing further
    assert viewer.index == len(states) - 1
    assert not viewer.forward_button.isEnabled()
    assert viewer.me_box.stake_points == 50 or viewer.them_box.stake_points == 50
    for i in range(len(states) - 2, -1, -1):
        press(viewer, Qt.Key.Key_Left)
        assert viewer.index == i
        assert seen(viewer) == shown[i], f"back to step {i}"
    assert seen(viewer) == expected(*states[0])
    assert not viewer.back_button.isEnabled()


def test_the_buttons_step_as_the_keys_do(qtbot) -> None:
    data = played_match()
    states = engine_states(data)
    viewer = open_viewer(qtbot, data)
    for _ in range(5):
        click(qtbot, viewer.forward_button)
    assert viewer.index == 5 and seen(viewer) == expected(*states[5])
    click(qtbot, viewer.back_button)
    assert viewer.index == 4 and seen(viewer) == expected(*states[4])


def test_a_deal_is_jumped_to_at_its_start_and_home_end_reach_its_ends(qtbot) -> None:
    data = played_match()
    states = engine_states(data)
    viewer = open_viewer(qtbot, data)
    starts = viewer.replayed.deal_starts
    assert len(starts) == len(data["deals"]) >= 3
    press(viewer, Qt.Key.Key_PageDown)
    assert viewer.index == starts[1]
    deal = data["deals"][1]
    zones, backs, _ = seen(viewer)
    assert {card_accessible_name(c) for c in zones["hand"]} == {
        card_accessible_name(c) for c in card_list(parse(data).deals[1].hands[0])
    }
    assert len(zones["field"]) == len(deal["field"]) == 8
    assert "mine" not in zones and "theirs" not in zones and "staged" not in zones
    assert viewer.table.stock.count == 24
    assert seen(viewer) == expected(*states[starts[1]])
    press(viewer, Qt.Key.Key_End)
    assert viewer.index == starts[2] - 1
    assert seen(viewer) == expected(*states[starts[2] - 1])
    press(viewer, Qt.Key.Key_Left)
    press(viewer, Qt.Key.Key_Home)
    assert viewer.index == starts[1]
    press(viewer, Qt.Key.Key_Right)
    press(viewer, Qt.Key.Key_PageUp)  # inside a deal: its start
    assert viewer.index == starts[1]
    press(viewer, Qt.Key.Key_PageUp)  # at its start: the deal before
    assert viewer.index == starts[0]
    # the deal list: chosen by keys on the combo box, it lands at that deal's start
    viewer.deals.setFocus()
    press(viewer, Qt.Key.Key_Down)
    press(viewer, Qt.Key.Key_Down)
    assert viewer.index == starts[2]
    assert seen(viewer) == expected(*states[starts[2]])
    press(viewer, Qt.Key.Key_PageDown)  # the viewer's keys work on the combo box too
    assert viewer.index == starts[3]
    assert viewer.deals.currentIndex() == 3


def test_the_column_names_the_deals_round_to_its_last_step_and_a_redeal_in_the_list(
    qtbot,
) -> None:
    data = played_match()  # deal 2 is dealt again (four of a month on the field)
    match = Match(Settings(6, True), 0)
    rounds = []
    for deal in parse(data).deals:
        rounds.append(match.rounds_played + 1)
        match.deal_cards(deal.hands, deal.field, deal.stock)
        for act in deal.actions:
            match.apply(act.action, act.seat)
    assert rounds == [1, 2, 3, 3, 4]
    viewer = open_viewer(qtbot, data)
    titles = [viewer.deals.itemText(i) for i in range(viewer.deals.count())]
    assert titles == ["Round 1", "Round 2", "Round 3, deal 1", "Round 3, deal 2", "Round 4"]
    for deal_no, round_no in enumerate(rounds):
        assert viewer.round.text() == f"Round {round_no} of 6"
        press(viewer, Qt.Key.Key_End)  # the round's result is in: still its round
        assert viewer.round.text() == f"Round {round_no} of 6", f"deal {deal_no}"
        assert viewer.where.text() in {
            "The round is won.",
            "The round is a draw (nagare).",
            "A dealt-hand yaku (teyaku) ends the round.",
            "Dealt again: four cards of one month.",
        }
        press(viewer, Qt.Key.Key_PageDown)


def test_viewing_as_one_player_hides_the_other_hand(qtbot) -> None:
    data = played_match()
    states = engine_states(data)
    viewer = open_viewer(qtbot, data)
    for _ in range(7):
        press(viewer, Qt.Key.Key_Right)
    both = states[7]
    assert seen(viewer)[0]["theirs_hand"] == set(card_list(both[1].hand))
    viewer.view_choice.setFocus()
    press(viewer, Qt.Key.Key_Down)  # "As you saw it"
    assert viewer.view_choice.currentText() == "As you saw it"
    zones, backs, _ = seen(viewer)
    assert (zones, backs) == expected(both[0], None)[:2]
    assert backs == both[0].opponent_hand_size > 0
    hidden = {card_accessible_name(c) for c in card_list(both[1].hand)}
    names = {w.accessibleName() for w in viewer.table.findChildren(CardWidget) if w.isVisible()}
    assert not hidden & names
    press(viewer, Qt.Key.Key_Down)  # "As the computer saw it": seat 1 at the bottom
    assert viewer.view_choice.currentText() == "As the computer saw it"
    zones, backs, stake = seen(viewer)
    assert (zones, backs, stake) == expected(both[1], None)
    assert viewer.me_box.name.text() == "コンピューター Computer"
    for i in range(8, 20):  # stepping on keeps the view
        press(viewer, Qt.Key.Key_Right)
        assert seen(viewer) == expected(states[i][1], None), f"step {i}"


def test_a_step_forward_animates_and_a_key_meanwhile_lands_on_the_right_table(qtbot) -> None:
    data = played_match()
    states = engine_states(data)
    viewer = open_viewer(qtbot, data, anim=0.1)
    press(viewer, Qt.Key.Key_Right)  # the deal: shown at once
    press(viewer, Qt.Key.Key_Right)  # a play: animated
    assert viewer.animating
    press(viewer, Qt.Key.Key_Right)  # before it ends
    qtbot.waitUntil(lambda: not viewer.animating and viewer.table._anim is None, timeout=5000)
    assert viewer.index == 3
    assert seen(viewer) == expected(*states[3])
    assert viewer.check() == []
    for choice in (1, 0):  # as each seat saw it: the other's cards turn over as played
        viewer.set_view(choice)
        for _ in range(12):
            press(viewer, Qt.Key.Key_Right)
            qtbot.waitUntil(lambda: not viewer.animating and viewer.table._anim is None)
            assert viewer.check() == [], viewer.index
            assert seen(viewer) == expected(states[viewer.index][choice], None)


def test_the_narration_is_the_live_tables_and_each_step_is_announced(qtbot, monkeypatch) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=b"viewer-narration-000000000000001")
    click(qtbot, panel_button(window))
    play_by_clicks(
        qtbot, window, random.Random(3), until=lambda w: w.controller.mode is Mode.ROUND_OVER
    )
    prompts = ("Your turn: play a card", "Koikoi or shobu?", "Last turn: only")
    live = [
        line
        for line in window.game.side.log.toPlainText().split("\n")
        if not line.startswith(prompts)
    ]
    assert window.controller.record is not None  # a match was played
    data = window.controller.record.to_json()
    close_window(window)
    heard: list[str] = []

    def hear(widget, text: str) -> None:
        heard.append(text)
        announce(widget, text)

    monkeypatch.setattr(viewer_module, "announce", hear)
    viewer = open_viewer(qtbot, data)
    said = []
    while viewer.step.deal == 0:
        said += viewer.said()
        if viewer.index == viewer.last:
            break
        press(viewer, Qt.Key.Key_Right)
        if viewer.step.deal == 0:
            assert heard[-1] == " ".join(viewer.said())
    press(viewer, Qt.Key.Key_PageUp)
    press(viewer, Qt.Key.Key_End)
    # a plain's number is bound by a no-break space, which a log's plain text reads as a space
    assert [line.replace("\u00a0", " ") for line in said] == live
    assert viewer.log.toPlainText().split("\n") == live
    assert heard[-1] == " ".join(viewer.said())


def test_every_control_has_an_accessible_name(qtbot) -> None:
    viewer = open_viewer(qtbot, played_match())
    controls = viewer.findChildren(QPushButton) + viewer.findChildren(QComboBox)
    assert len(controls) == 8
    for control in controls:
        assert control.accessibleName(), control
    assert viewer.log.accessibleName() == "What happened"
    viewer.log.setFocus()  # the log is read back by the keys; the viewer's keys still step
    press(viewer, Qt.Key.Key_Right)
    press(viewer, Qt.Key.Key_Right)
    assert viewer.index == 2
    said = viewer.said(0) + viewer.said(1) + viewer.said(2)  # no-break spaces as spaces
    assert viewer.log.toPlainText().split("\n") == [line.replace("\u00a0", " ") for line in said]


# -- network records: the verify status -------------------------------------------------------


@pytest.fixture(scope="module")
def net_record() -> Record:
    from tests.net_support import Table

    for seed in range(41, 141):
        table = Table(seed=seed)
        table.run()
        data = table.host.record().to_json()
        if len(data["deals"]) >= 2 and sum("play" in a for a in data["deals"][1]["actions"]) >= 2:
            return data
    raise AssertionError("no match with two deals")


def test_a_network_record_shows_its_verify_status(qtbot, net_record: Record, tmp_path) -> None:
    path = tmp_path / "net-20261130-120000-seat1.json"
    viewer = open_viewer(qtbot, net_record, path)
    assert viewer.verified.isVisible()
    assert viewer.verified.text() == "Signed record: signatures, hashes and moves check."
    assert viewer.replayed.owner == 1 and viewer.replayed.opponent == "host"
    assert viewer.title.text().startswith("Replay · Network game vs host · ")
    assert viewer.view_choice.itemText(2) == "As host saw it"

    changed = copy.deepcopy(net_record)
    actions = changed["deals"][1]["actions"]
    first, second = [i for i, a in enumerate(actions) if "play" in a][:2]
    actions[second]["sig"] = actions[first]["sig"]  # a legal game; the signature is not its own
    viewer = open_viewer(qtbot, changed, path)
    text = viewer.verified.text()
    assert text.startswith(f"Signed record does not check: deal 1 action {second} "), text
    assert "signature" in text


def test_a_practice_record_has_no_verify_status(qtbot) -> None:
    viewer = open_viewer(qtbot, played_match())
    assert not viewer.verified.isVisible()
    assert viewer.title.text().startswith("Replay · Practice vs hard · ")


# -- the start screen's history ---------------------------------------------------------------


def _viewers() -> list[ReplayViewer]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, ReplayViewer) and w.isVisible()
    ]


def test_the_history_list_opens_the_viewer(qtbot, net_record: Record) -> None:
    games = games_dir()
    games.mkdir(parents=True)
    finished = played_match(seed=4)
    (games / "practice-20261201-101010.json").write_text(json.dumps(finished), "utf-8")
    (games / "net-20261202-101010-seat0.json").write_text(json.dumps(net_record), "utf-8")
    window = open_window(qtbot)
    listed = window.start.kept_list
    assert listed.count() == 2
    assert not window.start.view_button.isEnabled()
    net_row = next(i for i in range(2) if listed.item(i).text().startswith("Network game"))
    practice_row = 1 - net_row

    listed.setFocus()
    listed.setCurrentRow(practice_row)
    assert window.start.view_button.isEnabled()
    QTest.keyClick(listed, Qt.Key.Key_Return)  # Enter opens it
    (viewer,) = _viewers()
    assert viewer.isVisible() and viewer.replayed.steps
    assert viewer.windowTitle().startswith("Replay · Practice vs hard · ")
    assert viewer.windowTitle().endswith(" · finished · practice-20261201-101010.json")
    assert viewer.check() == []
    viewer.close()
    qtbot.waitUntil(lambda: not _viewers())

    rect = listed.visualItemRect(listed.item(net_row))
    at = QPoint(rect.center())
    QTest.mouseClick(listed.viewport(), Qt.MouseButton.LeftButton, pos=at)  # a double-click:
    QTest.mouseDClick(listed.viewport(), Qt.MouseButton.LeftButton, pos=at)  # press twice
    (viewer,) = _viewers()
    assert viewer.verified.text() == "Signed record: signatures, hashes and moves check."
    assert viewer.replayed.owner == 0
    viewer.close()
    qtbot.waitUntil(lambda: not _viewers())

    listed.setCurrentRow(practice_row)
    click(qtbot, window.start.view_button)
    (viewer,) = _viewers()
    viewer.close()
    assert window.stack.currentWidget() is window.start
    close_window(window)


def test_a_set_aside_match_is_viewed_and_keeps_its_resume(qtbot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=b"viewer-set-aside-0000000000000001")
    click(qtbot, panel_button(window))
    play_by_clicks(
        qtbot,
        window,
        random.Random(5),
        until=lambda w: (
            w.controller.record is not None
            and len(w.controller.record.deals[-1].actions) >= 6
            and w.controller.mode is Mode.PLAY
        ),
    )
    assert window.controller.record is not None
    kept = window.controller.record.to_json()
    click(qtbot, window.game.side.menu_button)
    click(qtbot, window.start.practice_button)
    assert window.question is not None  # a match is kept: set it aside?
    set_aside = window.question.findChild(QPushButton, "setAside")
    assert set_aside is not None
    click(qtbot, set_aside)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) in (Mode.PLAY, Mode.ROUND_OVER)
    click(qtbot, window.game.side.menu_button)
    listed = window.start.kept_list
    assert listed.count() == 1
    listed.setCurrentRow(0)
    assert window.start.take_back_button.isEnabled()
    click(qtbot, window.start.view_button)
    (viewer,) = _viewers()
    assert len(viewer.replayed.steps) == 1 + len(kept["deals"][0]["actions"])
    press(viewer, Qt.Key.Key_End)
    assert viewer.check() == []
    viewer.close()
    assert window.start.take_back_button.isEnabled()
    click(qtbot, window.start.take_back_button)  # the match in progress is asked about first
    assert window.question is not None
    set_aside = window.question.findChild(QPushButton, "setAside")
    assert set_aside is not None
    click(qtbot, set_aside)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert window.controller.record is not None
    assert window.controller.record.to_json()["deals"] == kept["deals"]
    close_window(window)


def test_a_record_spoiled_after_listing_is_a_message_and_nothing_is_lost(qtbot) -> None:
    games = games_dir()
    games.mkdir(parents=True)
    path = games / "practice-20261201-101010.json"
    path.write_text(json.dumps(played_match()), "utf-8")
    window = open_window(qtbot)
    assert window.start.kept_list.count() == 1
    spoiled = path.read_text("utf-8").replace('"play": "', '"play": "x', 1)
    path.write_text(spoiled, "utf-8")
    window.start.kept_list.setCurrentRow(0)
    click(qtbot, window.start.view_button)
    box = window.findChild(QMessageBox, "viewFailed")
    assert box is not None and box.isVisible()
    assert "practice-20261201-101010.json" in box.text()
    assert "unknown card id" in box.text()
    assert not _viewers()
    box.accept()
    assert path.read_text("utf-8") == spoiled  # the file is left as it was
    assert window.stack.currentWidget() is window.start
    close_window(window)


# -- koikoi view ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "illegal_malformed_json",
        "illegal_unknown_card_played",
        "illegal_card_not_in_hand",
        "illegal_missing_pick_played",
        "illegal_not_an_object",
    ],
)
def test_koikoi_view_says_a_bad_record_in_one_line_as_replay_does(name: str) -> None:
    path = str(RECORDS / f"{name}.json")
    proc = run_koikoi("view", path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
    assert proc.stderr == run_koikoi("replay", path).stderr


def test_koikoi_view_of_a_missing_file_is_one_line() -> None:
    proc = run_koikoi("view", "no-such-record.json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("koikoi: cannot read no-such-record.json")
    assert len(proc.stderr.splitlines()) == 1


def test_koikoi_view_smoke_test_steps_to_the_end_and_back(tmp_path) -> None:
    path = tmp_path / "match.json"
    data = played_match()
    path.write_text(json.dumps(data), "utf-8")
    proc = run_koikoi("view", str(path), "--smoke-test")
    assert proc.returncode == 0, proc.stderr
    steps = len(data["deals"]) + sum(len(d["actions"]) for d in data["deals"])
    assert f"view smoke test passed: {steps} steps forward and back" in proc.stderr
    for name in ("last_turn_shobu_implicit", "redeal_then_play", "in_progress_pick_pending"):
        proc = run_koikoi("view", str(RECORDS / f"{name}.json"), "--smoke-test")
        assert proc.returncode == 0, (name, proc.stderr)


def test_koikoi_view_turns_a_bad_record_away_before_loading_qt(monkeypatch) -> None:
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    proc = run_koikoi("view", str(RECORDS / "illegal_card_not_in_hand.json"))
    assert proc.returncode == 2
    imported = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "koikoi" in imported and "PySide6" not in imported


def test_the_log_keeps_the_newest_line_in_sight(qtbot) -> None:
    viewer = open_viewer(qtbot, played_match())
    for _ in range(4):
        press(viewer, Qt.Key.Key_PageDown)
    for _ in range(11):  # a long deal's log
        press(viewer, Qt.Key.Key_Right)
    bar = viewer.log.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=2000)
    viewer.resize(1000, 660)  # a smaller window: a shorter log, its newest line still shown
    qtbot.wait(50)
    assert bar.value() == bar.maximum() > 0


def _without_display(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["KOIKOI_HOME"] = str(tmp_path)
    return env


def test_koikoi_view_smoke_test_needs_no_display_and_the_window_says_it_needs_one(
    tmp_path,
) -> None:
    record = str(RECORDS / "koikoi_40_example_000.json")
    env = _without_display(tmp_path)
    command = [sys.executable, "-m", "koikoi", "view", record]
    proc = subprocess.run(
        [*command, "--smoke-test"], env=env, capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr
    assert "view smoke test passed" in proc.stderr
    if sys.platform.startswith("linux"):
        proc = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=60, cwd=REPO
        )
        assert proc.returncode == 1
        assert proc.stderr.count("\n") == 1 and "display" in proc.stderr
        assert proc.stdout == ""


def test_a_network_match_played_in_two_windows_is_viewed_from_the_joiners_history(
    qtbot, tmp_path
) -> None:
    from tests.test_ui_network import Pair
    from tests.ui_driver import play_windows_by_clicks

    pair = Pair(qtbot, tmp_path)
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(5),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in pair.windows),
    )
    joiner = pair.joiner
    qtbot.waitUntil(lambda: joiner.net_record is not None)
    click(qtbot, panel_button(joiner, "home"))
    qtbot.waitUntil(lambda: joiner.stack.currentWidget() is joiner.start)
    listed = joiner.start.kept_list
    assert listed.item(0).text().startswith("Network game vs hana · ")
    listed.setCurrentRow(0)
    click(qtbot, joiner.start.view_button)
    (viewer,) = _viewers()
    assert viewer.verified.text() == "Signed record: signatures, hashes and moves check."
    assert viewer.replayed.owner == 1 and viewer.replayed.opponent == "hana"
    assert joiner.controller.match is not None
    you, them = joiner.controller.match.scores[1], joiner.controller.match.scores[0]
    assert f" · {you}–{them} · finished · " in viewer.title.text()
    said = []
    for choice in (OPEN, 1):
        viewer.set_view(choice)
        viewer.go(0)
        while True:
            assert viewer.check() == [], (choice, viewer.index)
            said += viewer.said()
            if viewer.index == viewer.last:
                break
            press(viewer, Qt.Key.Key_Right)
    assert any(line.startswith("hana played ") for line in said)
    assert not any("computer" in line.lower() for line in said)
    viewer.close()
    pair.close()


def test_every_control_and_the_position_fit_the_smallest_window(qtbot) -> None:
    viewer = open_viewer(qtbot, played_match())
    viewer.resize(960, 640)
    for _ in range(30):
        press(viewer, Qt.Key.Key_Right)
    viewer.set_view(1)  # the longest choice: "As the computer saw it"
    qtbot.wait(20)
    position = viewer.position
    assert position.width() >= position.fontMetrics().horizontalAdvance(position.text())
    for control in viewer.findChildren(QPushButton) + viewer.findChildren(QComboBox):
        assert control.width() >= control.sizeHint().width(), control.accessibleName()


@pytest.mark.parametrize(
    ("key", "modifier"),
    [
        (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier),
    ],
)
def test_esc_and_ctrl_w_close_the_viewer_from_its_history_window(
    qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier
) -> None:
    games = games_dir()
    games.mkdir(parents=True)
    (games / "practice-20261201-101010.json").write_text(json.dumps(played_match()), "utf-8")
    window = open_window(qtbot)
    window.start.kept_list.setCurrentRow(0)
    click(qtbot, window.start.view_button)
    (viewer,) = _viewers()
    combo = viewer.findChild(QComboBox)  # the focus on a control inside it, not the viewer
    assert combo is not None
    combo.setFocus()
    QTest.keyClick(viewer.focusWidget() or viewer, key, modifier)
    qtbot.waitUntil(lambda: not _viewers())
    assert window.isVisible()  # only the viewer closed
    close_window(window)


@pytest.mark.parametrize(
    ("key", "modifier"),
    [
        (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier),
    ],
)
def test_enter_and_keypad_enter_press_the_viewers_focused_button(
    qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier
) -> None:
    viewer = open_viewer(qtbot, played_match())
    viewer.forward_button.setFocus()
    QTest.keyClick(viewer.forward_button, key, modifier)
    assert viewer.index == 1
    QTest.keyClick(viewer.forward_button, key, Qt.KeyboardModifier.ControlModifier)
    assert viewer.index == 1  # Ctrl+Enter is no press
    viewer.back_button.setFocus()
    QTest.keyClick(viewer.back_button, key, modifier)
    assert viewer.index == 0
