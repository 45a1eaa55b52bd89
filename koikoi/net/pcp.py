"""A port mapping by PCP (the Port Control Protocol, RFC 6887), NAT-PMP's successor: tried
after UPnP-IGD and before NAT-PMP (:mod:`koikoi.net.portmap`); blocking, stdlib only (no
maintained Python client of it exists, and a mapping is one UDP request and its answer).

The server is the default route's gateway on port 5351, as NAT-PMP's. A ``MAP`` request
(opcode 1) asks for TCP ``port`` for :data:`~koikoi.net.portmap.LEASE` seconds, with a
random nonce that the answer must repeat (and that a renewal and the removal repeat too);
the answer carries the external address and port. Requests are sent again after 250 ms
and then twice as long each time, for :data:`~koikoi.net.natpmp.TRIES` tries. A lifetime of
0 removes the mapping. A router that speaks only NAT-PMP answers a PCP request with
NAT-PMP's "unsupported version" (RFC 6887 9): that is a quick failure, and NAT-PMP is
tried next.

>>> nonce = bytes(range(12))
>>> request_map("192.168.61.2", 40213, 120, nonce).hex()[:48]
'020100000000007800000000000000000000ffffc0a83d02'
>>> answer = bytes.fromhex("0281000000000078000004d2" + "00" * 12) + nonce + bytes.fromhex(
...     "060000009d159d16" + "00000000000000000000ffffc6336407")
>>> parse_map(answer, nonce)
(40213, 40214, '198.51.100.7', 120)
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import struct
from pathlib import Path
from typing import Final

from koikoi.net.natpmp import FIRST_WAIT, PORT, TRIES, default_gateway
from koikoi.net.portmap import Mapping, MappingFailed, behind_another_nat, private_address

VERSION: Final = 2
MAP: Final = 1
TCP: Final = 6
RESULTS: Final = {
    1: "unsupported version",
    2: "not authorized (PCP is turned off for this machine)",
    3: "malformed request",
    4: "unsupported opcode",
    5: "unsupported option",
    6: "malformed option",
    7: "network failure (the router has no external address)",
    8: "no resources (no port left)",
    9: "unsupported protocol",
    10: "this machine has too many mappings",
    11: "cannot provide the external port",
    12: "address mismatch (another NAT between this machine and the router)",
    13: "excessive remote peers",
}
"""RFC 6887 7.4's result codes."""


