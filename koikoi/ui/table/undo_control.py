"""The table's undo (待った) in practice: a button under the log and Ctrl+Z.

Both call :func:`koikoi.ui.match.undo.take_back`; the button is shown in practice only (a
network match has no undo) and enabled while there is a turn of the player's to take back.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QPushButton, QWidget

from koikoi.ui.match.controller import GameController
from koikoi.ui.match.undo import can_undo, take_back
from koikoi.ui.table.score_column import SidePanel


class UndoControl(QObject):
    """The undo button in ``side``'s row of buttons, and Ctrl+Z on ``screen`` (the game
    screen, which has the keys while the table is played)."""

    def __init__(self, screen: QWidget, side: SidePanel, controller: GameController) -> None:
        super().__init__(screen)
        self.controller = controller
        self.button = QPushButton(self.tr("Undo"))
        self.button.setObjectName("smallButton")
        self.button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        keys = QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )
        self.button.setToolTip(self.tr("Take back your last turn ({0})").format(keys))
        self.button.setAccessibleName(self.tr("Undo: take back your last turn ({0})").format(keys))
        self.button.clicked.connect(self.undo)
        side.buttons.insertWidget(2, self.button)  # after Menu and Help
        self.shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Undo), screen)
        self.shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.shortcut.activated.connect(self.undo)
        controller.mode_changed.connect(self.refresh)
        controller.state_changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_: object) -> None:
        self.button.setVisible(not self.controller.network)
        self.button.setEnabled(can_undo(self.controller))

    def undo(self) -> bool:
        """Take back the player's last turn, if there is one to take back now."""
        done = take_back(self.controller)
        self.refresh()
        return done
