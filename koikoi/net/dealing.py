"""Private dealing of one deal between the host (A) and the joiner (B): SRA with per-card keys.

Neither side learns a card before the rules show it to that side, yet the deck is a function
of both players' seeds and can be replayed by anyone once the seeds are revealed. The group
operations are in :mod:`koikoi.net.mental`; this module is the sans-I/O state machine of one
side (:class:`Dealer`, fed the peer's messages as bytes, returning what to send) and the
:func:`audit` that replays a finished deal from both seeds. docs/protocol.md, "Private dealing
(koikoi-net/3)", specifies it message by message::

    host   -> joiner  shuffle  c = commitment of the host's seed; deck X1[i] = a·P[πA(i)]
    joiner -> host    shuffle  c = commitment of the joiner's seed; X2[j] = b·X1[πB(j)]
    host   -> joiner  lock     Y[j] = a_j·a⁻¹·X2[j]      (the single key swapped for per-card keys)
    joiner -> host    lock     Z[j] = b_j·b⁻¹·Y[j] = a_j·b_j·P[card j]
    each   -> other   deal     the keys of the receiver's hand (8) and of the field (8)
    each   -> other   draw     its key of the next stock position (both: a public card)
    owner  -> other   play     its key of a hand position it plays (the other sent its own)
    each   -> other   seed     its seed, at the deal's end; then both run :func:`audit`

Positions of the final deck ``Z`` follow docs/protocol.md "Deals": 0–7 the oya's hand, 8–15
the other hand, 16–23 the field, 24–47 the stock (24 drawn first).

>>> context = deal_context(bytes(32), 1, 0)
>>> host = Dealer(Role.HOST, context, oya=Role.HOST, seed=bytes(32))
>>> joiner = Dealer(Role.JOINER, context, oya=Role.HOST, seed=bytes(range(32)))
>>> exchange(host, joiner)
>>> dealt = host.hand + joiner.hand + host.field
>>> len(set(dealt)) == 24 and joiner.field == host.field
True
>>> host.card_at(8) is None and host.card_at(24) is None  # the joiner's hand, the stock
True
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import hmac
import os
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from koikoi.net.errors import CheatDetected, ProtocolError
from koikoi.net.mental import (
    CARD_POINTS,
    CARDS,
    GroupError,
    card_of,
    check_point,
    check_scalar,
    derive_permutation,
    derive_scalar,
    encrypt,
    invert,
    join_points,
    multiply,
    split_points,
)
from koikoi.net.roles import Role
from koikoi.net.wire import Bytes, Int, Message, Record, decode_message, encode_message

SEED_LEN: Final = 32
HAND: Final = 8
FIELD: Final = range(16, 24)
STOCK: Final = range(24, CARDS)
DECK_BYTES: Final = 32 * CARDS

CONTEXT_LABEL: Final = b"koikoi-net/3 deal\0"
COMMIT_LABEL: Final = b"koikoi-net/3 deal commit\0"
DEALING_LABEL: Final = b"koikoi-net/3 dealing\0"
SHUFFLE_KEY: Final = b"shuffle key"
CARD_KEY: Final = b"card key"

SHUFFLE = Record({"c": Bytes(32, 32), "deck": Bytes(DECK_BYTES, DECK_BYTES)})
LOCK = Record({"deck": Bytes(DECK_BYTES, DECK_BYTES)})
DEAL = Record({"keys": Bytes(32 * 2 * HAND, 32 * 2 * HAND)})
DRAW = Record({"pos": Int(STOCK.start, STOCK.stop - 1), "k": Bytes(32, 32)})
PLAY = Record({"pos": Int(0, 2 * HAND - 1), "k": Bytes(32, 32)})
SEED = Record({"s": Bytes(SEED_LEN, SEED_LEN)})


def deal_context(session: bytes, round_number: int, deal: int) -> bytes:
    """What binds a dealing to one deal of one session:
    ``H("koikoi-net/3 deal\\0" ‖ session ‖ u32(round) ‖ u32(deal))``."""
    return hashlib.sha256(
        CONTEXT_LABEL + session + round_number.to_bytes(4, "big") + deal.to_bytes(4, "big")
    ).digest()


def seed_commitment(context: bytes, role: Role, seed: bytes) -> bytes:
    """``H("koikoi-net/3 deal commit\\0" ‖ context ‖ role ‖ "\\0" ‖ seed)``."""
    return hashlib.sha256(COMMIT_LABEL + context + role.label + b"\0" + seed).digest()


def sealed_hash(transcript: DealTranscript, previous: bytes = bytes(32)) -> bytes:
    """What a signed log can cover of a deal whose cards are hidden: the commitments and the
    four decks, chained to the value of the deal before (32 zero bytes for the first),
    ``H("koikoi-net/3 dealing\0" ‖ previous ‖ cA ‖ cB ‖ X1 ‖ X2 ‖ Y ‖ Z)``. Every card of
    the deal is bound by it in sealed form; the seeds are checked against the commitments.
    """
    if len(previous) != 32:
        raise ValueError("previous is a 32-byte dealing hash")
    parts = [DEALING_LABEL, previous]
    try:
        parts += [transcript.commitments[Role.HOST], transcript.commitments[Role.JOINER]]
        for decks in (transcript.shuffled, transcript.locked):
            parts += [join_points(decks[Role.HOST]), join_points(decks[Role.JOINER])]
    except KeyError:
        raise ValueError("the dealing has not reached the final deck") from None
    return hashlib.sha256(b"".join(parts)).digest()


def hand_positions(role: Role, oya: Role) -> range:
    """The positions of ``role``'s hand: 0–7 for the oya, 8–15 for the other."""
    return range(0, HAND) if role is oya else range(HAND, 2 * HAND)


