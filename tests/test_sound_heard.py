"""The table is heard: the real app in a real window (Xvfb, Qt's xcb platform) is played by
keys (tests/atspi_app.py, a practice match against the computer) while a sound server of the
test's own (PulseAudio with a null sink: nothing reaches a loudspeaker) records what the app
sends it. The recording holds the table's sounds — several separate ones, loud enough to
hear — and the same moves with ``KOIKOI_SOUND=0`` are silence, so the check can tell the two
apart.

The app's sound is otherwise tested through its audio layer (tests/test_sound.py); this is the
one run from the window's keys through miniaudio to a device."""

from __future__ import annotations

import array
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.test_ui_atspi import DEAL_SEED
from tests.xvfb import start_xvfb, stop_all

pytestmark = pytest.mark.timeout(240)

RATE = 22050
"""The recording's samples a second (mono, 16 bits)."""
WINDOW = RATE // 50
"""20 ms: the loudness is measured window by window."""
LOUD = 300.0
"""A window this loud (RMS of 16-bit samples) is a sound; the null sink's silence is 0."""
QUIET = 30


def _need_tools() -> None:
    missing = [t for t in ("Xvfb", "pulseaudio", "parec", "pactl") if shutil.which(t) is None]
    if not missing:
        return
    if os.environ.get("CI") or os.geteuid() == 0:  # CI runs .ci/setup as root: it has them
        pytest.fail(f"missing: {', '.join(missing)}; .ci/setup installs them (as root)")
    pytest.skip(f"needs {', '.join(missing)}, which .ci/setup installs (as root)")


@dataclass
class Studio:
    """A virtual screen and a sound server whose only output is recorded."""

    root: Path
    env: dict[str, str]
    procs: list[subprocess.Popen[Any]]

    @property
    def server(self) -> str:
        return f"unix:{self.root / 'native'}"

    def record(self, path: Path) -> subprocess.Popen[bytes]:
        rec = subprocess.Popen(
            [
                "parec",
                "--server",
                self.server,
                "--device",
                "heard.monitor",
                "--raw",
                "--format=s16le",
                "--channels=1",
                f"--rate={RATE}",
            ],
            stdout=path.open("wb"),
            stderr=subprocess.DEVNULL,
            env=self.env,
        )
        self.procs.append(rec)
        return rec

    def close(self) -> None:
        stop_all(self.procs)


