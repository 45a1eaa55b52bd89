"""The LAN's rooms for the window: mDNS browsing and advertising kept off the UI thread.

:class:`RoomFinder` runs a :class:`~koikoi.net.discovery.browser.RoomBrowser` (zeroconf on a thread
of its own) and hands each report to the UI thread by a queued signal, into a
:class:`RoomListModel` a view shows. :class:`RoomAnnouncer` publishes the host's room, changes
its status and withdraws it, each wait on a worker thread, never on the UI thread.

Where mDNS cannot work, :attr:`RoomFinder.failure` and the ``failed`` signal say why (one
line); joining by address does not need any of this. ``KOIKOI_MDNS_BIND`` (an IP address of
this machine, e.g. ``127.0.0.1`` for tests) limits browsing and advertising to one interface.
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import shiboken6
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from koikoi.net.discovery.advertiser import RoomAdvertiser
from koikoi.net.discovery.browser import (
    BrowseFailed,
    DiscoveryEvent,
    RoomAdded,
    RoomBrowser,
    RoomChanged,
    RoomRemoved,
)
from koikoi.net.discovery.interfaces import DiscoveryError
from koikoi.net.discovery.titles import same_host
from koikoi.net.discovery.txt import Advertisement, Room, RoomStatus
from koikoi.net.hello import PRIVATE_VERSION
from koikoi.net.session.clock import ClockSetting
from koikoi.ui.common.signals import emit

logger = logging.getLogger(__name__)

BIND_ENV: Final = "KOIKOI_MDNS_BIND"
"""An IP address to browse and advertise on instead of every interface (tests: 127.0.0.1)."""

ROOM_ROLE: Final = int(Qt.ItemDataRole.UserRole) + 1
"""The :class:`Room` of a row (any column)."""

COLUMNS: Final = ("Room", "Host", "Settings", "State")


def _tr(text: str) -> str:
    return QCoreApplication.translate("Rooms", text)


def mdns_bind() -> str | None:
    """The address discovery is bound to (``$KOIKOI_MDNS_BIND``), or None for all interfaces."""
    return os.environ.get(BIND_ENV) or None


def settings_text(rounds: int, doubling: bool) -> str:
    """The match settings in the language spoken: ``6 rounds · doubling at 8+``, in Japanese
    as the seed's lobby writes them, ``6回戦 · 「8点以上×2」``."""
    if doubling:
        return _tr("{0} rounds · doubling at 8+").format(rounds)
    return _tr("{0} rounds · no doubling").format(rounds)


def clock_text(clock: ClockSetting) -> str:
    """A room's move clock in the language spoken: ``60 s a move + 5:00 reserve``, or
    ``no clock``."""
    if clock.off:
        return _tr("no clock")
    if not clock.reserve:
        return _tr("{0} s a move").format(clock.seconds)
    reserve = f"{clock.reserve // 60}:{clock.reserve % 60:02d}"
    return _tr("{0} s a move + {1} reserve").format(clock.seconds, reserve)


def seed_notes() -> tuple[str, str]:
    """What a room that deals by the joint seed says of it: a koikoi-net/2 room, a newer one."""
    return _tr("joint seed only"), _tr("joint seed allowed")


def seed_text(room: Room) -> str:
    """What a room says of joint-seed dealing (TXT ``dealing``, ``v``), or "" for a room that
    deals privately only: a koikoi-net/2 room deals only so, a newer one may allow it."""
    if room.dealing != "seed":
        return ""
    return seed_notes()[0 if room.version < PRIVATE_VERSION else 1]


def status_text(status: RoomStatus) -> str:
    return _tr("in play") if status is RoomStatus.PLAYING else _tr("open")


_LOCK: list[QIcon] = []


def lock_icon() -> QIcon:
    """A small padlock, painted (no emoji font is needed): the mark of a private room."""
    if not _LOCK:
        pixmap = QPixmap(32, 32)
        pixmap.fill(QColor(0, 0, 0, 0))
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#e7c46d"), 4))
        painter.drawArc(9, 3, 14, 18, 0, 180 * 16)
        painter.drawLine(9, 12, 9, 15)
        painter.drawLine(23, 12, 23, 15)
        painter.setPen(QPen(QColor("#e7c46d"), 1))
        painter.setBrush(QColor("#e7c46d"))
        painter.drawRoundedRect(5, 14, 22, 16, 3, 3)
        painter.setBrush(QColor("#1a130f"))
        painter.drawEllipse(14, 18, 4, 4)
        painter.end()
        _LOCK.append(QIcon(pixmap))
    return _LOCK[0]


