"""``koikoi host`` whose record cannot be saved anywhere plays its match to the end and says
so in one line on stderr: the match goes on, without crash recovery (koikoi/net/policy.py).
The asyncio transport used to let the failed write end the match."""

from __future__ import annotations

from pathlib import Path

from koikoi.paths import games_dir
from tests.test_net_play import host, join


def test_a_host_that_cannot_save_its_record_plays_on_and_says_it_once(tmp_path: Path) -> None:
    blocked = games_dir(tmp_path / "host")
    blocked.parent.mkdir(parents=True)
    blocked.write_text("a file where the games folder should be\n")
    h, port = host(tmp_path, "--bot", "random", "--dealing", "seed")
    j = join(tmp_path, port, "--bot", "random", "--dealing", "seed")
    try:
        assert j.wait(60) == 0, j.stderr
        assert h.wait(60) == 0, h.stderr
    finally:
        h.kill()
        j.kill()
    assert h.result()["finished"] is True and h.result() == j.result()
    lines = [line for line in h.stderr.splitlines() if "cannot save the record" in line]
    assert len(lines) == 1, h.stderr
    assert str(blocked) in lines[0] and "the match goes on without crash recovery" in lines[0]
    assert "Traceback" not in h.stderr
    assert "cannot save" not in j.stderr
