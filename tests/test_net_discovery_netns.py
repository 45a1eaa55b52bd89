"""Rooms found across a real LAN hop: two network namespaces joined by a veth pair, with the
default all-interface settings (IPv4 and IPv6) on both sides; and two namespaces whose link
cannot multicast, where mDNS cannot work, the commands say so, and joining by address works.

As root this runs (and fails when broken); without root or without ``ip`` it skips, saying
why. Nothing leaves the namespaces the tests make, which they remove afterwards.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, run_koikoi
from tests.net_support import spawn
from tests.test_net_netns import (  # noqa: F401  (the fixture that makes the namespaces)
    HOST_ADDRESS,
    JOINER_ADDRESS,
    Namespaces,
    _ip,
    _skip_reason,
    namespaces,
)

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


def _in(ns: str, home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    home.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        ["ip", "netns", "exec", ns, sys.executable, "-m", "koikoi", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, "KOIKOI_HOME": str(home)},
    )


def test_a_room_in_one_namespace_is_listed_and_joined_from_the_other(
    namespaces: Namespaces,  # noqa: F811
    tmp_path: Path,
) -> None:
    title = f"Across {secrets.token_hex(3)}"
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    host = spawn(
        tmp_path / "host",
        "host", "--advertise", "--room", title, "--port", "0", "--bot", "random",
        "--name", "hana", "--record", str(records[0]),
        prefix=("ip", "netns", "exec", namespaces.host),
    )  # fmt: skip
    try:
        port = host.port()
        assert f"listening 0.0.0.0:{port}" in host.stderr  # the default: every interface
        host.wait_for("advertising the room")
        listed = _in(namespaces.joiner, tmp_path / "rooms", "rooms")
        assert listed.returncode == 0, listed.stderr
        rooms = [json.loads(line) for line in listed.stdout.splitlines()]
        (room,) = [room for room in rooms if room["room"] == title]
        assert room["address"] == f"{HOST_ADDRESS}:{port}"  # not the host's loopback
        assert room["status"] == "open" and room["host"] == "hana"

        joiner = spawn(
            tmp_path / "joiner",
            "join", "--room", title, "--bot", "random", "--name", "taro",
            "--record", str(records[1]),
            prefix=("ip", "netns", "exec", namespaces.joiner),
        )  # fmt: skip
        try:
            assert joiner.wait(120) == 0, joiner.stderr
            assert host.wait(120) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert host.result() == joiner.result()
    assert host.result()["finished"] is True
    assert f"found the room {title!r} at {HOST_ADDRESS}:{port}" in joiner.stderr
    for path in records:
        assert run_koikoi("verify", str(path)).returncode == 0


def _veth(ns: str) -> str:
    proc = subprocess.run(
        ["ip", "-n", ns, "-o", "link", "show", "type", "veth"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return proc.stdout.split(":")[1].strip().split("@")[0]


def test_an_ipv6_room_is_listed_over_ipv6_only_mdns(
    namespaces: Namespaces,  # noqa: F811
    tmp_path: Path,
) -> None:
    for ns, address in ((namespaces.host, "fd99::1"), (namespaces.joiner, "fd99::2")):
        _ip("-n", ns, "addr", "add", f"{address}/64", "dev", _veth(ns), "nodad")
    title = f"Rokkasen {secrets.token_hex(3)}"
    host = spawn(
        tmp_path / "host",
        "host", "--advertise", "--room", title, "--bind", "::", "--port", "0",
        "--bot", "random", "--name", "hana",
        prefix=("ip", "netns", "exec", namespaces.host),
    )  # fmt: skip
    try:
        port = host.port()
        host.wait_for("advertising the room")
        listed = _in(namespaces.joiner, tmp_path / "rooms", "rooms", "--bind", "fd99::2")
        assert listed.returncode == 0, listed.stderr
        rooms = [json.loads(line) for line in listed.stdout.splitlines()]
        (room,) = [room for room in rooms if room["room"] == title]
        assert room["addresses"] == [f"{HOST_ADDRESS}:{port}", f"[fd99::1]:{port}"]
        joiner = spawn(
            tmp_path / "joiner",
            "join", f"[fd99::1]:{port}", "--bot", "random", "--name", "taro",
            prefix=("ip", "netns", "exec", namespaces.joiner),
        )  # fmt: skip
        try:
            assert joiner.wait(120) == 0, joiner.stderr
            assert host.wait(120) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()


@pytest.fixture
def no_multicast() -> Iterator[Namespaces]:
    """Two namespaces joined by a veth pair that cannot multicast, loopback down: TCP works,
    mDNS cannot (as on some VPNs and container networks)."""
    tag = secrets.token_hex(3)
    ns = Namespaces(f"koikoi-{tag}-h", f"koikoi-{tag}-j")
    made: list[str] = []
    try:
        for name in (ns.host, ns.joiner):
            _ip("netns", "add", name)
            made.append(name)
        veth_h, veth_j = f"kk{tag}h", f"kk{tag}j"
        _ip("link", "add", veth_h, "netns", ns.host, "type", "veth", "peer", veth_j, "netns",
            ns.joiner)  # fmt: skip
        ends = ((ns.host, veth_h, HOST_ADDRESS), (ns.joiner, veth_j, JOINER_ADDRESS))
        for name, veth, address in ends:
            _ip("-n", name, "addr", "add", f"{address}/24", "dev", veth)
            _ip("-n", name, "link", "set", veth, "multicast", "off")
            _ip("-n", name, "link", "set", veth, "up")
        yield ns
    finally:
        for name in made:
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def test_without_multicast_the_commands_say_why_and_joining_by_address_still_works(
    no_multicast: Namespaces, tmp_path: Path
) -> None:
    reason = "no network interface can send multicast, so mDNS cannot work here"
    listed = _in(no_multicast.joiner, tmp_path / "rooms", "rooms")
    assert (listed.returncode, listed.stdout) == (1, "")
    assert listed.stderr == f"koikoi: cannot list the rooms: {reason}\n"

    joined = _in(no_multicast.joiner, tmp_path / "j1", "join", "--room", "x", "--bot", "random")
    assert (joined.returncode, joined.stdout) == (1, "")
    assert joined.stderr == f"koikoi: cannot look for the room 'x': {reason}; join it by address\n"

    host = spawn(
        tmp_path / "host",
        "host", "--advertise", "--port", "0", "--bot", "random", "--name", "hana",
        prefix=("ip", "netns", "exec", no_multicast.host),
    )  # fmt: skip
    try:
        port = host.port()
        line = host.wait_for("cannot announce")
        assert line == f"koikoi: cannot announce the room on the LAN ({reason}); join it by address"
        joiner = spawn(
            tmp_path / "joiner",
            "join", f"{HOST_ADDRESS}:{port}", "--bot", "random", "--name", "taro",
            prefix=("ip", "netns", "exec", no_multicast.joiner),
        )  # fmt: skip
        try:
            assert joiner.wait(120) == 0, joiner.stderr
            assert host.wait(120) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert "Traceback" not in host.stderr + joiner.stderr
