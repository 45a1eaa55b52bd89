"""The suite's own timeout: a test that hangs fails alone, and the run goes on (pytest-timeout
with tests/conftest.py's handling of Qt waits). Each way to hang runs in a pytest of its own,
in a child process, with a one-second bound."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import REPO

HANGS = """
import subprocess, sys, time

from PySide6.QtCore import QObject, Signal


def test_a_sleep():
    time.sleep(60)


def test_a_child_that_never_ends():
    subprocess.run([sys.executable, "-c", "import time; time.sleep(60)"])


def test_a_wait_until_that_never_comes(qtbot):
    qtbot.waitUntil(lambda: False, timeout=60_000)


def test_qt_waits_for_ever(qtbot):
    while True:
        qtbot.wait(50)


def test_a_signal_that_never_comes(qtbot):
    class Quiet(QObject):
        said = Signal()

    quiet = Quiet()
    with qtbot.waitSignal(quiet.said, timeout=60_000):
        pass


def test_the_next_test_runs():
    assert True
"""


def test_each_way_to_hang_fails_its_own_test_within_its_bound(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import (  # noqa: F401\n"
        "    _qapplication, _qt_waits_end_at_the_timeout, pytest_timeout_set_timer,\n"
        ")\n"
    )
    (tmp_path / "test_hangs.py").write_text(HANGS)
    env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen"}
    env["COLUMNS"] = "300"  # the summary's lines whole
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider",
            "-o", "timeout=1", "-o", "timeout_method=signal", "-o", "qt_api=pyside6",
            "--durations=0", "--durations-min=0", str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=100,
    )  # fmt: skip
    took = time.monotonic() - started
    assert "5 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    failed = re.findall(r"^FAILED \S+::(\w+) - Failed: Timeout \(>1\.0s\)", done.stdout, re.M)
    assert len(failed) == 5, done.stdout
    calls = {
        name: float(s) for s, name in re.findall(r"^([\d.]+)s call +\S+::(\w+)", done.stdout, re.M)
    }
    assert all(calls[name] < 10 for name in failed), calls  # not the 60 s of each hang
    assert took < 80, took
