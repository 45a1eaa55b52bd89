"""The command line of CLI.md, run as the real command: names, JSON keys, exit codes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from koikoi import __version__
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Settings
from koikoi.engine.record import GameRecord
from tests.conftest import REPO, run_koikoi


def assert_usage_error(proc, *fragments: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("koikoi: ")
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_version():
    proc = run_koikoi("--version")
    assert proc.returncode == 0
    assert __version__ in proc.stdout


def test_score_worked_example_R9_5():
    proc = run_koikoi("score", "--koikoi", "1", "sakura_curtain", "susuki_moon", "kiku_sake_cup")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "yaku": [{"id": "hanami", "points": 5}, {"id": "tsukimi", "points": 5}],
        "base": 10,
        "doubled": True,
        "koikoi": 1,
        "multiplier": 2,
        "points": 40,
    }


def test_score_no_doubling_and_empty_pile():
    proc = run_koikoi(
        "score",
        "--no-doubling",
        "--koikoi",
        "1",
        "matsu_crane",
        "sakura_curtain",
        "susuki_moon",
        "kiri_phoenix",
    )
    assert json.loads(proc.stdout)["points"] == 16
    proc = run_koikoi("score")
    assert json.loads(proc.stdout) == {
        "yaku": [],
        "base": 0,
        "doubled": False,
        "koikoi": 0,
        "multiplier": 1,
        "points": 0,
    }


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["score", "matsu_crane", "no_such_card"], "no_such_card"),
        (["score", "matsu_crane", "matsu_crane"], "matsu_crane"),
        (["score", "--koikoi", "16", "matsu_crane"], "--koikoi"),
        (["score", "--koikoi", "-1"], "--koikoi"),
        (["score", "--koikoi", "x"], "--koikoi"),
        (["score", "--koikoi", "1_0"], "--koikoi"),  # int() would read 10
        (["score", "--koikoi", "\u0663"], "--koikoi"),  # an Arabic-Indic 3: int() reads 3
        (["bench", "--seconds", "nan"], "--seconds"),  # it measured for ever
        (["no-such-command"], "no-such-command"),
        (["replay"], "FILE"),
        (["replay", "/no/such/file.json"], "/no/such/file.json"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args, fragment):
    assert_usage_error(run_koikoi(*args), fragment)


def _played_record(seed: bytes, actions: int) -> dict[str, Any]:
    match = Match(Settings(), 0)
    rec = GameRecord(match.settings, 0)
    while not match.finished and actions > 0:
        if match.needs_deal:
            match.deal(deck_from_seed(seed, match.round_no, match.deal_no))
            r = match.round
            assert r is not None  # a deal lays out a round
            rec.add_deal(r.dealt_hands, r.field, r.stock)
            continue
        seat = match.current_seat()
        assert seat is not None  # a round in play, the match not over
        action = match.legal_actions()[-1]
        match.apply(action, seat)
        rec.add_action(seat, action)
        actions -= 1
    return rec.to_json()


def test_replay_reads_a_file_and_stdin(tmp_path):
    data = _played_record(b"cli", 10_000)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    from_file = run_koikoi("replay", str(path))
    from_stdin = run_koikoi("replay", "-", stdin=json.dumps(data))
    assert from_file.returncode == from_stdin.returncode == 0, from_file.stderr
    out = json.loads(from_file.stdout)
    assert out == json.loads(from_stdin.stdout)
    assert out["finished"] is True
    assert set(out) == {"rounds", "scores", "winner", "finished"}
    assert sum(out["scores"]) == 50
    # a byte order mark first, as some editors save UTF-8: the same record (RFC 8259 8.1)
    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    with_mark = run_koikoi("replay", str(marked))
    assert with_mark.returncode == 0 and json.loads(with_mark.stdout) == out, with_mark.stderr


def test_replay_of_an_unfinished_record_says_in_progress(tmp_path):
    out = json.loads(run_koikoi("replay", "-", stdin=json.dumps(_played_record(b"cli", 3))).stdout)
    assert out["rounds"][-1] == {"result": "in_progress"}
    assert out["finished"] is False and out["winner"] is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "deal - action -:"),
        ("[]", "deal - action -:"),
        ('{"format": "other/1"}', "deal - action -:"),
        ('{"format": "koikoi-record/1", "first_oya": 0, "deals": []}', "deal - action -: R2.6"),
    ],
)
def test_replay_rejects_malformed_records(text, fragment):
    assert_usage_error(run_koikoi("replay", "-", stdin=text), fragment)


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize("where", ["top", "action"])
def test_a_number_too_long_to_read_is_one_line(tmp_path, command, where):
    """A JSON number past CPython's int-digit limit (4,300 digits), even in an extra key
    readers ignore, is bad input: one line, exit 2, never a traceback."""
    data = _played_record(b"cli", 1)
    huge = "9" * 5000
    text = json.dumps(data)
    if where == "top":
        text = text[:-1] + f', "note": {huge}}}'
    else:
        text = text.replace('"actions": [{', f'"actions": [{{"clock": -{huge}, ', 1)
    path = tmp_path / "big.json"
    path.write_text(text)
    assert_usage_error(
        run_koikoi(command, str(path)), "deal - action -: format", "too long to read"
    )


def test_replay_names_deal_action_and_rule():
    data = _played_record(b"cli", 1)
    deal = data["deals"][0]
    mover = data["first_oya"]
    other_hand = deal["hands"][1 - mover]
    deal["actions"] = [{"seat": mover, "play": other_hand[0]}]
    proc = run_koikoi("replay", "-", stdin=json.dumps(data))
    assert_usage_error(proc, "deal 0 action 0: R5.1")
    deal["actions"] = [{"seat": 1 - mover, "play": other_hand[0]}]
    assert_usage_error(run_koikoi("replay", "-", stdin=json.dumps(data)), "deal 0 action 0: R5.7")
    deal["hands"][0][0] = deal["hands"][0][1]
    assert_usage_error(run_koikoi("replay", "-", stdin=json.dumps(data)), "deal 0 action -: R1.1")


HEAVY = ("asyncio", "spake2", "cryptography", "zeroconf", "PySide6", "msgpack", "nacl")
"""The network stack and the window: what the engine's subcommands must not load."""


