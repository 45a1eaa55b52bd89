"""The smoke tests' player: clicks what a person would click, in one window or in two.

:class:`SmokeDriver` plays one window (``koikoi --smoke-test``: a practice round; and each
seat of a network match). :class:`LanSmoke` is ``koikoi --smoke-test lan``: two windows in
this process, each with its own home folder, meet by mDNS on 127.0.0.1 through their lobbies
(one opens a room with its form, the other finds it in its room list and double-clicks it),
see the coin toss and the four cards drawn from it on both screens, compare them, confirm on
both, deal and play one whole round by clicks on both tables. It steps on a timer, so the
event loop (sockets, zeroconf's reports, animations) runs between clicks; every span it
passes is timed (:class:`LanTimes`, for ``python -m koikoi.devtools.lanbench``).
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QElapsedTimer, QObject, QPoint, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QPushButton, QWidget

from koikoi.paths import HOME_ENV
from koikoi.ui.lobby.rooms import BIND_ENV

if TYPE_CHECKING:
    from koikoi.ui.lobby.lobby import Lobby
    from koikoi.ui.lobby.rooms import RoomAnnouncer
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.match.timings import Timings

logger = logging.getLogger(__name__)

LAN_TIME_LIMIT: Final = 60.0
"""Seconds ``--smoke-test lan`` may take before it fails (``$KOIKOI_SMOKE_LIMIT`` changes it:
a slow machine, or a test of the failure's message)."""
LIMIT_ENV: Final = "KOIKOI_SMOKE_LIMIT"
CLOSING_LIMIT_MS: Final = 15_000
LOOPBACK: Final = "127.0.0.1"
STEP_MS: Final = 10
RELIST_AFTER: Final = 5.0
"""Seconds without the room in the joiner's list before it opens its lobby again (a room is
listed in about 1.3 s; the goal is 2 s)."""


def click(widget: QWidget, pos: QPoint | None = None) -> None:
    """A left click where the player would click: the widget's middle unless told."""
    from PySide6.QtTest import QTest

    at = QPoint(widget.rect().center()) if pos is None else pos
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)


def type_into(widget: QWidget, text: str) -> None:
    """Keys as the player types them (into an empty field)."""
    from PySide6.QtTest import QTest

    widget.setFocus()
    QTest.keyClicks(widget, text)


def _nothing() -> None:
    pass


