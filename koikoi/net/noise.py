"""The Noise Protocol Framework (rev. 34) for the suite ``25519_ChaChaPoly_SHA256``.

:class:`CipherState`, :class:`SymmetricState` and :class:`HandshakeState` follow section 5 of
the specification name for name. koikoi plays ``Noise_XXpsk3_25519_ChaChaPoly_SHA256``; the
other fundamental patterns and their ``psk`` variants come for free from the same token
machinery, and the published test vectors exercise them all.

All primitives come from ``cryptography``. Rekey is not implemented (a match is far shorter
than 2**64 messages).

>>> from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
>>> psk = bytes(32)
>>> i = HandshakeState("Noise_XXpsk3_25519_ChaChaPoly_SHA256", initiator=True,
...                    s=X25519PrivateKey.generate(), psks=[psk])
>>> r = HandshakeState("Noise_XXpsk3_25519_ChaChaPoly_SHA256", initiator=False,
...                    s=X25519PrivateKey.generate(), psks=[psk])
>>> r.read_message(i.write_message(b""))
b''
>>> i.read_message(r.write_message(b"hi"))
b'hi'
>>> r.read_message(i.write_message(b"")) == b"" and i.finished and r.finished
True
>>> i.handshake_hash == r.handshake_hash
True
>>> i_send, i_recv = i.split()
>>> r_recv, r_send = r.split()
>>> r_recv.decrypt_with_ad(b"", i_send.encrypt_with_ad(b"", b"koi"))
b'koi'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from koikoi.net.errors import DecryptError, NoiseError

DHLEN: Final = 32
HASHLEN: Final = 32
KEYLEN: Final = 32
TAGLEN: Final = 16
PSKLEN: Final = 32
MAX_MESSAGE_LEN: Final = 65535
"""No Noise message, handshake or transport, may be longer (spec section 3)."""
MAX_NONCE: Final = 2**64 - 1
"""Reserved by the spec: a CipherState refuses to use it."""

SUITE: Final = "25519_ChaChaPoly_SHA256"

# Fundamental patterns (spec sections 7.4 and 7.5): pre-messages of the initiator and the
# responder, then the message patterns, alternating from the initiator.
_PATTERNS: Final[
    dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]]
] = {
    "N": ((), ("s",), (("e", "es"),)),
    "K": (("s",), ("s",), (("e", "es", "ss"),)),
    "X": ((), ("s",), (("e", "es", "s", "ss"),)),
    "NN": ((), (), (("e",), ("e", "ee"))),
    "NK": ((), ("s",), (("e", "es"), ("e", "ee"))),
    "NX": ((), (), (("e",), ("e", "ee", "s", "es"))),
    "XN": ((), (), (("e",), ("e", "ee"), ("s", "se"))),
    "XK": ((), ("s",), (("e", "es"), ("e", "ee"), ("s", "se"))),
    "XX": ((), (), (("e",), ("e", "ee", "s", "es"), ("s", "se"))),
    "KN": (("s",), (), (("e",), ("e", "ee", "se"))),
    "KK": (("s",), ("s",), (("e", "es", "ss"), ("e", "ee", "se"))),
    "KX": (("s",), (), (("e",), ("e", "ee", "se", "s", "es"))),
    "IN": ((), (), (("e", "s"), ("e", "ee", "se"))),
    "IK": ((), ("s",), (("e", "es", "s", "ss"), ("e", "ee", "se"))),
    "IX": ((), (), (("e", "s"), ("e", "ee", "se", "s", "es"))),
}
_T = TypeVar("_T")
_ONE_WAY: Final = frozenset({"N", "K", "X"})
_NAME = re.compile(r"Noise_([A-Z]+)((?:psk\d)(?:\+psk\d)*)?_(.+)")


@dataclass(frozen=True)
class Pattern:
    """A parsed handshake pattern: token lists per message, with psk modifiers applied."""

    name: str
    initiator_pre: tuple[str, ...]
    responder_pre: tuple[str, ...]
    messages: tuple[tuple[str, ...], ...]
    one_way: bool

    @property
    def psk_count(self) -> int:
        return sum(message.count("psk") for message in self.messages)

    @classmethod
    def from_protocol_name(cls, protocol_name: str) -> Pattern:
        """Parse ``Noise_<pattern>[pskN[+pskM]]_25519_ChaChaPoly_SHA256``."""
        match = _NAME.fullmatch(protocol_name)
        if match is None or match.group(3) != SUITE or match.group(1) not in _PATTERNS:
            raise NoiseError(f"unsupported Noise protocol {protocol_name!r}")
        base, modifiers = match.group(1), match.group(2) or ""
        initiator_pre, responder_pre, base_messages = _PATTERNS[base]
        messages = [list(m) for m in base_messages]
        for modifier in filter(None, modifiers.split("+")):
            position = int(modifier[3:])
            if position > len(messages):
                raise NoiseError(f"{modifier} is beyond the last message of {base}")
            if position == 0:
                messages[0].insert(0, "psk")
            else:
                messages[position - 1].append("psk")
        return cls(
            name=protocol_name,
            initiator_pre=initiator_pre,
            responder_pre=responder_pre,
            messages=tuple(tuple(m) for m in messages),
            one_way=base in _ONE_WAY,
        )


def _hash(data: bytes) -> bytes:
    digest = hashes.Hash(hashes.SHA256())
    digest.update(data)
    return digest.finalize()


def _hkdf(chaining_key: bytes, input_key_material: bytes, outputs: int) -> list[bytes]:
    # Noise's HKDF is RFC 5869 with the chaining key as salt and an empty info.
    okm = HKDF(
        algorithm=hashes.SHA256(), length=HASHLEN * outputs, salt=chaining_key, info=b""
    ).derive(input_key_material)
    return [okm[i * HASHLEN : (i + 1) * HASHLEN] for i in range(outputs)]


def _public_bytes(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


def _dh(private: X25519PrivateKey, public: bytes) -> bytes:
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError as error:  # wrong length, or a low-order point giving all zeros
        raise NoiseError(f"invalid X25519 public key: {error}") from None


class CipherState:
    """A key and a nonce: authenticated encryption of transport and handshake payloads."""

    def __init__(self, key: bytes | None = None) -> None:
        self._aead: ChaCha20Poly1305 | None = None
        self.n = 0
        self.initialize_key(key)

    def initialize_key(self, key: bytes | None) -> None:
        if key is not None and len(key) != KEYLEN:
            raise NoiseError(f"a cipher key is {KEYLEN} bytes, not {len(key)}")
        self._aead = None if key is None else ChaCha20Poly1305(key)
        self.n = 0

    def has_key(self) -> bool:
        return self._aead is not None

    def set_nonce(self, nonce: int) -> None:
        self.n = nonce

    def _nonce(self) -> bytes:
        if self.n >= MAX_NONCE:
            raise NoiseError("nonce exhausted: the session must end")
        return bytes(4) + self.n.to_bytes(8, "little")

    def encrypt_with_ad(self, ad: bytes, plaintext: bytes) -> bytes:
        if self._aead is None:
            return plaintext
        ciphertext = self._aead.encrypt(self._nonce(), plaintext, ad)
        self.n += 1
        return ciphertext

    def decrypt_with_ad(self, ad: bytes, ciphertext: bytes) -> bytes:
        """Decrypt, or raise :class:`DecryptError` leaving the nonce unchanged."""
        if self._aead is None:
            return ciphertext
        try:
            plaintext = self._aead.decrypt(self._nonce(), ciphertext, ad)
        except InvalidTag:
            raise DecryptError("ciphertext did not authenticate") from None
        self.n += 1
        return plaintext


class SymmetricState:
    """The chaining key and handshake hash, with the CipherState they key."""

    def __init__(self, protocol_name: str) -> None:
        name = protocol_name.encode("ascii")
        self.h = name.ljust(HASHLEN, b"\0") if len(name) <= HASHLEN else _hash(name)
        self.ck = self.h
        self.cipher = CipherState()

    def mix_key(self, input_key_material: bytes) -> None:
        self.ck, temp_k = _hkdf(self.ck, input_key_material, 2)
        self.cipher.initialize_key(temp_k)

    def mix_hash(self, data: bytes) -> None:
        self.h = _hash(self.h + data)

    def mix_key_and_hash(self, input_key_material: bytes) -> None:
        self.ck, temp_h, temp_k = _hkdf(self.ck, input_key_material, 3)
        self.mix_hash(temp_h)
        self.cipher.initialize_key(temp_k)

    def get_handshake_hash(self) -> bytes:
        return self.h

    def encrypt_and_hash(self, plaintext: bytes) -> bytes:
        ciphertext = self.cipher.encrypt_with_ad(self.h, plaintext)
        self.mix_hash(ciphertext)
        return ciphertext

    def decrypt_and_hash(self, ciphertext: bytes) -> bytes:
        plaintext = self.cipher.decrypt_with_ad(self.h, ciphertext)
        self.mix_hash(ciphertext)
        return plaintext

    def split(self) -> tuple[CipherState, CipherState]:
        temp_k1, temp_k2 = _hkdf(self.ck, b"", 2)
        return CipherState(temp_k1), CipherState(temp_k2)


PayloadFactory = Callable[[bytes], bytes]
"""Builds a payload from the handshake hash as it stands when the payload is encrypted."""


class HandshakeState:
    """One side of a Noise handshake: ``write_message`` and ``read_message`` in turn.

    ``e`` injects an ephemeral key (test vectors only); ``rs`` and ``re`` are the peer's public
    keys known in advance (pre-messages); ``psks`` are consumed in order by ``psk`` tokens.
    After the last message, :attr:`finished` is true and :meth:`split` gives the transport
    CipherStates (initiator-to-responder first, as in the spec).
    """

    def __init__(
        self,
        protocol_name: str,
        *,
        initiator: bool,
        prologue: bytes = b"",
        s: X25519PrivateKey | None = None,
        e: X25519PrivateKey | None = None,
        rs: bytes | None = None,
        re: bytes | None = None,
        psks: Sequence[bytes] = (),
    ) -> None:
        self.pattern = Pattern.from_protocol_name(protocol_name)
        if len(psks) != self.pattern.psk_count:
            raise NoiseError(
                f"{protocol_name} needs {self.pattern.psk_count} PSKs, got {len(psks)}"
            )
        if any(len(psk) != PSKLEN for psk in psks):
            raise NoiseError(f"a PSK is {PSKLEN} bytes")
        self.initiator = initiator
        self.s, self.e, self.rs, self.re = s, e, rs, re
        self._psks = list(psks)
        self._is_psk = self.pattern.psk_count > 0
        self._symmetric = SymmetricState(protocol_name)
        self._symmetric.mix_hash(prologue)
        self._message_index = 0
        self.payload_hash = b""
        """The handshake hash used as associated data for the last payload written or read."""

        # Pre-messages: the initiator's keys first, whichever side we are.
        for owner_is_initiator, tokens in (
            (True, self.pattern.initiator_pre),
            (False, self.pattern.responder_pre),
        ):
            mine = owner_is_initiator == initiator
            for token in tokens:
                if token == "s":
                    key = _public_bytes(self._need(s, "s")) if mine else self._need(rs, "rs")
                elif token == "e":
                    key = _public_bytes(self._need(e, "e")) if mine else self._need(re, "re")
                else:
                    raise NoiseError(f"bad pre-message token {token!r}")
                self._symmetric.mix_hash(key)
                if token == "e" and self._is_psk:
                    self._symmetric.mix_key(key)

    @staticmethod
    def _need(value: _T | None, what: str) -> _T:
        if value is None:
            raise NoiseError(f"the handshake pattern needs the key {what}")
        return value

    @property
    def finished(self) -> bool:
        return self._message_index >= len(self.pattern.messages)

    @property
    def handshake_hash(self) -> bytes:
        """The transcript hash h (final once :attr:`finished`): a session identifier."""
        return self._symmetric.get_handshake_hash()

    def is_my_turn(self) -> bool:
        return not self.finished and (self._message_index % 2 == 0) == self.initiator

    def _next_tokens(self, writing: bool) -> tuple[str, ...]:
        if self.finished:
            raise NoiseError("the handshake is already finished")
        if self.is_my_turn() != writing:
            turn = "ours" if self.is_my_turn() else "the peer's"
            raise NoiseError(f"handshake message out of turn (it is {turn} to write)")
        return self.pattern.messages[self._message_index]

    def _dh_token(self, token: str) -> bytes:
        # The first letter names the initiator's key, the second the responder's.
        initiator_key, responder_key = token[0], token[1]
        local, remote = (
            (initiator_key, responder_key) if self.initiator else (responder_key, initiator_key)
        )
        private = self._need(self.e if local == "e" else self.s, local)
        public = self._need(self.re if remote == "e" else self.rs, "r" + remote)
        return _dh(private, public)

    def write_message(self, payload: bytes | PayloadFactory) -> bytes:
        """The next handshake message carrying ``payload`` (or ``payload(h)``)."""
        symmetric = self._symmetric
        out = bytearray()
        for token in self._next_tokens(writing=True):
            if token == "e":
                if self.e is None:
                    self.e = X25519PrivateKey.generate()
                public = _public_bytes(self.e)
                out += public
                symmetric.mix_hash(public)
                if self._is_psk:
                    symmetric.mix_key(public)
            elif token == "s":
                out += symmetric.encrypt_and_hash(_public_bytes(self._need(self.s, "s")))
            elif token == "psk":
                symmetric.mix_key_and_hash(self._psks.pop(0))
            else:
                symmetric.mix_key(self._dh_token(token))
        self.payload_hash = symmetric.get_handshake_hash()
        body = payload(self.payload_hash) if callable(payload) else payload
        out += symmetric.encrypt_and_hash(body)
        if len(out) > MAX_MESSAGE_LEN:
            raise NoiseError(f"handshake message of {len(out)} bytes exceeds {MAX_MESSAGE_LEN}")
        self._message_index += 1
        return bytes(out)

    def read_message(self, message: bytes) -> bytes:
        """Process the peer's next handshake message and return its payload.

        Raises :class:`DecryptError` when an encrypted part does not authenticate, and
        :class:`NoiseError` for any other malformed message. The state must not be used again
        after an error.
        """
        if len(message) > MAX_MESSAGE_LEN:
            raise NoiseError(f"handshake message of {len(message)} bytes exceeds {MAX_MESSAGE_LEN}")
        symmetric = self._symmetric
        view = memoryview(message)
        for token in self._next_tokens(writing=False):
            if token == "e":
                if len(view) < DHLEN:
                    raise NoiseError("handshake message too short for an ephemeral key")
                self.re = bytes(view[:DHLEN])
                view = view[DHLEN:]
                symmetric.mix_hash(self.re)
                if self._is_psk:
                    symmetric.mix_key(self.re)
            elif token == "s":
                size = DHLEN + TAGLEN if symmetric.cipher.has_key() else DHLEN
                if len(view) < size:
                    raise NoiseError("handshake message too short for a static key")
                self.rs = symmetric.decrypt_and_hash(bytes(view[:size]))
                view = view[size:]
            elif token == "psk":
                symmetric.mix_key_and_hash(self._psks.pop(0))
            else:
                symmetric.mix_key(self._dh_token(token))
        self.payload_hash = symmetric.get_handshake_hash()
        if symmetric.cipher.has_key() and len(view) < TAGLEN:
            raise NoiseError("handshake message too short for its payload tag")
        payload = symmetric.decrypt_and_hash(bytes(view))
        self._message_index += 1
        return payload

    def split(self) -> tuple[CipherState, CipherState]:
        """``(initiator_to_responder, responder_to_initiator)`` once the handshake is finished."""
        if not self.finished:
            raise NoiseError("the handshake is not finished")
        return self._symmetric.split()
