"""A thin asyncio TCP transport around the sans-I/O :class:`~koikoi.net.connection.Connection`.

All protocol decisions are the connection's; this module only moves bytes, keeps time, and
asks the local player for its moves without blocking the event loop (a computer player
thinks in a worker thread, so heartbeats go on while it does). The desktop lobby drives the
same :class:`Connection` from Qt's sockets instead.

:func:`join` connects to a host; :class:`Room` listens, answers every connection (a bad one
is closed with a reason and the room keeps listening), plays one match with the first peer
whose handshake succeeds and turns away the others as busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.connection import (
    Connection,
    ConnectionEvent,
    HandshakeDone,
    HandshakeFailed,
)
from koikoi.net.errors import AuthenticationFailed, DealingRefused, PeerRefused, ProtocolError
from koikoi.net.handshake import refuse_message
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.policy import (
    CLOSE_GRACE,
    GoodbyeWait,
    RecordFailed,
    RecordKeeper,
    RedialSchedule,
    Verdict,
    may_resume,
    redial_verdict,
    resumable_after,
)
from koikoi.net.resume import Resumed, Suspended, expire, finished
from koikoi.net.roles import Role
from koikoi.net.room import MAX_PENDING, Refusal, RoomPolicy, Ticket, address_host
from koikoi.net.session import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_MOVE_CLOCK,
    DEFAULT_SILENCE_TIMEOUT,
    Ended,
    MovePlayed,
    PeerOverdue,
    Session,
    TossDone,
)
from koikoi.net.wire import encode_frame

logger = logging.getLogger(__name__)

READ_CHUNK: Final = 64 * 1024


class LocalPlayer(Protocol):
    """Whoever moves for the local seat: a computer player here, the window in the app."""

    async def choose(self, observation: Observation) -> Action: ...

    def notify(self, events: Sequence[Event]) -> None: ...

    def cancel(self) -> None:
        """The session ended: stop thinking (the answer, if any, is ignored)."""


class SyncSeat(Protocol):
    """A seat of :mod:`koikoi.driver` (``choose`` may think for a while)."""

    def choose(self, observation: Observation) -> Action: ...

    def notify(self, events: Sequence[Event]) -> None: ...


class ThreadedSeat:
    """A :mod:`koikoi.driver` seat whose ``choose`` runs in a worker thread.

    ``stop`` is the event the seat's search budget watches (``Budget(stop=stop.is_set)``), so
    :meth:`cancel` cuts a long search short when the session ends.
    """

    def __init__(self, seat: SyncSeat, stop: threading.Event | None = None) -> None:
        self.seat = seat
        self.stop = stop or threading.Event()
        self.thinking_seconds = 0.0

    async def choose(self, observation: Observation) -> Action:
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            return await asyncio.to_thread(self.seat.choose, observation)
        finally:
            self.thinking_seconds += loop.time() - start

    def notify(self, events: Sequence[Event]) -> None:
        self.seat.notify(events)

    def cancel(self) -> None:
        self.stop.set()


@dataclass
class PeerOptions:
    """Who this side is and what match it wants."""

    identity: Identity
    nickname: str
    settings: Settings
    known_peers: KnownPeers
    password: str = ""
    silence_timeout: float = DEFAULT_SILENCE_TIMEOUT
    toss_secret: bytes | None = None
    """Fixes this side's coin-toss number (tests only)."""
    hold_for_confirmation: bool = False
    """The coin toss waits for the local player to confirm the four cards (the app's lobby)."""
    on_record: Callable[[Session], None] | None = None
    """Called after the toss, every move and the end, and privately dealt after every change
    of the session's journal (:attr:`Session.local_mark`), before what the step sends goes
    out: the moment to save the record, so that a closed terminal or a crash loses nothing
    (the CLI and the app hand it to a :class:`~koikoi.net.recordfile.RecordFile`, which
    writes what changed). It raises when it cannot write: the match goes on, and
    ``on_record_failed`` is told once (the player has no crash recovery then)."""
    on_record_failed: Callable[[RecordFailed], None] | None = None
    """Called once a match's record could not be written (:mod:`koikoi.net.policy`)."""
    records: RecordKeeper = field(default_factory=RecordKeeper, repr=False, compare=False)
    """When the record is due (:class:`~koikoi.net.policy.RecordKeeper`)."""
    move_clock: float = DEFAULT_MOVE_CLOCK
    """Seconds for each move; the local seat's client plays a safe move when they run out."""
    abandon_after: float = DEFAULT_ABANDON_AFTER
    """Seconds without a move from the peer before the match may end as abandoned by it
    (:func:`drive` ends it then; the app asks its player)."""

    resume_window: float = 0.0
    """Seconds a match whose connection dropped waits to be resumed (docs/protocol.md,
    "Resume"): the joiner dials again, the host's room takes its peer back; 0: a drop ends
    the match at once."""
    dealings: tuple[str, ...] = ("seed",)
    """The dealing kinds this side offers (docs/protocol.md, "Version 3"): ``("private",
    "seed")`` deals privately with a peer that offers it too."""

    def connection(self, role: Role, now: float) -> Connection:
        conn = Connection(
            role,
            identity=self.identity,
            nickname=self.nickname,
            settings=self.settings,
            password=self.password,
            known_peers=self.known_peers,
            now=now,
            silence_timeout=self.silence_timeout,
            toss_secret=self.toss_secret,
            hold_for_confirmation=self.hold_for_confirmation,
            move_clock=self.move_clock,
            abandon_after=self.abandon_after,
            dealings=self.dealings,
        )
        conn.resume_window = self.resume_window
        return conn

    def record(
        self, session: Session | None, events: Sequence[ConnectionEvent]
    ) -> RecordFailed | None:
        """After a step's ``events``, before what it sends goes out: write ``session``'s
        record when it is due (``on_record``); a failed write is told (``on_record_failed``,
        once) and returned."""
        failed = self.records.after(session, events, self.on_record)
        if failed is not None:
            logger.debug("the record could not be written: %s", failed.error)
            if self.on_record_failed is not None:
                self.on_record_failed(failed)
        return failed


