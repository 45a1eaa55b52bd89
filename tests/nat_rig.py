"""Home routers in network namespaces, for the tests of playing across the internet
(tests/test_net_nat.py; the issue's rig, docs/protocol.md "Across the internet").

- ``inet``: the internet, a bridge at 203.0.113.1/24 (a documentation range: nothing real).
  The joiner "on the internet" and a tiny STUN responder live here.
- ``r1``: home 1's router, WAN 203.0.113.11, LAN 192.168.61.1/24. nftables masquerade and a
  stateful firewall (forward: established and related, LAN to WAN, and what miniupnpd
  opens), and **miniupnpd** (UPnP-IGD and NAT-PMP/PCP) on its LAN. Debian's miniupnpd 2.3.1
  treats 203.0.113.0/24 as reserved and keeps forwarding off unless ``ext_perform_stun``
  finds a STUN responder that shows its address unfiltered: the one in ``inet`` does.
- ``h1``: a machine in home 1, 192.168.61.10, its default route through ``r1``.
- ``r2``/``h2``: home 2, 192.168.62.0/24, the same NAT and firewall, and nothing that maps.

Every namespace, veth, bridge and nft table is named ``kkn…`` (with a per-run tag) and all
are removed by :meth:`Rig.close`, also when making them failed half-way. Only addresses
inside these namespaces are used.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

INET = "203.0.113.1"
R1_WAN, R2_WAN = "203.0.113.11", "203.0.113.12"
R1_LAN, H1 = "192.168.61.1", "192.168.61.10"
R2_LAN, H2 = "192.168.62.1", "192.168.62.10"
INET6 = "2001:db8:100::1"
R1_WAN6, R2_WAN6 = "2001:db8:100::11", "2001:db8:100::12"
R1_LAN6, H1_6 = "2001:db8:61::1", "2001:db8:61::10"
R2_LAN6, H2_6 = "2001:db8:62::1", "2001:db8:62::10"
"""With ``ipv6``: global IPv6 (a documentation range) routed, not translated, each home's
router with the same stateful forward firewall for both families."""
STUN_PORT = 3478
NFT_TABLE = "kkn_router"
"""The one nft table of each router: its firewall, its NAT and miniupnpd's chains."""


def skip_reason() -> str | None:
    """Why the rig cannot be built here, or None."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "the rig's network namespaces need root"
    for tool, package in (("ip", "iproute2"), ("nft", "nftables")):
        if shutil.which(tool) is None:
            return f"the {tool} command ({package}) is not installed"
    if shutil.which("miniupnpd") is None and not Path("/usr/sbin/miniupnpd").exists():
        return "miniupnpd is not installed (Debian's miniupnpd-nftables)"
    return None


needs_the_rig = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")
"""Skips a test (or, as ``pytestmark``, a module) where the rig cannot be built, saying why."""


def rig_fixture(**options: bool) -> Any:
    """A fixture: a :class:`Rig` made with ``options`` in the test's folder and removed after
    the test. Its name is the module's name for it (``rig = rig_fixture()``)."""

    @pytest.fixture
    def built(tmp_path: Path) -> Iterator[Rig]:
        with Rig(tmp_path / "rig", **options) as rig:
            yield rig

    return built


