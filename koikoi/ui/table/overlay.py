"""The overlay over the table and what its panels are made of: :class:`Overlay` (it dims the
table and holds one panel in its middle), :class:`Panel` (a title, a body, a row of buttons),
card pictures and rows of them, the yaku list and the rows of a calculation. The panels
themselves are in :mod:`koikoi.ui.table.panels`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import CARD_IDS, Card
from koikoi.engine.yaku import Yaku
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt


class Overlay(QWidget):
    """Dims what is under it and holds one panel in its middle."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("overlay")
        self.panel: QWidget | None = None
        self.dim = 120
        self.hide()

    def show_panel(self, panel: QWidget, dim: int = 120) -> None:
        self.clear()
        self.dim = dim
        self.panel = panel
        panel.setParent(self)
        panel.installEventFilter(self)  # placed again when what it holds changes
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self._place()
        panel.show()
        self.show()
        self.raise_()
        focus = panel.findChild(QPushButton, "default")
        if focus is not None:
            focus.setFocus(Qt.FocusReason.OtherFocusReason)

    def clear(self) -> None:
        if self.panel is not None:
            self.panel.hide()
            self.panel.setParent(None)  # gone from findChild at once, deleted later
            self.panel.deleteLater()
            self.panel = None
        self.hide()

    def _place(self) -> None:
        if self.panel is None:
            return
        w = min(max(self.panel.sizeHint().width(), self.panel.minimumWidth()), self.width() - 40)
        h = min(self.panel.heightForWidth(w) if self.panel.hasHeightForWidth() else -1, 10**6)
        if h <= 0:
            h = self.panel.sizeHint().height()
        h = min(max(h, self.panel.minimumSizeHint().height()), self.height() - 40)
        self.panel.setGeometry((self.width() - w) // 2, (self.height() - h) // 2, w, h)

    def resizeEvent(self, event: object) -> None:
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A panel that gains a line or a row once it is up (a network match's status and
        stamps) asks its layout again: it is measured and placed anew, else it keeps its
        first height and squeezes what it holds."""
        if watched is self.panel and event.type() == QEvent.Type.LayoutRequest:
            self._place()
        return False

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(8, 6, 5, self.dim))
        p.end()


class CardPicture(QLabel):
    """A card in a panel: a picture with the card's accessible name."""

    def __init__(self, art: CardArt, card: Card | None, width: int = 64) -> None:
        super().__init__()
        art_id = CARD_IDS[card] if card is not None else "back"
        size = QSize(width, round(width * 1.6))
        dpr = self.devicePixelRatioF()
        pix = art.pixmap(
            art_id, QSize(int(size.width() * dpr), int(size.height() * dpr)), True, dpr
        )
        self.setPixmap(pix)
        self.setFixedSize(size)
        if card is not None:
            self.setAccessibleName(names.card_accessible_name(card))
            self.setAccessibleDescription(names.card_description(card))
            self.setToolTip(names.card_tooltip(card))
        else:
            self.setAccessibleName(self.tr("Face-down card"))


def card_row(art: CardArt, cards: Iterable[Card], width: int = 56, per_row: int = 8) -> QWidget:
    """Card pictures side by side, centred, in rows of at most ``per_row`` (so that a big
    pile never makes a panel wider than the window)."""
    box = QWidget()
    box.setObjectName("cardRow")
    rows = QVBoxLayout(box)
    rows.setContentsMargins(0, 0, 0, 0)
    rows.setSpacing(6)
    cards = list(cards)
    for start in range(0, len(cards), per_row):
        lay = QHBoxLayout()
        lay.setSpacing(6)
        lay.addStretch(1)
        for c in cards[start : start + per_row]:
            lay.addWidget(CardPicture(art, c, width))
        lay.addStretch(1)
        rows.addLayout(lay)
    return box


class Panel(QFrame):
    """The common frame: a title, a body and a row of buttons."""

    def __init__(self, title: str, subtitle: str = "") -> None:
        super().__init__()
        self.setObjectName("panel")
        self.setAccessibleName(title)
        self.setMinimumWidth(600)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(34, 26, 34, 26)
        self.body.setSpacing(12)
        t = QLabel(title)
        t.setObjectName("panelTitle")
        t.setAlignment(Qt.AlignmentFlag.AlignCenter)
        t.setWordWrap(True)
        self.body.addWidget(t)
        self.title_label = t
        if subtitle:
            s = QLabel(subtitle)
            s.setObjectName("panelSubtitle")
            s.setAlignment(Qt.AlignmentFlag.AlignCenter)
            s.setWordWrap(True)
            self.body.addWidget(s)
        self.buttons = QHBoxLayout()
        self.buttons.setSpacing(16)

    def text(
        self, text: str, name: str = "panelText", align: Qt.AlignmentFlag | None = None
    ) -> QLabel:
        label = QLabel(text)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setAlignment(align if align is not None else Qt.AlignmentFlag.AlignCenter)
        label.setTextFormat(Qt.TextFormat.PlainText)
        self.body.addWidget(label)
        return label

    def button(
        self,
        text: str,
        on_click: Callable[[], object],
        name: str = "",
        accessible: str = "",
        default: bool = False,
    ) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName("default" if default else name or "panelButton")
        if name and default:
            b.setProperty("role", name)
        b.setAccessibleName(accessible or text.replace("\n", " "))
        b.setCursor(Qt.CursorShape.PointingHandCursor)
        b.setMinimumHeight(52)
        b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        b.clicked.connect(on_click)
        b.setAutoDefault(True)
        self.buttons.addWidget(b)
        return b

    def finish(self) -> None:
        self.body.addSpacing(6)
        self.body.addLayout(self.buttons)

    def add_above_buttons(self, widget: QWidget) -> None:
        """``widget`` in the body just above the row of buttons (after :meth:`finish`)."""
        self.body.insertWidget(self.body.indexOf(self.buttons) - 1, widget)


def yaku_grid(rows: Sequence[tuple[Yaku, int]], new: Iterable[Yaku] = ()) -> QWidget:
    box = QWidget()
    grid = QGridLayout(box)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setHorizontalSpacing(18)
    grid.setVerticalSpacing(4)
    new = set(new)
    for i, (yaku, points) in enumerate(rows):
        ja = QLabel(names.yaku_japanese(yaku))
        ja.setObjectName("yakuJa")
        en = QLabel(names.yaku_name(yaku))
        en.setObjectName("yakuEn")
        pts = QLabel(_points(points))
        pts.setObjectName("yakuPoints")
        pts.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(en, i, 0)  # the name in the player's language first, large
        grid.addWidget(ja, i, 1)  # then the Japanese (in Japanese: its reading), smaller
        if yaku in new:
            tag = QLabel(QCoreApplication.translate("Panels", "new"))
            tag.setObjectName("newTag")
            grid.addWidget(tag, i, 2)
        grid.addWidget(pts, i, 3)
        for w in (ja, en, pts):
            w.setAccessibleName(
                f"{names.yaku_name(yaku)} ({names.yaku_japanese(yaku)}): {_points(points)}"
            )
    grid.setColumnStretch(1, 1)
    return box


def _points(n: int) -> str:
    return names.points(n)


def calc_rows(rows: Sequence[tuple[str, str]], strong_last: bool = True) -> QWidget:
    box = QWidget()
    box.setObjectName("calc")
    grid = QGridLayout(box)
    grid.setContentsMargins(14, 10, 14, 10)
    grid.setHorizontalSpacing(24)
    grid.setVerticalSpacing(3)
    for i, (what, value) in enumerate(rows):
        a = QLabel(what)
        b = QLabel(value)
        a.setObjectName("calcWhat")
        b.setObjectName("calcValue")
        b.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if strong_last and i == len(rows) - 1:
            a.setObjectName("calcTotal")
            b.setObjectName("calcTotal")
        a.setAccessibleName(f"{what} {value}")
        b.setAccessibleName(f"{what} {value}")
        grid.addWidget(a, i, 0)
        grid.addWidget(b, i, 1)
    grid.setColumnStretch(0, 1)
    return box


def they(name: str | None, computer: str, named: str) -> str:
    """The computer's sentence in practice, the one naming the peer (``{name}``) in a
    network match: each sentence whole, for translators."""
    return computer if name is None else named
