"""The signed record's acknowledgements (docs/protocol.md, "Session messages"): the handshake's
session signatures, this side's entries the peer has not acknowledged yet, the ``ack``
messages a resume sends again, and, once the match is over, the waits for the last move's
acknowledgement and the peer's seed of the last deal (for the record and the audit only: the
result is final)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from koikoi.net.lockstep import Lockstep
from koikoi.net.session.endings import How
from koikoi.net.wire import encode_message

LAST_ACK_GRACE: Final = 2.0
"""Seconds the mover of the match's last move keeps reading for the peer's acknowledgement
of it (for the record only: the result is already final)."""


@dataclass
class Acks:
    """The signed record's acknowledgements: the session signatures from the handshake, this
    side's entries the peer has not acknowledged yet (oldest first), and, once the match is
    over, until when the acknowledgement of its last move is still read."""

    handshake: tuple[bytes, bytes]
    unacked: list[int] = field(default_factory=list)
    last_until: float | None = None
    seed_until: float | None = None
    """Privately dealt, once the match is over: until when the peer's seed of the last deal
    is still read (its audit; nothing it brings changes the result)."""
    bye: bool = False
    """The peer's ``bye`` came while the last move's acknowledgement was read."""
    told: bool = False
    """:class:`Ended` went out for the finished match (it goes out once)."""
    replayed: bool = False
    """Right after a resume, until the peer's first message that is not one: the peer
    resends acknowledgements, and an exact copy of one already recorded is let through."""

    @property
    def waiting(self) -> bool:
        """The match is over, and the last move's acknowledgement or the peer's seed of the
        last deal is still read."""
        return self.last_until is not None or self.seed_until is not None

    @property
    def wait_ends(self) -> float | None:
        """When the first of the waits after the match's end runs out (None: no wait)."""
        waits = [t for t in (self.last_until, self.seed_until) if t is not None]
        return min(waits) if waits else None

    def resent(self, lockstep: Lockstep, raw: bytes, signature: bytes, seat: int) -> bool:
        """Whether the peer's ``ack`` is an exact copy of one of ``seat``'s entries already
        recorded, resent after a resume (nothing new); the first that is not ends that."""
        if self.replayed and lockstep.is_recorded_ack(raw, signature, seat):
            return True
        self.replayed = False
        return False

    def take(
        self, lockstep: Lockstep, key: bytes, raw: bytes, signature: bytes
    ) -> tuple[How, str] | None:
        """The peer's signed acknowledgement (``key`` its public key) of this side's oldest
        unacknowledged move, in play: None once recorded, else how it fails and why."""
        if not self.unacked:
            return How.PROTOCOL, "the peer acknowledged a move this side did not send"
        due = self.unacked[0]
        refused = lockstep.check_ack(key, raw, signature, due)
        if refused is not None:
            return How.CHEAT, f"the peer's acknowledgement of move {due}: {refused}"
        self.unacked.pop(0)
        return None

    def take_last(self, lockstep: Lockstep, key: bytes, raw: bytes, signature: bytes) -> bool:
        """After the match's end, the acknowledgement of this side's last moves: whether it
        checks (and is recorded; the wait for it ends with the last one)."""
        if not self.unacked:
            return False
        if lockstep.check_ack(key, raw, signature, self.unacked[0]) is not None:
            return False
        self.unacked.pop(0)
        if not self.unacked:
            self.last_until = None
        return True

    def owed(self, lockstep: Lockstep, seat: int) -> None:
        """A restored record: ``seat``'s entries without an acknowledgement are still owed,
        oldest first."""
        self.unacked = [
            seq
            for seq, action in enumerate(lockstep.actions)
            if int(str(action["seat"])) == seat and "ack" not in action
        ]

    @staticmethod
    def to_resend(lockstep: Lockstep | None, seat: int, peer_holds: int) -> list[bytes]:
        """The ``ack`` messages a resumed connection sends first (docs/protocol.md, "Sending
        again"): ``seat``'s acknowledgements of the peer's entries after the last entry of
        its own that the peer holds (``peer_holds``: the ``seq`` of the peer's ``resume``).
        The peer read every earlier one before that entry of ours; these it may lack."""
        if lockstep is None:
            return []
        held = min(peer_holds, lockstep.seq)
        seats = [int(str(action["seat"])) for action in lockstep.actions]
        start = next((n + 1 for n in range(held - 1, -1, -1) if seats[n] == seat), 0)
        out = []
        for seq in range(start, held):
            ack = lockstep.recorded_ack(seq)
            if seats[seq] != seat and ack is not None:
                out.append(encode_message("ack", ack=ack[0], sig=ack[1]))
        return out
