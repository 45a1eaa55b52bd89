"""A room's port mapping on the home router, for the app's "Open to the internet" room
(docs/protocol.md, "Across the internet").

:class:`RoomMapping` asks the router for a mapping of the room's port, renews its lease
every :data:`~koikoi.net.portmap.RENEW_EVERY` s while the room is open and removes it when the
room closes. The mappers (:class:`~koikoi.net.portmap.Mapper`: UPnP-IGD, then PCP, then NAT-PMP) are
blocking, so every call to them runs on one worker thread of the mapping's own, in order (a
removal always comes after the mapping it undoes), and its outcome comes back to the UI
thread as a signal: the window never waits for a router. The worker is a daemon thread, as
the CLI's are: a router that never answers cannot hold the app's exit, and a mapping left
behind lapses with its lease. Where the mappers come from is the owner's factory (tests give
a fake router).
"""

from __future__ import annotations

import contextlib
import logging
import math
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Final

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal

from koikoi.net.natpmp import NatPmpMapper
from koikoi.net.pcp import PcpMapper
from koikoi.net.portmap import (
    LEASE,
    MAP_TIMEOUT,
    RENEW_EVERY,
    Mapper,
    Mapping,
    MappingFailed,
    UpnpMapper,
    open_first,
)
from koikoi.ui.common.signals import emit
from koikoi.ui.net.neterrors import mapping_detail
from koikoi.ui.net.netlink.base import TimerFactory, qt_timer

logger = logging.getLogger(__name__)

MapperFactory = Callable[[], Sequence[Mapper]]
"""The mappers to try, in order, for one room (a new set for each room)."""


def router_mappers() -> list[Mapper]:
    """The real routers' ways, as ``koikoi host --internet`` tries them: UPnP-IGD, then PCP,
    then NAT-PMP."""
    return [UpnpMapper(lease=LEASE), PcpMapper(LEASE), NatPmpMapper(LEASE)]


EXIT_WAIT: Final = 2.0
"""Seconds the app, closing, waits for the router to remove a room's mapping (a daemon
thread would be cut short at exit; past them the mapping lapses with its lease)."""
TIMED_OUT: Final = (
    "the router did not finish mapping the port within {0:g} s: turn on UPnP in its "
    "settings or forward the port by hand"
)
"""The English line of a router that took longer than :data:`~koikoi.net.portmap.MAP_TIMEOUT`
(code ``map.slow``)."""


