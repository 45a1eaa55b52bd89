"""The koikoi-net/1 handshake as a sans-I/O state machine (docs/protocol.md, "Handshake").

Feed each received frame payload to :meth:`Handshake.receive` and send back every payload it
returns, in order; the joiner first sends what :meth:`Handshake.start` returns. Once
:attr:`Handshake.result` is set, the connection carries Noise transport messages with the
:class:`Established` CipherStates. Any failure raises a
:class:`~koikoi.net.errors.HandshakeError` with a one-line reason; send its ``farewell`` (if
any) before closing, so the peer learns why.

Message order (joiner = Noise initiator, host = Noise responder)::

    joiner -> host    hello      clear: version, nickname, settings, private flag, PAKE message
    host   -> joiner  hello      the same, the host's
    joiner -> host    noise1     Noise XXpsk3 message 1: e
    host   -> joiner  noise2     message 2: e, ee, s, es + the host's auth payload
    joiner -> host    noise3     message 3: s, se, psk + the joiner's auth payload
    host   -> joiner  (ready)    first transport message: the host accepted, and signed the
                                 session id (the hash the joiner signed in noise3)

>>> from koikoi.engine.match import Settings
>>> from koikoi.net.identity import Identity, KnownPeers
>>> def side(role: Role, name: str) -> Handshake:
...     return Handshake(role, identity=Identity.generate(), nickname=name,
...                      settings=Settings(rounds=6, doubling=True), password="",
...                      known_peers=KnownPeers(None))
>>> host, joiner = side(Role.HOST, "hana"), side(Role.JOINER, "taro")
>>> to_host = joiner.start()
>>> while to_host:
...     to_joiner = [out for msg in to_host for out in host.receive(msg)]
...     to_host = [out for msg in to_joiner for out in joiner.receive(msg)]
>>> host.result.peer.nickname, joiner.result.peer.nickname
('taro', 'hana')
>>> host.result.handshake_hash == joiner.result.handshake_hash
True
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum
from typing import Final

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from koikoi.engine.match import Settings
from koikoi.net.errors import (
    AuthenticationFailed,
    BadSignature,
    DealingRefused,
    DecryptError,
    HandshakeError,
    IdentityChanged,
    NoiseError,
    NotTheCodedHost,
    PeerRefused,
    ProtocolError,
    RoomMismatch,
    SettingsMismatch,
    UnexpectedMessage,
    VersionMismatch,
)
from koikoi.net.hello import (
    DEALINGS,
    HELLO,
    HELLO_PRIVATE,
    MAX_NICKNAME,
    NEWEST_VERSION,
    PRIVATE_VERSION,
    PROTOCOL_VERSION,
    RETIRED_VERSIONS,
    VERSIONS,
    Dealing,
    agreed_dealing,
    clock_of,
    clock_wire,
    dealing_refused_text,
    describe_setting,
    downgraded_answer_text,
    normal_nickname,
    settings_differences,
    settings_wire,
    version_mismatch_text,
)
from koikoi.net.identity import (
    Identity,
    KnownPeers,
    PinCheck,
    PinStatus,
    fingerprint,
    mixed_scripts,
    verify_signature,
)
from koikoi.net.noise import CipherState, HandshakeState
from koikoi.net.pake import Pake
from koikoi.net.roles import Role
from koikoi.net.session.clock import DEFAULT_CLOCK, ClockSetting
from koikoi.net.wire import (
    Bytes,
    Fields,
    Message,
    OneOf,
    Record,
    Str,
    Value,
    decode_message,
    encode_message,
    unpack,
)

logger = logging.getLogger(__name__)


NOISE_PROTOCOL: Final = "Noise_XXpsk3_25519_ChaChaPoly_SHA256"

PROLOGUE_LABEL: Final = b"koikoi-net/1 prologue\0"
STATIC_KEY_LABEL: Final = b"koikoi-net/1 noise-static-key:"
SETTINGS_LABEL: Final = b"koikoi-net/1 settings\0"

REFUSE_REASONS: Final = {
    "auth": "wrong password or tampered handshake",
    "signature": "it could not verify this side's identity signature",
    "identity": "this side's identity key differs from the one it pinned for this nickname",
    "protocol": "it received a malformed or unexpected handshake message",
    "busy": "it is already playing",
    "wait": "too many wrong passwords from this address: wait a little and try again",
}
"""Codes of the ``refuse`` message and what they mean to the side that receives them."""


def settings_signed_bytes(settings: Settings) -> bytes:
    """The settings as they enter the settings signature: two bytes."""
    return bytes([settings.rounds, int(settings.doubling)])


@dataclass(frozen=True)
class Peer:
    """Who is on the other end, as proven by the handshake."""

    nickname: str
    public_key: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    @property
    def mixed_scripts(self) -> bool:
        """The nickname mixes scripts (``h\u0430na``): show it with its fingerprint."""
        return mixed_scripts(self.nickname)


@dataclass(frozen=True, eq=False)
class Established:
    """A finished handshake: the session keys and everything agreed."""

    role: Role
    send: CipherState
    recv: CipherState
    handshake_hash: bytes
    """The session id for the coin toss, seed and logs: the Noise handshake hash at which the
    joiner signs its settings in ``noise3`` (docs/protocol.md, "Noise handshake"), the one
    hash both sides' signatures cover."""
    settings: Settings
    private: bool
    peer: Peer
    pin: PinCheck
    """NEW (now pinned) or KNOWN; a CHANGED identity never gets this far."""
    peer_settings_signature: bytes
    peer_signed_hash: bytes
    """The handshake hash as it stood when the peer signed the settings."""
    session_signatures: tuple[bytes, bytes] = (b"", b"")
    """The host's and the joiner's signatures of their settings statement over the session id
    (:func:`session_statement`): the joiner's from ``noise3``, the host's from ``ready``. The
    signed record keeps both, so anyone can check that both keys signed this session."""
    version: int = PROTOCOL_VERSION
    """The protocol version both hellos carry (2 or 3)."""
    dealing: Dealing = Dealing.SEED
    """How the session's deals are made: ``private`` (both offered it, version 4) or ``seed``."""
    clock: ClockSetting = DEFAULT_CLOCK
    """The move clock: the host's (the room's setting, in its hello: both hellos are the
    prologue both signatures cover); in version 2, this side's own."""
    stamps: tuple[str, ...] = ()
    """The stamp ids this side's hello said it shows (version 4; docs/protocol.md, "Stamps")."""
    peer_stamps: tuple[str, ...] = ()
    """The stamp ids the peer's hello said it shows: the only ones ever sent to it."""
    after: bool = False
    """Both hellos said ``after``: the connection stays open once the match is over
    (:mod:`koikoi.net.session.after`)."""


