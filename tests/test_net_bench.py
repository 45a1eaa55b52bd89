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
    # A privately dealt move on its own (issue 15): each deal from laid out to its last move.
    assert figures["move_ms_private"] > 0 and figures["move_ms_seed"] > 0
    extra = figures["move_ms_private_extra"]
    assert extra == round(figures["move_ms_private"] - figures["move_ms_seed"], 3)
    moves = figures["move_ms_private"] * figures["moves_per_match_private"]
    assert figures["match_ms_private"] > moves  # the dealing and the audits come on top
    assert figures["deal_all_ms_private"] > 0 and figures["deals_per_match_private"] >= 1
    # Keeping the record of a privately dealt match on disk, as the CLI and the app do.
    assert figures["record_file_bytes_private"] > 1000
    assert figures["record_bytes_written_private"] >= figures["record_file_bytes_private"]
    assert figures["record_write_ms_private"] > 0 and figures["record_writes_private"] >= 1


def test_a_private_session_times_each_deal_in_play_apart() -> None:
    """``play_seconds``: one span per deal, from laid out to the last move, inside the
    match and apart from the dealing (``deal_seconds``)."""
    import asyncio

    bots = (bench._TimedBot("random", 5), bench._TimedBot("random", 6))
    hosted, joined = asyncio.run(bench._session(bots, private=True))
    for outcome in (hosted, joined):
        session = outcome.session
        assert session is not None and session.lockstep is not None
        deals = len(session.lockstep.record.deals)
        assert len(session.play_seconds) == len(session.deal_seconds) == deals
        assert all(span >= 0 for span in session.play_seconds)
        whole = outcome.times["ended"] - outcome.times["established"]
        assert sum(session.play_seconds) + sum(session.deal_seconds) <= whole


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
    assert {"deal_ms", "move_ms_private", "move_ms_seed", "move_ms_private_extra"} <= set(out)
    assert {"record_bytes_written_private", "record_write_ms_private"} <= set(out)
