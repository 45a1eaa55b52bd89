"""The table view: each card widget animated to where it belongs at this size.

:class:`TableView` asks :mod:`koikoi.ui.table.table_layout` where every card of the
:class:`~koikoi.ui.table.table_model.TableModel` belongs at its current size (a :class:`Layout`)
and animates each card widget (:class:`~koikoi.ui.table.card_widget.CardWidget`) to its place, so
cards move rather than jump; it never decides a rule. The model changes by engine events
only, and the view follows the model. It also paints the felt, its trays and their labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Final

from PySide6.QtCore import (
    QEasingCurve,
    QEvent,
    QParallelAnimationGroup,
    QPointF,
    QPropertyAnimation,
    QRect,
    QRectF,
    QSequentialAnimationGroup,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from koikoi.engine.cards import CARD_IDS, Card, Kind, kind_of
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
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.table.card_widget import (
    CardTable,
    CardWidget,
    SpriteCache,
    StockWidget,
    discard,
)
from koikoi.ui.table.table_layout import (
    Layout,
    capture_groups,
    capture_y,
    card_rect,
    compute_layout,
    targets,
)
from koikoi.ui.table.table_model import KIND_ORDER, Key, TableModel

__all__ = ["TableView"]

MIN_WIDTH: Final = 500
MIN_HEIGHT: Final = 480
"""The least table that still shows every card (the koikoi panel may take the rest)."""

# Words painted on the felt: cream, translucent enough to sit on it, opaque enough for 4.5:1
# on its lightest part (an empty group's label a little softer, still above 4.5:1).
FIELD_LABEL: Final = QColor(240, 226, 190, 225)
TRAY_LABEL: Final = QColor(240, 222, 180, 255)
TRAY_LABEL_EMPTY: Final = QColor(240, 222, 180, 215)

SPARES: Final = 24
"""Card widgets built ahead (hidden) for the first deal, so that a deal builds none: it
shows 24."""
KEPT: Final = 48
"""Card widgets kept (hidden) when they leave the table, for the next cards it shows: a
round's worth, so the next round builds none either."""
BACKGROUNDS_KEPT: Final = 4
"""Table backgrounds kept, one per size (the koikoi panel's column narrows the table and
gives it back)."""


# -- the view --------------------------------------------------------------------------------


@dataclass
class _Move:
    widget: CardWidget
    to: QRect
    delay: int = 0
    duration: int = 260
    flip_to: float | None = None
    flip_from: float | None = None


