"""Both sides dial, in the app (docs/protocol.md, "Both sides dial"; the command line's twin is
:mod:`koikoi.net.transport.bothdial`): a port that listens and dials out from itself
(``SO_REUSEPORT``), so that two apps behind stateful firewalls or port-keeping NATs reach each
other by dialling at the same moment (TCP simultaneous open).

- :func:`~koikoi.net.transport.bothdial.listen_dual`: a listening socket whose port may
  dial out too, handed to a :class:`~PySide6.QtNetwork.QTcpServer` (:func:`serve`).
- :class:`QtDialFrom`: dials each candidate from that port again and again for a window, each
  connection handed over as a :class:`~PySide6.QtNetwork.QTcpSocket`.
- :class:`QtBothWays`: the joiner whose room did not answer. It listens on its own port and
  dials the room from it while the host dials back (the reply code), and plays over the
  first connection whose handshake proves the code's host. Connections are let in by the
  room's policy (:class:`~koikoi.net.room.RoomPolicy`): a cap on handshakes at once and per
  address, deadlines, and in a password room one PAKE attempt in flight per address.
- :class:`QtDialBack`: the host's side. A reply code typed into the waiting page pins that
  joiner's identity on the room and dials its addresses from the room's port.

Connecting runs on the event loop (a non-blocking ``connect`` watched by a
:class:`~PySide6.QtCore.QSocketNotifier`): Qt's own sockets set ``SO_REUSEADDR`` only, which
does not let a port that listens dial out.
"""

from __future__ import annotations

import errno
import logging
import math
import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, QSocketNotifier, Signal
from PySide6.QtNetwork import QTcpServer, QTcpSocket

from koikoi.net.address import format_address
from koikoi.net.joincode import JoinCode
from koikoi.net.room import HANDSHAKE_DEADLINE, Refusal, RoomPolicy, Ticket
from koikoi.net.transport.bothdial import (
    ANSWERED,
    ATTEMPT,
    BOTH_DIAL_WINDOW,
    NO_ANSWER,
    PAUSE,
    _any,
    _family,
    _socket,
    why_not,
)
from koikoi.net.transport.bothjoin import MAX_PENDING, MAX_PER_ADDRESS
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.signals import emit
from koikoi.ui.net.neterrors import Why, dial_words
from koikoi.ui.net.netlink.base import LinkError, TimerFactory, _now, _peer_host, qt_timer
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.peer import PeerLink

if TYPE_CHECKING:
    from koikoi.ui.net.netlink.room import QtRoom

logger = logging.getLogger(__name__)

DIAL_BACK_WINDOW: Final = BOTH_DIAL_WINDOW
"""Seconds the room dials a reply code's addresses (as ``host --internet --replies``)."""
HOST_FAILURES: Final = frozenset({"auth", "settings", "room", "version", "dealing", "refused"})
"""A handshake failure on a connection this side dialled to the room that ends the wait: the
room answered and said no (a wrong password, other settings…); waiting cannot mend it."""


def serve(sock: socket.socket, parent: QObject) -> QTcpServer:
    """A :class:`QTcpServer` listening on ``sock`` (which it owns from now on)."""
    server = QTcpServer(parent)
    fd = sock.detach()
    if not server.setSocketDescriptor(fd):
        socket.close(fd)
        raise OSError(errno.EBADF, server.errorString() or "Qt cannot listen on that socket")
    return server


