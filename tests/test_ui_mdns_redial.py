"""The app's joiner finds a room that moved by mDNS and resumes its match there
(docs/protocol.md, "Dialling again").

Real zeroconf bound to 127.0.0.1: ``koikoi host --advertise`` announces a room; the app's
window (offscreen) finds it in its lobby's list, joins it by a double-click, confirms the four
cards and plays by clicks. The host process is killed (SIGKILL) mid-match and started again
from its record on another port, announcing the room again: the window, showing
"reconnecting…", dials the old address in vain, finds the room again by its name and host
identity at its new address, resumes, and the match is played to its end by clicks. Both
records verify and agree.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.net.address import format_address
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.smoke import LOOPBACK, open_window
from tests.conftest import run_koikoi
from tests.net_support import KoikoiProcess, assert_same_deals, spawn
from tests.ui_driver import (
    FAST,
    actions_so_far,
    at_the_cards,
    click,
    close_window,
    double_click_room,
    play_windows_by_clicks,
    room_row,
)


def host(tmp_path: Path, title: str, name: str) -> KoikoiProcess:
    """The room on a port of the system's choosing (read from its output: no other test's
    listener can take it between a pick and the bind)."""
    return spawn(
        tmp_path / "host",
        "host", "--advertise", "--room", title, "--port", "0", "--bind", "127.0.0.1",
        "--name", "hana", "--bot", "normal", "--record", str(tmp_path / "host.json"),
        name=name,
    )  # fmt: skip


def test_the_joiner_finds_the_moved_room_by_mdns_and_resumes(qtbot: QtBot, tmp_path: Path) -> None:
    title = f"Moving {secrets.token_hex(3)}"
    first = host(tmp_path, title, "host")
    again: KoikoiProcess | None = None
    window: MainWindow | None = None
    try:
        first.wait_for("advertising the room", timeout=60)
        window = open_window(tmp_path / "taro", FAST, LOOPBACK)
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        window.show_lobby()
        lobby = window.lobby
        lobby.nickname.setText("taro")
        qtbot.waitUntil(lambda: room_row(lobby, title) >= 0, timeout=30_000)
        double_click_room(lobby, title)
        qtbot.waitUntil(lambda: at_the_cards(lobby), timeout=30_000)
        click(qtbot, lobby.prematch.same_button)
        qtbot.waitUntil(lambda: window.controller.remote is not None, timeout=30_000)
        join = window.link
        assert isinstance(join, QtJoin) and join.room is not None
        assert join.room[1] == title
        resumed: list[int] = []
        join.resumed.connect(resumed.append)
        play_windows_by_clicks(
            qtbot,
            [window],
            random.Random(7),
            until=lambda: actions_so_far(window) >= 6 and window.controller.mode is Mode.PLAY,
        )
        first.proc.kill()  # SIGKILL: the host is gone at once, its room with it
        first.proc.wait(10)
        qtbot.waitUntil(window.game.reconnecting.isVisible, timeout=30_000)
        assert join.is_suspended
        qtbot.wait(1500)  # the window dials the old address meanwhile, and finds nobody
        assert join.is_suspended

        # the host again, from its record, elsewhere: the same room on another port
        again = host(tmp_path, title, "host-again")
        second_port = again.port(timeout=60)
        qtbot.waitUntil(lambda: bool(resumed), timeout=60_000)
        assert not window.game.reconnecting.isVisible()
        assert join.address == format_address("127.0.0.1", second_port)
        assert "resuming the match in" in again.stderr

        play_windows_by_clicks(
            qtbot,
            [window],
            random.Random(9),
            until=lambda: window.controller.mode is Mode.MATCH_OVER,
        )
        assert again.wait(60) == 0, again.stderr
        assert again.result()["finished"] is True and again.result()["resumed"] == 1
        qtbot.waitUntil(lambda: window.net_record is not None, timeout=10_000)
        mine = window.net_record
        assert mine is not None
        done = run_koikoi("verify", str(mine), str(tmp_path / "host.json"))
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["agree"] is True
        records = [json.loads(p.read_text()) for p in (mine, tmp_path / "host.json")]
        assert_same_deals(*records)
    finally:
        for proc in (first, again):
            if proc is not None:
                proc.kill()
        if window is not None:
            window.go_home()
            close_window(window)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and window.lobby.finder.running:
                qtbot.wait(50)


def test_a_crashed_joiner_restarted_finds_the_moved_room_by_mdns(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Both sides go down mid-match: the app's window (deleted at once, as a crash) and the
    host process (killed), which comes back from its record on another port. The app, started
    again on its home, offers the match; its record says which room it was, so it looks the
    room up by mDNS and resumes there, though the address in the record is dead."""
    from tests.test_ui_crash_resume import crash, net_records

    title = f"Moving {secrets.token_hex(3)}"
    first = host(tmp_path, title, "host")
    first_port = first.port(timeout=60)
    again: KoikoiProcess | None = None
    window: MainWindow | None = None
    try:
        first.wait_for("advertising the room", timeout=60)
        crashing = open_window(tmp_path / "taro", FAST, LOOPBACK)
        qtbot.waitExposed(crashing)
        crashing.show_lobby()
        lobby = crashing.lobby
        lobby.nickname.setText("taro")
        qtbot.waitUntil(lambda: room_row(lobby, title) >= 0, timeout=30_000)
        double_click_room(lobby, title)
        qtbot.waitUntil(lambda: at_the_cards(lobby), timeout=30_000)
        click(qtbot, lobby.prematch.same_button)
        qtbot.waitUntil(lambda: crashing.controller.remote is not None, timeout=30_000)
        play_windows_by_clicks(
            qtbot,
            [crashing],
            random.Random(21),
            until=lambda: actions_so_far(crashing) >= 6 and crashing.controller.mode is Mode.PLAY,
        )
        qtbot.wait(300)
        (path,) = net_records(tmp_path / "taro")
        note = json.loads(path.read_text(encoding="utf-8"))["resume"]
        assert note["address"] == format_address("127.0.0.1", first_port)
        assert note["room"]["title"] == title and note["room"]["name"]
        crash(qtbot, crashing)
        first.proc.kill()
        first.proc.wait(10)
        again = host(tmp_path, title, "host-again")
        second_port = again.port(timeout=60)
        again.wait_for("advertising the room", timeout=60)

        window = open_window(tmp_path / "taro", FAST, LOOPBACK)
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        assert window.start.reconnect_button.isVisible()
        click(qtbot, window.start.reconnect_button)
        join = window.link
        assert isinstance(join, QtJoin) and join.room is not None and join.room[1] == title
        qtbot.waitUntil(lambda: window.restored_link is None, timeout=60_000)
        assert join.address == format_address("127.0.0.1", second_port)
        play_windows_by_clicks(
            qtbot,
            [window],
            random.Random(23),
            until=lambda: window.controller.mode is Mode.MATCH_OVER,
        )
        assert again.wait(60) == 0, again.stderr
        assert again.result()["finished"] is True and again.result()["resumed"] == 1
        qtbot.waitUntil(lambda: window.net_record == path, timeout=10_000)
        done = run_koikoi("verify", str(path), str(tmp_path / "host.json"))
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["agree"] is True
    finally:
        for proc in (first, again):
            if proc is not None:
                proc.kill()
        if window is not None:
            window.go_home()
            close_window(window)
