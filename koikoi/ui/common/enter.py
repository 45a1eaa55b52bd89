"""Enter and the keypad's Enter press a screen's focused push button, as in a dialog.

A ``QPushButton`` takes Enter only inside a dialog (its auto-default); on the app's screens —
the start screen, the lobby, the replay viewer — it takes Space only, and Enter went on to
the screen, which did nothing with it. :func:`enter_presses_buttons` watches the screen's
push buttons: the one a plain Enter reaches is clicked (and the key goes no further, so a
line edit's Enter elsewhere on the screen presses no button).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPushButton, QWidget

_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def is_enter(event: QKeyEvent) -> bool:
    """A plain Enter, from the main keys or the keypad (Ctrl+Enter and the like are not)."""
    plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return plain and event.key() in _ENTER_KEYS


class _EnterPresses(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and isinstance(watched, QPushButton)
            and not watched.autoDefault()  # in a dialog Qt presses it already
            and watched.isEnabled()
            and is_enter(event)
        ):
            watched.click()
            return True
        return False


def enter_presses_buttons(screen: QWidget) -> None:
    """Make a plain Enter press each push button the screen holds now (call it once its
    widgets are made)."""
    presses = screen.findChild(_EnterPresses)
    if presses is None:
        presses = _EnterPresses(screen)
    for button in screen.findChildren(QPushButton):
        button.removeEventFilter(presses)
        button.installEventFilter(presses)
