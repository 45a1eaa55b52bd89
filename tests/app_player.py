"""A person at the real app, in a process of its own: ``python tests/app_player.py``.

It starts the app's window as ``koikoi`` does (``koikoi.ui.app.make_app``, ``MainWindow``,
the settings, saves and identity under ``$KOIKOI_HOME``) and plays as a person would, by clicks
and keys on the real widgets: the start screen's 「対戦」 · Play a person, the nickname, then

* ``--role host``: creates a room (``--room TITLE``, 6 rounds) and waits for a player;
  it writes ``listening ADDRESS:PORT`` on stderr once the room is open;
* ``--role join``: joins the room titled ``--room`` from the lobby's list (double-click), or
  with ``--address HOST:PORT`` by typing the address and clicking "Join by address";

then sees the coin toss played, compares and confirms the four cards drawn from it, watches the
toss's panel and plays the whole match by clicks (``tests/ui_driver.py``'s steps) to the match
result. ``--password`` makes the host's room private and the joiner types it (in the prompt, or
beside the address). ``--internet`` ticks the host's "Open to the internet": once the waiting
page says the router opened the port, the host clicks Copy and writes the code the clipboard
holds to ``--code-out FILE``; a joiner with ``--code-from FILE`` waits for that file and types
its code in the address field ("Join by address or code"). Both sides dial (docs/protocol.md):
a joiner with ``--reply-out FILE``, once its join by code got no answer and the lobby offers
"Make a reply code", clicks it, clicks Copy and writes the clipboard's reply code to FILE; a
host with ``--reply-from FILE`` (its room need not be mapped) waits for FILE, types its reply
code in the waiting page's "Reply code" field and clicks "Dial back". It prints one JSON line
on stdout — the four card ids it saw, the peer's address, the toss, the final scores (seat 0
first), the path of the saved signed record, what the host's waiting page said of the router
(``internet``), the four-card page's proof by the code (``proof``), the joiner's failed join
(``join_failed``) and reply code (``reply_code``), what the host's page said on dialling back
(``dial_back``), Qt's platform, and
``stalls``: the UI thread's longest stall in each phase, this window alone in its process
(below) — and exits 0; on any failure (a timeout, an exception in a slot, an error logged by the
app) it prints one line and exits 1.
``--timeout`` bounds the whole run.

The stall monitor is a 10 ms timer (:class:`PhaseMeter`) started just before the click on 対戦:
``stalls[PHASE]`` holds ``gap_ms``, the longest wall-clock wait between two of its ticks, and
``busy_ms``, the most processor time the UI thread itself used between two ticks
(``time.thread_time()``; it leaves out what a loaded machine gave to other processes). A gap
during which the phase changed counts in both. The phases: ``lobby`` (対戦 → the lobby shown,
the nickname typed; the host: the room's form filled), ``listing`` (the joiner: until the room
is in its list and double-clicked), ``create`` (the host: "Create" → the room listed),
``password`` (the joiner's prompt), ``join`` (the join click, or for the host the room listed,
→ the handshake and the coin toss → the four cards painted), ``confirm`` (the click on "Same"
→ the first deal's toss panel), ``toss`` (the
coin, until the panel's "Deal the cards" is pressed), ``deal`` (→ the first deal laid out:
eight cards in the hand, its events shown), ``play`` (the rest of the match). Figures over
many runs: ``python -m koikoi.devtools.lanbench --processes``.

``--think MS`` pauses before each click with the tests' instant timings, so the monitor sees
each step's work apart, as a person's clicks come (``lanbench`` passes 100 ms). ``--pace MS``
pauses before each click and plays with the app's own animations (to watch it,
under Xvfb); ``--shots DIR`` saves the window's picture at the moments the docs show (and,
under X, the whole display beside it). ``docs/screenshots/lan-*.png`` were taken so::

    Xvfb :99 -screen 0 2580x840x24 -nolisten tcp &
    export DISPLAY=:99 QT_QPA_PLATFORM=xcb KOIKOI_MDNS_BIND=127.0.0.1
    KOIKOI_HOME=/tmp/h python tests/app_player.py --role host --room "Tsukimi by the river" \
        --pace 300 --shots /tmp/shots/host --position 0,0 --timeout 800 &
    KOIKOI_HOME=/tmp/j python tests/app_player.py --role join --room "Tsukimi by the river" \
        --pace 300 --shots /tmp/shots/join --position 1295,0 --timeout 800
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import logging
import pstats
import random
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository's root is what imports from
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from koikoi.ui.app import make_app
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.timings import Timings
from koikoi.ui.smoke import GapMeter
from tests.ui_driver import (
    FAST,
    ProcessBot,
    actions_so_far,
    at_the_cards,
    click,
    double_click_room,
    play_windows_by_clicks,
    room_row,
    type_into,
)

NAMES = {"host": "hana", "join": "taro"}


class _Problems(logging.Handler):
    """An error logged anywhere under ``koikoi`` is a failure of the run."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.problems = problems

    def emit(self, record: logging.LogRecord) -> None:
        self.problems.append(f"logged: {record.getMessage()}")


