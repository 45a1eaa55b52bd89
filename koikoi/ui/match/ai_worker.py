"""The computer's thinking, off the UI thread, handed back by signal (as Anki's operations).

The player function never touches a widget: it gets an observation and returns an action,
and :class:`AiRunner` emits ``decided(token, action)`` on the UI thread.

Where it thinks: by default in a helper *process* shared by the whole app. A search is pure
Python; in a thread it would hold the interpreter lock, and every Qt call the window makes
while painting would wait for it back — the hard level stalled the window for a few hundred
milliseconds that way. In its own process it cannot. The helper runs
:mod:`koikoi.ui.match.ai_helper`, which imports no Qt. If a process cannot be started (a
locked-down system), the runner falls back to a Qt pool thread.

The helper never outlives the app: it watches its parent (multiprocessing's parent
sentinel, a pipe whose other end only the app holds) and exits when the app is gone, even
killed by SIGKILL; it ignores SIGINT, which a terminal sends to the whole process group, and
leaves quitting to the app, which stops it (:func:`stop_helper`). The "spawn" start method
also starts multiprocessing's resource tracker (it unlinks the executor's named semaphores
should the app die); it reads a pipe that the app and the helper hold open, so it ends on
its own once both are gone.

The app adds a wall-clock cap: the search is told its deadline (and a stop flag for a
cancelled request), and if no answer has come some time after it, the runner answers with
a quick fallback so the game never hangs. Each request carries a token, so a late answer to
a cancelled request is dropped.
"""

from __future__ import annotations

import atexit
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import random
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing.process import BaseProcess
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, QTimer, Signal, Slot

from koikoi.engine.match import Observation
from koikoi.engine.round import Action
from koikoi.ui.common.signals import emit
from koikoi.ui.match.ai_helper import (
    child_choose,
    child_init,
    child_warm,
    choose,
    load_player,
    quick_choice,
)

logger = logging.getLogger(__name__)

GRACE_MS = 1500
"""How long after its deadline a search may still answer before the fallback is used."""


