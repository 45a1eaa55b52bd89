"""``koikoi verify``: recheck a signed network record from its own contents.

A record saved by a network match keeps, for every action, the exact log-entry bytes the
mover signed and the signature (docs/protocol.md, "The signed record"). Verification trusts
nothing the record says without checking it:

1. the coin toss: the host's random matches its commitment, and the first oya and the seed
   follow from the session id and the two randoms;
2. every deal is the one the joint seed gives;
3. every action: its entry is base64 of a well-formed entry; the entry holds the action the
   record shows; its sequence number and ``prev_hash`` continue the chain; the signature
   verifies against the identity key the record gives for the seat that moved; the move is
   legal; and the state hash matches the state after replaying it.

The first failure is reported with the move it concerns; a record that passes is internally
consistent and signed by the two keys it names (compare their fingerprints with the ones you
trust: the record cannot prove who holds a key).
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from koikoi.engine.record import FORMAT, RecordError, parse
from koikoi.engine.round import IllegalAction, action_str
from koikoi.net.errors import ProtocolError
from koikoi.net.fair import commitment, first_oya, joint_seed
from koikoi.net.handshake import PROTOCOL_NAME
from koikoi.net.identity import fingerprint, verify_signature
from koikoi.net.lockstep import Lockstep, decode_entry, signed_data
from koikoi.net.roles import Role

RECORD_PROTOCOLS: Final = ("koikoi-net/1", PROTOCOL_NAME)
"""Records of both versions verify: their entries, signatures and chains are the same."""


class NotARecord(ValueError):
    """The input cannot be read as a ``koikoi-record/1`` at all (exit 2)."""


class VerificationFailed(ValueError):
    """A check failed; the message names the first one (and the move, when there is one)."""


@dataclass(frozen=True)
class Verified:
    """What a record that passed says."""

    moves: int
    deals: int
    toss: bool
    result: dict[str, Any]
    players: list[dict[str, Any]]
    end: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "valid": True,
            "moves": self.moves,
            "deals": self.deals,
            "toss": "done" if self.toss else "unfinished",
            "players": self.players,
            **self.result,
        }
        if self.end is not None:
            out["end"] = self.end
        return out


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


def _players(net: Mapping[str, Any]) -> tuple[list[bytes], list[dict[str, Any]]]:
    players = net.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise VerificationFailed("net.players must list the two players")
    keys: list[bytes] = []
    shown: list[dict[str, Any]] = []
    for seat, (player, role) in enumerate(zip(players, (Role.HOST, Role.JOINER), strict=True)):
        if not isinstance(player, dict) or player.get("seat") != seat:
            raise VerificationFailed(f"net.players[{seat}] is not seat {seat}")
        if player.get("role") != role.value:
            raise VerificationFailed(f"net.players[{seat}] must be the {role.value}")
        key = _bytes(player.get("key"), f"net.players[{seat}].key")
        keys.append(key)
        nick = player.get("nick")
        shown.append(
            {
                "seat": seat,
                "role": role.value,
                "nick": nick if isinstance(nick, str) else "",
                "fingerprint": fingerprint(key),
            }
        )
    return keys, shown


def verify_record(data: Mapping[str, Any]) -> Verified:
    """Check a decoded record; raises :class:`NotARecord` or :class:`VerificationFailed`."""
    if data.get("format") != FORMAT:
        raise NotARecord(f"not a {FORMAT} file (format is {data.get('format')!r})")
    net = data.get("net")
    if not isinstance(net, dict):
        raise VerificationFailed("the record carries no network signatures (no 'net' key)")
    if net.get("protocol") not in RECORD_PROTOCOLS:
        raise VerificationFailed(f"net.protocol is {net.get('protocol')!r}, not {PROTOCOL_NAME!r}")
    session = _bytes(net.get("session"), "net.session")
    keys, shown = _players(net)
    try:
        record = parse(data)
    except RecordError as error:
        raise VerificationFailed(str(error)) from None
    end = data.get("end") if isinstance(data.get("end"), dict) else None

    toss = net.get("toss")
    if toss is None:
        if record.deals:
            raise VerificationFailed("the record has deals but no coin toss (net.toss)")
        empty: dict[str, Any] = {"rounds": [], "scores": [25, 25], "winner": None}
        return Verified(0, 0, False, {**empty, "finished": False}, shown, end)
    if not isinstance(toss, dict):
        raise VerificationFailed("net.toss must be an object")
    commit = _bytes(toss.get("commit"), "net.toss.commit")
    host_random = _bytes(toss.get("host_random"), "net.toss.host_random")
    joiner_random = _bytes(toss.get("joiner_random"), "net.toss.joiner_random")
    if not hmac.compare_digest(commitment(session, Role.HOST, host_random), commit):
        raise VerificationFailed("coin toss: the host's random does not match its commitment")
    seed = joint_seed(session, host_random, joiner_random)
    if "seed" in net and _bytes(net.get("seed"), "net.seed") != seed:
        raise VerificationFailed("coin toss: net.seed is not the seed the toss gives")
    oya = first_oya(session, host_random, joiner_random)
    if record.first_oya != oya:
        raise VerificationFailed(
            f"coin toss: first_oya is {record.first_oya}, the toss gives {oya}"
        )

    lockstep = Lockstep(record.settings, oya, seed, session)
    raw_deals = data["deals"]
    for i, deal in enumerate(record.deals):
        dealt = lockstep.record.deals
        if len(dealt) <= i:
            raise VerificationFailed(f"deal {i} action -: a deal the moves before it do not reach")
        expected = dealt[i]
        if (deal.hands, deal.field, deal.stock) != (expected.hands, expected.field, expected.stock):
            raise VerificationFailed(
                f"deal {i} action -: the cards are not the deal the joint seed gives"
            )
        for j, act in enumerate(deal.actions):
            if len(lockstep.record.deals) != i + 1:
                raise VerificationFailed(f"deal {i} action {j}: the deal's round had already ended")
            _check_action(lockstep, raw_deals[i]["actions"][j], act.seat, act.action, keys)
    replayed = lockstep.match
    finished = replayed.finished
    if end is not None and end.get("finished") is True and not finished:
        raise VerificationFailed("the record says the match finished, but its moves do not end it")
    rounds = [outcome.to_json() for outcome in replayed.history]
    if replayed.round is not None and not replayed.round.over:
        rounds.append({"result": "in_progress"})
    result: dict[str, Any] = {
        "rounds": rounds,
        "scores": list(replayed.scores),
        "winner": replayed.winner,
        "finished": finished,
    }
    return Verified(lockstep.seq, len(record.deals), True, result, shown, end)


def _check_action(
    lockstep: Lockstep, raw: Mapping[str, Any], seat: int, action: int, keys: list[bytes]
) -> None:
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