EventHook = Callable[[ConnectionEvent, float], None]
"""Called with every connection event and the loop time it happened at."""


@dataclass
class Outcome:
    """How one connection went: a handshake failure, or a session and its ending."""

    address: str
    connection: Connection | None = None
    failure: str | None = None
    """Why there is no session (could not connect, handshake failed), else None."""
    bytes_sent: int = 0
    bytes_received: int = 0
    times: dict[str, float] = field(default_factory=dict)
    """Loop times: ``connected``, ``established``, ``first_deal``, ``ended``."""
    resumed: int = 0
    """How many times the match was resumed over a new connection."""
    held: Session | None = None
    """The session when no connection holds it (restored from a record, not resumed)."""

    @property
    def session(self) -> Session | None:
        if self.connection is None or self.connection.session is None:
            return self.held
        return self.connection.session

    @property
    def finished(self) -> bool:
        session = self.session
        return session is not None and session.ending is not None and session.ending.finished

    @property
    def reason(self) -> str:
        """One line: why the match ended (or never started)."""
        if self.failure is not None:
            return self.failure
        session = self.session
        if session is None or session.ending is None:
            return "the connection ended"
        return session.ending.reason


# --- driving one connection ----------------------------------------------------------------


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


# --- the two roles -------------------------------------------------------------------------


async def join(
    host: str,
    port: int,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None = None,
    stop: asyncio.Event | None = None,
    redial: Redial | None = None,
) -> Outcome:
    """Connect to a room and play its match; returns how it went (never raises for the peer).

    Setting ``stop`` leaves the match (or gives up connecting). A private room that says
    ``wait`` (wrong passwords from this address a moment ago) is dialled again after 1 s,
    then 2, 4 and 8. With ``options.resume_window``, a connection that drops mid-match is
    dialled again (at ``redial``'s addresses, by default the same one) and the match resumed.
    """
    for delay in WAIT_RETRIES:
        outcome = await _join_once(host, port, options, player, on_event, stop)
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
    hook = _session_recording(session, options, on_event)
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
) -> Outcome:
    loop = asyncio.get_running_loop()
    address = f"{host}:{port}"
    outcome = Outcome(address)
    start = loop.time()
    try:
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
        on_step=_recording(conn, options),
    )
    if conn.failure is not None:
        outcome.failure = str(conn.failure)
    return outcome


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
        self._server: asyncio.Server | None = None
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

    async def open(self, bind: str, port: int) -> tuple[str, int]:
        """Start listening; returns the address and port actually bound."""
        loop = asyncio.get_running_loop()
        _quiet_when_out_of_descriptors(loop)
        self._outcome = loop.create_future()
        self._server = await asyncio.start_server(self._accept, bind, port)
        sockname = self._server.sockets[0].getsockname()
        return str(sockname[0]), int(sockname[1])

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
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), CLOSE_GRACE)
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
        hook = _session_recording(match.session, self.options, self.on_event)
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


__all__ = [
    "LocalPlayer",
    "Outcome",
    "PeerOptions",
    "Room",
    "ThreadedSeat",
    "drive",
    "join",
]
