"""Display options as a player sets them: in the display dialog (from the start screen, or
from the table's help), applied at once to the table in play, kept in the settings file and
read back after a restart; a damaged file loads with a one-line warning."""

from __future__ import annotations

import logging

from PySide6.QtCore import QRect, QSize, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox

from koikoi.ui.common.display import DisplayDialog, platform_reduced_motion
from koikoi.ui.common.settings import (
    ANIMATION_SPEED,
    CARD_SIZE,
    HIGH_CONTRAST,
    READING_AIDS,
    REDUCED_MOTION,
    AppSettings,
    DisplayOptions,
    settings_path,
)
from koikoi.ui.learn.learn_page import CardPicture
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.timings import Timings
from tests.contrast import text_contrasts
from tests.ui_driver import (
    click,
    close_window,
    find_card,
    open_window,
    panel_button,
    press,
    start_practice,
    wait_for_input,
)

SEED = b"screenshots-match-0000000000000001"
ANIMATED = Timings(1.0, (0, 0), 20_000, 60_000, 0)
"""Cards fly as in the app; the computer answers at once."""
TEXT_AAA = 7.0


def at_play(qtbot, window: MainWindow) -> None:
    start_practice(window, seed=SEED)
    wait_for_input(qtbot, window)
    click(qtbot, panel_button(window))  # past the first oya
    wait_for_input(qtbot, window)


def display_from_table(qtbot, window: MainWindow) -> DisplayDialog:
    """F1 at the table, then the help window's Display options button."""
    press(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window._help is not None and window._help.isVisible())
    assert window._help is not None
    click(qtbot, window._help.display_button)
    qtbot.waitUntil(lambda: window._display_dialog is not None)
    dialog = window._display_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def display_from_start(qtbot, window: MainWindow) -> DisplayDialog:
    click(qtbot, window.start.display_button)
    qtbot.waitUntil(lambda: window._display_dialog is not None)
    dialog = window._display_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def choose(combo: QComboBox, value: str) -> None:
    """Arrow keys on the closed combo box until it shows ``value``."""
    combo.setFocus()
    target = combo.findData(value)
    while combo.currentIndex() != target:
        key = Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up
        QTest.keyClick(combo, key)


