"""A whole match between two network namespaces joined by a veth pair: a real LAN hop.

The real levels play it (``normal`` hosts, ``hard`` joins), as the acceptance check asks.

As root this runs (and fails when broken); without root or without ``ip`` it skips, saying
why. The addresses exist only inside the two namespaces this test makes, which it removes
afterwards; nothing is sent anywhere else.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import run_koikoi
from tests.net_support import assert_same_deals, spawn

HOST_ADDRESS = "10.201.0.1"
JOINER_ADDRESS = "10.201.0.2"


def _skip_reason() -> str | None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "making network namespaces needs root"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@dataclass(frozen=True)
class Namespaces:
    host: str
    joiner: str


def _ip(*args: str) -> None:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, f"ip {' '.join(args)}: {proc.stderr.strip()}"


@pytest.fixture
def namespaces() -> Iterator[Namespaces]:
    tag = secrets.token_hex(3)  # unique per run: parallel runs never share a name
    ns = Namespaces(f"koikoi-{tag}-h", f"koikoi-{tag}-j")
    veth_h, veth_j = f"kk{tag}h", f"kk{tag}j"
    made: list[str] = []
    try:
        for name in (ns.host, ns.joiner):
            _ip("netns", "add", name)
            made.append(name)
        _ip(
            "link",
            "add",
            veth_h,
            "netns",
            ns.host,
            "type",
            "veth",
            "peer",
            veth_j,
            "netns",
            ns.joiner,
        )
        for name, veth, address in (
            (ns.host, veth_h, HOST_ADDRESS),
            (ns.joiner, veth_j, JOINER_ADDRESS),
        ):
            _ip("-n", name, "addr", "add", f"{address}/24", "dev", veth)
            _ip("-n", name, "link", "set", veth, "up")
            _ip("-n", name, "link", "set", "lo", "up")
        yield ns
    finally:
        for name in made:  # removing a namespace removes its end of the veth pair too
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


@pytest.mark.timeout(240)  # each side may take its 150 s
def test_a_whole_match_across_two_namespaces(namespaces: Namespaces, tmp_path: Path) -> None:
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    host = spawn(
        tmp_path / "host",
        "host", "--bind", HOST_ADDRESS, "--port", "0", "--bot", "normal", "--name", "hana",
        "--record", str(records[0]),
        prefix=("ip", "netns", "exec", namespaces.host),
    )  # fmt: skip
    try:
        port = host.port()
        joiner = spawn(
            tmp_path / "joiner",
            "join", f"{HOST_ADDRESS}:{port}", "--bot", "hard", "--name", "taro",
            "--record", str(records[1]),
            prefix=("ip", "netns", "exec", namespaces.joiner),
        )  # fmt: skip
        try:
            assert joiner.wait(150) == 0, joiner.stderr
            assert host.wait(150) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert host.result() == joiner.result()
    assert host.result()["finished"] is True
    assert f"listening {HOST_ADDRESS}:{port}" in host.stderr
    saved = [json.loads(path.read_text()) for path in records]
    assert_same_deals(*saved)
    for path in records:
        assert run_koikoi("verify", str(path)).returncode == 0
