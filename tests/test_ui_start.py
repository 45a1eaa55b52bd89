"""The start screen and the match in progress: a resumed match tells its deal again in the
log, a new practice asks before it sets the match in progress aside, and set-aside and
finished matches stay listed on the start screen."""

from __future__ import annotations

import random

from koikoi.ui.controller import Mode
from tests.ui_driver import (
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    start_practice,
    wait_for_input,
)


def _log_lines(window) -> list[str]:
    return window.game.side.log.text().split("\n")


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
    assert len(before) == 7
    click(qtbot, window.game.side.menu_button)
    assert window.game.side.log.text() == ""
    click(qtbot, window.start.resume_button)
    assert wait_for_input(qtbot, window) is Mode.PLAY
    after = _log_lines(window)
    assert after[-1] == "The saved match is resumed."
    assert after[:-1] == before[1:]  # the same narration, line for line
    close_window(window)
