"""What the app keeps between runs: settings in one typed registry over QSettings, and the
match in progress saved after every action, resumed after a quit or a crash, with a corrupt
file reported in one line and set aside rather than crashing anything."""

from __future__ import annotations

import json
import logging
import random

import pytest
from PySide6.QtWidgets import QLabel, QPushButton

from koikoi.engine.match import Settings
from koikoi.engine.record import replay_record
from koikoi.paths import koikoi_home
from koikoi.ui.common.settings import (
    AI_LEVEL,
    ASSIST,
    OPTIONS,
    PRACTICE_DOUBLING,
    PRACTICE_ROUNDS,
    WINDOW_GEOMETRY,
    AppSettings,
    settings_path,
)
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.controller import HUMAN
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore
from koikoi.ui.table.panels import DecisionPanel
from tests.ui_driver import (
    FAST,
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)

# -- settings ----------------------------------------------------------------------------------


def test_settings_have_their_defaults_in_one_registry_and_round_trip():
    s = AppSettings()
    assert {o.key for o in OPTIONS.values()} >= {
        "practice/rounds",
        "practice/doubling",
        "practice/assist",
        "practice/ai_level",
    }
    assert (s.get(PRACTICE_ROUNDS), s.get(PRACTICE_DOUBLING), s.get(ASSIST)) == (6, True, True)
    assert s.get(AI_LEVEL) == "normal"
    s.set(PRACTICE_ROUNDS, 12)
    s.set(PRACTICE_DOUBLING, False)
    s.set(AI_LEVEL, "hard")
    s.sync()
    again = AppSettings()
    assert (again.get(PRACTICE_ROUNDS), again.get(PRACTICE_DOUBLING)) == (12, False)
    assert again.get(AI_LEVEL) == "hard"
    with pytest.raises(ValueError):
        s.set(PRACTICE_ROUNDS, 7)  # refused when written, not found broken when read


def test_a_corrupt_setting_falls_back_to_its_default_with_one_log_line(qtbot, caplog):
    path = settings_path()
    assert path is not None  # under the test's own KOIKOI_HOME
    path.write_text(
        "[practice]\nrounds=banana\nai_level=godlike\ndoubling=maybe\nassist=false\n",
        encoding="utf-8",
    )
    caplog.set_level(logging.WARNING, logger="koikoi")
    s = AppSettings()
    for _ in range(3):
        assert s.get(PRACTICE_ROUNDS) == 6
        assert s.get(AI_LEVEL) == "normal"
        assert s.get(PRACTICE_DOUBLING) is True
        assert s.get(ASSIST) is False  # the good value is kept
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert any("practice/rounds" in line and "banana" in line for line in lines)
    window = open_window(qtbot)  # and the window starts as if nothing were wrong
    assert window.start.rounds.checkedId() == 6
    close_window(window)


def test_quick_practice_is_6_rounds_with_the_last_practice_settings(qtbot):
    s = AppSettings()
    s.set(PRACTICE_ROUNDS, 12)
    s.set(PRACTICE_DOUBLING, False)
    s.set(ASSIST, False)
    s.set(AI_LEVEL, "easy")
    s.sync()
    window = open_window(qtbot)
    click(qtbot, window.start.practice_button)
    c = window.controller
    assert c.match is not None and c.match.settings == Settings(6, False)  # R2.7: always 6
    assert c.level == "easy" and not window.game.table.assist
    close_window(window)
    window = open_window(qtbot)
    window.start.doubling.setChecked(True)
    click(qtbot, window.start.start_button)  # the form's own rounds
    assert window.question is not None  # a match is kept: set it aside?
    set_aside = window.question.findChild(QPushButton, "setAside")
    assert set_aside is not None
    click(qtbot, set_aside)  # the first match's
    assert window.controller.match is not None
    assert window.controller.match.settings == Settings(12, True)
    assert AppSettings().get(PRACTICE_DOUBLING) is True  # remembered for next time
    close_window(window)


# -- the autosave ------------------------------------------------------------------------------


def _same_state(a, b) -> None:
    ra, rb = a.round, b.round
    assert (a.scores, a.rounds_played, a.oya) == (b.scores, b.rounds_played, b.oya)
    assert (ra.hands, ra.field, ra.captured, ra.stock_pos) == (
        rb.hands,
        rb.field,
        rb.captured,
        rb.stock_pos,
    )
    assert (ra.phase, ra.turn, ra.pending, ra.koikoi_count) == (
        rb.phase,
        rb.turn,
        rb.pending,
        rb.koikoi_count,
    )


