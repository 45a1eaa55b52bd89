"""The Statistics page (統計): practice against the computer, level by level.

Reached from the start screen (its Statistics button, Ctrl+T); Escape or Back returns. It
shows :func:`koikoi.stats.tally.summary` of ``stats.json``: a row per computer level (matches,
wins, win rate, points per round, koikoi calls and how many paid, best streak), the yaku made
in rounds won (named as the table names them), the best streak over all levels, and, apart,
the matches played with undo or hints. A damaged file is set aside and said in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.yaku import Yaku
from koikoi.stats.store import StatsError, StatsStore
from koikoi.stats.tally import summary
from koikoi.ui.common import names
from koikoi.ui.common.enter import enter_presses_buttons
from koikoi.ui.common.settings import AI_LEVELS
from koikoi.ui.learn.learn_page import FactTable
from koikoi.ui.stats.counting import set_aside_text

SHORTCUT = "Ctrl+T"
"""The start screen's key for this page."""

_TABLE_STYLE = (
    "QTableWidget { background: rgba(0,0,0,0.25); color: #f3e9d2;"
    " gridline-color: rgba(212,168,75,0.3); border: 1px solid rgba(212,168,75,0.5);"
    " font-size: 14px; }"
    "QTableWidget:focus { border: 2px solid #7fd3ff; }"
    "QTableWidget::item:selected { background: rgba(212, 168, 75, 0.35); }"
)


class StatsTable(FactTable):
    """A :class:`FactTable` whose rows are measured again when its columns change width
    (the window grown or shrunk): a yaku's name wraps instead of being cut short."""

    def __init__(self, head: list[str], rows: list[list[str]], name: str, fit: int = 0) -> None:
        super().__init__(head, rows, name, fit)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.horizontalHeader().sectionResized.connect(self._columns_changed)
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.timeout.connect(
            lambda: self.resizeEvent(QResizeEvent(self.size(), self.size()))
        )

    def _columns_changed(self, *_: object) -> None:
        self._refit.start(0)