class _Candidate:
    """One candidate's attempts: a socket bound to the port, connecting; after
    :data:`~koikoi.net.transport.bothdial.ATTEMPT` s without an answer the next one starts."""

    def __init__(self, owner: QtDialFrom, where: tuple[str, int]) -> None:
        self.owner, self.where = owner, where
        self.sock: socket.socket | None = None
        self.notifier: QSocketNotifier | None = None
        self.timer = owner.make_timer(owner, self.attempt)
        self.done = False

    def attempt(self) -> None:
        """Start the next attempt (the last one, unanswered, is closed: it says nothing
        over what an earlier one answered)."""
        owner = self.owner
        if self.sock is not None:
            owner.why.setdefault(self.where, NO_ANSWER)
        self.close()
        left = owner.until - owner.now()
        if self.done or left <= 0:
            self.finish()
            return
        family = _family(self.where[0])
        try:
            sock = _socket(family)
        except OSError as error:
            owner.why[self.where] = error.errno or why_not(error)
            self.finish()
            return
        try:
            sock.bind((_any(family), owner.port))
            code = sock.connect_ex(self.where)
        except OSError as error:
            sock.close()
            self.failed(error.errno or 0, error.errno or why_not(error))
            return
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            self.failed(code, code)
            return
        self.sock = sock
        notifier = QSocketNotifier(sock.fileno(), QSocketNotifier.Type.Write, owner)
        notifier.activated.connect(lambda *_: self.writable())
        self.notifier = notifier
        self.timer.start(math.ceil(min(owner.attempt_seconds, left) * 1000))

    def writable(self) -> None:
        sock = self.sock
        if sock is None:
            return
        code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if code:
            self.close()
            self.failed(code, code)
            return
        self.timer.stop()
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None
        self.sock = None
        connected = QTcpSocket()
        fd = sock.detach()
        if not connected.setSocketDescriptor(fd):
            socket.close(fd)
            connected.deleteLater()
            self.owner.why[self.where] = connected.errorString() or "the connection failed"
            self.timer.start(0)
            return
        self.owner.why[self.where] = ANSWERED  # what it says if no match comes of it
        self.owner.answered = True
        logger.info("dialled %s from port %d", format_address(*self.where), self.owner.port)
        self.done = True
        emit(self.owner.connected, connected, self.where)  # before ``finished``: taken first
        self.finish()

    def failed(self, code: int, why: Why) -> None:
        """An attempt turned down at once: the next after a pause; none where the pair is
        connected already (the listener took it) or the family is missing here."""
        self.owner.why[self.where] = why
        if code in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            self.finish()
            return
        left = self.owner.until - self.owner.now()
        self.timer.start(math.ceil(max(0.0, min(PAUSE, left)) * 1000))

    def close(self) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()

    def finish(self) -> None:
        self.timer.stop()
        self.close()
        if not self.done:
            self.done = True
        self.owner.settle()


class QtDialFrom(QObject):
    """Dial each of ``candidates`` from ``port`` again and again for ``window`` s, each on
    its own: ``connected(QTcpSocket, (host, port))`` for each that connects (it is dialled no
    more), ``finished`` once every candidate connected or the window closed; :attr:`why`
    says why each one that did not connect did not (its last failure, one phrase)."""

    connected = Signal(object, object)
    finished = Signal()

    def __init__(
        self,
        port: int,
        candidates: Sequence[tuple[str, int]],
        window: float,
        parent: QObject | None = None,
        *,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
        attempt: float = ATTEMPT,
    ) -> None:
        super().__init__(parent)
        self.port, self.now, self.make_timer = port, now, timer
        self.attempt_seconds = attempt
        self.window = window
        self.until = now() + window
        self.why: dict[tuple[str, int], Why] = {}
        self.answered = False
        """A candidate connected."""
        self._candidates = [_Candidate(self, c) for c in dict.fromkeys(candidates)]
        self._started = self._finished = False

    def start(self) -> None:
        self._started = True
        self.until = self.now() + self.window
        for candidate in self._candidates:
            candidate.attempt()
        self.settle()

    def stop(self) -> None:
        """Dial no more (nothing is emitted after it)."""
        self._finished = True
        for candidate in self._candidates:
            candidate.done = True
            candidate.timer.stop()
            candidate.close()

    def settle(self) -> None:
        if self._started and not self._finished and all(c.done for c in self._candidates):
            self._finished = True
            emit(self.finished)

    def tried(self) -> str:
        """What each candidate answered: ``host:port: why; …``, in the player's language."""
        return "; ".join(
            f"{format_address(*c.where)}: {dial_words(self.why.get(c.where, NO_ANSWER))}"
            for c in self._candidates
        )


