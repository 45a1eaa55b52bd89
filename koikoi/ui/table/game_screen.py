"""The screen of a match: the table, the score column, the panels, the mouse and the keys.

It is the controller's presenter (each engine event → :meth:`GameScreen.present`) and turns
clicks and keys into the controller's calls. The keyboard scheme itself (seed 000) is
:mod:`koikoi.ui.common.keys`; this screen names Qt's keys for it and carries out its commands.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from koikoi.engine.cards import Card, card_id, iter_cards
from koikoi.engine.events import (
    Dealt,
    Event,
)
from koikoi.engine.match import Observation
from koikoi.net.hello import Dealing
from koikoi.ui.common import keys, names
from koikoi.ui.common.accessible import announce
from koikoi.ui.common.art import CardArt
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import DecisionInfo, DrawWait, MatchSummary, Mode, RoundSummary
from koikoi.ui.table.banner import CallBanner
from koikoi.ui.table.card_widget import CardWidget
from koikoi.ui.table.clock_words import minutes, reconnecting, waiting_for, your_move
from koikoi.ui.table.overlay import Overlay
from koikoi.ui.table.panels import (
    DecisionPanel,
    FirstOyaPanel,
    MatchResultPanel,
    RoundResultPanel,
    TossPanel,
    panels_ahead,
)
from koikoi.ui.table.score_column import SidePanel
from koikoi.ui.table.spoken import ticking_prompt_spoken
from koikoi.ui.table.table import MIN_WIDTH as TABLE_MIN_WIDTH
from koikoi.ui.table.table import TableView
from koikoi.ui.table.turn_cue import TurnCue

logger = logging.getLogger(__name__)

OVERLAY_MARGIN = 20
"""The overlay's room around its panel (see :meth:`Overlay._place`)."""
DECISION_WIDTH = 440
"""The koikoi panel's width where the window has room (its title then fits one line)."""

_PHASES = {
    Mode.PLAY: keys.Phase.PLAY,
    Mode.PICK: keys.Phase.PICK,
    Mode.DRAW_WAIT: keys.Phase.DRAW_WAIT,
    Mode.DECIDE: keys.Phase.DECIDE,
}


def _key_name(key: int) -> str:
    """Qt's name of a key without its ``Key_`` prefix ("Return", "Left", "1")."""
    try:
        return Qt.Key(key).name.removeprefix("Key_")
    except ValueError:
        return ""