class PhaseMeter(GapMeter):
    """The app's gap meter, but a gap in which the phase changed counts in every phase it
    saw (``passed`` hands over the phases entered since the last tick): the work that moved
    the window on (a slot that builds the table, say) ran between the two ticks, and it is
    the stall of the step it ended as much as of the one it began."""

    def __init__(
        self,
        parent: QObject,
        phase: Callable[[], str],
        passed: Callable[[], list[str]],
        profile_over_ms: float = 0.0,
    ) -> None:
        super().__init__(parent, phase)
        self.passed = passed
        self.profile_over = profile_over_ms / 1000
        """``--profile-over``: each gap in which the UI thread used more processor time than
        this is profiled (cProfile between every two ticks; it slows the thread by about
        half, so the figures of a profiled run are not the benchmark's)."""
        self.profiles: list[str] = []
        self._profile: cProfile.Profile | None = None
        self._collections: list[tuple[int, float]] = []
        """The garbage collector's runs in the gap being profiled: (generation, seconds)."""
        self._collecting = 0.0
        self.collections: dict[int, list[float]] = {}
        """Each generation's collections in the run: [how many, the longest in seconds]."""
        self.sampling = False
        self._sampling = False
        gc.callbacks.append(self._collector)

    def start_sampling(self, every: float = 0.001) -> None:
        """``--sample-over``: a thread looks at the UI thread's stack every millisecond (a
        light profiler: the figures stay near the benchmark's); a gap over the threshold
        keeps a summary of where the samples fell."""
        import threading
        from collections import deque

        main = threading.main_thread().ident
        self._samples: deque[tuple[float, tuple[str, ...]]] = deque(maxlen=20_000)

        def sample() -> None:
            while self._sampling:
                frame = sys._current_frames().get(main or 0)
                stack: list[str] = []
                while frame is not None and len(stack) < 40:
                    code = frame.f_code
                    stack.append(f"{Path(code.co_filename).name}:{code.co_name}")
                    frame = frame.f_back
                self._samples.append((time.perf_counter(), tuple(stack)))
                time.sleep(every)

        self._sampling = True
        threading.Thread(target=sample, daemon=True).start()

    def _sampled(self, since: float, busy: float, gap: float, phases: list[str]) -> None:
        if busy <= self.profile_over:
            return
        from collections import Counter

        inner: Counter[str] = Counter()
        ours: Counter[str] = Counter()
        n = 0
        for at, stack in list(self._samples):
            if at < since:
                continue
            n += 1
            inner[" < ".join(stack[:3])] += 1
            for name in set(stack):
                if not name.startswith(("ui_driver", "app_player", "threading")):
                    ours[name] += 1
        lines = [
            f"=== {'+'.join(phases)}: busy {busy * 1000:.1f} ms, "
            f"wall {gap * 1000:.1f} ms; {n} samples"
        ]
        lines += [f"  {c:4d} in  {name}" for name, c in ours.most_common(30)]
        lines += [f"  {c:4d} top {name}" for name, c in inner.most_common(12)]
        self.profiles.append("\n".join(lines))

    def _collector(self, what: str, info: dict[str, int]) -> None:
        if what == "start":
            self._collecting = time.perf_counter()
            return
        took = time.perf_counter() - self._collecting
        seen = self.collections.setdefault(info["generation"], [0, 0.0])
        seen[0] += 1
        seen[1] = max(seen[1], took)
        if self.profile_over:
            self._collections.append((info["generation"], took))

    def _tick(self) -> None:
        """A gap counts in the phase the tick before it saw and in each phase the script
        entered during it."""
        now = self.clock.nsecsElapsed()
        cpu = time.thread_time()
        gap, busy = (now - self.last) / 1e9, cpu - self.last_cpu
        self.largest = max(self.largest, now - self.last)
        self.last, self.last_cpu = now, cpu
        self.largest_cpu = max(self.largest_cpu, busy)
        phase = self.phase()
        seen_phases = {self._phase, *self.passed()}
        for seen in seen_phases:
            self.by_phase[seen] = max(self.by_phase.get(seen, 0.0), gap)
            self.busy_by_phase[seen] = max(self.busy_by_phase.get(seen, 0.0), busy)
        self._phase = phase
        if self.profile_over and self.sampling:
            self._sampled(time.perf_counter() - gap, busy, gap, sorted(seen_phases))
        elif self.profile_over:
            self._profiled(busy, gap, sorted(seen_phases))

    def _profiled(self, busy: float, gap: float, phases: list[str]) -> None:
        """Keep the profile of the gap just ended if it was long; profile the next one."""
        profile = self._profile
        if profile is not None:
            profile.disable()
            if busy > self.profile_over:
                out = io.StringIO()
                stats = pstats.Stats(profile, stream=out)
                stats.sort_stats("cumulative").print_stats(40)
                stats.sort_stats("tottime").print_stats(15)
                collected = ", ".join(f"gen {g} {t * 1000:.1f} ms" for g, t in self._collections)
                self.profiles.append(
                    f"=== {'+'.join(phases)}: busy {busy * 1000:.1f} ms, "
                    f"wall {gap * 1000:.1f} ms; gc: {collected or 'none'}\n{out.getvalue()}"
                )
        self._collections = []
        if self.timer.isActive():
            self._profile = cProfile.Profile()
            self._profile.enable()
        else:
            self._profile = None


