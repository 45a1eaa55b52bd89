"""A match hosted from the lobby survives a dropped connection.

Two real windows offscreen over loopback: hana opens a room in her lobby, taro joins it by
address, both confirm the four cards, the lobby hands the match to each window. The
connection then breaks for real mid-match (a socket aborted), both sides resume, and the
match is played on by clicks on both windows to its end, both signed records verifying.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.hello import SEED_ONLY
from koikoi.net.verify import verify_record
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.smoke import LOOPBACK, open_window
from tests.test_ui_lobby import both_at_the_cards, open_room
from tests.ui_driver import FAST, actions_so_far, click, close_window, play_windows_by_clicks


class Seen:
    """What a link told its window about the drop."""

    def __init__(self, link: QtRoom | QtJoin) -> None:
        self.suspended: list[float] = []
        self.resumed: list[int] = []
        link.suspended.connect(self.suspended.append)
        link.resumed.connect(self.resumed.append)


def lobby_window(qtbot: QtBot, home: Path, nickname: str) -> MainWindow:
    window = open_window(home, FAST, LOOPBACK)
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    window.show_lobby()
    window.lobby.nickname.setText(nickname)
    # the joint seed: a privately dealt match is not resumed yet (koikoi.net.resume.suspendable)
    window.lobby.dealings = SEED_ONLY
    return window


def saved_record(window: MainWindow) -> dict[str, object]:
    path = window.net_record
    assert path is not None and path.is_file()
    record: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize("side", ["host"])
def test_a_match_hosted_from_the_lobby_resumes_and_is_played_to_its_end(
    qtbot: QtBot, tmp_path: Path, side: str
) -> None:
    host = lobby_window(qtbot, tmp_path / "hana", "hana")
    joiner = lobby_window(qtbot, tmp_path / "taro", "taro")
    windows = [host, joiner]
    try:
        open_room(host.lobby, "resume")
        room = host.lobby.room
        assert isinstance(room, QtRoom)
        joiner.lobby.address.setText(f"{LOOPBACK}:{room.port}")
        click(qtbot, joiner.lobby.address_button)
        both_at_the_cards(qtbot, host.lobby, joiner.lobby)
        click(qtbot, joiner.lobby.prematch.same_button)
        click(qtbot, host.lobby.prematch.same_button)
        qtbot.waitUntil(
            lambda: all(w.controller.remote is not None for w in windows), timeout=15_000
        )
        # the lobby handed its room to hana's window: the room follows its match
        assert host.link is room and host.lobby.handed is room
        assert isinstance(room, QtRoom) and isinstance(joiner.link, QtJoin)
        first = room.match
        assert first is not None
        seen = {"host": Seen(room), "joiner": Seen(joiner.link)}

        play_windows_by_clicks(  # a few moves in, and hana to move while taro waits
            qtbot,
            windows,
            random.Random(3),
            until=lambda: (
                actions_so_far(joiner) >= 6
                and host.controller.mode is Mode.PLAY
                and joiner.controller.waiting_since is not None
            ),
        )
        before = actions_so_far(joiner)
        cut = first if side == "host" else joiner.link
        assert cut.socket is not None
        qtbot.wait(500)  # nothing in flight: an acknowledgement lost in a drop is not sent
        # again on resume (a fault of the protocol core, reported apart)
        cut.socket.abort()  # the connection breaks for real: the peer reads its end
        qtbot.waitUntil(
            lambda: all(s.resumed for s in seen.values()) and host.lobby.room is room,
            timeout=30_000,
        )
        assert all(s.suspended for s in seen.values())
        assert not host.game.reconnecting.isVisible()
        assert not joiner.game.reconnecting.isVisible()
        # the window still holds the room, which carries the match on a new link
        assert host.link is room and host.lobby.handed is room and host.lobby.room is room
        assert isinstance(room, QtRoom)
        assert room.match is not None and room.match is not first and first.done
        assert host.net_message is None and joiner.net_message is None

        play_windows_by_clicks(
            qtbot,
            windows,
            random.Random(5),
            until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in windows),
        )
        assert actions_so_far(joiner) > before
        assert host.net_message is None and joiner.net_message is None
        qtbot.waitUntil(lambda: all(w.net_record is not None for w in windows), timeout=10_000)
        records = [saved_record(w) for w in windows]
        for record in records:
            report = verify_record(record)
            assert report.to_json()["valid"] is True and report.result["finished"] is True
        assert records[0]["deals"] == records[1]["deals"]
    finally:
        for window in windows:
            window.go_home()
            close_window(window)
        qtbot.waitUntil(lambda: host.lobby.room is None, timeout=10_000)
