"""PCP (koikoi/net/pcp.py) against a router of the test's own on loopback: a real UDP socket
answering as RFC 6887 says, or refusing, or speaking only NAT-PMP (then NAT-PMP maps the
room: koikoi/net/portmap.py's order). The real router is tests/test_net_nat.py's miniupnpd."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from koikoi.net.natpmp import NatPmpMapper
from koikoi.net.pcp import MAP, VERSION, PcpMapper
from koikoi.net.portmap import MappingFailed, open_first

EXTERNAL = "198.51.100.7"
LEASE = 120


@dataclass
class Router:
    """A UDP server answering PCP ``MAP`` (``result`` 0: mapped to ``external_port``) or,
    with ``pcp`` off, only NAT-PMP (as miniupnpd built without PCP would)."""

    result: int = 0
    pcp: bool = True
    external: str = EXTERNAL
    external_port: int = 40214
    nonce: bytes | None = None
    """Answer with this nonce instead of the request's (a stray or forged answer)."""
    heard: list[tuple[int, int, int, bytes, str]] = field(default_factory=list)
    """(version, opcode, lifetime, nonce, client address) of each PCP request."""
    natpmp: list[bytes] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                data, peer = self.sock.recvfrom(1100)
            except OSError:
                return
            if data[0] == 0:  # NAT-PMP: opcode 0 (address) or 2 (TCP mapping)
                self.natpmp.append(data)
                if data[1] == 0:
                    answer = struct.pack("!BBHI", 0, 128, 0, 7) + socket.inet_aton(self.external)
                else:
                    internal, _, lifetime = struct.unpack("!HHI", data[4:12])
                    answer = struct.pack(
                        "!BBHIHHI", 0, 130, 0, 7, internal, self.external_port, lifetime
                    )
                self.sock.sendto(answer, peer)
                continue
            if not self.pcp:  # RFC 6887 9: a NAT-PMP server answers "unsupported version"
                self.sock.sendto(struct.pack("!BBHI", 0, 128 + data[1], 1, 7), peer)
                continue
            version, opcode = data[0], data[1]
            (lifetime,) = struct.unpack("!I", data[4:8])
            client = socket.inet_ntop(socket.AF_INET6, data[8:24])
            nonce = data[24:36]
            self.heard.append((version, opcode, lifetime, nonce, client))
            internal = struct.unpack("!H", data[40:42])[0]
            header = struct.pack("!BBBBII", VERSION, 0x80 | MAP, 0, self.result, lifetime, 9)
            body = (self.nonce or nonce) + struct.pack("!B3xHH", 6, internal, self.external_port)
            address = socket.inet_pton(socket.AF_INET6, f"::ffff:{self.external}")
            self.sock.sendto(header + bytes(12) + body + address, peer)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def router() -> Iterator[Router]:
    built = Router()
    yield built
    built.close()


def test_a_pcp_router_maps_the_port_renews_it_and_removes_it_with_one_nonce(
    router: Router,
) -> None:
    mapper = PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    mapping = mapper.open(40213)
    assert (mapping.external_host, mapping.external_port) == (EXTERNAL, 40214)
    assert (mapping.internal_host, mapping.internal_port) == ("127.0.0.1", 40213)
    assert mapping.method == "PCP" and mapper.answered
    mapper.renew()
    mapper.close()
    versions, opcodes, lifetimes, nonces, clients = zip(*router.heard, strict=True)
    assert versions == (2, 2, 2) and opcodes == (MAP, MAP, MAP)
    assert lifetimes == (LEASE, LEASE, 0)  # the lease, again, then removed
    assert len(set(nonces)) == 1 and len(nonces[0]) == 12
    assert set(clients) == {"::ffff:127.0.0.1"}
    assert mapper.mapping is None


def test_a_refusal_is_said_in_the_routers_words(router: Router) -> None:
    router.result = 2
    mapper = PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    with pytest.raises(MappingFailed, match="not authorized"):
        mapper.open(40213)
    assert mapper.answered  # so its words are the ones said (portmap.why_not_mapped)


def test_an_answer_with_another_nonce_maps_nothing(router: Router) -> None:
    router.nonce = bytes(12)
    mapper = PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    with pytest.raises(MappingFailed, match="another request"):
        mapper.open(40213)
    assert mapper.mapping is None


def test_a_private_external_address_is_no_mapping_and_is_removed(router: Router) -> None:
    router.external = "10.0.0.1"  # another NAT in front of this one
    mapper = PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    with pytest.raises(MappingFailed, match="another NAT"):
        mapper.open(40213)
    assert [lifetime for _, _, lifetime, _, _ in router.heard] == [LEASE, 0]


def test_a_router_that_speaks_only_nat_pmp_is_asked_by_nat_pmp_next(router: Router) -> None:
    router.pcp = False
    pcp = PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    natpmp = NatPmpMapper(LEASE, gateway="127.0.0.1", port=router.port)
    mapper, mapping = open_first([pcp, natpmp], 40213)
    assert mapper is natpmp and mapping.method == "NAT-PMP"
    assert not pcp.answered  # NAT-PMP's "unsupported version" is no PCP answer
    assert mapping.external_host == EXTERNAL and mapping.external_port == 40214
    natpmp.close()


def test_nothing_listening_fails_in_one_line() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    mapper = PcpMapper(LEASE, gateway="127.0.0.1", port=port)  # closed: ICMP unreachable
    with pytest.raises(MappingFailed) as caught:
        mapper.open(40213)
    assert "does not speak PCP" in str(caught.value) and "\n" not in str(caught.value)


def test_the_ipv6_gateway_is_the_default_routes_next_hop(tmp_path: Path) -> None:
    from koikoi.net.pcp import default_gateway6

    routes = tmp_path / "ipv6_route"
    prefix = "20010db8006100000000000000000000 40 " + "0" * 32 + " 00 " + "0" * 32
    default = "0" * 32 + " 00 " + "0" * 32 + " 00 "
    routes.write_text(
        f"{prefix} 00000100 00000001 00000000 00000001 eth0\n"
        f"{default}{'0' * 32} 00000400 00000001 00000000 00200200 lo\n"  # unreachable
        f"{default}fe800000000000000000000000000001 00000400 00000002 00000000 00000003 eth0\n"
    )
    assert default_gateway6(routes) == "fe80::1%eth0"
    routes.write_text(f"{default}20010db8006100000000000000000001 00000400 1 0 3 eth0\n")
    assert default_gateway6(routes) == "2001:db8:61::1"
    routes.write_text(f"{prefix} 00000100 00000001 00000000 00000001 eth0\n")
    assert default_gateway6(routes) is None
    assert default_gateway6(tmp_path / "none") is None
