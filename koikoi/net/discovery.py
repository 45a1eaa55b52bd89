"""Rooms on the LAN by mDNS / DNS-SD (python-zeroconf): advertising one, browsing for all.

A host advertises its room as a ``_koikoi._tcp.local.`` service whose TXT record carries hints
(protocol version, title, host nickname, rounds, doubling, private, status, a short identity
fingerprint); a :class:`RoomBrowser` lists the rooms it hears of as :class:`Room` values. TXT is
a hint only, never trusted: anyone on the LAN can advertise anything, so every field is
validated, clamped and cleaned (control and bidi characters removed, lengths capped), the number
of rooms kept is capped and changes are reported at a bounded rate. The handshake decides who
the host is and what the match is.

Both sides run zeroconf's asyncio API on a thread of their own with its own event loop, so
neither a Qt window nor the host's own asyncio loop waits on the network; the browser's
callback runs on that thread (the lobby turns it into a queued signal). Where multicast does not
work at all, the browser reports :class:`BrowseFailed` and the advertiser raises
:class:`DiscoveryError`, each with a reason a person can read; joining by address still works.

>>> txt = room_txt(Advertisement("Hanami", "hana", 4000, rounds=12, fingerprint="abcd-efgh"))
>>> txt["title"], txt["rounds"], txt["fp"], txt["status"]
('Hanami', '12', 'abcd', 'open')
>>> clean_text("Ko\\u202eik\\x00oi  room\\n", 64)
'Koikoi room'
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import ipaddress
import itertools
import logging
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

import ifaddr
from zeroconf import (
    BadTypeInNameException,
    DNSQuestionType,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceStateChange,
    Zeroconf,
    current_time_millis,
)
from zeroconf._dns import DNSPointer, DNSText  # (zeroconf uses them without listing them)
from zeroconf._handlers.record_manager import RecordManager
from zeroconf._protocol.incoming import DNSIncoming
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from koikoi.net.handshake import MAX_NICKNAME, PRIVATE_VERSION, PROTOCOL_VERSION

logger = logging.getLogger(__name__)

SERVICE_TYPE: Final = "_koikoi._tcp.local."
MAX_TITLE: Final = 48
"""Characters of a room title (TXT ``title``); longer titles are cut."""
MAX_TXT_VALUE: Final = 200
"""Bytes of one TXT value (a DNS TXT string holds 255 with its key)."""
MAX_TXT: Final = 1024
"""Bytes of a whole TXT record; a bigger one is dropped, not parsed."""
MAX_ROOMS: Final = 256
"""Rooms a browser keeps (and resolves) at once; more are ignored until some go."""
MAX_ADDRESSES: Final = 8
REPORT_INTERVAL: Final = 0.2
"""Seconds between two reports of the browser: changes in between are coalesced."""
RESOLVE_TIMEOUT_MS: Final = 2000
ASK: Final = DNSQuestionType.QM
"""Every question asks for a multicast answer. zeroconf's first question asks for a unicast
one (QU), sent to port 5353 of the asker; where other programs share that port (another
koikoi, any mDNS library with SO_REUSEPORT) the kernel hands it to one of their sockets, by a
hash of the addresses, the same one each time, so a listing could miss every room for its
first second, and ``koikoi rooms --timeout 1`` every time. A multicast answer reaches them all."""
RESOLVE_AT_ONCE: Final = 16
"""Lookups that ask the network at once (a lookup the cache answers does not wait for them)."""
MAX_ROOMS_PER_SOURCE: Final = 32
"""Rooms a browser keeps (and resolves) at once whose records came first from one source
address: the one thing of a packet a spammer cannot forge freely (its records say anything)."""
LOOKUPS_PER_SOURCE: Final = 4
"""Lookups that ask the network at once for the rooms of one source address."""
PINNED_EXTRA: Final = 16
"""Rooms whose TXT ``fp`` is a pinned peer's kept beyond :data:`MAX_ROOMS` (a hint only)."""
SAME_TITLE_WAIT: Final = 1.0
"""Seconds ``join --room`` keeps listening after the first room of its title is reported, for
another room of that title (a spoof announced just after the real room)."""
SAME_TITLE_LISTEN: Final = 2.5
"""Seconds ``join --room`` listens at least before it joins: a browser asks at once and again
about 1 s later, so an answer lost the first time (to packet loss, or on loopback to another
program's socket that took a unicast reply) comes in the second round."""
RECONCILE_INTERVAL: Final = 1.0
"""Seconds between two looks into zeroconf's cache for rooms ignored while the list was full:
zeroconf reports a service once, so a room ignored then would otherwise never be listed."""
RECORD_TTL: Final = 120
"""Seconds a room's records live in caches: a host that vanishes without a goodbye is
forgotten within two minutes (zeroconf's default for service records is 75 minutes)."""
START_TIMEOUT: Final = 5.0
STOP_TIMEOUT: Final = 5.0
_SHORT_FINGERPRINT: Final = re.compile(r"[a-z2-7]{4}")
_DROP_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides, zero-width), surrogate, private-use, unassigned and line
and paragraph separators: nothing a room title needs, everything a spoofer likes. As on the
wire (docs/protocol.md), the zero-width joiner stays: emoji sequences need it."""
_ZWJ: Final = "\u200d"


class DiscoveryError(Exception):
    """mDNS cannot be used here (no multicast, a bad interface): one line saying why."""


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


def _cut_utf8(text: str, max_bytes: int) -> str:
    return text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


def short_fingerprint(fingerprint: str) -> str:
    """The first group of :func:`koikoi.net.identity.fingerprint`: what room lists show."""
    return fingerprint.split("-", 1)[0]


def format_address(host: str, port: int) -> str:
    """``IP:PORT``, or ``[IP]:PORT`` for IPv6.

    >>> format_address("10.0.0.2", 4000), format_address("fe80::1%3", 80)
    ('10.0.0.2:4000', '[fe80::1%3]:80')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


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
        "title": _cut_utf8(clean_text(ad.title, MAX_TITLE), MAX_TXT_VALUE),
        "rounds": str(ad.rounds),
        "doubling": "1" if ad.doubling else "0",
        "private": "1" if ad.private else "0",
        "status": ad.status.value,
        "dealing": ad.dealing if ad.dealing in DEALING_KINDS else "seed",
    }
    if not ad.private:
        host = _cut_utf8(clean_text(ad.host, MAX_NICKNAME), MAX_TXT_VALUE)
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
        data["dealing"] = self.dealing
        return data