class SmokeDriver:
    """Clicks what a player would click, whenever the game in ``window`` waits for its
    player; calls ``done`` once when the round's result is up."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.clicks = 0
        self.done: Callable[[], None] = _nothing
        self.finished = False

    def _click(self, widget: QWidget) -> None:
        self.clicks += 1
        click(widget)

    def step(self) -> None:
        from koikoi.ui.match.matchview import Mode

        if self.finished:
            return
        w = self.window
        c = w.controller
        game = w.game
        mode = c.mode
        if mode is Mode.FIRST_OYA:
            button = game.overlay.findChild(QPushButton, "default")
            if button is not None:
                self._click(button)
        elif mode is Mode.PLAY:
            plays = c.legal_plays()
            capturing = [p for p in plays if c.matches_on_field(p)]
            card = (capturing or list(plays))[0]
            widget = game.table.card_widget(card)
            if widget is not None and not game.table._anim:
                self._click(widget)
        elif mode is Mode.PICK:
            widget = game.table.card_widget(c.candidates()[0])
            if widget is not None:
                self._click(widget)
        elif mode is Mode.DRAW_WAIT and c.draw_wait is not None:
            widget = game.table.card_widget(c.draw_wait.card)
            if widget is not None:
                self._click(widget)
        elif mode is Mode.DECIDE and game.overlay.panel is not None:
            button = game.overlay.findChild(QPushButton, "default")  # shobu
            if button is not None:
                self._click(button)
        elif mode is Mode.ROUND_OVER:
            self.finished = True
            self.done()


class SmokeFailed(Exception):
    """The smoke test cannot go on; the message is the one line the user reads."""


@dataclass
class LanTimes:
    """When each step of a LAN smoke run happened (``time.perf_counter`` seconds)."""

    created: float = 0.0
    """The host clicked "Open the room"."""
    listed: float = 0.0
    """The room is in the joiner's list."""
    join: float = 0.0
    """The joiner double-clicked the room."""
    prompt: float = 0.0
    """The password prompt is up (a private room)."""
    password_sent: float = 0.0
    """The joiner clicked the prompt's Join."""
    cards: float = 0.0
    """The coin toss is over and the four cards drawn from it are painted on both screens."""
    confirmed: float = 0.0
    """The last of the two players confirmed the four cards."""
    toss: float = 0.0
    """The toss panel's "Deal the cards" is on the joiner's screen."""
    deal_click: float = 0.0
    """The joiner clicked it."""
    dealt: float = 0.0
    """The first deal's cards are on the joiner's table (on their way from the stock)."""
    laid_out: float = 0.0
    """... and at rest: the deal's animation is over."""
    largest_gap: float = 0.0
    """The UI thread's longest stall from the first click in the lobby to the first deal
    laid out (the longest wait between two ticks of a 10 ms timer)."""
    largest_busy: float = 0.0
    """The most processor time the UI thread used between two ticks over the same span: the
    stall on an idle machine, without the other processes' share of a loaded one."""
    busy: dict[str, float] = field(default_factory=dict)
    """The same for the processor time (seconds)."""
    gaps: dict[str, float] = field(default_factory=dict)
    """The longest stall in each phase of the run (seconds), to see where it was."""
    clicks: int = 0
    reopened: int = 0
    """How many times the joiner opened its lobby again because the room was late."""

    def spans(self) -> dict[str, float]:
        """The figures, in milliseconds: the whole join with the players' steps as the script
        does them (at once), and without them (the machines' share)."""
        human = (self.password_sent - self.prompt if self.prompt else 0.0) + (
            self.confirmed - self.cards
        )
        human += self.deal_click - self.toss
        ms = 1000.0
        return {
            "listed_ms": (self.listed - self.created) * ms,
            "join_to_cards_ms": (self.cards - self.join) * ms,
            "confirmed_to_toss_ms": (self.toss - self.confirmed) * ms,
            "join_to_first_deal_ms": (self.dealt - self.join) * ms,
            "join_to_laid_out_ms": (self.laid_out - self.join) * ms,
            "join_to_first_deal_without_players_ms": (self.dealt - self.join - human) * ms,
            "deal_animation_ms": (self.laid_out - self.dealt) * ms,
            "largest_gap_ms": self.largest_gap * ms,
            "largest_busy_ms": self.largest_busy * ms,
        }


class GapMeter(QObject):
    """A 10 ms timer; the longest wait between two of its ticks is how long the UI thread
    was busy at once."""

    def __init__(
        self, parent: QObject | None = None, phase: Callable[[], str] = lambda: ""
    ) -> None:
        super().__init__(parent)
        self.phase = phase
        self.by_phase: dict[str, float] = {}
        self.busy_by_phase: dict[str, float] = {}
        self._phase = ""
        """The longest gap seen in each phase (seconds)."""
        self.timer = QTimer(self)
        self.timer.setInterval(10)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.clock = QElapsedTimer()
        self.last = 0
        self.largest = 0
        self.last_cpu = 0.0
        self.largest_cpu = 0.0
        """The most processor time the UI thread used between two ticks (seconds): the
        stall without the time the system gave to other processes (a loaded machine)."""

    def start(self) -> None:
        self.clock.start()
        self.last = 0
        self.largest = 0
        self.last_cpu = time.thread_time()
        self.largest_cpu = 0.0
        self.by_phase = {}
        self.busy_by_phase = {}
        self._phase = self.phase()
        self.timer.start()

    def _tick(self) -> None:
        now = self.clock.nsecsElapsed()
        cpu = time.thread_time()
        gap = now - self.last
        self.largest = max(self.largest, gap)
        busy = cpu - self.last_cpu
        self.largest_cpu = max(self.largest_cpu, busy)
        self.last_cpu = cpu
        self.busy_by_phase[self._phase] = max(self.busy_by_phase.get(self._phase, 0.0), busy)
        # the work in the gap was done in the phase the previous tick saw
        self.by_phase[self._phase] = max(self.by_phase.get(self._phase, 0.0), gap / 1e9)
        self._phase = self.phase()
        self.last = now

    def stop(self) -> float:
        """Seconds: the longest gap so far."""
        if self.timer.isActive():
            self._tick()
            self.timer.stop()
        return self.largest / 1e9


@dataclass
class _Side:
    window: MainWindow
    home: Path
    name: str
    driver: SmokeDriver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = SmokeDriver(self.window)

    @property
    def lobby(self) -> Lobby:
        return self.window.lobby


