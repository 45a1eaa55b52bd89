"""Network play driven from Qt's own event loop: the host's room and the joiner, as QObjects.

The protocol is the sans-I/O :class:`~koikoi.net.connection.Connection`; who a room lets in
is the sans-I/O :class:`~koikoi.net.room.RoomPolicy`. This module only moves bytes between
them and ``QTcpSocket``, keeps time with one single-shot ``QTimer`` per connection (re-armed
at ``Connection.next_timer()``), and hands what happened to the owner as signals:

- ``established(PeerInfo)``: the handshake is done (nickname, fingerprint, pin); the four
  cards are drawn;
- ``cards_shown(CardsShown)``: the four cards (``event.cards``) are to be compared and
  confirmed (:meth:`PeerLink.confirm_sas`); nobody knows who deals first yet (version 4;
  a version-2 session tossed first: ``event.result.first_oya``);
- ``tossed(TossDone)``: both players confirmed the four cards, the coin is tossed
  (``event.result.first_oya``) and the first deal is laid out;
- ``dealt(DealLaidOut)``: private dealing only: the next deal is dealt and laid out (with the
  joint seed a deal comes in the ``moved`` of the move that ended the deal before it);
- ``moved(MovePlayed)``: a move went into the log, the opponent's or the local seat's
  (``event.seat`` says whose; the local seat's come from :meth:`PeerLink.play`);
- ``local_turn(Observation)``: the local seat is to move; answer with :meth:`PeerLink.play`;
- ``out_of_time(OutOfTime)``: the local seat's move clock ran out: play
  ``session.automatic_action(choose)`` for it now (and say so);
- ``peer_overdue(PeerOverdue)``: the peer sent no move for the abandon time (heartbeats do
  not count): the player may end the match with :meth:`PeerLink.abandon`;
- ``ended(Ending)``: the session is over; ``ending.reason`` is one line, ``finished`` says
  whether the match was played out (privately dealt, a finished match's ``ending.audit``
  says how its last deal's audit went: it comes once the peer's last seed is in, or its
  wait ran out; the result came with the last move);
- ``failed(LinkError)``: there never was a session (cannot connect, the handshake failed);
- ``closed()``: the socket is closed and the link is done (after ``ended`` or ``failed``).

Signals come from a zero-delay timer, never from inside a socket's signal, so a slot may
call :meth:`PeerLink.play` or :meth:`PeerLink.leave`, or even run a dialog's event loop.

Nothing here blocks: connecting resolves host names in Qt's own lookup thread, writes are
buffered by Qt, and a socket is closed by a half-close and a short wait for the peer's end
(so a farewell is read before the kernel could reset it). Whatever a peer sends, no
exception reaches Qt: the link logs it at debug level and ends with a reason.

Everything runs on the thread that owns the link (the UI thread): the heaviest step, a
password room's SPAKE2, takes about 10 ms a side, and the UI thread is never busy for more
than about 20 ms at once through a whole handshake (docs/benchmarks.md, "The window on the
network"), well under the 50 ms that would call for a worker thread.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import math
import socket
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtNetwork import (
    QAbstractSocket,
    QHostAddress,
    QNetworkInterface,
    QTcpServer,
    QTcpSocket,
)

from koikoi.engine.match import Settings
from koikoi.engine.round import Action
from koikoi.net.address import format_address, parse_address
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone, HandshakeFailed
from koikoi.net.errors import (
    AuthenticationFailed,
    BadSignature,
    DealingRefused,
    IdentityChanged,
    PeerRefused,
    ProtocolError,
    RoomMismatch,
    SettingsMismatch,
    VersionMismatch,
)
from koikoi.net.handshake import PRIVATE_ONLY, SEED_ONLY, WITH_SEED, Phase, refuse_message
from koikoi.net.identity import PinStatus
from koikoi.net.policy import (
    CLOSE_GRACE,
    REFUSE_GRACE,
    GoodbyeWait,
    RedialSchedule,
    Verdict,
    may_resume,
    redial_verdict,
    resumable_after,
)
from koikoi.net.resume import Resumed, Suspended, expire
from koikoi.net.roles import Role
from koikoi.net.room import MAX_PENDING, Refusal, RoomPolicy, Ticket, address_host
from koikoi.net.session import (
    CardsShown,
    DealLaidOut,
    Ended,
    MoveClock,
    MovePlayed,
    OutOfTime,
    PeerOverdue,
    Session,
    TossDone,
)
from koikoi.net.transport import PeerOptions
from koikoi.net.wire import encode_frame
from koikoi.ui.neterrors import TurnedAway, connect_failure
from koikoi.ui.signals import emit

logger = logging.getLogger(__name__)

__all__ = [
    "APP_DEALINGS",
    "LinkError",
    "LinkStage",
    "PeerInfo",
    "PeerLink",
    "PeerOptions",
    "QtJoin",
    "QtRoom",
    "SEED_ONLY",
    "WITH_SEED",
    "format_address",
    "parse_address",
]

ACCEPT_BATCH: Final = 30
"""Connections a room accepts in one turn of the event loop (the rest wait in the kernel)."""
APP_DEALINGS: Final = PRIVATE_ONLY
"""The dealing kinds the app offers by default (``PeerOptions.dealings``, docs/protocol.md
"Version 4"): private dealing only. A peer that offers only the joint seed is refused before
any card is dealt (``LinkError`` ``dealing``), and a room announced as version 2 (mDNS ``v``)
is not dialled. ``WITH_SEED`` where the player allowed the seed, ``SEED_ONLY`` to play a
koikoi-net/2 host (:mod:`koikoi.net.handshake`)."""


RESTARTED: Final = "restarted from the record"
"""Why a match restored from its record waits (``Suspended.reason``), as the CLI says it."""


def _now() -> float:
    return time.monotonic()


class LinkStage(enum.Enum):
    """Where a :class:`PeerLink` is; only the link moves it on."""

    NEW = "new"
    CONNECTING = "connecting"
    """A joiner dialling."""
    OPEN = "open"
    """The socket carries the connection."""
    CLOSING = "closing"
    """Half-closed, waiting for the peer's end (at most the close grace)."""
    SUSPENDED = "suspended"
    """The connection dropped mid-match: the session waits for another one."""
    DONE = "done"
    """The socket is closed; nothing more is emitted."""


class Timer(Protocol):
    """A single-shot timer, as :class:`QTimer` is one: ``start`` (re)arms it."""

    def start(self, msec: int) -> None: ...

    def stop(self) -> None: ...


TimerFactory = Callable[[QObject, Callable[[], None]], Timer]
"""Makes a single-shot timer owned by its first argument that calls the second when it
fires: :func:`qt_timer`, or a test's stepped clock's."""


