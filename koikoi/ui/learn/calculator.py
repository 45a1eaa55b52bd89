"""The score calculator: pick the cards of a winner's pile, the koikoi calls and the doubling
setting, and read what the round is worth (RULES.md R6, R9), as ``koikoi score`` would.

Every card of the deck is a toggle, laid out by month (a column each) and kind; the score is
the engine's own (:func:`koikoi.engine.yaku.score`), worked out again at every change. Keys:
the arrows move between cards, Space toggles one, Delete clears the pile. Each change is
announced to a screen reader as a one-line summary (cards, base, round points).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QKeyEvent, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import CARD_IDS, NUM_CARDS, CardSet
from koikoi.engine.yaku import DOUBLING_THRESHOLD, Score, score
from koikoi.ui.common import names
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.art import CardArt, card_size

CARD_WIDTH = 46
"""Pixels across one card of the grid."""
MAX_KOIKOI = 16
"""Koikoi calls are at most one per turn: eight turns each."""


class CardToggle(QToolButton):
    """One card of the grid; the arrow keys move to its neighbours."""

    def __init__(self, card: int, grid: ScoreCalculator) -> None:
        super().__init__()
        self.card = card
        self._grid = grid
        self.setObjectName("calcCard")
        self.setCheckable(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName(names.card_accessible_name(card))
        self.setToolTip(names.card_description(card))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        steps = {
            Qt.Key.Key_Left: (0, -1),
            Qt.Key.Key_Right: (0, 1),
            Qt.Key.Key_Up: (-1, 0),
            Qt.Key.Key_Down: (1, 0),
        }
        step = steps.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        self._grid.move_focus(self.card, *step)


class ScoreCalculator(QDialog):
    """Cards in, points out: the yaku, the base, the doubling, the multiplier, the points."""

    def __init__(
        self, parent: QWidget | None = None, art: CardArt | None = None, doubling: bool = True
    ) -> None:
        super().__init__(parent)
        self.setObjectName("calculatorDialog")
        self.setWindowTitle(self.tr("Score calculator"))  # Qt adds " — " and the app name
        self.setAccessibleName(self.tr("Score calculator"))
        self.art = art if art is not None else CardArt()
        self._said: str | None = None
        lay = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "得点計算 · Pick the cards the winner took, the koikoi calls made this round "
                "and the doubling setting."
            )
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)

        body = QHBoxLayout()
        grid = QGridLayout()
        grid.setSpacing(4)
        for month in range(12):
            head = QLabel(f"{month + 1}")
            head.setAlignment(Qt.AlignmentFlag.AlignCenter)
            head.setToolTip(names.month_name(month))
            grid.addWidget(head, 0, month)
        self.cards: list[CardToggle] = []
        size = card_size(CARD_WIDTH)
        for card in range(NUM_CARDS):
            toggle = CardToggle(card, self)
            toggle.setIcon(self._icon(CARD_IDS[card], size))
            toggle.setIconSize(size)
            toggle.toggled.connect(self.update_score)
            self.cards.append(toggle)
            grid.addWidget(toggle, 1 + card % 4, card // 4)
        body.addLayout(grid)

        side = QVBoxLayout()
        side.addWidget(QLabel(self.tr("Koikoi calls this round (both players)")))
        self.koikoi = QSpinBox()
        self.koikoi.setRange(0, MAX_KOIKOI)
        self.koikoi.setAccessibleName(self.tr("Koikoi calls this round"))
        self.koikoi.valueChanged.connect(self.update_score)
        side.addWidget(self.koikoi)
        self.doubling = QCheckBox(self.tr("Double at 8 points or more (8点以上で2倍)"))
        self.doubling.setChecked(doubling)
        self.doubling.toggled.connect(self.update_score)
        side.addWidget(self.doubling)
        self.score_label = QLabel()
        self.score_label.setObjectName("calcResult")
        self.score_label.setTextFormat(Qt.TextFormat.RichText)
        self.score_label.setWordWrap(True)
        self.score_label.setMinimumWidth(300)
        self.score_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.score_label.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.score_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard)
        side.addWidget(self.score_label, 1)
        body.addLayout(side, 1)
        lay.addLayout(body)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.clear_button = QPushButton(self.tr("Clear the cards"))
        self.clear_button.clicked.connect(self.clear)
        buttons.addButton(self.clear_button, QDialogButtonBox.ButtonRole.ResetRole)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.update_score()

    def _icon(self, card_id: str, size: QSize) -> QIcon:
        """The card, dimmed while it is not picked, full when it is."""
        full = self.art.pixmap(card_id, size)
        dim = QPixmap(full.size())
        dim.fill(Qt.GlobalColor.transparent)
        painter = QPainter(dim)
        painter.setOpacity(0.45)
        painter.drawPixmap(0, 0, full)
        painter.end()
        icon = QIcon()
        icon.addPixmap(dim, QIcon.Mode.Normal, QIcon.State.Off)
        icon.addPixmap(full, QIcon.Mode.Normal, QIcon.State.On)
        return icon

    # -- the pile ------------------------------------------------------------------------

    def pile(self) -> CardSet:
        """The cards ticked now, as a card set."""
        return sum(1 << t.card for t in self.cards if t.isChecked())

    def set_pile(self, cards: CardSet) -> None:
        for t in self.cards:
            t.blockSignals(True)
            t.setChecked(bool(cards >> t.card & 1))
            t.blockSignals(False)
        self.update_score()

    def clear(self) -> None:
        self.set_pile(0)

    def current_score(self) -> Score:
        return score(self.pile(), self.koikoi.value(), self.doubling.isChecked())

    def move_focus(self, card: int, rows: int, columns: int) -> None:
        """Focus the card ``rows`` down and ``columns`` across from ``card`` (wrapping)."""
        month, row = divmod(card, 4)
        target = (month + columns) % 12 * 4 + (row + rows) % 4
        self.cards[target].setFocus(Qt.FocusReason.TabFocusReason)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.clear()
            return
        super().keyPressEvent(event)

    # -- the result ----------------------------------------------------------------------

    def update_score(self) -> None:
        s = self.current_score()
        t = self.tr
        count = self.pile().bit_count()
        rows = "".join(
            f"<tr><td>{escape(names.yaku_name(y))}</td><td>{escape(names.yaku_japanese(y))}"
            f"</td><td align='right'>{p}</td></tr>"
            for y, p in s.yaku
        )
        cards = names.cards(count)
        lines = [f"<p>{escape(t('{0} picked').format(cards))}</p>"]
        if not s.yaku:
            lines.append(f"<p><b>{escape(t('No yaku: this pile scores nothing.'))}</b></p>")
        else:
            doubled = (
                t("×2: the total is {0} or more").format(DOUBLING_THRESHOLD)
                if s.doubled
                else t("not doubled")
            )
            lines += [
                f"<table cellspacing='4'>{rows}</table>",
                # each line one message: the colon is the language's (full-width in Japanese)
                f"<p>{escape(t('Yaku total (base points): {0}')).format(f'<b>{s.base}</b>')}<br>",
                f"{escape(t('Doubling: {0}')).format(escape(doubled))}<br>",
                f"{escape(t('Koikoi multiplier: ×{0}')).format(s.multiplier)}</p>",
                "<p style='font-size: 18px'><b>"
                f"{escape(t('Round points: {0}')).format(s.points)}</b></p>",
            ]
        self.score_label.setText("".join(lines))
        summary = (
            t("{0}, no yaku, 0 points").format(cards)
            if not s.yaku
            else t("{0}, base {1}, round points {2}").format(cards, s.base, s.points)
        )
        self.score_label.setAccessibleName(summary)
        self.score_label.setAccessibleDescription(summary)
        if summary != self._said:  # a screen reader hears the new total at once
            if self._said is not None:
                announce(self.score_label, summary)
            self._said = summary

    def sizeHint(self) -> QSize:
        return QSize(1020, 520)
