"""Whose move clock runs and what it says (docs/protocol.md, "Time"): the seat the clock
waits for (a dealing message owed gives it to the side that owes it), when it next has
something to say, whether each side's table is ready, and the end of a match whose peer
sent no move for what its clock gave it and the abandon time.

Functions of a :class:`~koikoi.net.session.core.Session`, whose :class:`TurnClock` they
read and set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koikoi.net.session.endings import How, Stage, duration
from koikoi.net.wire import encode_message

if TYPE_CHECKING:
    from koikoi.net.session.clock import MoveClock
    from koikoi.net.session.core import Session
    from koikoi.net.session.events import SessionEvent


def clock_seat(session: Session) -> int | None:
    """The seat the clock waits for (a move into the log since began a new turn); None
    outside play and while the local side owes a dealing message (its program sends it)."""
    lockstep = session.lockstep
    if session.stage is not Stage.PLAYING or lockstep is None:
        return None
    session._moves.follow(lockstep.seq, session._clock.now)
    private = session._private
    if private is not None and private.dealing_owed:
        return session.role.peer.seat if private.owed_by_peer() else None
    if lockstep.match.finished:
        return None
    return lockstep.match.current_seat()


def peer_owes_dealing(session: Session) -> bool:
    """The clock waits for a dealing message of the peer (not for a move of its)."""
    private = session._private
    return private is not None and private.dealing_owed and private.owed_by_peer()


def clock_state(session: Session, now: float) -> MoveClock | None:
    """The move clock at ``now``: whose it is and how it stands; None outside play."""
    seat = clock_seat(session)
    if seat is None:
        return None
    return session._moves.state(seat, seat == session.seat, now, peer_owes_dealing(session))


def clock_due(session: Session) -> float | None:
    """When the move clock next has something to say (once per turn)."""
    seat = clock_seat(session)
    if seat is None:
        return None
    return session._moves.due(seat == session.seat, peer_owes_dealing(session))


def set_ready(session: Session, ready: bool, now: float) -> None:
    """The local table is ready for its seat to act, or not: the peer is told in version 4,
    once a change (:meth:`Session.set_ready`)."""
    session._clock.now = now
    clock_seat(session)  # a move since: its turn first
    moves = session._moves
    if moves.set_ready(0, ready, now):
        say_ready_again(session)


def say_ready_again(session: Session) -> None:
    """This side's readiness and reserve as they stand, to the peer (version 4): on each
    change, and on a resumed connection, since the peer's view of them is the last ``clock``
    before the drop and the table may have changed meanwhile (:meth:`Session.reconnect`)."""
    if session.cards_first and not session.closed:
        moves = session._moves
        reserve = round(moves.reserves[0] * 1000)
        session._send(encode_message("clock", ready=moves.ready[0], reserve=reserve))


def on_clock(session: Session, ready: bool, reserve_ms: int) -> None:
    """The peer's ``clock``: its table ready or not, and its reserve (which only goes
    down here: a larger one is not believed)."""
    clock_seat(session)
    session._moves.set_ready(1, ready, session._clock.now)
    session._moves.peer_reserve(reserve_ms / 1000)


def abandon(session: Session, now: float) -> list[SessionEvent]:
    """End the match as abandoned by the peer (:meth:`Session.abandon`)."""
    if session.closed:
        return []
    session._clock.now = now
    state = clock_state(session, now)
    if state is None or state.local or not state.overdue:
        raise ValueError(
            "the peer is not overdue: it can be declared gone only after its clock and "
            f"{session.abandon_after:g} s without a move"
        )
    waited = duration(state.waited)
    reason = f"the peer sent no move for {waited}: it abandoned the match"
    owed = None if session._private is None else session._private.owed_message()
    if owed is not None:
        reason = f"the peer sent no {owed} for {waited}: it abandoned the match"
    ending = session._ending(False, How.ABANDONED, session.role.peer, reason)
    return session._close(ending, announce="abandoned")
