"""The join code (docs/protocol.md, "Join code"): one short string that says where a room
listens and whose it is, to read over the phone or paste in a chat (Qt-free, stdlib only).

A code carries up to three IPv4 and three IPv6 candidates, each an address and a port, the
host's identity fingerprint (its 80 bits, :func:`koikoi.net.identity.fingerprint`) and two
check characters. It is written in Crockford's base 32 (``0-9`` and the letters but ``I L O
U``) in groups of five joined by ``-``. Reading one, case does not matter, spaces and ``-``
are dropped, and ``O`` reads as ``0``, ``I`` and ``L`` as ``1`` (how people mistype them).

Every single-character typo is caught: a character changed into any other, one left out or
one added, two neighbours swapped (:func:`decode` raises :class:`JoinCodeError`, one line).

>>> code = JoinCode((Candidate("192.0.2.7", 40213),), "abcd-efgh-ijkl-mnop", mapped=True)
>>> text = encode(code)
>>> decode(text) == code, decode(text.lower().replace("-", " ")) == code
(True, True)
>>> len(text.replace("-", ""))
30
"""

from __future__ import annotations

import base64
import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "Candidate",
    "JoinCode",
    "JoinCodeError",
    "decode",
    "encode",
    "looks_like_code",
    "room_code",
]

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U (nothing to confuse with 1, 0 or V)."""
_VALUES: Final = {ch: i for i, ch in enumerate(ALPHABET)} | {"O": 0, "I": 1, "L": 1}
VERSION: Final = 1
"""The format's version, in the code's first 3 bits: a room's code."""
REPLY_VERSION: Final = 2
"""The same layout, the first 3 bits 2: a joiner's reply code (docs/protocol.md, "Both sides
dial"), its candidates and fingerprint the joiner's, for the room's host to dial back. A
koikoi that knows only version 1 reads it as made by a newer koikoi."""
MAX_EACH: Final = 3
"""Candidates of each family a code can hold."""
FINGERPRINT_BYTES: Final = 10
GROUP: Final = 5
"""Characters between two ``-`` in a written code."""
CHECK_MODULUS: Final = 37
"""The check is a weighted sum modulo this prime (larger than 32: see :func:`_weighted`)."""
DIAL_TIMEOUT: Final = 10.0
"""Seconds a join by code dials the code's candidates in all, before saying none answered
(``join CODE`` and the app alike: with the handshake's, within the 15 s of NETWORK.md)."""
REPLY_WAIT: Final = 120.0
"""Seconds a joiner that showed a reply code waits, listening and dialling, for the host to
take it (``join --reply-wait``): a person reads it out over the phone or a chat."""
_CHECK_CHARS: Final = 2
_SEPARATORS: Final = " -\t"


class JoinCodeError(ValueError):
    """A text that is not a join code; ``str`` is one line saying why."""


@dataclass(frozen=True)
class Candidate:
    """An address the room may be reached at: IPv4 or IPv6 (no zone) and a port 1-65535."""

    host: str
    port: int

    def __post_init__(self) -> None:
        address = ipaddress.ip_address(self.host)  # ValueError: not an address
        if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
            raise ValueError(f"a join code holds no IPv6 zone: {self.host!r}")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"a port is 1-65535, not {self.port}")

    @property
    def ipv6(self) -> bool:
        return ":" in self.host


@dataclass(frozen=True)
class JoinCode:
    """What a code says: the candidates in the order to dial them, the host's fingerprint
    (as :func:`~koikoi.net.identity.fingerprint` writes it) and whether the first candidate
    is a mapping on the host's router (``mapped``: CLI.md's route ``mapped``)."""

    candidates: tuple[Candidate, ...]
    fingerprint: str
    mapped: bool = False
    reply: bool = False
    """A joiner's reply code (:data:`REPLY_VERSION`): its addresses and its fingerprint."""

    def __post_init__(self) -> None:
        if not self.candidates:
            raise ValueError("a join code needs at least one address")
        v4 = [c for c in self.candidates if not c.ipv6]
        if len(v4) > MAX_EACH or len(self.candidates) - len(v4) > MAX_EACH:
            raise ValueError(f"a join code holds at most {MAX_EACH} addresses of each family")
        _fingerprint_bytes(self.fingerprint)  # ValueError: not a fingerprint

    @property
    def ordered(self) -> tuple[Candidate, ...]:
        """The candidates as a code holds them: the IPv4 ones first, each family in order."""
        return tuple(c for c in self.candidates if not c.ipv6) + tuple(
            c for c in self.candidates if c.ipv6
        )


def _fingerprint_bytes(text: str) -> bytes:
    letters = text.replace("-", "").upper()
    try:
        raw = base64.b32decode(letters)
    except ValueError:
        raise ValueError(f"not an identity fingerprint: {text!r}") from None
    if len(raw) != FINGERPRINT_BYTES or len(letters) != 16:
        raise ValueError(f"not an identity fingerprint: {text!r}")
    return raw


