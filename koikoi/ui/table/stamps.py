"""The table's stamps in a network match (docs/protocol.md, "Stamps"): a row of five short
phrases in the score column, each sent with one click or Alt+1 … Alt+5, and the other
player's stamp as a short-lived bubble by their name, said once to a screen reader.

Only the stamp's id travels: each table words it in its own player's language. The row is
greyed out while the session's rate holds the next stamp back (one every few seconds), when
the peer's koikoi takes no stamps, and once the match is over; it is not there in practice
against the computer. The display options can mute the other side's stamps (neither shown
nor spoken, nor written in the log).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Final, Protocol

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from koikoi.net.stamps import STAMPS
from koikoi.ui.common.accessible import announce
from koikoi.ui.match.controller import GameController
from koikoi.ui.table.overlay import Panel
from koikoi.ui.table.score_column import SidePanel

ROW_WIDTH: Final = 236
"""The score column's least width inside its margins: the row's lines fit it."""
ROW_SPACING: Final = 4
BUBBLE_MS: Final = 4000
"""How long the other player's stamp stays by their name."""

_STYLE: Final = """
QPushButton#stampButton { padding: 2px 4px; font-size: 12px; }
QPushButton#stampButton:disabled { color: rgba(255, 241, 207, 0.45); }
"""
_BUBBLE_STYLE: Final = """
QLabel#stampBubble { background: #fff6df; color: #2a1a12; border: 2px solid #d4a84b;
  border-radius: 12px; padding: 4px 12px; font-size: 16px; font-weight: 700; }
"""


class StampLink(Protocol):
    """What the row needs of a network match's link (``QtRoom``, ``QtJoin``)."""

    def send_stamp(self, stamp: str) -> bool: ...

    def stamp_wait(self) -> float | None: ...


