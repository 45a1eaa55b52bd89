"""The coin toss for the first oya and the joint deck seed, by commit and reveal (Blum).

One exchange gives both, right after the handshake, inside the encrypted session::

    host   -> joiner  commit  c  = SHA-256("koikoi-net/1 commit\\0" ‖ session ‖ "host\\0" ‖ rA)
    joiner -> host    answer  rB (32 random bytes, sent only after c arrived)
    host   -> joiner  reveal  rA; the joiner checks c, else :class:`CheatDetected`

    first oya = lowest bit of SHA-256("koikoi-net/1 oya\\0" ‖ session ‖ rA ‖ rB)[0] (a seat)
    seed      = SHA-256("koikoi-net/1 seed\\0" ‖ session ‖ rA ‖ rB)
    the four cards both players compare = sas_cards(session, rA, rB)  (koikoi.net.sas)

``session`` is the Noise handshake hash, so no toss can be carried over from another
session. Neither side can steer the outcome: the host is bound to rA before it sees rB, and
the joiner picks rB without knowing rA. The host does learn the outcome one message before
the joiner, so it could abort instead of revealing a toss it dislikes. An abort therefore
never earns a re-toss: :meth:`CoinToss.abort` records who left and when, the match ends
unfinished, and a new match is a new session with its own toss (and the record shows the
abort). The seed is known to both programs, so a modified client could peek at the deck;
docs/protocol.md states this known weakness.

>>> session = bytes(32)
>>> host, joiner = CoinToss(Role.HOST, session), CoinToss(Role.JOINER, session)
>>> answer = joiner.receive(host.start()[0])
>>> _ = joiner.receive(host.receive(answer[0])[0])
>>> host.result == joiner.result and host.result.first_oya in (0, 1)
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from enum import Enum
from typing import Final

from koikoi.net.errors import CheatDetected, ProtocolError
from koikoi.net.roles import Role
from koikoi.net.sas import sas_cards
from koikoi.net.wire import Bytes, Record, decode_message, encode_message

RANDOM_LEN: Final = 32
SESSION_LEN: Final = 32
COMMIT_LABEL: Final = b"koikoi-net/1 commit\0"
OYA_LABEL: Final = b"koikoi-net/1 oya\0"
SEED_LABEL: Final = b"koikoi-net/1 seed\0"

COMMIT = Record({"c": Bytes(32, 32)})
ANSWER = Record({"r": Bytes(RANDOM_LEN, RANDOM_LEN)})
REVEAL = Record({"r": Bytes(RANDOM_LEN, RANDOM_LEN)})


def commitment(session: bytes, role: Role, secret: bytes) -> bytes:
    """What ``role`` commits to before revealing ``secret`` in ``session``."""
    return hashlib.sha256(COMMIT_LABEL + session + role.label + b"\0" + secret).digest()


def first_oya(session: bytes, host_random: bytes, joiner_random: bytes) -> int:
    """The seat (0 host, 1 joiner) of the first oya."""
    digest = hashlib.sha256(OYA_LABEL + session + host_random + joiner_random).digest()
    return digest[0] & 1


def joint_seed(session: bytes, host_random: bytes, joiner_random: bytes) -> bytes:
    """The 32-byte match seed; each deal's deck is ``deck_from_seed(seed, round, deal)``."""
    return hashlib.sha256(SEED_LABEL + session + host_random + joiner_random).digest()


@dataclass(frozen=True)
class TossResult:
    """The outcome and its full transcript (for the record: anyone can recheck it)."""

    first_oya: int
    seed: bytes
    commitment: bytes
    host_random: bytes
    joiner_random: bytes
    cards: tuple[str, str, str, str]
    """The four cards both players compare (:func:`koikoi.net.sas.sas_cards`)."""


class TossPhase(Enum):
    START = "before the commitment"
    AWAIT_COMMIT = "waiting for the commitment"
    AWAIT_ANSWER = "after the commitment"
    AWAIT_REVEAL = "after the answer"
    DONE = "after the reveal"
    FAILED = "failed"
    ABORTED = "aborted"


@dataclass(frozen=True)
class TossAbort:
    """A toss that did not finish: who left, at which point, and why."""

    by: Role
    phase: TossPhase
    reason: str

    @property
    def suspicious(self) -> bool:
        """``by`` could know the outcome: the host once it had the answer (the joiner's view
        after answering), either side once the toss was over (the host's reveal sent)."""
        if self.phase is TossPhase.DONE:
            return True
        return self.by is Role.HOST and self.phase is TossPhase.AWAIT_REVEAL

    def describe(self) -> str:
        line = f"the {self.by.value} left the coin toss {self.phase.value}: {self.reason}"
        if self.suspicious:
            line += (
                " (it abandoned the toss after seeing the result, which it already knew; "
                "no re-toss is granted)"
            )
        return line


