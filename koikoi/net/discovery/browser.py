"""Listing the rooms on the LAN by mDNS (:class:`RoomBrowser`), and finding one by its title."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import itertools
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final

from zeroconf import BadTypeInNameException, DNSQuestionType, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from koikoi.net.discovery.interfaces import DiscoveryError
from koikoi.net.discovery.mdns import (
    STOP_TIMEOUT,
    LoopThread,
    describe_error,
    start_zeroconf,
    wait_started,
    where_of,
)
from koikoi.net.discovery.titles import SAME_TITLE_WAIT, RoomFound, SameTitle, TitleSearch
from koikoi.net.discovery.txt import (
    MAX_TITLE,
    SERVICE_TYPE,
    Room,
    RoomStatus,
    Unusable,
    clean_text,
    parse_room,
    short_fingerprint,
    txt_fingerprint,
)
from koikoi.net.discovery.zeroconf_internals import Sources, cached_room_names, cached_txt

logger = logging.getLogger(__name__)

MAX_ROOMS: Final = 256
"""Rooms a browser keeps (and resolves) at once; more are ignored until some go."""
REPORT_INTERVAL: Final = 0.2
"""Seconds between two reports of the browser: changes in between are coalesced."""
RESOLVE_TIMEOUT_MS: Final = 2000
ASK: Final = DNSQuestionType.QM
"""Every question asks for a multicast answer. zeroconf's first question asks for a unicast
one (QU), sent to port 5353 of the asker; where other programs share that port (another
koikoi, any mDNS library with SO_REUSEPORT) the kernel hands it to one of their sockets, by a
hash of the addresses, the same one each time, so a listing could miss every room for its
first second, and ``koikoi rooms --timeout 1`` every time. A multicast answer reaches them all."""
RESOLVE_AT_ONCE: Final = 16
"""Lookups that ask the network at once (a lookup the cache answers does not wait for them)."""
MAX_ROOMS_PER_SOURCE: Final = 32
"""Rooms a browser keeps (and resolves) at once whose records came first from one source
address: the one thing of a packet a spammer cannot forge freely (its records say anything)."""
LOOKUPS_PER_SOURCE: Final = 4
"""Lookups that ask the network at once for the rooms of one source address."""
PINNED_EXTRA: Final = 16
"""Rooms whose TXT ``fp`` is a pinned peer's kept beyond :data:`MAX_ROOMS` (a hint only)."""
RECONCILE_INTERVAL: Final = 1.0
"""Seconds between two looks into zeroconf's cache for rooms ignored while the list was full:
zeroconf reports a service once, so a room ignored then would otherwise never be listed."""


@dataclass(frozen=True)
class RoomAdded:
    room: Room


@dataclass(frozen=True)
class RoomChanged:
    room: Room


@dataclass(frozen=True)
class RoomRemoved:
    name: str


@dataclass(frozen=True)
class BrowseFailed:
    """mDNS does not work here; the list stays empty (joining by address still works)."""

    reason: str


DiscoveryEvent = RoomAdded | RoomChanged | RoomRemoved | BrowseFailed
RoomCallback = Callable[[DiscoveryEvent], None]


@dataclass
class _State:
    rooms: dict[str, Room] = field(default_factory=dict)
    """What was last reported, by service name."""
    pending: dict[str, Room | None] = field(default_factory=dict)
    """Changes not reported yet: the latest room, or None for gone."""
    resolving: dict[str, bool] = field(default_factory=dict)
    """Names being resolved; True when asked again meanwhile."""
    rejected: dict[str, None] = field(default_factory=dict)
    """Names that could not be rooms, oldest first (at most a few times the cap): not looked
    up again until zeroconf reports them changed."""
    overflowed: bool = False
    """Rooms were ignored because the list was full: look for them when there is room."""


