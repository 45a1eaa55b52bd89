"""The group of private dealing: cards as points, keys as scalars, encryption as multiplication.

Two-party mental poker (SRA) needs a *commutative* cipher: ``a·(b·P) = b·(a·P)``. Here it is
scalar multiplication in the prime-order subgroup of Ed25519 (order ``L``, about ``2^252``),
through libsodium's bindings in PyNaCl: a key is a nonzero scalar mod ``L``, encrypting a
point multiplies it by the key, decrypting multiplies by the key's inverse mod ``L``.

- **Cards** are 48 fixed points, one per card id (RULES.md R1.1), each the hash-to-curve
  (Elligator 2, ``crypto_core_ed25519_from_uniform``) of ``SHA-256("koikoi-net/3 card\\0" ‖
  u8(id))``: nobody knows a discrete logarithm between two of them, so no key turns one card
  into another.
- **Keys and shuffles** come from a player's secret seed only (:func:`derive_scalar`,
  :func:`derive_permutation`), so a seed revealed after the deal lets anyone replay it.
- **Checks**: every point received must be the canonical encoding of a point of the
  prime-order subgroup other than the identity (:func:`check_point`: this rejects low-order
  points, points of the full curve outside the subgroup, non-canonical encodings and the
  identity); every key received must be a canonical nonzero scalar (:func:`check_scalar`);
  every opened card must be one of the 48 (:func:`card_of`).

>>> key = derive_scalar(bytes(32), b"ctx", b"example", 0)
>>> sealed = encrypt(CARD_POINTS[5], key)
>>> sealed != CARD_POINTS[5] and card_of(decrypt(sealed, key))
5
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

from nacl import bindings as _sodium
from nacl.exceptions import RuntimeError as _SodiumError

POINT_LEN: Final = 32
SCALAR_LEN: Final = 32
CARDS: Final = 48
ORDER: Final = 2**252 + 27742317777372353535851937790883648493
"""``L``, the order of Ed25519's prime-order subgroup."""

CARD_LABEL: Final = b"koikoi-net/3 card\0"
SCALAR_LABEL: Final = b"koikoi-net/3 scalar\0"
SHUFFLE_LABEL: Final = b"koikoi-net/3 shuffle\0"


class GroupError(ValueError):
    """A point or a key that private dealing does not accept (the sentence says why)."""


def _card_point(card: int) -> bytes:
    return _sodium.crypto_core_ed25519_from_uniform(
        hashlib.sha256(CARD_LABEL + bytes([card])).digest()
    )


CARD_POINTS: Final[tuple[bytes, ...]] = tuple(_card_point(card) for card in range(CARDS))
"""The point of each card id, ``CARD_POINTS[id]``."""

_CARD_OF_POINT: Final[dict[bytes, int]] = {point: card for card, point in enumerate(CARD_POINTS)}


def card_of(point: bytes) -> int | None:
    """The card id whose point is ``point``, or ``None`` when it is none of the 48."""
    return _CARD_OF_POINT.get(point)


def check_point(point: bytes) -> bytes:
    """``point`` if it encodes an element of the prime-order subgroup other than the identity.

    >>> check_point(bytes(32))
    Traceback (most recent call last):
    ...
    koikoi.net.mental.GroupError: not a point of the prime-order subgroup
    """
    if len(point) != POINT_LEN or not _sodium.crypto_core_ed25519_is_valid_point(point):
        raise GroupError("not a point of the prime-order subgroup")
    return point


def check_scalar(key: bytes) -> bytes:
    """``key`` if it is a canonical nonzero scalar (little-endian, below ``L``)."""
    if len(key) != SCALAR_LEN:
        raise GroupError(f"a key is {SCALAR_LEN} bytes")
    value = int.from_bytes(key, "little")
    if value == 0:
        raise GroupError("the key is zero")
    if value >= ORDER:
        raise GroupError("the key is not reduced modulo the group order")
    return key


def encrypt(point: bytes, key: bytes) -> bytes:
    """``key·point``; ``point`` must be valid (libsodium refuses anything else)."""
    try:
        return _sodium.crypto_scalarmult_ed25519_noclamp(key, point)
    except _SodiumError as error:  # a bad point, or a product that is the identity
        raise GroupError("not a point of the prime-order subgroup") from error


def invert(key: bytes) -> bytes:
    """``key⁻¹ mod L``."""
    return _sodium.crypto_core_ed25519_scalar_invert(key)


def multiply(first: bytes, second: bytes) -> bytes:
    """``first·second mod L``: two keys as one."""
    return _sodium.crypto_core_ed25519_scalar_mul(first, second)


def decrypt(point: bytes, key: bytes) -> bytes:
    """``key⁻¹·point``: undoes :func:`encrypt` with the same key."""
    return encrypt(point, invert(key))


def derive_scalar(seed: bytes, context: bytes, label: bytes, index: int) -> bytes:
    """The nonzero key number ``index`` named ``label``, from ``seed`` in ``context``.

    ``SHA-512("koikoi-net/3 scalar\\0" ‖ u32(len(context)) ‖ context ‖ label ‖ "\\0" ‖
    u32(index) ‖ u32(attempt) ‖ seed)`` reduced mod ``L``; ``attempt`` is 0, or 1, 2 … in
    the (about ``2^-252``) case of a zero.
    """
    prefix = (
        SCALAR_LABEL
        + len(context).to_bytes(4, "big")
        + context
        + label
        + b"\0"
        + index.to_bytes(4, "big")
    )
    attempt = 0
    while True:
        digest = hashlib.sha512(prefix + attempt.to_bytes(4, "big") + seed).digest()
        key = _sodium.crypto_core_ed25519_scalar_reduce(digest)
        if any(key):
            return key
        attempt += 1  # pragma: no cover - probability 2^-252


def derive_permutation(seed: bytes, context: bytes, size: int = CARDS) -> tuple[int, ...]:
    """A uniform permutation of ``range(size)`` from ``seed``: Fisher–Yates on a SHAKE-256
    stream of ``"koikoi-net/3 shuffle\\0" ‖ u32(len(context)) ‖ context ‖ seed``, each index
    drawn from 4 bytes by rejection (values at or above the largest multiple of the range are
    skipped), so no index is favoured.

    >>> sorted(derive_permutation(bytes(32), b"")) == list(range(48))
    True
    """
    xof = hashlib.shake_256(SHUFFLE_LABEL + len(context).to_bytes(4, "big") + context + seed)
    stream = xof.digest(4 * size * 4)
    order = list(range(size))
    offset = 0
    for last in range(size - 1, 0, -1):
        span = last + 1
        limit = (1 << 32) - (1 << 32) % span
        while True:
            if offset + 4 > len(stream):  # pragma: no cover - needs ~3·size rejections
                stream = xof.digest(2 * len(stream))  # the same stream, longer
            value = int.from_bytes(stream[offset : offset + 4], "big")
            offset += 4
            if value < limit:
                break
        pick = value % span
        order[last], order[pick] = order[pick], order[last]
    return tuple(order)


def join_points(points: Sequence[bytes]) -> bytes:
    """Points (or keys) as one byte string, 32 bytes each, in order."""
    return b"".join(points)


def split_points(data: bytes, size: int = POINT_LEN) -> tuple[bytes, ...]:
    """The inverse of :func:`join_points`."""
    return tuple(data[i : i + size] for i in range(0, len(data), size))
