"""The real ``koikoi host`` against a joiner that cheats with its last seed (issue 20, 2),
and one that walks away from the first deal at move 0 (issue 20, 6).

The joiner is built on the project's own modules (a real :class:`Connection` over a real
socket on 127.0.0.1, dealing privately); its client is honest until the match's last move,
then it withholds its seed while pinging along, sends a wrong one, says ``bye quit`` or ``bye
finished`` instead, or drops the connection. The host exits 0 with the moves' result and
``audit`` naming seat 1, and ``koikoi verify`` of the record it wrote agrees.
"""

from __future__ import annotations

import json
import random
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection
from koikoi.net.identity import PEERS_FILE, Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.wire import encode_message, unpack
from tests.conftest import run_koikoi
from tests.test_net_play import host, join

SILENCE = 4.0
"""The host's silence timeout (``--timeout``): also how long it waits for the last seed."""


class Mallory:
    """A joiner on a real socket: honest play by random moves; ``behaviour`` at the end."""

    def __init__(
        self, port: int, behaviour: str, seed: int, sock: socket.socket | None = None
    ) -> None:
        self.behaviour = behaviour
        role = Role.JOINER if sock is None else Role.HOST
        self.sock = sock or socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.settimeout(0.1)
        self.conn = Connection(
            role,
            identity=Identity.generate(),
            nickname="mallory",
            settings=Settings(),
            password="",
            known_peers=KnownPeers(None),
            now=time.monotonic(),
            silence_timeout=30.0,
            dealings=("private",),
        )
        self.rng = random.Random(seed)
        self.fired = False
        self.first_deal = False
        self._real_send: Any = None

    def _patch(self) -> None:
        session = self.conn.session
        assert session is not None
        real = self._real_send = session._send

        def send(message: bytes) -> None:
            lockstep = session.lockstep
            over = lockstep is not None and lockstep.match.finished
            if over and not self.fired and unpack(message)["t"] == "seed":  # type: ignore[index,call-overload]
                self.fired = True
                if self.behaviour == "wrong":
                    real(encode_message("seed", s=bytes(32)))
                elif self.behaviour in ("quit", "finished"):
                    real(encode_message("bye", reason=self.behaviour))
                return
            if self.fired and self.behaviour != "wrong":
                return  # its client says nothing more
            real(message)

        session._send = send  # type: ignore[method-assign]

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def _read(self) -> bool:
        """Read what came (False: the host closed)."""
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return True
        except OSError:
            return False
        if not data:
            return False
        self.conn.receive_data(data, time.monotonic())
        # this side's ``hand`` of the first deal went: the host knows it has seen its cards
        # (the toss's end alone is a moment before that)
        private = None if self.conn.session is None else self.conn.session._private
        self.first_deal = self.first_deal or (private is not None and private.seen(True))
        return True

    def play(self, until: str = "the end") -> None:
        """Play until the last move (and the behaviour fired), or the first deal."""
        self.conn.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.conn.session is not None and self._real_send is None:
                self._patch()
            while self.conn.local_turn is not None and until == "the end":
                self.conn.play(
                    self.rng.choice(self.conn.local_turn.legal_actions), time.monotonic()
                )
            self._flush()
            if self.fired or (until == "the first deal" and self.first_deal):
                return
            assert self._read(), "the host closed before the match was over"
            self.conn.tick(time.monotonic())
        raise AssertionError("the match did not reach its end")

    def misbehave(self) -> None:
        """After the last move: what ``behaviour`` says, until the host hangs up."""
        if self.behaviour in ("quit", "finished", "drop"):
            self.sock.close()
            return
        deadline = time.monotonic() + 60
        last_ping = 0.0
        while time.monotonic() < deadline:
            if self.behaviour == "withhold" and time.monotonic() - last_ping >= 1.0:
                self._real_send(encode_message("ping"))  # alive, pinging, and no seed
                last_ping = time.monotonic()
            try:
                self._flush()
            except OSError:
                break
            if not self._read():
                break
        self.sock.close()

    @property
    def match(self) -> Any:
        session = self.conn.session
        assert session is not None and session.lockstep is not None
        return session.lockstep.match


BEHAVIOURS = {
    "withhold": "refused",
    "wrong": "cheat",
    "quit": "refused",
    "finished": "refused",
    "drop": "refused",
}


