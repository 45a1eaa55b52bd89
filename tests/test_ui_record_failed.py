"""A network match whose record cannot be saved goes on, and the window says once that a
crash would now lose it (koikoi/net/policy.py, ``RecordKeeper``); it used to be logged only."""

from __future__ import annotations

import random
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.paths import games_dir
from tests.test_ui_network import Pair, log_text
from tests.ui_driver import play_windows_by_clicks

LINE = "Could not save the record ("


def test_the_window_says_once_that_the_record_cannot_be_saved(qtbot: QtBot, tmp_path: Path) -> None:
    blocked = games_dir(tmp_path / "hana")
    blocked.parent.mkdir(parents=True)
    blocked.write_text("a file where the games folder should be\n")  # every save fails
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:

        def enough() -> bool:
            session = None if host.link is None else host.link.session
            lockstep = None if session is None else session.lockstep
            return LINE in log_text(host) and lockstep is not None and lockstep.seq >= 10

        play_windows_by_clicks(qtbot, pair.windows, random.Random(5), until=enough)
        text = log_text(host)
        assert text.count(LINE) == 1, text  # told once, however many saves failed
        assert "a crash would now lose the match." in text
        assert LINE not in log_text(joiner)  # the joiner's saves are fine
        assert host.link is not None and host.link.session is not None  # the match is on
        ending = host.link.session.ending
        assert ending is None or ending.finished  # the match goes on
    finally:
        pair.close()
