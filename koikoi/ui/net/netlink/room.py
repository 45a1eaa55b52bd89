"""The host's room: :class:`QtRoom` listens, admits connections by the sans-I/O
:class:`~koikoi.net.room.RoomPolicy`, plays one match and turns the others away."""

from __future__ import annotations

import logging
import math
import os
import weakref
from collections.abc import Callable, Sequence
from typing import Final

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtNetwork import (
    QAbstractSocket,
    QHostAddress,
    QNetworkInterface,
    QTcpServer,
    QTcpSocket,
)

from koikoi.engine.round import Action
from koikoi.net.address import format_address
from koikoi.net.connection import ConnectionEvent
from koikoi.net.handshake import Phase, refuse_message
from koikoi.net.policy import may_resume, resumable_after
from koikoi.net.resume import Suspended
from koikoi.net.roles import Role
from koikoi.net.room import MAX_PENDING, Refusal, RoomPolicy, Ticket, address_host
from koikoi.net.session.clock import MoveClock
from koikoi.net.session.core import Session
from koikoi.net.transport.bothdial import listen_dual
from koikoi.net.transport.options import PeerOptions
from koikoi.net.wire import encode_frame
from koikoi.ui.common.signals import emit
from koikoi.ui.net.neterrors import TurnedAway
from koikoi.ui.net.netlink.base import (
    RESTARTED,
    LinkError,
    TimerFactory,
    _lower_first,
    _now,
    _peer_host,
    qt_timer,
    table_options,
)
from koikoi.ui.net.netlink.peer import PeerLink

logger = logging.getLogger("koikoi.ui.net.netlink")  # the link's log lines, as they were


def local_addresses(port: int, *, ipv4: bool = True, ipv6: bool = True) -> list[str]:
    """``host:port`` for each of this machine's addresses of the families asked (loopback
    last; IPv6 link-local ones left out): where a port listening on every interface can be
    dialled."""
    v4 = QAbstractSocket.NetworkLayerProtocol.IPv4Protocol
    hosts: list[tuple[bool, str]] = []
    for address in QNetworkInterface.allAddresses():
        is_v4 = address.protocol() is v4
        if (not ipv4 and is_v4) or (not ipv6 and not is_v4) or address.isLinkLocal():
            continue
        hosts.append((address.isLoopback(), address.toString()))
    hosts.sort(key=lambda item: item[0])
    return [format_address(host, port) for _, host in hosts]


ACCEPT_BATCH: Final = 30
"""Connections a room accepts in one turn of the event loop (the rest wait in the kernel)."""


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
    stamp_received = Signal(str)
    after_opened = Signal()
    peer_rematch = Signal()
    after_over = Signal(object)
    """After the match: see :attr:`PeerLink.peer_rematch` and :attr:`PeerLink.after_over`."""
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
        self.options = table_options(options)
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

    def listen(self, bind: str = "", port: int = 0, *, dial_out: bool = False) -> None:
        """Listen on ``bind`` (an IP address; empty: every interface) and ``port`` (0: any).
        ``dial_out``: the port may also dial out (a room open to the internet dials a reply
        code's addresses from it, :class:`~koikoi.ui.net.netlink.bothways.QtDialBack`).

        Raises :class:`ValueError` with one line when it cannot.
        """
        if dial_out:
            self._listen_dialling_out(bind, port)
            return
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

    def _listen_dialling_out(self, bind: str, port: int) -> None:
        try:  # a socket of its own: Qt's set SO_REUSEADDR only, not SO_REUSEPORT
            sock = listen_dual("" if bind in ("", "*") else bind, port)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            where = format_address(bind or "*", port)
            raise ValueError(f"cannot listen on {where}: {reason}") from None
        fd = sock.detach()
        if not self._server.setSocketDescriptor(fd):
            os.close(fd)
            reason = _lower_first(self._server.errorString())
            raise ValueError(f"cannot listen on {format_address(bind or '*', port)}: {reason}")

    def take(self, sock: QTcpSocket) -> None:
        """A connection this side dialled (both sides dial): admitted as an accepted one."""
        if self._leaving or not self._server.isListening():
            sock.abort()
            sock.deleteLater()
            return
        sock.setParent(self)
        self._take_one(sock)

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
        return local_addresses(port, ipv4=not v6_only, ipv6=not v4_only)

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

    def set_ready(self, ready: bool) -> None:
        """The local table is ready or not (see :meth:`PeerLink.set_ready`)."""
        if self.match is not None:
            self.match.set_ready(ready)

    def send_stamp(self, stamp: str) -> bool:
        """A stamp to the match's peer (see :meth:`PeerLink.send_stamp`)."""
        return self.match is not None and self.match.send_stamp(stamp)

    def stamp_wait(self) -> float | None:
        """Seconds until a stamp may go (see :meth:`PeerLink.stamp_wait`)."""
        return None if self.match is None else self.match.stamp_wait()

    @property
    def after_open(self) -> bool:
        """The match's connection stays open after it (see :attr:`PeerLink.after_open`)."""
        return self.match is not None and self.match.after_open

    def rematch(self) -> bool:
        """Tell the match's peer this player clicked Rematch (see :meth:`PeerLink.rematch`)."""
        return self.match is not None and self.match.rematch()

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
            self._take_one(sock)

    def _take_one(self, sock: QTcpSocket) -> None:
        """Admit ``sock``; a bug in setting it up costs that connection only, said as such."""
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
        link.stamp_received.connect(self.stamp_received)
        link.after_opened.connect(self.after_opened)
        link.peer_rematch.connect(self.peer_rematch)
        link.after_over.connect(self.after_over)
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
        :meth:`koikoi.net.transport.room.Room.adopt`."""
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
