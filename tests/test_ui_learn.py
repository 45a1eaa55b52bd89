"""The learning windows, as a player opens them from the start screen and the table: the
rules with each yaku's cards (held to the engine's ``yaku_of`` / ``teyaku_of``), the card
gallery (the engine's kinds and points), the glossary; keyboard focus and Esc; every visible
string through ``tr()``."""

from __future__ import annotations

import re
from html import unescape

from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFrame,
    QLabel,
    QListWidget,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from koikoi.engine.cards import (
    CARD_IDS,
    NUM_CARDS,
    CardSet,
    Kind,
    kind_of,
    month_of,
    parse_card,
)
from koikoi.engine.yaku import Yaku, teyaku_of, yaku_of
from koikoi.ui.common import names
from koikoi.ui.common.art import CardArt
from koikoi.ui.common.display import DisplayDialog
from koikoi.ui.common.settings import AppSettings, DisplayOptions
from koikoi.ui.learn.help import HelpDialog
from koikoi.ui.learn.learn_page import CardPicture, CardStrip
from koikoi.ui.start_screen import StartScreen
from tests.ui_driver import click, close_window, open_window, press, start_practice, wait_for_input

TEYAKU = (Yaku.TESHI, Yaku.KUTTSUKI)


def open_learn(qtbot, window, page: str) -> HelpDialog:
    """Click the start screen's button for a learning page; the help window comes up."""
    click(qtbot, window.start.learn_buttons[page])
    help_ = window._help
    assert isinstance(help_, HelpDialog)
    qtbot.waitExposed(help_)
    return help_


def filled(item: QTableWidgetItem | None) -> str:
    """The text of a table's cell or header, each of which the learning pages fill."""
    assert item is not None
    return item.text()


def pile(cards) -> CardSet:
    return sum(1 << c for c in cards)


def formed(yaku: Yaku, cards: CardSet) -> int | None:
    """The engine's points for ``yaku`` in a pile (teyaku: in a dealt hand), or None."""
    if yaku in TEYAKU:
        return 6 if teyaku_of(cards) is yaku else None
    return dict(yaku_of(cards)).get(yaku)


# -- the rules with pictures ------------------------------------------------------------------


def test_every_yaku_appears_with_the_cards_the_engine_counts(qtbot):
    window = open_window(qtbot)
    help_ = open_learn(qtbot, window, "rules")
    assert help_.current_page() is help_.rules
    rows = {row.property("yaku"): row for row in help_.rules.findChildren(QFrame, "yakuRow")}
    assert set(rows) == {y.value for y in Yaku}
    for yaku in Yaku:
        row = rows[yaku.value]
        by_role: dict[str, list[int]] = {"needed": [], "pool": [], "bonus": []}
        for strip in row.findChildren(CardStrip):
            assert strip.isVisibleTo(help_) and strip.cards
            assert strip.accessibleName() == names.cards_named(strip.cards)
            assert all(not strip.pixmap(c).isNull() for c in strip.cards)
            by_role[strip.property("role")] += strip.cards
        needed, pool, bonus = by_role["needed"], by_role["pool"], by_role["bonus"]
        more = 0
        if pool:
            count = row.findChild(QLabel, "poolCount")
            assert count is not None  # a pool says how many of it count
            number = re.search(r"\d+", count.text())
            assert number is not None
            more = int(number.group())  # what the player reads
        example = pile(needed) | pile(pool[:more])
        base = formed(yaku, example)
        assert base is not None, f"{yaku}: the cards shown do not make it"
        for card in needed:  # each card shown as needed is needed
            assert formed(yaku, example & ~(1 << card)) is None, (yaku, CARD_IDS[card])
        if pool:
            rest = pile(needed)
            for card in pool:  # any card of the pool does, and a card outside it does not
                others = [c for c in pool if c != card][: more - 1]
                assert formed(yaku, rest | pile([card, *others])) is not None, CARD_IDS[card]
            outside = [c for c in range(NUM_CARDS) if c not in pool and c not in needed]
            for card in outside:
                assert formed(yaku, rest | pile([card, *pool[: more - 1]])) is None, CARD_IDS[card]
        for card in bonus:  # each bonus card adds one point
            assert formed(yaku, example | (1 << card)) == base + 1, CARD_IDS[card]
        if yaku not in TEYAKU and not bonus:  # no other card adds to it (none is left out)
            assert all(
                (formed(yaku, example | (1 << c)) or 0) <= base
                for c in range(NUM_CARDS)
                if not example >> c & 1 and (not pool or more == 0)
            )

    def cells(name: str) -> list[list[str]]:
        table = help_.rules.findChild(QTableWidget, name)
        assert table is not None and table.isVisibleTo(help_) and table.accessibleName()
        width = table.columnCount()
        head = [filled(table.horizontalHeaderItem(c)) for c in range(width)]
        rows = [[filled(table.item(r, c)) for c in range(width)] for r in range(table.rowCount())]
        return [head, *rows]

    r6 = cells("r6Table")
    r6_yaku = [y for y in Yaku if y not in TEYAKU]
    assert [row[0] for row in r6[1:]] == [names.yaku_name(y) for y in r6_yaku]  # English first
    assert [row[1] for row in r6[1:]] == [names.yaku_japanese(y) for y in r6_yaku]
    points = {Yaku.GOKO: "10", Yaku.SANKO: "5", Yaku.AKATAN_AOTAN: "10~", Yaku.KASU: "1~"}
    for yaku, shown in points.items():
        assert r6[1 + r6_yaku.index(yaku)][3] == shown
    nintendo = cells("nintendoTable")
    assert nintendo[0][1] == "Nintendo" and nintendo[0][3] == "This game"
    doubling = nintendo[1]
    assert doubling[1] == "×2 at 7 points or more" and doubling[3] == "×2 at 8 points or more"
    assert [nintendo[10][0], nintendo[10][3]] == ["Four pairs on the field", "play on"]
    close_window(window)


