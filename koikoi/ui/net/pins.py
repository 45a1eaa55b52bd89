"""The app's pinned peers are saved off its UI thread.

A pin, a count of tosses a peer abandoned or a name forgotten changes
:class:`~koikoi.net.identity.KnownPeers` in memory at once; the file is changed under an
exclusive ``flock``, which waits while another koikoi holds it. :func:`write_later` (the
app's ``KnownPeers.defer``) runs those saves one after the other on a worker thread, so a
handshake on the UI thread never waits for the lock; :func:`wait_written` waits for them
(a test that reads the file, the app as it quits: the worker is joined at exit anyway).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Final

logger = logging.getLogger(__name__)

__all__ = ["write_later", "wait_written"]

_WRITER: Final = ThreadPoolExecutor(1, thread_name_prefix="koikoi-pins")
_lock = threading.Lock()
_last: Future[None] | None = None


def _logged(future: Future[None]) -> None:
    error = None if future.cancelled() else future.exception()
    if error is not None:
        logger.warning("the pinned peers could not be saved: %s", error)


def write_later(job: Callable[[], None]) -> None:
    """Run ``job`` (a save of the pins) on the worker, after the ones before it."""
    global _last
    future = _WRITER.submit(job)
    future.add_done_callback(_logged)
    with _lock:
        _last = future


def wait_written(timeout: float | None = 10.0) -> None:
    """Wait until every save handed to :func:`write_later` so far is done."""
    with _lock:
        last = _last
    if last is not None:
        try:
            last.result(timeout)
        except Exception:  # logged by _logged
            logger.debug("waiting for the pins: the last save failed", exc_info=True)
