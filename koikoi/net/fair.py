"""The coin toss for the first oya and the joint deck seed, by commit and reveal (Blum).

In protocol version 4 (docs/protocol.md, "Coin toss and joint seed") the four cards come
first and the toss after both players confirmed them, so that an honest "They differ" is
never an abort after seeing the result::

    host   -> joiner  commit  c  = SHA-256("koikoi-net/1 commit\\0" ‖ session ‖ "host\\0" ‖ rA),
                              ct = SHA-256("koikoi-net/4 toss commit\\0" ‖ session ‖ "host\\0"
                                           ‖ tA)
    joiner -> host    answer  rB (32 random bytes, sent only after c arrived)
    host   -> joiner  reveal  rA; the joiner checks c, else :class:`CheatDetected`
    the four cards both players compare = sas_cards(session, rA, rB)  (koikoi.net.sas)
    both confirm the cards (the session's ``confirm``); then
    joiner -> host    toss    tB (fresh random, once it sent its confirm and got the host's)
    host   -> joiner  toss    tA; the joiner checks ct, else :class:`CheatDetected`

    first oya = lowest bit of SHA-256("koikoi-net/4 oya\\0" ‖ session ‖ rA ‖ rB ‖ tA ‖ tB)[0]
    seed      = SHA-256("koikoi-net/4 seed\\0" ‖ session ‖ rA ‖ rB ‖ tA ‖ tB)

Version 2 (``cards_first=False``) has no ``ct`` and no ``toss``: the oya and the seed come
from ``koikoi-net/1`` labels over session ‖ rA ‖ rB, so the cards are drawn with the outcome.

``session`` is the Noise handshake hash, so no toss can be carried over from another
session. Neither side can steer the outcome: the host is bound to rA and tA before it sees
rB and tB, and the joiner picks each of its randoms without knowing the host's. The host
learns the outcome one message before the joiner (at rB in version 2, at tB in version 4),
so it could abort instead of answering a toss it dislikes. An abort therefore never earns a
re-toss: :meth:`CoinToss.abort` records who left and when, the match ends unfinished, and a
new match is a new session with its own toss (and the record shows the abort). The seed is
known to both programs, so a modified client could peek at a joint-seed deck;
docs/protocol.md states this known weakness.

>>> session = bytes(32)
>>> host, joiner = CoinToss(Role.HOST, session), CoinToss(Role.JOINER, session)
>>> answer = joiner.receive(host.start()[0])
>>> _ = joiner.receive(host.receive(answer[0])[0])
>>> host.result == joiner.result and host.result.first_oya in (0, 1)
True
>>> host, joiner = (CoinToss(role, session, cards_first=True) for role in Role)
>>> answer = joiner.receive(host.start()[0])
>>> _ = joiner.receive(host.receive(answer[0])[0])
>>> host.cards == joiner.cards and host.result is joiner.result is None
True
>>> _ = joiner.receive(host.receive(joiner.toss()[0])[0])
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
from koikoi.net.wire import Bytes, Fields, Record, decode_message, encode_message

RANDOM_LEN: Final = 32
SESSION_LEN: Final = 32
COMMIT_LABEL: Final = b"koikoi-net/1 commit\0"
OYA_LABEL: Final = b"koikoi-net/1 oya\0"
SEED_LABEL: Final = b"koikoi-net/1 seed\0"
TOSS_COMMIT_LABEL: Final = b"koikoi-net/4 toss commit\0"
"""Version 4: the host's commitment to its toss random ``tA`` (``ct``)."""
TOSS_OYA_LABEL: Final = b"koikoi-net/4 oya\0"
TOSS_SEED_LABEL: Final = b"koikoi-net/4 seed\0"

COMMIT = Record({"c": Bytes(32, 32)})
COMMIT_4 = Record({"c": Bytes(32, 32), "ct": Bytes(32, 32)})
"""Version 4: the commitment to ``rA`` (the cards) and to ``tA`` (the toss)."""
ANSWER = Record({"r": Bytes(RANDOM_LEN, RANDOM_LEN)})
REVEAL = Record({"r": Bytes(RANDOM_LEN, RANDOM_LEN)})
TOSS = Record({"r": Bytes(RANDOM_LEN, RANDOM_LEN)})
"""Version 4, both ways once both players confirmed the cards: the joiner's ``tB``, then the
host's ``tA``."""


def commitment(session: bytes, role: Role, secret: bytes) -> bytes:
    """What ``role`` commits to before revealing ``secret`` in ``session``."""
    return hashlib.sha256(COMMIT_LABEL + session + role.label + b"\0" + secret).digest()


def toss_commitment(session: bytes, host_toss: bytes) -> bytes:
    """Version 4's ``ct``: the host's commitment to its toss random ``tA``."""
    return hashlib.sha256(TOSS_COMMIT_LABEL + session + b"host\0" + host_toss).digest()


