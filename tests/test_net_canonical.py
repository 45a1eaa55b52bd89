"""Protocol version 2, one encoding: a relay re-encoding a handshake message is refused.

An attacker in the middle can re-encode a msgpack message without changing its decoded value
(key order, integer, string and binary widths, map headers). When those bytes are signed or
hashed, every re-encoding is another value to grind. Version 2 accepts only the canonical
encoding of each value, so the relay's copies are refused instead of played.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator

import pytest

from koikoi.engine.match import Settings
from koikoi.net.errors import HandshakeError, ProtocolError, UnexpectedMessage
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.wire import Value, pack, unpack

Encoder = Callable[[object], bytes]


def _encode(value: object, *, reverse: bool, wide: bool) -> bytes:
    """A valid msgpack encoding of ``value``; ``wide`` picks the widest forms, ``reverse``
    writes map keys in reverse order."""

    def enc(item: object) -> bytes:
        if item is None:
            return b"\xc0"
        if isinstance(item, bool):
            return b"\xc3" if item else b"\xc2"
        if isinstance(item, int):
            if wide:
                return b"\xd3" + struct.pack(">q", item)
            return pack(item)
        if isinstance(item, str):
            data = item.encode()
            return (b"\xdb" + struct.pack(">I", len(data)) + data) if wide else pack(item)
        if isinstance(item, bytes):
            return (b"\xc6" + struct.pack(">I", len(item)) + item) if wide else pack(item)
        if isinstance(item, list):
            if wide:
                head = b"\xdd" + struct.pack(">I", len(item))
            else:  # the handshake's arrays are short
                assert len(item) < 16
                head = bytes([0x90 | len(item)])
            return head + b"".join(enc(child) for child in item)
        assert isinstance(item, dict)
        keys = list(item)
        if reverse:
            keys.reverse()
        if wide:
            head = b"\xdf" + struct.pack(">I", len(keys))
        else:
            assert len(keys) < 16
            head = bytes([0x80 | len(keys)])
        return head + b"".join(enc(key) + enc(item[key]) for key in keys)

    return enc(value)


VARIANTS: dict[str, Encoder] = {
    "keys reversed": lambda v: _encode(v, reverse=True, wide=False),
    "widest forms": lambda v: _encode(v, reverse=False, wide=True),
    "both": lambda v: _encode(v, reverse=True, wide=True),
}


def test_every_variant_decodes_to_the_same_value_yet_is_refused() -> None:
    value: Value = {"t": "auth", "id": b"\x01" * 32, "n": 7, "s": {"rounds": 6, "doubling": True}}
    for name, encoder in VARIANTS.items():
        data = encoder(value)
        assert data != pack(value), name
        with pytest.raises(ProtocolError, match="canonical"):
            unpack(data)
    assert unpack(pack(value)) == value


def _sides(password: str = "") -> tuple[Handshake, Handshake]:
    def side(role: Role, name: str) -> Handshake:
        return Handshake(
            role,
            identity=Identity.generate(),
            nickname=name,
            settings=Settings(),
            password=password,
            known_peers=KnownPeers(None),
        )

    return side(Role.HOST, "hana"), side(Role.JOINER, "taro")


def _run(
    host: Handshake, joiner: Handshake, relay: Callable[[int, bytes], bytes]
) -> Iterator[HandshakeError]:
    """Drive both sides; ``relay`` sees (and may change) each frame the joiner sends."""
    to_host = joiner.start()
    index = 0
    try:
        while to_host:
            to_joiner: list[bytes] = []
            for message in to_host:
                to_joiner += host.receive(relay(index, message))
                index += 1
            to_host = [out for message in to_joiner for out in joiner.receive(message)]
    except HandshakeError as error:
        yield error


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("password", ["", "sakura"])
def test_a_relay_re_encoding_the_joiners_last_handshake_message_is_refused(
    variant: str, password: str
) -> None:
    host, joiner = _sides(password)
    encoder = VARIANTS[variant]

    def relay(index: int, message: bytes) -> bytes:
        # Frame 0 is the hello, frame 1 noise1, frame 2 noise3: the joiner's last.
        return encoder(unpack(message)) if index == 2 else message

    errors = list(_run(host, joiner, relay))
    assert len(errors) == 1
    assert isinstance(errors[0], UnexpectedMessage)
    assert "canonical" in str(errors[0])
    assert host.result is None


class _ReEncodingJoiner(Handshake):
    """A joiner (or a relay holding its keys) that re-encodes its own signed auth payload."""

    encoder: Encoder = VARIANTS["both"]

    def _auth_payload(self, handshake_hash: bytes, kind: str = "auth") -> bytes:
        return self.encoder(unpack(super()._auth_payload(handshake_hash, kind)))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_re_encoded_auth_payload_inside_the_noise_message_is_refused(variant: str) -> None:
    host, _ = _sides()
    joiner = _ReEncodingJoiner(
        Role.JOINER,
        identity=Identity.generate(),
        nickname="taro",
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
    )
    joiner.encoder = VARIANTS[variant]
    errors = list(_run(host, joiner, lambda _index, message: message))
    assert len(errors) == 1
    assert "canonical" in str(errors[0])
    assert host.result is None


def test_an_unchanged_relay_lets_the_handshake_through() -> None:
    host, joiner = _sides("sakura")
    assert list(_run(host, joiner, lambda _index, message: message)) == []
    assert host.result is not None and joiner.result is not None
    assert host.result.handshake_hash == joiner.result.handshake_hash
