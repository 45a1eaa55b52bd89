"""Playing the real window from tests: find cards by their accessible names, click or press
keys as a player would, and wait for the game to ask again. Not a test module itself."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QWidget

from koikoi.engine.cards import Card
from koikoi.engine.match import Settings
from koikoi.ui.common.names import card_accessible_name
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.timings import Timings
from koikoi.ui.table.card_widget import CardWidget

INPUT_MODES = {
    Mode.FIRST_OYA,
    Mode.PLAY,
    Mode.PICK,
    Mode.DRAW_WAIT,
    Mode.DECIDE,
    Mode.ROUND_OVER,
    Mode.MATCH_OVER,
}

Bot = Any
"""pytest-qt's ``qtbot``, or :class:`ProcessBot` outside pytest (what the steps use of it:
``waitUntil``, ``wait``, ``mouseClick``, ``waitExposed``, ``addWidget``)."""

FAST = Timings.instant(auto_take_ms=60_000)
"""No animation, no computer delay; the drawn card waits for a click (or a test's timer)."""


class StallMeter(QObject):
    """A 10 ms timer on the UI thread that tells a stall of this process from a busy machine.

    Between two ticks the wall clock may run far longer than 10 ms for two reasons: this
    process kept the UI thread from its loop (the UI thread at work, or another thread holding
    the interpreter lock), or the operating system ran other programs instead of this one (a
    loaded machine: with four busy programs on two cores this process gets about half a core,
    and 20 ms of work takes 60-120 ms of wall time). Only the first is the window's doing. So
    each gap is also measured in the CPU time this process used during it (all its threads):
    :attr:`largest_busy` is the largest gap counted that way (never more than its wall
    time), :attr:`largest` the largest in wall time, reported alongside.

    ``counting`` decides, at each tick, whether the gap just ended counts (the default: all).
    """

    def __init__(self, counting: Callable[[], bool] | None = None) -> None:
        super().__init__()
        self.counting = counting
        self.timer = QTimer(self)
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[tuple[float, float]] = []
        """(wall, process CPU) seconds of each counted gap."""
        self._last = (0.0, 0.0)

    def start(self) -> None:
        self._last = (time.perf_counter(), time.process_time())
        self.timer.start()

    def _tick(self) -> None:
        now = (time.perf_counter(), time.process_time())
        if self.counting is None or self.counting():
            wall, cpu = now[0] - self._last[0], now[1] - self._last[1]
            self.gaps.append((wall, min(wall, cpu)))
        self._last = now

    def stop(self) -> None:
        self._tick()
        self.timer.stop()

    @property
    def largest(self) -> float:
        return max((wall for wall, _ in self.gaps), default=0.0)

    @property
    def largest_busy(self) -> float:
        return max((busy for _, busy in self.gaps), default=0.0)

    def summary(self) -> str:
        return (
            f"largest UI-thread gap {self.largest * 1000:.0f} ms wall, of which this process "
            f"ran at most {self.largest_busy * 1000:.0f} ms; {len(self.gaps)} gaps"
        )


def open_window(
    qtbot: Bot, timings: Timings = FAST, size: tuple[int, int] = (1280, 800)
) -> MainWindow:
    window = MainWindow(timings=timings)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    return window


def close_window(window: MainWindow) -> None:
    window.controller.shutdown()
    window.close()


def find_card(window: QWidget, card: Card) -> CardWidget:
    """The visible card widget whose accessible name is the card's ("Matsu crane, ...")."""
    name = card_accessible_name(card)
    found = [
        w for w in window.findChildren(CardWidget) if w.isVisible() and w.accessibleName() == name
    ]
    assert len(found) == 1, f"{name!r}: {len(found)} visible widgets"
    return found[0]


def click(qtbot: Bot, widget: QWidget) -> None:
    """Click the middle of a widget, which must be what the player sees there (not covered
    by a panel or another card)."""
    centre = QPoint(widget.rect().center())
    top_level = widget.window()
    seen = top_level.childAt(widget.mapTo(top_level, centre))
    assert seen is widget or (seen is not None and widget.isAncestorOf(seen)), (
        f"{widget} is covered by {seen}"
    )
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=centre)


