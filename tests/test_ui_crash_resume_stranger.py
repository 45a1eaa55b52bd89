"""A stranger's wrong password leaves a restored host's waiting match alone (docs/protocol.md,
"A side that crashed").

Two real windows offscreen over loopback play a password room's match; both crash. hana's app
is started again and resumes the match from its record: its room listens again and waits for
taro. A stranger, built from our own modules (a ``QtJoin`` with its own key), calls that room
with a wrong password over a real socket. The room turns it away, and the match still waits:
before, the app took any failed password of a call to its restored room for its own typo and
let the match go (back to the start screen). Then taro's app is started again, resumes too,
and both play on. A host's own typo is told before it listens (the record keeps a check of
the password, not the password): tests/test_ui_crash_resume.py.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.room import password_matches
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY
from koikoi.ui.net.netlink.base import LinkError
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.smoke import LOOPBACK
from tests.test_ui_crash_resume import crash, lobby_window, net_records, type_password
from tests.test_ui_lobby import both_at_the_cards, open_room
from tests.ui_driver import actions_so_far, click, close_window, play_windows_by_clicks


def stranger(room: QtRoom, password: str) -> tuple[QtJoin, list[LinkError]]:
    options = PeerOptions(
        identity=Identity.generate(),
        nickname="mallory",
        settings=room.options.settings,
        known_peers=KnownPeers(None),
        password=password,
    )
    join = QtJoin(options)
    failures: list[LinkError] = []
    join.failed.connect(failures.append)
    join.connect_to(LOOPBACK, room.port)
    return join, failures


def resume(qtbot: QtBot, home: Path, password: str) -> MainWindow:
    window = lobby_window(qtbot, home, "", keep=True)
    window.go_home()
    assert window.start.reconnect_button.isVisible()
    click(qtbot, window.start.reconnect_button)
    type_password(qtbot, window, password)
    assert window.stack.currentWidget() is window.game
    return window


def test_a_stranger_s_wrong_password_leaves_the_restored_host_s_match_waiting(
    qtbot: QtBot, tmp_path: Path
) -> None:
    secret = "fuji-" + os.urandom(3).hex()
    hana_home, taro_home = tmp_path / "hana", tmp_path / "taro"
    host = lobby_window(qtbot, hana_home, "hana", keep=False)
    joiner = lobby_window(qtbot, taro_home, "taro", keep=False)
    open_room(host.lobby, "crash", password=secret)
    room = host.lobby.room
    assert isinstance(room, QtRoom)
    joiner.lobby.address.setText(f"{LOOPBACK}:{room.port}")
    joiner.lobby.address_password.setText(secret)
    click(qtbot, joiner.lobby.address_button)
    both_at_the_cards(qtbot, host.lobby, joiner.lobby)
    click(qtbot, joiner.lobby.prematch.same_button)
    click(qtbot, host.lobby.prematch.same_button)
    windows = [host, joiner]
    qtbot.waitUntil(lambda: all(w.controller.remote is not None for w in windows), timeout=15_000)
    play_windows_by_clicks(
        qtbot,
        windows,
        random.Random(31),
        until=lambda: actions_so_far(host) >= 4 and host.controller.mode is Mode.PLAY,
    )
    qtbot.wait(300)  # nothing in flight
    played = actions_so_far(host)
    crash(qtbot, host)
    crash(qtbot, joiner)  # nobody dials hana's room but the stranger

    (path,) = net_records(hana_home)
    info = json.loads(path.read_text(encoding="utf-8"))[RESUME_KEY]
    assert info["private"] is True and password_matches(secret, info["check"])
    assert secret not in path.read_text(encoding="utf-8")

    hana = resume(qtbot, hana_home, secret)
    restored = hana.link
    assert isinstance(restored, QtRoom) and restored.listening and restored.is_suspended
    qtbot.waitUntil(hana.game.reconnecting.isVisible, timeout=10_000)

    call, failures = stranger(restored, secret + "?")
    qtbot.waitUntil(lambda: bool(failures), timeout=20_000)
    assert failures[0].kind == "auth", failures[0]
    qtbot.wait(200)  # whatever the failed call sets off has happened
    # the match still waits for taro: the same room, listening, the table reconnecting
    assert hana.link is restored and hana.restored_link is restored
    assert restored.listening and restored.is_suspended and not restored.done
    assert hana.stack.currentWidget() is hana.game and hana.game.reconnecting.isVisible()
    assert "A call with another password was turned away" in hana.game.side.log.toPlainText()

    taro = resume(qtbot, taro_home, secret)
    windows = [hana, taro]
    qtbot.waitUntil(
        lambda: (
            all(w.restored_link is None for w in windows)
            and not any(w.game.reconnecting.isVisible() for w in windows)
        ),
        timeout=30_000,
    )
    assert actions_so_far(hana) == actions_so_far(taro) == played
    play_windows_by_clicks(
        qtbot, windows, random.Random(37), until=lambda: actions_so_far(hana) >= played + 2
    )
    for window in windows:
        window.go_home()
        close_window(window)
    call.deleteLater()
