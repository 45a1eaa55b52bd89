"""Across the internet through real home routers (tests/nat_rig.py): network namespaces, one
router doing NAT and running miniupnpd, one that maps nothing.

As root with ip, nft and miniupnpd this runs (and fails when broken); otherwise it skips,
saying why. Nothing is sent outside the rig's namespaces, which each test removes.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from koikoi.net.joincode import JoinCode, decode, encode
from tests.conftest import run_koikoi
from tests.nat_rig import R1_WAN, Rig, needs_the_rig, rig_fixture
from tests.net_support import KoikoiProcess, spawn

pytestmark = needs_the_rig

LEASE = 3
"""Seconds of the lease the killed host asks for (``--map-lease``)."""
REASON_WITHIN = 15.0
"""CLI.md/NETWORK.md: when nothing works, the reason is said within 15 s."""


rig = rig_fixture()
ipv6_rig = rig_fixture(ipv6=True, mapper=False)
"""The rig with global IPv6 in both homes behind their stateful firewalls, and nothing
that maps a port (no miniupnpd): only both sides dialling gets through."""
pinhole_rig = rig_fixture(ipv6=True)
"""The rig with global IPv6 behind both homes' firewalls, and miniupnpd on router 1
(UPnP-IGD for IPv4, PCP for IPv4 and IPv6: an IPv6 ``MAP`` opens a pinhole)."""
natpmp_rig = rig_fixture(upnp=False)
"""The rig with home 1's router speaking NAT-PMP/PCP and not UPnP-IGD."""


