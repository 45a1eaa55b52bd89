"""A relay that rewrites the hellos between ``koikoi join`` and ``koikoi host`` (issue 20, item
7): it cannot downgrade the dealing unseen, and the joiner does not blame an older host.

The relay is a TCP forwarder on 127.0.0.1 built on the project's framing: it passes every
frame on, except the one hello it rewrites with :func:`koikoi.net.wire.encode_message`. Both
programs are the real commands, each with its own KOIKOI_HOME. A joiner's private-dealing
hello turned into the released version-2 one makes a new host answer in version 2: the joiner
refuses that answer with a line that names both causes (an older host, or a changed hello);
a hello whose ``deal`` is rewritten keeps its version, but the hellos are the Noise
prologue, so the handshake fails on both sides and no card is dealt.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi.net.wire import FrameDecoder, encode_frame, encode_message, unpack
from tests.test_net_play import host, join

Rewrite = Callable[[dict[str, object]], dict[str, object]]


class HelloRelay:
    """Forwards one connection to ``port``, rewriting the first frame of ``direction``
    (``"joiner"``: the joiner's hello; ``"host"``: the host's answer) with ``rewrite``."""

    def __init__(self, port: int, direction: str, rewrite: Rewrite) -> None:
        self.target = port
        self.direction = direction
        self.rewrite = rewrite
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.rewritten = threading.Event()
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            self.server.settimeout(60)
            inner, _ = self.server.accept()
            outer = socket.create_connection(("127.0.0.1", self.target), timeout=60)
            pipes = [
                threading.Thread(target=self._pipe, args=(inner, outer, "joiner"), daemon=True),
                threading.Thread(target=self._pipe, args=(outer, inner, "host"), daemon=True),
            ]
            for pipe in pipes:
                pipe.start()
            for pipe in pipes:
                pipe.join(90)
        except BaseException as error:  # the test reads it
            self.errors.append(error)

    def _pipe(self, src: socket.socket, dst: socket.socket, sender: str) -> None:
        decoder = FrameDecoder()
        first = sender == self.direction
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                out = b""
                for payload in decoder.feed(data):
                    if first:
                        first = False
                        hello = unpack(payload)
                        assert isinstance(hello, dict) and hello.get("t") == "hello"
                        fields = self.rewrite({k: v for k, v in hello.items() if k != "t"})
                        payload = encode_message("hello", **fields)  # type: ignore[arg-type]
                        self.rewritten.set()
                    out += encode_frame(payload)
                dst.sendall(out)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.server.close()
        self._thread.join(10)


def as_version_2(hello: dict[str, object]) -> dict[str, object]:
    """The released version-2 hello: ``v`` 2, no ``deal``."""
    return {**{k: v for k, v in hello.items() if k != "deal"}, "v": 2}


def seed_only(hello: dict[str, object]) -> dict[str, object]:
    """The same version, but only the joint seed offered."""
    return {**hello, "deal": ["seed"]}


def as_version_3(hello: dict[str, object]) -> dict[str, object]:
    """A hello of the retired version 3 (same keys as version 4)."""
    return {**hello, "v": 3}


def run(
    tmp_path: Path, direction: str, rewrite: Rewrite, host_err: list[str] | None = None
) -> tuple[str, dict[str, object]]:
    """``koikoi host`` and ``koikoi join`` through the relay: the joiner's stderr and JSON
    (and the host's stderr into ``host_err``)."""
    h, port = host(tmp_path, "--bot", "random", "--timeout", "20")
    relay = HelloRelay(port, direction, rewrite)
    j = join(tmp_path, relay.port, "--bot", "random", "--timeout", "20")
    try:
        joined = j.wait(60)
        h.kill()  # the host waits for its next joiner: not for this test
        h.wait(20)
        if host_err is not None:
            host_err.append(h.stderr)
        assert joined != 0, j.stderr
        assert relay.rewritten.is_set() and relay.errors == []
        return j.stderr, j.result()
    finally:
        h.kill()
        j.kill()
        relay.close()


@pytest.mark.parametrize("direction", ["joiner", "host"])
def test_a_hello_turned_into_version_2_is_not_blamed_on_an_older_host(
    direction: str, tmp_path: Path
) -> None:
    """Either hello rewritten as the released version-2 one: the joiner gets a version-2
    answer to its version-4 hello, and says it may be the path, not only an older host."""
    stderr, result = run(tmp_path, direction, as_version_2)
    assert (
        "the host answered in koikoi-net/2, this koikoi speaks koikoi-net/4: its koikoi is "
        "older, or something on the path changed the hello" in stderr
    ), stderr
    assert "needs to update" not in stderr
    assert "Traceback" not in stderr
    assert result["ended"] == "refused" and result["rounds"] == []


@pytest.mark.parametrize("direction", ["joiner", "host"])
def test_a_rewritten_dealing_offer_fails_the_handshake(direction: str, tmp_path: Path) -> None:
    """``deal`` rewritten to the joint seed only, the version kept: the two sides' prologues
    differ, the handshake fails, and nothing is dealt (no silent downgrade)."""
    stderr, result = run(tmp_path, direction, seed_only)
    assert "tampered handshake" in stderr, stderr
    assert "Traceback" not in stderr
    assert result["ended"] == "refused" and result["rounds"] == []
    assert "coin toss" not in stderr and "the four cards" not in stderr


@pytest.mark.parametrize("direction", ["joiner", "host"])
def test_a_version_3_hello_gets_the_update_line(direction: str, tmp_path: Path) -> None:
    """Version 3 is retired: a hello of it (here the relay's, as a released version-3
    program would send) is told, by the real commands, that its koikoi must update."""
    host_err: list[str] = []
    stderr, result = run(tmp_path, direction, as_version_3, host_err)
    line = (
        "the peer speaks koikoi-net/3, this koikoi speaks koikoi-net/4: the peer's koikoi is "
        "older, it needs to update koikoi"
    )
    said = host_err[0] if direction == "joiner" else stderr
    assert line in said, said
    assert result["ended"] == "refused" and result["rounds"] == []
    assert "Traceback" not in stderr + host_err[0]
