"""The table's layout at the sizes the window allows (960×640 up to 1920×1080): the koikoi
panel leaves the field and both capture rows in sight, the log shows its newest line and
the prompt its whole text."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize, QTranslator
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QWidget,
)

from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.table.card_widget import CardWidget
from koikoi.ui.table.panels import DecisionPanel
from tests.ui_driver import (
    actions_so_far,
    close_window,
    open_window,
    play_by_clicks,
    start_practice,
)

DECIDING = b"screenshots-match-0000000000000001"
"""A match whose random clicks (seed 2) reach a koikoi decision in the first round."""

SIZES = [(960, 640), (1024, 640), (1024, 768), (1280, 800), (1440, 900), (1920, 1080)]


def in_window(w: QWidget) -> QRect:
    return QRect(w.mapTo(w.window(), w.rect().topLeft()), w.size())


def table_cards(window: MainWindow) -> dict[str, list[CardWidget]]:
    """The field's and both capture piles' card widgets, by where they are."""
    table = window.game.table
    model = table.model
    groups: dict[str, list[CardWidget]] = {"field": [], "your captures": [], "theirs": []}
    for key, w in table.widgets.items():
        if not w.isVisible():
            continue
        if key in model.field:
            groups["field"].append(w)
        elif key in model.captured[0]:
            groups["your captures"].append(w)
        elif key in model.captured[1]:
            groups["theirs"].append(w)
    return groups


def settle(qtbot, window: MainWindow, size: tuple[int, int]) -> None:
    window.resize(*size)
    qtbot.waitUntil(lambda: window.size().toTuple() == size, timeout=2000)
    for _ in range(3):
        QApplication.processEvents()
    window.game.table.finish_animation()


def test_the_koikoi_panel_leaves_the_field_and_both_capture_rows_in_sight(qtbot):
    window = open_window(qtbot)
    start_practice(window, seed=DECIDING)
    play_by_clicks(
        qtbot, window, random.Random(2), until=lambda w: w.controller.mode is Mode.DECIDE
    )
    for size in [*SIZES, (1280, 800)]:
        settle(qtbot, window, size)
        panel = window.game.overlay.panel
        assert isinstance(panel, DecisionPanel) and panel.isVisible()
        where = in_window(panel)
        groups = table_cards(window)
        assert groups["field"] and groups["your captures"], size
        window_rect = window.rect()
        table_rect = in_window(window.game.table)
        for group, cards in groups.items():
            for card in cards:
                r = in_window(card)
                assert not r.intersects(where), f"{size}: the panel covers {group} {card.key}"
                assert table_rect.contains(r), f"{size}: {group} {card.key} off the table"
        buttons = [b for b in panel.findChildren(QPushButton) if b.isVisible()]
        assert len(buttons) == 2  # shobu and koikoi
        for b in buttons:
            assert window_rect.contains(in_window(b)), f"{size}: {b.text()!r} cut off"
            assert where.contains(in_window(b)), f"{size}: {b.text()!r} outside its panel"
        # the panel has the height its words need: nothing squeezed or cut
        assert panel.height() >= panel.heightForWidth(panel.width()), size
    # decided: the column goes back to its width and the table takes the room again
    window.controller.decide(True)
    qtbot.waitUntil(lambda: window.game.overlay.panel is None, timeout=5000)
    assert window.game.side.width() == 282  # 22 % of 1280
    close_window(window)


def newest_line_in_sight(log: QWidget) -> bool:
    """The log's last line lies wholly inside what the log shows."""
    if isinstance(log, QLabel):  # a label shows its lines only if all of them fit
        return log.heightForWidth(log.width()) <= log.height()
    assert isinstance(log, QPlainTextEdit)
    block = log.document().lastBlock()
    r = log.blockBoundingGeometry(block).translated(log.contentOffset())
    return r.top() >= 0 and r.bottom() <= log.viewport().height() + 0.5


def log_text(log: QWidget) -> str:
    return log.text() if isinstance(log, QLabel) else log.toPlainText()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1024, 640), (960, 640)])
