"""The lockstep log: canonical match state, its hash, and signed, chained log entries.

Both peers run the full engine. Every move travels as a *log entry*, the msgpack array
``[seq, prev_hash, action, state_hash]``, signed over its exact bytes by the mover's identity
key. ``prev_hash`` chains each entry to the one before (the first to the session and seed),
so entries cannot be dropped, replayed or reordered unseen; ``state_hash`` is the hash of the
whole canonical match state after the move, so the receiver, having applied the move with its
own engine, sees at once whether the two engines still agree. The receiver answers each
accepted entry with a signed acknowledgement ``[seq, head]``, kept in the record with the
action, so each side holds the other's signature over every entry it sent.
docs/protocol.md, "Lockstep session", is the normative description; :class:`Lockstep` is
shared by the live session and ``koikoi verify``, so the two cannot drift apart.

>>> from koikoi.engine.match import Settings
>>> from koikoi.net.identity import Identity, verify_signature
>>> me = Identity.generate()
>>> game = Lockstep(Settings(), first_oya=0, seed=bytes(32), session=bytes(32))
>>> seat = game.match.current_seat()
>>> entry, signature, events = game.sign_move(me, seat, game.match.legal_actions()[0])
>>> entry.seq, len(entry.raw), verify_signature(me.public_key, signature, signed_data(entry.raw))
(0, 71, True)
>>> entry.state_hash == game.state_hash() and game.prev_hash == entry_hash(entry.raw)
True
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from koikoi.engine.deck import deck_from_seed
from koikoi.engine.events import Event
from koikoi.engine.match import Match, Settings
from koikoi.engine.record import GameRecord
from koikoi.engine.round import SHOBU, Action, action_str
from koikoi.net.errors import ProtocolError
from koikoi.net.identity import Identity, verify_signature
from koikoi.net.wire import unpack

STATE_LABEL: Final = b"koikoi-net/1 state\0"
ENTRY_LABEL: Final = b"koikoi-net/1 entry\0"
MOVE_LABEL: Final = b"koikoi-net/1 move\0"
GENESIS_LABEL: Final = b"koikoi-net/1 log\0"
ACK_LABEL: Final = b"koikoi-net/1 ack\0"
HASH_LEN: Final = 32
MAX_ENTRY: Final = 96
"""A cap above the longest entry (1 + 5 + 34 + 1 + 34 bytes); anything longer is malformed."""
MAX_SEQ: Final = 2**32 - 1
MAX_ACK: Final = 48
"""A cap above the longest acknowledgement (1 + 5 + 34 bytes)."""


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def round_state(match: Match, sealed: bool = False) -> list[object]:
    """The match state both peers hash, as the list :func:`canonical_state` packs.

    An array of 9: rounds, doubling, score of seat 0, score of seat 1, rounds played, deal
    number in the round, the match's oya, finished, and the deal (nil before the first deal):
    an array of 18 — the deal's oya, whose turn, phase (0 play, 1 pick for the played card,
    2 pick for the drawn card, 3 koikoi or shobu, 4 over), hand of seat 0, hand of seat 1,
    field, captured by seat 0, captured by seat 1 (card sets as 48-bit integers, bit ``c``
    for card ``c``), the stock order (bin, one byte per card), cards drawn from the stock,
    the card waiting for a pick (-1 for none), baseline of seat 0, baseline of seat 1, yaku
    total of seat 0, of seat 1, koikoi declared in the deal, koikoi by seat 0, by seat 1.

    ``sealed`` gives what both sides of a privately dealt match know (koikoi-net/4,
    :func:`koikoi.net.private.public_state`): each hand is its number of cards and the stock
    the cards drawn so far. One builder for both, so the two states cannot drift apart.
    """
    rnd = match.round
    deal: list[object] | None = None
    if rnd is not None:
        hands: tuple[int, int] = rnd.hands[0], rnd.hands[1]
        stock = bytes(rnd.stock)
        if sealed:
            hands = hands[0].bit_count(), hands[1].bit_count()
            stock = stock[: rnd.stock_pos]
        deal = [
            rnd.oya,
            rnd.turn,
            int(rnd.phase),
            hands[0],
            hands[1],
            rnd.field,
            rnd.captured[0],
            rnd.captured[1],
            stock,
            rnd.stock_pos,
            rnd.pending,
            rnd.baselines[0],
            rnd.baselines[1],
            rnd.totals[0],
            rnd.totals[1],
            rnd.koikoi_count,
            rnd.koikoi_calls[0],
            rnd.koikoi_calls[1],
        ]
    return [
        match.settings.rounds,
        match.settings.doubling,
        match.scores[0],
        match.scores[1],
        match.rounds_played,
        match.deal_no,
        match.oya,
        match.finished,
        deal,
    ]


def canonical_state(match: Match) -> bytes:
    """The whole match state as msgpack bytes both peers compute identically: the array of
    :func:`round_state`."""
    packed: bytes = msgpack.packb(round_state(match), use_bin_type=True)
    return packed


def state_hash(match: Match) -> bytes:
    """``SHA-256("koikoi-net/1 state\\0" ‖ canonical_state)``."""
    return _sha256(STATE_LABEL + canonical_state(match))


def genesis_hash(session: bytes, seed: bytes) -> bytes:
    """The ``prev_hash`` of entry 0: ``SHA-256("koikoi-net/1 log\\0" ‖ session ‖ seed)``."""
    return _sha256(GENESIS_LABEL + session + seed)


def entry_hash(raw: bytes) -> bytes:
    """What the next entry's ``prev_hash`` holds: ``SHA-256("koikoi-net/1 entry\\0" ‖ raw)``."""
    return _sha256(ENTRY_LABEL + raw)


