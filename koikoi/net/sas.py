"""The short authentication string: four hanafuda cards both players compare.

Like a Signal safety number or ZRTP's SAS, but in the game's own pictures: both screens show
four cards; a man in the middle holds two sessions and, except by a 1 in 4,669,920 chance,
shows two different sets of cards.

The cards come from values committed before they are revealed (ZRTP's hash commitment,
Vaudenay's SAS-MCA): the session id with the coin toss's two randoms, so they are shown after
the toss. The host's random ``rA`` is bound by its commitment before the joiner answers; the
joiner's ``rB`` is sent before ``rA`` is revealed. A relay playing both ends therefore learns
the cards of each of its two sessions only once nothing it controls can change them: whatever
it grinds beforehand (its keys, its messages, its own random) it gets one try per connection.

Derivation (normative, docs/protocol.md): read bytes in order from
SHAKE-256(``b"koikoi-net/1 sas\\0"`` ‖ session ‖ rA ‖ rB); draw four cards without
replacement from the 48 ids of RULES.md R1.1 in order, each from the ``n`` cards left by
taking the next byte ``b``, rejecting it when ``b >= 256 - 256 % n``, else taking the card at
index ``b % n`` and removing it.

>>> sas_cards(bytes(32), bytes(32), bytes(32))
('yanagi_ribbon', 'kiku_ribbon', 'botan_ribbon', 'hagi_plain_2')
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Final

from koikoi.engine.cards import CARD_IDS

__all__ = ["SAS_DOMAIN", "SAS_LENGTH", "sas_cards"]

SAS_DOMAIN: Final = b"koikoi-net/1 sas\0"
SAS_LENGTH: Final = 4
_PART: Final = 32


def _shake_stream(data: bytes) -> Iterator[int]:
    """The SHAKE-256 output of ``data`` as an endless stream of bytes."""
    produced, size = 0, 64
    while True:  # a longer SHAKE output starts with the shorter one
        yield from hashlib.shake_256(data).digest(size)[produced:]
        produced, size = size, size * 2


def sas_cards(
    session: bytes, host_random: bytes, joiner_random: bytes
) -> tuple[str, str, str, str]:
    """Four distinct card ids for the players to compare, from the session id and the coin
    toss's two randoms (each 32 bytes)."""
    for part in (session, host_random, joiner_random):
        if len(part) != _PART:
            raise ValueError(f"the session id and the toss's randoms are {_PART} bytes each")
    stream = _shake_stream(SAS_DOMAIN + session + host_random + joiner_random)
    pool = list(CARD_IDS)
    picked: list[str] = []
    while len(picked) < SAS_LENGTH:
        n = len(pool)
        byte = next(stream)
        if byte < 256 - 256 % n:  # rejection keeps every card equally likely
            picked.append(pool.pop(byte % n))
    return (picked[0], picked[1], picked[2], picked[3])
