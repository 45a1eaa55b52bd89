"""No hidden item tells a screen reader it is focused: Qt's accessibility says an item view's
current cell is focused and showing even while the view is hidden (the start screen's
language list in its closed combo box, the lobby's selected room, both behind the table)."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from koikoi.net.discovery.txt import Room, RoomStatus
from koikoi.ui.match.matchview import Mode
from tests.ui_driver import click, close_window, open_window, wait_for_input


def _focused(iface: QAccessibleInterface | None, out: list[str], depth: int = 0) -> list[str]:
    """The names of every object under ``iface`` that says it is focused and not invisible
    (AT-SPI's FOCUSED and SHOWING)."""
    if iface is None or not iface.isValid() or depth > 40:
        return out
    state = iface.state()
    if state.focused and not state.invisible:
        out.append(iface.text(QAccessible.Text.Name))
    for i in range(iface.childCount()):
        _focused(iface.child(i), out, depth + 1)
    return out


def test_hidden_lists_say_nothing_is_focused_at_the_table(qtbot: QtBot, monkeypatch) -> None:
    monkeypatch.setenv("KOIKOI_MDNS_BIND", "127.0.0.1")
    window = open_window(qtbot)
    language = window.start.language
    language.showPopup()  # the player looks at the languages, and keeps the one there was
    qtbot.wait(20)
    language.hidePopup()
    click(qtbot, window.start.play_person_button)
    rooms = window.lobby.finder.model
    rooms.put(Room(
        name="r0", title="Friday", addresses=("127.0.0.1:4000",), rounds=6, doubling=True,
        private=False, status=RoomStatus.OPEN, version=4, host="Aiko",
    ))  # fmt: skip
    window.lobby.room_list.setCurrentIndex(rooms.index(0, 0))
    window.go_home()
    click(qtbot, window.start.practice_button)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    QApplication.processEvents()
    focused = _focused(QAccessible.queryAccessibleInterface(window), [])
    focus = QApplication.focusWidget()
    assert focus is not None
    name = QAccessible.queryAccessibleInterface(focus).text(QAccessible.Text.Name)
    assert set(focused) <= {name}, f"{focused} say they are focused; the focus is on {name!r}"
    assert language.currentIndex() == 0  # the language chosen is still the one it was
    close_window(window)


def test_a_list_shown_again_has_its_current_item_back(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QLabel, QListWidget, QStackedWidget

    from koikoi.ui.common.accessible import forget_current_while_hidden

    stack = QStackedWidget()
    qtbot.addWidget(stack)
    listed = QListWidget()
    listed.addItems(["one", "two"])
    stack.addWidget(listed)
    other = QLabel("the table")
    stack.addWidget(other)
    stack.show()
    forget_current_while_hidden(stack)
    listed.setCurrentRow(1)
    stack.setCurrentWidget(other)
    assert listed.currentRow() == -1 and listed.item(1).isSelected()  # the selection stays
    stack.setCurrentWidget(listed)
    assert listed.currentRow() == 1


def _showing(iface: QAccessibleInterface | None, out: list[str], depth: int = 0) -> list[str]:
    """The names of every object under ``iface`` that says it is showing (not invisible)."""
    if iface is None or not iface.isValid() or depth > 40:
        return out
    if not iface.state().invisible:
        out.append(iface.text(QAccessible.Text.Name))
    for i in range(iface.childCount()):
        _showing(iface.child(i), out, depth + 1)
    return out


def _room(name: str, title: str, host: str) -> Room:
    return Room(
        name=name, title=title, addresses=("127.0.0.1:4000",), rounds=6, doubling=True,
        private=False, status=RoomStatus.OPEN, version=4, host=host,
    )  # fmt: skip


def test_hidden_lists_say_none_of_their_items_is_showing(qtbot: QtBot, monkeypatch) -> None:
    """Qt said the closed language list's 日本語 and the hidden lobby's rooms were showing
    (AT-SPI's SHOWING) beside the table; shown again, the lists are whole."""
    monkeypatch.setenv("KOIKOI_MDNS_BIND", "127.0.0.1")
    window = open_window(qtbot)
    language = window.start.language
    languages = QAccessible.queryAccessibleInterface(language.view())
    assert "日本語" not in _showing(languages, [])  # closed
    language.showPopup()
    qtbot.waitUntil(language.view().isVisible)
    assert {"English", "日本語"} <= set(_showing(languages, []))  # open: every language
    assert language.view().visualRect(language.model().index(2, 0)).height() > 0
    language.hidePopup()
    click(qtbot, window.start.play_person_button)
    rooms = window.lobby.finder.model
    rooms.put(_room("r0", "Friday", "Aiko"))
    room_list = window.lobby.room_list
    room_list.setCurrentIndex(rooms.index(0, 0))
    listed = QAccessible.queryAccessibleInterface(room_list)
    assert "Aiko" in _showing(listed, [])
    window.go_home()
    rooms.put(_room("r1", "Saturday", "Ben"))  # found while the lobby is hidden
    click(qtbot, window.start.practice_button)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    QApplication.processEvents()
    assert not [n for n in _showing(languages, []) if n], "a closed language list shows"
    assert not (set(_showing(listed, [])) & {"Aiko", "Ben", "open"}), "the hidden lobby shows"
    close_window(window)


def test_a_list_shown_again_shows_its_rows_and_those_that_came_while_hidden(qtbot: QtBot) -> None:
    from PySide6.QtCore import QModelIndex
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QLabel, QStackedWidget, QTreeView

    from koikoi.ui.common.accessible import forget_current_while_hidden

    stack = QStackedWidget()
    qtbot.addWidget(stack)
    model = QStandardItemModel()
    model.appendRow([QStandardItem("Friday"), QStandardItem("Aiko")])
    tree = QTreeView()
    tree.setModel(model)
    stack.addWidget(tree)
    other = QLabel("the table")
    stack.addWidget(other)
    stack.show()
    forget_current_while_hidden(stack)
    stack.setCurrentWidget(other)
    model.appendRow([QStandardItem("Saturday"), QStandardItem("Ben")])
    assert tree.isRowHidden(0, QModelIndex()) and tree.isRowHidden(1, QModelIndex())
    stack.setCurrentWidget(tree)
    assert not tree.isRowHidden(0, QModelIndex()) and not tree.isRowHidden(1, QModelIndex())
    assert tree.visualRect(model.index(1, 0)).height() > 0
