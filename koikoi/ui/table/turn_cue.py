"""The visible "your turn" cue (issue 22): when the local player's turn starts, the prompt line
(the table's turn banner) lights up. What is heard is the narration's: its "Your turn: …" line
(the log and screen readers, once a turn) and its sound (:mod:`koikoi.ui.sound`), so the cue
says nothing more. The light stays while the player acts (the
card played, the drawn card, the choice, the koikoi call) and goes out when the turn passes.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QWidget

from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode

ACTING = (Mode.PLAY, Mode.PICK, Mode.DRAW_WAIT, Mode.DECIDE)
"""The modes of the local player's own turn."""


class TurnCue(QObject):
    """Lights ``prompt`` (its ``yourTurn`` property, styled) during the local player's turn."""

    def __init__(self, controller: GameController, prompt: QLabel, parent: QWidget) -> None:
        super().__init__(parent)
        self.controller = controller
        self.prompt = prompt
        self.turns = 0
        """How many of the local player's turns were lit."""
        self.lit = False
        controller.mode_changed.connect(self._mode_changed)

    def _mode_changed(self, mode: Mode) -> None:
        lit = mode in ACTING
        if mode is Mode.PLAY and not self.lit:  # a turn starts (each turn starts by playing)
            self.turns += 1
        if lit != self.lit:
            self.lit = lit
            self.prompt.setProperty("yourTurn", lit)
            style = self.prompt.style()
            style.unpolish(self.prompt)
            style.polish(self.prompt)
