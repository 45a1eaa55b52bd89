"""This machine's interfaces and addresses, as mDNS announces and listens on them."""

from __future__ import annotations

import contextlib
import ipaddress
from pathlib import Path
from typing import Final

import ifaddr
from zeroconf import InterfaceChoice, IPVersion

from koikoi.net.discovery.txt import MAX_ADDRESSES, address_rank


class DiscoveryError(Exception):
    """mDNS cannot be used here (no multicast, a bad interface): one line saying why."""


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


def local_ips(multicast: bool = False) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
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


def is_all(bind: str | None) -> bool:
    return bind is None or bind in ("", "0.0.0.0", "::")


def interfaces_for(bind: str | None) -> tuple[InterfaceChoice | list[str], IPVersion]:
    """zeroconf's interface choice for ``bind``: all interfaces, IPv4 and IPv6, when None or
    unspecified; else the one interface that has this address. Raises DiscoveryError for an
    address that is not this machine's."""
    if is_all(bind):
        return InterfaceChoice.All, IPVersion.All
    assert bind is not None
    try:
        ip = ipaddress.ip_address(bind)
    except ValueError:
        raise DiscoveryError(f"--bind takes an IP address, not {bind!r}") from None
    if ip not in local_ips():
        raise DiscoveryError(f"no network interface of this machine has the address {bind}")
    return [str(ip)], IPVersion.V4Only if ip.version == 4 else IPVersion.V6Only


def advertised_addresses(bind: str | None) -> list[str]:
    """The addresses a room listening on ``bind`` can be reached at.

    A room bound to one address gives that one; bound to all IPv4 (``0.0.0.0``), every IPv4
    address of the machine; bound to ``::`` (or None), every IPv4 and IPv6 address but IPv6
    link-local ones (a peer cannot reach them without knowing its own zone). Loopback
    addresses only when there is nothing else (a peer on another machine cannot use them).
    """
    if not is_all(bind):
        assert bind is not None
        return [bind]
    want_v6 = bind != "0.0.0.0"
    ips = [
        ip
        for ip in local_ips()
        if (ip.version == 4 or (want_v6 and not ip.is_link_local)) and not ip.is_unspecified
    ]
    outside = [ip for ip in ips if not ip.is_loopback]
    chosen = outside or ips
    chosen.sort(key=address_rank)
    return list(dict.fromkeys(str(ip) for ip in chosen))[:MAX_ADDRESSES]
