"""What the window says, in words: counts through Qt's plurals, every card named
unambiguously in the current language (its Japanese name beside, never instead), yaku
named in the match's result, and no yaku said to count for nothing when there were none."""

from __future__ import annotations

import ast
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QLabel, QTableWidget

from koikoi.engine.cards import NUM_CARDS, parse_card
from koikoi.engine.events import RoundEnded, YakuFormed
from koikoi.engine.match import DealOutcome
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.yaku import Yaku
from koikoi.resources import asset
from koikoi.ui.common import names
from koikoi.ui.match.controller import COMPUTER, HUMAN
from koikoi.ui.match.matchview import MatchSummary, Mode, RoundSummary
from koikoi.ui.table.panels import MatchResultPanel, RoundResultPanel
from tests.ui_driver import (
    click,
    close_window,
    find_card,
    open_window,
    panel_button,
    start_practice,
    wait_for_input,
)

PLAIN_TAKES_PLAIN = b"plain-takes-plain-00000000000029"
"""You are oya; kiri_plain_2 has no match, and the drawn kiri_plain_yellow takes it."""


def test_every_card_has_its_own_name_in_each_language() -> None:
    cards = range(NUM_CARDS)
    for name_of in (names.card_name, names.card_japanese, names.card_accessible_name):
        assert len({name_of(c) for c in cards}) == NUM_CARDS, name_of.__name__
    # a plain's number is bound to its word: no label wraps "plain" above a lone "1"
    assert names.card_name(parse_card("kiri_plain_1")) == "Paulownia plain\u00a01"
    assert names.card_name(parse_card("kiri_plain_yellow")) == "Paulownia yellow plain"


def test_a_drawn_plain_taking_a_plain_of_its_month_is_named_in_english(qtbot) -> None:
    window = open_window(qtbot)
    start_practice(window, seed=PLAIN_TAKES_PLAIN)
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    click(qtbot, find_card(window, parse_card("kiri_plain_2")))
    assert wait_for_input(qtbot, window) is Mode.DRAW_WAIT
    prompt = window.game.prompt.text().replace("\u00a0", " ")
    assert prompt.startswith("You turned Paulownia yellow plain: it takes Paulownia plain 2 —")
    log = window.game.side.log.toPlainText().replace("\u00a0", " ")
    assert "You played Paulownia plain 2." in log
    assert "You turned Paulownia yellow plain from the stock." in log
    drawn = find_card(window, parse_card("kiri_plain_yellow"))
    assert drawn.accessibleName() == "Paulownia yellow plain, December plain"
    assert drawn.accessibleDescription().endswith("桐のカス（黄） · December · plain, 1 point")
    assert drawn.toolTip() == (
        "Paulownia yellow plain, December plain\n桐のカス（黄） · December · plain, 1 point"
    )
    close_window(window)


