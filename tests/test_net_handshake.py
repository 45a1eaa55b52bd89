"""Every handshake path, with real identities, pins, PAKE and Noise on both sides."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import msgpack  # type: ignore[import-untyped]
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.engine.match import Settings
from koikoi.net.errors import (
    AuthenticationFailed,
    BadSignature,
    HandshakeError,
    IdentityChanged,
    PeerRefused,
    ProtocolError,
    RoomMismatch,
    SettingsMismatch,
    UnexpectedMessage,
    VersionMismatch,
)
from koikoi.net.handshake import (
    NOISE_PROTOCOL,
    SETTINGS_LABEL,
    STATIC_KEY_LABEL,
    Established,
    Handshake,
    Phase,
    prologue,
    settings_signed_bytes,
    settings_signed_data,
)
from koikoi.net.identity import Identity, KnownPeers, PinStatus, verify_signature
from koikoi.net.noise import HandshakeState
from koikoi.net.pake import OPEN_ROOM_PSK
from koikoi.net.roles import Role
from koikoi.net.wire import encode_message, unpack

Tamper = Callable[[int, Role, bytes], bytes | None]
"""Sees every frame (its index, who it is for, its payload); returns it changed, or None."""


@dataclass
class Player:
    nickname: str
    identity: Identity = field(default_factory=Identity.generate)
    peers: KnownPeers = field(default_factory=lambda: KnownPeers(None))

    def handshake(
        self,
        role: Role,
        password: str = "",
        settings: Settings | None = None,
    ) -> Handshake:
        return Handshake(
            role,
            identity=self.identity,
            nickname=self.nickname,
            settings=settings or Settings(),
            password=password,
            known_peers=self.peers,
        )


@dataclass
class Outcome:
    host: Handshake
    joiner: Handshake
    host_error: HandshakeError | None
    joiner_error: HandshakeError | None
    frames: list[tuple[Role, bytes]]

    def established(self) -> tuple[Established, Established]:
        assert self.host_error is None and self.joiner_error is None
        assert self.host.result is not None and self.joiner.result is not None
        return self.host.result, self.joiner.result


def run(host: Handshake, joiner: Handshake, tamper: Tamper | None = None) -> Outcome:
    """Carry frames between the two sides in order, like a connection would.

    A side that fails sends its farewell (if any) and then receives nothing more.
    """
    sides = {Role.HOST: host, Role.JOINER: joiner}
    errors: dict[Role, HandshakeError | None] = {Role.HOST: None, Role.JOINER: None}
    queue = deque((Role.HOST, payload) for payload in joiner.start())
    frames: list[tuple[Role, bytes]] = []
    while queue:
        to, original = queue.popleft()
        payload = original if tamper is None else tamper(len(frames), to, original)
        frames.append((to, original))
        if payload is None or errors[to] is not None:
            continue
        try:
            replies = sides[to].receive(payload)
        except HandshakeError as error:
            errors[to] = error
            if error.farewell is not None:
                queue.append((to.peer, error.farewell))
            continue
        queue.extend((to.peer, reply) for reply in replies)
    return Outcome(host, joiner, errors[Role.HOST], errors[Role.JOINER], frames)


HANA, TARO = "hana", "taro"


def pair(
    password_host: str = "",
    password_joiner: str = "",
    host_settings: Settings | None = None,
    joiner_settings: Settings | None = None,
) -> tuple[Player, Player, Handshake, Handshake]:
    hana, taro = Player(HANA), Player(TARO)
    return (
        hana,
        taro,
        hana.handshake(Role.HOST, password_host, host_settings),
        taro.handshake(Role.JOINER, password_joiner, joiner_settings),
    )


def _check_session(host: Established, joiner: Established, hana: Player, taro: Player) -> None:
    assert host.handshake_hash == joiner.handshake_hash
    assert len(host.handshake_hash) == 32
    assert host.peer.public_key == taro.identity.public_key
    assert joiner.peer.public_key == hana.identity.public_key
    assert (host.peer.nickname, joiner.peer.nickname) == (TARO, HANA)
    assert (host.role, joiner.role) == (Role.HOST, Role.JOINER)
    # Transport keys work both ways after the host's ready message (nonce 0 was used).
    assert joiner.recv.decrypt_with_ad(b"", host.send.encrypt_with_ad(b"", b"go")) == b"go"
    assert host.recv.decrypt_with_ad(b"", joiner.send.encrypt_with_ad(b"", b"ok")) == b"ok"
    # Each side can check the other's settings signature later (for the signed record).
    assert verify_signature(
        host.peer.public_key,
        host.peer_settings_signature,
        settings_signed_data(Role.JOINER, host.peer_signed_hash, host.settings),
    )
    assert verify_signature(
        joiner.peer.public_key,
        joiner.peer_settings_signature,
        settings_signed_data(Role.HOST, joiner.peer_signed_hash, joiner.settings),
    )


# --- Success -------------------------------------------------------------------------------


def test_open_room() -> None:
    hana, taro, host, joiner = pair()
    outcome = run(host, joiner)
    h, j = outcome.established()
    _check_session(h, j, hana, taro)
    assert not h.private and not j.private
    assert [unpack(p)["t"] for _, p in outcome.frames[:5]] == [  # type: ignore[index,call-overload]
        "hello",
        "hello",
        "noise1",
        "noise2",
        "noise3",
    ]
    assert len(outcome.frames) == 6  # and the encrypted ready
    assert host.phase is joiner.phase is Phase.ESTABLISHED


def test_password_room() -> None:
    hana, taro, host, joiner = pair("matsu ni tsuru", "matsu ni tsuru")
    h, j = run(host, joiner).established()
    _check_session(h, j, hana, taro)
    assert h.private and j.private


def test_passwords_are_compared_after_nfkc() -> None:
    _, _, host, joiner = pair("ｓａｋｕｒａ", "sakura")  # full-width and ASCII letters
    run(host, joiner).established()


def test_settings_are_agreed_and_signed() -> None:
    settings = Settings(rounds=12, doubling=False)
    _, _, host, joiner = pair(host_settings=settings, joiner_settings=settings)
    outcome = run(host, joiner)
    h, j = outcome.established()
    assert h.settings == j.settings == settings
    assert type(h.settings) is Settings  # the engine's: one settings type, net and rules
    # the wire is as docs/protocol.md says: a map in each hello, two bytes in the signature
    hellos = [unpack(p) for _, p in outcome.frames[:2]]
    assert [m["settings"] for m in hellos] == [{"rounds": 12, "doubling": False}] * 2  # type: ignore[index,call-overload]
    assert settings_signed_bytes(settings) == bytes([12, 0])


def test_sessions_differ_each_time() -> None:
    first = run(*pair()[2:]).established()[0]
    second = run(*pair()[2:]).established()[0]
    assert first.handshake_hash != second.handshake_hash


def test_first_contact_pins_then_known() -> None:
    hana, taro = Player(HANA), Player(TARO)
    h, j = run(hana.handshake(Role.HOST), taro.handshake(Role.JOINER)).established()
    assert h.pin.status is j.pin.status is PinStatus.NEW
    assert taro.peers.check(HANA, hana.identity.public_key).status is PinStatus.KNOWN
    assert hana.peers.check(TARO, taro.identity.public_key).status is PinStatus.KNOWN
    h, j = run(hana.handshake(Role.HOST), taro.handshake(Role.JOINER)).established()
    assert h.pin.status is j.pin.status is PinStatus.KNOWN


# --- Refusals ------------------------------------------------------------------------------


def test_wrong_password() -> None:
    _, _, host, joiner = pair("kiku", "momiji")
    outcome = run(host, joiner)
    assert isinstance(outcome.host_error, AuthenticationFailed)
    assert isinstance(outcome.joiner_error, AuthenticationFailed)
    assert "wrong password or tampered handshake" in str(outcome.host_error)
    assert "wrong password or tampered handshake" in str(outcome.joiner_error)
    assert host.result is None and joiner.result is None


@pytest.mark.parametrize(
    ("host_settings", "joiner_settings", "differs", "words"),
    [
        (Settings(rounds=12), Settings(rounds=6), ("rounds",), "12 rounds"),
        (Settings(doubling=False), Settings(), ("doubling",), "doubling at 8+ off"),
        (
            Settings(12, False),
            Settings(6, True),
            ("rounds", "doubling"),
            "rounds: 6 rounds here, 12 rounds for the host; doubling",
        ),
    ],
)
def test_settings_mismatch_names_the_setting(
    host_settings: Settings,
    joiner_settings: Settings,
    differs: tuple[str, ...],
    words: str,
) -> None:
    _, _, host, joiner = pair(host_settings=host_settings, joiner_settings=joiner_settings)
    outcome = run(host, joiner)
    for error in (outcome.host_error, outcome.joiner_error):
        assert isinstance(error, SettingsMismatch)
        assert error.differs == differs
    assert words in str(outcome.joiner_error)


@pytest.mark.parametrize(
    ("host_password", "joiner_password", "joiner_words", "host_words"),
    [
        ("secret", "", "a password is needed", "gave no password"),
        ("", "secret", "takes no password", "gave a password"),
    ],
)
def test_private_and_open_rooms_do_not_mix(
    host_password: str, joiner_password: str, joiner_words: str, host_words: str
) -> None:
    _, _, host, joiner = pair(host_password, joiner_password)
    outcome = run(host, joiner)
    assert isinstance(outcome.joiner_error, RoomMismatch)
    assert isinstance(outcome.host_error, RoomMismatch)
    assert joiner_words in str(outcome.joiner_error)
    assert host_words in str(outcome.host_error)


def _hello_with_version(version: int, **extra: object) -> bytes:
    return encode_message(
        "hello",
        v=version,
        nick="future",
        settings={"rounds": 6, "doubling": True},
        private=False,
        pake=b"",
        **extra,  # type: ignore[arg-type]
    )


def test_version_mismatch_at_the_host() -> None:
    host = Player(HANA).handshake(Role.HOST)
    with pytest.raises(
        VersionMismatch,
        match="koikoi-net/5, this koikoi speaks koikoi-net/2: the peer's koikoi is newer: "
        "update koikoi here",
    ):
        # A future hello may carry fields this version does not know.
        host.receive(_hello_with_version(5, emoji="🎴"))


@pytest.mark.parametrize("role", [Role.HOST, Role.JOINER])
def test_a_peer_speaking_version_1_is_told_to_update_koikoi(role: Role) -> None:
    # A version-1 hello exactly as version 1 built it (fields in its order).
    old = msgpack.packb(
        {
            "t": "hello",
            "v": 1,
            "nick": "old",
            "settings": {"rounds": 6, "doubling": True},
            "private": False,
            "pake": b"",
        },
        use_bin_type=True,
    )
    side = Player(HANA).handshake(role)
    side.start()
    with pytest.raises(VersionMismatch) as caught:
        side.receive(old)
    assert str(caught.value) == (
        "the peer speaks koikoi-net/1, this koikoi speaks koikoi-net/2: "
        "the peer's koikoi is older, it needs to update koikoi"
    )
    assert side.phase is Phase.FAILED
    # The host answers with its own hello, so a version-1 joiner names the version too.
    if role is Role.HOST:
        assert caught.value.farewell is not None
        assert unpack(caught.value.farewell)["v"] == 2  # type: ignore[index,call-overload]


def test_version_mismatch_at_the_joiner_from_the_hosts_farewell() -> None:
    joiner = Player(TARO).handshake(Role.JOINER)
    joiner.start()
    with pytest.raises(VersionMismatch, match="koikoi-net/5"):
        joiner.receive(_hello_with_version(5))
    assert joiner.phase is Phase.FAILED


def test_a_host_with_another_version_lets_the_joiner_see_it() -> None:
    # The host's farewell on a version mismatch is its hello: the joiner names the version.
    host = Player(HANA).handshake(Role.HOST)
    with pytest.raises(VersionMismatch) as caught:
        host.receive(_hello_with_version(5))
    assert caught.value.farewell is not None
    assert unpack(caught.value.farewell) == {
        "t": "hello",
        "v": 2,
        "nick": HANA,
        "settings": {"rounds": 6, "doubling": True},
        "private": False,
        "pake": b"",
    }


def test_changed_identity_at_the_joiner_and_the_accept_path() -> None:
    hana, taro = Player(HANA), Player(TARO)
    run(hana.handshake(Role.HOST), taro.handshake(Role.JOINER)).established()
    impostor = Player(HANA)  # same nickname, another installation
    outcome = run(impostor.handshake(Role.HOST), taro.handshake(Role.JOINER))
    error = outcome.joiner_error
    assert isinstance(error, IdentityChanged)
    assert "WARNING" in str(error) and impostor.identity.fingerprint in str(error)
    assert hana.identity.fingerprint in str(error)
    assert (error.name, error.old_key, error.new_key) == (
        HANA,
        hana.identity.public_key,
        impostor.identity.public_key,
    )
    assert isinstance(outcome.host_error, PeerRefused) and outcome.host_error.code == "identity"
    # The pin is untouched until the user explicitly accepts the new key.
    assert taro.peers.check(HANA, hana.identity.public_key).status is PinStatus.KNOWN
    taro.peers.accept(error.name, error.new_key)
    h, j = run(impostor.handshake(Role.HOST), taro.handshake(Role.JOINER)).established()
    assert j.pin.status is PinStatus.KNOWN


def test_changed_identity_at_the_host_is_refused_encrypted() -> None:
    hana, taro = Player(HANA), Player(TARO)
    hana.peers.pin(TARO, Identity.generate().public_key)
    outcome = run(hana.handshake(Role.HOST), taro.handshake(Role.JOINER))
    assert isinstance(outcome.host_error, IdentityChanged)
    # The joiner trusts this refusal: it arrived encrypted under the session keys.
    assert isinstance(outcome.joiner_error, PeerRefused)
    assert outcome.joiner_error.code == "identity"
    assert "pinned" in str(outcome.joiner_error)


@dataclass(frozen=True, eq=False)
class LyingIdentity(Identity):
    """A real key that signs something other than what it is asked to, for one label."""

    lie_about: bytes = b""

    def sign(self, data: bytes) -> bytes:
        if data.startswith(self.lie_about):
            data = data[:-1] + bytes([data[-1] ^ 1])
        return super().sign(data)


def _liar(label: bytes) -> Identity:
    return LyingIdentity(Identity.generate().private_key, label)


@pytest.mark.parametrize(
    ("label", "words"),
    [(STATIC_KEY_LABEL, "Noise key"), (SETTINGS_LABEL, "settings")],
    ids=["static-key-signature", "settings-signature"],
)
def test_bad_signature_from_the_host(label: bytes, words: str) -> None:
    liar = Player(HANA, identity=_liar(label))
    outcome = run(liar.handshake(Role.HOST), Player(TARO).handshake(Role.JOINER))
    assert isinstance(outcome.joiner_error, BadSignature)
    assert words in str(outcome.joiner_error)
    assert isinstance(outcome.host_error, PeerRefused) and outcome.host_error.code == "signature"


@pytest.mark.parametrize(
    ("label", "words"),
    [(STATIC_KEY_LABEL, "Noise key"), (SETTINGS_LABEL, "settings")],
    ids=["static-key-signature", "settings-signature"],
)
def test_bad_signature_from_the_joiner(label: bytes, words: str) -> None:
    liar = Player(TARO, identity=_liar(label))
    outcome = run(Player(HANA).handshake(Role.HOST), liar.handshake(Role.JOINER))
    assert isinstance(outcome.host_error, BadSignature)
    assert words in str(outcome.host_error)
    assert (
        isinstance(outcome.joiner_error, PeerRefused) and outcome.joiner_error.code == "signature"
    )


# --- Tampering, replay, reordering ---------------------------------------------------------


def _frames_of_a_good_handshake(password: str) -> list[tuple[Role, bytes]]:
    return run(*pair(password, password)[2:]).frames


@pytest.mark.parametrize("password", ["", "fuji"])
@pytest.mark.parametrize("index", range(6))
def test_any_flipped_byte_fails_the_receiver(password: str, index: int) -> None:
    size = len(_frames_of_a_good_handshake(password)[index][1])
    for position in range(0, size, max(1, size // 8)):

        def flip(i: int, to: Role, payload: bytes, position: int = position) -> bytes:
            if i != index:
                return payload
            changed = bytearray(payload)
            changed[position] ^= 0x20
            return bytes(changed)

        outcome = run(*pair(password, password)[2:], tamper=flip)
        receiver = outcome.frames[index][0]
        error = outcome.host_error if receiver is Role.HOST else outcome.joiner_error
        assert isinstance(error, HandshakeError), f"frame {index} byte {position}"
        assert outcome.joiner.result is None  # the joiner never trusts a tampered run


def test_a_man_in_the_middle_shows_different_cards() -> None:
    hana, taro, mallory = Player(HANA), Player(TARO), Player("mallory")
    # Mallory answers taro as a host named hana and joins hana as taro, relaying nothing.
    fake_host = Handshake(
        Role.HOST,
        identity=mallory.identity,
        nickname=HANA,
        settings=Settings(),
        password="",
        known_peers=mallory.peers,
    )
    fake_joiner = Handshake(
        Role.JOINER,
        identity=mallory.identity,
        nickname=TARO,
        settings=Settings(),
        password="",
        known_peers=mallory.peers,
    )
    _, taro_side = run(fake_host, taro.handshake(Role.JOINER)).established()
    hana_side, _ = run(hana.handshake(Role.HOST), fake_joiner).established()
    assert taro_side.handshake_hash != hana_side.handshake_hash  # so the four cards differ
    assert taro_side.peer.fingerprint != hana.identity.fingerprint


def test_replayed_frame_is_unexpected() -> None:
    host, joiner = pair()[2:]
    outgoing = joiner.start()
    host_hello = host.receive(outgoing[0])
    noise1 = joiner.receive(host_hello[0])
    host.receive(noise1[0])
    with pytest.raises(UnexpectedMessage, match="'noise1' \\(expected 'noise3' or 'refuse'\\)"):
        host.receive(noise1[0])
    with pytest.raises(ProtocolError, match="no handshake message is expected now"):
        host.receive(noise1[0])  # a failed handshake stays failed


def test_replayed_hello_at_the_joiner() -> None:
    host, joiner = pair()[2:]
    host_hello = host.receive(joiner.start()[0])
    joiner.receive(host_hello[0])
    with pytest.raises(UnexpectedMessage, match="'hello'"):
        joiner.receive(host_hello[0])


def test_reordered_noise_before_hello() -> None:
    host, joiner = pair()[2:]
    hello = joiner.start()[0]
    other_host = pair()[2]
    noise1 = joiner.receive(other_host.receive(hello)[0])[0]
    with pytest.raises(UnexpectedMessage, match="expected 'hello' or 'refuse'") as caught:
        host.receive(noise1)
    assert caught.value.farewell is not None
    assert unpack(caught.value.farewell) == {"t": "refuse", "reason": "protocol"}


def test_a_whole_old_session_replayed_to_a_new_host_fails() -> None:
    frames = run(*pair()[2:]).frames
    joiner_frames = [payload for to, payload in frames if to is Role.HOST]  # hello, n1, n3
    fresh_host = Player(HANA).handshake(Role.HOST)
    fresh_host.receive(joiner_frames[0])
    fresh_host.receive(joiner_frames[1])
    with pytest.raises(AuthenticationFailed, match="tampered handshake"):
        fresh_host.receive(joiner_frames[2])
    assert fresh_host.result is None


def test_garbage_instead_of_a_hello_is_refused() -> None:
    host, joiner = pair()[2:]
    joiner.start()
    with pytest.raises(UnexpectedMessage, match="malformed msgpack") as caught:
        host.receive(b"\xc1garbage")
    assert caught.value.farewell is not None
    with pytest.raises(PeerRefused, match="malformed or unexpected"):
        joiner.receive(caught.value.farewell)


def test_a_noise_payload_in_message_one_is_refused() -> None:
    host, joiner = pair()[2:]
    joiner_hello = joiner.start()[0]
    host_hello = host.receive(joiner_hello)[0]
    # A joiner speaking proper Noise but putting data where koikoi-net/1 allows none.
    noise = HandshakeState(
        NOISE_PROTOCOL,
        initiator=True,
        prologue=prologue(joiner_hello, host_hello),
        s=X25519PrivateKey.generate(),
        psks=[OPEN_ROOM_PSK],
    )
    with pytest.raises(UnexpectedMessage, match="noise1 must carry an empty payload"):
        host.receive(encode_message("noise1", m=noise.write_message(b"extra")))


def test_a_bogus_noise_message_is_tampering() -> None:
    host, joiner = pair()[2:]
    joiner.receive(host.receive(joiner.start()[0])[0])
    with pytest.raises(AuthenticationFailed, match="tampered handshake"):
        host.receive(encode_message("noise1", m=bytes(48)))


def test_start_and_receive_out_of_place() -> None:
    host, joiner = pair()[2:]
    assert host.start() == []
    with pytest.raises(ProtocolError, match="expected now"):
        joiner.receive(b"x")  # before start()
    joiner.start()
    with pytest.raises(ProtocolError, match="already started"):
        joiner.start()


@pytest.mark.parametrize("nickname", ["", "x" * 33, "tab\there"])
def test_bad_local_nickname(nickname: str) -> None:
    with pytest.raises(ValueError, match="nickname"):
        Player(nickname).handshake(Role.HOST)


def test_bad_local_settings() -> None:
    with pytest.raises(ValueError, match="6 or 12"):
        Settings(rounds=8)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.binary(max_size=64), st.integers(0, 2**16), st.booleans())
def test_fuzz_any_frame_at_any_point_is_a_clean_protocol_error(
    index: int, noise: bytes, seed: int, splice: bool
) -> None:
    """Random or spliced bytes in place of any frame never escape as another exception."""

    def replace(i: int, to: Role, payload: bytes) -> bytes | None:
        if i != index:
            return payload
        if splice:  # keep the start of the real frame, then garbage
            cut = seed % (len(payload) + 1)
            changed = payload[:cut] + noise
        else:
            changed = noise
        if changed == payload:
            changed = payload[:-1] + bytes([payload[-1] ^ 1])
        return changed or b"\0"

    outcome = run(*pair()[2:], tamper=replace)  # raises anything but a HandshakeError
    assert outcome.joiner.result is None or outcome.frames[index][0] is Role.HOST
