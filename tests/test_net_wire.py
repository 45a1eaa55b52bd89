"""Framing, strict msgpack and schemas against hostile input."""

from __future__ import annotations

import contextlib

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.net.errors import ProtocolError
from koikoi.net.wire import (
    MAX_DEPTH,
    MAX_FRAME,
    Bool,
    Bytes,
    FrameDecoder,
    Int,
    ListOf,
    OneOf,
    Record,
    Str,
    Value,
    decode_message,
    encode_frame,
    encode_message,
    pack,
    unpack,
)

# --- Framing -------------------------------------------------------------------------------


def test_frames_split_anywhere_come_out_whole() -> None:
    payloads = [b"a", b"bc" * 100, bytes(MAX_FRAME)]
    stream = b"".join(encode_frame(p) for p in payloads)
    for step in (1, 3, 4, 5, 1000, len(stream)):
        decoder = FrameDecoder()
        out: list[bytes] = []
        for i in range(0, len(stream), step):
            out += decoder.feed(stream[i : i + step])
        assert out == payloads
        assert decoder.buffered == 0
        decoder.close()


def test_oversize_length_is_refused_before_the_body_arrives() -> None:
    decoder = FrameDecoder()
    with pytest.raises(ProtocolError, match="frame length 65537"):
        decoder.feed((MAX_FRAME + 1).to_bytes(4, "big"))  # the prefix alone
    # The decoder stays failed: the connection is to be closed.
    with pytest.raises(ProtocolError, match="frame length"):
        decoder.feed(b"\0\0\0\1x")


def test_huge_length_buffers_nothing() -> None:
    decoder = FrameDecoder()
    with pytest.raises(ProtocolError):
        decoder.feed(b"\xff\xff\xff\xff" + bytes(1000))
    assert decoder.buffered == 0


def test_zero_length_frame_is_refused() -> None:
    with pytest.raises(ProtocolError, match="not in 1.."):
        FrameDecoder().feed(b"\0\0\0\0")
    with pytest.raises(ProtocolError):
        encode_frame(b"")
    with pytest.raises(ProtocolError):
        encode_frame(bytes(MAX_FRAME + 1))


@pytest.mark.parametrize("cut", [1, 3, 4, 6])
def test_truncated_stream_is_reported_on_close(cut: int) -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(b"hello")[:cut]) == []
    with pytest.raises(ProtocolError, match="middle of a frame"):
        decoder.close()


def test_smaller_cap() -> None:
    decoder = FrameDecoder(max_frame=10)
    assert decoder.feed(encode_frame(bytes(10))) == [bytes(10)]
    with pytest.raises(ProtocolError):
        decoder.feed(encode_frame(bytes(11)))


# --- Strict msgpack ------------------------------------------------------------------------


def test_round_trip_of_every_allowed_type() -> None:
    value: Value = {
        "nil": None,
        "b": True,
        "i": -(2**63),
        "u": 2**64 - 1,
        "s": "桜",
        "y": b"\0\xff",
        "l": [1, [2, {"x": []}]],
    }
    assert unpack(pack(value)) == value


HOSTILE = {
    "timestamp ext -1": msgpack.packb(msgpack.Timestamp(1, 0)),
    "nested timestamp": msgpack.packb({"a": [msgpack.Timestamp(1, 0)]}),
    "ext type 5": msgpack.packb(msgpack.ExtType(5, b"x")),
    "ext type -2": b"\xd4\xfex",  # fixext 1 with a negative (reserved) type
    "malformed timestamp": b"\xd4\xff\x00",
    "duplicate key": b"\x82\xa1a\x01\xa1a\x02",
    "int key": msgpack.packb({1: 2}),
    "bytes key": msgpack.packb({b"a": 2}, use_bin_type=True),
    "nil key": b"\x81\xc0\x01",
    "float": msgpack.packb(1.5),
    "float32": b"\xca\x3f\xc0\x00\x00",
    "truncated": msgpack.packb({"a": [1, 2, 3]})[:-1],
    "trailing bytes": msgpack.packb(1) + b"\x01",
    "empty": b"",
    "bad utf-8": b"\xa2\xff\xfe",
    "reserved byte 0xc1": b"\xc1",
    "array length lies": b"\xdd\xff\xff\xff\xff",
    "str length lies": b"\xdb\xff\xff\xff\xff",
    "too deep": b"\x91" * (MAX_DEPTH + 1) + b"\x01",
    "very deep": b"\x91" * 100_000 + b"\x01",
}


@pytest.mark.parametrize("data", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_msgpack_is_a_protocol_error(data: bytes) -> None:
    with pytest.raises(ProtocolError):
        unpack(data)


def test_reasons_are_one_clear_line() -> None:
    for data, words in (
        (HOSTILE["duplicate key"], "duplicate map key 'a'"),
        (HOSTILE["ext type 5"], "ext type 5"),
        (HOSTILE["timestamp ext -1"], "timestamp"),
        (HOSTILE["int key"], "map key"),
        (HOSTILE["bytes key"], "map key of type bytes"),
        (HOSTILE["float"], "float"),
    ):
        with pytest.raises(ProtocolError) as caught:
            unpack(data)
        assert words in str(caught.value)
        assert "\n" not in str(caught.value)


def test_nesting_limit_is_exact() -> None:
    assert unpack(b"\x91" * MAX_DEPTH + b"\x01") is not None


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1, 1.0, (1, 2), {1: 2}, {"a": {b"k": 1}}])
def test_pack_refuses_what_unpack_would(value: object) -> None:
    with pytest.raises(ProtocolError):
        pack(value)  # type: ignore[arg-type]