def _as_ipv6(address: str) -> bytes:
    """An address as PCP writes it: IPv6, an IPv4 one mapped (``::ffff:a.b.c.d``)."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv4Address):
        ip = ipaddress.IPv6Address(f"::ffff:{ip}")
    return ip.packed


def _from_ipv6(raw: bytes) -> str:
    ip = ipaddress.IPv6Address(raw)
    return str(ip.ipv4_mapped) if ip.ipv4_mapped is not None else str(ip)


def request_map(client: str, port: int, lifetime: int, nonce: bytes, external: int = 0) -> bytes:
    """A ``MAP`` request: the header (version 2, opcode 1, the lifetime, the client's
    address) and the opcode's fields (the nonce, TCP, the internal port, the suggested
    external port and address: any, of the client's family).

    >>> message = request_map("2001:db8:61::10", 5000, 120, bytes(12))
    >>> message[8:24].hex(), message[-16:] == bytes(16)  # the client; any address
    ('20010db8006100000000000000000010', True)
    """
    header = struct.pack("!BBHI", VERSION, MAP, 0, lifetime) + _as_ipv6(client)
    wildcard = _as_ipv6("::" if ":" in client else "0.0.0.0")
    return header + nonce + struct.pack("!B3xHH", TCP, port, external or port) + wildcard


def parse_map(data: bytes, nonce: bytes) -> tuple[int, int, str, int]:
    """The answer to :func:`request_map` with this ``nonce``: (internal port, external
    port, external address, lifetime); :class:`MappingFailed` for a refusal or a malformed
    answer."""
    if len(data) >= 4 and data[0] == 0:  # a NAT-PMP server: it does not speak PCP
        raise MappingFailed("the router speaks NAT-PMP, not PCP", "unspoken", protocol="PCP")
    if len(data) < 60 or data[0] != VERSION or data[1] != 0x80 | MAP:
        raise MappingFailed("the router's PCP answer is malformed", "malformed", protocol="PCP")
    result = data[3]
    if result:
        raise MappingFailed(
            f"the router refused by PCP: {RESULTS.get(result, result)}",
            "refused_by",
            protocol="PCP",
            result=result,
        )
    (lifetime,) = struct.unpack("!I", data[4:8])
    if data[24:36] != nonce:
        raise MappingFailed(
            "the router's PCP answer is for another request", "malformed", protocol="PCP"
        )
    protocol, internal, external = struct.unpack("!B3xHH", data[36:44])
    if protocol != TCP:
        raise MappingFailed("the router's PCP answer is malformed", "malformed", protocol="PCP")
    return internal, external, _from_ipv6(data[44:60]), lifetime


class PcpMapper:
    """One room's mapping by PCP (the same calls as :class:`~koikoi.net.portmap.UpnpMapper`)."""

    def __init__(self, lease: int, gateway: str | None = None, port: int = PORT) -> None:
        self.lease = lease
        self.gateway = gateway
        self.port = port
        """The server's port (5351; tests run their own server elsewhere)."""
        self.mapping: Mapping | None = None
        self.answered = False
        self._nonce = os.urandom(12)
        self._local = ""

    family = socket.AF_INET

    def _ask(self, port: int, lifetime: int, external: int = 0) -> tuple[int, int, str, int]:
        """One ``MAP`` request to the gateway; its answer parsed."""
        assert self.gateway is not None
        with socket.socket(self.family, socket.SOCK_DGRAM) as sock:
            sock.connect(_where(self.gateway, self.port))
            local = sock.getsockname()[0]
            message = request_map(local, port, lifetime, self._nonce, external)
            wait = FIRST_WAIT
            for _ in range(TRIES):
                sock.send(message)
                sock.settimeout(wait)
                try:
                    while True:
                        data = sock.recv(1100)
                        if len(data) >= 2 and (data[0] == 0 or data[1] == 0x80 | MAP):
                            self.answered = data[0] == VERSION  # NAT-PMP's answer: not PCP's
                            answer = parse_map(data, self._nonce)
                            self._local = local
                            return answer
                except TimeoutError:
                    wait *= 2
                except OSError as error:  # ICMP port unreachable: nothing listens there
                    raise MappingFailed(
                        f"the router {self.gateway} does not speak PCP ({error.strerror or error})",
                        "unspoken",
                        protocol="PCP",
                    ) from None
        raise MappingFailed(
            f"the router {self.gateway} did not answer PCP", "silent", protocol="PCP"
        )

    def open(self, port: int) -> Mapping:
        if self.gateway is None:
            self.gateway = default_gateway()
        if self.gateway is None:
            raise MappingFailed("no default gateway to ask by PCP", "no_gateway", protocol="PCP")
        _, external_port, external, _ = self._ask(port, self.lease)
        if external in ("0.0.0.0", "::") or behind_another_nat(external):
            with contextlib.suppress(MappingFailed):
                self._ask(port, 0, external_port)
            raise private_address(external)
        self.mapping = Mapping(external, external_port, self._local, port, method="PCP")
        return self.mapping

    def renew(self) -> None:
        mapping = self.mapping
        if mapping is not None:
            self._ask(mapping.internal_port, self.lease, mapping.external_port)

    def close(self) -> None:
        mapping, self.mapping = self.mapping, None
        if mapping is not None:
            with contextlib.suppress(MappingFailed):  # it lapses with its lease
                self._ask(mapping.internal_port, 0, mapping.external_port)


def _where(gateway: str, port: int) -> tuple[str, int] | tuple[str, int, int, int]:
    """The gateway's socket address; a link-local IPv6 one written ``fe80::1%eth0``."""
    if ":" not in gateway:
        return gateway, port
    host, _, zone = gateway.partition("%")
    return host, port, 0, socket.if_nametoindex(zone) if zone else 0


def default_gateway6(routes: Path = Path("/proc/net/ipv6_route")) -> str | None:
    """The IPv6 default route's next hop (a link-local one with its interface), or None."""
    try:
        lines = routes.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) < 10 or fields[0] != "0" * 32 or fields[1] != "00":
            continue
        hop = ipaddress.IPv6Address(bytes.fromhex(fields[4]))
        if hop.is_unspecified:
            continue
        return f"{hop}%{fields[9]}" if hop.is_link_local else str(hop)
    return None


class PcpPinhole(PcpMapper):
    """An IPv6 pinhole in the router's firewall by PCP (RFC 6887 ``MAP`` for an IPv6 address:
    no translation, the router lets in TCP to this machine's address and port): asked by
    ``host --internet`` where the machine has a global IPv6 address, and by a joiner that
    shows a reply code. The :class:`~koikoi.net.portmap.Mapping`'s external address is this
    machine's own."""

    family = socket.AF_INET6

    def open(self, port: int) -> Mapping:
        if self.gateway is None:
            self.gateway = default_gateway6()
        if self.gateway is None:
            raise MappingFailed(
                "no IPv6 default gateway to ask for a pinhole by PCP",
                "no_gateway",
                protocol="PCP",
            )
        _, external_port, external, _ = self._ask(port, self.lease)
        if external != self._local or external_port != port:
            with contextlib.suppress(MappingFailed):
                self._ask(port, 0, external_port)
            raise MappingFailed(
                f"the router answered the pinhole with {external}: not this one",
                "pinhole",
                external=external,
            )
        self.mapping = Mapping(external, port, self._local, port, method="PCP pinhole")
        return self.mapping
