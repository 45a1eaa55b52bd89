"""A port mapping on the home router for an internet room (docs/protocol.md, "Across the
internet"; CLI.md ``host --internet``): UPnP-IGD through the ``miniupnpc`` library.

:class:`UpnpMapper` is blocking (``miniupnpc`` is a C library); the CLI runs it on a thread
of its own. The router is found by SSDP, its external address read, and the room's TCP port
mapped with a short lease (:data:`LEASE` s) that :meth:`UpnpMapper.renew` renews while the
room is open; :meth:`UpnpMapper.close` removes it. A program that crashes leaves a mapping
that lapses with its lease. Every failure is a :class:`MappingFailed` whose ``str`` is one
line saying what was tried, what the router answered and the one setting to change.

miniupnpc's "connected" flag is not trusted alone: an IGD whose external address is in a
range miniupnpc deems reserved is reported "not connected" although its status is
Connected; what counts here is the status and a usable external address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

LEASE: Final = 120
"""Seconds a mapping is asked for: a crashed room's mapping lapses within them."""
RENEW_EVERY: Final = 40.0
"""Seconds between two renewals (a third of the lease: two may fail before it lapses)."""
DISCOVER_MS: Final = 1000
"""How long to wait for routers to answer the SSDP search (sent as its MX: a device
answers within that many seconds)."""
DESCRIPTION: Final = "koikoi room"
MAP_TIMEOUT: Final = 12.0
"""Seconds an attempt to map a room's port may take: its reason is said within 15 s."""

_NOT_PUBLIC: Final = tuple(
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",  # carrier-grade NAT (RFC 6598)
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.168.0.0/16",
    )
)
"""External addresses behind which another NAT stands: a mapping there reaches no one."""


class MappingFailed(Exception):
    """No mapping could be made; ``str`` is one line in English saying why and what to
    change (the CLI's words, and the log's). :attr:`error_code` (``map.<how>``) and the
    named :attr:`params` say the same for the window in another language
    (``koikoi/ui/net/neterrors.py``, :func:`~koikoi.ui.net.neterrors.mapping_detail`)."""

    def __init__(self, text: str, how: str = "other", **params: object) -> None:
        super().__init__(text)
        self.error_code = f"map.{how}"
        self.params = params