class DealingCheat(CheatDetected):
    """A side of the dealing broke it; :attr:`culprit` names which one (``what`` says how)."""

    def __init__(self, culprit: Role, reason: str, what: str) -> None:
        super().__init__(f"cheat: the {culprit.value} {reason}", what)
        self.culprit = culprit
        self.params["culprit"] = culprit.value


@dataclass
class DealTranscript:
    """Everything a deal's dealing put on the wire, as one side saw it: what a record keeps
    so that :func:`audit` (and ``koikoi verify``) can replay it once the seeds are known."""

    context: bytes
    oya: Role
    commitments: dict[Role, bytes] = field(default_factory=dict)
    shuffled: dict[Role, tuple[bytes, ...]] = field(default_factory=dict)
    """The host's ``X1`` and the joiner's ``X2``."""
    locked: dict[Role, tuple[bytes, ...]] = field(default_factory=dict)
    """The host's ``Y`` and the joiner's ``Z`` (the final deck)."""
    keys: dict[Role, dict[int, bytes]] = field(
        default_factory=lambda: {Role.HOST: {}, Role.JOINER: {}}
    )
    """The per-card keys each side sent, by position."""
    seeds: dict[Role, bytes] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The transcript as a record keeps it (JSON; bytes in base64, decks as one string of
        48 points, keys as ``[position, key]`` pairs by position)."""
        roles = (Role.HOST, Role.JOINER)

        def by_role(items: Mapping[Role, bytes]) -> dict[str, str]:
            return {role.value: _b64(items[role]) for role in roles if role in items}

        return {
            "context": _b64(self.context),
            "oya": self.oya.value,
            "commitments": by_role(self.commitments),
            "shuffled": by_role({r: join_points(d) for r, d in self.shuffled.items()}),
            "locked": by_role({r: join_points(d) for r, d in self.locked.items()}),
            "keys": {
                role.value: [[p, _b64(k)] for p, k in sorted(self.keys[role].items())]
                for role in roles
            },
            "seeds": by_role(self.seeds),
        }

    @classmethod
    def from_json(cls, data: object) -> DealTranscript:
        """Read :meth:`to_json` back; raises ``ValueError`` with one line on bad input.

        Only the shapes are checked here: :func:`audit` checks the contents.
        """
        try:
            return cls._from_json(data)
        except (KeyError, TypeError, ValueError, binascii.Error) as error:
            raise ValueError(f"the dealing in the record is malformed ({error})") from None

    @classmethod
    def _from_json(cls, data: object) -> DealTranscript:
        if not isinstance(data, dict):
            raise TypeError("not an object")

        def by_role(name: str, size: int) -> dict[Role, bytes]:
            items = data[name]
            if not isinstance(items, dict) or not set(items) <= {"host", "joiner"}:
                raise ValueError(f"{name} is not an object of host and joiner")
            decoded = {Role(role): _unb64(value, size) for role, value in items.items()}
            return decoded

        transcript = cls(_unb64(data["context"], 32), Role(data["oya"]))
        transcript.commitments = by_role("commitments", 32)
        transcript.shuffled = {
            r: split_points(d) for r, d in by_role("shuffled", DECK_BYTES).items()
        }
        transcript.locked = {r: split_points(d) for r, d in by_role("locked", DECK_BYTES).items()}
        transcript.seeds = by_role("seeds", SEED_LEN)
        keys = data["keys"]
        if not isinstance(keys, dict) or set(keys) != {"host", "joiner"}:
            raise ValueError("keys is not an object of host and joiner")
        for role, pairs in keys.items():
            sent = transcript.keys[Role(role)]
            for position, key in pairs:
                if (
                    isinstance(position, bool)
                    or not isinstance(position, int)
                    or not 0 <= position < CARDS
                    or position in sent
                ):
                    raise ValueError(f"a key of the {role} has a bad position")
                sent[position] = _unb64(key, 32)
        return transcript


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: object, size: int) -> bytes:
    if not isinstance(text, str):
        raise TypeError("expected base64 text")
    data = base64.b64decode(text, validate=True)
    if len(data) != size:
        raise ValueError(f"expected {size} bytes, got {len(data)}")
    return data


class _Keys:
    """One side's secrets, all from its seed: the shuffle, the single key, the per-card keys."""

    __slots__ = ("card", "permutation", "single")

    def __init__(self, seed: bytes, context: bytes, role: Role) -> None:
        own = context + b"\0" + role.label
        self.permutation = derive_permutation(seed, own)
        self.single = derive_scalar(seed, own, SHUFFLE_KEY, 0)
        self.card = tuple(derive_scalar(seed, own, CARD_KEY, j) for j in range(CARDS))

    def shuffle(self, points: tuple[bytes, ...]) -> tuple[bytes, ...]:
        """Position ``i`` of the result is ``single·points[π(i)]``."""
        return self.permute(tuple(encrypt(point, self.single) for point in points))

    def permute(self, points: tuple[bytes, ...]) -> tuple[bytes, ...]:
        """Position ``i`` of the result is ``points[π(i)]``."""
        return tuple(points[self.permutation[i]] for i in range(CARDS))

    def lock_keys(self) -> tuple[bytes, ...]:
        """The key of each position in :meth:`lock`: ``card[j]·single⁻¹``."""
        strip = invert(self.single)
        return tuple(multiply(self.card[j], strip) for j in range(CARDS))

    def lock(self, points: tuple[bytes, ...]) -> tuple[bytes, ...]:
        """Position ``j`` of the result is ``card[j]·single⁻¹·points[j]``."""
        return tuple(
            encrypt(point, key) for point, key in zip(points, self.lock_keys(), strict=True)
        )