class _Unusable(ValueError):
    """A TXT record or service that cannot be a room."""


def _txt_str(properties: Mapping[bytes, bytes | None], key: str) -> str | None:
    value = properties.get(key.encode("ascii"))
    if value is None:
        return None
    if len(value) > MAX_TXT_VALUE:
        raise _Unusable(f"TXT {key} is {len(value)} bytes")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise _Unusable(f"TXT {key} is not UTF-8") from None


def _txt_choice(properties: Mapping[bytes, bytes | None], key: str, choices: dict[str, Any]) -> Any:
    value = _txt_str(properties, key)
    if value not in choices:
        raise _Unusable(f"TXT {key} is {value!r}")
    return choices[value]


def _address_rank(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> int:
    if ip.is_loopback:
        return 4
    if ip.is_link_local:
        return 2 if ip.version == 4 else 3
    return 0 if ip.version == 4 else 1


def _room_addresses(addresses: list[str], port: int | None) -> tuple[str, ...]:
    if port is None or not 1 <= port <= 65535:
        raise _Unusable(f"port {port}")
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
        usable.append((_address_rank(ip), format_address(text, port)))
    if not usable:
        raise _Unusable("no usable address")
    usable.sort(key=lambda item: item[0])  # stable: the advertiser's order within a rank
    return tuple(dict.fromkeys(address for _, address in usable))[:MAX_ADDRESSES]


def parse_room(name: str, text: bytes, addresses: list[str], port: int | None) -> Room:
    """A :class:`Room` from what mDNS said about the service ``name``; raises ValueError for
    what cannot be a room (an unknown setting, no address, an oversized or broken TXT)."""
    if len(text) > MAX_TXT:
        raise _Unusable(f"TXT of {len(text)} bytes")
    properties = _parse_txt(text)
    version_text = _txt_str(properties, "v")
    if version_text is None or not version_text.isascii() or not version_text.isdigit():
        raise _Unusable(f"TXT v is {version_text!r}")
    version = int(version_text[:6])
    if version > 65535:
        raise _Unusable(f"TXT v is {version}")
    rounds = _txt_choice(properties, "rounds", {"6": 6, "12": 12})
    doubling = _txt_choice(properties, "doubling", {"1": True, "0": False})
    private = _txt_choice(properties, "private", {"1": True, "0": False})
    status = _txt_choice(properties, "status", {s.value: s for s in RoomStatus})
    label = name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name
    title = clean_text(_txt_str(properties, "title") or "", MAX_TITLE) or clean_text(
        label, MAX_TITLE
    )
    if not title:
        raise _Unusable("no title")
    host = clean_text(_txt_str(properties, "host") or "", MAX_NICKNAME) or None
    short = _txt_str(properties, "fp")
    dealing = _txt_str(properties, "dealing")
    if version < PRIVATE_VERSION or dealing not in DEALING_KINDS:
        dealing = "seed"  # a version-2 host deals only so; no key (or another): an older host
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
    )


def _parse_txt(text: bytes) -> dict[bytes, bytes | None]:
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


# --- one title, several rooms ----------------------------------------------------------------


def _ips(room: Room) -> set[str]:
    return {address.rpartition(":")[0].strip("[]") for address in room.addresses}


def same_host(a: Room, b: Room) -> bool:
    """Whether two announcements are one host's: the same service name, or the same published
    fingerprint at an IP address they share (a host announced again, with a new name or port).
    A fingerprint alone proves nothing (anyone can copy four letters) and a private room
    publishes none, so rooms without one are told apart by name."""
    if a.name.casefold() == b.name.casefold():
        return True
    return a.fingerprint is not None and a.fingerprint == b.fingerprint and bool(_ips(a) & _ips(b))


@dataclass(frozen=True)
class RoomFound:
    """The room of the title to join: one host holds the title."""

    room: Room


@dataclass(frozen=True)
class SameTitle:
    """Rooms of the title from more than one host (one room each, the latest heard of): the
    joiner cannot tell the real one from a spoof by the title, and joins none."""

    rooms: tuple[Room, ...]


