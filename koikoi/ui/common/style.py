"""The look: lacquer black, gold and cream over green felt; Noto CJK for Japanese."""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleHintReturn,
    QStyleOption,
    QWidget,
)

from koikoi.resources import asset

GOLD: Final = "#d4a84b"
CREAM: Final = "#f3e9d2"
LACQUER: Final = "#1c1411"

STYLE: Final = """
QWidget { color: #f3e9d2; }
QMainWindow, QStackedWidget { background: #10261f; }
QToolTip { color: #1c1411; background: #f3e9d2; border: 1px solid #d4a84b; }

QLabel#title { font-size: 64px; font-weight: 700; color: #ffe3a3;
  font-family: "Noto Serif CJK JP", "Noto Sans CJK JP", serif; }
QLabel#subtitle { font-size: 20px; color: #e8d9b8; letter-spacing: 1px; }
QComboBox#languageChoice { color: #f3e9d2; background: #1d1c18; border: 1px solid #a08a55;
  border-radius: 8px; padding: 6px 12px; }
QComboBox#languageChoice QAbstractItemView { color: #f3e9d2; background: #1d1c18; }
QLabel#notice { background: rgba(120, 30, 30, 0.85); border: 1px solid #e0a0a0;
  border-radius: 10px; padding: 8px 14px; font-size: 14px; }

QPushButton { background: #3a2a22; color: #f3e9d2; border: 1px solid #b58e3e;
  border-radius: 10px; padding: 8px 18px; font-size: 15px; }
QPushButton:hover { background: #4c382d; border-color: #e7c46d; }
QPushButton:pressed { background: #2c1f19; }
QPushButton:focus { border: 3px solid #7fd3ff; padding: 6px 16px; }
QPushButton:disabled { background: #2a211c; color: #a39478; border-color: #5c4b32; }
QPushButton#practiceButton { background: qlineargradient(x1:0,y1:0,x2:0,y2:1,
  stop:0 #c7343a, stop:1 #8e1a20); border: 2px solid #e7c46d; border-radius: 16px;
  font-size: 22px; font-weight: 700; padding: 18px 24px; min-width: 300px; }
QPushButton#practiceButton:hover { background: qlineargradient(x1:0,y1:0,x2:0,y2:1,
  stop:0 #d8444a, stop:1 #9e2128); }
QPushButton#practiceButton:focus { border: 4px solid #7fd3ff; padding: 16px 22px; }
QPushButton#resumeButton { background: qlineargradient(x1:0,y1:0,x2:0,y2:1,
  stop:0 #e1b95a, stop:1 #b88a2a); color: #1c1411; border: 2px solid #ffe3a3;
  border-radius: 16px; font-size: 18px; font-weight: 700; padding: 14px 30px; }
QPushButton#resumeButton:hover { background: #f0c96a; }
QPushButton#resumeButton:focus { border: 4px solid #1c1411; padding: 12px 28px; }
QPushButton#secondaryButton { background: rgba(28, 20, 17, 0.75); font-size: 15px; }
QPushButton#startButton { background: #2b5a47; border-color: #d4a84b; font-weight: 600; }
QPushButton#smallButton { padding: 4px 8px; font-size: 13px; }
QPushButton#smallButton:focus { padding: 2px 6px; }

QFrame#settingsCard { background: rgba(24, 17, 14, 0.86); border: 1px solid #b58e3e;
  border-radius: 16px; }
QFrame#settingsCard QLabel { font-size: 15px; }
QLabel#cardHead { font-size: 16px; font-weight: 700; color: #ffe3a3; }
QRadioButton, QCheckBox { font-size: 15px; spacing: 8px; border: 2px solid transparent;
  border-radius: 6px; padding: 1px 3px; }
QRadioButton:focus, QCheckBox:focus { border-color: #7fd3ff; }
QCheckBox::indicator, QRadioButton::indicator { width: 16px; height: 16px;
  border: 2px solid #d4a84b; background: #2a1e18; }
QCheckBox::indicator { border-radius: 4px; }
QRadioButton::indicator { border-radius: 10px; }
QCheckBox::indicator:checked, QRadioButton::indicator:checked { background: qradialgradient(
  cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5, stop:0 #ffe3a3, stop:0.55 #d4a84b,
  stop:0.6 #2a1e18); }
QCheckBox::indicator:checked { background: #d4a84b; }

QFrame#side { background: qlineargradient(x1:0,y1:0,x2:1,y2:0, stop:0 #17110e,
  stop:1 #211813); border-left: 2px solid #6b5324; }
QFrame#seatBox, QFrame#roundBox { background: rgba(255, 255, 255, 0.04);
  border: 1px solid rgba(212, 168, 75, 0.45); border-radius: 12px; }
QLabel#seatName { font-size: 16px; font-weight: 700; color: #ffe3a3; }
QLabel#oyaBadge { background: #b8272d; color: #fff3da; border-radius: 8px;
  padding: 1px 8px; font-weight: 700; font-size: 13px; }
QLabel#stake { font-size: 34px; font-weight: 800; color: #f7e7c0; }
QLabel#koikoiCalls { font-size: 13px; color: #ffcf6b; padding-bottom: 6px; }
QLabel#yakuList { font-size: 13px; color: #e9dcc0; }
QLabel#roundLabel { font-size: 18px; font-weight: 700; color: #ffe3a3; }
QLabel#multiplier { font-size: 15px; color: #ffcf6b; }
QLabel#rulesLine { font-size: 12px; color: #bfae8c; }
QPlainTextEdit#log { font-size: 12px; color: #d8ccb0; background: #1a130f;
  border: none; border-radius: 8px; padding: 4px; }
QPlainTextEdit#log:focus { border: 2px solid #7fd3ff; padding: 2px; }
QPlainTextEdit#log QScrollBar:vertical { background: transparent; width: 8px; }
QPlainTextEdit#log QScrollBar::handle:vertical { background: #6b5324; border-radius: 4px;
  min-height: 20px; }
QPlainTextEdit#log QScrollBar::add-line:vertical, QPlainTextEdit#log QScrollBar::sub-line:vertical {
  height: 0; }
QCheckBox { color: #e9dcc0; }

QLabel#prompt { background: rgba(18, 12, 10, 0.78); border: 1px solid rgba(212,168,75,0.7);
  border-radius: 14px; padding: 2px 18px; font-size: 15px; color: #fff1cf; }
QLabel#prompt[yourTurn="true"] { background: rgba(110, 70, 8, 0.95); border: 1px solid #ffd36b;
  color: #fff6dc; }
QLabel#reconnecting { background: rgba(120, 30, 30, 0.9); border: 1px solid #e0a0a0;
  border-radius: 10px; padding: 4px 14px; font-size: 15px; color: #fff1cf; }
QFrame#banner { background: rgba(20, 12, 10, 0.93); border: 2px solid #d4a84b;
  border-radius: 18px; }
QLabel#bannerTitle { font-size: 40px; font-weight: 800; color: #ffe3a3; }
QLabel#bannerYaku { font-size: 19px; font-weight: 700; color: #fff1cf; }
QLabel#bannerLine { font-size: 16px; color: #f3e9d2; }

QFrame#panel { background: qlineargradient(x1:0,y1:0,x2:0,y2:1, stop:0 #2a1e18,
  stop:1 #17100d); border: 2px solid #d4a84b; border-radius: 20px; }
QLabel#panelTitle { font-size: 28px; font-weight: 800; color: #ffe3a3; }
QLabel#panelSubtitle { font-size: 15px; color: #e6d6b3; }
QLabel#panelText { font-size: 15px; }
QLabel#panelStrong { font-size: 17px; font-weight: 700; color: #fff1cf; }
QLabel#panelNote { font-size: 13px; color: #c7b797; }
QLabel#coachHint { font-size: 14px; color: #a6f0b8; }
QLabel#seatLabel { font-size: 15px; font-weight: 700; color: #ffe3a3; }
QLabel#cardCaption { font-size: 13px; color: #d8c8a6; }
QLabel#yakuEn { font-size: 20px; font-weight: 700; color: #ffe3a3; }
QLabel#yakuJa { font-size: 15px; color: #e6d6b3; }
QLabel#yakuPoints { font-size: 17px; font-weight: 700; }
QLabel#newTag { background: #b8272d; color: white; border-radius: 7px; padding: 0 6px;
  font-size: 12px; font-weight: 700; }
QWidget#calc { background: rgba(0, 0, 0, 0.28); border-radius: 12px; }
QLabel#calcWhat { font-size: 15px; color: #e6d6b3; }
QLabel#calcValue { font-size: 15px; font-weight: 600; }
QLabel#calcTotal { font-size: 19px; font-weight: 800; color: #ffe3a3; }
QLabel#stakeValue { font-size: 17px; font-weight: 700; }
QLabel#stakeUp { color: #8fe08a; font-weight: 700; font-size: 16px; }
QLabel#stakeDown { color: #ff8f7a; font-weight: 700; font-size: 16px; }
QLabel#stakeSame { color: #c7b797; font-size: 16px; }
QPushButton#default { background: qlineargradient(x1:0,y1:0,x2:0,y2:1, stop:0 #c7343a,
  stop:1 #8e1a20); border: 2px solid #e7c46d; font-size: 17px; font-weight: 700; }
QPushButton#default:focus { border: 4px solid #7fd3ff; padding: 6px 16px; }
QPushButton#koikoi { background: qlineargradient(x1:0,y1:0,x2:0,y2:1, stop:0 #e1b95a,
  stop:1 #b88a2a); color: #1c1411; border: 2px solid #ffe3a3; font-size: 17px;
  font-weight: 700; }
QPushButton#koikoi:focus { border: 4px solid #1c1411; padding: 6px 16px; }
QPushButton#default:disabled, QPushButton#koikoi:disabled { background: #3b2622;
  color: #a8977c; border: 2px solid #6b5a3a; }
QFrame#panel[compact="true"] QLabel#panelTitle { font-size: 19px; }
QFrame#panel[compact="true"] QLabel#yakuEn { font-size: 16px; }
QFrame#panel[compact="true"] QLabel#yakuJa { font-size: 13px; }
QFrame#panel[compact="true"] QLabel#yakuPoints { font-size: 15px; }
QFrame#panel[compact="true"] QLabel#panelStrong { font-size: 15px; }
QFrame#panel[compact="true"] QLabel#calcTotal { font-size: 17px; }
QFrame#panel[compact="true"] QPushButton { font-size: 15px; padding: 4px 12px; }
QFrame#panel[compact="true"] QPushButton:focus { padding: 2px 10px; }
QTableWidget#roundsTable { background: rgba(0,0,0,0.25); color: #f3e9d2;
  gridline-color: rgba(212,168,75,0.3); border: 1px solid rgba(212,168,75,0.5);
  border-radius: 8px; font-size: 14px; }
QTableWidget#roundsTable QScrollBar:vertical { background: transparent; width: 8px; }
QTableWidget#roundsTable QScrollBar::handle:vertical { background: #6b5324; border-radius: 4px;
  min-height: 20px; }
QTableWidget#roundsTable QScrollBar::add-line:vertical,
QTableWidget#roundsTable QScrollBar::sub-line:vertical { height: 0; }
QHeaderView::section { background: #2f231c; color: #ffe3a3; border: none;
  padding: 4px 8px; font-weight: 700; }

QDialog#helpDialog, QDialog#calculatorDialog { background: #1c1411; }
QMessageBox, QDialog#passwordPrompt { background: #1c1411; }
QToolButton#calcCard { border: 3px solid transparent; border-radius: 7px; padding: 2px;
  background: transparent; }
QToolButton#calcCard:checked { background: #d4a84b; border-color: #d4a84b; }
QToolButton#calcCard:focus { border-color: #7fd3ff; }
QToolButton#calcCard:checked:focus { border-color: #7fd3ff; background: #1c1411; }
QLabel#calcResult { background: rgba(255, 255, 255, 0.05); border: 1px solid #6b5324;
  border-radius: 10px; padding: 10px; font-size: 15px; }
QSpinBox { background: #2a1e18; color: #f3e9d2; font-size: 15px; padding: 2px 4px; }
QTextBrowser#helpText { background: #f8f1df; color: #2a1e18; font-size: 14px;
  border-radius: 8px; padding: 8px; }
"""


