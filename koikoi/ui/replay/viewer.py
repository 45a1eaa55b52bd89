"""The replay viewer: a recorded match shown move by move on the live table's widgets.

Read-only. Each step's table is rebuilt from the engine's events
(:func:`koikoi.ui.replay.history.steps_of` replayed the record through ``Match.apply``) into a
:class:`~koikoi.ui.table.table_model.TableModel`, shown by a
:class:`~koikoi.ui.table.table.TableView`, so a card sits where the live table put it; a
step forward by one is animated as the live table animates it. Both hands open, or either
seat's view with the other hand face down. The narration is the live table's
(:meth:`GameController.describe`), said to screen readers as it is there; the score column
is the live one's :class:`SeatBox` fed the step's observation. A network record shows what
``koikoi verify`` says of it.

Keys: ← → a move, Home / End the deal's start and end, PgUp / PgDn the previous and next
deal.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as _field
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.cards import Card, card_list
from koikoi.engine.events import Dealt, DecisionNeeded, Event, RoundEnded, TurnStarted
from koikoi.engine.match import Observation
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import RecordError, loads
from koikoi.ui.common import names
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.art import CardArt
from koikoi.ui.common.enter import enter_presses_buttons
from koikoi.ui.match.controller import GameController
from koikoi.ui.net.neterrors import move_problem
from koikoi.ui.replay.history import Replayed, Step, Verdict
from koikoi.ui.table.score_column import SeatBox, game_log, round_box, rules_line
from koikoi.ui.table.table import TableView
from koikoi.ui.table.table_model import Key, TableModel

logger = logging.getLogger(__name__)

_CONTROLS_STYLE: Final = """
QComboBox { background: #2a1e18; color: #f3e9d2; border: 1px solid #d4a84b;
  border-radius: 6px; padding: 3px 10px; min-width: 9em; }
