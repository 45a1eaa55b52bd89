"""The app as the command line starts it: ``koikoi --smoke-test`` plays a round offscreen
and exits 0; ``koikoi`` with no display says so in one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tests.conftest import REPO


def _run(args: list[str], env: dict[str, str], timeout: float = 120):
    return subprocess.run(
        [sys.executable, "-m", "koikoi", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env=env,
    )


def test_smoke_test_plays_a_round_offscreen_and_exits_0(tmp_path):
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)  # run_app must choose offscreen by itself
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["KOIKOI_HOME"] = str(tmp_path / "home")
    started = time.monotonic()
    proc = _run(["--smoke-test"], env)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 60
    assert "smoke test passed" in proc.stderr
    assert "Traceback" not in proc.stderr
    # it played in a throw-away folder: the player's own saves and settings are untouched
    assert not (tmp_path / "home").exists()


def test_without_a_display_koikoi_says_so_in_one_line(tmp_path):
    env = dict(os.environ)
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    env["KOIKOI_HOME"] = str(tmp_path)
    proc = _run([], env, timeout=60)
    if sys.platform.startswith("linux"):
        assert proc.returncode == 1
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "display" in lines[0]
        assert proc.stdout == ""
