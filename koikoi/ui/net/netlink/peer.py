"""One connection: :class:`PeerLink`, a socket and its sans-I/O
:class:`~koikoi.net.connection.Connection`, driven by Qt's event loop (the signals it hands
out are listed in :mod:`koikoi.ui.net.netlink`)."""

from __future__ import annotations

import logging
import math
import socket
from collections import deque
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance
from PySide6.QtNetwork import QAbstractSocket, QTcpSocket

from koikoi.engine.round import Action
from koikoi.net.address import format_address
from koikoi.net.connection import (
    Connection,
    ConnectionEvent,
    HandshakeDone,
    HandshakeFailed,
    count_aborts,
)
from koikoi.net.policy import CLOSE_GRACE, REFUSE_GRACE, GoodbyeWait
from koikoi.net.resume import Resumed, Suspended, expire
from koikoi.net.roles import Role
from koikoi.net.session.after import AfterOver, PeerWantsRematch
from koikoi.net.session.clock import MoveClock
from koikoi.net.session.core import Session
from koikoi.net.session.endings import Stage
from koikoi.net.session.events import (
    CardsShown,
    DealLaidOut,
    Ended,
    MovePlayed,
    OutOfTime,
    PeerOverdue,
    StampReceived,
    TossDone,
)
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.signals import emit
from koikoi.ui.net.neterrors import connect_failure
from koikoi.ui.net.netlink.base import (
    LinkError,
    LinkStage,
    PeerInfo,
    TimerFactory,
    _lower_first,
    _now,
    _peer_host,
    qt_timer,
    table_options,
)

logger = logging.getLogger("koikoi.ui.net.netlink")  # the link's log lines, as they were


# --- one connection --------------------------------------------------------------------------