SAME_TITLE_MARK: Final = "⚠"


class RoomListModel(QAbstractTableModel):
    """The rooms heard of, in the order they appeared: title (a lock for a private room),
    host with its fingerprint, settings, state. A room in play is listed but greyed and cannot
    be selected. A title held by more than one host (:func:`~koikoi.net.discovery.titles.same_host`:
    the real room and a spoof, or two players who chose one title) marks each of its rooms,
    in the title and in words, so the player compares the fingerprints."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rooms: list[Room] = []
        self._contested: set[str] = set()
        """Names of the rooms whose title another host's room has too."""

    # --- changes -------------------------------------------------------------------------

    def put(self, room: Room) -> None:
        """Add ``room``, or replace the one with its name."""
        for row, old in enumerate(self._rooms):
            if old.name == room.name:
                self._rooms[row] = room
                last = self.columnCount() - 1
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))
                self._mark(old.title, room.title)
                return
        row = len(self._rooms)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rooms.append(room)
        self.endInsertRows()
        self._mark(room.title)

    def drop(self, name: str) -> None:
        for row, old in enumerate(self._rooms):
            if old.name == name:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rooms[row]
                self.endRemoveRows()
                self._contested.discard(name)
                self._mark(old.title)
                return

    def clear(self) -> None:
        self.beginResetModel()
        self._rooms = []
        self._contested = set()
        self.endResetModel()

    def _mark(self, *titles: str) -> None:
        """Mark (or unmark) the rooms of ``titles``: marked when rooms of one title come from
        more than one host."""
        for title in {t.casefold() for t in titles}:
            rows = [row for row, r in enumerate(self._rooms) if r.title.casefold() == title]
            hosts: list[Room] = []
            for row in rows:
                if not any(same_host(self._rooms[row], other) for other in hosts):
                    hosts.append(self._rooms[row])
            contested = len(hosts) > 1
            for row in rows:
                name = self._rooms[row].name
                if (name in self._contested) != contested:
                    if contested:
                        self._contested.add(name)
                    else:
                        self._contested.discard(name)
                    last = self.columnCount() - 1
                    self.dataChanged.emit(self.index(row, 0), self.index(row, last))

    def any_contested(self) -> bool:
        return bool(self._contested)

    def contested(self, room: Room) -> bool:
        """Whether another host's room has the title of ``room``."""
        return room.name in self._contested

    # --- reading -------------------------------------------------------------------------

    def rooms(self) -> list[Room]:
        return list(self._rooms)

    def room_at(self, row: int) -> Room | None:
        return self._rooms[row] if 0 <= row < len(self._rooms) else None

    def row_of(self, name: str) -> int:
        return next((row for row, room in enumerate(self._rooms) if room.name == name), -1)

    # --- Qt's model ----------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rooms)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation is Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(COLUMNS)
        ):
            # written out, so that the translation tools see each one
            return (_tr("Room"), _tr("Host"), _tr("Settings"), _tr("State"))[section]
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        room = self.room_at(index.row()) if index.isValid() else None
        if room is None:
            return Qt.ItemFlag.NoItemFlags
        if room.status is RoomStatus.PLAYING:
            return Qt.ItemFlag.NoItemFlags  # greyed: nobody can join a match in play
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        room = self.room_at(index.row()) if index.isValid() else None
        if room is None:
            return None
        column = index.column()
        if role == ROOM_ROLE:
            return room
        if role == Qt.ItemDataRole.DisplayRole:
            text = self._text(room, column)
            return f"{SAME_TITLE_MARK} {text}" if column == 0 and self.contested(room) else text
        if role == Qt.ItemDataRole.DecorationRole and column == 0 and room.private:
            return lock_icon()
        if role == Qt.ItemDataRole.AccessibleTextRole and column > 0:
            return self._text(room, column)  # the row is said once, by its first cell
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return self.describe(room, contested=self.contested(room))
        if role == Qt.ItemDataRole.ForegroundRole and column == 0 and self.contested(room):
            return QColor("#ffb347")
        if role == Qt.ItemDataRole.ForegroundRole and room.status is RoomStatus.PLAYING:
            return QColor("#8a7f76")
        return None

    @staticmethod
    def _text(room: Room, column: int) -> str:
        if column == 0:
            return room.title or _tr("(untitled)")
        if column == 1:
            if room.host is None:
                return _tr("(private)") if room.private else "—"
            return room.host + (f" · {room.fingerprint}" if room.fingerprint else "")
        if column == 2:
            seed = seed_text(room)
            words = settings_text(room.rounds, room.doubling) + " · " + clock_text(room.clock)
            return words + (f" · {seed}" if seed else "")
        return status_text(room.status)

    @staticmethod
    def describe(room: Room, contested: bool = False) -> str:
        """One line for a screen reader or a tooltip (``contested``: another host's room
        has this title)."""
        parts = [room.title or _tr("(untitled)")]
        if contested:
            parts.append(
                _tr("⚠ same title as another room, from another host: compare the fingerprints")
            )
        if room.host:
            parts.append(_tr("host {0}").format(room.host))
        if room.fingerprint:
            parts.append(_tr("fingerprint {0}").format(room.fingerprint))
        parts.append(settings_text(room.rounds, room.doubling))
        parts.append(clock_text(room.clock))
        if room.private:
            parts.append(_tr("private: a password is needed"))
        if seed_text(room):
            parts.append(seed_text(room))
        parts.append(status_text(room.status))
        return ", ".join(parts)