class QtBothWays(QObject):
    """A joiner that listens on ``sock``'s port as well as dialling the room of ``code``
    from it, for ``window`` s (:meth:`start`). ``joined(QtJoin)`` comes as the first
    handshake succeeds, before the link's own ``established`` (connect to it in the slot);
    ``failed(LinkError)`` when the window closed without one, or the room said no."""

    joined = Signal(object)
    failed = Signal(object)

    def __init__(
        self,
        options: PeerOptions,
        sock: socket.socket,
        code: JoinCode,
        window: float,
        parent: QObject | None = None,
        *,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
    ) -> None:
        super().__init__(parent)
        self.options, self.now, self.make_timer = options, now, timer
        self.port = int(sock.getsockname()[1])
        self.code = code
        self._server = serve(sock, self)  # first: the socket is closed if Qt cannot take it
        self.policy = RoomPolicy(MAX_PENDING, MAX_PER_ADDRESS, private=bool(options.password))
        self.links: dict[QtJoin, Ticket] = {}
        self.winner: QtJoin | None = None
        self._server.newConnection.connect(self._on_new_connection)
        self._server.pauseAccepting()
        candidates = [(c.host, c.port) for c in code.ordered]
        self.dialler = QtDialFrom(self.port, candidates, window, self, now=now, timer=timer)
        self.dialler.connected.connect(lambda sock, _where: self._arrive(sock, True))
        self.dialler.finished.connect(self._settle)
        self._window = timer(self, self._window_closed)
        self._sweeper = timer(self, self._sweep)
        self.window = window
        self._open = False
        self._over = False
        self._answer: LinkError | None = None
        """The room's own refusal, on a connection this side dialled (see :data:`HOST_FAILURES`)."""

    def start(self) -> None:
        self._open = True
        self._server.resumeAccepting()
        self._window.start(math.ceil(self.window * 1000))
        self.dialler.start()

    def seconds_left(self) -> float:
        return max(0.0, self.dialler.until - self.now())

    def cancel(self) -> None:
        """Stop listening and dialling and drop every handshake (nothing is emitted)."""
        self._over = True
        self._close()
        for link in list(self.links):
            link.leave("the player left before the match")

    def _close(self) -> None:
        self._open = False
        self._window.stop()
        self._sweeper.stop()
        self.dialler.stop()
        self._server.close()

    def _window_closed(self) -> None:
        self._open = False
        self.dialler.stop()
        self._server.close()
        self._settle()

    def _on_new_connection(self) -> None:
        while self._server.hasPendingConnections():
            sock = self._server.nextPendingConnection()
            if sock is None:
                break
            self._arrive(sock, False)

    def _arrive(self, sock: QTcpSocket, dialled: bool) -> None:
        if not self._open or self.winner is not None:
            sock.abort()
            sock.deleteLater()
            return
        host, port = _peer_host(sock), int(sock.peerPort())
        ticket = self.policy.admit(format_address(host, port), self.now())
        if isinstance(ticket, Refusal):
            sock.abort()
            sock.deleteLater()
            return
        link = QtJoin(self.options, self, now=self.now, timer=self.make_timer)
        self.links[link] = ticket
        link.on_handshake = self._on_handshake
        link.on_receive = self._on_receive
        link.failed.connect(lambda failure, link=link: self._on_failed(link, failure, dialled))
        link.closed.connect(lambda link=link: self._on_closed(link))
        self._drop(self.policy.take_evicted())
        self._sweep()
        try:
            link.take_socket(sock, host, port)
        except Exception as error:  # a bug here: this connection only
            logger.debug("a connection could not be set up", exc_info=True)
            self._forget(link)
            self._answer = self._answer or LinkError("internal", f"internal error: {error!r}")

    def _on_receive(self, link: PeerLink) -> None:
        ticket = self.links.get(link)  # type: ignore[call-overload]
        if ticket is not None and ticket.number not in self.policy.spoken:
            self.policy.heard(ticket, self.now())
            self._drop(self.policy.take_evicted())
            self._sweep()

    def _on_handshake(self, link: PeerLink) -> None:
        assert isinstance(link, QtJoin)
        ticket = self.links.pop(link, None)
        if ticket is not None:
            self.policy.established(ticket, self.now())
        self.winner = link
        self._close()
        for other in list(self.links):
            other.drop()
        self.links.clear()
        link.on_receive = None
        link.failed.disconnect()  # from here on the lobby's
        link.closed.disconnect()
        link.setParent(self.parent())
        emit(self.joined, link)

    def _on_failed(self, link: QtJoin, failure: LinkError, dialled: bool) -> None:
        ticket = self.links.get(link)
        if ticket is not None:
            if self.policy.private and failure.kind == "auth":
                self.policy.wrong_password(ticket, self.now())
            self.policy.closed(ticket, self.now())
        if dialled and failure.kind in HOST_FAILURES and self.winner is None:
            self._answer = failure  # the room said no: no need to wait on
            self._window_closed()

    def _on_closed(self, link: QtJoin) -> None:
        self._forget(link)
        self._settle()

    def _forget(self, link: QtJoin) -> None:
        ticket = self.links.pop(link, None)
        if ticket is not None:
            self.policy.closed(ticket, self.now())
        if link is not self.winner:
            link.deleteLater()

    def _drop(self, tickets: Sequence[Ticket]) -> None:
        numbers = {ticket.number for ticket in tickets}
        for link, ticket in list(self.links.items()):
            if ticket.number in numbers:
                link.drop()

    def _sweep(self) -> None:
        now = self.now()
        self._drop(self.policy.overdue(now))
        deadline = self.policy.next_deadline()
        if deadline is None:
            self._sweeper.stop()
        else:
            self._sweeper.start(max(0, math.ceil((deadline - now) * 1000)))

    def _settle(self) -> None:
        """No handshake can come any more: say why."""
        if self._over or self.winner is not None or self.links:
            return
        if self._open and self._answer is None:
            return  # still listening: the host may dial back yet
        self._over = True
        self._close()
        failure = self._answer or LinkError(
            "reply",
            f"the room did not dial back within {self.window:g} s, both sides dialling "
            f"({self.dialler.tried()})",
            self.dialler.tried(),
        )
        emit(self.failed, failure)


