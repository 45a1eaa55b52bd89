"""The typed errors of the network layer.

Every failure a peer can cause is a :class:`ProtocolError` (a ``ValueError``) whose ``str`` is
one clear line fit to show the user: the transport closes the connection and shows it, never a
traceback. Subclasses name the failures the UI treats differently (a changed identity offers an
explicit accept; a cheat is written into the record).

The ``str`` is English, for the CLI and the logs. The window words a failure in the player's
language from :attr:`ProtocolError.error_code` (one per class, or finer where raised:
``ProtocolError(..., code="timeout", seconds="15")``) and :attr:`ProtocolError.params`.

>>> e = ProtocolError("the peer did not finish the handshake within 15 s", code="timeout",
...                   seconds=15)
>>> e.error_code, e.params, str(e)
('timeout', {'seconds': '15'}, 'the peer did not finish the handshake within 15 s')
>>> PeerRefused("the peer refused: it is already playing", "busy").error_code
'refused.busy'
"""

from __future__ import annotations

from typing import ClassVar


class ProtocolError(ValueError):
    """The peer sent something koikoi-net/2 does not allow; the session must end."""

    error_code: str
    default_code: ClassVar[str] = "protocol"

    def __init__(self, reason: str = "", *, code: str | None = None, **params: object) -> None:
        super().__init__(reason)
        self.error_code = code or self.default_code
        """What failed, for the UI to word it (``timeout``, ``auth``, ``refused.busy``, …)."""
        self.params = {key: str(value) for key, value in params.items()}
        """The sentence's named parts (``seconds``, ``what``, ``name``…), as text."""


class NoiseError(ProtocolError):
    """A Noise handshake or transport step failed (bad key, bad message, decryption)."""

    default_code = "noise"


class DecryptError(NoiseError):
    """A Noise ciphertext did not authenticate: wrong key, or the bytes were changed."""

    default_code = "decrypt"


class HandshakeError(ProtocolError):
    """The handshake failed; ``farewell`` is a frame payload to send the peer before closing.

    The farewell tells the peer why (a ``refuse`` message, or our hello so it can see the
    mismatch itself); it is ``None`` when there is nothing useful to say.
    """

    default_code = "handshake"

    def __init__(
        self,
        reason: str,
        farewell: bytes | None = None,
        *,
        code: str | None = None,
        **params: object,
    ) -> None:
        super().__init__(reason, code=code, **params)
        self.farewell = farewell


class UnexpectedMessage(HandshakeError):
    """A malformed, replayed, reordered or foreign message during the handshake."""

    default_code = "unexpected"


class VersionMismatch(HandshakeError):
    """The peer speaks another protocol version."""

    default_code = "version"


class SettingsMismatch(HandshakeError):
    """The match settings differ; ``differs`` names them (``"rounds"``, ``"doubling"``)."""

    default_code = "settings"

    def __init__(
        self, reason: str, differs: tuple[str, ...], farewell: bytes | None = None
    ) -> None:
        super().__init__(reason, farewell, differs=",".join(differs))
        self.differs = differs


class RoomMismatch(HandshakeError):
    """One side has a password and the other does not (private room versus open room)."""

    default_code = "room"


class DealingRefused(HandshakeError):
    """No dealing kind both sides allow (docs/protocol.md, "Version 3: the dealing
    negotiated"); ``why`` says whose offer was the narrow one: ``seed`` (the peer offers only
    joint-seed dealing, this side deals privately only) or ``private`` (the peer deals
    privately only, this side offers only the joint seed). Code ``dealing.seed`` or
    ``dealing.private``."""

    default_code = "dealing"

    def __init__(self, reason: str, why: str, farewell: bytes | None = None) -> None:
        super().__init__(reason, farewell, code=f"dealing.{why}")
        self.why = why


class AuthenticationFailed(HandshakeError):
    """A handshake message did not decrypt: a wrong password, or the bytes were tampered with."""

    default_code = "auth"


class BadSignature(HandshakeError):
    """The peer's identity signature over its Noise key or over the settings does not verify."""

    default_code = "signature"


class IdentityChanged(HandshakeError):
    """The peer's identity key differs from the one pinned for its name (trust on first use).

    The UI shows a loud warning with both fingerprints; only an explicit user decision may
    re-pin (``KnownPeers.accept(error.name, error.new_key)``) before connecting again.
    """

    default_code = "identity"

    def __init__(
        self,
        reason: str,
        name: str,
        old_key: bytes,
        new_key: bytes,
        farewell: bytes | None = None,
    ) -> None:
        super().__init__(reason, farewell, name=name)
        self.name = name
        self.old_key = old_key
        self.new_key = new_key


class NotTheCodedHost(HandshakeError):
    """Joined by a join code, the host's identity is not the one the code names
    (docs/protocol.md, "Join code"): another program answered at the code's address."""

    default_code = "code_identity"


class PeerRefused(HandshakeError):
    """The peer ended the handshake and said why (``reason`` is its code)."""

    default_code = "refused"

    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason, code=f"refused.{code}")
        self.code = code


class CheatDetected(ProtocolError):
    """The peer's reveal does not match its commitment; ``what`` names what lied."""

    default_code = "cheat"

    def __init__(self, reason: str, what: str) -> None:
        super().__init__(reason, what=what)
        self.what = what


class IdentityFileError(ValueError):
    """The local identity key or pinned-peers file is unreadable; it is never overwritten."""
