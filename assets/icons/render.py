#!/usr/bin/env python3
"""Render the app icon's PNGs from ``koikoi.svg`` through QtSvg.

    python assets/icons/render.py            # koikoi-16.png ... koikoi-512.png next to the SVG
    python assets/icons/render.py OUT_DIR

The SVG itself is drawn by ``assets/cards/draw.py``. Needs PySide6 (QtSvg); runs offscreen.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZES = (16, 32, 48, 64, 128, 256, 512)


def render(svg: Path, out: Path) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QByteArray, QRectF
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(QByteArray(svg.read_bytes()))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        path = out / f"koikoi-{size}.png"
        if not QImageWriter(str(path), b"png").write(image):
            raise SystemExit(f"could not write {path}")
        written.append(path)
    del app
    return written


def main() -> int:
    here = Path(__file__).resolve().parent
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else here
    for path in render(here / "koikoi.svg", out):
        print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