def panel_button(window: MainWindow, name: str = "default") -> QPushButton:
    button = window.game.overlay.findChild(QPushButton, name)
    assert button is not None and button.isVisible(), f"no visible {name} button"
    return button


def press(window: MainWindow, key: Qt.Key, text: str = "") -> None:
    """A key as the player presses it: to the focused widget (or the game screen)."""
    target = QApplication.focusWidget()
    if target is None or target.window() is not window:
        target = window  # where Qt sends a key when nothing in the window has the focus
    QTest.keyClick(target, key)


def wait_for_input(qtbot: Bot, window: MainWindow, timeout: int = 30_000) -> Mode:
    c = window.controller
    qtbot.waitUntil(lambda: c.mode in INPUT_MODES and not c._pump_timer.isActive(), timeout=timeout)
    return c.mode


def describe(window: MainWindow) -> str:
    """The state of play, for a test that got stuck."""
    c = window.controller
    focus = QApplication.focusWidget()
    session = c.remote.session if c.remote is not None else None
    lockstep = session.lockstep if session is not None else None
    return (
        f"mode={c.mode.value} focus={type(focus).__name__}:{getattr(focus, 'key', '')} "
        f"selected={window.game.selected} overlay={window.game.overlay.isVisible()} "
        f"hand={window.game.table.model.hand} legal={c.legal_plays()} "
        f"active={QApplication.activeWindow() is window}"
        + (
            f" queue={[type(e).__name__ for e in c._queue]} seen={c.remote.seen} "
            f"seq={lockstep.seq if lockstep is not None else None} shown={c._shown.outcomes} "
            f"history={len(c.match.history) if c.match else None} ended={c.remote.ended} "
            f"deals_heard={c.remote.deals_heard} behind={c.remote.behind()} "
            f"pump={c._pump_timer.isActive()} link={type(c.remote.link).__name__}"
            if c.remote is not None
            else ""
        )
    )


def _wait_progress(qtbot: Bot, window: MainWindow, before: object) -> None:
    c = window.controller
    try:
        qtbot.waitUntil(lambda: (actions_so_far(window), c.mode) != before, timeout=10_000)
    except Exception as exc:
        raise AssertionError(f"no progress: {describe(window)}") from exc


def progress(window: MainWindow) -> tuple[int, Mode, int]:
    """Changes with every step of the game: actions, the mode, the round result shown (in a
    network match the session has dealt ahead, so a teyaku round adds no deal or action)."""
    c = window.controller
    return actions_so_far(window), c.mode, c._shown.outcomes


def actions_so_far(window: MainWindow) -> int:
    rec = window.controller.record
    return sum(len(d.actions) for d in rec.deals) + len(rec.deals) if rec else 0


Chooser = Callable[[MainWindow, random.Random], None]


def step_by_click(
    qtbot: Bot, window: MainWindow, rng: random.Random, koikoi_rate: float = 0.4
) -> None:
    """One click of the player at ``window`` for what the game asks now."""
    c = window.controller
    mode = c.mode
    if mode is Mode.FIRST_OYA or mode is Mode.ROUND_OVER:
        click(qtbot, panel_button(window))
    elif mode is Mode.PLAY:
        plays = c.legal_plays()
        capturing = [p for p in plays if c.matches_on_field(p)]
        pool = capturing if capturing and rng.random() < 0.7 else list(plays)
        click(qtbot, find_card(window, rng.choice(pool)))
    elif mode is Mode.PICK:
        click(qtbot, find_card(window, rng.choice(c.candidates())))
    elif mode is Mode.DRAW_WAIT:
        assert c.draw_wait is not None
        click(qtbot, find_card(window, c.draw_wait.card))
    elif mode is Mode.DECIDE:
        koikoi = c.decision is not None and c.decision.can_koikoi and rng.random() < koikoi_rate
        click(qtbot, panel_button(window, "koikoi" if koikoi else "default"))
    elif mode is Mode.MATCH_OVER:
        raise AssertionError("the match ended before the condition held")


