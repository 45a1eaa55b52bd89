"""The table's hint in practice: a button under the log, beside undo's, and the H key.

A press asks the coach (:class:`koikoi.ui.match.coach.CoachRunner`) about the player's
move; the answer glows on the best card (green) and is said in the log, the status line and
to screen readers: the move, its win chance and reasons, the next two moves. Nothing is
shown until asked. The button is shown in practice only (a network match has no coach) and
enabled while the table waits for the player's move or koikoi decision (whose panel shows
the hint too: it covers the log). A hint marks the match as played with help
(:func:`koikoi.ui.match.coach.mark_hinted`).

A practice round's result offers the coach's review: the player's choices of the round
weighed (:func:`koikoi.ai.coach.review`), the costliest three said in words, each with a Show
button that opens the replay viewer at that position, the coach's line under its title.
Both are drawn from the match seed and the position, as the computer's decisions are.
"""

from __future__ import annotations

import hashlib
import random
from functools import partial

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from koikoi.ai.coach import LEAST_COST, Advice, Mistake, card_of
from koikoi.engine.match import Observation
from koikoi.ui.common.signals import emit
from koikoi.ui.match.coach import (
    HINT_MODES,
    CoachRunner,
    hint_text,
    mark_hinted,
    mistake_text,
    percent,
    round_choices,
)
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode
from koikoi.ui.replay.history import steps_of
from koikoi.ui.replay.viewer import ReplayViewer
from koikoi.ui.table.game_screen import GameScreen
from koikoi.ui.table.panels import RoundResultPanel

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
        screen.on_round_result = self._offer_review
        self.runner.reviewed.connect(self._reviewed)
        self.viewers: list[ReplayViewer] = []
        """The replay viewers a review opened (open until closed)."""
        self._review: tuple[QVBoxLayout, QPushButton, list[int]] | None = None
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
        self.runner.ask(obs, self._rng("hint"))
        self.refresh()
        return True

    def _rng(self, job: str) -> random.Random:
        """Reproducible, as the computer's decisions are: the match seed and where in the
        record the player is (a hint asked again at the same point says the same)."""
        c = self.controller
        record = c.record
        where = f"{len(record.deals)}:{len(record.deals[-1].actions)}" if record else "-"
        digest = hashlib.sha256(c.seed + f"/coach/{job}/{where}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

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
        """A move or a new turn: the hint shown was of the one before (and a round's
        review, once its result is gone, is of a round over)."""
        self.runner.cancel()
        if self.controller.mode is not Mode.ROUND_OVER:
            self._review = None
        if self.screen.hinted is not None:
            self.screen.hinted = None
            self.screen.update_glows()
        self.refresh()

    # -- the round's review --------------------------------------------------------------------

    def _offer_review(self, panel: RoundResultPanel) -> None:
        """A practice round's result offers the coach's review of the player's choices."""
        self._review = None
        if self.controller.network:
            return
        strip = QWidget()
        strip.setObjectName("coachReview")
        column = QVBoxLayout(strip)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        button = QPushButton(self.tr("Review this round with the coach"))
        button.setObjectName("smallButton")
        button.setAccessibleName(
            self.tr("Review this round: the choices that cost you the most win chance")
        )
        button.clicked.connect(self.review)
        column.addWidget(button)
        panel.add_above_buttons(strip)
        self._review = (column, button, [])

    def review(self) -> bool:
        """Weigh the player's choices of the round just over; False when there is nothing
        to review (no round result up, or no choice made)."""
        if self._review is None or self.runner.asked is not None:
            return False
        column, button, where = self._review
        choices, where[:] = round_choices(self.controller)
        if not choices:
            self._line(self.tr("You had no choice to make this round."))
            button.setEnabled(False)
            return False
        button.setEnabled(False)
        button.setText(self.tr("The coach is looking at your choices…"))
        emit(self.controller.said, button.text())
        self.runner.review(choices, self._rng("review"))
        return True

    def _reviewed(self, choices: object, mistakes: list[Mistake]) -> None:
        self.runner.asked = None
        if self._review is None:
            return
        column, button, where = self._review
        button.hide()
        if not mistakes:
            self._line(
                self.tr(
                    "The coach would have chosen as you did: no choice cost {0} or more."
                ).format(percent(LEAST_COST))
            )
            return
        for number, mistake in enumerate(mistakes, 1):
            text = mistake_text(number, mistake)
            row = QHBoxLayout()
            label = self._line(text, row)
            label.setObjectName("coachHint")
            show = QPushButton(self.tr("Show"))
            show.setObjectName("smallButton")
            show.setAccessibleName(self.tr("Show choice {0} in the replay").format(number))
            show.clicked.connect(partial(self.show_in_replay, where[mistake.choice], text))
            row.addWidget(show)
            column.addLayout(row)

    def _line(self, text: str, row: QHBoxLayout | None = None) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setAccessibleName(text)
        if row is not None:
            row.addWidget(label, 1)
        elif self._review is not None:
            self._review[0].addWidget(label)
        emit(self.controller.said, text)
        return label

    def show_in_replay(self, action: int, note: str) -> ReplayViewer | None:
        """The match so far in the replay viewer, at the position of the deal's ``action``
        (before it), with the coach's ``note``."""
        record = self.controller.record
        if record is None:
            return None
        data = record.to_json()
        replayed = steps_of(data)
        step = replayed.deal_starts[len(data["deals"]) - 1] + action
        name = self.tr("this match")
        viewer = ReplayViewer(replayed, name, None, self.screen.art, self.screen.window())
        viewer.setWindowFlag(Qt.WindowType.Window)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.destroyed.connect(lambda *_: self.viewers.remove(viewer))
        viewer.go(step)
        viewer.show_note(note)
        viewer.show()
        self.viewers.append(viewer)
        return viewer
