"""Noise rev. 34 against the published cacophony vectors, plus the limits the spec sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from koikoi.net.errors import DecryptError, NoiseError
from koikoi.net.noise import (
    MAX_MESSAGE_LEN,
    MAX_NONCE,
    CipherState,
    HandshakeState,
    Pattern,
)

VECTORS = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "vectors"
    / "noise-cacophony-25519-ChaChaPoly-SHA256.json"
)


def _load_vectors() -> list[dict[str, Any]]:
    if not VECTORS.is_file():
        return []
    vectors: list[dict[str, Any]] = json.loads(VECTORS.read_text())
    return vectors


_VECTORS = _load_vectors()
needs_vectors = pytest.mark.skipif(
    not _VECTORS,
    reason=f"Noise test vectors not found at {VECTORS} (the shared/ folder beside the checkout)",
)


def _key(hexkey: str | None) -> X25519PrivateKey | None:
    return None if hexkey is None else X25519PrivateKey.from_private_bytes(bytes.fromhex(hexkey))


def _side(vector: dict[str, Any], prefix: str) -> HandshakeState:
    remote_static = vector.get(f"{prefix}_remote_static")
    return HandshakeState(
        vector["protocol_name"],
        initiator=prefix == "init",
        prologue=bytes.fromhex(vector[f"{prefix}_prologue"]),
        s=_key(vector.get(f"{prefix}_static")),
        e=_key(vector.get(f"{prefix}_ephemeral")),
        rs=None if remote_static is None else bytes.fromhex(remote_static),
        psks=[bytes.fromhex(p) for p in vector.get(f"{prefix}_psks", [])],
    )


def _replay(vector: dict[str, Any]) -> None:
    initiator, responder = _side(vector, "init"), _side(vector, "resp")
    one_way = initiator.pattern.one_way
    handshake_len = len(initiator.pattern.messages)
    i_send = i_recv = r_send = r_recv = None
    for index, message in enumerate(vector["messages"]):
        payload = bytes.fromhex(message["payload"])
        expected = bytes.fromhex(message["ciphertext"])
        from_initiator = one_way or index % 2 == 0
        if index < handshake_len:
            sender, receiver = (initiator, responder) if from_initiator else (responder, initiator)
            assert sender.write_message(payload) == expected, f"handshake message {index}"
            assert receiver.read_message(expected) == payload
            if index == handshake_len - 1:
                assert initiator.finished and responder.finished
                assert initiator.handshake_hash == responder.handshake_hash
                assert initiator.handshake_hash.hex() == vector["handshake_hash"]
                i_send, i_recv = initiator.split()
                r_recv, r_send = responder.split()
        else:
            assert i_send and i_recv and r_send and r_recv
            send, recv = (i_send, r_recv) if from_initiator else (r_send, i_recv)
            assert send.encrypt_with_ad(b"", payload) == expected, f"transport message {index}"
            assert recv.decrypt_with_ad(b"", expected) == payload


@needs_vectors
@pytest.mark.parametrize("vector", _VECTORS, ids=[v["protocol_name"] for v in _VECTORS] or None)
def test_every_vector_byte_for_byte(vector: dict[str, Any]) -> None:
    _replay(vector)


@needs_vectors
def test_the_vectors_include_the_patterns_koikoi_uses() -> None:
    names = {v["protocol_name"] for v in _VECTORS}
    assert "Noise_XX_25519_ChaChaPoly_SHA256" in names
    assert "Noise_XXpsk3_25519_ChaChaPoly_SHA256" in names


@needs_vectors
def test_a_changed_vector_byte_is_caught() -> None:
    # The replay must be able to fail: flip one ciphertext byte of XXpsk3's last message.
    vector = next(v for v in _VECTORS if v["protocol_name"].startswith("Noise_XXpsk3"))
    broken = json.loads(json.dumps(vector))
    ciphertext = bytearray.fromhex(broken["messages"][2]["ciphertext"])
    ciphertext[-1] ^= 1
    broken["messages"][2]["ciphertext"] = ciphertext.hex()
    with pytest.raises(AssertionError):
        _replay(broken)


def test_psk_modifiers_place_the_token() -> None:
    xx = Pattern.from_protocol_name("Noise_XXpsk3_25519_ChaChaPoly_SHA256")
    assert xx.messages == (("e",), ("e", "ee", "s", "es"), ("s", "se", "psk"))
    nn = Pattern.from_protocol_name("Noise_NNpsk0+psk2_25519_ChaChaPoly_SHA256")
    assert nn.messages == (("psk", "e"), ("e", "ee", "psk"))
    for bad in (
        "Noise_XX_448_ChaChaPoly_SHA256",
        "Noise_XX_25519_AESGCM_SHA256",
        "Noise_ZZ_25519_ChaChaPoly_SHA256",
        "Noise_XXpsk4_25519_ChaChaPoly_SHA256",
    ):
        with pytest.raises(NoiseError):
            Pattern.from_protocol_name(bad)


def _xxpsk3_pair(
    psk_i: bytes = bytes(32), psk_r: bytes = bytes(32)
) -> tuple[HandshakeState, HandshakeState]:
    name = "Noise_XXpsk3_25519_ChaChaPoly_SHA256"
    return (
        HandshakeState(name, initiator=True, s=X25519PrivateKey.generate(), psks=[psk_i]),
        HandshakeState(name, initiator=False, s=X25519PrivateKey.generate(), psks=[psk_r]),
    )


def test_different_psks_fail_at_the_third_message() -> None:
    initiator, responder = _xxpsk3_pair(bytes(32), b"\1" * 32)
    responder.read_message(initiator.write_message(b""))
    initiator.read_message(responder.write_message(b""))
    with pytest.raises(DecryptError):
        responder.read_message(initiator.write_message(b""))


def test_payload_factory_sees_the_hash_used_as_associated_data() -> None:
    initiator, responder = _xxpsk3_pair()
    responder.read_message(initiator.write_message(b""))
    seen: list[bytes] = []

    def payload(h: bytes) -> bytes:
        seen.append(h)
        return h

    message = responder.write_message(payload)
    assert initiator.read_message(message) == seen[0] == initiator.payload_hash
    assert responder.payload_hash == seen[0]


def test_out_of_turn_and_after_finish_are_refused() -> None:
    initiator, responder = _xxpsk3_pair()
    with pytest.raises(NoiseError, match="out of turn"):
        responder.write_message(b"")
    with pytest.raises(NoiseError, match="out of turn"):
        initiator.read_message(b"\0" * 48)
    responder.read_message(initiator.write_message(b""))
    initiator.read_message(responder.write_message(b""))
    responder.read_message(initiator.write_message(b""))
    with pytest.raises(NoiseError, match="finished"):
        initiator.write_message(b"")


@pytest.mark.parametrize("size", [0, 31, 47])
def test_truncated_handshake_messages_are_noise_errors(size: int) -> None:
    initiator, responder = _xxpsk3_pair()
    message = initiator.write_message(b"")
    with pytest.raises(NoiseError):
        responder.read_message(message[:size])


def test_message_size_limit() -> None:
    initiator, responder = _xxpsk3_pair()
    with pytest.raises(NoiseError, match="exceeds"):
        initiator.write_message(bytes(MAX_MESSAGE_LEN))
    with pytest.raises(NoiseError, match="exceeds"):
        responder.read_message(bytes(MAX_MESSAGE_LEN + 1))


def test_low_order_public_key_is_refused() -> None:
    initiator, responder = _xxpsk3_pair()
    responder.read_message(initiator.write_message(b""))
    message = bytearray(responder.write_message(b""))
    message[:32] = bytes(32)  # the all-zero point: X25519 gives an all-zero secret
    with pytest.raises(NoiseError):
        initiator.read_message(bytes(message))


def test_cipherstate_nonces() -> None:
    send, recv = CipherState(b"k" * 32), CipherState(b"k" * 32)
    first, second = send.encrypt_with_ad(b"", b"a"), send.encrypt_with_ad(b"", b"a")
    assert first != second
    with pytest.raises(DecryptError):
        recv.decrypt_with_ad(b"", second)  # reordered: nonce 0 expected
    assert recv.n == 0  # a failed decryption does not consume the nonce
    assert recv.decrypt_with_ad(b"", first) == b"a"
    with pytest.raises(DecryptError):
        recv.decrypt_with_ad(b"", first)  # replayed
    send.set_nonce(MAX_NONCE)
    with pytest.raises(NoiseError, match="nonce"):
        send.encrypt_with_ad(b"", b"a")
    assert CipherState().encrypt_with_ad(b"ad", b"clear") == b"clear"
    with pytest.raises(NoiseError):
        CipherState(b"short")
