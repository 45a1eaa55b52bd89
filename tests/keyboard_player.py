"""A player with the keyboard alone: each key goes to the widget that has the focus.

Not a test module. :func:`step` answers whatever the game waits for with the keys of
``koikoi/ui/common/keys.py`` (1–8, arrows, Enter/Space, Esc, K, S; Enter on a panel) and waits after
each key until the game has taken it: with the accessibility bridge on (a screen reader, or
``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``), Qt first offers every key to the screen reader over
D-Bus and hands it to the widget only when the answer comes, so a key lands a little later.
A key pressed while nothing in the window has the focus fails the step: a keyboard player
would be stuck there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from tests.ui_driver import progress

Bot = Any
"""pytest-qt's ``qtbot`` or ``tests.ui_driver.ProcessBot``: ``waitUntil``."""


def focused(window: QWidget) -> QWidget:
    """The widget the keyboard is on; a key pressed now goes there."""
    target = QApplication.focusWidget()
    assert target is not None and target.window() is window, (
        f"nothing in the window has the keyboard focus (focus: {target!r})"
    )
    return target


def key(
    bot: Bot,
    window: QWidget,
    k: Qt.Key,
    until: Callable[[], object] | None = None,
    timeout: int = 5000,
) -> None:
    """Press ``k`` on the focused widget; with ``until``, wait for what the key does."""
    QTest.keyClick(focused(window), k)
    if until is not None:
        bot.waitUntil(until, timeout=timeout)


def focus_card(window: MainWindow) -> object:
    w = QApplication.focusWidget()
    return getattr(w, "key", None)


def moved(window: MainWindow) -> Callable[[], bool]:
    """True once the keyboard has left the card it is on now."""
    was = focus_card(window)
    return lambda: focus_card(window) != was


def goes_on(window: MainWindow) -> Callable[[], bool]:
    """True once the game has moved on from where it is now (an action, a mode, a result)."""
    was = progress(window)
    return lambda: progress(window) != was


def digit(index: int) -> Qt.Key:
    return getattr(Qt.Key, f"Key_{index + 1}")  # type: ignore[no-any-return]


def step(bot: Bot, window: MainWindow, rng: random.Random, koikoi_rate: float = 0.4) -> None:
    """The keys for what the game asks now (the game must be waiting for the player).
    It returns once the last key is pressed: the caller waits for the game to go on."""
    c = window.controller
    game = window.game
    model = game.table.model
    mode = c.mode
    if mode in (Mode.FIRST_OYA, Mode.ROUND_OVER):
        key(bot, window, Qt.Key.Key_Return)
    elif mode is Mode.PLAY:
        hand = list(model.hand)
        plays = c.legal_plays()
        capturing = [p for p in plays if c.matches_on_field(p)]
        card = rng.choice(capturing if capturing and rng.random() < 0.7 else list(plays))
        index = hand.index(card)
        if rng.random() < 0.2:  # change one's mind first
            key(bot, window, digit(index), lambda: game.selected == card)
            key(bot, window, Qt.Key.Key_Escape, lambda: game.selected is None)
        if rng.random() < 0.5:  # by number
            key(bot, window, digit(index), lambda: game.selected == card)
        else:  # or walk the hand with the arrows and select with Enter
            while focus_card(window) != card:
                key(bot, window, Qt.Key.Key_Right, moved(window))
            key(bot, window, Qt.Key.Key_Return, lambda: game.selected == card)
        matches = list(model.matches(card))
        if len(matches) == 2:  # go up to the field, choose one, take it
            key(bot, window, Qt.Key.Key_Up, lambda: focus_card(window) in matches)
            if rng.random() < 0.5:
                key(bot, window, Qt.Key.Key_Right, moved(window))
            key(bot, window, Qt.Key.Key_Return)
        else:
            key(bot, window, rng.choice([Qt.Key.Key_Space, Qt.Key.Key_Return]))
    elif mode is Mode.PICK:
        if rng.random() < 0.5:
            key(bot, window, Qt.Key.Key_Right, moved(window))
        key(bot, window, Qt.Key.Key_Return)
    elif mode is Mode.DRAW_WAIT:
        key(bot, window, rng.choice([Qt.Key.Key_Space, Qt.Key.Key_Return]))
    elif mode is Mode.DECIDE:
        koikoi = c.decision is not None and c.decision.can_koikoi and rng.random() < koikoi_rate
        key(bot, window, Qt.Key.Key_K if koikoi else Qt.Key.Key_S)
    else:
        raise AssertionError(f"nothing to press in mode {mode.value}")