class TitleSearch:
    """Which room ``join --room TITLE`` joins, sans I/O (times are the caller's clock).

    Every room the browser reports goes to :meth:`see`. Once the first room of the title that
    can be joined (open, or in play too with ``playing``) has been seen, the search waits
    ``wait`` seconds more for another announcement (:attr:`deadline`); then :meth:`decide`
    gives :class:`RoomFound`, or :class:`SameTitle` when rooms of the title from more than one
    host (:func:`same_host`) were seen, open or in play, even if one has gone since (a goodbye
    can be forged); with ``started``, it never decides before ``listen`` seconds of browsing.
    Titles compare as :func:`clean_text` and without case. The decision, once given, stands.
    """

    def __init__(
        self,
        title: str,
        *,
        wait: float = SAME_TITLE_WAIT,
        playing: bool = False,
        started: float | None = None,
        listen: float = SAME_TITLE_LISTEN,
    ):
        self.wanted = clean_text(title, MAX_TITLE).casefold()
        self.wait = wait
        self.earliest = None if started is None else started + listen
        """With ``started`` (when browsing began): no decision before ``listen`` seconds."""
        self.statuses = (RoomStatus.OPEN, RoomStatus.PLAYING) if playing else (RoomStatus.OPEN,)
        self.deadline: float | None = None
        """When the search decides: ``wait`` after the first room it could join."""
        self._seen: dict[str, Room] = {}
        """Every room of the title seen, by name (case folded), the latest first."""
        self._gone: set[str] = set()
        self._decision: RoomFound | SameTitle | None = None

    def see(self, room: Room, now: float) -> None:
        if self._decision is not None or room.title.casefold() != self.wanted:
            return
        key = room.name.casefold()
        self._seen.pop(key, None)
        self._seen = {key: room, **self._seen}
        self._gone.discard(key)
        if self.deadline is None and room.status in self.statuses:
            self.deadline = max(now + self.wait, self.earliest or now)

    def gone(self, name: str) -> None:
        """The room ``name`` was removed: still a reason to doubt, no longer one to join."""
        self._gone.add(name.casefold())

    def hosts(self) -> list[list[Room]]:
        """The rooms seen, one list per host, the latest heard of first."""
        groups: list[list[Room]] = []
        for room in self._seen.values():
            group = next((g for g in groups if any(same_host(room, r) for r in g)), None)
            if group is None:
                groups.append([room])
            else:
                group.append(room)
        return groups

    def decide(self, now: float) -> RoomFound | SameTitle | None:
        """None while waiting (or while no room of the title can be joined)."""
        if self._decision is not None:
            return self._decision
        if self.deadline is None or now < self.deadline:
            return None
        groups = self.hosts()
        if len(groups) > 1:
            self._decision = SameTitle(tuple(group[0] for group in groups))
            return self._decision
        joinable = [
            room
            for room in groups[0]
            if room.status in self.statuses and room.name.casefold() not in self._gone
        ]
        if not joinable:
            return None  # it left meanwhile: look on
        self._decision = RoomFound(joinable[0])
        return self._decision


# --- interfaces -------------------------------------------------------------------------------


_IFF_UP: Final = 0x1
_IFF_LOOPBACK: Final = 0x8
_IFF_MULTICAST: Final = 0x1000


def _can_multicast(name: str) -> bool:
    """Whether the interface ``name`` is up and can carry multicast (loopback can, on this
    machine only). Where the flags cannot be read (not Linux), assume it can."""
    try:
        flags = int(Path("/sys/class/net", name, "flags").read_text(encoding="ascii"), 16)
    except (OSError, ValueError):
        return True
    return bool(flags & _IFF_UP and flags & (_IFF_MULTICAST | _IFF_LOOPBACK))


def _local_ips(multicast: bool = False) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """This machine's addresses (only those of interfaces that can multicast, if asked)."""
    ips: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for adapter in ifaddr.get_adapters():
        if multicast and not _can_multicast(str(adapter.name)):
            continue
        for ip in adapter.ips:
            raw = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            with contextlib.suppress(ValueError):
                ips.append(ipaddress.ip_address(raw))
    return ips


def _is_all(bind: str | None) -> bool:
    return bind is None or bind in ("", "0.0.0.0", "::")


def interfaces_for(bind: str | None) -> tuple[InterfaceChoice | list[str], IPVersion]:
    """zeroconf's interface choice for ``bind``: all interfaces, IPv4 and IPv6, when None or
    unspecified; else the one interface that has this address. Raises DiscoveryError for an
    address that is not this machine's."""
    if _is_all(bind):
        return InterfaceChoice.All, IPVersion.All
    assert bind is not None
    try:
        ip = ipaddress.ip_address(bind)
    except ValueError:
        raise DiscoveryError(f"--bind takes an IP address, not {bind!r}") from None
    if ip not in _local_ips():
        raise DiscoveryError(f"no network interface of this machine has the address {bind}")
    return [str(ip)], IPVersion.V4Only if ip.version == 4 else IPVersion.V6Only


def advertised_addresses(bind: str | None) -> list[str]:
    """The addresses a room listening on ``bind`` can be reached at.

    A room bound to one address gives that one; bound to all IPv4 (``0.0.0.0``), every IPv4
    address of the machine; bound to ``::`` (or None), every IPv4 and IPv6 address but IPv6
    link-local ones (a peer cannot reach them without knowing its own zone). Loopback
    addresses only when there is nothing else (a peer on another machine cannot use them).
    """
    if not _is_all(bind):
        assert bind is not None
        return [bind]
    want_v6 = bind != "0.0.0.0"
    ips = [
        ip
        for ip in _local_ips()
        if (ip.version == 4 or (want_v6 and not ip.is_link_local)) and not ip.is_unspecified
    ]
    outside = [ip for ip in ips if not ip.is_loopback]
    chosen = outside or ips
    chosen.sort(key=_address_rank)
    return list(dict.fromkeys(str(ip) for ip in chosen))[:MAX_ADDRESSES]


# --- a thread with its own event loop --------------------------------------------------------


