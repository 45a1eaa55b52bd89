"""Driving one connection: :func:`drive` runs a :class:`~koikoi.net.connection.Connection`
over asyncio streams, asking the local player for its moves; the closes that let the peer
read our last bytes; the record written after each step."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from koikoi.engine.round import Action
from koikoi.net.connection import (
    Connection,
    ConnectionEvent,
    HandshakeDone,
    HandshakeFailed,
    count_aborts,
)
from koikoi.net.policy import CLOSE_GRACE, GoodbyeWait
from koikoi.net.resume import finished
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.events import Ended, MovePlayed, PeerOverdue, TossDone
from koikoi.net.transport.options import EventHook, LocalPlayer, Outcome, PeerOptions

logger = logging.getLogger("koikoi.net.transport")  # the log lines, as they were


READ_CHUNK: Final = 64 * 1024


async def _write(writer: asyncio.StreamWriter, data: bytes, timeout: float) -> None:
    writer.write(data)
    await asyncio.wait_for(writer.drain(), timeout)


async def _close(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, grace: float = CLOSE_GRACE
) -> int:
    """Half-close, let the peer read our last bytes and close its end, then close.

    Closing a socket with unread input makes the kernel reset the connection, which can
    destroy our last message (the farewell or goodbye) before the peer reads it. Returns
    the bytes read meanwhile (the peer's goodbye, say), which are not looked at.
    """
    drained = 0
    with contextlib.suppress(Exception):
        if writer.can_write_eof():
            writer.write_eof()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while (left := deadline - loop.time()) > 0:
            data = await asyncio.wait_for(reader.read(READ_CHUNK), left)
            if not data:
                break
            drained += len(data)
    writer.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.wait_closed(), grace)
    return drained


async def _close_checked(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, grace: float = CLOSE_GRACE
) -> tuple[int, bool]:
    """:func:`_close`, also saying whether the peer closed cleanly: its end of the stream
    (or its silence for ``grace``) rather than an error such as a reset."""
    drained = 0
    clean = True
    try:
        if writer.can_write_eof():
            writer.write_eof()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while (left := deadline - loop.time()) > 0:
            try:
                data = await asyncio.wait_for(reader.read(READ_CHUNK), left)
            except TimeoutError:
                break
            if not data:
                break
            drained += len(data)
    except Exception:  # a reset, a broken pipe: the peer may not have our last bytes
        clean = False
    writer.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.wait_closed(), grace)
    return drained, clean


async def drive(
    conn: Connection,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    player: LocalPlayer,
    outcome: Outcome,
    on_event: EventHook | None = None,
    stop: asyncio.Event | None = None,
    on_receive: Callable[[], None] | None = None,
    on_step: Callable[[Sequence[ConnectionEvent]], None] | None = None,
) -> None:
    """Run ``conn`` over the stream until it closes; never raises for what the peer does.

    Setting ``stop`` makes the local side leave: the peer is told and the match ends
    unfinished. ``on_receive`` is called whenever bytes arrive (a room's policy listens).
    A peer that sends no move for the abandon time is declared to have abandoned the match
    at once. The local computer player never needs the move clock's automatic move: its
    search budget is seconds, the clock a minute.
    """
    await _Drive(conn, reader, writer, player, outcome, on_event, stop, on_receive, on_step).run()


class _Drive:
    """:func:`drive`'s loop, one step a method: send what is due, wait for the first of the
    peer's bytes, the local player's move, the stop and the next timer, carry out what came,
    and close as the connection says."""

    def __init__(
        self,
        conn: Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        player: LocalPlayer,
        outcome: Outcome,
        on_event: EventHook | None,
        stop: asyncio.Event | None,
        on_receive: Callable[[], None] | None,
        on_step: Callable[[Sequence[ConnectionEvent]], None] | None,
    ) -> None:
        self.conn = conn
        self.reader = reader
        self.writer = writer
        self.player = player
        self.outcome = outcome
        self.on_event = on_event
        self.on_receive = on_receive
        self.on_step = on_step
        self.loop = asyncio.get_running_loop()
        self.timeout = conn.silence_timeout
        self.goodbye = GoodbyeWait()
        self.read_task: asyncio.Task[bytes] = asyncio.ensure_future(reader.read(READ_CHUNK))
        self.think_task: asyncio.Task[Action] | None = None
        self.stop_task: asyncio.Task[bool] | None = None
        if stop is not None:
            self.stop_task = asyncio.ensure_future(stop.wait())

    def handle(self, events: Sequence[ConnectionEvent]) -> None:
        """Carry out one step's events: the outcome's times, the player told, the hooks."""
        conn, outcome = self.conn, self.outcome
        now = self.loop.time()
        overdue = False
        for event in events:
            if isinstance(event, HandshakeDone):
                outcome.times["established"] = now
            elif isinstance(event, TossDone):
                outcome.times["first_deal"] = now
                self.player.notify(event.events)
            elif isinstance(event, MovePlayed):
                self.player.notify(event.events)
            elif isinstance(event, Ended | HandshakeFailed):
                outcome.times["ended"] = now
            elif isinstance(event, PeerOverdue):
                overdue = True
            if self.on_event is not None:
                self.on_event(event, now)
        if overdue and not conn.closed:
            self.handle(conn.abandon(now))
        if self.on_step is not None:  # after each step, before what it sends goes out
            self.on_step(events)

    async def run(self) -> None:
        conn = self.conn
        try:
            while await self._send() and not self._goodbye_closes():
                done = await self._wait()
                if self.read_task in done and not self._received():
                    continue
                if self.think_task is not None and self.think_task in done:
                    self._thought(self.think_task)
                if self.stop_task is not None and self.stop_task in done:
                    self.stop_task = None
                    self.handle(conn.leave(self.loop.time(), "the player left"))
                self.handle(conn.tick(self.loop.time()))
        except asyncio.CancelledError:
            self.handle(conn.leave(self.loop.time(), "the program was stopped"))
            with contextlib.suppress(Exception):
                await _write(self.writer, conn.data_to_send(), 1.0)
            raise
        finally:
            await self._wind_down()

    async def _send(self) -> bool:
        """Send what the connection has to send; False: the connection is lost."""
        conn = self.conn
        data = conn.data_to_send()
        if data:
            try:
                await _write(self.writer, data, self.timeout)
            except (OSError, TimeoutError) as error:
                detail = str(error) or "the peer stopped reading"
                self.handle(conn.connection_lost(self.loop.time(), detail))
                return False
            self.outcome.bytes_sent += len(data)
        return True

    def _goodbye_closes(self) -> bool:
        """The match finished here: the peer's goodbye says it has the last entry; a drop
        before it leaves the session to be resumed (resume.py)."""
        conn = self.conn
        return self.goodbye.close_now(
            closed=conn.closed, awaiting_goodbye=conn.awaiting_goodbye, now=self.loop.time()
        )

    async def _wait(self) -> set[asyncio.Future[Any]]:
        """Ask the local player when it is to move; wait for the first of the peer's bytes,
        its move, the stop and the next timer (the goodbye's, while it is waited for)."""
        conn = self.conn
        observation = conn.local_turn
        if observation is not None and self.think_task is None:
            self.think_task = asyncio.ensure_future(self.player.choose(observation))
        waiting: set[asyncio.Future[Any]] = {self.read_task}
        if self.think_task is not None:
            waiting.add(self.think_task)
        if self.stop_task is not None:
            waiting.add(self.stop_task)
        timer = conn.next_timer() if self.goodbye.by is None else self.goodbye.by
        wait = None if timer is None else max(0.0, timer - self.loop.time())
        done, _ = await asyncio.wait(waiting, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        return done

    def _received(self) -> bool:
        """Feed what the peer sent and read on; False: the connection is lost (the step
        ends there)."""
        conn = self.conn
        try:
            received = self.read_task.result()
        except OSError as error:
            self.handle(conn.connection_lost(self.loop.time(), str(error) or type(error).__name__))
            return False
        if not received:
            self.handle(conn.connection_lost(self.loop.time()))
            return False
        self.outcome.bytes_received += len(received)
        if self.on_receive is not None:
            self.on_receive()
        self.handle(conn.receive_data(received, self.loop.time()))
        self.read_task = asyncio.ensure_future(self.reader.read(READ_CHUNK))
        return True

    def _thought(self, task: asyncio.Task[Action]) -> None:
        """The local player chose: play its move (a failed player ends the match cleanly)."""
        self.think_task = None
        session = self.conn.session
        assert session is not None
        try:
            action = task.result()
            self.handle(self.conn.play(action, self.loop.time()))
        except Exception as error:  # the local player failed: say so, end cleanly
            logger.debug("the local player failed", exc_info=True)
            reason = f"the local player failed: {error}"
            self.handle(session.local_failure(self.loop.time(), reason))

    async def _wind_down(self) -> None:
        """Stop reading and thinking, and close: a dead connection at once; a joiner's
        finished match that may still be resumed checks that the peer closed cleanly."""
        conn, reader, writer = self.conn, self.reader, self.writer
        if self.stop_task is not None:
            self.stop_task.cancel()
        self.read_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.read_task
        if conn.session is not None and conn.suspended is None:
            self.player.cancel()
        if self.think_task is not None:
            self.think_task.cancel()
        if conn.suspended is not None:  # a dead connection: no goodbye to wait for
            writer.transport.abort()
        if not writer.is_closing():
            if conn.role is Role.JOINER and finished(conn.session) and conn.resume_window > 0:
                drained, clean = await _close_checked(reader, writer)
                self.outcome.bytes_received += drained
                if not clean:
                    self.handle(conn.unclean_end(self.loop.time()))
            else:
                self.outcome.bytes_received += await _close(reader, writer)


def _session_recording(
    session: Session,
    options: PeerOptions,
    on_event: EventHook | None,
    held_by: Callable[[], Connection | None] = lambda: None,
) -> Callable[[Sequence[ConnectionEvent], float], None]:
    """``on_event`` for each event, then the record when due (for a session that no
    connection holds: it left or expired while suspended). An abort it ends in is counted
    in the peer's pin (:func:`~koikoi.net.connection.count_aborts`), the count kept on
    the connection that held the session last (``held_by``), for the result's line."""

    def hook(events: Sequence[ConnectionEvent], now: float) -> None:
        counted = count_aborts(events, session, options.known_peers)
        conn = held_by()
        if counted is not None and conn is not None:
            conn.toss_aborts = counted
        if on_event is not None:
            for event in events:
                on_event(event, now)
        options.record(session, events)

    return hook


def _recording(
    conn: Connection, options: PeerOptions
) -> Callable[[Sequence[ConnectionEvent]], None]:
    """After each step of ``conn``, the record when due (:meth:`PeerOptions.record`)."""

    def step(events: Sequence[ConnectionEvent]) -> None:
        options.record(conn.session, events)

    return step
