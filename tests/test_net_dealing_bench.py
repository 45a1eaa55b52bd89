"""What private dealing costs: ``deal_ms`` in ``koikoi bench --net`` and
``python -m koikoi.net.dealing --bench`` (kept short)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from koikoi.net import bench, dealing
from tests.conftest import REPO


def test_a_whole_deal_is_timed_in_its_parts() -> None:
    figures = dealing.bench(runs=5)
    # The goal (150 ms for both peers together) is the benchmark's: docs/benchmarks.md. The
    # setup and the whole deal are timed in separate runs on the wall clock: which median is
    # larger is the machine's load as much as the work (setup 63 ms, deal 54 ms at load 4).
    assert figures["deal_setup_ms"] > 0 and figures["deal_ms"] > 0
    assert figures["deal_audit_ms"] > 0
    # 4 decks of 48 points, 2 × 16 keys, 48 draw keys, 16 play keys, 2 seeds, and their maps.
    assert 4 * 48 * 32 + (32 + 48 + 16) * 32 + 2 * 32 < figures["deal_bytes"] < 12_000


def test_the_module_prints_the_figures_as_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "koikoi.net.dealing", "--bench", "--runs", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert {"deal_ms", "deal_setup_ms", "deal_audit_ms", "deal_bytes"} == set(
        json.loads(done.stdout)
    )
    bad = subprocess.run(
        [sys.executable, "-m", "koikoi.net.dealing", "--bench", "--runs", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1].endswith("--runs must be at least 1")


def test_bench_net_reports_deal_ms(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi import cli

    quick = bench.run

    monkeypatch.setattr(
        bench, "run", lambda: quick(handshakes=1, matches=1, real_levels=False, deals=2)
    )
    assert cli.main(["bench", "--net", "--seconds", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deal_ms"] > 0 and out["deal_ms_in_process"] > 0 and out["deal_bytes"] > 0