def qt_timer(parent: QObject, slot: Callable[[], None]) -> Timer:
    """A precise single-shot :class:`QTimer` (the real clock's)."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(slot)
    return timer


# --- what the owner is told ------------------------------------------------------------------


@dataclass(frozen=True)
class PeerInfo:
    """Who is at the other end, as the handshake proved it."""

    nickname: str
    fingerprint: str
    pin: PinStatus
    """``NEW`` (pinned now, first meeting) or ``KNOWN``; a changed key never gets this far."""
    settings: Settings
    private: bool
    address: str
    mixed_scripts: bool = False
    """The nickname mixes scripts (``h\u0430na``, a Cyrillic ``а``): show it as such."""
    resembles: tuple[str, ...] = ()
    """Pinned names it looks like but is not (for a new peer: a likely impostor)."""
    toss_aborts: int = 0
    """Coin tosses this (known) peer abandoned after seeing the result, as its pin counts."""
    dealing: str = "seed"
    """How the match deals, as the hellos agreed: ``private`` or ``seed`` (the joint seed)."""


@dataclass(frozen=True)
class LinkError:
    """Why a link has no session; ``str()`` and :attr:`text` are one line for the user.

    ``kind`` names the failure for the window to word it: ``address`` (not HOST:PORT),
    ``connect`` (nobody answered), ``auth`` (wrong password or tampering), ``settings``
    (``error.differs`` names them), ``room`` (password given to an open room or none to a
    private one), ``identity`` (a pinned key changed: ``error`` is the
    :class:`~koikoi.net.errors.IdentityChanged`), ``signature``, ``version``, ``refused`` (the
    peer said no: ``error.code``, e.g. ``busy``), ``busy`` (this room turned it away),
    ``dealing`` (no dealing both sides allow: ``error.why`` is ``seed`` when the peer offers
    only the joint seed, ``private`` when it deals privately only), ``protocol`` (malformed
    or unexpected bytes), ``left`` (this side gave up), ``dropped``
    (this room dropped a pending handshake: evicted by newer ones, or too slow) or
    ``internal`` (a bug here).
    """

    kind: str
    text: str
    address: str = ""
    error: Exception | None = None

    def __post_init__(self) -> None:
        # The error's traceback holds the frames it was raised through, and with them the
        # link that ran them: a cycle only Python's collector frees, on whichever thread it
        # runs (a zeroconf one), deleting the link's socket and timers there. Keep the error,
        # drop its frames.
        seen: set[int] = set()
        error: BaseException | None = self.error
        while error is not None and id(error) not in seen:
            seen.add(id(error))
            error.__traceback__ = None
            error = error.__cause__ or error.__context__

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def from_protocol(error: ProtocolError, address: str) -> LinkError:
        kinds: tuple[tuple[type[ProtocolError], str], ...] = (
            (AuthenticationFailed, "auth"),
            (SettingsMismatch, "settings"),
            (RoomMismatch, "room"),
            (IdentityChanged, "identity"),
            (BadSignature, "signature"),
            (VersionMismatch, "version"),
            (PeerRefused, "refused"),
            (DealingRefused, "dealing"),
        )
        kind = next((name for cls, name in kinds if isinstance(error, cls)), "protocol")
        if str(error).startswith("the handshake was abandoned"):
            kind = "left"
        return LinkError(kind, str(error), address, error)


# --- one connection --------------------------------------------------------------------------


class PeerLink(QObject):
    """One socket and its :class:`Connection`, driven by Qt's event loop.

    A room makes one per accepted connection; :class:`QtJoin` is one that dials out. The
    link owns the socket and closes it itself.
    """

    established = Signal(object)
    cards_shown = Signal(object)
    tossed = Signal(object)
    moved = Signal(object)
    dealt = Signal(object)
    local_turn = Signal(object)
    out_of_time = Signal(object)
    peer_overdue = Signal(object)
    ended = Signal(object)
    failed = Signal(object)
    closed = Signal()
    suspended = Signal(float)
    """The connection dropped mid-match: the seconds left to resume it (docs/protocol.md,
    "Resume"); the match goes on after ``resumed``, or ends (``ended``) when time runs out."""
    resumed = Signal(int)
    """A new connection carries the match on; how many log entries went to the peer again."""

    def __init__(
        self,
        options: PeerOptions,
        role: Role,
        parent: QObject | None = None,
        *,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
    ) -> None:
        super().__init__(parent)
        self.now = now
        """The clock (monotonic seconds): a test steps its own."""
        self.make_timer = timer
        """Makes the link's timers (heartbeats, deadlines, close grace, redials)."""
        self.options = options
        self.role = role
        self.connection: Connection | None = None
        self.socket: QTcpSocket | None = None
        self.address = ""
        self.peer: PeerInfo | None = None
        self.failure: LinkError | None = None
        self.bytes_sent = 0
        self.bytes_received = 0
        self.times: dict[str, float] = {}
        """Monotonic times: ``connect``, ``connected``, ``established``, ``cards`` (the toss
        over), ``first_deal``, ``ended``, ``closed``."""
        self.on_handshake: Callable[[PeerLink], None] | None = None
        """Called as the handshake succeeds, before any signal (the room's policy)."""
        self.on_receive: Callable[[PeerLink], None] | None = None
        """Called whenever bytes arrive (the room's policy)."""
        self._timer = timer(self, self._on_timer)
        self._deliver_timer = QTimer(self)
        self._deliver_timer.setSingleShot(True)
        self._deliver_timer.timeout.connect(self._deliver)
        self._queue: deque[ConnectionEvent] = deque()
        self._pumping = False
        self._goodbye = GoodbyeWait()
        self._announced: int | None = None
        self._stage = LinkStage.NEW
        """NEW → CONNECTING (joiner) → OPEN → CLOSING → DONE, or OPEN → SUSPENDED → OPEN."""
        self._crashing = False
        self.held: Session | None = None
        """The suspended session, while no connection carries it (see :meth:`session`)."""
        self.suspension: Suspended | None = None
        """How and until when the match was suspended (the last time)."""
        self.on_resumed: Callable[[PeerLink], None] | None = None
        """Called as a new connection resumes the match, before any signal (the room)."""
        self.on_event: Callable[[ConnectionEvent], None] | None = None
        """Called with every event as it is handed out, before its signal (the room's
        resume admission, :func:`~koikoi.net.policy.resumable_after`)."""

    # --- what the owner reads and does ----------------------------------------------------

    @property
    def session(self) -> Session | None:
        conn = self.connection
        if conn is not None and conn.session is not None:
            return conn.session
        return self.held

    @property
    def stage(self) -> LinkStage:
        """Where the link is (it alone moves it on)."""
        return self._stage

    @property
    def is_suspended(self) -> bool:
        """The match waits for a new connection (the joiner redials, the room listens)."""
        return self._stage == LinkStage.SUSPENDED

    def hold(self, session: Session, suspension: Suspended) -> None:
        """A new link takes ``session``, restored from its record, suspended: it waits for a
        connection that resumes it (:meth:`QtRoom.adopt`)."""
        if self._stage != LinkStage.NEW:
            raise ValueError("this link has already been used")
        self.held = session
        self.suspension = suspension
        self._stage = LinkStage.SUSPENDED

    @property
    def done(self) -> bool:
        """The socket is closed and nothing more will be emitted."""
        return self._stage == LinkStage.DONE

    def play(self, action: Action) -> None:
        """The local seat's move, when :attr:`local_turn` was announced.

        Raises :class:`ValueError` when it is not the local seat's move and
        :class:`~koikoi.engine.round.IllegalAction` for an illegal one: mistakes of the
        caller, not of the peer (nothing is sent).
        """
        conn = self.connection
        if conn is None or conn.local_turn is None:
            raise ValueError("it is not this seat's move")
        self._process(conn.play(action, self.now()))

    def confirm_sas(self, same: bool = True) -> None:
        """The local player compared the four cards (``cards_shown``) with the peer's screen.

        With the options' ``hold_for_confirmation``, the first deal waits for this: ``same``
        lets it come (``tossed`` once the peer confirmed too); not ``same`` ends the session
        (``ended``, ``how`` = ``cards``) and the peer is told. Before the cards are shown,
        ``same`` stands for them (a rematch with a key already compared). Nothing before the
        handshake or after the end.
        """
        if self._stage == LinkStage.OPEN and self.session is not None:
            self._guarded(lambda conn: conn.confirm(self.now(), same))

    def clock(self) -> MoveClock | None:
        """The move clock now (whose, seconds left, seconds waited); None outside play."""
        session = self.session
        return None if session is None else session.clock(self.now())

    def abandon(self) -> None:
        """End the match as abandoned by the peer, after ``peer_overdue``: the peer is told,
        ``ended`` follows (``how`` = ``abandoned``). Raises :class:`ValueError` before the
        peer's time is up."""
        clock = self.clock()
        if self._stage != LinkStage.OPEN or clock is None or clock.local or not clock.overdue:
            raise ValueError("the peer is not overdue")
        self._guarded(lambda conn: conn.abandon(self.now()))

    def leave(self, reason: str = "the player left") -> None:
        """Leave: the peer is told, the match ends unfinished (or the handshake is dropped)."""
        if self._stage == LinkStage.CONNECTING:
            self._give_up(LinkError("left", f"gave up connecting to {self.address}", self.address))
        elif self._stage == LinkStage.OPEN and self.connection is not None:
            self._guarded(lambda conn: conn.leave(self.now(), reason))
        elif self._stage == LinkStage.SUSPENDED and self.held is not None:
            self._enqueue(self.held.leave(self.now(), reason))
            self.held = None
            self._deliver()
            self._finish()

    # --- set-up --------------------------------------------------------------------------

    def attach(self, sock: QTcpSocket, connection: Connection) -> None:
        """Drive ``connection`` over the connected ``sock`` (the link becomes its parent)."""
        self.times.setdefault("connected", self.now())
        self.connection = connection
        self._goodbye = GoodbyeWait()  # a new connection waits for its own goodbye
        self._wire(sock)
        self._stage = LinkStage.OPEN
        self._process([])
        # a room's socket may have read, or seen the end, while it waited to be taken
        if sock.state() is not QAbstractSocket.SocketState.ConnectedState:
            self._lost("")
        elif sock.bytesAvailable():
            self._on_ready_read()

    def drop(self) -> None:
        """Close at once, saying nothing (the room dropped this pending handshake)."""
        self._finish()

    def turn_away(self, frame: bytes) -> None:
        """A pending handshake is refused: send ``frame`` (a clear ``refuse``) and close."""
        if self._stage == LinkStage.OPEN:
            self._write(frame)
            self._start_closing(REFUSE_GRACE)

    def refuse(self, sock: QTcpSocket, frame: bytes) -> None:
        """Send ``frame`` (a refusal) on ``sock`` and close it, with no connection at all."""
        self._wire(sock)
        self._stage = LinkStage.OPEN
        self._write(frame)
        self._start_closing(REFUSE_GRACE)

    def _wire(self, sock: QTcpSocket) -> None:
        self.socket = sock
        sock.setParent(self)
        if not self.address:
            self.address = format_address(_peer_host(sock), sock.peerPort())
        sock.readyRead.connect(self._on_ready_read)
        sock.disconnected.connect(self._on_disconnected)
        sock.errorOccurred.connect(self._on_error)
        sock.bytesWritten.connect(self._on_bytes_written)

    # --- Qt's slots: every one guarded ---------------------------------------------------

    def _on_ready_read(self) -> None:
        sock = self.socket
        if sock is None:
            return
        data = bytes(sock.readAll().data())
        if not data or self._stage != LinkStage.OPEN:
            return  # closing: the peer's last bytes are read only to let it close cleanly
        self.bytes_received += len(data)
        if self.on_receive is not None:
            self.on_receive(self)
        self._guarded(lambda conn: conn.receive_data(data, self.now()))

    def _on_disconnected(self) -> None:
        self._lost("")

    def _on_error(self, error: QAbstractSocket.SocketError) -> None:
        sock = self.socket
        if error is QAbstractSocket.SocketError.RemoteHostClosedError or sock is None:
            detail = ""
        else:
            detail = _lower_first(sock.errorString())
        if self._stage == LinkStage.CONNECTING:
            text = f"cannot connect to {self.address}: {detail}"
            self._give_up(LinkError("connect", text, self.address, connect_failure(error, text)))
            return
        self._lost(detail)

    def _on_bytes_written(self, _count: int) -> None:
        if self._stage == LinkStage.CLOSING and not self._half_closed:
            self._half_close()

    def _on_timer(self) -> None:
        if self._stage == LinkStage.CONNECTING:
            seconds = self.options.silence_timeout
            text = f"cannot connect to {self.address}: no answer within {seconds:g} s"
            failure = connect_failure(None, text, seconds)
            self._give_up(LinkError("connect", text, self.address, failure))
        elif self._stage == LinkStage.CLOSING:
            self._finish()
        elif self._stage == LinkStage.OPEN:
            self._guarded(lambda conn: conn.tick(self.now()))

    def _lost(self, detail: str) -> None:
        if self._stage == LinkStage.CLOSING:
            self._finish()
        elif self._stage == LinkStage.OPEN:
            sock = self.socket
            if sock is not None and sock.bytesAvailable():  # the peer's last words first
                self._on_ready_read()
            self._guarded(lambda conn: conn.connection_lost(self.now(), detail))
            if self.stage is LinkStage.CLOSING:  # the socket is gone: nothing left to wait for
                self._finish()

    def _guarded(self, step: Callable[[Connection], list[ConnectionEvent]]) -> None:
        """Run one input of the connection; a failure here ends the link, never reaches Qt."""
        conn = self.connection
        if conn is None:
            return
        try:
            self._process(step(conn))
        except Exception as error:
            self._crash(error)

    # --- the pump ------------------------------------------------------------------------

    def _process(self, events: Sequence[ConnectionEvent]) -> None:
        """Send what the connection has, keep its timer, and hand ``events`` out soon.

        The owner hears of them from a zero-delay timer, never from inside a socket's
        signal: Qt does not emit ``readyRead`` again while its slot runs, so a slot that ran
        an event loop (a modal dialog) there would starve the connection. So bytes and
        heartbeats go on whatever the owner's slots do, and a slot may call :meth:`play` or
        :meth:`leave`: their events join the queue being handed out.
        """
        self._queue.extend(events)
        self._record(events)
        self._flush()
        conn = self.connection
        if self._stage == LinkStage.OPEN and conn is not None and not conn.closed:
            self._arm_timer(conn)
        if self._queue or self._turn_due():
            self._deliver_timer.start(0)
        else:
            self._settle()

    def _enqueue(self, events: Sequence[ConnectionEvent]) -> None:
        """Events of a session no connection holds (it left or expired while suspended)."""
        self._queue.extend(events)
        self._record(events)

    def _record(self, events: Sequence[ConnectionEvent]) -> None:
        """The options' ``on_record`` when the record is due (:mod:`koikoi.net.policy`),
        before the entry is sent: a crash after this loses nothing the peer may hold. A
        failed write goes to the options' ``on_record_failed`` (once); the match goes on."""
        self.options.record(self.session, events)

    def _deliver(self) -> None:
        if self._pumping:
            return  # a slot is running an event loop: the loop below goes on after it
        self._pumping = True
        try:
            while True:
                while self._queue:
                    self._dispatch(self._queue.popleft())
                if not self._announce_turn() and not self._queue:
                    break
        except Exception as error:
            self._pumping = False
            self._crash(error)
            return
        finally:
            self._pumping = False
        self._flush()
        self._settle()

    def _dispatch(self, event: ConnectionEvent) -> None:
        now = self.now()
        if self.on_event is not None:
            self.on_event(event)
        if isinstance(event, HandshakeDone):
            self.times["established"] = now
            est = event.established
            self.peer = PeerInfo(
                est.peer.nickname,
                est.peer.fingerprint,
                est.pin.status,
                est.settings,
                est.private,
                self.address,
                est.peer.mixed_scripts,
                est.pin.resembles,
                est.pin.toss_aborts,
                est.dealing,
            )
            if self.on_handshake is not None:
                self.on_handshake(self)
            emit(self.established, self.peer)
        elif isinstance(event, HandshakeFailed):
            self.times["ended"] = now
            self.failure = LinkError.from_protocol(event.error, self.address)
            emit(self.failed, self.failure)
        elif isinstance(event, CardsShown):
            self.times["cards"] = now
            emit(self.cards_shown, event)
        elif isinstance(event, TossDone):
            self.times["first_deal"] = now
            emit(self.tossed, event)
        elif isinstance(event, MovePlayed):
            emit(self.moved, event)
        elif isinstance(event, DealLaidOut):
            emit(self.dealt, event)
        elif isinstance(event, OutOfTime):
            emit(self.out_of_time, event)
        elif isinstance(event, PeerOverdue):
            emit(self.peer_overdue, event)
        elif isinstance(event, Ended):
            self.times["ended"] = now
            emit(self.ended, event.ending)
        elif isinstance(event, Suspended):
            emit(self.suspended, max(0.0, event.deadline - now))
        elif isinstance(event, Resumed):
            self.held = None
            self._announced = None
            if self.on_resumed is not None:
                self.on_resumed(self)
            emit(self.resumed, event.resent)

    def _turn_due(self) -> bool:
        """The local seat is to move and has not been told yet."""
        conn = self.connection
        if conn is None or conn.session is None or conn.session.lockstep is None:
            return False
        return conn.local_turn is not None and self._announced != conn.session.lockstep.seq

    def _announce_turn(self) -> bool:
        conn = self.connection
        if not self._turn_due() or conn is None or conn.session is None:
            return False
        observation = conn.local_turn
        assert observation is not None and conn.session.lockstep is not None
        self._announced = conn.session.lockstep.seq
        emit(self.local_turn, observation)
        return True

    def _flush(self) -> None:
        conn = self.connection
        if conn is not None and self._stage == LinkStage.OPEN:
            self._write(conn.data_to_send())

    def _write(self, data: bytes) -> None:
        sock = self.socket
        if data and sock is not None and sock.state() is QAbstractSocket.SocketState.ConnectedState:
            sock.write(data)
            self.bytes_sent += len(data)

    def _settle(self) -> None:
        """Close once the connection is closed and the owner has heard everything."""
        conn = self.connection
        if self._stage != LinkStage.OPEN or conn is None or self._pumping or self._queue:
            return
        if conn.suspended is not None:
            self._go_suspended(conn)
        elif conn.closed:
            now = self.now()
            wait = self._goodbye
            if wait.close_now(closed=True, awaiting_goodbye=conn.awaiting_goodbye, now=now):
                self._start_closing(CLOSE_GRACE)
            elif wait.by is not None:  # read on for the peer's goodbye (a drop suspends)
                self._timer.start(max(0, math.ceil((wait.by - now) * 1000)))
                sock = self.socket
                if sock is not None and sock.bytesToWrite():
                    sock.flush()  # everything is said: to the kernel now, as a close does

    def _go_suspended(self, conn: Connection) -> None:
        """The connection is gone but the match waits: drop the socket, keep the session."""
        self.held = conn.session
        self.suspension = conn.suspended
        self._stage = LinkStage.SUSPENDED
        self._timer.stop()
        sock, self.socket = self.socket, None
        if sock is not None:
            sock.abort()
            sock.deleteLater()

    def expire(self) -> None:
        """The resume window passed: the suspended match ends as without resume."""
        session, suspended = self.held, self.suspension
        if self._stage != LinkStage.SUSPENDED or session is None:
            return
        if suspended is not None:
            self._enqueue(expire(session, suspended, self.now()))
        self.held = None
        self._deliver()
        self._finish()

    def _arm_timer(self, conn: Connection) -> None:
        deadline = conn.next_timer()
        if deadline is None:
            self._timer.stop()
        else:
            self._timer.start(max(0, math.ceil((deadline - self.now()) * 1000)))

    # --- closing -------------------------------------------------------------------------

    _half_closed = False

    def _start_closing(self, grace: float) -> None:
        """Everything is said: let Qt write it, half-close, wait for the peer's end."""
        self._stage = LinkStage.CLOSING
        sock = self.socket
        if sock is None or sock.state() is not QAbstractSocket.SocketState.ConnectedState:
            self._finish()
            return
        self._timer.start(math.ceil(grace * 1000))
        if sock.bytesToWrite() == 0:
            self._half_close()
        else:
            sock.flush()

    def _half_close(self) -> None:
        """Send our end of the stream but keep reading: closing with unread input would make
        the kernel reset the connection and could destroy our last message on its way."""
        sock = self.socket
        if sock is None or sock.bytesToWrite():
            return
        self._half_closed = True
        try:
            dup = socket.fromfd(int(sock.socketDescriptor()), socket.AF_INET, socket.SOCK_STREAM)
        except (OSError, AttributeError, ValueError):  # no descriptor or no fromfd here
            sock.disconnectFromHost()
            return
        with dup:
            try:
                dup.shutdown(socket.SHUT_WR)
            except OSError:
                self._finish()

    def _finish(self) -> None:
        if self._stage == LinkStage.DONE:
            return
        self._stage = LinkStage.DONE
        self.on_handshake = None  # the owner's hooks must not outlive the link
        self.on_receive = None
        self._timer.stop()
        self._deliver_timer.stop()
        sock, self.socket = self.socket, None
        if sock is not None:  # freed with the link, its parent
            sock.abort()  # its signals now find the link done
        self.times["closed"] = self.now()
        emit(self.closed)

    def _give_up(self, failure: LinkError) -> None:
        """The joiner never got a connection (or stopped trying)."""
        self.failure = failure
        self.times["ended"] = self.now()
        emit(self.failed, failure)
        self._finish()

    def _crash(self, error: Exception) -> None:
        """A bug met by what the peer did: log it, end the link with a reason, go on."""
        logger.debug("the network link failed", exc_info=True)
        conn = self.connection
        if self._crashing or conn is None:
            self._finish()
            return
        self._crashing = True
        self._queue.clear()
        try:
            reason = f"internal error: {error!r}"
            if conn.session is not None:
                self._process(conn.session.local_failure(self.now(), reason))
            else:
                self.failure = LinkError("internal", reason, self.address, error)
                self.times["ended"] = self.now()
                emit(self.failed, self.failure)
                self._finish()
        except Exception:
            logger.debug("the network link failed while failing", exc_info=True)
            self._finish()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text else "the connection failed"