class StampRow(QWidget):
    """The stamp buttons (above the player's own box in the score column ``side``) and the
    bubble of the other side's; ``screen`` (the game screen) takes the keys."""

    def __init__(self, screen: QWidget, side: SidePanel, controller: GameController) -> None:
        super().__init__(side)
        self.setObjectName("stampRow")
        self.setStyleSheet(_STYLE)
        self.side = side
        self.controller = controller
        self._muted = False
        self.spoken: list[str] = []
        """What the row gave the screen reader (each received stamp once)."""
        self._link: QObject | None = None
        self._strip: tuple[QWidget, QLabel, dict[str, QPushButton]] | None = None
        """The row again on a network match's result panel (:meth:`add_to_result`)."""
        self.buttons: dict[str, QPushButton] = {}
        for index, stamp in enumerate(STAMPS):
            button = QPushButton(self.phrase(stamp))
            button.setObjectName("stampButton")
            button.setProperty("stamp", stamp)
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            keys = f"Alt+{index + 1}"
            button.setToolTip(self.tr("Send the stamp “{0}” ({1})").format(button.text(), keys))
            button.setAccessibleName(self.tr("Stamp: {0} ({1})").format(button.text(), keys))
            button.clicked.connect(partial(self.send, stamp))
            self.buttons[stamp] = button
            shortcut = QShortcut(QKeySequence(keys), screen)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(partial(self.send, stamp))
        self._lay_out()
        layout = side.layout()
        assert layout is not None
        layout.insertWidget(layout.indexOf(side.me), self)  # type: ignore[attr-defined]
        self.bubble = QLabel(side)
        self.bubble.setObjectName("stampBubble")
        self.bubble.setStyleSheet(_BUBBLE_STYLE)
        self.bubble.hide()
        self._bubble_timer = QTimer(self)
        self._bubble_timer.setSingleShot(True)
        self._bubble_timer.timeout.connect(self.bubble.hide)
        self._ready_timer = QTimer(self)
        self._ready_timer.setSingleShot(True)
        self._ready_timer.timeout.connect(self.refresh)
        self.hide()
        controller.state_changed.connect(self._follow)

    def _lay_out(self) -> None:
        """The buttons in order, as many to a line as the column's least width holds (the
        phrases are long in Japanese): the keys' order is the reading order."""
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(4)
        line: QHBoxLayout | None = None
        used = 0
        for button in self.buttons.values():
            button.ensurePolished()
            width = button.sizeHint().width()
            if line is None or used + ROW_SPACING + width > ROW_WIDTH:
                line = QHBoxLayout()
                line.setSpacing(ROW_SPACING)
                rows.addLayout(line)
                used = -ROW_SPACING
            line.addWidget(button)
            used += ROW_SPACING + width

    def phrase(self, stamp: str) -> str:
        """A stamp's words in the player's language."""
        return {
            "greet": self.tr("Good luck!"),
            "thanks": self.tr("Thank you for the game"),
            "nice": self.tr("Nice move!"),
            "wait": self.tr("One moment"),
            "close": self.tr("So close!"),
        }[stamp]

    @property
    def muted(self) -> bool:
        """The other player's stamps are neither shown nor spoken (the display options)."""
        return self._muted

    @muted.setter
    def muted(self, on: bool) -> None:
        self._muted = on
        if on:
            self.bubble.hide()

    @property
    def link(self) -> StampLink | None:
        return self._link  # type: ignore[return-value]

    def _follow(self) -> None:
        """A network match's link is followed once; practice has no row."""
        remote = getattr(self.controller, "remote", None)
        link = getattr(remote, "link", None)
        if link is None or not hasattr(link, "send_stamp"):
            self._link = None
            self.bubble.hide()
            self.hide()
            return
        if link is not self._link:
            self._link = link
            link.stamp_received.connect(self._received)
            if hasattr(link, "after_opened"):  # stamps go on while both read the result
                link.after_opened.connect(self.refresh)
                link.after_over.connect(lambda _over: self.refresh())
        self.show()
        self.refresh()

    def add_to_result(self, panel: Panel) -> None:
        """The row again on a network match's result panel, which covers the table while
        both players read it (the match's connection stays open after it: a stamp, such as
        ありがとうございました, still goes), with the other player's last stamp above it."""
        if self._link is None:
            return
        strip = QWidget()
        strip.setObjectName("resultStamps")
        strip.setStyleSheet(_STYLE)
        column = QVBoxLayout(strip)
        column.setContentsMargins(0, 0, 0, 0)
        heard = QLabel()
        heard.setObjectName("resultStampHeard")
        heard.setAlignment(Qt.AlignmentFlag.AlignCenter)
        heard.hide()
        column.addWidget(heard)
        line = QHBoxLayout()
        line.setSpacing(ROW_SPACING)
        column.addLayout(line)
        buttons: dict[str, QPushButton] = {}
        for stamp, twin in self.buttons.items():
            button = QPushButton(twin.text())
            button.setObjectName("stampButton")
            button.setToolTip(twin.toolTip())
            button.setAccessibleName(twin.accessibleName())
            button.clicked.connect(partial(self.send, stamp))
            line.addWidget(button)
            buttons[stamp] = button
        panel.add_above_buttons(strip)
        self._strip = (strip, heard, buttons)
        self.refresh()

    @property
    def _result_strip(self) -> tuple[QWidget, QLabel, dict[str, QPushButton]] | None:
        """The result panel's row while that panel is up (it goes with the panel)."""
        strip = self._strip
        if strip is None or not isValid(strip[0]):
            self._strip = None
            return None
        return strip

    def refresh(self) -> None:
        """Grey the row out while no stamp may go; light it up again when one may."""
        link = self.link
        wait = None if link is None else link.stamp_wait()
        ready = wait is not None and wait <= 0
        strip = self._result_strip
        twins = [] if strip is None else list(strip[2].values())
        for button in [*self.buttons.values(), *twins]:
            button.setEnabled(ready)
        if wait is not None and wait > 0:
            self._ready_timer.start(math.ceil(wait * 1000))

    def send(self, stamp: str) -> None:
        """Send ``stamp`` (a click or Alt+1 … Alt+5), if the row is lit."""
        link = self.link
        strip = self._result_strip
        shown = self.isVisible() or (strip is not None and strip[0].isVisible())
        if link is None or not shown or not self.buttons[stamp].isEnabled():
            return
        if link.send_stamp(stamp):
            self.side.add_line(self.tr("You: {0}").format(self.phrase(stamp)))
        self.refresh()

    def _received(self, stamp: str) -> None:
        if self._muted or stamp not in STAMPS or self._link is None:
            return
        words = self.phrase(stamp)
        said = self.tr("{0}: {1}").format(self.controller.opponent_name or "", words)
        self.bubble.setText(words)
        self.bubble.setAccessibleName(said)
        self.place_bubble()
        self.bubble.show()
        self.bubble.raise_()
        self._bubble_timer.start(BUBBLE_MS)
        self.side.add_line(said)
        self.spoken.append(said)
        strip = self._result_strip
        if strip is not None:
            strip[1].setText(said)
            strip[1].show()
        announce(self.bubble, said)

    def place_bubble(self) -> None:
        """On the other player's name line, at the right of the score column."""
        side, them = self.side, self.side.them
        self.bubble.adjustSize()
        width = min(self.bubble.width(), side.width() - 16)
        self.bubble.resize(width, self.bubble.height())
        name = them.name.geometry()
        x = max(8, side.width() - width - 12)
        y = max(0, them.y() + name.center().y() - self.bubble.height() // 2)
        self.bubble.move(x, y)