class _Host:
    """The one helper process of the app (started on first use, stopped at exit)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
        self.current = ctx.Value("q", 0, lock=False)
        self.executor = ProcessPoolExecutor(
            1, mp_context=ctx, initializer=child_init, initargs=(self.current,)
        )
        self.executor.submit(child_warm)

    def submit(self, level: str, token: int, *args: Any) -> Future[int]:
        self.current.value = token
        return self.executor.submit(child_choose, level, token, *args)

    def cancel(self) -> None:
        self.current.value = 0

    def stop(self, timeout: float = 0.0) -> None:
        """Ask the helper to exit; with a ``timeout``, wait that long for it, then kill it."""
        self.cancel()
        processes = list((self.executor._processes or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        if timeout <= 0:
            return
        deadline = time.monotonic() + timeout
        running: dict[Any, BaseProcess] = {p.sentinel: p for p in processes}
        while running and (left := deadline - time.monotonic()) > 0:
            for sentinel in multiprocessing.connection.wait(list(running), left):
                del running[sentinel]
        for process in running.values():
            logger.warning("the computer's process %d did not stop; killing it", process.pid)
            process.kill()


_host: _Host | None = None
_host_lock = threading.Lock()
_tokens = itertools.count(1)


def _get_host() -> _Host | None:
    global _host
    with _host_lock:
        if _host is None:
            try:
                _host = _Host()
            except (OSError, ValueError, RuntimeError) as exc:
                logger.warning("no process for the computer (%s); it thinks in a thread", exc)
                return None
            atexit.register(_stop_host)
        return _host


def _drop_host() -> None:
    global _host
    with _host_lock:
        host, _host = _host, None
    if host is not None:
        host.stop()


def _stop_host() -> None:
    _drop_host()


def stop_helper(timeout: float = 3.0) -> None:
    """Stop the helper process now (the app is quitting): its search is cancelled, it is
    asked to exit and, if it has not within ``timeout`` seconds, killed."""
    global _host
    with _host_lock:
        host, _host = _host, None
    if host is not None:
        host.stop(timeout)


# -- the runner ----------------------------------------------------------------------------------


class _Signals(QObject):
    done = Signal(int, int)
    failed = Signal(int, str)


class AiRunner(QObject):
    """Runs one computer decision at a time, off the UI thread."""

    decided = Signal(int, int)
    """(token, action) on the UI thread; the action is always one of the legal ones."""

    def __init__(
        self,
        level: str,
        cap_ms: int = 8000,
        parent: QObject | None = None,
        in_process: bool = True,
    ) -> None:
        super().__init__(parent)
        self.level = level
        self.cap_ms = cap_ms
        self.host = _get_host() if in_process else None
        self.player = load_player(level) if self.host is None else None
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        queued = Qt.ConnectionType.QueuedConnection  # always back on this (the UI) thread
        self._signals.done.connect(self._on_done, queued)
        self._signals.failed.connect(self._on_failed, queued)
        self._pending: tuple[int, Observation, tuple[Action, ...]] | None = None
        self._stop = threading.Event()
        self._watchdog = QTimer(self)
        self._watchdog.setSingleShot(True)
        self._watchdog.timeout.connect(self._on_overrun)
        self._future: tuple[int, Future[int]] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(8)
        self._poll.timeout.connect(self._check_future)

    @property
    def busy(self) -> bool:
        return self._pending is not None

    @property
    def thinking_about(self) -> int:
        """The token of the request being thought about, 0 when idle."""
        return self._pending[0] if self._pending is not None else 0

    def request(self, obs: Observation, rng: random.Random) -> int:
        """Start thinking about ``obs``; returns the token ``decided`` will carry."""
        self.cancel()
        token = next(_tokens)
        legal = tuple(obs.legal_actions)
        self._pending = (token, obs, legal)
        cap = self.cap_ms / 1000
        if self.host is not None:
            try:
                future = self.host.submit(self.level, token, obs, legal, rng, cap)
            except RuntimeError as exc:  # the process pool broke down: start a new one
                logger.warning("the computer's process stopped (%s); starting it again", exc)
                _drop_host()
                self.host = _get_host()
                if self.host is None:
                    self.player = load_player(self.level)
                    return self._request_in_thread(token, obs, legal, rng, cap)
                future = self.host.submit(self.level, token, obs, legal, rng, cap)
            # the UI thread looks for the answer itself: no other thread touches a Qt object
            self._future = (token, future)
            self._poll.start()
        else:
            self._request_in_thread(token, obs, legal, rng, cap)
        self._watchdog.start(self.cap_ms + GRACE_MS)
        return token

    def _request_in_thread(
        self,
        token: int,
        obs: Observation,
        legal: tuple[Action, ...],
        rng: random.Random,
        cap: float,
    ) -> int:
        self._stop = stop = threading.Event()
        player, signals = self.player, self._signals

        def think() -> None:
            try:
                action = choose(player, obs, legal, rng, cap, stop.is_set)
            except Exception as exc:  # a bug in a player must not take the window down
                logger.exception("the computer player failed")
                emit(signals.failed, token, f"{type(exc).__name__}: {exc}")
                return
            emit(signals.done, token, action)

        # a plain callable: Qt owns the runnable it wraps it in
        self.pool.start(think)
        self._watchdog.start(self.cap_ms + GRACE_MS)
        return token

    def _check_future(self) -> None:
        if self._future is None:
            self._poll.stop()
            return
        token, future = self._future
        if not future.done():
            return
        self._future = None
        self._poll.stop()
        try:
            action = future.result()
        except Exception as exc:  # includes a broken pool
            self._on_failed(token, f"{type(exc).__name__}: {exc}")
            return
        self._finish(token, int(action))

    def cancel(self) -> None:
        """Drop the current request (its answer, if it comes, is ignored)."""
        self._stop.set()
        self._future = None
        self._poll.stop()
        if self.host is not None and self._pending is not None:
            self.host.cancel()
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
            logger.warning("the computer could not decide (%s); playing a quick move", message)
            self._finish(token, quick_choice(self._pending[1], self._pending[2]))

    def _on_overrun(self) -> None:
        if self._pending is None:
            return
        token, obs, legal = self._pending
        logger.warning("the computer overran its %d ms cap; playing a quick move", self.cap_ms)
        self.cancel()
        self._pending = (token, obs, legal)
        self._finish(token, quick_choice(obs, legal))