def open_window(home: Path, timings: Timings, bind: str) -> MainWindow:
    """A main window with everything of its own under ``home``: settings, saves, the
    identity key and the pinned peers; its lobby browses and listens on ``bind``."""
    from koikoi.ui.common.settings import AppSettings
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.match.saves import SaveStore

    home.mkdir(parents=True, exist_ok=True)
    settings = AppSettings(QSettings(str(home / "settings.ini"), QSettings.Format.IniFormat))
    previous = os.environ.get(BIND_ENV)
    os.environ[BIND_ENV] = bind  # read by the lobby's room finder as it is made
    try:
        window = MainWindow(settings, SaveStore(home), timings)
    finally:
        if previous is None:
            os.environ.pop(BIND_ENV, None)
        else:
            os.environ[BIND_ENV] = previous
    window.lobby.home = home  # its identity and pins: read as the lobby is first shown
    window.resize(1280, 800)
    window.show()
    return window


def _first_oya(lobby: Lobby) -> int | None:
    """The first oya of the toss behind the lobby's four cards (None before the toss: in
    protocol version 4 until both players confirmed the cards)."""
    if lobby.join is not None:
        return _oya_of(lobby.join)
    if lobby.room is not None:
        return _oya_of(lobby.room)
    return None


def _oya_of(link: Any) -> int | None:
    """The first oya a link's session drew (None before the toss's outcome)."""
    session = getattr(link, "session", None)
    result = None if session is None else session.toss.result
    return None if result is None else int(result.first_oya)


