"""The session's first stage (:attr:`~koikoi.net.session.endings.Stage.TOSS`): the coin toss
(:mod:`koikoi.net.fair`) and the four cards both players confirm (``confirm``; in version 4
before the toss's outcome is drawn by the ``toss`` messages, in version 2 after it), until
the first deal, dealt from the joint seed or privately (docs/protocol.md, "Waiting for the
four cards").

Functions of a :class:`~koikoi.net.session.core.Session`, which calls them as the toss's
messages and its player's confirmation come.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from koikoi.net.errors import CheatDetected, ProtocolError
from koikoi.net.fair import TossPhase
from koikoi.net.lockstep import Lockstep
from koikoi.net.private import PrivateLockstep
from koikoi.net.roles import Role
from koikoi.net.session.endings import How, Stage
from koikoi.net.session.events import CardsShown, SessionEvent, TossDone
from koikoi.net.session.messages import CONFIRM
from koikoi.net.session.private_dealing import PrivateDealing
from koikoi.net.wire import Record, encode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session

logger = logging.getLogger("koikoi.net.session")


def expected(session: Session) -> dict[str, Record]:
    """The toss's messages ``session`` takes now (besides ``ping`` and ``bye``)."""
    coin = session.toss
    messages = coin.expected()
    if coin.cards is not None and not session.peer_confirmed:
        return {"confirm": CONFIRM}  # version 4: the peer's toss comes after
    if "toss" in messages and not session._confirm_sent:
        return {}  # version 4, the host: the joiner's toss only after its confirm
    return messages


def on_toss(session: Session, plaintext: bytes) -> list[SessionEvent]:
    """One of the toss's messages from the peer: the reply goes out; the four cards show
    once drawn (:class:`CardsShown`), and the deal follows once both confirmed."""
    coin, peer = session.toss, session.role.peer
    try:
        replies = coin.receive(plaintext)
    except CheatDetected as error:
        return session._fail(How.CHEAT, peer, str(error))
    except ProtocolError as error:
        return session._fail(How.PROTOCOL, peer, f"the peer sent {error}")
    for reply in replies:
        session._send(reply)
    result, cards = coin.result, coin.cards
    if result is not None:
        logger.info("coin toss done: seat %d is the first oya", result.first_oya)
    if session.cards_first and result is not None:  # version 4: the toss after the cards
        return confirm_and_deal(session)
    if cards is None:
        return []
    return [CardsShown(cards, result), *confirm_and_deal(session)]


def confirm_and_deal(session: Session) -> list[SessionEvent]:
    """Send ``confirm`` once the cards are drawn and the local player confirmed; once the
    peer's is in too, in version 4 the joiner sends its ``toss`` (the outcome comes with
    the host's answer); deal once the outcome is drawn."""
    coin = session.toss
    if coin.cards is None or session.stage is not Stage.TOSS or not session.confirmed:
        return []
    if not session._confirm_sent:
        session._confirm_sent = True
        session._send(encode_message("confirm"))
    if not session.peer_confirmed:
        return []
    result = coin.result
    if result is None:  # version 4: both confirmed, the outcome is still to be drawn
        if session.role is Role.JOINER and coin.phase is TossPhase.CARDS:
            for message in coin.toss():
                session._send(message)
        return []
    now = session._clock.now
    if session.dealing == "private":
        private = PrivateLockstep(
            session.settings, result.first_oya, result.seed, session.session_id, session.seat
        )
        session.lockstep = private
        session.stage = Stage.PLAYING
        session._moves.restart(private.seq, now)
        session._private = PrivateDealing(session, private)  # deals the first deal
        return []  # TossDone comes with the first deal laid out
    lockstep = Lockstep(session.settings, result.first_oya, result.seed, session.session_id)
    session.lockstep = lockstep
    session.stage = Stage.PLAYING
    session._moves.restart(lockstep.seq, now)  # the first move's clock
    out: list[SessionEvent] = [TossDone(result, tuple(lockstep.events))]
    if lockstep.match.finished:  # only a run of teyaku could do this, but be exact
        out += session._finish_locally()
    return out
