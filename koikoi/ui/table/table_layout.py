"""Where every card belongs at one table size: pure geometry, with no widget.

:func:`compute_layout` gives the rectangles of a size (:class:`Layout`); :func:`targets`
places each card of a :class:`~koikoi.ui.table.table_model.TableModel` on it, with where it lies
in words. :class:`~koikoi.ui.table.table.TableView` asks these for its size and animates its
card widgets to the places they give.

The layout follows the game's rules page (seed 000): the opponent's hand at the top, then
the opponent's captures, the field with the stock, your captures grouped by kind, and your
hand at the bottom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QCoreApplication, QRect, QRectF, QSize

from koikoi.engine.cards import Card, Kind, kind_of
from koikoi.ui.table.card_widget import PAD
from koikoi.ui.table.table_model import DRAWN, KIND_ORDER, Key, TableModel

GROUP_WEIGHTS: Final = {Kind.LIGHT: 3.0, Kind.TANE: 4.2, Kind.RIBBON: 4.6, Kind.PLAIN: 7.6}
"""How much of a capture row's width each kind's group takes."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("TableView", text)  # the table's words, as before


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


def compute_layout(size: QSize, card_scale: float, prompt_height: float) -> Layout:
    """The layout at ``size``, for the display option's ``card_scale`` and the prompt line's
    least height."""
    W, H = float(max(size.width(), 320)), float(max(size.height(), 240))
    m = max(8.0, H * 0.016)
    # whole pixels, so that a card widget is exactly the size of its picture (a blit)
    label_h = max(14.0, H * 0.024)
    prompt_h = max(H * 0.04, prompt_height)  # never below its text's height
    small = 0.6 if card_scale <= 1 else 0.5  # larger cards: the piles give room
    cw = H * 0.098 * card_scale
    if card_scale > 1:  # no larger than the rows fit in the height
        fits = (H - 4 * m - 2 * label_h - prompt_h - 16) / (4.8 * small + 5.216)
        cw = min(cw, max(H * 0.098, fits))
    cw = float(round(min(cw, (W - 2 * m) / 9.6)))
    ch = float(round(cw * 1.6))
    sw = float(round(cw * small))
    sh = float(round(sw * 1.6))
    lift = ch * 0.14
    used = m + sh + (label_h + sh) + (2 * ch + ch * 0.12 + 2 * m) + prompt_h
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
    prompt_rect = QRectF(m, y + gap * 0.15, W - 2 * m, prompt_h)
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


def card_rect(x: float, y: float, w: float, h: float) -> QRect:
    """A card widget's rectangle for a card at (``x``, ``y``) of ``w`` × ``h``: its picture
    and the pad around it (for the glow and the focus ring)."""
    p = round(w * PAD)
    return QRect(round(x) - p, round(y) - p, round(w) + 2 * p, round(h) + 2 * p)


def field_slot(lay: Layout, field_slots: int, slot: int) -> tuple[float, float]:
    """Where the field card in ``slot`` lies, of a field of ``field_slots`` slots."""
    n = max(field_slots, 8)
    cols = max(4, math.ceil(n / 2))
    avail = lay.grid_right - lay.grid_left
    step = min(lay.cw * 1.16, (avail - lay.cw) / max(1, cols - 1))
    width = step * (cols - 1) + lay.cw
    centred = lay.field_rect.center().x() - width / 2  # centred on the mat when it fits
    left = max(lay.grid_left, min(centred, lay.grid_right - width))
    col, row = divmod(slot, 2)
    top = lay.field_rect.top() + lay.margin
    return left + col * step, top + row * lay.ch * 1.12


def hand_xs(lay: Layout, count: int, w: float, gap: float) -> list[float]:
    """The left edges of a hand of ``count`` cards ``w`` wide, centred."""
    step = min(w + gap, (lay.width - 2 * lay.margin - w) / max(1, count - 1))
    total = step * (count - 1) + w if count else 0
    left = (lay.width - total) / 2
    return [left + i * step for i in range(count)]


def capture_groups(lay: Layout, y: float) -> dict[Kind, QRectF]:
    """Where each kind's group of the capture pile whose cards sit at ``y`` lies (labels
    included)."""
    avail = lay.width - 2 * lay.margin
    gap = lay.sw * 0.35
    total = sum(GROUP_WEIGHTS.values())
    unit = (avail - gap * 3) / total
    x = lay.margin
    rects = {}
    for kind in KIND_ORDER:
        w = GROUP_WEIGHTS[kind] * unit
        rects[kind] = QRectF(x, y - lay.label_h, w, lay.sh + lay.label_h)
        x += w + gap
    return rects


def capture_y(lay: Layout, model: TableModel, seat: int) -> float:
    """The row of ``seat``'s captures: yours below the field, the opponent's above."""
    return lay.my_cap_y if seat == model.me else lay.opp_cap_y


def targets(
    lay: Layout, model: TableModel, lifted: Card | None, opponent_name: str | None
) -> dict[Key, tuple[QRect, bool, str]]:
    """Where every card of ``model`` belongs on ``lay``: (rectangle, face up, where in
    words). ``lifted``: the hand card raised under the pointer; ``opponent_name``: the
    peer's in a network match, None for the computer."""
    out: dict[Key, tuple[QRect, bool, str]] = {}
    # the opponent's hidden hand
    xs = hand_xs(lay, len(model.opponent), lay.sw, lay.sw * 0.12)
    opp_where = (
        _tr("The computer's hand")
        if opponent_name is None
        else _tr("{0}'s hand").format(opponent_name)
    )
    for key, x in zip(model.opponent, xs, strict=True):
        out[key] = (card_rect(x, lay.opp_hand_y, lay.sw, lay.sh), False, opp_where)
    # the field
    where = _tr("Field")
    for slot, card in enumerate(model.field):
        if card is not None:
            x, y = field_slot(lay, len(model.field), slot)
            out[card] = (card_rect(x, y, lay.cw, lay.ch), True, where)
    # captures, grouped by kind
    me = model.me
    theirs = (
        _tr("The computer's captures")
        if opponent_name is None
        else _tr("{0}'s captures").format(opponent_name)
    )
    for seat in (me, 1 - me):
        groups = capture_groups(lay, capture_y(lay, model, seat))
        whose = _tr("Your captures") if seat == me else theirs
        for kind in KIND_ORDER:
            cards = [c for c in model.captured[seat] if kind_of(c) is kind]
            g = groups[kind]
            if not cards:
                continue
            step = min(lay.sw * 0.62, (g.width() - lay.sw) / max(1, len(cards) - 1))
            for i, card in enumerate(cards):
                x = g.left() + i * step
                out[card] = (card_rect(x, g.top() + lay.label_h, lay.sw, lay.sh), True, whose)
    # the local player's hand
    xs = hand_xs(lay, len(model.hand), lay.cw, lay.cw * 0.14)
    where = _tr("Your hand")
    for i, (card, x) in enumerate(zip(model.hand, xs, strict=True)):
        y = lay.hand_y - (lay.ch * 0.14 if card == lifted else 0)
        out[card] = (
            card_rect(x, y, lay.cw, lay.ch),
            True,
            _tr("{0}, card {1} of {2}").format(where, i + 1, len(model.hand)),
        )
    # cards between places
    w = lay.wait_rect
    for card, how in model.staged.items():
        out[card] = (
            card_rect(w.left(), w.top(), w.width(), w.height()),
            True,
            _tr("Turned from the stock") if how == DRAWN else _tr("Played"),
        )
    return out
