"""The game's controller: paces the events, asks the opponent (the computer or a peer).

It is the one loop of DESIGN.md for a window: the local player's clicks and keys arrive as
:meth:`GameController.play`, :meth:`pick`, :meth:`decide` …; the computer's moves come from
:class:`~koikoi.ui.match.ai_worker.AiRunner`. Every action goes through ``Match.apply`` (the engine
checks it), is appended to the record and saved, and its events are handed one at a time to
a *presenter* (the table), which animates each and says how long that takes. The controller
knows nothing of pixels; with a presenter that returns 0 it runs headless.

Pacing that is the window's, not the engine's, lives here too: the human-like pause before
the computer acts, and R5.5 — a drawn card of the local player with one way to resolve is
shown and resolves by itself after 5 seconds (or sooner on a click).

A network match (:meth:`GameController.start_network`) runs the same loop from either seat,
but the link's session is the authority: its ``Match`` applies and checks both seats' moves
and keeps the signed record, so the controller shows the events the link reports
(:class:`~koikoi.ui.match.opponents.RemoteOpponent`) and sends the local seat's actions with
``link.play``; it never runs a second engine of its own. The words said as the match goes
are :mod:`koikoi.ui.match.narration`'s; what the table is told, :mod:`koikoi.ui.match.matchview`'s.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from koikoi import __version__
from koikoi.ai.basic import GreedyPlayer
from koikoi.engine.cards import CARD_IDS, CARD_MONTH_MASK, Card, CardSet, parse_card
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.events import (
    Captured,
    ChoiceNeeded,
    Dealt,
    Event,
    KoikoiDeclared,
    PlacedOnField,
    RoundEnded,
    StakesPaid,
    StockTurned,
    TurnStarted,
)
from koikoi.engine.match import (
    STARTING_SCORES,
    FirstOya,
    Match,
    Observation,
    Settings,
    turn_for_first_oya,
)
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import GameRecord
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action, Phase, pick, play
from koikoi.engine.yaku import Yaku, yaku_of
from koikoi.stats.store import StatsStore
from koikoi.ui.common import names
from koikoi.ui.common.signals import emit
from koikoi.ui.match import narration
from koikoi.ui.match.ai_worker import AiRunner
from koikoi.ui.match.matchview import (
    TABLE_READY,
    DecisionInfo,
    DrawWait,
    MatchSummary,
    Mode,
    NullPresenter,
    Presenter,
    RoundSummary,
    ShownDeal,
)
from koikoi.ui.match.opponents import ComputerOpponent, MatchLink, Opponent, RemoteOpponent
from koikoi.ui.match.saves import SavedMatch, SaveStore
from koikoi.ui.match.timings import Timings
from koikoi.ui.sound import clips
from koikoi.ui.stats.counting import count_finished

if TYPE_CHECKING:
    from collections.abc import Callable

    from koikoi.net.session.clock import MoveClock
    from koikoi.net.session.endings import Ending
    from koikoi.net.session.events import DealLaidOut, MovePlayed, TossDone

logger = logging.getLogger(__name__)

HUMAN = 0
COMPUTER = 1
__all__ = ["COMPUTER", "HUMAN", "GameController"]


@dataclass
class _Pending:
    summary: RoundSummary | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class GameController(QObject):
    """One match of the local player against an :class:`Opponent`: the computer in practice
    (the player in seat 0, this controller owning the match), or a person over the network
    (the player in the link's seat, the link's session owning the match)."""

    mode_changed = Signal(object)
    """The new :class:`Mode`."""
    first_oya = Signal(object)
    """A :class:`FirstOya`: show the turned cards and who is oya (R3.1)."""
    decision_needed = Signal(object)
    """A :class:`DecisionInfo` for the local player's koikoi/shobu panel."""
    opponent_called = Signal(bool, object)
    """(koikoi, info): the computer's decision, to be shown and said in words."""
    draw_waiting = Signal(object)
    """A :class:`DrawWait`."""
    round_over = Signal(object)
    """A :class:`RoundSummary`."""
    match_over = Signal(object)
    """A :class:`MatchSummary`."""
    said = Signal(str)
    cued = Signal(str)
    """A sound to hear with what is said (:func:`koikoi.ui.match.narration.cue`, and the
    move clock running low): a name of :data:`koikoi.ui.sound.clips.NAMES`."""
    """A line of narration: what just happened, in words."""
    tossed = Signal(object)
    """A network match's coin toss is over (a ``TossDone``): show who won the first oya."""
    network_ended = Signal(object)
    """A network match's session ended (an ``Ending``); unfinished ones stop the table."""
    thinking = Signal(bool)
    clock_ticked = Signal()
    """A network match's move clock moved on (each second, and when the peer is overdue)."""
    state_changed = Signal()
    """Scores, round, oya or koikoi count may have changed."""

    def __init__(
        self,
        presenter: Presenter | None = None,
        timings: Timings | None = None,
        saves: SaveStore | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        names.install_translations()  # its narration counts points
        self.presenter: Presenter = presenter if presenter is not None else NullPresenter()
        self.timings = timings if timings is not None else Timings()
        self.saves = saves if saves is not None else SaveStore()
        self.match: Match | None = None
        self.record: GameRecord | None = None
        self.seed = b""
        self.new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)  # tests set it
        self.level = "normal"
        self.first: FirstOya | None = None
        self.mode = Mode.IDLE
        self.draw_wait: DrawWait | None = None
        self.decision: DecisionInfo | None = None
        self.summary: RoundSummary | None = None
        self.ai: AiRunner | None = None
        self.me = HUMAN
        """The local player's seat (a network joiner sits in seat 1)."""
        self.computer = ComputerOpponent(self)
        """The computer, the opponent in practice (its thinking kept between matches)."""
        self.opponent: Opponent = self.computer
        self.remote: RemoteOpponent | None = None
        self.toss: TossDone | None = None
        """The network match's ``TossDone``."""
        self.waiting_since: float | None = None
        """When the peer's move became due (monotonic seconds); None when it is not."""
        self._shown = ShownDeal()
        self._queue: deque[Event] = deque()
        self._pending = _Pending()
        self._pump_timer = QTimer(self)
        self._pump_timer.setSingleShot(True)
        self._pump_timer.timeout.connect(self._pump)
        self._auto_timer = QTimer(self)
        self._auto_timer.setSingleShot(True)
        self._auto_timer.timeout.connect(self.continue_draw)
        self._skip_choice = False

    # -- queries --------------------------------------------------------------------------

    def observation(self, seat: int | None = None) -> Observation | None:
        """What ``seat`` (by default the local player) sees now, as the engine has it."""
        if self.match is None or self.match.round is None:
            return None
        return self.match.observation(self.me if seat is None else seat)

    @property
    def them(self) -> int:
        """The opponent's seat."""
        return 1 - self.me

    @property
    def network(self) -> bool:
        """A match against a person over the network (the session holds the rules)."""
        return self.remote is not None

    def in_step(self) -> bool:
        """The table has shown everything the engine holds (a network match's engine may
        be a move or a deal ahead of the table while events wait to be shown)."""
        if self.remote is None:
            return True
        return not self._queue and self._pending.summary is None and not self.remote.behind()

    @property
    def settings(self) -> Settings:
        return self.match.settings if self.match else Settings()

    def legal_plays(self) -> tuple[Card, ...]:
        """The hand cards the local player may play now (empty unless it is their move)."""
        if self.mode is not Mode.PLAY or self.match is None:
            return ()
        return tuple(a for a in self.match.legal_actions() if a < PICK_BASE)

    def candidates(self) -> tuple[Card, ...]:
        """The two field cards the local player must choose between now."""
        if self.mode is not Mode.PICK or self.match is None or self.match.round is None:
            return ()
        return tuple(a - PICK_BASE for a in self.match.legal_actions())

    def matches_on_field(self, card: Card) -> CardSet:
        if self.match is None or self.match.round is None:
            return 0
        return self.match.round.field & CARD_MONTH_MASK[card]

    # -- starting and resuming ------------------------------------------------------------

    def new_match(self, settings: Settings, level: str, seed: bytes | None = None) -> None:
        """Start a practice match: turn cards for the first oya (R3.1), then wait for deal."""
        self._reset(level)
        self.saves.discard()
        self.seed = seed if seed is not None else self.new_seed()
        self.first = turn_for_first_oya(random.Random(self.seed))
        self.match = Match(settings, self.first.oya)
        self.record = GameRecord(settings, self.first.oya, extra=self._record_extra())
        self._save()
        self._set_mode(Mode.FIRST_OYA)
        emit(self.state_changed)
        emit(self.first_oya, self.first)

    def resume(self, saved: SavedMatch) -> None:
        """Carry on with a saved match exactly where it stopped."""
        data = saved.data
        level = data.get("ai_level", "normal")
        self._reset(level if isinstance(level, str) else "normal")
        self.seed = saved.seed
        self.match = saved.replay.match
        self.record = GameRecord.from_json(data)
        self.first = _first_oya_from_json(data, self.match.first_oya)
        self._shown.outcomes = len(self.match.history)
        emit(self.state_changed)
        resumed = self.tr("The saved match is resumed.")
        if not self.record.deals:
            emit(self.said, resumed)
            self._set_mode(Mode.FIRST_OYA)
            emit(self.first_oya, self.first)
        elif self.match.needs_deal:
            self._retell(data)
            emit(self.said, resumed)
            self._deal()
        else:
            self._shown = _shown_of(self.match)
            self._retell(data, restore=True)
            emit(self.said, resumed)
            self._after_queue()

    def _retell(self, data: dict[str, Any], restore: bool = False) -> None:
        """Say the last deal of a resumed record again, as it was said while it was played;
        with ``restore``, first a fresh table and log show it as it stands."""
        events = narration.last_deal_events(data, self.me)
        if restore:
            assert self.match is not None
            self.presenter.restore(self.match.observation(self.me), self, events)
        for event in events:
            self.said_event(event, cue=False)  # told again, not heard again

    def start_network(
        self, link: MatchLink, name: str, toss: TossDone, restored: bool = False
    ) -> None:
        """Take over a network match (``link``: a ``QtRoom`` or ``QtJoin`` past the toss;
        ``name``: the peer's nickname; ``toss``: the link's ``TossDone``).

        The link's session holds the match: its engine applies and checks both seats'
        moves and keeps the signed record; this controller shows its events and sends the
        local seat's actions. The state is read from the session, not from signals already
        emitted; the ones after this come from the link's zero-delay timer. ``restored``:
        the session was restored from its record after a crash; the table opens as it stands.
        """
        session = link.session
        if session is None or session.lockstep is None:
            raise ValueError("the link has no match yet")
        self._reset_common()
        lockstep = session.lockstep
        self.me = session.seat
        self.remote = RemoteOpponent(link, name, self)
        self.remote.table_ready(False)  # the toss, or the table as it stands, comes first
        self.opponent = self.remote
        self.toss = toss
        self.level = ""
        self.match = lockstep.match
        self.record = lockstep.record
        self.seed = lockstep.seed
        self.first = FirstOya((), toss.result.first_oya)
        # the toss's first deal is heard; a restored match stands where its record stops
        self.remote.deals_heard = lockstep.deals_laid if restored else 1
        emit(self.state_changed)
        # Taken over at the toss while no deal has been played out: a deal that ended as it
        # was dealt (a teyaku, R8) is scored and the next one dealt before anyone moves, so
        # the toss is shown, then those deals' results, then the deal in play.
        if not restored and not any(deal.actions for deal in self.record.deals[:-1]):
            if lockstep.seq == 0:
                self._queue.extend(toss.events)
            else:
                # the peer was quicker than this window's take-over and has moved already:
                # the toss is still shown first, then the deal and those moves, which the
                # engine tells again from the record
                self.remote.seen = lockstep.seq
                dealt = [i for i, event in enumerate(toss.events) if isinstance(event, Dealt)]
                self._queue.extend(toss.events[: max(dealt, default=0)])
                self._queue.extend(narration.last_deal_events(self.record.to_json(), self.me))
            self._set_mode(Mode.FIRST_OYA)
            emit(self.tossed, toss)
            return
        # taken over later: the table as it stands
        self.remote.seen = lockstep.seq
        self._shown = _shown_of(self.match)
        self._retell(self.record.to_json(), restore=True)
        self._set_mode(Mode.BUSY)
        self._after_queue()

    def dealing_text(self) -> str:
        """How a network match deals, in a short line (the score column, and screen readers
        at the start); empty in practice."""
        return "" if self.remote is None else narration.dealing_text(self.remote.dealing)

    def peer_dealing(self) -> bool:
        """Private dealing: the move clock waits for a dealing message of the peer (its part
        of the next deal, its key of the card this side draws, or its seed at a deal's end),
        not for a move of its own."""
        remote = self.remote
        clock = self.clock()
        if remote is None or clock is None or clock.local or remote.dealing != "private":
            return False
        session = remote.session
        lockstep = None if session is None else session.lockstep
        if lockstep is None:
            return False
        match = lockstep.match
        rnd = match.round
        return match.needs_deal or rnd is None or rnd.over or match.current_seat() == self.me

    def leave(self) -> None:
        """Leave the network match (the peer is told; the session ends unfinished)."""
        if self.remote is not None:
            self.remote.leave()

    def clock(self) -> MoveClock | None:
        """A network match's move clock (a ``MoveClock``: whose, seconds left, seconds
        waited, the peer overdue); None in practice or outside play."""
        if self.remote is None or self.remote.ended is not None:
            return None
        return self.remote.link.clock()

    def abandon(self) -> bool:
        """End the network match as abandoned by the peer, who has not moved for the abandon
        time; False (nothing done) while its time is not up."""
        clock = self.clock()
        if self.remote is None or clock is None or clock.local or not clock.overdue:
            return False
        self.remote.link.abandon()
        return True

    def _clock_tick(self) -> None:
        """Each second of a network match: the table redraws the clock; at 10 s left of
        the local player's move, it is said once (the log and screen readers)."""
        clock = self.clock()
        remote = self.remote
        if clock is not None and remote is not None and clock.local and clock.left <= 10.0:
            session = remote.session
            seq = -1 if session is None or session.lockstep is None else session.lockstep.seq
            if seq != remote.spoken_seq and clock.left > 0:
                remote.spoken_seq = seq
                seconds = max(1, int(clock.left + 0.999))
                emit(self.said, narration.seconds_left_text(seconds))
                emit(self.cued, clips.CLOCK)
        emit(self.clock_ticked)

    def _peer_overdue(self, seconds: float) -> None:
        """The peer has not moved for the abandon time: said once (the log and screen
        readers); the table offers to end the match."""
        text = narration.peer_overdue_text(self.opponent_name or "", seconds, self.peer_dealing())
        emit(self.said, text)
        emit(self.clock_ticked)

    def _out_of_time(self) -> None:
        """The local player's move clock ran out: the table plays a safe move for them (the
        greedy choice, shobu over koikoi), as it takes a drawn card after 5 s, and says so."""
        remote = self.remote
        session = None if remote is None else remote.session
        if remote is None or session is None or session.local_turn is None:
            return
        action = session.automatic_action(GreedyPlayer().choose)
        text = narration.out_of_time_text(action)
        emit(self.said, text)
        if self.mode in (Mode.PLAY, Mode.PICK, Mode.DECIDE):  # as if the player chose it
            self.decision = None
            self._queue.extend(self._apply(action, self.me))
            self._pump()
        else:  # the table is still showing what came before: the move joins the queue
            remote.send(action)

    def _remote_moved(self, move: MovePlayed) -> None:
        """A move went into the session's log (the peer's, or ours coming back)."""
        events = list(move.events)
        if move.seat == self.them:
            self.waiting_since = None
            emit(self.thinking, False)
        elif self._skip_choice:  # the keyboard's select-then-take: one step on screen
            self._skip_choice = False
            events = [e for e in events if not isinstance(e, ChoiceNeeded)]
        self._queue.extend(events)
        if self.mode is Mode.BUSY:
            self._pump()

    def _remote_dealt(self, deal: DealLaidOut) -> None:
        """Private dealing: the session dealt and laid out the next deal (a ``DealLaidOut``);
        it is shown as a deal that came with the move before it (joint seed) is: after the
        round's result, once the player asked for the next round."""
        self._queue.extend(deal.events)
        if self.mode is Mode.BUSY:
            self._pump()

    def _remote_ended(self, ending: Ending) -> None:
        self.waiting_since = None
        emit(self.thinking, False)
        if not ending.finished:
            for timer in (self._pump_timer, self._auto_timer, self.computer.timer):
                timer.stop()
            self._queue.clear()
            self._pending = _Pending()
            self.draw_wait = None
            self._set_mode(Mode.IDLE)
        emit(self.network_ended, ending)

    def start_dealing(self) -> None:
        """After the first oya is shown: lay out the first deal."""
        if self.mode is not Mode.FIRST_OYA:
            return
        if self.remote is not None:  # the session dealt already: show its deal
            self._set_mode(Mode.BUSY)
            self._pump()
        else:
            self._deal()

    def next_round(self) -> None:
        """After a round's result: deal the next round (or a redeal of this one)."""
        if self.mode is not Mode.ROUND_OVER or self.match is None:
            return
        if self.match.finished and (self.summary is None or self.summary.match_finished):
            self._set_mode(Mode.MATCH_OVER)
            emit(self.match_over, self.match_summary())
            return
        if self.remote is not None:  # the session dealt already: show its deal
            self.summary = None
            self._set_mode(Mode.BUSY)
            self._pump()
            return
        self._deal()

    def match_summary(self) -> MatchSummary:
        assert self.match is not None
        return MatchSummary.of(self.match)

    def save(self) -> None:
        """Write the match in progress now (the app is quitting; it is also written after
        every action)."""
        self._save()

    def shutdown(self) -> None:
        """Stop timers and the computer's thinking (the window is closing); a network
        match's link is let go of (leave it first to tell the peer)."""
        for timer in (self._pump_timer, self._auto_timer, self.computer.timer):
            timer.stop()
        if self.ai is not None:
            self.ai.shutdown()
        if self.remote is not None:
            self.remote.shutdown()

    # -- the local player's input ---------------------------------------------------------

    def play(self, card: Card, target: Card | None = None) -> bool:
        """Play ``card`` from the hand; ``target``, if given, is the field card to take
        when the card has two matches (the keyboard's select-then-take)."""
        if self.mode is not Mode.PLAY or card not in self.legal_plays():
            return False
        if target is not None and not self.matches_on_field(card) >> target & 1:
            return False
        events = self._apply(play(card), self.me)
        rnd = self.match.round if self.match else None
        if (
            target is not None
            and rnd is not None
            and rnd.phase is Phase.PICK_PLAYED
            and rnd.candidates() >> target & 1
        ):
            events = [e for e in events if not isinstance(e, ChoiceNeeded)]
            self._skip_choice = self.remote is not None
            events += self._apply(pick(target), self.me)
        self._queue.extend(events)
        self._pump()
        return True

    def pick(self, card: Card) -> bool:
        """Take ``card``, one of the two field matches (R5.2)."""
        if self.mode is not Mode.PICK or card not in self.candidates():
            return False
        self._queue.extend(self._apply(pick(card), self.me))
        self._pump()
        return True

    def continue_draw(self) -> bool:
        """Resolve the shown drawn card now (a click) or when its 5 seconds are up."""
        if self.mode is not Mode.DRAW_WAIT:
            return False
        self._auto_timer.stop()
        self.draw_wait = None
        self._set_mode(Mode.BUSY)
        self._pump()
        return True

    def decide(self, koikoi: bool) -> bool:
        """Koikoi (go on) or shobu (end the round and win it)."""
        if self.mode is not Mode.DECIDE or self.match is None:
            return False
        action = KOIKOI if koikoi else SHOBU
        if action not in self.match.legal_actions():
            return False
        self.decision = None
        self._queue.extend(self._apply(action, self.me))
        self._pump()
        return True

    # -- the loop -------------------------------------------------------------------------

    def _reset_common(self) -> None:
        self.shutdown()
        if self.remote is not None:
            self.remote.deleteLater()
        self.remote = None
        self.me = HUMAN
        self.opponent = self.computer
        self.toss = None
        self.waiting_since = None
        self._skip_choice = False
        self._shown = ShownDeal()
        self._queue.clear()
        self._pending = _Pending()
        self.draw_wait = None
        self.decision = None
        self.summary = None

    def _reset(self, level: str) -> None:
        self._reset_common()
        self.level = level
        if self.ai is None or self.ai.level != level:
            if self.ai is not None:
                self.ai.shutdown()
                self.ai.deleteLater()
            self.ai = AiRunner(level, self.timings.ai_cap_ms, self)
            self.ai.decided.connect(self.computer.decided)

    def _record_extra(self) -> dict[str, Any]:
        assert self.first is not None
        return {
            "app": f"koikoi {__version__}",
            "kind": "practice",
            "seed": self.seed.hex(),
            "human_seat": HUMAN,
            "ai_level": self.level,
            "first_oya_turns": [[CARD_IDS[a], CARD_IDS[b]] for a, b in self.first.turns],
        }

    def _save(self) -> None:
        if self.record is None or self.remote is not None:  # the session keeps its record
            return
        try:
            self.saves.write(self.record.to_json())
        except OSError as exc:  # a full disk must not end the game; say it once per action
            logger.error("could not save the match to %s: %s", self.saves.path, exc)

    def _deal(self) -> None:
        assert self.match is not None and self.record is not None
        m = self.match
        order = deck_from_seed(self.seed, m.round_no, m.deal_no)
        events = m.deal(order)
        rnd = m.round
        assert rnd is not None
        self.record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        self._save()
        self.summary = None
        self._set_mode(Mode.BUSY)
        self._queue.extend(events)
        self._pump()

    def _apply(self, action: Action, seat: int) -> list[Event]:
        assert self.match is not None and self.record is not None
        rnd = self.match.round
        if rnd is not None and rnd.phase is Phase.PLAY:  # the pile before this turn
            self._pending.extra["captured_before"] = rnd.captured[seat]
        if self.remote is not None:  # the session applies it; its events come back
            self._set_mode(Mode.BUSY)
            self.remote.send(action)
            return []
        events = self.match.apply(action, seat)
        self.record.add_action(seat, action)
        self._save()
        self._set_mode(Mode.BUSY)
        return events

    def _pump(self) -> None:
        """Show queued events one at a time, each after the previous one's animation."""
        if self._pump_timer.isActive() or self.mode is Mode.DRAW_WAIT:
            return
        while self._queue:
            event = self._queue.popleft()
            if isinstance(event, Dealt) and self._pending.summary is not None:
                self._queue.appendleft(event)  # the next deal waits for "next round"
                break
            self._note(event)
            ms = self.presenter.present(event, self)
            self.said_event(event)
            if (
                isinstance(event, StockTurned)
                and event.seat == self.me
                and self._queue
                and isinstance(self._queue[0], Captured | PlacedOnField)
            ):
                nxt = self._queue[0]
                taken = nxt.taken if isinstance(nxt, Captured) else ()
                wait = ms + self.timings.auto_take_ms
                self.draw_wait = DrawWait(event.card, taken, wait)
                self._set_mode(Mode.DRAW_WAIT)
                self._auto_timer.start(wait)
                emit(self.draw_waiting, self.draw_wait)
                return
            if ms > 0:
                self._pump_timer.start(ms)
                return
        self._after_queue()

    def _note(self, event: Event) -> None:
        """Keep what the panels need from events as they are shown."""
        assert self.match is not None
        self._shown.note(event)
        if isinstance(event, RoundEnded | StakesPaid | KoikoiDeclared | Dealt | TurnStarted):
            emit(self.state_changed)
        if isinstance(event, StakesPaid):
            shown = self._shown
            history = self.match.history
            index = min(shown.outcomes, len(history)) - 1
            outcome = history[index]
            earlier = history[:index]
            round_no = 1 + sum(1 for o in earlier if o.result.outcome is not Outcome.REDEAL)
            before = next(
                (o.scores for o in reversed(earlier) if o.result.outcome is not Outcome.REDEAL),
                STARTING_SCORES,
            )
            winner = outcome.result.winner
            loser_yaku: tuple[tuple[Yaku, int], ...] = ()
            if winner is not None:
                loser_yaku = tuple(yaku_of(shown.captured[1 - winner]))
            last = index == len(history) - 1
            self._pending.summary = RoundSummary(
                round_no=round_no,
                rounds=self.match.settings.rounds,
                outcome=outcome,
                scores_before=before,
                koikoi_calls=(shown.calls[0], shown.calls[1]),
                doubling=self.match.settings.doubling,
                match_finished=self.match.finished and last,
                match_winner=self.match.winner if last else None,
                loser_yaku=loser_yaku,
            )
        if isinstance(event, KoikoiDeclared) and event.seat == self.them:
            obs = self.match.observation(self.them)
            emit(self.opponent_called, True, DecisionInfo.of(obs, self.them, 0))
        if (
            isinstance(event, RoundEnded)
            and event.result.outcome is Outcome.WIN
            and event.result.winner == self.them
        ):
            emit(self.opponent_called, False, event.result)

    def _after_queue(self) -> None:
        """All events shown: wait for whoever is to act next."""
        m = self.match
        if m is None:
            return
        if self._pending.summary is not None:
            self.summary = self._pending.summary
            self._pending.summary = None
            if m.finished and self.remote is None and self.record is not None:
                problem = count_finished(self.record.to_json(), StatsStore(self.saves.directory))
                if problem:
                    emit(self.said, problem)
                self.saves.archive()
            self._set_mode(Mode.ROUND_OVER)
            emit(self.round_over, self.summary)
            return
        if self.remote is not None and (self.remote.behind() or self.remote.ended is not None):
            return  # the next events are on their way (or the session is over)
        rnd = m.round
        if rnd is None or rnd.over:
            return
        if rnd.turn == self.me:
            if rnd.phase is Phase.PLAY:
                self._set_mode(Mode.PLAY)
            elif rnd.phase is Phase.DECIDE:
                before = self._pending.extra.get("captured_before", 0)
                self.decision = DecisionInfo.of(m.observation(self.me), self.me, before)
                self._set_mode(Mode.DECIDE)
                emit(self.decision_needed, self.decision)
            else:
                self._set_mode(Mode.PICK)
        else:
            self._set_mode(Mode.BUSY)
            if self.remote is not None and self.waiting_since is None:
                self.waiting_since = time.monotonic()
                emit(self.thinking, True)
            self.opponent.ask(m.observation(self.them))

    # -- narration ------------------------------------------------------------------------

    def said_event(self, event: Event, cue: bool = True) -> None:
        """Say an event in words (the log, the status line and screen readers), and with
        ``cue`` its sound."""
        text = self.describe(event)
        if text:
            emit(self.said, text)
        name = narration.cue(event, self.me) if cue else None
        if name is not None:
            emit(self.cued, name)

    @property
    def opponent_name(self) -> str | None:
        """The peer's nickname in a network match; None: the computer."""
        return self.opponent.name

    def describe(self, event: Event) -> str:
        """One sentence for an event (:func:`koikoi.ui.match.narration.describe`)."""
        return narration.describe(event, self.me, self.opponent_name)

    def _set_mode(self, mode: Mode) -> None:
        if mode is self.mode:
            return
        self.mode = mode
        if self.remote is not None:  # the move clock runs only while the table waits for us
            self.remote.table_ready(mode in TABLE_READY)
        emit(self.mode_changed, mode)


def _shown_of(match: Match) -> ShownDeal:
    """What the table shows of a deal taken up in its middle (a resumed match)."""
    shown = ShownDeal(outcomes=len(match.history))
    rnd = match.round
    if rnd is not None:
        shown.calls = [rnd.koikoi_calls[0], rnd.koikoi_calls[1]]
        shown.on_field = rnd.field
        shown.captured = [rnd.captured[0], rnd.captured[1]]
    return shown


def _first_oya_from_json(data: dict[str, Any], oya: int) -> FirstOya:
    turns: list[tuple[Card, Card]] = []
    raw = data.get("first_oya_turns")
    if isinstance(raw, list):
        try:
            for pair in raw:
                a, b = pair
                turns.append((parse_card(a), parse_card(b)))
        except (ValueError, TypeError):
            turns = []
    return FirstOya(tuple(turns), oya)
