"""What a screen reader is told about widgets it cannot see.

Qt's accessibility says an item view's current cell is *focused* (and showing) whether the
view is on the screen or not: the start screen's language list, hidden in its closed combo
box, said 「日本語」 was focused beside the card the player was on at the table, and so did
the lobby's selected room. :func:`forget_current_while_hidden` takes the current item off a
view while it is hidden and gives it back when the view shows again (the selection is left
alone). :func:`announce` has it say a line (the table's log, a replay's step) without moving
the focus.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
)
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractItemView, QWidget


class _CurrentWhileShown(QObject):
    """The event filter of :func:`forget_current_while_hidden`, one per view."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        self.kept = QPersistentModelIndex()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.Hide, QEvent.Type.Show):
            return False
        if not shiboken6.isValid(self.view):  # hidden as it is destroyed: nothing to keep
            return False
        selection = self.view.selectionModel()
        if selection is None:
            return False
        keep = QItemSelectionModel.SelectionFlag.NoUpdate
        if event.type() == QEvent.Type.Hide:
            current = selection.currentIndex()
            if current.isValid():
                self.kept = QPersistentModelIndex(current)
                selection.setCurrentIndex(QModelIndex(), keep)
        elif event.type() == QEvent.Type.Show and self.kept.isValid():
            if not selection.currentIndex().isValid():
                index = self.view.model().index(self.kept.row(), self.kept.column())
                selection.setCurrentIndex(index, keep)
            self.kept = QPersistentModelIndex()
        return False


def forget_current_while_hidden(root: QWidget) -> None:
    """Every item view under ``root`` (a combo box's list too) has no current item while it
    is hidden, so that no hidden item says it is focused."""
    for view in root.findChildren(QAbstractItemView):
        if view.findChild(_CurrentWhileShown) is None:
            keeper = _CurrentWhileShown(view)
            view.installEventFilter(keeper)
            if not view.isVisible():
                keeper.eventFilter(view, QEvent(QEvent.Type.Hide))


def announce(widget: QWidget, text: str) -> None:
    """Have a screen reader say ``text`` (Qt 6.8+), without moving the focus."""
    try:
        from PySide6.QtGui import QAccessibleAnnouncementEvent

        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))
    except (ImportError, RuntimeError, TypeError):  # an older Qt: the log line still shows it
        pass