def _imported(proc) -> set[str]:
    """Top-level packages named by ``-X importtime`` lines (PYTHONPROFILEIMPORTTIME)."""
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


@pytest.mark.parametrize(
    "args",
    [
        ("score", "--koikoi", "1", "sakura_curtain", "susuki_moon"),
        ("replay", "tests/data/records/koikoi_40_example_000.json"),
        ("score", "--help"),
        ("--help",),
    ],
    ids=["score", "replay", "score-help", "help"],
)
def test_engine_subcommands_load_no_network_or_window(monkeypatch, args):
    """A subcommand imports its module only when it runs: ``score`` and ``replay`` start
    with the engine alone (the test suite runs hundreds of them)."""
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    proc = run_koikoi(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = _imported(proc)
    assert "koikoi" in imported  # the profile did list the imports
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_every_subcommand_of_cli_md_is_in_the_table():
    from koikoi.cli import SUBCOMMANDS, build_parser

    assert set(SUBCOMMANDS) >= {"score", "replay", "bench", "simulate", "host", "join", "verify"}
    for name in SUBCOMMANDS:  # each module configures its own arguments
        args = {"score": [], "replay": ["-"], "join": ["h:1"], "verify": ["-"], "view": ["-"]}.get(
            name, []
        )
        extra = {"simulate": ["--a", "random", "--b", "random", "--games", "1"]}.get(name, [])
        parsed = build_parser(name).parse_args([name, *args, *extra])
        assert callable(parsed.run), name


def test_bench_prints_its_keys():
    proc = run_koikoi("bench", "--seconds", "0.2")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["rounds_per_second"] > 0
    assert 0 < out["score_us"] < 1000


def test_no_display_is_one_line(monkeypatch):
    import os
    import subprocess
    import sys

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    proc = subprocess.run(
        [sys.executable, "-m", "koikoi"], env=env, capture_output=True, text=True, timeout=60
    )
    if __import__("sys").platform.startswith("linux"):
        assert proc.returncode == 1
        assert proc.stderr.count("\n") == 1 and "display" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_the_help_and_the_readme_name_the_environment_the_app_reads() -> None:
    """KOIKOI_MDNS_BIND is what lets two apps find each other's rooms over loopback; it was
    in neither the README nor --help."""
    from koikoi.ui.lobby.rooms import BIND_ENV

    proc = run_koikoi("--help")
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stdout.split())
    assert f"{BIND_ENV}=127.0.0.1" in said or f"{BIND_ENV} " in said, proc.stdout
    assert "loopback" in said and "KOIKOI_HOME" in said
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert BIND_ENV in readme and "127.0.0.1" in readme
    table = {line.split("|")[1].strip() for line in readme.splitlines() if line.startswith("| `")}
    assert {"`KOIKOI_HOME`", f"`{BIND_ENV}`"} <= table  # the README's environment table
