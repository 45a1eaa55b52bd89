"""A host app restarted after a crash announces its room again by mDNS (docs/protocol.md, "A
side that crashed"), so a joiner that found it by mDNS finds it again.

Real zeroconf bound to 127.0.0.1, two windows offscreen: hana opens a room in her lobby (it is
announced), taro joins it from his lobby's room list, both confirm the four cards and play by
clicks. hana's window crashes; its record says the room was announced (its service name and
title). hana's app is started again on another port (the record's port made 0, as when the
old one is taken): it announces the same room (same service name and title, the new port,
``playing``) while it waits, taro's window, which dials the old address in vain, finds the
room again by its name, resumes, and both play on. When the match ends (hana leaves), the
announcement is withdrawn. Before, a restored host listened but announced nothing.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.net.address import format_address
from koikoi.net.discovery.browser import RoomBrowser
from koikoi.net.discovery.txt import Room, RoomStatus
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.smoke import LOOPBACK
from tests.test_ui_crash_resume import crash, lobby_window, net_records
from tests.test_ui_lobby import open_room
from tests.ui_driver import (
    actions_so_far,
    at_the_cards,
    click,
    close_window,
    double_click_room,
    play_windows_by_clicks,
    room_row,
)


def listed(browser: RoomBrowser, name: str) -> Room | None:
    return next((room for room in browser.rooms() if room.name == name), None)


def test_a_restored_host_announces_its_room_again_and_the_joiner_finds_it(
    qtbot: QtBot, tmp_path: Path
) -> None:
    title = f"Crash {secrets.token_hex(3)}"
    hana_home, taro_home = tmp_path / "hana", tmp_path / "taro"
    host = lobby_window(qtbot, hana_home, "hana", keep=False)
    joiner = lobby_window(qtbot, taro_home, "taro", keep=True)
    browser = RoomBrowser(bind=LOOPBACK)
    browser.start()
    hana = None
    try:
        open_room(host.lobby, title)
        announcer = host.lobby.announcer
        assert announcer is not None
        qtbot.waitUntil(lambda: room_row(joiner.lobby, title) >= 0, timeout=30_000)
        qtbot.waitUntil(lambda: announcer.state == "published", timeout=30_000)
        name = announcer.advertiser.name
        assert name is not None and name.startswith(title + " #")
        first_port = host.lobby.room.port  # type: ignore[union-attr]
        double_click_room(joiner.lobby, title)
        qtbot.waitUntil(
            lambda: at_the_cards(host.lobby) and at_the_cards(joiner.lobby), timeout=30_000
        )
        click(qtbot, joiner.lobby.prematch.same_button)
        click(qtbot, host.lobby.prematch.same_button)
        windows = [host, joiner]
        qtbot.waitUntil(
            lambda: all(w.controller.remote is not None for w in windows), timeout=15_000
        )
        join = joiner.link
        assert isinstance(join, QtJoin) and join.room is not None and join.room[0] == name
        play_windows_by_clicks(
            qtbot,
            windows,
            random.Random(41),
            until=lambda: actions_so_far(host) >= 4 and host.controller.mode is Mode.PLAY,
        )
        qtbot.wait(300)  # nothing in flight
        played = actions_so_far(host)
        resumed: list[int] = []
        join.resumed.connect(resumed.append)
        crash(qtbot, host)  # its announcement withdrawn too, as a dead process's ends
        qtbot.waitUntil(joiner.game.reconnecting.isVisible, timeout=15_000)
        qtbot.waitUntil(lambda: listed(browser, name) is None, timeout=30_000)

        (path,) = net_records(hana_home)
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record[RESUME_KEY]["room"] == {"name": name, "title": title}
        record[RESUME_KEY]["port"] = 0  # the old port is not to be had: another one
        path.write_text(json.dumps(record), encoding="utf-8")

        hana = lobby_window(qtbot, hana_home, "", keep=True)
        hana.go_home()
        click(qtbot, hana.start.reconnect_button)
        restored = hana.link
        assert isinstance(restored, QtRoom) and restored.port not in (0, first_port)
        # the same room, announced again where it listens now, in play
        qtbot.waitUntil(lambda: listed(browser, name) is not None, timeout=30_000)
        room = listed(browser, name)
        assert room is not None and room.title == title and room.status is RoomStatus.PLAYING
        assert format_address(LOOPBACK, restored.port) in room.addresses
        # taro's window finds it by its name and resumes there
        qtbot.waitUntil(lambda: bool(resumed), timeout=60_000)
        assert join.address == format_address(LOOPBACK, restored.port)
        windows = [hana, joiner]
        qtbot.waitUntil(
            lambda: hana.restored_link is None and not joiner.game.reconnecting.isVisible(),
            timeout=30_000,
        )
        assert actions_so_far(hana) == played
        # a record written now says the same room (a second crash announces it again too)
        play_windows_by_clicks(
            qtbot, windows, random.Random(43), until=lambda: actions_so_far(hana) >= played + 2
        )
        again = json.loads(path.read_text(encoding="utf-8"))
        assert again[RESUME_KEY]["room"] == {"name": name, "title": title}
        # the match ends (hana leaves): the announcement goes
        hana.go_home()
        qtbot.waitUntil(lambda: listed(browser, name) is None, timeout=30_000)
    finally:
        browser.stop()
        for window in (hana, joiner):
            if window is not None:
                window.go_home()
                close_window(window)
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and window.lobby.finder.running:
                    qtbot.wait(50)
