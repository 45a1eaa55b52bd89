"""The learning windows' page (the rules, the gallery): :class:`LearnPage`, a list of
contents beside a scrolling page of :class:`Section`\\ s the keyboard stops at; the cards
as pictures (:class:`CardPicture`, a yaku's cards as one :class:`CardStrip`), rich text and
the tables read cell by cell (:class:`FactTable`). What the rules page says is in
:mod:`koikoi.ui.learn.rules_window`.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Final

from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QFocusEvent,
    QFontMetrics,
    QHelpEvent,
    QPainter,
    QPaintEvent,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListView,
    QListWidget,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import CARD_IDS, CardSet, iter_cards
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt, card_size

# -- pictures -------------------------------------------------------------------------------

PICTURE_WIDTH: Final = 40
"""The width of a card picture in the learning windows (logical pixels)."""


class CardPicture(QLabel):
    """One card's picture, named for a screen reader; ``card`` says which. The picture is
    drawn when it first shows (a page holds a hundred cards; most are scrolled away)."""

    def __init__(self, art: CardArt, card: int, width: int, aids: bool) -> None:
        super().__init__()
        self.art = art
        self.card = card
        self.picture_width = width
        self.aids = aids
        self._picture: QPixmap | None = None
        self.setObjectName("cardPicture")
        self.setProperty("card", CARD_IDS[card])
        self.setAccessibleName(names.card_accessible_name(card))
        self.setAccessibleDescription(names.card_description(card))
        self.setToolTip(names.card_tooltip(card))
        self.setFixedSize(card_size(width))

    def set_aids(self, aids: bool) -> None:
        if aids != self.aids:
            self.aids = aids
            self._picture = None
            self.update()

    def set_width(self, width: int) -> None:
        """Show the card ``width`` pixels wide (the card-size display option)."""
        if width != self.picture_width:
            self.picture_width = width
            self._picture = None
            self.setFixedSize(card_size(width))

    def pixmap(self) -> QPixmap:
        """The card's picture as it is shown (drawn now if it has not been yet)."""
        if self._picture is None:
            dpr = self.devicePixelRatioF()
            size = card_size(self.picture_width)
            device = QSize(round(size.width() * dpr), round(size.height() * dpr))
            self._picture = self.art.pixmap(CARD_IDS[self.card], device, self.aids, dpr)
        return self._picture

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        p.drawPixmap(QRectF(self.rect()), self.pixmap(), QRectF(self.pixmap().rect()))
        p.end()


class CardStrip(QWidget):
    """Several cards' pictures in rows, painted by one widget (a page holds a hundred cards,
    and each widget costs its styling): a screen reader hears them named in one phrase, and
    each shows its own tooltip. ``cards`` says which, ``role`` what they are to a yaku
    (``needed``, ``pool`` or ``bonus``: :class:`~koikoi.engine.yaku.YakuRule`)."""

    GAP: Final = 4

    def __init__(
        self,
        art: CardArt,
        cards: CardSet,
        aids: bool,
        role: str = "",
        columns: int = 12,
        width: int = PICTURE_WIDTH,
    ) -> None:
        super().__init__()
        self.art = art
        self.cards = list(iter_cards(cards))
        self.aids = aids
        self.columns = max(1, min(columns, len(self.cards)))
        self.card = card_size(width)
        self._pictures: dict[int, QPixmap] = {}
        self.setObjectName("cardStrip")
        self.setProperty("role", role)
        self.setAccessibleName(names.cards_named(self.cards))
        rows = -(-len(self.cards) // self.columns)
        self.setFixedSize(
            self.columns * (self.card.width() + self.GAP) - self.GAP,
            rows * (self.card.height() + self.GAP) - self.GAP,
        )

    def card_rect(self, index: int) -> QRect:
        row, col = divmod(index, self.columns)
        step_x, step_y = self.card.width() + self.GAP, self.card.height() + self.GAP
        return QRect(col * step_x, row * step_y, self.card.width(), self.card.height())

    def card_at(self, pos: QPoint) -> int | None:
        for i, card in enumerate(self.cards):
            if self.card_rect(i).contains(pos):
                return card
        return None

    def set_aids(self, aids: bool) -> None:
        if aids != self.aids:
            self.aids = aids
            self._pictures.clear()
            self.update()

    def pixmap(self, card: int) -> QPixmap:
        """One card's picture as it is shown (drawn now if it has not been yet)."""
        picture = self._pictures.get(card)
        if picture is None:
            dpr = self.devicePixelRatioF()
            device = QSize(round(self.card.width() * dpr), round(self.card.height() * dpr))
            picture = self.art.pixmap(CARD_IDS[card], device, self.aids, dpr)
            self._pictures[card] = picture
        return picture

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        for i, card in enumerate(self.cards):
            r = self.card_rect(i)
            if r.intersects(event.rect()):
                picture = self.pixmap(card)
                p.drawPixmap(QRectF(r), picture, QRectF(picture.rect()))
        p.end()

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            card = self.card_at(event.pos())
            if card is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), names.card_tooltip(card), self)
            return True
        return super().event(event)


class Section(QFrame):
    """A part of a learning page the keyboard stops at (Tab), shown whole when it does."""

    def __init__(self, name: str, object_name: str = "learnSection") -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.setAccessibleName(name)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.on_focus: Callable[[Section], None] = lambda section: None

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.on_focus(self)


def rich_label(html: str, name: str = "") -> QLabel:
    label = QLabel(html)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    if name:
        label.setAccessibleName(name)
    return label


