"""Bytes on the wire: length-prefixed frames, strict msgpack, and message schemas.

Everything a peer sends passes three gates before anything else sees it:

1. :class:`FrameDecoder` cuts the stream into frames, refusing a length over the cap as soon
   as the 4-byte prefix arrives (nothing of the body is buffered first);
2. :func:`unpack` decodes msgpack strictly (no ext types, no timestamps, no duplicate or
   non-string map keys, no floats, bounded nesting) and only in its one canonical encoding
   (shortest ints, str and bin widths and array and map headers; map keys sorted by their
   UTF-8 bytes), so that no byte string that is signed or hashed can be re-encoded;
3. :func:`decode_message` checks the message against a declarative :class:`Record` schema.

Each gate raises :class:`~koikoi.net.errors.ProtocolError` with a one-line reason.

>>> decoder = FrameDecoder()
>>> frame = encode_frame(encode_message("ping", n=1))
>>> [decoder.feed(frame[:3]), len(decoder.feed(frame[3:]))]
[[], 1]
>>> msg = decode_message(encode_message("ping", n=1), {"ping": Record({"n": Int(0, 9)})})
>>> msg.kind, msg.fields.get("n", int)
('ping', 1)
>>> decode_message(encode_message("ping", n=10), {"ping": Record({"n": Int(0, 9)})})
Traceback (most recent call last):
koikoi.net.errors.ProtocolError: ping.n: 10 is outside 0..9
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol, TypeAlias, TypeVar

import msgpack  # type: ignore[import-untyped]

from koikoi.net.errors import ProtocolError

__all__ = [
    "MAX_FRAME",
    "Bool",
    "Bytes",
    "FrameDecoder",
    "Fields",
    "Int",
    "ListOf",
    "Message",
    "OneOf",
    "Record",
    "Schema",
    "Str",
    "Value",
    "decode_message",
    "encode_frame",
    "encode_message",
    "pack",
    "unpack",
]

MAX_FRAME: Final = 64 * 1024
"""Largest frame payload in bytes; a larger length prefix ends the connection."""
LENGTH_BYTES: Final = 4
MAX_DEPTH: Final = 16
"""Deepest nesting of arrays and maps a message may have."""
_INT_MIN: Final = -(2**63)
_INT_END: Final = 2**64

Value: TypeAlias = "None | bool | int | str | bytes | list[Value] | dict[str, Value]"
"""What koikoi-net/1 messages are made of (no floats, no ext types)."""

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


# --- Framing -------------------------------------------------------------------------------


def encode_frame(payload: bytes) -> bytes:
    """``payload`` behind its 4-byte big-endian length."""
    if not 0 < len(payload) <= MAX_FRAME:
        raise ProtocolError(f"frame payload of {len(payload)} bytes is not in 1..{MAX_FRAME}")
    return len(payload).to_bytes(LENGTH_BYTES, "big") + payload


class FrameDecoder:
    """Incremental frame decoder: :meth:`feed` stream bytes, get whole frame payloads.

    The decoder never holds more than one length prefix plus one capped body. After an error
    it stays failed: the connection is to be closed.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self._max = max_frame
        self._buffer = bytearray()
        self._need: int | None = None  # body length once the prefix is read
        self._failed: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received that do not yet make a whole frame."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        if self._failed is not None:
            raise self._failed
        frames: list[bytes] = []
        view = memoryview(data)
        while view:
            if self._need is None:
                take = LENGTH_BYTES - len(self._buffer)
                self._buffer += view[:take]
                view = view[take:]
                if len(self._buffer) < LENGTH_BYTES:
                    break
                length = int.from_bytes(self._buffer, "big")
                self._buffer.clear()
                if not 0 < length <= self._max:
                    self._failed = ProtocolError(f"frame length {length} is not in 1..{self._max}")
                    raise self._failed
                self._need = length
            take = self._need - len(self._buffer)
            self._buffer += view[:take]
            view = view[take:]
            if len(self._buffer) == self._need:
                frames.append(bytes(self._buffer))
                self._buffer.clear()
                self._need = None
        return frames

    def close(self) -> None:
        """The stream ended: raise if it stopped inside a frame."""
        if self._failed is not None:
            raise self._failed
        if self._need is not None or self._buffer:
            raise ProtocolError("connection closed in the middle of a frame")


# --- Strict msgpack ------------------------------------------------------------------------


class _Rejected(Exception):
    """Raised inside msgpack's hooks; turned into a ProtocolError by :func:`unpack`."""


def _reject_ext(code: int, data: bytes) -> object:
    raise _Rejected(f"msgpack ext type {code} is not allowed")


