"""The two ends of a koikoi-net connection.

The host (the room creator) listens, answers the handshake as the Noise responder, commits
first in the coin toss, and sits in seat 0; the joiner connects, starts the handshake as the
Noise initiator, and sits in seat 1.
"""

from __future__ import annotations

from enum import Enum


class Role(Enum):
    HOST = "host"
    JOINER = "joiner"

    @property
    def peer(self) -> Role:
        return Role.JOINER if self is Role.HOST else Role.HOST

    @property
    def seat(self) -> int:
        """Seat number in the game record: the host is seat 0."""
        return 0 if self is Role.HOST else 1

    @property
    def label(self) -> bytes:
        """The role as it enters hashes and signatures (``b"host"`` / ``b"joiner"``)."""
        return self.value.encode("ascii")