class Phase(Enum):
    START = "before the dealing"
    AWAIT_SHUFFLE = "the {peer}'s shuffled deck"
    AWAIT_LOCK = "the {peer}'s locked deck"
    AWAIT_DEAL = "the {peer}'s keys of this side's hand and of the field"
    PLAYING = "the deal in play"
    FAILED = "failed"


class Dealer:
    """One side's dealing of one deal; feed it the peer's messages in order.

    ``seed`` fixes this side's secret (tests and replays; default ``os.urandom``). The side
    knows a card only once the rules show it: :attr:`hand`, :attr:`field`, the stock as drawn
    (:meth:`draw`) and the peer's cards as played (:meth:`play` on the peer's side).
    """

    def __init__(self, role: Role, context: bytes, oya: Role, *, seed: bytes | None = None) -> None:
        self.role = role
        self.peer = role.peer
        self.oya = oya
        self._seed = seed if seed is not None else os.urandom(SEED_LEN)
        if len(self._seed) != SEED_LEN:
            raise ValueError(f"seed must be {SEED_LEN} bytes")
        self._keys = _Keys(self._seed, context, role)
        self.transcript = DealTranscript(context, oya)
        self.transcript.commitments[role] = seed_commitment(context, role, self._seed)
        self.phase = Phase.START if role is Role.HOST else Phase.AWAIT_SHUFFLE
        self._cards: dict[int, int] = {}
        """Position → card id, for the cards this side has seen."""
        self.opened: list[tuple[int, int]] = []
        """``(position, card)`` in the order this side opened them."""
        self._draws_sent = 0
        self._draws_received = 0
        self._draw_keys: dict[int, bytes] = {}
        self._played: set[int] = set()
        self._revealed = False
        self._message: Message | None = None
        """The message :meth:`receive` is given, already decoded (see there)."""

    # --- What this side knows -----------------------------------------------------------

    @property
    def commitment(self) -> bytes:
        return self.transcript.commitments[self.role]

    @property
    def hand(self) -> tuple[int, ...]:
        """This side's hand as dealt (empty until the peer's keys came)."""
        return self._known(hand_positions(self.role, self.oya))

    @property
    def field(self) -> tuple[int, ...]:
        return self._known(FIELD)

    def card_at(self, position: int) -> int | None:
        """The card at ``position`` if this side has seen it, else ``None`` (sealed)."""
        return self._cards.get(position)

    def _known(self, positions: Iterable[int]) -> tuple[int, ...]:
        return tuple(self._cards[p] for p in positions if p in self._cards)

    @property
    def waiting_for(self) -> str | None:
        """What this side waits for from the peer, or ``None``: a withheld key shows here
        (the move clock of the session decides when waiting becomes abandoning)."""
        peer = self.peer.value
        if self.phase in (Phase.AWAIT_SHUFFLE, Phase.AWAIT_LOCK, Phase.AWAIT_DEAL):
            return str(self.phase.value).format(peer=peer)
        if self.phase is not Phase.PLAYING:
            return None
        if self._draws_received < self._draws_sent:
            position = STOCK.start + self._draws_received
            return f"the {peer}'s key of the draw at position {position}"
        if self._revealed and self.peer not in self.transcript.seeds:
            return f"the {peer}'s seed"
        return None

    # --- Messages -----------------------------------------------------------------------

    def start(self) -> list[bytes]:
        """The host's shuffled deck; nothing for the joiner, who waits for the host's."""
        if self.role is Role.JOINER:
            return []
        self._expect(Phase.START)
        deck = self._keys.shuffle(CARD_POINTS)
        self.transcript.shuffled[self.role] = deck
        self.phase = Phase.AWAIT_SHUFFLE
        return [encode_message("shuffle", c=self.commitment, deck=join_points(deck))]

    def receive(self, payload: bytes, message: Message | None = None) -> list[bytes]:
        """Process the peer's next message; returns what to send back.

        ``message`` is ``payload`` as the caller (a session) already decoded it, with this
        module's schema of its type: it is not decoded again (a message of a type this
        phase does not take is still refused as before). Raises :class:`DealingCheat`
        naming the peer for anything the dealing does not allow.
        """
        if self.phase in (Phase.START, Phase.FAILED):
            raise ProtocolError(f"no dealing message is expected now ({self.phase.value})")
        self._message = message
        try:
            return self._step(payload)
        except DealingCheat:
            self.phase = Phase.FAILED
            raise
        except ProtocolError as error:
            self.phase = Phase.FAILED
            raise DealingCheat(
                self.peer, f"sent a bad dealing message: {error}", "message"
            ) from error
        finally:
            self._message = None

    def _decode(self, payload: bytes, schemas: Mapping[str, Record]) -> Message:
        """``payload`` checked against ``schemas`` (the types this phase takes), or the
        caller's decoding of it when it is of one of them."""
        message = self._message
        if message is not None and message.kind in schemas:
            return message
        return decode_message(payload, schemas)

    def _step(self, payload: bytes) -> list[bytes]:
        if self.phase is Phase.AWAIT_SHUFFLE:
            fields = self._decode(payload, {"shuffle": SHUFFLE}).fields
            data = fields.get("deck", bytes)
            if self.role is Role.JOINER:  # X2: X1 times the single key, then shuffled
                deck, mine = self._deck(data, "shuffled deck", (self._keys.single,) * CARDS)
                mine = self._keys.permute(mine)
            else:  # Y: X2 locked
                deck, mine = self._deck(data, "shuffled deck", self._keys.lock_keys())
            self.transcript.commitments[self.peer] = fields.get("c", bytes)
            self.transcript.shuffled[self.peer] = deck
            if self.role is Role.JOINER:
                self.transcript.shuffled[self.role] = mine
                self.phase = Phase.AWAIT_LOCK
                return [encode_message("shuffle", c=self.commitment, deck=join_points(mine))]
            self.transcript.locked[self.role] = mine
            self.phase = Phase.AWAIT_LOCK
            return [encode_message("lock", deck=join_points(mine))]
        if self.phase is Phase.AWAIT_LOCK:
            fields = self._decode(payload, {"lock": LOCK}).fields
            data = fields.get("deck", bytes)
            if self.role is Role.JOINER:  # Z: Y locked
                deck, final = self._deck(data, "locked deck", self._keys.lock_keys())
            else:
                deck, final = self._deck(data, "locked deck", None)
            self.transcript.locked[self.peer] = deck
            replies = []
            if self.role is Role.JOINER:
                self.transcript.locked[self.role] = final
                replies.append(encode_message("lock", deck=join_points(final)))
            self.phase = Phase.AWAIT_DEAL
            return [*replies, self._deal()]
        if self.phase is Phase.AWAIT_DEAL:
            keys = split_points(self._decode(payload, {"deal": DEAL}).fields.get("keys", bytes))
            positions = [*hand_positions(self.role, self.oya), *FIELD]
            for position, key in zip(positions, keys, strict=True):
                self._open(position, key)
            self.phase = Phase.PLAYING
            return []
        message = self._decode(payload, {"draw": DRAW, "play": PLAY, "seed": SEED})
        if self.peer in self.transcript.seeds:
            raise DealingCheat(self.peer, f"sent {message.kind!r} after its seed", "order")
        if message.kind == "seed":
            self._peer_seed(message.fields.get("s", bytes))
        elif message.kind == "draw":
            self._peer_draw(message.fields.get("pos", int), message.fields.get("k", bytes))
        else:
            self._peer_play(message.fields.get("pos", int), message.fields.get("k", bytes))
        return []

    def _deal(self) -> bytes:
        """The keys of the peer's hand and of the field: the peer opens them alone."""
        positions = [*hand_positions(self.peer, self.oya), *FIELD]
        keys = [self._send_key(position) for position in positions]
        return encode_message("deal", keys=join_points(keys))

    def draw(self) -> bytes:
        """This side's key of the next stock card: the card is public once both keys crossed."""
        self._expect(Phase.PLAYING)
        if self._draws_sent >= len(STOCK):
            raise ValueError("the stock is empty")
        if self._draws_sent > self._draws_received:
            raise ValueError("the previous draw still waits for the peer's key")
        position = STOCK.start + self._draws_sent
        self._draws_sent += 1
        message = encode_message("draw", pos=position, k=self._send_key(position))
        if position in self._draw_keys:  # the peer's key came first
            try:
                self._open(position, self._draw_keys.pop(position))
            except DealingCheat:
                self.phase = Phase.FAILED
                raise
        return message

    def play(self, position: int) -> bytes:
        """This side's key of its hand card at ``position``, which it plays (the card shows)."""
        self._expect(Phase.PLAYING)
        if position not in hand_positions(self.role, self.oya) or position in self._played:
            raise ValueError(f"position {position} is not a card in this side's hand")
        self._played.add(position)
        return encode_message("play", pos=position, k=self._send_key(position))

    def reveal(self) -> bytes:
        """This side's seed, at the deal's end: it sends no key after it."""
        self._expect(Phase.PLAYING)
        self._revealed = True
        self.transcript.seeds[self.role] = self._seed
        return encode_message("seed", s=self._seed)

    def audit(self) -> tuple[int, ...]:
        """Replay the deal from both seeds (both revealed); see :func:`audit`. This side's
        own decks and keys are what it computed from its seed, so only the peer's steps are
        replayed: 96 scalar multiplications instead of 192, the same verdict."""
        return _audit(self.transcript, (self.role, self._keys))

    # --- Checks of what the peer sent ---------------------------------------------------

    def _expect(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise ValueError(f"the dealing is not at {phase.name.lower()} ({self.phase.value})")
        if self._revealed:
            raise ValueError("this side revealed its seed: the deal is over")

    def _deck(
        self, data: bytes, what: str, keys: tuple[bytes, ...] | None
    ) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        """The peer's deck, every point checked and no two the same, and (``keys`` given)
        each point times its key, position by position.

        Multiplying checks the point as :func:`~koikoi.net.mental.check_point` does
        (libsodium refuses a point that is not of the prime-order subgroup, not canonical,
        or the identity): a deck this side multiplies whole is not checked twice. The first
        bad position is named as before: a bad point, or a duplicate, in position order."""
        points = split_points(data)
        products: list[bytes] = []
        seen: dict[bytes, int] = {}
        for position, point in enumerate(points):
            try:
                if keys is None:
                    check_point(point)
                else:
                    products.append(encrypt(point, keys[position]))
            except GroupError as error:
                raise DealingCheat(
                    self.peer, f"sent a {what} whose position {position} is {error}", "point"
                ) from error
            if point in seen:
                raise DealingCheat(
                    self.peer,
                    f"sent a {what} that holds the same point at {seen[point]} and {position}"
                    " (a duplicate)",
                    "duplicate",
                )
            seen[point] = position
        return points, tuple(products)

    def _send_key(self, position: int) -> bytes:
        key = self._keys.card[position]
        self.transcript.keys[self.role][position] = key
        return key

    def _open(self, position: int, key: bytes) -> int:
        """Open ``position`` with the peer's key and this side's own; check the card."""
        try:
            check_scalar(key)
        except GroupError as error:
            raise DealingCheat(
                self.peer, f"sent a bad key of position {position}: {error}", "key"
            ) from error
        both = multiply(self._keys.card[position], key)
        card = card_of(encrypt(self.transcript.locked[Role.JOINER][position], invert(both)))
        if card is None:
            raise DealingCheat(
                self.peer,
                f"sent a key of position {position} that opens no card"
                " (a wrong key, or a substituted card in its deck)",
                "wrong key",
            )
        if card in self._cards.values():
            raise DealingCheat(
                self.peer,
                f"dealt card {card} twice (position {position} opens a card already seen)",
                "duplicate",
            )
        self.transcript.keys[self.peer][position] = key  # only a key that opened a new card
        self._cards[position] = card
        self.opened.append((position, card))
        return card

    def _peer_draw(self, position: int, key: bytes) -> None:
        expected = STOCK.start + self._draws_received
        if self._draws_received >= len(STOCK) or position != expected:
            raise DealingCheat(
                self.peer,
                f"sent the key of the draw at position {position} out of order"
                f" (the next draw is at {expected})",
                "order",
            )
        if self._draws_received > self._draws_sent:
            raise DealingCheat(
                self.peer,
                f"sent the key of the draw at position {position} before this side drew"
                f" the one at {position - 1}",
                "order",
            )
        self._draws_received += 1
        if self._draws_received <= self._draws_sent:
            self._open(position, key)
        else:  # opened once this side draws too: both keys of a public card cross
            self._draw_keys[position] = key

    def _peer_play(self, position: int, key: bytes) -> None:
        if position not in hand_positions(self.peer, self.oya) or position in self._cards:
            raise DealingCheat(
                self.peer,
                f"played position {position}, which is not a sealed card of its hand",
                "order",
            )
        self._open(position, key)

    def _peer_seed(self, seed: bytes) -> None:
        expected = seed_commitment(self.transcript.context, self.peer, seed)
        if not hmac.compare_digest(expected, self.transcript.commitments[self.peer]):
            raise DealingCheat(
                self.peer, "revealed a seed that is not the one it committed to", "seed"
            )
        self.transcript.seeds[self.peer] = seed


def audit(transcript: DealTranscript) -> tuple[int, ...]:
    """Replay a dealing from both revealed seeds; returns the deck (card id by position).

    Each step is replayed from the message before it *as sent*, so a difference is charged to
    the step's author: a seed that does not match its commitment, a deck, or a key sent that
    the seed does not give. Raises :class:`DealingCheat` naming that side.
    """
    return _audit(transcript, None)


def _audit(transcript: DealTranscript, mine: tuple[Role, _Keys] | None) -> tuple[int, ...]:
    """:func:`audit`; ``mine``, a side's role and keys, says that the steps and keys of that
    side are the ones it computed itself from those keys (a :class:`Dealer`'s own): they are
    not replayed (half the scalar multiplications), and the verdict is the same."""
    keys: dict[Role, _Keys] = {}
    for role in (Role.HOST, Role.JOINER):
        seed = transcript.seeds.get(role)
        if seed is None:
            raise ValueError(f"the {role.value}'s seed is not revealed")
        if seed_commitment(transcript.context, role, seed) != transcript.commitments.get(role):
            raise DealingCheat(role, "revealed a seed that is not the one it committed to", "seed")
        if mine is not None and mine[0] is role:
            keys[role] = mine[1]
        else:
            keys[role] = _Keys(seed, transcript.context, role)
    host, joiner = keys[Role.HOST], keys[Role.JOINER]
    steps: list[
        tuple[Role, str, dict[Role, tuple[bytes, ...]], Callable[[], tuple[bytes, ...]]]
    ] = [
        (Role.HOST, "shuffled deck", transcript.shuffled, lambda: host.shuffle(CARD_POINTS)),
        (
            Role.JOINER,
            "shuffled deck",
            transcript.shuffled,
            lambda: joiner.shuffle(transcript.shuffled[Role.HOST]),
        ),
        (
            Role.HOST,
            "locked deck",
            transcript.locked,
            lambda: host.lock(transcript.shuffled[Role.JOINER]),
        ),
        (
            Role.JOINER,
            "locked deck",
            transcript.locked,
            lambda: joiner.lock(transcript.locked[Role.HOST]),
        ),
    ]
    own = mine[0] if mine is not None else None
    for role, what, sent, replay in steps:
        if role not in sent:
            break
        if role is not own and sent[role] != replay():
            raise DealingCheat(role, f"sent a {what} that its seed does not give", "replay")
    for role in (Role.HOST, Role.JOINER):
        if role is own:
            continue
        for position, key in sorted(transcript.keys[role].items()):
            if key != keys[role].card[position]:
                raise DealingCheat(
                    role, f"sent a key of position {position} that its seed does not give", "replay"
                )
    return tuple(host.permutation[joiner.permutation[j]] for j in range(CARDS))


# --- A whole deal, and what it costs ---------------------------------------------------------


def exchange(first: Dealer, second: Dealer, sent: list[int] | None = None) -> None:
    """Run the dealing between two honest sides up to the deal in play (hands and field);
    the size of every message goes to ``sent``, if given."""
    host, joiner = (first, second) if first.role is Role.HOST else (second, first)
    queue: list[tuple[Dealer, bytes]] = [(joiner, message) for message in host.start()]
    while queue:
        receiver, payload = queue.pop(0)
        if sent is not None:
            sent.append(len(payload))
        other = joiner if receiver is host else host
        queue.extend((other, reply) for reply in receiver.receive(payload))


def play_deal(
    host_seed: bytes, joiner_seed: bytes, oya: Role = Role.HOST, sent: list[int] | None = None
) -> tuple[Dealer, Dealer]:
    """One whole deal's dealing between two honest sides: the hands and the field, the 24
    draws, the 16 plays (each side's whole hand), the seeds revealed (no audit)."""
    wire = sent if sent is not None else []
    context = deal_context(bytes(32), 1, 0)
    host = Dealer(Role.HOST, context, oya, seed=host_seed)
    joiner = Dealer(Role.JOINER, context, oya, seed=joiner_seed)
    exchange(host, joiner, wire)

    def deliver(receiver: Dealer, payload: bytes) -> None:
        wire.append(len(payload))
        receiver.receive(payload)

    for _ in STOCK:
        from_host, from_joiner = host.draw(), joiner.draw()
        deliver(joiner, from_host)
        deliver(host, from_joiner)
    for side, other in ((host, joiner), (joiner, host)):
        for position in hand_positions(side.role, oya):
            deliver(other, side.play(position))
    deliver(joiner, host.reveal())
    deliver(host, joiner.reveal())
    return host, joiner


def bench(runs: int = 21) -> dict[str, float]:
    """Medians over ``runs`` deals, both sides' work together: ``deal_ms`` a whole deal
    (:func:`play_deal`), ``deal_setup_ms`` its part up to the deal in play (both shuffles
    and locks, the hands and the field opened), ``deal_audit_ms`` one side's audit of it;
    ``deal_bytes`` the dealing messages of one deal, both directions, unframed."""
    deal_times, setup_times, audit_times = [], [], []
    sent: list[int] = []
    for run in range(runs):
        host_seed = hashlib.sha256(b"bench host" + run.to_bytes(4, "big")).digest()
        joiner_seed = hashlib.sha256(b"bench joiner" + run.to_bytes(4, "big")).digest()
        context = deal_context(bytes(32), 1, 0)
        start = time.perf_counter()
        exchange(
            Dealer(Role.HOST, context, Role.HOST, seed=host_seed),
            Dealer(Role.JOINER, context, Role.HOST, seed=joiner_seed),
        )
        setup_times.append((time.perf_counter() - start) * 1000)
        sent.clear()
        start = time.perf_counter()
        host, _ = play_deal(host_seed, joiner_seed, sent=sent)
        middle = time.perf_counter()
        host.audit()
        end = time.perf_counter()
        deal_times.append((middle - start) * 1000)
        audit_times.append((end - middle) * 1000)
    return {
        "deal_ms": round(statistics.median(deal_times), 2),
        "deal_setup_ms": round(statistics.median(setup_times), 2),
        "deal_audit_ms": round(statistics.median(audit_times), 2),
        "deal_bytes": sum(sent),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m koikoi.net.dealing", description="private dealing of one deal"
    )
    parser.add_argument("--bench", action="store_true", help="time a whole deal, as JSON")
    parser.add_argument("--runs", type=int, default=21, help="runs to take the median of")
    args = parser.parse_args(argv)
    if not args.bench:
        parser.print_help()
        return 0
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    import json

    print(json.dumps(bench(args.runs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
