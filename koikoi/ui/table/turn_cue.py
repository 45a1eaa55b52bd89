"""The visible "your turn" cue (issue 22): when the local player's turn starts, the prompt line
(the table's turn banner) lights up and a screen reader hears "Your turn." once; the sound
(:mod:`koikoi.ui.sound`) is the narration's. The light stays while the player acts (the
card played, the drawn card, the choice, the koikoi call) and goes out when the turn passes.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QLabel, QWidget

from koikoi.ui.common.accessible import announce
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode

ACTING = (Mode.PLAY, Mode.PICK, Mode.DRAW_WAIT, Mode.DECIDE)
"""The modes of the local player's own turn."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("TurnCue", text)


class TurnCue(QObject):
    """Lights ``prompt`` (its ``yourTurn`` property, styled) during the local player's turn
    and says "Your turn." once as each turn starts."""

    def __init__(self, controller: GameController, prompt: QLabel, speaker: QWidget) -> None:
        super().__init__(speaker)
        self.controller = controller
        self.prompt = prompt
        self.speaker = speaker
        self.spoken = 0
        """How many turns were said ("Your turn."), one for each turn."""
        self.lit = False
        controller.mode_changed.connect(self._mode_changed)

    @property
    def words(self) -> str:
        return _tr("Your turn.")

    def _mode_changed(self, mode: Mode) -> None:
        lit = mode in ACTING
        if mode is Mode.PLAY and not self.lit:  # a turn starts (each turn starts by playing)
            self.spoken += 1
            announce(self.speaker, self.words)
        if lit != self.lit:
            self.lit = lit
            self.prompt.setProperty("yourTurn", lit)
            style = self.prompt.style()
            style.unpolish(self.prompt)
            style.polish(self.prompt)
