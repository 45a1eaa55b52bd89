"""Finding 10: a connection flood against ``koikoi host`` run with ``ulimit -n 256``.

The host runs out of file descriptors; it pauses accepting, quietly (no asyncio traceback),
resumes when descriptors free up, and a good joiner still plays its match afterwards.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import sys
import time
from pathlib import Path

from tests.net_support import spawn

LIMIT = 256
FLOOD = 600
RLIMITED = (
    sys.executable,
    "-c",
    "import os, resource, sys; "
    f"resource.setrlimit(resource.RLIMIT_NOFILE, ({LIMIT}, {LIMIT})); "
    "os.execv(sys.argv[1], sys.argv[1:])",
)


def test_a_connection_flood_under_ulimit_256_is_quiet_and_a_joiner_still_plays(
    tmp_path: Path,
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < FLOOD + 64 and hard >= FLOOD + 64:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FLOOD + 64, hard))
    host = spawn(
        tmp_path / "host",
        "host", "--port", "0", "--bind", "127.0.0.1", "--name", "hana", "--bot", "random",
        prefix=RLIMITED,
    )  # fmt: skip
    flood: list[socket.socket] = []
    joiner = None
    try:
        port = host.port()
        # Open far more connections than the host has descriptors, and hold them.
        for _ in range(FLOOD):
            sock = socket.socket()
            sock.settimeout(0.5)
            try:
                sock.connect(("127.0.0.1", port))
            except OSError:
                sock.close()
                continue
            flood.append(sock)
        time.sleep(3.0)  # the host meets EMFILE over and over meanwhile
        assert host.proc.poll() is None, host.stderr
        for sock in flood:
            with contextlib.suppress(OSError):
                sock.close()
        flood.clear()
        joiner = spawn(
            tmp_path / "joiner", "join", f"127.0.0.1:{port}", "--name", "taro", "--bot", "random"
        )
        assert joiner.wait(90) == 0, joiner.stderr
        assert host.wait(30) == 0, host.stderr
        assert host.result()["finished"] is True
        assert "Traceback" not in host.stderr, host.stderr[-3000:]
        assert "Too many open files" not in host.stderr, host.stderr[-3000:]
    finally:
        for sock in flood:
            sock.close()
        host.kill()
        if joiner is not None:
            joiner.kill()