class TableView(CardTable):
    """Paints the felt and the zones; places and animates the card widgets."""

    def __init__(self, art: CardArt | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self.setAccessibleName(self.tr("Table"))
        self.art = art if art is not None else CardArt()
        self.model = TableModel()
        self.opponent_name: str | None = None
        """The opponent's name in a network match; None: the computer."""
        self.widgets: dict[Key, CardWidget] = {}
        self.stock = StockWidget(self)
        self.stock.set_count(0)
        self.stock.hide()
        self.sprites = SpriteCache(self.art, self)
        self.sprites.also = self._work_ahead
        self.sprites.parse_ahead()
        self._backgrounds: dict[tuple[object, ...], QPixmap] = {}
        """The felt by size (and whether the trays are drawn): see :meth:`_background_key`."""
        self._spare: list[CardWidget] = []
        """Card widgets off the table, hidden, for the next ones it shows."""
        self.more_ahead: Callable[[], list[Callable[[], object]]] = lambda: []
        """The screen's own work ahead (its panels), done after the table's."""
        self.other_sizes: Callable[[], list[QSize]] = lambda: []
        """Sizes the screen will give the table soon (the koikoi panel's column narrows it):
        their card pictures are drawn ahead too."""
        self.sprites.other_widths = lambda: [
            (lay.sw, lay.cw) for lay in map(self._compute_layout, self.other_sizes())
        ]
        self.anim_scale = 1.0
        self.assist = True
        self.card_scale = 1.0
        """The display option's card size against the usual one (what fits is kept)."""
        self.high_contrast = False
        """A black felt under the cards (the high-contrast display option)."""
        self.prompt_height = 0.0
        """The prompt line's least height (its text's), set by the screen that shows it."""
        self.layout_ = self._relayout()
        self._anim: QParallelAnimationGroup | None = None
        self._glows: dict[Key, str] = {}
        self.lifted: Card | None = None
        self.show_focus = False
        """Draw the keyboard focus ring (after a key press, not after a click)."""
        self.focus_key: Key | None = None
        """The card the keyboard is on (it also has Qt's focus when the window has it)."""
        # callbacks set by the screen that owns the table
        self.on_card_clicked: Callable[[CardWidget], None] = lambda w: None
        self.on_card_hovered: Callable[[CardWidget, bool], None] = lambda w, on: None
        self.on_stock_clicked: Callable[[], None] = lambda: None
        self.setMinimumSize(MIN_WIDTH, MIN_HEIGHT)

    @property
    def warming(self) -> bool:
        """Card pictures are still being drawn ahead of play."""
        return self.sprites.warming

    # -- geometry ----------------------------------------------------------------------------

    def _relayout(self) -> Layout:
        """The layout for the current size; the sprite cache follows its card widths."""
        lay = self._compute_layout()
        self.sprites.set_widths(lay.sw, lay.cw, self.devicePixelRatioF())
        return lay

    def _compute_layout(self, size: QSize | None = None) -> Layout:
        """The layout at this size, or at ``size``."""
        size = size if size is not None else self.size()
        return compute_layout(size, self.card_scale, self.prompt_height)

    def set_display(
        self, card_scale: float, reading_aids: bool, high_contrast: bool = False
    ) -> None:
        """The display options the table follows (``settings.DisplayOptions``), at once."""
        self.card_scale = card_scale
        self.high_contrast = high_contrast
        self._background = None
        self.sprites.set_aids(reading_aids)
        self.finish_animation()
        self.snap()
        for w in self.widgets.values():
            w.update()
        self.stock.update()

    def _card_rect(self, x: float, y: float, w: float, h: float) -> QRect:
        return card_rect(x, y, w, h)

    def capture_group_rects(self, seat: int) -> dict[Kind, QRectF]:
        """Where each kind's group of a capture pile sits (labels included)."""
        return capture_groups(self.layout_, capture_y(self.layout_, self.model, seat))

    def targets(self) -> dict[Key, tuple[QRect, bool, str]]:
        """Where every card widget belongs now: (rectangle, face up, where in words)."""
        return targets(self.layout_, self.model, self.lifted, self.opponent_name)

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
            if self._spare:
                w = self._spare.pop()
                w.reuse(key, face_up)
            else:
                w = CardWidget(self, key, face_up)
            w.setGeometry(at)
            w.show()
            self.widgets[key] = w
        return w

    def _retire(self, w: CardWidget) -> None:
        """Take a card widget off the table: hidden, kept for a later card (up to
        :data:`KEPT`; the others are deleted)."""
        if len(self._spare) < KEPT:
            w.hide()
            self._spare.append(w)
        else:
            discard(w)

    def _retire_all(self) -> None:
        for w in self.widgets.values():
            self._retire(w)
        self.widgets.clear()

    def _make_spare(self) -> None:
        """One more spare widget, while the app is idle (see :meth:`_work_ahead`): with the
        widgets on the table, a deal's worth."""
        if len(self._spare) + len(self.widgets) < SPARES:
            w = CardWidget(self, "spare", False)
            w.hide()
            self._spare.append(w)

    def _work_ahead(self) -> list[Callable[[], object]]:
        """What the table prepares while the app is idle, after the next deal's pictures:
        its background with the trays at this size and the widgets of a deal."""
        sizes = (self.size(), *self.other_sizes())
        jobs: list[Callable[[], object]] = [partial(self._background_ahead, s) for s in sizes]
        jobs += [self._make_spare] * (SPARES - len(self._spare) - len(self.widgets))
        return jobs + self.more_ahead()

    def _restack(self) -> None:
        """Raise widgets in table order: field, piles, hands, then cards in motion."""
        model = self.model
        order: list[Key] = [c for c in model.field if c is not None]
        for seat in (model.me, 1 - model.me):
            for kind in KIND_ORDER:
                order += [c for c in model.captured[seat] if kind_of(c) is kind]
        order += [*model.opponent, *model.hand, *model.staged]
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
        self.layout_ = self._relayout()
        for key, (rect, face_up, where) in self.targets().items():
            w = self._widget(key, face_up, rect)
            w.setGeometry(rect)
            w.face_up = face_up and w.card is not None
            w.set_flip(1.0)
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
                self._retire(self.widgets.pop(key))

    def _animate(self, moves: list[_Move]) -> int:
        """Run moves together (each after its delay); returns the total milliseconds."""
        self.finish_animation()
        scale = self.anim_scale
        if scale <= 0 or not self.isVisible():
            for mv in moves:
                mv.widget.setGeometry(mv.to)
                if mv.flip_to is not None:
                    mv.widget.set_flip(mv.flip_to)
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
                start = mv.flip_from if mv.flip_from is not None else mv.widget.get_flip()
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
        self.layout_ = self._relayout()
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
                    w.set_flip(-1.0)
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
            w.set_flip(-1.0)
            model.turn_stock(event.card)
            self.stock.set_count(model.stock)
            moves = self._moves_to_targets([event.card], 340)
            for mv in moves:
                mv.flip_from, mv.flip_to = -1.0, 1.0
            self._restack()
            return self._animate(moves) + int(160 * self.anim_scale)
        if isinstance(event, ChoiceNeeded):
            model.choice(event.card, event.candidates, event.drawn)
            moves = self._moves_to_targets([event.card], 220)
            self.refresh_glows()
            return self._animate(moves)
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
        self._retire_all()
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
            order += [*opp[i : i + 2], *hand[i : i + 2], *fld[i : i + 2]]
        moves = []
        for n, key in enumerate(order):
            rect, face_up, where = targets[key]
            w = self._widget(key, face_up, start)
            w.setGeometry(start)
            w.set_where(where)
            w.set_flip(-1.0 if face_up else 1.0)
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
        if staged is not None:
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
        if event.seat == model.me:  # the koikoi panel may show them soon
            self.sprites.soon([CARD_IDS[c] for c in (event.card, *event.taken)])
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

    def restore(self, obs: Observation, events: Iterable[Event] = ()) -> None:
        """Show a round as the engine has it (a resumed match): no animation; the round's
        ``events`` so far keep its cards where they were (:meth:`TableModel.restore`)."""
        self.finish_animation()
        self._retire_all()
        self.lifted = None
        self.model = TableModel(me=self.model.me)
        self.model.restore(obs, events)
        self.snap()
        self.refresh_glows()

    def clear(self) -> None:
        self.finish_animation()
        self._retire_all()
        self.model = TableModel(me=self.model.me)
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
        self.snap()
        self.sprites.prewarm()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.LanguageChange):
            self._backgrounds.clear()
        super().changeEvent(event)

    def _background_key(self, trays: bool, size: QSize | None = None) -> tuple[object, ...]:
        """What the background depends on: the size (the layout follows from it and the
        prompt's height) and whether a round is on (the trays)."""
        size = size if size is not None else self.size()
        dpr = self.devicePixelRatioF()
        return (size.width(), size.height(), dpr, self.prompt_height, trays)

    def background(self, trays: bool, size: QSize | None = None) -> QPixmap:
        """The felt at this size (or at ``size``, for later), drawn once and kept
        (:data:`BACKGROUNDS_KEPT` of them)."""
        key = self._background_key(trays, size)
        pix = self._backgrounds.pop(key, None)
        if pix is None:
            dpr = self.devicePixelRatioF()
            size = size if size is not None else self.size()
            pixels = QSize(round(size.width() * dpr), round(size.height() * dpr))
            now = self.layout_
            self.layout_ = self._compute_layout(size)  # the same as now, or that size's
            try:
                pix = self._render_background(pixels, dpr, trays)
            finally:
                self.layout_ = now
        self._backgrounds[key] = pix  # the most recent last
        while len(self._backgrounds) > BACKGROUNDS_KEPT:
            del self._backgrounds[next(iter(self._backgrounds))]
        return pix

    def _background_ahead(self, size: QSize) -> None:
        """The background a round needs at ``size``, drawn ahead: this size's before the
        deal (the first deal lays out its cards without drawing the felt too), and the
        size the koikoi panel gives the table (:attr:`other_sizes`)."""
        if self._background_key(True, size) not in self._backgrounds:
            self.background(True, size)

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.drawPixmap(0, 0, self.background(bool(self.model.round_no)))
        if self.model.round_no:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            for seat in (1 - self.model.me, self.model.me):
                self._paint_tray_labels(p, seat)
        p.end()

    def _render_background(self, size: QSize, dpr: float, trays: bool) -> QPixmap:
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
        if self.high_contrast:
            p.fillRect(QRectF(0, 0, lay.width, lay.height), QColor(0, 0, 0))
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
        p.setPen(FIELD_LABEL)
        p.drawText(
            QRectF(fr.left() + 14, fr.bottom() - lay.label_h - 4, 300, lay.label_h),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.tr("場札 Field"),
        )
        if trays:
            for seat in (1 - self.model.me, self.model.me):
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

    def label_rects(self) -> list[QRectF]:
        """Where the capture groups' labels are painted (their text starts at the left)."""
        return self._label_rects()

    def _label_rects(self) -> list[QRectF]:
        lay = self.layout_
        return [
            QRectF(r.left(), r.top() - 2, r.width(), lay.label_h)
            for seat in (1 - self.model.me, self.model.me)
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
            p.setPen(TRAY_LABEL if n else TRAY_LABEL_EMPTY)
            p.drawText(
                QRectF(r.left(), r.top() - 2, r.width(), lay.label_h),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                f"{names.kind_label(kind)}  {n}",
            )
