"""Every list of yaku names a yaku in the player's language first: in English the English name
("Boar, deer, butterflies"), the Japanese after it and smaller; in Japanese the Japanese name
(猪鹿蝶), its reading after it. The rules (in short and with pictures), the score calculator,
the koikoi and round result panels, the score column (the table's and the viewer's)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QLabel, QListWidget, QTableWidget
from pytestqt.qtbot import QtBot

from koikoi.engine.cards import parse_card
from koikoi.engine.yaku import Yaku
from koikoi.ui.common import names
from koikoi.ui.learn.calculator import ScoreCalculator
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.table.panels import DecisionPanel, RoundResultPanel
from tests.ui_driver import click, close_window, open_window, play_by_clicks, start_practice

LIGHTS = ("matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix")


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    assert names.install_translations(request.param)
    try:
        yield request.param
    finally:
        names.install_translations("en")


def first_then(text: str, first: str, then: str) -> bool:
    return first in text and then in text and text.index(first) < text.index(then)


def test_the_rules_and_the_calculator_name_each_yaku_in_the_players_language_first(
    qtbot: QtBot, language: str
) -> None:
    name, other = names.yaku_name(Yaku.GOKO), names.yaku_japanese(Yaku.GOKO)
    assert (name, other) == (("Five lights", "五光") if language == "en" else ("五光", "ごこう"))
    window = open_window(qtbot)
    window.show_help()
    help_ = window._help
    assert help_ is not None
    help_.show_page("short")
    short = help_.text.toPlainText()
    assert first_then(short, name, other), short
    help_.show_page("rules")
    r6 = help_.rules.findChild(QTableWidget, "r6Table")
    assert r6 is not None
    cells = [(r6.horizontalHeaderItem(c), r6.item(0, c)) for c in range(r6.columnCount())]
    head = [h.text() if h is not None else "" for h, _ in cells]
    first_row = [i.text() if i is not None else "" for _, i in cells]
    if language == "en":
        assert head[:3] == ["Yaku", "役", "Reading"]
        assert first_row[:3] == ["Five lights", "五光", "ごこう"]
    else:
        assert head[:2] == ["役", "読み"] and first_row[:2] == ["五光", "ごこう"]
    title = help_.rules.yaku_rows[Yaku.GOKO].accessibleName()
    assert first_then(title, name, "ごこう"), title
    contents = help_.rules.findChild(QListWidget)
    assert contents is not None
    entries = [contents.item(i).text() for i in range(contents.count())]
    assert any(e.startswith(name) for e in entries), entries
    help_.close()

    window.show_calculator()
    calc = window.findChild(ScoreCalculator, "calculatorDialog")
    assert calc is not None
    for card in LIGHTS:
        click(qtbot, calc.cards[parse_card(card)])
    shown = calc.score_label.text()
    assert first_then(shown, name, other), shown
    calc.close()
    close_window(window)


def _check_panels(window: MainWindow, seen: set[str]) -> None:
    """In a koikoi or round result panel, the name's label is left of the Japanese one and the
    larger; the score column lists the name first too."""
    panel = window.game.overlay.panel
    if isinstance(panel, (DecisionPanel, RoundResultPanel)):
        big = panel.findChildren(QLabel, "yakuEn")
        small = panel.findChildren(QLabel, "yakuJa")
        for named, japanese in zip(big, small, strict=True):
            assert named.text() == names.yaku_name(_yaku_of(named.text()))
            assert named.x() < japanese.x(), (named.text(), japanese.text())
            assert named.font().pixelSize() > japanese.font().pixelSize()
            seen.add(type(panel).__name__)
    for box in (window.game.side.me, window.game.side.them):
        for line in box.yaku.text().splitlines()[:-1]:  # the last: the total
            yaku = next(y for y in Yaku if line.startswith(names.yaku_name(y) + "  "))
            assert line.startswith(f"{names.yaku_name(yaku)}  {names.yaku_japanese(yaku)}  ")
            seen.add("SeatBox")


def _yaku_of(name: str) -> Yaku:
    return next(y for y in Yaku if names.yaku_name(y) == name)


def test_the_panels_and_the_score_column_name_each_yaku_in_the_players_language_first(
    qtbot: QtBot, language: str
) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=b"plain-takes-plain-00000000000029")
    seen: set[str] = set()
    play_by_clicks(
        qtbot,
        window,
        random.Random(7),
        until=lambda w: (
            {"DecisionPanel", "RoundResultPanel", "SeatBox"} <= seen
            or w.controller.mode is Mode.MATCH_OVER
        ),
        check=lambda w: _check_panels(w, seen),
    )
    close_window(window)
    assert {"DecisionPanel", "RoundResultPanel", "SeatBox"} <= seen, seen
