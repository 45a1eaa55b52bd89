"""The statistics through the player's path: whole practice matches played by clicks in the
real window are counted in ``stats.json`` (one with an undo counted apart), ``koikoi stats``
prints them, the start screen's Statistics page (its button, Ctrl+T; Esc back) shows them;
a damaged file is said in one line and kept aside."""

from __future__ import annotations

import json
import logging
import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from koikoi.engine.record import replay_record
from koikoi.paths import koikoi_home
from koikoi.stats.store import STATS_NAME
from koikoi.stats.tally import entry_of_record
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.undo import take_back
from tests.conftest import run_koikoi
from tests.ui_driver import (
    Bot,
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING, logger="koikoi")
    yield caplog
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


def _finished_records() -> list[dict[str, object]]:
    games = sorted((koikoi_home() / "games").glob("practice-*.json"))
    return [json.loads(p.read_text(encoding="utf-8")) for p in games]


def _undo_once(window: MainWindow) -> bool:
    """At the player's play, once they have played in this deal: Ctrl+Z."""
    c = window.controller
    if c.mode is not Mode.PLAY or c.record is None or not c.record.deals:
        return False
    actions = c.record.deals[-1].actions
    if not any(a["seat"] == c.me and "play" in a for a in actions):
        return False
    QTest.keyClick(window.game, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    return True


def test_finished_matches_are_counted_shown_and_printed(qtbot: Bot, no_errors: object) -> None:
    window = open_window(qtbot, size=(1024, 640))
    c = window.controller
    # a first match with one undo: counted apart
    start_practice(window, level="easy", seed=b"stats-undo")
    undone: list[bool] = []

    def until(w: MainWindow) -> bool:
        if not undone and _undo_once(w):
            undone.append(True)
            wait_for_input(qtbot, w)
        return w.controller.mode is Mode.MATCH_OVER

    play_by_clicks(qtbot, window, random.Random(2), until=until)
    assert undone and c.record is not None and c.record.to_json()["assisted"] == ["undo"]
    # a rematch played alone
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    play_by_clicks(qtbot, window, random.Random(3))
    records = _finished_records()
    assert len(records) == 2
    stats = json.loads((koikoi_home() / STATS_NAME).read_text(encoding="utf-8"))
    kept = stats["matches"]
    assert [m["assisted"] for m in kept] == [["undo"], []]
    # each entry is the engine's replay of the archived record
    by_id = {m["id"]: m for m in kept}
    for record in records:
        entry = entry_of_record(record).to_json()
        assert {k: v for k, v in by_id[str(record["seed"])].items() if k != "at"} == {
            k: v for k, v in entry.items() if k != "at"
        }
        assert replay_record(record).match.finished
    # koikoi stats prints them: the plain match at the top, the undone one apart
    proc = run_koikoi("stats")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    out = json.loads(proc.stdout)
    (plain,) = [e for e in map(entry_of_record, records) if not e.assisted]
    assert out["matches"] == 1 and out["levels"]["easy"]["matches"] == 1
    assert out["levels"]["easy"]["wins"] == (plain.result.value == "win")
    assert out["assisted"]["matches"] == 1 and out["assisted"]["levels"]["easy"]["matches"] == 1
    assert out["yaku"] == dict(plain.yaku)
    # the start screen's Statistics page, by its key; Esc goes back
    click(qtbot, panel_button(window, "home"))
    assert window.stack.currentWidget() is window.start
    window.start.stats_button.setFocus()
    QTest.keyClick(window.start.stats_button, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    page = window.stats_page
    assert window.stack.currentWidget() is page
    table = page.level_table
    assert table is not None and table.accessibleName() == "Matches by level"
    cells = [[table.item(0, j).text() for j in range(table.columnCount())]]  # type: ignore[union-attr]
    assert table.rowCount() == 1 and cells[0][:2] == ["Easy", "1"]
    assert page.assisted_table is not None and page.assisted_table.rowCount() == 1
    assert page.assisted_count.text().startswith("1 match")
    if plain.yaku:
        assert page.yaku_table is not None and page.yaku_table.rowCount() == len(plain.yaku)
    for widget in (page.back_button, table, page.assisted_table):
        assert widget.accessibleName()
    QTest.keyClick(page, Qt.Key.Key_Escape)
    assert window.stack.currentWidget() is window.start
    close_window(window)


def test_a_damaged_statistics_file_is_said_in_one_line_and_kept_aside(qtbot: Bot) -> None:
    home = koikoi_home()
    home.mkdir(parents=True, exist_ok=True)
    (home / STATS_NAME).write_text("{ this is not the statistics", encoding="utf-8")
    window = open_window(qtbot, size=(1024, 640))
    click(qtbot, window.start.stats_button)
    page = window.stats_page
    assert window.stack.currentWidget() is page
    notice = page.notice
    assert notice.isVisible() and "\n" not in notice.text()
    assert "could not be read" in notice.text() and "moved to" in notice.text()
    kept = list(home.glob("stats.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{ this is not the statistics"
    assert page.level_table is None  # a fresh start: nothing counted yet
    empty = [w.text() for w in page.findChildren(QLabel) if "No practice match" in w.text()]
    assert empty
    click(qtbot, page.back_button)
    assert window.stack.currentWidget() is window.start
    close_window(window)


def test_a_finished_match_over_a_damaged_file_says_so_in_the_log(qtbot: Bot) -> None:
    """The damage is found as the match is counted: one line in the log (and to screen
    readers), the file kept aside, the match counted in a fresh file."""
    home = koikoi_home()
    home.mkdir(parents=True, exist_ok=True)
    (home / STATS_NAME).write_bytes(b"\x00\x01garbage")
    window = open_window(qtbot)
    start_practice(window, level="easy", seed=b"stats-damaged")
    play_by_clicks(qtbot, window, random.Random(7))
    said = [line for line in window.game.side._lines if "statistics" in line]
    assert len(said) == 1 and "moved to" in said[0]
    assert len(list(home.glob("stats.corrupt-*.json"))) == 1
    stats = json.loads((home / STATS_NAME).read_text(encoding="utf-8"))
    assert len(stats["matches"]) == 1
    assert take_back(window.controller) is False  # the match is over: nothing to undo
    close_window(window)
