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
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone, HandshakeFailed
from koikoi.net.policy import CLOSE_GRACE, GoodbyeWait
from koikoi.net.resume import finished
from koikoi.net.roles import Role
from koikoi.net.session import Ended, MovePlayed, PeerOverdue, Session, TossDone
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
    loop = asyncio.get_running_loop()
    timeout = conn.silence_timeout

    def handle(events: Sequence[ConnectionEvent]) -> None:
        now = loop.time()
        overdue = False
        for event in events:
            if isinstance(event, HandshakeDone):
                outcome.times["established"] = now
            elif isinstance(event, TossDone):
                outcome.times["first_deal"] = now
                player.notify(event.events)
            elif isinstance(event, MovePlayed):
                player.notify(event.events)
            elif isinstance(event, Ended | HandshakeFailed):
                outcome.times["ended"] = now
            elif isinstance(event, PeerOverdue):
                overdue = True
            if on_event is not None:
                on_event(event, now)
        if overdue and not conn.closed:
            handle(conn.abandon(now))
        if on_step is not None:  # after each step, before what it sends goes out
            on_step(events)

    goodbye = GoodbyeWait()
    read_task: asyncio.Task[bytes] = asyncio.ensure_future(reader.read(READ_CHUNK))
    think_task: asyncio.Task[Action] | None = None
    stop_task: asyncio.Task[bool] | None = None
    if stop is not None:
        stop_task = asyncio.ensure_future(stop.wait())
    try:
        while True:
            data = conn.data_to_send()
            if data:
                try:
                    await _write(writer, data, timeout)
                except (OSError, TimeoutError) as error:
                    detail = str(error) or "the peer stopped reading"
                    handle(conn.connection_lost(loop.time(), detail))
                    break
                outcome.bytes_sent += len(data)
            # The match finished here: the peer's goodbye says it has the last entry; a drop
            # before it leaves the session to be resumed (resume.py).
            if goodbye.close_now(
                closed=conn.closed, awaiting_goodbye=conn.awaiting_goodbye, now=loop.time()
            ):
                break
            observation = conn.local_turn
            if observation is not None and think_task is None:
                think_task = asyncio.ensure_future(player.choose(observation))
            waiting: set[asyncio.Future[Any]] = {read_task}
            if think_task is not None:
                waiting.add(think_task)
            if stop_task is not None:
                waiting.add(stop_task)
            timer = conn.next_timer() if goodbye.by is None else goodbye.by
            wait = None if timer is None else max(0.0, timer - loop.time())
            done, _ = await asyncio.wait(waiting, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            if read_task in done:
                try:
                    received = read_task.result()
                except OSError as error:
                    handle(conn.connection_lost(loop.time(), str(error) or type(error).__name__))
                    continue
                if not received:
                    handle(conn.connection_lost(loop.time()))
                    continue
                outcome.bytes_received += len(received)
                if on_receive is not None:
                    on_receive()
                handle(conn.receive_data(received, loop.time()))
                read_task = asyncio.ensure_future(reader.read(READ_CHUNK))
            if think_task is not None and think_task in done:
                task, think_task = think_task, None
                session = conn.session
                assert session is not None
                try:
                    action = task.result()
                    handle(conn.play(action, loop.time()))
                except Exception as error:  # the local player failed: say so, end cleanly
                    logger.debug("the local player failed", exc_info=True)
                    handle(session.local_failure(loop.time(), f"the local player failed: {error}"))
            if stop_task is not None and stop_task in done:
                stop_task = None
                handle(conn.leave(loop.time(), "the player left"))
            handle(conn.tick(loop.time()))
    except asyncio.CancelledError:
        handle(conn.leave(loop.time(), "the program was stopped"))
        with contextlib.suppress(Exception):
            await _write(writer, conn.data_to_send(), 1.0)
        raise
    finally:
        if stop_task is not None:
            stop_task.cancel()
        read_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await read_task
        if conn.session is not None and conn.suspended is None:
            player.cancel()
        if think_task is not None:
            think_task.cancel()
        if conn.suspended is not None:  # a dead connection: no goodbye to wait for
            writer.transport.abort()
        if not writer.is_closing():
            if conn.role is Role.JOINER and finished(conn.session) and conn.resume_window > 0:
                drained, clean = await _close_checked(reader, writer)
                outcome.bytes_received += drained
                if not clean:
                    handle(conn.unclean_end(loop.time()))
            else:
                outcome.bytes_received += await _close(reader, writer)


def _session_recording(
    session: Session, options: PeerOptions, on_event: EventHook | None
) -> Callable[[Sequence[ConnectionEvent], float], None]:
    """``on_event`` for each event, then the record when due (for a session that no
    connection holds: it left or expired while suspended)."""

    def hook(events: Sequence[ConnectionEvent], now: float) -> None:
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
