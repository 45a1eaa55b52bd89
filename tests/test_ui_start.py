"""The start screen and the match in progress: a resumed match tells its deal again in the
log, a new practice asks before it sets the match in progress aside, and set-aside and
finished matches stay listed on the start screen."""

from __future__ import annotations

import json
import os
import random
from datetime import datetime
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QTextDocumentFragment
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QPushButton

from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Settings
from koikoi.engine.record import GameRecord, replay_record
from koikoi.paths import games_dir
from koikoi.ui.match.matchview import Mode
from tests.ui_driver import (
    actions_so_far,
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)


def _log_lines(window) -> list[str]:
    text: str = window.game.side.log.toPlainText()
    return text.split("\n")


def test_a_resumed_match_tells_its_deal_again_in_the_log(qtbot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=b"resume-tells-the-log-000000000001")
    click(qtbot, panel_button(window))
    played = [0]

    def three_plays(w) -> bool:
        played[0] = len(w.controller.record.deals[-1].actions)
        return played[0] >= 6 and w.controller.mode is Mode.PLAY

    play_by_clicks(qtbot, window, random.Random(4), until=three_plays, koikoi_rate=0.0)
    before = _log_lines(window)
    assert len(before) > 20 and before[0].startswith("Round 1")
    click(qtbot, window.game.side.menu_button)
    assert window.game.side.log.toPlainText() == ""
    click(qtbot, window.start.resume_button)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    after = _log_lines(window)
    assert after[-1] == "The saved match is resumed."
    assert after[:-1] == before  # the same narration, line for line
    close_window(window)


# -- a new practice over a match in progress ---------------------------------------------------


def _match_in_progress_then_home(qtbot, seed: bytes):
    window = open_window(qtbot)
    start_practice(window, seed=seed)
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    play_by_clicks(
        qtbot,
        window,
        random.Random(5),
        until=lambda w: actions_so_far(w) >= 4 and w.controller.mode is Mode.PLAY,
    )
    click(qtbot, window.game.side.menu_button)
    assert window.stack.currentWidget() is window.start
    return window


def _next_practice_seed(window, seed: bytes) -> None:
    """The practice the start screen's button starts next deals from ``seed``: a random one
    is over at once in about one deal in fifty (a teyaku), and these tests want it in play."""
    window.controller.new_seed = lambda: seed


def _question(window) -> QMessageBox:
    box = window.question
    assert isinstance(box, QMessageBox) and box.isVisible()
    return box


def _button(box: QMessageBox, name: str) -> QPushButton:
    button = box.findChild(QPushButton, name)
    assert button is not None, f"the question has no {name!r} button"
    return button


def test_practice_over_a_match_in_progress_asks_and_keep_playing_resumes_it(qtbot) -> None:
    window = _match_in_progress_then_home(qtbot, b"ask-before-setting-aside-00000001")
    saved = json.loads(window.saves.path.read_text(encoding="utf-8"))
    click(qtbot, window.start.practice_button)
    box = _question(window)
    assert window.saves.path.is_file()  # nothing is replaced while the question is up
    assert "Round 1 of 6" in box.informativeText()
    keep = _button(box, "keepPlaying")
    assert keep.text() == "Keep playing" and box.defaultButton() is keep
    assert box.escapeButton() is keep
    click(qtbot, keep)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert window.stack.currentWidget() is window.game
    assert window.controller.record.to_json()["deals"] == saved["deals"]
    close_window(window)


def test_escape_keeps_the_match_in_progress(qtbot) -> None:
    window = _match_in_progress_then_home(qtbot, b"ask-before-setting-aside-00000002")
    click(qtbot, window.start.start_button)  # the settings card's start asks too
    box = _question(window)
    QTest.keyClick(box, Qt.Key.Key_Escape)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert not list((window.saves.directory / "games").glob("*.json"))
    close_window(window)