class _Turns:
    """Turns to ask the network: ``at_once`` lookups at a time, at most ``per_source`` of them
    for the rooms of one source address (an unknown source is not limited); a room whose TXT
    names a pinned host first, then in the order asked."""

    def __init__(self, at_once: int, per_source: int) -> None:
        self.at_once = at_once
        self.per_source = per_source
        self._running: dict[str, int] = {}
        self._total = 0
        self._waiting: list[tuple[int, int, str | None, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, source: str | None, first: bool) -> AsyncIterator[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if first else 1, next(self._order), source, future))
        self._grant()
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():
                self._release(source)  # its turn came as it was cancelled
            future.cancel()
            raise
        try:
            yield
        finally:
            self._release(source)

    def _free(self, source: str | None) -> bool:
        return source is None or self._running.get(source, 0) < self.per_source

    def _grant(self) -> None:
        held: list[tuple[int, int, str | None, asyncio.Future[None]]] = []
        while self._waiting and self._total < self.at_once:
            entry = heapq.heappop(self._waiting)
            _, _, source, future = entry
            if future.done():
                continue  # cancelled while waiting
            if not self._free(source):
                held.append(entry)
                continue
            self._total += 1
            if source is not None:
                self._running[source] = self._running.get(source, 0) + 1
            future.set_result(None)
        for entry in held:
            heapq.heappush(self._waiting, entry)

    def _release(self, source: str | None) -> None:
        self._total -= 1
        if source is not None:
            left = self._running.get(source, 0) - 1
            if left > 0:
                self._running[source] = left
            else:
                self._running.pop(source, None)
        self._grant()