def run(*args: str, check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc


def _ruleset(wan: str, lan: str) -> str:
    """A home router: stateful forward firewall, masquerade to the WAN, miniupnpd's chains."""
    return f"""
table inet {NFT_TABLE} {{
    chain forward {{
        type filter hook forward priority 0; policy drop;
        ct state established,related accept
        iifname "{lan}" oifname "{wan}" accept
        jump miniupnpd
    }}
    chain miniupnpd {{
    }}
    chain prerouting {{
        type nat hook prerouting priority -100; policy accept;
        jump prerouting_miniupnpd
    }}
    chain postrouting {{
        type nat hook postrouting priority 100; policy accept;
        jump postrouting_miniupnpd
        meta nfproto ipv4 oifname "{wan}" masquerade
    }}
    chain prerouting_miniupnpd {{
    }}
    chain postrouting_miniupnpd {{
    }}
}}
"""


def _miniupnpd_conf(wan: str, lan: str, leases: Path, upnp: bool) -> str:
    return f"""ext_ifname={wan}
listening_ip={lan}
http_port=0
enable_natpmp=yes
enable_upnp={"yes" if upnp else "no"}
secure_mode=yes
system_uptime=yes
uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b
lease_file={leases}
ext_perform_stun=yes
ext_stun_host={INET}
ext_stun_port={STUN_PORT}
upnp_table_name={NFT_TABLE}
upnp_nat_table_name={NFT_TABLE}
upnp_forward_chain=miniupnpd
upnp_nat_chain=prerouting_miniupnpd
upnp_nat_postrouting_chain=postrouting_miniupnpd
min_lifetime=10
max_lifetime=86400
clean_ruleset_interval=1
allow 1024-65535 192.168.61.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
"""


class Rig:
    """The namespaces of the module's picture; :meth:`close` removes all of it."""

    def __init__(
        self, folder: Path, upnp: bool = True, ipv6: bool = False, mapper: bool = True
    ) -> None:
        self.folder = folder
        self.upnp = upnp
        """Router 1 speaks UPnP-IGD and NAT-PMP/PCP; without ``upnp``, NAT-PMP/PCP only."""
        self.ipv6 = ipv6
        """Global IPv6 in the internet and both homes (no NAT66), behind the same firewall."""
        self.mapper = mapper
        """miniupnpd runs on router 1; without it, neither router maps anything."""
        tag = secrets.token_hex(2)
        self.tag = tag
        self.inet, self.r1, self.h1 = f"kkn-{tag}-inet", f"kkn-{tag}-r1", f"kkn-{tag}-h1"
        self.r2, self.h2 = f"kkn-{tag}-r2", f"kkn-{tag}-h2"
        self.r1_wan, self.r1_lan = f"kkn{tag}r1w", f"kkn{tag}r1l"
        self.r2_wan, self.r2_lan = f"kkn{tag}r2w", f"kkn{tag}r2l"
        self._made: list[str] = []
        self._processes: list[subprocess.Popen[bytes]] = []
        self.miniupnpd_log = folder / "miniupnpd.log"

    def __enter__(self) -> Rig:
        return self.open()

    def __exit__(self, *raised: object) -> None:
        self.close()

    # -- building --------------------------------------------------------------------------

    def ns(self, name: str, *args: str) -> tuple[str, ...]:
        """``args`` run in the namespace ``name``."""
        return ("ip", "netns", "exec", name, *args)

    def open(self) -> Rig:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def _build(self) -> None:
        for name in (self.inet, self.r1, self.h1, self.r2, self.h2):
            run("ip", "netns", "add", name)
            self._made.append(name)
            run("ip", "-n", name, "link", "set", "lo", "up")
        bridge = f"kkn{self.tag}br"
        run("ip", "-n", self.inet, "link", "add", bridge, "type", "bridge")
        run("ip", "-n", self.inet, "addr", "add", f"{INET}/24", "dev", bridge)
        run("ip", "-n", self.inet, "link", "set", bridge, "up")
        homes = (
            (self.r1, self.h1, self.r1_wan, self.r1_lan, R1_WAN, R1_LAN, H1, "1"),
            (self.r2, self.h2, self.r2_wan, self.r2_lan, R2_WAN, R2_LAN, H2, "2"),
        )
        for router, home, wan, lan, wan_ip, lan_ip, home_ip, n in homes:
            up = f"kkn{self.tag}i{n}"  # the internet's end of the router's WAN link
            run("ip", "link", "add", wan, "netns", router, "type", "veth", "peer", up, "netns",
                self.inet)  # fmt: skip
            run("ip", "-n", self.inet, "link", "set", up, "master", bridge, "up")
            run("ip", "-n", router, "addr", "add", f"{wan_ip}/24", "dev", wan)
            run("ip", "-n", router, "link", "set", wan, "up")
            inside = f"kkn{self.tag}h{n}"
            run("ip", "link", "add", lan, "netns", router, "type", "veth", "peer", inside,
                "netns", home)  # fmt: skip
            run("ip", "-n", router, "addr", "add", f"{lan_ip}/24", "dev", lan)
            run("ip", "-n", router, "link", "set", lan, "up")
            run("ip", "-n", home, "addr", "add", f"{home_ip}/24", "dev", inside)
            run("ip", "-n", home, "link", "set", inside, "up")
            run("ip", "-n", home, "route", "add", "default", "via", lan_ip)
            # /proc/sys/net is the namespace's own (no procps needed for sysctl)
            run(*self.ns(router, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward"))
            rules = self.folder / f"router{n}.nft"
            rules.write_text(_ruleset(wan, lan))
            run(*self.ns(router, "nft", "-f", str(rules)))
        if self.ipv6:
            self._build_ipv6(bridge)
        if not self.mapper:
            return
        self._start(self.ns(self.inet, sys.executable, "-m", "tests.nat_rig", "stun", INET))
        self._wait_udp(self.inet, INET, STUN_PORT)
        leases = self.folder / "leases"
        conf = self.folder / "miniupnpd.conf"
        conf.write_text(_miniupnpd_conf(self.r1_wan, self.r1_lan, leases, self.upnp))
        pid = self.folder / "miniupnpd.pid"
        self._start(
            self.ns(self.r1, "miniupnpd", "-f", str(conf), "-d", "-P", str(pid)),
            log=self.miniupnpd_log,
        )
        self._wait_listener(self.r1, "miniupnpd", "-Hltnp" if self.upnp else "-Hlunp")

    def _build_ipv6(self, bridge: str) -> None:
        """The same links, each given a global IPv6 address (``nodad``: usable at once); the
        internet routes each home's prefix to its router."""
        run(*self.ns(self.inet, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/all/forwarding"))
        run("ip", "-n", self.inet, "addr", "add", f"{INET6}/64", "dev", bridge, "nodad")
        homes = (
            (self.r1, self.h1, self.r1_wan, self.r1_lan, R1_WAN6, R1_LAN6, H1_6, "1"),
            (self.r2, self.h2, self.r2_wan, self.r2_lan, R2_WAN6, R2_LAN6, H2_6, "2"),
        )
        for router, home, wan, lan, wan_ip, lan_ip, home_ip, n in homes:
            prefix = lan_ip.rsplit("::", 1)[0] + "::/64"
            run(*self.ns(router, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/all/forwarding"))
            run("ip", "-n", router, "addr", "add", f"{wan_ip}/64", "dev", wan, "nodad")
            run("ip", "-n", router, "addr", "add", f"{lan_ip}/64", "dev", lan, "nodad")
            run("ip", "-n", router, "-6", "route", "add", "default", "via", INET6)
            run("ip", "-n", self.inet, "-6", "route", "add", prefix, "via", wan_ip)
            inside = f"kkn{self.tag}h{n}"
            run("ip", "-n", home, "addr", "add", f"{home_ip}/64", "dev", inside, "nodad")
            run("ip", "-n", home, "-6", "route", "add", "default", "via", lan_ip)

    def _start(self, argv: Sequence[str], log: Path | None = None) -> None:
        out = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115
        repo = Path(__file__).resolve().parent.parent
        proc = subprocess.Popen(
            list(argv), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=repo
        )
        self._processes.append(proc)

    def _wait_udp(self, ns: str, host: str, port: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listed = run(*self.ns(ns, "ss", "-Hlun", f"sport = :{port}"), check=False).stdout
            if listed.strip():
                return
            time.sleep(0.05)
        raise RuntimeError(f"nothing listens on udp {host}:{port} in {ns}")

    def _wait_listener(self, ns: str, program: str, ss: str, timeout: float = 15) -> None:
        """miniupnpd is ready once its HTTP port (or, without UPnP, its NAT-PMP port)
        listens, after its STUN check."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listed = run(*self.ns(ns, "ss", ss), check=False).stdout
            if program in listed and (ss == "-Hltnp" or ":5351" in listed):
                return
            for proc in self._processes:
                if proc.poll() is not None:
                    raise RuntimeError(f"{program} exited: {self.log_tail()}")
            time.sleep(0.1)
        raise RuntimeError(f"{program} did not start listening: {self.log_tail()}")

    def log_tail(self) -> str:
        try:
            return self.miniupnpd_log.read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    # -- looking -----------------------------------------------------------------------------

    def redirects(self) -> str:
        """miniupnpd's port forwards on router 1 (its prerouting chain), as nft lists them."""
        proc = run(*self.ns(self.r1, "nft", "list", "chain", "inet", NFT_TABLE,
                            "prerouting_miniupnpd"), check=False)  # fmt: skip
        return proc.stdout

    # -- removing ----------------------------------------------------------------------------

    def close(self) -> None:
        for proc in self._processes:
            if proc.poll() is None:
                proc.terminate()
        for proc in self._processes:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self._processes.clear()
        for name in reversed(self._made):  # a namespace takes its veths, bridge and tables
            run("ip", "netns", "del", name, check=False)
        self._made.clear()


# -- the STUN responder (RFC 5389 Binding, XOR-MAPPED-ADDRESS), run in ``inet`` -------------

MAGIC = 0x2112A442


def stun_answer(request: bytes, source: tuple[str, int]) -> bytes | None:
    """The Binding success response to ``request`` from ``source``, or None."""
    if len(request) < 20 or request[:2] != b"\x00\x01":
        return None
    transaction = request[8:20]
    port = source[1] ^ (MAGIC >> 16)
    address = struct.unpack("!I", socket.inet_aton(source[0]))[0] ^ MAGIC
    attribute = struct.pack("!HHBBHI", 0x0020, 8, 0, 1, port, address)
    return struct.pack("!HHI", 0x0101, len(attribute), MAGIC) + transaction + attribute


def stun_main(host: str) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((host, STUN_PORT))
    while True:
        data, source = sock.recvfrom(2048)
        answer = stun_answer(data, source)
        if answer is not None:
            sock.sendto(answer, source)


if __name__ == "__main__" and sys.argv[1:2] == ["stun"]:
    stun_main(sys.argv[2])
