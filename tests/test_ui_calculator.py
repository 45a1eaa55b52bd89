"""The score calculator as a player reaches it: from the start screen or from the rules,
cards picked by clicks or keys, and the engine's score read back from the window."""

from __future__ import annotations

import random

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from koikoi.engine.cards import CARD_IDS, parse_card
from koikoi.engine.yaku import score
from koikoi.ui.common import names
from koikoi.ui.learn.calculator import ScoreCalculator
from koikoi.ui.main_window import MainWindow
from tests.ui_driver import click, close_window, open_window


def _open_from_start(qtbot) -> tuple[MainWindow, ScoreCalculator]:
    window = open_window(qtbot)
    click(qtbot, window.start.calculator_button)
    calculator = window.findChild(ScoreCalculator, "calculatorDialog")
    assert calculator is not None and calculator.isVisible()
    return window, calculator


def _pick(qtbot, calculator: ScoreCalculator, *card_ids: str) -> None:
    for card_id in card_ids:
        click(qtbot, calculator.cards[parse_card(card_id)])


def test_picking_cards_by_clicks_shows_the_engines_score(qtbot) -> None:
    window, calc = _open_from_start(qtbot)
    assert "No yaku" in calc.score_label.text()
    lights = ("matsu_crane", "sakura_curtain", "susuki_moon", "yanagi_rainman", "kiri_phoenix")
    _pick(qtbot, calc, *lights, "kiku_sake_cup")
    pile = sum(1 << parse_card(c) for c in (*lights, "kiku_sake_cup"))
    expected = score(pile, 0, True)
    assert calc.pile() == pile
    assert expected.base == 20 and expected.doubled and expected.points == 40
    text = calc.score_label.text()
    for yaku, points in expected.yaku:
        assert names.yaku_japanese(yaku) in text and names.yaku_name(yaku) in text
        assert f">{points}</td>" in text
    assert "Round points: 40" in text
    assert calc.score_label.accessibleName() == "6 cards, base 20, round points 40"

    calc.koikoi.setValue(2)  # three times the points: the shared multiplier
    assert "Round points: 120" in calc.score_label.text()
    click(qtbot, calc.doubling)  # doubling off
    assert not calc.doubling.isChecked()
    text = calc.score_label.text()
    assert "Round points: 60" in text and "not doubled" in text
    _pick(qtbot, calc, "kiri_phoenix")  # a second click puts a card back
    assert calc.current_score() == score(pile & ~(1 << parse_card("kiri_phoenix")), 2, False)
    close_window(window)


def test_the_keys_move_toggle_and_clear(qtbot) -> None:
    window, calc = _open_from_start(qtbot)
    first = calc.cards[parse_card("matsu_crane")]
    first.setFocus()
    qtbot.keyClick(first, Qt.Key.Key_Right)  # the next month, same row
    assert calc.focusWidget() is calc.cards[parse_card("ume_warbler")]
    qtbot.keyClick(calc.focusWidget(), Qt.Key.Key_Down)  # the next card of the month
    assert calc.focusWidget() is calc.cards[parse_card("ume_ribbon")]
    qtbot.keyClick(calc.focusWidget(), Qt.Key.Key_Left)
    qtbot.keyClick(calc.focusWidget(), Qt.Key.Key_Left)  # wraps round to December
    assert calc.focusWidget() is calc.cards[parse_card("kiri_plain_yellow")]
    qtbot.keyClick(calc.focusWidget(), Qt.Key.Key_Space)
    assert calc.pile() == 1 << parse_card("kiri_plain_yellow")
    qtbot.keyClick(calc.focusWidget(), Qt.Key.Key_Delete)
    assert calc.pile() == 0 and "No yaku" in calc.score_label.text()
    close_window(window)


def test_the_rules_window_opens_the_same_calculator(qtbot) -> None:
    window = open_window(qtbot)
    click(qtbot, window.start.help_button)
    assert window._help is not None  # the help button opened it
    click(qtbot, window._help.calculator_button)
    calc = window.findChild(ScoreCalculator, "calculatorDialog")
    assert calc is not None and calc.isVisible()
    click(qtbot, window.start.calculator_button)
    assert window.findChildren(ScoreCalculator) == [calc]
    close_window(window)


def test_any_pile_reads_as_the_engine_scores_it(qtbot) -> None:
    window, calc = _open_from_start(qtbot)
    rng = random.Random(5)
    for _ in range(40):
        pile = sum(1 << c for c in rng.sample(range(48), rng.randrange(0, 25)))
        koikoi, doubling = rng.randrange(4), rng.random() < 0.5
        calc.koikoi.setValue(koikoi)
        calc.doubling.setChecked(doubling)
        calc.set_pile(pile)
        expected = score(pile, koikoi, doubling)
        assert calc.current_score() == expected
        if expected.yaku:
            assert f"Round points: {expected.points}" in calc.score_label.text()
        else:
            assert "No yaku" in calc.score_label.text()
    # every card has its own toggle, named for a screen reader
    assert [t.accessibleName() for t in calc.cards] == [
        names.card_accessible_name(c) for c in range(len(CARD_IDS))
    ]
    close_window(window)


def test_each_change_is_announced_once(qtbot, monkeypatch) -> None:
    import koikoi.ui.learn.calculator as calculator_module

    said: list[str] = []
    monkeypatch.setattr(calculator_module, "announce", lambda widget, text: said.append(text))
    window, calc = _open_from_start(qtbot)
    _pick(qtbot, calc, "sakura_curtain")
    _pick(qtbot, calc, "kiku_sake_cup")
    calc.koikoi.setValue(1)
    calc.koikoi.setValue(1)  # no change, nothing said
    assert said == [
        "1 card, no yaku, 0 points",
        "2 cards, base 5, round points 5",
        "2 cards, base 5, round points 10",
    ]
    close_window(window)


def test_the_dialogs_own_result_is_not_shadowed(qtbot) -> None:
    """``QDialog.result()`` (how the dialog was closed) stays callable on the calculator."""
    window, calc = _open_from_start(qtbot)
    box = calc.findChild(QDialogButtonBox)
    assert box is not None
    close = box.button(QDialogButtonBox.StandardButton.Close)
    click(qtbot, close)
    assert not calc.isVisible()
    assert calc.result() == QDialog.DialogCode.Rejected
    close_window(window)
