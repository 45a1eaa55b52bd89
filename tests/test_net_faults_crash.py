"""kill -9 of either ``koikoi host`` or ``koikoi join`` mid-match, and a restart with the same
KOIKOI_HOME and ``--record FILE``: the restarted side finds the match in play in its record,
restores it and resumes it with the peer, who waited (docs/protocol.md, "Resume"). Both
records end identical and verified.
"""

from __future__ import annotations

import base64
import json
import socket
import time
from pathlib import Path

import pytest

from koikoi.net.recordfile import read_local
from tests.conftest import run_koikoi
from tests.net_support import KoikoiProcess, Table, in_play, is_move, spawn

LOOPBACK = ("--bind", "127.0.0.1")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def moves_in(path: Path) -> int:
    """The moves a side's record file holds. Privately dealt, the record itself is rewritten
    only as each deal is laid out: the moves since are in its sidecar's journal (this side's
    ``play`` items and the peer's ``move`` messages taken), which a restart replays."""
    try:
        data = json.loads(path.read_text())
        local = read_local(path)
    except (OSError, ValueError):
        return 0
    if local is not None:
        journal = local["journal"]
        return sum(
            item[0] == "play" or (item[0] == "in" and is_move(base64.b64decode(item[1])))
            for item in journal
        )
    return sum(len(deal["actions"]) for deal in data.get("deals", []))


def wait_moves(path: Path, count: int, *procs: KoikoiProcess) -> None:
    deadline = time.monotonic() + 60
    while moves_in(path) < count:
        assert time.monotonic() < deadline, [p.stderr[-2000:] for p in procs]
        time.sleep(0.01)


def kill_9(proc: KoikoiProcess) -> None:
    proc.proc.kill()  # SIGKILL: no goodbye, no last write
    proc.proc.wait(10)


def host(tmp_path: Path, port: int, name: str = "host", dealing: str = "seed") -> KoikoiProcess:
    return spawn(
        tmp_path / "host",
        "host", "--port", str(port), *LOOPBACK, "--bot", "normal", "--name", "hana",
        "--record", str(tmp_path / "host.json"), "--dealing", dealing,
        name=name,
    )  # fmt: skip


def join(tmp_path: Path, port: int, name: str = "join", dealing: str = "seed") -> KoikoiProcess:
    return spawn(
        tmp_path / "joiner",
        "join", f"127.0.0.1:{port}", "--bot", "normal", "--name", "taro",
        "--record", str(tmp_path / "joiner.json"), "--dealing", dealing,
        name=name,
    )  # fmt: skip


def check(tmp_path: Path, h: KoikoiProcess, j: KoikoiProcess, dealing: str = "seed") -> None:
    assert h.result() == j.result()
    assert h.result()["finished"] is True and h.result()["resumed"] == 1
    records = [json.loads((tmp_path / f"{side}.json").read_text()) for side in ("host", "joiner")]
    assert records[0]["deals"] == records[1]["deals"] and records[0]["net"] == records[1]["net"]
    assert records[0]["net"].get("dealing", "seed") == dealing
    assert all("local" not in record for record in records)  # the seeds are all revealed
    assert not list(tmp_path.glob("*.local"))  # no sidecar of them is left beside them
    for side in ("host", "joiner"):
        assert run_koikoi("verify", str(tmp_path / f"{side}.json")).returncode == 0
    both = run_koikoi("verify", str(tmp_path / "host.json"), str(tmp_path / "joiner.json"))
    assert both.returncode == 0, both.stdout + both.stderr
    assert json.loads(both.stdout)["agree"] is True


AGAIN = pytest.mark.parametrize(
    ("dealing", "again"),
    [("seed", "seed"), ("private", "private"), ("seed", "private")],
    ids=["seed", "private", "seed, restarted by default"],
)
"""How the match was dealt, and the ``--dealing`` of the side started again: a joint-seed
match is resumed as it was agreed, also by a side restarted without ``--dealing seed`` (the
default deals privately only, and refuses a new peer that offers only the seed)."""


@AGAIN
@pytest.mark.timeout(300)  # the restarted joiner may take its 180 s
def test_the_joiner_killed_and_restarted_resumes_from_its_record(
    tmp_path: Path, dealing: str, again: str
) -> None:
    """Privately dealt too: the joiner's record file has its seeds and journal beside it
    (its sidecar), appended after every dealing message, so the one restarted deals on
    where it was."""
    port = free_port()
    h = host(tmp_path, port, dealing=dealing)
    h.port()
    j = join(tmp_path, port, dealing=dealing)
    j2 = None
    try:
        wait_moves(tmp_path / "joiner.json", 6, h, j)
        kill_9(j)
        assert (tmp_path / "joiner.json.local").exists() is (dealing == "private")
        h.wait_for("waiting up to", timeout=30)
        j2 = join(tmp_path, port, name="join-again", dealing=again)
        assert j2.wait(180) == 0, j2.stderr
        assert h.wait(60) == 0, h.stderr
    finally:
        for proc in (j, j2, h):
            if proc is not None:
                proc.kill()
    assert "resuming the match in" in j2.stderr and "the match resumed" in h.stderr
    check(tmp_path, h, j2, dealing)


@AGAIN
@pytest.mark.timeout(300)  # the joiner may take its 180 s
def test_the_host_killed_and_restarted_resumes_from_its_record(
    tmp_path: Path, dealing: str, again: str
) -> None:
    port = free_port()
    h = host(tmp_path, port, dealing=dealing)
    h.port()
    j = join(tmp_path, port, dealing=dealing)
    h2 = None
    try:
        wait_moves(tmp_path / "host.json", 6, h, j)
        kill_9(h)
        j.wait_for("waiting up to", timeout=30)
        time.sleep(1.0)  # the joiner dials meanwhile, and finds nobody
        h2 = host(tmp_path, port, name="host-again", dealing=again)
        assert j.wait(180) == 0, j.stderr
        assert h2.wait(60) == 0, h2.stderr
    finally:
        for proc in (j, h2, h):
            if proc is not None:
                proc.kill()
    assert "resuming the match in" in h2.stderr and "the match resumed" in j.stderr
    check(tmp_path, h2, j, dealing)


def test_a_record_in_play_of_another_identity_is_refused_in_one_line(tmp_path: Path) -> None:
    """``--record FILE`` holding someone else's match in play: nothing is written over, and
    the command stops with one line (exit 2)."""

    def first_deal_has_moves(table: Table) -> bool:  # about one in 55 is over as it is dealt
        return bool(table.joiner.record().to_json()["deals"][0]["actions"])

    table = in_play(4, seeds=range(4, 44), until=first_deal_has_moves)
    record = table.joiner.record().to_json()
    assert "end" not in record and record["deals"][0]["actions"]
    path = tmp_path / "theirs.json"
    text = json.dumps(record)
    path.write_text(text)
    proc = run_koikoi("join", "127.0.0.1:9", "--bot", "random", "--record", str(path))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"koikoi: --record {path} holds a match in play that cannot go on: "
        "this identity is not its joiner"
    ]
    assert "Traceback" not in proc.stderr and path.read_text() == text