def play_by_clicks(
    qtbot: Bot,
    window: MainWindow,
    rng: random.Random,
    until: Callable[[MainWindow], bool] = lambda w: w.controller.mode is Mode.MATCH_OVER,
    koikoi_rate: float = 0.4,
    max_steps: int = 2000,
    check: Callable[[MainWindow], None] = lambda w: None,
) -> None:
    """Click through the game until ``until`` holds: cards by accessible name, buttons.
    ``check`` looks at the window each time the game waits for the player."""
    for _ in range(max_steps):
        mode = wait_for_input(qtbot, window)
        check(window)
        if until(window):
            return
        before = (actions_so_far(window), mode)
        step_by_click(qtbot, window, rng, koikoi_rate)
        _wait_progress(qtbot, window, before)
    raise AssertionError("too many steps")


def waits_for_player(window: MainWindow) -> bool:
    c = window.controller
    return c.mode in INPUT_MODES and not c._pump_timer.isActive()


def play_windows_by_clicks(
    qtbot: Bot,
    windows: list[MainWindow],
    rng: random.Random,
    until: Callable[[], bool],
    koikoi_rate: float = 0.4,
    check: Callable[[MainWindow], None] = lambda w: None,
    timeout_s: float = 240.0,
    by_keys: tuple[MainWindow, ...] = (),
    pace_ms: int = 0,
) -> None:
    """Several windows in one match (a network match over loopback): whichever window
    waits for its player gets a click, until ``until`` holds. ``check`` looks at a window
    each time it waits for its player; the windows in ``by_keys`` are played by keys;
    ``pace_ms`` is a pause before each step, as a person's (for watching or screenshots)."""
    deadline = time.monotonic() + timeout_s
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError("no end: " + " | ".join(describe(w) for w in windows))
        acted = False
        for window in windows:
            if waits_for_player(window) and window.controller.mode is not Mode.MATCH_OVER:
                check(window)
                if until():
                    return
                if pace_ms:
                    qtbot.wait(pace_ms)
                    if not waits_for_player(window):
                        continue
                before = progress(window)
                if window in by_keys:
                    window.activateWindow()  # keys go to the active window
                    step_by_keys(window, rng, koikoi_rate)
                else:
                    step_by_click(qtbot, window, rng, koikoi_rate)
                acted = True
                try:
                    qtbot.waitUntil(lambda w=window, b=before: progress(w) != b, timeout=10_000)
                except Exception as exc:
                    raise AssertionError(f"no progress: {describe(window)}") from exc
        if not acted:
            qtbot.wait(5)


def step_by_keys(window: MainWindow, rng: random.Random, koikoi_rate: float = 0.4) -> None:
    """One key press (or a few) of the player at ``window`` for what the game asks now:
    1–8, arrows, Enter/Space, Esc, S, K."""
    c = window.controller
    table = window.game.table
    mode = c.mode
    if mode is Mode.FIRST_OYA or mode is Mode.ROUND_OVER:
        press(window, Qt.Key.Key_Return)
    elif mode is Mode.PLAY:
        hand = table.model.hand
        card = rng.choice(c.legal_plays())
        index = hand.index(card)
        key = getattr(Qt.Key, f"Key_{index + 1}")
        if rng.random() < 0.2:  # change one's mind first
            press(window, key)
            press(window, Qt.Key.Key_Escape)
        press(window, key)
        assert window.game.selected == card, f"{card} not selected: {describe(window)}"
        matches = table.model.matches(card)
        if len(matches) == 2:  # select, go up, choose the second, take it
            press(window, Qt.Key.Key_Up)
            press(window, Qt.Key.Key_Right)
            press(window, Qt.Key.Key_Return)
        else:
            press(window, Qt.Key.Key_Space)
    elif mode is Mode.PICK:
        if rng.random() < 0.5:
            press(window, Qt.Key.Key_Right)
        press(window, Qt.Key.Key_Return)
    elif mode is Mode.DRAW_WAIT:
        press(window, Qt.Key.Key_Space)
    elif mode is Mode.DECIDE:
        koikoi = c.decision is not None and c.decision.can_koikoi and rng.random() < koikoi_rate
        press(window, Qt.Key.Key_K if koikoi else Qt.Key.Key_S)
    elif mode is Mode.MATCH_OVER:
        raise AssertionError("the match ended before the condition held")