def test_reading_aids_off_changes_the_cards_on_the_table_at_once(qtbot):
    window = open_window(qtbot)
    at_play(qtbot, window)
    card = find_card(window, window.game.table.model.hand[0])
    before = card.grab().toImage()
    gallery_picture = None
    dialog = display_from_table(qtbot, window)
    assert window._help is not None  # the display options were opened from it
    gallery_picture = window._help.gallery.findChildren(CardPicture)[0]
    gallery_before = gallery_picture.pixmap().toImage()
    click(qtbot, dialog.aids)
    assert not dialog.aids.isChecked()
    QApplication.processEvents()
    after = card.grab().toImage()
    assert after.size() == before.size()
    face = card.card_rect().toRect().adjusted(1, 1, -1, -1)  # the card, without ring or glow
    x, y, w, h = face.x(), face.y(), face.width(), face.height()
    corner = QRect(x, y, w // 2, h // 3)  # the month numeral and the kind mark
    lower = QRect(x, y + h // 2, w, h // 2)
    assert before.copy(corner) != after.copy(corner)
    assert before.copy(lower) == after.copy(lower)  # the picture itself is the same
    assert gallery_picture.pixmap().toImage() != gallery_before
    # every other picture too (the panels, the calculator, the start screen ask the art)
    size = QSize(40, 64)
    asked = window.art.pixmap("matsu_crane", size, True).toImage()
    assert asked == window.art.pixmap("matsu_crane", size, False).toImage()
    assert AppSettings().get(READING_AIDS) is False
    click(qtbot, dialog.aids)  # and back
    QApplication.processEvents()
    assert card.grab().toImage().copy(face) == before.copy(face)
    close_window(window)


def hand_width(window: MainWindow) -> int:
    return find_card(window, window.game.table.model.hand[0]).card_rect().toRect().width()


def test_card_size_changes_the_table_and_what_is_large_still_fits(qtbot):
    for size in ((960, 640), (1920, 1080)):
        window = open_window(qtbot, size=size)
        at_play(qtbot, window)
        normal = hand_width(window)
        dialog = display_from_table(qtbot, window)
        widths = {}
        for choice in ("small", "large", "normal"):
            choose(dialog.card_size, choice)
            QApplication.processEvents()
            widths[choice] = hand_width(window)
            table = window.game.table
            inside = table.rect()
            for w in table.widgets.values():
                if w.isVisible():
                    assert inside.contains(w.geometry().adjusted(4, 4, -4, -4)), (size, choice)
        assert widths["small"] < normal < widths["large"], (size, widths)
        assert widths["normal"] == normal
        close_window(window)


def flying_seen(qtbot, window: MainWindow) -> list[bool]:
    """Start a practice and watch, every few milliseconds, whether a card is flying."""
    seen: list[bool] = []
    timer = QTimer()
    timer.timeout.connect(lambda: seen.append(window.game.table._anim is not None))
    timer.start(2)
    start_practice(window, seed=SEED)
    wait_for_input(qtbot, window)
    click(qtbot, panel_button(window))
    wait_for_input(qtbot, window)
    timer.stop()
    assert seen
    return seen


def test_reduced_motion_moves_cards_without_flying(qtbot):
    AppSettings().set(REDUCED_MOTION, "on")
    window = open_window(qtbot, timings=ANIMATED)
    assert window.game.table.anim_scale == 0
    assert window.controller.timings.anim_scale == 0  # the network toss does not spin
    assert not any(flying_seen(qtbot, window))
    close_window(window)
    AppSettings().set(REDUCED_MOTION, "off")
    window = open_window(qtbot, timings=ANIMATED)
    assert any(flying_seen(qtbot, window))
    close_window(window)


def test_reduced_motion_follows_the_platform_by_default(qtbot, tmp_path, monkeypatch):
    kde = tmp_path / "config"
    kde.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(kde))
    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "KDE")
    (kde / "kdeglobals").write_text("[KDE]\nAnimationDurationFactor=0\n")
    assert platform_reduced_motion()
    window = open_window(qtbot, timings=ANIMATED)
    assert window.display.reduced_motion == "system"
    assert window.game.table.anim_scale == 0
    close_window(window)
    (kde / "kdeglobals").write_text("[KDE]\nAnimationDurationFactor=1\n")
    assert not platform_reduced_motion()
    window = open_window(qtbot, timings=ANIMATED)
    assert window.game.table.anim_scale == 1.0
    dialog = display_from_start(qtbot, window)
    choose(dialog.motion, "on")  # the player's choice beats the platform's
    assert window.game.table.anim_scale == 0
    close_window(window)


def first_flight(qtbot, window: MainWindow) -> int:
    """The milliseconds of the first card animation of a new practice (the deal)."""
    found: list[int] = []

    def look() -> None:
        anim = window.game.table._anim
        if anim is not None and not found:
            found.append(anim.totalDuration())

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(1)
    start_practice(window, seed=SEED)
    wait_for_input(qtbot, window)
    click(qtbot, panel_button(window))  # the deal comes after the first oya
    qtbot.waitUntil(lambda: bool(found), timeout=10_000)
    timer.stop()
    return found[0]


def test_animation_speed_scales_how_long_cards_fly(qtbot):
    durations = {}
    for speed in ("slow", "normal", "fast"):
        AppSettings().set(ANIMATION_SPEED, speed)
        window = open_window(qtbot, timings=ANIMATED)
        durations[speed] = first_flight(qtbot, window)
        close_window(window)
    assert durations["slow"] > durations["normal"] > durations["fast"]
    assert abs(durations["slow"] / durations["normal"] - 1.6) < 0.05
    assert abs(durations["fast"] / durations["normal"] - 0.55) < 0.05


def assert_aaa(top, where: str) -> int:
    measured = text_contrasts(top)
    low = [f"{r:.2f} {d}" for r, d in measured if r < TEXT_AAA]
    assert not low, f"{where}: text below 7:1: {low}"
    return len(measured)