def test_the_log_shows_its_newest_line_and_the_prompt_its_whole_text(qtbot, size):
    window = open_window(qtbot, size=size)
    start_practice(window, seed=DECIDING)
    game = window.game
    seen = {"your turn": 0, "checks": 0}

    def check(w: MainWindow) -> None:
        QApplication.processEvents()
        log = game.side.log
        assert log.isVisible() and log.height() >= 2 * log.fontMetrics().lineSpacing()
        if not game.side._lines:  # the first oya: nothing said yet
            return
        newest = game.side._lines[-1]
        assert log_text(log).endswith(newest.replace("\u00a0", " "))  # plain text: a space
        assert newest_line_in_sight(log), f"{size}: the newest line {newest!r} is cut off"
        if newest.startswith("Your turn"):
            seen["your turn"] += 1
        prompt = game.prompt
        if prompt.isVisible():
            if prompt.wordWrap():  # a long text wraps: all its lines at the line's width
                need = QSize(prompt.width(), prompt.heightForWidth(prompt.width()))
            else:
                need = prompt.sizeHint()
            assert prompt.height() >= need.height(), f"{size}: prompt squeezed: {prompt.text()!r}"
            assert prompt.width() >= need.width(), f"{size}: prompt cut: {prompt.text()!r}"
            assert in_window(game.table).contains(in_window(prompt))
        seen["checks"] += 1

    play_by_clicks(
        qtbot,
        window,
        random.Random(4),
        until=lambda w: actions_so_far(w) >= 40 or w.controller.mode is Mode.ROUND_OVER,
        check=check,
    )
    assert seen["checks"] > 10 and seen["your turn"] > 3
    close_window(window)


@pytest.mark.parametrize("size", [(960, 640), (1024, 640)])
def test_the_match_result_shows_every_round_or_scrolls_to_it(qtbot, size):
    window = open_window(qtbot, size=size)
    start_practice(window, seed=DECIDING)
    play_by_clicks(qtbot, window, random.Random(3), koikoi_rate=0.0)
    assert window.controller.mode is Mode.MATCH_OVER
    panel = window.game.overlay.panel
    assert panel is not None  # the match's result
    rounds = panel.findChild(QTableWidget, "roundsTable")
    assert rounds is not None and rounds.rowCount() >= 2
    QApplication.processEvents()
    shown = rounds.viewport().height()
    rows = sum(rounds.rowHeight(i) for i in range(rounds.rowCount()))
    bar = rounds.verticalScrollBar()
    assert rows <= shown or (bar.isVisible() and bar.maximum() > 0), f"{size}: rounds cut off"
    for b in panel.findChildren(QPushButton):
        assert window.rect().contains(in_window(b)), f"{size}: {b.text()!r} cut off"
    close_window(window)


class LongerWords(QTranslator):
    """A pseudo-locale: every sentence of the game screen twice as long, as some languages'
    translations are (and as a more precise card name makes a prompt)."""

    def translate(self, context, source, disambiguation=None, n=-1):
        if context != "GameScreen":
            return None
        return f"{source} ({source})"

    def isEmpty(self):
        return False


def test_a_prompt_longer_than_the_table_wraps_and_shows_whole(qtbot):
    app = QApplication.instance()
    assert app is not None  # conftest.py made it
    words = LongerWords()
    app.installTranslator(words)
    try:
        window = open_window(qtbot, size=(960, 640))
        start_practice(window, seed=DECIDING)
        game = window.game
        wrapped = []

        def check(w: MainWindow) -> None:
            QApplication.processEvents()
            prompt = game.prompt
            if not prompt.isVisible():
                return
            table = in_window(game.table)
            shown = in_window(prompt)
            assert table.contains(shown), f"prompt off the table: {prompt.text()!r}"
            if prompt.wordWrap():
                wrapped.append(prompt.text())
                assert prompt.height() >= prompt.heightForWidth(prompt.width())
            else:
                assert prompt.width() >= prompt.sizeHint().width()
            # the table makes room for it: no field card and no label of your captures under it
            for card in game.table.widgets.values():
                if card.isVisible() and card.key in game.table.model.field:
                    assert not in_window(card).intersects(shown), prompt.text()
            labels_top = min(r.top() for r in game.table.label_rects()[4:])
            assert shown.bottom() <= table.top() + labels_top

        play_by_clicks(
            qtbot,
            window,
            random.Random(4),
            until=lambda w: actions_so_far(w) >= 12,
            check=check,
        )
        assert wrapped and any("Your turn" in t for t in wrapped)
        close_window(window)
    finally:
        app.removeTranslator(words)