class _LoopThread:
    """A daemon thread running an asyncio loop, for zeroconf to live on."""

    def __init__(self, name: str) -> None:
        """DiscoveryError when no loop or thread can be made (out of file descriptors, as in
        a connection flood, or of threads): said as the reason mDNS cannot work, not raised
        into the window."""
        try:
            self.loop = asyncio.new_event_loop()
        except OSError as error:
            raise DiscoveryError(f"cannot start mDNS: {error.strerror or error}") from None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        try:
            self._thread.start()
        except RuntimeError as error:
            self.loop.close()
            raise DiscoveryError(f"cannot start mDNS: {error}") from None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            with contextlib.suppress(Exception):  # zeroconf may leave broadcasts in flight
                tasks = asyncio.all_tasks(self.loop)
                for task in tasks:
                    task.cancel()
                self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def submit(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self, timeout: float) -> None:
        if self.loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.loop.stop)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)


_TYPE_PTR: Final = 12
_TYPE_TXT: Final = 16
_TYPE_SRV: Final = 33
_CLASS_IN: Final = 1


SOURCES_PER_NAME: Final = 4
"""Source addresses kept for one service name (the first to send its records)."""


class Sources:
    """Which addresses sent records of each service (PTR, SRV or TXT), in the order they
    first did, for the browser's per-source limits. The packet's source address is the one
    thing a spammer cannot choose freely on a LAN (its records may claim any address). A room
    counts against the share of one of its sources that has room (the browser's choice), so
    neither a source repeating another's room nor one naming it first (a room announced again
    keeps its name) takes it over. Bounded: at most :data:`SOURCES_PER_NAME` a name, and the
    oldest names are forgotten first."""

    def __init__(self, most: int = 4096) -> None:
        self.most = most
        self._by_name: dict[str, tuple[str, ...]] = {}

    def get(self, name: str) -> str | None:
        """The first source of ``name``, if any."""
        sources = self._by_name.get(name.lower())
        return sources[0] if sources else None

    def all(self, name: str) -> tuple[str, ...]:
        return self._by_name.get(name.lower(), ())

    def note(self, msg: DNSIncoming) -> None:
        source = msg.source[0] if msg.source else None
        if source is None:
            return
        suffix = "." + SERVICE_TYPE.lower()
        for record in msg.answers():
            if not record.ttl:
                continue  # a goodbye names no new room
            if isinstance(record, DNSPointer) and record.key == SERVICE_TYPE.lower():
                key = record.alias_key
            elif record.type in (_TYPE_SRV, _TYPE_TXT) and record.key.endswith(suffix):
                key = record.key
            else:
                continue
            if not key:
                continue
            known = self._by_name.get(key)
            if known is None:
                if len(self._by_name) >= self.most:
                    del self._by_name[next(iter(self._by_name))]
                self._by_name[key] = (source,)
            elif source not in known and len(known) < SOURCES_PER_NAME:
                self._by_name[key] = (*known, source)


class _SourceRecorder(RecordManager):
    """zeroconf's record manager, noting first who sent each service's records (zeroconf
    keeps no record's sender; its listener hands every response here, with its source)."""

    def __init__(self, zc: Zeroconf, sources: Sources) -> None:
        super().__init__(zc)
        self.koikoi_sources = sources

    def async_updates_from_response(self, msg: DNSIncoming) -> None:
        try:
            self.koikoi_sources.note(msg)
        except Exception:  # never in the way of zeroconf's own work
            logger.debug("cannot note the sender of an mDNS response", exc_info=True)
        super().async_updates_from_response(msg)


def _zeroconf(bind: str | None, sources: Sources | None = None) -> AsyncZeroconf:
    """An AsyncZeroconf on the running loop; DiscoveryError when multicast is unusable.
    With ``sources``, the sender of every response is noted there: this replaces zeroconf's
    record manager before its sockets are made (they take it when the loop next runs)."""
    interfaces, version = interfaces_for(bind)
    if not _local_ips():
        raise DiscoveryError("no network interface has an address, so mDNS cannot work here")
    usable = _local_ips(multicast=True)
    if not usable or (
        isinstance(interfaces, list) and ipaddress.ip_address(interfaces[0]) not in usable
    ):
        raise DiscoveryError(
            f"no network interface {_where(bind)}can send multicast, so mDNS cannot work here"
        )
    try:
        zc = AsyncZeroconf(interfaces=interfaces, ip_version=version)
    except (OSError, RuntimeError, ValueError) as error:
        raise DiscoveryError(f"mDNS cannot start: {_describe(error)}") from None
    if sources is not None:
        zc.zeroconf.record_manager = _SourceRecorder(zc.zeroconf, sources)
    return zc


async def _started(zc: AsyncZeroconf, where: str) -> None:
    try:
        await zc.zeroconf.async_wait_for_start(timeout=START_TIMEOUT)
    except Exception as error:
        raise DiscoveryError(f"mDNS cannot start: {_describe(error)}") from None
    if not zc.zeroconf.engine.senders:
        raise DiscoveryError(f"no network interface {where}can send multicast, so mDNS cannot work")


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _where(bind: str | None) -> str:
    return "" if _is_all(bind) else f"with the address {bind} "


# --- advertising ------------------------------------------------------------------------------