def _code_of(host: KoikoiProcess, within: float = REASON_WITHIN) -> str:
    """The code ``host`` prints (CLI.md: the line ``code CODE`` as it is)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for line in host.stderr.splitlines():
            if line.startswith("code "):
                return line.split("code ", 1)[1].strip()
        if host.proc.poll() is not None:
            break
        time.sleep(0.02)
    raise AssertionError(f"no code line; stderr:\n{host.stderr[-3000:]}")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("where", ["inet", "h2"], ids=["from-the-internet", "from-home-2"])
def test_a_host_behind_a_upnp_router_is_joined_by_code(
    rig: Rig, tmp_path: Path, where: str
) -> None:
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    host = spawn(
        tmp_path / "host", "host", "--internet", "--bot", "random", "--name", "hana",
        "--record", str(records[0]), prefix=rig.ns(rig.h1),
    )  # fmt: skip
    try:
        code = _code_of(host)
        mapped_line = host.wait_for("mapped ", 1)
        assert mapped_line.startswith("mapped "), mapped_line
        mapped = mapped_line.split("mapped ", 1)[1].strip()
        assert mapped.startswith(f"{R1_WAN}:")
        port = int(mapped.rsplit(":", 1)[1])
        assert f"dport {port} dnat" in rig.redirects()
        assert decode(code).mapped
        joiner = spawn(
            tmp_path / "joiner", "join", code, "--bot", "random", "--name", "taro",
            "--record", str(records[1]), prefix=rig.ns(getattr(rig, where)),
        )  # fmt: skip
        try:
            assert joiner.wait(200) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert host.result()["finished"] is True
    assert host.result()["route"] == "mapped", host.stderr
    assert joiner.result()["route"] == "mapped", joiner.stderr
    assert f"reached the room at {mapped}" in joiner.stderr
    assert f"opened port {port} for this room by UPnP-IGD" in host.stderr
    for path in records:
        assert run_koikoi("verify", str(path)).returncode == 0
    assert f"dport {port}" not in rig.redirects()  # removed at exit, not left to lapse


@pytest.mark.timeout(300)
def test_a_router_with_pcp_and_nat_pmp_and_no_upnp_maps_the_room_by_pcp(
    natpmp_rig: Rig, tmp_path: Path
) -> None:
    """miniupnpd's NAT-PMP server speaks PCP too: PCP is asked before NAT-PMP (a router
    that speaks only NAT-PMP is mapped by NAT-PMP next: tests/test_net_pcp.py)."""
    rig = natpmp_rig
    host = spawn(tmp_path / "host", "host", "--internet", "--bot", "random", "--name", "hana",
                 prefix=rig.ns(rig.h1))  # fmt: skip
    try:
        code = _code_of(host)
        port = int(host.wait_for("mapped ", 1).rsplit(":", 1)[1])
        assert f"dport {port} dnat" in rig.redirects()
        joiner = spawn(tmp_path / "joiner", "join", code, "--bot", "random",
                       prefix=rig.ns(rig.inet))  # fmt: skip
        try:
            assert joiner.wait(200) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert host.result()["route"] == joiner.result()["route"] == "mapped"
    assert f"opened port {port} for this room by PCP" in host.stderr
    assert f"dport {port}" not in rig.redirects()


@pytest.mark.timeout(120)
def test_the_lease_is_renewed_while_the_room_is_open_and_lapses_once_it_is_killed(
    rig: Rig, tmp_path: Path
) -> None:
    host = spawn(tmp_path / "host", "host", "--internet", "--map-lease", str(LEASE),
                 "--bot", "random", prefix=rig.ns(rig.h1))  # fmt: skip
    try:
        _code_of(host)
        port = int(host.wait_for("mapped ", 1).rsplit(":", 1)[1])
        seen = time.monotonic()
        while time.monotonic() - seen < 4 * LEASE:  # renewed while the room is open
            assert f"dport {port} dnat" in rig.redirects(), rig.log_tail()
            time.sleep(0.2)
        assert host.proc.poll() is None, host.stderr
    finally:
        host.kill()  # SIGKILL: nothing removes the mapping but its lease
    for _ in range(300):  # the router's lease timer, however busy the machine is
        if f"dport {port}" not in rig.redirects():
            break
        time.sleep(0.1)
    assert f"dport {port}" not in rig.redirects(), rig.log_tail()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("typed", [False, True], ids=["input-closed", "input-open"])
def test_behind_a_router_that_maps_nothing_the_reason_comes_within_15_s(
    rig: Rig, tmp_path: Path, typed: bool
) -> None:
    """CLI.md: one line within 15 s, exit 1; an open standard input changes nothing unless
    the host takes reply codes (``--replies``)."""
    host = spawn(tmp_path / "host", "host", "--internet", "--bot", "random",
                 prefix=rig.ns(rig.h2), typed=typed)  # fmt: skip
    try:
        assert host.wait(REASON_WITHIN) == 1, host.stderr
    finally:
        host.kill()
    lines = host.stderr.splitlines()
    reasons = [
        line for line in lines if line.startswith("koikoi: cannot open the room to the internet")
    ]
    assert len(reasons) == 1 and "UPnP" in reasons[0], host.stderr
    assert not any("code " in line for line in lines)
    assert host.result()["finished"] is False


@pytest.mark.timeout(120)
def test_a_code_none_of_whose_addresses_answers_is_said_within_15_s(
    rig: Rig, tmp_path: Path
) -> None:
    from koikoi.net.identity import load_or_create_identity
    from koikoi.net.joincode import Candidate
    from tests.nat_rig import H2, R2_WAN

    (tmp_path / "host").mkdir()
    fp = load_or_create_identity(tmp_path / "host").fingerprint
    listening = spawn(tmp_path / "host", "host", "--bot", "random", prefix=rig.ns(rig.h2))
    try:
        port = listening.port()
        code = encode(JoinCode((Candidate(R2_WAN, port), Candidate(H2, port)), fp, mapped=True))
        joiner = spawn(tmp_path / "joiner", "join", code, "--bot", "random",
                       "--reply-wait", "0", prefix=rig.ns(rig.inet))  # fmt: skip
        try:
            assert joiner.wait(REASON_WITHIN) == 1, joiner.stderr
        finally:
            joiner.kill()
    finally:
        listening.kill()
    line = joiner.stderr.strip().splitlines()[-1]
    assert line.startswith("koikoi: no address of the join code answered: "), joiner.stderr
    assert R2_WAN in line and H2 in line
    assert joiner.result()["ended"] == "dropped"


@pytest.mark.timeout(120)
def test_through_the_mapping_a_typo_and_a_forged_fingerprint_are_refused(
    rig: Rig, tmp_path: Path
) -> None:
    from koikoi.net.identity import Identity

    host = spawn(tmp_path / "host", "host", "--internet", "--bot", "random",
                 prefix=rig.ns(rig.h1))  # fmt: skip
    try:
        code = _code_of(host)
        symbols = code.replace("-", "")
        typo = symbols[:3] + ("X" if symbols[3] != "X" else "Y") + symbols[4:]
        mistyped = spawn(tmp_path / "typo", "join", typo, prefix=rig.ns(rig.inet))
        assert mistyped.wait(30) == 2
        assert mistyped.stdout == "" and mistyped.stderr.count("\n") == 1, mistyped.stderr
        real = decode(code)
        forged_fp = Identity.generate().fingerprint
        forged = encode(JoinCode(real.candidates, forged_fp, mapped=True))
        joiner = spawn(tmp_path / "joiner", "join", forged, "--bot", "random",
                       prefix=rig.ns(rig.inet))  # fmt: skip
        try:
            assert joiner.wait(60) == 1, joiner.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert joiner.result()["ended"] == "refused"
    assert any(forged_fp in line and "not joined" in line for line in joiner.stderr.splitlines())


def _play_by_reply(
    rig: Rig, tmp_path: Path, host_in: str, joiner_in: str
) -> tuple[KoikoiProcess, KoikoiProcess, dict[str, float]]:
    """A host that maps nothing in ``host_in``, a joiner by its code in ``joiner_in``: the
    joiner reaches no address, shows its reply code, which is typed into the host; the
    match is played to its end, both records verify. The two processes and the times."""
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    host = spawn(
        tmp_path / "host", "host", "--internet", "--replies", "--bot", "random", "--name",
        "hana", "--record", str(records[0]), prefix=rig.ns(getattr(rig, host_in)), typed=True,
    )  # fmt: skip
    times: dict[str, float] = {}
    try:
        code = _code_of(host)
        assert not decode(code).mapped
        times["join"] = time.monotonic()
        joiner = spawn(
            tmp_path / "joiner", "join", code, "--bot", "random", "--name", "taro",
            "--reply-wait", "120", "--record", str(records[1]),
            prefix=rig.ns(getattr(rig, joiner_in)),
        )  # fmt: skip
        try:
            reply = _code_of(joiner, 40)
            times["reply"] = time.monotonic()
            assert decode(reply).reply
            times["typed"] = time.monotonic()
            host.type(reply)
            host.wait_for("the first deal", REASON_WITHIN)
            times["first_deal"] = time.monotonic()
            assert joiner.wait(200) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    for path in records:
        assert run_koikoi("verify", str(path)).returncode == 0
    assert host.result()["finished"] is True
    return host, joiner, times


@pytest.mark.timeout(300)
def test_over_ipv6_behind_two_stateful_firewalls_both_sides_dial(
    ipv6_rig: Rig, tmp_path: Path
) -> None:
    """Issue 23, case 3: neither home maps a port and each IPv6 firewall drops what it did
    not see go out; the two sides dial each other at once and their SYNs cross."""
    rig = ipv6_rig
    host, joiner, times = _play_by_reply(rig, tmp_path, "h2", "h1")
    assert host.result()["route"] == joiner.result()["route"] == "both-dial", host.stderr
    assert "no address of the join code answered" in joiner.stderr
    _say_times(times, tmp_path)


def _say_times(times: dict[str, float], folder: Path) -> None:
    """Printed, and kept in the test's folder (docs/benchmarks.md reads them)."""
    line = (
        f"join started -> reply code shown {times['reply'] - times['join']:.2f} s; "
        f"reply typed -> first deal {times['first_deal'] - times['typed']:.2f} s"
    )
    print(line)
    (folder / "times.txt").write_text(line + "\n")