class _Worker:
    """One daemon thread running jobs in the order given."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.worker_thread = threading.Thread(target=self._run, name="koikoi-portmap", daemon=True)
        self.worker_thread.start()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def finish(self) -> None:
        """No more jobs: the thread ends after the ones given (:func:`wait_for_removals`
        waits for it, the app on its way out)."""
        with _FINISHING_LOCK:
            _FINISHING.add(self.worker_thread)
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:  # never into the thread's void; the job reports its own
                logger.debug("a port-mapping job failed", exc_info=True)
        with _FINISHING_LOCK:
            _FINISHING.discard(threading.current_thread())


_FINISHING: set[threading.Thread] = set()
"""The workers given their last job (a removal, mostly) and still at it."""
_FINISHING_LOCK = threading.Lock()


def wait_for_removals(timeout: float = EXIT_WAIT) -> None:
    """Until every mapping closed so far has been removed from its router, at most
    ``timeout`` s in all: the app on its way out (the workers are daemon threads, which the
    exit would cut short; a mapping let go just before, by a room's Cancel or going home,
    is still being removed)."""
    deadline = time.monotonic() + timeout
    with _FINISHING_LOCK:
        threads = list(_FINISHING)
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))


class _Outcomes(QObject):
    """Lives on the UI thread for good: the worker reports through it (a queued signal) and
    holds only a weak reference to its mapping, so a lobby closed meanwhile is not touched,
    nor freed on the worker's thread (as the room announcer's outcomes)."""

    done = Signal(object, str, object)
    """``(weakref to the RoomMapping, what, value)``."""

    def __init__(self) -> None:
        super().__init__()
        self.done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def _deliver(self, ref: weakref.ReferenceType[RoomMapping], what: str, value: object) -> None:
        mapping = ref()
        if mapping is not None and shiboken6.isValid(mapping):
            mapping._on_done(what, value)


_OUTCOMES: list[_Outcomes] = []


def _outcomes() -> _Outcomes:
    if not _OUTCOMES:
        _OUTCOMES.append(_Outcomes())
    return _OUTCOMES[0]


class RoomMapping(QObject):
    """One room's mapping: :meth:`start` asks, :meth:`close` removes.

    ``opened(Mapping)`` once the router mapped the port; ``failed(str)`` with one line when
    it could not (or took longer than :data:`~koikoi.net.portmap.MAP_TIMEOUT` s);
    ``renew_failed(str)`` when a renewal was refused (the renewals go on: the lease lasts
    three of them). Both lines are in the player's language
    (:func:`~koikoi.ui.net.neterrors.mapping_detail`).
    """

    opened = Signal(object)
    failed = Signal(str)
    renew_failed = Signal(str)

    def __init__(
        self,
        mappers: MapperFactory = router_mappers,
        parent: QObject | None = None,
        *,
        timer: TimerFactory = qt_timer,
    ) -> None:
        super().__init__(parent)
        self._mappers = mappers
        self.state = "new"
        """new → mapping → mapped | failed → closed."""
        self.mapper: Mapper | None = None
        self.mapping: Mapping | None = None
        self.renewals = 0
        """Renewals the router accepted."""
        self.port: int | None = None
        """The room's port asked for (:meth:`start`)."""
        self._tried: list[Mapper] = []
        self._worker: _Worker | None = None
        self.worker_thread: threading.Thread | None = None
        """The worker's thread (tests wait for it)."""
        self._outcomes = _outcomes()
        self._deadline = timer(self, self._too_slow)
        self._renew_timer = timer(self, self._renew)

    def start(self, port: int) -> None:
        """Ask for a mapping of TCP ``port`` (returns at once)."""
        if self.state != "new":
            return
        self.state = "mapping"
        self.port = port
        try:
            mappers = list(self._mappers())
        except Exception as error:  # a factory's failure is this room's, in words
            self._fail(MappingFailed(f"cannot ask the router for a port: {error}", "other"))
            return
        self._tried = mappers
        self._worker = _Worker()
        self.worker_thread = self._worker.worker_thread
        me = weakref.ref(self)
        outcomes = self._outcomes

        def run() -> None:
            try:
                mapper, mapping = open_first(mappers, port)
            except MappingFailed as error:
                outcomes.done.emit(me, "failed", error)
            except Exception as error:
                text = f"the router's answer was not understood: {error}"
                outcomes.done.emit(me, "failed", MappingFailed(text, "garbled"))
            else:
                outcomes.done.emit(me, "opened", (mapper, mapping))

        self._worker.submit(run)
        self._deadline.start(math.ceil(MAP_TIMEOUT * 1000))

    @property
    def every(self) -> float:
        """Seconds between two renewals: :data:`~koikoi.net.portmap.RENEW_EVERY`, or a third
        of a shorter lease."""
        lease = self.mapper.lease if self.mapper is not None else LEASE
        return min(RENEW_EVERY, lease / 3)

    def _too_slow(self) -> None:
        if self.state == "mapping":
            self._fail(
                MappingFailed(TIMED_OUT.format(MAP_TIMEOUT), "slow", seconds=f"{MAP_TIMEOUT:g}")
            )

    def _fail(self, error: MappingFailed) -> None:
        self.state = "failed"
        self._deadline.stop()
        emit(self.failed, mapping_detail(error))

    def _on_done(self, what: str, value: object) -> None:
        if what == "opened":
            assert isinstance(value, tuple)
            mapper, mapping = value
            if self.state != "mapping":  # given up as too slow meanwhile (or closed: removed)
                self._remove([mapper])
                return
            self._deadline.stop()
            self.state = "mapped"
            self.mapper, self.mapping = mapper, mapping
            self._renew_timer.start(math.ceil(self.every * 1000))
            emit(self.opened, mapping)
        elif what == "failed" and self.state == "mapping":
            assert isinstance(value, MappingFailed)
            self._fail(value)
        elif what == "renewed" and self.state == "mapped":
            self.renewals += 1
        elif what == "renew_failed" and self.state == "mapped":
            assert isinstance(value, MappingFailed)
            emit(self.renew_failed, mapping_detail(value))

    def _renew(self) -> None:
        mapper, worker = self.mapper, self._worker
        if self.state != "mapped" or mapper is None or worker is None:
            return
        me = weakref.ref(self)
        outcomes = self._outcomes

        def run() -> None:
            try:
                mapper.renew()
            except MappingFailed as error:
                outcomes.done.emit(me, "renew_failed", error)
            else:
                outcomes.done.emit(me, "renewed", None)

        worker.submit(run)
        self._renew_timer.start(math.ceil(self.every * 1000))

    def _remove(self, mappers: Sequence[Mapper]) -> None:
        """Remove whatever ``mappers`` mapped (on the worker: after the attempt to map)."""
        worker = self._worker
        if worker is None:
            return

        def run() -> None:
            for mapper in mappers:
                with contextlib.suppress(MappingFailed):  # it lapses with its lease
                    mapper.close()

        worker.submit(run)

    def close(self) -> None:
        """The room closed: remove the mapping, or the one still being made once it is (on
        the worker, after the attempt); a router that does not answer lets it lapse."""
        if self.state == "closed":
            return
        self.state = "closed"
        self._deadline.stop()
        self._renew_timer.stop()
        self._remove(self._tried)
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.finish()

    def wait(self, timeout: float = 10.0) -> None:
        """Until the worker has done its jobs and ended, once closed (at most ``timeout``
        s: the app on its way out, tests)."""
        if self.worker_thread is not None and self.state == "closed":
            self.worker_thread.join(timeout)