def test_the_rules_page_reads_by_keyboard_and_esc_closes_it(qtbot):
    window = open_window(qtbot, size=(960, 640))
    button = window.start.learn_buttons["rules"]
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus)
    press(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window._help is not None and window._help.isVisible())
    help_ = window._help
    assert help_ is not None
    page = help_.rules
    qtbot.waitUntil(lambda: QApplication.focusWidget() is page.contents)
    bar = page.scroller.verticalScrollBar()
    assert bar.maximum() > 0  # it scrolls
    # the contents: arrows choose a part, and the page shows it
    for _ in range(14):
        QTest.keyClick(page.contents, Qt.Key.Key_Down)
    assert bar.value() > 0
    row = page.sections[page.contents.currentRow()]
    viewport = page.scroller.viewport()
    top = row.mapTo(viewport, row.rect().topLeft()).y()
    assert 0 <= top < viewport.height()
    # Tab goes through the parts, each scrolled into sight
    QTest.keyClick(page.contents, Qt.Key.Key_Tab)
    seen = set()
    for _ in range(len(page.sections) - 1):
        focused = QApplication.focusWidget()
        assert focused is not None and focused in page.sections
        seen.add(focused.accessibleName())
        r = focused.mapTo(viewport, focused.rect().topLeft()).y()
        assert -focused.height() < r < viewport.height()
        QTest.keyClick(focused, Qt.Key.Key_Tab)
    assert len(seen) >= 10 and all(seen)
    # Ctrl+Tab turns the page; Esc closes the window
    focused = QApplication.focusWidget()
    assert focused is not None
    QTest.keyClick(focused, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: help_.current_page() is help_.gallery)
    focused = QApplication.focusWidget()
    assert focused is not None
    QTest.keyClick(focused, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not help_.isVisible())
    close_window(window)


def test_learning_pages_are_reachable_from_the_table_help(qtbot):
    window = open_window(qtbot)
    start_practice(window)
    wait_for_input(qtbot, window)
    press(window, Qt.Key.Key_F1)  # the table's help key
    qtbot.waitUntil(lambda: window._help is not None and window._help.isVisible())
    help_ = window._help
    assert help_ is not None
    bar = help_.tabs.tabBar()
    for index, page in enumerate((help_.text, help_.rules, help_.gallery, help_.glossary)):
        QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
        assert help_.current_page() is page and page.isVisible()
    click(qtbot, help_.display_button)
    qtbot.waitUntil(
        lambda: window._display_dialog is not None and window._display_dialog.isVisible()
    )
    close_window(window)


# -- the card gallery -------------------------------------------------------------------------


def test_the_gallery_shows_the_48_cards_by_month_with_the_engines_kinds_and_points(qtbot):
    window = open_window(qtbot)
    help_ = open_learn(qtbot, window, "cards")
    gallery = help_.gallery
    assert help_.current_page() is gallery
    cells = gallery.findChildren(QLabel, "galleryCard")
    assert [c.property("card") for c in cells] == list(CARD_IDS)
    months = gallery.findChildren(QFrame, "monthRow")
    assert len(months) == 12
    for month, row in enumerate(months):
        title = row.accessibleName()
        assert title.startswith(names.month_name(month)) and f"{month + 1}月" in title
        shown = [c.property("card") for c in row.findChildren(QLabel, "galleryCard")]
        assert [month_of(parse_card(i)) for i in shown] == [month] * 4
        pictures = [p.card for p in row.findChildren(CardPicture)]
        assert pictures == [parse_card(i) for i in shown]
    for cell in cells:
        card = parse_card(cell.property("card"))
        kind = kind_of(card)
        texts = cell.text().split("\n")
        # English first, then the Japanese name, then the kind and the engine's card points
        assert texts[0] == names.card_name(card)
        assert texts[1] == names.card_japanese(card)
        assert names.kind_name(kind) in texts[2] and names.KINDS_JA[kind] in texts[2]
        assert names.points(kind.points) in texts[2]
    for picture in gallery.findChildren(CardPicture):
        assert picture.accessibleName() == names.card_accessible_name(picture.card)
    # the marks explained: each kind's mark, and both kinds of poem/blue ribbon
    marks = gallery.findChildren(QLabel, "aidsMark")
    kinds = {kind_of(parse_card(m.property("card"))) for m in marks}
    assert kinds == set(Kind)
    assert all(not m.pixmap().isNull() for m in marks)
    legend = " ".join(label.text() for label in gallery.sections[0].findChildren(QLabel))
    for words in ("month", "light", "tane", "ribbon", "plain", "赤短", "青短", "Display"):
        assert words in legend
    close_window(window)