def first_oya(session: bytes, host_random: bytes, joiner_random: bytes, tosses: bytes = b"") -> int:
    """The seat (0 host, 1 joiner) of the first oya; ``tosses`` is version 4's ``tA ‖ tB``
    (empty: version 2)."""
    label = TOSS_OYA_LABEL if tosses else OYA_LABEL
    digest = hashlib.sha256(label + session + host_random + joiner_random + tosses).digest()
    return digest[0] & 1


def joint_seed(
    session: bytes, host_random: bytes, joiner_random: bytes, tosses: bytes = b""
) -> bytes:
    """The 32-byte match seed; each deal's deck is ``deck_from_seed(seed, round, deal)``;
    ``tosses`` is version 4's ``tA ‖ tB`` (empty: version 2)."""
    label = TOSS_SEED_LABEL if tosses else SEED_LABEL
    return hashlib.sha256(label + session + host_random + joiner_random + tosses).digest()


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
    toss_commitment: bytes = b""
    """Version 4: ``ct``, the host's commitment to ``host_toss`` (empty in version 2)."""
    host_toss: bytes = b""
    """Version 4: ``tA``."""
    joiner_toss: bytes = b""
    """Version 4: ``tB``."""


class TossPhase(Enum):
    START = "before the commitment"
    AWAIT_COMMIT = "waiting for the commitment"
    AWAIT_ANSWER = "after the commitment"
    AWAIT_REVEAL = "after the answer"
    CARDS = "while the four cards were compared"
    """Version 4: the cards are drawn, the outcome is not (both players compare them)."""
    TOSSED = "after the joiner's toss"
    """Version 4, the joiner's side: its ``tB`` went out, the host's ``tA`` is awaited (the
    host knows the outcome)."""
    DONE = "after the reveal"
    FAILED = "failed"
    ABORTED = "aborted"


@dataclass(frozen=True)
class TossAbort:
    """A toss that did not finish: who left, at which point, and why."""

    by: Role
    phase: TossPhase
    reason: str
    cards_first: bool = False
    """Version 4: the cards came before the outcome."""

    @property
    def suspicious(self) -> bool:
        """``by`` could know the outcome. Version 2: the host once it had the answer (the
        joiner's view after answering), either side once the toss was over (the host's reveal
        sent). Version 4: the host once it had the joiner's ``toss`` (the joiner's view after
        sending it), either side once the toss was over; never while the cards were compared.
        """
        if self.phase is TossPhase.DONE:
            return True
        knows = TossPhase.TOSSED if self.cards_first else TossPhase.AWAIT_REVEAL
        return self.by is Role.HOST and self.phase is knows

    def describe(self) -> str:
        phase = self.phase
        if phase is TossPhase.DONE and self.cards_first:
            line = f"the {self.by.value} left after the coin toss: {self.reason}"
        else:
            line = f"the {self.by.value} left the coin toss {phase.value}: {self.reason}"
        if self.suspicious:
            line += (
                " (it abandoned the toss after seeing the result, which it already knew; "
                "no re-toss is granted)"
            )
        return line