@pytest.mark.timeout(300)
def test_behind_a_router_that_maps_nothing_the_roles_turn(rig: Rig, tmp_path: Path) -> None:
    """Issue 23, case 2: the host's router (home 2) maps nothing, the joiner's (home 1)
    does: the joiner shows a reply code naming its mapping, and the host dials it."""
    host, joiner, times = _play_by_reply(rig, tmp_path, "h2", "h1")
    assert host.result()["route"] == joiner.result()["route"] == "mapped", host.stderr
    _say_times(times, tmp_path)
    line = next(x for x in joiner.stderr.splitlines() if "for the reply by" in x)
    port = int(line.split("opened port ", 1)[1].split()[0])
    assert f"dport {port}" not in rig.redirects()  # the reply's mapping removed at exit


@pytest.mark.timeout(120)
def test_a_reply_code_none_of_whose_addresses_answers_is_said_within_15_s(
    rig: Rig, tmp_path: Path
) -> None:
    """The host took a reply code, but nothing answers at its addresses (nobody dials
    back): within 15 s of taking it, one line says what was tried and what to change."""
    from koikoi.net.identity import Identity
    from koikoi.net.joincode import Candidate
    from tests.nat_rig import H1

    host = spawn(tmp_path / "host", "host", "--internet", "--replies", "--bot", "random",
                 prefix=rig.ns(rig.h2), typed=True)  # fmt: skip
    try:
        _code_of(host)
        reply = JoinCode((Candidate(R1_WAN, 40999), Candidate(H1, 40999)),
                         Identity.generate().fingerprint, reply=True)  # fmt: skip
        host.type("not a code at all, a typo")
        host.type(encode(reply))
        typed = time.monotonic()
        assert host.wait(REASON_WITHIN + 5) == 1, host.stderr
        took = time.monotonic() - typed
    finally:
        host.kill()
    assert took <= REASON_WITHIN + 1, took
    last = host.stderr.strip().splitlines()[-1]
    assert last.startswith("koikoi: the reply code's addresses did not answer within 15 s")
    assert R1_WAN in last and H1 in last and "UPnP" in last, last
    assert "that is not a reply code" in host.stderr  # a typo is said, and waited past
    assert host.result()["finished"] is False


