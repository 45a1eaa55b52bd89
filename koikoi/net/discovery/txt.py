"""What a room says about itself: the TXT record a host publishes (:func:`room_txt`) and the
:class:`Room` a browser reads from what mDNS said (:func:`parse_room`). Pure: no sockets, no
zeroconf. TXT is a hint only, never trusted: every field is validated, clamped and cleaned.

>>> txt = room_txt(Advertisement("Hanami", "hana", 4000, rounds=12, fingerprint="abcd-efgh"))
>>> txt["title"], txt["rounds"], txt["fp"], txt["status"]
('Hanami', '12', 'abcd', 'open')
>>> clean_text("Ko\\u202eik\\x00oi  room\\n", 64)
'Koikoi room'
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from koikoi.net.address import format_address
from koikoi.net.hello import MAX_NICKNAME, PRIVATE_VERSION, PROTOCOL_VERSION
from koikoi.net.session.clock import DEFAULT_CLOCK, LEGACY_CLOCK, ClockSetting

SERVICE_TYPE: Final = "_koikoi._tcp.local."
MAX_TITLE: Final = 48
"""Characters of a room title (TXT ``title``); longer titles are cut."""
MAX_TXT_VALUE: Final = 200
"""Bytes of one TXT value (a DNS TXT string holds 255 with its key)."""
MAX_TXT: Final = 1024
"""Bytes of a whole TXT record; a bigger one is dropped, not parsed."""
MAX_ADDRESSES: Final = 8
_SHORT_FINGERPRINT: Final = re.compile(r"[a-z2-7]{4}")
_DROP_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides, zero-width), surrogate, private-use, unassigned and line
and paragraph separators: nothing a room title needs, everything a spoofer likes. As on the
wire (docs/protocol.md), the zero-width joiner stays: emoji sequences need it."""
_ZWJ: Final = "\u200d"


class RoomStatus(StrEnum):
    OPEN = "open"
    PLAYING = "playing"


def clean_text(text: str, max_chars: int) -> str:
    """``text`` with control, bidi and other invisible characters removed, whitespace runs
    made one space, NFC-normalized, and cut to ``max_chars`` characters."""
    text = unicodedata.normalize("NFC", text[: max_chars * 4])
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or ch == _ZWJ or unicodedata.category(ch) not in _DROP_CATEGORIES
    )
    return " ".join(kept.split())[:max_chars].strip()


def cut_utf8(text: str, max_bytes: int) -> str:
    return text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


def short_fingerprint(fingerprint: str) -> str:
    """The first group of :func:`koikoi.net.identity.fingerprint`: what room lists show."""
    return fingerprint.split("-", 1)[0]


# --- what a room says about itself ----------------------------------------------------------


@dataclass(frozen=True)
class Advertisement:
    """What a host publishes: its title, who it is, where it listens and its settings."""

    title: str
    host: str
    """The host's nickname (not published for a private room)."""
    port: int
    rounds: int = 6
    doubling: bool = True
    private: bool = False
    fingerprint: str = ""
    """The host identity's fingerprint (its first group is published; not for a private room)."""
    status: RoomStatus = RoomStatus.OPEN
    version: int = PROTOCOL_VERSION
    """The TXT ``v``: the newest protocol version the host speaks
    (:func:`announced_version`)."""
    dealing: str = "seed"
    """The TXT ``dealing``: ``seed`` when the room allows joint-seed dealing, else
    ``private`` (:func:`announced_dealing`)."""
    clock: ClockSetting = DEFAULT_CLOCK
    """The TXT ``clock``: the room's move clock, ``60+300`` or ``off``."""
    instance: str = ""
    """The service name to publish (``<title> #<6 hex>._koikoi._tcp.local.``) when the room is
    announced again (a host restarted after a crash, docs/protocol.md "A side that crashed"),
    so that joiners find the same room by name; empty (or not of the service type): the
    title and a new random token."""


def announced_version(dealings: Sequence[str]) -> int:
    """The TXT ``v`` of a host that offers ``dealings`` (``PeerOptions.dealings``): 4 when it
    offers private dealing (it answers a version-4 hello, and a version-2 one too), else 2.
    A joiner reads it to know whether a version-4 hello is welcome (docs/protocol.md).

    >>> announced_version(("private", "seed")), announced_version(("seed",))
    (4, 2)
    """
    return PRIVATE_VERSION if "private" in dealings else PROTOCOL_VERSION


