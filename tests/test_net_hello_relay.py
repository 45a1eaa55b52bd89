"""A relay that rewrites the hellos between ``koikoi join`` and ``koikoi host`` (issue 20, item
7): it cannot downgrade the dealing unseen, and the joiner does not blame an older host.

The relay is a TCP forwarder on 127.0.0.1 built on the project's framing: it passes every
frame on, except the one hello it rewrites with :func:`koikoi.net.wire.encode_message`. Both
programs are the real commands, each with its own KOIKOI_HOME. A joiner's private-dealing
hello turned into the released version-2 one, or an offer rewritten to the joint seed only,
is refused as a dealing by the side that reads it (both deal privately only by default): the
joiner answered in version 2 names both causes (an older host, or a changed hello), and no
card is dealt. Where both sides allow the seed, a rewritten offer makes the two prologues
differ, and the Noise handshake fails.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi.net.hello import WITH_SEED
from koikoi.net.roles import Role
from koikoi.net.wire import FrameDecoder, encode_frame, encode_message, unpack
from tests.test_net_dealing_negotiation import _side
from tests.test_net_handshake import run as handshake_run
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
    """The released version-2 hello: ``v`` 2, no ``deal`` and no ``clock``."""
    return {**{k: v for k, v in hello.items() if k not in ("deal", "clock")}, "v": 2}


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


REFUSED = "offers only joint-seed dealing"
"""The refusal of a side that deals privately only (``dealing_refused_text``)."""


@pytest.mark.parametrize("direction", ["joiner", "host"])
def test_a_hello_turned_into_version_2_is_not_blamed_on_an_older_host(
    direction: str, tmp_path: Path
) -> None:
    """Either hello rewritten as the released version-2 one. Both sides deal privately only
    (the default), so whichever side reads the version-2 hello refuses it as a dealing, and
    nothing is dealt. The joiner answered in version 2 says it may be the path, not only an
    older host; the joiner whose own hello was rewritten meets a host that refused it and
    closed (the host says why)."""
    host_err: list[str] = []
    stderr, result = run(tmp_path, direction, as_version_2, host_err)
    if direction == "host":
        assert REFUSED + " (it speaks koikoi-net/2)" in stderr, stderr
        assert "something on the path changed the hello" in stderr, stderr
    else:
        assert REFUSED + " (it speaks koikoi-net/2)" in host_err[0], host_err[0]
        assert "closed the connection during the handshake" in stderr, stderr
    assert "needs to update" not in stderr
    assert "Traceback" not in stderr + host_err[0]
    assert result["ended"] == "refused" and result["rounds"] == []
    assert "coin toss" not in stderr and "the four cards" not in stderr


@pytest.mark.parametrize("direction", ["joiner", "host"])
def test_a_rewritten_dealing_offer_is_refused_and_nothing_is_dealt(
    direction: str, tmp_path: Path
) -> None:
    """``deal`` rewritten to the joint seed only, the version kept: the side that reads the
    seed-only offer refuses it (it deals privately only), and nothing is dealt (no silent
    downgrade). Were both to allow the seed, the two prologues would differ and the Noise
    handshake would fail (``test_a_rewritten_offer_fails_the_handshake_where_both_allow_it``)."""
    host_err: list[str] = []
    stderr, result = run(tmp_path, direction, seed_only, host_err)
    refusing = stderr if direction == "host" else host_err[0]
    assert REFUSED in refusing, refusing
    assert "Traceback" not in stderr + host_err[0]
    assert result["ended"] == "refused" and result["rounds"] == []
    assert "coin toss" not in stderr and "the four cards" not in stderr


def strip_private(hello: dict[str, object]) -> dict[str, object]:
    """The same version, private dealing struck from an offer of both."""
    return {**hello, "deal": ["seed"]} if hello.get("deal") == ["private", "seed"] else hello


def test_a_rewritten_offer_fails_the_handshake_where_both_allow_it() -> None:
    """Both sides allow the seed (an offer of both, which the app makes when its player ticks
    the option): a relay that strikes "private" from the joiner's offer would steer the match
    to the joint seed; the hellos are the Noise prologue, so the handshake fails instead, on
    both sides, and neither establishes a session (the handshake's own state machines, with
    the rewrite as the tamper of the frame the host reads first)."""

    def tamper(index: int, to: Role, payload: bytes) -> bytes | None:
        if index != 0:
            return payload
        value = unpack(payload)
        assert isinstance(value, dict) and value.get("deal") == list(WITH_SEED)
        return encode_message("hello", **strip_private(value))  # type: ignore[arg-type]

    outcome = handshake_run(_side(Role.HOST, WITH_SEED), _side(Role.JOINER, WITH_SEED), tamper)
    errors = [outcome.host_error, outcome.joiner_error]
    assert any("tampered handshake" in str(error) for error in errors), errors
    assert all(error is not None for error in errors), errors


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
