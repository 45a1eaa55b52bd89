#!/usr/bin/env python3
"""Draw koikoi's hanafuda deck (花札) as SVG: the 48 faces, the back and the app icon.

    python assets/cards/draw.py           # rewrites assets/cards/*.svg, assets/icons/koikoi.svg
    python assets/cards/draw.py OUT [--icon ICON.svg]

The art is the project's own, made only from the geometry in this file: no fonts, no traced
images. The output is a pure function of this file (no clock, no randomness beyond the seeded
generator below, fixed number formatting), so running it twice gives byte-identical files.

The SVG keeps to the SVG Tiny 1.2 subset that QtSvg renders on every Qt 6 (no clip paths,
masks, filters or text): the dark card edge is a frame drawn over the art instead of a clip.
The reading aids (month numeral and kind mark) sit in ``<g id="aids">`` so the app can hide them.
Standard library only, so it runs without the project installed.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

W, H = 320, 512  # the card, portrait ~5:8 like the traditional 32 x 53 mm
EDGE = 11  # the dark edge around the face
CX = W / 2

# The palette: few colours, flat, bold.
INK = "#1d1916"
PAPER = "#f6eedb"
CREAM = "#fbf6e9"
RED = "#c9252c"
DEEP_RED = "#8e1a20"
PINK = "#f4bccb"
GREEN = "#3d8a3f"
DARK_GREEN = "#24572b"
OLIVE = "#93a23a"
PURPLE = "#6b3b93"
LILAC = "#a27ccb"
BLUE = "#2453a6"
WATER = "#5b8fd0"
YELLOW = "#f1c22e"
ORANGE = "#e2782a"
BROWN = "#7b4b2a"
GREY = "#8d8a84"

Point = tuple[float, float]


# ---------------------------------------------------------------------------------------------
# Numbers, paths and a seeded generator


def n(v: float) -> str:
    """A coordinate with one decimal at most: short files, identical on every platform."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def pt(p: Point) -> str:
    return f"{n(p[0])} {n(p[1])}"


class Rng:
    """A tiny xorshift generator: the same numbers on every Python, unlike ``random``."""

    def __init__(self, seed: int) -> None:
        self.state = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def random(self) -> float:
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x / 0x100000000

    def uniform(self, a: float, b: float) -> float:
        return a + (b - a) * self.random()


def polar(c: Point, r: float, deg: float) -> Point:
    a = math.radians(deg)
    return (c[0] + r * math.cos(a), c[1] + r * math.sin(a))


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def smooth(points: Sequence[Point], closed: bool = False, tension: float = 1.0) -> str:
    """A Catmull-Rom curve through the points, as cubic Bezier path data."""
    p = list(points)
    if len(p) < 3:
        return "M" + " L".join(pt(q) for q in p) + (" Z" if closed else "")
    k = tension / 6
    count = len(p)
    out = ["M" + pt(p[0])]
    segments = count if closed else count - 1
    for i in range(segments):
        p0 = p[(i - 1) % count] if (closed or i > 0) else p[0]
        p1 = p[i % count]
        p2 = p[(i + 1) % count]
        p3 = p[(i + 2) % count] if (closed or i + 2 < count) else p2
        c1 = (p1[0] + (p2[0] - p0[0]) * k, p1[1] + (p2[1] - p0[1]) * k)
        c2 = (p2[0] - (p3[0] - p1[0]) * k, p2[1] - (p3[1] - p1[1]) * k)
        out.append(f"C{pt(c1)} {pt(c2)} {pt(p2)}")
    if closed:
        out.append("Z")
    return " ".join(out)


def along(points: Sequence[Point], steps: int) -> list[Point]:
    """Points spaced along the Catmull-Rom curve through ``points`` (as smooth() draws it)."""
    p = list(points)
    out: list[Point] = []
    for i in range(len(p) - 1):
        p0, p1, p2 = p[max(i - 1, 0)], p[i], p[i + 1]
        p3 = p[min(i + 2, len(p) - 1)]
        for k in range(steps):
            t = k / steps
            t2, t3 = t * t, t * t * t
            out.append(
                tuple(  # type: ignore[arg-type]
                    0.5
                    * (
                        2 * b
                        + (-a + c) * t
                        + (2 * a - 5 * b + 4 * c - d) * t2
                        + (-a + 3 * b - 3 * c + d) * t3
                    )
                    for a, b, c, d in zip(p0, p1, p2, p3, strict=True)
                )
            )
    out.append(p[-1])
    return out


def _continue(path: str) -> str:
    """A smooth() path without its opening move, to append to another path."""
    parts = path.split(" ", 2)
    return parts[2] if len(parts) == 3 else ""


