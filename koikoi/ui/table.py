"""The table: cards as thin widgets placed and moved by engine events.

:class:`TableModel` (no Qt) keeps what the local player may see, in the order the table
shows it — the hand, the field's slots, both capture piles, the opponent's face-down cards,
the stock count — and changes it one engine event at a time. :class:`TableView` maps that
model to rectangles for its current size and animates each card widget to its place, so
cards move rather than jump; it never decides a rule. Cards are real widgets (a
``QAbstractButton`` each) so that every one has an accessible name a screen reader and a
test can find ("Matsu crane, January light"), and keyboard focus is Qt's own.

The layout follows the game's rules page (seed 000): the opponent's hand at the top, then
the opponent's captures, the field with the stock, your captures grouped by kind, and your
hand at the bottom.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Final

from PySide6.QtCore import (
    Property,
    QEasingCurve,
    QParallelAnimationGroup,
    QPointF,
    QPropertyAnimation,
    QRect,
    QRectF,
    QSequentialAnimationGroup,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QRadialGradient,
)
from PySide6.QtWidgets import QAbstractButton, QWidget

from koikoi.engine.cards import (
    CARD_IDS,
    CARD_MONTH_MASK,
    Card,
    CardSet,
    Kind,
    card_list,
    kind_of,
)
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    Dealt,
    Event,
    PlacedOnField,
    StockTurned,
)
from koikoi.engine.match import Observation
from koikoi.engine.yaku import yaku_of
from koikoi.ui import names
from koikoi.ui.art import CardArt

HUMAN: Final = 0
COMPUTER: Final = 1

KIND_ORDER: Final = (Kind.LIGHT, Kind.TANE, Kind.RIBBON, Kind.PLAIN)
_GROUP_WEIGHTS: Final = {Kind.LIGHT: 3.0, Kind.TANE: 4.2, Kind.RIBBON: 4.6, Kind.PLAIN: 7.6}

PAD: Final = 0.09
"""Room around a card widget's card for its shadow and glow, as a share of the card width."""

Key = int | str
"""A card widget's key: the card for a face, ``"opp<n>"`` for an opponent's hidden card."""


# -- the model -------------------------------------------------------------------------------


@dataclass
class TableModel:
    """What the local player sees, in table order. Changed only by :meth:`apply`."""

    hand: list[Card] = _field(default_factory=list)
    opponent: list[str] = _field(default_factory=list)
    """Keys of the opponent's face-down cards, left to right."""
    field: list[Card | None] = _field(default_factory=list)
    """Field slots; None is an empty slot, kept so that other cards do not move."""
    captured: tuple[list[Card], list[Card]] = _field(default_factory=lambda: ([], []))
    stock: int = 0
    staged: dict[Card, tuple[str, int]] = _field(default_factory=dict)
    """Cards between places: ``("over", target)`` on the field card they take, ``("wait", 0)``
    beside the stock (a drawn card, or a played one waiting for a pick)."""
    candidates: tuple[Card, ...] = ()
    round_no: int = 0
    oya: int = 0
    _rng: random.Random = _field(default_factory=lambda: random.Random(7))
    _backs: int = 0

    # views of the model

    def field_cards(self) -> CardSet:
        return sum(1 << c for c in self.field if c is not None)

    def captured_set(self, seat: int) -> CardSet:
        return sum(1 << c for c in self.captured[seat])

    def yaku(self, seat: int) -> list[tuple[object, int]]:
        return list(yaku_of(self.captured_set(seat)))

    def matches(self, card: Card) -> list[Card]:
        """Field cards of the card's month, in slot order."""
        mask = CARD_MONTH_MASK[card]
        return [c for c in self.field if c is not None and mask >> c & 1]

    # changes

    def _new_back(self) -> str:
        self._backs += 1
        return f"opp{self._backs}"

    def _free_slot(self, card: Card) -> int:
        for i, c in enumerate(self.field):
            if c is None:
                return i
        self.field.append(None)
        return len(self.field) - 1

    def _remove_from_field(self, card: Card) -> None:
        i = self.field.index(card)
        self.field[i] = None
        while self.field and self.field[-1] is None and len(self.field) > 8:
            self.field.pop()

    def deal(self, hand: CardSet, opponent_count: int, field_cards: CardSet, stock: int) -> None:
        self.hand = card_list(hand)
        self.opponent = [self._new_back() for _ in range(opponent_count)]
        self.field = list(card_list(field_cards))
        self.captured = ([], [])
        self.stock = stock
        self.staged = {}
        self.candidates = ()

    def restore(self, obs: Observation) -> None:
        self.deal(obs.hand, obs.opponent_hand_size, obs.field, obs.stock_size)
        self.captured = (card_list(obs.captured[0]), card_list(obs.captured[1]))
        self.round_no = obs.round_no
        self.oya = obs.oya
        if obs.pending >= 0:
            self.staged[obs.pending] = ("wait", 0)
            self.candidates = tuple(card_list(obs.candidates))

    def play(self, seat: int, card: Card) -> str | None:
        """A card leaves a hand; returns the opponent's back key that turned into it."""
        back = None
        if seat == HUMAN:
            self.hand.remove(card)
        else:
            back = self.opponent.pop(self._rng.randrange(len(self.opponent)))
        matches = self.matches(card)
        if len(matches) in (1, 3):
            self.staged[card] = ("over", matches[0])
        elif not matches:
            self.field[self._free_slot(card)] = card
        else:
            self.staged[card] = ("wait", 0)
        return back

    def turn_stock(self, card: Card) -> None:
        self.stock -= 1
        self.staged[card] = ("wait", 0)

    def choice(self, candidates: Iterable[Card]) -> None:
        self.candidates = tuple(candidates)

    def capture(self, seat: int, card: Card, taken: Iterable[Card]) -> None:
        self.staged.pop(card, None)
        for c in taken:
            self._remove_from_field(c)
            self.captured[seat].append(c)
        self.captured[seat].append(card)
        self.candidates = ()

    def place(self, card: Card) -> None:
        self.staged.pop(card, None)
        if card not in self.field:
            self.field[self._free_slot(card)] = card

    def apply(self, event: Event, human: int = HUMAN) -> None:
        if isinstance(event, Dealt):
            self.round_no, self.oya = event.round_no, event.oya
            self.deal(event.hands[human], event.hands[1 - human].bit_count(), event.field, 24)
        elif isinstance(event, CardPlayed):
            self.play(event.seat, event.card)
        elif isinstance(event, StockTurned):
            self.turn_stock(event.card)
        elif isinstance(event, ChoiceNeeded):
            self.choice(event.candidates)
        elif isinstance(event, Captured):
            self.capture(event.seat, event.card, event.taken)
        elif isinstance(event, PlacedOnField):
            self.place(event.card)

    def check_against(self, obs: Observation) -> list[str]:
        """Differences from the engine's observation (empty when the table is right)."""
        problems = []
        if sum(1 << c for c in self.hand) != obs.hand:
            problems.append("hand")
        if len(self.opponent) != obs.opponent_hand_size:
            problems.append("opponent hand size")
        if self.field_cards() != obs.field:
            problems.append("field")
        for seat in (0, 1):
            if self.captured_set(seat) != obs.captured[seat]:
                problems.append(f"captured {seat}")
        if self.stock != obs.stock_size:
            problems.append("stock")
        return problems