def test_setting_a_match_aside_lists_it_and_it_can_be_resumed(qtbot) -> None:
    window = _match_in_progress_then_home(qtbot, b"ask-before-setting-aside-00000003")
    first = json.loads(window.saves.path.read_text(encoding="utf-8"))
    _next_practice_seed(window, b"ask-before-setting-aside-00000004")
    click(qtbot, window.start.practice_button)
    click(qtbot, _button(_question(window), "setAside"))
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    assert window.controller.record.to_json()["deals"] == []
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    second = window.controller.record.to_json()
    click(qtbot, window.game.side.menu_button)
    listed = window.start.kept_list
    assert listed.isVisible() and listed.count() == 1
    title = listed.item(0).text()
    assert title.startswith("Practice vs easy · ") and title.endswith(
        " · 25–25 · set aside in round 1 of 6"
    ), title
    assert not window.start.take_back_button.isEnabled()
    listed.setCurrentRow(0)
    assert window.start.take_back_button.isEnabled()
    click(qtbot, window.start.take_back_button)  # a match is in progress again: ask
    click(qtbot, _button(_question(window), "setAside"))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    assert window.controller.record.to_json()["deals"] == first["deals"]
    click(qtbot, window.game.side.menu_button)
    assert listed.count() == 1  # the second match took the first one's place in the list
    kept = json.loads(window.start.kept[0].path.read_text(encoding="utf-8"))
    assert kept["deals"] == second["deals"]
    close_window(window)


def test_finished_matches_are_listed_and_cannot_be_resumed(qtbot) -> None:
    games = games_dir()
    games.mkdir(parents=True, exist_ok=True)
    path = games / "practice-20261203-101010.json"
    record = _finished_record(level="hard")
    path.write_text(json.dumps(record), encoding="utf-8")
    when = datetime(2026, 12, 3, 12, 0).timestamp()
    os.utime(path, (when, when))
    window = open_window(qtbot)
    scores = replay_record(record).match.scores
    listed = window.start.kept_list
    assert listed.count() == 1
    assert listed.item(0).text() == (
        f"Practice vs hard · 3 Dec 2026 · {scores[0]}–{scores[1]} · finished"
    )
    listed.setCurrentRow(0)
    assert not window.start.take_back_button.isEnabled()
    click(qtbot, window.start.practice_button)  # no match in progress: no question
    assert window.question is None
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    close_window(window)


def _finished_record(level: str) -> dict[str, Any]:
    """A whole match of random legal moves, kept as the window keeps a finished one."""
    rng = random.Random(11)
    match = Match(Settings(6, True), 0)
    record = GameRecord(Settings(6, True), 0, extra={"ai_level": level, "seed": "01" * 32})
    while not match.finished:
        events = match.deal(deck_from_seed(b"finished", match.round_no, match.deal_no))
        assert events
        rnd = match.round
        assert rnd is not None  # a deal lays out a round
        record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        while not rnd.over:
            seat = rnd.turn
            action = rng.choice(match.legal_actions())
            match.apply(action, seat)
            record.add_action(seat, action)
    return record.to_json()


def test_at_1024_by_640_an_offer_and_earlier_matches_squeeze_no_button(qtbot) -> None:
    """The tallest start screen: a match to resume above the buttons and a match set aside
    below them, in the smallest window. Every button keeps the height its lines of text need
    (its padding may shrink)."""
    window = _match_in_progress_then_home(qtbot, b"the-tallest-start-screen-0000001")
    _next_practice_seed(window, b"the-tallest-start-screen-0000002")
    click(qtbot, window.start.practice_button)
    click(qtbot, _button(_question(window), "setAside"))
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    click(qtbot, window.game.side.menu_button)
    window.resize(1024, 640)
    qtbot.waitUntil(lambda: window.start.height() <= 640, timeout=5_000)
    qtbot.wait(100)
    start = window.start
    assert start.resume_button.isVisible() and start.kept_list.isVisible()

    def needs(button: QPushButton) -> int:  # its lines and a 4 px border above and below
        return QFontMetrics(button.font()).lineSpacing() * (button.text().count("\n") + 1) + 8

    squeezed = [
        (button.objectName(), button.height(), needs(button))
        for button in start.findChildren(QPushButton)
        if button.isVisible() and button.height() < needs(button)
    ]
    assert not squeezed, squeezed
    close_window(window)


# -- the start screen's keys -------------------------------------------------------------------


