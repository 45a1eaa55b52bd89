"""The four-card short authentication string."""

from __future__ import annotations

import hashlib
from collections import Counter

from koikoi.engine import cards
from koikoi.net.sas import CARD_IDS, sas_cards


def test_golden_value() -> None:
    # Changing the derivation changes what players compare: it needs a protocol version bump.
    assert sas_cards(bytes(32)) == ("ume_ribbon", "botan_ribbon", "matsu_ribbon", "kiku_ribbon")


def test_four_distinct_known_cards() -> None:
    for i in range(200):
        cards = sas_cards(hashlib.sha256(bytes([i])).digest())
        assert len(set(cards)) == 4
        assert set(cards) <= set(CARD_IDS)


def test_one_bit_changes_the_cards() -> None:
    h = bytearray(hashlib.sha256(b"session").digest())
    before = sas_cards(bytes(h))
    h[31] ^= 1
    assert sas_cards(bytes(h)) != before


def test_every_card_turns_up_about_equally() -> None:
    counts = Counter(
        card for i in range(3000) for card in sas_cards(i.to_bytes(4, "big") + bytes(28))
    )
    assert set(counts) == set(CARD_IDS)
    expected = 3000 * 4 / 48  # 250
    assert all(0.7 * expected < n < 1.3 * expected for n in counts.values())


def test_card_ids_are_rules_r1_1() -> None:
    assert len(CARD_IDS) == len(set(CARD_IDS)) == 48
    assert CARD_IDS[0] == "matsu_crane" and CARD_IDS[-1] == "kiri_plain_2"
    assert CARD_IDS[40:44] == (
        "yanagi_rainman",
        "yanagi_swallow",
        "yanagi_ribbon",
        "yanagi_lightning",
    )


def test_card_ids_are_the_engines() -> None:
    assert CARD_IDS is cards.CARD_IDS
