"""Golden game records, run through the real command line (`python -m koikoi replay FILE`).

data/records/*.json are hand-built `koikoi-record/1` files (see make_records.py for how each
deck was laid out and why its outcome follows from RULES.md). A legal record's "expect" is
the exact replay JSON; an illegal record's "expect" gives the start of the one error line
(`koikoi: deal D action A:`) and the rule ids, one of which the line must name.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records"
FILES = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expect.json"))


def expectation(path: Path) -> dict[str, Any]:
    side = path.with_name(path.stem + ".expect.json")
    holder = side if side.exists() else path
    expect: dict[str, Any] = json.loads(holder.read_text(encoding="utf-8"))["expect"]
    return expect


def run_cli(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "koikoi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@cache
def results() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every record replayed once, in parallel."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        done = pool.map(lambda p: run_cli(["replay", str(p)]), FILES)
        return {p.name: r for p, r in zip(FILES, done, strict=True)}


def names_rule(line: str, rule: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(rule)}(?![\d])", line) is not None


def test_records_match_their_generator() -> None:
    """The committed files are exactly what make_records.py writes (no hand edits drift)."""
    spec = importlib.util.spec_from_file_location("make_records", RECORDS / "make_records.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, rec in mod.RECORDS.items():
        assert json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8")) == rec, name
    for name, text in mod.MALFORMED.items():
        assert (RECORDS / f"{name}.json").read_text(encoding="utf-8") == text, name
    assert len(FILES) == len(mod.RECORDS) + len(mod.MALFORMED)


LEGAL = [p for p in FILES if "exit" not in expectation(p)]
ILLEGAL = [p for p in FILES if "exit" in expectation(p)]


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_golden_replay(path: Path) -> None:
    r = results()[path.name]
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == expectation(path)


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.stem for p in ILLEGAL])
def test_illegal_record(path: Path) -> None:
    exp = expectation(path)
    r = results()[path.name]
    assert r.returncode == exp["exit"], (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    lines = r.stderr.rstrip("\n").split("\n")
    assert len(lines) == 1, r.stderr
    line = lines[0]
    assert line.startswith(exp["error_prefix"]), (line, exp["error_prefix"])
    if exp["rules"]:
        assert any(names_rule(line, rule) for rule in exp["rules"]), (line, exp["rules"])


def test_replay_reads_stdin() -> None:
    path = RECORDS / "koikoi_40_example_000.json"
    r = run_cli(["replay", "-"], stdin=path.read_text(encoding="utf-8"))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == expectation(path)


def test_replay_missing_file() -> None:
    r = run_cli(["replay", str(RECORDS / "no_such_record.json")])
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.rstrip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("koikoi:"), r.stderr