class RoomAdvertiser:
    """Publishes one room, changes its status, withdraws it.

    ``bind`` is the interface address to announce on (None or an unspecified address: all
    interfaces, IPv4 and IPv6); ``addresses`` where the room listens (default:
    :func:`advertised_addresses` of ``bind``). Methods are safe to call from any thread;
    :meth:`publish` and :meth:`withdraw` wait (up to a few seconds), :meth:`set_status` does not.
    """

    def __init__(
        self,
        ad: Advertisement,
        *,
        bind: str | None = None,
        addresses: list[str] | None = None,
    ) -> None:
        self.ad = ad
        self.bind = bind
        self.addresses = addresses if addresses is not None else advertised_addresses(bind)
        self._token = secrets.token_hex(3)
        self._thread: _LoopThread | None = None
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    @property
    def name(self) -> str | None:
        """The service name actually published (zeroconf renames on a conflict)."""
        return None if self._info is None else self._info.name

    def _service(self) -> AsyncServiceInfo:
        label = _cut_utf8(clean_text(self.ad.title, MAX_TITLE).replace(".", " "), 48).strip()
        name = f"{label or 'room'} #{self._token}.{SERVICE_TYPE}"
        if _republishable(self.ad.instance):
            name = self.ad.instance
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=self.ad.port,
            properties=dict(room_txt(self.ad)),
            server=f"koikoi-{self._token}.local.",
            parsed_addresses=self.addresses,
            host_ttl=RECORD_TTL,
            other_ttl=RECORD_TTL,
        )

    def publish(self, timeout: float = 10.0) -> None:
        """Announce the room; DiscoveryError when mDNS cannot be used here."""
        if self._thread is not None:
            raise RuntimeError("the room is already published")
        if not self.addresses:
            raise DiscoveryError("this machine has no address to announce")
        self._thread = _LoopThread("koikoi-advertiser")
        try:
            self._thread.submit(self._publish()).result(timeout)
        except concurrent.futures.CancelledError:
            return  # withdrawn (from another thread) while it was being announced
        except concurrent.futures.TimeoutError:
            self.withdraw()
            raise DiscoveryError("mDNS did not announce the room in time") from None
        except DiscoveryError:
            self.withdraw()
            raise

    async def _publish(self) -> None:
        zc = self._zc = _zeroconf(self.bind)
        await _started(zc, _where(self.bind))
        info = self._service()
        try:
            announced = await zc.async_register_service(info, allow_name_change=True)
            await announced
        except (NonUniqueNameException, BadTypeInNameException, OSError, ValueError) as error:
            raise DiscoveryError(f"mDNS cannot announce the room: {_describe(error)}") from None
        self._info = info
        logger.info("advertising %r at %s", info.name, ", ".join(self.addresses))

    def set_status(self, status: RoomStatus) -> None:
        """Change the status the room advertises (open → playing); does not wait."""
        self.ad = replace(self.ad, status=status)
        if self._thread is not None:
            future = self._thread.submit(self._update())
            future.add_done_callback(_log_failure)

    async def _update(self) -> None:
        if self._zc is None or self._info is None:
            return
        info = self._service()
        info.name = self._info.name
        self._info = info
        await (await self._zc.async_update_service(info))

    def withdraw(self, timeout: float = STOP_TIMEOUT) -> None:
        """Say goodbye (peers drop the room at once) and stop; safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            thread.submit(self._withdraw()).result(timeout)
        except Exception:
            logger.debug("withdrawing the room failed", exc_info=True)
        finally:
            thread.stop(timeout)

    async def _withdraw(self) -> None:
        zc, self._zc = self._zc, None
        if zc is None:
            return
        try:
            if self._info is not None:
                await asyncio.wait_for(await zc.async_unregister_service(self._info), STOP_TIMEOUT)
        finally:
            self._info = None
            await zc.async_close()


def _republishable(name: str) -> bool:
    """Whether ``name`` is a service name of ours to publish again: of the service type, its
    instance part at most 63 bytes (DNS's label limit) and without control characters.

    >>> _republishable("Hana's room #0a1b2c._koikoi._tcp.local.")
    True
    >>> _republishable("x._http._tcp.local."), _republishable("")
    (False, False)
    """
    suffix = "." + SERVICE_TYPE
    instance = name[: -len(suffix)] if name.endswith(suffix) else ""
    return (
        bool(instance.strip())
        and len(instance.encode("utf-8")) <= 63
        and all(ch.isprintable() for ch in instance)
    )


def _log_failure(future: concurrent.futures.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.debug("mDNS update failed: %r", future.exception())


# --- browsing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoomAdded:
    room: Room


@dataclass(frozen=True)
class RoomChanged:
    room: Room


@dataclass(frozen=True)
class RoomRemoved:
    name: str


@dataclass(frozen=True)
class BrowseFailed:
    """mDNS does not work here; the list stays empty (joining by address still works)."""

    reason: str


DiscoveryEvent = RoomAdded | RoomChanged | RoomRemoved | BrowseFailed
RoomCallback = Callable[[DiscoveryEvent], None]


@dataclass
class _State:
    rooms: dict[str, Room] = field(default_factory=dict)
    """What was last reported, by service name."""
    pending: dict[str, Room | None] = field(default_factory=dict)
    """Changes not reported yet: the latest room, or None for gone."""
    resolving: dict[str, bool] = field(default_factory=dict)
    """Names being resolved; True when asked again meanwhile."""
    rejected: dict[str, None] = field(default_factory=dict)
    """Names that could not be rooms, oldest first (at most a few times the cap): not looked
    up again until zeroconf reports them changed."""
    overflowed: bool = False
    """Rooms were ignored because the list was full: look for them when there is room."""


class _Turns:
    """Turns to ask the network: ``at_once`` lookups at a time, at most ``per_source`` of them
    for the rooms of one source address (an unknown source is not limited); a room whose TXT
    names a pinned host first, then in the order asked."""

    def __init__(self, at_once: int, per_source: int) -> None:
        self.at_once = at_once
        self.per_source = per_source
        self._running: dict[str, int] = {}
        self._total = 0
        self._waiting: list[tuple[int, int, str | None, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, source: str | None, first: bool) -> AsyncIterator[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if first else 1, next(self._order), source, future))
        self._grant()
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():
                self._release(source)  # its turn came as it was cancelled
            future.cancel()
            raise
        try:
            yield
        finally:
            self._release(source)

    def _free(self, source: str | None) -> bool:
        return source is None or self._running.get(source, 0) < self.per_source

    def _grant(self) -> None:
        held: list[tuple[int, int, str | None, asyncio.Future[None]]] = []
        while self._waiting and self._total < self.at_once:
            entry = heapq.heappop(self._waiting)
            _, _, source, future = entry
            if future.done():
                continue  # cancelled while waiting
            if not self._free(source):
                held.append(entry)
                continue
            self._total += 1
            if source is not None:
                self._running[source] = self._running.get(source, 0) + 1
            future.set_result(None)
        for entry in held:
            heapq.heappush(self._waiting, entry)

    def _release(self, source: str | None) -> None:
        self._total -= 1
        if source is not None:
            left = self._running.get(source, 0) - 1
            if left > 0:
                self._running[source] = left
            else:
                self._running.pop(source, None)
        self._grant()


def _txt_fingerprint(text: bytes | None) -> str | None:
    """The TXT ``fp`` of raw TXT bytes, if any (a hint, looked at before a room is parsed)."""
    if not text or len(text) > MAX_TXT:
        return None
    value = _parse_txt(text).get(b"fp")
    return value.decode("ascii", "replace") if value else None


class RoomBrowser:
    """Lists the rooms on the LAN (or on the interface with the address ``bind``).

    ``on_event`` gets :class:`RoomAdded`, :class:`RoomChanged`, :class:`RoomRemoved` and, when
    mDNS cannot work, one :class:`BrowseFailed`; it runs on the browser's own thread, at most
    one report per room per ``interval`` seconds, never raising into the browser.

    A flood cannot hide a room (docs/protocol.md, "Discovery (mDNS)"): at most ``per_source``
    rooms are kept or being looked up whose records came first from one source address, and
    at most :data:`LOOKUPS_PER_SOURCE` of the lookups that ask the network are theirs.
    ``pinned`` (short fingerprints, or whole ones) are the pinned peers: a room whose TXT
    ``fp`` is one of them is looked up first and kept even beyond ``max_rooms`` (by up to
    :data:`PINNED_EXTRA`); only a hint, for the handshake decides who the host is.
    """

    def __init__(
        self,
        on_event: RoomCallback | None = None,
        *,
        bind: str | None = None,
        max_rooms: int = MAX_ROOMS,
        interval: float = REPORT_INTERVAL,
        per_source: int = MAX_ROOMS_PER_SOURCE,
        pinned: Collection[str] = (),
    ) -> None:
        self.on_event = on_event
        self.bind = bind
        self.max_rooms = max_rooms
        self.per_source = per_source
        self.pinned: frozenset[str] = frozenset()
        self.set_pinned(pinned)
        self.sources = Sources(8 * max_rooms + 64)
        """Who sent each service's records."""
        self._charged: dict[str, str] = {}
        """The source whose share each room admitted counts against (by name, lower case)."""
        self.interval = interval
        self.failure: str | None = None
        """Why browsing does not work, once it is known."""
        self.dropped = 0
        """Services ignored: unparsable, unresolvable, or beyond ``max_rooms``."""
        self.reports = 0
        self.ready = threading.Event()
        """Set once the browser listens (or has failed: see :attr:`failure`)."""
        self._lock = threading.Lock()
        self._snapshot: dict[str, Room] = {}
        self._state = _State()
        self._thread: _LoopThread | None = None
        self._stop: asyncio.Event | None = None
        self._stopping = threading.Event()
        self._main: concurrent.futures.Future[Any] | None = None
        self._last_report = 0.0
        self._flush: asyncio.TimerHandle | None = None
        self._reconcile: asyncio.TimerHandle | None = None
        self._turns = _Turns(RESOLVE_AT_ONCE, LOOKUPS_PER_SOURCE)
        self._tasks: set[asyncio.Task[None]] = set()
        self._full_logged = False

    def set_pinned(self, pinned: Collection[str]) -> None:
        """The pinned peers' fingerprints from now on (from any thread: one assignment)."""
        self.pinned = frozenset(short_fingerprint(fp) for fp in pinned)

    def __enter__(self) -> RoomBrowser:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def rooms(self) -> list[Room]:
        """The rooms reported so far and not gone, in the order they appeared."""
        with self._lock:
            return list(self._snapshot.values())

    def start(self) -> None:
        """Start browsing; returns at once (a failure comes as :class:`BrowseFailed`)."""
        if self._thread is not None:
            return
        try:
            self._thread = _LoopThread("koikoi-browser")
        except DiscoveryError as error:
            self._fail(str(error))
            return
        self._main = self._thread.submit(self._run())

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping.set()
        with contextlib.suppress(RuntimeError):
            thread.loop.call_soon_threadsafe(self._wake)
        if self._main is not None:
            with contextlib.suppress(Exception):
                self._main.result(timeout)
        thread.stop(timeout)

    def _wake(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def _run(self) -> None:
        self._stop = asyncio.Event()
        if self._stopping.is_set():  # stopped before it began
            return
        zc: AsyncZeroconf | None = None
        browser: AsyncServiceBrowser | None = None
        try:
            zc = _zeroconf(self.bind, self.sources)
            await _started(zc, _where(self.bind))
            browser = AsyncServiceBrowser(
                zc.zeroconf, SERVICE_TYPE, handlers=[self._on_change], question_type=ASK
            )
            self._schedule_reconcile(zc.zeroconf)
            self.ready.set()
            await self._stop.wait()
        except DiscoveryError as error:
            self._fail(str(error))
        except Exception as error:  # a zeroconf failure must not become a traceback
            logger.debug("mDNS browsing failed", exc_info=True)
            self._fail(f"mDNS browsing failed: {_describe(error)}")
        finally:
            if self._flush is not None:
                self._flush.cancel()
            if self._reconcile is not None:
                self._reconcile.cancel()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                if browser is not None:
                    await browser.async_cancel()
            with contextlib.suppress(Exception):
                if zc is not None:
                    await zc.async_close()

    def _fail(self, reason: str) -> None:
        self.failure = reason
        logger.info("no room list: %s", reason)
        self.ready.set()
        self._call(BrowseFailed(reason))

    def _call(self, event: DiscoveryEvent) -> None:
        self.reports += 1
        if self.on_event is None:
            return
        try:
            self.on_event(event)
        except Exception:
            logger.exception("the room list callback failed")

    # zeroconf calls this on the loop, with keyword arguments
    def _on_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        state = self._state
        state.rejected.pop(name, None)  # changed or gone: it may be a room now
        if state_change is ServiceStateChange.Removed:
            state.resolving.pop(name, None)
            if name not in state.rooms:
                self._charged.pop(name.lower(), None)
            if name in state.rooms or name in state.pending:
                self._report(name, None)
            return
        if name in state.resolving:
            state.resolving[name] = True
            return
        known = name in state.rooms or state.pending.get(name) is not None
        if not known and not self._admit(zeroconf, name):
            self.dropped += 1
            state.overflowed = True
            if not self._full_logged:
                self._full_logged = True
                logger.debug("room list full (or a source's share of it): ignoring more")
            return
        self._start_resolving(zeroconf, name)

    def _pinned_hint(self, zeroconf: Zeroconf, name: str) -> bool:
        """Whether the TXT zeroconf holds for ``name`` names a pinned peer."""
        if not self.pinned:
            return False
        record = zeroconf.cache.get_by_details(name, _TYPE_TXT, _CLASS_IN)
        return isinstance(record, DNSText) and _txt_fingerprint(record.text) in self.pinned

    def _held_from(self, source: str) -> int:
        """Rooms listed, to be reported or being looked up that count against ``source``."""
        state = self._state
        names = {*state.rooms, *state.resolving}
        names.update(name for name, room in state.pending.items() if room is not None)
        return sum(1 for name in names if self._charged.get(name.lower()) == source)

    def _admit(self, zeroconf: Zeroconf, name: str) -> bool:
        """Whether a room not listed yet may be looked up: the list is not full
        (``max_rooms``, more for a pinned host's room), nor the share (``per_source``) of
        every source that sent its records; it then counts against the first with room."""
        state = self._state
        cap = self.max_rooms + (PINNED_EXTRA if self._pinned_hint(zeroconf, name) else 0)
        if len(state.rooms) + len(state.resolving) >= cap:
            return False
        key = name.lower()
        sources = self.sources.all(name)
        if not sources:
            self._charged.pop(key, None)  # (zeroconf's cache had it before us: not limited)
            return True
        for source in sources:
            if self._held_from(source) < self.per_source:
                self._charged[key] = source
                return True
        return False

    def _start_resolving(self, zeroconf: Zeroconf, name: str) -> None:
        state = self._state
        state.resolving[name] = False
        task = asyncio.ensure_future(self._resolve(zeroconf, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        state = self._state
        try:
            while True:
                room = await self._lookup(zeroconf, name)
                if name not in state.resolving:  # removed meanwhile
                    return
                if not state.resolving[name]:
                    break
                state.resolving[name] = False  # changed while we looked: look again
        finally:
            state.resolving.pop(name, None)
        if room is not None:
            self._report(name, room)
        else:
            state.rejected[name] = None
            self._charged.pop(name.lower(), None)
            if len(state.rejected) > 4 * self.max_rooms:
                del state.rejected[next(iter(state.rejected))]
            if name in state.rooms:
                self._report(name, None)

    async def _lookup(self, zeroconf: Zeroconf, name: str) -> Room | None:
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            # what the cache holds is read at once; only a lookup that asks the network waits
            # for a turn, so a known room's change is never queued behind unanswered lookups
            if not info.load_from_cache(zeroconf):
                first = _txt_fingerprint(info.text) in self.pinned  # TXT may be cached alone
                async with self._turns.turn(self._charged.get(name.lower()), first):
                    if name not in self._state.resolving:
                        return None  # gone while it waited for its turn: ask nothing
                    if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS, ASK):
                        raise _Unusable("no answer")
            return parse_room(name, info.text or b"", info.parsed_scoped_addresses(), info.port)
        except (ValueError, BadTypeInNameException) as error:
            self.dropped += 1
            logger.debug("ignoring the service %r: %s", name[:80], error)
            return None

    def _schedule_reconcile(self, zeroconf: Zeroconf) -> None:
        loop = asyncio.get_running_loop()
        self._reconcile = loop.call_later(RECONCILE_INTERVAL, self._reconcile_cache, zeroconf)

    def _reconcile_cache(self, zeroconf: Zeroconf) -> None:
        """Look up the rooms in zeroconf's cache that were ignored while the list was full, as
        many as there is room for now, oldest first. zeroconf reports a service once (and again
        only when its records change), so without this a room ignored during a burst would
        stay unlisted for as long as it is announced, even after others leave."""
        self._schedule_reconcile(zeroconf)
        state = self._state
        if not state.overflowed:
            return
        now = current_time_millis()
        waiting = False
        for record in list(zeroconf.cache.async_entries_with_name(SERVICE_TYPE)):
            if not isinstance(record, DNSPointer) or record.is_expired(now):
                continue
            name = record.alias
            if (
                name in state.rooms
                or name in state.pending
                or name in state.resolving
                or name in state.rejected
            ):
                continue
            if not self._admit(zeroconf, name):
                waiting = True  # more are waiting: look again later
                continue
            self._start_resolving(zeroconf, name)
        state.overflowed = waiting  # else every room in the cache is listed or looked up

    def _report(self, name: str, room: Room | None) -> None:
        self._state.pending[name] = room
        if self._flush is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_report + self.interval - time.monotonic())
        self._flush = loop.call_later(delay, self._report_pending)

    def _report_pending(self) -> None:
        self._flush = None
        self._last_report = time.monotonic()
        state = self._state
        pending, state.pending = state.pending, {}
        for name, room in pending.items():
            old = state.rooms.get(name)
            event: DiscoveryEvent
            if room is None:
                if old is None:
                    continue
                del state.rooms[name]
                self._charged.pop(name.lower(), None)
                event = RoomRemoved(name)
            elif old is None:
                pinned = room.fingerprint is not None and room.fingerprint in self.pinned
                if len(state.rooms) >= self.max_rooms + (PINNED_EXTRA if pinned else 0):
                    self.dropped += 1
                    continue
                state.rooms[name] = room
                event = RoomAdded(room)
            elif old != room:
                state.rooms[name] = room
                event = RoomChanged(room)
            else:
                continue
            with self._lock:
                self._snapshot = dict(state.rooms)
            self._call(event)


def find_room(
    title: str,
    *,
    bind: str | None = None,
    timeout: float = 5.0,
    playing: bool = False,
) -> list[Room]:
    """Browse up to ``timeout`` seconds for an open room called ``title`` (compared without
    case); returns the open rooms of that title found when the first appears (empty when none
    did). DiscoveryError when mDNS does not work here. ``playing``: rooms whose match is in
    play count too (a joiner finding its room again to resume its match)."""
    wanted = clean_text(title, MAX_TITLE).casefold()
    found = threading.Event()
    statuses = (RoomStatus.OPEN, RoomStatus.PLAYING) if playing else (RoomStatus.OPEN,)

    def matches(browser: RoomBrowser) -> list[Room]:
        return [
            room
            for room in browser.rooms()
            if room.title.casefold() == wanted and room.status in statuses
        ]

    def on_event(event: DiscoveryEvent) -> None:
        if isinstance(event, BrowseFailed) or (
            isinstance(event, RoomAdded | RoomChanged)
            and event.room.title.casefold() == wanted
            and event.room.status in statuses
        ):
            found.set()

    browser = RoomBrowser(on_event, bind=bind)
    browser.start()
    try:
        found.wait(timeout)
        if browser.failure is not None:
            raise DiscoveryError(browser.failure)
        return matches(browser)
    finally:
        browser.stop()


def look_for_room(
    title: str,
    *,
    bind: str | None = None,
    timeout: float = 5.0,
    wait: float = SAME_TITLE_WAIT,
    pinned: Collection[str] = (),
    clock: Callable[[], float] = time.monotonic,
) -> RoomFound | SameTitle | None:
    """Browse for the room ``join --room TITLE`` joins (:class:`TitleSearch`): up to
    ``timeout`` seconds for a first open room of the title, then ``wait`` more for another
    of that title (and :data:`SAME_TITLE_LISTEN` seconds in all, at least). None when no
    open room of the title appeared; DiscoveryError when mDNS does not work here."""
    search = TitleSearch(title, wait=wait, started=clock())
    lock = threading.Lock()
    wake = threading.Event()

    def on_event(event: DiscoveryEvent) -> None:
        with lock:
            if isinstance(event, RoomAdded | RoomChanged):
                search.see(event.room, clock())
            elif isinstance(event, RoomRemoved):
                search.gone(event.name)
        wake.set()

    browser = RoomBrowser(on_event, bind=bind, pinned=pinned)
    end = clock() + timeout
    browser.start()
    try:
        while True:
            wake.clear()
            now = clock()
            with lock:
                decision = search.decide(now)
                deadline = search.deadline
            if decision is not None:
                return decision
            if browser.failure is not None:
                raise DiscoveryError(browser.failure)
            until = deadline if deadline is not None and deadline > now else end
            if until <= now:
                return None
            wake.wait(until - now)
    finally:
        browser.stop()


__all__ = [
    "MAX_ROOMS",
    "MAX_ROOMS_PER_SOURCE",
    "SAME_TITLE_WAIT",
    "RoomFound",
    "SameTitle",
    "Sources",
    "TitleSearch",
    "look_for_room",
    "same_host",
    "SERVICE_TYPE",
    "Advertisement",
    "announced_version",
    "BrowseFailed",
    "DiscoveryError",
    "DiscoveryEvent",
    "Room",
    "RoomAdded",
    "RoomAdvertiser",
    "RoomBrowser",
    "RoomCallback",
    "RoomChanged",
    "RoomRemoved",
    "RoomStatus",
    "advertised_addresses",
    "clean_text",
    "find_room",
    "format_address",
    "interfaces_for",
    "parse_room",
    "room_txt",
    "short_fingerprint",
]