class QtDialBack(QObject):
    """The host took a reply ``code``: the room lets in only that joiner's identity and
    dials its addresses from the room's port for :data:`DIAL_BACK_WINDOW` s (:meth:`start`).
    ``failed(str)`` when no match came of it (what each address answered, ``host:port: why;
    …``; :attr:`answered` says whether one connected); the pin is then taken off the room
    again, for another try."""

    failed = Signal(str)

    def __init__(
        self,
        room: QtRoom,
        code: JoinCode,
        parent: QObject | None = None,
        *,
        now: Callable[[], float] = _now,
        timer: TimerFactory = qt_timer,
        window: float = DIAL_BACK_WINDOW,
    ) -> None:
        super().__init__(parent)
        self.room, self.code, self.now = room, code, now
        self.window = window
        self.candidates = [(c.host, c.port) for c in code.ordered]
        self.dialler = QtDialFrom(room.port, self.candidates, window, self, now=now, timer=timer)
        self.dialler.connected.connect(lambda sock, _where: self.room.take(sock))
        self.dialler.finished.connect(self._dialled)
        self._waiting = timer(self, self._check)
        self.answered = False
        self._until = 0.0
        self._done = False

    def start(self) -> None:
        self.room.options.expected_joiner = self.code.fingerprint  # its handshakes from now
        self.dialler.start()

    def stop(self) -> None:
        """Dial no more, emit nothing (the room keeps its pin: the match is the pinned
        joiner's, or the room is closing)."""
        self._done = True
        self._waiting.stop()
        self.dialler.stop()

    def _dialled(self) -> None:
        """The window closed (or every address connected): the handshakes under way may
        finish, within the handshake's deadline."""
        self._until = self.now() + HANDSHAKE_DEADLINE
        self._check()

    def _check(self) -> None:
        if self._done:
            return
        room = self.room
        if room.match is not None or room.done:
            self.stop()
            return
        if room.policy.pending and self.now() < self._until:
            self._waiting.start(100)
            return
        self._done = True
        if room.options.expected_joiner == self.code.fingerprint:
            room.options.expected_joiner = None
        self.answered = self.dialler.answered
        emit(self.failed, self.dialler.tried())
