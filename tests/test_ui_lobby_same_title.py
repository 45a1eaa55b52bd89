"""Finding 4 of issue 20 in the app: two rooms of one title from two hosts are both listed,
each with its host's fingerprint, and both marked (⚠, in words for a screen reader and in a
tooltip, English and Japanese); the same host announced twice is not marked.

The model is fed as the finder feeds it (no network); the lobby is rendered offscreen to a
PNG (``KOIKOI_SHOTS=DIR`` keeps it there, for a person to look at).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from koikoi.net.discovery.txt import RoomStatus
from koikoi.ui.common import names
from koikoi.ui.common.settings import AppSettings, open_qsettings
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.lobby.rooms import RoomListModel
from tests.net_support import room as a_room

REAL = a_room("Hanami", "0a0a0a", "abcd", "192.168.1.20:4000")
SPOOF = a_room("Hanami", "0b0b0b", "wxyz", "192.168.1.66:4000")
OTHER = a_room("Tsukimi", "0c0c0c", "qrst", "192.168.1.30:4000")


def _shown(model: RoomListModel, row: int, role: Qt.ItemDataRole) -> str:
    return str(model.index(row, 0).data(role))


def test_two_hosts_of_one_title_are_both_listed_with_fingerprints_and_marked(
    qtbot: QtBot,
) -> None:
    model = RoomListModel()
    for room in (REAL, OTHER):
        model.put(room)
    assert "⚠" not in _shown(model, 0, Qt.ItemDataRole.DisplayRole)
    model.put(SPOOF)  # the mark comes with the second host of the title
    assert model.rowCount() == 3
    for row, fp in ((0, "abcd"), (2, "wxyz")):
        assert model.index(row, 1).data() == f"hana · {fp}"
        assert _shown(model, row, Qt.ItemDataRole.DisplayRole).startswith("⚠ Hanami")
        for role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            said = _shown(model, row, role)
            assert "same title as another room" in said and f"fingerprint {fp}" in said, said
    assert "⚠" not in _shown(model, 1, Qt.ItemDataRole.DisplayRole)  # Tsukimi: alone
    model.drop(SPOOF.name)  # the spoof leaves: the real room is alone again
    assert _shown(model, 0, Qt.ItemDataRole.DisplayRole) == "Hanami"


def test_the_same_host_announced_twice_is_not_marked(qtbot: QtBot) -> None:
    model = RoomListModel()
    model.put(REAL)
    model.put(replace(REAL, name="Hanami #0d0d0d._koikoi._tcp.local.", addresses=(
        "192.168.1.20:4100",)))  # fmt: skip
    model.put(replace(REAL, status=RoomStatus.PLAYING))  # a change of the same room
    for row in range(model.rowCount()):
        assert "⚠" not in _shown(model, row, Qt.ItemDataRole.DisplayRole)


def test_the_mark_is_said_in_japanese(qtbot: QtBot, japanese: None) -> None:
    model = RoomListModel()
    model.put(REAL)
    model.put(SPOOF)
    assert _shown(model, 0, Qt.ItemDataRole.DisplayRole) == "⚠ Hanami"
    for role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
        said = _shown(model, 0, role)
        assert "同じ名前" in said and "鍵 abcd" in said, said


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_lobby_shows_both_rooms_rendered(qtbot: QtBot, tmp_path: Path, language: str) -> None:
    assert names.install_translations(language)
    try:
        lobby = Lobby(AppSettings(open_qsettings()), home=tmp_path / "taro", bind="127.0.0.1")
        qtbot.addWidget(lobby)
        lobby.resize(1100, 720)
        lobby.show()
        lobby.finder.stop()  # nothing from the network: the rooms below only
        for room in (REAL, SPOOF, OTHER):
            lobby.finder.model.put(room)
        lobby.finder.changed.emit()  # as the finder says after a batch of rooms
        qtbot.wait(50)
        assert lobby.empty.isVisible() and lobby.empty.text().startswith("⚠ ")
        assert ("fingerprint" if language == "en" else "鍵") in lobby.empty.text()
        view = lobby.room_list
        for row in (0, 1):
            rect = view.visualRect(lobby.finder.model.index(row, 1))
            text = lobby.finder.model.index(row, 1).data()
            # the host column is wide enough for the nickname and the whole fingerprint
            assert view.fontMetrics().horizontalAdvance(text) <= rect.width(), (text, rect)
        lobby.finder.model.drop(SPOOF.name)  # the note goes with the second host
        lobby.finder.changed.emit()
        assert not lobby.empty.isVisible()
        lobby.finder.model.put(SPOOF)
        lobby.finder.changed.emit()
        qtbot.wait(50)
        image = lobby.grab().toImage()
        assert not image.isNull()
        folder = Path(os.environ.get("KOIKOI_SHOTS", tmp_path))
        folder.mkdir(parents=True, exist_ok=True)
        assert image.save(str(folder / f"lobby-same-title-{language}.png"))
        lobby.shutdown()
    finally:
        names.install_translations("en")


def test_only_a_rows_first_cell_says_the_whole_row(qtbot: QtBot) -> None:
    """A screen reader reads a cell's accessible text: every cell said the whole room ("Hanami,
    host hana, fingerprint abcd, 6 rounds …" four times over); the others say their own."""
    model = RoomListModel()
    model.put(REAL)
    whole = model.index(0, 0).data(Qt.ItemDataRole.AccessibleTextRole)
    assert "host hana" in whole and "fingerprint abcd" in whole
    for column in range(1, model.columnCount()):
        cell = model.index(0, column)
        assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == cell.data(), column
