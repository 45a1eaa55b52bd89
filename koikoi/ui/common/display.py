"""Display options: reading aids, card size, animation speed, reduced motion, high contrast,
the drawn card's pace.

The options are stored in :mod:`koikoi.ui.common.settings` (``DisplayOptions``); this module
asks the platform what it prefers, holds the high-contrast style sheet and the small dialog that
changes the options. The main window applies them at once to an open table.

Qt 6.11 tells the contrast preference (``QStyleHints.accessibility().contrastPreference()``)
but has no reduced-motion hint, so :func:`platform_reduced_motion` reads each platform's own
setting (GNOME's and KDE's animation settings, Windows' client-area animation, macOS's
"Reduce motion"), and Qt's animation duration hint, which a platform theme sets to 0 to turn
animations off.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from configparser import ConfigParser
from configparser import Error as ConfigError
from pathlib import Path
from typing import Final

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from koikoi.ui.common.settings import (
    ANIMATION_SPEEDS,
    CARD_SIZES,
    DRAW_PACES,
    FOLLOW,
    DisplayOptions,
)
from koikoi.ui.sound.controls import SoundControls

logger = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Display", text)


# -- what the platform prefers ------------------------------------------------------------


def _run(args: list[str]) -> str:
    """A short settings query's output, or '' when it cannot run."""
    if shutil.which(args[0]) is None:
        return ""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=1.5, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _kde_animations_off() -> bool:
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "kdeglobals"
    parser = ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(config, encoding="utf-8")
        return parser.getfloat("KDE", "AnimationDurationFactor", fallback=1.0) == 0
    except (OSError, ValueError, ConfigError):
        return False


def _desktop_reduced_motion() -> bool:
    if sys.platform == "win32":
        flag = ctypes.c_int(1)
        with contextlib.suppress(AttributeError, OSError):
            spi_getclientareaanimation = 0x1042
            windll = getattr(ctypes, "windll")  # noqa: B009 (Windows only)
            windll.user32.SystemParametersInfoW(
                spi_getclientareaanimation, 0, ctypes.byref(flag), 0
            )
        return flag.value == 0
    if sys.platform == "darwin":
        return _run(["defaults", "read", "com.apple.universalaccess", "reduceMotion"]) == "1"
    desktop = os.environ.get("XDG_CURRENT_DESKTOP", "").upper()
    if "KDE" in desktop:
        return _kde_animations_off()
    if desktop:  # GNOME and the desktops that share its settings
        answer = _run(["gsettings", "get", "org.gnome.desktop.interface", "enable-animations"])
        return answer == "false"
    return False


