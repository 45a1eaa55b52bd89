"""``python -m koikoi.devtools.hintbench`` times hints asked as the window asks them."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO


def test_the_hint_bench_times_hints_through_the_helper_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "koikoi.devtools.hintbench", "--hints", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["hints"] == 3
    assert 0 < out["ms_p50"] <= out["ms_p95"] <= out["ms_max"]
    assert out["first_ms"] > 0