class LanSmoke(QObject):
    """Two windows meet in the lobby and play; ``finished(code)`` is the exit code.

    ``play_round``: play the first round to its result on both tables (the smoke test);
    else stop at the first deal laid out on the joiner's table (the benchmark).
    ``password``: open a private room with it (the joiner types it into the prompt).
    ``toss_reading``: how long the joiner reads the toss panel before pressing its button.
    """

    def __init__(
        self,
        folder: Path,
        timings: Timings,
        *,
        password: str = "",
        play_round: bool = True,
        toss_reading: float = 0.0,
        on_finished: Callable[[int], None] = lambda code: None,
    ) -> None:
        super().__init__()
        self.password = password
        self.toss_reading = toss_reading
        """Seconds the joiner reads the toss panel before it deals (0: at once)."""
        self.play_round = play_round
        self.on_finished = on_finished
        self.title = f"smoke {secrets.token_hex(3)}"
        self.host = _Side(open_window(folder / "hana", timings, LOOPBACK), folder / "hana", "hana")
        self.joiner = _Side(
            open_window(folder / "taro", timings, LOOPBACK), folder / "taro", "taro"
        )
        self.times = LanTimes()
        self.failure = ""
        self.phase = "lobby"
        self.meter = GapMeter(self, lambda: self.phase)
        self.announcers: list[RoomAnnouncer] = []
        self._timer = QTimer(self)
        self._timer.setInterval(STEP_MS)
        self._timer.timeout.connect(self._step)
        self._closing_until = 0.0
        self._browsing_since = 0.0
        self._links: list[Any] = []
        self.code: int | None = None

    @property
    def sides(self) -> tuple[_Side, _Side]:
        return self.host, self.joiner

    def start(self) -> None:
        self._timer.start()

    def fail(self, why: str) -> None:
        if self.phase == "listing":
            rooms = self.joiner.lobby.finder.model.rowCount()
            why += f" (the room was not listed; the joiner's list holds {rooms} other rooms)"
        if self.code is None and not self.failure:
            self.failure = why
            self._close(1)

    # --- the steps, one per tick ---------------------------------------------------------

    def _step(self) -> None:
        try:
            getattr(self, f"_{self.phase}")()
        except SmokeFailed as failure:
            self.fail(str(failure))

    def _lobby(self) -> None:
        """The host presses 対戦 and types a nickname (one player's action per tick, as two
        people would: both windows share this thread, so two actions at once would stall it
        twice as long as either window would)."""
        self.meter.start()
        self._enter_lobby(self.host)
        self.phase = "lobby_joiner"

    def _lobby_joiner(self) -> None:
        self._enter_lobby(self.joiner)
        self.phase = "create"

    def _enter_lobby(self, side: _Side) -> None:
        click(side.window.start.play_person_button)
        if side.window.stack.currentWidget() is not side.lobby:
            raise SmokeFailed("対戦 · Play a person did not open the lobby")
        type_into(side.lobby.nickname, side.name)

    def _create(self) -> None:
        """The host opens a room with the lobby's form (a private one with a password)."""
        lobby = self.host.lobby
        lobby.room_title.clear()
        type_into(lobby.room_title, self.title)
        if self.password:
            click(lobby.private)
            type_into(lobby.room_password, self.password)
        self.times.created = self._browsing_since = time.perf_counter()
        click(lobby.create_button)
        if lobby.room is None:
            raise SmokeFailed(f"the room did not open: {lobby.message.text()}")
        if lobby.announcer is not None:
            self.announcers.append(lobby.announcer)
        self.phase = "listing"

    def _row(self) -> int:
        rooms = self.joiner.lobby.finder.model.rooms()
        return next((r for r, room in enumerate(rooms) if room.title == self.title), -1)

    def _listing(self) -> None:
        """The joiner waits for the room in its list, then double-clicks it."""
        from PySide6.QtTest import QTest

        self._check_lobbies()
        finder = self.joiner.lobby.finder
        if finder.failure is not None:
            raise SmokeFailed(f"the joiner's lobby lists no rooms: {finder.failure}")
        row = self._row()
        if row < 0:
            if time.perf_counter() - self._browsing_since > RELIST_AFTER:
                self._reopen_lobby()
            return
        self.times.listed = time.perf_counter()
        view = self.joiner.lobby.room_list
        index = finder.model.index(row, 0)
        view.scrollTo(index)
        centre = view.visualRect(index).center()
        self.times.join = time.perf_counter()
        click(view.viewport(), centre)
        QTest.mouseDClick(
            view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre
        )
        self.phase = "password" if self.password else "cards"

    def _reopen_lobby(self) -> None:
        """The room is late: the joiner goes back and opens the lobby again, as a person
        would; its new browser asks the network afresh. (A list already full of rooms — a
        flood of advertisements elsewhere on the network — takes no new one.)"""
        lobby = self.joiner.lobby
        self.times.reopened += 1
        logger.info(
            "the room is not listed after %.0f s (%d rooms in the list): opening the lobby again",
            RELIST_AFTER,
            lobby.finder.model.rowCount(),
        )
        click(lobby.back_button)
        click(self.joiner.window.start.play_person_button)
        self._browsing_since = time.perf_counter()

    def _password(self) -> None:
        """A private room: the joiner types its password into the prompt and joins."""
        prompt = self.joiner.lobby.password_prompt
        if prompt is None or not prompt.isVisible():
            raise SmokeFailed("no password prompt for the private room")
        self.times.prompt = time.perf_counter()
        type_into(prompt.password, self.password)
        buttons = prompt.findChild(QDialogButtonBox)
        if buttons is None:
            raise SmokeFailed("the password prompt has no buttons")
        self.times.password_sent = time.perf_counter()
        click(buttons.button(QDialogButtonBox.StandardButton.Ok))
        self.phase = "cards"

    def _cards(self) -> None:
        """Both screens show the four cards: the same four, in the same order, and nobody
        knows the first dealer yet (the toss comes once both confirmed); the joiner confirms."""
        self._check_lobbies()
        panels = [side.lobby.prematch for side in self.sides]
        shown = all(
            side.lobby.pages.currentWidget() is panel and panel.painted
            for side, panel in zip(self.sides, panels, strict=True)
        )
        if not shown:
            return
        self.times.cards = time.perf_counter()
        seen = [tuple(label.accessibleName() for label in p.card_labels) for p in panels]
        if seen[0] != seen[1] or len(seen[0]) != 4 or panels[0].card_ids() != panels[1].card_ids():
            raise SmokeFailed(f"the two screens show different cards: {seen[0]} and {seen[1]}")
        tosses = {_first_oya(side.lobby) for side in self.sides}
        if tosses != {None}:
            raise SmokeFailed(f"the coin toss is decided before the cards are confirmed: {tosses}")
        self._confirm(self.joiner)
        self.phase = "confirm_host"

    def _confirm_host(self) -> None:
        """... and the host (the first deal follows)."""
        self._confirm(self.host)
        self.times.confirmed = time.perf_counter()
        self.phase = "toss"

    def _confirm(self, side: _Side) -> None:
        button = side.lobby.prematch.same_button
        if not button.isEnabled():
            raise SmokeFailed(f"{side.name} cannot confirm the four cards")
        click(button)

    def _toss(self) -> None:
        """The coin toss on the joiner's screen: the joiner deals (the host's window deals
        when its player gets to it, in the round)."""
        from koikoi.ui.match.matchview import Mode

        self._check_lobbies()
        window = self.joiner.window
        if window.controller.mode is not Mode.FIRST_OYA:
            return
        button = window.game.overlay.findChild(QPushButton, "default")
        if button is None or not button.isVisible():
            return
        now = time.perf_counter()
        if not self.times.toss:
            # both tables took their match over (the host's may come a moment later)
            remotes = [side.window.controller.remote for side in self.sides]
            if None in remotes:
                return
            tosses = {_oya_of(getattr(remote, "link", None)) for remote in remotes}
            if len(tosses) != 1 or None in tosses:
                raise SmokeFailed(f"the two screens do not agree on the coin toss: {tosses}")
            self.times.toss = now
        if now - self.times.toss < self.toss_reading:
            return
        self.times.deal_click = now
        click(button)
        self.phase = "dealing"

    def _dealing(self) -> None:
        """Until the joiner's first deal is at rest on its table."""
        table = self.joiner.window.game.table
        if not self.times.dealt:
            if table.model.round_no < 1 or len(table.model.hand) != 8:
                return
            self.times.dealt = time.perf_counter()
        if table._anim is not None:
            return
        self.times.laid_out = time.perf_counter()
        self.times.largest_gap = self.meter.stop()
        self.times.gaps = dict(self.meter.by_phase)
        self.times.largest_busy = self.meter.largest_cpu
        self.times.busy = dict(self.meter.busy_by_phase)
        if not self.play_round:
            self._close(0)
            return
        self.phase = "playing"

    def _playing(self) -> None:
        """Both players click through one round, each when the game waits for them."""
        from koikoi.ui.match.matchview import Mode

        for side in self.sides:
            side.driver.step()
        if not all(side.driver.finished for side in self.sides):
            return
        matches = [side.window.controller.match for side in self.sides]
        if any(m is None for m in matches):
            raise SmokeFailed("a table lost its match")
        host, joiner = (m for m in matches if m is not None)
        if host.scores != joiner.scores or len(host.history) != len(joiner.history):
            raise SmokeFailed(
                f"the two tables disagree: {host.scores} and {joiner.scores} after the round"
            )
        if any(side.window.controller.mode is not Mode.ROUND_OVER for side in self.sides):
            raise SmokeFailed("a table left the round's result")
        self.times.clicks = sum(side.driver.clicks for side in self.sides)
        self._close(0)

    def _check_lobbies(self) -> None:
        """A lobby that went back to its rooms with a message has failed: say it."""
        for side in self.sides:
            lobby = side.lobby
            if lobby.message.isVisible() and lobby.message.text():
                raise SmokeFailed(f"{side.name}'s lobby says: {lobby.message.text()}")

    # --- closing -------------------------------------------------------------------------

    def _close(self, code: int) -> None:
        """Close both windows (the match is left, the room withdrawn, browsing stopped) and
        wait, on this loop, for the links and the discovery threads to finish."""
        self.code = code
        self.meter.stop()
        for side in self.sides:
            announcer = side.lobby.announcer
            if announcer is not None and announcer not in self.announcers:
                self.announcers.append(announcer)
            self._links.append(side.window.link)
            if side.window.link is not None:
                side.window.go_home()  # as the Menu button after the match: the peer is told
        self.phase = "leaving"
        self._closing_until = time.monotonic() + 10.0

    def _leaving(self) -> None:
        """The links close (each lobby then withdraws its room), then the windows do."""
        closed = all(_link_done(link) for link in self._links)
        if not closed and time.monotonic() < self._closing_until:
            return
        if self.code == 0 and self.play_round:
            for side in self.sides:
                record = side.window.net_record
                if record is None or not record.is_file():
                    self.failure = f"{side.name}'s signed record of the match was not kept"
                    self.code = 1
        for side in self.sides:
            side.window.close()
        self.phase = "closing"

    def _closing(self) -> None:
        finders = [side.lobby.finder.stopping for side in self.sides]
        busy = [t for t in finders if t is not None and t.is_alive()]
        if busy and time.monotonic() < self._closing_until:
            return
        for announcer in self.announcers:
            announcer.wait()  # its withdrawal, on its worker thread (a few ms of mDNS)
        self._timer.stop()
        for side in self.sides:
            side.window.deleteLater()
        assert self.code is not None
        self.on_finished(self.code)