class Player:
    """One side of the match, played through the window."""

    def __init__(self, args: argparse.Namespace, problems: list[str]) -> None:
        self.args = args
        self.role: str = args.role
        self.bot = ProcessBot(time.monotonic() + args.timeout, problems)
        self.rng = random.Random(args.seed)
        self.shots: Path | None = args.shots
        self.read_clock: str | None = None
        """``--read-result``: the first prompt after the reading ("" until it shows)."""
        self.internet_said = ""
        """``--internet``: what the waiting page said the router did."""
        self.proof = ""
        """The four-card page's line that the join code proved the host ("" without one)."""
        self.join_failed = ""
        """``--reply-out``: what the lobby said when the join by code got no answer."""
        self.reply_code = ""
        """``--reply-out``: the reply code copied; ``--reply-from``: the one typed."""
        self.dial_back_said = ""
        """``--reply-from``: what the waiting page said on clicking "Dial back"."""
        timings = Timings() if args.pace else FAST
        self.window = MainWindow(timings=timings)
        self.window.resize(1280, 800)
        if args.position is not None:
            x, y = (int(n) for n in args.position.split(","))
            self.window.move(x, y)
        self.window.show()
        self.bot.waitExposed(self.window)
        self.window.activateWindow()
        self.passed: list[str] = []
        self._phase = "start"
        self.meter = PhaseMeter(
            self.window, self.current_phase, self.drain, args.profile_over or args.sample_over
        )
        if args.sample_over:
            self.meter.sampling = True
            self.meter.start_sampling()
        self.window.controller.mode_changed.connect(self._mode_changed)

    @property
    def phase(self) -> str:
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        self._phase = value
        self.passed.append(value)

    def drain(self) -> list[str]:
        """The phases entered since the last call."""
        passed, self.passed = self.passed, []
        return passed

    def current_phase(self) -> str:
        """The phase at this tick: the script's step, or from ``confirm`` on, what the
        window shows (so the toss and the deal are told apart however the script waits)."""
        c = self.window.controller
        if (
            self.phase == "deal"
            and len(self.window.game.table.model.hand) == 8
            and not c._pump_timer.isActive()
        ):
            self._phase = "play"  # seen at this tick: the gap that laid the deal out is not play's
        return self.phase

    def _mode_changed(self, mode: object) -> None:
        if mode is Mode.FIRST_OYA and self.phase == "confirm":
            self.phase = "toss"
        elif mode is not Mode.FIRST_OYA and self.phase == "toss":
            self.phase = "deal"

    def stalls(self) -> dict[str, dict[str, float]]:
        """Each phase's longest stall, in milliseconds."""
        meter = self.meter
        return {
            phase: {
                "gap_ms": round(gap * 1000, 1),
                "busy_ms": round(meter.busy_by_phase.get(phase, 0.0) * 1000, 1),
            }
            for phase, gap in meter.by_phase.items()
        }

    def say(self, text: str) -> None:
        print(f"app_player {self.role}: {text}", file=sys.stderr, flush=True)

    def shot(self, name: str) -> None:
        if self.shots is not None:
            self.bot.wait(self.args.pace)  # the screen settles, as a person would see it
            self.shots.mkdir(parents=True, exist_ok=True)
            path = self.shots / f"{name}.png"
            self.window.grab().save(str(path))
            self.say(f"screenshot {path}")
            screen = self.window.screen()
            if QGuiApplication.platformName() == "xcb" and screen is not None:
                # the whole display, as ``import -window root`` sees it: both apps at once
                whole = self.shots / f"{name}-screen.png"
                screen.grabWindow(0).save(str(whole))
                self.say(f"screenshot {whole}")

    def pause(self) -> None:
        """A person's moment before the next click: ``--pace``, else ``--think``."""
        if self.args.pace or self.args.think:
            self.bot.wait(self.args.pace or self.args.think)

    # --- the lobby -------------------------------------------------------------------------

    def to_the_lobby(self) -> None:
        window = self.window
        self.phase = "lobby"
        self.meter.start()
        click(self.bot, window.start.play_person_button)
        self.bot.waitUntil(lambda: window.stack.currentWidget() is window.lobby)
        type_into(window.lobby.nickname, self.args.name or NAMES[self.role])
        QTest.keyClick(window.lobby.nickname, Qt.Key.Key_Tab)  # the nickname is remembered
        if self.args.dealing == "seed":
            window.lobby.dealings = ("seed",)
        self.pause()

    def open_room(self) -> None:
        lobby = self.window.lobby
        type_into(lobby.room_title, self.args.room)
        click(self.bot, lobby.rounds.button(6))
        if self.args.password:
            click(self.bot, lobby.private)
            type_into(lobby.room_password, self.args.password)
        internet = lobby.rooms_page.internet
        if internet.isChecked() != self.args.internet:
            click(self.bot, internet)
        self.pause()
        self.phase = "create"
        click(self.bot, lobby.create_button)
        room = lobby.room
        if room is None:
            raise AssertionError(f"no room: {lobby.message.text()}")
        self.say(f"listening {lobby.bind or '*'}:{room.port}")
        if self.args.internet:
            self.hand_the_code_over()
        # the player may come before the announcement is heard back (by address)
        self.bot.waitUntil(
            lambda: "listed" in lobby.waiting_state.text() or lobby.peer is not None,
            timeout=20_000,
        )
        if lobby.peer is None:
            self.say(lobby.waiting_state.text())
            self.shot("host-waiting")
        self.phase = "join"

    def hand_the_code_over(self) -> None:
        """The internet room: once the router has opened the port (the waiting page says
        so), Copy, and the clipboard's code goes to ``--code-out`` (the friend's chat)."""
        page = self.window.lobby.waiting_page
        asking = page.internet.text()  # "Asking your router…" until it answers
        self.bot.waitUntil(lambda: page.internet.text() != asking, timeout=20_000)
        said = page.internet.text()
        self.internet_said = said
        self.say(f"the waiting page says: {said}")
        # a room that takes reply codes is joined by both sides dialling: no mapping needed
        unmapped_ok = bool(self.args.reply_from) and said.startswith("The room is not open")
        if not said.startswith("Your router opened port") and not unmapped_ok:
            raise AssertionError(f"the router did not open the port: {said}")
        click(self.bot, page.copy_button)
        code = QGuiApplication.clipboard().text()
        if not code or code != page.code_text:
            raise AssertionError(
                f"Copy put {code!r} on the clipboard, the page shows {page.code_text!r}"
            )
        self.say(f"code {code}")
        if self.args.code_out:
            hand_over(Path(self.args.code_out), code)

    def read_the_code(self) -> str:
        """``--code-from``: the code the host handed over, once it is there."""
        path = Path(self.args.code_from)
        self.bot.waitUntil(path.exists, timeout=60_000)
        code = path.read_text(encoding="utf-8").strip()
        self.say(f"the code to type: {code}")
        return code

    def make_a_reply(self) -> None:
        """``--reply-out``: the join by code got no answer; "Make a reply code", Copy, and
        the clipboard's reply code goes to the file (the chat, the other way)."""
        lobby = self.window.lobby
        self.bot.waitUntil(
            lambda: lobby.reply_button.isVisible() or at_the_cards(lobby), timeout=60_000
        )
        if not lobby.reply_button.isVisible():
            raise AssertionError("the join by code connected: no reply code was needed")
        self.join_failed = lobby.message.text()
        self.say(f"the join failed: {self.join_failed}")
        self.shot("join-failed")
        self.pause()
        click(self.bot, lobby.reply_button)
        page = lobby.waiting_page
        self.bot.waitUntil(lambda: page.code.isVisible() and page.code_is_reply, timeout=10_000)
        self.pause()
        click(self.bot, page.copy_button)
        code = QGuiApplication.clipboard().text()
        if not code or code != page.code_text:
            raise AssertionError(
                f"Copy put {code!r} on the clipboard, the page shows {page.code_text!r}"
            )
        self.reply_code = code
        self.say(f"reply code {code}")
        self.shot("reply-code")
        hand_over(Path(self.args.reply_out), code)

    def dial_back(self) -> None:
        """``--reply-from``: the friend's reply code, once it is there, typed in the waiting
        page's field; "Dial back", and the room dials it until the four cards show (or the
        page says it gave up)."""
        lobby = self.window.lobby
        page = lobby.waiting_page
        path = Path(self.args.reply_from)
        self.bot.waitUntil(path.exists, timeout=90_000)
        self.reply_code = path.read_text(encoding="utf-8").strip()
        self.say(f"the reply code to type: {self.reply_code}")
        if not (page.reply_code.isVisible() and page.dial_back_button.isVisible()):
            raise AssertionError("the waiting page has no Reply code field")
        type_into(page.reply_code, self.reply_code)
        self.pause()
        click(self.bot, page.dial_back_button)
        self.dial_back_said = page.reply_state.text()
        self.say(f"the waiting page says: {self.dial_back_said}")
        self.shot("dialling-back")
        # the button is off while the room dials; on again once it gave up
        self.bot.waitUntil(
            lambda: at_the_cards(lobby) or page.dial_back_button.isEnabled(), timeout=40_000
        )
        if not at_the_cards(lobby):
            raise AssertionError(f"the dial back failed: {page.reply_state.text()}")

    def join_room(self) -> None:
        lobby = self.window.lobby
        if self.args.code_from:
            self.args.address = self.read_the_code()
        if self.args.address:
            type_into(lobby.address, self.args.address)
            if self.args.password:
                type_into(lobby.address_password, self.args.password)
            self.pause()
            self.phase = "join"
            click(self.bot, lobby.address_button)
            return
        title = self.args.room
        self.phase = "listing"
        self.bot.waitUntil(lambda: room_row(lobby, title) >= 0, timeout=30_000)
        self.say(f"the room {title!r} is listed")
        self.shot("lobby")
        self.pause()
        double_click_room(lobby, title)
        if self.args.password:
            self.phase = "password"
            self.bot.waitUntil(
                lambda: lobby.password_prompt is not None and lobby.password_prompt.isVisible()
            )
            prompt = lobby.password_prompt
            assert prompt is not None
            type_into(prompt.password, self.args.password)
            self.pause()
            buttons = prompt.findChild(QDialogButtonBox)
            assert buttons is not None, "the password prompt has no buttons"
            self.phase = "join"
            click(self.bot, buttons.button(QDialogButtonBox.StandardButton.Ok))
        else:
            self.phase = "join"

    def confirm_the_cards(self) -> list[str]:
        lobby = self.window.lobby
        # the lobby's message is how a failure reaches the player (nobody there, refused…);
        # a reply code waits for the host to take it and dial back
        waits = 60_000 if self.args.reply_out else 30_000
        self.bot.waitUntil(lambda: at_the_cards(lobby) or lobby.message.isVisible(), timeout=waits)
        if not at_the_cards(lobby):
            raise AssertionError(f"the lobby says: {lobby.message.text()}")
        cards = list(lobby.prematch.card_ids())
        if lobby.prematch.proof.isVisible():
            self.proof = lobby.prematch.proof.text()
        self.say(f"the four cards: {' '.join(cards)}")
        self.shot("four-cards")
        self.pause()
        self.phase = "confirm"
        click(self.bot, lobby.prematch.same_button)
        return cards

    # --- the match -------------------------------------------------------------------------

    def watch_the_toss(self) -> dict[str, Any]:
        window = self.window
        c = window.controller
        self.bot.waitUntil(lambda: c.mode is Mode.FIRST_OYA, timeout=30_000)
        panel = window.game.overlay.panel
        if panel is None or panel.accessibleName() != "Coin toss":
            raise AssertionError("no coin toss on the screen")
        label = panel.result_label  # type: ignore[attr-defined]
        self.bot.waitUntil(lambda: bool(label.text()), timeout=10_000)  # the coin has landed
        text = label.text()
        self.say(f"the toss: {text}")
        self.shot("toss")
        assert c.toss is not None, "the coin toss shows the link's toss"
        return {"first_oya": c.toss.result.first_oya, "me": c.me, "text": text}

    def play_the_match(self) -> None:
        window = self.window
        shot_taken = False

        reading = self.args.read_result

        def look(w: MainWindow) -> None:
            nonlocal shot_taken, reading
            c = w.controller
            # --read-result: the next round's oya reads the first round result that long,
            # then its first prompt of that round says what its clock kept
            match = c.match
            oya = match is not None and match.oya == c.me
            if reading and c.mode is Mode.ROUND_OVER and oya:
                self.say(f"reading the round result for {reading:g} s")
                self.bot.wait(int(reading * 1000))
                reading = 0.0
                self.read_clock = ""
            if self.read_clock == "" and c.mode is Mode.PLAY:
                self.read_clock = w.game.prompt.text()
                self.say(f"after reading: {self.read_clock}")
                self.shot("after-reading")
            # the joiner's seat, a few moves into the first round: the picture the docs show
            if not shot_taken and actions_so_far(w) >= 7 and w.controller.mode is Mode.PLAY:
                shot_taken = True
                self.shot("game")

        play_windows_by_clicks(
            self.bot,
            [window],
            self.rng,
            until=lambda: window.controller.mode is Mode.MATCH_OVER,
            check=look,
            timeout_s=max(1.0, self.bot.deadline - time.monotonic()),
            pace_ms=self.args.pace or self.args.think,
        )
        self.bot.waitUntil(lambda: window.net_record is not None, timeout=20_000)
        self.meter.stop()
        if args_profile := self.args.profile_out:
            Path(args_profile).write_text("\n".join(self.meter.profiles), encoding="utf-8")
        self.shot("match-result")

    def finish(self) -> None:
        """Leave the result as a player does (the tables stay connected after the match
        until one goes home), let the link close its socket (the last move and the goodbye
        go out whole), then close."""
        link = self.window.link
        if link is not None and getattr(link, "after_open", False):
            self.window.go_home()
        if link is not None and hasattr(link, "done"):
            self.bot.waitUntil(lambda: bool(link.done), timeout=15_000)
        self.window.close()

    def run(self) -> dict[str, Any]:
        started = time.monotonic()
        self.to_the_lobby()
        if self.role == "host":
            self.open_room()
            if self.args.reply_from:
                self.dial_back()
        else:
            self.join_room()
            if self.args.reply_out:
                self.make_a_reply()
        cards = self.confirm_the_cards()
        toss = self.watch_the_toss()
        self.play_the_match()
        window = self.window
        match = window.controller.match
        assert window.peer is not None and window.net_record is not None and match is not None
        result = {
            "role": self.role,
            "me": window.controller.me,
            "peer": window.peer.nickname,
            "address": str(getattr(window.link, "address", "")),
            "cards": cards,
            "toss": toss,
            "scores": list(match.scores),
            "record": str(window.net_record),
            "seconds": round(time.monotonic() - started, 1),
            "stalls": self.stalls(),
            "after_reading": self.read_clock,
            "platform": QGuiApplication.platformName(),
            "internet": self.internet_said,
            "proof": self.proof,
            "join_failed": self.join_failed,
            "reply_code": self.reply_code,
            "dial_back": self.dial_back_said,
            "collections": {
                f"gen{g}": {"count": int(n), "longest_ms": round(t * 1000, 1)}
                for g, (n, t) in sorted(self.meter.collections.items())
            },
        }
        self.finish()
        return result