def ul(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


class FactTable(QTableWidget):
    """A table of words as tall as its rows (the page scrolls, not the table): a screen
    reader reads it cell by cell, and the arrows move between cells."""

    def __init__(self, head: list[str], rows: list[list[str]], name: str, fit: int = 0) -> None:
        """``fit``: how many of the first columns are as wide as their words (the others
        share the rest)."""
        super().__init__(len(rows), len(head))
        self.setAccessibleName(name)
        self.setHorizontalHeaderLabels(head)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(True)
        self.setTabKeyNavigation(False)
        self.verticalHeader().hide()
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.setItem(r, c, item)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for c in range(fit):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resizeRowsToContents()
        height = self.horizontalHeader().height() + 2 * self.frameWidth()
        height += sum(self.rowHeight(r) for r in range(self.rowCount()))
        if height != self.height():
            self.setFixedHeight(height)


def noted_table(
    note: str, head: list[str], rows: list[list[str]], name: str, object_name: str, fit: int = 0
) -> QWidget:
    """A note over a :class:`FactTable`."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    text = QLabel(note)
    text.setWordWrap(True)
    lay.addWidget(text)
    table = FactTable(head, rows, name, fit)
    table.setObjectName(object_name)
    lay.addWidget(table)
    return box


class ContentsList(QListWidget):
    """A learning page's list of contents: an entry too long for the list's width
    ("Cherry-blossom viewing 花見で一杯" in a 960 px window) takes two lines, never cut off.

    Each entry's height is measured for the width the list has (Qt's own measure of wrapped
    items leaves out the style sheet's padding, and cuts their last line off)."""

    PADDING: Final = 2 * 4 + 8  # the style sheet's item padding, and the text's margins
    WHOLE: Final = Qt.ItemDataRole.UserRole + 1
    """The entry's text in one line; its shown text has line breaks between words."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.model().rowsInserted.connect(self.fit)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit()

    def fit(self) -> None:
        """Give each entry the lines its text needs at the list's width, broken between its
        words: Qt would break Japanese between any two kana ("あかたん・あおた" then "ん")."""
        width = self.viewport().width()
        metrics = self.fontMetrics()
        text_width = max(40, width - self.PADDING)
        for row in range(self.count()):
            item = self.item(row)
            if item is None:
                continue
            whole = item.data(self.WHOLE)
            if not isinstance(whole, str):  # the entry as added: kept for the next width
                whole = item.text()
                item.setData(self.WHOLE, whole)
                item.setData(Qt.ItemDataRole.AccessibleTextRole, whole)  # read in one line
            text = "\n".join(_word_lines(whole, metrics, text_width))
            if item.text() != text:
                item.setText(text)
            lines = metrics.boundingRect(
                QRect(0, 0, text_width, 100_000), Qt.TextFlag.TextWordWrap, text
            )
            item.setSizeHint(QSize(width, lines.height() + 8))


def _word_lines(text: str, metrics: QFontMetrics, width: int) -> list[str]:
    """``text`` in lines of whole words (split at spaces) that fit ``width``, where they
    can; a word wider than that has a line of its own."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


class LearnPage(QWidget):
    """A scrolling page of sections with a list of contents: choosing an entry (arrows,
    Enter) shows its section; Tab goes through the sections, each scrolled into view."""

    def __init__(self, art: CardArt, aids: bool, object_name: str) -> None:
        super().__init__()
        self.setObjectName(object_name)
        self.art = art
        self.aids = aids
        self.pictures: list[CardPicture | CardStrip] = []
        self.sections: list[Section] = []
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.contents = ContentsList()
        self.contents.setObjectName("learnContents")
        self.contents.setAccessibleName(self.tr("Contents"))
        self.contents.setMaximumWidth(240)
        self.contents.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.contents.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.contents.currentRowChanged.connect(self.show_section)
        self.contents.itemActivated.connect(
            lambda _item: self.sections[self.contents.currentRow()].setFocus(
                Qt.FocusReason.OtherFocusReason
            )
        )
        outer.addWidget(self.contents, 1)
        self.scroller = QScrollArea()
        self.scroller.setObjectName("learnScroll")
        self.scroller.setAccessibleName(self.tr("Page"))
        self.scroller.setWidgetResizable(True)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body = QWidget()
        self.body.setObjectName("learnBody")
        self.column = QVBoxLayout(self.body)
        self.column.setContentsMargins(12, 8, 16, 16)
        self.column.setSpacing(10)
        self.scroller.setWidget(self.body)
        outer.addWidget(self.scroller, 4)

    def add_section(self, title: str, *parts: QWidget, contents: bool = True) -> Section:
        section = Section(title)
        lay = QVBoxLayout(section)
        lay.setContentsMargins(6, 6, 6, 6)
        head = QLabel(title)
        head.setObjectName("learnHead")
        head.setWordWrap(True)
        lay.addWidget(head)
        for part in parts:
            if isinstance(part, CardStrip):
                lay.addWidget(part, 0, Qt.AlignmentFlag.AlignLeft)
            else:
                lay.addWidget(part)
        self.column.addWidget(section)
        section.on_focus = self._section_focused
        if contents:
            self.contents.addItem(title)
            self.sections.append(section)
        return section

    def finish(self) -> None:
        self.column.addStretch(1)
        order: list[QWidget] = [self.contents, *self.sections]
        for a, b in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(a, b)

    def show_section(self, row: int) -> None:
        if 0 <= row < len(self.sections):
            section = self.sections[row]
            self.body.adjustSize()
            self.scroller.verticalScrollBar().setValue(section.y() - 4)

    def _section_focused(self, section: Section) -> None:
        self.scroller.ensureWidgetVisible(section, 10, 10)
        if section in self.sections:
            row = self.sections.index(section)
            self.contents.blockSignals(True)
            self.contents.setCurrentRow(row)
            self.contents.blockSignals(False)

    def set_aids(self, aids: bool) -> None:
        self.aids = aids
        for picture in self.pictures:
            picture.set_aids(aids)
