"""The group of private dealing (koikoi.net.mental): card points, keys, and what is refused."""

from __future__ import annotations

import doctest
import hashlib
from collections.abc import Callable
from functools import partial

import pytest
from nacl import bindings

from koikoi.net import dealing, mental
from koikoi.net.mental import CARD_POINTS, GroupError, check_point, check_scalar

P = 2**255 - 19

# The eight points of order 1, 2, 4 and 8 (the torsion subgroup), canonically encoded.
SMALL_ORDER = [
    bytes.fromhex("0100000000000000000000000000000000000000000000000000000000000000"),
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000000"),
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000080"),
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
]


def test_the_docstring_examples_run() -> None:
    for module in (mental, dealing):
        failures, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert attempted > 0 and failures == 0, module.__name__


def test_the_48_card_points_are_the_documented_hash_to_curve_and_all_differ() -> None:
    for card, point in enumerate(CARD_POINTS):
        label = hashlib.sha256(b"koikoi-net/3 card\0" + bytes([card])).digest()
        assert point == bindings.crypto_core_ed25519_from_uniform(label)
        assert check_point(point) == point
        assert mental.card_of(point) == card
    assert len(set(CARD_POINTS)) == 48
    # A vector for other implementations (docs/protocol.md).
    assert CARD_POINTS[0].hex() == (
        "b35645a714ed1375f15b10e8699eeff78038ffc1d29291fa01a77d24b7196c82"
    )
    assert CARD_POINTS[47].hex() == (
        "ced4d33d6b44823cf4da90143d625a70472c312b685db1243b6d51fe9e179c27"
    )


def test_encryption_commutes_and_the_inverse_undoes_it() -> None:
    a = mental.derive_scalar(b"a" * 32, b"ctx", b"k", 0)
    b = mental.derive_scalar(b"b" * 32, b"ctx", b"k", 0)
    card = CARD_POINTS[17]
    both = mental.encrypt(mental.encrypt(card, a), b)
    assert both == mental.encrypt(mental.encrypt(card, b), a)
    assert mental.decrypt(mental.decrypt(both, a), b) == card
    assert mental.card_of(mental.encrypt(card, a)) is None


@pytest.mark.parametrize("index", range(len(SMALL_ORDER)))
def test_low_order_points_and_the_identity_are_refused(index: int) -> None:
    with pytest.raises(GroupError, match="prime-order subgroup"):
        check_point(SMALL_ORDER[index])
    key = mental.derive_scalar(bytes(32), b"", b"k", 0)
    with pytest.raises(GroupError):
        mental.encrypt(SMALL_ORDER[index], key)


def test_a_point_of_the_curve_outside_the_subgroup_is_refused() -> None:
    mixed = bindings.crypto_core_ed25519_add(CARD_POINTS[3], SMALL_ORDER[4])
    assert mixed != CARD_POINTS[3]
    with pytest.raises(GroupError):
        check_point(mixed)


def test_non_canonical_encodings_are_refused() -> None:
    # y = p + 1 is y = 1 (the identity) written with a value at or above the field prime.
    for y in (P, P + 1, 2**255 - 1):
        with pytest.raises(GroupError):
            check_point(y.to_bytes(32, "little"))
    # A valid point with its sign bit flipped for x is another point or none: never itself.
    flipped = bytearray(CARD_POINTS[0])
    flipped[31] ^= 0x80
    assert mental.card_of(bytes(flipped)) is None


def test_bytes_that_are_no_point_at_all_are_refused() -> None:
    refused = 0
    for i in range(40):
        candidate = hashlib.sha256(b"not a point" + bytes([i])).digest()
        if not bindings.crypto_core_ed25519_is_valid_point(candidate):
            with pytest.raises(GroupError):
                check_point(candidate)
            refused += 1
    assert refused > 10
    with pytest.raises(GroupError):
        check_point(CARD_POINTS[0][:31])


def test_keys_must_be_canonical_nonzero_scalars() -> None:
    with pytest.raises(GroupError, match="zero"):
        check_scalar(bytes(32))
    with pytest.raises(GroupError, match="reduced"):
        check_scalar(mental.ORDER.to_bytes(32, "little"))
    with pytest.raises(GroupError, match="reduced"):
        check_scalar((mental.ORDER + 5).to_bytes(32, "little"))
    with pytest.raises(GroupError):
        check_scalar(bytes(31))
    assert check_scalar((mental.ORDER - 1).to_bytes(32, "little"))


def test_keys_and_shuffles_depend_on_the_seed_and_the_context_only() -> None:
    seed = bytes(range(32))
    assert mental.derive_scalar(seed, b"x", b"k", 3) == mental.derive_scalar(seed, b"x", b"k", 3)
    assert mental.derive_scalar(seed, b"x", b"k", 3) != mental.derive_scalar(seed, b"y", b"k", 3)
    assert mental.derive_scalar(seed, b"x", b"k", 3) != mental.derive_scalar(seed, b"x", b"k", 4)
    assert mental.derive_permutation(seed, b"x") == mental.derive_permutation(seed, b"x")
    assert mental.derive_permutation(seed, b"x") != mental.derive_permutation(seed, b"y")
    assert sorted(mental.derive_permutation(seed, b"x")) == list(range(48))


def test_the_shuffle_is_not_biased() -> None:
    """Over many seeds, every card lands on position 0 about equally often (Fisher–Yates on
    an unbiased stream): a chi-square far below what a skewed shuffle gives."""
    runs = 4800
    counts = [0] * 48
    for i in range(runs):
        counts[mental.derive_permutation(i.to_bytes(32, "big"), b"bias")[0]] += 1
    expected = runs / 48
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 100  # 47 degrees of freedom: p < 1e-5 above 100


def _refused(call: Callable[[], object]) -> bool:
    try:
        call()
    except GroupError:
        return True
    return False


def test_multiplying_refuses_exactly_the_points_the_check_refuses() -> None:
    """A dealer does not check a deck it multiplies whole (koikoi.net.dealing ``_deck``): the
    multiplication must refuse exactly what :func:`check_point` refuses. Every family of bad
    point of 32 bytes (a deck's are: its length is checked first) — small order, torsion
    added to a card, non-canonical, off the curve — and good ones, and 300 arbitrary byte
    strings (about half of them on the curve)."""
    key = mental.derive_scalar(bytes(32), b"", b"k", 0)
    candidates = [*SMALL_ORDER, *CARD_POINTS[:4]]
    candidates += [bindings.crypto_core_ed25519_add(CARD_POINTS[5], t) for t in SMALL_ORDER[1:]]
    candidates += [y.to_bytes(32, "little") for y in (P, P + 1, P + 5, 2**255 - 1)]
    candidates += [mental.ORDER.to_bytes(32, "little")]
    candidates += [mental.encrypt(CARD_POINTS[i], key) for i in range(4)]
    for i in range(300):
        candidates.append(hashlib.sha256(b"candidate %d" % i).digest())
    flipped = bytearray(CARD_POINTS[1])
    flipped[31] ^= 0x80
    candidates.append(bytes(flipped))
    good = bad = 0
    for point in candidates:
        checked = _refused(partial(check_point, point))
        multiplied = _refused(partial(mental.encrypt, point, key))
        assert checked == multiplied, point.hex()
        good, bad = good + (not checked), bad + checked
    assert good > 20 and bad > 100