def test_high_contrast_text_meets_aaa(qtbot):
    window = open_window(qtbot)
    dialog = display_from_start(qtbot, window)
    choose(dialog.contrast, "on")
    QApplication.processEvents()
    checked = assert_aaa(window, "start screen")
    checked += assert_aaa(dialog, "display options")
    dialog.close()
    for page in ("short", "rules", "cards", "glossary"):
        window.show_help(page)
        qtbot.waitExposed(window._help)
        checked += assert_aaa(window._help, f"help: {page}")
    assert window._help is not None
    window._help.close()
    at_play(qtbot, window)  # the table: its column, prompt and log, on a black felt
    checked += assert_aaa(window, "the table")
    felt = window.game.table.grab().toImage()
    assert felt.pixelColor(3, felt.height() // 2).lightness() < 10
    assert checked > 50
    window.go_home()
    # and off again: the usual look comes back
    dialog = display_from_start(qtbot, window)
    choose(dialog.contrast, "off")
    QApplication.processEvents()
    assert min(r for r, _ in text_contrasts(window)) < TEXT_AAA
    close_window(window)


def test_display_options_survive_a_restart(qtbot):
    window = open_window(qtbot)
    dialog = display_from_start(qtbot, window)
    click(qtbot, dialog.aids)
    choose(dialog.card_size, "large")
    choose(dialog.speed, "fast")
    choose(dialog.motion, "off")
    choose(dialog.contrast, "on")
    chosen = DisplayOptions(False, "large", "fast", "off", "on")
    assert window.display == chosen
    close_window(window)
    again = open_window(qtbot)
    assert again.display == chosen
    assert again.game.table.card_scale > 1 and again.game.table.sprites.aids is False
    assert again.high_contrast
    assert display_from_start(qtbot, again).options() == chosen
    close_window(again)


def test_a_damaged_settings_file_loads_with_one_line_warnings(qtbot, caplog):
    path = settings_path()
    assert path is not None  # under the test's own KOIKOI_HOME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        b"\x00\xff garbage [[[\n===\n[display]\ncard_size=huge\nreading_aids=maybe\n[display\n"
    )
    with caplog.at_level(logging.WARNING):
        window = open_window(qtbot)
    assert window.display == DisplayOptions()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    text = [r.getMessage() for r in warnings]
    assert any("damaged" in t for t in text)
    assert any("display/card_size" in t for t in text)
    assert all("\n" not in t and r.exc_info is None for t, r in zip(text, warnings, strict=True))
    assert window.start.isVisible()
    close_window(window)
    assert AppSettings().get(CARD_SIZE) == "normal" and AppSettings().get(HIGH_CONTRAST) == "system"


def test_the_window_keeps_its_font_when_the_display_options_change(qtbot):
    window = open_window(qtbot)
    start_practice(window, seed=SEED)
    wait_for_input(qtbot, window)
    family = window.font().family()
    widgets = [window.game.prompt, window.game.side.menu_button]

    def families() -> list[str]:
        QApplication.processEvents()
        return [w.font().family() for w in widgets]

    assert families() == [family] * 2  # the table's prompt and the column's buttons
    window.apply_display(DisplayOptions(high_contrast="on"))
    assert families() == [family] * 2
    window.apply_display(DisplayOptions(high_contrast="off"))
    assert families() == [family] * 2
    close_window(window)


def test_the_display_dialog_goes_by_tab_and_closes_with_esc(qtbot):
    window = open_window(qtbot)
    window.start.display_button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(window.start.display_button.hasFocus)
    press(window, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: window._display_dialog is not None)
    dialog = window._display_dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    dialog.aids.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(dialog.aids.hasFocus)
    order = [dialog.aids, dialog.card_size, dialog.speed, dialog.motion, dialog.contrast]
    for here, there in zip(order, order[1:], strict=False):
        assert QApplication.focusWidget() is here
        QTest.keyClick(here, Qt.Key.Key_Tab)
        qtbot.waitUntil(there.hasFocus)
    for w in order:
        assert w.accessibleName()
    QTest.keyClick(dialog.contrast, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    close_window(window)
