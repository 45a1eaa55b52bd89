"""Two real app processes play each other, each played by clicks (``tests/app_player.py``).

Each process is the app's own window (offscreen) with its own ``KOIKOI_HOME`` — its own
identity, settings and games. The host opens a room from the lobby; the joiner finds it in
the lobby's list (mDNS) or types its address; both see and confirm the same four cards,
agree on the toss and click through a whole 6-round match with the UI tests' instant
timings. Both signed records pass ``koikoi verify`` and ``koikoi replay`` tells the same
story from either.

On loopback, discovery is bound to 127.0.0.1 (``KOIKOI_MDNS_BIND``). Across two network
namespaces joined by a veth pair (as root; skipped with the reason otherwise) discovery runs
with its default, every interface; nothing is sent anywhere but loopback and the namespaces
the test makes and removes.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, run_koikoi
from tests.net_support import KoikoiProcess
from tests.test_net_netns import (  # noqa: F401  (the fixture that makes the namespaces)
    HOST_ADDRESS,
    JOINER_ADDRESS,
    Namespaces,
    _skip_reason,
    namespaces,
)

PLAYER = REPO / "tests" / "app_player.py"
RUN_LIMIT = 150.0
"""Seconds a player may take, from its start to the match result (about 10 s here)."""


def start_player(
    home: Path,
    *args: str,
    prefix: Sequence[str] = (),
    bind: str | None = "127.0.0.1",
) -> KoikoiProcess:
    """``python tests/app_player.py ARGS`` with its own KOIKOI_HOME, its output in files.
    ``bind`` limits discovery to one address (None: the default, every interface)."""
    home.mkdir(parents=True, exist_ok=True)
    role = args[args.index("--role") + 1]
    env = dict(os.environ, KOIKOI_HOME=str(home), PYTHONUNBUFFERED="1", QT_QPA_PLATFORM="offscreen")
    env.pop("KOIKOI_MDNS_BIND", None)
    if bind is not None:
        env["KOIKOI_MDNS_BIND"] = bind
    out, err = home / f"{role}.out", home / f"{role}.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [*prefix, sys.executable, str(PLAYER), *args, "--timeout", str(RUN_LIMIT - 20)],
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            cwd=REPO,
            env=env,
        )
    return KoikoiProcess(proc, out, err)


def play(
    tmp_path: Path,
    *,
    by_address: bool,
    host_prefix: Sequence[str] = (),
    joiner_prefix: Sequence[str] = (),
    bind: str | None = "127.0.0.1",
    address: str = "127.0.0.1",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A host and a joiner play a whole match; what each printed."""
    title = f"Hanami {secrets.token_hex(3)}"  # unique: parallel runs never join each other
    host = start_player(
        tmp_path / "hana", "--role", "host", "--room", title, "--seed", "1",
        prefix=host_prefix, bind=bind,
    )  # fmt: skip
    try:
        joining = ["--room", title]
        if by_address:
            joining = ["--address", f"{address}:{host.port(60)}"]
        joiner = start_player(
            tmp_path / "taro", "--role", "join", *joining, "--seed", "2",
            prefix=joiner_prefix, bind=bind,
        )  # fmt: skip
        try:
            codes = joiner.wait(RUN_LIMIT), host.wait(RUN_LIMIT)
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert codes == (0, 0), f"host:\n{host.stderr[-3000:]}\njoiner:\n{joiner.stderr[-3000:]}"
    for player in (host, joiner):
        assert "Traceback" not in player.stderr, player.stderr
        assert len(player.stdout.splitlines()) == 1, player.stdout
    if not by_address:
        assert f"the room {title!r} is listed" in joiner.stderr
    return host.result(), joiner.result()


def check_the_match(host: dict[str, Any], joiner: dict[str, Any]) -> None:
    """The same four cards, the same toss, the same scores, and the same story from both
    saved records, which ``koikoi verify`` accepts."""
    assert (host["me"], joiner["me"]) == (0, 1)
    assert (host["peer"], joiner["peer"]) == ("taro", "hana")
    assert len(host["cards"]) == 4 and host["cards"] == joiner["cards"]
    assert host["toss"]["first_oya"] == joiner["toss"]["first_oya"]
    oya = host["toss"]["first_oya"]
    assert host["toss"]["text"].startswith(
        "The toss makes you oya" if oya == 0 else "The toss makes taro oya"
    )
    assert joiner["toss"]["text"].startswith(
        "The toss makes you oya" if oya == 1 else "The toss makes hana oya"
    )
    assert host["scores"] == joiner["scores"] and sum(host["scores"]) == 50
    stories = []
    for result, seat in ((host, 0), (joiner, 1)):
        path = Path(result["record"])
        assert path.name.startswith("net-") and path.name.endswith(f"-seat{seat}.json")
        verified = run_koikoi("verify", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        report = json.loads(verified.stdout)
        assert report["valid"] is True and report["finished"] is True
        assert [p["nick"] for p in report["players"]] == ["hana", "taro"]
        replayed = run_koikoi("replay", str(path))
        assert replayed.returncode == 0, replayed.stderr
        stories.append(json.loads(replayed.stdout))
    assert stories[0] == stories[1]
    assert stories[0]["finished"] is True and stories[0]["scores"] == host["scores"]
    # six rounds (redeals listed too), or fewer when a player's points ran out (R2.3)
    assert len(stories[0]["rounds"]) >= 6 or 0 in host["scores"]


def test_two_app_processes_find_each_other_in_the_lobby_and_play_a_whole_match(
    tmp_path: Path,
) -> None:
    host, joiner = play(tmp_path, by_address=False)
    check_the_match(host, joiner)


def test_two_app_processes_play_a_whole_match_joined_by_address(tmp_path: Path) -> None:
    host, joiner = play(tmp_path, by_address=True)
    check_the_match(host, joiner)


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
@pytest.mark.parametrize("by_address", [False, True], ids=["by-the-list", "by-address"])
def test_two_app_processes_in_two_network_namespaces_play_a_whole_match(
    namespaces: Namespaces,  # noqa: F811
    tmp_path: Path,
    by_address: bool,
) -> None:
    """Discovery with its default, every interface, across a veth pair."""
    host, joiner = play(
        tmp_path,
        by_address=by_address,
        host_prefix=("ip", "netns", "exec", namespaces.host),
        joiner_prefix=("ip", "netns", "exec", namespaces.joiner),
        bind=None,
        address=HOST_ADDRESS,
    )
    check_the_match(host, joiner)
    # across the veth pair, not over either namespace's loopback
    assert joiner["address"].startswith(f"{HOST_ADDRESS}:"), joiner["address"]
    assert host["address"].startswith(f"{JOINER_ADDRESS}:"), host["address"]