@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
def test_koikoi_host_keeps_a_finished_result_whatever_the_last_seed(
    tmp_path: Path, behaviour: str
) -> None:
    record = tmp_path / "host.json"
    args = ("--bot", "greedy", "--record", str(record), "--timeout", f"{SILENCE:g}")
    h, port = host(tmp_path, *args, "--resume-window", "2")
    try:
        mallory = Mallory(port, behaviour, seed=5)
        mallory.play()
        over = time.monotonic()
        mallory.misbehave()
        assert h.wait(60) == 0, h.stderr
        waited = time.monotonic() - over
    finally:
        h.kill()
    result = h.result()
    assert "Traceback" not in h.stderr
    assert result["finished"] is True and "ended" not in result, result
    assert result["winner"] == mallory.match.winner
    assert result["scores"] == list(mallory.match.scores)
    assert result["dealing"] == "private"
    assert result["audit"] == BEHAVIOURS[behaviour] and result["audit_by"] == 1, result
    said = "its last audit " + ("caught a cheat" if behaviour == "wrong" else "was refused")
    assert f"{said}: the joiner " in h.stderr
    print(f"\nkoikoi host exited {waited:.1f} s after the last move ({behaviour})")
    if behaviour == "withhold":  # bounded by the wait for the seed, not by the pings
        assert SILENCE - 0.5 <= waited <= SILENCE + 10, waited
    data = json.loads(record.read_text())
    assert data["end"]["finished"] is True
    assert data["end"]["audit"]["result"] == BEHAVIOURS[behaviour]
    assert data["end"]["audit"]["by"] == 1
    proc = run_koikoi("verify", str(record))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["finished"] is True
    assert report["winner"] == result["winner"] and report["scores"] == result["scores"]
    assert report["proven"]["audit"]["result"] == "unaudited"
    assert report["proven"]["audit"]["missing"] == [1]
    assert report["claims"]["end"]["audit"]["by"] == 1


def test_koikoi_host_flags_and_counts_a_joiner_that_quits_at_move_0(tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    h, port = host(tmp_path, "--bot", "greedy", "--record", str(record))
    try:
        mallory = Mallory(port, "quit", seed=6)
        mallory.play(until="the first deal")  # its hand is open: it has seen it
        mallory.conn.leave(time.monotonic(), "not this hand")
        mallory._flush()
        mallory.sock.close()
        assert h.wait(60) == 1, h.stderr
    finally:
        h.kill()
    result = h.result()
    assert result["ended"] == "left" and result["finished"] is False
    assert result["end"]["suspicious"] is True and result["end"]["stage"] == "play"
    first = result["rounds"][0]["result"] if result["rounds"] else "in_progress"
    print(f"\nthe first deal: {first}")
    if first in ("teyaku", "redeal"):
        # the first deal was over as it was dealt (R8, R4.5; about one deal in 30): it had
        # no move to await, so no deal was abandoned, but the toss was, its outcome seen
        # before the match's first move (docs/protocol.md, "Toss aborts", "Deal aborts")
        assert "abandoning a deal" not in result["end"]["reason"], result
    else:
        assert first == "in_progress", result["rounds"]
        assert "abandoning a deal after seeing its cards" in result["end"]["reason"]
    assert "abandoned a deal after seeing its cards: counted in its pin" in h.stderr
    assert json.loads(record.read_text())["end"]["suspicious"] is True
    peers = KnownPeers(tmp_path / "host" / "identity" / PEERS_FILE)
    session = mallory.conn.session
    assert session is not None
    assert peers.toss_aborts("mallory", session.identity.public_key) == 1


@pytest.mark.parametrize("behaviour", ["withhold", "drop"])
def test_koikoi_join_keeps_a_finished_result_against_a_host_keeping_its_last_seed(
    tmp_path: Path, behaviour: str
) -> None:
    """The same from the other seat: mallory hosts, the real ``koikoi join`` plays."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    record = tmp_path / "joiner.json"
    args = ("--bot", "greedy", "--record", str(record), "--timeout", f"{SILENCE:g}")
    j = join(tmp_path, port, *args, "--resume-window", "2")
    try:
        server.settimeout(30)
        sock, _ = server.accept()
        mallory = Mallory(port, behaviour, seed=8, sock=sock)
        mallory.play()
        mallory.misbehave()
        assert j.wait(60) == 0, j.stderr
    finally:
        server.close()
        j.kill()
    result = j.result()
    assert result["finished"] is True and "ended" not in result, result
    assert result["winner"] == mallory.match.winner
    assert result["scores"] == list(mallory.match.scores)
    assert result["audit"] == "refused" and result["audit_by"] == 0, result
    proc = run_koikoi("verify", str(record))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["finished"] is True and report["scores"] == result["scores"]
    assert report["proven"]["audit"]["missing"] == [0]
