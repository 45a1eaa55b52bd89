"""Card pictures for the table: the deck's SVGs rendered through QtSvg, at any size, cached.

The faces live in ``assets/cards/<id>.svg`` (drawn by ``assets/cards/draw.py``), the back in
``back.svg``. Each face carries its reading aids (month numeral, kind mark) in ``<g id="aids">``;
with ``aids=False`` the renderer loads the same file with that group hidden, and
``CardArt.show_aids = False`` (the display option) hides them from every picture.

    art = CardArt()
    pixmap = art.pixmap("matsu_crane", QSize(120, 192), aids=True, dpr=window.devicePixelRatio())
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Final, TypeVar

from PySide6.QtCore import QByteArray, QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPixmap
from PySide6.QtSvg import QSvgRenderer

from koikoi.engine.cards import CARD_IDS
from koikoi.resources import asset

logger = logging.getLogger(__name__)

BACK: Final = "back"
"""The id of the card back."""

ART_IDS: Final[tuple[str, ...]] = (*CARD_IDS, BACK)
"""Every picture there is: the 48 faces in card order (RULES.md R1.1), then the back."""

CARD_WIDTH: Final = 320
CARD_HEIGHT: Final = 512
"""The SVGs' own size (their viewBox): portrait 5:8."""

CORNER_RADIUS: Final = 18 / 320
"""The card's corner radius as a fraction of its width."""

_Key = tuple[str, int, int, bool, float]
_T = TypeVar("_T")

_AIDS_SHOWN: Final = b'<g id="aids">'
_AIDS_HIDDEN: Final = b'<g id="aids" display="none">'


def card_size(width: int) -> QSize:
    """The size of a card ``width`` pixels wide, in the deck's 5:8 proportion."""
    return QSize(width, round(width * CARD_HEIGHT / CARD_WIDTH))


def card_svg(card_id: str, aids: bool = True) -> bytes:
    """The SVG document of one card; with ``aids=False`` its reading aids are hidden."""
    if card_id not in ART_IDS:
        raise KeyError(f"no card art for {card_id!r}")
    data = asset(f"cards/{card_id}.svg").read_bytes()
    if not aids:
        data = data.replace(_AIDS_SHOWN, _AIDS_HIDDEN, 1)
    return data


def fit(bounds: QRectF) -> QRectF:
    """The largest 5:8 card rectangle centred in ``bounds``."""
    scale = min(bounds.width() / CARD_WIDTH, bounds.height() / CARD_HEIGHT)
    w, h = CARD_WIDTH * scale, CARD_HEIGHT * scale
    return QRectF(bounds.center().x() - w / 2, bounds.center().y() - h / 2, w, h)


class CardArt:
    """Renders card pictures and keeps the recent ones.

    Images are keyed by (id, size in device pixels, aids, device pixel ratio); the pixel ratio
    is stamped on the result, so a pixmap of 240 x 384 device pixels at ratio 2 paints as a
    120 x 192 card on a HiDPI screen. A size that is not 5:8 gets the card centred in it on a
    transparent ground. Needs a QGuiApplication (for pixmaps).
    """

    def __init__(self, max_images: int = 400) -> None:
        self.max_images = max_images
        self.show_aids = True
        """The reading-aids display option: when False, no picture shows its aids, whatever
        a caller asks (the table, the panels, the calculator and the start screen alike)."""
        self._renderers: dict[tuple[str, bool], QSvgRenderer] = {}
        self._images: OrderedDict[_Key, QImage] = OrderedDict()
        self._pixmaps: OrderedDict[_Key, QPixmap] = OrderedDict()

    def renderer(self, card_id: str, aids: bool = True) -> QSvgRenderer:
        """The (cached) QtSvg renderer of one card."""
        key = (card_id, aids)
        renderer = self._renderers.get(key)
        if renderer is None:
            renderer = QSvgRenderer(QByteArray(card_svg(card_id, aids)))
            if not renderer.isValid():
                raise ValueError(f"koikoi: the card art {card_id!r} does not parse")
            logger.debug("loaded card art %s (aids %s)", card_id, "on" if aids else "off")
            self._renderers[key] = renderer
        return renderer

    def paint(self, painter: QPainter, card_id: str, bounds: QRectF, aids: bool = True) -> None:
        """Paints a card into ``bounds`` (kept 5:8, centred), clipped to the card's shape."""
        aids = aids and self.show_aids
        target = fit(bounds)
        outline = QPainterPath()
        radius = target.width() * CORNER_RADIUS
        outline.addRoundedRect(target, radius, radius)
        painter.save()
        painter.setClipPath(outline)
        self.renderer(card_id, aids).render(painter, target)
        painter.restore()

    def image(self, card_id: str, size: QSize, aids: bool = True, dpr: float = 1.0) -> QImage:
        """The card as an ARGB image of ``size`` device pixels."""
        aids = aids and self.show_aids
        key: _Key = (card_id, size.width(), size.height(), aids, float(dpr))
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
            return image
        image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.paint(painter, card_id, QRectF(0, 0, size.width(), size.height()), aids)
        painter.end()
        image.setDevicePixelRatio(dpr)
        self._remember(self._images, key, image)
        return image

    def pixmap(self, card_id: str, size: QSize, aids: bool = True, dpr: float = 1.0) -> QPixmap:
        """The card as a pixmap of ``size`` device pixels, for painting on screen."""
        aids = aids and self.show_aids
        key: _Key = (card_id, size.width(), size.height(), aids, float(dpr))
        pixmap = self._pixmaps.get(key)
        if pixmap is not None:
            self._pixmaps.move_to_end(key)
            return pixmap
        pixmap = QPixmap.fromImage(self.image(card_id, size, aids, dpr))
        pixmap.setDevicePixelRatio(dpr)
        self._remember(self._pixmaps, key, pixmap)
        return pixmap

    def clear(self) -> None:
        """Forgets every rendered picture (e.g. after the screen's pixel ratio changed)."""
        self._images.clear()
        self._pixmaps.clear()

    def _remember(self, cache: OrderedDict[_Key, _T], key: _Key, value: _T) -> None:
        cache[key] = value
        while len(cache) > self.max_images:
            cache.popitem(last=False)