class GameScreen(QWidget):
    """The table with its score column, panels, prompt line and keyboard scheme."""

    def __init__(self, controller: GameController, art: CardArt | None = None) -> None:
        super().__init__()
        self.setObjectName("gameScreen")
        self.controller = controller
        self.art = art if art is not None else CardArt()
        self.table = TableView(self.art, self)
        self.table.more_ahead = lambda: panels_ahead(self.art)  # built once, unseen
        self.table.other_sizes = lambda: [self._table_size_deciding()]
        self.side = SidePanel()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.side)
        self.prompt = QLabel(self.table)
        self.prompt.setObjectName("prompt")
        self.prompt.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.prompt.setAccessibleName(self.tr("Prompt"))
        self.banner = CallBanner(self.art, self, self.table)
        self.overlay = Overlay(self)
        self.selected: Card | None = None
        self.hinted: Card | None = None
        """The coach's best card while its hint stands (koikoi/ui/table/coach_control.py)."""
        self.hovered: Card | None = None
        self._draw_started = 0.0
        self._countdown = QTimer(self)
        self._countdown.setInterval(250)
        self._countdown.timeout.connect(self.update_prompt)
        self.on_home: Callable[[], None] = lambda: None
        self.on_rematch: Callable[[], None] = lambda: None
        self.on_match_result: Callable[[MatchResultPanel], None] = lambda _panel: None
        self.on_round_result: Callable[[RoundResultPanel], None] = lambda _panel: None
        """Called with the match's result panel as it is shown (the window adds the stamps
        of a network match to it)."""
        self.on_help: Callable[[], None] = lambda: None
        self.on_hint: Callable[[], bool] = lambda: False
        self.on_assist_changed: Callable[[bool], None] = lambda on: None

        self.table.on_card_clicked = self._card_clicked
        self.table.on_card_hovered = self._card_hovered
        self.table.on_stock_clicked = self._table_clicked
        self.table.installEventFilter(self)
        self.side.menu_button.clicked.connect(lambda: self.on_home())
        self.side.help_button.clicked.connect(lambda: self.on_help())
        self.side.assist.toggled.connect(self._assist_toggled)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

        c = controller
        c.presenter = self
        c.mode_changed.connect(self._mode_changed)
        self.turn_cue = TurnCue(c, self.prompt, self)
        c.first_oya.connect(self._show_first_oya)
        c.decision_needed.connect(self._show_decision)
        c.round_over.connect(self._show_round_result)
        c.match_over.connect(self._show_match_result)
        c.said.connect(self._said)
        c.state_changed.connect(self.refresh_side)
        c.draw_waiting.connect(self._draw_waiting)
        c.thinking.connect(self._thinking)
        c.tossed.connect(self._show_toss)
        c.clock_ticked.connect(self.update_prompt)
        self.side.abandon_button.clicked.connect(lambda: c.abandon())
        self._reconnecting_init()
        c.state_changed.connect(self._follow_link)

    # -- a network match whose connection dropped (docs/protocol.md, "Resume") ------------

    def _reconnecting_init(self) -> None:
        self.reconnecting = QLabel(self.table)
        self.reconnecting.setObjectName("reconnecting")
        self.reconnecting.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reconnecting.hide()
        self._reconnect_until = 0.0
        self._reconnect_timer = QTimer(self)
        self._reconnect_timer.setInterval(1000)
        self._reconnect_timer.timeout.connect(self._tick_reconnecting)
        self._followed: object = None

    def _follow_link(self) -> None:
        """Listen to the network match's link for a dropped connection, once per link."""
        remote = getattr(self.controller, "remote", None)
        link = getattr(remote, "link", None)
        if link is None or link is self._followed or not hasattr(link, "suspended"):
            return
        self._followed = link
        announce(self, self.controller.dealing_text())  # shown in the score column: not logged
        link.suspended.connect(self.show_reconnecting)
        link.resumed.connect(self.hide_reconnecting)
        link.ended.connect(self.hide_reconnecting)

    def show_reconnecting(self, seconds: float) -> None:
        """Show "reconnecting… 2:41", counting down until the match resumes or time is up."""
        self._reconnect_until = time.monotonic() + seconds
        self._tick_reconnecting()
        self.reconnecting.show()
        self.reconnecting.raise_()
        self._reconnect_timer.start()
        self.update_prompt()

    def hide_reconnecting(self, *_: object) -> None:
        self._reconnect_timer.stop()
        self.reconnecting.hide()
        self.update_prompt()

    def _tick_reconnecting(self) -> None:
        left = max(0, round(self._reconnect_until - time.monotonic()))
        clock = f"{left // 60}:{left % 60:02d}"
        self.reconnecting.setText(self.tr("reconnecting… %1").replace("%1", clock))
        self.reconnecting.adjustSize()
        width = self.table.width()
        self.reconnecting.move(max(0, (width - self.reconnecting.width()) // 2), 8)

    # -- settings ----------------------------------------------------------------------------

    def set_assist(self, on: bool) -> None:
        self.table.assist = on
        self.side.assist.blockSignals(True)
        self.side.assist.setChecked(on)
        self.side.assist.blockSignals(False)
        self.update_glows()

    def _assist_toggled(self, on: bool) -> None:
        self.set_assist(on)
        self.on_assist_changed(on)

    def set_anim_scale(self, scale: float) -> None:
        self.table.anim_scale = scale

    # -- the presenter -----------------------------------------------------------------------

    def sync_seat(self) -> None:
        """The table from the local player's seat, naming the opponent."""
        self.table.model.me = self.controller.me
        self.table.opponent_name = self.controller.opponent_name

    def present(self, event: Event, controller: GameController) -> int:
        if isinstance(event, Dealt):
            self._clear_overlay()
            self.selected = self.hovered = None
            self.sync_seat()
        ms = self.table.present(event)
        ms = max(ms, self.banner.present(event, controller))
        self.refresh_side()
        self.update_glows()
        self.update_prompt()
        return ms

    def restore(
        self,
        obs: Observation,
        controller: GameController,
        events: Sequence[Event] = (),
        *,
        keep_log: bool = False,
    ) -> None:
        self._clear_overlay()
        self.selected = self.hovered = None
        if not keep_log:
            self.side.clear_log()
        self.sync_seat()
        self.table.restore(obs, events)
        self.refresh_side()
        self.update_glows()
        self.update_prompt()

    def reset(self) -> None:
        """A new match: an empty table."""
        self._clear_overlay()
        self.banner.hide()
        self.sync_seat()
        self.table.clear()
        self.side.clear_log()
        self.selected = self.hovered = None
        self.refresh_side()
        self.update_prompt()

    # -- the controller's signals ------------------------------------------------------------

    def refresh_side(self) -> None:
        self.side.refresh(self.controller, self.table)

    def _said(self, text: str) -> None:
        self.side.add_line(text)
        announce(self, text)

    def _mode_changed(self, mode: Mode) -> None:
        if mode is not Mode.DECIDE and isinstance(self.overlay.panel, DecisionPanel):
            self._clear_overlay()  # decided: back to the table
            self._focus_table()
        if mode is not Mode.PLAY:
            self.selected = None
            self.table.set_lifted(None)
        if mode is not Mode.DRAW_WAIT:
            self._countdown.stop()
        if mode in (Mode.PLAY, Mode.PICK, Mode.DECIDE, Mode.ROUND_OVER):
            self._check_table()
        self.update_focus_policies()
        self.update_glows()
        self.update_prompt()
        if mode is Mode.PLAY:
            self._focus_hand(self.selected)
        elif mode is Mode.PICK:
            cands = self.controller.candidates()
            if cands:
                self._focus_card(cands[0])

    def _focus_table(self) -> None:
        """Give the keyboard back to the table (not to a button that happens to be next)."""
        if self.isVisible():
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _check_table(self) -> None:
        obs = self.controller.observation()
        if obs is None or not self.controller.in_step():
            return
        problems = self.table.model.check_against(obs)
        if problems:
            logger.error("the table shows something else than the engine: %s", ", ".join(problems))
            self.table.restore(obs)

    def _show_first_oya(self, first: object) -> None:
        self.reset()
        panel = FirstOyaPanel(self.art, first, self.controller.start_dealing)  # type: ignore[arg-type]
        self.overlay.show_panel(panel, dim=90)

    def _show_toss(self, toss: object) -> None:
        self.reset()
        c = self.controller
        deal = c.match.round if c.match is not None else None
        if deal is not None:  # the session dealt already: its cards are drawn while it spins
            shown = deal.hands[c.me] | deal.field
            self.table.sprites.prefer([card_id(card) for card in iter_cards(shown)])
        panel = TossPanel(
            toss,
            c.me,
            c.opponent_name or "",
            c.start_dealing,
            animate=c.timings.anim_scale > 0,
            dealing=Dealing.SEED if c.remote is None else c.remote.dealing,
        )
        self.overlay.show_panel(panel, dim=90)

    def _thinking(self, on: bool) -> None:
        if self.controller.waiting_since is not None:
            self._countdown.start()  # the seconds count while the peer thinks
        elif self.controller.mode is not Mode.DRAW_WAIT:
            self._countdown.stop()
        self.update_prompt()

    def _show_decision(self, info: DecisionInfo) -> None:
        c = self.controller
        obs = c.observation()
        pile = obs.captured[c.me] if obs is not None else 0
        panel = DecisionPanel(
            self.art,
            info,
            pile,
            lambda: self._decide(False),
            lambda: self._decide(True),
            c.opponent_name,
        )
        # The panel takes the score column (widened as far as the table allows), never the
        # field or the capture piles the player decides on; the hand is not playable now.
        panel.setProperty("compact", True)
        panel.setMinimumWidth(0)
        panel.body.setContentsMargins(18, 16, 18, 16)
        panel.body.setSpacing(8)
        panel.buttons.setSpacing(8)
        for button in panel.findChildren(QPushButton):
            button.setMinimumHeight(46)
        for label in panel.findChildren(QLabel, "yakuEn"):
            label.setWordWrap(True)  # a long English name takes two lines in a narrow column
        self.overlay.show_panel(panel, dim=190)
        self._arrange()

    def show_decision_hint(self, text: str) -> None:
        """The coach's word on koikoi or shobu, in the decision's panel if it is up (it
        covers the log), the column arranged again for its new height."""
        panel = self.overlay.panel
        if isinstance(panel, DecisionPanel):
            panel.show_hint(text)
            self._arrange()

    def _decide(self, koikoi: bool) -> None:
        self.controller.decide(koikoi)

    def _show_round_result(self, summary: RoundSummary) -> None:
        self.refresh_side()
        c = self.controller
        panel = RoundResultPanel(self.art, summary, c.next_round, c.me, c.opponent_name)
        self.on_round_result(panel)
        self.overlay.show_panel(panel, dim=110)

    def _show_match_result(self, summary: MatchSummary) -> None:
        c = self.controller
        panel = MatchResultPanel(
            summary, lambda: self.on_rematch(), lambda: self.on_home(), c.me, c.opponent_name
        )
        self.on_match_result(panel)
        self.overlay.show_panel(panel, dim=140)

    def _draw_waiting(self, wait: DrawWait) -> None:
        self._draw_started = time.monotonic()
        self._countdown.start()
        self.update_glows()
        self.update_prompt()

    # -- banner, prompt, glows ---------------------------------------------------------------

    def dealing_prompt(self) -> str:
        """The prompt while a privately dealt match waits for the peer's part of the deal:
        the next deal, or the key that turns the card this side draws."""
        c = self.controller
        clock = c.clock()
        if clock is None:
            return ""
        name = c.opponent_name or ""
        if clock.overdue:
            return self.tr(
                "{0} has sent nothing of the deal for {1}: you may end the match."
            ).format(name, minutes(clock.waited))
        match = c.match
        rnd = None if match is None else match.round
        if rnd is not None and not rnd.over and not (match is not None and match.needs_deal):
            return self.tr("Waiting for {0} to unlock the card you draw… {1}").format(
                name, minutes(clock.waited)
            )
        return self.tr("Waiting for {0} to deal the cards with you… {1}").format(
            name, minutes(clock.waited)
        )

    def prompt_words(self) -> str:
        """What the moment asks of the player, or what the game waits for (without the local
        player's move clock, which :meth:`update_prompt` puts before it)."""
        c = self.controller
        mode = c.mode
        text = ""
        if mode is Mode.PLAY:
            text = self.tr("Your turn: click a card to play it (or 1–8 and Enter).")
            if self.selected is not None:
                text = self.tr(
                    "{0} selected: Enter plays it, ↑ to choose a field card, Esc puts it back."
                ).format(names.card_name(self.selected))
        elif mode is Mode.PICK:
            obs = c.observation()
            if obs is not None and obs.pending >= 0:
                text = self.tr(
                    "{0} matches two cards: click the one to take (or ← →, then Enter)."
                ).format(names.card_name(obs.pending))
        elif mode is Mode.DRAW_WAIT and c.draw_wait is not None:
            left = max(0.0, c.draw_wait.ms / 1000 - (time.monotonic() - self._draw_started))
            left = min(left, c.timings.auto_take_ms / 1000)  # the turn-over itself not counted
            secs = max(1, int(left + 0.999))
            wait = c.draw_wait
            if wait.taken:
                text = self.tr(
                    "You turned {0}: it takes {1} — by itself in {2} s, or click or Enter."
                ).format(
                    names.card_name(wait.card),
                    names.cards_named(wait.taken),
                    secs,
                )
            else:
                text = self.tr(
                    "You turned {0}: no match, it stays on the field — in {1} s, or click or Enter."
                ).format(names.card_name(wait.card), secs)
        elif mode is Mode.BUSY and c.peer_dealing():
            text = self.dealing_prompt()
        elif mode is Mode.BUSY and self._reconnect_timer.isActive():
            text = reconnecting(c.opponent_name or "")
        elif mode is Mode.BUSY and c.waiting_since is not None:
            secs = int(time.monotonic() - c.waiting_since)
            text = self.tr("Waiting for {0}… {1} s").format(c.opponent_name, secs)
            clock = c.clock()
            if clock is not None and not clock.local:  # the peer's move clock
                text = waiting_for(c.opponent_name or "", clock)
                if clock.overdue:
                    text = self.tr("{0} has not moved for {1}: you may end the match.").format(
                        c.opponent_name, minutes(clock.waited)
                    )
        elif mode is Mode.BUSY and c.remote is None and c.ai is not None and c.ai.busy:
            text = self.tr("The computer is thinking…")
        elif mode is Mode.DECIDE:
            text = self.tr("Koikoi or shobu? K or S.")
        return text

    def update_prompt(self) -> None:
        """The prompt line: its words (:meth:`prompt_words`) after the local player's move
        clock, the button that ends a match whose peer is overdue, the line's place."""
        c = self.controller
        mode = c.mode
        text = self.prompt_words()
        # heard: the words without a ticking count (the move clock is said at 10 s left)
        waits = c.waiting_since is not None and not self._reconnect_timer.isActive()
        ticking = mode is Mode.DRAW_WAIT or (mode is Mode.BUSY and waits)
        spoken = ticking_prompt_spoken(c) if ticking else text
        clock = c.clock() if mode in (Mode.PLAY, Mode.PICK, Mode.DECIDE) else None
        mine = your_move(clock) if clock is not None and clock.local else ""
        if mine:  # the local player's move clock
            text = f"{mine} · {text}" if text else mine
        self._offer_abandon()
        self._place_prompt(text, spoken)

    def _offer_abandon(self) -> None:
        """The button that ends the match, while the peer's move clock is overdue."""
        c = self.controller
        overdue = c.clock()
        self.side.abandon_button.setVisible(overdue is not None and overdue.overdue)
        if overdue is not None and overdue.overdue:
            self.side.abandon_button.setAccessibleName(
                self.tr("{0} has not moved for {1}: end the match").format(
                    c.opponent_name, minutes(overdue.waited)
                )
            )

    def _place_prompt(self, text: str, spoken: str) -> None:
        """Show ``text`` on the prompt line (a screen reader hears ``spoken``), centred in the
        table's prompt strip; a text longer than the table is wide wraps, and the table makes
        room for it."""
        self.prompt.setText(text)
        # a screen reader hears what the prompt says ("Your turn: …"), not only "Prompt"
        self.prompt.setAccessibleName(spoken or self.tr("Prompt"))
        self.prompt.setVisible(bool(text))
        self.prompt.setWordWrap(False)
        need = self.prompt.sizeHint()
        r = self.table.layout_.prompt_rect.toAlignedRect()
        w = need.width() + 40
        if w > r.width():  # longer than the table is wide (a long translation): it wraps
            self.prompt.setWordWrap(True)
            w = r.width()
            need.setHeight(self.prompt.heightForWidth(w))
        if need.height() > self.table.prompt_height:  # the table makes room for the text
            self.table.prompt_height = need.height()  # (once: it never shrinks back)
            self.table.finish_animation()
            self.table.snap()
            r = self.table.layout_.prompt_rect.toAlignedRect()
        h = max(r.height(), need.height())
        self.prompt.setGeometry(r.center().x() - w // 2, r.top(), w, h)
        self.prompt.raise_()

    def update_glows(self) -> None:
        c = self.controller
        model = self.table.model
        glows: dict[int | str, str] = {}
        assist = self.table.assist
        if c.mode is Mode.PLAY:
            if assist:
                for card in model.hand:
                    if model.matches(card):
                        glows[card] = "capturable"
            if self.hinted in model.hand:
                glows[self.hinted] = "hint"
            focus = self.selected if self.selected is not None else self.hovered
            if self.selected is not None:
                glows[self.selected] = "selected"
            if focus is not None and assist and focus in model.hand:
                for m in model.matches(focus):
                    glows[m] = "match"
        elif c.mode is Mode.PICK:
            obs = c.observation()
            if obs is not None and obs.pending >= 0:
                glows[obs.pending] = "selected"
            for card in c.candidates():
                glows[card] = "hint" if card == self.hinted else "candidate"
        elif c.mode is Mode.DRAW_WAIT and c.draw_wait is not None:
            glows[c.draw_wait.card] = "drawn"
            for t in c.draw_wait.taken:
                glows[t] = "match"
        self.table.set_glows(glows)
        self.table.set_lifted(self.selected)

    def update_focus_policies(self) -> None:
        model = self.table.model
        takeable = set(self.situation().takeable())
        for key, w in self.table.widgets.items():
            active = isinstance(key, int) and (key in model.hand or key in takeable)
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus if active else Qt.FocusPolicy.NoFocus)
        cursor = self.table.focus_key
        if cursor is not None and cursor not in model.hand and cursor not in takeable:
            self.table.focus_key = None

    # -- input: mouse ------------------------------------------------------------------------

    def _card_clicked(self, w: CardWidget) -> None:
        self.set_keyboard(False)
        c = self.controller
        card = w.card
        if c.mode is Mode.DRAW_WAIT:
            c.continue_draw()
            return
        if card is None:
            return
        if c.mode is Mode.PLAY:
            if card in self.table.model.hand:
                c.play(card)
            elif self.selected is not None and card in self.table.model.matches(self.selected):
                c.play(self.selected, card)
        elif c.mode is Mode.PICK and card in c.candidates():
            c.pick(card)

    def _card_hovered(self, w: CardWidget, on: bool) -> None:
        card = w.card
        if on and card is not None and card in self.table.model.hand:
            self.hovered = card
        elif not on and self.hovered == card:
            self.hovered = None
        else:
            return
        if self.controller.mode is Mode.PLAY:
            self.update_glows()

    def _table_clicked(self) -> None:
        if self.controller.mode is Mode.DRAW_WAIT:
            self.controller.continue_draw()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.table and event.type() == QEvent.Type.MouseButtonPress:
            self._table_clicked()
        return False

    # -- input: keys -------------------------------------------------------------------------

    def _focused_card(self) -> Card | None:
        """The card the keyboard is on: Qt's focus if a card has it, else the last one."""
        for key, w in self.table.widgets.items():
            if w.hasFocus() and isinstance(key, int):
                self.table.focus_key = key
                return key
        cursor = self.table.focus_key
        if isinstance(cursor, int) and cursor in self.table.widgets:
            return cursor
        return None

    def _focus_card(self, card: Card) -> None:
        key = self.table.focus_key
        old = self.table.widgets.get(key) if key is not None else None
        self.table.focus_key = card
        w = self.table.card_widget(card)
        if w is not None:
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.setFocus(Qt.FocusReason.OtherFocusReason)
            w.update()
        if old is not None and old is not w:
            old.update()

    def _focus_hand(self, prefer: Card | None = None) -> None:
        for command in keys.focus_hand(self.situation(), prefer):
            self._carry_out(command)

    def select(self, card: Card | None) -> None:
        """Select a hand card (keyboard): it rises; with assist on, its matches glow."""
        self.selected = card
        self.update_focus_policies()
        self.update_glows()
        self.update_prompt()

    def set_keyboard(self, on: bool) -> None:
        """Show the focus ring while the player uses the keys; hide it on a click."""
        if on != self.table.show_focus:
            self.table.show_focus = on
            for w in self.table.widgets.values():
                if w.key == self.table.focus_key:
                    w.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.handle_key(event.key()):
            super().keyPressEvent(event)

    def situation(self) -> keys.Situation:
        """The moment as the keyboard scheme sees it."""
        c = self.controller
        model = self.table.model
        phase = _PHASES.get(c.mode, keys.Phase.OTHER)
        panel = self.overlay.isVisible()
        default = False
        if panel and self.overlay.panel is not None:
            button = self.overlay.panel.findChild(QPushButton, "default")
            default = button is not None and button.isVisible()
        return keys.Situation(
            phase,
            hand=tuple(model.hand),
            matches={card: tuple(model.matches(card)) for card in model.hand},
            candidates=tuple(c.candidates()) if phase is keys.Phase.PICK else (),
            focused=self._focused_card(),
            selected=self.selected,
            panel=panel,
            panel_default=default,
        )

    def handle_key(self, key: int) -> bool:
        """The table's keyboard scheme (:mod:`koikoi.ui.common.keys`); True if the key was used."""
        self.set_keyboard(True)
        commands = keys.respond(self.situation(), keys.parse_key(_key_name(key)))
        if commands is None:
            return False
        used = True
        for command in commands:
            used = self._carry_out(command) and used
        return used

    def _carry_out(self, command: keys.Command) -> bool:
        """Do one command of the keyboard scheme; False when the game refused it."""
        c = self.controller
        if isinstance(command, keys.Focus):
            self._focus_card(command.card)
        elif isinstance(command, keys.Select):
            self.select(command.card)
        elif isinstance(command, keys.RefreshFocus):
            self.update_focus_policies()
            if self.selected is None:
                self.update_glows()
        elif isinstance(command, keys.Play):
            return c.play(command.card, command.target)
        elif isinstance(command, keys.Pick):
            return c.pick(command.card)
        elif isinstance(command, keys.Decide):
            return c.decide(command.koikoi)
        elif isinstance(command, keys.ContinueDraw):
            return c.continue_draw()
        elif isinstance(command, keys.PressDefault):
            panel = self.overlay.panel
            button = panel.findChild(QPushButton, "default") if panel is not None else None
            if button is None:
                return False
            button.click()
        elif isinstance(command, keys.ShowHelp):
            self.on_help()
        elif isinstance(command, keys.ShowHint):
            return self.on_hint()
        return True

    def decision_rect(self) -> QRect:
        """Where the koikoi/shobu panel's overlay lies: over the score column, which is
        widened for it as far as the table's least width allows."""
        normal = max(260, min(360, round(self.width() * 0.22)))
        width = normal
        panel = self.overlay.panel
        if isinstance(panel, DecisionPanel):
            room = self.width() - TABLE_MIN_WIDTH
            want = max(panel.sizeHint().width(), DECISION_WIDTH) + 2 * OVERLAY_MARGIN
            width = max(normal, min(room, want))
        return QRect(self.width() - width, 0, width, self.height())

    def _table_size_deciding(self) -> QSize:
        """The table's size while the koikoi panel is up (at its usual width), for the card
        pictures drawn ahead: in a small window its column makes the cards smaller."""
        normal = max(260, min(360, round(self.width() * 0.22)))
        want = DECISION_WIDTH + 2 * OVERLAY_MARGIN
        column = max(normal, min(self.width() - TABLE_MIN_WIDTH, want))
        return QSize(self.width() - column, self.table.height())

    def _clear_overlay(self) -> None:
        self.overlay.clear()
        self._arrange()

    def _arrange(self) -> None:
        """The score column's width and the overlay's place, for this size and panel."""
        column = self.decision_rect()
        if self.side.width() != column.width() or self.side.minimumWidth() != column.width():
            # a fixed width, so that what the column says never resizes (and redraws) the table
            self.side.setFixedWidth(column.width())
            layout = self.layout()
            if layout is not None:
                layout.activate()
        panel = self.overlay.panel
        if isinstance(panel, DecisionPanel):
            self.overlay.setGeometry(column)
            # the pile's cards repeat the capture row, which stays in sight: shown only
            # where the column has room for them
            row = panel.findChild(QWidget, "cardRow")
            if row is not None:
                row.show()
                inner = column.width() - 2 * OVERLAY_MARGIN
                if panel.heightForWidth(inner) > column.height() - 2 * OVERLAY_MARGIN:
                    row.hide()
        else:
            self.overlay.setGeometry(self.rect())
        self.overlay._place()

    def resizeEvent(self, event: object) -> None:
        self._arrange()
        if self.banner.isVisible():
            self.banner.place()
        QTimer.singleShot(0, self.update_prompt)