# -- the glossary -----------------------------------------------------------------------------


def test_the_glossary_gives_japanese_reading_and_meaning(qtbot):
    window = open_window(qtbot)
    help_ = open_learn(qtbot, window, "glossary")
    table = help_.glossary.findChild(QTableWidget, "glossaryTable")
    assert table is not None
    qtbot.waitUntil(lambda: QApplication.focusWidget() is table)
    rows = {
        filled(table.item(r, 0)): [filled(table.item(r, c)) for c in range(1, 4)]
        for r in range(table.rowCount())
    }
    for word in ("oya", "ko", "koikoi", "shobu", "yaku", "teyaku", "kasu", "tane", "hikari"):
        assert word in rows, word
        japanese, reading, meaning = rows[word]
        assert japanese and reading and len(meaning) > 10
    assert "bake-fuda" in rows and "tanzaku" in rows
    QTest.keyClick(table, Qt.Key.Key_Down)
    assert table.currentRow() == 1
    close_window(window)


# -- every visible string through tr() --------------------------------------------------------


class Marker(QTranslator):
    """Wraps every translated string in ⟦ ⟧, so that text which bypassed tr() shows."""

    def translate(self, context, source, disambiguation=None, n=-1):
        return f"⟦{source}⟧"

    def isEmpty(self) -> bool:
        return False


LATIN = re.compile(r"[A-Za-z]{2,}")


def untranslated(text: str) -> list[str]:
    """Pieces of visible text with words in them that no tr() call wrapped."""
    plain = unescape(re.sub(r"<[^>]+>", "\n", text))
    out = []
    for piece in plain.split("\n"):
        outside, inner = piece, ""
        while outside != inner:  # translated strings hold others: take the innermost first
            inner, outside = outside, re.sub(r"⟦[^⟦⟧]*⟧", "", outside)
        if LATIN.search(outside):
            out.append(piece.strip())
    return out


def visible_texts(top: QWidget) -> list[str]:
    texts = []
    for w in top.findChildren(QWidget):
        if isinstance(w, QLabel | QAbstractButton):
            texts += [w.text(), w.accessibleName(), w.toolTip()]
        elif isinstance(w, QListWidget):
            texts += [w.item(i).text() for i in range(w.count())]
        elif isinstance(w, QTableWidget):  # the glossary's first column is the word itself
            first = 1 if w.objectName() == "glossaryTable" else 0
            texts += [
                filled(w.item(r, c))
                for r in range(w.rowCount())
                for c in range(first, w.columnCount())
            ]
            texts += [filled(w.horizontalHeaderItem(c)) for c in range(w.columnCount())]
        texts.append(w.accessibleName())
    if hasattr(top, "tabs"):
        texts += [top.tabs.tabText(i) for i in range(top.tabs.count())]
    return [t for t in texts if t]


def test_every_visible_string_of_the_learning_windows_goes_through_tr(qtbot):
    marker = Marker()
    QCoreApplication.installTranslator(marker)
    try:
        help_ = HelpDialog(None, CardArt())
        qtbot.addWidget(help_)
        assert help_.rules and help_.gallery and help_.glossary  # each page made
        display = DisplayDialog(DisplayOptions())
        qtbot.addWidget(display)
        start = StartScreen(AppSettings())
        qtbot.addWidget(start)
        learn_row = [*start.learn_buttons.values(), start.display_button]
        bad = []
        for top in (help_, display):
            for text in visible_texts(top):
                bad += untranslated(text)
        for button in learn_row:
            bad += untranslated(button.text()) + untranslated(button.accessibleName())
        # the glossary's romaji column is the word itself, as a reading aid: not English
        assert not bad, bad[:10]
        assert untranslated("<td>⟦Rule⟧</td><td>a word</td>") == ["a word"]  # it can see
        assert "⟦" in help_.tabs.tabText(1)
    finally:
        QCoreApplication.removeTranslator(marker)