def _peer_host(sock: QTcpSocket) -> str:
    """The peer's address as a person reads it (``::ffff:192.0.2.1`` as ``192.0.2.1``)."""
    text = sock.peerAddress().toString()
    if text.lower().startswith("::ffff:") and "." in text:  # a dual-stack socket's IPv4 peer
        return text[len("::ffff:") :]
    return text


# --- the joiner ------------------------------------------------------------------------------


class QtJoin(PeerLink):
    """Dial a room and play its match: :meth:`connect_to` or :meth:`connect_to_address`.

    The options' ``password`` joins a private room. Emits ``failed`` when there is no session
    (nobody answers, a wrong password, other settings), else the match's signals.
    """

    wrong_password = Signal(object)
    """``LinkError``: a resume of a restored match was refused for its password (the
    redials go on; :meth:`forsake` stops them)."""

    def __init__(
        self,
        options: PeerOptions,
        parent: QObject | None = None,
        *,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
    ) -> None:
        super().__init__(options, Role.JOINER, parent, now=now, timer=timer)
        self._dialled: tuple[str, int] | None = None
        self._resuming: Session | None = None
        """The suspended session this link dials again to resume (docs/protocol.md)."""
        self._redials = RedialSchedule()
        self._redial = timer(self, self._dial_again)
        self.room: tuple[str, str, str | None] | None = None
        """The mDNS room the match was joined in (service name, title, host fingerprint)."""
        self._room_bind: str | None = None
        self._finder: Any = None
        """A ``RoomFinder`` looking for :attr:`room` while the match is suspended."""
        self._trying: tuple[str, int] | None = None
        """The address the redial in progress dials."""

    def resume_restored(self, session: Session, host: str, port: int, window: float) -> None:
        """This side crashed mid-match and was started again: dial ``host:port`` (or the
        room it follows, :meth:`follow_room`) again and again for ``window`` seconds, to
        resume ``session`` (restored from its record,
        :func:`~koikoi.net.resume.restore_session`) with the peer, who waits for it.
        ``resumed`` follows, or ``ended`` when the window runs out."""
        if self._stage != LinkStage.NEW:
            raise ValueError("this link has already been used")
        self.address = format_address(host, port)
        self.times["connect"] = self.now()
        self._dialled = (host, port)
        self.held = self._resuming = session
        self.suspension = Suspended(self.now() + window, RESTARTED)
        self._stage = LinkStage.SUSPENDED
        self._redials.reset()
        self._start_looking()
        self._schedule()

    def follow_room(self, name: str, title: str, fingerprint: str | None, bind: str | None) -> None:
        """The match was joined in a room found by mDNS (its service ``name``, ``title`` and
        host ``fingerprint``, browsed on ``bind``): while the match is suspended, each redial
        dials the address the room advertises then (the host may have moved), else the last
        one. docs/protocol.md, "Dialling again"."""
        self.room = (name, title, fingerprint)
        self._room_bind = bind

    def _start_looking(self) -> None:
        """Browse for the followed room while the match waits to be resumed."""
        if self.room is None or self._finder is not None:
            return
        from koikoi.ui.rooms import RoomFinder  # mDNS only when a room is followed

        self._finder = RoomFinder(self._room_bind, self)
        self._finder.start()

    def _stop_looking(self) -> None:
        finder, self._finder = self._finder, None
        if finder is not None:
            finder.stop()
            finder.deleteLater()

    def redial_targets(self) -> list[tuple[str, int]]:
        """Where the next redial may dial: the followed room's addresses as advertised now
        (the same service name first, then the same title and host identity), then the
        address dialled last."""
        out: list[tuple[str, int]] = []
        finder, room = self._finder, self.room
        if finder is not None and room is not None:
            name, title, fingerprint = room
            found = [
                r
                for r in finder.model.rooms()
                if r.name == name
                or (
                    r.title.casefold() == title.casefold()
                    and (not fingerprint or r.fingerprint == fingerprint)
                )
            ]
            found.sort(key=lambda r: r.name != name)
            for r in found:
                for text in r.addresses:
                    with contextlib.suppress(ValueError):
                        target = parse_address(text)
                        if target not in out:
                            out.append(target)
        if self._dialled is not None and self._dialled not in out:
            out.append(self._dialled)
        return out

    def connect_to_address(self, text: str) -> None:
        """``HOST:PORT`` or ``[v6]:PORT``; raises :class:`ValueError` (one line) otherwise."""
        host, port = parse_address(text)
        self.connect_to(host, port)

    def connect_to(self, host: str, port: int) -> None:
        """Start connecting; a host name is looked up without blocking the event loop."""
        if self._stage != LinkStage.NEW:
            raise ValueError("this link has already been used")
        self.address = format_address(host, port)
        self.times["connect"] = self.now()
        self._dialled = (host, port)
        self._dial(host, port, self.options.silence_timeout)

    def _dial(self, host: str, port: int, timeout: float) -> None:
        self._stage = LinkStage.CONNECTING
        sock = QTcpSocket(self)
        self.socket = sock
        sock.connected.connect(self._on_connected)
        sock.errorOccurred.connect(self._on_error)
        self._timer.start(math.ceil(timeout * 1000))
        sock.connectToHost(host, port)

    # --- resume: dial again while the match is suspended --------------------------------

    def _go_suspended(self, conn: Connection) -> None:
        if self._resuming is None:  # the match's connection dropped
            super()._go_suspended(conn)
            self._resuming = self.held
            self._redials.reset()
            self._start_looking()
        else:  # an attempt to resume failed: drop its socket, dial again
            self._stage = LinkStage.SUSPENDED
            self._drop_socket()
        self._schedule()

    def _drop_socket(self) -> None:
        self._timer.stop()
        sock, self.socket = self.socket, None
        if sock is not None:
            sock.abort()
            sock.deleteLater()

    def _schedule(self) -> None:
        suspension = self.suspension
        if suspension is None:
            return
        delay = self._redials.next_delay(self.now(), suspension.deadline)
        self._redial.start(math.ceil(delay * 1000))

    def _dial_again(self) -> None:
        suspension = self.suspension
        if self._stage != LinkStage.SUSPENDED or suspension is None or self._dialled is None:
            return
        left = suspension.deadline - self.now()
        if left <= 0:
            self.held = self._resuming
            self._resuming = None
            self._stop_looking()
            self.expire()
            return
        targets = self.redial_targets()
        host, port = targets[(self._redials.attempts - 1) % len(targets)]
        self.address = format_address(host, port)
        self._trying = (host, port)
        self._dial(host, port, min(self.options.silence_timeout, left))

    def _settle(self) -> None:
        conn = self.connection
        if (
            self._resuming is not None
            and self._stage == LinkStage.OPEN
            and conn is not None
            and conn.closed
            and conn.session is None
            and not self._pumping
            and not self._queue
        ):
            self._go_suspended(conn)  # this attempt failed; the match still waits
            return
        super()._settle()

    def _give_up(self, failure: LinkError) -> None:
        session = self._resuming
        if session is not None and failure.kind != "left":
            self._drop_socket()
            if redial_verdict(session, connected=False, failure=None) is Verdict.GIVE_UP:
                self._stop_redialling()  # finished here and the host is gone
                return
            self._stage = LinkStage.SUSPENDED
            self._schedule()
            return
        super()._give_up(failure)

    def _stop_redialling(self) -> None:
        """A finished match whose host is gone or busy: it waits for no resume; the link
        is done, ending nothing (its session stays, as :attr:`held`)."""
        self._redial.stop()
        self._resuming = None
        self._finish()

    def _dispatch(self, event: ConnectionEvent) -> None:
        session = self._resuming
        if isinstance(event, HandshakeFailed) and session is not None:
            error = event.error
            verdict = redial_verdict(session, connected=True, failure=error)
            if verdict is Verdict.END:  # nothing to resume there
                self._resuming = None
                self._enqueue(session.connection_lost(self.now(), str(error)))
            elif verdict is Verdict.GIVE_UP:  # finished here and the host busy
                self._resuming = None
                self._redial.stop()
                self._stop_looking()
            elif isinstance(error, AuthenticationFailed):
                emit(self.wrong_password, LinkError.from_protocol(error, self.address))
            return
        if isinstance(event, Resumed):
            self._resuming = None
            self._redials.reset()
            if self._trying is not None:  # where the room is now, for the next drop
                self._dialled = self._trying
            self._stop_looking()
        elif isinstance(event, Ended):
            self._stop_looking()
        super()._dispatch(event)

    def leave(self, reason: str = "the player left") -> None:
        session = self._resuming
        if session is not None and self._stage in (LinkStage.SUSPENDED, LinkStage.CONNECTING):
            self._redial.stop()
            self._resuming = None
            self._drop_socket()
            self._enqueue(session.leave(self.now(), reason))
            self._deliver()
            self._finish()
            return
        super().leave(reason)

    def forsake(self) -> None:
        """Let go of a restored match without a word: nothing is sent and nothing ends
        (its record stays as it is, the peer still waits); the link is done."""
        self._redial.stop()
        self._resuming = self.held = None
        self._drop_socket()
        self._finish()

    def _finish(self) -> None:
        self._stop_looking()
        super()._finish()

    def _on_connected(self) -> None:
        sock = self.socket
        if self._stage != LinkStage.CONNECTING or sock is None:
            return
        self._timer.stop()
        sock.connected.disconnect(self._on_connected)
        sock.errorOccurred.disconnect(self._on_error)
        try:
            conn = self.options.connection(Role.JOINER, self.now())
            conn.resuming = self._resuming
            conn.start()
        except Exception as error:
            self._stage = LinkStage.OPEN
            self.socket = None
            sock.abort()
            self._give_up(LinkError("internal", f"internal error: {error!r}", self.address, error))
            return
        self.attach(sock, conn)


