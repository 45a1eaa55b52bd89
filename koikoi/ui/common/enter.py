"""Enter and the keypad's Enter press the focused push button of a screen, as in a dialog.

A ``QPushButton`` takes Enter only inside a dialog (its auto-default); on the app's screens —
the start screen, the lobby, the replay viewer — it takes Space only and lets Enter go on to
the screen, whose ``keyPressEvent`` hands it to :func:`press_focused_button`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPushButton, QWidget

_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def press_focused_button(screen: QWidget, event: QKeyEvent) -> bool:
    """Click the screen's focused, enabled push button for a plain Enter (either key); True
    when it did, False for any other key or focus."""
    if event.key() not in _ENTER_KEYS:
        return False
    if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
        return False  # Ctrl+Enter and the like are not a press
    focused = screen.focusWidget()
    if not isinstance(focused, QPushButton) or not screen.isAncestorOf(focused):
        return False
    if not (focused.isEnabled() and focused.isVisible()):
        return False
    focused.click()
    return True
