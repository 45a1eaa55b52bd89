"""The joiner: :class:`QtJoin` dials a room, and dials it again while a dropped match waits
to be resumed (following an mDNS room to where it is advertised now)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QTcpSocket

from koikoi.net.address import format_address, parse_address
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeFailed
from koikoi.net.errors import AuthenticationFailed
from koikoi.net.policy import RedialSchedule, Verdict, redial_verdict
from koikoi.net.resume import Resumed, Suspended
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.events import Ended
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.signals import emit
from koikoi.ui.net.netlink.base import RESTARTED, LinkError, LinkStage, TimerFactory, _now, qt_timer
from koikoi.ui.net.netlink.peer import PeerLink

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
        self._dial_timeout: float | None = None

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
        from koikoi.ui.lobby.rooms import RoomFinder  # mDNS only when a room is followed

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

    def connect_to_address(self, text: str, timeout: float | None = None) -> None:
        """``HOST:PORT`` or ``[v6]:PORT``; raises :class:`ValueError` (one line) otherwise."""
        host, port = parse_address(text)
        self.connect_to(host, port, timeout)

    def connect_to(self, host: str, port: int, timeout: float | None = None) -> None:
        """Start connecting; a host name is looked up without blocking the event loop.
        ``timeout``: seconds for the connection (default: the options' silence timeout; a
        join code's addresses share a budget)."""
        if self._stage != LinkStage.NEW:
            raise ValueError("this link has already been used")
        self.address = format_address(host, port)
        self.times["connect"] = self.now()
        self._dialled = (host, port)
        self._dial(host, port, self.options.silence_timeout if timeout is None else timeout)

    def dial_seconds(self) -> float:
        return self.options.silence_timeout if self._dial_timeout is None else self._dial_timeout

    def _dial(self, host: str, port: int, timeout: float) -> None:
        self._dial_timeout = timeout
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

    def take_socket(self, sock: QTcpSocket, host: str, port: int) -> None:
        """Play over ``sock``, connected to ``host:port`` already (both sides dialled:
        :class:`~koikoi.ui.net.netlink.bothways.QtBothWays`); the link becomes its parent."""
        if self._stage != LinkStage.NEW:
            raise ValueError("this link has already been used")
        self.address = format_address(host, port)
        self.times["connect"] = self.now()
        self._dialled = (host, port)
        self._stage = LinkStage.CONNECTING
        self.socket = sock
        sock.setParent(self)
        self._start_handshake(sock)

    def _on_connected(self) -> None:
        sock = self.socket
        if self._stage != LinkStage.CONNECTING or sock is None:
            return
        self._timer.stop()
        sock.connected.disconnect(self._on_connected)
        sock.errorOccurred.disconnect(self._on_error)
        self._start_handshake(sock)

    def _start_handshake(self, sock: QTcpSocket) -> None:
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
