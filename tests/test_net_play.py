"""Two ``koikoi`` processes on loopback: host, join, verify — the commands of CLI.md, for real.

Every test binds 127.0.0.1; nothing goes anywhere but loopback.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from koikoi.engine.cards import CARD_IDS
from tests.conftest import run_koikoi
from tests.net_support import KoikoiProcess, spawn

LOOPBACK = ("--bind", "127.0.0.1")


def host(tmp_path: Path, *args: str, name: str = "host") -> tuple[KoikoiProcess, int]:
    proc = spawn(tmp_path / name, "host", "--port", "0", *LOOPBACK, "--name", "hana", *args)
    try:
        return proc, proc.port()
    except BaseException:
        proc.kill()
        raise


def join(tmp_path: Path, port: int, *args: str, name: str = "joiner") -> KoikoiProcess:
    return spawn(tmp_path / name, "join", f"127.0.0.1:{port}", "--name", "taro", *args, name=name)


def play(
    tmp_path: Path, host_bot: str, joiner_bot: str, timeout: float = 60.0
) -> tuple[KoikoiProcess, KoikoiProcess, Path, Path]:
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    h, port = host(tmp_path, "--bot", host_bot, "--record", str(records[0]))
    j = join(tmp_path, port, "--bot", joiner_bot, "--record", str(records[1]))
    try:
        assert j.wait(timeout) == 0, j.stderr
        assert h.wait(timeout) == 0, h.stderr
    finally:
        h.kill()
        j.kill()
    return h, j, records[0], records[1]


def without_dealing(result: dict[str, object]) -> dict[str, object]:
    return {
        key: value
        for key, value in result.items()
        if key not in ("dealing", "audit", "clock", "reserve")
    }


def check_match(h: KoikoiProcess, j: KoikoiProcess, host_record: Path, joiner_record: Path) -> None:
    result = h.result()
    assert j.result() == result
    assert set(result) == {
        "rounds",
        "scores",
        "winner",
        "finished",
        "dealing",
        "audit",
        "clock",
        "reserve",
    }
    assert result["finished"] is True and result["dealing"] == "private"  # the default
    assert (result["clock"], result["reserve"]) == (60, 300)  # the room's default clock
    assert result["audit"] == "done"  # every deal's audit, the last one's too
    assert sum(result["scores"]) == 50
    assert "Traceback" not in h.stderr + j.stderr
    records = [json.loads(p.read_text()) for p in (host_record, joiner_record)]
    assert records[0]["deals"] == records[1]["deals"]  # the same moves, entries, signatures
    assert records[0]["net"] == records[1]["net"]
    assert records[0]["end"]["finished"] and records[1]["end"]["finished"]
    for path in (host_record, joiner_record):
        proc = run_koikoi("verify", str(path))
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        assert report["valid"] is True
        assert {k: report[k] for k in without_dealing(result)} == without_dealing(result)
        assert report["proven"]["audit"]["result"] == "done"
    # The replay of either record tells the same story.
    proc = run_koikoi("replay", str(host_record))
    assert json.loads(proc.stdout) == without_dealing(result)
    # Each side also kept the game in KOIKOI_HOME/games.
    assert list((host_record.parent / "host" / "games").glob("net-*-host.json"))
    assert list((joiner_record.parent / "joiner" / "games").glob("net-*-joiner.json"))


def test_two_processes_play_a_whole_match(tmp_path: Path) -> None:
    h, j, host_record, joiner_record = play(tmp_path, "random", "greedy")
    check_match(h, j, host_record, joiner_record)
    assert "listening 127.0.0.1:" in h.stderr
    # Both sides showed the same four cards to compare.
    cards = [
        line.split("the four cards: ")[1]
        for line in (h.stderr + j.stderr).splitlines()
        if "the four cards" in line
    ]
    assert len(cards) == 2 and cards[0] == cards[1]

    # A tampered record is rejected, naming the move.
    record = json.loads(host_record.read_text())
    # the first deal with moves (a redeal or a teyaku deal has none)
    deal_no, deal = next((i, d) for i, d in enumerate(record["deals"]) if d.get("actions"))
    action = deal["actions"][0]
    verb = "play"
    action[verb] = next(c for c in CARD_IDS if c != action[verb])
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    proc = run_koikoi("verify", str(tampered))
    assert proc.returncode == 1, proc.stderr
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1
    assert line.startswith(f"koikoi: verify: deal {deal_no} action "), line
    assert "the signed entry holds" in line
    assert json.loads(proc.stdout)["valid"] is False


@pytest.mark.timeout(240)  # the match may take its 150 s
def test_the_real_levels_play_a_whole_match(tmp_path: Path) -> None:
    h, j, host_record, joiner_record = play(tmp_path, "normal", "hard", timeout=150.0)
    check_match(h, j, host_record, joiner_record)


def test_a_room_turns_away_bad_joiners_and_plays_the_good_one(tmp_path: Path) -> None:
    secret = tmp_path / "password.txt"
    secret.write_text("matsu ni tsuru\n", encoding="utf-8")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("sakura ni maku\n", encoding="utf-8")
    h, port = host(tmp_path, "--bot", "random", "--password-file", str(secret))
    try:
        cases = [
            (["--rounds", "12", "--password-file", str(secret)], "match settings differ: rounds"),
            (["--no-doubling", "--password-file", str(secret)], "doubling"),
            ([], "the room is private: a password is needed"),
            (["--password-file", str(wrong)], "wrong password"),
        ]
        for i, (args, reason) in enumerate(cases):
            j = join(tmp_path, port, "--bot", "random", *args, name=f"bad{i}")
            assert j.wait(30) == 1, j.stderr
            assert reason in j.stderr, j.stderr
            assert j.result()["finished"] is False
            assert j.result()["ended"] == "refused"
            assert "Traceback" not in j.stderr
        good = join(tmp_path, port, "--bot", "random", "--password-file", str(secret))
        assert good.wait(60) == 0, good.stderr
        assert h.wait(60) == 0, h.stderr
        assert h.result() == good.result()
        # The good joiner dialled within a second of the wrong password from the same
        # address: it may have been told to wait once, and got in when it dialled again.
        turned_away = h.stderr.count("turned away")
        assert turned_away == len(cases) + h.stderr.count("it waits"), h.stderr
        assert "koikoi: 1 wrong password from 127.0.0.1" in h.stderr
    finally:
        h.kill()


def test_a_changed_identity_is_refused_loudly(tmp_path: Path) -> None:
    h, j, *_ = play(tmp_path, "random", "random")
    # The joiner's home loses its key: the same nickname now comes with another key.
    (tmp_path / "joiner" / "identity" / "key.json").unlink()
    h2, port = host(tmp_path, "--bot", "random")
    try:
        j2 = join(tmp_path, port, "--bot", "random")
        assert j2.wait(30) == 1
        assert "identity" in j2.stderr  # the host refused: it pinned another key for "taro"
        h2.proc.send_signal(signal.SIGTERM)
        assert h2.wait(30) == 1
        assert "WARNING: 'taro' now has identity" in h2.stderr
    finally:
        h2.kill()


def test_a_silent_peer_is_reported_and_the_record_marked(tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    window = ("--resume-window", "1")  # then a silent peer that did not come back ends it
    h, port = host(tmp_path, "--bot", "random", "--timeout", "2", "--record", str(record), *window)
    j = join(tmp_path, port, "--bot", "hard", "--timeout", "2")
    try:
        j.wait_for("coin toss")
        j.proc.send_signal(signal.SIGSTOP)  # alive but mute, like a frozen machine
        assert h.wait(30) == 1, h.stderr
    finally:
        j.kill()
        h.kill()
    assert "the peer sent nothing for 2 s: it is disconnected" in h.stderr
    result = h.result()
    assert result["finished"] is False and result["winner"] is None
    assert (
        result["ended"] == "dropped"
        and result["end"]["how"] == "silent"
        and result["end"]["by"] == 1
    )
    saved = json.loads(record.read_text())
    assert saved["end"]["how"] == "silent" and saved["end"]["role"] == "joiner"
    assert run_koikoi("verify", str(record)).returncode == 0


def test_a_peer_that_leaves_is_announced(tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    h, port = host(tmp_path, "--bot", "random", "--record", str(record))
    j = join(tmp_path, port, "--bot", "hard", "--record", str(tmp_path / "joiner.json"))
    try:
        j.wait_for("coin toss")
        j.proc.send_signal(signal.SIGTERM)
        assert j.wait(30) == 1, j.stderr
        assert h.wait(30) == 1, h.stderr
    finally:
        j.kill()
        h.kill()
    assert "the peer left" in h.stderr
    assert h.result()["finished"] is False and j.result()["finished"] is False
    saved = json.loads(record.read_text())
    assert saved["end"]["how"] == "left" and saved["end"]["by"] == 1
    assert h.result()["ended"] == j.result()["ended"] == "left"
    mine = json.loads((tmp_path / "joiner.json").read_text())
    assert mine["end"]["how"] == "left" and mine["end"]["by"] == 1
    # No forfeit: the scores are those of the deals actually played.
    assert h.result()["scores"] == j.result()["scores"]


def test_a_killed_peer_drops_the_connection(tmp_path: Path) -> None:
    # the host waits --resume-window seconds for the peer to come back (test_net_faults.py)
    h, port = host(tmp_path, "--bot", "random", "--resume-window", "1")
    j = join(tmp_path, port, "--bot", "hard")
    try:
        j.wait_for("coin toss")
        j.proc.kill()
        assert h.wait(30) == 1, h.stderr
    finally:
        j.kill()
        h.kill()
    assert "the connection dropped" in h.stderr
    assert h.result()["ended"] == "dropped"


def test_nobody_listening(tmp_path: Path) -> None:
    h, port = host(tmp_path, "--bot", "random")
    h.proc.send_signal(signal.SIGTERM)
    assert h.wait(30) == 1
    assert "stopped before any peer joined" in h.stderr
    j = join(tmp_path, port, "--bot", "random")
    assert j.wait(30) == 1
    assert f"cannot connect to 127.0.0.1:{port}" in j.stderr
    assert j.result() == {
        "rounds": [],
        "scores": [25, 25],
        "winner": None,
        "finished": False,
        "dealing": "private",  # what it offered first: no session said otherwise
        "clock": 60,  # the clock it asked for (the default): no room said otherwise
        "reserve": 300,
        "ended": "dropped",
    }


@pytest.mark.parametrize(
    ("clock", "expected"),
    [("30+180", {"clock": 30, "reserve": 180}), ("off", {"clock": 0})],
)
def test_the_hosts_clock_is_the_rooms_and_both_results_say_it(
    tmp_path: Path, clock: str, expected: dict[str, int]
) -> None:
    """CLI.md ``host --clock``: the joiner asks for none and plays the room's; both results
    carry ``clock`` and ``reserve`` (no ``reserve`` with the clock off), and the records say
    the clock the handshake agreed."""
    records = tmp_path / "host.json", tmp_path / "joiner.json"
    h, port = host(tmp_path, "--bot", "random", "--clock", clock, "--record", str(records[0]))
    j = join(tmp_path, port, "--bot", "random", "--record", str(records[1]))
    try:
        assert j.wait(60) == 0, j.stderr
        assert h.wait(60) == 0, h.stderr
    finally:
        h.kill()
        j.kill()
    for result in (h.result(), j.result()):
        assert {k: v for k, v in result.items() if k in ("clock", "reserve")} == expected
    for record in records:
        net = json.loads(record.read_text())["net"]
        assert net["clock"] == {"seconds": expected["clock"], "reserve": expected.get("reserve", 0)}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["host", "--rounds", "7"], "--rounds"),
        (["host", "--port", "70000"], "--port"),
        (["host", "--bot", "nobody"], "--bot"),
        (["host", "--password-file", "/no/such/file"], "/no/such/file"),
        (["host", "--record", "/no/such/folder/r.json"], "does not exist"),
        (["host", "--record", "/tmp"], "that is a folder"),  # not found out after the match
        (["host", "--name", ""], "--name"),
        (["host", "--clock", "0+30"], "--clock"),
        (["host", "--clock", "soon"], "--clock"),
        (["host", "--clock", "60+99999"], "--clock"),
        (["join", "127.0.0.1:4000", "--clock", "60"], "--clock"),  # the room's clock wins
        (["host", "--bind", "256.1.1.1", "--port", "0"], "cannot listen"),
        (["join", "nowhere"], "HOST:PORT"),
        (["join", "127.0.0.1:0"], "HOST:PORT"),
        (["join"], "HOST:PORT"),
        (["verify"], "RECORD"),
        (["verify", "/no/such/record.json"], "/no/such/record.json"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(
    args: list[str],
    fragment: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from koikoi import cli  # in-process: the same parser and checks, without a start-up

    assert cli.main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("koikoi: "), err
    assert fragment in lines[0]


def test_verify_tells_a_non_record_from_a_failed_check(tmp_path: Path) -> None:
    not_json = tmp_path / "a.json"
    not_json.write_text("{not json")
    other = tmp_path / "b.json"
    other.write_text(json.dumps({"format": "something-else/1"}))
    unsigned = tmp_path / "c.json"
    unsigned.write_text(
        json.dumps(
            {
                "format": "koikoi-record/1",
                "settings": {"rounds": 6, "doubling": True},
                "first_oya": 0,
                "deals": [],
            }
        )
    )
    assert run_koikoi("verify", str(not_json)).returncode == 2
    assert run_koikoi("verify", str(other)).returncode == 2
    proc = run_koikoi("verify", str(unsigned))
    assert proc.returncode == 1
    assert "no network signatures" in proc.stderr
