"""Finding 8: ``koikoi host`` writes its record after every entry, so SIGHUP (the terminal
closed), SIGTERM or even SIGKILL in the middle of a match loses nothing; on SIGHUP and
SIGTERM it also says goodbye. Real processes, a joiner built on the project's modules."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from collections.abc import Sequence
from pathlib import Path

import pytest

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.connection import ConnectionEvent
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session.events import MovePlayed
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from tests.conftest import run_koikoi
from tests.net_support import KoikoiProcess, spawn


class SlowBot:
    """Takes a fifth of a second over each move, so the match is still on when signalled."""

    def __init__(self) -> None:
        self.rng = random.Random(3)

    async def choose(self, observation: Observation) -> Action:
        await asyncio.sleep(0.2)
        return self.rng.choice(observation.legal_actions)

    def notify(self, events: Sequence[Event]) -> None:
        pass

    def cancel(self) -> None:
        pass


def _moves(record: Path) -> int:
    data = json.loads(record.read_text(encoding="utf-8"))
    return sum(len(deal["actions"]) for deal in data["deals"])


def _signal_mid_match(
    tmp_path: Path, sig: signal.Signals
) -> tuple[KoikoiProcess, Outcome, Path, int]:
    record = tmp_path / "host-record.json"
    host = spawn(
        tmp_path / "host",
        "host", "--port", "0", "--bind", "127.0.0.1", "--name", "hana", "--bot", "random",
        "--record", str(record), "--dealing", "seed",  # the in-process joiner's offer
    )  # fmt: skip
    port = host.port()
    seen_on_disk: list[int] = []
    host_moves: list[int] = []

    async def main() -> Outcome:
        def on_event(event: ConnectionEvent, now: float) -> None:
            if isinstance(event, MovePlayed) and event.seat == Role.HOST.seat:
                host_moves.append(event.seq)
                if len(host_moves) == 4:
                    # The host wrote each entry before sending its move: at least every
                    # entry up to this one is on its disk already, before any signal.
                    seen_on_disk.append(_moves(record))
                    host.proc.send_signal(sig)

        options = PeerOptions(
            identity=Identity.generate(),
            nickname="taro",
            settings=Settings(),
            known_peers=KnownPeers(None),
            silence_timeout=5.0,
        )
        return await join("127.0.0.1", port, options, SlowBot(), on_event=on_event)

    try:
        joined = asyncio.run(main())
        host.wait(30)
    finally:
        host.kill()
    assert seen_on_disk and seen_on_disk[0] >= host_moves[3] + 1, (seen_on_disk, host_moves)
    return host, joined, record, seen_on_disk[0]


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_a_hangup_or_terminate_mid_match_saves_the_record_and_says_goodbye(
    tmp_path: Path, sig: signal.Signals
) -> None:
    host, joined, record, _ = _signal_mid_match(tmp_path, sig)
    assert host.proc.returncode == 1, host.stderr  # the match ended early
    assert "Traceback" not in host.stderr
    # The joiner was told: the host left (not a dropped connection).
    ending = joined.session.ending  # type: ignore[union-attr]
    assert ending is not None and ending.how == "left" and ending.by is Role.HOST, ending
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["end"]["how"] == "left" and data["end"]["finished"] is False
    proc = run_koikoi("verify", str(record))
    assert json.loads(proc.stdout)["valid"] is True, proc.stderr


def test_a_killed_host_has_its_record_on_disk_up_to_the_last_entry(tmp_path: Path) -> None:
    host, _, record, moves = _signal_mid_match(tmp_path, signal.SIGKILL)
    assert host.proc.returncode == -signal.SIGKILL
    # Nothing ran at the kill: what is on disk was written entry by entry.
    assert _moves(record) >= moves >= 4
    assert json.loads(record.read_text(encoding="utf-8"))["deals"]