class Phase(Enum):
    START = "start"
    AWAIT_HELLO = "await hello"
    AWAIT_NOISE1 = "await noise1"
    AWAIT_NOISE2 = "await noise2"
    AWAIT_NOISE3 = "await noise3"
    AWAIT_READY = "await ready"
    ESTABLISHED = "established"
    FAILED = "failed"


REFUSE = Record({"reason": OneOf(tuple(REFUSE_REASONS))})
NOISE = Record({"m": Bytes(1, 65535)})
AUTH = Record({"id": Bytes(32, 32), "key_sig": Bytes(64, 64), "settings_sig": Bytes(64, 64)})
PRIVATE_AUTH = Record({**AUTH.fields, "nick": Str(max_len=MAX_NICKNAME, min_len=1)})
"""In a private room the nickname travels here, encrypted, not in the clear hello."""
READY = Record({"settings_sig": Bytes(64, 64)})
"""The host's settings statement over the session id, for the signed record."""
PRIVATE_READY = PRIVATE_AUTH
"""In a private room the host proves who it is only in ``ready``, after the password; its
``settings_sig`` there is over the session id too."""


def refuse_message(reason: str) -> bytes:
    """A ``refuse`` message payload (clear, or to be encrypted after the handshake)."""
    if reason not in REFUSE_REASONS:
        raise ValueError(f"unknown refuse reason {reason!r}")
    return encode_message("refuse", reason=reason)


def prologue(joiner_hello: bytes, host_hello: bytes) -> bytes:
    """The Noise prologue: both hellos exactly as sent, each behind a 4-byte length."""
    return b"".join(
        (
            PROLOGUE_LABEL,
            len(joiner_hello).to_bytes(4, "big"),
            joiner_hello,
            len(host_hello).to_bytes(4, "big"),
            host_hello,
        )
    )