class PeerLink(QObject):
    """One socket and its :class:`Connection`, driven by Qt's event loop.

    A room makes one per accepted connection; :class:`QtJoin` is one that dials out. The
    link owns the socket and closes it itself.
    """

    established = Signal(object)
    cards_shown = Signal(object)
    peer_confirmed = Signal()
    """The peer's player confirmed the four cards (its ``confirm`` arrived), once; the
    cards page says so while the local player still compares them."""
    tossed = Signal(object)
    moved = Signal(object)
    dealt = Signal(object)
    local_turn = Signal(object)
    out_of_time = Signal(object)
    peer_overdue = Signal(object)
    stamp_received = Signal(str)
    """A stamp of the peer's, by its id (koikoi/net/stamps.py), within the rate."""
    after_opened = Signal()
    """The match is over and its connection stays open after it (right after ``ended``)."""
    peer_rematch = Signal()
    """After the match: the peer's player clicked Rematch (koikoi/net/session/after.py)."""
    after_over = Signal(object)
    """After the match: the connection kept for it closed (an ``AfterOver``: the peer left,
    this side did, the connection dropped, time ran out)."""
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
        self.options = table_options(options)
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
        self._told_confirmed = False
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
        """The move clock now (whose, seconds left, seconds waited); None outside play, and
        while suspended: no clock runs then, and a resumed turn starts again (docs/protocol.md,
        "Resume"), so the table shows no count beside the reconnecting one."""
        session, conn = self.session, self.connection
        # (the connection says it first: the owner hears ``suspended`` before the link is)
        down = self.is_suspended or (conn is not None and conn.suspended is not None)
        return None if session is None or down else session.clock(self.now())

    def set_ready(self, ready: bool) -> None:
        """The local table is ready for its player to act, or not (:meth:`Session.set_ready`:
        the local move clock runs only while it is, and the peer is told)."""
        session = self.session
        if self._stage == LinkStage.OPEN and session is not None:
            self._guarded(lambda conn: conn.set_ready(self.now(), ready))
        elif self.is_suspended and session is not None and not session.closed:
            session.set_ready(ready, self.now())  # said again when the match resumes

    def send_stamp(self, stamp: str) -> bool:
        """A stamp to the peer (:meth:`Session.send_stamp`): False when it does not take
        stamps, the rate holds it back or no connection carries the match."""
        session = self.session
        if self._stage != LinkStage.OPEN or self.connection is None or session is None:
            return False
        sent = self.connection.send_stamp(stamp, self.now())
        if sent:
            self._process([])
        return sent

    @property
    def after_open(self) -> bool:
        """The match is over and the connection stays open while both players read the
        result (both hellos said ``after``; koikoi/net/session/after.py)."""
        conn = self.connection
        return self._stage == LinkStage.OPEN and conn is not None and conn.after_open

    def rematch(self) -> bool:
        """After the match: tell the peer this player clicked Rematch; False when no
        connection is kept after the match (the rematch then dials as before)."""
        if self._stage != LinkStage.OPEN or self.connection is None:
            return False
        told = False

        def say(conn: Connection) -> list[ConnectionEvent]:
            nonlocal told
            told = conn.rematch(self.now())
            return []

        self._guarded(say)
        return told

    def stamp_wait(self) -> float | None:
        """Seconds until a stamp may go (0: now); None when none can (no connection, a peer
        that takes none, the match over)."""
        session = self.session
        if self._stage != LinkStage.OPEN or session is None or not session.stamps.theirs:
            return None
        if session.stage is Stage.CLOSED and not self.after_open:
            return None
        now = self.now()
        return session.stamps.ready_at(now) - now

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

    def dial_seconds(self) -> float:
        """Seconds a dial waits for the connection (a joiner may be given fewer)."""
        return float(self.options.silence_timeout)

    def _on_timer(self) -> None:
        if self._stage == LinkStage.CONNECTING:
            seconds = self.dial_seconds()
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
        if self._queue or self._turn_due() or self._confirm_news():
            self._deliver_timer.start(0)
        else:
            self._settle()

    def _enqueue(self, events: Sequence[ConnectionEvent]) -> None:
        """Events of a session no connection holds (it left or expired while suspended): an
        abort they end in counted in the peer's pin (:func:`~koikoi.net.connection.count_aborts`),
        the count kept on the connection that held it."""
        counted = count_aborts(events, self.session, self.options.known_peers)
        if counted is not None and self.connection is not None:
            self.connection.toss_aborts = counted
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
                if self._confirm_news():
                    self._told_confirmed = True
                    emit(self.peer_confirmed)
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
        elif isinstance(event, MovePlayed | DealLaidOut | OutOfTime | PeerOverdue):
            emit(self._passed_on[type(event)], event)
        elif isinstance(event, StampReceived):
            emit(self.stamp_received, event.stamp)
        elif isinstance(event, PeerWantsRematch | AfterOver):
            self._after_the_match(event)
        elif isinstance(event, Ended):
            self.times["ended"] = now
            emit(self.ended, event.ending)
            if self.after_open:
                emit(self.after_opened)
        elif isinstance(event, Suspended):
            emit(self.suspended, max(0.0, event.deadline - now))
        elif isinstance(event, Resumed):
            self.held = None
            self._announced = None
            if self.on_resumed is not None:
                self.on_resumed(self)
            emit(self.resumed, event.resent)

    def _after_the_match(self, event: PeerWantsRematch | AfterOver) -> None:
        if isinstance(event, PeerWantsRematch):
            emit(self.peer_rematch)
        else:
            emit(self.after_over, event)

    @property
    def _passed_on(self) -> dict[type, SignalInstance]:
        """The signals that hand an event on as it is."""
        return {
            MovePlayed: self.moved,
            DealLaidOut: self.dealt,
            OutOfTime: self.out_of_time,
            PeerOverdue: self.peer_overdue,
        }

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

    def _confirm_news(self) -> bool:
        """The peer's ``confirm`` came and :attr:`peer_confirmed` was not said yet."""
        session = self.session
        return not self._told_confirmed and session is not None and session.peer_confirmed

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
