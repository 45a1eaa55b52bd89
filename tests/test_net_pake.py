"""The SPAKE2 step that turns a room password into the Noise PSK."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.net.errors import ProtocolError
from koikoi.net.pake import OPEN_ROOM_PSK, PAKE_MESSAGE_LEN, Pake
from koikoi.net.roles import Role


def _exchange(host_password: str, joiner_password: str) -> tuple[bytes, bytes]:
    host, joiner = Pake(Role.HOST, host_password), Pake(Role.JOINER, joiner_password)
    return host.finish(joiner.message), joiner.finish(host.message)


def test_same_password_same_psk_fresh_each_time() -> None:
    first = _exchange("yanagi", "yanagi")
    second = _exchange("yanagi", "yanagi")
    assert first[0] == first[1] and len(first[0]) == 32
    assert first[0] != second[0]  # new randomness every exchange
    assert first[0] != OPEN_ROOM_PSK


def test_different_passwords_different_psks() -> None:
    host_psk, joiner_psk = _exchange("yanagi", "kiri")
    assert host_psk != joiner_psk


def test_open_room_is_zero_psk_and_empty_message() -> None:
    host, joiner = Pake(Role.HOST, ""), Pake(Role.JOINER, "")
    assert host.message == joiner.message == b"" and not host.private
    assert host.finish(b"") == OPEN_ROOM_PSK
    with pytest.raises(ProtocolError, match="open room"):
        Pake(Role.HOST, "").finish(b"B" + bytes(32))


def test_messages_carry_the_side() -> None:
    host, joiner = Pake(Role.HOST, "pw"), Pake(Role.JOINER, "pw")
    assert len(host.message) == len(joiner.message) == PAKE_MESSAGE_LEN
    assert (host.message[:1], joiner.message[:1]) == (b"A", b"B")
    with pytest.raises(ProtocolError, match="from side B"):
        host.finish(host.message)  # reflected back at the host


def test_single_use() -> None:
    host, joiner = Pake(Role.HOST, "pw"), Pake(Role.JOINER, "pw")
    host.finish(joiner.message)
    with pytest.raises(ProtocolError, match="already finished"):
        host.finish(joiner.message)


@pytest.mark.parametrize(
    "message",
    [b"", b"B", b"B" + bytes(31), b"B" + bytes(33), b"B" + bytes(32), b"B" + b"\xff" * 32],
)
def test_malformed_messages(message: bytes) -> None:
    with pytest.raises(ProtocolError, match="malformed PAKE message"):
        Pake(Role.HOST, "pw").finish(message)


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_fuzz_group_elements(element: bytes) -> None:
    # Any 32 bytes either make a (useless) key or a ProtocolError, never another exception.
    with contextlib.suppress(ProtocolError):
        assert len(Pake(Role.HOST, "pw").finish(b"B" + element)) == 32
