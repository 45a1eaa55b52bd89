"""A contact sheet of the whole deck, to look at the art:
``python -m koikoi.devtools.sheet out.png``.

The months run across (1 matsu ... 12 kiri), the four cards of each month down their column,
in card order (RULES.md R1.1); the back stands in a thirteenth column. Rendering goes through
the same :class:`koikoi.ui.common.art.CardArt` the table uses, offscreen.

    python -m koikoi.devtools.sheet docs/screenshots/cards.png --card 160x256
    python -m koikoi.devtools.sheet small.png --card 60x96 --no-aids
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPainter

from koikoi.ui.common.art import ART_IDS, BACK, CardArt

FELT = "#2f5d45"
"""The sheet's ground: the green of a play mat, which the cards are made to sit on."""


def parse_size(text: str) -> QSize:
    """``"60x96"`` -> QSize(60, 96).

    >>> parse_size("60x96").width(), parse_size("60x96").height()
    (60, 96)
    """
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        message = f"expected WIDTHxHEIGHT, e.g. 60x96, not {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if not (8 <= w <= 4000 and 8 <= h <= 6400):
        raise argparse.ArgumentTypeError(f"card size {text!r} is out of range")
    return QSize(w, h)


def layout(card: QSize, gap: int) -> tuple[QSize, dict[str, QRectF]]:
    """The sheet's size and where each card goes: months across, the back last."""
    places: dict[str, QRectF] = {}
    for index, card_id in enumerate(ART_IDS):
        column, row = (12, 0) if card_id == BACK else divmod(index, 4)
        x = gap + column * (card.width() + gap)
        y = gap + row * (card.height() + gap)
        places[card_id] = QRectF(x, y, card.width(), card.height())
    size = QSize(gap + 13 * (card.width() + gap), gap + 4 * (card.height() + gap))
    return size, places


def render_sheet(
    card: QSize, aids: bool = True, gap: int | None = None, background: str = FELT
) -> QImage:
    """The contact sheet as an image (needs a QGuiApplication)."""
    if gap is None:
        gap = max(4, card.width() // 8)
    size, places = layout(card, gap)
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(QColor(background))
    art = CardArt()
    painter = QPainter(image)
    for card_id, rect in places.items():
        painter.drawImage(rect.topLeft(), art.image(card_id, card, aids))
    painter.end()
    return image


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m koikoi.devtools.sheet",
        description="Render all 49 card pictures into one PNG contact sheet.",
    )
    parser.add_argument("out", help="the PNG file to write")
    parser.add_argument(
        "--card",
        type=parse_size,
        default=QSize(320, 512),
        metavar="WxH",
        help="size of each card in pixels (default 320x512)",
    )
    parser.add_argument(
        "--no-aids",
        dest="aids",
        action="store_false",
        help="leave out the reading aids (month numeral, kind mark)",
    )
    parser.add_argument(
        "--gap",
        type=int,
        default=None,
        help="pixels between cards (default: an eighth of the card width)",
    )
    parser.add_argument("--background", default=FELT, help=f"sheet colour (default {FELT})")
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    image = render_sheet(args.card, args.aids, args.gap, args.background)
    ok = QImageWriter(str(args.out), b"png").write(image)
    del app
    if not ok:
        print(f"koikoi: could not write {args.out}", file=sys.stderr)
        return 1
    print(f"{args.out}: {image.width()} x {image.height()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
