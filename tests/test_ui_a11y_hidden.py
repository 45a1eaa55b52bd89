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
