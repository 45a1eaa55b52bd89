"""The session's record (docs/protocol.md, "The signed record"): the signed
``koikoi-record/1`` with its ``net`` key (the players, the handshake's signatures, the toss)
and ``end`` key (the :class:`~koikoi.net.session.endings.Ending`), the ``koikoi replay`` JSON of the
match as it stands, and a crashed side's session replayed from its record's ``local`` key
(docs/protocol.md, "A side that crashed").

Functions of a :class:`~koikoi.net.session.core.Session`, which calls them from its methods of
the same names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from koikoi.engine.record import GameRecord, replay_record
from koikoi.engine.round import IllegalAction
from koikoi.net.dealing import SEED_LEN
from koikoi.net.errors import ProtocolError
from koikoi.net.handshake import session_statement
from koikoi.net.hello import protocol_name
from koikoi.net.lockstep import b64
from koikoi.net.private import PrivateLockstep
from koikoi.net.roles import Role
from koikoi.net.session.clock import LinkClock
from koikoi.net.session.endings import Stage
from koikoi.net.session.journal import Journal, b64_bytes
from koikoi.net.wire import decode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session


@dataclass
class Names:
    """The players' nicknames and public keys, as the record's ``net.players`` names them."""

    mine: str
    peer: str
    keys: dict[Role, bytes] = field(default_factory=dict)


def signed_record(session: Session, local: bool = True) -> GameRecord:
    """The signed record so far (``koikoi-record/1`` with the ``net`` and ``end`` keys),
    privately dealt and in play also with the ``local`` key unless ``local`` is False
    (:meth:`~koikoi.net.session.core.Session.local_json`: a record file keeps it beside the
    record, :mod:`koikoi.net.recordfile`)."""
    toss = session.toss.result
    lockstep = session.lockstep
    if lockstep is not None:
        if isinstance(lockstep, PrivateLockstep):
            lockstep.refresh_record()
        record = lockstep.record
    elif toss is not None:  # ended while the four cards were compared: the toss, no deal
        record = GameRecord(session.settings, first_oya=toss.first_oya)
    else:  # the toss never finished: no deal, and first_oya means nothing (end.stage)
        record = GameRecord(session.settings, first_oya=0)
    record.extra["net"] = net_json(session)
    record.extra.pop("local", None)
    if session.ending is not None:
        record.extra["end"] = session.ending.to_json()
    elif session._journal.own_seeds and local:
        record.extra["local"] = session._journal.local_json()
    return record


def record_mark(session: Session) -> tuple[object, ...]:
    """How far the signed record has grown (the toss, the entries, the deals, the
    acknowledgements of this side's entries, the end): a record file written at one mark
    and the record at another differ (a privately dealt deal in play also shows more of
    its dealing as it goes: the journal keeps that)."""
    lockstep = session.lockstep
    ending = None if session.ending is None else session.ending.to_json()
    if lockstep is None:
        return session.toss.result is not None, ending
    deals = len(lockstep.record.deals)
    return True, lockstep.seq, deals, len(session._acks.unacked), ending


def result_json(session: Session) -> dict[str, Any]:
    """The ``koikoi replay`` JSON of the match as it stands (``finished`` per the ending).

    A finished match is its signed moves' result, as this side's engine played them (a
    privately dealt last deal whose audit did not come holds stand-ins for the cards
    nobody opened: nothing of the result depends on them)."""
    lockstep, ending = session.lockstep, session.ending
    if ending is not None and ending.finished and lockstep is not None:
        match = lockstep.match
        return {
            "rounds": [outcome.to_json() for outcome in match.history],
            "scores": list(match.scores),
            "winner": match.winner,
            "finished": match.finished,
        }
    result = replay_record(signed_record(session).to_json()).to_json()
    if ending is not None and not ending.finished:
        result["finished"] = False
        result["winner"] = None
    return result


def handshake_json(session: Session) -> list[dict[str, str]]:
    """Both sides' signatures over the session id from the handshake, with the bytes
    each signed (docs/protocol.md, "The signed record")."""
    signatures = session._acks.handshake
    return [
        {
            "role": role.value,
            "signed": b64(session_statement(role, session.session_id, session.settings)),
            "sig": b64(signature),
        }
        for role, signature in zip((Role.HOST, Role.JOINER), signatures, strict=True)
    ]


def net_json(session: Session) -> dict[str, Any]:
    """The record's ``net`` key: the protocol, the session id, the players, the handshake's
    signatures, the dealing (version 4) and the toss once done."""
    names = session._names
    players = []
    for role in (Role.HOST, Role.JOINER):
        nick = names.mine if role is session.role else names.peer
        players.append(
            {"seat": role.seat, "role": role.value, "nick": nick, "key": b64(names.keys[role])}
        )
    net: dict[str, Any] = {
        "protocol": session.protocol,
        "session": b64(session.session_id),
        "players": players,
        "handshake": handshake_json(session),
    }
    if session.protocol != protocol_name(2):  # version 4 names the dealing and the clock agreed
        net["dealing"] = session.dealing
        clock = session.clock_setting
        net["clock"] = {"seconds": clock.seconds, "reserve": clock.reserve}
    result = session.toss.result
    if result is not None:
        net["toss"] = {
            "commit": b64(result.commitment),
            "host_random": b64(result.host_random),
            "joiner_random": b64(result.joiner_random),
        }
        if session.cards_first:  # version 4: the toss drawn after the cards
            net["toss"].update(
                toss_commit=b64(result.toss_commitment),
                host_toss=b64(result.host_toss),
                joiner_toss=b64(result.joiner_toss),
            )
        net["seed"] = b64(result.seed)
    return net


def replay(session: Session, local: Mapping[str, Any], now: float) -> None:
    """The session of a crashed side's record, replayed from its ``local`` key (its seeds
    and journal; :func:`koikoi.net.resume.restore_session`): the toss done, the deals
    dealt again from the kept seeds, the peer's messages taken again and the local moves
    played again in their order. What this side would send goes nowhere: the peer took
    it, or a resume sends it again. Raises :class:`ValueError` (one line) for a journal
    this session does not take as it did."""
    session._clock = LinkClock.at(now)
    session.confirmed = session.peer_confirmed = session._confirm_sent = True
    journal = session._journal
    journal.dealer_seeds[:] = Journal.seeds_of(local, SEED_LEN)
    session._confirm_and_deal()
    items = local.get("journal")
    if not isinstance(items, list):
        raise ValueError("its journal is not a list")
    for n, item in enumerate(items):
        if session.stage is Stage.CLOSED:
            break
        if not isinstance(item, list) or not item or not all(isinstance(x, str) for x in item):
            raise ValueError(f"its journal item {n} is not a list of strings")
        if item[0] == "in" and len(item) == 2:
            plaintext = b64_bytes(item[1])
            journal.items.append(["in", item[1]])
            try:
                message = decode_message(plaintext, session._expected())
            except ProtocolError as error:
                raise ValueError(f"its journal item {n}: {error}") from None
            session._take(plaintext, message)
        elif item[0] == "play" and len(item) == 2 and item[1].isdigit():
            try:
                session.play(int(item[1]), now)
            except (ValueError, IllegalAction) as error:
                raise ValueError(f"its journal item {n}: a move not to play: {error}") from None
        elif item == ["resumed"]:
            journal.items.append(["resumed"])
            session._acks.replayed = True
        else:
            raise ValueError(f"its journal item {n} is of no known kind")
    if session.closed or session.ending is not None:
        raise ValueError("its journal ends the session")
    if journal.dealer_seeds:
        raise ValueError("it keeps seeds for deals that were never dealt")
    session._out = []
    if session.lockstep is not None:
        session._moves.restart(session.lockstep.seq, now)
