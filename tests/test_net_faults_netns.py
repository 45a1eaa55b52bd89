"""Fault tests between two network namespaces joined by a veth pair (see test_net_netns.py):
a bad network, and the link down for 20 s. Each match must finish with identical, verified
records on both sides.

What is emulated, exactly (``tc netem`` is not in this kernel: "Specified qdisc kind is
unknown"):

- **loss**: an nftables rule in each namespace drops 5 % of the packets leaving its veth, at
  random (``numgen random mod 100 < 5 drop``), so about 5 % each way; TCP retransmits them,
  and the segments after a lost one arrive before its retransmission: that is the
  **reordering** the receiving TCP sees (and repairs), nothing else reorders;
- **delay**: a userspace relay (tests/fault_relay.py) in the joiner's namespace holds every
  chunk of the stream 200 ms plus 0–50 ms of jitter, in each direction (400 ms a round trip
  and more), keeping the stream's order;
- **link down**: ``ip link set VETH down`` in the joiner's namespace for 20 s, then up: both
  sides hear nothing for the 15 s silence timeout and suspend the match; the joiner dials
  again (refused at once while its link is down) until the link is back, and resumes.

As root these run (and fail when broken); without root, ``ip`` or ``nft`` they skip, saying
why.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, run_koikoi
from tests.net_support import FIRST_DEAL, KoikoiProcess, spawn
from tests.test_net_netns import (  # the same set-up: two namespaces, a veth pair
    HOST_ADDRESS,
    Namespaces,
    _ip,
    _skip_reason,
    namespaces,
)

__all__ = ["namespaces"]  # a fixture, used by name


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(autouse=True)
def _nft() -> None:
    """As root these tests run: a missing ``nft`` is a broken set-up (.ci/setup installs it),
    not a reason to skip."""
    assert shutil.which("nft"), "nft (nftables) is not installed: run .ci/setup"


def _veth(ns: str) -> str:
    proc = subprocess.run(
        ["ip", "-n", ns, "-o", "link", "show", "type", "veth"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return proc.stdout.split(":")[1].strip().split("@")[0]


def _lose(ns: str, percent: int) -> None:
    veth = _veth(ns)
    for args in (
        ("add", "table", "inet", "koikoi_faults"),
        ("add", "chain", "inet", "koikoi_faults", "out",
         "{ type filter hook output priority 0; policy accept; }"),
        ("add", "rule", "inet", "koikoi_faults", "out", "oifname", veth,
         "numgen", "random", "mod", "100", "<", str(percent), "drop"),
    ):  # fmt: skip
        proc = subprocess.run(
            ["ip", "netns", "exec", ns, "nft", *args], capture_output=True, text=True, timeout=30
        )
        assert proc.returncode == 0, f"nft {' '.join(args)}: {proc.stderr.strip()}"


def _host(ns: Namespaces, tmp_path: Path, bot: str) -> tuple[KoikoiProcess, int]:
    host = spawn(
        tmp_path / "host",
        "host", "--bind", HOST_ADDRESS, "--port", "0", "--bot", bot, "--name", "hana",
        "--record", str(tmp_path / "host.json"),
        prefix=("ip", "netns", "exec", ns.host),
    )  # fmt: skip
    return host, host.port()


def _join(ns: Namespaces, tmp_path: Path, address: str, bot: str) -> KoikoiProcess:
    return spawn(
        tmp_path / "joiner",
        "join", address, "--bot", bot, "--name", "taro",
        "--record", str(tmp_path / "joiner.json"),
        prefix=("ip", "netns", "exec", ns.joiner),
    )  # fmt: skip


def _same_verified_records(tmp_path: Path, host: KoikoiProcess, joiner: KoikoiProcess) -> None:
    assert host.result() == joiner.result()
    assert host.result()["finished"] is True
    saved = [json.loads((tmp_path / f"{side}.json").read_text()) for side in ("host", "joiner")]
    assert saved[0]["deals"] == saved[1]["deals"] and saved[0]["net"] == saved[1]["net"]
    for side in ("host", "joiner"):
        assert run_koikoi("verify", str(tmp_path / f"{side}.json")).returncode == 0


@pytest.mark.timeout(420)  # the joiner may take its 300 s
def test_a_match_over_a_lossy_slow_link(namespaces: Namespaces, tmp_path: Path) -> None:
    for ns in (namespaces.host, namespaces.joiner):
        _lose(ns, 5)
    host, port = _host(namespaces, tmp_path, "random")
    relay = subprocess.Popen(
        ["ip", "netns", "exec", namespaces.joiner, sys.executable, "-m", "tests.fault_relay",
         HOST_ADDRESS, str(port), "0.2", "0.05"],
        stdout=subprocess.PIPE, cwd=REPO, text=True,
    )  # fmt: skip
    try:
        assert relay.stdout is not None
        relay_port = int(relay.stdout.readline().split()[1])
        started = time.monotonic()
        joiner = _join(namespaces, tmp_path, f"127.0.0.1:{relay_port}", "random")
        try:
            assert joiner.wait(300) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr
        finally:
            joiner.kill()
        print(f"lossy slow link: the match took {time.monotonic() - started:.0f} s")
    finally:
        relay.kill()
        relay.wait(10)
        host.kill()
    _same_verified_records(tmp_path, host, joiner)


@pytest.mark.timeout(360)  # the joiner may take its 240 s
def test_the_link_down_for_20_s_and_up_again(namespaces: Namespaces, tmp_path: Path) -> None:
    # the strongest bots think longest: the match is still in play when the link goes down
    host, port = _host(namespaces, tmp_path, "hard")
    joiner = _join(namespaces, tmp_path, f"{HOST_ADDRESS}:{port}", "hard")
    veth = _veth(namespaces.joiner)
    try:
        # the link goes down once the joiner's first deal is laid out (FIRST_DEAL), not a
        # fixed time after "coin toss": it must find both sides past the toss
        joiner.wait_for(FIRST_DEAL)
        _ip("-n", namespaces.joiner, "link", "set", veth, "down")
        down = time.monotonic()
        try:
            joiner.wait_for("waiting up to", timeout=30)  # suspended by the silence timeout
            host.wait_for("waiting up to", timeout=30)
            time.sleep(max(0.0, down + 20.0 - time.monotonic()))
        finally:
            _ip("-n", namespaces.joiner, "link", "set", veth, "up")
        assert joiner.wait(240) == 0, joiner.stderr
        assert host.wait(60) == 0, host.stderr
    finally:
        joiner.kill()
        host.kill()
    _same_verified_records(tmp_path, host, joiner)
    resumed = host.result()["resumed"]
    assert isinstance(resumed, int) and resumed >= 1
    assert "the peer sent nothing for 15 s" in joiner.stderr
    assert "the match resumed" in joiner.stderr and "the match resumed" in host.stderr