def test_every_action_is_saved_and_a_crash_loses_nothing(qtbot):
    window = open_window(qtbot)
    start_practice(window, seed=b"resume-after-a-crash-000000000002")
    c = window.controller
    saves: list[int] = []

    def saved_matches(w) -> None:
        assert c.match is not None  # a match is being played
        if c.match.finished:
            return
        data = json.loads((koikoi_home() / "practice.json").read_text(encoding="utf-8"))
        replayed = replay_record(data).match
        if c.match.round is not None and not c.match.round.over and not c.match.finished:
            _same_state(replayed, c.match)
        saves.append(1)

    play_by_clicks(
        qtbot,
        window,
        random.Random(6),
        until=lambda w: (
            w.controller.match is not None
            and w.controller.match.rounds_played >= 1
            and w.controller.mode is Mode.PLAY
            and len(w.game.table.model.hand) <= 5
        ),
        check=saved_matches,
    )
    assert len(saves) > 10
    assert not list(koikoi_home().glob(".practice.json.*"))  # no temporary file left behind
    before = c.match
    assert before is not None
    # the app dies here: no close, no goodbye; a new one starts
    c.shutdown()
    window.hide()
    again = open_window(qtbot)
    assert again.start.resume_button.isVisible()
    text = again.start.resume_button.text()
    assert f"round {before.round_no} of 6" in text
    assert f"you {before.scores[0]} : {before.scores[1]} computer" in text
    click(qtbot, again.start.resume_button)
    assert wait_for_input(qtbot, again) is Mode.PLAY
    _same_state(again.controller.match, before)
    obs = again.controller.observation(HUMAN)
    assert obs is not None  # the resumed match is in play
    assert again.game.table.model.check_against(obs) == []
    play_by_clicks(qtbot, again, random.Random(9))  # and the match plays to its end
    assert again.controller.match is not None and again.controller.match.finished
    assert not (koikoi_home() / "practice.json").exists()
    close_window(again)