class Mapper(Protocol):
    """What maps a room's port: :class:`UpnpMapper`, :class:`~koikoi.net.natpmp.NatPmpMapper`."""

    lease: int
    answered: bool
    """A router answered this protocol (its failure then says more than "no answer")."""

    def open(self, port: int) -> Mapping: ...

    def renew(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Mapping:
    """A TCP port mapping: ``external_host:external_port`` on the router reaches
    ``internal_host:internal_port`` (this machine's address on the home network)."""

    external_host: str
    external_port: int
    internal_host: str
    internal_port: int
    method: str = "UPnP-IGD"


def behind_another_nat(address: str) -> bool:
    """Whether a router's external ``address`` is itself private (double NAT).

    >>> behind_another_nat("100.64.3.4"), behind_another_nat("203.0.113.11")
    (True, False)
    """
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return True
    return any(ip in net for net in _NOT_PUBLIC)


def private_address(external: str) -> MappingFailed:
    """The failure of a router whose external address is private (:func:`behind_another_nat`),
    whichever way it was asked."""
    return MappingFailed(
        f"the router's external address {external} is private: another NAT (a second router, "
        "or the provider's) stands in front of it, so a mapping reaches no one; ask for a "
        "public address or forward the port on the outer router too",
        "private",
        external=external,
    )


class UpnpMapper:
    """One room's mapping by UPnP-IGD (blocking calls; see the module)."""

    def __init__(self, discover_ms: int = DISCOVER_MS, lease: int = LEASE) -> None:
        self.discover_ms = discover_ms
        self.lease = lease
        self.mapping: Mapping | None = None
        self.answered = False
        self._upnp: Any = None

    def open(self, port: int) -> Mapping:
        """Map TCP ``port`` (the same external port when it is free, else another)."""
        try:
            import miniupnpc
        except ImportError:
            raise MappingFailed(
                "cannot ask the router for a port: the UPnP library (miniupnpc) is missing",
                "library",
            ) from None
        upnp = miniupnpc.UPnP()
        upnp.discoverdelay = self.discover_ms
        try:
            found = upnp.discover()
        except Exception:  # miniupnpc raises a bare Exception (errno's words) for none found
            found = 0
        self.answered = bool(found)
        if not found:
            raise MappingFailed(
                f"no router answered UPnP within {self.discover_ms / 1000:g} s: turn on UPnP "
                "(UPnP-IGD) in the router's settings, or forward a port to this machine by hand",
                "silent",
                protocol="UPnP",
            )
        try:
            upnp.selectigd()
            status = upnp.statusinfo()[0]
            external = upnp.externalipaddress() or ""
        except Exception as error:
            raise MappingFailed(
                f"the router's UPnP service answered with an error: {error}", "error"
            ) from None
        if status != "Connected" or not external or external == "0.0.0.0":
            raise MappingFailed(
                f"the router says its internet connection is {status or 'unknown'} with no "
                "external address: check the router's internet connection",
                "offline",
            )
        if behind_another_nat(external):
            raise private_address(external)
        internal = upnp.lanaddr
        self._upnp = upnp
        last = ""
        for external_port in (port, *range(port + 1, port + 8)):
            if external_port > 65535:
                break
            try:
                upnp.addportmapping(
                    external_port, "TCP", internal, port, DESCRIPTION, "", self.lease
                )
            except Exception as error:  # ConflictInMappingEntry and the like: another port
                last = str(error)
                continue
            self.mapping = Mapping(external, external_port, internal, port)
            return self.mapping
        raise MappingFailed(
            f"the router at {external} refused to map port {port} ({last}): allow UPnP port "
            "mappings for this machine in the router's settings",
            "refused",
            port=port,
        )

    def renew(self) -> None:
        """Ask for the lease again (raises :class:`MappingFailed`)."""
        mapping = self.mapping
        if mapping is None or self._upnp is None:
            return
        try:
            self._upnp.addportmapping(
                mapping.external_port,
                "TCP",
                mapping.internal_host,
                mapping.internal_port,
                DESCRIPTION,
                "",
                self.lease,
            )
        except Exception as error:
            raise MappingFailed(f"the router did not renew the mapping: {error}", "renew") from None

    def close(self) -> None:
        """Remove the mapping (a router that does not answer lets it lapse)."""
        mapping, self.mapping = self.mapping, None
        if mapping is None or self._upnp is None:
            return
        try:
            self._upnp.deleteportmapping(mapping.external_port, "TCP")
        except Exception as error:
            raise MappingFailed(
                f"the router did not remove the mapping: {error}", "remove"
            ) from None


def open_first(mappers: Sequence[Mapper], port: int) -> tuple[Mapper, Mapping]:
    """Blocking: TCP ``port`` mapped by the first of ``mappers`` that can (UPnP-IGD, then
    NAT-PMP), and that mapper; else :class:`MappingFailed` with :func:`why_not_mapped`'s
    line. The app runs it on a worker thread (``koikoi.ui.net.portmapping``)."""
    failures: list[tuple[Mapper, MappingFailed]] = []
    for mapper in mappers:
        try:
            return mapper, mapper.open(port)
        except MappingFailed as error:
            failures.append((mapper, error))
    raise not_mapped(failures)


def not_mapped(failures: Sequence[tuple[Mapper, MappingFailed]]) -> MappingFailed:
    """One failure for every way tried failing: that of a router that answered (its words),
    else that none did and the setting to change."""
    for mapper, error in failures:
        if mapper.answered:
            return error
    return MappingFailed(
        "no router answered UPnP, PCP or NAT-PMP: turn on UPnP (or NAT-PMP/PCP) in the router's "
        "settings, or forward a port to this machine by hand and join by address",
        "none",
    )


def why_not_mapped(failures: Sequence[tuple[Mapper, MappingFailed]]) -> str:
    """:func:`not_mapped`'s line."""
    return str(not_mapped(failures))
