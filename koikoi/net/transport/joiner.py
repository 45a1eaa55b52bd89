"""The joiner: :func:`join` dials a room and plays its match; a match whose connection
dropped is dialled again and resumed (:func:`resume_joined` after a crash)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from koikoi.net.address import format_address
from koikoi.net.errors import PeerRefused, ProtocolError
from koikoi.net.policy import RedialSchedule, Verdict, redial_verdict
from koikoi.net.resume import Suspended, expire, finished
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.transport.driving import _recording, _session_recording, drive
from koikoi.net.transport.options import EventHook, LocalPlayer, Outcome, PeerOptions

logger = logging.getLogger("koikoi.net.transport")  # the log lines, as they were


async def join(
    host: str,
    port: int,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None = None,
    stop: asyncio.Event | None = None,
    redial: Redial | None = None,
    streams: Streams | None = None,
) -> Outcome:
    """Connect to a room and play its match; returns how it went (never raises for the peer).

    ``streams``: a connection to ``host:port`` already open (:func:`dial_first`), used for
    the first attempt.

    Setting ``stop`` leaves the match (or gives up connecting). A private room that says
    ``wait`` (wrong passwords from this address a moment ago) is dialled again after 1 s,
    then 2, 4 and 8. With ``options.resume_window``, a connection that drops mid-match is
    dialled again (at ``redial``'s addresses, by default the same one) and the match resumed.
    """
    for delay in WAIT_RETRIES:
        outcome = await _join_once(host, port, options, player, on_event, stop, streams=streams)
        streams = None
        refused = None if outcome.connection is None else outcome.connection.failure
        if not (isinstance(refused, PeerRefused) and refused.code == "wait"):
            return await _resume_while_suspended(
                outcome, redial or _same_address(host, port), options, player, on_event, stop
            )
        if stop is not None and stop.is_set():
            return outcome
        await asyncio.sleep(delay)
    outcome = await _join_once(host, port, options, player, on_event, stop)
    return await _resume_while_suspended(
        outcome, redial or _same_address(host, port), options, player, on_event, stop
    )


Redial = Callable[[], Awaitable[list[tuple[str, int]]]]
Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


DIAL_STAGGER: Final = 0.25
"""Seconds between starting to dial one candidate and the next (happy eyeballs, RFC 8305)."""


async def dial_first(
    candidates: Sequence[tuple[str, int]], timeout: float, stagger: float = DIAL_STAGGER
) -> tuple[tuple[str, int], Streams] | list[str]:
    """Dial ``candidates`` in order, each ``stagger`` s after the one before, all within
    ``timeout`` s: the first to connect and its streams (the others are closed), or one
    line for each candidate saying why it did not connect."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    why: dict[int, str] = {}

    async def dial(index: int) -> tuple[int, Streams]:
        host, port = candidates[index]
        await asyncio.sleep(index * stagger)
        try:
            streams = await asyncio.wait_for(
                asyncio.open_connection(host, port), max(0.1, deadline - loop.time())
            )
        except TimeoutError:
            why[index] = f"{format_address(host, port)}: no answer"
            raise
        except OSError as error:
            words = os.strerror(error.errno) if error.errno else str(error)
            why[index] = f"{format_address(host, port)}: {words}"
            raise
        return index, streams

    tasks = [asyncio.ensure_future(dial(i)) for i in range(len(candidates))]
    won: tuple[int, Streams] | None = None
    try:
        for next_done in asyncio.as_completed(tasks):
            with contextlib.suppress(OSError, TimeoutError):
                won = await next_done
                break
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:  # a second one that connected meanwhile is closed
            with contextlib.suppress(BaseException):
                index, (_, writer) = await task
                if won is None or index != won[0]:
                    writer.close()
    if won is None:
        return [why.get(i, f"{format_address(*c)}: no answer") for i, c in enumerate(candidates)]
    return candidates[won[0]], won[1]


"""Where to dial again to resume a match: the address, or the room found again by mDNS."""


def _same_address(host: str, port: int) -> Redial:
    async def redial() -> list[tuple[str, int]]:
        return [(host, port)]

    return redial


async def _resume_while_suspended(
    outcome: Outcome,
    redial: Redial,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None,
    stop: asyncio.Event | None,
) -> Outcome:
    """The joiner's side of resume: while the match's connection is suspended, dial again
    (until its deadline) and resume the session over the first connection that takes it."""
    conn = outcome.connection
    if conn is None or conn.suspended is None or conn.session is None:
        return outcome
    return await _redial(
        outcome, conn.session, conn.suspended, redial, options, player, on_event, stop
    )


async def resume_joined(
    host: str,
    port: int,
    session: Session,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None = None,
    stop: asyncio.Event | None = None,
    redial: Redial | None = None,
) -> Outcome:
    """A joiner restarted after a crash: resume ``session`` (restored from its record by
    :func:`~koikoi.net.resume.restore_session`) at ``host:port`` within the resume window."""
    loop = asyncio.get_running_loop()
    outcome = Outcome(f"{host}:{port}", held=session)
    suspension = Suspended(loop.time() + options.resume_window, "restarted from the record")
    return await _redial(
        outcome,
        session,
        suspension,
        redial or _same_address(host, port),
        options,
        player,
        on_event,
        stop,
    )


async def _redial(
    outcome: Outcome,
    session: Session,
    suspension: Suspended | None,
    redial: Redial,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None,
    stop: asyncio.Event | None,
) -> Outcome:
    loop = asyncio.get_running_loop()
    deadline = 0.0 if suspension is None else suspension.deadline
    hook = _session_recording(session, options, on_event, lambda: outcome.connection)
    schedule = RedialSchedule()
    while suspension is not None and (not session.closed or finished(session)):
        if stop is not None and stop.is_set():
            hook(session.leave(loop.time(), "the player left"), loop.time())
            break
        if loop.time() >= deadline:
            if session.closed:
                break  # finished here; the peer never came back for the last entry
            hook(expire(session, suspension, loop.time()), loop.time())
            break
        await _sleep_or_stop(schedule.next_delay(loop.time(), deadline), stop)
        if stop is not None and stop.is_set():
            continue
        try:
            addresses = await redial()
        except Exception as error:  # mDNS may fail for a moment: dial again later
            logger.info("cannot find the room again: %s", error)
            continue
        for host, port in addresses:
            budget = max(0.1, min(options.silence_timeout, deadline - loop.time()))
            again = await _join_once(
                host, port, options, player, on_event, stop, resuming=session, connect=budget
            )
            if again.connection is not None and again.connection.session is session:
                again.resumed = outcome.resumed + 1
                again.bytes_sent += outcome.bytes_sent
                again.bytes_received += outcome.bytes_received
                outcome = again
                schedule.reset()
                suspension = again.connection.suspended
                if suspension is not None:
                    deadline = suspension.deadline
                break
            failure: ProtocolError | None = None
            if again.connection is not None:
                failure = again.connection.failure
            verdict = redial_verdict(
                session, connected=again.connection is not None, failure=failure
            )
            if verdict is Verdict.GIVE_UP:
                return outcome  # finished here, the host gone or busy: it waits for no resume
            if verdict is Verdict.END:
                hook(session.connection_lost(loop.time(), str(failure)), loop.time())
                break
    return outcome


async def _sleep_or_stop(seconds: float, stop: asyncio.Event | None) -> None:
    if stop is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


WAIT_RETRIES: Final = (1.0, 2.0, 4.0, 8.0)


async def _join_once(
    host: str,
    port: int,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None,
    stop: asyncio.Event | None,
    *,
    resuming: Session | None = None,
    connect: float | None = None,
    streams: Streams | None = None,
    on_receive: Callable[[], None] | None = None,
) -> Outcome:
    loop = asyncio.get_running_loop()
    address = f"{host}:{port}"
    outcome = Outcome(address)
    start = loop.time()
    try:
        if streams is not None:
            reader, writer = streams
        else:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port),
                options.silence_timeout if connect is None else connect,
            )
    except TimeoutError:
        outcome.failure = f"cannot connect to {address}: no answer"
        return outcome
    except OSError as error:
        outcome.failure = f"cannot connect to {address}: {error.strerror or error}"
        return outcome
    outcome.times["connect"] = start
    outcome.times["connected"] = loop.time()
    conn = options.connection(Role.JOINER, loop.time())
    conn.resuming = resuming
    outcome.connection = conn
    conn.start()
    await drive(
        conn,
        reader,
        writer,
        player,
        outcome,
        on_event,
        stop,
        on_receive,
        on_step=_recording(conn, options),
    )
    if conn.failure is not None:
        outcome.failure = str(conn.failure)
    return outcome