def _link_done(link: Any) -> bool:
    """The window's link (a ``QtJoin``, or a ``QtRoom`` and its match) has closed."""
    if link is None:
        return True
    if hasattr(link, "match"):  # a room: its match's link
        link = link.match
        if link is None:
            return True
    return bool(link.done)


class _ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def smoke_timings() -> Timings:
    """Quick animations and no waiting, so that a round takes seconds."""
    from koikoi.ui.match.timings import Timings

    return Timings(
        anim_scale=0.12,
        ai_delay_ms=(0, 0),
        ai_cap_ms=4000,
        auto_take_ms=150,
        announce_ms=60,
        banner_ms=300,  # the banners shown too, briefly
    )


def run_lan(
    app: QApplication,
    *,
    password: str = "",
    play_round: bool = True,
    timings: Timings | None = None,
    limit: float = LAN_TIME_LIMIT,
    toss_reading: float = 0.0,
) -> tuple[int, str, LanTimes]:
    """One LAN run on ``app``'s loop in a throw-away folder: (exit code, why it failed or "",
    the times). Never raises for a failure of the app: it is the second item."""
    errors = _ErrorCounter()
    logging.getLogger("koikoi").addHandler(errors)
    failures: list[str] = []
    old_hook = sys.excepthook
    quit_on_close = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # the run closes its windows, then ends the loop

    runs: list[LanSmoke] = []

    def hook(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        failures.append(f"{kind.__name__}: {exc}")  # the one line; the traceback in the log
        logger.debug("uncaught in the LAN smoke test", exc_info=(kind, exc, tb))
        stop(failures[-1])

    def stop(why: str) -> None:
        """Close the windows and end with 1; at once if they are closing already."""
        if runs and runs[0].code is None:
            runs[0].fail(why)
        else:
            if why not in failures:
                failures.append(why)
            app.exit(1)

    sys.excepthook = hook
    old_home = os.environ.get(HOME_ENV)
    try:
        with tempfile.TemporaryDirectory(prefix="koikoi-smoke-lan-") as folder:
            os.environ[HOME_ENV] = folder  # nothing may touch the player's own home
            run = LanSmoke(
                Path(folder),
                timings if timings is not None else smoke_timings(),
                password=password,
                play_round=play_round,
                toss_reading=toss_reading,
                on_finished=app.exit,
            )
            limiter = QTimer()
            limiter.setSingleShot(True)
            runs.append(run)

            def out_of_time() -> None:
                stop(f"time limit ({limit:g} s) in {run.phase}")
                limiter.start(CLOSING_LIMIT_MS)  # closing has this long, then it ends anyway

            limiter.timeout.connect(out_of_time)
            limiter.start(int(limit * 1000))
            run.start()
            code = app.exec()
            limiter.stop()
            if run.failure:
                failures.insert(0, run.failure)
            times = run.times
            run.deleteLater()
            app.sendPostedEvents()  # the windows' deferred deletes, before the folder goes
    finally:
        logging.getLogger("koikoi").removeHandler(errors)
        sys.excepthook = old_hook
        app.setQuitOnLastWindowClosed(quit_on_close)
        if old_home is None:
            os.environ.pop(HOME_ENV, None)
        else:
            os.environ[HOME_ENV] = old_home
    failures += errors.messages
    if code != 0 and not failures:
        failures.append(f"stopped with code {code}")
    return (1 if failures else 0), (failures[0] if failures else ""), times


def run_lan_smoke_test(app: QApplication) -> int:
    """``koikoi --smoke-test lan``: 0 when both windows played the round, else 1 with one
    line on stderr."""
    started = time.monotonic()
    limit = LAN_TIME_LIMIT
    if text := os.environ.get(LIMIT_ENV):
        try:
            limit = float(text)
        except ValueError:
            print(f"koikoi: {LIMIT_ENV} is seconds, not {text!r}", file=sys.stderr)
            return 1
    code, why, times = run_lan(app, limit=limit)
    if code != 0:
        print(f"koikoi: LAN smoke test failed: {why}", file=sys.stderr)
        return 1
    spans = times.spans()
    print(
        f"koikoi: LAN smoke test passed: room listed in {spans['listed_ms'] / 1000:.1f} s"
        + (f" (the lobby opened again {times.reopened}×)" if times.reopened else "")
        + f", join to the first deal {spans['join_to_first_deal_ms']:.0f} ms, a round played by "
        f"{times.clicks} clicks on two windows, {time.monotonic() - started:.1f} s in all",
        file=sys.stderr,
    )
    return 0


__all__ = [
    "LAN_TIME_LIMIT",
    "GapMeter",
    "LanSmoke",
    "LanTimes",
    "SmokeDriver",
    "open_window",
    "run_lan",
    "run_lan_smoke_test",
    "smoke_timings",
]
