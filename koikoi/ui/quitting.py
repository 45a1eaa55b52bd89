"""SIGTERM and SIGINT quit a Qt window cleanly, from the event loop.

Qt's loop runs in C++, where a Python signal handler cannot run, so the signal's number is
written to a socket (``signal.set_wakeup_fd``) that a ``QSocketNotifier`` watches; the app
(:mod:`koikoi.ui.app`) and the replay viewer (:mod:`koikoi.ui.replay.viewer`) quit through it.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QSocketNotifier
from PySide6.QtWidgets import QApplication

logger = logging.getLogger("koikoi.ui.app")  # the app's log lines, as they were

QUIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""The signals that quit the app cleanly (saved, helper stopped, exit code 0)."""


class _SignalNotifier(QObject):
    """Runs ``action`` from the event loop when a byte arrives on ``sock``."""

    def __init__(self, sock: socket.socket, action: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self.sock = sock
        self.action = action
        self.notifier = QSocketNotifier(sock.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._ready)

    def _ready(self) -> None:
        try:
            numbers = self.sock.recv(64)
        except OSError:  # woken for nothing
            return
        quits = [signal.Signals(n).name for n in numbers if n in QUIT_SIGNALS]
        if quits:
            logger.info("%s received; quitting", quits[0])
            self.action()


@contextlib.contextmanager
def quit_on_signals(app: QApplication, action: Callable[[], None]) -> Iterator[None]:
    """While inside, SIGTERM and SIGINT run ``action`` from ``app``'s event loop (not in
    the middle of whatever Python code the signal interrupted); restored on the way out."""
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    # the C-level handler writes the number to the socket; the Python one has nothing to do
    old = {number: signal.signal(number, _ignore_here) for number in QUIT_SIGNALS}
    watcher = _SignalNotifier(reader, action, app)
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(old_fd)
        watcher.notifier.setEnabled(False)
        watcher.deleteLater()
        reader.close()
        writer.close()


def _ignore_here(number: int, frame: object) -> None:
    """The signal is handled from the event loop (see :func:`quit_on_signals`)."""
