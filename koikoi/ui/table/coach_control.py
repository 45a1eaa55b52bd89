"""The table's hint in practice: a button under the log, beside undo's, and the H key.

A press asks the coach (:class:`koikoi.ui.match.coach.CoachRunner`) about the player's
move; the answer glows on the best card (green) and is said in the log, the status line and
to screen readers: the move, its win chance and reasons, the next two moves. Nothing is
shown until asked. The button is shown in practice only (a network match has no coach) and
enabled while the table waits for the player's move or koikoi decision. A hint marks the
match as played with help (:func:`koikoi.ui.match.coach.mark_hinted`).
"""

from __future__ import annotations

import random
import secrets

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QPushButton, QWidget

from koikoi.ai.coach import Advice, card_of
from koikoi.engine.match import Observation
from koikoi.ui.common.signals import emit
from koikoi.ui.match.coach import HINT_MODES, CoachRunner, hint_text, mark_hinted
from koikoi.ui.match.controller import GameController
from koikoi.ui.table.game_screen import GameScreen

KEY = "H"


class CoachControl(QObject):
    """The hint button in ``screen``'s side column, and H on the game screen."""

    def __init__(
        self,
        screen: GameScreen,
        controller: GameController,
        beside: QWidget | None = None,
        in_process: bool = True,
    ) -> None:
        super().__init__(screen)
        self.screen = screen
        self.controller = controller
        self.runner = CoachRunner(self, in_process=in_process)
        self.runner.advised.connect(self._advised)
        self.last: list[Advice] = []
        """The ranking of the hint shown last (best first)."""
        self.button = QPushButton(self.tr("Hint ({0})").format(KEY))
        self.button.setObjectName("smallButton")
        self.button.setStyleSheet(
            "QPushButton:disabled { color: #b8ab90; border: 1px dashed #7d6a45; }"
        )
        self.button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.button.setToolTip(self.tr("What the coach would play, and why ({0})").format(KEY))
        self.button.setAccessibleName(
            self.tr("Hint: what the coach would play, and why ({0})").format(KEY)
        )
        self.button.clicked.connect(self.ask)
        side = screen.side
        layout = side.layout()
        assert isinstance(layout, QBoxLayout)
        if beside is not None and layout.indexOf(beside) >= 0:
            # one row with undo: a 640-pixel window's column has no height for two
            row = QHBoxLayout()
            row.setSpacing(6)
            layout.insertLayout(layout.indexOf(beside), row)
            layout.removeWidget(beside)
            row.addWidget(beside)
            row.addWidget(self.button)
        else:
            layout.insertWidget(layout.indexOf(side.abandon_button), self.button)
        screen.on_hint = self.ask  # H, in the table's keyboard scheme (koikoi/ui/common/keys.py)
        controller.mode_changed.connect(self._moved_on)
        controller.state_changed.connect(self.refresh)
        self.refresh()

    def available(self) -> bool:
        c = self.controller
        return not c.network and c.mode in HINT_MODES and c.observation() is not None

    def refresh(self, *_: object) -> None:
        self.button.setVisible(not self.controller.network)
        self.button.setEnabled(self.available() and self.runner.asked is None)

    def ask(self) -> bool:
        """Ask for a hint on the move the table waits for; False when there is none to give."""
        if not self.available() or self.runner.asked is not None:
            return False
        obs = self.controller.observation()
        assert obs is not None
        emit(self.controller.said, self.tr("Hint: the coach is thinking…"))
        self.runner.ask(obs, random.Random(secrets.randbits(64)))
        self.refresh()
        return True

    def _advised(self, obs: Observation, ranked: list[Advice]) -> None:
        self.runner.asked = None
        if not ranked or obs != self.controller.observation() or not self.available():
            self.refresh()  # the table moved on meanwhile: that hint is of another move
            return
        self.last = ranked
        mark_hinted(self.controller)
        self.screen.hinted = card_of(ranked[0].action)
        self.screen.update_glows()
        text = hint_text(ranked, obs)
        self.screen.show_decision_hint(text)
        emit(self.controller.said, text)
        self.refresh()

    def _moved_on(self, *_: object) -> None:
        """A move or a new turn: the hint shown was of the one before."""
        self.runner.cancel()
        if self.screen.hinted is not None:
            self.screen.hinted = None
            self.screen.update_glows()
        self.refresh()
