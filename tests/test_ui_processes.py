"""The app's processes, as the system sees them: the real ``koikoi`` in a practice match
against the computer has a helper process (and multiprocessing's resource tracker) under it;
however the app ends — SIGKILL, SIGTERM, SIGINT — none of them outlives it, and SIGTERM and
SIGINT quit cleanly with the match saved. Processes are read from /proc (Linux only)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi.ui.match.saves import SaveStore
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)"
)

START_TIMEOUT = 60.0
GONE_TIMEOUT = 5.0


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a process, None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _descendants(root: int) -> dict[int, str]:
    """Every process under ``root``: pid -> start time (so a reused pid is not mistaken)."""
    parents: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(stat[0], []).append(int(entry.name))
            starts[int(entry.name)] = stat[2]
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def _alive(processes: dict[int, str]) -> dict[int, str]:
    """Those still running (an exited one left as a zombie by a careless init is gone)."""
    alive = {}
    for pid, start in processes.items():
        stat = _stat(pid)
        if stat is not None and stat[2] == start and stat[1] not in ("Z", "X"):
            alive[pid] = _cmdline(pid)
    return alive


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _wait_idle(pid: int, quiet: float = 0.5) -> None:
    """Until the process has used no CPU for ``quiet`` seconds."""
    deadline = time.monotonic() + START_TIMEOUT
    ticks, since = _cpu_ticks(pid), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, f"process {pid} never went idle"
        time.sleep(0.05)
        if (now := _cpu_ticks(pid)) != ticks:
            ticks, since = now, time.monotonic()


def _wait_gone(processes: dict[int, str], timeout: float = GONE_TIMEOUT) -> dict[int, str]:
    deadline = time.monotonic() + timeout
    while (alive := _alive(processes)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


class App:
    """The real app (``python -m koikoi``) offscreen, pressing Practice at start."""

    def __init__(self, home: Path, log: Path) -> None:
        env = dict(os.environ)
        env.update(QT_QPA_PLATFORM="offscreen", KOIKOI_HOME=str(home), KOIKOI_START="practice")
        self.home = home
        self.log = log
        # stderr goes to a file: a pipe would stay open in any child that outlived the app
        with log.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "koikoi"],
                stdin=subprocess.DEVNULL,
                stdout=err,
                stderr=err,
                cwd=REPO,
                env=env,
            )
        self.children: dict[int, str] = {}

    def wait_for_match(self) -> dict[int, str]:
        """The app's child processes once the match is saved and the computer's helper up."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            children = _descendants(self.proc.pid)
            kinds = " ".join(_cmdline(pid) for pid in children)
            saved = (self.home / "practice.json").is_file()
            if saved and "spawn_main" in kinds and "resource_tracker" in kinds:
                self.children = children
                return children
            time.sleep(0.1)
        raise AssertionError(f"no practice match with a helper process: {self.log.read_text()}")

    def stop(self) -> None:
        """Clean up whatever a failed test left behind."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid in _alive(self.children):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    started = App(tmp_path / "home", tmp_path / "stderr.txt")
    try:
        yield started
    finally:
        started.stop()


def test_the_computers_helper_and_the_resource_tracker_die_with_a_killed_app(app: App) -> None:
    children = app.wait_for_match()
    helper = next(pid for pid in children if "spawn_main" in _cmdline(pid))
    _wait_idle(helper)  # started, warmed up: waiting for the computer's first move
    # it thinks without Qt, which would double its memory
    assert "libQt6Core" not in Path(f"/proc/{helper}/maps").read_text()
    time.sleep(0.5)  # let the computer be thinking, or about to
    app.proc.send_signal(signal.SIGKILL)
    app.proc.wait(10)
    assert _wait_gone(children) == {}


# the computer's helper kept busy by one hard search after another (each about 0.1 s)
THINKING = """
import itertools, random
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Settings
from koikoi.ui.match import ai_worker

match = Match(Settings(), 0)
match.deal(deck_from_seed(b"busy", match.round_no, match.deal_no))
obs = match.observation(match.current_seat())
host = ai_worker._get_host()
for token in itertools.count(1):
    legal = tuple(obs.legal_actions)
    host.submit("hard", token, obs, legal, random.Random(token), 60.0).result()
    print("thought", token, flush=True)
"""


def test_a_helper_in_the_middle_of_a_search_dies_with_a_killed_parent(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        parent = subprocess.Popen(
            [sys.executable, "-c", THINKING], stdout=sink, stderr=sink, cwd=REPO
        )
    children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "thought 3" not in out.read_text():
            assert parent.poll() is None and time.monotonic() < deadline, out.read_text()
            time.sleep(0.05)
        children = _descendants(parent.pid)
        helper = [pid for pid in children if "spawn_main" in _cmdline(pid)]
        assert len(helper) == 1
        parent.kill()
        parent.wait(10)
        assert _wait_gone(children) == {}
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in _alive(children):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_sigterm_and_sigint_quit_cleanly_saved_with_no_process_left(
    app: App, number: signal.Signals
) -> None:
    children = app.wait_for_match()
    time.sleep(0.5)  # the first oya is shown: nothing is saved until the player clicks
    saved_at = (app.home / "practice.json").stat().st_mtime_ns
    app.proc.send_signal(number)
    assert app.proc.wait(30) == 0, app.log.read_text()
    assert (app.home / "practice.json").stat().st_mtime_ns > saved_at  # saved on the way out
    assert _wait_gone(children) == {}
    log = app.log.read_text()
    assert "Traceback" not in log, log
    loaded = SaveStore(app.home).load()
    assert loaded.problem is None and loaded.saved is not None
    assert loaded.saved.data["ai_level"] in ("easy", "normal", "hard")


def test_stopping_the_helper_kills_it_when_its_work_does_not_stop_in_time() -> None:
    from koikoi.ui.match import ai_worker

    host = ai_worker._get_host()
    assert host is not None
    sleeping = host.executor.submit(time.sleep, 60)  # no stop flag reaches this
    helpers: dict[int, str] = {}
    deadline = time.monotonic() + START_TIMEOUT
    while not sleeping.running() or not helpers:
        assert time.monotonic() < deadline
        time.sleep(0.05)
        helpers = {
            pid: start
            for pid, start in _descendants(os.getpid()).items()
            if "spawn_main" in _cmdline(pid)
        }
    started = time.monotonic()
    ai_worker.stop_helper(timeout=0.5)
    assert time.monotonic() - started < 3
    assert _wait_gone(helpers) == {}