class RoomBrowser:
    """Lists the rooms on the LAN (or on the interface with the address ``bind``).

    ``on_event`` gets :class:`RoomAdded`, :class:`RoomChanged`, :class:`RoomRemoved` and, when
    mDNS cannot work, one :class:`BrowseFailed`; it runs on the browser's own thread, at most
    one report per room per ``interval`` seconds, never raising into the browser.

    A flood cannot hide a room (docs/protocol.md, "Discovery (mDNS)"): at most ``per_source``
    rooms are kept or being looked up whose records came first from one source address, and
    at most :data:`LOOKUPS_PER_SOURCE` of the lookups that ask the network are theirs.
    ``pinned`` (short fingerprints, or whole ones) are the pinned peers: a room whose TXT
    ``fp`` is one of them is looked up first and kept even beyond ``max_rooms`` (by up to
    :data:`PINNED_EXTRA`); only a hint, for the handshake decides who the host is.
    """

    def __init__(
        self,
        on_event: RoomCallback | None = None,
        *,
        bind: str | None = None,
        max_rooms: int = MAX_ROOMS,
        interval: float = REPORT_INTERVAL,
        per_source: int = MAX_ROOMS_PER_SOURCE,
        pinned: Collection[str] = (),
    ) -> None:
        self.on_event = on_event
        self.bind = bind
        self.max_rooms = max_rooms
        self.per_source = per_source
        self.pinned: frozenset[str] = frozenset()
        self.set_pinned(pinned)
        self.sources = Sources(8 * max_rooms + 64)
        """Who sent each service's records."""
        self._charged: dict[str, str] = {}
        """The source whose share each room admitted counts against (by name, lower case)."""
        self.interval = interval
        self.failure: str | None = None
        """Why browsing does not work, once it is known."""
        self.dropped = 0
        """Services ignored: unparsable, unresolvable, or beyond ``max_rooms``."""
        self.reports = 0
        self.ready = threading.Event()
        """Set once the browser listens (or has failed: see :attr:`failure`)."""
        self._lock = threading.Lock()
        self._snapshot: dict[str, Room] = {}
        self._state = _State()
        self._thread: LoopThread | None = None
        self._stop: asyncio.Event | None = None
        self._stopping = threading.Event()
        self._main: concurrent.futures.Future[Any] | None = None
        self._last_report = 0.0
        self._flush: asyncio.TimerHandle | None = None
        self._reconcile: asyncio.TimerHandle | None = None
        self._turns = _Turns(RESOLVE_AT_ONCE, LOOKUPS_PER_SOURCE)
        self._tasks: set[asyncio.Task[None]] = set()
        self._full_logged = False

    def set_pinned(self, pinned: Collection[str]) -> None:
        """The pinned peers' fingerprints from now on (from any thread: one assignment)."""
        self.pinned = frozenset(short_fingerprint(fp) for fp in pinned)

    def __enter__(self) -> RoomBrowser:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def rooms(self) -> list[Room]:
        """The rooms reported so far and not gone, in the order they appeared."""
        with self._lock:
            return list(self._snapshot.values())

    def start(self) -> None:
        """Start browsing; returns at once (a failure comes as :class:`BrowseFailed`)."""
        if self._thread is not None:
            return
        try:
            self._thread = LoopThread("koikoi-browser")
        except DiscoveryError as error:
            self._fail(str(error))
            return
        self._main = self._thread.submit(self._run())

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping.set()
        with contextlib.suppress(RuntimeError):
            thread.loop.call_soon_threadsafe(self._wake)
        if self._main is not None:
            with contextlib.suppress(Exception):
                self._main.result(timeout)
        thread.stop(timeout)

    def _wake(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def _run(self) -> None:
        self._stop = asyncio.Event()
        if self._stopping.is_set():  # stopped before it began
            return
        zc: AsyncZeroconf | None = None
        browser: AsyncServiceBrowser | None = None
        try:
            zc = start_zeroconf(self.bind, self.sources)
            await wait_started(zc, where_of(self.bind))
            browser = AsyncServiceBrowser(
                zc.zeroconf, SERVICE_TYPE, handlers=[self._on_change], question_type=ASK
            )
            self._schedule_reconcile(zc.zeroconf)
            self.ready.set()
            await self._stop.wait()
        except DiscoveryError as error:
            self._fail(str(error))
        except Exception as error:  # a zeroconf failure must not become a traceback
            logger.debug("mDNS browsing failed", exc_info=True)
            self._fail(f"mDNS browsing failed: {describe_error(error)}")
        finally:
            if self._flush is not None:
                self._flush.cancel()
            if self._reconcile is not None:
                self._reconcile.cancel()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                if browser is not None:
                    await browser.async_cancel()
            with contextlib.suppress(Exception):
                if zc is not None:
                    await zc.async_close()

    def _fail(self, reason: str) -> None:
        self.failure = reason
        logger.info("no room list: %s", reason)
        self.ready.set()
        self._call(BrowseFailed(reason))

    def _call(self, event: DiscoveryEvent) -> None:
        self.reports += 1
        if self.on_event is None:
            return
        try:
            self.on_event(event)
        except Exception:
            logger.exception("the room list callback failed")

    # zeroconf calls this on the loop, with keyword arguments
    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        state = self._state
        state.rejected.pop(name, None)  # changed or gone: it may be a room now
        if state_change is ServiceStateChange.Removed:
            state.resolving.pop(name, None)
            if name not in state.rooms:
                self._charged.pop(name.lower(), None)
            if name in state.rooms or name in state.pending:
                self._report(name, None)
            return
        if name in state.resolving:
            state.resolving[name] = True
            return
        known = name in state.rooms or state.pending.get(name) is not None
        if not known and not self._admit(zeroconf, name):
            self.dropped += 1
            state.overflowed = True
            if not self._full_logged:
                self._full_logged = True
                logger.debug("room list full (or a source's share of it): ignoring more")
            return
        self._start_resolving(zeroconf, name)

    def _pinned_hint(self, zeroconf: Zeroconf, name: str) -> bool:
        """Whether the TXT zeroconf holds for ``name`` names a pinned peer."""
        if not self.pinned:
            return False
        return txt_fingerprint(cached_txt(zeroconf, name)) in self.pinned

    def _held_from(self, source: str) -> int:
        """Rooms listed, to be reported or being looked up that count against ``source``."""
        state = self._state
        names = {*state.rooms, *state.resolving}
        names.update(name for name, room in state.pending.items() if room is not None)
        return sum(1 for name in names if self._charged.get(name.lower()) == source)

    def _admit(self, zeroconf: Zeroconf, name: str) -> bool:
        """Whether a room not listed yet may be looked up: the list is not full
        (``max_rooms``, more for a pinned host's room), nor the share (``per_source``) of
        every source that sent its records; it then counts against the first with room."""
        state = self._state
        cap = self.max_rooms + (PINNED_EXTRA if self._pinned_hint(zeroconf, name) else 0)
        if len(state.rooms) + len(state.resolving) >= cap:
            return False
        key = name.lower()
        sources = self.sources.all(name)
        if not sources:
            self._charged.pop(key, None)  # (zeroconf's cache had it before us: not limited)
            return True
        for source in sources:
            if self._held_from(source) < self.per_source:
                self._charged[key] = source
                return True
        return False

    def _start_resolving(self, zeroconf: Zeroconf, name: str) -> None:
        state = self._state
        state.resolving[name] = False
        task = asyncio.ensure_future(self._resolve(zeroconf, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        state = self._state
        try:
            while True:
                room = await self._lookup(zeroconf, name)
                if name not in state.resolving:  # removed meanwhile
                    return
                if not state.resolving[name]:
                    break
                state.resolving[name] = False  # changed while we looked: look again
        finally:
            state.resolving.pop(name, None)
        if room is not None:
            self._report(name, room)
        else:
            state.rejected[name] = None
            self._charged.pop(name.lower(), None)
            if len(state.rejected) > 4 * self.max_rooms:
                del state.rejected[next(iter(state.rejected))]
            if name in state.rooms:
                self._report(name, None)

    async def _lookup(self, zeroconf: Zeroconf, name: str) -> Room | None:
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            # what the cache holds is read at once; only a lookup that asks the network waits
            # for a turn, so a known room's change is never queued behind unanswered lookups
            if not info.load_from_cache(zeroconf):
                first = txt_fingerprint(info.text) in self.pinned  # TXT may be cached alone
                async with self._turns.turn(self._charged.get(name.lower()), first):
                    if name not in self._state.resolving:
                        return None  # gone while it waited for its turn: ask nothing
                    if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS, ASK):
                        raise Unusable("no answer")
            return parse_room(name, info.text or b"", info.parsed_scoped_addresses(), info.port)
        except (ValueError, BadTypeInNameException) as error:
            self.dropped += 1
            logger.debug("ignoring the service %r: %s", name[:80], error)
            return None

    def _schedule_reconcile(self, zeroconf: Zeroconf) -> None:
        loop = asyncio.get_running_loop()
        self._reconcile = loop.call_later(RECONCILE_INTERVAL, self._reconcile_cache, zeroconf)

    def _reconcile_cache(self, zeroconf: Zeroconf) -> None:
        """Look up the rooms in zeroconf's cache that were ignored while the list was full, as
        many as there is room for now, oldest first. zeroconf reports a service once (and again
        only when its records change), so without this a room ignored during a burst would
        stay unlisted for as long as it is announced, even after others leave."""
        self._schedule_reconcile(zeroconf)
        state = self._state
        if not state.overflowed:
            return
        waiting = False
        for name in cached_room_names(zeroconf):
            if (
                name in state.rooms
                or name in state.pending
                or name in state.resolving
                or name in state.rejected
            ):
                continue
            if not self._admit(zeroconf, name):
                waiting = True  # more are waiting: look again later
                continue
            self._start_resolving(zeroconf, name)
        state.overflowed = waiting  # else every room in the cache is listed or looked up

    def _report(self, name: str, room: Room | None) -> None:
        self._state.pending[name] = room
        if self._flush is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_report + self.interval - time.monotonic())
        self._flush = loop.call_later(delay, self._report_pending)

    def _report_pending(self) -> None:
        self._flush = None
        self._last_report = time.monotonic()
        state = self._state
        pending, state.pending = state.pending, {}
        for name, room in pending.items():
            old = state.rooms.get(name)
            event: DiscoveryEvent
            if room is None:
                if old is None:
                    continue
                del state.rooms[name]
                self._charged.pop(name.lower(), None)
                event = RoomRemoved(name)
            elif old is None:
                pinned = room.fingerprint is not None and room.fingerprint in self.pinned
                if len(state.rooms) >= self.max_rooms + (PINNED_EXTRA if pinned else 0):
                    self.dropped += 1
                    continue
                state.rooms[name] = room
                event = RoomAdded(room)
            elif old != room:
                state.rooms[name] = room
                event = RoomChanged(room)
            else:
                continue
            with self._lock:
                self._snapshot = dict(state.rooms)
            self._call(event)


def find_room(
    title: str,
    *,
    bind: str | None = None,
    timeout: float = 5.0,
    playing: bool = False,
) -> list[Room]:
    """Browse up to ``timeout`` seconds for an open room called ``title`` (compared without
    case); returns the open rooms of that title found when the first appears (empty when none
    did). DiscoveryError when mDNS does not work here. ``playing``: rooms whose match is in
    play count too (a joiner finding its room again to resume its match)."""
    wanted = clean_text(title, MAX_TITLE).casefold()
    found = threading.Event()
    statuses = (RoomStatus.OPEN, RoomStatus.PLAYING) if playing else (RoomStatus.OPEN,)

    def matches(browser: RoomBrowser) -> list[Room]:
        return [
            room
            for room in browser.rooms()
            if room.title.casefold() == wanted and room.status in statuses
        ]

    def on_event(event: DiscoveryEvent) -> None:
        if isinstance(event, BrowseFailed) or (
            isinstance(event, RoomAdded | RoomChanged)
            and event.room.title.casefold() == wanted
            and event.room.status in statuses
        ):
            found.set()

    browser = RoomBrowser(on_event, bind=bind)
    browser.start()
    try:
        found.wait(timeout)
        if browser.failure is not None:
            raise DiscoveryError(browser.failure)
        return matches(browser)
    finally:
        browser.stop()


def look_for_room(
    title: str,
    *,
    bind: str | None = None,
    timeout: float = 5.0,
    wait: float = SAME_TITLE_WAIT,
    pinned: Collection[str] = (),
    clock: Callable[[], float] = time.monotonic,
) -> RoomFound | SameTitle | None:
    """Browse for the room ``join --room TITLE`` joins (:class:`TitleSearch`): up to
    ``timeout`` seconds for a first open room of the title, then ``wait`` more for another
    of that title (and :data:`SAME_TITLE_LISTEN` seconds in all, at least). None when no
    open room of the title appeared; DiscoveryError when mDNS does not work here."""
    search = TitleSearch(title, wait=wait, started=clock())
    lock = threading.Lock()
    wake = threading.Event()

    def on_event(event: DiscoveryEvent) -> None:
        with lock:
            if isinstance(event, RoomAdded | RoomChanged):
                search.see(event.room, clock())
            elif isinstance(event, RoomRemoved):
                search.gone(event.name)
        wake.set()

    browser = RoomBrowser(on_event, bind=bind, pinned=pinned)
    end = clock() + timeout
    browser.start()
    try:
        while True:
            wake.clear()
            now = clock()
            with lock:
                decision = search.decide(now)
                deadline = search.deadline
            if decision is not None:
                return decision
            if browser.failure is not None:
                raise DiscoveryError(browser.failure)
            until = deadline if deadline is not None and deadline > now else end
            if until <= now:
                return None
            wake.wait(until - now)
    finally:
        browser.stop()
