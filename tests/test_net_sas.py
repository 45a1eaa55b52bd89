"""The four-card short authentication string, drawn from the session id and the toss's randoms."""

from __future__ import annotations

import hashlib
import os
from collections import Counter

import pytest

from koikoi.engine import cards
from koikoi.engine.cards import CARD_IDS
from koikoi.net.sas import sas_cards

ZERO = bytes(32)


def test_golden_values() -> None:
    # Changing the derivation changes what players compare: it needs a protocol version bump.
    # The same vectors are in docs/protocol.md ("Short authentication string").
    assert sas_cards(ZERO, ZERO, ZERO) == (
        "yanagi_ribbon",
        "kiku_ribbon",
        "botan_ribbon",
        "hagi_plain_2",
    )
    assert sas_cards(ZERO, b"\1" * 32, b"\2" * 32) == (
        "kiri_phoenix",
        "momiji_plain_1",
        "fuji_cuckoo",
        "kiri_plain_2",
    )


def test_the_layout_is_the_documented_one() -> None:
    # Recomputed from docs/protocol.md, not through the module: SHAKE-256 of the label, the
    # session id, rA and rB; rejection sampling over the 48 ids in order.
    session, ra, rb = hashlib.sha256(b"s").digest(), b"\3" * 32, b"\4" * 32
    stream = iter(hashlib.shake_256(b"koikoi-net/1 sas\0" + session + ra + rb).digest(256))
    pool, picked = list(cards.CARD_IDS), list[str]()
    while len(picked) < 4:
        b = next(stream)
        if b < 256 - 256 % len(pool):
            picked.append(pool.pop(b % len(pool)))
    assert sas_cards(session, ra, rb) == tuple(picked)


def test_the_cards_are_not_a_function_of_the_session_alone() -> None:
    # What the old derivation allowed: the session id fixed the cards before the toss.
    session = hashlib.sha256(b"one session").digest()
    seen = {sas_cards(session, os.urandom(32), ZERO) for _ in range(100)}
    seen |= {sas_cards(session, ZERO, os.urandom(32)) for _ in range(100)}
    assert len(seen) >= 195  # two alike among 200 draws: about 1 in 1,000


def test_each_part_changes_the_cards() -> None:
    parts = [bytearray(hashlib.sha256(bytes([i])).digest()) for i in range(3)]
    before = sas_cards(*map(bytes, parts))
    for part in parts:
        part[31] ^= 1
        assert sas_cards(*map(bytes, parts)) != before
        part[31] ^= 1


def test_four_distinct_known_cards() -> None:
    for i in range(200):
        drawn = sas_cards(hashlib.sha256(bytes([i])).digest(), ZERO, ZERO)
        assert len(set(drawn)) == 4
        assert set(drawn) <= set(CARD_IDS)


def test_parts_of_another_length_are_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        sas_cards(ZERO, ZERO, bytes(31))


def test_every_card_turns_up_about_equally() -> None:
    counts = Counter(
        card
        for i in range(3000)
        for card in sas_cards(ZERO, i.to_bytes(4, "big") + bytes(28), ZERO)
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
