"""A virtual clock for the asyncio transport (:mod:`koikoi.net.transport` keeps time with
``loop.time()`` and the loop's own timers: ``call_at``, ``sleep``, ``wait_for``).

:class:`VirtualTimeLoop` is a selector event loop whose ``time()`` moves only when the loop
would wait for its next timer: it first waits for I/O a short *real* while (``quiet``), and
if none comes, its time jumps to the timer. Bytes, threads and processes take no virtual
time; heartbeats, deadlines, redial delays and close graces take no real time.

Why not ``looptime`` (PyPI): it jumps as soon as a poll with no wait finds nothing ready
(after a few dozen loop cycles, microseconds), which is right when everything runs in the
loop but not here, where the peer is often a thread on a blocking socket or a worker thread
thinks: a reply a few real milliseconds away would find the silence timeout long past.
Waiting ``quiet`` before each jump gives such a peer time to answer.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

QUIET = 0.05
"""Real seconds without I/O after which the loop moves on to its next timer."""


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self, quiet: float = QUIET, start: float = 1000.0) -> None:
        super().__init__()
        self.quiet = quiet
        self.virtual = start
        """The loop's time (seconds), read by ``time()``; a thread may read it too."""
        self.jumps = 0
        """How many times the loop moved on to its next timer."""
        selector: selectors.BaseSelector = self._selector  # type: ignore[attr-defined]
        real_select = selector.select

        def select(timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
            if timeout is None or timeout <= 0:  # no timer, or work waiting: as it is
                return real_select(timeout)
            ready = real_select(min(timeout, self.quiet))
            if not ready:
                self.virtual += timeout
                self.jumps += 1
            return ready

        selector.select = select  # type: ignore[method-assign]

    def time(self) -> float:
        return self.virtual


def run(main: Coroutine[Any, Any, T], quiet: float = QUIET) -> T:
    """``asyncio.run`` on a :class:`VirtualTimeLoop`."""
    with asyncio.Runner(loop_factory=lambda: VirtualTimeLoop(quiet)) as runner:
        return runner.run(main)
