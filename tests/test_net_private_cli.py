"""Two ``koikoi`` processes on loopback deal privately (by default, or ``--dealing private``):
the result says ``"dealing": "private"`` (CLI.md), both records verify, dealing included, and
two sides that both say ``--dealing seed`` play from the joint seed.

Every test binds 127.0.0.1; nothing goes anywhere but loopback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_koikoi
from tests.test_net_play import host, join

PRIVATE = ("--dealing", "private")
SEED = ("--dealing", "seed")


def _match(
    tmp_path: Path, host_args: tuple[str, ...], joiner_args: tuple[str, ...]
) -> tuple[dict[str, object], list[Path]]:
    records = [tmp_path / "host.json", tmp_path / "joiner.json"]
    h, port = host(tmp_path, "--bot", "greedy", "--record", str(records[0]), *host_args)
    j = join(tmp_path, port, "--bot", "random", "--record", str(records[1]), *joiner_args)
    try:
        assert j.wait(90) == 0, j.stderr
        assert h.wait(90) == 0, h.stderr
    finally:
        h.kill()
        j.kill()
    result = h.result()
    assert j.result() == result
    assert "Traceback" not in h.stderr + j.stderr
    return result, records


@pytest.mark.parametrize("args", [PRIVATE, ()], ids=["asked", "by default"])
def test_a_match_dealt_privately_over_loopback(tmp_path: Path, args: tuple[str, ...]) -> None:
    result, records = _match(tmp_path, args, args)
    assert result["dealing"] == "private" and result["finished"] is True
    data = [json.loads(path.read_text()) for path in records]
    assert data[0]["net"]["protocol"] == "koikoi-net/4"
    assert data[0]["net"]["dealing"] == "private"
    assert data[0]["deals"] == data[1]["deals"]
    assert all("dealing" in deal for deal in data[0]["deals"])
    for path in records:
        proc = run_koikoi("verify", str(path))
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        assert report["valid"] is True
        assert report["scores"] == result["scores"]
    # Both records together: the same session, the same entries.
    proc = run_koikoi("verify", str(records[0]), str(records[1]))
    assert proc.returncode == 0, proc.stderr


def test_both_sides_seed_play_a_joint_seed_match(tmp_path: Path) -> None:
    """Both said ``--dealing seed``: a version-2 session dealt from the joint seed, as
    released. (One side ``seed`` and the other the default: both refuse,
    tests/test_net_dealing_refusal.py.)"""
    result, records = _match(tmp_path, SEED, SEED)
    assert result["dealing"] == "seed" and result["finished"] is True
    protocol = json.loads(records[0].read_text())["net"]["protocol"]
    assert protocol == "koikoi-net/2"
