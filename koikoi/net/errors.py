"""The typed errors of the network layer.

Every failure a peer can cause is a :class:`ProtocolError` (a ``ValueError``) whose ``str`` is
one clear line fit to show the user: the transport closes the connection and shows it, never a
traceback. Subclasses name the failures the UI treats differently (a changed identity offers an
explicit accept; a cheat is written into the record).
"""

from __future__ import annotations


class ProtocolError(ValueError):
    """The peer sent something koikoi-net/1 does not allow; the session must end."""


class NoiseError(ProtocolError):
    """A Noise handshake or transport step failed (bad key, bad message, decryption)."""


class DecryptError(NoiseError):
    """A Noise ciphertext did not authenticate: wrong key, or the bytes were changed."""


class HandshakeError(ProtocolError):
    """The handshake failed; ``farewell`` is a frame payload to send the peer before closing.

    The farewell tells the peer why (a ``refuse`` message, or our hello so it can see the
    mismatch itself); it is ``None`` when there is nothing useful to say.
    """

    def __init__(self, reason: str, farewell: bytes | None = None) -> None:
        super().__init__(reason)
        self.farewell = farewell


class UnexpectedMessage(HandshakeError):
    """A malformed, replayed, reordered or foreign message during the handshake."""


class VersionMismatch(HandshakeError):
    """The peer speaks another protocol version."""


class SettingsMismatch(HandshakeError):
    """The match settings differ; ``differs`` names them (``"rounds"``, ``"doubling"``)."""

    def __init__(
        self, reason: str, differs: tuple[str, ...], farewell: bytes | None = None
    ) -> None:
        super().__init__(reason, farewell)
        self.differs = differs


class RoomMismatch(HandshakeError):
    """One side has a password and the other does not (private room versus open room)."""


class AuthenticationFailed(HandshakeError):
    """A handshake message did not decrypt: a wrong password, or the bytes were tampered with."""


class BadSignature(HandshakeError):
    """The peer's identity signature over its Noise key or over the settings does not verify."""


class IdentityChanged(HandshakeError):
    """The peer's identity key differs from the one pinned for its name (trust on first use).

    The UI shows a loud warning with both fingerprints; only an explicit user decision may
    re-pin (``KnownPeers.accept(error.name, error.new_key)``) before connecting again.
    """

    def __init__(
        self,
        reason: str,
        name: str,
        old_key: bytes,
        new_key: bytes,
        farewell: bytes | None = None,
    ) -> None:
        super().__init__(reason, farewell)
        self.name = name
        self.old_key = old_key
        self.new_key = new_key


class PeerRefused(HandshakeError):
    """The peer ended the handshake and said why (``reason`` is its code)."""

    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason)
        self.code = code


class CheatDetected(ProtocolError):
    """The peer's reveal does not match its commitment; ``what`` names what lied."""

    def __init__(self, reason: str, what: str) -> None:
        super().__init__(reason)
        self.what = what


class IdentityFileError(ValueError):
    """The local identity key or pinned-peers file is unreadable; it is never overwritten."""
