"""Who a listening room lets in, as a sans-I/O policy: no sockets, no loop, time passed in.

A room plays one match, with the first peer whose handshake succeeds. Every transport (the
asyncio :class:`~koikoi.net.transport.Room` of ``koikoi host``, the Qt room of the window)
asks this policy the same three questions and does what it says:

- a connection arrives: :meth:`RoomPolicy.admit` gives it a :class:`Ticket`, or a
  :class:`Refusal` to send (``refuse`` with its ``code``) before closing;
- a handshake is about to finish: :meth:`RoomPolicy.busy` (the ``Connection.busy`` hook)
  says whether another match started meanwhile, so the handshake is refused as busy;
- a handshake finished (:meth:`RoomPolicy.established`), or failed, or a connection closed
  (:meth:`RoomPolicy.closed`, at the first of these: it says whether that was the room's
  match, and a second call changes nothing).

The policy today: a room that plays or has played its match is busy; at most
``max_pending`` handshakes run at once. It is the one place to harden against half-open
floods (per-address caps, evicting the oldest pending, deadlines), which is why it sees each
connection's address and the time.

>>> policy = RoomPolicy(max_pending=1)
>>> first = policy.admit("192.0.2.1:5000", now=0.0)
>>> policy.admit("192.0.2.2:5000", now=0.1)
Refusal(code='busy', reason='the room is busy')
>>> policy.established(first, now=0.5)
>>> policy.busy, policy.playing
(True, True)
>>> policy.closed(first, now=90.0), policy.playing, policy.match_over
(True, False, True)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Final

__all__ = ["MAX_PENDING", "Refusal", "RoomPolicy", "Ticket"]

MAX_PENDING: Final = 16
"""Handshakes a room runs at once; more connections are turned away as busy."""


@dataclass(frozen=True)
class Ticket:
    """An admitted connection, from its arrival to its close."""

    number: int
    address: str
    since: float
    """When it was admitted (the caller's clock)."""


@dataclass(frozen=True)
class Refusal:
    """Turn the connection away: send ``refuse`` with ``code``, close; ``reason`` is one line."""

    code: str
    reason: str


BUSY: Final = Refusal("busy", "the room is busy")


@dataclass
class RoomPolicy:
    """The admission state of one room: the handshakes running and the match, if any."""

    max_pending: int = MAX_PENDING
    pending: dict[int, Ticket] = field(default_factory=dict)
    """Admitted connections whose handshake is still running, by ticket number."""
    match: Ticket | None = None
    """The connection playing the room's match (from its handshake to its close)."""
    match_over: bool = False
    """The room's match has been played; the room takes nobody else."""
    _numbers: itertools.count[int] = field(default_factory=itertools.count, repr=False)

    def __post_init__(self) -> None:
        if self.max_pending < 1:
            raise ValueError(f"max_pending must be at least 1, not {self.max_pending}")

    @property
    def playing(self) -> bool:
        """A match is being played (its end is still to come)."""
        return self.match is not None

    @property
    def busy(self) -> bool:
        """Nobody else may finish a handshake: a match is in play or over."""
        return self.match is not None or self.match_over

    def admit(self, address: str, now: float) -> Ticket | Refusal:
        """A connection arrived from ``address``: let its handshake run, or refuse it."""
        if self.busy or len(self.pending) >= self.max_pending:
            return BUSY
        ticket = Ticket(next(self._numbers), address, now)
        self.pending[ticket.number] = ticket
        return ticket

    def established(self, ticket: Ticket, now: float) -> None:
        """``ticket``'s handshake succeeded: its match is the room's.

        Raises :class:`ValueError` when the room was busy (the transport did not install
        :attr:`busy` as the connection's busy hook) or the ticket is not pending.
        """
        if self.busy:
            raise ValueError("the room is already playing: the handshake should have been refused")
        if self.pending.pop(ticket.number, None) is None:
            raise ValueError(f"ticket {ticket.number} is not a pending handshake")
        self.match = ticket

    def closed(self, ticket: Ticket, now: float) -> bool:
        """``ticket``'s connection is over; True when it was the room's match."""
        self.pending.pop(ticket.number, None)
        if self.match is not None and self.match.number == ticket.number:
            self.match = None
            self.match_over = True
            return True
        return False
