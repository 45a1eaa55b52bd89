"""What a screen reader is told about widgets it cannot see.

Qt's accessibility says an item view's current cell is *focused* (and showing) whether the
view is on the screen or not: the start screen's language list, hidden in its closed combo
box, said 「日本語」 was focused beside the card the player was on at the table, and so did
the lobby's selected room. :func:`forget_current_while_hidden` takes the current item off a
view while it is hidden and gives it back when the view shows again (the selection is left
alone). Qt also says a hidden view's cells are *showing* (it only asks whether a cell's
rectangle meets the view's, wherever the view is): the same filter hides a hidden view's rows,
whose rectangles are then empty, and shows them again with the view. A combo box's list is
sized from its shown rows as it opens, before it is shown: only a :class:`ListedComboBox`
(which shows them first) has its rows hidden so. :func:`announce` has it say a line (the
table's log, a replay's step) without moving the focus.
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
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QListView,
    QTableView,
    QTreeView,
    QWidget,
)


class _CurrentWhileShown(QObject):
    """The event filter of :func:`forget_current_while_hidden`, one per view."""

    def __init__(self, view: QAbstractItemView, rows: bool) -> None:
        super().__init__(view)
        self.view = view
        self.kept = QPersistentModelIndex()
        self.rows = rows
        """Whether the view's rows are hidden with it (:func:`_show_rows`)."""
        self._watched: set[int] = set()

    def _hide_rows(self) -> None:
        model = self.view.model()
        if model is None:
            return
        if id(model) not in self._watched:  # rows that come while hidden are hidden too
            self._watched.add(id(model))
            model.rowsInserted.connect(self._came)
            model.modelReset.connect(self._again)
            model.layoutChanged.connect(self._again)
        _show_rows(self.view, shown=False)

    def _came(self, parent: QModelIndex, first: int, last: int) -> None:
        if not parent.isValid() and shiboken6.isValid(self.view) and not self.view.isVisible():
            _show_rows(self.view, shown=False, rows=range(first, last + 1))

    def _again(self, *_args: object) -> None:
        if shiboken6.isValid(self.view) and not self.view.isVisible():
            _show_rows(self.view, shown=False)

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
            if self.rows:
                self._hide_rows()
            return False
        if self.rows:
            _show_rows(self.view)
        if self.kept.isValid():
            if not selection.currentIndex().isValid():
                index = self.view.model().index(self.kept.row(), self.kept.column())
                selection.setCurrentIndex(index, keep)
            self.kept = QPersistentModelIndex()
        return False


def _show_rows(view: QAbstractItemView, shown: bool = True, rows: range | None = None) -> None:
    """Show (or hide) the top-level ``rows`` of ``view`` (all of them by default)."""
    model = view.model()
    if model is None:
        return
    for row in rows if rows is not None else range(model.rowCount()):
        if isinstance(view, QTreeView):
            if view.isRowHidden(row, QModelIndex()) == shown:
                view.setRowHidden(row, QModelIndex(), not shown)
        elif isinstance(view, QListView | QTableView) and view.isRowHidden(row) == shown:
            view.setRowHidden(row, not shown)


class ListedComboBox(QComboBox):
    """A combo box whose closed list says none of its items is showing: its rows are hidden
    while the list is (:func:`forget_current_while_hidden`) and shown before it opens."""

    def showPopup(self) -> None:
        _show_rows(self.view())
        super().showPopup()


def _rows_hidden_with(view: QAbstractItemView) -> bool:
    """A combo box's list only when the combo shows its rows before it opens."""
    widget: QWidget | None = view
    while widget is not None:
        if isinstance(widget, QComboBox):
            return isinstance(widget, ListedComboBox)
        widget = widget.parentWidget()
    return True


def forget_current_while_hidden(root: QWidget) -> None:
    """Every item view under ``root`` (a combo box's list too) has no current item while it
    is hidden, so that no hidden item says it is focused; and its rows (but those of a plain
    combo box's list) are hidden with it, so that none says it is showing."""
    for view in root.findChildren(QAbstractItemView):
        if view.findChild(_CurrentWhileShown) is None:
            keeper = _CurrentWhileShown(view, _rows_hidden_with(view))
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