# --- Schemas -------------------------------------------------------------------------------

HELLO = Record(
    {
        "v": Int(1, 1),
        "nick": Str(max_len=8, min_len=1),
        "key": Bytes(32, 32),
        "rounds": OneOf((6, 12)),
        "doubling": Bool(),
        "tags": ListOf(Str(max_len=4), max_len=2),
        "extra": Bool(),
    },
    optional=frozenset({"extra"}),
)


def _hello(**changes: Value) -> bytes:
    fields: dict[str, Value] = {
        "v": 1,
        "nick": "taro",
        "key": bytes(32),
        "rounds": 6,
        "doubling": True,
        "tags": ["a"],
    }
    fields.update(changes)
    return encode_message("hello", **{k: v for k, v in fields.items() if v != "DROP"})


def test_a_good_message_reads_back_typed() -> None:
    message = decode_message(_hello(), {"hello": HELLO})
    assert message.kind == "hello"
    assert message.fields.get("nick", str) == "taro"
    assert message.fields.get("rounds", int) == 6
    assert message.fields.maybe("extra", bool) is None
    assert "extra" not in message.fields


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"v": 2}, "hello.v: 2 is outside 1..1"),
        ({"v": True}, "hello.v: expected an integer, got boolean"),
        ({"nick": ""}, "hello.nick: string length 0"),
        ({"nick": "x" * 9}, "hello.nick: string length 9"),
        ({"nick": "a\nb"}, "control characters"),
        ({"nick": "a\u202eb"}, "control characters"),  # a bidi override
        ({"nick": "\x85"}, "control characters"),
        ({"nick": b"taro"}, "hello.nick: expected a string, got bytes"),
        ({"key": bytes(31)}, "hello.key: expected 32 bytes, got 31"),
        ({"rounds": 7}, "hello.rounds: 7 is not one of 6, 12"),
        ({"rounds": True}, "hello.rounds: True is not one of"),
        ({"doubling": 1}, "hello.doubling: expected a boolean, got integer"),
        ({"tags": ["a", "b", "c"]}, "hello.tags: array length 3"),
        ({"tags": [1]}, "hello.tags[0]: expected a string"),
        ({"tags": "DROP"}, "hello: missing key 'tags'"),
        ({"bogus": 1}, "hello: unexpected key 'bogus'"),
    ],
)
def test_schema_violations_name_the_field(changes: dict[str, Value], reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_message(_hello(**changes), {"hello": HELLO})
    assert reason in str(caught.value)


@pytest.mark.parametrize("nick", ["山田\u3000太郎", "a b", "🎴", "👨\u200d👩\u200d👧", "é"])
def test_nicknames_of_every_script_are_fine(nick: str) -> None:
    assert decode_message(_hello(nick=nick[:8]), {"hello": HELLO}).fields.get("nick", str)


def test_unexpected_and_untyped_messages() -> None:
    with pytest.raises(ProtocolError, match="unexpected message 'bye' \\(expected 'hello'\\)"):
        decode_message(encode_message("bye"), {"hello": HELLO})
    with pytest.raises(ProtocolError, match="missing its type"):
        decode_message(pack({"v": 1}), {"hello": HELLO})
    with pytest.raises(ProtocolError, match="expected a map"):
        decode_message(pack([1]), {"hello": HELLO})


# --- Fuzz ----------------------------------------------------------------------------------

values: st.SearchStrategy[Value] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(1, 50), max_size=10))
def test_fuzz_random_bytes_never_escape_as_other_errors(data: bytes, cuts: list[int]) -> None:
    decoder = FrameDecoder(max_frame=256)
    position = 0
    try:
        for cut in [*cuts, len(data)]:
            for frame in decoder.feed(data[position : position + cut]):
                assert 0 < len(frame) <= 256
                with contextlib.suppress(ProtocolError):
                    decode_message(frame, {"hello": HELLO})
            position += cut
        decoder.close()
    except ProtocolError:
        pass


@settings(max_examples=300, deadline=None)
@given(values, st.data())
def test_fuzz_mutated_frames(value: Value, data: st.DataObject) -> None:
    frame = encode_frame(pack(value))
    assert unpack(FrameDecoder().feed(frame)[0]) == value
    mutated = bytearray(frame)
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(mutated) - 1))
        mutated[index] = data.draw(st.integers(0, 255))
    decoder = FrameDecoder()
    try:
        for payload in decoder.feed(bytes(mutated)):
            decoded = unpack(payload)
            assert unpack(pack(decoded)) == decoded  # what passes is clean
        decoder.close()
    except ProtocolError:
        pass