# --- the host's room -------------------------------------------------------------------------


class QtRoom(QObject):
    """A listening room: one match, with the first joiner whose handshake succeeds.

    The match's signals are the :class:`PeerLink` ones, forwarded; every other connection
    ends in ``refused(LinkError)`` (``address`` says whose: a wrong password, other
    settings, the room busy…). ``closed`` comes once the room has stopped listening and every
    connection is closed (after :meth:`leave`).
    """

    established = Signal(object)
    cards_shown = Signal(object)
    tossed = Signal(object)
    moved = Signal(object)
    dealt = Signal(object)
    local_turn = Signal(object)
    out_of_time = Signal(object)
    peer_overdue = Signal(object)
    ended = Signal(object)
    refused = Signal(object)
    wrong_password = Signal(str, int)
    """An address (its host part) and how many wrong passwords came from it so far."""
    closed = Signal()
    match_closed = Signal()
    """The room's match is over and its connection closed; the room still listens (a late
    joiner is told it is busy) until :meth:`leave`."""
    suspended = Signal(float)
    """The match's connection dropped: seconds left for its peer to come back (PeerLink)."""
    resumed = Signal(int)

    def __init__(
        self,
        options: PeerOptions,
        *,
        max_pending: int = MAX_PENDING,
        parent: QObject | None = None,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
    ) -> None:
        super().__init__(parent)
        self.now = now
        """The clock of the room and its links (see :class:`PeerLink`)."""
        self.make_timer = timer
        self.options = options
        self.policy = RoomPolicy(max_pending, private=bool(options.password))
        # Connections are taken on a later turn of the loop, not in Qt's signal: Qt accepts
        # until none is left or ACCEPT_BATCH wait, so a room that took (and refused) each one
        # inside the signal never left it while a flood dialled again as fast as refused.
        self._accepter = QTimer(self)
        self._accepter.setSingleShot(True)
        self._accepter.timeout.connect(self._on_new_connection)
        self.match: PeerLink | None = None
        """The link playing the room's match, from its handshake on."""
        self.links: dict[PeerLink, Ticket | None] = {}
        self._server = QTcpServer(self)
        self._server.setMaxPendingConnections(ACCEPT_BATCH)
        self._server.newConnection.connect(self._accepter.start)
        self._leaving = False
        self._closed = False
        self._retired: list[PeerLink] = []
        self._sweeper = timer(self, self._sweep)
        self._expiry = timer(self, self._expire)

    # --- listening -----------------------------------------------------------------------

    def listen(self, bind: str = "", port: int = 0) -> None:
        """Listen on ``bind`` (an IP address; empty: every interface) and ``port`` (0: any).

        Raises :class:`ValueError` with one line when it cannot.
        """
        if bind in ("", "*"):
            address = QHostAddress(QHostAddress.SpecialAddress.Any)
        elif bind == "localhost":
            address = QHostAddress(QHostAddress.SpecialAddress.LocalHost)
        else:
            address = QHostAddress(bind)
            if address.isNull():
                raise ValueError(f"cannot listen on {bind!r}: not an IP address")
        if not self._server.listen(address, port):
            reason = _lower_first(self._server.errorString())
            raise ValueError(f"cannot listen on {format_address(bind or '*', port)}: {reason}")

    @property
    def port(self) -> int:
        return int(self._server.serverPort())

    @property
    def listening(self) -> bool:
        return bool(self._server.isListening())

    def addresses(self) -> list[str]:
        """``host:port`` strings a joiner can dial: the bound address, or for every interface
        each of the machine's addresses (loopback last; IPv6 link-local ones left out)."""
        if not self._server.isListening():
            return []
        bound = self._server.serverAddress()
        port = self.port
        special = (
            QHostAddress.SpecialAddress.Any,
            QHostAddress.SpecialAddress.AnyIPv4,
            QHostAddress.SpecialAddress.AnyIPv6,
        )
        if not any(bound == QHostAddress(s) for s in special):
            return [format_address(bound.toString(), port)]
        v4_only = bound == QHostAddress(QHostAddress.SpecialAddress.AnyIPv4)
        v6_only = bound == QHostAddress(QHostAddress.SpecialAddress.AnyIPv6)
        ipv4 = QAbstractSocket.NetworkLayerProtocol.IPv4Protocol
        hosts: list[tuple[bool, str]] = []
        for address in QNetworkInterface.allAddresses():
            is_v4 = address.protocol() is ipv4
            if (v4_only and not is_v4) or (v6_only and is_v4) or address.isLinkLocal():
                continue
            hosts.append((address.isLoopback(), address.toString()))
        hosts.sort(key=lambda item: item[0])
        return [format_address(host, port) for _, host in hosts]

    # --- the match -----------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return None if self.match is None else self.match.session

    @property
    def address(self) -> str:
        """The match's peer, ``host:port`` (see :attr:`PeerLink.address`); empty before."""
        return "" if self.match is None else self.match.address

    @property
    def is_suspended(self) -> bool:
        """The match waits for its peer to dial again (see :attr:`PeerLink.is_suspended`)."""
        return self.match is not None and self.match.is_suspended

    @property
    def done(self) -> bool:
        """The room has stopped listening and every connection is closed: nothing more
        will be emitted (``closed`` came)."""
        return self._closed

    def play(self, action: Action) -> None:
        """The local seat's move (see :meth:`PeerLink.play`)."""
        if self.match is None:
            raise ValueError("it is not this seat's move")
        self.match.play(action)

    def confirm_sas(self, same: bool = True) -> None:
        """The local player compared the four cards (see :meth:`PeerLink.confirm_sas`)."""
        if self.match is not None:
            self.match.confirm_sas(same)

    def clock(self) -> MoveClock | None:
        """The match's move clock (see :meth:`PeerLink.clock`)."""
        return None if self.match is None else self.match.clock()

    def abandon(self) -> None:
        """End the match as abandoned by the peer (see :meth:`PeerLink.abandon`)."""
        if self.match is None:
            raise ValueError("the peer is not overdue")
        self.match.abandon()

    def leave(self, reason: str = "the player left") -> None:
        """Stop listening, leave the match if there is one, refuse the pending handshakes
        ``busy`` (docs/protocol.md, "End of the match, leaving, silence")."""
        if self._closed:
            return
        self._leaving = True
        self._expiry.stop()
        self.policy.leave()
        # What reached the port before it closes is answered busy, not hung up on: the
        # caller's retry on busy (the app's rematch) calls again, until a new room listens.
        self._take_queued()
        self._server.close()
        for link in list(self.links):
            if link is self.match:
                link.leave(reason)
            else:
                self._turn_away(link)
        self._maybe_closed()

    def _take_queued(self) -> None:
        """Take every connection waiting to be accepted (Qt's and the kernel's queues)."""
        self._accepter.stop()
        for _ in range(ACCEPT_BATCH):
            if not self._server.hasPendingConnections():
                self._server.waitForNewConnection(0)
            if not self._server.hasPendingConnections():
                break
            self._on_new_connection()

    def _turn_away(self, link: PeerLink) -> None:
        """A pending handshake of a closing room: refused ``busy`` in the clear while the
        joiner can still read a clear refusal (before the host's ``noise2``); after it, the
        joiner's ``noise3`` is what is left, and the busy hook refuses it encrypted."""
        conn = link.connection
        if conn is None or conn.closed:
            return  # a refusal on its way out, or a handshake that failed already
        phase = conn.handshake.phase
        if phase in (Phase.AWAIT_HELLO, Phase.AWAIT_NOISE1):
            ticket = self.links.get(link)
            if ticket is not None:
                self.policy.closed(ticket, self.now())
            away = TurnedAway("the room was closed", "busy")
            self._tell_refused(LinkError("busy", "the room was closed", link.address, away))
            link.turn_away(encode_frame(refuse_message("busy")))
        elif phase is not Phase.AWAIT_NOISE3:
            link.leave("the room was closed")

    # --- connections ---------------------------------------------------------------------

    def _on_new_connection(self) -> None:
        while self._server.hasPendingConnections():
            sock = self._server.nextPendingConnection()
            if sock is None:
                break
            try:
                self._admit(sock)
            except Exception as error:
                logger.debug("a connection could not be set up", exc_info=True)
                sock.abort()
                sock.deleteLater()
                self._tell_refused(LinkError("internal", f"internal error: {error!r}", "", error))

    def _admit(self, sock: QTcpSocket) -> None:
        now = self.now()
        address = format_address(_peer_host(sock), sock.peerPort())
        ticket = self.policy.admit(address, now)
        if isinstance(ticket, Refusal):
            link = self._new_link(None)
            away = TurnedAway(ticket.reason, ticket.code)
            self._tell_refused(LinkError("busy", ticket.reason, address, away))
            link.refuse(sock, encode_frame(refuse_message(ticket.code)))
            return
        try:
            conn = self.options.connection(Role.HOST, now)
        except Exception:
            self.policy.closed(ticket, now)
            raise
        policy = self.policy  # not the room: the connection must not keep the room alive
        conn.busy = lambda: policy.busy
        room = weakref.ref(self)

        def candidate(key: bytes) -> Session | None:
            alive = room()
            return None if alive is None else alive._resume_candidate(key)

        conn.resume_candidate = candidate
        link = self._new_link(ticket)
        link.on_handshake = self._on_handshake
        link.on_resumed = self._on_resumed
        link.on_receive = self._on_receive
        link.failed.connect(self._on_link_failed)
        self._drop(
            self.policy.take_evicted(), "dropped to make room for a newer connection", "evicted"
        )
        self._sweep()
        link.attach(sock, conn)

    def _on_receive(self, link: PeerLink) -> None:
        ticket = self.links.get(link)
        if ticket is not None and ticket.number not in self.policy.spoken:
            self.policy.heard(ticket, self.now())
            self._drop(self.policy.take_evicted(), "dropped to limit password attempts", "attempts")
            self._sweep()

    def _drop(self, tickets: Sequence[Ticket], reason: str, why: str) -> None:
        """Close pending connections at once (evicted or overdue): no farewell is owed."""
        numbers = {ticket.number for ticket in tickets}
        for link, ticket in list(self.links.items()):
            if ticket is not None and ticket.number in numbers:
                away = TurnedAway(reason, why)
                self._tell_refused(LinkError("dropped", reason, link.address, away))
                link.drop()

    def _sweep(self) -> None:
        """Drop the overdue pending connections; wake up again at the next deadline."""
        now = self.now()
        self._drop(self.policy.overdue(now), "did not finish the handshake in time", "overdue")
        deadline = self.policy.next_deadline()
        if deadline is None:
            self._sweeper.stop()
        else:
            self._sweeper.start(max(0, math.ceil((deadline - now) * 1000)))

    def _new_link(self, ticket: Ticket | None) -> PeerLink:
        # The room keeps its links in Python, not as Qt children: a link is freed by Python once
        # the room lets go of it, never by Qt from inside the room's or its own signals.
        link = PeerLink(self.options, Role.HOST, now=self.now, timer=self.make_timer)
        link.closed.connect(self._on_link_closed)
        self.links[link] = ticket
        return link

    def _on_handshake(self, link: PeerLink) -> None:
        ticket = self.links.get(link)
        assert ticket is not None
        self.policy.established(ticket, self.now())
        self.match = link
        link.established.connect(self.established)
        link.cards_shown.connect(self.cards_shown)
        self._follow(link)

    def _follow(self, link: PeerLink) -> None:
        """Forward the match's signals from ``link`` (the first, or one that resumed it)."""
        link.on_event = self._on_match_event
        link.tossed.connect(self.tossed)
        link.moved.connect(self.moved)
        link.dealt.connect(self.dealt)
        link.local_turn.connect(self.local_turn)
        link.out_of_time.connect(self.out_of_time)
        link.peer_overdue.connect(self.peer_overdue)
        link.ended.connect(self.ended)
        link.ended.connect(self._on_match_ended)
        link.suspended.connect(self._on_suspended)
        link.resumed.connect(self.resumed)

    # --- resume --------------------------------------------------------------------------

    def adopt(self, session: Session, window: float) -> None:
        """Take back a match restored from its record (this side crashed and was started
        again, :func:`~koikoi.net.resume.restore_session`): listening (:meth:`listen`), the
        room waits ``window`` seconds for its peer to resume it, as after a drop
        (``resumed``, or ``ended`` when the window runs out). The asyncio twin is
        :meth:`koikoi.net.transport.Room.adopt`."""
        if self.match is not None:
            raise ValueError("the room has a match already")
        link = PeerLink(self.options, Role.HOST, now=self.now, timer=self.make_timer)
        link.hold(session, Suspended(self.now() + window, RESTARTED))
        link.closed.connect(self._on_link_closed)
        self.links[link] = None
        self.match = link
        self.policy.match_over = True  # nobody else may start a match here
        self.policy.resumable = True
        self._follow(link)
        self._expiry.start(math.ceil(window * 1000))

    def forsake(self) -> None:
        """Let go of a match restored by :meth:`adopt` without a word (nothing sent,
        nothing ended: its record stays as it is) and stop listening."""
        self._expiry.stop()
        match = self.match
        if match is not None:
            match.held = None
            match._finish()
        self.leave("the room was closed")

    def _resume_candidate(self, key: bytes) -> Session | None:
        """The room's match, when ``key`` is its peer's and it can be resumed; a link that
        still holds it (the drop not noticed yet) lets go of it."""
        link = self.match
        session = None if link is None else link.session
        if link is None or session is None:
            return None
        conn = link.connection
        if not may_resume(
            session,
            key,
            suspended=link.is_suspended,
            awaiting_goodbye=conn is not None and conn.awaiting_goodbye,
            closing=self._leaving or self.policy.closing,
        ):
            return None
        if not link.is_suspended:
            link._guarded(lambda conn: conn.detach(self.now(), "the peer dialled again"))
        return session

    def _on_resumed(self, link: PeerLink) -> None:
        ticket = self.links.get(link)
        if ticket is None or link is self.match:
            return
        self.policy.resumed(ticket, self.now())
        self._expiry.stop()
        old, self.match = self.match, link
        self._follow(link)
        if old is not None:
            for signal in (old.tossed, old.moved, old.dealt, old.local_turn, old.ended):
                signal.disconnect()
            old.suspended.disconnect()
            old.resumed.disconnect()
            old._finish()

    def _on_suspended(self, seconds: float) -> None:
        self._expiry.start(math.ceil(seconds * 1000))
        emit(self.suspended, seconds)

    def _expire(self) -> None:
        if self.match is not None and self.match.is_suspended:
            self.match.expire()

    def _on_match_event(self, event: ConnectionEvent) -> None:
        policy = self.policy
        policy.resumable = resumable_after(event, self.options.resume_window, policy.resumable)

    def _on_match_ended(self, _ending: object) -> None:
        self._expiry.stop()

    def _link(self) -> PeerLink | None:
        sender = self.sender()
        return sender if isinstance(sender, PeerLink) else None

    def _on_link_failed(self, failure: LinkError) -> None:
        link = self._link()
        ticket = None if link is None else self.links.get(link)
        if ticket is not None:
            if self.policy.private and failure.kind == "auth":
                count = self.policy.wrong_password(ticket, self.now())
                emit(self.wrong_password, address_host(ticket.address), count)
            self.policy.closed(ticket, self.now())  # its place is free now, not after the close
        self._tell_refused(failure)

    def _tell_refused(self, failure: LinkError) -> None:
        logger.info("turned away %s: %s", failure.address, failure.text)
        emit(self.refused, failure)

    def _on_link_closed(self) -> None:
        link = self._link()
        if link is None:
            return
        # Its connections hold the room: let go of them, or room and link would keep each
        # other alive through Qt, where Python's collector cannot see.
        link.closed.disconnect(self._on_link_closed)
        ticket = self.links.pop(link, None)
        if ticket is not None:
            link.failed.disconnect(self._on_link_failed)
            self.policy.closed(ticket, self.now())
        if link is not self.match:  # the match's link stays: its session holds the record
            self._retired.append(link)  # freed on the next turn of the loop, outside its signals
            QTimer.singleShot(0, self._retired.clear)
        elif not self._leaving:
            # The match is over and its connection closed (a dropped one waits, suspended,
            # and does not close): nothing is left to resume, the owner may close the room.
            self.policy.resumable = False
            emit(self.match_closed)
        self._maybe_closed()

    def _maybe_closed(self) -> None:
        if self._leaving and not self.links and not self._closed:
            self._closed = True
            emit(self.closed)