class CoinToss:
    """One side of the toss; feed it the peer's (decrypted) messages in order.

    ``secret`` fixes this side's random contribution (tests only; default ``os.urandom``).
    A toss runs once: after :meth:`abort`, a failure or the result, it accepts nothing more.
    """

    def __init__(self, role: Role, session: bytes, *, secret: bytes | None = None) -> None:
        if len(session) != SESSION_LEN:
            raise ValueError(f"session is the {SESSION_LEN}-byte handshake hash")
        self.role = role
        self.session = session
        self._secret = secret if secret is not None else os.urandom(RANDOM_LEN)
        if len(self._secret) != RANDOM_LEN:
            raise ValueError(f"secret must be {RANDOM_LEN} bytes")
        self.phase = TossPhase.START if role is Role.HOST else TossPhase.AWAIT_COMMIT
        self.result: TossResult | None = None
        self.aborted: TossAbort | None = None
        self._commitment = b""
        self._failed_in = TossPhase.FAILED
        """Where the toss was when the peer's message failed (for :meth:`abort`)."""

    def start(self) -> list[bytes]:
        """The host's commitment; nothing for the joiner, who waits for it."""
        if self.role is Role.JOINER:
            self._expect(TossPhase.AWAIT_COMMIT)
            return []
        self._expect(TossPhase.START)
        self._commitment = commitment(self.session, Role.HOST, self._secret)
        self.phase = TossPhase.AWAIT_ANSWER
        return [encode_message("commit", c=self._commitment)]

    def receive(self, payload: bytes) -> list[bytes]:
        """Process the peer's next toss message; returns what to send back."""
        if self.phase in (TossPhase.START, TossPhase.DONE, TossPhase.FAILED, TossPhase.ABORTED):
            raise ProtocolError(f"no coin toss message is expected now ({self.phase.value})")
        try:
            return self._step(payload)
        except ProtocolError:
            self._failed_in = self.phase
            self.phase = TossPhase.FAILED
            raise

    def _step(self, payload: bytes) -> list[bytes]:
        if self.phase is TossPhase.AWAIT_COMMIT:
            fields = decode_message(payload, {"commit": COMMIT}).fields
            self._commitment = fields.get("c", bytes)
            self.phase = TossPhase.AWAIT_REVEAL
            return [encode_message("answer", r=self._secret)]
        if self.phase is TossPhase.AWAIT_ANSWER:
            joiner_random = decode_message(payload, {"answer": ANSWER}).fields.get("r", bytes)
            self._finish(self._secret, joiner_random)
            return [encode_message("reveal", r=self._secret)]
        host_random = decode_message(payload, {"reveal": REVEAL}).fields.get("r", bytes)
        expected = commitment(self.session, Role.HOST, host_random)
        if not hmac.compare_digest(expected, self._commitment):
            raise CheatDetected(
                "cheat: the host's coin-toss reveal does not match its commitment", "host reveal"
            )
        self._finish(host_random, self._secret)
        return []

    def _finish(self, host_random: bytes, joiner_random: bytes) -> None:
        self.result = TossResult(
            first_oya=first_oya(self.session, host_random, joiner_random),
            seed=joint_seed(self.session, host_random, joiner_random),
            commitment=self._commitment,
            host_random=host_random,
            joiner_random=joiner_random,
            cards=sas_cards(self.session, host_random, joiner_random),
        )
        self.phase = TossPhase.DONE

    def abort(self, by: Role, reason: str) -> TossAbort:
        """Record that ``by`` left the toss (disconnect, quit, timeout, garbage, a cheat), or
        left after it but before the first deal (the four cards were being compared).

        The toss is over for good: a new toss needs a new session.
        """
        if self.aborted is None:
            phase = self._failed_in if self.phase is TossPhase.FAILED else self.phase
            if phase is TossPhase.AWAIT_COMMIT:
                phase = TossPhase.START  # the joiner's view: the host had not committed yet
            self.aborted = TossAbort(by, phase, reason)
        self.phase = TossPhase.ABORTED
        return self.aborted

    def _expect(self, phase: TossPhase) -> None:
        if self.phase is not phase:
            raise ProtocolError(f"the coin toss cannot start now ({self.phase.value})")
