"""``koikoi verify``: recheck a signed network record from its own contents.

A record saved by a network match keeps, for every action, the exact log-entry bytes the
mover signed and the signature, and the other side's signed acknowledgement of it; and both
sides' handshake signatures over the session id (docs/protocol.md, "The signed record").
Verification trusts nothing the record says without checking it:

1. the handshake: each key named in the record signed this session (its settings statement
   over the session id); a ``koikoi-net/1`` record predates these signatures and is read with
   the handshake "not proven";
2. the coin toss: the host's random matches its commitment (in a ``koikoi-net/4`` record
   its toss random too, which the four cards did not depend on), and the first oya and the
   seed follow from the session id and the randoms;
3. every deal is the one the joint seed gives;
4. every action: its entry is base64 of a well-formed entry; the entry holds the action the
   record shows; its sequence number and ``prev_hash`` continue the chain; the signature
   verifies against the identity key the record gives for the seat that moved; the move is
   legal; the state hash matches the state after replaying it; and its acknowledgement, when
   there is one, names that entry and is signed by the other seat's key.

The first failure is reported with the move it concerns. What passes is split in two: what the
signatures prove (who signed the session, the moves each key signed, how far each key signed
the log, the result when the signed moves finish the match) and what the record's writer only
claims (nicknames, the ``end`` block: who left, who cheated, rejected bytes, the stop). A
record cannot prove who holds a key: compare the fingerprints with the ones you trust.
:func:`compare_records` checks two records of one session against each other and names a key
that signed two different entries (or acknowledgements) for one move.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from koikoi.engine.record import FORMAT, ParsedDeal, RecordError, parse
from koikoi.engine.round import SHOBU, IllegalAction, Phase, action_str
from koikoi.net.dealing import DealingCheat, DealTranscript, audit
from koikoi.net.errors import ProtocolError
from koikoi.net.fair import commitment, first_oya, joint_seed, toss_commitment
from koikoi.net.handshake import session_statement
from koikoi.net.hello import PRIVATE_VERSION, PROTOCOL_NAME, protocol_name
from koikoi.net.identity import fingerprint, verify_signature
from koikoi.net.lockstep import Lockstep, ack_signed_data, decode_ack, decode_entry, signed_data
from koikoi.net.private import SEALED_KEY, AuditedLockstep, replay_dealt
from koikoi.net.roles import Role

LEGACY_PRIVATE: Final = protocol_name(3)
"""Records of version 3 (the dealing negotiated, the toss before the cards), no longer
spoken but still verified."""
RECORD_PROTOCOLS: Final = (
    "koikoi-net/1",
    PROTOCOL_NAME,
    LEGACY_PRIVATE,
    protocol_name(PRIVATE_VERSION),
)
"""Records of these versions verify: their entries, signatures and chains are the same;
version 1 records carry no handshake signatures (the handshake is "not proven"); versions 3
and 4 name their dealing (``net.dealing``); version 4 keeps the toss drawn after the cards."""
NEGOTIATED: Final = (LEGACY_PRIVATE, protocol_name(PRIVATE_VERSION))
"""The record protocols that name their dealing (``net.dealing``)."""
OLD_PROTOCOL: Final = "koikoi-net/1"

PROVEN_NOTE: Final = "what the signatures in the record prove"
CLAIMS_NOTE: Final = "what the record's writer says: no signature proves it"


class NotARecord(ValueError):
    """The input cannot be read as a ``koikoi-record/1`` at all (exit 2)."""


class VerificationFailed(ValueError):
    """A check failed; the message names the first one (and the move, when there is one)."""


@dataclass(frozen=True)
class Verified:
    """What a record that passed proves (and, apart, what it only claims).

    ``heads[n]`` is the hash of entry ``n``; ``reach[seat]`` the last move whose log the seat's
    key signed (its own entry, or its acknowledgement of the other's), -1 for none; ``what[n]``
    names move ``n`` for messages. ``players`` are the proven facts per seat.
    """

    moves: int
    deals: int
    toss: bool
    result: dict[str, Any]
    players: list[dict[str, Any]]
    end: dict[str, Any] | None
    protocol: str = PROTOCOL_NAME
    session: bytes = b""
    handshake: bool = False
    keys: tuple[bytes, ...] = ()
    nicks: tuple[str, ...] = ()
    heads: tuple[bytes, ...] = ()
    reach: tuple[int, int] = (-1, -1)
    what: tuple[str, ...] = ()
    movers: tuple[int, ...] = ()
    acked: tuple[bool, ...] = ()
    toss_values: dict[str, str] = field(default_factory=dict)
    rejected: dict[str, Any] | None = None
    """What the signatures prove about the ``end`` block's ``rejected`` move, if any."""
    audit: dict[str, Any] | None = None
    """Privately dealt: how the deals' audits check (:func:`_audit_state`)."""

    def to_json(self) -> dict[str, Any]:
        agreed = min(self.reach)
        proven: dict[str, Any] = {
            "note": PROVEN_NOTE,
            "handshake": self.handshake,
            "players": self.players,
            "toss": self._toss_proven(),
            "moves": self.moves,
            "deals": self.deals,
            "agreed_to": agreed if agreed >= 0 else None,
            "scores": self.result["scores"],
            "winner": self.result["winner"],
            "finished": self.result["finished"],
        }
        if self.rejected is not None:
            proven["evidence"] = self.rejected
        if self.audit is not None:
            proven["audit"] = self.audit
        claims: dict[str, Any] = {"note": CLAIMS_NOTE, "nicks": list(self.nicks)}
        if not self.handshake:
            claims["players"] = "the keys' part in this session (a koikoi-net/1 record)"
        if self.toss and not self.moves:
            claims["toss"] = "done (no signed move binds its randoms)"
        if self.end is not None:
            claims["end"] = self.end
        return {
            "valid": True,
            **self.result,  # replay's keys: what the signed moves give
            "protocol": self.protocol,
            "session": _b64(self.session),
            "proven": proven,
            "claims": claims,
        }

    def _toss_proven(self) -> str:
        """``done`` once a signed move chains the toss's seed; a toss without moves is only
        claimed (anyone can make up randoms that fit a commitment of their own)."""
        if not self.toss:
            return "unfinished"
        return "done" if self.moves else "not signed"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(value: object, what: str, length: int | None = 32) -> bytes:
    if not isinstance(value, str):
        raise VerificationFailed(f"{what} is missing or not a base64 string")
    try:
        data = base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise VerificationFailed(f"{what} is not valid base64") from None
    if length is not None and len(data) != length:
        raise VerificationFailed(f"{what} is {len(data)} bytes, not {length}")
    return data


def _players(net: Mapping[str, Any]) -> tuple[list[bytes], list[str]]:
    players = net.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise VerificationFailed("net.players must list the two players")
    keys: list[bytes] = []
    nicks: list[str] = []
    for seat, (player, role) in enumerate(zip(players, (Role.HOST, Role.JOINER), strict=True)):
        if not isinstance(player, dict) or player.get("seat") != seat:
            raise VerificationFailed(f"net.players[{seat}] is not seat {seat}")
        if player.get("role") != role.value:
            raise VerificationFailed(f"net.players[{seat}] must be the {role.value}")
        keys.append(_bytes(player.get("key"), f"net.players[{seat}].key"))
        nick = player.get("nick")
        nicks.append(nick if isinstance(nick, str) else "")
    return keys, nicks


def _check_handshake(net: Mapping[str, Any], session: bytes, keys: list[bytes], data: Any) -> bool:
    """Both keys signed this session (True), or a version 1 record that cannot say (False)."""
    if net.get("protocol") == OLD_PROTOCOL:
        return False
    signatures = net.get("handshake")
    if not isinstance(signatures, list) or len(signatures) != 2:
        raise VerificationFailed(
            "the record carries no handshake signatures (net.handshake): nothing proves its "
            "keys took part in this session"
        )
    settings = parse(data).settings
    for seat, (item, role) in enumerate(zip(signatures, (Role.HOST, Role.JOINER), strict=True)):
        where = f"net.handshake[{seat}]"
        if not isinstance(item, dict) or item.get("role") != role.value:
            raise VerificationFailed(f"{where} must be the {role.value}'s signature")
        signed = _bytes(item.get("signed"), f"{where}.signed", None)
        if signed != session_statement(role, session, settings):
            raise VerificationFailed(
                f"handshake: {where}.signed is not the {role.value}'s settings statement over "
                "this session id and these settings"
            )
        signature = _bytes(item.get("sig"), f"{where}.sig", 64)
        if not verify_signature(keys[seat], signature, signed):
            raise VerificationFailed(
                f"handshake: the {role.value}'s key ({fingerprint(keys[seat])}) did not sign "
                "this session: its handshake signature does not verify"
            )
    return True


def verify_record(data: Mapping[str, Any]) -> Verified:
    """Check a decoded record; raises :class:`NotARecord` or :class:`VerificationFailed`."""
    net, protocol, dealing = _net_block(data)
    session = _bytes(net.get("session"), "net.session")
    keys, nicks = _players(net)
    try:
        record = parse(data)
    except RecordError as error:
        raise VerificationFailed(str(error)) from None
    handshake = _check_handshake(net, session, keys, data)
    end = data.get("end") if isinstance(data.get("end"), dict) else None

    toss = net.get("toss")
    if toss is None:
        if record.deals:
            raise VerificationFailed("the record has deals but no coin toss (net.toss)")
        empty: dict[str, Any] = {"rounds": [], "scores": [25, 25], "winner": None}
        shown = _shown(keys, handshake, [0, 0], (-1, -1))
        return Verified(
            0,
            0,
            False,
            {**empty, "finished": False},
            shown,
            end,
            protocol=str(protocol),
            session=session,
            handshake=handshake,
            keys=tuple(keys),
            nicks=tuple(nicks),
        )
    host_random, joiner_random, tosses = _toss_randoms(toss, session, protocol)
    seed = joint_seed(session, host_random, joiner_random, tosses)
    if "seed" in net and _bytes(net.get("seed"), "net.seed") != seed:
        raise VerificationFailed("coin toss: net.seed is not the seed the toss gives")
    oya = first_oya(session, host_random, joiner_random, tosses)
    if record.first_oya != oya:
        raise VerificationFailed(
            f"coin toss: first_oya is {record.first_oya}, the toss gives {oya}"
        )

    private = dealing == "private"
    lockstep: Lockstep = (
        AuditedLockstep(record.settings, oya, seed, session)
        if private
        else Lockstep(record.settings, oya, seed, session)
    )
    raw_deals = data["deals"]
    moved = [0, 0]
    reach = [-1, -1]
    what: list[str] = []
    movers: list[int] = []
    acks: list[bool] = []
    pending: _LastAudit | None = None
    for i, deal in enumerate(record.deals):
        if isinstance(lockstep, AuditedLockstep) and lockstep.match.needs_deal:
            last = i == len(record.deals) - 1
            pending = _lay_out(lockstep, raw_deals[i], i, deal if last else None)
        _check_deal_cards(lockstep, deal, i)
        for j, act in enumerate(deal.actions):
            if len(lockstep.record.deals) != i + 1:
                raise VerificationFailed(f"deal {i} action {j}: the deal's round had already ended")
            seq = lockstep.seq
            what.append(lockstep.where(act.seat, act.action))
            acked = _check_action(lockstep, raw_deals[i]["actions"][j], act.seat, act.action, keys)
            moved[act.seat] += 1
            movers.append(act.seat)
            acks.append(acked)
            reach[act.seat] = seq
            if acked:
                reach[1 - act.seat] = seq
    replayed = lockstep.match
    current = replayed.round
    if current is not None and current.phase == Phase.DECIDE and current.last_turn:
        replayed = replayed.copy()  # R7.3: the last turn's shobu, unwritten (as replay)
        replayed.apply(SHOBU)
    finished = replayed.finished
    if end is not None and end.get("finished") is True and not finished:
        raise VerificationFailed("the record says the match finished, but its moves do not end it")
    rounds = [outcome.to_json() for outcome in replayed.history]
    if len(rounds) < len(record.deals):  # the record's last deal, in play (as replay says)
        rounds.append({"result": "in_progress"})
    result: dict[str, Any] = {
        "rounds": rounds,
        "scores": list(replayed.scores),
        "winner": replayed.winner,
        "finished": finished,
    }
    moves, heads = lockstep.seq, tuple(lockstep.heads)
    audited = None
    if isinstance(lockstep, AuditedLockstep):
        audited = _audit_state(lockstep, raw_deals, pending)
    rejected = _rejected(lockstep, end, keys)  # last: it may move the replayed match on
    return Verified(
        moves,
        len(record.deals),
        True,
        result,
        _shown(keys, handshake, moved, (reach[0], reach[1])),
        end,
        protocol=str(protocol),
        session=session,
        handshake=handshake,
        keys=tuple(keys),
        nicks=tuple(nicks),
        heads=heads,
        reach=(reach[0], reach[1]),
        what=tuple(what),
        movers=tuple(movers),
        acked=tuple(acks),
        toss_values={
            "host_random": _b64(host_random),
            "joiner_random": _b64(joiner_random),
            **({"tosses": _b64(tosses)} if tosses else {}),
        },
        rejected=rejected,
        audit=audited,
    )


def _check_deal_cards(lockstep: Lockstep, deal: ParsedDeal, i: int) -> None:
    """The record's deal ``i`` is the one its dealing (or the joint seed) gives."""
    dealt = lockstep.record.deals
    if len(dealt) <= i:
        raise VerificationFailed(f"deal {i} action -: a deal the moves before it do not reach")
    expected = dealt[i]
    if isinstance(lockstep, AuditedLockstep) and lockstep.unaudited > 0:
        return  # the writer's view: its opened cards were checked against the keys
    private = isinstance(lockstep, AuditedLockstep)
    if (deal.hands, deal.field, deal.stock) != (expected.hands, expected.field, expected.stock):
        raise VerificationFailed(
            f"deal {i} action -: the cards are not the deal "
            + ("its dealing gives" if private else "the joint seed gives")
        )


def _net_block(data: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any]:
    """The record's ``net`` block, protocol and dealing, checked to be of a network record."""
    if data.get("format") != FORMAT:
        raise NotARecord(f"not a {FORMAT} file (format is {data.get('format')!r})")
    net = data.get("net")
    if not isinstance(net, dict):
        raise VerificationFailed("the record carries no network signatures (no 'net' key)")
    protocol = net.get("protocol")
    if protocol not in RECORD_PROTOCOLS:
        raise VerificationFailed(f"net.protocol is {protocol!r}, not {PROTOCOL_NAME!r}")
    dealing = net.get("dealing", "seed")
    if (protocol in NEGOTIATED) != ("dealing" in net):
        raise VerificationFailed(
            f"net.dealing in a record of {protocol}, which deals by the seed"
            if "dealing" in net
            else f"net.dealing is missing in a record of {protocol}"
        )
    if dealing not in ("seed", "private"):
        raise VerificationFailed(f"net.dealing is {dealing!r}, not 'private' or 'seed'")
    return net, protocol, dealing


def _toss_randoms(toss: Any, session: bytes, protocol: Any) -> tuple[bytes, bytes, bytes]:
    """The coin toss's randoms (the host's, the joiner's, and the second exchange's two, or
    nothing before version 4), the host's commitments checked."""
    if not isinstance(toss, dict):
        raise VerificationFailed("net.toss must be an object")
    commit = _bytes(toss.get("commit"), "net.toss.commit")
    host_random = _bytes(toss.get("host_random"), "net.toss.host_random")
    joiner_random = _bytes(toss.get("joiner_random"), "net.toss.joiner_random")
    if not hmac.compare_digest(commitment(session, Role.HOST, host_random), commit):
        raise VerificationFailed("coin toss: the host's random does not match its commitment")
    tosses = b""
    if protocol == protocol_name(PRIVATE_VERSION):  # the toss drawn after the four cards
        toss_commit = _bytes(toss.get("toss_commit"), "net.toss.toss_commit")
        host_toss = _bytes(toss.get("host_toss"), "net.toss.host_toss")
        joiner_toss = _bytes(toss.get("joiner_toss"), "net.toss.joiner_toss")
        if not hmac.compare_digest(toss_commitment(session, host_toss), toss_commit):
            raise VerificationFailed(
                "coin toss: the host's toss random does not match its commitment (toss_commit)"
            )
        tosses = host_toss + joiner_toss
    elif any(key in toss for key in ("toss_commit", "host_toss", "joiner_toss")):
        raise VerificationFailed(f"net.toss: a {protocol} toss has no second exchange")
    return host_random, joiner_random, tosses


def _rejected(
    lockstep: Lockstep, end: Mapping[str, Any] | None, keys: list[bytes]
) -> dict[str, Any] | None:
    """The ``end`` block's rejected move, checked: whether the seat it blames signed it, and
    which check of "Checking a move" it fails after the record's last move (None: it passes,
    so the cheat is not proven). None when there is no such move to check."""
    rejected = end.get("rejected") if end is not None else None
    seat = end.get("by") if end is not None else None
    if not isinstance(rejected, dict) or seat not in (0, 1) or isinstance(seat, bool):
        return None
    try:
        raw = _bytes(rejected.get("entry"), "entry", None)
        signature = _bytes(rejected.get("sig"), "sig", 64)
    except VerificationFailed:
        return {"seat": seat, "signed": False}
    if not verify_signature(keys[seat], signature, signed_data(raw)):
        return {"seat": seat, "signed": False}
    out: dict[str, Any] = {"seat": seat, "signed": True}
    try:
        entry = decode_entry(raw)
    except ProtocolError as error:
        return {**out, "fails": f"the entry is malformed: {error}"}
    out["move"] = entry.seq
    if entry.seq != lockstep.seq:
        return {**out, "fails": f"sequence number {entry.seq} where {lockstep.seq} is due"}
    if entry.prev_hash != lockstep.prev_hash:
        return {**out, "fails": "the entry does not chain to the previous one"}
    try:
        lockstep.apply(seat, entry.action)
    except IllegalAction as error:
        return {**out, "fails": f"illegal move: {error}"}
    if lockstep.state_hash() != entry.state_hash:
        return {**out, "fails": "the state hash differs from the state after the move"}
    return {**out, "fails": None}


def _shown(
    keys: list[bytes], handshake: bool, moved: list[int], reach: tuple[int, int]
) -> list[dict[str, Any]]:
    """The proven facts per seat (the nicknames are claims, kept apart)."""
    return [
        {
            "seat": seat,
            "role": role.value,
            "key": _b64(keys[seat]),
            "fingerprint": fingerprint(keys[seat]),
            "signed_session": handshake,
            "moves": moved[seat],
            "signed_to": reach[seat] if reach[seat] >= 0 else None,
        }
        for seat, role in enumerate((Role.HOST, Role.JOINER))
    ]


def _cards(cards: int) -> list[int]:
    return [card for card in range(48) if cards >> card & 1]


@dataclass
class _LastAudit:
    """The last deal of a privately dealt record, kept ``sealed`` by its writer though both
    seeds are in it (its audit failed there): laid out from the writer's view, its audit
    run here, and its replay with every card once its moves are in (:func:`_audit_state`)."""

    index: int
    oya: int
    deck: tuple[int, ...] | None = None
    fault: DealingCheat | None = None


def _lay_out(
    lockstep: AuditedLockstep, raw: Mapping[str, Any], index: int, last: ParsedDeal | None
) -> _LastAudit | None:
    """Lay out deal ``index`` of a privately dealt record from its audited dealing; the last
    deal, cut short before the seeds, from its recorded cards (the writer's view), and so
    the last deal kept sealed with both seeds (its audit is then checked here: the result
    is the signed moves' whatever it says)."""
    where = f"deal {index} action -: the dealing"
    if not isinstance(raw, Mapping) or "dealing" not in raw:
        raise VerificationFailed(f"{where} is missing (a privately dealt deal keeps it)")
    sealed = None
    if last is not None:
        hands, field_cards = last.hands, last.field
        first, second = (hands[0], hands[1]) if lockstep.match.oya == 0 else (hands[1], hands[0])
        sealed = [*_cards(first), *_cards(second), *_cards(field_cards), *last.stock]
    pending = None
    try:
        transcript = DealTranscript.from_json(raw["dealing"])
        if sealed is not None and raw.get(SEALED_KEY) is True and len(transcript.seeds) == 2:
            pending = _LastAudit(index, lockstep.match.oya)
            try:
                pending.deck = audit(transcript)
            except DealingCheat as error:
                pending.fault = error
            transcript.seeds = {}
        moves = len(last.actions) if last is not None and last.sealed else 0  # as replay
        lockstep.lay_out(transcript, sealed, moves)
    except DealingCheat as error:
        raise VerificationFailed(f"{where}: {error}") from None
    except ValueError as error:
        raise VerificationFailed(f"{where}: {error}") from None
    return pending


def _audit_state(
    lockstep: AuditedLockstep, raw_deals: list[Any], pending: _LastAudit | None
) -> dict[str, Any]:
    """How the deals' audits check (``proven.audit``): ``done`` (every deal audited with
    both seeds, ``deals`` of them); ``cheat`` (the last deal's audit, or its replay with
    every card, names ``by``: a record can prove it, both seeds being committed); or
    ``unaudited`` (the last deal lacks the ``missing`` seats' seeds: cut short, or a seed
    withheld or lost; which one the record cannot prove, its ``end.audit`` claims it)."""
    fault = pending.fault if pending is not None else None
    if pending is not None and fault is None and pending.deck is not None:
        rnd = lockstep.match.round
        if rnd is not None and rnd.over:
            try:
                replay_dealt(pending.deck, pending.oya, lockstep.match)
            except DealingCheat as error:
                fault = error
    if fault is not None and pending is not None:
        return {
            "result": "cheat",
            "by": fault.culprit.seat,
            "role": fault.culprit.value,
            "deal": pending.index,
            "reason": str(fault).removeprefix("cheat: "),
        }
    if lockstep.unaudited and pending is None and raw_deals:
        index = len(raw_deals) - 1
        seeds = raw_deals[index].get("dealing", {}).get("seeds", {})
        missing = [role.seat for role in (Role.HOST, Role.JOINER) if role.value not in seeds]
        return {"result": "unaudited", "deal": index, "missing": missing}
    return {"result": "done", "deals": len(raw_deals)}


def _check_action(
    lockstep: Lockstep, raw: Mapping[str, Any], seat: int, action: int, keys: list[bytes]
) -> bool:
    """Check one action and commit it; returns whether the other seat acknowledged it."""
    where = lockstep.where(seat, action)

    def fail(what: str) -> VerificationFailed:
        return VerificationFailed(f"{where}: {what}")

    if "entry" not in raw or "sig" not in raw:
        raise fail("the action has no signed log entry ('entry' and 'sig')")
    try:
        entry_bytes = _bytes(raw["entry"], "entry", None)
        signature = _bytes(raw["sig"], "sig", 64)
    except VerificationFailed as error:
        raise fail(str(error)) from None
    try:
        entry = decode_entry(entry_bytes)
    except ProtocolError as error:
        raise fail(f"the entry bytes are malformed: {error}") from None
    if entry.action != action:
        try:
            held = action_str(entry.action)
        except ValueError:
            held = f"action {entry.action}"
        raise fail(f"the signed entry holds '{held}', not the action shown")
    if entry.seq != lockstep.seq:
        raise fail(f"sequence number {entry.seq} where {lockstep.seq} is due")
    if entry.prev_hash != lockstep.prev_hash:
        raise fail("the entry does not chain to the previous one (prev_hash differs)")
    if not verify_signature(keys[seat], signature, signed_data(entry_bytes)):
        raise fail(f"the signature does not verify against seat {seat}'s key")
    try:
        _, deals_before = lockstep.apply(seat, action)
    except IllegalAction as error:
        raise fail(f"illegal move: {error}") from None
    if lockstep.state_hash() != entry.state_hash:
        raise fail("the state hash differs from the state after replaying the move")
    lockstep.commit(entry, signature, seat, deals_before)
    if "ack" not in raw and "ack_sig" not in raw:
        return False
    _check_ack(lockstep, raw, entry.seq, 1 - seat, keys, fail)
    return True


def _check_ack(
    lockstep: Lockstep,
    raw: Mapping[str, Any],
    seq: int,
    signer: int,
    keys: list[bytes],
    fail: Callable[[str], VerificationFailed],
) -> None:
    """The seat ``signer``'s acknowledgement of the entry ``seq`` just committed."""
    try:
        ack = _bytes(raw.get("ack"), "ack", None)
        ack_sig = _bytes(raw.get("ack_sig"), "ack_sig", 64)
        acked_seq, head = decode_ack(ack)
    except (VerificationFailed, ProtocolError) as error:
        raise fail(f"the acknowledgement is malformed: {error}") from None
    if acked_seq != seq or head != lockstep.prev_hash:
        raise fail("the acknowledgement does not name this entry (its seq or hash differs)")
    if not verify_signature(keys[signer], ack_sig, ack_signed_data(lockstep.session, ack)):
        raise fail(f"the acknowledgement's signature does not verify against seat {signer}'s key")


def compare_records(first: Verified, second: Verified, names: tuple[str, str] = ("A", "B")) -> int:
    """Two verified records of one session agree move by move: returns how many moves both
    hold; raises :class:`VerificationFailed` naming a key that signed two different entries
    (or acknowledgements) for one move, or saying why the two cannot be compared."""
    if first.session != second.session:
        raise VerificationFailed(
            f"{names[0]} and {names[1]} are records of different sessions: nothing to compare"
        )
    if first.keys != second.keys:
        raise VerificationFailed(f"{names[0]} and {names[1]} name different keys for one session")
    if first.toss and second.toss and first.toss_values != second.toss_values:
        raise VerificationFailed(f"{names[0]} and {names[1]} disagree on the coin toss")
    common = min(len(first.heads), len(second.heads))
    split = next((n for n in range(common) if first.heads[n] != second.heads[n]), None)
    if split is None:
        return common
    culprits = []
    for seat, role in enumerate((Role.HOST, Role.JOINER)):
        if first.reach[seat] >= split and second.reach[seat] >= split:
            nick = first.nicks[seat] or second.nicks[seat]
            if first.movers[split] == seat == second.movers[split]:
                what = f"two different entries for move {split}"
            elif all(r.movers[split] != seat and r.acked[split] for r in (first, second)):
                what = f"acknowledgements of two different entries for move {split}"
            else:
                what = f"two different logs up to move {split}"
            culprits.append(
                f"the {role.value}'s key {fingerprint(first.keys[seat])} ({nick!r}, as the "
                f"records call it) signed {what}"
            )
    if not culprits:  # not reached by two records that verify: the mover signed both
        raise VerificationFailed(f"{names[0]} and {names[1]} disagree from move {split} on")
    raise VerificationFailed(
        f"{'; and '.join(culprits)}: {first.what[split]} in {names[0]}, "
        f"{second.what[split]} in {names[1]}"
    )
