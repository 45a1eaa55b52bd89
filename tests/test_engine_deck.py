"""Deck orders from a seed and the deal layout (docs/deck.md, RULES.md R4.1).

``reference_deck`` is written here from docs/deck.md, not from the engine; the vectors in
tests/data/deck_vectors.json freeze the order so that no change to either goes unnoticed
(a peer on another version must deal the same deck).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine.cards import ALL_CARDS, CARD_IDS, parse_card, to_set
from koikoi.engine.deck import Deal, deal_from_order, deck_from_seed

VECTORS = Path(__file__).parent / "data" / "deck_vectors.json"


class _Shake:
    """The SHAKE-256 output of one message, read a byte at a time, as long as needed."""

    def __init__(self, message: bytes) -> None:
        self.message = message
        self.out = b""
        self.pos = 0

    def next_byte(self) -> int:
        if self.pos >= len(self.out):
            self.out = hashlib.shake_256(self.message).digest(max(64, 2 * len(self.out)))
        b = self.out[self.pos]
        self.pos += 1
        return b


def reference_deck(seed: bytes, round_no: int, deal_no: int) -> list[int]:
    message = (
        b"koikoi/deck/v1"
        + len(seed).to_bytes(1, "big")
        + seed
        + round_no.to_bytes(2, "big")
        + deal_no.to_bytes(2, "big")
    )
    xof = _Shake(message)
    deck = list(range(48))
    for i in range(47, 0, -1):
        n = i + 1
        while True:
            b = xof.next_byte()
            if b < 256 - 256 % n:
                break
        j = b % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _vectors() -> list[dict[str, object]]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert data["algorithm"] == "koikoi/deck/v1"
    vectors: list[dict[str, object]] = data["vectors"]
    return vectors


def test_deck_vectors_frozen() -> None:
    vectors = _vectors()
    assert len(vectors) >= 9
    for v in vectors:
        seed = bytes.fromhex(str(v["seed_hex"]))
        round_no, deal_no = int(v["round"]), int(v["deal"])  # type: ignore[call-overload]
        order = [parse_card(name) for name in v["order"]]  # type: ignore[attr-defined]
        assert reference_deck(seed, round_no, deal_no) == order, v
        assert deck_from_seed(seed, round_no, deal_no) == order, v


def test_deck_worked_vector_of_docs() -> None:
    # docs/deck.md: seed b"koikoi", round 1, deal 0, the first 8 cards (the oya's hand).
    order = deck_from_seed(b"koikoi", 1, 0)
    doc = (Path(__file__).parent.parent / "docs" / "deck.md").read_text(encoding="utf-8")
    first8 = ", ".join(f"`{CARD_IDS[c]}`" for c in order[:8])
    assert first8 in doc
    block = doc.split("The full order, as numbers:")[1].split("```")[1]
    assert [int(n) for n in re.findall(r"\d+", block)] == order
    message = b"koikoi/deck/v1\x06koikoi\x00\x01\x00\x00"
    assert "message (25 bytes) = 6b6f696b6f692f6465636b2f7631 06 6b6f696b6f69 0001 0000" in doc
    stream = " ".join(f"{b:02x}" for b in hashlib.shake_256(message).digest(16))
    assert f"SHAKE-256 stream   = {stream} …" in doc


@given(
    st.binary(max_size=255),
    st.integers(min_value=0, max_value=65535),
    st.integers(min_value=0, max_value=65535),
)
def test_deck_from_seed_matches_reference(seed: bytes, round_no: int, deal_no: int) -> None:
    order = deck_from_seed(seed, round_no, deal_no)
    assert order == reference_deck(seed, round_no, deal_no)
    assert sorted(order) == list(range(48))  # a permutation
    assert deck_from_seed(seed, round_no, deal_no) == order  # deterministic


def test_deck_differs_per_seed_round_and_deal() -> None:
    orders = {
        tuple(deck_from_seed(seed, r, d))
        for seed in (bytes(32), b"koikoi", bytes(range(32)), b"")
        for r in range(1, 13)
        for d in range(3)
    }
    assert len(orders) == 4 * 12 * 3


def test_deck_seed_length_is_part_of_the_message() -> None:
    # b"\x00" + round 1 must not read as b"" + a different round: the length byte separates.
    assert deck_from_seed(b"\x00", 1, 0) != deck_from_seed(b"", 0, 1)
    assert deck_from_seed(b"", 1, 0) == reference_deck(b"", 1, 0)
    assert deck_from_seed(bytes(255), 1, 0) == reference_deck(bytes(255), 1, 0)


@pytest.mark.parametrize(
    ("seed", "round_no", "deal_no"),
    [(bytes(256), 1, 0), (b"s", -1, 0), (b"s", 65536, 0), (b"s", 1, -1), (b"s", 1, 65536)],
)
def test_deck_from_seed_rejects_out_of_range(seed: bytes, round_no: int, deal_no: int) -> None:
    with pytest.raises(ValueError):
        deck_from_seed(seed, round_no, deal_no)


# -- the deal layout (R4.1) --------------------------------------------------------------------


@given(st.permutations(range(48)), st.sampled_from([0, 1]))
def test_R4_1_deal_layout_oya_first(order: list[int], oya: int) -> None:
    deal = deal_from_order(order, oya)
    assert isinstance(deal, Deal)
    assert deal.hands[oya] == to_set(order[0:8])
    assert deal.hands[1 - oya] == to_set(order[8:16])
    assert deal.field == to_set(order[16:24])
    assert deal.stock == tuple(order[24:48])
    assert [h.bit_count() for h in deal.hands] == [8, 8]
    assert deal.field.bit_count() == 8 and len(deal.stock) == 24
    assert deal.hands[0] | deal.hands[1] | deal.field | to_set(deal.stock) == ALL_CARDS


@pytest.mark.parametrize(
    "order",
    [
        list(range(47)),
        list(range(48)) + [0],
        list(range(49)),
        [0] + list(range(47)),  # 48 long, one card twice, one missing
        list(range(47)) + [48],
        list(range(47)) + [-1],
        list(range(47)) + ["kiri_plain_2"],
        [],
    ],
)
def test_R4_1_deal_from_order_rejects_bad_orders(order: list[object]) -> None:
    with pytest.raises(ValueError):
        deal_from_order(order, 0)  # type: ignore[arg-type]


@given(st.lists(st.integers(min_value=0, max_value=47), min_size=48, max_size=48))
def test_R4_1_deal_from_order_needs_each_card_once(order: list[int]) -> None:
    if len(set(order)) == 48:
        assert deal_from_order(order, 1).hands[1] == to_set(order[:8])
    else:
        with pytest.raises(ValueError):
            deal_from_order(order, 1)
