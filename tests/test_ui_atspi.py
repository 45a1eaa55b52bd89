"""A screen reader hears the game: the real app under Xvfb, read over AT-SPI with pyatspi.

The test starts its own X server (Xvfb), its own D-Bus session bus and, through it, the
accessibility bus of at-spi2-core (``at-spi-bus-launcher`` and ``at-spi2-registryd``, started
by D-Bus activation, their sockets in a private ``XDG_RUNTIME_DIR``). In it run two processes:

* the app (``tests/atspi_app.py``, the project's Python): the real window with
  ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``, a 6-round practice match against the computer
  started from the start screen and played by keys, stopping each time it waits for the
  player and saying what a screen reader should find then;
* the reader (``tests/atspi_reader.py``, run by the system's ``/usr/bin/python3``, which has
  Debian's ``python3-pyatspi``; pip cannot install that binding into the venv): it knows the
  app only over the accessibility bus, as Orca does, and listens for ``object:announcement``,
  the AT-SPI event Qt 6.8+ sends for a ``QAccessibleAnnouncementEvent``.

At the stops the test compares: every card of the hand, the field and both capture rows is in
the tree by its accessible name in the app's language, showing; the panel's buttons too; the
focused object is the one the app has the keyboard on; the game log ("What happened") is
focusable and its text is what the game said. Every sentence the game said was heard as an
announcement, in order, and, from the saved record replayed by the engine, each play, draw,
capture, yaku, koikoi and shobu of either player and each round and match result is among
them. ``docs/accessibility.md`` says how to run it by hand.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from koikoi.engine.cards import Card
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    Event,
    KoikoiDeclared,
    MatchEnded,
    RoundEnded,
    StockTurned,
    YakuFormed,
)
from koikoi.engine.outcome import Outcome
from koikoi.ui.replay.history import load
from tests.xvfb import start_xvfb, stop_all

REPO = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
QM_JA = REPO / "assets" / "i18n" / "koikoi_ja.qm"
LANGUAGES = {"en": "C.UTF-8", "ja": "ja_JP.UTF-8"}
TIMEOUT = 150.0
"""The whole match, the app's own bound (the test takes about 40 s on a quiet machine)."""
PANEL_MODES = {"first_oya", "decide", "round_over", "match_over"}
DEAL_SEED = "0" * 60 + "1515"
"""The match's cards: with the player's choices of ``atspi_app.py`` (its default ``--seed``)
both players call koikoi and both win a round by shobu. Should a change of the computer's play
lose one of them, the test says so: run ``atspi_app.py --deal-seed`` with a few seeds
(offscreen, ``yes go |``) and keep one whose record has them all."""


