"""Two apps, each a real process with a real window on one virtual X screen (Xvfb, Qt's xcb
platform), in two rig homes (tests/nat_rig.py) play a match across the rig's internet, joined
by code (issue 23): hana's app in home 1, behind a router that maps ports for real
(miniupnpd), opens a room "Open to the internet" by clicks; once her waiting page says the
router opened the port she clicks Copy, and the code on her clipboard is handed to taro (a
file: the chat between them). taro's app, in home 2 behind a router that translates his
address and maps nothing, types it in the address field and clicks "Join by address or
code"; both confirm the four cards and play the whole match by clicks (tests/app_player.py);
both records verify, and once hana's app has gone the router's mapping is gone with it
(removed, not left to lapse).

The apps live in network namespaces and still reach the X server: libxcb tries the abstract
socket ``@/tmp/.X11-unix/X<n>`` first (a network namespace has its own abstract sockets:
that fails) and then the filesystem socket ``/tmp/.X11-unix/X<n>``, which ``ip netns exec``
leaves shared (it remounts only /sys).

As root with ip, nft, miniupnpd and Xvfb this runs (and fails when broken); otherwise it
skips, saying why. Nothing is sent outside the rig's namespaces, which the test removes.
No mDNS crosses the rig: each app announces and browses inside its own namespace only.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from koikoi.net.joincode import Candidate, decode
from tests.nat_rig import H1, R1_WAN, R2_WAN, Rig, needs_the_rig, rig_fixture
from tests.net_support import KoikoiProcess
from tests.test_ui_lan_processes import check_the_match, play_pair, start_player
from tests.xvfb import display_fixture, needs_xvfb

pytestmark = [needs_the_rig, needs_xvfb]

RUN_LIMIT = 90.0
"""Seconds a player may take, from its start to the match result (about 15 s here)."""

rig = rig_fixture()
display = display_fixture("2580x840x24")
"""One X screen, both windows side by side on it."""


def start_app(home: Path, display: str, rig: Rig, where: str, *args: str) -> KoikoiProcess:
    """The app player (tests/app_player.py) in the rig's namespace ``where``, its window on
    ``display``; no mDNS bound to an address: every interface of its namespace, the room's
    too."""
    return start_player(
        home, *args, prefix=rig.ns(where), bind=None, display=display, timeout=RUN_LIMIT - 10
    )


def the_mapping_once_the_code_is_out(rig: Rig, host: KoikoiProcess, code_file: Path) -> str:
    """miniupnpd's port forwards once the host has handed its code over (the router opened
    the port before the page said so)."""
    deadline = time.monotonic() + 40
    while not code_file.exists():
        assert host.proc.poll() is None, host.stderr[-3000:]
        assert time.monotonic() < deadline, host.stderr[-3000:]
        time.sleep(0.05)
    return rig.redirects()


@pytest.mark.timeout(150)
def test_two_apps_in_two_rig_homes_play_a_whole_match_joined_by_code(
    rig: Rig, display: str, tmp_path: Path
) -> None:
    code_file = tmp_path / "chat" / "code.txt"
    code_file.parent.mkdir()
    hosting = (
        "--role", "host", "--room", "Across the bay", "--internet",
        "--code-out", str(code_file), "--seed", "1", "--position", "0,0",
    )  # fmt: skip
    joining = (
        "--role", "join", "--code-from", str(code_file), "--seed", "2", "--position", "1295,0",
    )  # fmt: skip
    mapped: list[str] = []  # miniupnpd's forwards while the room was open
    host, joiner = play_pair(
        lambda: start_app(tmp_path / "hana", display, rig, rig.h1, *hosting),
        lambda _host: start_app(tmp_path / "taro", display, rig, rig.h2, *joining),
        lambda host: mapped.append(the_mapping_once_the_code_is_out(rig, host, code_file)),
    )
    hana, taro = host.result(), joiner.result()
    assert hana["platform"] == taro["platform"] == "xcb"  # real windows on the X screen
    check_the_match(hana, taro)
    # the router mapped the room's port: the page said so, the code names it first
    said = hana["internet"]
    assert said.startswith("Your router opened port "), said
    external = int(said.removeprefix("Your router opened port ").split()[0])
    code = decode(code_file.read_text(encoding="utf-8").strip())
    assert code.mapped, code
    assert code.candidates[0] == Candidate(R1_WAN, external), code.candidates
    assert any(c.host == H1 for c in code.candidates[1:]), code.candidates
    assert f"code {code_file.read_text(encoding='utf-8').strip()}" in host.stderr
    # taro came in through the mapping (the router's address), his app checked hana's key by
    # the code, and she saw him from his router's address (home 2 translates his)
    assert f"dport {external} dnat" in mapped[0], mapped[0]
    assert taro["address"] == f"{R1_WAN}:{external}", taro["address"]
    assert taro["proof"].startswith("Proven by the join code: hana's key "), taro["proof"]
    assert hana["address"].startswith(f"{R2_WAN}:"), hana["address"]
    assert f"dport {external}" not in rig.redirects(), rig.redirects()  # gone with the app