class StatsPage(QWidget):
    """The statistics of practice matches, read afresh each time it is shown."""

    def __init__(self, store: StatsStore | None = None) -> None:
        super().__init__()
        self.setObjectName("statsPage")
        self.setAccessibleName(self.tr("Statistics"))
        self.store = store if store is not None else StatsStore()
        self.on_back: Callable[[], None] = lambda: None
        self.data: dict[str, Any] = summary(())
        outer = QVBoxLayout(self)
        outer.setContentsMargins(32, 16, 32, 16)
        outer.setSpacing(10)
        title = QLabel(self.tr("統計 · Statistics of practice against the computer"))
        title.setObjectName("cardHead")
        title.setStyleSheet("font-size: 24px;")
        outer.addWidget(title)
        self.notice = QLabel("")
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.setAccessibleName(self.tr("Notice"))
        self.notice.hide()
        outer.addWidget(self.notice)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setStyleSheet(
            "QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }"
        )
        outer.addWidget(self.scroller, 1)
        buttons = QHBoxLayout()
        self.back_button = QPushButton(self.tr("Back"))
        self.back_button.setObjectName("secondaryButton")
        self.back_button.setAccessibleName(self.tr("Back to the start screen (Esc)"))
        self.back_button.clicked.connect(lambda: self.on_back())
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        outer.addLayout(buttons)
        enter_presses_buttons(self)
        self._body: QWidget | None = None
        self.level_table: FactTable | None = None
        self.assisted_table: FactTable | None = None
        self.yaku_table: FactTable | None = None
        self.streak = QLabel("")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.on_back()
            return
        super().keyPressEvent(event)

    def refresh(self) -> None:
        """Read the statistics file again and show it (a damaged one is set aside)."""
        notice = None
        try:
            loaded = self.store.load()
        except StatsError as exc:
            notice = self.tr("The statistics cannot be read: {0}").format(exc)
            self.data = summary(())
        else:
            notice = set_aside_text(loaded)
            self.data = summary(loaded.entries)
        self.notice.setText(notice or "")
        self.notice.setVisible(bool(notice))
        self._build()

    # -- the tables --------------------------------------------------------------------------

    def _level_name(self, level: str) -> str:
        return names.level_name(level)

    def _level_rows(self, levels: dict[str, dict[str, Any]]) -> list[list[str]]:
        order = [lv for lv in AI_LEVELS if lv in levels] + [
            lv for lv in levels if lv not in AI_LEVELS
        ]
        rows = []
        for level in order:
            s = levels[level]
            rows.append(
                [
                    self._level_name(level),
                    str(s["matches"]),
                    str(s["wins"]),
                    self.tr("{0} %").format(round(100 * s["win_rate"])),
                    f"{s['points_per_round']:+.2f}",
                    str(s["koikoi_calls"]),
                    str(s["koikoi_paid"]),
                    str(s["best_streak"]),
                ]
            )
        return rows

    def _levels_table(self, levels: dict[str, dict[str, Any]], name: str) -> FactTable:
        # two-line headings: eight columns in a 1024-pixel window
        head = [
            self.tr("Computer"),
            self.tr("Matches"),
            self.tr("Wins"),
            self.tr("Win\nrate"),
            self.tr("Points\nper round"),
            self.tr("Koikoi\ncalls"),
            self.tr("Koikoi\npaid"),
            self.tr("Best\nstreak"),
        ]
        table = StatsTable(head, self._level_rows(levels), name, fit=len(head))
        for column in range(len(head)):
            heading = table.horizontalHeaderItem(column)
            if heading is not None:  # a screen reader hears the heading on one line
                heading.setData(Qt.ItemDataRole.AccessibleTextRole, head[column].replace("\n", " "))
        table.horizontalHeader().setStretchLastSection(True)
        table.setObjectName("statsLevels")
        table.setStyleSheet(_TABLE_STYLE)
        return table

    def _card(self, heading: str, name: str) -> tuple[QFrame, QVBoxLayout]:
        card = QFrame()
        card.setObjectName("settingsCard")
        card.setAccessibleName(name)
        lay = QVBoxLayout(card)
        lay.setContentsMargins(18, 12, 18, 12)
        lay.setSpacing(8)
        head = QLabel(heading)
        head.setObjectName("cardHead")
        lay.addWidget(head)
        return card, lay

    def _build(self) -> None:
        if self._body is not None:
            self._body.deleteLater()
        body = QWidget()
        row = QHBoxLayout(body)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(16)
        left = QVBoxLayout()
        left.setSpacing(12)
        data = self.data
        card, lay = self._card(self.tr("Played alone"), self.tr("Matches played alone"))
        if data["matches"]:
            self.level_table = self._levels_table(data["levels"], self.tr("Matches by level"))
            lay.addWidget(self.level_table)
        else:
            self.level_table = None
            empty = QLabel(self.tr("No practice match finished yet: finish one to see it here."))
            empty.setWordWrap(True)
            lay.addWidget(empty)
        self.streak = QLabel(
            self.tr(
                "Best streak over all levels: %n match(es) won in a row", "", data["best_streak"]
            )
        )
        self.streak.setObjectName("bestStreak")
        lay.addWidget(self.streak)
        note = QLabel(
            self.tr(
                "Points per round: stakes won less stakes lost, per round played. "
                "Koikoi paid: calls in rounds you went on to win. "
                "Only finished matches count."
            )
        )
        note.setWordWrap(True)
        note.setStyleSheet("font-size: 13px; color: #d8ccb0;")
        lay.addWidget(note)
        left.addWidget(card)
        helped = data["assisted"]
        card, lay = self._card(
            self.tr("With undo or hints (counted apart)"),
            self.tr("Matches played with undo or hints, counted apart"),
        )
        self.assisted_count = QLabel(
            self.tr("%n match(es) played with help", "", helped["matches"])
        )
        self.assisted_count.setObjectName("assistedCount")
        lay.addWidget(self.assisted_count)
        if helped["matches"]:
            self.assisted_table = self._levels_table(
                helped["levels"], self.tr("Matches with undo or hints by level")
            )
            lay.addWidget(self.assisted_table)
        else:
            self.assisted_table = None
        left.addWidget(card)
        left.addStretch(1)
        row.addLayout(left, 5)

        card, lay = self._card(self.tr("Yaku made"), self.tr("Yaku made in rounds you won"))
        yaku = data["yaku"]
        if yaku:
            rows = [
                [names.yaku_name(Yaku(y)), names.yaku_japanese(Yaku(y)), str(n)]
                for y, n in yaku.items()
            ]
            self.yaku_table = StatsTable(
                [self.tr("Yaku"), self.tr("In Japanese"), self.tr("Times")],
                rows,
                self.tr("Yaku made in rounds you won"),
                fit=0,
            )
            header = self.yaku_table.horizontalHeader()
            header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
            self.yaku_table.setObjectName("statsYaku")
            self.yaku_table.setStyleSheet(_TABLE_STYLE)
            lay.addWidget(self.yaku_table)
        else:
            self.yaku_table = None
            lay.addWidget(QLabel(self.tr("None yet")))
        lay.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(card)
        right.addStretch(1)
        row.addLayout(right, 3)
        self._body = body
        self.scroller.setWidget(body)
