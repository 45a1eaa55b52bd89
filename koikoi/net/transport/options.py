"""Who this side is and what it wants (:class:`PeerOptions`), who moves for the local seat
(:class:`LocalPlayer`, :class:`ThreadedSeat`) and how one connection went (:class:`Outcome`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.connection import Connection, ConnectionEvent
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.policy import RecordFailed, RecordKeeper
from koikoi.net.roles import Role
from koikoi.net.session.clock import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_CLOCK,
    DEFAULT_SILENCE_TIMEOUT,
    ClockSetting,
)
from koikoi.net.session.core import Session

logger = logging.getLogger("koikoi.net.transport")  # the log lines, as they were


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
    clock: ClockSetting = DEFAULT_CLOCK
    """The move clock this side asks for: a host's is its room's, which a joiner takes."""
    move_clock: float | None = None
    """Seconds for each move with no reserve, over the agreed clock (tests, the hidden
    ``--move-clock``); the local seat's client plays a safe move when they run out."""
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
    stamps: tuple[str, ...] | None = None
    """The stamps this side shows (the hello's ``stamps``); None: none, unless the app's link
    gives its table's (``koikoi.ui.net.netlink``). ``koikoi host``/``join`` offer none, so a
    peer never sends them one."""
    after: bool | None = None
    """Stay connected after the match, for stamps and a rematch call, when the peer says so
    too (:mod:`koikoi.net.session.after`); None: no, unless the app's link says yes
    (``koikoi.ui.net.netlink``). ``host``/``join`` do not."""
    expected_fingerprint: str | None = None
    """A joiner's pin from a join code (docs/protocol.md, "Join code"): a host whose identity
    has another fingerprint is refused in the handshake."""
    expected_joiner: str | None = None
    """A host's pin from a joiner's reply code (docs/protocol.md, "Both sides dial"): once it
    took one, its room refuses in the handshake any joiner whose identity has another
    fingerprint."""

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
            clock=self.clock,
            stamps=self.stamps or (),
            after=bool(self.after),
        )
        conn.resume_window = self.resume_window
        if role is Role.JOINER:
            conn.handshake.expected_fingerprint = self.expected_fingerprint
        else:
            conn.handshake.expected_fingerprint = self.expected_joiner
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
