"""The host's :class:`Room`: it listens, answers every connection (a bad one is closed with a
reason and the room keeps listening), plays one match with the first peer whose handshake
succeeds, turns away the others as busy and takes its peer back to resume."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import socket
from collections.abc import Callable, Sequence
from typing import Any, Final

from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone, HandshakeFailed
from koikoi.net.errors import AuthenticationFailed, DealingRefused
from koikoi.net.handshake import refuse_message
from koikoi.net.policy import CLOSE_GRACE, may_resume, resumable_after
from koikoi.net.resume import Resumed, Suspended, expire, finished
from koikoi.net.roles import Role
from koikoi.net.room import MAX_PENDING, Refusal, RoomPolicy, Ticket, address_host
from koikoi.net.session.core import Session
from koikoi.net.transport.driving import _close, _recording, _session_recording, _write, drive
from koikoi.net.transport.options import EventHook, LocalPlayer, Outcome, PeerOptions
from koikoi.net.wire import encode_frame

logger = logging.getLogger("koikoi.net.transport")  # the log lines, as they were


_OUT_OF_RESOURCES: Final = "socket.accept() out of system resource"
OUT_OF_DESCRIPTORS: Final = "this machine is out of file descriptors (a connection flood?)"


def _quiet_when_out_of_descriptors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of file descriptors (EMFILE: a connection flood), asyncio's server pauses
    accepting and resumes a moment later by itself, but reports it with a traceback each
    time. Say it once a minute in the log, quietly, and leave the rest to the loop's handler.
    """
    previous = loop.get_exception_handler()
    if getattr(previous, "koikoi_quiet", False):
        return
    last = [-math.inf]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == _OUT_OF_RESOURCES:
            if loop.time() - last[0] >= 60.0:
                last[0] = loop.time()
                logger.info("out of file descriptors: not accepting for a moment")
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    handler.koikoi_quiet = True  # type: ignore[attr-defined]
    loop.set_exception_handler(handler)


RefusedHook = Callable[[str, str], None]
"""Called with the address and the reason of each connection the room turned away."""
WrongPasswordHook = Callable[[str, int], None]
"""Called with an address (its host part) and how many wrong passwords came from it."""


