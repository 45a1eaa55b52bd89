"""Stamps: short fixed phrases a player sends the other table with one click (docs/protocol.md,
"Stamps"). Only an id travels, in the encrypted session and never in the signed log, the
record or a journal; each table shows it in its own player's language. A side takes stamps
only when its hello says so (``stamps``, version 4), and never sends one to a peer that did
not list it.

Both sides limit the rate: a side sends at most one stamp every :data:`SEND_INTERVAL`
seconds (the app greys its row out meanwhile), and a receiver shows at most
:data:`RECEIVE_MAX` in any :data:`RECEIVE_WINDOW` seconds and drops the rest, silently, with
the match going on: a flood costs the flooder its stamps, not the match. An id the receiver
did not list is off the message's schema: a protocol error, as for any other message.

>>> limits = StampLimits(mine=STAMPS, theirs=STAMPS)
>>> limits.may_send("greet", now=0.0), limits.sent(0.0), limits.may_send("thanks", now=1.0)
(True, None, False)
>>> limits.ready_at(1.0), limits.may_send("thanks", now=3.0)
(3.0, True)
>>> [limits.take(t / 10) for t in range(7)]
[True, True, True, True, True, False, False]
>>> limits.dropped, limits.take(10.0)
(2, True)
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from koikoi.net.wire import ListOf, Record, Str

logger = logging.getLogger("koikoi.net.session")

STAMPS: Final = ("greet", "thanks", "nice", "wait", "close")
"""The stamps this koikoi shows, in the row's order: よろしくお願いします (Good luck, have a good
game), ありがとうございました (Thank you for the game), いい手! (Nice move!), ちょっと待って (One
moment), おしい! (So close!)."""
MAX_STAMP_ID: Final = 16
"""The longest stamp id a hello or a ``stamp`` may carry."""
MAX_STAMP_KINDS: Final = 32
"""The most stamp ids a hello may list."""
SEND_INTERVAL: Final = 3.0
"""Seconds a side waits after sending a stamp before it sends another."""
RECEIVE_WINDOW: Final = 10.0
RECEIVE_MAX: Final = 5
"""A receiver shows at most this many stamps in any :data:`RECEIVE_WINDOW` seconds (an
honest sender sends at most four) and drops the others."""

HELLO_STAMPS: Final = ListOf(Str(MAX_STAMP_ID, 1), max_len=MAX_STAMP_KINDS)
"""The hello's ``stamps``: the ids the side shows (docs/protocol.md, "Hello")."""
STAMP: Final = Record({"id": Str(MAX_STAMP_ID, 1)})
"""A stamp, by its id (docs/protocol.md, "Stamps")."""


@dataclass
class StampLimits:
    """One side's stamps: the ids it takes (``mine``, its hello's), those the peer takes
    (``theirs``), and both rates."""

    mine: tuple[str, ...] = ()
    theirs: tuple[str, ...] = ()
    last_sent: float | None = None
    received: deque[float] = field(default_factory=deque)
    """When the stamps shown in the last :data:`RECEIVE_WINDOW` seconds came."""
    dropped: int = 0
    """Stamps dropped for the rate (a flood), over the session."""

    def ready_at(self, now: float) -> float:
        """When this side may send its next stamp (``now`` if it may now)."""
        if self.last_sent is None:
            return now
        return max(now, self.last_sent + SEND_INTERVAL)

    def may_send(self, stamp: str, now: float) -> bool:
        """Whether ``stamp`` may go out now: the peer takes it and the rate allows it."""
        return stamp in self.theirs and self.ready_at(now) <= now

    def sent(self, now: float) -> None:
        self.last_sent = now

    def take(self, now: float) -> bool:
        """A well-formed stamp came: whether to show it (False: over the rate, dropped)."""
        received = self.received
        while received and received[0] <= now - RECEIVE_WINDOW:
            received.popleft()
        if len(received) >= RECEIVE_MAX:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 100 == 0:
                logger.info("stamps over the rate dropped: %d so far", self.dropped)
            return False
        received.append(now)
        return True


def check_stamp(limits: StampLimits, stamp: str) -> str | None:
    """What is wrong with a received ``stamp`` id (one line), or None: an id this side did not
    list in its hello is off the schema."""
    if stamp not in limits.mine:
        return f"stamp.id: {stamp[:MAX_STAMP_ID]!r} is not a stamp this side takes"
    return None