def _show_match_result(qtbot, window: MainWindow, rows: int) -> QTableWidget:
    """The end-of-match panel of a match of ``rows`` deals, each a win of the player's."""
    from koikoi.engine.match import DealOutcome
    from koikoi.engine.outcome import Outcome, RoundResult
    from koikoi.engine.yaku import Yaku
    from koikoi.ui.match.controller import HUMAN
    from koikoi.ui.match.matchview import MatchSummary

    result = RoundResult(Outcome.WIN, HUMAN, ((Yaku.HANAMI, 5), (Yaku.TANE, 1)), 6, False, 0, 6)
    deals = tuple((i + 1, DealOutcome(result, 6, False, (30 + 6 * i, 30))) for i in range(rows))
    window.stack.setCurrentWidget(window.game)  # as at the end of a match
    window.game._show_match_result(MatchSummary((30 + 6 * rows, 30), HUMAN, 12, deals))
    panel = window.game.overlay.panel
    assert panel is not None
    table = panel.findChild(QTableWidget, "roundsTable")
    assert isinstance(table, QTableWidget)
    qtbot.waitUntil(table.isVisible)
    QApplication.processEvents()
    return table


@pytest.mark.parametrize("rows", [3, 4, 6, 12])
def test_a_match_of_up_to_12_rounds_shows_them_all_without_a_scroll_bar(qtbot, rows: int) -> None:
    """3–6 rounds left the table a few pixels short of its rows: a (white) scroll bar; a
    12-round match shows its 12 rows whole at the default window size too."""
    window = open_window(qtbot, size=(1280, 800))
    table = _show_match_result(qtbot, window, rows)
    shown = table.viewport().height()
    needed = sum(table.rowHeight(i) for i in range(table.rowCount()))
    assert needed <= shown, f"{rows} rows: {needed} px in {shown}"
    assert not table.verticalScrollBar().isVisible()
    panel = window.game.overlay.panel
    assert panel is not None
    place = QRect(panel.mapTo(window, panel.rect().topLeft()), panel.size())
    assert window.rect().contains(place)  # and the panel is inside the window, its buttons too
    if rows == 12:
        window.grab().save(str(Path(tempfile.gettempdir()) / "koikoi-rounds-12.png"))
    close_window(window)


def test_the_result_panel_grows_when_a_network_match_adds_its_status_and_stamps(qtbot) -> None:
    """After a network match the panel gains a status line ("Ben wants a rematch") and the
    stamps with the one last heard, once it is up: it is placed again, and its rows stay whole
    (it kept its first height, and four rounds showed two and a half behind a scroll bar)."""
    from koikoi.ui.table.panels import MatchResultPanel

    window = open_window(qtbot, size=(1280, 800))
    table = _show_match_result(qtbot, window, 4)
    panel = window.game.overlay.panel
    assert isinstance(panel, MatchResultPanel)
    before = panel.height()
    strip = QLabel("taro: Thank you for the game\n[stamps]")
    strip.setMinimumHeight(70)
    panel.add_above_buttons(strip)
    panel.status.setText("taro wants a rematch: click Rematch to play again.")
    panel.status.show()
    qtbot.waitUntil(lambda: panel.height() > before + 70)
    QApplication.processEvents()
    shown = table.viewport().height()
    needed = sum(table.rowHeight(i) for i in range(table.rowCount()))
    assert needed <= shown, f"{needed} px in {shown}"
    assert not table.verticalScrollBar().isVisible()
    place = QRect(panel.mapTo(window, panel.rect().topLeft()), panel.size())
    assert window.rect().contains(place)
    close_window(window)


def test_a_rematch_button_turned_off_looks_off(qtbot) -> None:
    """After a click on Rematch the button is off while the other player reads: it looked
    the same as before (the panel's red button had no style of its own for it)."""
    window = open_window(qtbot, size=(1280, 800))
    _show_match_result(qtbot, window, 2)
    panel = window.game.overlay.panel
    assert panel is not None
    button = panel.findChild(QPushButton, "default")
    assert button is not None

    def middle() -> QColor:
        image = button.grab().toImage()
        return image.pixelColor(image.width() // 6, image.height() // 2)

    on = middle()
    button.setEnabled(False)
    off = middle()
    assert off.red() < on.red() - 60, (on.name(), off.name())  # no longer the bright red
    close_window(window)


def test_a_rounds_table_that_must_scroll_has_the_tables_dark_scroll_bar(qtbot) -> None:
    """More rows than the window has room for (a small window, a 12-round match with
    redeals): the scroll bar is the table's own, dark, never Qt's white default."""
    window = open_window(qtbot, size=(960, 640))
    table = _show_match_result(qtbot, window, 16)
    bar = table.verticalScrollBar()
    qtbot.waitUntil(bar.isVisible)
    image = bar.grab().toImage()
    light = sum(
        QColor(image.pixel(x, y)).lightness() > 200
        for x in range(image.width())
        for y in range(image.height())
    )
    assert light < image.width() * image.height() // 20, "a light scroll bar"
    window.grab().save(str(Path(tempfile.gettempdir()) / "koikoi-rounds-bar.png"))
    close_window(window)