# -- the card widget -------------------------------------------------------------------------

GLOW_COLOURS: Final = {
    "capturable": QColor(255, 206, 84),
    "match": QColor(255, 236, 140),
    "candidate": QColor(255, 122, 60),
    "selected": QColor(255, 214, 102),
    "drawn": QColor(150, 220, 255),
}


class CardWidget(QAbstractButton):
    """One card: paints its picture (or the back), a shadow, a glow; nothing else."""

    def __init__(self, table: TableView, key: Key, face_up: bool) -> None:
        super().__init__(table)
        self.table = table
        self.key = key
        self.card: Card | None = key if isinstance(key, int) else None
        self.face_up = face_up and self.card is not None
        self._flip = 1.0
        self.glow: str | None = None
        self.where = ""
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setCursor(Qt.CursorShape.ArrowCursor)
        self.clicked.connect(self._clicked)
        self.update_names()

    # the flip: -1 (back, full width) .. 0 (edge on) .. 1 (face, full width)
    def _get_flip(self) -> float:
        return self._flip

    def _set_flip(self, value: float) -> None:
        self._flip = value
        self.update()

    flip = Property(float, _get_flip, _set_flip)

    def set_card(self, card: Card) -> None:
        self.key = card
        self.card = card
        self.face_up = True
        self.update_names()

    def set_where(self, where: str) -> None:
        if where != self.where:
            self.where = where
            self.update_names()

    def update_names(self) -> None:
        if self.card is not None and self.face_up:
            self.setAccessibleName(names.card_accessible_name(self.card))
            desc = names.card_description(self.card)
            self.setAccessibleDescription(f"{self.where} · {desc}" if self.where else desc)
            self.setToolTip(names.card_tooltip(self.card))
        else:
            self.setAccessibleName(self.table.tr("Face-down card"))
            self.setAccessibleDescription(self.where)
            self.setToolTip("")

    def set_glow(self, glow: str | None) -> None:
        if glow != self.glow:
            self.glow = glow
            self.update()

    def card_rect(self) -> QRectF:
        """The card inside the widget (the rest is room for the shadow and the glow)."""
        pad = round(self.width() / (1 + 2 * PAD) * PAD)
        return QRectF(self.rect()).adjusted(pad, pad, -pad, -pad)

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        scale = abs(self._flip)
        show_face = self.face_up and self._flip >= 0
        art_id = CARD_IDS[self.card or 0] if show_face else "back"
        sprite = self.table.sprite(art_id, self.card_rect().width(), self.glow)
        if scale == 1.0 and sprite.size() == self.size():
            p.drawPixmap(0, 0, sprite)  # at rest: a plain copy
        else:  # turning over, or between two sizes on its way
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            full = QRectF(self.rect())
            w = max(1.0, full.width() * scale)
            target = QRectF(full.center().x() - w / 2, full.top(), w, full.height())
            p.drawPixmap(target, sprite, QRectF(sprite.rect()))
        if (self.table.show_focus and self.table.cursor == self.key) or self.isDown():
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            r = self.card_rect()
            radius = r.width() * 0.06
            if self.isDown():
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(0, 0, 0, 40))
                p.drawRoundedRect(r, radius, radius)
            if self.table.show_focus and self.table.cursor == self.key:
                p.setPen(QPen(QColor(120, 210, 255), 3))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r.adjusted(-3, -3, 3, 3), radius + 3, radius + 3)
        p.end()

    def sizeHint(self) -> QSize:
        return QSize(80, 128)

    def _clicked(self) -> None:
        self.table.card_clicked(self)

    def enterEvent(self, event: object) -> None:
        self.table.card_hovered(self, True)

    def leaveEvent(self, event: object) -> None:
        self.table.card_hovered(self, False)

    def keyPressEvent(self, event: object) -> None:
        # Keys belong to the table's keyboard scheme (the screen above handles them), not to
        # the button: Space selects a card there, it does not play it.
        event.ignore()  # type: ignore[attr-defined]

    def keyReleaseEvent(self, event: object) -> None:
        event.ignore()  # type: ignore[attr-defined]


