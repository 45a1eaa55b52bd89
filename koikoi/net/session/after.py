"""After the match: the two tables stay connected while their players read the result
(docs/protocol.md, "After the match").

A finished match's connection used to close within seconds of the last move, while both
players still read the result: a stamp (ありがとうございました) could not go, and neither table
could say that the other player wants a rematch or has gone. When both hellos say ``after``
(version 4, optional: the app does, ``koikoi host``/``join`` do not), the connection stays
open once the match is over and the goodbyes are said, carrying only:

- ``stamp``, as in the match, under the same rates (:mod:`koikoi.net.stamps`);
- ``rematch``, the player clicked Rematch: said once a side, shown on the other table;
- ``ping``, the heartbeat: the silence timeout holds as in the match;
- ``clock``, only before the peer's goodbye of the match: its table's readiness, said
  before it knew the match was over (it crossed our last message), and dropped;
- ``bye``: the peer's goodbye of the match (``finished``) or its leaving the result
  (``quit``: gone home, the window closed, or the room reopened for the rematch).

Nothing here is in the signed log, the record or a journal, and nothing here changes the
result, which was final before. Anything else, a field off its schema, a flood
(:data:`FLOOD_MAX` messages in :data:`FLOOD_WINDOW` s) or :data:`AFTER_FOR` s gone by ends
this part and closes the connection, the match untouched: a hostile peer can only cut short
its own goodbye.

:class:`AfterMatch` is sans-I/O like the session it follows, whose ciphers and stamp
limits it goes on with (a resumed connection's are the session's too);
:class:`~koikoi.net.connection.Connection` opens it when the session closes on a finished
match and hands it the frames, timers and the player's clicks from then on.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from koikoi.net.errors import DecryptError, ProtocolError
from koikoi.net.session.events import StampReceived
from koikoi.net.session.messages import ACK, BYE, CLOCK, PING
from koikoi.net.stamps import STAMP, STAMPS, check_stamp
from koikoi.net.wire import Record, decode_message, encode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session

logger = logging.getLogger("koikoi.net.session")

__all__ = [
    "AFTER_FOR",
    "FLOOD_MAX",
    "FLOOD_WINDOW",
    "REMATCH",
    "AfterEvent",
    "AfterMatch",
    "AfterOver",
    "Over",
    "PeerWantsRematch",
]

AFTER_FOR: Final = 600.0
"""Seconds the tables stay connected after a match: ten minutes of reading, then the
connection closes (a rematch asked later dials as without this part)."""
FLOOD_WINDOW: Final = 10.0
FLOOD_MAX: Final = 40
"""More messages than this in any :data:`FLOOD_WINDOW` seconds end this part: an honest
side sends a heartbeat every few seconds, a stamp every 3 s and one ``rematch``."""
REMATCH: Final = Record({})
"""The player clicked Rematch (no fields; once a side)."""


class Over(StrEnum):
    """Why the connection after a match closed (:class:`AfterOver`)."""

    LEFT = "left"
    """The peer's player left the result (its ``bye``)."""
    QUIT = "quit"
    """This side's player did (:meth:`AfterMatch.leave`)."""
    DROPPED = "dropped"
    """The connection broke."""
    SILENT = "silent"
    """Nothing came from the peer for the silence timeout."""
    TIME = "time"
    """:data:`AFTER_FOR` passed."""
    PROTOCOL = "protocol"
    """The peer sent something off the list, off a schema, or a flood."""


@dataclass(frozen=True)
class PeerWantsRematch:
    """The peer's player clicked Rematch (its ``rematch``), once."""


@dataclass(frozen=True)
class AfterOver:
    """The connection after the match closes; ``how`` says why, ``detail`` in words (for
    the log). ``wanted`` is whether the peer had said ``rematch`` before it closed."""

    how: Over
    detail: str = ""
    wanted: bool = False


AfterEvent = PeerWantsRematch | AfterOver | StampReceived