def test_enter_and_keypad_enter_press_the_focused_start_button(qtbot) -> None:
    from koikoi.ui.learn.calculator import ScoreCalculator
    from koikoi.ui.learn.help import HelpDialog

    window = open_window(qtbot)
    window.start.help_button.setFocus()
    QTest.keyClick(window.start.help_button, Qt.Key.Key_Return)
    help_window = window.findChild(HelpDialog)
    assert help_window is not None and help_window.isVisible()
    help_window.close()
    window.activateWindow()
    window.start.calculator_button.setFocus()
    QTest.keyClick(
        window.start.calculator_button, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier
    )
    calculator = window.findChild(ScoreCalculator)
    assert calculator is not None and calculator.isVisible()
    calculator.close()
    window.start.practice_button.setFocus()
    QTest.keyClick(window.start.practice_button, Qt.Key.Key_Return)
    assert window.stack.currentWidget() is window.game
    close_window(window)


def test_f1_on_the_start_screen_opens_the_help(qtbot) -> None:
    from koikoi.ui.learn.help import HelpDialog

    window = open_window(qtbot)
    window.start.practice_button.setFocus()
    QTest.keyClick(window.start.practice_button, Qt.Key.Key_F1)
    help_window = window.findChild(HelpDialog)
    assert help_window is not None and help_window.isVisible()
    assert window.stack.currentWidget() is window.start  # F1 did not press the button
    close_window(window)


def test_the_expert_is_a_level_to_choose_and_plays_a_practice_match(qtbot) -> None:
    """expert (issue 24) beside easy, normal and hard on the start screen: chosen by its
    button, named on the table, and it answers the player's moves."""
    window = open_window(qtbot)
    levels = {b.property("level"): b for b in window.start.level.buttons()}
    assert list(levels) == ["easy", "normal", "hard", "expert"]
    expert = levels["expert"]
    assert expert.text() == "Expert" and expert.accessibleName() == "Computer level: Expert"
    click(qtbot, expert)
    click(qtbot, window.start.start_button)
    assert window.controller.level == "expert"
    click(qtbot, panel_button(window))  # the first oya: to the table
    assert "computer: expert" in window.game.side.rules.text()
    play_by_clicks(qtbot, window, random.Random(6), until=lambda w: actions_so_far(w) >= 6)
    record = window.controller.record
    assert record is not None and record.to_json()["ai_level"] == "expert"
    close_window(window)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_each_level_says_how_it_plays_on_hover_and_to_a_screen_reader(qtbot, language) -> None:
    from koikoi.ui.common import names

    assert names.install_translations(language)
    try:
        window = open_window(qtbot)
        buttons = window.start.level.buttons()
        said = [b.accessibleDescription() for b in buttons]
        shown = [QTextDocumentFragment.fromHtml(b.toolTip()).toPlainText() for b in buttons]
        assert shown == said and all(b.toolTip().startswith("<p>") for b in buttons)  # wraps
        assert len(set(said)) == len(buttons) == 4 and all(len(line) > 30 for line in said)
        if language == "ja":
            assert all(any("\u3040" <= c <= "\u30ff" for c in line) for line in said), said
        else:
            assert said[0].startswith("A beginner") and said[3].startswith("Hard's search")
        close_window(window)
    finally:
        names.install_translations("en")


@pytest.mark.parametrize("size", [(1024, 640), (960, 640)])
def test_every_button_of_the_start_screen_shows_its_whole_text(qtbot, size) -> None:
    """At the smallest sizes with a match to resume: no radio button, check box or button
    is narrower than its text (four computer levels and the Statistics button cut "6 rounds",
    "Normal", "Expert" and the Practice button's second line)."""
    window = _match_in_progress_then_home(qtbot, b"every-start-button-whole-0000001")
    window.resize(*size)
    qtbot.waitUntil(lambda: window.start.width() <= size[0], timeout=5_000)
    qtbot.wait(100)
    cut = [
        (type(b).__name__, b.text().replace("\n", " / "), b.width(), b.sizeHint().width())
        for b in window.start.findChildren(QAbstractButton)
        if b.isVisible() and b.width() < b.sizeHint().width()
    ]
    assert not cut, cut
    close_window(window)
