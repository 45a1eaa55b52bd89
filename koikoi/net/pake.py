"""Password rooms: a SPAKE2 exchange whose key becomes the Noise pre-shared key.

A password stretched straight into a PSK would let anyone holding one captured handshake
test guesses offline. SPAKE2 (the ``spake2`` package, Ed25519 group) allows one online guess
per connection and nothing offline; its 32-byte key goes through HKDF into the ``psk`` of
``Noise_XXpsk3``, so a wrong password shows up as a handshake message that does not decrypt.

Roles are asymmetric (SPAKE2 "A" is the host, "B" the joiner, with the identities
``koikoi-net/1 host`` and ``koikoi-net/1 joiner``): the roles are fixed by who listens, and
the side byte stops a message being reflected back at its sender.

Open rooms run the same message flow with an empty PAKE message and the PSK of 32 zero bytes
(the hello's ``private`` flag already says which kind of room it is, so nothing is hidden by
sending a dummy element, and the open path skips the 10 ms of pure-Python group arithmetic).

>>> host, joiner = Pake(Role.HOST, "sakura"), Pake(Role.JOINER, "sakura")
>>> host_message, joiner_message = host.message, joiner.message
>>> host.finish(joiner_message) == joiner.finish(host_message)
True
>>> Pake(Role.HOST, "").finish(b"") == OPEN_ROOM_PSK
True
"""

from __future__ import annotations

import unicodedata
from typing import Final

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B  # type: ignore[import-untyped]
from spake2.ed25519_basic import NotOnCurve  # type: ignore[import-untyped]
from spake2.spake2 import SPAKEError  # type: ignore[import-untyped]

from koikoi.net.errors import ProtocolError
from koikoi.net.roles import Role

OPEN_ROOM_PSK: Final = bytes(32)
PAKE_MESSAGE_LEN: Final = 33
"""A SPAKE2 message: the side byte (``A`` or ``B``) and a 32-byte Ed25519 group element."""
_ID_HOST: Final = b"koikoi-net/1 host"
_ID_JOINER: Final = b"koikoi-net/1 joiner"
_PSK_INFO: Final = b"koikoi-net/1 psk"


def password_bytes(password: str) -> bytes:
    """The password as both sides must type it: NFKC-normalized UTF-8 (no trimming)."""
    return unicodedata.normalize("NFKC", password).encode("utf-8")


def psk_from_pake_key(key: bytes) -> bytes:
    """HKDF-SHA256 of the SPAKE2 key (empty salt, info ``koikoi-net/1 psk``), 32 bytes."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_PSK_INFO).derive(key)


class Pake:
    """One side of the password exchange: send :attr:`message`, :meth:`finish` with the peer's.

    An empty password means an open room: the message is empty and the PSK is zeros.
    """

    def __init__(self, role: Role, password: str) -> None:
        self.role = role
        self.private = password != ""
        self._finished = False
        self._spake: SPAKE2_A | SPAKE2_B | None = None
        if self.private:
            kind = SPAKE2_A if role is Role.HOST else SPAKE2_B
            self._spake = kind(password_bytes(password), idA=_ID_HOST, idB=_ID_JOINER)
            self.message: bytes = self._spake.start()
        else:
            self.message = b""

    def finish(self, peer_message: bytes) -> bytes:
        """The 32-byte Noise PSK. A wrong password is not detected here but by Noise."""
        if self._finished:
            raise ProtocolError("the PAKE exchange is already finished")
        self._finished = True
        if self._spake is None:
            if peer_message:
                raise ProtocolError("PAKE message in an open room")
            return OPEN_ROOM_PSK
        expected_side = b"B" if self.role is Role.HOST else b"A"
        if len(peer_message) != PAKE_MESSAGE_LEN or peer_message[:1] != expected_side:
            raise ProtocolError(
                f"malformed PAKE message (expected {PAKE_MESSAGE_LEN} bytes from side "
                f"{expected_side.decode()})"
            )
        try:
            key: bytes = self._spake.finish(peer_message)
        except (SPAKEError, NotOnCurve, ValueError):
            raise ProtocolError("malformed PAKE message (not a valid group element)") from None
        return psk_from_pake_key(key)