def test_a_match_resumed_at_koikoi_or_shobu_asks_again(qtbot):
    window = open_window(qtbot)
    start_practice(window, rounds=12, seed=b"resume-at-a-decision-000000000001")
    play_by_clicks(
        qtbot, window, random.Random(1), until=lambda w: w.controller.mode is Mode.DECIDE
    )
    info = window.controller.decision
    assert info is not None  # a decision comes with the panel's numbers
    window.controller.shutdown()
    window.close()
    again = open_window(qtbot)
    click(qtbot, again.start.resume_button)
    assert wait_for_input(qtbot, again) is Mode.DECIDE
    assert again.controller.decision is not None
    assert again.controller.decision.yaku == info.yaku
    assert again.controller.decision.pay == info.pay
    assert isinstance(again.game.overlay.panel, DecisionPanel)
    click(qtbot, panel_button(again))  # shobu
    assert wait_for_input(qtbot, again) is Mode.ROUND_OVER
    close_window(again)


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"format": "koikoi-record/1", "settings": {"rounds": 6, "doubling": True}}),
        json.dumps(
            {
                "format": "koikoi-record/1",
                "settings": {"rounds": 6, "doubling": True},
                "first_oya": 0,
                "seed": "00" * 32,
                "deals": [{"hands": [[], []], "field": [], "stock": []}],
            }
        ),
    ],
    ids=["not-json", "no-seed", "illegal-deal"],
)
def test_a_corrupt_save_is_reported_in_one_line_and_set_aside(qtbot, caplog, content):
    path = koikoi_home() / "practice.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    caplog.set_level(logging.WARNING, logger="koikoi")
    window = open_window(qtbot)
    notice = window.start.notice
    assert notice.isVisible() and "\n" not in notice.text()
    assert "could not be read" in notice.text()
    assert not path.exists()
    aside = list(koikoi_home().glob("practice.corrupt-*.json"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == content
    assert not window.start.resume_button.isVisible()
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
    click(qtbot, window.start.practice_button)  # and a new match starts as usual
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    close_window(window)


def test_going_back_to_the_start_keeps_the_match_for_later(qtbot):
    window = open_window(qtbot)
    start_practice(window, seed=b"back-to-the-start-000000000000001")
    click(qtbot, panel_button(window))
    wait_for_input(qtbot, window)
    click(qtbot, window.game.side.menu_button)
    assert window.stack.currentWidget() is window.start
    assert window.start.resume_button.isVisible()
    click(qtbot, window.start.resume_button)
    assert wait_for_input(qtbot, window) in (Mode.PLAY, Mode.PICK, Mode.DRAW_WAIT, Mode.DECIDE)
    assert window.stack.currentWidget() is window.game
    close_window(window)


def test_save_store_archives_a_finished_match(tmp_path):
    store = SaveStore(tmp_path)
    assert store.load().saved is None and store.load().problem is None
    store.write({"hello": "world"})
    assert [p.name for p in tmp_path.iterdir()] == ["practice.json"]
    moved = store.archive()
    assert moved is not None and moved.parent.name == "games" and not store.exists()


def test_window_geometry_is_remembered(qtbot):
    window = MainWindow(timings=FAST)
    qtbot.addWidget(window)
    window.resize(1100, 720)
    window.show()
    window.close()
    stored = AppSettings().get(WINDOW_GEOMETRY)
    assert stored and stored == bytes(window.saveGeometry().data())
    again = MainWindow(timings=FAST)
    qtbot.addWidget(again)
    assert again.findChild(QLabel, "title") is not None


def test_a_first_window_fits_the_screens_room_with_its_title_bar(qtbot, monkeypatch):
    """1280×800 on a 1280×800 screen put the hand and the Menu/Help row under the screen's
    edge once the title bar was added: the first size leaves room for the frame."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    from koikoi.ui.main_window import FRAME_ALLOWANCE

    room = QRect(0, 0, 1280, 800)
    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: room)
    window = MainWindow(timings=FAST)
    qtbot.addWidget(window)
    assert window.width() + FRAME_ALLOWANCE.left() + FRAME_ALLOWANCE.right() <= room.width()
    assert window.height() + FRAME_ALLOWANCE.top() + FRAME_ALLOWANCE.bottom() <= room.height()
    assert FRAME_ALLOWANCE.top() >= 24  # a title bar's height at least
    assert (window.width(), window.height()) >= (960, 640)
    window.show()
    qtbot.waitExposed(window)
    side = window.game.side
    window.stack.setCurrentWidget(window.game)
    qtbot.wait(20)
    bottom = side.menu_button.mapTo(window, side.menu_button.rect().bottomLeft()).y()
    assert bottom < window.height()  # the Menu/Help row is in the window
    window.close()


def test_a_language_switch_keeps_the_windows_place_and_size(qtbot):
    from koikoi.ui.app import MainWindows
    from koikoi.ui.common import names
    from koikoi.ui.common.settings import LANGUAGE

    names.install_translations("en")
    windows = MainWindows()
    first = windows.window
    first.resize(1100, 700)
    first.move(37, 53)
    first.show()
    qtbot.waitExposed(first)
    before = (first.geometry(), first.frameGeometry())
    choice = first.start.language
    choice.setCurrentIndex(choice.findData("ja"))
    qtbot.waitUntil(lambda: windows.window is not first)
    again = windows.window
    qtbot.waitExposed(again)
    qtbot.wait(20)
    try:
        assert (again.geometry(), again.frameGeometry()) == before
    finally:
        again.controller.shutdown()
        again.close()
        AppSettings().set(LANGUAGE, "")
        names.install_translations("en")


_FIRST_WINDOW = """
import json, sys, time
from PySide6.QtCore import QRect
from PySide6.QtTest import QTest
from koikoi.ui.app import make_app
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from tests.ui_driver import FAST, ProcessBot, click, find_card, panel_button, start_practice
from tests.ui_driver import wait_for_input

app = make_app()
screen = app.primaryScreen()
window = MainWindow(timings=FAST)  # no geometry saved: the first window's size
window.show()
assert QTest.qWaitForWindowExposed(window, 10_000)
QTest.qWait(50)  # the frame is known once shown: the window is fitted to it
bot = ProcessBot(time.monotonic() + 60, [])
start_practice(window, seed=b"first-window-fits-00000000000001")
assert wait_for_input(bot, window) is Mode.FIRST_OYA
click(bot, panel_button(window))
assert wait_for_input(bot, window) is Mode.PLAY
side = window.game.side


def inside(widget):
    place = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
    return widget.isVisible() and window.rect().contains(place)


cards = [find_card(window, card) for card in window.game.table.model.hand]
print(json.dumps({
    "screen": list(screen.availableGeometry().getRect()),
    "frame": list(window.frameGeometry().getRect()),
    "frame_inside": screen.availableGeometry().contains(window.frameGeometry()),
    "hand": len(cards),
    "hand_inside": all(inside(w) for w in cards),
    "buttons_inside": all(inside(b) for b in (side.menu_button, side.help_button)),
}))
window.grab().save(sys.argv[1])
window.controller.shutdown()
"""


def test_a_first_window_on_a_1280x800_screen_shows_its_hand_and_menu_row(tmp_path):
    """A real 1280×800 screen (the offscreen platform's, its windows framed): the first
    window, fitted to the screen's available room with its frame, shows the whole hand and
    the Menu/Help row inside the window and the window's frame on the screen."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    config = tmp_path / "screen.json"
    config.write_text(
        json.dumps(
            {
                "windowFrameMargins": True,
                "screens": [
                    {"name": "laptop", "x": 0, "y": 0, "width": 1280, "height": 800,
                     "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
                ],
            }
        ),
        encoding="utf-8",
    )  # fmt: skip
    env = dict(
        os.environ,
        QT_QPA_PLATFORM=f"offscreen:configfile={config}",
        KOIKOI_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(Path(__file__).resolve().parent.parent),
    )
    shot = tmp_path / "first-window.png"
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_WINDOW, str(shot)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == [0, 0, 1280, 800]  # the screen the test asked for
    assert seen["frame_inside"], seen
    assert seen["hand"] == 8 and seen["hand_inside"], seen
    assert seen["buttons_inside"], seen