@pytest.mark.timeout(120)
def test_a_reply_code_the_host_never_takes_is_given_up_in_one_line(
    rig: Rig, tmp_path: Path
) -> None:
    listening = spawn(tmp_path / "host", "host", "--bot", "random", prefix=rig.ns(rig.h2))
    try:
        port = listening.port()
        from koikoi.net.identity import load_or_create_identity
        from koikoi.net.joincode import Candidate
        from tests.nat_rig import H2

        fp = load_or_create_identity(tmp_path / "host").fingerprint
        # and an IPv6 address home 1 has no route to (refused at once, nothing sent): the
        # one-line reason names every address of the code, not only the last one tried
        unrouted = Candidate("2001:db8::9", port)
        code = encode(JoinCode((Candidate(H2, port), unrouted), fp))
        joiner = spawn(tmp_path / "joiner", "join", code, "--bot", "random",
                       "--reply-wait", "4", prefix=rig.ns(rig.h1))  # fmt: skip
        stopped = spawn(tmp_path / "stopped", "join", code, "--bot", "random",
                        "--reply-wait", "120", prefix=rig.ns(rig.h1))  # fmt: skip
        try:
            assert joiner.wait(REASON_WITHIN + 15) == 1, joiner.stderr
            _code_of(stopped, 30)
            stopped.proc.send_signal(signal.SIGINT)  # Ctrl-C while it waits for the host
            assert stopped.wait(15) == 1, stopped.stderr
        finally:
            joiner.kill()
            stopped.kill()
    finally:
        listening.kill()
    last = stopped.stderr.strip().splitlines()[-1]
    assert last == "koikoi: stopped before the host dialled back", stopped.stderr
    assert _code_of(joiner)  # it offered one
    last = joiner.stderr.strip().splitlines()[-1]
    assert last.startswith("koikoi: the host did not take the reply code within 4 s"), last
    assert f"{H2}:{port}: " in last and f"[2001:db8::9]:{port}: " in last and "UPnP" in last
    assert joiner.result()["finished"] is False


@pytest.mark.timeout(300)
def test_where_the_ipv6_firewall_blocks_the_host_asks_for_a_pinhole(
    pinhole_rig: Rig, tmp_path: Path
) -> None:
    """Router 1's IPv6 firewall drops what it did not see go out; the host asks it by PCP to
    let in its room's port, and a joiner that dials only the code's IPv6 address plays."""
    from tests.nat_rig import H1_6, NFT_TABLE

    rig = pinhole_rig

    def pinholes() -> str:
        chain = ("nft", "list", "chain", "inet", NFT_TABLE, "miniupnpd")
        return run_rig(rig.ns(rig.r1, *chain))

    host = spawn(tmp_path / "host", "host", "--internet", "--bot", "random", "--name", "hana",
                 prefix=rig.ns(rig.h1))  # fmt: skip
    try:
        code = decode(_code_of(host))
        port = int(host.wait_for("listening ", 5).rsplit(":", 1)[1])
        said = host.wait_for("IPv6 pinhole", 5)
        assert f"[{H1_6}]:{port} by PCP" in said, said
        assert "0x20010db8006100000000000000000010" in pinholes()  # h1's address let in
        only_ipv6 = JoinCode(tuple(c for c in code.candidates if c.ipv6), code.fingerprint)
        assert [c.host for c in only_ipv6.candidates] == [H1_6]
        joiner = spawn(tmp_path / "joiner", "join", encode(only_ipv6), "--bot", "random",
                       "--reply-wait", "0", prefix=rig.ns(rig.h2))  # fmt: skip
        try:
            assert joiner.wait(200) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert host.result()["route"] == joiner.result()["route"] == "ipv6", host.stderr
    assert f"reached the room at [{H1_6}]:{port}" in joiner.stderr
    assert f"dport {port}" not in pinholes()  # removed at exit


def run_rig(argv: tuple[str, ...]) -> str:
    from tests.nat_rig import run

    return run(*argv, check=False).stdout
