"""``koikoi join`` against a host that abandons the toss once it knows the outcome, and one
that honestly says the four cards differ.

The host is built on the project's own modules (a real :class:`Connection` over a real socket
on 127.0.0.1, its identity kept from one connection to the next); the joiner is the real
``koikoi join`` command, a new process each time, with its own KOIKOI_HOME. In version 4 the
host knows the outcome once the joiner's ``toss`` (tB) is in, after both confirmed the cards:
each time it then closes instead of answering. The command flags it in the record and counts
it in the host's pin; the count survives the process, and the next ``koikoi join`` warns of it
right after the handshake. A host whose player says "They differ" while the cards are compared
(before anyone can know the outcome) is counted by nobody.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from tests.net_support import spawn


class AbandoningHost:
    """Listens on 127.0.0.1; each connection: handshake, commitment, read the answer, close."""

    def __init__(self, differ: bool = False) -> None:
        self.differ = differ
        """Say the four cards differ once they are drawn (else abandon after the outcome)."""
        self.identity = Identity.generate()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.served = 0
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            while True:
                try:
                    sock, _ = self.server.accept()
                except OSError:  # closed by the test
                    return
                with sock:
                    self._one(sock)
                self.served += 1
        except BaseException as error:  # the test reads it
            self.errors.append(error)

    def _one(self, sock: socket.socket) -> None:
        conn = Connection(
            Role.HOST,
            identity=self.identity,
            nickname="hana",
            settings=Settings(),
            password="",
            known_peers=KnownPeers(None),
            now=time.monotonic(),
            dealings=("private", "seed"),
            hold_for_confirmation=self.differ,
        )
        sock.settimeout(20)
        while True:
            data = sock.recv(65536)
            if not data:
                return
            conn.receive_data(data, time.monotonic())
            session = conn.session
            if self.differ and session is not None and session.cards is not None:
                conn.confirm(time.monotonic(), same=False)  # its player saw other cards
                sock.sendall(conn.data_to_send())
                return
            if session is not None and session.toss.result is not None:
                return  # tB is in: the outcome is known here; close, answer nothing
            sock.sendall(conn.data_to_send())

    def close(self) -> None:
        self.server.close()
        self._thread.join(5)


def test_koikoi_join_flags_and_counts_a_host_that_abandons_the_toss(tmp_path: Path) -> None:
    host = AbandoningHost()
    home = tmp_path / "taro"
    try:
        for count in (1, 2):
            proc = spawn(
                home, "join", f"127.0.0.1:{host.port}", "--name", "taro", "--bot", "random",
                "--dealing", "seed",  # the abandoning host deals from the seed
            )  # fmt: skip
            assert proc.wait(60) != 0, proc.stderr
            result = proc.result()
            assert result["ended"] == "dropped"
            ended = result["end"]
            assert isinstance(ended, dict)
            assert ended["suspicious"] is True and ended["stage"] == "toss", ended
            assert ended["role"] == "host" and ended["how"] == "dropped"
            tosses = "toss" if count == 1 else "tosses"
            assert (
                f"'hana' has abandoned {count} {tosses} after seeing the result "
                "(counted in its pin)" in proc.stderr
            ), proc.stderr
            assert "Traceback" not in proc.stderr
            pins = json.loads((home / "identity" / "known_peers.json").read_text())
            assert pins["peers"]["hana"]["toss_aborts"] == count
        # The third time the count is said before the toss (and counted once more after it).
        proc = spawn(
            home, "join", f"127.0.0.1:{host.port}", "--name", "taro", "--bot", "random",
            "--dealing", "seed",
        )  # fmt: skip
        assert proc.wait(60) != 0, proc.stderr
        warning = "koikoi: WARNING: 'hana' abandoned 2 tosses after seeing the result"
        lines = proc.stderr.splitlines()
        assert warning in lines, proc.stderr
        assert lines.index(warning) < next(
            i for i, line in enumerate(lines) if "has abandoned 3 tosses" in line
        )
        assert host.errors == []
    finally:
        host.close()


def test_koikoi_join_counts_nobody_for_an_honest_they_differ(tmp_path: Path) -> None:
    host = AbandoningHost(differ=True)
    home = tmp_path / "taro"
    try:
        for _ in range(2):
            proc = spawn(
                home, "join", f"127.0.0.1:{host.port}", "--name", "taro", "--bot", "random"
            )
            assert proc.wait(60) != 0, proc.stderr
            result = proc.result()
            ended = result["end"]
            assert isinstance(ended, dict)
            assert ended["how"] == "cards" and ended["role"] == "host", ended
            assert "suspicious" not in ended and ended["stage"] == "toss"
            assert "the other player saw different cards" in proc.stderr, proc.stderr
            assert "abandon" not in proc.stderr and "Traceback" not in proc.stderr
            pins = json.loads((home / "identity" / "known_peers.json").read_text())
            assert "toss_aborts" not in pins["peers"]["hana"]
        assert host.errors == []
    finally:
        host.close()