BATCH: Final = 24
"""Reports handled per turn of the UI thread's event loop (a flood is spread over turns)."""


class _Relay(QObject):
    """Lives on the UI thread. The browser's thread puts reports in a queue and wakes it
    (one queued signal while the queue is not empty), so a flood of rooms is one wake-up,
    not a thousand posted events handled in one turn of the loop."""

    wake = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._queue: deque[DiscoveryEvent] = deque()

    def put(self, event: DiscoveryEvent) -> None:
        """From any thread."""
        with self._lock:
            self._queue.append(event)
            first = len(self._queue) == 1
        if first:
            self.wake.emit()

    def take(self, most: int) -> tuple[list[DiscoveryEvent], bool]:
        """Up to ``most`` reports, and whether more are waiting."""
        with self._lock:
            taken = [self._queue.popleft() for _ in range(min(most, len(self._queue)))]
            return taken, bool(self._queue)


_RETIRED: list[_Relay] = []


class RoomFinder(QObject):
    """Browses for rooms while started; :attr:`model` holds them.

    ``failed(str)``: mDNS does not work here (the list stays empty, joining by address still
    works). ``changed()``: the list changed (after the model).
    """

    failed = Signal(str)
    changed = Signal()

    def __init__(self, bind: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bind = bind if bind is not None else mdns_bind()
        self.model = RoomListModel(self)
        self.failure: str | None = None
        self.pinned: frozenset[str] = frozenset()
        """The pinned peers' fingerprints: their rooms are looked up first (a hint)."""
        self._browser: RoomBrowser | None = None
        self._relay: _Relay | None = None
        self.stopping: threading.Thread | None = None
        """The thread stopping the last browser, for tests to wait on."""

    @property
    def running(self) -> bool:
        return self._browser is not None

    @property
    def listening(self) -> bool:
        """Browsing has started: a room announced from now on is heard (or it failed)."""
        browser = self._browser
        return browser is not None and browser.ready.is_set()

    def start(self) -> None:
        """Start browsing (returns at once: zeroconf starts on its own thread)."""
        if self._browser is not None:
            return
        self.failure = None
        self.model.clear()
        relay = _Relay()  # no parent: the browser's callback keeps it alive, not the finder
        relay.wake.connect(self._drain, Qt.ConnectionType.QueuedConnection)
        self._relay = relay
        browser = RoomBrowser(relay.put, bind=self.bind, pinned=self.pinned)
        self._browser = browser
        browser.start()

    def set_pinned(self, pinned: frozenset[str]) -> None:
        """From any thread (the lobby loads the pins on a worker)."""
        self.pinned = pinned
        browser = self._browser
        if browser is not None:
            browser.set_pinned(pinned)

    def stop(self) -> None:
        """Stop browsing; the browser's thread is stopped on another thread (it may wait)."""
        browser, self._browser = self._browser, None
        relay, self._relay = self._relay, None
        if relay is not None:
            relay.wake.disconnect(self._drain)
            # kept for good: the browser's thread may hold the last reference to it for a
            # moment, and a QObject must not be freed on a thread that does not own it
            _RETIRED.append(relay)
        if browser is None:
            return
        browser.on_event = None
        self.stopping = threading.Thread(target=browser.stop, name="koikoi-browser-stop")
        self.stopping.daemon = True
        self.stopping.start()

    def _drain(self) -> None:
        relay = self._relay
        if relay is None or self._browser is None:
            return
        events, more = relay.take(BATCH)
        changed = False
        for event in events:
            if isinstance(event, (RoomAdded, RoomChanged)):
                self.model.put(event.room)
                changed = True
            elif isinstance(event, RoomRemoved):
                self.model.drop(event.name)
                changed = True
            elif isinstance(event, BrowseFailed):
                self.failure = event.reason
                emit(self.failed, event.reason)
        if more:  # the rest on the next turn of the loop (not at all once the finder is gone)
            QTimer.singleShot(0, self, self._drain)
        if changed:
            emit(self.changed)


class _Outcomes(QObject):
    """Lives on the UI thread for good: workers report through it, and never hold (so never
    free) a QObject of their own. A worker holds only a weak reference to its announcer, so
    a window closed while its room is still being announced is not touched when the
    announcement ends; nor is the announcer freed on the worker's thread."""

    done = Signal(object, str)
    """``(weakref to the RoomAnnouncer, reason)``: an empty reason for published."""

    def __init__(self) -> None:
        super().__init__()
        self.done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def _deliver(self, ref: weakref.ReferenceType[RoomAnnouncer], reason: str) -> None:
        announcer = ref()
        if announcer is not None and shiboken6.isValid(announcer):
            announcer._on_done(reason)


_OUTCOMES: list[_Outcomes] = []


def _outcomes() -> _Outcomes:
    """The one relay of outcomes, made on the UI thread (the first announcer's)."""
    if not _OUTCOMES:
        _OUTCOMES.append(_Outcomes())
    return _OUTCOMES[0]


class RoomAnnouncer(QObject):
    """Advertises one room by mDNS while it is open; every wait on a worker thread.

    ``published()`` once the room is announced; ``failed(str)`` when mDNS cannot announce it
    (the room still works by address).
    """

    published = Signal()
    failed = Signal(str)

    def __init__(
        self,
        ad: Advertisement,
        *,
        bind: str | None = None,
        addresses: list[str] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.bind = bind if bind is not None else mdns_bind()
        self.advertiser = RoomAdvertiser(ad, bind=self.bind, addresses=addresses)
        self.state = "new"
        """new → publishing → published | failed → withdrawn."""
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="koikoi-announce")
        """One worker, so a withdrawal always comes after the publication it undoes."""
        self._outcomes = _outcomes()

    def publish(self) -> None:
        if self.state != "new":
            return
        self.state = "publishing"
        outcomes = self._outcomes
        advertiser = self.advertiser
        me = weakref.ref(self)

        def run() -> None:
            try:
                advertiser.publish()
            except DiscoveryError as error:
                outcomes.done.emit(me, str(error))
            except Exception as error:  # never into the thread's void
                logger.debug("advertising the room failed", exc_info=True)
                outcomes.done.emit(me, f"mDNS cannot announce the room: {error!r}")
            else:
                outcomes.done.emit(me, "")

        self._worker.submit(run)

    def set_status(self, status: RoomStatus) -> None:
        """Open or playing (does not wait)."""
        self.advertiser.set_status(status)

    def withdraw(self) -> None:
        """Say goodbye and stop, on a worker thread."""
        if self.state == "withdrawn":
            return
        self.state = "withdrawn"
        self._worker.submit(self.advertiser.withdraw)
        self._worker.shutdown(wait=False)

    def wait(self) -> None:
        """Wait until the worker is done (tests, and the app on its way out)."""
        self._worker.shutdown(wait=True)

    def _on_done(self, reason: str) -> None:
        if self.state != "publishing":
            return
        if reason:
            self.state = "failed"
            emit(self.failed, reason)
        else:
            self.state = "published"
            emit(self.published)


__all__ = [
    "BIND_ENV",
    "ROOM_ROLE",
    "RoomAnnouncer",
    "RoomFinder",
    "RoomListModel",
    "mdns_bind",
    "settings_text",
    "status_text",
]
