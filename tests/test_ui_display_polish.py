"""The display options reach every screen they speak of, in both languages and in small and
large windows: the card gallery's cards follow the card size; the rules' contents are never
cut off at 960 px; high contrast restyles the start screen's language box too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from koikoi.ui.common import names
from koikoi.ui.common.art import card_size
from koikoi.ui.common.display import HC_GROUND, HC_TEXT
from koikoi.ui.common.settings import CARD_SCALES, DisplayOptions
from koikoi.ui.learn.gallery import GALLERY_WIDTH
from koikoi.ui.learn.help import HelpDialog
from koikoi.ui.learn.learn_page import CardPicture
from koikoi.ui.main_window import MainWindow
from tests.ui_driver import click, close_window, open_window

SIZES = [(960, 640), (1280, 800)]
TEXT_MARGINS = 16
"""An entry's padding (4 px each side in the style sheet) and its text's margins."""


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert names.install_translations(request.param)
    try:
        yield request.param
    finally:
        names.install_translations("en")


def choose(qtbot: QtBot, window: MainWindow, options: DisplayOptions) -> None:
    """Choose ``options`` in the display dialog, opened from the start screen's button."""
    click(qtbot, window.start.display_button)
    dialog = window._display_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.set_options(options)
    dialog._changed()  # as choosing in its lists does
    dialog.close()


def open_help(qtbot: QtBot, window: MainWindow, page: str, size: tuple[int, int]) -> HelpDialog:
    click(qtbot, window.start.learn_buttons[page])
    help_ = window._help
    assert help_ is not None and help_.isVisible()
    help_.resize(*size)
    qtbot.wait(50)  # the layout settles
    return help_


@pytest.mark.parametrize("size", SIZES, ids=["960x640", "1280x800"])
def test_the_card_gallery_follows_the_card_size_option(
    qtbot: QtBot, language: str, size: tuple[int, int]
) -> None:
    window = open_window(qtbot, size=size)
    choose(qtbot, window, DisplayOptions(card_size="large"))
    help_ = open_help(qtbot, window, "cards", size)
    pictures = help_.gallery.findChildren(CardPicture)
    assert len(pictures) == 48
    large = card_size(round(GALLERY_WIDTH * CARD_SCALES["large"]))
    assert large.width() > GALLERY_WIDTH
    assert {p.size().toTuple() for p in pictures} == {large.toTuple()}
    assert {p.pixmap().deviceIndependentSize().toSize().toTuple() for p in pictures[:4]} == {
        large.toTuple()
    }
    choose(qtbot, window, DisplayOptions(card_size="small"))  # while the gallery is open
    small = card_size(round(GALLERY_WIDTH * CARD_SCALES["small"]))
    assert {p.size().toTuple() for p in pictures} == {small.toTuple()}
    help_.close()
    close_window(window)


@pytest.mark.parametrize("size", SIZES, ids=["960x640", "1280x800"])
def test_no_entry_of_the_rules_contents_is_cut_off(
    qtbot: QtBot, language: str, size: tuple[int, int]
) -> None:
    """Each entry of the contents has the lines its text needs at the list's width: a long
    one ("Cherry-blossom viewing 花見で一杯") wraps, none is cut short."""
    window = open_window(qtbot, size=size)
    help_ = open_help(qtbot, window, "rules", size)
    contents = help_.rules.contents
    metrics = contents.fontMetrics()
    cut = []
    for row in range(contents.count()):
        item = contents.item(row)
        rect = contents.visualItemRect(item)
        room = QRect(0, 0, rect.width() - TEXT_MARGINS, 100_000)
        needs = metrics.boundingRect(room, Qt.TextFlag.TextWordWrap, item.text())
        if needs.height() > rect.height() - 4 or rect.right() > contents.viewport().width():
            cut.append(f"{item.text()!r}: {needs.height()} > {rect.height() - 4}")
    longest = max(
        metrics.horizontalAdvance(contents.item(r).text()) for r in range(contents.count())
    )
    help_.close()
    close_window(window)
    assert not cut, cut
    if size == SIZES[0] and language == "en":  # the case the list used to cut
        assert longest > contents.viewport().width()


def _colour(image_point: QColor) -> str:
    return image_point.name()


def test_high_contrast_restyles_the_start_screens_language_box(qtbot: QtBot, language: str) -> None:
    """The box's border and ground turn to the high-contrast white and black, as every other
    control of the start screen does, and back."""
    window = open_window(qtbot)
    box = window.start.language

    def border_and_ground() -> tuple[str, str]:
        image = box.grab().toImage()
        middle = box.width() // 2
        return (
            _colour(image.pixelColor(QPoint(middle, 0))),
            _colour(image.pixelColor(QPoint(middle, 4))),
        )

    plain = border_and_ground()
    assert plain[1] != HC_GROUND
    choose(qtbot, window, DisplayOptions(high_contrast="on"))
    assert window.high_contrast
    assert border_and_ground() == (HC_TEXT, HC_GROUND)
    choose(qtbot, window, DisplayOptions(high_contrast="off"))
    assert border_and_ground() == plain
    close_window(window)


def _line_starts(text: str, font, width: int) -> list[int]:
    """Where each line after the first starts when the list draws ``text`` in ``width``
    (its style wraps items with QTextOption.WordWrap, a line break as a line separator)."""
    from PySide6.QtGui import QTextLayout, QTextOption

    layout = QTextLayout(text.replace("\n", "\u2028"), font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    starts = []
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        if line.textStart() > 0:
            starts.append(line.textStart())
    layout.endLayout()
    return starts


@pytest.mark.parametrize("size", SIZES, ids=["960x640", "1280x800"])
def test_no_word_of_the_rules_contents_breaks_in_the_middle(
    qtbot: QtBot, language: str, size: tuple[int, int]
) -> None:
    """Japanese has no spaces, so Qt may break a line between any two kana ("あかたん・あおた"
    then "ん"): an entry too long for the list wraps between its words only."""
    window = open_window(qtbot, size=size)
    help_ = open_help(qtbot, window, "rules", size)
    contents = help_.rules.contents
    broken = []
    for row in range(contents.count()):
        item = contents.item(row)
        text = item.text()
        width = contents.visualItemRect(item).width() - TEXT_MARGINS
        for start in _line_starts(text, contents.font(), width):
            if text[start - 1] not in " \n":
                broken.append(f"{text[:start]!r} / {text[start:]!r}")
    help_.close()
    close_window(window)
    assert not broken, broken
