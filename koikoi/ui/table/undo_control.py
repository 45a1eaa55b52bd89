"""The table's undo (待った) in practice: a button under the log, over the small buttons, and
Ctrl+Z.

Both call :func:`koikoi.ui.match.undo.take_back`; the button is shown in practice only (a
network match has no undo) and enabled while there is a turn of the player's to take back.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QBoxLayout, QPushButton, QWidget

from koikoi.ui.match.controller import GameController
from koikoi.ui.match.undo import can_undo, take_back
from koikoi.ui.table.score_column import SidePanel


class UndoControl(QObject):
    """The undo button in ``side``'s row of buttons, and Ctrl+Z on ``screen`` (the game
    screen, which has the keys while the table is played)."""

    def __init__(self, screen: QWidget, side: SidePanel, controller: GameController) -> None:
        super().__init__(screen)
        self.controller = controller
        keys = QKeySequence(QKeySequence.StandardKey.Undo).toString(
            QKeySequence.SequenceFormat.NativeText
        )
        self.button = QPushButton(self.tr("Undo ({0})").format(keys))
        self.button.setObjectName("smallButton")
        # nothing to take back: dimmer, its words still readable (4.5:1 on the button)
        self.button.setStyleSheet(
            "QPushButton:disabled { color: #b8ab90; border: 1px dashed #7d6a45; }"
        )
        self.button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.button.setToolTip(self.tr("Take back your last turn ({0})").format(keys))
        self.button.setAccessibleName(self.tr("Undo: take back your last turn ({0})").format(keys))
        self.button.clicked.connect(self.undo)
        # a row of its own over Menu, Help and Assist, which fill a 960-pixel window's column
        # (where a network match's "End the match" goes: the two are never shown together)
        layout = side.layout()
        assert isinstance(layout, QBoxLayout)
        layout.insertWidget(layout.indexOf(side.abandon_button), self.button)
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