def missing_tools() -> list[str]:
    missing = [t for t in ("Xvfb", "dbus-daemon") if shutil.which(t) is None]
    if not os.path.exists(BUS_LAUNCHER):
        missing.append("at-spi2-core")
    if not os.path.exists(SYSTEM_PYTHON):
        missing.append(SYSTEM_PYTHON)
    else:
        probe = subprocess.run(
            [SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, text=True, check=False
        )
        if probe.returncode != 0:
            missing.append("python3-pyatspi")
    return missing


def _need_tools() -> None:
    missing = missing_tools()
    if not missing:
        return
    if os.environ.get("CI") or os.geteuid() == 0:  # CI runs .ci/setup as root: it has them
        pytest.fail(f"missing: {', '.join(missing)}; .ci/setup installs them (as root)")
    pytest.skip(f"needs {', '.join(missing)}, which .ci/setup installs (as root)")


class Session:
    """Xvfb, a private session bus and the accessibility bus, and the environment to use them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.procs: list[subprocess.Popen[Any]] = []
        runtime = root / "runtime"
        runtime.mkdir(mode=0o700)
        display = start_xvfb(self.procs)
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "DBUS_", "AT_"))
        }
        env.update(
            DISPLAY=display,
            XDG_RUNTIME_DIR=str(runtime),
            HOME=str(root),
            QT_QPA_PLATFORM="xcb",
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            PYTHONPATH=str(REPO),
            PYTHONUNBUFFERED="1",
        )
        bus = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        self.procs.append(bus)
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        assert address, "dbus-daemon did not start"
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.env = env

    def close(self) -> None:
        stop_all(self.procs)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    _need_tools()
    root = Path(tempfile.mkdtemp(prefix="koikoi-atspi-"))  # short: socket paths have a limit
    s = Session(root)
    try:
        yield s
    finally:
        s.close()
        shutil.rmtree(root, ignore_errors=True)


def _line(stream: IO[str] | None, who: str) -> dict[str, Any]:
    assert stream is not None
    line = stream.readline()
    assert line, f"{who} ended without a word"
    data: dict[str, Any] = json.loads(line)
    assert "error" not in data, f"{who}: {data}"
    return data


def _send(proc: subprocess.Popen[str], text: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(text + "\n")
    proc.stdin.flush()


class Ears:
    """The reader process: asks for the tree, collects what it heard."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.heard: list[str] = []

    def tree(self) -> list[list[Any]]:
        _send(self.proc, "tree")
        answer = _line(self.proc.stdout, "the reader")
        self.heard += [h[2] for h in answer["heard"]]
        objects: list[list[Any]] = answer["objects"]
        return objects

    def catch_up(self, said: list[str], wait_s: float = 5.0) -> None:
        """Announcements travel apart from the answers to questions: wait until as many are
        heard as were said (or the time is up)."""
        end = time.monotonic() + wait_s
        while len(self.heard) < len(said) and time.monotonic() < end:
            _send(self.proc, "heard")
            self.heard += [h[2] for h in _line(self.proc.stdout, "the reader")["heard"]]
            if len(self.heard) < len(said):
                time.sleep(0.05)


def check_tree(stop: dict[str, Any], objects: list[list[Any]], said: list[str]) -> None:
    """What a screen reader finds at this stop is what the window shows."""
    mode = stop["mode"]
    buttons = {o[1]: o[2] for o in objects if o[0] == "push button"}
    where = f"at {mode}"
    for row in ("hand", "field"):
        for name in stop[row]:
            assert name in buttons, f"{where}: the {row} card {name!r} is not in the tree"
    for seat, pile in enumerate(stop["captured"]):
        for name in pile:
            assert name in buttons, f"{where}: seat {seat}'s captured {name!r} is not in the tree"
    if mode == "play":
        for name in stop["hand"]:
            assert "f" in buttons[name], f"{where}: the hand card {name!r} is not focusable"
    for name in stop["buttons"]:
        assert name in buttons, f"{where}: the panel's button {name!r} is not in the tree"
    focused = [o[1] for o in objects if "F" in o[2]]
    if stop["focus"]:
        assert focused == [stop["focus"]], f"{where}: focus {focused} for {stop['focus']!r}"
    assert len(focused) <= 1, f"{where}: {focused} all say they are focused"  # hidden ones
    labels = [o[1] for o in objects if o[0] == "label"]
    if stop["prompt"]:  # the turn's prompt is heard by what it says, not as "Prompt"
        assert stop["prompt"] in labels, f"{where}: the prompt {stop['prompt']!r} is not heard"
    for stake in stop["stakes"]:  # "Stakes: 25 points", the unit in it, not a label apart
        assert stake in labels, f"{where}: {stake!r} is not heard"
    assert stop["unit"] not in labels, f"{where}: the unit {stop['unit']!r} is a label apart"
    logs = [o for o in objects if o[0] == "text" and len(o) > 3 and o[3] is not None]
    assert len(logs) == 1, f"{where}: {len(logs)} text boxes"
    log = logs[0]
    assert "f" in log[2], f"{where}: the game log {log[1]!r} cannot be reached by the keyboard"
    lines = log[3].split("\n") if log[3] else []
    assert lines == said[len(said) - len(lines) :], f"{where}: the log says {lines[-3:]}"
    assert len(lines) == min(len(said), 200), f"{where}: {len(lines)} log lines of {len(said)}"


def expected_mentions(events: list[Event], done: dict[str, Any], lang: str) -> list[str]:
    """For each play, draw, capture, yaku, koikoi, shobu and result, a word its sentence
    must hold (in English, the sentence's start too)."""
    cards: list[str] = done["cards"]
    yaku: dict[str, str] = done["yaku"]
    found: list[str] = []

    def name(card: Card) -> str:
        return cards[card]

    for e in events:
        who = ("You " if e.seat == 0 else "The computer ") if hasattr(e, "seat") else ""
        who = who if lang == "en" else ""
        if isinstance(e, CardPlayed):
            found.append(f"{who}played {name(e.card)}." if who else name(e.card))
        elif isinstance(e, StockTurned):
            found.append(f"{who}turned {name(e.card)}" if who else name(e.card))
        elif isinstance(e, Captured):
            found.append(f"with {name(e.card)}." if who else name(e.card))
        elif isinstance(e, YakuFormed):
            found.extend(yaku[y.value] for y, _ in e.yaku)
        elif isinstance(e, KoikoiDeclared):
            found.append(f"{who}called 「こいこい」" if who else "こいこい")
        elif isinstance(e, RoundEnded) and e.result.outcome is Outcome.WIN:
            found.append("「勝負」 (shobu)" if lang == "en" else "勝負")
        elif isinstance(e, RoundEnded) and lang == "en":
            found.append(
                {Outcome.TEYAKU: "teyaku", Outcome.NAGARE: "nagare"}.get(e.result.outcome, "")
            )
        elif isinstance(e, MatchEnded):
            found.append("The match is over" if lang == "en" else "")
    return [f for f in found if f]


def run_match(session: Session, lang: str) -> tuple[list[str], Ears, dict[str, Any], int]:
    env = dict(session.env, LANG=LANGUAGES[lang], KOIKOI_HOME=str(session.root / "home"))
    if lang == "en":
        env["LANGUAGE"] = "en"
    app = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "tests" / "atspi_app.py"),
            "--timeout",
            str(TIMEOUT),
            "--deal-seed",
            DEAL_SEED,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    session.procs.append(app)
    reader = subprocess.Popen(
        [SYSTEM_PYTHON, str(REPO / "tests" / "atspi_reader.py"), "--pid", str(app.pid)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    session.procs.append(reader)
    ready = _line(reader.stdout, "the reader")
    assert ready.get("ready"), ready
    ears = Ears(reader)
    said: list[str] = []
    stops = 0
    while True:
        stop = _line(app.stdout, "the app")
        if stop.get("done"):
            ears.catch_up(said)
            _send(app, "go")
            assert app.wait(30) == 0
            return said, ears, stop, stops
        said += stop["said"]
        # the whole tree at every panel and at every other play (a read takes ~0.5 s)
        if stop["mode"] in PANEL_MODES or (stop["mode"] == "play" and len(stop["hand"]) % 2 == 0):
            objects = ears.tree()
            check_tree(stop, objects, said)
            stops += 1
            ears.catch_up(said)
            assert ears.heard == said, "heard ≠ said:\n" + "\n".join(
                f"{h!r} / {s!r}" for h, s in zip(ears.heard, said, strict=False) if h != s
            )
        _send(app, "go")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_screen_reader_finds_every_card_and_hears_every_event(
    session: Session, lang: str
) -> None:
    assert lang != "ja" or QM_JA.exists(), "assets/i18n/koikoi_ja.qm is shipped: it must exist"
    started = time.monotonic()
    said, ears, done, stops = run_match(session, lang)
    assert stops >= 8, f"only {stops} looks at the tree"
    assert ears.heard == said, f"heard {len(ears.heard)} announcements of {len(said)} sentences"
    _, replayed = load(done["record"])
    events = [e for step in replayed.steps for e in step.events]
    assert any(isinstance(e, MatchEnded) for e in events), "the match did not end"
    koikoi = {e.seat for e in events if isinstance(e, KoikoiDeclared)}
    shobu = {
        e.result.winner
        for e in events
        if isinstance(e, RoundEnded) and e.result.outcome is Outcome.WIN
    }
    assert koikoi == shobu == {0, 1}, f"koikoi by {koikoi}, shobu by {shobu}: see DEAL_SEED"
    at = 0
    for mention in expected_mentions(events, done, lang):
        while at < len(said) and mention not in said[at]:
            at += 1
        assert at < len(said), f"never heard {mention!r} (in order)"
    took = time.monotonic() - started
    kinds = Counter(
        f"{type(e).__name__}/{getattr(e, 'seat', '-')}"
        for e in events
        if isinstance(e, CardPlayed | StockTurned | Captured | YakuFormed | KoikoiDeclared)
    )
    print(f"{lang}: {len(said)} sentences heard, {stops} trees read in {took:.1f} s; {kinds}")
