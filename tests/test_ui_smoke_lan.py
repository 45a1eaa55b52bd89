"""``koikoi --smoke-test lan`` as the command line runs it: two windows meet in their lobbies
by mDNS on 127.0.0.1, compare the four cards, toss and play a round by clicks; exit 0. A run
that cannot finish says why in one line and exits 1 within its time limit."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from koikoi.ui import smoke
from tests.conftest import run_koikoi


def test_two_windows_meet_by_mdns_and_play_a_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("KOIKOI_HOME", str(home))
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)  # the smoke test goes offscreen itself
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    started = time.monotonic()
    proc = run_koikoi("--smoke-test", "lan", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 60
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr  # no warnings, no traceback: the one result line
    assert lines[0].startswith("koikoi: LAN smoke test passed: room listed in "), lines[0]
    assert " clicks on two windows" in lines[0]
    assert not home.exists()  # each window had a throw-away home of its own


def test_a_run_out_of_time_fails_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOIKOI_SMOKE_LIMIT", "0.6")  # too short for mDNS to list the room
    started = time.monotonic()
    proc = run_koikoi("--smoke-test", "lan", timeout=60)
    assert proc.returncode == 1
    assert time.monotonic() - started < 30  # the windows are closed and the threads let go
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    # in the lobby (a loaded machine) or waiting for the room to be listed
    assert re.fullmatch(
        r"koikoi: LAN smoke test failed: time limit \(0.6 s\) in (lobby_joiner|create|listing "
        r"\(the room was not listed; the joiner's list holds \d+ other rooms\))",
        lines[0],
    ), lines[0]


def test_a_late_room_is_found_by_opening_the_lobby_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The joiner whose list lacks the room goes back and presses 対戦 again; its new browser
    lists the room (a room is announced about 1 s after it opens: 0.5 s is always too soon)."""
    from PySide6.QtWidgets import QApplication

    monkeypatch.setattr(smoke, "RELIST_AFTER", 0.5)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    code, why, times = smoke.run_lan(app, play_round=False)
    assert (code, why) == (0, "")
    assert times.reopened >= 1
    assert times.listed > times.created and times.laid_out > times.dealt > times.join


def test_a_smoke_test_that_does_not_exist_is_a_usage_error() -> None:
    proc = run_koikoi("--smoke-test", "wan")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "koikoi: argument --smoke-test: invalid choice: 'wan' (choose from 'practice', 'lan')"
    ]


def test_an_error_in_the_app_ends_the_run_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """An exception in a slot (here the player's click in the round) closes both windows and
    ends the run with 1 and its one line: no traceback on the terminal."""
    from PySide6.QtWidgets import QApplication

    steps = [0]
    step = smoke.SmokeDriver.step

    def failing_step(driver: smoke.SmokeDriver) -> None:
        steps[0] += 1
        if steps[0] > 3:
            raise RuntimeError("a click went wrong")
        step(driver)

    monkeypatch.setattr(smoke.SmokeDriver, "step", failing_step)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    started = time.monotonic()
    code, why, _times = smoke.run_lan(app)
    assert (code, why) == (1, "RuntimeError: a click went wrong")
    assert time.monotonic() - started < 30
    assert "Traceback" not in capfd.readouterr().err
    assert not [w for w in app.topLevelWidgets() if w.isVisible()]  # both windows closed
