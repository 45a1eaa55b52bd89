"""The screenshot scripts keep working, and what their pictures showed stays fixed.

``python -m koikoi.devtools.screenshots OUT --network`` plays two windows against each other on
127.0.0.1, from the lobby to the replay: run for one size in one language, every picture it
promises comes out, and no two are the same (a moment that never came would leave a copy of
the one before). The pictures showed two unreadable overlays, checked here on the widgets.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QRegion
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.discovery.txt import Room, RoomStatus
from koikoi.net.hello import PRIVATE_VERSION
from koikoi.paths import games_dir
from koikoi.ui.common import names
from koikoi.ui.lobby.rooms import BIND_ENV
from koikoi.ui.main_window import MainWindow
from tests.conftest import REPO
from tests.test_ui_viewer import played_match
from tests.ui_driver import click, close_window, open_window

PAGES = (
    "create-room", "room-waiting", "lobby", "password", "prematch-toss", "prematch-cards",
    "prematch-left", "prematch-known", "prematch-waiting", "leave-question", "history", "viewer",
    "reply-code", "dial-back",
)  # fmt: skip
TABLES = ("net-toss", "net-your-move", "net-joiner", "net-abandon", "net-reconnecting")


def test_the_network_screenshots_come_out_whole_and_distinct(tmp_path: Path) -> None:
    out = tmp_path / "shots"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "koikoi.devtools.screenshots", str(out), "--network"]
        + ["--size", "1024x640"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    expected = {f"{name}-1024x640.png" for name in PAGES + TABLES}
    made = {p.name for p in out.iterdir()}
    assert made == expected, (made - expected, expected - made)
    digests: dict[str, str] = {}
    for name in sorted(made):
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000, name
        image = QImage(str(out / name))
        assert (image.width(), image.height()) >= (400, 200), name
        digest = hashlib.sha256(data).hexdigest()
        assert digest not in digests, f"{name} is the same picture as {digests.get(digest)}"
        digests[digest] = name


def _lightness(color: QColor) -> int:
    return color.lightness()


def test_a_message_box_over_the_window_has_a_dark_ground_for_its_light_words(
    qtbot: QtBot,
) -> None:
    """The window's words are light (#f3e9d2): a message box on the platform's light grey
    was unreadable (leaving a network match, a record that cannot be shown)."""
    games = games_dir()
    games.mkdir(parents=True)
    path = games / "practice-20261201-101010.json"
    path.write_text(json.dumps(played_match()), "utf-8")
    window = open_window(qtbot)
    path.write_text(path.read_text("utf-8").replace('"play": "', '"play": "x', 1), "utf-8")
    window.start.kept_list.setCurrentRow(0)
    click(qtbot, window.start.view_button)
    box = window.findChild(QMessageBox, "viewFailed")
    assert box is not None
    qtbot.waitUntil(box.isVisible)
    picture = box.grab().toImage()
    ground = picture.pixelColor(picture.width() - 4, picture.height() // 2)
    assert _lightness(ground) < 80, ground.name()
    box.close()
    close_window(window)


def test_reconnecting_is_written_on_a_box_of_its_own(qtbot: QtBot) -> None:
    """The countdown lies over the opponent's hand: without a ground of its own it was
    small light words on the card backs."""
    window = open_window(qtbot)
    window.start_practice(Settings(6, True), "normal", True, b"reconnecting-0000000000000000001")
    game = window.game
    qtbot.waitUntil(game.isVisible)
    game.show_reconnecting(59.4)  # as a dropped connection's link says it (netlink.suspended)
    label = game.reconnecting
    assert label.isVisible() and "0:59" in label.text()
    image = QImage(label.size(), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    label.render(image, QPoint(), QRegion(), QWidget.RenderFlag.DrawChildren)
    # the padding left of the words: the label's own ground, not the table under it
    ground = image.pixelColor(5, label.height() // 2)
    assert ground.alpha() > 200, ground.name(QColor.NameFormat.HexArgb)
    game.hide_reconnecting()
    close_window(window)


def _lobby_at(qtbot: QtBot, size: tuple[int, int]) -> MainWindow:
    window = open_window(qtbot, size=size)
    click(qtbot, window.start.play_person_button)
    qtbot.waitUntil(window.lobby.isVisible)
    return window


def test_a_private_rooms_password_prompt_has_a_dark_ground(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its question was light words on the platform's light grey."""
    monkeypatch.setenv(BIND_ENV, "127.0.0.1")
    window = _lobby_at(qtbot, (1024, 640))
    lobby = window.lobby
    lobby.nickname.setText("taro")
    room = Room(
        "tsukimi._koikoi._tcp.local.", "Tsukimi by the river", ("127.0.0.1:9",), 6, True,
        True, RoomStatus.OPEN, PRIVATE_VERSION,
    )  # fmt: skip
    lobby.join_room(room)  # as a double-click on its row does
    prompt = lobby.password_prompt
    assert prompt is not None
    qtbot.waitUntil(prompt.isVisible)
    picture = prompt.grab().toImage()
    ground = picture.pixelColor(picture.width() - 4, picture.height() // 2)
    assert _lightness(ground) < 80, ground.name()
    prompt.reject()
    close_window(window)


def test_a_room_title_keeps_room_in_the_list_of_a_small_window(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1024×640 the fixed columns (host, settings, state) left the title 48 pixels:
    "F…". A title of 15 letters fits now."""
    monkeypatch.setenv(BIND_ENV, "127.0.0.1")
    window = _lobby_at(qtbot, (1024, 640))
    view = window.lobby.room_list
    title = view.header().sectionSize(0)
    assert title >= view.fontMetrics().horizontalAdvance("Friday hanafuda"), title
    close_window(window)


def _width_is(window: QWidget, width: int) -> Callable[[], bool]:
    return lambda: window.width() == width


def test_the_room_list_shows_its_settings_whole_where_the_window_has_room(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixed columns were measured in the list's font before its style sheet applied (a
    smaller one): "hanako · a…" and "12 rounds · no doublin…" at 1280×800 beside a title
    column with room to spare. Now each column holds its text whole at 1280×800 (a room's
    note on joint-seed dealing as far as the title keeps "Friday hanafuda"), and at 1024×640
    the host and state stay whole and the title keeps "Friday hanafuda"."""
    monkeypatch.setenv(BIND_ENV, "127.0.0.1")
    ours = [
        Room(
            f"cols{n}._koikoi._tcp.local.",
            title,
            ("127.0.0.1:9",),
            12,
            False,
            False,
            status,
            PRIVATE_VERSION,
            "hanako",
            fingerprint="ab3d",
            dealing=dealing,
        )  # fmt: skip
        for n, (title, status, dealing) in enumerate(
            (
                ("Friday hanafuda", RoomStatus.OPEN, "private"),
                ("Sakura", RoomStatus.PLAYING, "seed"),
            )
        )
    ]
    for size, whole in (((1280, 800), (0, 1, 2, 3)), ((1024, 640), (0, 1, 3))):
        window = _lobby_at(qtbot, size)
        view = window.lobby.room_list
        model = window.lobby.finder.model
        for room in ours:
            model.put(room)
        qtbot.wait(50)  # a resize after the rooms came changes nothing either
        for width in (size[0] - 1, size[0]):
            window.resize(width, size[1])
            qtbot.waitUntil(_width_is(window, width))
        metrics = view.fontMetrics()
        for room in ours:
            row = model.row_of(room.name)
            for column in whole:
                text = model.index(row, column).data()
                cell = view.visualRect(model.index(row, column)).width()
                if room.dealing == "seed" and column == 2:  # the note, where the title lets it
                    title = view.header().sectionSize(0)
                    assert title >= metrics.horizontalAdvance("Friday hanafuda") + 8, title
                    continue
                assert metrics.horizontalAdvance(text) + 8 <= cell, (size, text, cell)
        close_window(window)


def test_the_start_screen_with_earlier_matches_fits_a_small_laptop(qtbot: QtBot) -> None:
    """At 1024×640 with the list of earlier matches, the start screen's layout wanted 690
    pixels: Qt squeezed its big buttons until their words were cut in half."""
    games = games_dir()
    games.mkdir(parents=True)
    (games / "practice-20261201-101010.json").write_text(json.dumps(played_match()), "utf-8")
    window = open_window(qtbot, size=(1024, 640))
    start = window.start
    qtbot.waitUntil(start.kept_card.isVisible)
    for button in (start.practice_button, start.play_person_button, start.start_button):
        assert button.height() >= button.minimumSizeHint().height(), button.text()
    layout = start.layout()
    assert layout is not None and layout.minimumSize().height() <= start.height()
    close_window(window)


def test_the_room_list_speaks_japanese(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Japanese lobby's list had English column heads and "in play", and its "open"
    (a room waiting for a player) read 鍵なし, "unlocked": the room's words are in the
    lobby's translations, not the list's."""
    monkeypatch.setenv(BIND_ENV, "127.0.0.1")
    assert names.install_translations("ja")
    try:
        window = _lobby_at(qtbot, (1024, 640))
        model = window.lobby.finder.model
        for title, status in (("金曜の花札", RoomStatus.OPEN), ("桜の会", RoomStatus.PLAYING)):
            model.put(
                Room(f"{title}._koikoi._tcp.local.", title, ("127.0.0.1:9",), 6, True, False,
                     status, 2, "けん")
            )  # fmt: skip
        heads = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)]
        states = [model.data(model.index(r, 3), Qt.ItemDataRole.DisplayRole) for r in range(2)]
        assert heads == ["部屋", "ホスト", "設定", "状態"]
        assert sorted(states) == sorted(["募集中", "対戦中"])
        close_window(window)
    finally:
        names.install_translations("en")