def _start(root: Path) -> Studio:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PULSE_", "KOIKOI_SOUND"))}
    runtime = root / "runtime"
    runtime.mkdir(mode=0o700)
    env.update(HOME=str(root), XDG_RUNTIME_DIR=str(runtime), PULSE_RUNTIME_PATH=str(runtime))
    studio = Studio(root, env, [])
    env["DISPLAY"] = start_xvfb(studio.procs)
    server = subprocess.Popen(
        [
            "pulseaudio",
            "--daemonize=no",
            "-n",  # none of the system's configuration: only the two modules below
            "--exit-idle-time=-1",
            "--use-pid-file=no",
            "--disable-shm=yes",
            "-L",
            "module-null-sink sink_name=heard",
            "-L",
            f"module-native-protocol-unix socket={root / 'native'} auth-anonymous=1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    studio.procs.append(server)
    deadline = time.monotonic() + 20
    while True:
        info = subprocess.run(
            ["pactl", "--server", studio.server, "info"], capture_output=True, env=env, check=False
        )
        if info.returncode == 0:
            break
        assert server.poll() is None, "pulseaudio did not start"
        assert time.monotonic() < deadline, "pulseaudio did not answer within 20 s"
        time.sleep(0.1)
    return studio


@pytest.fixture
def studio() -> Iterator[Studio]:
    _need_tools()
    root = Path(tempfile.mkdtemp(prefix="koikoi-heard-"))  # short: socket paths have a limit
    s = _start(root)
    try:
        yield s
    finally:
        s.close()
        shutil.rmtree(root, ignore_errors=True)


STEPS = 14
"""Key presses of the player's before the recording stops (each with the computer's reply)."""
PACE = 0.3
"""Seconds between them: the sounds of one step end before the next begins."""


def _play(studio: Studio, name: str, **env: str) -> array.array[int]:
    """The start of a practice match in the real window, by keys (tests/atspi_app.py, instant
    timings, a key every :data:`PACE` s), its sound recorded; the samples."""
    recording = studio.root / f"{name}.raw"
    rec = studio.record(recording)
    run_env = dict(
        studio.env,
        QT_QPA_PLATFORM="xcb",
        PULSE_SERVER=studio.server,
        KOIKOI_HOME=str(studio.root / f"{name}-home"),
        PYTHONPATH=str(REPO),
        PYTHONUNBUFFERED="1",
        **env,
    )
    app = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "atspi_app.py"), "--deal-seed", DEAL_SEED],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=run_env,
    )
    studio.procs.append(app)
    assert app.stdin is not None and app.stdout is not None
    for _ in range(STEPS):
        line = app.stdout.readline()
        assert line, app.stderr.read() if app.stderr else "the app ended"
        state = json.loads(line)
        assert "error" not in state, state
        if state.get("done"):
            break
        time.sleep(PACE)
        app.stdin.write("go\n")
        app.stdin.flush()
    time.sleep(PACE)  # the last sound's tail reaches the recorder
    app.terminate()
    app.wait(10)
    rec.terminate()
    rec.wait(5)
    data = recording.read_bytes()
    samples = array.array("h")
    samples.frombytes(data[: len(data) // 2 * 2])
    return samples


def _loudness(samples: array.array[int]) -> list[float]:
    """The RMS of each :data:`WINDOW` of samples."""
    out = []
    for start in range(0, len(samples) - WINDOW + 1, WINDOW):
        part = samples[start : start + WINDOW]
        out.append((sum(v * v for v in part) / WINDOW) ** 0.5)
    return out


def _sounds(loudness: list[float]) -> int:
    """How many separate sounds: runs of loud windows with at least 60 ms of quiet between."""
    count, quiet = 0, 3
    for level in loudness:
        if level >= LOUD:
            if quiet >= 3:
                count += 1
            quiet = 0
        else:
            quiet += 1
    return count


def test_a_match_in_a_real_window_is_heard_and_koikoi_sound_0_is_silence(studio: Studio) -> None:
    heard = _play(studio, "heard")
    assert len(heard) > RATE, "the recorder got less than a second"
    loudness = _loudness(heard)
    assert max(loudness) >= 3 * LOUD, f"loudest 20 ms: RMS {max(loudness):.0f}"
    # the cards played, captured and drawn, step by step: many sounds, each of them separate
    assert _sounds(loudness) >= 5, f"{_sounds(loudness)} sounds heard"

    silent = _play(studio, "silent", KOIKOI_SOUND="0")
    assert len(silent) > RATE
    assert max(abs(v) for v in silent) <= QUIET


def test_no_sound_server_leaves_the_terminal_quiet(tmp_path: Path) -> None:
    """Without a sound server the device's backends are tried in turn; ALSA wrote a dozen
    "ALSA lib ... cannot find card '0'" lines to the player's terminal. It is silenced: the
    app is silent with one line in its log, at info, and nothing on stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PULSE_", "KOIKOI_SOUND"))}
    env.update(
        PULSE_SERVER=f"unix:{tmp_path / 'nobody'}",  # no server answers there
        KOIKOI_SOUND="1",
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(REPO),
    )
    code = (
        "from koikoi.ui.sound.sounds import open_backend\n"
        "b = open_backend(); b.opened.wait(20); print(b.failed is not None); b.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() != "True":
        pytest.skip("this machine has a sound device without a server")
    assert done.stderr == ""
