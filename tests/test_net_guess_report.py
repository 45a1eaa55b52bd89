"""The host's lines about password guessing, coalesced (issue 20, item 7): one address
guessing against ``koikoi host`` wrote a line per guess and per connection turned away while
it waited (about 1,500 lines in 8 s). :class:`~koikoi.net.room.GuessReport` says the first
few of an address as before, then at most one line per address every few seconds with the
running counts, and one summary at the end; on an injected clock here, and against a real
``koikoi host`` flooded on loopback."""

from __future__ import annotations

import asyncio
import re

from koikoi.net.room import GuessReport
from tests.test_net_guessing import _hammer, _host


def _flood(report: GuessReport, seconds: float, per_second: int) -> tuple[list[str], int, int]:
    """A guess every 1/``per_second`` s from one address, each answered by a wrong password
    and its turning away, with ten connections told to wait between two guesses."""
    lines: list[str] = []
    wrong = turned = 0
    steps = int(seconds * per_second)
    for n in range(steps):
        now = n / per_second
        lines += report.due(now)
        wrong += 1
        lines += report.wrong_password("192.168.1.7", wrong, now)
        lines += report.turned_away(f"192.168.1.7:{4000 + n}", "wrong password", now)
        turned += 1
        for k in range(10):
            reason = "wrong passwords from 192.168.1.7: it waits 4 s"
            lines += report.turned_away(f"192.168.1.7:{5000 + k}", reason, now + 0.001 * k)
            turned += 1
    lines += report.close()
    return lines, wrong, turned


def test_a_flood_from_one_address_is_a_few_lines_with_the_counts() -> None:
    report = GuessReport(every=5.0, burst=3)
    lines, wrong, turned = _flood(report, seconds=8.0, per_second=20)  # 1,760 events
    assert len(lines) <= 3 + 8 / 5 + 1 + 1, lines  # the burst, one a window, the summary
    counts = [int(m.group(1)) for line in lines if (m := re.match(r"(\d+) wrong passwords", line))]
    assert counts == sorted(counts) and counts[-1] == wrong  # running, the last one right
    assert lines[-1] == (
        f"in all: {wrong} wrong passwords from 1 address, {turned} connections from it turned away"
    )


def test_a_few_guesses_are_said_as_before() -> None:
    report = GuessReport(every=5.0, burst=3)
    said = report.wrong_password("127.0.0.1", 1, 0.0)
    said += report.turned_away("127.0.0.1:4000", "wrong password", 0.1)
    assert said == ["1 wrong password from 127.0.0.1", "turned away 127.0.0.1:4000: wrong password"]
    assert report.close() == []  # nothing was coalesced: no summary


def test_other_refusals_are_not_coalesced() -> None:
    report = GuessReport(every=5.0, burst=3)
    said = [line for n in range(20) for line in report.turned_away(f"10.0.0.1:{n}", "busy", 0.0)]
    assert len(said) == 20


def test_the_pending_line_comes_when_its_window_ends() -> None:
    report = GuessReport(every=5.0, burst=1)
    assert report.wrong_password("10.0.0.2", 1, 0.0) == ["1 wrong password from 10.0.0.2"]
    assert report.wrong_password("10.0.0.2", 2, 1.0) == []
    assert report.next_due() == 5.0
    assert report.due(4.9) == []
    assert report.due(5.0) == ["2 wrong passwords from 10.0.0.2"]
    assert report.next_due() is None


def test_a_real_host_flooded_by_one_address_writes_a_bounded_number_of_lines(tmp_path) -> None:
    host, port = _host(tmp_path)
    try:
        seconds = 4.0
        counts = asyncio.run(_hammer(port, ["127.0.0.1"], seconds))
        print("measured", counts, "lines", len(host.stderr.splitlines()))
        line = host.wait_for(f"{counts['guess']} wrong passwords from 127.0.0.1", timeout=15)
        assert line.startswith("koikoi: ")
        about = [x for x in host.stderr.splitlines() if "127.0.0.1" in x]
        # the burst (3), then one a window of 5 s over the flood and the window after
        assert len(about) <= 3 + 2 + 1, about
        assert counts["refused"] > 20  # the room did turn it away many times meanwhile
    finally:
        host.kill()