QComboBox:focus { border-color: #7fd3ff; }
QComboBox:disabled { color: #8c7f68; }
QComboBox QAbstractItemView { background: #2a1e18; color: #f3e9d2;
  selection-background-color: #6b5324; }
QPushButton:disabled { color: #8c7f68; }
"""

OPEN: Final = -1
"""The view choice "both hands open" (otherwise the seat whose view is shown)."""


@dataclass
class OpenTableModel(TableModel):
    """The table model with the opponent's hand known: ``open_hand`` follows the engine's
    events as the hand does; the opponent's face-down keys are kept as well, so the model
    checks against an observation as the live one does."""

    show_open: bool = False
    open_hand: list[Card] = _field(default_factory=list)
    """The opponent's cards, in card order."""

    def apply(self, event: Event, human: int | None = None) -> None:
        super().apply(event, human)
        if isinstance(event, Dealt):
            self.open_hand = card_list(event.hands[1 - self.me])

    def play(self, seat: int, card: Card) -> str | None:
        back = super().play(seat, card)
        if seat != self.me and card in self.open_hand:
            self.open_hand.remove(card)
            if self.show_open:
                return None  # the card's own widget moves: no face-down card turns into it
        return back


class ReplayTable(TableView):
    """The live table, with the opponent's hand face up when both hands are open."""

    def targets(self) -> dict[Key, tuple[QRect, bool, str]]:
        out = super().targets()
        model = self.model
        if isinstance(model, OpenTableModel) and model.show_open:
            places = [out.pop(key) for key in model.opponent]
            for card, (rect, _face_up, where) in zip(model.open_hand, places, strict=True):
                out[card] = (rect, True, where)
        return out

    def show_model(self, model: TableModel) -> None:
        """Show ``model`` at once (no animation). A card keeps its widget (and its keyboard
        focus) where it stays on the table; a card's key says its face (a card id is face
        up, a face-down card has a string key), so a kept widget shows the right side."""
        self.finish_animation()
        self.lifted = None
        self.model = model
        self.snap()
        self.refresh_glows()


class _Recorded:
    """The other seat of a recorded match, for the narration: it is never asked to move."""

    def __init__(self, name: str | None) -> None:
        self.name = name

    def ask(self, obs: Observation) -> None:
        """A record's moves are all there."""

    def shutdown(self) -> None:
        """Nothing runs."""


class ReplayViewer(QWidget):
    """A recorded match: the table, the score column, the narration and the controls."""

    def __init__(
        self,
        replayed: Replayed,
        name: str,
        verdict: Verdict | None = None,
        art: CardArt | None = None,
        parent: QWidget | None = None,
        anim_scale: float = 1.0,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("replayViewer")
        self.replayed = replayed
        self.verdict = verdict
        self.index = 0
        self.seat = replayed.owner
        """The seat shown at the bottom."""
        self.open = True
        self.narrator = GameController(parent=self)  # the live table's narration, reused
        self.narrator.me = replayed.owner
        self.narrator.opponent = _Recorded(replayed.opponent)
        self._lines = [self._said(step) for step in replayed.steps]
        self._queue: list[Event] = []
        self._pump_timer = QTimer(self)
        self._pump_timer.setSingleShot(True)
        self._pump_timer.timeout.connect(self._pump)

        self.setWindowTitle(self._title_text(name))
        self.setAccessibleName(self._title_text(name))
        self.table = ReplayTable(art, self)
        self.table.anim_scale = anim_scale
        self.table.opponent_name = replayed.opponent

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self._header(name))
        middle = QHBoxLayout()
        middle.setSpacing(0)
        middle.addWidget(self.table, 1)
        middle.addWidget(self._column())
        outer.addLayout(middle, 1)
        outer.addWidget(self._controls())
        self._keys()
        enter_presses_buttons(self)  # Enter presses the focused button, as Space does
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(960, 640)  # as the main window; its labels never resize it
        self.go(0)

    # -- building ----------------------------------------------------------------------------

    def _header(self, name: str) -> QFrame:
        bar = QFrame()
        bar.setObjectName("side")
        lay = QVBoxLayout(bar)
        lay.setContentsMargins(14, 8, 14, 8)
        lay.setSpacing(2)
        self.title = QLabel(self._title_text(name))
        self.title.setObjectName("roundLabel")
        self.title.setAccessibleName(self.title.text())
        lay.addWidget(self.title)
        self.verified = QLabel(self._verdict_text())
        self.verified.setObjectName("multiplier")
        self.verified.setWordWrap(True)
        self.verified.setTextFormat(Qt.TextFormat.PlainText)
        self.verified.setAccessibleName(self.verified.text())
        self.verified.setVisible(self.verdict is not None)
        lay.addWidget(self.verified)
        self.note = QLabel()
        """The coach's word on the move shown (a round's review opened here), else hidden."""
        self.note.setObjectName("coachHint")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.hide()
        lay.addWidget(self.note)
        return bar

    def show_note(self, text: str) -> None:
        """The coach's word on the position shown, under the title."""
        self.note.setText(text)
        self.note.setAccessibleName(text)
        self.note.show()

    def _title_text(self, name: str) -> str:
        """'Replay · Practice vs hard · 32–18 · finished · NAME' (the player's points first)."""
        r = self.replayed
        you, them = r.scores[r.owner], r.scores[1 - r.owner]
        if r.opponent is not None:
            kind = self.tr("Network game vs {0}").format(r.opponent)
        elif r.level is not None:
            kind = self.tr("Practice vs {0}").format(names.level_name(r.level, True))
        else:
            kind = self.tr("A recorded match")
        state = self.tr("finished") if r.finished else self.tr("unfinished")
        return self.tr("Replay · {0} · {1}–{2} · {3} · {4}").format(kind, you, them, state, name)

    def _verdict_text(self) -> str:
        v = self.verdict
        if v is None:
            return ""
        if v.ok:
            return self.tr("Signed record: signatures, hashes and moves check.")
        return self.tr("Signed record does not check: {0}").format(move_problem(v.reason))

    def _column(self) -> QFrame:
        side = QFrame()
        side.setObjectName("side")
        side.setFixedWidth(300)
        lay = QVBoxLayout(side)
        lay.setContentsMargins(12, 12, 12, 12)
        lay.setSpacing(10)
        self.them_box = SeatBox("", 1 - self.seat)
        lay.addWidget(self.them_box)
        self.position = rules_line()
        self.where = rules_line(wrap=True)
        mid, self.round, self.multiplier = round_box(self.position, self.where)
        lay.addWidget(mid)
        self.log = game_log(self.tr("What happened"))
        lay.addWidget(self.log, 1)
        self.me_box = SeatBox("", self.seat)
        lay.addWidget(self.me_box)
        return side

    def _controls(self) -> QFrame:
        bar = QFrame()
        bar.setObjectName("side")
        lay = QHBoxLayout(bar)
        lay.setContentsMargins(12, 8, 12, 8)
        lay.setSpacing(6)

        def button(text: str, name: str, action: Callable[[], None]) -> QPushButton:
            b = QPushButton(text)
            b.setObjectName("smallButton")
            b.setAccessibleName(name)
            b.setToolTip(name)
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            b.clicked.connect(action)
            lay.addWidget(b)
            return b

        self.prev_deal_button = button(
            self.tr("◀◀ Deal"), self.tr("Previous deal (Page Up)"), self.previous_deal
        )
        self.start_button = button(
            self.tr("⇤ Start"), self.tr("Start of the deal (Home)"), self.deal_start
        )
        self.back_button = button(self.tr("◀ Back"), self.tr("Back one move (Left)"), self.back)
        self.forward_button = button(
            self.tr("Forward ▶"), self.tr("Forward one move (Right)"), self.forward
        )
        self.end_button = button(self.tr("End ⇥"), self.tr("End of the deal (End)"), self.deal_end)
        self.next_deal_button = button(
            self.tr("Deal ▶▶"), self.tr("Next deal (Page Down)"), self.next_deal
        )
        self.deals = QComboBox()
        self.deals.setAccessibleName(self.tr("Jump to a deal"))
        self.deals.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        for d in range(len(self.replayed.deal_starts)):
            self.deals.addItem(self._deal_title(d))
        self.deals.activated.connect(lambda d: self.go(self.replayed.deal_starts[d]))
        lay.addWidget(self.deals)
        lay.addStretch(1)
        self.view_choice = QComboBox()
        self.view_choice.setAccessibleName(self.tr("Hands shown"))
        self.view_choice.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.view_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        owner = self.replayed.owner
        other = self.replayed.opponent
        self.view_choice.addItem(self.tr("Both hands open"), OPEN)
        self.view_choice.addItem(self.tr("As you saw it"), owner)
        self.view_choice.addItem(
            self.tr("As the computer saw it")
            if other is None
            else self.tr("As {0} saw it").format(other),
            1 - owner,
        )
        self.view_choice.currentIndexChanged.connect(
            lambda i: self.set_view(int(self.view_choice.itemData(i)))
        )
        lay.addWidget(self.view_choice)
        bar.setStyleSheet(_CONTROLS_STYLE)
        return bar

    def _deal_title(self, deal: int) -> str:
        r = self.replayed
        round_no = r.round_of(deal)
        same_round = [d for d in range(len(r.deal_starts)) if r.round_of(d) == round_no]
        if len(same_round) > 1:  # dealt again (R4.2): the round's deals are numbered
            return self.tr("Round {0}, deal {1}").format(round_no, same_round.index(deal) + 1)
        return self.tr("Round {0}").format(round_no)

    def _keys(self) -> None:
        """The six keys work wherever the focus is in the viewer: on a combo box or the log
        too, which would otherwise take them for their own list or text."""
        self._key_actions: dict[int, Callable[[], None]] = {
            Qt.Key.Key_Right: self.forward,
            Qt.Key.Key_Left: self.back,
            Qt.Key.Key_Home: self.deal_start,
            Qt.Key.Key_End: self.deal_end,
            Qt.Key.Key_PageUp: self.previous_deal,
            Qt.Key.Key_PageDown: self.next_deal,
        }
        for child in [*self.findChildren(QComboBox), *self.findChildren(QPushButton), self.log]:
            child.installEventFilter(self)

    def handle_key(self, key: int) -> bool:
        """Carry out a viewer key; False when it is not one."""
        action = self._key_actions.get(key)
        if action is None:
            return False
        action()
        return True

    def closes(self, event: QKeyEvent) -> bool:
        """Esc or Ctrl+W (the platform's Close keys) close the viewer's window, wherever its
        focus is."""
        plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if (plain and event.key() == Qt.Key.Key_Escape) or event.matches(
            QKeySequence.StandardKey.Close
        ):
            self.close()
            return True
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.closes(event):
            return
        if not self.handle_key(event.key()):
            super().keyPressEvent(event)

    def _scroll_log(self) -> None:
        """The newest line in sight (after a step, and after the log changed size)."""
        bar = self.log.verticalScrollBar()
        bar.setValue(bar.maximum())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.log and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self._scroll_log)
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if self.closes(event):
                return True
            if not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                return self.handle_key(event.key())
        return False

    # -- narration ---------------------------------------------------------------------------

    def _said(self, step: Step) -> list[str]:
        """The live table's lines for a step, less its prompts to the player (a key to
        press, "your turn"): a replay asks for nothing."""
        lines = []
        for event in step.events:
            if isinstance(event, DecisionNeeded | TurnStarted) and event.seat == self.narrator.me:
                continue
            text = self.narrator.describe(event)
            if text:
                lines.append(text)
        return lines

    def said(self, index: int | None = None) -> list[str]:
        """What a step says (by default the one shown)."""
        return self._lines[self.index if index is None else index]

    # -- moving ------------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.replayed.steps[self.index]

    @property
    def last(self) -> int:
        return len(self.replayed.steps) - 1

    def forward(self) -> None:
        self.go(self.index + 1, animate=True)

    def back(self) -> None:
        self.go(self.index - 1)

    def deal_start(self) -> None:
        self.go(self.replayed.deal_starts[self.step.deal])

    def deal_end(self) -> None:
        self.go(self.replayed.deal_end(self.step.deal))

    def previous_deal(self) -> None:
        deal = self.step.deal
        start = self.replayed.deal_starts[deal]
        # as a player expects: from inside a deal, its start; from its start, the one before
        target = deal if self.index > start else max(0, deal - 1)
        self.go(self.replayed.deal_starts[target])

    def next_deal(self) -> None:
        deal = self.step.deal
        if deal + 1 < len(self.replayed.deal_starts):
            self.go(self.replayed.deal_starts[deal + 1])
        else:
            self.go(self.last)

    def go_to_deal(self, deal: int) -> None:
        """The start of a deal (its layout)."""
        self.go(self.replayed.deal_starts[deal])

    def set_view(self, choice: int) -> None:
        """``OPEN`` for both hands open, or a seat: that seat's view, the other hand hidden."""
        if choice == OPEN:
            self.seat, self.open = self.replayed.owner, True
        else:
            self.seat, self.open = choice, False
        i = self.view_choice.findData(choice)
        if i != self.view_choice.currentIndex():
            self.view_choice.setCurrentIndex(i)
        self.go(self.index)

    def view(self, deal: int) -> tuple[int, bool]:
        """The seat shown at the bottom and whether both hands are open, for ``deal``: the
        view chosen, but a deal the record keeps sealed (private dealing, never audited) is
        shown only as its writer saw it, the other hand face down: the record holds
        stand-ins for the cards its writer never saw."""
        if deal in self.replayed.sealed:
            return self.replayed.owner, False
        return self.seat, self.open

    def go(self, index: int, animate: bool = False) -> None:
        """Show step ``index`` (clamped); ``animate`` plays a single step forward as the live
        table plays it."""
        if not self.replayed.steps:
            self._refresh_empty()
            return
        index = max(0, min(index, self.last))
        before = self.index
        if self._pump_timer.isActive() or self._queue:  # a step was being animated: finish it
            self._pump_timer.stop()
            self._queue.clear()
            self.table.show_model(self.model_at(before))
        step = self.replayed.steps[index]
        seat, both = self.view(step.deal)
        moving = (
            animate
            and index == before + 1
            and self.table.anim_scale > 0
            and self.isVisible()
            and step.action is not None
            and isinstance(self.table.model, OpenTableModel)
            and self.table.model.me == seat
            and self.table.model.show_open == both
        )
        self.index = index
        if moving:
            self._queue = list(step.events)
            self._pump()
        else:
            self.table.show_model(self.model_at(index))
        self._refresh()
        text = " ".join(self.said())
        if text and index != before:
            announce(self, text)

    def model_at(self, index: int) -> OpenTableModel:
        """The table at step ``index``, from the events of its deal up to there."""
        deal = self.replayed.steps[index].deal
        seat, both = self.view(deal)
        model = OpenTableModel(me=seat, show_open=both)
        for step in self.replayed.steps[self.replayed.deal_starts[deal] : index + 1]:
            for event in step.events:
                model.apply(event)
        return model

    def _pump(self) -> None:
        while self._queue:
            ms = self.table.present(self._queue.pop(0))
            if ms > 0:
                self._pump_timer.start(ms)
                return

    @property
    def animating(self) -> bool:
        return self._pump_timer.isActive() or bool(self._queue)

    # -- what the column and the controls say -------------------------------------------------

    def _refresh(self) -> None:
        r = self.replayed
        step = self.step
        seat, _both = self.view(step.deal)
        obs = step.observations[seat]
        me, them = seat, 1 - seat
        owner = r.owner
        names = {
            owner: self.tr("あなた You"),
            1 - owner: self.tr("コンピューター Computer") if r.opponent is None else r.opponent,
        }
        self.me_box.seat, self.them_box.seat = me, them
        self.me_box.name.setText(names[me])
        self.them_box.name.setText(names[them])
        for box, seat in ((self.me_box, me), (self.them_box, them)):
            box.refresh(
                obs.scores[seat], obs.oya == seat, obs.koikoi_calls[seat], obs.captured[seat]
            )
        # the deal's round: once a round ends, the match already counts the next one
        round_no = r.round_of(step.deal)
        self.round.setText(self.tr("Round {0} of {1}").format(round_no, r.settings.rounds))
        self.multiplier.setText(
            self.tr("Multiplier ×{0} · koikoi calls: {1}").format(
                obs.koikoi_count + 1, obs.koikoi_count
            )
        )
        where = self._outcome_text(step)
        if step.deal in r.sealed:
            sealed = self.tr("Dealt privately, never shown: only your view of this deal is known.")
            where = f"{sealed} {where}".strip()
        self.where.setText(where)
        deal_start = r.deal_starts[step.deal]
        self.position.setText(
            self.tr("Deal {0} of {1} · move {2} of {3}").format(
                step.deal + 1,
                len(r.deal_starts),
                self.index - deal_start,
                r.deal_end(step.deal) - deal_start,
            )
        )
        self.position.setAccessibleName(self.position.text())
        if self.deals.currentIndex() != step.deal:
            self.deals.setCurrentIndex(step.deal)
        lines = [line for i in range(deal_start, self.index + 1) for line in self._lines[i]]
        self.log.setPlainText("\n".join(lines))
        self.log.moveCursor(QTextCursor.MoveOperation.End)
        self._scroll_log()
        QTimer.singleShot(0, self._scroll_log)  # again once the column is laid out
        self.back_button.setEnabled(self.index > 0)
        self.start_button.setEnabled(self.index > deal_start)
        self.prev_deal_button.setEnabled(self.index > 0)
        self.forward_button.setEnabled(self.index < self.last)
        self.end_button.setEnabled(self.index < r.deal_end(step.deal))
        self.next_deal_button.setEnabled(self.index < self.last)

    def _refresh_empty(self) -> None:
        """A record of no deal (a network match that ended before its first)."""
        self.round.setText(self.tr("No deal was played."))
        self.position.setText("")
        for b in (
            self.prev_deal_button,
            self.start_button,
            self.back_button,
            self.forward_button,
            self.end_button,
            self.next_deal_button,
        ):
            b.setEnabled(False)
        self.deals.setEnabled(False)
        self.view_choice.setEnabled(False)

    def _outcome_text(self, step: Step) -> str:
        """How the deal ended, once the step ends it."""
        for event in step.events:
            if isinstance(event, RoundEnded):
                outcome = event.result.outcome
                return {
                    Outcome.WIN: self.tr("The round is won."),
                    Outcome.TEYAKU: self.tr("A dealt-hand yaku (teyaku) ends the round."),
                    Outcome.NAGARE: self.tr("The round is a draw (nagare)."),
                    Outcome.REDEAL: self.tr("Dealt again: four cards of one month."),
                }[outcome]
        if step.implied:
            return self.tr("The record leaves the last turn's shobu unwritten.")
        return ""

    # -- checks (the smoke test and the tests) -----------------------------------------------

    def check(self) -> list[str]:
        """Differences between the table shown and the engine's observation for the seat
        shown (and the other seat's hand, when both are open); empty when right."""
        step = self.step
        seat, both = self.view(step.deal)
        obs = step.observations[seat]
        model = self.table.model
        problems = model.check_against(obs)
        hidden = [w for w in self.table.widgets.values() if w.isVisible() and not w.face_up]
        if both:
            other = step.observations[1 - seat].hand
            if (
                not isinstance(model, OpenTableModel)
                or sum(1 << c for c in model.open_hand) != other
            ):
                problems.append("open hand")
            shown = {w.card for w in self.table.widgets.values() if w.isVisible() and w.face_up}
            if any(c not in shown for c in card_list(other)):
                problems.append("open hand not face up")
            if hidden:
                problems.append("face-down cards while both hands are open")
        elif len(hidden) != obs.opponent_hand_size:
            problems.append("face-down cards")
        if self.me_box.stake_points != obs.scores[seat]:
            problems.append("score")
        return problems


class ViewError(ValueError):
    """A record the viewer cannot show; the message is one line for the player."""


def open_record(
    path: Path, art: CardArt | None = None, parent: QWidget | None = None, anim_scale: float = 1.0
) -> ReplayViewer:
    """A viewer window on the record at ``path`` (the start screen's history): read,
    replayed through the engine and, for a network game, verified. A file that cannot be
    read or replayed raises :class:`ViewError`; the file itself is left as it is."""
    from koikoi.ui.replay.history import steps_of, verdict_of

    try:
        data = loads(path.read_text(encoding="utf-8"))
        replayed = steps_of(data, path)
    except (OSError, UnicodeDecodeError, RecordError) as exc:
        raise ViewError(f"{path.name}: {exc}") from None
    viewer = ReplayViewer(replayed, path.name, verdict_of(data), art, parent, anim_scale)
    viewer.setWindowFlag(Qt.WindowType.Window)
    viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return viewer


def smoke_test_steps(viewer: ReplayViewer) -> list[str]:
    """Step by the keys from the first move to the last and back, in each view, checking
    every step's table against the engine; the problems found (empty: all is well)."""
    from PySide6.QtTest import QTest

    problems: list[str] = []
    r = viewer.replayed
    if not r.steps:
        return problems
    for choice in (OPEN, r.owner, 1 - r.owner):
        viewer.set_view(choice)
        viewer.go(0)
        for key, stop in ((Qt.Key.Key_Right, viewer.last), (Qt.Key.Key_Left, 0)):
            while True:
                found = viewer.check()
                if found:
                    where = f"step {viewer.index} (view {choice})"
                    problems.append(f"{where}: {', '.join(found)}")
                if viewer.index == stop:
                    break
                before = viewer.index
                QTest.keyClick(viewer, key)
                if viewer.index == before:
                    problems.append(f"step {before}: the {key.name} key did not move")
                    break
    return problems


def run_viewer(
    app: QApplication, data: dict[str, Any], replayed: Replayed, name: str, smoke_test: bool
) -> int:
    """The viewer as ``koikoi view`` runs it, until its window closes; with ``smoke_test``
    (offscreen, no animation) every step is checked forward and back: 0 when all match."""
    from koikoi.ui.common.style import apply_style
    from koikoi.ui.quitting import quit_on_signals
    from koikoi.ui.replay.history import verdict_of

    window = ReplayViewer(replayed, name, verdict_of(data), anim_scale=0.0 if smoke_test else 1.0)
    apply_style(window)
    window.resize(1280, 800)
    window.show()
    if not smoke_test:
        with quit_on_signals(app, app.closeAllWindows):
            return app.exec()
    errors: list[str] = []
    catcher = _ErrorLines(errors)
    logging.getLogger("koikoi").addHandler(catcher)
    started = time.monotonic()
    try:
        problems = smoke_test_steps(window) + errors
    finally:
        logging.getLogger("koikoi").removeHandler(catcher)
    window.close()
    if problems:
        print(f"koikoi: view smoke test failed: {problems[0]}", file=sys.stderr)
        return 1
    print(
        f"koikoi: view smoke test passed: {len(replayed.steps)} steps forward and back in "
        f"3 views in {time.monotonic() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


class _ErrorLines(logging.Handler):
    """Keeps the message of every error logged while the smoke test runs."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