DEALING_KINDS: Final = ("private", "seed")
"""The values of TXT ``dealing``."""


def announced_dealing(dealings: Sequence[str]) -> str:
    """The TXT ``dealing`` of a host that offers ``dealings``: ``seed`` when it allows
    joint-seed dealing (with a peer that offers only that), else ``private``.

    >>> announced_dealing(("private",)), announced_dealing(("private", "seed"))
    ('private', 'seed')
    """
    return "seed" if "seed" in dealings else "private"


def room_txt(ad: Advertisement) -> dict[str, str]:
    """The TXT record of ``ad``: every value cleaned and capped, as a browser will read it.

    A private room publishes neither the host's nickname nor its fingerprint: nothing that
    identifies the host before the password is proven (NETWORK.md).
    """
    txt = {
        "v": str(ad.version),
        "title": cut_utf8(clean_text(ad.title, MAX_TITLE), MAX_TXT_VALUE),
        "rounds": str(ad.rounds),
        "doubling": "1" if ad.doubling else "0",
        "private": "1" if ad.private else "0",
        "status": ad.status.value,
        "dealing": ad.dealing if ad.dealing in DEALING_KINDS else "seed",
        "clock": ad.clock.text(),
    }
    if not ad.private:
        host = cut_utf8(clean_text(ad.host, MAX_NICKNAME), MAX_TXT_VALUE)
        if host:
            txt["host"] = host
        short = short_fingerprint(ad.fingerprint)
        if _SHORT_FINGERPRINT.fullmatch(short):
            txt["fp"] = short
    return txt


@dataclass(frozen=True)
class Room:
    """A room as a browser heard of it. Every field is a cleaned hint; ``name`` (the mDNS
    service name) is its key."""

    name: str
    title: str
    addresses: tuple[str, ...]
    """``IP:PORT`` / ``[IP]:PORT``, the likeliest to work first (LAN IPv4, then IPv6, then
    link-local, loopback last)."""
    rounds: int
    doubling: bool
    private: bool
    status: RoomStatus
    version: int
    host: str | None = None
    """The host's nickname; None when it is not published (private rooms)."""
    fingerprint: str | None = None
    """The short fingerprint (four letters); None when not published."""
    dealing: str = "seed"
    """TXT ``dealing``: ``private``, or ``seed`` where the room allows joint-seed dealing. A
    room announced without it (a host from before the key) allows the seed: a koikoi-net/2
    host deals only so, and an older version-3 host offered it with private dealing."""
    clock: ClockSetting = LEGACY_CLOCK
    """TXT ``clock``; a room announced without it (or with one this side cannot read) has
    the clock of the hosts from before the key, 60 s for each move and no reserve."""

    @property
    def address(self) -> str:
        return self.addresses[0]

    def to_json(self) -> dict[str, Any]:
        """The object ``koikoi rooms`` prints (CLI.md); keys not published are absent."""
        data: dict[str, Any] = {"room": self.title}
        if self.host is not None:
            data["host"] = self.host
        data.update(
            address=self.address,
            addresses=list(self.addresses),
            rounds=self.rounds,
            doubling=self.doubling,
            private=self.private,
            status=self.status.value,
        )
        if self.fingerprint is not None:
            data["fingerprint"] = self.fingerprint
        data["version"] = self.version
        data["clock"] = self.clock.seconds
        if not self.clock.off:
            data["reserve"] = self.clock.reserve
        data["dealing"] = self.dealing
        return data


class Unusable(ValueError):
    """A TXT record or service that cannot be a room."""


def _txt_str(properties: Mapping[bytes, bytes | None], key: str) -> str | None:
    value = properties.get(key.encode("ascii"))
    if value is None:
        return None
    if len(value) > MAX_TXT_VALUE:
        raise Unusable(f"TXT {key} is {len(value)} bytes")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise Unusable(f"TXT {key} is not UTF-8") from None