class AfterMatch:
    """The connection after ``session``'s finished match, from ``now`` (see the module)."""

    def __init__(self, session: Session, now: float) -> None:
        self.session = session
        self.until = now + AFTER_FOR
        self.last_rx = now
        self.last_tx = now
        self.closed = False
        self.wants = False
        """This side's player clicked Rematch (its ``rematch`` went)."""
        self.peer_wants = False
        """The peer's ``rematch`` came."""
        self.goodbye = False
        """The peer's ``bye`` ``finished`` of the match came here (it holds every entry)."""
        self._recent: deque[float] = deque()

    # --- what the connection reads -------------------------------------------------------

    def next_timer(self) -> float | None:
        if self.closed:
            return None
        session = self.session
        return min(
            self.until,
            self.last_rx + session.silence_timeout,
            self.last_tx + session.heartbeat_interval,
        )

    @property
    def stamps_to_peer(self) -> bool:
        """Whether the peer takes stamps (its hello listed some)."""
        return bool(self.session.stamps.theirs) and not self.closed

    # --- inputs --------------------------------------------------------------------------

    def receive(self, payload: bytes, now: float) -> list[AfterEvent]:
        """One frame from the peer."""
        if self.closed:
            return []
        self.last_rx = now
        self._recent.append(now)
        while self._recent and self._recent[0] <= now - FLOOD_WINDOW:
            self._recent.popleft()
        if len(self._recent) > FLOOD_MAX:
            flood = f"more than {FLOOD_MAX} messages in {FLOOD_WINDOW:g} s"
            return self._over(Over.PROTOCOL, flood)
        session = self.session
        expected = {"ping": PING, "bye": BYE, "rematch": REMATCH, "ack": ACK}
        if session.stamps.mine:
            expected["stamp"] = STAMP
        if session.cards_first and not self.goodbye:  # sent before the peer knew it was over
            expected["clock"] = CLOCK
        try:
            plaintext = session._rx.decrypt_with_ad(b"", payload)
            message = decode_message(plaintext, expected)
        except DecryptError:
            return self._over(Over.PROTOCOL, "a message did not decrypt")
        except ProtocolError as error:
            return self._over(Over.PROTOCOL, f"the peer sent {error}")
        kind = message.kind
        if kind in ("ping", "ack", "clock"):  # a late ack (the record had its wait), a late clock
            return []
        if kind == "bye":
            if message.fields.get("reason", str) == "finished" and not self.goodbye:
                self.goodbye = True  # the match's goodbye, which may come after ours
                return []
            return self._over(Over.LEFT, "the peer left the result")
        if kind == "rematch":
            if self.peer_wants:
                return []  # said once: a repeat changes nothing
            self.peer_wants = True
            return [PeerWantsRematch()]
        stamp = message.fields.get("id", str)
        wrong = check_stamp(session.stamps, stamp)
        if wrong is not None:
            return self._over(Over.PROTOCOL, f"the peer sent {wrong}")
        session._clock.now = now  # the stamp rate reads the session's clock
        if not session.stamps.take(now):
            return []
        return [StampReceived(stamp)]

    def tick(self, now: float) -> list[AfterEvent]:
        if self.closed:
            return []
        if now >= self.until:
            return self._over(Over.TIME, f"{AFTER_FOR:g} s after the match", send_bye=True)
        session = self.session
        if now - self.last_rx >= session.silence_timeout:
            return self._over(Over.SILENT, f"nothing for {session.silence_timeout:g} s")
        if now - self.last_tx >= session.heartbeat_interval:
            self._send(encode_message("ping"), now)
        return []

    def rematch(self, now: float) -> bool:
        """The player clicked Rematch: the peer is told, once. False when the connection is
        gone (the rematch then dials as without this part)."""
        if self.closed:
            return False
        if not self.wants:
            self.wants = True
            self._send(encode_message("rematch"), now)
        return True

    def send_stamp(self, stamp: str, now: float) -> bool:
        """A stamp to the peer, as during the match (:func:`~koikoi.net.session.stamps.send`)."""
        if stamp not in STAMPS:
            raise ValueError(f"unknown stamp {stamp!r}")
        limits = self.session.stamps
        if self.closed or not limits.may_send(stamp, now):
            return False
        limits.sent(now)
        self._send(encode_message("stamp", id=stamp), now)
        return True

    def leave(self, now: float) -> list[AfterEvent]:
        """The player left the result (home, the window closed, the room reopened for the
        rematch): the peer is told and the connection closes."""
        return self._over(Over.QUIT, "the player left the result", send_bye=True)

    def connection_lost(self) -> list[AfterEvent]:
        return self._over(Over.DROPPED, "the connection dropped")

    # --- steps ---------------------------------------------------------------------------

    def _send(self, message: bytes, now: float) -> None:
        self.session._send(message)
        self.last_tx = now

    def _over(self, how: Over, detail: str, send_bye: bool = False) -> list[AfterEvent]:
        if self.closed:
            return []
        if send_bye:
            self.session._send(encode_message("bye", reason="quit"))
        self.closed = True
        logger.info("the connection after the match closes: %s", detail)
        return [AfterOver(how, detail, self.peer_wants)]