def _fingerprint_text(raw: bytes) -> str:
    text = base64.b32encode(raw).decode("ascii").lower()
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def _payload(code: JoinCode) -> bytes:
    """Byte 0: version (3 bits), mapped (1), IPv4 count (2), IPv6 count (2); the fingerprint;
    then each candidate's address (4 or 16 bytes) and port (2 bytes), IPv4 ones first."""
    ordered = code.ordered
    n6 = sum(c.ipv6 for c in ordered)
    n4 = len(ordered) - n6
    version = REPLY_VERSION if code.reply else VERSION
    out = bytearray([version << 5 | int(code.mapped) << 4 | n4 << 2 | n6])
    out += _fingerprint_bytes(code.fingerprint)
    for candidate in ordered:
        out += ipaddress.ip_address(candidate.host).packed + candidate.port.to_bytes(2, "big")
    return bytes(out)


def _symbols_needed(n4: int, n6: int) -> int:
    bits = 8 * (1 + FINGERPRINT_BYTES + 6 * n4 + 18 * n6)
    return -(-bits // 5)


VALID_LENGTHS: Final = frozenset(
    _symbols_needed(n4, n6) + _CHECK_CHARS
    for n4 in range(MAX_EACH + 1)
    for n6 in range(MAX_EACH + 1)
    if n4 + n6
)
"""Every length a code can have, in symbols. Two of them are 9 or more apart (a candidate
is 6 or 18 bytes), so a code with one symbol left out or added never has a valid length."""


def _weighted(symbols: list[int]) -> int:
    """Σ wᵢ·sᵢ mod 37, wᵢ = (i mod 36) + 1. A prime modulus above every symbol value and
    nonzero weights: a changed symbol changes the sum; neighbours' weights differ: a swap of
    two different neighbours changes it too."""
    return sum(((i % (CHECK_MODULUS - 1)) + 1) * s for i, s in enumerate(symbols)) % (CHECK_MODULUS)


def _check(data: list[int]) -> list[int]:
    """The two check symbols: the smallest pair that makes the whole code's weighted sum 0."""
    n, m = len(data), CHECK_MODULUS
    first_w, second_w = (n % (m - 1)) + 1, ((n + 1) % (m - 1)) + 1
    need = -_weighted(data) % m
    for first in range(32):  # second = (need - w·first) / w' mod 37, when it is a symbol
        second = (need - first_w * first) * pow(second_w, -1, m) % m
        if second < 32:
            return [first, second]
    raise AssertionError("unreachable: 32 firsts cover more than the 5 non-symbols")


def encode(code: JoinCode) -> str:
    """The code as people read it: groups of five symbols joined by ``-``."""
    payload = _payload(code)
    number = int.from_bytes(payload, "big")
    count = _symbols_needed(*_counts(payload[0]))
    number <<= count * 5 - len(payload) * 8  # zero bits pad the last symbol
    data = [(number >> (5 * (count - 1 - i))) & 31 for i in range(count)]
    text = "".join(ALPHABET[s] for s in [*data, *_check(data)])
    return "-".join(text[i : i + GROUP] for i in range(0, len(text), GROUP))


def _counts(first: int) -> tuple[int, int]:
    return (first >> 2) & 3, first & 3


LOOKS_LIKE: Final = 20
"""Characters (separators aside) from which ``join`` reads a text as a code: a code with
many symbols missing gets its own error, a short word (``nowhere``) the address's."""


def looks_like_code(text: str) -> bool:
    """Whether ``join`` reads ``text`` as a code rather than ``HOST:PORT``: no ``:`` or ``.``
    (every address has one) and :data:`LOOKS_LIKE` characters or more but separators.

    >>> looks_like_code("717MC-K273D-GG8DT-9ZQ5G"), looks_like_code("nowhere")
    (True, False)
    """
    rest = "".join(ch for ch in text if ch not in _SEPARATORS)
    return ":" not in text and "." not in text and len(rest) >= LOOKS_LIKE


def decode(text: str) -> JoinCode:
    """The code ``text`` holds; :class:`JoinCodeError` (one line) for a typo or another text.

    >>> decode("0000-0000")
    Traceback (most recent call last):
    koikoi.net.joincode.JoinCodeError: a join code has 30 to 135 symbols, not 8: check it for a missing or extra symbol
    """  # noqa: E501
    symbols: list[int] = []
    for ch in text.strip():
        if ch in _SEPARATORS:
            continue
        value = _VALUES.get(ch.upper())
        if value is None:
            shown = repr(ch) if ch.isprintable() else ascii(ch)
            raise JoinCodeError(f"a join code has digits and letters but U, not {shown}")
        symbols.append(value)
    if len(symbols) not in VALID_LENGTHS:
        low, high = min(VALID_LENGTHS), max(VALID_LENGTHS)
        raise JoinCodeError(
            f"a join code has {low} to {high} symbols, not {len(symbols)}: "
            "check it for a missing or extra symbol"
        )
    data, check = symbols[:-_CHECK_CHARS], symbols[-_CHECK_CHARS:]
    if _check(data) != check:
        raise JoinCodeError("this join code has a typo (its check symbols do not match)")
    number = 0
    for s in data:
        number = number << 5 | s
    first = number >> (5 * len(data) - 8)
    version, n4, n6 = first >> 5, *_counts(first)
    if version not in (VERSION, REPLY_VERSION):
        raise JoinCodeError(f"this join code is of version {version}: a newer koikoi made it")
    size = 1 + FINGERPRINT_BYTES + 6 * n4 + 18 * n6
    pad = 5 * len(data) - 8 * size
    if n4 + n6 == 0 or _symbols_needed(n4, n6) != len(data) or number & ((1 << pad) - 1):
        raise JoinCodeError("this join code has a typo (its length does not match its header)")
    payload = (number >> pad).to_bytes(size, "big")
    fingerprint = _fingerprint_text(payload[1 : 1 + FINGERPRINT_BYTES])
    candidates: list[Candidate] = []
    at = 1 + FINGERPRINT_BYTES
    for width in [4] * n4 + [16] * n6:
        address = ipaddress.ip_address(payload[at : at + width])
        port = int.from_bytes(payload[at + width : at + width + 2], "big")
        at += width + 2
        if port == 0:
            raise JoinCodeError("this join code names port 0: it was not made by koikoi")
        candidates.append(Candidate(str(address), port))
    return JoinCode(
        tuple(candidates),
        fingerprint,
        mapped=bool(first >> 4 & 1),
        reply=version == REPLY_VERSION,
    )


ROOM_IPV6: Final = 1
"""Global IPv6 addresses a room's code carries: each costs 18 bytes (29 symbols to read out),
and a friend on the same network reaches the room by IPv4 anyway."""
_ULA: Final = ipaddress.ip_network("fc00::/7")


def room_code(
    listening: Sequence[tuple[str, int]],
    fingerprint: str,
    mapped: Sequence[tuple[str, int]] = (),
    reply: bool = False,
) -> JoinCode | None:
    """The code the app shows for a room listening at ``listening`` (its addresses, as the
    room lists them) whose host has ``fingerprint``; None when none can be in a code.

    ``mapped``: a router's mapping of the room, its external address then the internal one
    it reaches, which come first (the code is then ``mapped``). Then the room's IPv4
    addresses and :data:`ROOM_IPV6` global IPv6 one; link-local ones (no zone in a code)
    and ULAs are left out, loopback ones unless there is nothing else (a room on
    127.0.0.1). ``reply``: the code is a joiner's reply (:data:`REPLY_VERSION`).

    >>> fp = "abcd-efgh-ijkl-mnop"
    >>> here = [("192.168.1.5", 4000), ("fd00::5", 4000), ("2001:db8::5", 4000),
    ...         ("127.0.0.1", 4000)]
    >>> [(c.host, c.port) for c in room_code(here, fp).candidates]
    [('192.168.1.5', 4000), ('2001:db8::5', 4000)]
    >>> code = room_code(here, fp, [("203.0.113.11", 40213), ("192.168.1.5", 4000)])
    >>> code.mapped, [c.host for c in code.candidates]
    (True, ['203.0.113.11', '192.168.1.5', '2001:db8::5'])
    >>> [c.host for c in room_code([("127.0.0.1", 4000)], fp).candidates]
    ['127.0.0.1']
    """
    v4: list[Candidate] = []
    v6: list[Candidate] = []
    loopback: list[Candidate] = []
    for host, port in [*mapped, *listening]:
        try:
            address = ipaddress.ip_address(host.split("%")[0])
        except ValueError:
            continue
        candidate = Candidate(str(address), port)
        if address.is_link_local or candidate in v4 + v6 + loopback:
            continue
        if address.is_loopback and (host, port) not in mapped:
            loopback.append(candidate)
        elif isinstance(address, ipaddress.IPv4Address):
            v4.append(candidate)
        elif address not in _ULA or (host, port) in mapped:
            v6.append(candidate)
    chosen = v4[:MAX_EACH] + v6[:ROOM_IPV6]
    if not chosen:
        chosen = [c for c in loopback if not c.ipv6][:MAX_EACH] + [c for c in loopback if c.ipv6][
            :1
        ]
    if not chosen:
        return None
    return JoinCode(tuple(chosen), fingerprint, mapped=bool(mapped), reply=reply)
