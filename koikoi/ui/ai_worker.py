"""The computer's thinking, off the UI thread, handed back by signal (as Anki's operations).

The player function never touches a widget: it gets an observation and returns an action in
a pool thread; :class:`AiRunner` emits ``decided(token, action)`` on the main thread. The
app adds a wall-clock cap: the search is told its deadline, and if no answer has come some
time after it, the runner answers with a quick fallback so the game never hangs. Each
request carries a token, so a late answer to a cancelled request is dropped.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, QTimer, Signal, Slot

from koikoi.engine.cards import CARD_MONTH_MASK
from koikoi.engine.match import Observation
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action
from koikoi.ui.qtfix import emit

logger = logging.getLogger(__name__)

ChooseFn = Callable[[Observation, Sequence[Action], random.Random, Any], Action]

GRACE_MS = 1500
"""How long after its deadline a search may still answer before the fallback is used."""


def quick_choice(obs: Observation, legal: Sequence[Action]) -> Action:
    """A move found without search: a capture if there is one, shobu when asked.

    Used only when the real player overran its time cap, or is not installed.
    """
    if SHOBU in legal:
        return SHOBU
    for action in legal:
        if action < PICK_BASE and obs.field & CARD_MONTH_MASK[action]:
            return action
    return legal[0]


class _FallbackPlayer:
    name = "fallback"

    def choose(
        self, obs: Observation, legal: Sequence[Action], rng: random.Random, budget: Any = None
    ) -> Action:
        return quick_choice(obs, legal)


def load_player(level: str) -> Any:
    """The computer player of this level from ``koikoi.ai`` (a quick fallback if missing)."""
    try:
        from koikoi import ai

        get_player = ai.get_player  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        logger.warning("koikoi.ai has no get_player yet; the computer plays a quick fallback")
        return _FallbackPlayer()
    return get_player(level)


def make_budget(cap_seconds: float, stop: Callable[[], bool]) -> Any:
    """A search budget with the app's wall-clock cap (koikoi.ai.base.Budget when present)."""
    try:
        from koikoi.ai.base import Budget
    except ImportError:
        return None
    return Budget(0, time.monotonic() + cap_seconds, stop)


class _Signals(QObject):
    done = Signal(int, int)
    failed = Signal(int, str)


def _think(
    token: int,
    player: Any,
    obs: Observation,
    legal: tuple[Action, ...],
    rng: random.Random,
    budget: Any,
    signals: _Signals,
) -> None:
    """Runs in the pool thread: choose, then hand the answer back by signal."""
    try:
        if budget is None:
            action = player.choose(obs, legal, rng)
        else:
            action = player.choose(obs, legal, rng, budget)
    except Exception as exc:  # a bug in a player must not take the window down
        logger.exception("the computer player failed")
        emit(signals.failed, token, f"{type(exc).__name__}: {exc}")
        return
    emit(signals.done, token, int(action))


class AiRunner(QObject):
    """Runs one computer decision at a time in a pool thread."""

    decided = Signal(int, int)
    """(token, action) on the main thread; the action is always one of the legal ones."""

    def __init__(self, level: str, cap_ms: int = 8000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.level = level
        self.player = load_player(level)
        self.cap_ms = cap_ms
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        queued = Qt.ConnectionType.QueuedConnection  # always back on this (the UI) thread
        self._signals.done.connect(self._on_done, queued)
        self._signals.failed.connect(self._on_failed, queued)
        self._token = 0
        self._pending: tuple[int, Observation, tuple[Action, ...]] | None = None
        self._stop = threading.Event()
        self._watchdog = QTimer(self)
        self._watchdog.setSingleShot(True)
        self._watchdog.timeout.connect(self._on_overrun)

    @property
    def busy(self) -> bool:
        return self._pending is not None

    def request(self, obs: Observation, rng: random.Random) -> int:
        """Start thinking about ``obs``; returns the token ``decided`` will carry."""
        self.cancel()
        self._token += 1
        self._stop = threading.Event()
        legal = tuple(obs.legal_actions)
        self._pending = (self._token, obs, legal)
        budget = make_budget(self.cap_ms / 1000, self._stop.is_set)
        token, player, signals = self._token, self.player, self._signals
        # a plain callable: Qt owns the runnable it wraps it in, so nothing of ours can be
        # collected or deleted twice while the pool holds it
        self.pool.start(lambda: _think(token, player, obs, legal, rng, budget, signals))
        self._watchdog.start(self.cap_ms + GRACE_MS)
        return self._token

    def cancel(self) -> None:
        """Drop the current request (its answer, if it comes, is ignored)."""
        self._stop.set()
        self._pending = None
        self._watchdog.stop()

    def shutdown(self, wait_ms: int = 5000) -> None:
        self.cancel()
        self.pool.waitForDone(wait_ms)

    def _finish(self, token: int, action: Action) -> None:
        pending = self._pending
        if pending is None or pending[0] != token:
            return
        legal = pending[2]
        if action not in legal:
            logger.error("the computer chose an illegal action %r; using a fallback", action)
            action = quick_choice(pending[1], legal)
        self._pending = None
        self._watchdog.stop()
        emit(self.decided, token, action)

    @Slot(int, int)
    def _on_done(self, token: int, action: int) -> None:
        self._finish(token, action)

    @Slot(int, str)
    def _on_failed(self, token: int, message: str) -> None:
        if self._pending is not None and self._pending[0] == token:
            self._finish(token, quick_choice(self._pending[1], self._pending[2]))

    def _on_overrun(self) -> None:
        if self._pending is None:
            return
        token, obs, legal = self._pending
        logger.warning("the computer overran its %d ms cap; playing a quick move", self.cap_ms)
        self._stop.set()
        self._finish(token, quick_choice(obs, legal))


__all__ = ["AiRunner", "KOIKOI", "SHOBU", "quick_choice"]
