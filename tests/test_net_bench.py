"""``koikoi bench --net``: the network figures, measured for real over loopback (kept short)."""

from __future__ import annotations

import json

import pytest

from koikoi.net import bench


def test_the_network_figures() -> None:
    figures = bench.run(handshakes=3, matches=2, real_levels=False)
    # The goal (300 ms on loopback) is the benchmark's: docs/benchmarks.md.
    assert figures["handshake_ms"] > 0
    assert figures["handshake_ms_private"] > 0
    assert figures["bytes_per_match"] > 1000
    assert figures["moves_per_match"] > 0 and figures["net_us_per_move"] > 0
    assert isinstance(figures["match_overhead_pct"], float)
    # Privately dealt matches over loopback: each deal's dealing timed in the session.
    assert figures["deal_ms"] > 0 and figures["deal_ms_in_process"] > 0
    assert figures["bytes_per_match_private"] > figures["bytes_per_match"]


def test_bench_net_adds_the_keys_of_cli_md(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from koikoi import cli

    quick = bench.run

    monkeypatch.setattr(bench, "run", lambda: quick(handshakes=1, matches=1, real_levels=False))
    assert cli.main(["bench", "--net", "--seconds", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"rounds_per_second", "handshake_ms", "match_overhead_pct", "bytes_per_match"} <= set(
        out
    )
