"""Both sides dial, between two real app processes (issue 23, case 3; docs/protocol.md "Both
sides dial"): each in a home of the rig (tests/nat_rig.py) with global IPv6 behind its
router's stateful firewall, and nothing in either home that maps a port or opens a pinhole
(no miniupnpd: tests/test_net_nat.py's ``ipv6_rig``). Neither app can be reached by dialling
alone; only both dialling at once gets their SYNs through both firewalls.

hana's app in home 2 opens a room "Open to the internet" by clicks; her router maps nothing,
her page says so, and she hands the code on her clipboard to taro (a file: their chat). taro's
app in home 1 types it and clicks "Join by address or code"; nothing answers, so he clicks
"Make a reply code" and Copy, and hands the reply code back. hana types it in her waiting
page's "Reply code" field and clicks "Dial back"; both confirm the four cards and play the
whole match by clicks (tests/app_player.py); both records verify.

The apps' windows are on one Xvfb screen as tests/test_ui_internet_processes.py's are (its
notes say how they reach it from their namespaces). As root with ip, nft, miniupnpd and Xvfb
this runs (and fails when broken); otherwise it skips, saying why. Nothing is sent outside
the rig's namespaces, which the test removes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from koikoi.net.joincode import decode
from tests.nat_rig import H1_6, H2_6, Rig, needs_the_rig, rig_fixture
from tests.test_ui_internet_processes import start_app
from tests.test_ui_lan_processes import check_the_match, play_pair
from tests.xvfb import display_fixture, needs_xvfb

pytestmark = [needs_the_rig, needs_xvfb]


ipv6_rig = rig_fixture(ipv6=True, mapper=False)
"""Global IPv6 in both homes behind their stateful firewalls, nothing that maps."""
display = display_fixture("2580x840x24")
"""One virtual X screen, both windows side by side on it."""


@pytest.mark.timeout(150)
def test_two_apps_behind_two_ipv6_firewalls_play_a_whole_match_by_both_dialling(
    ipv6_rig: Rig, display: str, tmp_path: Path
) -> None:
    rig = ipv6_rig
    chat = tmp_path / "chat"
    chat.mkdir()
    code_file, reply_file = chat / "code.txt", chat / "reply.txt"
    hosting = (
        "--role", "host", "--room", "Over the ridge", "--internet",
        "--code-out", str(code_file), "--reply-from", str(reply_file),
        "--seed", "1", "--position", "0,0",
    )  # fmt: skip
    joining = (
        "--role", "join", "--code-from", str(code_file), "--reply-out", str(reply_file),
        "--seed", "2", "--position", "1295,0",
    )  # fmt: skip
    host, joiner = play_pair(
        lambda: start_app(tmp_path / "hana", display, rig, rig.h2, *hosting),
        lambda _host: start_app(tmp_path / "taro", display, rig, rig.h1, *joining),
    )
    hana, taro = host.result(), joiner.result()
    assert hana["platform"] == taro["platform"] == "xcb"  # real windows on the X screen
    check_the_match(hana, taro)
    # nothing mapped: hana's code names her own addresses, her IPv6 one among them
    assert hana["internet"].startswith("The room is not open to the internet"), hana["internet"]
    code = decode(code_file.read_text(encoding="utf-8").strip())
    assert not code.mapped, code
    port = next(c.port for c in code.candidates if c.host == H2_6)
    # dialling alone, taro reached nothing: his lobby said so and offered the reply code
    failed = taro["join_failed"]
    assert failed.startswith(("Could not reach ", "Nobody answered at ")), failed
    assert f"[{H2_6}]:{port}" in failed, failed
    assert f"the join failed: {failed}" in joiner.stderr
    reply = decode(taro["reply_code"])
    assert reply.reply and hana["reply_code"] == taro["reply_code"], (hana, taro)
    assert reply_file.read_text(encoding="utf-8").strip() == taro["reply_code"]
    reply_port = next(c.port for c in reply.candidates if c.host == H1_6)
    # hana dialled the reply's addresses back, only taro's key let in
    said = hana["dial_back"]
    assert said.startswith("Dialling ") and " for up to 15 s " in said, said
    assert f"[{H1_6}]:{reply_port}" in said and reply.fingerprint in said, said
    # each saw the other's global IPv6 address: no address translation, the firewalls' own
    # connection tracking let the crossing SYNs in
    assert taro["address"] == f"[{H2_6}]:{port}", taro["address"]
    assert hana["address"] == f"[{H1_6}]:{reply_port}", hana["address"]
    assert taro["proof"].startswith("Proven by the join code: hana's key "), taro["proof"]
