"""What both transports decide alike, sans-I/O: no sockets, no loop, no Qt, time passed in.

The asyncio transport of ``koikoi host``/``join`` (:mod:`koikoi.net.transport`) and the app's
Qt link (:mod:`koikoi.ui.net.netlink`) move bytes and run timers; every decision they used to
make each in its own way is here, once, and both ask it:

- **resume admission** (docs/protocol.md, "Resume", "Dialling again"):
  :func:`resumable_after` keeps a room's :attr:`~koikoi.net.room.RoomPolicy.resumable`
  (whether a busy room still lets handshakes run), :func:`may_resume` answers the room's
  ``resume_candidate`` hook. A match becomes resumable at its toss (a drop during the
  handshake or the toss ends it: the toss is never repeated) or when it is suspended (also
  one dropped before a privately dealt first deal was laid out), stays resumable once
  finished while the peer may lack the last entries (its goodbye has not come), and stops
  when it ends unfinished or its connection closes cleanly;
- **when a record is due**: :class:`RecordKeeper` writes after the events in
  :data:`RECORDED` and, privately dealt, whenever the session's journal grew; a failed write
  is reported once (:class:`RecordFailed`) and the match goes on, without crash recovery;
- **closing**: :data:`CLOSE_GRACE` (the wait for the peer's goodbye, and for its end of the
  stream after ours), :data:`REFUSE_GRACE` (the same for a connection turned away);
- **dialling again**: :class:`RedialSchedule` (a suspended match's joiner: 0.2 s, 0.5 s,
  1 s, then every 2 s until the window ends), :func:`redial_verdict` (what a failed attempt
  means: dial again, give up, or end the match) and :func:`retry_call` (a rematch's call
  is repeated only while the host's port is closed or its old room says ``busy``).

The pins and the count of tosses a peer abandoned are the core's already
(:class:`~koikoi.net.handshake.Handshake` pins, :class:`~koikoi.net.connection.Connection`
counts); where they are written is the transport's choice (the app writes them off its UI
thread: :class:`~koikoi.net.identity.KnownPeers`'s ``defer``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from koikoi.net.errors import PeerRefused, ProtocolError
from koikoi.net.resume import ResumeRefused, Suspended, finished
from koikoi.net.session.core import Session
from koikoi.net.session.events import DealLaidOut, Ended, MovePlayed, TossDone

__all__ = [
    "CLOSE_GRACE",
    "GoodbyeWait",
    "RECORDED",
    "REDIAL_DELAYS",
    "REFUSE_GRACE",
    "REMATCH_CALL_EVERY",
    "REMATCH_CALL_FOR",
    "RecordFailed",
    "RecordKeeper",
    "RedialSchedule",
    "Verdict",
    "may_resume",
    "redial_verdict",
    "resumable_after",
    "retry_call",
]

CLOSE_GRACE: Final = 2.0
"""Seconds to wait for the peer's end of the stream after our last bytes, before closing (and
for its goodbye after a match that finished with our move)."""
REFUSE_GRACE: Final = 0.5
"""The same for a connection the room turns away."""
REDIAL_DELAYS: Final = (0.2, 0.5, 1.0, 2.0)
"""Seconds between a joiner's redials of a suspended match (the last one repeats)."""
REMATCH_CALL_FOR: Final = 30.0
"""Seconds a rematch's caller keeps calling a host that is not back yet."""
REMATCH_CALL_EVERY: Final = 0.3
"""Seconds between those calls."""
RECORDED: Final = (TossDone, MovePlayed, DealLaidOut, Ended)
"""The events after which a session's record has grown (``PeerOptions.on_record``)."""


# --- resume admission ------------------------------------------------------------------------


def resumable_after(event: object, resume_window: float, resumable: bool) -> bool:
    """A room's ``resumable`` after an event of its match's connection (``resumable`` before).

    >>> from koikoi.net.resume import Suspended
    >>> resumable_after(Suspended(10.0, "the connection dropped"), 180.0, False)
    True
    """
    if isinstance(event, TossDone):
        return resumable or resume_window > 0
    if isinstance(event, Suspended):
        return True  # also one dropped before its first deal was laid out (privately dealt)
    if isinstance(event, Ended) and not event.ending.finished:
        return False  # a finished match stays resumable while the peer may lack entries
    return resumable


def may_resume(
    session: Session | None,
    key: bytes,
    *,
    suspended: bool,
    awaiting_goodbye: bool,
    closing: bool = False,
) -> bool:
    """Whether a new connection whose peer proved ``key`` resumes the room's match
    ``session``: its peer's key, and the match in play, or finished while the peer may still
    lack entries (``suspended``: its connection dropped before the peer's goodbye;
    ``awaiting_goodbye``: the connection holding it still waits for that goodbye). Once the
    goodbye came, a call with the peer's key is a new match (a rematch) and the room is busy.
    A ``closing`` room resumes nothing."""
    if closing or session is None or key != session.peer.public_key:
        return False
    if finished(session):
        return suspended or awaiting_goodbye
    return not session.closed


