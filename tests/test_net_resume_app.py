"""Resume in the app's network layer (koikoi/ui/net/netlink/): a QtRoom and a QtJoin whose
connection the kernel destroys mid-match (``ss -K``, as a reset would) go on over a new one;
the joiner dials again, the room takes its peer back, both records end the same.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.engine.events import MatchEnded
from koikoi.net.session.events import MovePlayed, TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.main_window import MainWindow
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests.test_ui_netlink import Seat, check_records, close_room, open_room, options
from tests.test_ui_network import mid_round, open_window
from tests.test_ui_network import options as net_options
from tests.ui_driver import actions_so_far, close_window, play_windows_by_clicks

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
        # not at the match's last move (a random match can end at 30): nothing to resume there
        over = any(isinstance(e, MatchEnded) for e in event.events)
        if event.seq in (6, 30) and event.seq not in cuts and not over:
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


class WindowPair:
    """Two windows in one network match, as tests/test_ui_network.py's Pair, resumable."""

    def __init__(self, qtbot: QtBot, tmp_path: Path) -> None:
        self.qtbot = qtbot
        self.host = open_window(qtbot, tmp_path / "hana")
        self.joiner = open_window(qtbot, tmp_path / "taro")
        self.room = QtRoom(resumable(net_options("hana")))
        self.room.listen("127.0.0.1", 0)
        self.join = QtJoin(resumable(net_options("taro")))
        self.room.tossed.connect(self._host_tossed)
        self.join.tossed.connect(self._joiner_tossed)
        self.join.connect_to("127.0.0.1", self.room.port)
        qtbot.waitUntil(
            lambda: (
                self.host.controller.remote is not None
                and self.joiner.controller.remote is not None
            ),
            timeout=20_000,
        )

    def _host_tossed(self, toss: TossDone) -> None:
        link = self.room.match
        assert link is not None and link.peer is not None
        self.host.start_network_match(self.room, link.peer, toss)

    def _joiner_tossed(self, toss: TossDone) -> None:
        assert self.join.peer is not None
        self.joiner.start_network_match(self.join, self.join.peer, toss)

    @property
    def windows(self) -> list[MainWindow]:
        return [self.host, self.joiner]


def test_the_window_counts_down_while_reconnecting_and_plays_on(
    qtbot: QtBot, tmp_path: Path
) -> None:
    pair = WindowPair(qtbot, tmp_path)
    mid_round(pair, pair.joiner)  # type: ignore[arg-type]
    before = actions_so_far(pair.joiner)
    gone = pair.room.port
    pair.room._server.pauseAccepting()  # the joiner's first redials find nobody
    kill_connections(gone)
    label = pair.joiner.game.reconnecting
    qtbot.waitUntil(label.isVisible, timeout=20_000)
    assert re.fullmatch(r"reconnecting… (1:00|0:5\d)", label.text()), label.text()
    # the only count on the table: no move clock beside it, from the first moment (issue 22)
    assert pair.joiner.controller.clock() is None
    assert not re.search(r"\d:\d\d", pair.joiner.game.prompt.text()), pair.joiner.game.prompt.text()
    first = label.text()
    qtbot.waitUntil(lambda: label.text() != first, timeout=3_000)  # it counts down
    # the room hears of the cut by itself, maybe a moment later than the joiner
    qtbot.waitUntil(pair.host.game.reconnecting.isVisible, timeout=20_000)
    pair.room._server.resumeAccepting()
    qtbot.waitUntil(lambda: not label.isVisible(), timeout=20_000)
    assert not pair.host.game.reconnecting.isVisible()
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(5),
        until=lambda: actions_so_far(pair.joiner) >= before + 6,
    )
    assert pair.joiner.net_message is None and pair.host.net_message is None
    for window in pair.windows:
        close_window(window)