def settings_signed_data(role: Role, handshake_hash: bytes, settings: Settings) -> bytes:
    """What ``role`` signs to agree to ``settings`` in the session at ``handshake_hash``."""
    return SETTINGS_LABEL + role.label + b"\0" + handshake_hash + settings_signed_bytes(settings)


def session_statement(role: Role, session: bytes, settings: Settings) -> bytes:
    """What ``role`` signed over the session id: the settings statement with ``h`` = the session
    id. Both signatures go into the signed record, which :mod:`koikoi.net.verify` checks."""
    return settings_signed_data(role, session, settings)


def _refused(message: Message) -> PeerRefused:
    code = message.fields.get("reason", str)
    return PeerRefused(f"the peer refused: {REFUSE_REASONS[code]}", code)


class Handshake:
    """One side of the handshake; ``role`` says which (the host listens, the joiner connects).

    ``password`` empty means an open room. ``known_peers`` pins the peer's key on success and
    refuses a nickname whose pinned key changed.
    """

    def __init__(
        self,
        role: Role,
        *,
        identity: Identity,
        nickname: str,
        settings: Settings,
        password: str,
        known_peers: KnownPeers,
        dealings: tuple[str, ...] = ("seed",),
        clock: ClockSetting = DEFAULT_CLOCK,
        stamps: tuple[str, ...] = (),
        expected_fingerprint: str | None = None,
        after: bool = False,
    ) -> None:
        if not dealings or any(kind not in DEALINGS for kind in dealings):
            raise ValueError(f"dealings must be some of {', '.join(DEALINGS)}")
        if len(set(dealings)) != len(dealings):
            raise ValueError("dealings must not repeat a kind")
        try:
            nickname = normal_nickname(nickname, "nickname")
        except ProtocolError as error:
            raise ValueError(str(error)) from None
        self.role = role
        self.identity = identity
        self.nickname = nickname
        self.settings = settings
        self.clock = clock
        """The move clock: this side's, until the host's hello gives the room's."""
        self.stamps = stamps
        """The stamp ids this side shows (its hello's ``stamps``; none: the field is left out)."""
        self.peer_stamps: tuple[str, ...] = ()
        self.after = after
        """This side stays connected after the match (its hello's ``after``)."""
        self.peer_after = False
        self.known_peers = known_peers
        self.expected_fingerprint = expected_fingerprint
        """A joiner's pin from a join code: the host must have this identity, else the
        handshake is refused before anything is played (:class:`NotTheCodedHost`); a host's
        from a joiner's reply code, the same for the joiner."""
        self.phase = Phase.START if role is Role.JOINER else Phase.AWAIT_HELLO
        self.result: Established | None = None
        self._pake = Pake(role, password)
        self.dealings = tuple(kind for kind in DEALINGS if kind in dealings)
        self.version = PRIVATE_VERSION if "private" in self.dealings else PROTOCOL_VERSION
        """The newest version this side speaks: :data:`PRIVATE_VERSION` only when it offers
        private dealing (a
        side that offers only the joint seed speaks version 2 exactly as it was released)."""
        self.dealing = Dealing.SEED
        """The dealing agreed, once the hellos crossed."""
        self._hello = self._make_hello(self.version)
        self._static = X25519PrivateKey.generate()
        self._noise: HandshakeState | None = None
        self._peer_nickname = ""
        self._host_static = b""
        self._peer: Peer | None = None
        self._pin: PinCheck | None = None
        self._peer_signature = b""
        self._peer_signed_hash = b""
        self._send: CipherState | None = None
        self._recv: CipherState | None = None
        self._session_id = b""
        self._own_signature = b""
        """This side's last settings signature: over the session id once that is known."""

    def _make_hello(self, version: int) -> bytes:
        fields: dict[str, Value] = {
            "v": version,
            "nick": "" if self._pake.private else self.nickname,
            "settings": settings_wire(self.settings),
            "private": self._pake.private,
            "pake": self._pake.message,
        }
        if version >= PRIVATE_VERSION:
            fields["deal"] = list(self.dealings)
            fields["clock"] = clock_wire(self.clock)
            if self.stamps:
                fields["stamps"] = list(self.stamps)
            if self.after:
                fields["after"] = True
        return encode_message("hello", **fields)

    # --- driving -------------------------------------------------------------------------

    def start(self) -> list[bytes]:
        """Payloads to send first: the joiner's hello; nothing for the host."""
        if self.role is Role.HOST:
            return []
        if self.phase is not Phase.START:
            raise ProtocolError("the handshake has already started")
        self.phase = Phase.AWAIT_HELLO
        return [self._hello]

    def receive(self, payload: bytes) -> list[bytes]:
        """Process one frame payload from the peer; returns the payloads to send back."""
        if self.phase in (Phase.START, Phase.ESTABLISHED, Phase.FAILED):
            raise ProtocolError(f"no handshake message is expected now ({self.phase.value})")
        try:
            return self._step(payload)
        except HandshakeError:
            self.phase = Phase.FAILED
            raise
        except ProtocolError as error:  # malformed, replayed or out of order
            self.phase = Phase.FAILED
            raise UnexpectedMessage(
                f"handshake failed: {error}", refuse_message("protocol")
            ) from None

    def _step(self, payload: bytes) -> list[bytes]:
        phase = self.phase
        if phase is Phase.AWAIT_HELLO:
            return self._on_hello(payload)
        if phase is Phase.AWAIT_READY:
            return self._on_ready(payload)
        expected = {
            Phase.AWAIT_NOISE1: "noise1",
            Phase.AWAIT_NOISE2: "noise2",
            Phase.AWAIT_NOISE3: "noise3",
        }[phase]
        message = decode_message(payload, {expected: NOISE, "refuse": REFUSE})
        if message.kind == "refuse":
            raise _refused(message)
        noise_message = message.fields.get("m", bytes)
        if phase is Phase.AWAIT_NOISE1:
            return self._on_noise1(noise_message)
        if phase is Phase.AWAIT_NOISE2:
            return self._on_noise2(noise_message)
        return self._on_noise3(noise_message)

    # --- hellos --------------------------------------------------------------------------

    def _take_clock(self, fields: Fields) -> None:
        """The peer's hello's clock, checked from either side (an impossible one is a
        malformed hello); the room's setting wins, so only a joiner takes it."""
        if "clock" in fields:
            clock = clock_of(fields.get("clock", Fields))
            if self.role is Role.JOINER:
                self.clock = clock

    def _on_hello(self, payload: bytes) -> list[bytes]:
        raw = unpack(payload, canonical=False)
        # The version is read before the schema (another version may carry other fields)
        # and before the canonical encoding is required (version 1 did not require it).
        schema = HELLO
        version = PROTOCOL_VERSION
        if isinstance(raw, dict) and raw.get("t") == "hello":
            given = raw.get("v")
            if isinstance(given, int) and not isinstance(given, bool):
                version = given
                self._meet(version)
                schema = HELLO_PRIVATE if version == PRIVATE_VERSION else HELLO
        message = decode_message(payload, {"hello": schema, "refuse": REFUSE})
        if message.kind == "refuse":
            raise _refused(message)
        fields = message.fields
        self._agree_dealing(version, fields)
        self._take_clock(fields)
        if "stamps" in fields:
            self.peer_stamps = tuple(str(s) for s in fields.get("stamps", list))
        if "after" in fields:
            self.peer_after = fields.get("after", bool)
        settings_fields = fields.get("settings", Fields)
        theirs = Settings(
            rounds=settings_fields.get("rounds", int),
            doubling=settings_fields.get("doubling", bool),
        )
        # The host answers a mismatch with its own hello so the joiner can name the difference.
        farewell = self._hello if self.role is Role.HOST else None
        peer = self.role.peer.value
        differs = settings_differences(self.settings, theirs)
        if differs:
            detail = "; ".join(
                f"{name}: {describe_setting(self.settings, name)} here, "
                f"{describe_setting(theirs, name)} for the {peer}"
                for name in differs
            )
            raise SettingsMismatch(f"match settings differ: {detail}", differs, farewell)
        private = fields.get("private", bool)
        if private != self._pake.private:
            if self.role is Role.JOINER:
                reason = (
                    "the room is private: a password is needed"
                    if private
                    else "the room is open: it takes no password"
                )
            else:
                reason = (
                    "the joiner gave a password for this open room"
                    if private
                    else "the joiner gave no password for this private room"
                )
            raise RoomMismatch(reason, farewell)
        pake_message = fields.get("pake", bytes)
        if len(pake_message) != len(self._pake.message):
            raise ProtocolError("hello.pake: wrong length for this kind of room")
        psk = self._pake.finish(pake_message)
        nick = fields.get("nick", str)
        if private and nick:
            raise ProtocolError("hello.nick: a private room's hello carries no nickname")
        if not private:
            self._peer_nickname = normal_nickname(nick, "hello.nick")
        if self.role is Role.HOST:
            joiner_hello, host_hello = payload, self._hello
        else:
            joiner_hello, host_hello = self._hello, payload
        self._noise = HandshakeState(
            NOISE_PROTOCOL,
            initiator=self.role is Role.JOINER,
            prologue=prologue(joiner_hello, host_hello),
            s=self._static,
            psks=[psk],
        )
        if self.role is Role.HOST:
            self.phase = Phase.AWAIT_NOISE1
            return [self._hello]
        self.phase = Phase.AWAIT_NOISE2
        return [encode_message("noise1", m=self._noise.write_message(b""))]

    def _meet(self, version: int) -> None:
        """Settle the version on the peer's hello, or :class:`VersionMismatch` when none
        meets. A host answers in the joiner's version when it knows it (version 2: the joint
        seed, so only a host that allows the seed answers a version-2 hello in version 2);
        a joiner takes only the version it sent. A version-2 answer to its private-dealing
        hello comes from an older host, or from a new host that read a version-2 hello
        because something on the path rewrote the joiner's (the hellos are the Noise
        prologue, so that handshake could not succeed anyway): the line says both. A retired
        version is named older than the newest this koikoi speaks.

        Where the versions differ only because one side offers just the joint seed and the
        other deals privately only, :meth:`_agree_dealing` refuses the dealing instead, once
        the hello is read."""
        if self.role is Role.HOST and version in VERSIONS and version != self.version:
            if version == PROTOCOL_VERSION and "seed" not in self.dealings:
                return  # refused as a dealing (its farewell: this side's private-dealing hello)
            self.version = version
            self._hello = self._make_hello(version)
        if version == self.version:
            return
        # A joiner's answer in the other known version: maybe a dealing refused (a version-2
        # answer to a joiner that deals privately only; a private-dealing one whose deal lacks the
        # seed, to a joiner that offers only the seed), else a mismatch (_agree_dealing).
        if (
            self.role is Role.JOINER
            and version in VERSIONS
            and self.version in VERSIONS
            and (version > self.version or "seed" not in self.dealings)
        ):
            return
        farewell = self._hello if self.role is Role.HOST else None
        if self.role is Role.JOINER and version in VERSIONS and version < self.version:
            raise VersionMismatch(downgraded_answer_text(version, self.version), farewell)
        mine = NEWEST_VERSION if version in RETIRED_VERSIONS else self.version
        raise VersionMismatch(version_mismatch_text(version, mine), farewell)

    def _agree_dealing(self, version: int, fields: Fields) -> None:
        """Settle the dealing on the peer's hello (of ``version``), or
        :class:`DealingRefused` when no kind is allowed by both: a peer that offers only the
        joint seed (a version-2 hello, or ``deal`` ``["seed"]``) to a side that deals
        privately only, or the other way round. Both sides read the same two hellos and
        reach the same verdict; the host's farewell is its own hello (docs/protocol.md)."""
        farewell = self._hello if self.role is Role.HOST else None
        if version == PROTOCOL_VERSION:
            theirs: tuple[str, ...] = ("seed",)
        else:
            theirs = tuple(str(kind) for kind in fields.get("deal", list))
            if len(set(theirs)) != len(theirs):
                raise ProtocolError("hello.deal: a dealing kind twice")
        if not any(kind in theirs for kind in self.dealings):
            why = "seed" if "seed" in theirs else "private"
            peer_version = version if version == PROTOCOL_VERSION else None
            text = dealing_refused_text(why, peer_version)
            if self.role is Role.JOINER and version < self.version:
                # a host of that version answers so, but so does a new host that read a hello
                # changed on the way (downgraded_answer_text)
                text += "; if its koikoi is new, something on the path changed the hello"
            raise DealingRefused(text, why, farewell)
        if version != self.version:
            # a joiner's hello and the host's answer in two versions, yet a kind in common: a
            # host that knows both versions answers in the joiner's, so this one does not
            raise VersionMismatch(version_mismatch_text(version, self.version))
        if version == PRIVATE_VERSION:
            self.dealing = agreed_dealing(self.dealings, theirs)

    # --- Noise messages ------------------------------------------------------------------

    def _auth_payload(self, handshake_hash: bytes, kind: str = "auth") -> bytes:
        static = self._static.public_key().public_bytes_raw()
        private: dict[str, Value] = {"nick": self.nickname} if self._pake.private else {}
        self._own_signature = self._settings_signature(handshake_hash)
        return encode_message(
            kind,
            id=self.identity.public_key,
            key_sig=self.identity.sign(STATIC_KEY_LABEL + static),
            settings_sig=self._own_signature,
            **private,
        )

    def _settings_signature(self, handshake_hash: bytes) -> bytes:
        return self.identity.sign(settings_signed_data(self.role, handshake_hash, self.settings))

    def _read_noise(self, message: bytes, psk_mixed: bool) -> bytes:
        noise = self._noise
        assert noise is not None  # set by _on_hello
        try:
            return noise.read_message(message)
        except DecryptError:
            private = self._pake.private and psk_mixed
            reason = "wrong password or tampered handshake" if private else "tampered handshake"
            raise AuthenticationFailed(
                f"{reason} (a handshake message did not decrypt)", refuse_message("auth")
            ) from None
        except NoiseError as error:
            raise UnexpectedMessage(
                f"malformed handshake message: {error}", refuse_message("protocol")
            ) from None

    def _check_auth(
        self, payload: bytes, peer_static: bytes, signed_hash: bytes, kind: str = "auth"
    ) -> None:
        """Verify the peer's auth payload and its pin; refusals go out clear or encrypted."""
        schema = PRIVATE_AUTH if self._pake.private else AUTH
        fields = decode_message(payload, {kind: schema}).fields
        if self._pake.private:
            self._peer_nickname = normal_nickname(fields.get("nick", str), f"{kind}.nick")
        identity_key = fields.get("id", bytes)
        peer = Peer(self._peer_nickname, identity_key)
        if not verify_signature(
            identity_key, fields.get("key_sig", bytes), STATIC_KEY_LABEL + peer_static
        ):
            raise BadSignature(
                f"{peer.nickname!r}'s identity signature over its Noise key does not verify",
                self._farewell("signature"),
            )
        settings_sig = fields.get("settings_sig", bytes)
        data = settings_signed_data(self.role.peer, signed_hash, self.settings)
        if not verify_signature(identity_key, settings_sig, data):
            raise BadSignature(
                f"{peer.nickname!r}'s signature over the match settings does not verify",
                self._farewell("signature"),
            )
        expected = self.expected_fingerprint
        if expected is not None and peer.fingerprint != expected:
            said = (
                f"the host's identity is {peer.fingerprint}, not {expected} as the join code "
                "says: another program answered at its address; the room was not joined"
                if self.role is Role.JOINER
                else f"the joiner's identity is {peer.fingerprint}, not {expected} as the "
                "reply code says: another program called; it was turned away"
            )
            raise NotTheCodedHost(
                said,
                self._farewell("identity"),
                found=peer.fingerprint,
                expected=expected,
            )
        pin = self.known_peers.check(peer.nickname, identity_key)
        if pin.status is PinStatus.CHANGED:
            assert pin.pinned_key is not None
            raise IdentityChanged(
                f"WARNING: {peer.nickname!r} now has identity {peer.fingerprint}, but "
                f"{fingerprint(pin.pinned_key)} is pinned for that name: it may be an "
                "impostor; connect again only if the player confirms a new installation",
                peer.nickname,
                pin.pinned_key,
                identity_key,
                self._farewell("identity"),
            )
        self._peer, self._pin = peer, pin
        self._peer_signature, self._peer_signed_hash = settings_sig, signed_hash

    def _check_session_signature(self, signature: bytes) -> None:
        """The open room's ``ready``: the host's settings statement over the session id."""
        peer = self._peer
        assert peer is not None  # noise2 was checked
        data = session_statement(Role.HOST, self._session_id, self.settings)
        if not verify_signature(peer.public_key, signature, data):
            raise BadSignature(
                f"{peer.nickname!r}'s signature over the session in ready does not verify"
            )
        self._peer_signature, self._peer_signed_hash = signature, self._session_id

    def _farewell(self, reason: str) -> bytes:
        """A refusal: encrypted once transport keys exist (the peer can then trust it)."""
        message = refuse_message(reason)
        if self._send is not None:
            return self._send.encrypt_with_ad(b"", message)
        return message

    def _on_noise1(self, message: bytes) -> list[bytes]:
        assert self._noise is not None
        if self._read_noise(message, psk_mixed=False):
            raise ProtocolError("noise1 must carry an empty payload")
        # A private room's host says who it is only in ready, once the password is proven:
        # noise2 is readable by anyone who dials, password or not.
        reply = self._noise.write_message(b"" if self._pake.private else self._auth_payload)
        self.phase = Phase.AWAIT_NOISE3
        return [encode_message("noise2", m=reply)]

    def _on_noise2(self, message: bytes) -> list[bytes]:
        noise = self._noise
        assert noise is not None
        payload = self._read_noise(message, psk_mixed=False)
        assert noise.rs is not None
        if self._pake.private:
            if payload:
                raise ProtocolError("noise2 of a private room must carry an empty payload")
            self._host_static = noise.rs
        else:
            self._check_auth(payload, noise.rs, noise.payload_hash)
        reply = noise.write_message(self._auth_payload)
        self._session_id = noise.payload_hash  # what the joiner's settings_sig just signed
        self._send, self._recv = noise.split()
        self.phase = Phase.AWAIT_READY
        return [encode_message("noise3", m=reply)]

    def _on_noise3(self, message: bytes) -> list[bytes]:
        noise = self._noise
        assert noise is not None
        payload = self._read_noise(message, psk_mixed=True)
        self._recv, self._send = noise.split()
        assert noise.rs is not None
        self._session_id = noise.payload_hash
        self._check_auth(payload, noise.rs, self._session_id)
        if self._pake.private:
            message = self._auth_payload(self._session_id, "ready")
        else:
            self._own_signature = self._settings_signature(self._session_id)
            message = encode_message("ready", settings_sig=self._own_signature)
        ready = self._send.encrypt_with_ad(b"", message)
        self._establish()
        return [ready]

    def _on_ready(self, ciphertext: bytes) -> list[bytes]:
        assert self._recv is not None
        try:
            plaintext = self._recv.decrypt_with_ad(b"", ciphertext)
        except DecryptError:
            reason = "wrong password or tampered handshake"
            if not self._pake.private:
                reason = "tampered handshake"
            raise AuthenticationFailed(
                f"{reason} (the host's first message did not decrypt)"
            ) from None
        schema = PRIVATE_READY if self._pake.private else READY
        message = decode_message(plaintext, {"ready": schema, "refuse": REFUSE})
        if message.kind == "refuse":
            raise _refused(message)
        if self._pake.private:
            self._check_auth(plaintext, self._host_static, self._session_id, "ready")
        else:
            self._check_session_signature(message.fields.get("settings_sig", bytes))
        self._establish()
        return []

    def _establish(self) -> None:
        noise, peer, pin = self._noise, self._peer, self._pin
        assert noise is not None and peer is not None and pin is not None
        assert self._send is not None and self._recv is not None
        if pin.status is PinStatus.NEW:
            self.known_peers.pin(peer.nickname, peer.public_key)
        handshake_hash = self._session_id
        mine, theirs = self._own_signature, self._peer_signature
        signatures = (mine, theirs) if self.role is Role.HOST else (theirs, mine)
        self.result = Established(
            role=self.role,
            send=self._send,
            recv=self._recv,
            handshake_hash=handshake_hash,
            settings=self.settings,
            private=self._pake.private,
            peer=peer,
            pin=pin,
            peer_settings_signature=self._peer_signature,
            peer_signed_hash=self._peer_signed_hash,
            session_signatures=signatures,
            version=self.version,
            dealing=self.dealing,
            clock=self.clock,
            stamps=self.stamps if self.version >= PRIVATE_VERSION else (),
            peer_stamps=self.peer_stamps,
            after=self.after and self.peer_after and self.version >= PRIVATE_VERSION,
        )
        self.phase = Phase.ESTABLISHED
        logger.info(
            "handshake with %r (%s) established, %s peer",
            peer.nickname,
            peer.fingerprint,
            pin.status.value,
        )
