"""The score column of the table: both players' boxes, the round, the multiplier, the log
and the buttons under it (:class:`SidePanel`), and the parts the replay viewer's column shares
(:class:`SeatBox`, :func:`round_box`, :func:`rules_line`, :func:`game_log`).

The koikoi panel takes this column's place while the player decides
(:meth:`koikoi.ui.table.game_screen.GameScreen.decision_rect`), so the field stays in sight.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
)
from shiboken6 import isValid

from koikoi.engine.yaku import yaku_of
from koikoi.ui.common import names

if TYPE_CHECKING:
    from koikoi.ui.match.controller import GameController
    from koikoi.ui.table.table import TableView

LOG_LINES = 200
"""Lines the log keeps (it scrolls; the newest is always in sight)."""

STAKE_UNIT_STYLE: Final = "font-size: 13px; font-weight: 400"
"""The unit after the stakes, smaller than the number (its colour is the number's)."""


class SeatBox(QFrame):
    """One player's box in the score column: name, oya, stakes, koikoi calls, yaku."""

    def __init__(self, title: str, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self.setObjectName("seatBox")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(14, 10, 14, 10)
        lay.setSpacing(4)
        self.name = QLabel(title)
        self.name.setObjectName("seatName")
        lay.addWidget(self.name)
        row = QHBoxLayout()
        # the number and its unit in one label, so a screen reader hears "Stakes: 25 points"
        # once, not a lone "points" after it
        self.stake = QLabel("")
        self.stake.setObjectName("stake")
        self.stake.setTextFormat(Qt.TextFormat.RichText)
        self._show_stake(25)
        row.addWidget(self.stake)
        row.addStretch(1)
        self.oya = QLabel(self.tr("親 oya"))
        self.oya.setObjectName("oyaBadge")
        self.oya.setAccessibleName(self.tr("Oya: plays first this round"))
        row.addWidget(self.oya, 0, Qt.AlignmentFlag.AlignVCenter)
        lay.addLayout(row)
        self.calls = QLabel("")
        self.calls.setObjectName("koikoiCalls")
        lay.addWidget(self.calls)
        self.yaku = QLabel("")
        self.yaku.setObjectName("yakuList")
        self.yaku.setWordWrap(True)
        self.yaku.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.yaku)

    def _show_stake(self, stake: int) -> None:
        unit = html.escape(self.tr("points"))
        space = "" if names.current_language() == "ja" else "\u00a0"  # 25点, 25 points
        self.stake.setText(f"{stake}<span style='{STAKE_UNIT_STYLE}'>{space}{unit}</span>")
        self.stake.setAccessibleName(self.tr("Stakes: {0} points").format(stake))

    @property
    def stake_points(self) -> int:
        """The stakes the box shows."""
        return int(self.stake.text().partition("<")[0])

    def refresh(self, stake: int, is_oya: bool, calls: int, pile: int) -> None:
        self._show_stake(stake)
        self.oya.setVisible(is_oya)
        self.calls.setText(self.tr("「こいこい」 called ×{0}").format(calls) if calls else "")
        self.calls.setVisible(bool(calls))
        held = yaku_of(pile)
        if held:
            lines = [f"{names.yaku_name(y)}  {names.yaku_japanese(y)}  {p}" for y, p in held]
            total = sum(p for _, p in held)
            lines.append(self.tr("Total {0}").format(total))
            self.yaku.setText("\n".join(lines))
        else:
            self.yaku.setText(self.tr("No yaku yet"))
        self.yaku.setAccessibleName(self.tr("Yaku held: {0}").format(self.yaku.text()))


def rules_line(wrap: bool = False) -> QLabel:
    """A small line of the round box (the rules played, where a replay is)."""
    line = QLabel("")
    line.setObjectName("rulesLine")
    line.setWordWrap(wrap)
    return line


def round_box(*lines: QLabel) -> tuple[QFrame, QLabel, QLabel]:
    """The box between the two seats of a score column: the round, the multiplier, then
    ``lines``; returns the box and its round and multiplier labels."""
    box = QFrame()
    box.setObjectName("roundBox")
    lay = QVBoxLayout(box)
    lay.setContentsMargins(14, 10, 14, 10)
    lay.setSpacing(2)
    round_ = QLabel("")
    round_.setObjectName("roundLabel")
    multiplier = QLabel("")
    multiplier.setObjectName("multiplier")
    for w in (round_, multiplier, *lines):
        lay.addWidget(w)
    return box, round_, multiplier


def game_log(name: str, max_lines: int = 0) -> QPlainTextEdit:
    """A score column's log, named ``name`` for a screen reader (``max_lines``: 0 keeps all).
    It scrolls, its newest line always in sight however short the column; Tab reaches it, so
    that a screen reader can read it back, while a click leaves the keys to the table."""
    log = QPlainTextEdit()
    log.setObjectName("log")
    log.setReadOnly(True)
    log.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    log.setMaximumBlockCount(max_lines)
    log.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    log.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    log.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    log.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
    log.setMinimumHeight(log.fontMetrics().lineSpacing() * 2 + 16)
    log.setAccessibleName(name)
    return log


class SidePanel(QFrame):
    """The score column: both players, the round, the multiplier, a log, the buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("side")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 12, 12, 12)
        lay.setSpacing(10)
        self.them = SeatBox(self.tr("コンピューター Computer"), 1)
        lay.addWidget(self.them)
        self.rules = rules_line(wrap=True)
        self.dealing = rules_line(wrap=True)  # a network match: how its deals are made
        self.dealing.hide()
        mid, self.round, self.multiplier = round_box(self.rules, self.dealing)
        lay.addWidget(mid)
        # the game's keys the log does not use go on to the screen
        self.log = game_log(self.tr("What happened"), LOG_LINES)
        lay.addWidget(self.log, 1)
        self.me = SeatBox(self.tr("あなた You"), 0)
        lay.addWidget(self.me)
        buttons = QHBoxLayout()
        buttons.setSpacing(4)  # 「メニュー」「ヘルプ」「アシスト」 whole in a 960-pixel window
        self.menu_button = QPushButton(self.tr("Menu"))
        self.menu_button.setAccessibleName(self.tr("Back to the start screen (the match is saved)"))
        self.help_button = QPushButton(self.tr("Help"))
        self.help_button.setAccessibleName(self.tr("Rules and keys"))
        self.assist = QCheckBox(self.tr("Assist"))
        self.assist.setAccessibleName(self.tr("Assist display: highlight cards that can capture"))
        for b in (self.menu_button, self.help_button):
            b.setObjectName("smallButton")
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.assist)
        self.abandon_button = QPushButton(self.tr("End the match"))  # a peer that never moves
        self.abandon_button.setObjectName("abandonMatch")
        self.abandon_button.hide()
        lay.addWidget(self.abandon_button)
        lay.addLayout(buttons)
        self._lines: list[str] = []

    def add_line(self, text: str) -> None:
        self._lines.append(text)
        self._lines = self._lines[-LOG_LINES:]
        self.log.appendPlainText(text)
        self.scroll_log()

    def scroll_log(self) -> None:
        """Show the newest line (after a line, and after the column changed size). A size
        change as the window closes may call this after the log went, before the column."""
        if not isValid(self.log):
            return
        bar = self.log.verticalScrollBar()
        bar.setValue(bar.maximum())

    def clear_log(self) -> None:
        self._lines = []
        self.log.clear()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self.scroll_log)

    def refresh(self, controller: GameController, table: TableView) -> None:
        m = controller.match
        if m is None:
            return
        rnd = m.round
        model = table.model
        oya = rnd.oya if rnd is not None else m.oya
        calls = rnd.koikoi_calls if rnd is not None and model.round_no != 0 else [0, 0]
        count = rnd.koikoi_count if rnd is not None else 0
        shown = m.scores
        me, them = controller.me, controller.them
        self.me.seat, self.them.seat = me, them
        name = controller.opponent_name
        self.them.name.setText(self.tr("コンピューター Computer") if name is None else name)
        self.menu_button.setAccessibleName(
            self.tr("Back to the start screen (the match is saved)")
            if name is None
            else self.tr("Leave the match (asks first)")
        )
        self.them.refresh(shown[them], oya == them, calls[them], model.captured_set(them))
        self.me.refresh(shown[me], oya == me, calls[me], model.captured_set(me))
        round_no = model.round_no or m.round_no
        self.round.setText(self.tr("Round {0} of {1}").format(round_no, m.settings.rounds))
        self.multiplier.setText(
            self.tr("Multiplier ×{0} · koikoi calls: {1}").format(count + 1, count)
        )
        doubling = self.tr("on") if m.settings.doubling else self.tr("off")
        dealing = controller.dealing_text()
        self.dealing.setText(dealing)
        self.dealing.setAccessibleName(dealing)
        self.dealing.setVisible(bool(dealing))
        if name is not None:
            self.rules.setText(
                self.tr("Double at 8 or more: {0} · a network match with {1}").format(
                    doubling, name
                )
            )
            return
        self.rules.setText(
            self.tr("Double at 8 or more: {0} · computer: {1}").format(
                doubling, names.level_name(controller.level, True)
            )
        )
