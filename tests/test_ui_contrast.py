"""WCAG AA on rendered screens: every visible label's and button's text against the colour
actually rendered behind it (4.5:1), and every keyboard focus indicator against the same
pixels without focus (3:1 over at least a 2-pixel band around the control). A hand card's
focus ring leaves its assist glow in sight, and a dialog's Close button shows no dark icon
on its dark face."""

from __future__ import annotations

import random

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QProxyStyle,
    QPushButton,
    QStyle,
    QStyleHintReturn,
    QStyleOption,
    QWidget,
)

from koikoi.engine.cards import parse_card
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from tests.contrast import NON_TEXT_AA, TEXT_AA, dominant, ratio, text_contrasts
from tests.ui_driver import (
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    press,
    start_practice,
    wait_for_input,
)

TWO_IN_HAND = b"two-matches-00000000000000000005"
"""You are oya; your kiku_sake_cup matches two field cards (it glows with assist on)."""
DECIDING = b"screenshots-match-0000000000000001"


def assert_text_contrast(top: QWidget, where: str) -> int:
    measured = text_contrasts(top)
    low = [f"{r:.2f} {d}" for r, d in measured if r < TEXT_AA]
    assert not low, f"{where}: text below {TEXT_AA}:1: {low}"
    return len(measured)


def test_text_meets_aa_on_every_screen(qtbot):
    window = open_window(qtbot)
    checked = assert_text_contrast(window, "start screen")
    start_practice(window, seed=DECIDING)
    wait_for_input(qtbot, window)
    checked += assert_text_contrast(window, "first oya")
    click(qtbot, panel_button(window))
    wait_for_input(qtbot, window)
    checked += assert_text_contrast(window, "the table")
    play_by_clicks(
        qtbot, window, random.Random(2), until=lambda w: w.controller.mode is Mode.DECIDE
    )
    checked += assert_text_contrast(window, "koikoi or shobu")
    click(qtbot, panel_button(window))  # shobu
    assert wait_for_input(qtbot, window) is Mode.ROUND_OVER
    checked += assert_text_contrast(window, "round result")
    window.show_help()
    assert window._help is not None  # show_help made it
    qtbot.waitExposed(window._help)
    checked += assert_text_contrast(window._help, "help")
    window._help.close()
    window.show_calculator()
    assert window._calculator is not None
    qtbot.waitExposed(window._calculator)
    checked += assert_text_contrast(window._calculator, "calculator")
    window._calculator.close()
    assert checked > 60
    close_window(window)


# -- focus indicators ------------------------------------------------------------------------


def region(top: QWidget, w: QWidget, grow: int = 0) -> QImage:
    image = top.grab().toImage()
    dpr = image.devicePixelRatio()
    tl = w.mapTo(top, w.rect().topLeft())
    r = QRect(tl.x(), tl.y(), w.width(), w.height()).adjusted(-grow, -grow, grow, grow)
    return image.copy(QRect(*(round(v * dpr) for v in (r.x(), r.y(), r.width(), r.height()))))


def changed_pixels(before: QImage, after: QImage, least: float = NON_TEXT_AA) -> int:
    """Pixels whose colours with and without focus differ by at least ``least``:1."""
    assert before.size() == after.size()
    return sum(
        ratio(before.pixelColor(x, y), after.pixelColor(x, y)) >= least
        for y in range(before.height())
        for x in range(before.width())
    )


def band_area(w: QWidget, thickness: int = 2, share: float = 0.75) -> int:
    """A ``thickness``-pixel band around the control (rounded corners take a share off)."""
    return int(2 * thickness * (w.width() + w.height()) * share)


def focus_change(qtbot, top: QWidget, w: QWidget) -> int:
    """How many pixels of the control change 3:1 when the keyboard comes to it."""
    w.clearFocus()
    QApplication.processEvents()
    assert not w.hasFocus()
    before = region(top, w)
    w.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(w.hasFocus, timeout=2000)
    after = region(top, w)
    w.clearFocus()
    return changed_pixels(before, after)


def test_keyboard_focus_shows_3_to_1_on_the_start_screen_the_column_and_the_panels(qtbot):
    window = open_window(qtbot)
    window.start.set_resume("round 3 of 6")
    QApplication.processEvents()
    controls = [
        w
        for w in window.start.findChildren(QAbstractButton)
        if w.isVisible() and w.focusPolicy() & Qt.FocusPolicy.TabFocus
    ]
    assert len(controls) >= 10  # resume, practice, 3 small, 5 radios, 2 boxes, start
    weak = []
    for w in controls:
        n = focus_change(qtbot, window, w)
        if n < band_area(w):
            weak.append(f"{w.objectName() or type(w).__name__} {w.text()!r}: {n}")
    start_practice(window, seed=DECIDING)
    wait_for_input(qtbot, window)
    side = window.game.side
    for w in (side.menu_button, side.help_button, side.assist):
        n = focus_change(qtbot, window, w)
        if n < band_area(w):
            weak.append(f"{w.objectName() or type(w).__name__} {w.text()!r}: {n}")
    click(qtbot, panel_button(window))
    play_by_clicks(
        qtbot, window, random.Random(2), until=lambda w: w.controller.mode is Mode.DECIDE
    )
    panel = window.game.overlay.panel
    assert panel is not None  # the koikoi question
    for w in panel.findChildren(QPushButton):
        n = focus_change(qtbot, window, w)
        if n < band_area(w):
            weak.append(f"{w.objectName()} {w.text()!r}: {n}")
    window.controller.decide(False)
    window.show_calculator()
    calc = window._calculator
    assert calc is not None
    qtbot.waitExposed(calc)
    toggles = [w for w in calc.findChildren(QAbstractButton) if w.objectName() == "calcCard"]
    toggles[0].setChecked(True)  # a picked card (gold) and one not picked
    for w in calc.findChildren(QPushButton):
        n = focus_change(qtbot, calc, w)
        if n < band_area(w):
            weak.append(f"calculator {w.text()!r}: {n}")
    for card in toggles[:2]:  # the arrow keys take the focus on to the next card
        card.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(card.hasFocus, timeout=2000)
        focused = region(calc, card)
        QTest.keyClick(card, Qt.Key.Key_Right)
        qtbot.waitUntil(lambda card=card: not card.hasFocus(), timeout=2000)
        n = changed_pixels(region(calc, card), focused)
        if n < band_area(card):
            weak.append(f"calculator {card.accessibleName()!r}: {n}")
    calc.close()
    assert not weak, f"focus barely shows on: {weak}"
    close_window(window)


