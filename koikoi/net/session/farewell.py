"""How a session ends (docs/protocol.md, "End of the match, leaving, silence"): the
:class:`~koikoi.net.session.endings.Ending` of each way out, with what makes one suspicious
(the toss or a deal abandoned after seeing its result, "Toss aborts" and "Deal aborts") and,
privately dealt, how the deals' audits stand; the ending a peer's ``bye`` brings; and, the
match over, the waits for the last move's acknowledgement and the peer's last seed, until the
ending goes out.

Functions of a :class:`~koikoi.net.session.core.Session`, which closes itself on what they say.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from koikoi.net.errors import DecryptError, ProtocolError
from koikoi.net.roles import Role
from koikoi.net.session.endings import (
    BYE_REASONS,
    CARDS_DIFFER,
    CARDS_DIFFER_PEER,
    Audit,
    AuditResult,
    Ending,
    How,
    Stage,
    duration,
    now_text,
)
from koikoi.net.session.events import Ended, SessionEvent
from koikoi.net.session.messages import ACK, BYE, CLOCK, DEALING, PING
from koikoi.net.session.stamps import on_stamp
from koikoi.net.stamps import STAMP
from koikoi.net.wire import decode_message, encode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session


def ending(
    session: Session,
    finished: bool,
    how: How,
    by: Role | None,
    reason: str,
    rejected: dict[str, str] | None = None,
) -> Ending:
    """The ending of ``session`` now, ``how``, caused by ``by`` (None: nobody, or the local
    player's ``cards``) for ``reason``: marked suspicious, and the reason said again, when it
    abandons the toss or a deal after its result was seen."""
    stage = "toss" if session.stage is Stage.TOSS else "play"
    suspicious = False
    # A local "cards" ending has no ``by`` (this player said so), but it is this side
    # that ends the toss: after the reveal, as suspicious as any other way of leaving.
    leaver = session.role if by is None and how is How.CARDS else by
    if session.stage is Stage.TOSS and leaver is not None:
        abort = session.toss.abort(leaver, reason)
        suspicious = abort.suspicious
        if how not in (How.CHEAT, How.PROTOCOL, How.CARDS):  # those keep their own reason
            reason = abort.describe()
    elif not finished and leaver is not None and cards_seen_unplayed(session, leaver):
        suspicious = True  # docs/protocol.md, "Deal aborts"
        if how not in (How.CHEAT, How.PROTOCOL):
            reason = (
                f"{reason} (the {leaver.value} had seen its cards of the deal, which"
                " had no move yet: that counts as abandoning a deal after seeing its cards)"
            )
    elif by is not None and not finished and toss_just_decided(session):
        suspicious = True  # version 4: "after tA", the first deal before its first move
    lockstep = session.lockstep
    moves = lockstep.seq if lockstep is not None else 0
    audit = None
    if not finished and session.dealing == "private" and lockstep is not None:
        private = session._private
        audit = Audit(AuditResult.DONE) if private is None else private.audit()
    return Ending(finished, how, by, reason, stage, moves, now_text(), suspicious, rejected, audit)


def cards_seen_unplayed(session: Session, leaver: Role) -> bool:
    """Whether ``leaver`` had seen its cards of a deal that had no move yet (the first
    deal at move 0, or any later one before its first move): leaving then is as
    suspicious as abandoning the toss after seeing the result. Privately dealt, a side
    has seen its hand once its ``hand`` went (the peer's: once it came)."""
    lockstep = session.lockstep
    if session.stage is not Stage.PLAYING or lockstep is None:
        return False
    rnd = lockstep.match.round
    private = session._private
    if private is not None:
        if not private.seen(leaver is session.role):
            return False
        if not private.deal.laid:
            return True
    return rnd is not None and not rnd.over and not lockstep.match.moves


def toss_just_decided(session: Session) -> bool:
    """Version 4: the toss's outcome is drawn on both sides (the host sent ``tA``, the
    joiner read it) and the match's first move is not made yet: both know who deals
    first, and a side leaving now abandons the toss after seeing the result (the window
    version 2 had while the cards were compared, docs/protocol.md "Toss aborts")."""
    lockstep = session.lockstep
    return (
        session.cards_first
        and session.stage is Stage.PLAYING
        and lockstep is not None
        and lockstep.seq == 0
        and len(lockstep.record.deals) <= 1
    )


def bye_ending(session: Session, code: str, detail: str | None) -> Ending:
    """The ending the peer's ``bye`` with ``code`` (and ``detail``) brings in play or in the
    toss: it left, saw other cards, claims this side abandoned the match (when it is this
    side's turn), or stopped the match."""
    said = f" ({detail})" if detail else ""
    peer = session.role.peer
    if code == "quit":
        return ending(session, False, How.LEFT, peer, f"the peer left{said}")
    if code == "cheat" and detail == CARDS_DIFFER and session.stage is Stage.TOSS:
        return ending(session, False, How.CARDS, peer, CARDS_DIFFER_PEER)
    if code == "abandoned":
        state = session.clock(session._clock.now)
        if state is not None and state.local:  # this side's turn: the claim fits
            waited = duration(state.waited)
            return ending(
                session,
                False,
                How.ABANDONED,
                session.role,
                f"the peer ended the match: no move came from this side for {waited}",
            )
    if code == "finished":
        reason = "the peer said the match is over, but it is not over here"
    else:
        reason = f"the peer stopped the match: {BYE_REASONS[code]}{said}"
    return ending(session, False, How.STOPPED, peer, reason)


# --- after the last move: the waits for its acknowledgement and the last seed -------------


def after_the_end(session: Session, payload: bytes) -> list[SessionEvent]:
    """After the last move: only the acknowledgement of it and, privately dealt, the
    peer's seed of the last deal are still taken (into the record and the audit);
    anything else, or nothing within their waits, ends the wait. Nothing here changes
    the result: a missing or wrong seed goes into the ending's ``audit``."""
    lockstep, acks = session.lockstep, session._acks
    assert lockstep is not None
    expected = {"ack": ACK, "bye": BYE, "ping": PING}
    if acks.seed_until is not None:
        expected["seed"] = DEALING["seed"]
    if session.stamps.mine:  # a stamp may cross the last move
        expected["stamp"] = STAMP
    if session.cards_first:  # so may the peer's table readiness (its animation, its panel)
        expected["clock"] = CLOCK
    try:
        plaintext = session._rx.decrypt_with_ad(b"", payload)
        message = decode_message(plaintext, expected)
    except (DecryptError, ProtocolError) as error:
        return stop_waiting(session, why=f"sent {error} instead of its seed of deal {{deal}}")
    if message.kind == "ping" or message.kind == "clock":  # no clock runs any more
        return []
    if message.kind == "stamp":
        return on_stamp(session, message.fields.get("id", str), after_the_end=True)
    if message.kind == "bye":
        acks.bye = True
        code = message.fields.get("reason", str)
        return stop_waiting(session, why=f"said goodbye ({code}) without its seed of deal {{deal}}")
    if message.kind == "seed":
        assert session._private is not None  # a seed is read only when privately dealt
        session._private.last_seed(plaintext, message)
        return session._maybe_done()
    raw, signature = message.fields.get("ack", bytes), message.fields.get("sig", bytes)
    if acks.resent(lockstep, raw, signature, session.seat):
        return []  # resent after a resume, already here
    if acks.take_last(lockstep, session.peer.public_key, raw, signature):
        return session._maybe_done()
    return stop_waiting(
        session,
        why="sent an acknowledgement that does not check instead of its seed of deal {deal}",
    )


def waits_ran_out(session: Session, now: float) -> list[SessionEvent]:
    """Time passed after the last move: the waits whose time is up end (no acknowledgement
    came; the seed did not come, a refused audit); the ending goes out once both are over."""
    acks, private = session._acks, session._private
    if acks.last_until is not None and now >= acks.last_until:
        acks.last_until = None  # no acknowledgement of the last move came
    if acks.seed_until is not None and now >= acks.seed_until:
        assert private is not None  # a seed is read only when privately dealt
        wait = f"{session.seed_wait:g} s"
        if now - session._clock.last_rx >= session.seed_wait:  # not even a heartbeat
            private.refuse_audit(f"sent nothing for {wait}, its seed of deal {{deal}} included")
        else:
            private.refuse_audit(f"withheld its seed of deal {{deal}} for {wait}")
    return session._maybe_done()


def stop_waiting(session: Session, goodbye: bool = True, why: str = "") -> list[SessionEvent]:
    """The wait for the last move's acknowledgement (and the last seed) is over: the
    ending goes out now, so a record saved on it holds that acknowledgement when it
    came, and so does the goodbye (``bye`` ``finished`` after the ack says this side
    holds it too). A seed still owed is a refused audit (``why`` says how)."""
    private, acks = session._private, session._acks
    if private is not None:
        private.give_up(why)
    acks.last_until = None
    assert session.ending is not None
    if session.dealing == "private" and session.ending.finished:
        fault = None if private is None else private.audit_fault
        session.ending = replace(session.ending, audit=fault or Audit(AuditResult.DONE))
    if goodbye:
        session._send(encode_message("bye", reason="finished"))
    if acks.told:  # a wait again after a resume: the ending went out before
        return []
    acks.told = True
    return [Ended(session.ending)]