def tapered(points: Sequence[Point], widths: Sequence[float] | float) -> str:
    """A closed outline around a curve whose width changes along it (branches, blades)."""
    p = list(points)
    w = [float(widths)] * len(p) if isinstance(widths, (int, float)) else list(widths)
    left: list[Point] = []
    right: list[Point] = []
    for i, q in enumerate(p):
        a = p[max(i - 1, 0)]
        b = p[min(i + 1, len(p) - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / d, dx / d
        half = w[i] / 2
        left.append((q[0] + nx * half, q[1] + ny * half))
        right.append((q[0] - nx * half, q[1] - ny * half))
    right.reverse()
    return smooth(left) + " L" + pt(right[0]) + " " + _continue(smooth(right)) + " Z"


def taper(points: Sequence[Point], w0: float, w1: float) -> str:
    """A tapered() outline whose width runs evenly from w0 to w1."""
    count = len(points)
    return tapered(points, [w0 + (w1 - w0) * i / max(count - 1, 1) for i in range(count)])


def blade(base: Point, tip: Point, width: float, bend: float) -> str:
    """A pointed leaf or grass blade from base to tip, bowed sideways by ``bend``."""
    mx, my = lerp(base, tip, 0.5)
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d, dx / d
    mid = (mx + nx * bend, my + ny * bend)
    pts = [base, lerp(base, mid, 0.5), mid, lerp(mid, tip, 0.5), tip]
    ws = [width * 0.7, width, width * 0.9, width * 0.55, 0.0]
    return tapered(pts, ws)


def leaf(base: Point, tip: Point, width: float, bend: float = 0.0) -> str:
    """A leaf or petal: two curves from the stalk to a pointed tip, bowed by ``bend``."""
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d, dx / d
    half = width * 0.66

    def at(t: float, side: float) -> Point:
        return (base[0] + dx * t + nx * (side + bend), base[1] + dy * t + ny * (side + bend))

    return (
        f"M{pt(base)} C{pt(at(0.1, half))} {pt(at(0.62, half))} {pt(tip)} "
        f"C{pt(at(0.62, -half))} {pt(at(0.1, -half))} {pt(base)} Z"
    )


def ellipse_path(c: Point, rx: float, ry: float) -> str:
    return (
        f"M{n(c[0] - rx)} {n(c[1])} A{n(rx)} {n(ry)} 0 1 1 {n(c[0] + rx)} {n(c[1])} "
        f"A{n(rx)} {n(ry)} 0 1 1 {n(c[0] - rx)} {n(c[1])} Z"
    )


def rrect(x: float, y: float, w: float, h: float, r: float) -> str:
    return (
        f"M{n(x + r)} {n(y)} H{n(x + w - r)} A{n(r)} {n(r)} 0 0 1 {n(x + w)} {n(y + r)} "
        f"V{n(y + h - r)} A{n(r)} {n(r)} 0 0 1 {n(x + w - r)} {n(y + h)} H{n(x + r)} "
        f"A{n(r)} {n(r)} 0 0 1 {n(x)} {n(y + h - r)} V{n(y + r)} "
        f"A{n(r)} {n(r)} 0 0 1 {n(x + r)} {n(y)} Z"
    )


def polygon(points: Sequence[Point]) -> str:
    return "M" + " L".join(pt(q) for q in points) + " Z"


# ---------------------------------------------------------------------------------------------
# The canvas: a list of SVG elements with a few drawing verbs


class Art:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.depth = 1
        self.defs: dict[str, list[str]] = {}

    def define(self, name: str, draw: Callable[[Art], None]) -> str:
        """Draws a motif once into ``<defs>``; ``use`` then places copies of it."""
        if name not in self.defs:
            sub = Art()
            sub.depth = 3
            sub.defs = self.defs
            draw(sub)
            self.defs[name] = sub.parts
        return name

    def use(
        self, name: str, at: Point, angle: float = 0, scale: float = 1, fill: str | None = None
    ) -> None:
        t = f"translate({pt(at)})"
        if angle:
            t += f" rotate({n(angle)})"
        if scale != 1:
            t += f" scale({scale:.3g})"
        colour = f' fill="{fill}"' if fill else ""
        self.raw(f'<use xlink:href="#{name}"{colour} transform="{t}"/>')

    def union(self, shapes: Sequence[str], fill: str, stroke: str = INK, width: float = 0) -> None:
        """Shapes that merge into one: a single outline round them all, then one fill."""
        if width:
            self.path(" ".join(shapes), stroke, stroke, width)
        self.path(" ".join(shapes), fill)

    def ellipse(
        self,
        c: Point,
        rx: float,
        ry: float,
        fill: str,
        stroke: str | None = None,
        width: float = 0,
        angle: float = 0,
    ) -> None:
        attrs = f'cx="{n(c[0])}" cy="{n(c[1])}" rx="{n(rx)}" ry="{n(ry)}" fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{n(width)}"'
        if angle:
            attrs += f' transform="rotate({n(angle)} {pt(c)})"'
        self.raw(f"<ellipse {attrs}/>")

    def raw(self, text: str) -> None:
        self.parts.append("  " * self.depth + text)

    def path(
        self,
        d: str,
        fill: str = "none",
        stroke: str | None = None,
        width: float = 0,
        *,
        opacity: float | None = None,
        cap: str | None = None,
    ) -> None:
        attrs = [f'd="{d}"'] + ([f'fill="{fill}"'] if fill else [])
        if stroke:
            attrs.append(f'stroke="{stroke}" stroke-width="{n(width)}" stroke-linejoin="round"')
            if cap:
                attrs.append(f'stroke-linecap="{cap}"')
        if opacity is not None:
            attrs.append(f'opacity="{n(opacity)}"' if opacity >= 0.1 else f'opacity="{opacity}"')
        self.raw("<path " + " ".join(attrs) + "/>")

    def line(
        self, points: Sequence[Point], stroke: str, width: float, smooth_it: bool = False
    ) -> None:
        d = smooth(points) if smooth_it else "M" + " L".join(pt(q) for q in points)
        self.path(d, "none", stroke, width, cap="round")

    def circle(
        self, c: Point, r: float, fill: str, stroke: str | None = None, width: float = 0
    ) -> None:
        attrs = f'cx="{n(c[0])}" cy="{n(c[1])}" r="{n(r)}" fill="{fill}"'
        if stroke:
            attrs += f' stroke="{stroke}" stroke-width="{n(width)}"'
        self.raw(f"<circle {attrs}/>")

    @contextmanager
    def group(self, transform: str = "", gid: str = "") -> Iterator[None]:
        attrs = ""
        if gid:
            attrs += f' id="{gid}"'
        if transform:
            attrs += f' transform="{transform}"'
        self.raw(f"<g{attrs}>")
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            self.raw("</g>")

    def svg(self, title: str) -> str:
        return document(self, title, W, H)


def document(art: Art, title: str, width: int, height: int) -> str:
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.2" baseProfile="tiny" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">'
    )
    lines = [head, f"  <title>{title}</title>"]
    if art.defs:
        lines.append("  <defs>")
        for name, parts in art.defs.items():
            lines.append(f'    <g id="{name}">')
            lines.extend(parts)
            lines.append("    </g>")
        lines.append("  </defs>")
    return "\n".join([*lines, *art.parts, "</svg>", ""])


def mirrored() -> str:
    return f"matrix(-1 0 0 1 {W} 0)"


# ---------------------------------------------------------------------------------------------
# Writing: our own brush strokes for the few glyphs the deck needs, on a 10 x 10 grid

GLYPHS: dict[str, list[list[Point]]] = {
    "あ": [
        [(2.2, 3.0), (5.0, 2.8), (7.8, 2.4)],
        [(4.4, 0.8), (4.5, 4.5), (4.9, 7.6), (5.6, 9.3)],
        [
            (6.8, 4.4),
            (5.6, 6.6),
            (3.9, 8.4),
            (2.4, 8.8),
            (1.9, 7.5),
            (3.4, 6.0),
            (6.0, 5.4),
            (8.3, 6.2),
            (8.7, 7.9),
            (7.4, 9.1),
            (5.8, 9.6),
        ],
    ],
    "か": [
        [(1.4, 4.0), (4.0, 3.4), (6.6, 3.1), (7.2, 4.4), (6.9, 7.2), (6.2, 9.0), (5.2, 8.3)],
        [(4.5, 1.0), (4.2, 4.2), (3.2, 7.0), (1.8, 9.2)],
        [(8.3, 2.9), (9.0, 4.0), (9.4, 5.3)],
    ],
    "よ": [
        [
            (5.0, 1.0),
            (5.0, 4.0),
            (5.1, 7.4),
            (4.6, 9.0),
            (3.0, 9.3),
            (2.2, 8.4),
            (3.3, 7.3),
            (5.6, 7.3),
            (7.4, 8.1),
            (8.7, 9.2),
        ],
        [(5.1, 4.0), (6.8, 3.9), (8.2, 3.7)],
    ],
    "ろ": [
        [
            (2.2, 2.2),
            (5.0, 2.0),
            (7.4, 1.8),
            (5.0, 4.4),
            (2.6, 6.6),
            (5.0, 5.4),
            (7.6, 5.6),
            (8.6, 7.2),
            (7.6, 8.8),
            (5.6, 9.4),
            (3.8, 9.2),
        ],
    ],
    "し": [
        [(3.6, 0.8), (3.6, 4.0), (3.7, 7.2), (4.6, 9.0), (6.4, 9.0), (8.0, 7.8), (8.8, 6.4)],
    ],
    "み": [
        [
            (2.2, 2.2),
            (4.6, 2.0),
            (6.2, 1.9),
            (4.6, 5.0),
            (3.0, 7.8),
            (2.0, 8.8),
            (1.8, 7.6),
            (3.6, 6.4),
            (6.0, 6.0),
            (8.0, 6.4),
            (9.2, 7.0),
        ],
        [(7.4, 3.8), (7.2, 6.4), (6.6, 8.4), (5.8, 9.6)],
    ],
    "の": [
        [
            (5.6, 3.0),
            (5.0, 5.6),
            (4.0, 7.8),
            (2.8, 9.0),
            (1.8, 8.0),
            (2.0, 5.6),
            (3.6, 3.4),
            (6.0, 2.6),
            (8.2, 3.4),
            (9.0, 5.6),
            (8.2, 7.8),
            (6.0, 9.4),
        ],
    ],
    "寿": [
        [(2.2, 1.8), (5.0, 1.6), (7.8, 1.4)],
        [(2.8, 3.2), (5.0, 3.1), (7.2, 3.0)],
        [(1.2, 4.7), (5.0, 4.5), (8.8, 4.3)],
        [(5.0, 0.4), (5.0, 2.6), (4.9, 4.6), (3.6, 6.2), (1.6, 7.4)],
        [(3.2, 6.3), (6.0, 6.1), (8.9, 5.9)],
        [(7.0, 5.0), (7.0, 7.2), (6.9, 9.4), (5.9, 8.8)],
        [(4.1, 7.2), (4.8, 8.2)],
    ],
}


def write(art: Art, text: str, x: float, y: float, size: float, colour: str, width: float) -> None:
    """Writes ``text`` top to bottom, each glyph ``size`` units square, from (x, y)."""
    scale = size / 10
    for i, ch in enumerate(text):
        oy = y + i * size * 1.08
        for stroke in GLYPHS[ch]:
            pts = [(x + px * scale, oy + py * scale) for px, py in stroke]
            art.line(pts, colour, width, smooth_it=True)


# Digits for the month numeral, on a 20 x 40 box.
DIGITS: dict[str, str] = {
    "0": "M10 2 C1 2 1 38 10 38 C19 38 19 2 10 2 Z",
    "1": "M4 9 L11.5 2 L11.5 38",
    "2": "M2.5 10 C2.5 0.5 18 0.5 18 10.5 C18 19 7 25 2 38 L18.5 38",
    "3": "M3 5.5 C8 -0.5 18 1.5 17.5 9.5 C17 16 11 18 8 18.5 C13 18.5 18.5 21 18.5 28 "
    "C18.5 38.5 6 39.5 2 33",
    "4": "M14.5 38 L14.5 2 L2 27 L19.5 27",
    "5": "M17.5 2.5 L4.5 2.5 L3.5 17.5 C8 13.5 18.5 14 18.5 25.5 C18.5 37 7 39 2 33",
    "6": "M16.5 3.5 C8 -1 2.5 10 2.5 24 C2.5 39 18.5 39 18.5 26 C18.5 14 5 14 2.8 23",
    "7": "M2 2.5 L18.5 2.5 L8 38",
    "8": "M10 18.5 C2.5 18 2.5 2 10 2 C17.5 2 17.5 18 10 18.5 C1.5 19 1.5 38 10 38 "
    "C18.5 38 18.5 19 10 18.5 Z",
    "9": "M18 15.5 C15.5 24 2.5 23 2.5 12.5 C2.5 0.5 18.5 0.5 18.5 15 C18.5 28 13 37 4 37.5",
}


# ---------------------------------------------------------------------------------------------
# Cards


@dataclass(frozen=True)
class Card:
    id: str
    month: int  # 1..12
    kind: str  # "light", "tane", "ribbon", "plain"
    title: str  # what the card shows, in Japanese (its accessible name in the SVG)
    draw: Callable[[Art], None]
    ribbon: str = ""  # "akatan", "aotan" or "red" for ribbons


def frame(art: Art) -> None:
    """The dark edge: a ring over the art, which also trims whatever runs off the face."""
    outer = rrect(0, 0, W, H, 18)
    inner = rrect(EDGE, EDGE, W - 2 * EDGE, H - 2 * EDGE, 8)
    art.raw(f'<path d="{outer} {inner}" fill="{INK}" fill-rule="evenodd"/>')


def ground(art: Art, colour: str = PAPER) -> None:
    art.path(rrect(EDGE - 2, EDGE - 2, W - 2 * EDGE + 4, H - 2 * EDGE + 4, 9), colour)


def kasumi(art: Art, y: float, depth: float, colour: str, top: bool = True, seed: int = 0) -> None:
    """A mist band (kasumi 霞): the sky or the ground, with a scalloped cloud edge."""
    rng = Rng(seed + 17)
    edge: list[Point] = []
    x = EDGE - 4.0
    while x < W - EDGE + 4:
        edge.append((x, y))
        x += rng.uniform(44, 70)
    edge.append((W - EDGE + 4, y))
    far = EDGE - 4 if top else H - EDGE + 4
    sweep = 0 if top else 1
    d = [f"M{n(EDGE - 4)} {n(far)} L{pt(edge[0])}"]
    for a, b in zip(edge, edge[1:], strict=False):
        r = (b[0] - a[0]) / 2
        bulge = depth * (1 if top else -1)
        d.append(f"A{n(r)} {n(abs(bulge))} 0 0 {sweep} {pt(b)}")
    d.append(f"L{n(W - EDGE + 4)} {n(far)} Z")
    art.path(" ".join(d), colour)


def ribbon(
    art: Art,
    x: float,
    y: float,
    length: float,
    angle: float,
    colour: str,
    text: str = "",
    banded: bool = False,
) -> None:
    """A poem ribbon (tanzaku 短冊) hanging from (x, y), tilted by ``angle`` degrees.

    Blue ribbons carry two pale bands as well as their colour, so a player who cannot tell
    red from blue still can; the red poem ribbons (akatan) carry writing.
    """
    w = 50
    with art.group(f"rotate({n(angle)} {n(x)} {n(y)})"):
        art.line([(x, y - 24), (x, y + 4)], INK, 3)
        left = [
            (x - w / 2, y),
            (x - w / 2 - 3, y + length * 0.35),
            (x - w / 2 + 3, y + length * 0.7),
            (x - w / 2, y + length),
        ]
        right = [
            (x + w / 2, y + length),
            (x + w / 2 + 3, y + length * 0.7),
            (x + w / 2 - 3, y + length * 0.35),
            (x + w / 2, y),
        ]
        d = smooth(left) + " L" + pt(right[0]) + " " + _continue(smooth(right)) + " Z"
        art.path(d, colour, INK, 4)
        if banded:
            for by in (y + 20, y + length - 36):
                art.path(
                    polygon(
                        [
                            (x - w / 2 + 1, by),
                            (x + w / 2 - 1, by),
                            (x + w / 2 - 1, by + 14),
                            (x - w / 2 + 1, by + 14),
                        ]
                    ),
                    CREAM,
                    INK,
                    2.5,
                )
        if text:
            size = min(34, (length - 30) / (len(text) * 1.08))
            write(art, text, x - size / 2, y + 16, size, INK, 4.2)
        art.circle((x, y - 26), 4, INK)


def aids(art: Art, card: Card) -> None:
    """The reading aids, top left where a fanned hand still shows them: the month numeral and
    a mark for the kind, told apart by shape (sun, diamond, slip, ring) as well as colour."""
    digits = str(card.month)
    with art.group(gid="aids"):
        art.path(rrect(15, 15, 58, 112, 10), CREAM, INK, 3.5)
        squeeze = 0.78 if len(digits) == 2 else 1.0
        total = (20 * len(digits) + 3 * (len(digits) - 1)) * squeeze * 1.2
        x0 = 44 - total / 2
        for i, ch in enumerate(digits):
            ox = x0 + i * 23 * squeeze * 1.2
            art.raw(
                f'<path d="{DIGITS[ch]}" fill="none" stroke="{INK}" stroke-width="7.4" '
                f'stroke-linecap="round" stroke-linejoin="round" '
                f'transform="matrix({n(1.2 * squeeze)} 0 0 1.2 {n(ox)} 21)"/>'
            )
        c = (44.0, 96.0)
        if card.kind == "light":
            rays = " ".join(
                f"M{pt(polar(c, 10, k * 45))} L{pt(polar(c, 19, k * 45))}" for k in range(8)
            )
            art.path(rays, "none", INK, 4.5, cap="round")
            art.circle(c, 10, RED, INK, 3)
        elif card.kind == "tane":
            art.path(
                polygon(
                    [(c[0], c[1] - 19), (c[0] + 15, c[1]), (c[0], c[1] + 19), (c[0] - 15, c[1])]
                ),
                INK,
            )
        elif card.kind == "ribbon":
            colour = BLUE if card.ribbon == "aotan" else RED
            with art.group(f"rotate(12 {n(c[0])} {n(c[1])})"):
                art.path(rrect(c[0] - 8, c[1] - 19, 16, 38, 2), colour, INK, 3)
                if card.ribbon == "aotan":
                    art.path(
                        rrect(c[0] - 6.5, c[1] - 12, 13, 6, 0.5)
                        + " "
                        + rrect(c[0] - 6.5, c[1] + 6, 13, 6, 0.5),
                        CREAM,
                    )
                elif card.ribbon == "akatan":
                    art.line([(c[0], c[1] - 11), (c[0], c[1] + 11)], INK, 3.5)
        else:
            art.circle(c, 11, "none", INK, 4.5)


def render_card(card: Card) -> str:
    art = Art()
    ground(art)
    card.draw(art)
    frame(art)
    aids(art, card)
    return art.svg(card.title)


# ---------------------------------------------------------------------------------------------
# Shared plant and figure parts


def pine_cluster(art: Art, c: Point, rx: float, ry: float) -> None:
    """A fan of pine needles (matsu 松), flat beneath, spiky above."""
    count = 22
    rim: list[Point] = []
    for i in range(count + 1):
        a = math.radians(180 + 180 * i / count)
        r = 1.0 if i % 2 == 0 else 0.86
        rim.append((c[0] + rx * r * math.cos(a), c[1] + ry * r * math.sin(a)))
    d = polygon(rim)[:-2] + f" Q{n(c[0])} {n(c[1] + ry * 0.22)} {pt(rim[0])} Z"
    art.path(d, GREEN, INK, 3)
    inner = [
        (
            c[0] + rx * 0.62 * math.cos(math.radians(180 + 180 * i / 8)),
            c[1] + ry * 0.62 * math.sin(math.radians(180 + 180 * i / 8)),
        )
        for i in range(9)
    ]
    art.path(
        polygon(inner)[:-2] + f" Q{n(c[0])} {n(c[1] + ry * 0.12)} {pt(inner[0])} Z", DARK_GREEN
    )
    root = (c[0], c[1] + ry * 0.06)
    for i in range(1, count, 2):
        a = 180 + 180 * i / count
        art.line(
            [
                root,
                polar(
                    root,
                    0.8
                    * math.hypot(rx * math.cos(math.radians(a)), ry * math.sin(math.radians(a))),
                    a,
                ),
            ],
            INK,
            1.8,
        )


def branch(art: Art, points: Sequence[Point], w0: float, w1: float, colour: str = INK) -> None:
    art.path(taper(points, w0, w1), colour)


def pine(art: Art, variant: int) -> None:
    """A pine on a low hill: black trunk, tiers of needle fans."""
    if variant == 0:
        trunk = [(150, 500), (128, 430), (170, 340), (140, 250), (178, 160), (160, 70)]
        arms = [
            [(136, 420), (90, 400), (66, 392)],
            [(165, 345), (220, 325), (246, 318)],
            [(146, 262), (96, 236), (80, 228)],
            [(172, 175), (224, 150), (240, 140)],
        ]
        fans = [
            ((72, 392), 66, 44),
            ((246, 322), 70, 46),
            ((86, 232), 72, 46),
            ((236, 146), 68, 44),
            ((158, 86), 82, 52),
            ((132, 470), 60, 34),
        ]
    else:
        trunk = [(180, 500), (205, 440), (150, 360), (190, 270), (140, 190), (170, 90)]
        arms = [
            [(198, 430), (250, 410), (262, 400)],
            [(158, 360), (96, 340), (78, 330)],
            [(184, 280), (240, 262), (256, 250)],
            [(148, 200), (92, 180), (78, 170)],
        ]
        fans = [
            ((258, 404), 54, 38),
            ((80, 334), 72, 46),
            ((246, 254), 64, 44),
            ((84, 176), 70, 44),
            ((168, 104), 86, 54),
            ((110, 456), 62, 36),
        ]
    branch(art, trunk, 40, 12)
    for arm in arms:
        branch(art, arm, 14, 6)
    for c, rx, ry in fans:
        pine_cluster(art, c, rx, ry)


def blossom(
    art: Art, c: Point, r: float, petal: str, centre: str, turn: float = 0, notch: bool = False
) -> None:
    """A five-petal flower: round petals for plum, notched ones for cherry."""

    def draw(a: Art) -> None:
        o = (0.0, 0.0)
        for k in range(5):
            ang = k * 72 - 90
            if notch:
                d = (
                    f"M0 0 L{pt(polar(o, 19, ang - 24))} Q{pt(polar(o, 21.6, ang - 12))} "
                    f"{pt(polar(o, 16.4, ang))} Q{pt(polar(o, 21.6, ang + 12))} "
                    f"{pt(polar(o, 19, ang + 24))} Z"
                )
                a.path(d, petal, DEEP_RED if petal == CREAM else INK, 2)
            else:
                a.circle(polar(o, 11, ang), 9.6, petal, INK, 2)
        a.circle(o, 5.6, centre, INK, 1.5)

    name = f"blossom-{petal[1:]}-{centre[1:]}" + ("-n" if notch else "")
    art.use(art.define(name, draw), c, turn, r / 20)


def crane(art: Art) -> None:
    """The crane (tsuru 鶴), standing, head raised to the sun; local box about 230 x 300."""
    for leg in ([(96, 196), (92, 250), (86, 292)], [(122, 198), (126, 250), (136, 292)]):
        art.line(leg, INK, 6)
    for foot in (
        [(86, 292), (66, 298)],
        [(86, 292), (100, 300)],
        [(136, 292), (118, 298)],
        [(136, 292), (156, 298)],
    ):
        art.line(foot, INK, 4)
    tail = [
        (52, 150),
        (18, 178),
        (34, 182),
        (10, 208),
        (44, 198),
        (36, 226),
        (70, 200),
        (66, 214),
        (92, 196),
    ]
    art.path(polygon(tail), INK, INK, 3)
    body = [
        (156, 138),
        (128, 116),
        (86, 116),
        (48, 136),
        (36, 164),
        (60, 190),
        (104, 204),
        (146, 190),
        (166, 162),
    ]
    art.path(smooth(body, closed=True), CREAM, INK, 4)
    wing = [
        (150, 146),
        (118, 130),
        (80, 132),
        (46, 154),
        (62, 160),
        (52, 172),
        (76, 170),
        (70, 184),
        (98, 176),
        (128, 170),
    ]
    art.path(smooth(wing, closed=True), CREAM, INK, 3)
    for a, b in (((118, 142), (72, 164)), ((130, 152), (94, 172))):
        art.line([a, b], INK, 2.5)
    neck = [(148, 150), (168, 112), (172, 74), (162, 44), (168, 20)]
    art.path(tapered(neck, [30, 22, 16, 13, 12]), INK)
    art.path(ellipse_path((172, 14), 15, 11), CREAM, INK, 3)
    art.path(ellipse_path((166, 5), 7, 5), RED, INK, 2)
    art.path(polygon([(184, 9), (230, -6), (186, 19)]), OLIVE, INK, 2.5)
    art.circle((176, 13), 2.6, INK)


def akatan(month: int) -> str:
    return "みよしの" if month == 3 else "あかよろし"


# ---------------------------------------------------------------------------------------------
# 1 matsu: pine


def matsu_crane(art: Art) -> None:
    art.circle((206, 150), 88, RED, INK, 3)
    branch(art, [(70, 506), (48, 440), (84, 380), (60, 310), (90, 250)], 30, 10)
    branch(art, [(80, 386), (130, 360)], 12, 5)
    for c, rx, ry in (
        ((92, 254), 64, 40),
        ((136, 360), 48, 30),
        ((66, 320), 54, 34),
        ((62, 448), 52, 32),
    ):
        pine_cluster(art, c, rx, ry)
    with art.group("translate(40 190) scale(1.04)"):
        crane(art)


def matsu_ribbon(art: Art) -> None:
    pine(art, 0)
    ribbon(art, 104, 120, 270, -8, RED, akatan(1))


def matsu_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        kasumi(art, 92 if variant == 0 else 108, 16, RED, seed=variant)
        pine(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 2 ume: plum


def plum_tree(art: Art, variant: int) -> list[Point]:
    """A gnarled plum branch; returns where the blossoms sit."""
    if variant % 2 == 0:
        main = [
            (16, 472),
            (60, 430),
            (120, 440),
            (190, 380),
            (200, 300),
            (150, 230),
            (170, 150),
            (230, 90),
        ]
        twigs = [
            [(190, 380), (250, 350), (290, 360)],
            [(150, 232), (90, 200), (60, 150)],
            [(200, 300), (260, 270)],
            [(170, 150), (130, 110), (120, 60)],
            [(60, 430), (40, 380)],
        ]
    else:
        main = [
            (304, 478),
            (260, 440),
            (200, 450),
            (130, 390),
            (120, 310),
            (170, 240),
            (150, 160),
            (90, 100),
        ]
        twigs = [
            [(130, 390), (70, 360), (30, 370)],
            [(170, 240), (230, 210), (262, 160)],
            [(120, 310), (60, 280)],
            [(150, 160), (190, 120), (200, 70)],
            [(260, 440), (280, 390)],
        ]
    branch(art, main, 34, 8)
    for t in twigs:
        branch(art, t, 12, 3)
    spots = [
        main[2],
        main[3],
        main[5],
        main[7],
        *[t[-1] for t in twigs],
        twigs[0][1],
        twigs[1][1],
        main[6],
        lerp(main[4], main[5], 0.5),
    ]
    return spots


def plum(art: Art, variant: int) -> list[Point]:
    spots = plum_tree(art, variant)
    for i, s in enumerate(spots):
        r = 19 if i % 3 else 23
        if i % 4 == 3:
            art.circle((s[0] + 8, s[1] - 10), 8, RED, INK, 2)
        blossom(art, s, r, RED, CREAM, turn=i * 23)
    return spots


def warbler(art: Art) -> None:
    """The bush warbler (uguisu 鶯), perched, facing left; local box about 120 x 80."""
    for leg in ([(46, 52), (42, 70)], [(58, 52), (60, 70)]):
        art.line(leg, INK, 4)
    tail = [(70, 40), (118, 56), (112, 66), (66, 52)]
    art.path(polygon(tail), DARK_GREEN, INK, 3)
    body = [(14, 26), (26, 12), (48, 10), (76, 24), (84, 40), (64, 56), (34, 56), (16, 42)]
    art.path(smooth(body, closed=True), OLIVE, INK, 3.5)
    belly = [(22, 40), (40, 50), (64, 50), (48, 56), (28, 52)]
    art.path(smooth(belly, closed=True), "#cfd58a")
    wing = [(38, 26), (66, 24), (86, 38), (70, 46), (46, 42)]
    art.path(smooth(wing, closed=True), DARK_GREEN, INK, 2.5)
    art.line([(52, 34), (76, 40)], INK, 2)
    art.path(polygon([(14, 22), (0, 27), (15, 30)]), INK)
    art.circle((25, 22), 5, CREAM, INK, 1.5)
    art.circle((25.5, 22), 2.5, INK)


def ume_warbler(art: Art) -> None:
    kasumi(art, 84, 14, RED, seed=3)
    plum(art, 0)
    with art.group("translate(64 232) scale(1.6)"):
        warbler(art)


def ume_ribbon(art: Art) -> None:
    kasumi(art, 84, 14, RED, seed=4)
    plum(art, 1)
    ribbon(art, 214, 128, 270, 8, RED, akatan(2))


def ume_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        kasumi(art, 96 + 10 * variant, 14, RED, seed=5 + variant)
        plum(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 3 sakura: cherry


def cloud(
    art: Art, circles: Sequence[tuple[float, float, float]], fill: str, edge: str = INK
) -> None:
    """A mass of blossom: overlapping discs with one outline around the whole."""
    discs = [ellipse_path((x, y), r, r) for x, y, r in circles]
    art.union(discs, fill, edge, 6)


def cherry(art: Art, variant: int, low: float = 1.0) -> None:
    """Cherry (sakura 桜): a dark trunk under billows of pale blossom, flowers picked out."""
    rng = Rng(30 + variant)
    if variant == 0:
        trunk = [(250, 506), (236, 420), (250, 330), (210, 250)]
        arms = [[(240, 380), (180, 330), (120, 300)], [(246, 330), (290, 280)]]
        masses = [(70, 110, 250, 170), (50, 280, 190, 370), (170, 220, 280, 300)]
    elif variant == 1:
        trunk = [(70, 506), (86, 420), (70, 330), (110, 250)]
        arms = [[(80, 380), (140, 330), (200, 300)], [(74, 330), (30, 280)]]
        masses = [(70, 110, 250, 170), (130, 290, 270, 370), (40, 220, 150, 300)]
    else:
        trunk = [(160, 506), (150, 430), (170, 350)]
        arms = [[(156, 420), (100, 380), (60, 340)], [(165, 380), (230, 340), (270, 330)]]
        masses = [(70, 120, 250, 160), (40, 250, 150, 320), (170, 250, 280, 320)]
    branch(art, trunk, 40, 16)
    for arm in arms:
        branch(art, arm, 16, 5)
    circles: list[tuple[float, float, float]] = []
    for x0, top, x1, bottom in masses:
        for _ in range(8):
            r = rng.uniform(34, 46)
            x = min(max(rng.uniform(x0, x1), r + 8), W - r - 8)
            y = max(rng.uniform(top * low, bottom * low), r + 8)
            circles.append((x, y, r))
    cloud(art, circles, PINK, RED)
    placed: list[Point] = []
    for _ in range(400):
        x, y, r = circles[int(rng.random() * len(circles))]
        a, d = rng.uniform(0, 360), r * math.sqrt(rng.random()) * 0.8
        p = polar((x, y), d, a)
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 30 for q in placed):
            placed.append(p)
    for k, p in enumerate(placed):
        if k % 3 == 2:
            art.circle(p, 5, RED, INK, 1.5)
        else:
            blossom(art, p, 13, CREAM, RED, turn=rng.uniform(0, 72), notch=True)


def curtain(art: Art) -> None:
    """The festival curtain (maku 幕) slung below the blossom, with our own crest on it."""
    top, bottom = 292, 478
    xs = (312, 263, 214, 160, 106, 57, 8)
    art.path(
        f"M8 {top} L312 {top} L312 {bottom - 24} "
        + " ".join(
            f"Q{n((a + b) / 2)} {bottom + 8} {n(b)} {bottom - 24}"
            for a, b in zip(xs, xs[1:], strict=False)
        )
        + " Z",
        RED,
        INK,
        4,
    )
    folds = " ".join(f"M{x} {top + 8} L{x} {bottom - 26}" for x in xs[1:-1])
    art.path(folds, "none", DEEP_RED, 3)
    art.path(f"M8 {top + 60} L312 {top + 60} L312 {top + 106} L8 {top + 106} Z", CREAM, INK, 3)
    for x in (84, 236):
        art.circle((x, top + 83), 36, CREAM, INK, 3.5)
        art.circle((x, top + 83), 28, RED)
        blossom(art, (x, top + 83), 22, CREAM, RED, notch=True)
    art.path(f"M8 {top - 13} L312 {top - 13} L312 {top + 1} L8 {top + 1} Z", INK)
    for x in (34, 98, 160, 222, 286):
        art.circle((x, top - 6), 9, YELLOW, INK, 3)
    for x in (26, 294):
        art.line([(x, top), (x, top + 40)], INK, 4)
        art.path(
            polygon([(x - 8, top + 38), (x + 8, top + 38), (x + 5, top + 72), (x - 5, top + 72)]),
            YELLOW,
            INK,
            2.5,
        )


def sakura_curtain(art: Art) -> None:
    kasumi(art, 60, 12, RED, seed=8)
    cherry(art, 2, low=0.85)
    curtain(art)


def sakura_ribbon(art: Art) -> None:
    kasumi(art, 70, 12, RED, seed=9)
    cherry(art, 0)
    ribbon(art, 110, 150, 270, -6, RED, akatan(3))


def sakura_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        kasumi(art, 70 + 12 * variant, 12, RED, seed=10 + variant)
        cherry(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 4 fuji: wisteria


def raceme(art: Art, top: Point, length: float, sway: float, seed: int) -> None:
    """One hanging wisteria cluster: petals in pairs, smaller toward the tip."""

    def draw(a: Art) -> None:
        rng = Rng(seed)
        full, bend = 300.0, 16.0 if seed % 2 else -14.0
        a.line([(0, 0), (bend * 0.5, full * 0.5), (bend, full)], INK, 2.5, smooth_it=True)
        steps = int(full / 13)
        for i in range(steps, -1, -1):
            t = i / steps
            x, y = bend * t * t, full * t
            size = 13 * (1 - 0.6 * t)
            for side in (-1, 1):
                colour = PURPLE if (i + (side > 0)) % 2 else LILAC
                a.ellipse(
                    (x + side * size * 0.75, y + rng.uniform(-2, 2)),
                    size * 0.62,
                    size * 0.45,
                    colour,
                    INK,
                    1.6,
                    side * 30,
                )

    name = art.define(f"raceme-{seed % 2}", draw)
    flip = 1 if (sway >= 0) == (seed % 2 == 1) else -1
    scale = length / 300
    art.raw(
        f'<use xlink:href="#{name}" transform="translate({pt(top)}) '
        f'scale({flip * scale:.3g} {scale:.3g})"/>'
    )


def wisteria(art: Art, variant: int) -> None:
    """Wisteria (fuji 藤): a twisting leafy vine along the top, clusters hanging from it."""
    if variant == 0:
        vine = [(14, 64), (60, 44), (130, 66), (200, 40), (270, 62), (306, 46)]
        drops = [
            (40, 58, 250, 10),
            (92, 56, 320, 16),
            (150, 60, 230, -8),
            (206, 46, 300, 12),
            (262, 60, 210, -14),
        ]
    else:
        vine = [(14, 48), (70, 68), (140, 42), (210, 68), (270, 44), (306, 60)]
        drops = [
            (58, 64, 220, 12),
            (116, 54, 300, -10),
            (176, 56, 260, 14),
            (234, 60, 320, -8),
            (284, 52, 200, -6),
        ]
    for i, (x, y, _, _) in enumerate(drops):
        for k, da in enumerate((-150, -100, -30)):
            a = da if i % 2 else -180 - da
            art.path(
                leaf((x, y), polar((x, y), 34 - 4 * k, a), 15), (GREEN, DARK_GREEN)[k % 2], INK, 2
            )
    branch(art, vine, 16, 10)
    art.line([(p[0], p[1] + 9) for p in vine], CREAM, 2, smooth_it=True)
    for i, (x, y, length, sway) in enumerate(drops):
        raceme(art, (x, y), length, sway, seed=i + variant)


def cuckoo(art: Art) -> None:
    """The lesser cuckoo (hototogisu 不如帰) in flight, heading left; box about 200 x 130."""
    art.path(leaf((86, 40), (168, -28), 30, 10), GREY, INK, 3)
    tail = [(120, 50), (196, 70), (192, 88), (118, 66)]
    art.path(smooth(tail, closed=True), INK, INK, 2)
    for x in (146, 164, 182):
        art.circle((x, 72 + (x - 146) * 0.25), 3, CREAM)
    body = [(22, 42), (44, 28), (84, 30), (126, 50), (120, 64), (80, 70), (40, 62)]
    art.path(smooth(body, closed=True), GREY, INK, 3.5)
    belly = [(40, 58), (70, 66), (112, 60), (80, 72), (50, 68)]
    art.path(smooth(belly, closed=True), CREAM)
    art.path(" ".join(f"M{x} 61 L{x + 5} 68" for x in (56, 70, 84, 98)), "none", INK, 1.8)
    art.path(leaf((64, 40), (140, -56), 40, 14), INK, INK, 2)
    art.path(
        " ".join(
            f"M{pt(lerp((70, 30), (136, -46), t))} L{pt(lerp((86, 36), (144, -40), t))}"
            for t in (0.2, 0.4, 0.6)
        ),
        "none",
        GREY,
        2,
    )
    art.path(ellipse_path((34, 42), 17, 14), INK)
    art.path(polygon([(20, 38), (0, 46), (20, 49)]), INK, INK, 1.5)
    art.circle((30, 39), 4.5, YELLOW, INK, 1.2)
    art.circle((29.5, 39), 2, INK)


def fuji_cuckoo(art: Art) -> None:
    kasumi(art, 440, 14, RED, top=False, seed=12)
    art.path("M150 252 A92 92 0 1 0 270 372 A74 74 0 1 1 150 252 Z", YELLOW, INK, 3)
    wisteria(art, 0)
    with art.group("translate(84 296) rotate(-14)"):
        cuckoo(art)


def fuji_ribbon(art: Art) -> None:
    kasumi(art, 440, 14, RED, top=False, seed=13)
    wisteria(art, 1)
    ribbon(art, 150, 128, 270, 6, RED)


def fuji_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        kasumi(art, 420 - 14 * variant, 14, RED, top=False, seed=14 + variant)
        wisteria(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 5 ayame: iris


def iris_flower(art: Art, c: Point, size: float) -> None:
    """An iris flower: three falls hanging out, three standards upright."""

    def draw(a: Art) -> None:
        o = (0.0, 0.0)
        for ang in (-150, -90, -30):
            a.path(leaf(o, polar(o, 44, ang), 19), LILAC, INK, 2)
        for ang in (160, 90, 20):
            tip = polar(o, 50, ang)
            a.path(leaf(o, tip, 28, 4 if ang < 90 else -4), PURPLE, INK, 2.2)
            a.line([lerp(o, tip, 0.2), lerp(o, tip, 0.6)], YELLOW, 3)
        a.circle(o, 7, PURPLE, INK, 1.8)

    art.use(art.define("iris", draw), c, 0, size / 46)


def irises(art: Art, variant: int, top: float = 120) -> None:
    """Irises (ayame 菖蒲) rising from the bottom: sword leaves and purple flowers."""
    rng = Rng(50 + variant)
    xs = [30, 62, 96, 138, 176, 214, 252, 290]
    for i, x in enumerate(xs):
        h = rng.uniform(top + 60, top + 200)
        lean = min(max(rng.uniform(-40, 40), 24 - x), 296 - x)
        art.path(
            blade((x, 506), (x + lean, h), 20, lean * 0.3), GREEN if i % 2 else DARK_GREEN, INK, 2.5
        )
    flowers = (
        [(92, top + 40), (214, top + 10), (150, top + 130)]
        if variant == 0
        else [(222, top + 40), (100, top + 10), (170, top + 140)]
    )
    for x, y in flowers:
        art.line([(x + 6, 506), (x, y)], DARK_GREEN, 7)
    for x, y in flowers:
        iris_flower(art, (x, y), 46)


def bridge(art: Art) -> None:
    """The eight-plank bridge (yatsuhashi 八橋): planks zig-zagging across the marsh."""
    runs = [((30, 458), (176, 392)), ((176, 392), (50, 324)), ((50, 324), (288, 266))]
    depth = 16
    for a, b in runs:
        for x in (0.2, 0.55, 0.9):
            p = lerp(a, b, x)
            art.line([(p[0], p[1] + depth), (p[0], min(p[1] + depth + 60, 500))], INK, 8)
    for a, b in runs:
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy)
        ox, oy = -dy / d * 22, dx / d * 22
        top = [
            (a[0] - ox, a[1] - oy),
            (b[0] - ox, b[1] - oy),
            (b[0] + ox, b[1] + oy),
            (a[0] + ox, a[1] + oy),
        ]
        art.path(
            polygon(
                [
                    (top[3][0], top[3][1]),
                    (top[2][0], top[2][1]),
                    (top[2][0], top[2][1] + depth),
                    (top[3][0], top[3][1] + depth),
                ]
            ),
            INK,
        )
        art.path(polygon(top), BROWN, INK, 3)
        planks = int(d / 22)
        for k in range(1, planks):
            t = k / planks
            art.line([lerp(top[0], top[1], t), lerp(top[3], top[2], t)], INK, 2)


def ayame_bridge(art: Art) -> None:
    stream(art, 396)
    irises(art, 0, top=70)
    bridge(art)


def ayame_ribbon(art: Art) -> None:
    irises(art, 1)
    ribbon(art, 118, 96, 270, -6, RED)


def ayame_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        irises(art, variant, top=110 + 20 * variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 6 botan: peony


def peony(art: Art, c: Point, r: float, turn: float = 0) -> None:
    """A peony bloom (botan 牡丹): rings of broad scalloped petals."""

    def draw(a: Art) -> None:
        o = (0.0, 0.0)
        for ring, (rr, colour, count) in enumerate(((60, RED, 8), (42, RED, 7), (25, DEEP_RED, 5))):
            for k in range(count):
                ang = ring * 20 + k * 360 / count
                pc = polar(o, rr * 0.55, ang)
                tip = polar(o, rr * 1.02, ang)
                left = polar(o, rr * 0.95, ang - 200 / count)
                right = polar(o, rr * 0.95, ang + 200 / count)
                d = (
                    f"M{pt(pc)} L{pt(polar(pc, rr * 0.2, ang - 120))} Q{pt(left)} "
                    f"{pt(lerp(left, tip, 0.5))} Q{pt(polar(o, rr * 1.12, ang))} "
                    f"{pt(lerp(tip, right, 0.5))} Q{pt(right)} "
                    f"{pt(polar(pc, rr * 0.2, ang + 120))} Z"
                )
                a.path(d, colour, INK, 2.2)
        for k in range(6):
            a.circle(polar(o, 7, k * 60), 3.6, YELLOW, INK, 1.2)

    art.use(art.define("peony", draw), c, turn, r / 60)


def peony_leaf(art: Art, base: Point, angle: float, size: float) -> None:
    """A three-part peony leaf, each part a pointed blade."""
    for da, k in ((-38, 0.75), (0, 1.0), (38, 0.75)):
        tip = polar(base, size * k, angle + da)
        art.path(leaf(base, tip, size * 0.42 * k, 3), GREEN, INK, 2.5)
        art.line([base, lerp(base, tip, 0.8)], DARK_GREEN, 2)


def peonies(art: Art, variant: int) -> None:
    """Peonies: one great bloom and a smaller one, broad leaves round them."""
    if variant == 0:
        stems = [[(150, 506), (150, 420), (130, 300)], [(150, 430), (220, 330), (236, 200)]]
        leaves = [
            ((150, 450), 200, 100),
            ((150, 430), -20, 96),
            ((140, 370), 225, 84),
            ((214, 330), -40, 80),
            ((150, 486), -25, 76),
            ((220, 300), 200, 66),
            ((136, 390), -60, 70),
        ]
        blooms = [((124, 270), 92, 0), ((236, 170), 62, 14)]
    elif variant == 1:
        stems = [[(170, 506), (176, 420), (190, 290)], [(176, 440), (100, 330), (84, 210)]]
        leaves = [
            ((170, 460), -20, 100),
            ((176, 430), 200, 96),
            ((186, 360), -45, 84),
            ((104, 330), 210, 80),
            ((168, 486), 205, 76),
            ((96, 300), -20, 66),
            ((184, 390), 240, 70),
        ]
        blooms = [((196, 262), 92, 10), ((84, 180), 62, 30)]
    elif variant == 3:
        stems = [[(200, 506), (206, 420), (214, 340)], [(204, 450), (120, 380), (92, 250)]]
        leaves = [
            ((204, 470), -25, 100),
            ((204, 450), 200, 92),
            ((120, 380), 215, 80),
            ((130, 390), -40, 66),
            ((100, 300), 200, 60),
            ((206, 400), -60, 70),
        ]
        blooms = [((214, 340), 88, 20), ((92, 236), 60, 40)]
    else:
        stems = [[(160, 506), (156, 440), (160, 380)]]
        leaves = [
            ((158, 470), 200, 100),
            ((158, 460), -20, 100),
            ((158, 420), 230, 84),
            ((158, 416), -50, 84),
        ]
        blooms = [((160, 356), 86, 4)]
    for s in stems:
        branch(art, s, 10, 6)
    for base, angle, size in leaves:
        peony_leaf(art, base, angle, size)
    for c, r, turn in blooms:
        peony(art, c, r, turn)


def butterfly(art: Art, c: Point, size: float, turn: float, colour: str, spot: str) -> None:
    """A butterfly (chō 蝶) seen from above, wings open."""
    with art.group(f"translate({n(c[0])} {n(c[1])}) rotate({n(turn)}) scale({n(size / 100)})"):
        for side in (-1, 1):
            fore = [(0, -6), (side * 40, -52), (side * 86, -50), (side * 78, -10), (side * 8, 4)]
            hind = [
                (0, 2),
                (side * 70, 4),
                (side * 70, 40),
                (side * 46, 62),
                (side * 24, 82),
                (side * 18, 56),
                (side * 4, 30),
            ]
            art.path(smooth(hind, closed=True), colour, INK, 4)
            art.path(smooth(fore, closed=True), colour, INK, 4)
            art.path(ellipse_path((side * 56, -30), 13, 10), spot, INK, 2.5)
            art.path(ellipse_path((side * 44, 30), 10, 8), spot, INK, 2.5)
            art.path(smooth([(side * 16, -6), (side * 50, -40), (side * 80, -44)]), "none", INK, 3)
            art.line([(side * 2, -40), (side * 18, -70)], INK, 3)
            art.circle((side * 18, -70), 4, INK)
        art.path(ellipse_path((0, 10), 7, 38), INK)


def botan_butterfly(art: Art) -> None:
    peonies(art, 2)
    butterfly(art, (96, 150), 78, -18, BLUE, YELLOW)
    butterfly(art, (226, 190), 62, 20, PURPLE, YELLOW)


def botan_ribbon(art: Art) -> None:
    peonies(art, 3)
    ribbon(art, 164, 44, 236, 4, BLUE, banded=True)


def botan_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        peonies(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 7 hagi: bush clover


def clover(art: Art, variant: int) -> None:
    """Bush clover (hagi 萩): stems arching over, leaves in threes, sprays of red flowers."""
    rng = Rng(70 + variant)
    stems = [
        [(44, 506), (52, 380), (92, 230), (170, 140), (248, 156), (292, 236)],
        [(74, 506), (84, 400), (124, 290), (192, 222), (258, 250), (290, 326)],
        [(104, 506), (116, 424), (156, 344), (214, 310), (266, 344), (288, 410)],
        [(42, 506), (40, 400), (54, 300), (82, 214), (116, 176)],
        [(136, 506), (150, 454), (190, 412), (236, 404), (270, 440)],
    ]
    leaves: tuple[list[str], list[str]] = ([], [])
    flowers: tuple[list[str], list[str]] = ([], [])
    for k, stem in enumerate(stems):
        art.line(stem, INK, 4 if k < 3 else 3, smooth_it=True)
        pts = along(stem, 6)
        for i in range(3, len(pts) - 1, 2):
            p, q = pts[i], pts[i + 1]
            heading = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
            side = 1 if (i // 2) % 2 else -1
            base = polar(p, 3, heading + 90 * side)
            for j, da in enumerate((-40, 0, 40)):
                tip = polar(base, 24 - 6 * abs(j - 1), heading + side * 70 + da)
                leaves[(i + j + k) % 2].append(leaf(base, tip, 11))
            if i > len(pts) * 0.45:
                for j in range(3):
                    c = polar(p, 12 + j * 9, heading - side * 80 + rng.uniform(-15, 15))
                    flowers[j % 2].append(ellipse_path(c, 6, 4.4))
    for d, colour in zip(leaves, (GREEN, DARK_GREEN), strict=True):
        art.path(" ".join(d), colour, INK, 1.6)
    for d, colour in zip(flowers, (RED, DEEP_RED), strict=True):
        art.path(" ".join(d), colour, INK, 1.4)


def boar(art: Art) -> None:
    """The wild boar (inoshishi 猪), charging left; local box about 250 x 150."""
    legs = [
        [(70, 100), (60, 130), (50, 148)],
        [(96, 104), (100, 130), (92, 150)],
        [(178, 100), (186, 126), (176, 148)],
        [(200, 96), (216, 124), (212, 146)],
    ]
    for leg in legs[1::2]:
        art.path(taper(leg, 20, 10), INK)
    body = [
        (28, 70),
        (44, 40),
        (90, 14),
        (150, 16),
        (210, 36),
        (236, 70),
        (224, 104),
        (180, 112),
        (110, 114),
        (62, 110),
        (30, 96),
    ]
    art.path(smooth(body, closed=True), BROWN, INK, 4)
    for leg in legs[0::2]:
        art.path(taper(leg, 22, 11), INK)
    ridge = [(60, 36), (100, 12), (150, 10), (206, 30)]
    rng = Rng(7)
    bristle = []
    for i in range(16):
        t = i / 15
        seg = min(int(t * 3), 2)
        p = lerp(ridge[seg], ridge[seg + 1], t * 3 - seg)
        bristle.append(p)
        bristle.append((p[0] + rng.uniform(-4, 6), p[1] - rng.uniform(10, 18)))
    art.path(polygon([*bristle, (206, 40), (60, 44)]), INK)
    snout = [(40, 46), (10, 70), (0, 86), (8, 96), (36, 98)]
    art.path(smooth(snout, closed=True), BROWN, INK, 3.5)
    art.path(ellipse_path((4, 90), 5, 8), INK)
    art.path(polygon([(22, 92), (10, 80), (28, 86)]), CREAM, INK, 1.5)
    art.path(polygon([(56, 40), (64, 14), (76, 38)]), BROWN, INK, 3)
    art.circle((40, 60), 4.5, CREAM, INK, 1.5)
    art.circle((39, 60), 2, INK)
    art.line([(236, 66), (252, 58), (258, 72)], INK, 3.5, smooth_it=True)
    for a, b in (((120, 60), (150, 80)), ((140, 50), (174, 70)), ((100, 74), (126, 92))):
        art.line([a, b], INK, 2.5)


def hagi_boar(art: Art) -> None:
    with art.group(mirrored()):
        clover(art, 1)
    with art.group("translate(36 318) scale(1.02)"):
        boar(art)


def hagi_ribbon(art: Art) -> None:
    clover(art, 0)
    ribbon(art, 196, 110, 270, 6, RED)


def hagi_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        if variant:
            with art.group(mirrored()):
                clover(art, variant)
        else:
            clover(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 8 susuki: pampas grass


def hill(art: Art, crest: float, variant: int = 0, colour: str = INK) -> None:
    """The black hill of the eighth month: pale grass on it, a fringe of blades against the sky."""
    rng = Rng(80 + variant)
    ends = ((6.0, crest + 40), (90.0, crest - 30), (200.0, crest - 40), (314.0, crest + 10))

    def ridge(t: float) -> Point:
        u = 1 - t
        k = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        return (
            sum(w * p[0] for w, p in zip(k, ends, strict=True)),
            sum(w * p[1] for w, p in zip(k, ends, strict=True)),
        )

    fringe: list[str] = []
    for k in range(30):
        x, y = ridge(0.05 + k * 0.9 / 29 + rng.uniform(-0.01, 0.01))
        bend = min(max(rng.uniform(-26, 26), 16 - x), 304 - x)
        fringe.append(blade((x, y + 14), (x + bend, y - rng.uniform(26, 78)), 7, bend * 0.35))
    art.path(" ".join(fringe), colour)
    d = (
        f"M6 506 L6 {n(crest + 40)} C90 {n(crest - 30)} 200 {n(crest - 40)} 314 "
        f"{n(crest + 10)} L314 506 Z"
    )
    art.path(d, colour)
    blades: list[str] = []
    for k in range(24):
        x = 18 + k * 12.4 + rng.uniform(-3, 3)
        top = ridge(min(max((x - 6) / 308, 0), 1))[1] + rng.uniform(8, 40)
        bend = min(max(rng.uniform(-34, 34), 14 - x), 306 - x)
        blades.append(blade((x + bend * 0.2, 504), (x + bend, top), 4.5, bend * 0.4))
    art.path(" ".join(blades), CREAM)


def susuki_moon(art: Art) -> None:
    art.path(rrect(4, 4, 312, 380, 4), RED)
    art.circle((160, 196), 104, CREAM, INK, 4)
    hill(art, 300, 0)


def goose(art: Art, c: Point, size: float) -> None:
    """A wild goose (kari 雁) in flight, heading left, wings raised."""

    def draw(a: Art) -> None:
        far = [
            (8, -8),
            (22, -40),
            (46, -66),
            (80, -78),
            (66, -56),
            (70, -46),
            (52, -36),
            (54, -24),
            (32, -12),
        ]
        a.path(smooth(far, closed=True), GREY, INK, 3)
        body = [(-24, -4), (0, -12), (36, -10), (58, -2), (66, 6), (40, 12), (0, 12), (-20, 8)]
        a.path(smooth(body, closed=True), INK)
        a.path(polygon([(56, -4), (78, -8), (76, 10), (60, 8)]), INK)
        a.path(taper([(-18, 0), (-44, -4), (-62, -6)], 13, 9), INK)
        a.path(ellipse_path((-66, -7), 10, 7.5), INK)
        a.path(polygon([(-72, -10), (-92, -5), (-72, -2)]), INK)
        a.circle((-68, -9), 2, CREAM)
        near = [
            (-8, -6),
            (0, -40),
            (18, -72),
            (46, -98),
            (38, -70),
            (46, -60),
            (30, -48),
            (34, -34),
            (16, -20),
            (16, -6),
        ]
        a.path(smooth(near, closed=True), INK, INK, 2)
        a.path(
            " ".join(
                f"M{pt(lerp((2, -14), (30, -80), t))} L{pt(lerp((12, -12), (40, -74), t))}"
                for t in (0.25, 0.5, 0.75)
            ),
            "none",
            CREAM,
            2.2,
            cap="round",
        )
        a.path("M-10 8 Q20 16 50 10", "none", GREY, 2.5, cap="round")

    art.use(art.define("goose", draw), c, -6, size / 100)


def susuki_geese(art: Art) -> None:
    art.path(rrect(4, 4, 312, 400, 4), YELLOW)
    for x, y, s in ((120, 118, 86), (206, 180, 76), (236, 84, 64)):
        goose(art, (x, y), s)
    hill(art, 320, 1)


def susuki_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        if variant == 1:
            art.path(rrect(4, 4, 312, 400, 4), RED)
        hill(art, 250 + 40 * variant, 2 + variant)

    return draw


# ---------------------------------------------------------------------------------------------
# 9 kiku: chrysanthemum


def chrysanthemum(art: Art, c: Point, r: float, colour: str, inner: str) -> None:
    """A round chrysanthemum (kiku 菊): rings of narrow petals with rounded tips."""

    def draw(a: Art) -> None:
        for rr, fill, count, turn in (
            (50, colour, 18, 0),
            (36, colour, 16, 11),
            (23, inner, 12, 0),
        ):
            for k in range(count):
                ang = turn + k * 360 / count
                a.ellipse(polar((0, 0), rr * 0.58, ang), rr * 0.44, rr * 0.13, fill, INK, 1.6, ang)
        a.circle((0, 0), 8, inner, INK, 2)

    art.use(art.define(f"kiku-{colour[1:]}-{inner[1:]}", draw), c, 0, r / 50)


def kiku_leaf(art: Art, base: Point, angle: float, size: float) -> None:
    tip = polar(base, size, angle)
    art.path(leaf(base, tip, size * 0.62), GREEN, INK, 2.5)
    for t in (0.35, 0.65):
        p = lerp(base, tip, t)
        for da in (-40, 40):
            art.line([p, polar(p, size * 0.22, angle + da)], DARK_GREEN, 2)
    art.line([base, lerp(base, tip, 0.85)], DARK_GREEN, 2)


def chrysanthemums(art: Art, variant: int, low: float = 0) -> None:
    """Chrysanthemums: yellow, white and red blooms on leafy stems."""
    flowers: list[tuple[Point, float, str, str]]
    if variant == 0:
        flowers = [
            ((96, 190), 62, YELLOW, ORANGE),
            ((232, 150), 52, CREAM, YELLOW),
            ((220, 300), 56, RED, YELLOW),
            ((106, 352), 46, YELLOW, RED),
        ]
    elif variant == 1:
        flowers = [
            ((224, 190), 62, YELLOW, ORANGE),
            ((100, 236), 52, RED, YELLOW),
            ((120, 100), 46, CREAM, YELLOW),
            ((210, 350), 50, YELLOW, RED),
        ]
    else:
        flowers = [
            ((104, 150), 52, YELLOW, ORANGE),
            ((236, 104), 46, RED, YELLOW),
            ((196, 230), 48, CREAM, YELLOW),
        ]
    flowers = [((x, y + low), r, a, b) for (x, y), r, a, b in flowers]
    for (x, y), _, _, _ in flowers:
        art.line([(160, 506), (160 + (x - 160) * 0.3, 420), (x, y)], DARK_GREEN, 6, smooth_it=True)
    for k, ((x, y), r, _, _) in enumerate(flowers):
        kiku_leaf(art, (x + (1 if k % 2 else -1) * r * 0.5, y + r * 0.9), 30 if k % 2 else 150, 66)
    for base, angle in (((160, 478), 200), ((160, 462), -20), ((150, 420), 230)):
        kiku_leaf(art, base, angle, 80)
    for c, r, a, b in flowers:
        chrysanthemum(art, c, r, a, b)


def sake_cup(art: Art) -> None:
    """The sake cup (sakazuki 盃) with 寿 on it, on its stand; local box about 220 x 170."""
    art.path("M70 120 L150 120 L168 168 L52 168 Z", INK)
    art.path(ellipse_path((110, 120), 40, 10), GREY, INK, 3)
    art.path("M4 54 C14 122 206 122 216 54 Z", RED, INK, 4)
    art.path(ellipse_path((110, 54), 106, 40), YELLOW, INK, 4)
    art.path(ellipse_path((110, 56), 94, 32), RED, INK, 2.5)
    with art.group("matrix(1 0 0 0.62 0 22)"):
        write(art, "寿", 84, 24, 52, YELLOW, 6)


def kiku_sake_cup(art: Art) -> None:
    chrysanthemums(art, 2)
    with art.group("translate(36 300) scale(1.13)"):
        sake_cup(art)


def kiku_ribbon(art: Art) -> None:
    chrysanthemums(art, 1, low=20)
    ribbon(art, 170, 40, 236, 6, BLUE, banded=True)


def kiku_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        chrysanthemums(art, variant, low=20)

    return draw


# ---------------------------------------------------------------------------------------------
# 10 momiji: maple


def maple_leaf(art: Art, c: Point, size: float, angle: float, colour: str) -> None:
    """A maple leaf (momiji 紅葉): seven pointed lobes, one outline round them all."""

    def draw(a: Art) -> None:
        o = (0.0, 0.0)
        lobes = ((0, 1.0), (-48, 0.9), (48, 0.9), (-96, 0.7), (96, 0.7), (-140, 0.42), (140, 0.42))
        a.union([leaf(o, polar(o, 40 * k, da - 90), 17 * k) for da, k in lobes], colour, INK, 5)
        vein = INK if colour == DEEP_RED else DEEP_RED
        a.path(
            " ".join(f"M0 0 L{pt(polar(o, 30 * k, da - 90))}" for da, k in lobes[:5]),
            "none",
            vein,
            1.8,
        )
        a.line([o, (0, 16)], INK, 3)

    art.use(art.define(f"maple-{colour[1:]}", draw), c, angle, size / 40)


def maples(art: Art, variant: int) -> None:
    rng = Rng(100 + variant)
    if variant == 0:
        limbs = [
            [(306, 40), (240, 70), (160, 60), (80, 110), (30, 100)],
            [(240, 70), (220, 150), (250, 220)],
            [(160, 60), (150, 140), (110, 200)],
            [(80, 110), (70, 180)],
        ]
    elif variant == 1:
        limbs = [
            [(14, 50), (80, 80), (160, 64), (240, 110), (300, 100)],
            [(80, 80), (100, 160), (70, 230)],
            [(160, 64), (170, 150), (210, 210)],
            [(240, 110), (250, 180)],
        ]
    else:
        limbs = [
            [(306, 30), (230, 60), (140, 40), (60, 80)],
            [(230, 60), (200, 130)],
            [(140, 40), (110, 110)],
            [(60, 80), (40, 140)],
        ]
    branch(art, limbs[0], 20, 8)
    for limb in limbs[1:]:
        branch(art, limb, 10, 4)
    spots: list[Point] = []
    for limb in limbs:
        for i in range(1, len(limb)):
            spots.append(limb[i])
            spots.append(lerp(limb[i - 1], limb[i], 0.5))
    for k, s in enumerate(spots):
        colour = (RED, RED, DEEP_RED, ORANGE)[k % 4]
        size = rng.uniform(30, 40)
        x = min(max(s[0] + rng.uniform(-16, 16), size + 8), W - size - 8)
        maple_leaf(
            art, (x, max(s[1] + rng.uniform(6, 26), size + 8)), size, rng.uniform(-40, 40), colour
        )


def deer(art: Art) -> None:
    """The deer (shika 鹿), standing, looking back over its shoulder; box about 230 x 280."""
    legs = [
        [(70, 200), (62, 240), (64, 280)],
        [(96, 204), (104, 244), (100, 282)],
        [(172, 196), (180, 240), (170, 280)],
        [(196, 190), (214, 236), (206, 278)],
    ]
    for leg in legs[1::2]:
        art.path(tapered(leg, [16, 10, 8]), BROWN, INK, 2)
    body = [
        (50, 150),
        (80, 128),
        (150, 126),
        (206, 136),
        (224, 160),
        (210, 196),
        (170, 206),
        (100, 210),
        (60, 196),
        (46, 172),
    ]
    art.path(smooth(body, closed=True), ORANGE, INK, 4)
    for leg in legs[0::2]:
        art.path(tapered(leg, [18, 11, 8]), ORANGE, INK, 3)
    for leg in legs:
        art.path(ellipse_path((leg[-1][0] + 2, leg[-1][1]), 7, 4), INK)
    for x, y in (
        (100, 150),
        (130, 146),
        (160, 152),
        (116, 172),
        (146, 176),
        (186, 160),
        (176, 182),
        (88, 176),
    ):
        art.circle((x, y), 5, CREAM)
    art.path(polygon([(220, 150), (240, 140), (230, 164)]), CREAM, INK, 2.5)
    neck = [(76, 150), (60, 110), (70, 70)]
    art.path(tapered(neck, [52, 36, 26]), ORANGE, INK, 4)
    head = [(60, 72), (80, 56), (112, 58), (132, 66), (128, 78), (100, 86), (74, 92)]
    art.path(smooth(head, closed=True), ORANGE, INK, 4)
    art.path(ellipse_path((130, 72), 5, 4), INK)
    art.path(leaf((70, 62), (44, 40), 16), ORANGE, INK, 2.5)
    art.circle((96, 68), 4.5, INK)
    for antler in ([(78, 56), (70, 20), (58, 4)], [(88, 54), (100, 18), (116, 2)]):
        art.line(antler, INK, 5, smooth_it=True)
        mid = lerp(antler[0], antler[1], 0.7)
        art.line([mid, (mid[0] + (antler[2][0] - antler[0][0]) * 0.6, mid[1] - 6)], INK, 4)


def momiji_deer(art: Art) -> None:
    maples(art, 2)
    with art.group("translate(50 210)"):
        deer(art)


def momiji_ribbon(art: Art) -> None:
    maples(art, 0)
    ribbon(art, 124, 190, 260, -8, BLUE, banded=True)


def momiji_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        maples(art, variant)
        low = [(306, 380), (236, 350), (170, 372), (120, 344)]
        if variant:
            low = [(W - x, y) for x, y in low]
        branch(art, low, 14, 5)
        leaves = [
            (low[1][0], low[1][1] + 26),
            (low[2][0], low[2][1] + 30),
            low[3],
            (low[3][0] + (30 if variant else -30), low[3][1] + 36),
            (low[2][0] + (20 if variant else -20), low[2][1] - 30),
        ]
        for k, c in enumerate(leaves):
            maple_leaf(art, c, 34, k * 25 - 40, (RED, DEEP_RED, ORANGE, RED, DEEP_RED)[k])
        maple_leaf(art, (96 if variant else 224, 470), 26, 30, ORANGE)

    return draw


# ---------------------------------------------------------------------------------------------
# 11 yanagi: willow


def willow(art: Art, variant: int, reach: float = 1.0, top: float = 0) -> None:
    """Willow (yanagi 柳): a dark limb along the top, long leafy strands hanging from it."""
    rng = Rng(110 + variant)
    limb: list[Point] = [(14, 30), (80, 52), (160, 40), (240, 70), (306, 60)]
    if variant % 2 == 0:
        limb = [(W - x, y) for x, y in limb]
    limb = [(x, y + top) for x, y in limb]
    strands: list[str] = []
    leaves: tuple[list[str], list[str]] = ([], [])
    for k in range(12):
        x = 22 + k * 25 + rng.uniform(-6, 6)
        y = 50 + top + rng.uniform(-6, 16)
        length = rng.uniform(220, 380) * reach
        sway = min(max(rng.uniform(-30, 30), 18 - x), 300 - x)
        strands.append(smooth([(x, y), (x + sway * 0.3, y + length * 0.4), (x + sway, y + length)]))
        for j in range(1, 10):
            t = j / 10
            p = (x + sway * t * t, y + length * t)
            side = 1 if j % 2 else -1
            leaves[(j + k) % 2].append(leaf(p, (p[0] + side * 11, p[1] + 17), 7))
    branch(art, limb, 22, 10)
    art.path(" ".join(strands), "none", DARK_GREEN, 3, cap="round")
    for d, colour in zip(leaves, (GREEN, OLIVE), strict=True):
        art.path(" ".join(d), colour, INK, 1.2)


def stream(art: Art, top: float) -> None:
    """Running water: a blue band with white wave crests."""
    art.path(
        f"M6 {n(top)} C80 {n(top - 16)} 200 {n(top + 16)} 314 {n(top - 6)} L314 506 L6 506 Z",
        WATER,
        INK,
        3,
    )
    waves = []
    for row in range(3):
        y = top + 20 + row * 22
        for k in range(5):
            x = 20 + k * 60 + (row % 2) * 26
            waves.append(f"M{n(x)} {n(y)} q14 -12 28 0 q-8 -4 -14 2")
    art.path(" ".join(waves), "none", CREAM, 3, cap="round")


def rain(art: Art, seed: int) -> None:
    rng = Rng(seed)
    drops = []
    for _ in range(44):
        x, y = rng.uniform(24, 300), rng.uniform(20, 470)
        drops.append(f"M{n(x)} {n(y)} l-6 24")
    art.path(" ".join(drops), "none", GREY, 2, cap="round")


def umbrella(art: Art) -> None:
    """An open paper umbrella (kasa 傘) seen from the side; canopy about 220 x 70."""
    ribs = [(-110 + 27.5 * k, 0.0) for k in range(9)]
    back = list(reversed(ribs))
    scallops = " ".join(
        f"Q{n((a[0] + b[0]) / 2)} 14 {pt(b)}" for a, b in zip(back, back[1:], strict=False)
    )
    art.path(f"M-110 0 C-90 -70 90 -70 110 0 {scallops} Z", YELLOW, INK, 4)
    art.path(" ".join(f"M0 -52 L{pt(r)}" for r in ribs[1:-1]), "none", INK, 2.2)
    art.circle((0, -54), 6, RED, INK, 2)


def rain_man(art: Art) -> None:
    """Ono no Michikaze (小野道風) walking in the rain under his umbrella; box about 230 x 340."""
    with art.group("translate(120 70) rotate(-12)"):
        art.line([(0, -50), (6, 150)], INK, 5)
        umbrella(art)
    robe = "M80 330 C86 250 96 190 112 150 L168 146 C186 200 196 260 206 330 Z"
    art.path(robe, RED, INK, 4)
    art.path("M118 154 C114 220 116 280 128 330 L150 330 C142 270 142 210 150 150 Z", DEEP_RED)
    art.path(
        " ".join(f"M{92 + k * 8} {212 + k * 40} L{196 - k * 2} {208 + k * 40}" for k in range(3)),
        "none",
        YELLOW,
        3,
    )
    sleeve = [(112, 156), (70, 196), (84, 232), (132, 210), (150, 176)]
    art.path(smooth(sleeve, closed=True), RED, INK, 3.5)
    art.path(
        smooth([(162, 152), (204, 186), (196, 212), (150, 190)], closed=True), DEEP_RED, INK, 3.5
    )
    art.circle((128, 176), 8, PAPER, INK, 2.5)
    art.path(polygon([(88, 330), (112, 330), (114, 342), (84, 342)]), INK)
    art.path(polygon([(168, 330), (194, 330), (200, 342), (168, 342)]), INK)
    art.path(ellipse_path((140, 128), 20, 24), PAPER, INK, 3)
    art.path("M120 118 C118 88 140 70 152 62 L158 66 C150 84 160 102 160 116 Z", INK)
    art.path("M126 132 L134 134", "none", INK, 2.5, cap="round")
    art.circle((128, 122), 2.4, INK)


def frog(art: Art) -> None:
    """A frog (kaeru 蛙) leaping up and right toward the willow; local box about 100 x 80."""
    hind = [(30, 50), (10, 60), (-4, 76), (6, 80), (20, 68), (36, 62)]
    art.path(smooth(hind, closed=True), GREEN, INK, 3)
    art.path(polygon([(-4, 76), (-14, 84), (-2, 82), (-8, 92), (6, 82)]), GREEN, INK, 2)
    body = [(24, 52), (36, 32), (60, 18), (84, 14), (96, 24), (88, 40), (66, 52), (42, 60)]
    art.path(smooth(body, closed=True), GREEN, INK, 3.5)
    art.path(smooth([(40, 56), (64, 48), (86, 38), (70, 54), (48, 62)], closed=True), OLIVE)
    art.path(taper([(80, 34), (98, 40), (110, 36)], 9, 6), GREEN, INK, 2)
    art.path(polygon([(108, 32), (118, 30), (112, 38), (118, 42), (108, 40)]), GREEN, INK, 1.5)
    art.circle((80, 14), 8, GREEN, INK, 3)
    art.circle((81, 13), 4.5, CREAM, INK, 1.5)
    art.circle((82, 13), 2, INK)
    art.path("M92 26 Q98 28 100 24", "none", INK, 2, cap="round")
    for x, y in ((54, 34), (66, 28), (48, 46)):
        art.circle((x, y), 3, DARK_GREEN)


def yanagi_rainman(art: Art) -> None:
    art.path(rrect(6, 6, 308, 500, 4), "#3d3b3a")
    rain(art, 11)
    willow(art, 1, reach=0.55)
    stream(art, 444)
    with art.group("translate(70 100)"):
        rain_man(art)
    with art.group("translate(26 372) scale(1.1)"):
        frog(art)


def swallow(art: Art) -> None:
    """The swallow (tsubame 燕) swooping down left; local box about 200 x 140."""
    art.path(smooth([(80, 40), (130, -10), (190, -30), (140, 30), (110, 56)], closed=True), INK)
    art.path(polygon([(110, 60), (170, 110), (150, 84), (190, 100), (120, 50)]), INK)
    body = [(20, 54), (44, 36), (90, 40), (124, 56), (90, 70), (44, 70)]
    art.path(smooth(body, closed=True), INK)
    art.path(smooth([(28, 58), (44, 54), (44, 68), (30, 66)], closed=True), RED)
    art.path(smooth([(54, 66), (90, 64), (110, 60), (80, 72)], closed=True), CREAM)
    art.path(
        smooth([(60, 44), (30, 90), (10, 130), (40, 110), (90, 54)], closed=True), INK, GREY, 2
    )
    art.path(polygon([(22, 50), (4, 58), (24, 60)]), INK)
    art.circle((34, 50), 2.4, CREAM)


def yanagi_swallow(art: Art) -> None:
    willow(art, 1)
    stream(art, 440)
    with art.group("translate(70 240) rotate(-10)"):
        swallow(art)


def yanagi_ribbon(art: Art) -> None:
    willow(art, 0)
    ribbon(art, 196, 90, 270, 8, RED)


def drum(art: Art, c: Point, r: float) -> None:
    """A thunder drum (taiko 太鼓) with a three-comma crest (tomoe 巴)."""
    art.circle(c, r, RED, INK, 4)
    art.circle(c, r * 0.82, CREAM, INK, 3)
    for k in range(3):
        a = k * 120
        head = polar(c, r * 0.36, a)
        tail = [
            polar(c, r * 0.36 + r * 0.2, a + 40),
            polar(c, r * 0.62, a + 80),
            polar(c, r * 0.5, a + 130),
        ]
        art.path(taper([head, *tail], r * 0.36, 0), INK)
        art.circle(head, r * 0.18, INK)
    for k in range(12):
        art.circle(polar(c, r * 0.91, k * 30), 3, INK)


def yanagi_lightning(art: Art) -> None:
    art.path(rrect(6, 6, 308, 500, 4), INK)
    art.path("M6 330 C90 290 200 360 314 310 L314 506 L6 506 Z", RED)
    willow(art, 1, reach=0.5)
    for k, (x, y) in enumerate(((88, 300), (160, 262), (232, 300))):
        drum(art, (x, y), 38 - 2 * (k % 2))
    bolt = [
        (236, 110),
        (186, 210),
        (222, 216),
        (150, 330),
        (178, 336),
        (100, 470),
        (214, 320),
        (186, 314),
        (260, 206),
        (226, 200),
        (280, 110),
    ]
    art.path(polygon(bolt), YELLOW, INK, 4)


# ---------------------------------------------------------------------------------------------
# 12 kiri: paulownia


def kiri_leaf(art: Art, base: Point, angle: float, size: float) -> None:
    """A big paulownia leaf (kiri 桐): broad, heart-shaped, three shallow lobes, pale veins."""
    tip = polar(base, size, angle)
    side = [
        polar(base, size * 0.18, angle - 100),
        polar(base, size * 0.5, angle - 62),
        polar(base, size * 0.72, angle - 40),
        polar(base, size * 0.7, angle - 24),
        polar(base, size * 0.86, angle - 14),
    ]
    other = [
        polar(base, size * 0.86, angle + 14),
        polar(base, size * 0.7, angle + 24),
        polar(base, size * 0.72, angle + 40),
        polar(base, size * 0.5, angle + 62),
        polar(base, size * 0.18, angle + 100),
    ]
    art.path(smooth([lerp(base, tip, 0.08), *side, tip, *other], closed=True), DARK_GREEN, INK, 3.5)
    veins = [f"M{pt(lerp(base, tip, 0.08))} L{pt(lerp(base, tip, 0.9))}"]
    for t, da in ((0.2, 52), (0.42, 36), (0.62, 22)):
        for sgn in (-1, 1):
            end = polar(base, size * (t + 0.3), angle + sgn * da)
            veins.append(f"M{pt(lerp(base, tip, t))} L{pt(end)}")
    art.path(" ".join(veins), "none", GREEN, 2.5, cap="round")


def kiri_flowers(art: Art, base: Point, height: float, lean: float) -> None:
    """A spike of paulownia flowers: rounded purple bells in a cone, as on the kiri crest."""
    top = (base[0] + lean, base[1] - height)
    art.line([base, top], INK, 5)
    rows = ((0.3, 3), (0.5, 3), (0.7, 2), (0.88, 1))
    bells: tuple[list[str], list[str]] = ([], [])
    for i, (t, count) in enumerate(rows):
        p = lerp(base, top, t)
        r = 15 - i * 1.8
        for k in range(count):
            x, y = p[0] + (k - (count - 1) / 2) * r * 2.1, p[1]
            bells[(i + k) % 2].append(
                f"M{n(x - r * 0.45)} {n(y - r)} C{n(x - r * 0.5)} {n(y - r * 0.2)} "
                f"{n(x - r)} {n(y)} {n(x - r)} {n(y + r * 0.7)} "
                f"Q{n(x - r * 0.5)} {n(y + r * 1.1)} {n(x)} {n(y + r * 0.7)} "
                f"Q{n(x + r * 0.5)} {n(y + r * 1.1)} {n(x + r)} {n(y + r * 0.7)} "
                f"C{n(x + r)} {n(y)} {n(x + r * 0.5)} {n(y - r * 0.2)} {n(x + r * 0.45)} "
                f"{n(y - r)} Z"
            )
    for d, colour in zip(bells, (PURPLE, LILAC), strict=True):
        art.path(" ".join(d), colour, INK, 2)
    art.circle(top, 7, LILAC, INK, 2)


def paulownia(art: Art, variant: int, ground: float = 474) -> None:
    """Paulownia (kiri 桐): three flower spikes standing above great leaves."""
    spikes = [((160, 320), 262, 0), ((90, 340), 200, -12), ((230, 340), 200, 12)]
    if variant == 1:
        spikes = [((134, 330), 250, -4), ((226, 320), 230, 10), ((64, 380), 170, -4)]
    for foot, height, lean in spikes:
        kiri_flowers(art, foot, height, lean)
    leaves: list[tuple[Point, float, float]] = [
        ((160, ground), -90, 170),
        ((150, ground), -148, 140),
        ((170, ground), -32, 140),
    ]
    if variant == 1:
        leaves = [((116, ground), -100, 160), ((150, ground), -40, 156), ((110, ground), -150, 104)]
    for base, angle, size in leaves[1:]:
        kiri_leaf(art, base, angle, size)
    kiri_leaf(art, *leaves[0])


def phoenix(art: Art) -> None:
    """The phoenix (hōō 鳳凰) alighting: wings raised, a long many-coloured tail; ~300 x 440."""
    tail_colours = (GREEN, PURPLE, BLUE, YELLOW, RED)
    root = (164, 232)
    for k, end in enumerate(((60, 268), (44, 336), (56, 396), (106, 412), (166, 408))):
        mid = lerp(root, end, 0.5)
        dx, dy = end[0] - root[0], end[1] - root[1]
        d = math.hypot(dx, dy)
        wave = (-dy / d * 22, dx / d * 22)
        sweep = [
            root,
            (lerp(root, mid, 0.5)[0] + wave[0], lerp(root, mid, 0.5)[1] + wave[1]),
            mid,
            (lerp(mid, end, 0.5)[0] - wave[0], lerp(mid, end, 0.5)[1] - wave[1]),
            end,
        ]
        art.path(taper(sweep, 26, 12), tail_colours[k], INK, 3)
        heading = math.degrees(math.atan2(dy, dx))
        art.path(
            leaf(polar(end, 8, heading + 180), polar(end, 40, heading), 32),
            tail_colours[(k + 2) % 5],
            INK,
            2.5,
        )
        art.circle(
            polar(end, 20, heading),
            6.5,
            RED if tail_colours[(k + 2) % 5] != RED else YELLOW,
            INK,
            2,
        )
    far = [leaf((210, 150), polar((210, 150), 120 - 8 * k, -58 + 9 * k), 26) for k in range(5)]
    art.path(" ".join(far), GREEN, INK, 3)
    body = [(150, 160), (196, 130), (236, 166), (220, 226), (170, 246), (136, 214)]
    art.path(smooth(body, closed=True), RED, INK, 4)
    art.path(
        " ".join(f"M{150 + k * 16} {196 + k * 6} q8 12 16 0" for k in range(4)),
        "none",
        YELLOW,
        3,
        cap="round",
    )
    shoulder = (176, 164)
    for length, width, colour, count in (
        (150, 30, YELLOW, 7),
        (96, 26, ORANGE, 6),
        (52, 22, RED, 5),
    ):
        fan = [
            leaf(
                shoulder,
                polar(shoulder, length - 6 * abs(k - count / 2), -176 + k * 64 / count),
                width,
            )
            for k in range(count)
        ]
        art.path(" ".join(fan), colour, INK, 3)
    neck = [(200, 150), (222, 110), (214, 74), (230, 42)]
    art.path(tapered(neck, [36, 26, 20, 18]), RED, INK, 3.5)
    art.path(ellipse_path((238, 36), 20, 15), RED, INK, 3)
    art.path(polygon([(254, 28), (280, 38), (254, 44)]), YELLOW, INK, 2.5)
    art.path(smooth([(232, 48), (244, 52), (242, 74), (232, 64)], closed=True), GREEN, INK, 2)
    art.circle((242, 32), 4, CREAM, INK, 1.5)
    crest = [leaf((232, 24), polar((232, 24), 34 - 4 * k, -140 + 18 * k), 10) for k in range(4)]
    art.path(" ".join(crest), BLUE, INK, 2)


def kiri_phoenix(art: Art) -> None:
    art.path(rrect(6, 6, 308, 210, 4), RED)
    art.path("M6 216 C60 226 110 200 160 214 C210 228 260 204 314 216 L314 230 L6 230 Z", RED)
    paulownia(art, 0)
    with art.group("translate(8 40)"):
        phoenix(art)


def kiri_plain(variant: int) -> Callable[[Art], None]:
    def draw(art: Art) -> None:
        if variant == 2:
            kasumi(art, 430, 12, YELLOW, top=False, seed=120)
            paulownia(art, 0, ground=430)
        else:
            paulownia(art, variant)

    return draw


# ---------------------------------------------------------------------------------------------
# The back


def render_back() -> str:
    """The back: one deep red, the same dark edge as the faces, a fine line and a quiet crest."""
    art = Art()
    shade = "#6c1419"
    art.path(rrect(0, 0, W, H, 18), INK)
    art.path(rrect(EDGE, EDGE, W - 2 * EDGE, H - 2 * EDGE, 8), DEEP_RED)
    art.path(rrect(EDGE + 12, EDGE + 12, W - 2 * EDGE - 24, H - 2 * EDGE - 24, 4), "none", shade, 4)
    c = (CX, H / 2)
    art.circle(c, 46, "none", shade, 4)
    petals = [ellipse_path(polar(c, 19, k * 72 - 90), 14, 14) for k in range(5)]
    art.path(" ".join(petals), shade)
    art.circle(c, 7, DEEP_RED)
    return art.svg("花札の裏面")


# ---------------------------------------------------------------------------------------------
# The deck, in the order of RULES.md R1.1

L, T, R, P = "light", "tane", "ribbon", "plain"
CARDS: tuple[Card, ...] = (
    Card("matsu_crane", 1, L, "松に鶴", matsu_crane),
    Card("matsu_ribbon", 1, R, "松に赤短", matsu_ribbon, "akatan"),
    Card("matsu_plain_1", 1, P, "松のカス", matsu_plain(0)),
    Card("matsu_plain_2", 1, P, "松のカス", matsu_plain(1)),
    Card("ume_warbler", 2, T, "梅に鶯", ume_warbler),
    Card("ume_ribbon", 2, R, "梅に赤短", ume_ribbon, "akatan"),
    Card("ume_plain_1", 2, P, "梅のカス", ume_plain(0)),
    Card("ume_plain_2", 2, P, "梅のカス", ume_plain(1)),
    Card("sakura_curtain", 3, L, "桜に幕", sakura_curtain),
    Card("sakura_ribbon", 3, R, "桜に赤短", sakura_ribbon, "akatan"),
    Card("sakura_plain_1", 3, P, "桜のカス", sakura_plain(0)),
    Card("sakura_plain_2", 3, P, "桜のカス", sakura_plain(1)),
    Card("fuji_cuckoo", 4, T, "藤に不如帰", fuji_cuckoo),
    Card("fuji_ribbon", 4, R, "藤に短冊", fuji_ribbon, "red"),
    Card("fuji_plain_1", 4, P, "藤のカス", fuji_plain(0)),
    Card("fuji_plain_2", 4, P, "藤のカス", fuji_plain(1)),
    Card("ayame_bridge", 5, T, "菖蒲に八橋", ayame_bridge),
    Card("ayame_ribbon", 5, R, "菖蒲に短冊", ayame_ribbon, "red"),
    Card("ayame_plain_1", 5, P, "菖蒲のカス", ayame_plain(0)),
    Card("ayame_plain_2", 5, P, "菖蒲のカス", ayame_plain(1)),
    Card("botan_butterfly", 6, T, "牡丹に蝶", botan_butterfly),
    Card("botan_ribbon", 6, R, "牡丹に青短", botan_ribbon, "aotan"),
    Card("botan_plain_1", 6, P, "牡丹のカス", botan_plain(0)),
    Card("botan_plain_2", 6, P, "牡丹のカス", botan_plain(1)),
    Card("hagi_boar", 7, T, "萩に猪", hagi_boar),
    Card("hagi_ribbon", 7, R, "萩に短冊", hagi_ribbon, "red"),
    Card("hagi_plain_1", 7, P, "萩のカス", hagi_plain(0)),
    Card("hagi_plain_2", 7, P, "萩のカス", hagi_plain(1)),
    Card("susuki_moon", 8, L, "芒に月", susuki_moon),
    Card("susuki_geese", 8, T, "芒に雁", susuki_geese),
    Card("susuki_plain_1", 8, P, "芒のカス", susuki_plain(0)),
    Card("susuki_plain_2", 8, P, "芒のカス", susuki_plain(1)),
    Card("kiku_sake_cup", 9, T, "菊に盃", kiku_sake_cup),
    Card("kiku_ribbon", 9, R, "菊に青短", kiku_ribbon, "aotan"),
    Card("kiku_plain_1", 9, P, "菊のカス", kiku_plain(0)),
    Card("kiku_plain_2", 9, P, "菊のカス", kiku_plain(1)),
    Card("momiji_deer", 10, T, "紅葉に鹿", momiji_deer),
    Card("momiji_ribbon", 10, R, "紅葉に青短", momiji_ribbon, "aotan"),
    Card("momiji_plain_1", 10, P, "紅葉のカス", momiji_plain(0)),
    Card("momiji_plain_2", 10, P, "紅葉のカス", momiji_plain(1)),
    Card("yanagi_rainman", 11, L, "柳に小野道風", yanagi_rainman),
    Card("yanagi_swallow", 11, T, "柳に燕", yanagi_swallow),
    Card("yanagi_ribbon", 11, R, "柳に短冊", yanagi_ribbon, "red"),
    Card("yanagi_lightning", 11, P, "柳のカス（雷）", yanagi_lightning),
    Card("kiri_phoenix", 12, L, "桐に鳳凰", kiri_phoenix),
    Card("kiri_plain_yellow", 12, P, "桐のカス（黄）", kiri_plain(2)),
    Card("kiri_plain_1", 12, P, "桐のカス", kiri_plain(0)),
    Card("kiri_plain_2", 12, P, "桐のカス", kiri_plain(1)),
)


# ---------------------------------------------------------------------------------------------
# The app icon: two cards fanned, the crane's red sun on the front one


def render_icon() -> str:
    """Two cards fanned: a red back behind, the crane's red sun over a pine in front."""
    size = 256
    art = Art()

    def card(angle: float, cx: float, cy: float, face: bool) -> None:
        w, h = 136, 212
        with art.group(f"rotate({n(angle)} {n(cx)} {n(cy)})"):
            x, y = cx - w / 2, cy - h / 2
            art.path(rrect(x, y, w, h, 14), INK)
            inner = rrect(x + 9, y + 9, w - 18, h - 18, 7)
            if face:
                art.path(inner, PAPER)
                art.circle((cx + 6, cy - 32), 42, RED)
                branch(
                    art,
                    [(cx - 30, y + h - 10), (cx - 20, y + h - 60), (cx + 10, y + h - 90)],
                    16,
                    6,
                )
                pine_cluster(art, (cx - 4, y + h - 86), 52, 34)
                pine_cluster(art, (cx - 30, y + h - 36), 38, 24)
            else:
                art.path(inner, DEEP_RED)
                art.path(rrect(x + 20, y + 20, w - 40, h - 40, 4), "none", "#5e0f14", 4)

    card(-14, 94, 132, False)
    card(10, 158, 126, True)
    return document(art, "koikoi", size, size)


# ---------------------------------------------------------------------------------------------


def write_all(out: Path, icon: Path | None) -> list[Path]:
    """Writes every card (and the icon); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for card in CARDS:
        path = out / f"{card.id}.svg"
        path.write_text(render_card(card), encoding="utf-8", newline="\n")
        written.append(path)
    back = out / "back.svg"
    back.write_text(render_back(), encoding="utf-8", newline="\n")
    written.append(back)
    if icon is not None:
        icon.parent.mkdir(parents=True, exist_ok=True)
        icon.write_text(render_icon(), encoding="utf-8", newline="\n")
        written.append(icon)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description="Draw koikoi's hanafuda deck as SVG files.")
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=here,
        help="folder for the 49 card SVGs (default: next to this script)",
    )
    parser.add_argument(
        "--icon",
        type=Path,
        default=None,
        help="where to write the app icon SVG (default: ../icons/koikoi.svg "
        "when OUT is the default, else none)",
    )
    args = parser.parse_args(argv)
    icon = args.icon
    if icon is None and args.out == here:
        icon = here.parent / "icons" / "koikoi.svg"
    written = write_all(args.out, icon)
    print(f"wrote {len(written)} files to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
