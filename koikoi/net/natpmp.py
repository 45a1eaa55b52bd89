"""A port mapping by NAT-PMP (RFC 6886), for routers that speak it and not UPnP-IGD: the
fallback of :mod:`koikoi.net.portmap` (blocking, stdlib only; no maintained Python client of
it exists, and the protocol is four small UDP messages).

The gateway is the default route's (Linux: ``/proc/net/route``); the client asks it for its
external address (opcode 0) and for a TCP mapping (opcode 2), retrying each request after
250 ms and then twice as long each time (RFC 6886 3.1), for :data:`TRIES` tries. A lifetime
of 0 removes the mapping.

>>> request_mapping(40213, 40213, 120).hex()
'000200009d159d1500000078'
>>> parse_mapping(bytes.fromhex("008200000000002a9d159d1600000078"))
(40213, 40214, 120)
"""

from __future__ import annotations

import contextlib
import socket
import struct
from pathlib import Path
from typing import Final

from koikoi.net.portmap import Mapping, MappingFailed, behind_another_nat, private_address

PORT: Final = 5351
TRIES: Final = 3
"""Tries of each request: 0.25 + 0.5 + 1 s before giving up (RFC 6886 allows 9)."""
FIRST_WAIT: Final = 0.25
RESULTS: Final = {
    1: "unsupported version",
    2: "not authorized (NAT-PMP is turned off for this machine)",
    3: "network failure (the router has no external address)",
    4: "out of resources (no port left)",
    5: "unsupported opcode",
}
"""RFC 6886 3.5's result codes."""


def default_gateway(routes: Path = Path("/proc/net/route")) -> str | None:
    """The IPv4 default route's gateway, or None (no such route, or not Linux)."""
    try:
        lines = routes.read_text().splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 3 and fields[1] == "00000000" and int(fields[3], 16) & 2:
            return socket.inet_ntoa(struct.pack("<I", int(fields[2], 16)))
    return None


def request_mapping(internal: int, external: int, lifetime: int) -> bytes:
    """Opcode 2 (TCP): version 0, reserved, the internal port, the suggested external port
    and the lifetime in seconds."""
    return struct.pack("!BBHHHI", 0, 2, 0, internal, external, lifetime)


def _checked(data: bytes, opcode: int, size: int) -> bytes:
    """``data`` if it is the router's success answer to ``opcode``, at least ``size`` bytes;
    else :class:`MappingFailed` (malformed, or the router's refusal by its result code)."""
    if len(data) < size or data[0] != 0 or data[1] != 128 + opcode:
        raise MappingFailed(
            "the router's NAT-PMP answer is malformed", "malformed", protocol="NAT-PMP"
        )
    result = struct.unpack("!H", data[2:4])[0]
    if result:
        raise MappingFailed(
            f"the router refused by NAT-PMP: {RESULTS.get(result, result)}",
            "refused_by",
            protocol="NAT-PMP",
            result=result,
        )
    return data


def parse_mapping(data: bytes) -> tuple[int, int, int]:
    """The answer to :func:`request_mapping`: (internal port, external port, lifetime)."""
    internal, external, lifetime = struct.unpack("!HHI", _checked(data, 2, 16)[8:16])
    return internal, external, lifetime


class NatPmpMapper:
    """One room's mapping by NAT-PMP (the same calls as :class:`~koikoi.net.portmap.UpnpMapper`)."""

    def __init__(self, lease: int, gateway: str | None = None, port: int = PORT) -> None:
        self.lease = lease
        self.gateway = gateway
        self.port = port
        """The server's port (5351; tests run their own server elsewhere)."""
        self.mapping: Mapping | None = None
        self.answered = False

    def _ask(self, message: bytes, opcode: int) -> tuple[bytes, str]:
        """Send ``message`` to the gateway and return its answer and this side's address."""
        assert self.gateway is not None
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect((self.gateway, self.port))
            local = sock.getsockname()[0]
            wait = FIRST_WAIT
            for _ in range(TRIES):
                sock.send(message)
                sock.settimeout(wait)
                try:
                    while True:
                        data = sock.recv(64)
                        if len(data) >= 2 and data[1] == 128 + opcode:
                            self.answered = True
                            return data, local
                except TimeoutError:
                    wait *= 2
                except OSError as error:  # ICMP port unreachable: nothing listens there
                    raise MappingFailed(
                        f"the router {self.gateway} does not speak NAT-PMP "
                        f"({error.strerror or error})",
                        "unspoken",
                        protocol="NAT-PMP",
                    ) from None
        raise MappingFailed(
            f"the router {self.gateway} did not answer NAT-PMP", "silent", protocol="NAT-PMP"
        )

    def open(self, port: int) -> Mapping:
        if self.gateway is None:
            self.gateway = default_gateway()
        if self.gateway is None:
            raise MappingFailed(
                "no default gateway to ask by NAT-PMP", "no_gateway", protocol="NAT-PMP"
            )
        data, local = self._ask(struct.pack("!BB", 0, 0), 0)
        external = socket.inet_ntoa(_checked(data, 0, 12)[8:12])
        if external == "0.0.0.0" or behind_another_nat(external):
            raise private_address(external)
        answer, _ = self._ask(request_mapping(port, port, self.lease), 2)
        _, external_port, _ = parse_mapping(answer)
        self.mapping = Mapping(external, external_port, local, port, method="NAT-PMP")
        return self.mapping

    def renew(self) -> None:
        mapping = self.mapping
        if mapping is not None:
            message = request_mapping(mapping.internal_port, mapping.external_port, self.lease)
            parse_mapping(self._ask(message, 2)[0])

    def close(self) -> None:
        mapping, self.mapping = self.mapping, None
        if mapping is not None:
            with contextlib.suppress(MappingFailed):  # it lapses with its lease
                self._ask(request_mapping(mapping.internal_port, 0, 0), 2)
