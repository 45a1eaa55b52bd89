"""What a screen reader reads at the table, through Qt's own accessibility interfaces (the
ones the AT-SPI bridge reads): the turn's prompt by what it says, the stakes with their unit
in one name, a lobby row's cells each with its own value (issue 22)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from koikoi.engine.cards import parse_card
from koikoi.net.discovery.txt import Room, RoomStatus
from koikoi.ui.common import names
from koikoi.ui.match.matchview import Mode
from tests.ui_driver import (
    click,
    close_window,
    find_card,
    open_window,
    panel_button,
    start_practice,
    wait_for_input,
)

SEED = b"plain-takes-plain-00000000000029"
"""You are oya; kiri_plain_2 has no match (tests/test_ui_words.py)."""


def _name(widget: QWidget) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None and iface.isValid()
    return iface.text(QAccessible.Text.Name)


def _names(iface: QAccessibleInterface | None, out: list[str], depth: int = 0) -> list[str]:
    """The name of every object under ``iface`` that says it is showing."""
    if iface is None or not iface.isValid() or depth > 40:
        return out
    if not iface.state().invisible:
        out.append(iface.text(QAccessible.Text.Name))
    for i in range(iface.childCount()):
        _names(iface.child(i), out, depth + 1)
    return out


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_prompt_is_heard_by_what_it_says_and_the_stakes_with_their_unit(
    qtbot: QtBot, language: str
) -> None:
    assert names.install_translations(language)
    try:
        window = open_window(qtbot)
        start_practice(window, seed=SEED)
        assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
        click(qtbot, panel_button(window))
        assert wait_for_input(qtbot, window) is Mode.PLAY
        prompt = window.game.prompt
        first = prompt.text()
        assert first and _name(prompt) == first  # not 「案内」 / "Prompt" alone
        assert _name(prompt) != QCoreApplication.translate("GameScreen", "Prompt")
        click(qtbot, find_card(window, parse_card("kiri_plain_2")))
        assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
        # the drawn card's prompt ticks each second: it is heard by its words, once, without
        # the count (before, only as "Prompt")
        ticking = prompt.text()
        said = _name(prompt)
        assert ticking != first and said not in (first, ticking), said
        assert names.card_name(parse_card("kiri_plain_yellow")) in said
        assert names.card_name(parse_card("kiri_plain_2")) in said
        assert "60" in ticking and "60" not in said
        side = window.game.side
        stake = _name(side.me.stake)
        wanted = {"en": "Stakes: 25 points", "ja": "持ち点：25点"}[language]
        assert stake == wanted
        heard = _names(QAccessible.queryAccessibleInterface(window), [])
        unit = {"en": "points", "ja": "点"}[language]
        assert unit not in heard, "the unit is heard apart from its number"
        assert heard.count(wanted) == 2  # both seats, each in one name
        close_window(window)
    finally:
        names.install_translations("en")


def test_a_lobby_rows_cells_each_say_their_own_value(qtbot: QtBot, monkeypatch) -> None:
    """Every cell of a room's row said the whole room; now the first cell says the row once,
    the others only what they show."""
    monkeypatch.setenv("KOIKOI_MDNS_BIND", "127.0.0.1")
    window = open_window(qtbot)
    click(qtbot, window.start.play_person_button)
    rooms = window.lobby.finder.model
    rooms.put(Room(
        name="r0", title="Friday", addresses=("127.0.0.1:4000",), rounds=6, doubling=True,
        private=False, status=RoomStatus.OPEN, version=4, host="Aiko",
    ))  # fmt: skip
    QApplication.processEvents()
    listed = QAccessible.queryAccessibleInterface(window.lobby.room_list)
    assert listed is not None
    said = [listed.child(i).text(QAccessible.Text.Name) for i in range(listed.childCount())]
    whole = rooms.index(0, 0).data(Qt.ItemDataRole.AccessibleTextRole)
    assert "Friday" in whole and "Aiko" in whole
    assert sum("Friday" in text for text in said) == 1, said  # the row, once
    for column in range(1, rooms.columnCount()):
        assert rooms.index(0, column).data() in said, (column, said)  # each cell its own
    close_window(window)