def _txt_choice(properties: Mapping[bytes, bytes | None], key: str, choices: dict[str, Any]) -> Any:
    value = _txt_str(properties, key)
    if value not in choices:
        raise Unusable(f"TXT {key} is {value!r}")
    return choices[value]


def address_rank(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> int:
    if ip.is_loopback:
        return 4
    if ip.is_link_local:
        return 2 if ip.version == 4 else 3
    return 0 if ip.version == 4 else 1


def _room_addresses(addresses: list[str], port: int | None) -> tuple[str, ...]:
    if port is None or not 1 <= port <= 65535:
        raise Unusable(f"port {port}")
    usable: list[tuple[int, str]] = []
    for text in addresses[: MAX_ADDRESSES * 4]:
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if ip.is_unspecified or ip.is_multicast or str(ip) == "255.255.255.255":
            continue
        if ip.version == 6 and ip.is_link_local and "%" not in text:
            continue  # no zone: nothing can connect to it
        usable.append((address_rank(ip), format_address(text, port)))
    if not usable:
        raise Unusable("no usable address")
    usable.sort(key=lambda item: item[0])  # stable: the advertiser's order within a rank
    return tuple(dict.fromkeys(address for _, address in usable))[:MAX_ADDRESSES]


def parse_room(name: str, text: bytes, addresses: list[str], port: int | None) -> Room:
    """A :class:`Room` from what mDNS said about the service ``name``; raises ValueError for
    what cannot be a room (an unknown setting, no address, an oversized or broken TXT)."""
    if len(text) > MAX_TXT:
        raise Unusable(f"TXT of {len(text)} bytes")
    properties = parse_txt(text)
    version_text = _txt_str(properties, "v")
    if version_text is None or not version_text.isascii() or not version_text.isdigit():
        raise Unusable(f"TXT v is {version_text!r}")
    version = int(version_text[:6])
    if version > 65535:
        raise Unusable(f"TXT v is {version}")
    rounds = _txt_choice(properties, "rounds", {"6": 6, "12": 12})
    doubling = _txt_choice(properties, "doubling", {"1": True, "0": False})
    private = _txt_choice(properties, "private", {"1": True, "0": False})
    status = _txt_choice(properties, "status", {s.value: s for s in RoomStatus})
    label = name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name
    title = clean_text(_txt_str(properties, "title") or "", MAX_TITLE) or clean_text(
        label, MAX_TITLE
    )
    if not title:
        raise Unusable("no title")
    host = clean_text(_txt_str(properties, "host") or "", MAX_NICKNAME) or None
    short = _txt_str(properties, "fp")
    dealing = _txt_str(properties, "dealing")
    if version < PRIVATE_VERSION or dealing not in DEALING_KINDS:
        dealing = "seed"  # a version-2 host deals only so; no key (or another): an older host
    clock = LEGACY_CLOCK
    clock_text = _txt_str(properties, "clock")
    if clock_text is not None:
        with contextlib.suppress(ValueError):  # a hint: the handshake says the clock
            clock = ClockSetting.parse(clock_text)
    return Room(
        name=name,
        title=title,
        addresses=_room_addresses(addresses, port),
        rounds=rounds,
        doubling=doubling,
        private=private,
        status=status,
        version=version,
        host=None if private else host,
        fingerprint=short if short is not None and _SHORT_FINGERPRINT.fullmatch(short) else None,
        dealing=dealing,
        clock=clock,
    )


def parse_txt(text: bytes) -> dict[bytes, bytes | None]:
    """RFC 6763 §6: length-prefixed strings ``key=value``; the first of a key wins."""
    properties: dict[bytes, bytes | None] = {}
    pos = 0
    while pos < len(text):
        length = text[pos]
        item = text[pos + 1 : pos + 1 + length]
        pos += 1 + length
        key, sep, value = item.partition(b"=")
        key = key.lower()
        if key and key not in properties:
            properties[key] = value if sep else None
    return properties


def txt_fingerprint(text: bytes | None) -> str | None:
    """The TXT ``fp`` of raw TXT bytes, if any (a hint, looked at before a room is parsed)."""
    if not text or len(text) > MAX_TXT:
        return None
    value = parse_txt(text).get(b"fp")
    return value.decode("ascii", "replace") if value else None