class StockWidget(QAbstractButton):
    """The stock (山札): a stack of backs with the count of cards left."""

    def __init__(self, table: TableView) -> None:
        super().__init__(table)
        self.table = table
        self.count = 0
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.clicked.connect(lambda: table.stock_clicked())

    def set_count(self, count: int) -> None:
        self.count = count
        self.setAccessibleName(self.table.tr("Stock (山札): {0} cards left").format(count))
        self.update()

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pad = self.width() / (1 + 2 * PAD) * PAD
        r = QRectF(self.rect()).adjusted(pad, pad, -pad, -pad - 14)
        if self.count:
            layers = min(6, max(1, self.count // 4))
            for i in range(layers, 0, -1):
                off = i * 1.6
                rr = r.translated(-off * 0.4, -off)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(0, 0, 0, 60))
                p.drawRoundedRect(rr.adjusted(0, 3, 0, 3), 6, 6)
                pix = self.table.pixmap("back", rr)
                p.drawPixmap(rr, pix, QRectF(pix.rect()))
        else:
            p.setPen(QPen(QColor(255, 255, 255, 70), 2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r, 6, 6)
        # the count, on a small lacquer plate under the stack
        f = QFont(self.font())
        f.setPixelSize(max(11, int(r.width() * 0.2)))
        f.setBold(True)
        p.setFont(f)
        plate = QRectF(
            r.left() + r.width() * 0.18,
            r.bottom() - r.width() * 0.16,
            r.width() * 0.64,
            r.width() * 0.3,
        )
        p.setPen(QPen(QColor(212, 168, 75), 1.5))
        p.setBrush(QColor(30, 20, 16, 230))
        p.drawRoundedRect(plate, plate.height() / 2, plate.height() / 2)
        p.setPen(QColor(250, 240, 220))
        p.drawText(plate, Qt.AlignmentFlag.AlignCenter, str(self.count))
        p.end()


def _discard(w: QWidget) -> None:
    """Take a widget off the table at once (hidden, unparented), deleted later."""
    w.hide()
    w.setParent(None)
    w.deleteLater()


# -- the view --------------------------------------------------------------------------------


@dataclass
class Layout:
    """Rectangles of one table size: card sizes, rows and zones."""

    width: float
    height: float
    cw: float  # a hand or field card
    ch: float
    sw: float  # a captured card / an opponent's hidden card
    sh: float
    margin: float
    opp_hand_y: float
    opp_cap_y: float
    field_rect: QRectF
    prompt_rect: QRectF
    my_cap_y: float
    hand_y: float
    stock_rect: QRectF
    wait_rect: QRectF
    grid_left: float
    grid_right: float
    label_h: float


@dataclass
class _Move:
    widget: QWidget
    to: QRect
    delay: int = 0
    duration: int = 260
    flip_to: float | None = None
    flip_from: float | None = None


class TableView(QWidget):
    """Paints the felt and the zones; places and animates the card widgets."""

    def __init__(self, art: CardArt | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self.setAccessibleName(self.tr("Table"))
        self.art = art if art is not None else CardArt()
        self.model = TableModel()
        self.widgets: dict[Key, CardWidget] = {}
        self.stock = StockWidget(self)
        self.stock.set_count(0)
        self.stock.hide()
        self._sprites: OrderedDict[tuple[str, int, str | None], QPixmap] = OrderedDict()
        self._background: QPixmap | None = None
        self._unders: dict[tuple[int, int, str | None], QImage] = {}
        self._warm_jobs: list[tuple[str, float]] = []
        self._warm_timer = QTimer(self)
        self._warm_timer.timeout.connect(self._warm_some)
        self.anim_scale = 1.0
        self.assist = True
        self.layout_ = self._compute_layout()
        self._anim: QParallelAnimationGroup | None = None
        self._glows: dict[Key, str] = {}
        self.lifted: Card | None = None
        self.show_focus = False
        """Draw the keyboard focus ring (after a key press, not after a click)."""
        self.cursor: Key | None = None
        """The card the keyboard is on (it also has Qt's focus when the window has it)."""
        # callbacks set by the screen that owns the table
        self.on_card_clicked: Callable[[CardWidget], None] = lambda w: None
        self.on_card_hovered: Callable[[CardWidget, bool], None] = lambda w, on: None
        self.on_stock_clicked: Callable[[], None] = lambda: None
        self.setMinimumSize(640, 480)

    # -- pictures ----------------------------------------------------------------------------

    def pixmap(self, art_id: str, rect: QRectF) -> QPixmap:
        """A picture at one of the two card widths of this layout (a hand or field card, a
        captured card): the smaller one that is not much below ``rect``. A card between the
        two sizes, as while it flies to a pile, is drawn scaled from the larger."""
        dpr = self.devicePixelRatioF()
        lay = self.layout_
        need = rect.width() * dpr
        small, large = round(lay.sw * dpr), round(lay.cw * dpr)
        width = small if need <= small * 1.04 else large
        size = QSize(max(8, width), max(13, round(width * 1.6)))
        return self.art.pixmap(art_id, size, aids=True, dpr=1.0)

    def sprite(self, art_id: str, card_width: float, glow: str | None) -> QPixmap:
        """A card with its shadow (and glow) drawn once and kept, in the widget's proportions:
        the card at (PAD, PAD) card widths from the corner. Painting a card is then one
        ``drawPixmap`` instead of a dozen antialiased shapes."""
        face = self.pixmap(art_id, QRectF(0, 0, card_width, card_width * 1.6))
        key = (art_id, face.width(), glow)
        cached = self._sprites.get(key)
        if cached is not None:
            self._sprites.move_to_end(key)
            return cached
        cw, ch = face.width(), face.height()
        m = round(cw * PAD)
        image = QImage(self._under(cw, ch, glow))  # a copy of the shadow (and glow)
        p = QPainter(image)
        p.drawPixmap(m, m, face)
        p.end()
        sprite = QPixmap.fromImage(image)
        self._sprites[key] = sprite
        while len(self._sprites) > 360:  # the least recently used go first
            self._sprites.popitem(last=False)
        return sprite

    def _under(self, cw: int, ch: int, glow: str | None) -> QImage:
        """What lies under a card of this size: its shadow and, if any, its glow (kept)."""
        key = (cw, ch, glow)
        image = self._unders.get(key)
        if image is not None:
            return image
        m = round(cw * PAD)
        image = QImage(cw + 2 * m, ch + 2 * m, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(0, 0, 0, 0))
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(m, m, cw, ch)
        radius = cw * 0.06
        unit = cw / 80  # the glow and shadow were designed on an 80-pixel card
        p.setPen(Qt.PenStyle.NoPen)
        for i, alpha in ((4, 28), (2, 48)):
            d = i * unit
            p.setBrush(QColor(0, 0, 0, alpha))
            p.drawRoundedRect(r.adjusted(-d / 2, d, d / 2, d * 1.2), radius + d, radius + d)
        if glow:
            colour = QColor(GLOW_COLOURS.get(glow, QColor("white")))
            for width, alpha in ((11, 50), (7, 90), (3.5, 230)):
                colour.setAlpha(alpha)
                p.setPen(QPen(colour, width * unit))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r, radius + unit, radius + unit)
        p.end()
        self._unders[key] = image
        return image

    def prewarm(self) -> None:
        """Draw every card's picture at this size a few at a time while the app is idle, so
        that no paint has to render an SVG in the middle of play."""
        lay = self.layout_
        jobs = [(art_id, width) for width in (lay.cw, lay.sw) for art_id in (*CARD_IDS, "back")]
        self._warm_jobs = jobs
        if not self._warm_timer.isActive():
            self._warm_timer.start(8)

    @property
    def warming(self) -> bool:
        """Pictures are still being drawn ahead of play."""
        return bool(self._warm_jobs)

    def _warm_some(self) -> None:
        if not self._warm_jobs:
            self._warm_timer.stop()
            return
        art_id, width = self._warm_jobs.pop()
        self.sprite(art_id, width, None)

    # -- geometry ----------------------------------------------------------------------------

    def _compute_layout(self) -> Layout:
        W, H = float(max(self.width(), 320)), float(max(self.height(), 240))
        m = max(8.0, H * 0.016)
        # whole pixels, so that a card widget is exactly the size of its picture (a blit)
        cw = float(round(min(H * 0.098, (W - 2 * m) / 9.6)))
        ch = float(round(cw * 1.6))
        sw = float(round(cw * 0.6))
        sh = float(round(sw * 1.6))
        label_h = max(14.0, H * 0.024)
        lift = ch * 0.14
        used = m + sh + (label_h + sh) + (2 * ch + ch * 0.12 + 2 * m) + H * 0.04
        used += (label_h + sh) + (ch + lift) + m
        gap = max(4.0, (H - used) / 4)
        y = m * 0.6
        opp_hand_y = y
        y += sh + gap * 0.7
        opp_cap_y = y + label_h
        y = opp_cap_y + sh + gap
        field_h = 2 * ch + ch * 0.12 + 2 * m
        field_rect = QRectF(m, y, W - 2 * m, field_h)
        y += field_h
        prompt_rect = QRectF(m, y + gap * 0.15, W - 2 * m, H * 0.04)
        y = prompt_rect.bottom() + gap * 0.6
        my_cap_y = y + label_h
        y = my_cap_y + sh + gap
        hand_y = max(y + lift, H - m - ch)
        stock_rect = QRectF(
            field_rect.left() + m * 1.2, field_rect.center().y() - ch / 2 - 6, cw, ch + 14
        )
        wait_rect = QRectF(stock_rect.right() + cw * 0.28, field_rect.top() + m * 0.5, cw, ch)
        grid_left = wait_rect.right() + cw * 0.45
        return Layout(
            W, H, cw, ch, sw, sh, m, opp_hand_y, opp_cap_y, field_rect, prompt_rect,
            my_cap_y, hand_y, stock_rect, wait_rect, grid_left, field_rect.right() - m, label_h,
        )  # fmt: skip

    def _card_rect(self, x: float, y: float, w: float, h: float) -> QRect:
        p = round(w * PAD)
        return QRect(round(x) - p, round(y) - p, round(w) + 2 * p, round(h) + 2 * p)

    def _field_slot_rect(self, slot: int) -> tuple[float, float]:
        lay = self.layout_
        n = max(len(self.model.field), 8)
        cols = max(4, math.ceil(n / 2))
        avail = lay.grid_right - lay.grid_left
        step = min(lay.cw * 1.16, (avail - lay.cw) / max(1, cols - 1))
        width = step * (cols - 1) + lay.cw
        centred = lay.field_rect.center().x() - width / 2  # centred on the mat when it fits
        left = max(lay.grid_left, min(centred, lay.grid_right - width))
        col, row = divmod(slot, 2)
        top = lay.field_rect.top() + lay.margin
        return left + col * step, top + row * lay.ch * 1.12

    def _hand_rects(self, count: int, y: float, w: float, h: float, gap: float) -> list[float]:
        lay = self.layout_
        step = min(w + gap, (lay.width - 2 * lay.margin - w) / max(1, count - 1))
        total = step * (count - 1) + w if count else 0
        left = (lay.width - total) / 2
        return [left + i * step for i in range(count)]

    def capture_group_rects(self, seat: int) -> dict[Kind, QRectF]:
        """Where each kind's group of a capture pile sits (labels included)."""
        lay = self.layout_
        y = lay.my_cap_y if seat == HUMAN else lay.opp_cap_y
        avail = lay.width - 2 * lay.margin
        gap = lay.sw * 0.35
        total = sum(_GROUP_WEIGHTS.values())
        unit = (avail - gap * 3) / total
        x = lay.margin
        rects = {}
        for kind in KIND_ORDER:
            w = _GROUP_WEIGHTS[kind] * unit
            rects[kind] = QRectF(x, y - lay.label_h, w, lay.sh + lay.label_h)
            x += w + gap
        return rects

    def targets(self) -> dict[Key, tuple[QRect, bool, str]]:
        """Where every card widget belongs now: (rectangle, face up, where in words)."""
        lay = self.layout_
        model = self.model
        out: dict[Key, tuple[QRect, bool, str]] = {}
        # the opponent's hidden hand
        xs = self._hand_rects(len(model.opponent), lay.opp_hand_y, lay.sw, lay.sh, lay.sw * 0.12)
        opp_where = self.tr("The computer's hand")
        for key, x in zip(model.opponent, xs, strict=True):
            out[key] = (self._card_rect(x, lay.opp_hand_y, lay.sw, lay.sh), False, opp_where)
        # the field
        where = self.tr("Field")
        for slot, card in enumerate(model.field):
            if card is not None:
                x, y = self._field_slot_rect(slot)
                out[card] = (self._card_rect(x, y, lay.cw, lay.ch), True, where)
        # captures, grouped by kind
        for seat in (HUMAN, COMPUTER):
            groups = self.capture_group_rects(seat)
            whose = (
                self.tr("Your captures") if seat == HUMAN else self.tr("The computer's captures")
            )
            for kind in KIND_ORDER:
                cards = [c for c in model.captured[seat] if kind_of(c) is kind]
                g = groups[kind]
                if not cards:
                    continue
                step = min(lay.sw * 0.62, (g.width() - lay.sw) / max(1, len(cards) - 1))
                for i, card in enumerate(cards):
                    x = g.left() + i * step
                    out[card] = (
                        self._card_rect(x, g.top() + lay.label_h, lay.sw, lay.sh),
                        True,
                        whose,
                    )
        # the local player's hand
        xs = self._hand_rects(len(model.hand), lay.hand_y, lay.cw, lay.ch, lay.cw * 0.14)
        where = self.tr("Your hand")
        for i, (card, x) in enumerate(zip(model.hand, xs, strict=True)):
            y = lay.hand_y - (lay.ch * 0.14 if card == self.lifted else 0)
            out[card] = (
                self._card_rect(x, y, lay.cw, lay.ch),
                True,
                self.tr("{0}, card {1} of {2}").format(where, i + 1, len(model.hand)),
            )
        # cards between places
        for card, (how, target) in model.staged.items():
            if how == "over" and target in out:
                t = QRectF(out[target][0])
                r = t.translated(lay.cw * 0.22, lay.ch * 0.16).toAlignedRect()
                out[card] = (r, True, self.tr("Taking a field card"))
            else:
                w = lay.wait_rect
                out[card] = (
                    self._card_rect(w.left(), w.top(), w.width(), w.height()),
                    True,
                    self.tr("Turned from the stock"),
                )
        return out

    def stock_geometry(self) -> QRect:
        r = self.layout_.stock_rect
        return self._card_rect(r.left(), r.top(), r.width(), r.height())

    def stock_card_rect(self) -> QRect:
        r = self.layout_.stock_rect
        return self._card_rect(r.left(), r.top(), r.width(), r.height() - 14)

    # -- placing and moving ------------------------------------------------------------------

    def _widget(self, key: Key, face_up: bool, at: QRect) -> CardWidget:
        w = self.widgets.get(key)
        if w is None:
            w = CardWidget(self, key, face_up)
            w.setGeometry(at)
            w.show()
            self.widgets[key] = w
        return w

    def _restack(self) -> None:
        """Raise widgets in table order: field, piles, hands, then cards in motion."""
        model = self.model
        order: list[Key] = [c for c in model.field if c is not None]
        for seat in (HUMAN, COMPUTER):
            for kind in KIND_ORDER:
                order += [c for c in model.captured[seat] if kind_of(c) is kind]
        order += model.opponent + model.hand + list(model.staged)
        self.stock.raise_()
        for key in order:
            w = self.widgets.get(key)
            if w is not None:
                w.raise_()

    def finish_animation(self) -> None:
        if self._anim is not None:
            anim = self._anim
            self._anim = None
            anim.stop()
            anim.deleteLater()
            self.snap()

    def snap(self) -> None:
        """Put every widget where it belongs, at once (after a resize, a restore)."""
        self.layout_ = self._compute_layout()
        for key, (rect, face_up, where) in self.targets().items():
            w = self._widget(key, face_up, rect)
            w.setGeometry(rect)
            w.face_up = face_up and w.card is not None
            w.flip = 1.0
            w.set_where(where)
        self._drop_stale()
        self.stock.setGeometry(self.stock_geometry())
        self.stock.set_count(self.model.stock)
        self.stock.setVisible(bool(self.model.round_no))
        self._restack()
        self.update()

    def _drop_stale(self) -> None:
        live = set(self.targets())
        for key in list(self.widgets):
            if key not in live:
                _discard(self.widgets.pop(key))

    def _animate(self, moves: list[_Move]) -> int:
        """Run moves together (each after its delay); returns the total milliseconds."""
        self.finish_animation()
        scale = self.anim_scale
        if scale <= 0 or not self.isVisible():
            for mv in moves:
                mv.widget.setGeometry(mv.to)
                if mv.flip_to is not None:
                    mv.widget.flip = mv.flip_to  # type: ignore[attr-defined]
            return 0
        group = QParallelAnimationGroup(self)
        total = 0
        for mv in moves:
            delay = int(mv.delay * scale)
            duration = max(1, int(mv.duration * scale))
            seq = QSequentialAnimationGroup(group)
            if delay:
                seq.addPause(delay)
            par = QParallelAnimationGroup(seq)
            a = QPropertyAnimation(mv.widget, b"geometry", par)
            a.setStartValue(mv.widget.geometry())
            a.setEndValue(mv.to)
            a.setDuration(duration)
            a.setEasingCurve(QEasingCurve.Type.OutCubic)
            if mv.flip_to is not None:
                f = QPropertyAnimation(mv.widget, b"flip", par)
                start = mv.flip_from if mv.flip_from is not None else mv.widget.flip  # type: ignore[attr-defined]
                f.setStartValue(float(start))
                f.setEndValue(float(mv.flip_to))
                f.setDuration(duration)
                f.setEasingCurve(QEasingCurve.Type.InOutSine)
            seq.addAnimation(par)
            total = max(total, delay + duration)
        self._anim = group
        group.finished.connect(self._animation_done)
        group.start()
        return total

    def _animation_done(self) -> None:
        anim = self._anim
        self._anim = None
        if anim is not None:
            anim.deleteLater()

    def _moves_to_targets(
        self, keys: Iterable[Key] | None = None, duration: int = 260
    ) -> list[_Move]:
        targets = self.targets()
        moves = []
        for key, (rect, face_up, where) in targets.items():
            if keys is not None and key not in keys:
                continue
            w = self._widget(key, face_up, rect)
            w.set_where(where)
            if w.geometry() != rect:
                moves.append(_Move(w, rect, 0, duration))
        return moves

    # -- events ------------------------------------------------------------------------------

    def present(self, event: Event) -> int:
        """Change the model by one event and animate the cards it moved; returns ms."""
        ms = self._present(event)
        self._update_labels()  # the trays' counts
        return ms

    def _present(self, event: Event) -> int:
        self.finish_animation()
        self.layout_ = self._compute_layout()
        model = self.model
        if isinstance(event, Dealt):
            return self._present_deal(event)
        if isinstance(event, CardPlayed):
            self.lifted = None
            back = model.play(event.seat, event.card)
            if back is not None:
                w = self.widgets.pop(back, None)
                if w is not None:
                    w.set_card(event.card)
                    w.flip = -1.0
                    self.widgets[event.card] = w
            w = self.widgets.get(event.card)
            moves = self._moves_to_targets()
            for mv in moves:
                if mv.widget is w:
                    mv.duration = 320
                    if back is not None:
                        mv.flip_from, mv.flip_to = -1.0, 1.0
            self._restack()
            self._raise(event.card)
            return self._animate(moves)
        if isinstance(event, StockTurned):
            start = self.stock_card_rect()
            w = self._widget(event.card, True, start)
            w.setGeometry(start)
            w.flip = -1.0
            model.turn_stock(event.card)
            self.stock.set_count(model.stock)
            moves = self._moves_to_targets([event.card], 340)
            for mv in moves:
                mv.flip_from, mv.flip_to = -1.0, 1.0
            self._restack()
            return self._animate(moves) + int(160 * self.anim_scale)
        if isinstance(event, ChoiceNeeded):
            model.choice(event.candidates)
            self.refresh_glows()
            return 0
        if isinstance(event, Captured):
            return self._present_capture(event)
        if isinstance(event, PlacedOnField):
            model.place(event.card)
            moves = self._moves_to_targets(duration=280)
            self._restack()
            return self._animate(moves)
        return 0

    def _raise(self, key: Key) -> None:
        w = self.widgets.get(key)
        if w is not None:
            w.raise_()

    def _present_deal(self, event: Dealt) -> int:
        self._background = None
        for w in self.widgets.values():
            _discard(w)
        self.widgets.clear()
        self.lifted = None
        self.model.apply(event)
        self.stock.set_count(self.model.stock)
        self.stock.setGeometry(self.stock_geometry())
        self.stock.show()
        start = self.stock_card_rect()
        targets = self.targets()
        # deal as at a real table: field, then hands, a few cards at a time
        order: list[Key] = []
        hand, opp, fld = (
            self.model.hand,
            self.model.opponent,
            [c for c in self.model.field if c is not None],
        )
        for i in range(0, 8, 2):
            order += opp[i : i + 2] + hand[i : i + 2] + fld[i : i + 2]
        moves = []
        for n, key in enumerate(order):
            rect, face_up, where = targets[key]
            w = self._widget(key, face_up, start)
            w.setGeometry(start)
            w.set_where(where)
            w.flip = -1.0 if face_up else 1.0
            moves.append(
                _Move(w, rect, n * 38, 300, 1.0 if face_up else None, -1.0 if face_up else None)
            )
        self._restack()
        for key in order:
            self._raise(key)
        self.refresh_glows()
        self.update()
        return self._animate(moves)

    def _present_capture(self, event: Captured) -> int:
        model = self.model
        staged = model.staged.get(event.card)
        first: list[_Move] = []
        lead = 0
        if staged is not None and staged[0] == "wait":
            # the card first goes onto the field card it takes, then both to the pile
            target = event.taken[0]
            t = self.targets().get(target)
            w = self.widgets.get(event.card)
            if t is not None and w is not None:
                lay = self.layout_
                r = QRectF(t[0]).translated(lay.cw * 0.22, lay.ch * 0.16).toAlignedRect()
                first.append(_Move(w, r, 0, 220))
                lead = 240
        model.capture(event.seat, event.card, event.taken)
        moves = self._moves_to_targets(duration=340)
        moving = {event.card, *event.taken}
        for mv in moves:
            if getattr(mv.widget, "key", None) in moving:
                mv.delay = lead + 60
        self.refresh_glows()
        self._restack()
        for key in moving:
            self._raise(key)
        return self._animate(first + moves)

    def restore(self, obs: Observation) -> None:
        """Show a round as the engine has it (a resumed match): no animation."""
        self.finish_animation()
        for w in self.widgets.values():
            _discard(w)
        self.widgets.clear()
        self.lifted = None
        self._background = None
        self.model.restore(obs)
        self.snap()
        self.refresh_glows()

    def clear(self) -> None:
        self.finish_animation()
        for w in self.widgets.values():
            _discard(w)
        self.widgets.clear()
        self.model = TableModel()
        self._background = None
        self.stock.hide()
        self.update()

    # -- highlights and input ----------------------------------------------------------------

    def set_glows(self, glows: dict[Key, str]) -> None:
        self._glows = glows
        self.refresh_glows()

    def refresh_glows(self) -> None:
        for key, w in self.widgets.items():
            w.set_glow(self._glows.get(key))

    def set_lifted(self, card: Card | None) -> None:
        if card == self.lifted:
            return
        self.lifted = card
        if self._anim is None:
            self._animate(self._moves_to_targets(self.model.hand, 140))

    def card_clicked(self, w: CardWidget) -> None:
        self.on_card_clicked(w)

    def card_hovered(self, w: CardWidget, on: bool) -> None:
        self.on_card_hovered(w, on)

    def stock_clicked(self) -> None:
        self.on_stock_clicked()

    def card_widget(self, card: Card) -> CardWidget | None:
        return self.widgets.get(card)

    # -- painting ----------------------------------------------------------------------------

    def resizeEvent(self, event: object) -> None:
        self.finish_animation()
        self._background = None
        self._sprites.clear()
        self._unders.clear()
        self.snap()
        self.prewarm()

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        dpr = self.devicePixelRatioF()
        size = QSize(round(self.width() * dpr), round(self.height() * dpr))
        if self._background is None or self._background.size() != size:
            self._background = self._render_background(size, dpr)
        p.drawPixmap(0, 0, self._background)
        if self.model.round_no:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            for seat in (COMPUTER, HUMAN):
                self._paint_tray_labels(p, seat)
        p.end()

    def _render_background(self, size: QSize, dpr: float) -> QPixmap:
        """The felt, the field mat and the capture trays: drawn once per size and round."""
        lay = self.layout_
        pix = QPixmap(size)
        pix.setDevicePixelRatio(dpr)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        g = QRadialGradient(
            QPointF(lay.width / 2, lay.height * 0.45), max(lay.width, lay.height) * 0.75
        )
        g.setColorAt(0.0, QColor(36, 92, 70))
        g.setColorAt(0.65, QColor(22, 64, 49))
        g.setColorAt(1.0, QColor(12, 38, 30))
        p.fillRect(QRectF(0, 0, lay.width, lay.height), QBrush(g))
        fr = lay.field_rect
        path = QPainterPath()
        path.addRoundedRect(fr, 18, 18)
        mat = QLinearGradient(fr.topLeft(), fr.bottomLeft())
        mat.setColorAt(0, QColor(255, 255, 255, 20))
        mat.setColorAt(1, QColor(0, 0, 0, 30))
        p.fillPath(path, QBrush(mat))
        p.setPen(QPen(QColor(212, 168, 75, 110), 1.5))
        p.drawPath(path)
        p.setPen(QPen(QColor(212, 168, 75, 45), 1))
        p.drawRoundedRect(fr.adjusted(5, 5, -5, -5), 14, 14)
        f = QFont(self.font())
        f.setPixelSize(int(lay.label_h * 0.72))
        p.setFont(f)
        p.setPen(QColor(240, 226, 190, 150))
        p.drawText(
            QRectF(fr.left() + 14, fr.bottom() - lay.label_h - 4, 300, lay.label_h),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.tr("場札 Field"),
        )
        if self.model.round_no:
            for seat in (COMPUTER, HUMAN):
                for r in self.capture_group_rects(seat).values():
                    tray = QRectF(
                        r.left() - 4, r.top() + lay.label_h - 4, r.width() + 8, lay.sh + 8
                    )
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(QColor(0, 0, 0, 46))
                    p.drawRoundedRect(tray, 8, 8)
                    p.setPen(QPen(QColor(255, 255, 255, 28), 1))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawRoundedRect(tray, 8, 8)
        p.end()
        return pix

    def _label_rects(self) -> list[QRectF]:
        lay = self.layout_
        return [
            QRectF(r.left(), r.top() - 2, r.width(), lay.label_h)
            for seat in (COMPUTER, HUMAN)
            for r in self.capture_group_rects(seat).values()
        ]

    def _update_labels(self) -> None:
        for r in self._label_rects():
            self.update(r.toAlignedRect())

    def _paint_tray_labels(self, p: QPainter, seat: int) -> None:
        lay = self.layout_
        f = QFont(self.font())
        f.setPixelSize(int(lay.label_h * 0.7))
        f.setBold(True)
        p.setFont(f)
        counts = {k: 0 for k in KIND_ORDER}
        for c in self.model.captured[seat]:
            counts[kind_of(c)] += 1
        for kind, r in self.capture_group_rects(seat).items():
            n = counts[kind]
            p.setPen(QColor(240, 222, 180, 235 if n else 130))
            p.drawText(
                QRectF(r.left(), r.top() - 2, r.width(), lay.label_h),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                f"{names.KINDS_JA[kind]} {names.kind_group_name(kind)}  {n}",
            )