class Room:
    """A listening host: one match, with the first peer whose handshake succeeds.

    Every other connection is closed with a reason (its handshake failed, it was malformed,
    or the room is busy); the room keeps listening until its match has ended.
    """

    def __init__(
        self,
        options: PeerOptions,
        player: LocalPlayer,
        *,
        on_event: EventHook | None = None,
        on_refused: RefusedHook | None = None,
        max_pending: int = MAX_PENDING,
        stop: asyncio.Event | None = None,
        on_wrong_password: WrongPasswordHook | None = None,
        end_on_refused_dealing: bool = False,
    ) -> None:
        self.options = options
        self.end_on_refused_dealing = end_on_refused_dealing
        """A peer whose dealing this room refuses (:class:`~koikoi.net.errors.DealingRefused`:
        it offers only the joint seed, and the room deals privately only) ends the room
        before any match, its outcome that refusal (``koikoi host`` of an open room: exit 1,
        ``ended`` ``refused``), instead of being turned away while the room goes on
        listening. The refusal comes from the clear hello, before any password: a password
        room that ended on it could be ended by anyone who can dial it."""
        self.player = player
        self.on_event = on_event
        self.on_refused = on_refused
        self.stop = stop
        self.refused = 0
        self.on_wrong_password = on_wrong_password
        self.policy = RoomPolicy(max_pending, private=bool(options.password))
        """Who gets in (:mod:`koikoi.net.room`); this class only moves the bytes."""
        self._servers: list[asyncio.Server] = []
        self._outcome: asyncio.Future[Outcome] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: dict[int, asyncio.StreamWriter] = {}
        """The pending connections' streams, by ticket number, to drop what the policy says."""
        self._dropped: dict[int, str] = {}
        """Why the room dropped a pending connection, by ticket number."""
        self._sweeper: asyncio.TimerHandle | None = None
        self._match: Outcome | None = None
        """The outcome of the connection that holds the room's match (the last one, after a
        resume)."""
        self._expiry: asyncio.TimerHandle | None = None
        """Ends a suspended match that was not resumed in time."""
        self._stop_watch: asyncio.Task[None] | None = None
        self._match_writer: asyncio.StreamWriter | None = None
        self._suspension: Suspended | None = None
        self._out_of_descriptors_said = -math.inf

    async def open(
        self, bind: str, port: int, sockets: Sequence[socket.socket] = ()
    ) -> tuple[str, int]:
        """Start listening; returns the address and port actually bound. ``sockets``:
        listening sockets made already (both families on one port, for both sides to dial:
        :func:`~koikoi.net.transport.bothdial.listen_both`), served instead of ``bind``."""
        loop = asyncio.get_running_loop()
        _quiet_when_out_of_descriptors(loop)
        self._outcome = loop.create_future()
        if sockets:
            for sock in sockets:
                self._servers.append(await asyncio.start_server(self._accept, sock=sock))
        else:
            self._servers.append(await asyncio.start_server(self._accept, bind, port))
        sockname = self._servers[0].sockets[0].getsockname()
        return str(sockname[0]), int(sockname[1])

    def take(self, streams: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
        """Serve a connection this side dialled (both sides dial) as if it had been
        accepted: the same admission, the same handshake as the host."""
        assert self._outcome is not None, "open() the room first"
        asyncio.ensure_future(self._accept(*streams))

    async def outcome(self) -> Outcome:
        """Wait for the room's match to end."""
        assert self._outcome is not None, "open() the room first"
        return await asyncio.shield(self._outcome)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._expiry is not None:
            self._expiry.cancel()
        if self._stop_watch is not None:
            self._stop_watch.cancel()
        for server in self._servers:
            server.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), CLOSE_GRACE)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    @property
    def playing(self) -> bool:
        """A match is being played (its outcome is still to come), or waits to be resumed."""
        return self.policy.playing or self.suspended

    @property
    def suspended(self) -> bool:
        """The match's connection dropped; the room waits for its peer to resume it."""
        match = self._match
        if match is None:
            return False
        session = match.session
        waiting = match.connection is None or match.connection.suspended is not None
        return waiting and session is not None and (not session.closed or finished(session))

    def adopt(self, session: Session) -> None:
        """Take back a match restored from its record (this side crashed and was started
        again, :func:`~koikoi.net.resume.restore_session`): it waits for its peer to resume
        it, for the resume window, like a match whose connection dropped."""
        loop = asyncio.get_running_loop()
        self._match = Outcome("", held=session)
        self.policy.match_over = True  # nobody else may start a match here
        self.policy.resumable = True
        suspension = Suspended(
            loop.time() + self.options.resume_window, "restarted from the record"
        )
        self._on_match_event(None, suspension, loop.time())

    def _resume_candidate(self, key: bytes) -> Session | None:
        """The room's match, when ``key`` may resume it (:func:`~koikoi.net.policy.may_resume`):
        the connection that holds it (if the host did not notice the drop yet) lets go of it."""
        match = self._match
        if match is None:
            return None
        session = match.session
        old = match.connection
        if session is None or not may_resume(
            session,
            key,
            suspended=old is None or old.suspended is not None,
            awaiting_goodbye=old is not None and old.awaiting_goodbye,
            closing=self.policy.closing,
        ):
            return None
        loop = asyncio.get_running_loop()
        if old is not None:
            for event in old.detach(loop.time(), "the peer dialled again"):
                self._on_match_event(old, event, loop.time())
        return session

    def _on_match_event(self, conn: Connection | None, event: ConnectionEvent, now: float) -> None:
        """Resume bookkeeping for the connection of the room's match."""
        policy = self.policy
        policy.resumable = resumable_after(event, self.options.resume_window, policy.resumable)
        if isinstance(event, Suspended):
            loop = asyncio.get_running_loop()
            if self._expiry is not None:
                self._expiry.cancel()
            self._suspension = event
            self._expiry = loop.call_at(event.deadline, self._expire, conn)
            writer = self._match_writer
            if writer is not None and conn is not None and conn is self._match_conn():
                writer.transport.abort()
            if self._stop_watch is None and self.stop is not None:
                self._stop_watch = asyncio.ensure_future(self._leave_when_stopped(self.stop))
        if self.on_event is not None and isinstance(event, Suspended | Resumed):
            self.on_event(event, now)

    def _match_conn(self) -> Connection | None:
        return None if self._match is None else self._match.connection

    def _expire(self, conn: Connection | None) -> None:
        """The window passed: a match still suspended ends as dropped."""
        self._expiry = None
        match, suspended = self._match, self._suspension
        if conn is not self._match_conn() or not self.suspended or match is None:
            return
        session = match.session
        assert suspended is not None and session is not None
        self._end_suspended(expire(session, suspended, asyncio.get_running_loop().time()))

    async def _leave_when_stopped(self, stop: asyncio.Event) -> None:
        await stop.wait()
        self._stop_watch = None
        match = self._match
        if self.suspended and match is not None and match.session is not None:
            loop = asyncio.get_running_loop()
            self._end_suspended(match.session.leave(loop.time(), "the player left"))

    def _end_suspended(self, events: Sequence[ConnectionEvent]) -> None:
        match = self._match
        assert match is not None and match.session is not None
        hook = _session_recording(
            match.session, self.options, self.on_event, lambda: match.connection
        )
        loop = asyncio.get_running_loop()
        if events:
            match.times["ended"] = loop.time()
        hook(events, loop.time())
        self.policy.resumable = False
        assert self._outcome is not None
        if not self._outcome.done():
            self._outcome.set_result(match)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._serve(reader, writer)
        except asyncio.CancelledError:
            # The room closed (close() cancels what is still running). End quietly: asyncio's
            # stream callback would print a cancelled handler's CancelledError as a traceback.
            writer.transport.abort()
        except OSError as error:
            writer.transport.abort()
            if error.errno in (errno.EMFILE, errno.ENFILE):
                # A connection flood took the last descriptors while this one was served: it
                # is turned away, said once a minute like the paused accepting.
                self.refused += 1
                if self.on_refused is not None:
                    self.on_refused("a connection", OUT_OF_DESCRIPTORS)
                now = asyncio.get_running_loop().time()
                if now - self._out_of_descriptors_said >= 60.0:
                    self._out_of_descriptors_said = now
                    logger.info("turned connections away: %s", OUT_OF_DESCRIPTORS)
            else:
                logger.debug("connection handler failed", exc_info=True)
                self._refuse("a connection", f"internal error: {error!r}")
        except Exception as error:  # never let one connection take the room down
            logger.debug("connection handler failed", exc_info=True)
            self._refuse("a connection", f"internal error: {error!r}")
            writer.close()
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        loop = asyncio.get_running_loop()
        ticket = self.policy.admit(address, loop.time())
        if isinstance(ticket, Refusal):
            self._refuse(address, ticket.reason)
            with contextlib.suppress(Exception):
                await _write(writer, encode_frame(refuse_message(ticket.code)), 1.0)
            await _close(reader, writer, grace=0.5)
            return
        self._writers[ticket.number] = writer
        self._drop(self.policy.take_evicted(), "dropped to make room for a newer connection")
        self._sweep()
        conn = self.options.connection(Role.HOST, loop.time())
        conn.busy = lambda: self.policy.busy
        conn.resume_candidate = self._resume_candidate
        outcome = Outcome(address, conn)
        outcome.times["connected"] = loop.time()

        def on_receive() -> None:
            if ticket.number in self.policy.pending and ticket.number not in self.policy.spoken:
                self.policy.heard(ticket, loop.time())
                self._drop(self.policy.take_evicted(), "dropped to limit password attempts")
                self._sweep()

        def on_event(event: ConnectionEvent, now: float) -> None:
            self._on_connection_event(ticket, outcome, writer, event, now)

        try:
            await drive(
                conn,
                reader,
                writer,
                self.player,
                outcome,
                on_event,
                self.stop,
                on_receive,
                _recording(conn, self.options),
            )
        finally:
            self._writers.pop(ticket.number, None)
            established = self.policy.closed(ticket, loop.time())
        self._served(ticket, outcome, established)

    def _on_connection_event(
        self,
        ticket: Ticket,
        outcome: Outcome,
        writer: asyncio.StreamWriter,
        event: ConnectionEvent,
        now: float,
    ) -> None:
        """What the policy and the room's match make of an event of ``outcome``'s
        connection, then the room's ``on_event``."""
        conn, address = outcome.connection, outcome.address
        if isinstance(event, HandshakeDone):
            self.policy.established(ticket, now)
            self._match, self._match_writer = outcome, writer
        elif isinstance(event, Resumed):
            self.policy.resumed(ticket, now)
            previous = self._match
            if previous is not None:
                outcome.resumed = previous.resumed + 1
                outcome.times = {**previous.times, **outcome.times}
            self._match, self._match_writer = outcome, writer
            if self._expiry is not None:
                self._expiry.cancel()
                self._expiry = None
        elif isinstance(event, HandshakeFailed):  # its place is free now, not after the close
            if self.policy.private and isinstance(event.error, AuthenticationFailed):
                count = self.policy.wrong_password(ticket, now)
                if self.on_wrong_password is not None:
                    self.on_wrong_password(address_host(address), count)
            self.policy.closed(ticket, now)
        if self._match is outcome:
            self._on_match_event(conn, event, now)
            if isinstance(event, Suspended | Resumed):
                return
        if self.on_event is not None:
            self.on_event(event, now)

    def _served(self, ticket: Ticket, outcome: Outcome, established: bool) -> None:
        """``outcome``'s connection closed: the room's match ended, waits to be resumed, or
        the connection is turned away with its reason (an open room's refused dealing ends
        the room)."""
        conn, address = outcome.connection, outcome.address
        assert conn is not None
        dropped = self._dropped.pop(ticket.number, None)
        if dropped is not None:
            self._refuse(address, dropped)
            return
        if conn.suspended is not None:
            return  # the match waits to be resumed, or goes on over another connection
        if established:
            self.policy.resumable = False
            assert self._outcome is not None
            if not self._outcome.done():
                self._outcome.set_result(outcome)
            return
        reason = str(conn.failure) if conn.failure is not None else "the connection ended"
        if (
            isinstance(conn.failure, DealingRefused)
            and self.end_on_refused_dealing
            and self._match is None
        ):
            self.refused += 1
            logger.info("turned away %s: %s", address, reason)
            outcome.failure = reason
            assert self._outcome is not None
            if not self._outcome.done():
                self._outcome.set_result(outcome)
            return
        self._refuse(address, reason)

    def _drop(self, tickets: Sequence[Ticket], reason: str) -> None:
        """Close pending connections at once (evicted or overdue): no farewell is owed."""
        for ticket in tickets:
            writer = self._writers.pop(ticket.number, None)
            if writer is not None:
                self._dropped[ticket.number] = reason
                writer.transport.abort()

    def _sweep(self) -> None:
        """Drop the overdue pending connections; wake up again at the next deadline."""
        loop = asyncio.get_running_loop()
        self._drop(self.policy.overdue(loop.time()), "did not finish the handshake in time")
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        deadline = self.policy.next_deadline()
        if deadline is not None:
            self._sweeper = loop.call_at(deadline, self._sweep)

    def _refuse(self, address: str, reason: str) -> None:
        self.refused += 1
        logger.info("turned away %s: %s", address, reason)
        if self.on_refused is not None:
            self.on_refused(address, reason)
