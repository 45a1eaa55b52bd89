"""The session's messages after the handshake, as :mod:`koikoi.net.wire` schemas
(docs/protocol.md, "Session messages"); the coin toss's are :mod:`koikoi.net.fair`'s and
private dealing's :mod:`koikoi.net.dealing`'s."""

from __future__ import annotations

from typing import Final

from koikoi.net.dealing import DEAL, DRAW, LOCK, PLAY, SEED, SHUFFLE
from koikoi.net.lockstep import MAX_ACK, MAX_ENTRY
from koikoi.net.session.clock import MAX_RESERVE_SECONDS
from koikoi.net.session.endings import BYE_REASONS, MAX_DETAIL
from koikoi.net.wire import Bool, Bytes, Int, OneOf, Record, Str

MOVE = Record({"entry": Bytes(1, MAX_ENTRY), "sig": Bytes(64, 64)})
ACK = Record({"ack": Bytes(1, MAX_ACK), "sig": Bytes(64, 64)})
"""The receiver's signed acknowledgement of a move it accepted (docs/protocol.md)."""
PING = Record({})
CLOCK = Record({"ready": Bool(), "reserve": Int(0, MAX_RESERVE_SECONDS * 1000)})
"""Whether the sender's table is ready for its seat to act (its move clock runs only then),
and its reserve left in milliseconds (docs/protocol.md, "Time"). Version 4; never in the
signed log."""
CONFIRM = Record({})
"""The local player sees the same four cards as the peer (once a side; in version 4 before
the toss's outcome is drawn, in version 2 after it)."""
HAND = Record({"teyaku": Bool(), "dealing": Bytes(32, 32)})
"""Private dealing: once a side's hand is open, whether it holds a teyaku (R8), declared by
the ``play`` keys of the whole hand sent just before, and the sealed hash of the deal as the
side sent and received its decks (docs/protocol.md)."""
DEALING: Final = {
    "shuffle": SHUFFLE,
    "lock": LOCK,
    "deal": DEAL,
    "draw": DRAW,
    "play": PLAY,
    "seed": SEED,
    "hand": HAND,
}
"""The messages of private dealing a session in play takes (koikoi.net.dealing's, and
``hand``)."""
BYE = Record(
    {"reason": OneOf(tuple(BYE_REASONS)), "detail": Str(MAX_DETAIL)}, optional=frozenset({"detail"})
)
