"""WCAG 2 contrast measured on rendered widgets (a helper of the contrast tests).

The text colour comes from the widget's palette as its style sheet set it; the background is
the dominant colour of the pixels actually rendered in the widget's rectangle."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

TEXT_AA = 4.5
NON_TEXT_AA = 3.0


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: QColor) -> float:
    """WCAG relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of linearised sRGB."""
    return (
        0.2126 * _linear(colour.red())
        + 0.7152 * _linear(colour.green())
        + 0.0722 * _linear(colour.blue())
    )


def ratio(a: QColor, b: QColor) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def dominant(image: QImage, rect: QRect) -> QColor:
    """The most common colour of the rectangle (binned by 16 levels a channel, averaged), so
    that a gradient counts as one colour."""
    bins: Counter[tuple[int, int, int]] = Counter()
    sums: dict[tuple[int, int, int], list[int]] = {}
    r = rect.intersected(image.rect())
    step = max(1, min(r.width(), r.height()) // 40)
    for y in range(r.top(), r.bottom() + 1, step):
        for x in range(r.left(), r.right() + 1, step):
            c = image.pixelColor(x, y)
            key = (c.red() >> 4, c.green() >> 4, c.blue() >> 4)
            bins[key] += 1
            s = sums.setdefault(key, [0, 0, 0])
            s[0] += c.red()
            s[1] += c.green()
            s[2] += c.blue()
    key, n = bins.most_common(1)[0]
    s = sums[key]
    return QColor(s[0] // n, s[1] // n, s[2] // n)


def text_colour(w: QWidget) -> QColor:
    role = QPalette.ColorRole.ButtonText if isinstance(w, QAbstractButton) else w.foregroundRole()
    return w.palette().color(role)


def seen(w: QWidget) -> bool:
    """The widget shows, and nothing else lies over its middle."""
    if not w.isVisible() or w.width() < 2 or w.height() < 2:
        return False
    top = w.window()
    at = top.childAt(w.mapTo(top, w.rect().center()))
    return at is w or (at is not None and w.isAncestorOf(at))


def text_widgets(top: QWidget) -> list[QLabel | QAbstractButton]:
    """Visible labels and buttons that show text."""
    out: list[QLabel | QAbstractButton] = []
    for w in top.findChildren(QWidget):
        if isinstance(w, QLabel | QAbstractButton) and w.text().strip() and seen(w):
            out.append(w)
    return out


def text_contrasts(top: QWidget) -> list[tuple[float, str]]:
    """(ratio, description) for each visible text widget of a rendered window."""
    image = top.grab().toImage()
    dpr = image.devicePixelRatio()
    out = []
    for w in text_widgets(top):
        tl = w.mapTo(top, w.rect().topLeft())
        rect = QRect(*(round(v * dpr) for v in (tl.x(), tl.y(), w.width(), w.height())))
        inset = round(min(6, w.height() // 4) * dpr)  # inside a button's border
        rect.adjust(inset, inset, -inset, -inset)
        bg = dominant(image, rect)
        fg = text_colour(w)
        name = w.objectName() or type(w).__name__
        out.append((ratio(fg, bg), f"{name} {w.text()[:30]!r} {fg.name()} on {bg.name()}"))
    return out
