"""The style sheet as the window applies it: a ticked box shows a tick, not only a colour."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from koikoi.ui.common.style import STYLE, style_sheet


def _dark_pixels_in_indicator(sheet: str) -> int:
    box = QCheckBox("x")
    box.setStyleSheet(sheet)
    box.setChecked(True)
    box.resize(80, 30)
    image = box.grab().toImage()
    # the 20 px indicator sits at the left, centred vertically; look inside its border
    top = (image.height() - 20) // 2
    return sum(
        image.pixelColor(x, y).lightness() < 60
        for x in range(4, 16)
        for y in range(top + 4, top + 16)
    )


def test_a_checked_box_shows_a_dark_tick_over_gold() -> None:
    sheet = style_sheet()
    assert "check.svg" in sheet
    assert _dark_pixels_in_indicator(STYLE) == 0  # gold alone: no mark to read
    assert 10 <= _dark_pixels_in_indicator(sheet) <= 70  # a tick's stroke, not a dark box