def hand_over(path: Path, code: str) -> None:
    """A code to the other player (the chat between them): whole, or not there yet."""
    ready = path.with_name(path.name + ".part")
    ready.write_text(code + "\n", encoding="utf-8")
    ready.replace(path)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--role", choices=("host", "join"), required=True)
    parser.add_argument("--room", default="", help="the room's title (host; join by list)")
    parser.add_argument("--address", default="", help="join by address: HOST:PORT")
    parser.add_argument("--password", default="", help="a private room's password")
    parser.add_argument(
        "--internet", action="store_true", help="host: open the room to the internet"
    )
    parser.add_argument(
        "--code-out", default="", metavar="FILE", help="host, --internet: write the join code here"
    )
    parser.add_argument(
        "--code-from", default="", metavar="FILE", help="join: type the join code this file holds"
    )
    parser.add_argument(
        "--reply-out",
        default="",
        metavar="FILE",
        help="join by code: when it gets no answer, make a reply code and write it here",
    )
    parser.add_argument(
        "--reply-from",
        default="",
        metavar="FILE",
        help="host, --internet: type the reply code this file holds and dial it back",
    )
    parser.add_argument("--name", default="", help="the nickname (default hana / taro)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the cards this player picks")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds for the whole run")
    parser.add_argument("--pace", type=int, default=0, help="ms before each click; animations")
    parser.add_argument(
        "--think",
        type=int,
        default=0,
        help="ms before each click, with the instant timings (a person's, for the stall monitor)",
    )
    parser.add_argument(
        "--profile-over",
        type=float,
        default=0.0,
        metavar="MS",
        help="profile each gap in which the UI thread used more than MS of processor time",
    )
    parser.add_argument(
        "--sample-over",
        type=float,
        default=0.0,
        metavar="MS",
        help="as --profile-over, by sampling the UI thread's stack every millisecond",
    )
    parser.add_argument(
        "--profile-out", default="", metavar="FILE", help="where --profile-over writes"
    )
    parser.add_argument(
        "--dealing",
        choices=("app", "seed"),
        default="app",
        help="what the lobby offers: the app's default (private dealing first) or the joint seed",
    )
    parser.add_argument(
        "--read-result",
        type=float,
        default=0.0,
        metavar="S",
        help="as the next round's oya, read the first round result S seconds before going on",
    )
    parser.add_argument("--shots", type=Path, default=None, help="save screenshots here")
    parser.add_argument("--position", default=None, help="X,Y of the window on the screen")
    args = parser.parse_args(argv)
    if args.reply_from and not (args.role == "host" and args.internet):
        parser.error("--reply-from is for a host with --internet")
    if args.reply_out and not (args.role == "join" and args.code_from):
        parser.error("--reply-out is for a joiner with --code-from")
    if args.role == "host" and not args.room:
        parser.error("a host needs --room TITLE")
    if args.role == "join" and not (args.room or args.address or args.code_from):
        parser.error("a joiner needs --room TITLE, --address HOST:PORT or --code-from FILE")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    problems: list[str] = []
    logging.getLogger("koikoi").addHandler(_Problems(problems))
    old_hook = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        problems.append(f"{kind.__name__} in a slot: {exc}")
        old_hook(kind, exc, tb)

    sys.excepthook = hook
    app = make_app([sys.argv[0]])
    code = 1
    try:
        result = Player(args, problems).run()
        if problems:
            raise AssertionError(problems[0])
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        line = f"app_player {args.role}: failed: {type(exc).__name__}: {exc}"
        print(" ".join(line.split()), flush=True)
    else:
        print(json.dumps(result, ensure_ascii=False), flush=True)
        code = 0
    finally:
        sys.excepthook = old_hook
    app.closeAllWindows()
    QApplication.processEvents()
    return code


if __name__ == "__main__":
    sys.exit(main())