class WordsOnDialogButtons(QProxyStyle):
    """The platform's style, except that a dialog's buttons carry words only: a desktop
    theme's icons (a dark ✕ on Close) are dark on our dark buttons. A button box makes its
    buttons before it has a parent, so this must be the application's style."""

    def styleHint(
        self,
        hint: QStyle.StyleHint,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
        data: QStyleHintReturn | None = None,
    ) -> int:
        if hint == QStyle.StyleHint.SH_DialogButtonBox_ButtonsHaveIcons:
            return 0
        return super().styleHint(hint, option, widget, data)


def ui_font() -> QFont | None:
    """Noto Sans CJK JP (or the platform's Japanese UI font) when installed."""
    families = set(QFontDatabase.families())
    for family in ("Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic UI"):
        if family in families:
            return QFont(family)
    return None


def style_sheet() -> str:
    """:data:`STYLE` with the shipped images it refers to (a checked box shows a tick)."""
    try:
        tick = asset("icons/check.svg").as_posix()
    except FileNotFoundError:
        return STYLE  # a filled box still reads as checked
    return STYLE + f'QCheckBox::indicator:checked {{ image: url("{tick}"); }}\n'


def apply_style(window: QWidget) -> None:
    """The window's font and style sheet (its dialogs and panels inherit both)."""
    font = ui_font()
    if font is not None:
        font.setPointSizeF(max(window.font().pointSizeF(), 10.0))
        window.setFont(font)
    window.setStyleSheet(style_sheet())
    app = QApplication.instance()
    if isinstance(app, QApplication) and not isinstance(app.style(), WordsOnDialogButtons):
        app.setStyle(WordsOnDialogButtons(app.style().name()))