def signed_data(raw: bytes) -> bytes:
    """What the mover signs: ``"koikoi-net/1 move\\0" ‖`` the entry's exact bytes."""
    return MOVE_LABEL + raw


def ack_signed_data(session: bytes, raw: bytes) -> bytes:
    """What an acknowledgement's signer signs: ``"koikoi-net/1 ack\\0" ‖ session ‖ ack``."""
    return ACK_LABEL + session + raw


def encode_ack(seq: int, head: bytes) -> bytes:
    """An acknowledgement: the msgpack array ``[seq, head]``, ``head`` the acknowledged
    entry's hash (what the next entry's ``prev_hash`` holds)."""
    packed: bytes = msgpack.packb([seq, head], use_bin_type=True)
    return packed


def decode_ack(raw: bytes) -> tuple[int, bytes]:
    """``(seq, head)`` of an acknowledgement in shortest form, else :class:`ProtocolError`."""
    if len(raw) > MAX_ACK:
        raise ProtocolError(f"acknowledgement of {len(raw)} bytes (at most {MAX_ACK})")
    value = unpack(raw)
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError("acknowledgement: expected an array [seq, head]")
    seq, head = value
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError(f"acknowledgement: seq {seq!r} is not an integer in 0..{MAX_SEQ}")
    if not isinstance(head, bytes) or len(head) != HASH_LEN:
        raise ProtocolError("acknowledgement: head is not 32 bytes")
    if encode_ack(seq, head) != raw:
        raise ProtocolError("acknowledgement: not in shortest-form msgpack")
    return seq, head


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One decoded log entry and the exact bytes it came from."""

    seq: int
    prev_hash: bytes
    action: Action
    state_hash: bytes
    raw: bytes


def encode_entry(seq: int, prev: bytes, action: Action, state: bytes) -> bytes:
    packed: bytes = msgpack.packb([seq, prev, action, state], use_bin_type=True)
    return packed


def decode_entry(raw: bytes) -> LogEntry:
    """Decode an entry strictly: the 4 fields with their types, in shortest-form msgpack.

    Raises :class:`ProtocolError` saying what is wrong. Shortest form is required so that
    one entry has exactly one encoding (re-encoding the decoded entry gives the same bytes).
    """
    if len(raw) > MAX_ENTRY:
        raise ProtocolError(f"log entry of {len(raw)} bytes (at most {MAX_ENTRY})")
    value = unpack(raw)
    if not isinstance(value, list) or len(value) != 4:
        raise ProtocolError("log entry: expected an array [seq, prev_hash, action, state_hash]")
    seq, prev, action, state = value
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
        raise ProtocolError(f"log entry: seq {seq!r} is not an integer in 0..{MAX_SEQ}")
    if not isinstance(prev, bytes) or len(prev) != HASH_LEN:
        raise ProtocolError("log entry: prev_hash is not 32 bytes")
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= SHOBU:
        raise ProtocolError(f"log entry: action {action!r} is not an integer in 0..{SHOBU}")
    if not isinstance(state, bytes) or len(state) != HASH_LEN:
        raise ProtocolError("log entry: state_hash is not 32 bytes")
    if encode_entry(seq, prev, action, state) != raw:
        raise ProtocolError("log entry: not in shortest-form msgpack")
    return LogEntry(seq, prev, action, state, raw)


class Lockstep:
    """One copy of the match in lockstep: deals from the joint seed, moves, the hash chain.

    Deals are laid out as soon as one is due (after the toss, and after each move that ends
    a deal), so the state hash of a move that ends a deal covers the next deal too. The
    :class:`~koikoi.engine.record.GameRecord` is written as the match goes; a move enters it
    only once it is fully accepted.
    """

    def __init__(self, settings: Settings, first_oya: int, seed: bytes, session: bytes) -> None:
        self.match = Match(settings, first_oya)
        self.seed = seed
        self.session = session
        self.record = GameRecord(settings, first_oya)
        self.seq = 0
        self.prev_hash = genesis_hash(session, seed)
        self.heads: list[bytes] = []
        """``heads[n]``: the hash of entry ``n`` (the log's head once ``n`` is the last)."""
        self.actions: list[dict[str, object]] = []
        """``actions[n]``: entry ``n``'s action in the record, where its acknowledgement goes."""
        self.events: list[Event] = self._advance()

    def _advance(self) -> list[Event]:
        """Deal until a deal needs a move (or the match is over)."""
        match = self.match
        events: list[Event] = []
        while match.needs_deal:
            events.extend(match.deal(deck_from_seed(self.seed, match.round_no, match.deal_no)))
            rnd = match.round
            assert rnd is not None
            self.record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        return events

    @property
    def deals_laid(self) -> int:
        """Deals laid out between moves, each told on its own (private dealing's
        ``DealLaidOut``); 0 from the joint seed, whose deals come with the moves before them."""
        return 0

    def unheard(self, moves: int, deals: int) -> bool:
        """Whether a listener that has heard ``moves`` moves of the log and ``deals`` of the
        deals laid out between moves (:attr:`deals_laid`) has more to hear."""
        return moves < self.seq or deals < self.deals_laid

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is in the deal in play; None between deals and after the
        match."""
        rnd = self.match.round
        return None if rnd is None or rnd.over else rnd.turn

    def state_hash(self) -> bytes:
        return state_hash(self.match)

    def where(self, seat: int, action: Action | None = None) -> str:
        """Names the next move: ``deal 2 action 5 (move 17, seat 1 play matsu_crane)``."""
        deal = len(self.record.deals) - 1
        index = len(self.record.deals[-1].actions) if self.record.deals else 0
        what = ""
        if action is not None:
            try:
                what = " " + action_str(action)
            except ValueError:
                what = f" action {action!r}"
        return f"deal {deal} action {index} (move {self.seq}, seat {seat}{what})"

    def apply(self, seat: int, action: Action) -> tuple[list[Event], int]:
        """Apply ``seat``'s move through the engine's checked door, then deal if one is due.

        Returns the events and the number of deals the record held before, for
        :meth:`commit` or :meth:`rollback`. Raises
        :class:`~koikoi.engine.round.IllegalAction` (nothing changed) for an illegal move.
        """
        deals_before = len(self.record.deals)
        events = self.match.apply(action, seat)
        events.extend(self._advance())
        return events, deals_before

    def commit(self, entry: LogEntry, signature: bytes, seat: int, deals_before: int) -> None:
        """The move of ``entry`` is accepted: write it into the record and chain on."""
        new_deals = self.record.deals[deals_before:]
        del self.record.deals[deals_before:]
        self.record.add_action(seat, entry.action, entry=b64(entry.raw), sig=b64(signature))
        self.actions.append(self.record.deals[-1].actions[-1])
        self.record.deals.extend(new_deals)
        self.prev_hash = entry_hash(entry.raw)
        self.heads.append(self.prev_hash)
        self.seq += 1

    def rollback_record(self, deals_before: int) -> None:
        """A rejected move: keep the record as it was (the match itself stays frozen)."""
        del self.record.deals[deals_before:]

    def acknowledge(self, identity: Identity, seq: int) -> tuple[bytes, bytes]:
        """Sign the acknowledgement of entry ``seq`` (a peer's, just accepted) and record it
        with that action; returns the acknowledgement's bytes and signature."""
        raw = encode_ack(seq, self.heads[seq])
        signature = identity.sign(ack_signed_data(self.session, raw))
        self.record_ack(seq, raw, signature)
        return raw, signature

    def check_ack(self, key: bytes, raw: bytes, signature: bytes, due: int) -> str | None:
        """Why the acknowledgement ``raw`` is refused (None: it acknowledges entry ``due``, with
        its hash, signed by ``key``; it is then recorded with that action)."""
        try:
            seq, head = decode_ack(raw)
        except ProtocolError as error:
            return str(error)
        if seq != due:
            return f"it acknowledges move {seq} where move {due} is due"
        if head != self.heads[seq]:
            return f"it acknowledges move {seq} with another hash than the entry sent"
        if not verify_signature(key, signature, ack_signed_data(self.session, raw)):
            return f"its signature over the acknowledgement of move {seq} does not verify"
        self.record_ack(seq, raw, signature)
        return None

    def record_ack(self, seq: int, raw: bytes, signature: bytes) -> None:
        self.actions[seq].update(ack=b64(raw), ack_sig=b64(signature))

    def recorded_ack(self, seq: int) -> tuple[bytes, bytes] | None:
        """The acknowledgement of entry ``seq`` and its signature, once recorded."""
        action = self.actions[seq]
        if "ack" not in action or "ack_sig" not in action:
            return None
        return base64.b64decode(str(action["ack"])), base64.b64decode(str(action["ack_sig"]))

    def is_recorded_ack(self, raw: bytes, signature: bytes, seat: int) -> bool:
        """Whether ``raw`` and ``signature`` are, byte for byte, an acknowledgement of an
        entry of ``seat`` already recorded (one resent after a resume)."""
        try:
            seq, _ = decode_ack(raw)
        except ProtocolError:
            return False
        if seq >= self.seq or self.actions[seq].get("seat") != seat:
            return False
        return self.recorded_ack(seq) == (raw, signature)

    def sign_move(
        self, identity: Identity, seat: int, action: Action
    ) -> tuple[LogEntry, bytes, list[Event]]:
        """Apply a local move; return its signed entry and the events (IllegalAction first)."""
        events, deals_before = self.apply(seat, action)
        state = self.state_hash()
        raw = encode_entry(self.seq, self.prev_hash, action, state)
        entry = LogEntry(self.seq, self.prev_hash, action, state, raw)
        signature = identity.sign(signed_data(raw))
        self.commit(entry, signature, seat, deals_before)
        return entry, signature, events


def b64(data: bytes) -> str:
    """Standard base64 with padding, as the record keeps bytes."""
    return base64.b64encode(data).decode("ascii")