def test_counts_use_plurals(qtbot) -> None:
    window = open_window(qtbot)
    c = window.controller
    assert [names.points(n) for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert names.cards(1) == "1 card"
    one = YakuFormed(HUMAN, ((Yaku.TANE, 1),), 1, 0)
    assert c.describe(one) == "You hold Five tane (1 point)."
    two = YakuFormed(COMPUTER, ((Yaku.INOSHIKACHO, 6), (Yaku.TANE, 1)), 7, 0)
    assert c.describe(two) == (
        "The computer holds Boar, deer, butterflies (6 points), Five tane (1 point): "
        "7 points in all."
    )
    win = RoundResult(Outcome.WIN, HUMAN, ((Yaku.TANE, 1),), 1, False, 0, 1)
    assert c.describe(RoundEnded(win)).endswith("win the round: 1 point.")
    close_window(window)


def test_the_english_plural_forms_cover_every_count_in_the_code(qtbot) -> None:
    window = open_window(qtbot)  # the window loads the forms
    tree = ElementTree.parse(asset("i18n/koikoi_en.ts"))
    sources = {m.findtext("source") for m in tree.iter("message") if m.get("numerus") == "yes"}
    root = Path(__file__).resolve().parent.parent / "koikoi"
    for path in root.rglob("*.py"):
        # ast joins a literal split over lines ("… " "%n …") into the one string Qt sees
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literal = node.value
                if "%n" in literal and "\n" not in literal:  # not a docstring
                    assert literal in sources, f"{path.name}: {literal!r} has no English plurals"
    translated = QCoreApplication.translate(
        "RoundResultPanel", "Capped: only %n point(s) left to pay.", "", 1
    )
    assert translated == "Capped: only 1 point left to pay."
    close_window(window)


def _round_summary(loser_yaku: tuple[tuple[Yaku, int], ...]) -> RoundSummary:
    result = RoundResult(Outcome.WIN, COMPUTER, ((Yaku.HANAMI, 5),), 5, False, 0, 5)
    return RoundSummary(
        round_no=1,
        rounds=6,
        outcome=DealOutcome(result, 5, False, (20, 30), COMPUTER),
        scores_before=(25, 25),
        koikoi_calls=(0, 0),
        doubling=True,
        match_finished=False,
        match_winner=None,
        loser_yaku=loser_yaku,
    )


def test_your_yaku_count_for_nothing_only_when_you_had_some(qtbot) -> None:
    window = open_window(qtbot)
    none = RoundResultPanel(window.art, _round_summary(()), lambda: None)
    some = RoundResultPanel(window.art, _round_summary(((Yaku.TANE, 1),)), lambda: None)
    for panel in (none, some):
        qtbot.addWidget(panel)
    texts = [label.text() for label in none.findChildren(type(none.title_label))]
    assert not any("count for nothing" in t for t in texts)
    assert "The computer called 「勝負」 (shobu)." in texts
    texts = [label.text() for label in some.findChildren(type(some.title_label))]
    assert any("your yaku count for nothing" in t for t in texts)
    close_window(window)


def test_the_match_result_names_each_yaku_in_the_current_language(qtbot) -> None:
    window = open_window(qtbot)
    result = RoundResult(Outcome.WIN, HUMAN, ((Yaku.HANAMI, 5), (Yaku.TANE, 1)), 6, False, 0, 6)
    summary = MatchSummary((31, 19), HUMAN, 6, ((1, DealOutcome(result, 6, False, (31, 19))),))
    panel = MatchResultPanel(summary, lambda: None, lambda: None)
    qtbot.addWidget(panel)
    table = panel.findChild(QTableWidget, "roundsTable")
    assert table is not None
    cell = table.item(0, 2)
    assert cell is not None  # the first round's yaku
    assert cell.text() == "Cherry-blossom viewing · Five tane"
    assert cell.toolTip() == "花見で一杯・タネ"
    assert cell.data(Qt.ItemDataRole.AccessibleDescriptionRole) == "花見で一杯・タネ"
    close_window(window)


def test_the_rules_name_the_cards_as_the_table_does(qtbot) -> None:
    window = open_window(qtbot)
    click(qtbot, window.start.help_button)
    assert window._help is not None  # the help button opened it
    text = window._help.text.toPlainText()
    assert "Cherry curtain + Chrysanthemum sake cup" in text
    assert "Pampas moon + Chrysanthemum sake cup" in text
    assert "Both start with 25 points" in text
    close_window(window)


def _laid_lines(label: QLabel, text: str) -> list[str]:
    """``text`` as the label's width lays it out, word-wrapped: one string a line."""
    layout = QTextLayout(text, label.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(label.contentsRect().width())
        lines.append(text[line.textStart() : line.textStart() + line.textLength()].strip())
    layout.endLayout()
    return lines


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_plains_number_never_wraps_away_from_its_name_in_the_card_gallery(
    qtbot, language: str
) -> None:
    """'Chrysanthemum plain 2' wrapped its '2' onto a line of its own (issue 22): the
    gallery's narrowest cells still keep 'plain 2' on one line."""
    from koikoi.ui.learn.help import HelpDialog

    assert names.install_translations(language)
    try:
        window = open_window(qtbot)
        click(qtbot, window.start.learn_buttons["cards"])
        help_ = window._help
        assert isinstance(help_, HelpDialog)
        qtbot.waitExposed(help_)
        help_.resize(help_.minimumSizeHint().width(), 600)  # as narrow as it goes
        QApplication.processEvents()  # the resize laid out
        cells = {c.property("card"): c for c in help_.gallery.findChildren(QLabel, "galleryCard")}
        cell = cells["kiku_plain_2"]
        name = names.card_name(parse_card("kiku_plain_2"))
        lines = _laid_lines(cell, name)
        if language == "en":
            assert len(lines) > 1, lines  # narrow enough to wrap: the test can fail
            assert lines[-1].replace("\u00a0", " ") == "plain 2", lines
        for card_id, label in cells.items():
            for text in label.text().split("\n")[:2]:  # the name and its Japanese
                for line in _laid_lines(label, text):
                    assert not line[:1].isdigit(), (card_id, text, line)
        help_.close()
        close_window(window)
    finally:
        names.install_translations("en")
