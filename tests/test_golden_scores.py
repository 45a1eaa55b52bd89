"""Golden scoring cases, run through the real command line (`python -m koikoi score`).

The cases in data/golden_scores.json are worked by hand from the game's rules pages (seeds 000
and 004) and RULES.md R6/R9; each names its source sentence and rule id. What is under test is
the command and its JSON contract (CLI.md), so every case runs the real CLI in a subprocess;
the subprocesses run concurrently to keep the suite fast.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = json.loads((ROOT / "tests" / "data" / "golden_scores.json").read_text(encoding="utf-8"))
CASES = DATA["cases"]

# RULES.md R1.1, month by month, and the R6 table order of yaku ids.
CARD_IDS = [
    "matsu_crane",
    "matsu_ribbon",
    "matsu_plain_1",
    "matsu_plain_2",
    "ume_warbler",
    "ume_ribbon",
    "ume_plain_1",
    "ume_plain_2",
    "sakura_curtain",
    "sakura_ribbon",
    "sakura_plain_1",
    "sakura_plain_2",
    "fuji_cuckoo",
    "fuji_ribbon",
    "fuji_plain_1",
    "fuji_plain_2",
    "ayame_bridge",
    "ayame_ribbon",
    "ayame_plain_1",
    "ayame_plain_2",
    "botan_butterfly",
    "botan_ribbon",
    "botan_plain_1",
    "botan_plain_2",
    "hagi_boar",
    "hagi_ribbon",
    "hagi_plain_1",
    "hagi_plain_2",
    "susuki_moon",
    "susuki_geese",
    "susuki_plain_1",
    "susuki_plain_2",
    "kiku_sake_cup",
    "kiku_ribbon",
    "kiku_plain_1",
    "kiku_plain_2",
    "momiji_deer",
    "momiji_ribbon",
    "momiji_plain_1",
    "momiji_plain_2",
    "yanagi_rainman",
    "yanagi_swallow",
    "yanagi_ribbon",
    "yanagi_lightning",
    "kiri_phoenix",
    "kiri_plain_yellow",
    "kiri_plain_1",
    "kiri_plain_2",
]
YAKU_ORDER = [
    "goko",
    "shiko",
    "ame_shiko",
    "sanko",
    "hanami",
    "tsukimi",
    "inoshikacho",
    "akatan",
    "aotan",
    "akatan_aotan",
    "tane",
    "tan",
    "kasu",
]


def run_cli(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "koikoi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def score_args(case: dict[str, Any]) -> list[str]:
    args = ["score", "--koikoi", str(case["koikoi"])]
    if not case["doubling"]:
        args.append("--no-doubling")
    cards: list[str] = case["cards"]
    return args + cards


BAD_ARGS = {
    "unknown_card": ["score", "sakura_crane"],
    "yaku_id_is_not_a_card": ["score", "hanami"],
    "repeated_card": ["score", "kiku_sake_cup", "sakura_curtain", "kiku_sake_cup"],
    "koikoi_16": ["score", "--koikoi", "16", "matsu_crane"],
    "koikoi_negative": ["score", "--koikoi", "-1", "matsu_crane"],
    "koikoi_not_a_number": ["score", "--koikoi", "two", "matsu_crane"],
}


@cache
def results() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every command of this module, run once, in parallel."""
    jobs = {f"case:{c['name']}": score_args(c) for c in CASES}
    jobs.update({f"bad:{k}": v for k, v in BAD_ARGS.items()})
    with ThreadPoolExecutor(max_workers=8) as pool:
        done = dict(zip(jobs, pool.map(run_cli, jobs.values()), strict=True))
    return done


def test_golden_data_is_consistent() -> None:
    """The golden file itself: valid ids, R6 order, and arithmetic that follows CLI.md."""
    assert len(CASES) >= 40
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    for c in CASES:
        assert c["source"].startswith(("000:", "004:", "RULES", "CLI")), c["name"]
        assert set(c["cards"]) <= set(CARD_IDS), c["name"]
        assert len(c["cards"]) == len(set(c["cards"])), c["name"]
        e = c["expect"]
        ids = [y["id"] for y in e["yaku"]]
        assert ids == sorted(ids, key=YAKU_ORDER.index), c["name"]
        assert e["base"] == sum(y["points"] for y in e["yaku"]), c["name"]
        assert e["doubled"] == (c["doubling"] and e["base"] >= 8), c["name"]
        assert e["koikoi"] == c["koikoi"] and e["multiplier"] == c["koikoi"] + 1, c["name"]
        assert e["points"] == e["base"] * (2 if e["doubled"] else 1) * e["multiplier"], c["name"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_score(case: dict[str, Any]) -> None:
    # Rule: case["rule"]; source: case["source"].
    r = results()[f"case:{case['name']}"]
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == case["expect"], case["source"]


@pytest.mark.parametrize("name", list(BAD_ARGS))
def test_score_bad_input(name: str) -> None:
    """CLI.md: one clear line on stderr (no traceback), nothing on stdout, exit 2."""
    r = results()[f"bad:{name}"]
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    lines = r.stderr.rstrip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("koikoi:"), r.stderr