class CoinToss:
    """One side of the toss; feed it the peer's (decrypted) messages in order.

    ``secret`` fixes this side's random contribution to the cards (``rA`` or ``rB``) and
    ``toss_secret`` its toss random (``tA`` or ``tB``, version 4), tests only (default
    ``os.urandom``). ``cards_first``: protocol version 4, the cards are drawn at the reveal
    and the outcome only at the ``toss`` exchange (:meth:`toss`), which the session starts
    once both players confirmed the cards. A toss runs once: after :meth:`abort`, a failure
    or the result, it accepts nothing more.
    """

    def __init__(
        self,
        role: Role,
        session: bytes,
        *,
        secret: bytes | None = None,
        toss_secret: bytes | None = None,
        cards_first: bool = False,
    ) -> None:
        if len(session) != SESSION_LEN:
            raise ValueError(f"session is the {SESSION_LEN}-byte handshake hash")
        self.role = role
        self.session = session
        self.cards_first = cards_first
        self._secret = secret if secret is not None else os.urandom(RANDOM_LEN)
        if len(self._secret) != RANDOM_LEN or len(toss_secret or bytes(RANDOM_LEN)) != RANDOM_LEN:
            raise ValueError(f"secret must be {RANDOM_LEN} bytes")
        self._toss = toss_secret or b""
        """``tA``: drawn as the host commits; ``tB``: drawn fresh as the joiner sends it."""
        self.phase = TossPhase.START if role is Role.HOST else TossPhase.AWAIT_COMMIT
        self.result: TossResult | None = None
        self.cards: tuple[str, str, str, str] | None = None
        """The four cards, once drawn (with the result in version 2, before it in 4)."""
        self.aborted: TossAbort | None = None
        self._commitment = b""
        self._toss_commitment = b""
        self._randoms = (b"", b"")
        self._failed_in = TossPhase.FAILED
        """Where the toss was when the peer's message failed (for :meth:`abort`)."""

    def expected(self) -> dict[str, Record]:
        """The toss message this side takes now (none: {})."""
        phase = self.phase
        if phase is TossPhase.AWAIT_COMMIT:
            return {"commit": COMMIT_4 if self.cards_first else COMMIT}
        if phase is TossPhase.AWAIT_ANSWER:
            return {"answer": ANSWER}
        if phase is TossPhase.AWAIT_REVEAL:
            return {"reveal": REVEAL}
        if phase is TossPhase.TOSSED or (phase is TossPhase.CARDS and self.role is Role.HOST):
            return {"toss": TOSS}
        return {}

    def start(self) -> list[bytes]:
        """The host's commitment; nothing for the joiner, who waits for it."""
        if self.role is Role.JOINER:
            self._expect(TossPhase.AWAIT_COMMIT)
            return []
        self._expect(TossPhase.START)
        self._commitment = commitment(self.session, Role.HOST, self._secret)
        self.phase = TossPhase.AWAIT_ANSWER
        if self.cards_first:
            self._toss = self._toss or os.urandom(RANDOM_LEN)
            self._toss_commitment = toss_commitment(self.session, self._toss)
            return [encode_message("commit", c=self._commitment, ct=self._toss_commitment)]
        return [encode_message("commit", c=self._commitment)]

    def toss(self) -> list[bytes]:
        """Version 4, the joiner: both players confirmed the cards, its ``tB`` goes out."""
        if self.role is not Role.JOINER or not self.cards_first:
            raise ProtocolError("only a version-4 joiner starts the toss")
        self._expect(TossPhase.CARDS)
        self.phase = TossPhase.TOSSED
        self._toss = self._toss or os.urandom(RANDOM_LEN)  # fresh, after both confirmed
        return [encode_message("toss", r=self._toss)]

    def receive(self, payload: bytes) -> list[bytes]:
        """Process the peer's next toss message; returns what to send back."""
        expected = self.expected()
        if not expected:
            raise ProtocolError(f"no coin toss message is expected now ({self.phase.value})")
        try:
            return self._step(decode_message(payload, expected).fields)
        except ProtocolError:
            self._failed_in = self.phase
            self.phase = TossPhase.FAILED
            raise

    def _step(self, fields: Fields) -> list[bytes]:
        phase = self.phase
        if phase is TossPhase.AWAIT_COMMIT:
            self._commitment = fields.get("c", bytes)
            if self.cards_first:
                self._toss_commitment = fields.get("ct", bytes)
            self.phase = TossPhase.AWAIT_REVEAL
            return [encode_message("answer", r=self._secret)]
        if phase is TossPhase.AWAIT_ANSWER:
            self._drawn(self._secret, fields.get("r", bytes))
            return [encode_message("reveal", r=self._secret)]
        if phase is TossPhase.AWAIT_REVEAL:
            host_random = fields.get("r", bytes)
            expected = commitment(self.session, Role.HOST, host_random)
            if not hmac.compare_digest(expected, self._commitment):
                raise CheatDetected(
                    "cheat: the host's coin-toss reveal does not match its commitment",
                    "host reveal",
                )
            self._drawn(host_random, self._secret)
            return []
        if phase is TossPhase.CARDS:  # the host: the joiner's tB, answered with tA
            self._finish(self._toss, fields.get("r", bytes))
            return [encode_message("toss", r=self._toss)]
        host_toss = fields.get("r", bytes)  # the joiner: the host's tA
        if not hmac.compare_digest(toss_commitment(self.session, host_toss), self._toss_commitment):
            raise CheatDetected(
                "cheat: the host's toss does not match its commitment (ct)", "host toss"
            )
        self._finish(host_toss, self._toss)
        return []

    def _drawn(self, host_random: bytes, joiner_random: bytes) -> None:
        """The reveal: the four cards are drawn (and, in version 2, the outcome)."""
        self._randoms = (host_random, joiner_random)
        self.cards = sas_cards(self.session, host_random, joiner_random)
        if self.cards_first:
            self.phase = TossPhase.CARDS
        else:
            self._finish(b"", b"")

    def _finish(self, host_toss: bytes, joiner_toss: bytes) -> None:
        host_random, joiner_random = self._randoms
        tosses = host_toss + joiner_toss
        assert self.cards is not None
        self.result = TossResult(
            first_oya=first_oya(self.session, host_random, joiner_random, tosses),
            seed=joint_seed(self.session, host_random, joiner_random, tosses),
            commitment=self._commitment,
            host_random=host_random,
            joiner_random=joiner_random,
            cards=self.cards,
            toss_commitment=self._toss_commitment,
            host_toss=host_toss,
            joiner_toss=joiner_toss,
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
            self.aborted = TossAbort(by, phase, reason, self.cards_first)
        self.phase = TossPhase.ABORTED
        return self.aborted

    def _expect(self, phase: TossPhase) -> None:
        if self.phase is not phase:
            raise ProtocolError(f"the coin toss cannot start now ({self.phase.value})")
