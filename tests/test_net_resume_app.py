"""Resume in the app's network layer (koikoi/ui/netlink.py): a QtRoom and a QtJoin whose
connection the kernel destroys mid-match (``ss -K``, as a reset would) go on over a new one;
the joiner dials again, the room takes its peer back, both records end the same.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.session import MovePlayed
from koikoi.ui.netlink import PeerOptions, QtJoin, QtRoom
from tests.test_ui_netlink import Seat, check_records, close_room, open_room, options

pytestmark = pytest.mark.skipif(shutil.which("ss") is None, reason="ss (iproute2) is missing")


def resumable(opts: PeerOptions, window: float = 60.0) -> PeerOptions:
    return replace(opts, resume_window=window)


def kill_connections(port: int) -> None:
    """Destroy the TCP connections to ``port`` in the kernel: both ends see them break."""
    proc = subprocess.run(
        ["ss", "-K", "dst", "127.0.0.1", "dport", "=", str(port)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr


class Counter:
    def __init__(self) -> None:
        self.suspended: list[float] = []
        self.resumed: list[int] = []


def watch(link: QtRoom | QtJoin) -> Counter:
    counter = Counter()
    link.suspended.connect(counter.suspended.append)
    link.resumed.connect(counter.resumed.append)
    return counter


def test_a_match_in_the_app_resumes_after_the_connection_is_destroyed(qtbot: QtBot) -> None:
    room = open_room(qtbot, resumable(options("hana")))
    host = Seat(room, "random", 1, later=True)
    join = QtJoin(resumable(options("taro")))
    joiner = Seat(join, "random", 2, later=True)
    seen = {"room": watch(room), "join": watch(join)}
    cuts: list[int] = []

    def cut_at(event: MovePlayed) -> None:
        if event.seq in (6, 30) and event.seq not in cuts:
            cuts.append(event.seq)
            kill_connections(room.port)

    room.moved.connect(cut_at)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=90_000)
    assert host.ending is not None and joiner.ending is not None
    assert host.ending.finished and joiner.ending.finished, (host.ending, joiner.ending)
    assert cuts and len(seen["join"].resumed) == len(seen["room"].resumed) >= len(cuts)
    assert all(0 < left <= 60.0 for left in seen["join"].suspended + seen["room"].suspended)
    check_records(host, joiner)
    assert joiner.failure is None
    close_room(qtbot, room)


def test_a_player_who_leaves_is_not_waited_for(qtbot: QtBot) -> None:
    room = open_room(qtbot, resumable(options("hana"), window=1.5))
    host = Seat(room, "random", 1, later=True)
    join = QtJoin(resumable(options("taro"), window=1.5))
    joiner = Seat(join, "random", 2, hold=True)
    seen = watch(room)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: joiner.waiting, timeout=30_000)
    join.leave()  # before the drop: a clean goodbye
    qtbot.waitUntil(lambda: host.ending is not None, timeout=10_000)
    assert host.ending is not None and host.ending.how == "left"
    assert not seen.suspended
    close_room(qtbot, room)


def test_the_window_runs_out_and_the_match_ends_dropped(qtbot: QtBot) -> None:
    room = open_room(qtbot, resumable(options("hana"), window=1.5))
    host = Seat(room, "random", 1, hold=True)
    join = QtJoin(resumable(options("taro"), window=1.5))
    joiner = Seat(join, "random", 2, hold=True)
    seen = watch(room)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.tossed is not None and joiner.tossed is not None, timeout=30_000)
    port = room.port
    room._server.close()  # nobody can dial in again: the joiner's redials fail
    kill_connections(port)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=20_000)
    assert host.ending is not None and joiner.ending is not None
    assert seen.suspended
    assert host.ending.how == "dropped" and joiner.ending.how == "dropped"
    assert "not resumed in time" in host.ending.reason
    close_room(qtbot, room)
