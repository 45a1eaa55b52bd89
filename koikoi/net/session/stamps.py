"""The session's part of stamps (:mod:`koikoi.net.stamps` has what they are and their
rates): sending one and taking the peer's, functions of the :class:`Session` that calls them
(docs/protocol.md, "Stamps")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from koikoi.net.session.endings import How, Stage
from koikoi.net.session.events import SessionEvent, StampReceived
from koikoi.net.stamps import STAMPS, check_stamp
from koikoi.net.wire import encode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session

__all__ = ["on_stamp", "send"]


def send(session: Session, stamp: str, now: float) -> bool:
    """``stamp`` (one of :data:`STAMPS`) goes to the peer, encrypted, outside the signed log,
    if the peer's hello listed it and this side sent none for :data:`SEND_INTERVAL` seconds;
    only until the match is over (after its last move a side says no more than ``bye``).
    Returns whether it went; :class:`ValueError` for an id this koikoi does not have."""
    if stamp not in STAMPS:
        raise ValueError(f"unknown stamp {stamp!r}")
    if session.stage is Stage.CLOSED or not session.stamps.may_send(stamp, now):
        return False
    session._clock.now = now
    session.stamps.sent(now)
    session._send(encode_message("stamp", id=stamp))
    return True


def on_stamp(session: Session, stamp: str, after_the_end: bool = False) -> list[SessionEvent]:
    """The peer's ``stamp``: shown (:class:`StampReceived`) within the rate, else dropped; an
    id this side did not list is a protocol error (after the last move it only ends the wait
    for the last acknowledgement, as anything unexpected does then)."""
    wrong = check_stamp(session.stamps, stamp)
    if wrong is not None:
        if after_the_end:
            return session._stop_waiting(why=f"sent {wrong} instead of its seed of deal {{deal}}")
        return session._fail(How.PROTOCOL, session.role.peer, f"the peer sent {wrong}")
    if not session.stamps.take(session._clock.now):
        return []
    return [StampReceived(stamp)]