# --- closing -------------------------------------------------------------------------------


@dataclass
class GoodbyeWait:
    """When a connection whose session closed is closed in turn.

    At once, unless the match finished here and the peer has not shown it holds every entry
    (:attr:`~koikoi.net.connection.Connection.awaiting_goodbye`): then the connection is read
    for :data:`CLOSE_GRACE` more, for the peer's goodbye, and a drop meanwhile suspends the
    session (the resume brings the peer the last entry, the mover its ack)."""

    by: float | None = None
    """Until when the goodbye is waited for (None: not waiting)."""

    def close_now(self, *, closed: bool, awaiting_goodbye: bool, now: float) -> bool:
        if not closed:
            return False
        if not awaiting_goodbye:
            return True
        if self.by is None:
            self.by = now + CLOSE_GRACE
        return now >= self.by


# --- the record ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordFailed:
    """The record could not be written (``error``): the match goes on, but a crash now would
    lose it (no crash recovery). Reported once per session."""

    error: Exception

    @property
    def text(self) -> str:
        """One line for a terminal."""
        return f"{self.error}; the match goes on without crash recovery"


@dataclass
class RecordKeeper:
    """When a session's record is written, and what a failed write becomes.

    Call :meth:`after` with each step's events and the writer (``PeerOptions.on_record``,
    which raises when it cannot write), before what the step sends goes out: the record is
    due after any of :data:`RECORDED` and, privately dealt, whenever the session's journal
    (:attr:`~koikoi.net.session.core.Session.local_mark`) grew while it is open, so a crash loses
    nothing the peer may hold (docs/protocol.md, "A side that crashed"). One keeper serves
    every session of one side (a resumed match's new connections, a rematch)."""

    marks: dict[bytes, tuple[int, int] | None] = field(default_factory=dict, repr=False)
    """The journal's mark at the last write, by session id."""
    failed: dict[bytes, RecordFailed] = field(default_factory=dict)
    """The first failed write, by session id."""

    def due(self, session: Session, events: Sequence[object]) -> bool:
        if any(isinstance(event, RECORDED) for event in events):
            return True
        mark = session.local_mark if session.dealing == "private" else None
        written = self.marks.get(session.session_id)
        return mark is not None and mark != written and not session.closed

    def after(
        self,
        session: Session | None,
        events: Sequence[object],
        write: Callable[[Session], None] | None,
    ) -> RecordFailed | None:
        """Write the record when due; returns the failure to tell the player: the first one
        of the session only (the later writes are tried all the same, silently)."""
        if write is None or session is None or not self.due(session, events):
            return None
        key = session.session_id
        self.marks[key] = session.local_mark if session.dealing == "private" else None
        try:
            write(session)
        except Exception as error:
            if key not in self.failed:
                self.failed[key] = RecordFailed(error)
                return self.failed[key]
        return None


# --- dialling again --------------------------------------------------------------------------


@dataclass
class RedialSchedule:
    """A suspended match's joiner dials again after 0.2 s, 0.5 s, 1 s, then every 2 s, never
    past the window's end (docs/protocol.md, "Dialling again")."""

    delays: tuple[float, ...] = REDIAL_DELAYS
    attempts: int = 0

    def next_delay(self, now: float, deadline: float) -> float:
        """Seconds until the next attempt (counted as made)."""
        delay = self.delays[min(self.attempts, len(self.delays) - 1)]
        self.attempts += 1
        return max(0.0, min(delay, deadline - now))

    def reset(self) -> None:
        """The match resumed: the next drop starts the schedule again."""
        self.attempts = 0


class Verdict(enum.Enum):
    """What a failed attempt to resume means."""

    AGAIN = "again"
    """Dial again (while the window lasts)."""
    GIVE_UP = "give up"
    """Stop dialling, ending nothing: the match finished here and its host is gone or busy
    (it waits for no resume)."""
    END = "end"
    """The host has nothing to resume (``noresume``): the match ends ``dropped``."""


def redial_verdict(session: Session, *, connected: bool, failure: ProtocolError | None) -> Verdict:
    """A redial of ``session`` did not resume it: ``connected`` says whether a connection
    was made at all, ``failure`` how its handshake failed."""
    if isinstance(failure, ResumeRefused) and failure.by_peer:
        return Verdict.END
    if finished(session) and (not connected or isinstance(failure, PeerRefused)):
        return Verdict.GIVE_UP
    return Verdict.AGAIN


def retry_call(*, closed_port: bool, refusal: str | None) -> bool:
    """A rematch's call failed: call again only while the host is not back yet, its port
    closed or its old room (its match over, or closing) saying ``busy``. Nothing else is
    retried: a room never hangs up on a call, and a wrong password or other settings do not
    change by calling again."""
    return closed_port or refusal == "busy"
