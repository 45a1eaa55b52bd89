"""Cards as thin widgets: a button per card painting one cached sprite, and the stock.

Each card is a ``QAbstractButton`` so that it has an accessible name a screen reader and a
test can find ("Matsu crane, January light") and takes Qt's keyboard focus. It paints one
picture from :class:`SpriteCache` — the card with its shadow and glow, drawn once per size —
and, when the keyboard is on it, a focus ring outside the glow, so the assist glow still
shows under the ring. Where a card goes is the table's business, not the widget's.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from PySide6.QtCore import Property, QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QEnterEvent,
    QFont,
    QImage,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QAbstractButton, QWidget

from koikoi.engine.cards import CARD_IDS, Card
from koikoi.ui.common import names
from koikoi.ui.common.art import ART_IDS, CardArt
from koikoi.ui.table.table_model import Key

PAD: Final = 0.09
"""Room around a card widget's card for its shadow, glow and focus ring, as a share of the
card width."""

GLOW_COLOURS: Final = {
    "capturable": QColor(255, 206, 84),
    "match": QColor(255, 236, 140),
    "candidate": QColor(255, 122, 60),
    "selected": QColor(255, 214, 102),
    "drawn": QColor(150, 220, 255),
    "hint": QColor(120, 235, 150),
}

FOCUS_RING: Final = QColor(120, 210, 255)
"""The keyboard's ring: light blue, 7:1 against the felt and apart from every glow's gold."""
FOCUS_EDGE: Final = QColor(8, 24, 40)
"""A dark line inside the ring, between it and the glow, so the two never merge."""

_SPRITES_KEPT: Final = 360

WARM_SLICE: Final = 0.004
"""Seconds of drawing ahead per turn of the event loop: the work goes on while it takes
less, so that a turn stays short (one picture's SVG takes a few milliseconds more at most)
and a click or a message from the network waits at most that long."""
WARM_INTERVAL: Final = 8
"""Milliseconds between two turns' worth of drawing ahead, once what the next deal needs is
ready; until then none (a turn as soon as the loop is idle, whatever else is due running
between two), so that it is ready soon after the toss."""


def card_pad(card_width: float) -> int:
    """The room on each side of a card of this width inside its widget, in pixels."""
    return round(card_width * PAD)


PANEL_WIDTH: Final = 40
"""The width of the yaku's cards in the koikoi-or-shobu panel (``panels.DecisionPanel``): its
pictures are drawn ahead too, since the panel comes up in the middle of play."""


class SpriteCache(QObject):
    """Card pictures at the table's two card widths, with their shadow and glow (kept).

    Painting a card is then one ``drawPixmap`` instead of a dozen antialiased shapes; the
    table tells the cache its widths on each layout (:meth:`set_widths`), and
    :meth:`prewarm` draws every picture a few at a time while the app is idle."""

    def __init__(self, art: CardArt, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.art = art
        self.small = 40.0
        self.large = 64.0
        self.dpr = 1.0
        self.aids = True
        """Draw the cards' reading aids (a display option)."""
        self._sprites: OrderedDict[tuple[str, int, str | None], QPixmap] = OrderedDict()
        self._unders: dict[tuple[int, int, str | None], QImage] = {}
        self._warm_jobs: list[Callable[[], object]] = []
        self._first: tuple[str, ...] = ()
        self._calm_at = 0
        """With this many jobs left or fewer, the work ahead goes at :data:`WARM_INTERVAL`;
        above it (the next deal's needs, the player's new captures), as soon as idle."""
        self.other_widths: Callable[[], list[tuple[float, float]]] = lambda: []
        """Other (small, large) card widths the table will have soon (while the koikoi
        panel's column narrows it): their pictures are drawn ahead too, last."""
        self.also: Callable[[], list[Callable[[], object]]] = lambda: []
        """More work to do ahead, after the next deal's pictures (the table's background
        and spare card widgets): asked for at each :meth:`prewarm`."""
        self._warm_timer = QTimer(self)
        self._warm_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._warm_timer.timeout.connect(self._warm_some)

    def set_widths(self, small: float, large: float, dpr: float) -> None:
        """The captured-card and the hand-card widths (logical pixels) of a new layout. The
        pictures of other widths are kept (the least recently used go first): the koikoi
        panel's column narrows the table, and gives its width back."""
        if dpr != self.dpr:
            self.clear()
        self.small, self.large, self.dpr = small, large, dpr

    def set_aids(self, on: bool) -> None:
        """Show or hide the cards' reading aids; the pictures are drawn again."""
        if on != self.aids:
            self.aids = on
            self.clear()

    def clear(self) -> None:
        self._sprites.clear()
        self._unders.clear()

    def pixmap(self, art_id: str, width: float) -> QPixmap:
        """A picture at one of the two card widths: the smaller one that is not much below
        ``width``. A card between the two sizes, as while it flies to a pile, is drawn
        scaled from the larger."""
        return self._face(art_id, self._face_width(width))

    def _face(self, art_id: str, w: int) -> QPixmap:
        """The card ``w`` device pixels wide."""
        size = QSize(max(8, w), max(13, round(w * 1.6)))
        return self.art.pixmap(art_id, size, aids=self.aids, dpr=1.0)

    def _face_width(self, width: float) -> int:
        need = width * self.dpr
        small, large = round(self.small * self.dpr), round(self.large * self.dpr)
        return small if need <= small * 1.04 else large

    def ready(self, art_id: str, width: float) -> bool:
        """The picture (without a glow) at ``width`` is drawn: painting it costs no SVG."""
        return (art_id, max(8, self._face_width(width)), None) in self._sprites

    def sprite(self, art_id: str, card_width: float, glow: str | None) -> QPixmap:
        """A card with its shadow (and glow) in the widget's proportions: the card at
        (PAD, PAD) card widths from the corner."""
        return self._sprite(art_id, self._face_width(card_width), glow)

    def _sprite(self, art_id: str, w: int, glow: str | None) -> QPixmap:
        face = self._face(art_id, w)
        key = (art_id, face.width(), glow)
        cached = self._sprites.get(key)
        if cached is not None:
            self._sprites.move_to_end(key)
            return cached
        cw, ch = face.width(), face.height()
        m = card_pad(cw)
        image = QImage(self._under(cw, ch, glow))  # a copy of the shadow (and glow)
        p = QPainter(image)
        p.drawPixmap(m, m, face)
        p.end()
        sprite = QPixmap.fromImage(image)
        self._sprites[key] = sprite
        while len(self._sprites) > _SPRITES_KEPT:  # the least recently used go first
            self._sprites.popitem(last=False)
        return sprite

    def _under(self, cw: int, ch: int, glow: str | None) -> QImage:
        """What lies under a card of this size: its shadow and, if any, its glow (kept)."""
        key = (cw, ch, glow)
        image = self._unders.get(key)
        if image is not None:
            return image
        m = card_pad(cw)
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

    def parse_ahead(self) -> None:
        """Read every card's SVG while the app is idle (before any table size is known), so
        that drawing a picture later is only its rendering."""
        if not self._warm_jobs:
            self._warm_jobs = [partial(self.art.renderer, i) for i in reversed(ART_IDS)]
            self._calm_at = len(self._warm_jobs)
            self._pace()

    def prewarm(self) -> None:
        """Draw every card's picture at this size while the app is idle, so that no paint
        has to render an SVG in the middle of play: a few milliseconds' worth at each turn
        of the event loop (:data:`WARM_SLICE`). The pictures the next deal shows come first
        (:meth:`prefer`), then the work :attr:`also` gives, then the table's larger size
        (hand and field), the smaller (captures), the koikoi-or-shobu panel's
        (:data:`PANEL_WIDTH`)."""
        first = (*self._first, "back")
        order: list[Callable[[], object]] = [self._job(i, self.large) for i in first]
        order.append(self._job("back", self.small))  # the opponent's hand
        order += self.also()
        rest = [self._job(i, self.large) for i in (*CARD_IDS, "back") if i not in first]
        rest += [self._job(i, self.small) for i in CARD_IDS]
        rest += [self._panel_job(i) for i in CARD_IDS]
        for small, large in self.other_widths():
            if (small, large) != (self.small, self.large):
                rest += [self._other_job(i, large) for i in (*CARD_IDS, "back")]
                rest += [self._other_job(i, small) for i in (*CARD_IDS, "back")]
        self._warm_jobs = (order + rest)[::-1]  # popped from the end
        self._calm_at = len(rest)
        self._pace()

    def _pace(self) -> None:
        """Run the work ahead: at once while the urgent part lasts, then calmly."""
        if not self._warm_jobs:
            self._warm_timer.stop()
            return
        interval = 0 if len(self._warm_jobs) > self._calm_at else WARM_INTERVAL
        if not self._warm_timer.isActive() or self._warm_timer.interval() != interval:
            self._warm_timer.start(interval)

    def _job(self, art_id: str, width: float) -> Callable[[], object]:
        return lambda: self.sprite(art_id, width, None)

    def _other_job(self, art_id: str, width: float) -> Callable[[], object]:
        """A picture for another size of the table: ``width`` exactly."""
        return lambda: self._sprite(art_id, round(width * self.dpr), None)

    def _panel_job(self, art_id: str) -> Callable[[], object]:
        """A picture as ``overlay.CardPicture`` asks for it."""
        w, h = PANEL_WIDTH, round(PANEL_WIDTH * 1.6)
        size = QSize(int(w * self.dpr), int(h * self.dpr))
        return lambda: self.art.pixmap(art_id, size, True, self.dpr)

    def prefer(self, art_ids: Sequence[str]) -> None:
        """The next deal's cards are known (a network match has dealt before its toss is
        shown): draw theirs first, while the player reads the toss."""
        self._first = tuple(art_ids)
        self.prewarm()

    def soon(self, art_ids: Sequence[str]) -> None:
        """Cards the koikoi-or-shobu panel may show next (the player's new captures): their
        panel pictures go to the head of the work ahead (nothing to do if drawn)."""
        self._calm_at = min(self._calm_at, len(self._warm_jobs))  # these are urgent
        self._warm_jobs += [self._panel_job(i) for i in art_ids]
        self._pace()

    @property
    def warming(self) -> bool:
        """Pictures are still being drawn ahead of play."""
        return bool(self._warm_jobs)

    def _warm_some(self) -> None:
        """One turn's worth of the work ahead (at least one job)."""
        end = time.perf_counter() + WARM_SLICE
        jobs = self._warm_jobs
        while jobs:
            jobs.pop()()
            if time.perf_counter() >= end:
                break
        self._pace()


class CardTable(QWidget):
    """The widget cards lie on (:class:`koikoi.ui.table.table.TableView`), as far as a card asks
    of it: the sprites it paints, where the keyboard is, what a click or a hover does. The
    table's module imports this one, never the other way round."""

    sprites: SpriteCache
    show_focus: bool
    """Draw the keyboard focus ring (after a key press, not after a click)."""
    focus_key: Key | None
    """The card the keyboard is on."""

    # What a card tells its table; TableView (and the replay viewer's table) provide them.

    def card_clicked(self, w: CardWidget) -> None:
        """A card was clicked or activated by key."""
        raise NotImplementedError("TableView handles the cards' clicks")

    def card_hovered(self, w: CardWidget, on: bool) -> None:
        """The pointer came onto a card (``on``) or left it."""
        raise NotImplementedError("TableView handles the cards' hovering")

    def stock_clicked(self) -> None:
        """The stock was clicked (draw the next card, when the game waits for it)."""
        raise NotImplementedError("TableView handles the stock's clicks")


class CardWidget(QAbstractButton):
    """One card: paints its picture (or the back), a shadow, a glow, the focus ring."""

    def __init__(self, table: CardTable, key: Key, face_up: bool) -> None:
        super().__init__(table)
        self.table = table
        self.key: Key = key
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
    def get_flip(self) -> float:
        return self._flip

    def set_flip(self, value: float) -> None:
        self._flip = value
        self.update()

    flip = Property(float, get_flip, set_flip)

    def reuse(self, key: Key, face_up: bool) -> None:
        """A spare widget (hidden) takes a card: as if new, without building one."""
        self.key = key
        self.card = key if isinstance(key, int) else None
        self.face_up = face_up and self.card is not None
        self._flip = 1.0
        self.glow = None
        self.where = ""
        self.setDown(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the screen gives it back to playable cards
        self.update_names()

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
            self.setAccessibleName(self.tr("Face-down card"))
            self.setAccessibleDescription(self.where)
            self.setToolTip("")

    def set_glow(self, glow: str | None) -> None:
        if glow != self.glow:
            self.glow = glow
            self.update()

    def card_rect(self) -> QRectF:
        """The card inside the widget (the rest is room for the shadow, glow and ring)."""
        pad = round(self.width() / (1 + 2 * PAD) * PAD)
        return QRectF(self.rect()).adjusted(pad, pad, -pad, -pad)

    @property
    def ringed(self) -> bool:
        """The keyboard is on this card and the player uses the keys."""
        return self.table.show_focus and self.table.focus_key == self.key

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        scale = abs(self._flip)
        show_face = self.face_up and self._flip >= 0
        art_id = CARD_IDS[self.card or 0] if show_face else "back"
        sprite = self.table.sprites.sprite(art_id, self.card_rect().width(), self.glow)
        if scale == 1.0 and sprite.size() == self.size():
            p.drawPixmap(0, 0, sprite)  # at rest: a plain copy
        else:  # turning over, or between two sizes on its way
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            full = QRectF(self.rect())
            w = max(1.0, full.width() * scale)
            target = QRectF(full.center().x() - w / 2, full.top(), w, full.height())
            p.drawPixmap(target, sprite, QRectF(sprite.rect()))
        if self.isDown():
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            r = self.card_rect()
            radius = r.width() * 0.06
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 40))
            p.drawRoundedRect(r, radius, radius)
        if self.ringed:
            self._paint_ring(p)
        p.end()

    def _paint_ring(self, p: QPainter) -> None:
        """The focus ring at the widget's edge, outside the glow's bright core: a 3-pixel
        light band with a 1-pixel dark line inside it."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.card_rect()
        pad = r.left()
        radius = r.width() * 0.06
        outer = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)  # the band's centre line
        grow = pad - 1.5
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(FOCUS_RING, 3))
        p.drawRoundedRect(outer, radius + grow, radius + grow)
        p.setPen(QPen(FOCUS_EDGE, 1))
        inner = outer.adjusted(2, 2, -2, -2)
        p.drawRoundedRect(inner, radius + grow - 2, radius + grow - 2)

    def sizeHint(self) -> QSize:
        return QSize(80, 128)

    def _clicked(self) -> None:
        self.table.card_clicked(self)

    def enterEvent(self, event: QEnterEvent) -> None:
        self.table.card_hovered(self, True)

    def leaveEvent(self, event: object) -> None:
        self.table.card_hovered(self, False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Keys belong to the table's keyboard scheme (the screen above handles them), not to
        # the button: Space selects a card there, it does not play it.
        event.ignore()

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        event.ignore()


class StockWidget(QAbstractButton):
    """The stock (山札): a stack of backs with the count of cards left."""

    def __init__(self, table: CardTable) -> None:
        super().__init__(table)
        self.table = table
        self.count = 0
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.clicked.connect(table.stock_clicked)

    def set_count(self, count: int) -> None:
        self.count = count
        self.setAccessibleName(self.tr("Stock (山札): {0} cards left").format(count))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
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
                pix = self.table.sprites.pixmap("back", rr.width())
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


def discard(w: QWidget) -> None:
    """Take a widget off the table at once (hidden, unparented), deleted later."""
    w.hide()
    w.setParent(None)
    w.deleteLater()