def play_by_keys(
    qtbot: Bot,
    window: MainWindow,
    rng: random.Random,
    until: Callable[[MainWindow], bool] = lambda w: w.controller.mode is Mode.MATCH_OVER,
    max_steps: int = 3000,
) -> None:
    """The same with the keyboard only: 1–8, arrows, Enter/Space, Esc, S, K."""
    for _ in range(max_steps):
        mode = wait_for_input(qtbot, window)
        if until(window):
            return
        before = (actions_so_far(window), mode)
        step_by_keys(window, rng)
        _wait_progress(qtbot, window, before)
    raise AssertionError("too many steps")


def start_practice(
    window: MainWindow, rounds: int = 6, level: str = "easy", seed: bytes | None = None
) -> None:
    """Start a practice match as the start screen's buttons do (a seed makes it repeatable)."""
    window.start_practice(Settings(rounds, True), level, True, seed)


# --- outside pytest: a real app process played by a script ------------------------------------


class ProcessBot:
    """What the steps above ask of pytest-qt's ``qtbot``, for a script that plays the real app
    in its own process (``tests/app_player.py``): clicks, waits that run Qt's event loop, and
    one deadline for the whole run. ``problems`` (an exception in a slot, a logged error) end
    any wait at once."""

    def __init__(self, deadline: float, problems: list[str]) -> None:
        self.deadline = deadline
        self.problems = problems

    def _check(self) -> None:
        if self.problems:
            raise AssertionError(self.problems[0])
        if time.monotonic() > self.deadline:
            raise TimeoutError("out of time")

    def waitUntil(self, condition: Callable[[], object], timeout: int = 5000) -> None:
        end = time.monotonic() + timeout / 1000
        while True:
            self._check()
            if condition():
                return
            if time.monotonic() > end:
                raise TimeoutError(f"not within {timeout} ms")
            QTest.qWait(5)

    def wait(self, ms: int) -> None:
        QTest.qWait(ms)
        self._check()

    def waitExposed(self, window: QWidget, timeout: int = 10_000) -> None:
        if not QTest.qWaitForWindowExposed(window, timeout):
            raise TimeoutError("the window was never shown")

    def mouseClick(
        self,
        widget: QWidget,
        button: Qt.MouseButton,
        modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
        pos: QPoint | None = None,
    ) -> None:
        QTest.mouseClick(widget, button, modifier, pos if pos is not None else QPoint())
        self._check()

    def addWidget(self, widget: QWidget) -> None:
        pass


def type_into(line: QLineEdit, text: str) -> None:
    """Replace what a line edit holds by typing, as a player does (select all, type)."""
    line.setFocus()
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(line, Qt.Key.Key_Backspace)
    QTest.keyClicks(line, text)


def room_row(lobby: Lobby, title: str) -> int:
    """The row of the room titled ``title`` in the lobby's list, -1 while it is not listed."""
    rooms = lobby.finder.model.rooms()
    return next((r for r, room in enumerate(rooms) if room.title == title), -1)


def double_click_room(lobby: Lobby, title: str) -> None:
    """Double-click the room in the lobby's list, as a player joins a listed room."""
    view = lobby.room_list
    index = lobby.finder.model.index(room_row(lobby, title), 0)
    view.scrollTo(index)
    centre = view.visualRect(index).center()
    no_key = Qt.KeyboardModifier.NoModifier
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, no_key, centre)
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, no_key, centre)


def at_the_cards(lobby: Lobby) -> bool:
    """The lobby shows the four cards, all four painted."""
    return lobby.pages.currentWidget() is lobby.prematch and lobby.prematch.painted