def platform_reduced_motion() -> bool:
    """The platform asks for less motion (its accessibility or animation setting)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        duration = app.style().styleHint(QStyle.StyleHint.SH_Widget_Animation_Duration)
        if duration == 0:
            return True
    return _desktop_reduced_motion()


def platform_high_contrast() -> bool:
    """The platform asks for high contrast (Qt's contrast preference)."""
    app = QGuiApplication.instance()
    if not isinstance(app, QGuiApplication):
        return False
    hints = app.styleHints()
    accessibility = hints.accessibility()
    return accessibility.contrastPreference() == Qt.ContrastPreference.HighContrast


# -- high contrast ----------------------------------------------------------------------------

HC_TEXT: Final = "#ffffff"
HC_GROUND: Final = "#000000"
HC_ACCENT: Final = "#ffe600"
"""Yellow on black: 17:1; white on black: 21:1 (WCAG AAA asks 7:1)."""
HC_FOCUS: Final = "#00e5ff"

HIGH_CONTRAST_SHEET: Final = f"""
QWidget {{ color: {HC_TEXT}; }}
QMainWindow, QStackedWidget, QDialog, QScrollArea, QScrollArea > QWidget > QWidget,
QTabWidget::pane, QTextBrowser, QTableWidget, QListWidget, QFrame#side {{
  background: {HC_GROUND}; color: {HC_TEXT}; }}
QLabel {{ color: {HC_TEXT}; background: transparent; }}
QLabel#title, QLabel#cardHead, QLabel#seatName, QLabel#learnHead, QLabel#yakuName {{
  color: {HC_ACCENT}; }}
QLabel#subtitle, QLabel#koikoiCalls, QLabel#learnNote {{ color: {HC_TEXT}; }}
QLabel#notice {{ background: {HC_GROUND}; border: 2px solid {HC_ACCENT}; color: {HC_TEXT}; }}
QFrame#settingsCard, QFrame#seatBox, QFrame#roundBox, QFrame#yakuRow, QFrame#monthRow {{
  background: {HC_GROUND}; border: 2px solid {HC_TEXT}; }}
QPushButton, QPushButton#secondaryButton, QPushButton#startButton, QPushButton#smallButton,
QPushButton#practiceButton, QPushButton#resumeButton {{
  background: {HC_GROUND}; color: {HC_TEXT}; border: 2px solid {HC_ACCENT}; }}
QPushButton:hover, QPushButton#practiceButton:hover, QPushButton#resumeButton:hover {{
  background: #222222; }}
QPushButton:focus, QPushButton#practiceButton:focus, QPushButton#resumeButton:focus {{
  border: 4px solid {HC_FOCUS}; }}
QCheckBox::indicator, QRadioButton::indicator {{ border: 2px solid {HC_TEXT};
  background: {HC_GROUND}; }}
QCheckBox::indicator:checked, QRadioButton::indicator:checked {{ background: {HC_ACCENT}; }}
QRadioButton:focus, QCheckBox:focus, QComboBox:focus {{ border-color: {HC_FOCUS}; }}
QComboBox, QComboBox#languageChoice {{ background: {HC_GROUND}; color: {HC_TEXT};
  border: 2px solid {HC_TEXT}; }}
QComboBox#languageChoice:focus {{ border: 3px solid {HC_FOCUS}; }}
QComboBox QAbstractItemView, QComboBox#languageChoice QAbstractItemView {{
  background: {HC_GROUND}; color: {HC_TEXT}; selection-background-color: {HC_ACCENT};
  selection-color: {HC_GROUND}; }}
QTabBar::tab {{ background: {HC_GROUND}; color: {HC_TEXT}; border: 2px solid {HC_TEXT}; }}
QTabBar::tab:selected {{ color: {HC_ACCENT}; border-color: {HC_ACCENT}; }}
QHeaderView::section {{ background: {HC_GROUND}; color: {HC_ACCENT}; }}
QToolTip {{ color: {HC_TEXT}; background: {HC_GROUND}; border: 1px solid {HC_TEXT}; }}
QLabel#oyaBadge {{ background: {HC_GROUND}; color: {HC_ACCENT}; border: 2px solid {HC_ACCENT}; }}
QPlainTextEdit#log {{ background: {HC_GROUND}; color: {HC_TEXT}; border: 1px solid {HC_TEXT}; }}
QLabel#prompt {{ background: {HC_GROUND}; color: {HC_TEXT}; border: 2px solid {HC_ACCENT}; }}
QFrame#panel {{ background: {HC_GROUND}; border: 2px solid {HC_ACCENT}; }}
"""
"""Appended to the window's style sheet when high contrast is on: black ground, white and
yellow text, cyan focus."""


_LEARN_TEMPLATE: Final = """
QTabWidget#helpTabs::pane {{ border: 1px solid {rule}; background: {paper}; }}
QTabWidget#helpTabs QTabBar::tab {{ background: {tab}; color: {tab_ink}; padding: 6px 14px;
  border: 1px solid {rule}; border-bottom: none; border-top-left-radius: 6px;
  border-top-right-radius: 6px; font-size: 14px; }}
QTabWidget#helpTabs QTabBar::tab:selected {{ background: {paper}; color: {ink}; }}
QTabWidget#helpTabs QTabBar:focus {{ border: 2px solid {focus_dark}; }}
QScrollArea#learnScroll, QWidget#learnBody, QWidget#glossary, QWidget#rulesPage,
QWidget#cardGallery {{ background: {paper};
  border: none; }}
QWidget#learnBody QLabel, QWidget#glossary QLabel {{ color: {ink}; font-size: 14px; }}
QWidget#learnBody QLabel#learnHead, QWidget#glossary QLabel#learnHead {{ color: {head};
  font-size: 17px; font-weight: 700; }}
QWidget#learnBody QLabel#learnNote {{ color: {ink}; }}
QWidget#learnBody QFrame#learnSection, QWidget#learnBody QFrame#yakuRow,
QWidget#learnBody QFrame#monthRow {{ background: {card}; border: 1px solid {rule};
  border-radius: 8px; }}
QWidget#learnBody QFrame#learnSection:focus, QWidget#learnBody QFrame#yakuRow:focus,
QWidget#learnBody QFrame#monthRow:focus {{ border: 3px solid {focus_dark}; }}
QListWidget#learnContents {{ background: {paper}; color: {ink}; border: 1px solid {rule};
  font-size: 14px; }}
QListWidget#learnContents::item {{ padding: 2px 4px; }}
QListWidget#learnContents::item:selected {{ background: {ink}; color: {paper}; }}
QListWidget#learnContents:focus {{ border: 3px solid {focus_dark}; }}
QTableWidget#glossaryTable, QTableWidget#r6Table, QTableWidget#nintendoTable {{
  background: {card}; color: {ink}; gridline-color: {rule}; font-size: 14px;
  border: 1px solid {rule}; }}
QTableWidget#glossaryTable::item:selected, QTableWidget#r6Table::item:selected,
QTableWidget#nintendoTable::item:selected {{ background: {ink}; color: {paper}; }}
QTableWidget#glossaryTable:focus, QTableWidget#r6Table:focus,
QTableWidget#nintendoTable:focus {{ border: 3px solid {focus_dark}; }}
QDialog#displayDialog {{ background: {ground}; }}
QDialog#displayDialog QLabel {{ color: {text}; font-size: 15px; }}
QDialog#displayDialog QLabel#learnHead {{ color: {accent}; font-size: 18px; font-weight: 700; }}
QDialog#displayDialog QComboBox {{ background: {field}; color: {text}; border: 2px solid {rule};
  border-radius: 6px; padding: 3px 8px; font-size: 15px; min-width: 200px; }}
QDialog#displayDialog QComboBox:focus {{ border: 3px solid {focus_light}; }}
QDialog#displayDialog QComboBox QAbstractItemView {{ background: {field}; color: {text};
  selection-background-color: {rule}; selection-color: {ground}; }}
"""

LEARN_COLOURS: Final = {
    "paper": "#f8f1df", "card": "#fffaf0", "ink": "#2a1e18", "head": "#8e1a20",
    "rule": "#b58e3e", "tab": "#3a2a22", "tab_ink": "#f3e9d2", "focus_dark": "#1f5fa0",
    "ground": "#1c1411", "text": "#f3e9d2", "accent": "#ffe3a3", "field": "#2a1e18",
    "focus_light": "#7fd3ff",
}  # fmt: skip
"""The learning pages are paper with ink (as the rules in short); the display dialog is
lacquer with cream text (as the other dialogs)."""

LEARN_HIGH_CONTRAST: Final = {
    "paper": HC_GROUND, "card": HC_GROUND, "ink": HC_TEXT, "head": HC_ACCENT,
    "rule": HC_TEXT, "tab": HC_GROUND, "tab_ink": HC_TEXT, "focus_dark": HC_FOCUS,
    "ground": HC_GROUND, "text": HC_TEXT, "accent": HC_ACCENT, "field": HC_GROUND,
    "focus_light": HC_FOCUS,
}  # fmt: skip


def window_sheet(high_contrast: bool) -> str:
    """What the display options add to the window's style sheet: the learning pages' and
    the display dialog's look, and with high contrast the high-contrast palette over all."""
    if high_contrast:
        return _LEARN_TEMPLATE.format(**LEARN_HIGH_CONTRAST) + HIGH_CONTRAST_SHEET
    return _LEARN_TEMPLATE.format(**LEARN_COLOURS)


# -- the dialog -------------------------------------------------------------------------------


def _size_names() -> dict[str, str]:
    return {"small": _tr("Small"), "normal": _tr("Normal"), "large": _tr("Large")}


def _speed_names() -> dict[str, str]:
    return {"slow": _tr("Slow"), "normal": _tr("Normal"), "fast": _tr("Fast")}


def _pace_names() -> dict[str, str]:
    return {
        "instant": _tr("At once"),
        "1s": _tr("After 1 second"),
        "5s": _tr("After 5 seconds (rules)"),
    }


def _follow_names() -> dict[str, str]:
    return {"system": _tr("As the system says"), "on": _tr("On"), "off": _tr("Off")}


class DisplayDialog(QDialog):
    """The display options, each applied as soon as it changes; Esc or Close closes."""

    def __init__(
        self,
        options: DisplayOptions,
        parent: QWidget | None = None,
        sound: SoundControls | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("displayDialog")
        self.setWindowTitle(self.tr("Display options"))  # Qt adds " — " and the app name
        self.setAccessibleName(self.tr("Display options"))
        self.on_changed: Callable[[DisplayOptions], None] = lambda options: None
        lay = QVBoxLayout(self)
        head = QLabel(self.tr("表示 · Display"))
        head.setObjectName("learnHead")
        lay.addWidget(head)
        form = QFormLayout()
        form.setVerticalSpacing(12)
        self.aids = QCheckBox(self.tr("Reading aids: month number and kind mark on each card"))
        self.aids.setAccessibleName(self.tr("Reading aids on the cards"))
        form.addRow(self.aids)
        self.card_size = self._combo(CARD_SIZES, _size_names(), self.tr("Card size"))
        form.addRow(self.tr("Card size"), self.card_size)
        self.speed = self._combo(ANIMATION_SPEEDS, _speed_names(), self.tr("Animation speed"))
        form.addRow(self.tr("Animation speed"), self.speed)
        self.motion = self._combo(FOLLOW, _follow_names(), self.tr("Reduced motion"))
        form.addRow(self.tr("Reduced motion (cards move without flying)"), self.motion)
        self.contrast = self._combo(FOLLOW, _follow_names(), self.tr("High contrast"))
        form.addRow(self.tr("High contrast"), self.contrast)
        self.draw_pace = self._combo(
            DRAW_PACES, _pace_names(), self.tr("A drawn card that resolves by itself")
        )
        form.addRow(self.tr("A drawn card goes on, unless clicked"), self.draw_pace)
        self.mute_stamps = QCheckBox(self.tr("Hide the other player's stamps"))
        self.mute_stamps.setObjectName("muteStamps")
        self.mute_stamps.setAccessibleName(
            self.tr("Hide the other player's stamps in a network match (not shown, not spoken)")
        )
        form.addRow(self.mute_stamps)
        lay.addLayout(form)
        note = QLabel(
            self.tr(
                "These change only how the game looks and moves, never the rules. "
                "They apply at once, also to a match in progress."
            )
        )
        note.setObjectName("learnNote")
        note.setWordWrap(True)
        lay.addWidget(note)
        self.sound = sound
        if sound is not None:
            lay.addWidget(sound)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setText(self.tr("Close"))
        close.setAccessibleName(self.tr("Close"))
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.set_options(options)
        self.aids.toggled.connect(lambda _on: self._changed())
        self.mute_stamps.toggled.connect(lambda _on: self._changed())
        for combo in (self.card_size, self.speed, self.motion, self.contrast, self.draw_pace):
            combo.currentIndexChanged.connect(lambda _i: self._changed())
        self.setTabOrder(self.aids, self.card_size)
        self.setTabOrder(self.card_size, self.speed)
        self.setTabOrder(self.speed, self.motion)
        self.setTabOrder(self.motion, self.contrast)
        self.setTabOrder(self.contrast, self.draw_pace)
        self.setTabOrder(self.draw_pace, self.mute_stamps)
        self.setTabOrder(self.mute_stamps, close)
        if sound is not None:
            self.setTabOrder(self.mute_stamps, sound.on)
            self.setTabOrder(sound.on, sound.volume)
            self.setTabOrder(sound.volume, close)
        self.resize(560, 400)

    def _combo(self, values: tuple[str, ...], labels: dict[str, str], name: str) -> QComboBox:
        combo = QComboBox()
        combo.setAccessibleName(name)
        for value in values:
            combo.addItem(labels[value], value)
        return combo

    def set_options(self, options: DisplayOptions) -> None:
        widgets = (
            self.aids,
            self.card_size,
            self.speed,
            self.motion,
            self.contrast,
            self.draw_pace,
            self.mute_stamps,
        )
        for w in widgets:
            w.blockSignals(True)
        self.aids.setChecked(options.reading_aids)
        self.mute_stamps.setChecked(options.stamps_muted)
        for combo, value in (
            (self.card_size, options.card_size),
            (self.speed, options.animation_speed),
            (self.motion, options.reduced_motion),
            (self.contrast, options.high_contrast),
            (self.draw_pace, options.draw_pace),
        ):
            combo.setCurrentIndex(max(0, combo.findData(value)))
        for w in widgets:
            w.blockSignals(False)

    def options(self) -> DisplayOptions:
        return DisplayOptions(
            self.aids.isChecked(),
            str(self.card_size.currentData()),
            str(self.speed.currentData()),
            str(self.motion.currentData()),
            str(self.contrast.currentData()),
            str(self.draw_pace.currentData()),
            self.mute_stamps.isChecked(),
        )

    def _changed(self) -> None:
        self.on_changed(self.options())