def _strict_map(pairs: list[tuple[object, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if not isinstance(key, str):
            raise _Rejected(f"map key of type {_kind(key)} is not allowed (keys are strings)")
        if key in result:
            raise _Rejected(f"duplicate map key {key!r}")
        result[key] = value
    return result


def _kind(value: object) -> str:
    if value is None:
        return "nil"
    for kind, name in (
        (bool, "boolean"),
        (int, "integer"),
        (str, "string"),
        (bytes, "bytes"),
        (list, "array"),
        (dict, "map"),
        (float, "float"),
        (msgpack.Timestamp, "timestamp (ext -1)"),
    ):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _check_tree(value: object) -> None:
    """Only koikoi-net/1 value types, ints in msgpack's range, nesting at most MAX_DEPTH."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ProtocolError(f"nesting deeper than {MAX_DEPTH} levels")
        if item is None or isinstance(item, bool | str | bytes):
            continue
        if isinstance(item, int):
            if not _INT_MIN <= item < _INT_END:
                raise ProtocolError("integer outside -2**63..2**64-1")
            continue
        if isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
            continue
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise ProtocolError(f"map key of type {_kind(key)} is not allowed")
                stack.append((child, depth + 1))
            continue
        raise ProtocolError(f"{_kind(item)} values are not allowed")


def _sorted_maps(value: object) -> object:
    """``value`` with every map's keys in canonical order (by their UTF-8 bytes)."""
    if isinstance(value, dict):
        return {
            key: _sorted_maps(value[key])
            for key in sorted(value, key=lambda k: str(k).encode("utf-8", "surrogatepass"))
        }
    if isinstance(value, list):
        return [_sorted_maps(item) for item in value]
    return value


def pack(value: Value) -> bytes:
    """The one canonical encoding of a message value; refuses what :func:`unpack` refuses.

    Shortest integer, string, binary, array and map forms (msgpack's packer always picks
    them) and map keys sorted by their UTF-8 bytes.

    >>> pack({"b": 1, "a": 2}) == bytes([0x82, 0xA1, 0x61, 0x02, 0xA1, 0x62, 0x01])
    True
    """
    _check_tree(value)
    packed: bytes = msgpack.packb(_sorted_maps(value), use_bin_type=True)
    return packed


def unpack(data: bytes, *, canonical: bool = True) -> Value:
    """Decode one msgpack value strictly; trailing bytes, ext types and floats are errors.

    So is any encoding but the canonical one (:func:`pack`): a wider integer, string or
    binary form than needed, a longer array or map header, map keys out of order.
    (``canonical=False`` skips that check only to read another version's hello.)

    >>> unpack(bytes([0xCC, 0x05]))
    Traceback (most recent call last):
    koikoi.net.errors.ProtocolError: malformed msgpack: not the canonical encoding of its value
    """
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            ext_hook=_reject_ext,
            object_pairs_hook=_strict_map,
            use_list=True,
        )
    except _Rejected as error:
        raise ProtocolError(f"malformed msgpack: {error}") from None
    except (ValueError, TypeError) as error:  # msgpack's own errors, bad UTF-8 included
        detail = str(error) or type(error).__name__
        raise ProtocolError(f"malformed msgpack: {detail}") from None
    # Timestamps (ext -1) are decoded by msgpack itself, bypassing ext_hook: the walk refuses
    # them along with floats.
    _check_tree(value)
    checked: Value = value
    if canonical and pack(checked) != data:
        raise ProtocolError("malformed msgpack: not the canonical encoding of its value")
    return checked


# --- Schemas -------------------------------------------------------------------------------


class Schema(Protocol[T_co]):
    """Checks a decoded value and returns it typed, or raises ProtocolError naming ``path``."""

    def check(self, value: object, path: str) -> T_co: ...


def _fail(path: str, what: str) -> ProtocolError:
    return ProtocolError(f"{path}: {what}")


@dataclass(frozen=True)
class Int:
    """An integer in ``min..max`` (booleans are not integers here)."""

    min: int
    max: int

    def check(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(path, f"expected an integer, got {_kind(value)}")
        if not self.min <= value <= self.max:
            raise _fail(path, f"{value} is outside {self.min}..{self.max}")
        return value


@dataclass(frozen=True)
class Bool:
    def check(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            raise _fail(path, f"expected a boolean, got {_kind(value)}")
        return value


@dataclass(frozen=True)
class Str:
    """A string of ``min_len..max_len`` characters with no control or format characters."""

    max_len: int
    min_len: int = 0

    def check(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise _fail(path, f"expected a string, got {_kind(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _fail(
                path, f"string length {len(value)} is not in {self.min_len}..{self.max_len}"
            )
        if any(_is_control(char) for char in value):
            raise _fail(path, "string contains control characters")
        return value


# Line breaks, C0/C1 controls, and format characters such as bidi overrides (which can make a
# nickname display as another); spaces of every width are fine, and so is the zero-width
# joiner that emoji sequences need.
_CONTROL_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ALLOWED_FORMAT: Final = frozenset({"\u200d"})


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in _CONTROL_CATEGORIES and char not in _ALLOWED_FORMAT


@dataclass(frozen=True)
class Bytes:
    """Binary of ``min_len..max_len`` bytes (``Bytes(32, 32)`` for exactly 32)."""

    min_len: int
    max_len: int

    def check(self, value: object, path: str) -> bytes:
        if not isinstance(value, bytes):
            raise _fail(path, f"expected bytes, got {_kind(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            size = (
                str(self.min_len)
                if self.min_len == self.max_len
                else f"{self.min_len}..{self.max_len}"
            )
            raise _fail(path, f"expected {size} bytes, got {len(value)}")
        return value


@dataclass(frozen=True)
class OneOf:
    """Exactly one of the listed values, type included (``True`` is not ``1``)."""

    choices: tuple[Value, ...]

    def check(self, value: object, path: str) -> Value:
        for choice in self.choices:
            if type(choice) is type(value) and choice == value:
                return choice
        allowed = ", ".join(repr(c) for c in self.choices)
        raise _fail(path, f"{value!r} is not one of {allowed}"[:200])


@dataclass(frozen=True)
class ListOf:
    """An array of ``min_len..max_len`` items, each checked by ``item``."""

    item: Schema[object]
    max_len: int
    min_len: int = 0

    def check(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list):
            raise _fail(path, f"expected an array, got {_kind(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _fail(path, f"array length {len(value)} is not in {self.min_len}..{self.max_len}")
        return [self.item.check(item, f"{path}[{i}]") for i, item in enumerate(value)]


class Fields:
    """The fields of a map that passed its :class:`Record` schema, read back typed.

    >>> Fields({"n": 3}).get("n", int)
    3
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = data

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def get(self, key: str, kind: type[T]) -> T:
        value = self._data[key]
        if not isinstance(value, kind):  # only if a caller disagrees with its own schema
            raise ProtocolError(f"{key}: expected {kind.__name__}, got {_kind(value)}")
        return value

    def maybe(self, key: str, kind: type[T]) -> T | None:
        return self.get(key, kind) if key in self._data else None


@dataclass(frozen=True)
class Record:
    """A map with exactly these string keys (``optional`` ones may be absent); no others."""

    fields: Mapping[str, Schema[object]]
    optional: frozenset[str] = frozenset()

    def check(self, value: object, path: str) -> Fields:
        if not isinstance(value, dict):
            raise _fail(path, f"expected a map, got {_kind(value)}")
        for key in value:
            if key not in self.fields:
                raise _fail(path, f"unexpected key {str(key)[:40]!r}")
        checked: dict[str, object] = {}
        for key, schema in self.fields.items():
            if key in value:
                checked[key] = schema.check(value[key], f"{path}.{key}")
            elif key not in self.optional:
                raise _fail(path, f"missing key {key!r}")
        return Fields(checked)


# --- Messages ------------------------------------------------------------------------------

TYPE_KEY: Final = "t"


@dataclass(frozen=True)
class Message:
    """A checked message: its type (the ``"t"`` key) and its other fields."""

    kind: str
    fields: Fields


def encode_message(kind: str, **fields: Value) -> bytes:
    """A message map ``{"t": kind, **fields}`` as msgpack bytes."""
    return pack({TYPE_KEY: kind, **fields})


def decode_message(payload: bytes, schemas: Mapping[str, Record]) -> Message:
    """Decode ``payload`` and check it against the schema for its type.

    ``schemas`` lists the message types acceptable at this point of the protocol; any other
    type is an unexpected (replayed, reordered or foreign) message.
    """
    value = unpack(payload)
    if not isinstance(value, dict):
        raise ProtocolError(f"message: expected a map, got {_kind(value)}")
    kind = value.get(TYPE_KEY)
    if not isinstance(kind, str):
        raise ProtocolError(f"message: missing its type key {TYPE_KEY!r}")
    schema = schemas.get(kind)
    if schema is None:
        expected = " or ".join(repr(name) for name in schemas)
        raise ProtocolError(f"unexpected message {kind[:40]!r} (expected {expected})")
    body = {key: item for key, item in value.items() if key != TYPE_KEY}
    return Message(kind, schema.check(body, kind))