def is_glow(c: QColor) -> bool:
    """The assist glow's gold over the felt (not the card's cream, not the ring's blue)."""
    return c.red() > 120 and c.red() - c.blue() > 70 and c.green() > 80


def test_a_hand_cards_focus_ring_shows_3_to_1_and_leaves_its_glow_in_sight(qtbot):
    window = open_window(qtbot)
    start_practice(window, seed=TWO_IN_HAND)
    wait_for_input(qtbot, window)
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    game, table = window.game, window.game.table
    cup = parse_card("kiku_sake_cup")
    card = table.card_widget(cup)
    assert card is not None and card.glow == "capturable"  # assist is on
    # the keyboard walks the hand onto the cup, then one card past it
    for _ in range(9):
        press(window, Qt.Key.Key_Right)
        if table.focus_key == cup:
            break
    assert table.focus_key == cup and table.show_focus
    focused = region(window, card)
    press(window, Qt.Key.Key_Right)
    assert table.focus_key != cup
    unfocused = region(window, card)
    pad = round(card.card_rect().left())
    assert changed_pixels(unfocused, focused) >= 2 * 2 * (card.width() + card.height()) * 0.75
    # the glow: gold pixels around the card, as many with the ring as without
    outside = [
        (x, y)
        for y in range(unfocused.height())
        for x in range(unfocused.width())
        if not (pad <= x < unfocused.width() - pad and pad <= y < unfocused.height() - pad)
    ]
    glow_before = sum(is_glow(unfocused.pixelColor(x, y)) for x, y in outside)
    glow_after = sum(is_glow(focused.pixelColor(x, y)) for x, y in outside)
    assert glow_before > 2 * (card.width() + card.height())  # the glow is there to see
    assert glow_after >= 0.8 * glow_before, f"the ring hides the glow: {glow_after}/{glow_before}"
    game.set_keyboard(False)
    close_window(window)


# -- the close buttons' ✕ --------------------------------------------------------------------


class IconsOnButtons(QProxyStyle):
    """A desktop whose theme puts icons on dialog buttons (KDE, GNOME's classic themes):
    Close gets the style's ✕, drawn dark."""

    def styleHint(
        self,
        hint: QStyle.StyleHint,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
        data: QStyleHintReturn | None = None,
    ) -> int:
        if hint == QStyle.StyleHint.SH_DialogButtonBox_ButtonsHaveIcons:
            return 1
        return super().styleHint(hint, option, widget, data)


def test_close_buttons_show_no_dark_icon_on_their_dark_face(qtbot):
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    old = app.style().name()
    app.setStyle(IconsOnButtons(old))
    try:
        window = MainWindow()
        qtbot.addWidget(window)
        window.show_help()
        window.show_calculator()
        for dialog in (window._help, window._calculator):
            assert dialog is not None  # show_help and show_calculator made them
            qtbot.waitExposed(dialog)
            box = dialog.findChild(QDialogButtonBox)
            assert box is not None
            close = box.button(QDialogButtonBox.StandardButton.Close)
            assert close.icon().isNull(), f"{type(dialog).__name__}: Close carries an icon"
            dialog.close()
        window.close()
    finally:
        app.setStyle(old)


def blend(colour: QColor, under: QColor) -> QColor:
    a = colour.alphaF()
    return QColor(
        *(
            round(c * a + u * (1 - a))
            for c, u in zip(
                (colour.red(), colour.green(), colour.blue()),
                (under.red(), under.green(), under.blue()),
                strict=True,
            )
        )
    )


def test_words_painted_on_the_felt_meet_aa(qtbot):
    from koikoi.ui.table.table import FIELD_LABEL, TRAY_LABEL_EMPTY

    window = open_window(qtbot)
    start_practice(window, seed=TWO_IN_HAND)
    wait_for_input(qtbot, window)
    click(qtbot, panel_button(window))
    assert wait_for_input(qtbot, window) is Mode.PLAY
    table = window.game.table
    image = table.grab().toImage()
    rects = [r.toAlignedRect() for r in table.label_rects()]
    lay = table.layout_
    fr = lay.field_rect
    rects.append(QRect(round(fr.left() + 14), round(fr.bottom() - lay.label_h - 4), 80, 14))
    colours = [TRAY_LABEL_EMPTY] * (len(rects) - 1) + [FIELD_LABEL]  # no captures yet
    for r, colour in zip(rects, colours, strict=True):
        under = dominant(image, r)
        assert ratio(blend(colour, under), under) >= TEXT_AA, (r, under.name())
    close_window(window)
