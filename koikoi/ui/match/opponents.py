"""The other seat of a match: the computer, or a person at the other end of a network link.

The controller (:mod:`koikoi.ui.match.controller`) asks its :class:`Opponent` for a move and hears
the answer back: the computer's from its helper process, the peer's as the link's ``moved``.
A network match's link is any :class:`MatchLink` (the Qt link's ``QtRoom``, ``QtJoin`` or a
room's ``PeerLink``): its session is the authority, applying and checking both seats' moves.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import random
import time
import warnings
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, SignalInstance

from koikoi.engine.match import Observation
from koikoi.engine.round import Action, Phase
from koikoi.ui.common.signals import emit
from koikoi.ui.match.matchview import Mode

if TYPE_CHECKING:
    from collections.abc import Callable

    from koikoi.net.session.clock import MoveClock
    from koikoi.net.session.core import Session
    from koikoi.net.session.endings import Ending
    from koikoi.net.session.events import DealLaidOut, MovePlayed, OutOfTime, PeerOverdue
    from koikoi.ui.match.controller import GameController
    from koikoi.ui.net.netlink.base import TimerFactory

logger = logging.getLogger(__name__)


class MatchLink(Protocol):
    """What a network match's controller needs of its link: the session (None until the
    handshake), the signals of what happens in it, and the local player's doors into it."""

    @property
    def session(self) -> Session | None: ...

    now: Callable[[], float]
    """The link's clock (monotonic seconds; a test steps its own)."""
    make_timer: TimerFactory
    """Makes single-shot timers on that clock (the table's clock ticks on one)."""

    @property
    def moved(self) -> SignalInstance:
        """A ``MovePlayed``: a move went into the log (the peer's, or this side's back)."""

    @property
    def dealt(self) -> SignalInstance:
        """A ``DealLaidOut``: private dealing laid out the next deal."""

    @property
    def ended(self) -> SignalInstance:
        """An ``Ending``: the session is over."""

    @property
    def out_of_time(self) -> SignalInstance:
        """The local player's move clock ran out."""

    @property
    def peer_overdue(self) -> SignalInstance:
        """The peer has not moved for the abandon time (a ``PeerOverdue``)."""

    def play(self, action: Action) -> None: ...

    def leave(self, reason: str = ...) -> None: ...

    def clock(self) -> MoveClock | None: ...

    def set_ready(self, ready: bool) -> None:
        """The local table is ready for its player to act, or not: the move clock runs only
        while it is (the peer hears of it)."""

    def abandon(self) -> None: ...


class Opponent(Protocol):
    """The other seat: asked for a move with an observation, it reports the move (the
    computer through :meth:`ComputerOpponent.decided`, the peer through the link's
    ``moved``) and hears the match's end. ``name`` is None for the computer."""

    name: str | None

    def ask(self, obs: Observation) -> None: ...

    def shutdown(self) -> None: ...


class ComputerOpponent:
    """The computer: :class:`~koikoi.ui.match.ai_worker.AiRunner` thinking in its helper process
    (the controller's ``ai``), its answer played after a human-like pause
    (``Timings.ai_delay_ms``), reproducible from the match seed."""

    name: str | None = None

    def __init__(self, controller: GameController) -> None:
        self.controller = controller
        self.token = 0
        """The request whose answer is awaited (an older answer is dropped)."""
        self._started = 0.0
        self._delay = 0
        self._answer: int | None = None
        self._rng = random.Random()
        self.timer = QTimer(controller)
        """Holds the answer until the pause is over."""
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._play_answer)

    def ask(self, obs: Observation) -> None:
        c = self.controller
        assert c.match is not None and c.ai is not None
        c._set_mode(Mode.BUSY)
        emit(c.thinking, True)
        self._answer = None
        self._started = time.monotonic()
        low, high = c.timings.ai_delay_ms
        if obs.phase is Phase.PLAY:
            self._delay = self._rng.randint(low, high)
        else:  # a pick or a decision comes quicker than choosing what to play
            self._delay = self._rng.randint(low // 2, high // 2)
        self.token = c.ai.request(obs, self._decision_rng())

    def _decision_rng(self) -> random.Random:
        """Reproducible per decision: the match seed and where in the record we are."""
        record = self.controller.record
        assert record is not None
        where = f"{len(record.deals)}:{len(record.deals[-1].actions)}"
        digest = hashlib.sha256(self.controller.seed + b"/ai/" + where.encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def decided(self, token: int, action: int) -> None:
        """The helper's answer (``AiRunner.decided``): played once the pause is over."""
        if token != self.token or self.controller.mode is not Mode.BUSY:
            return
        self._answer = action
        elapsed = int((time.monotonic() - self._started) * 1000)
        self.timer.start(max(0, self._delay - elapsed))

    def _play_answer(self) -> None:
        action, self._answer = self._answer, None
        c = self.controller
        if action is None or c.match is None:
            return
        emit(c.thinking, False)
        c._queue.extend(c._apply(action, c.them))
        c._pump()

    def shutdown(self) -> None:
        if self.controller.ai is not None:
            self.controller.ai.shutdown()


class RemoteOpponent(QObject):
    """The person at the other end of a network link (``QtRoom`` or ``QtJoin``).

    The link's session is the authority: its ``Match`` applies and checks both seats'
    moves, so the controller only shows the events the link reports (``moved``) and sends
    the local seat's actions with ``link.play``.
    """

    def __init__(self, link: MatchLink, name: str, controller: GameController) -> None:
        super().__init__(controller)
        self.link = link
        self.name: str | None = name
        self.controller = controller
        self.seen = 0
        """Moves of the log the controller has taken into its queue."""
        self.deals_heard = 0
        """Private dealing: deals laid out that the controller has taken into its queue (the
        toss's first deal, then each ``DealLaidOut``)."""
        self.ended: Ending | None = None
        self.spoken_seq = -1
        """The move whose clock was said at 10 s left (said once a move)."""
        link.moved.connect(self._on_moved)
        link.dealt.connect(self._on_dealt)
        link.ended.connect(self._on_ended)
        link.out_of_time.connect(self._on_out_of_time)
        link.peer_overdue.connect(self._on_peer_overdue)
        self._listening = True
        self._ticker = link.make_timer(self, self._tick)
        """The move clock on the table, once a second of the link's clock."""
        self._next_tick = link.now() + 1.0
        self._ticker.start(1000)

    @property
    def session(self) -> Session | None:
        return self.link.session

    def _tick(self) -> None:
        """A second of the link's clock: re-armed for the next second of the beat (as a
        repeating timer keeps it), then the table redraws the clock."""
        if not self._listening or self.ended is not None:
            return
        now = self.link.now()
        self._next_tick += 1.0
        while self._next_tick <= now:
            self._next_tick += 1.0
        self._ticker.start(max(0, math.ceil((self._next_tick - now) * 1000)))
        self.controller._clock_tick()

    def behind(self) -> bool:
        """Moves are in the session's log that the controller has not heard of yet, or one
        is on its way: a deal laid out (private dealing lays one out between moves) or the
        local seat's move, which waits for the peer's key of the card it draws."""
        session = self.session
        lockstep = None if session is None else session.lockstep
        if session is None or lockstep is None:
            return False
        if lockstep.unheard(self.seen, self.deals_heard):
            return True
        return (
            session.dealing == "private"
            and session.ending is None
            and lockstep.turn == session.seat
            and session.local_turn is None
        )

    @property
    def dealing(self) -> str:
        """How the match deals: ``private`` or ``seed`` (the joint seed)."""
        session = self.session
        return "seed" if session is None else str(session.dealing)

    def ask(self, obs: Observation) -> None:
        """The peer is to move: its answer comes as the link's ``moved``."""

    def send(self, action: Action) -> bool:
        try:
            self.link.play(action)
        except ValueError as exc:  # not this seat's move (a stale click): nothing sent
            logger.warning("not sent: %s", exc)
            return False
        return True

    def leave(self) -> None:
        self.link.leave()

    def table_ready(self, ready: bool) -> None:
        """The table waits for the local player (``ready``), or shows a result, the toss or
        an animation: the local move clock runs only while it waits."""
        if self._listening and self.ended is None:
            self.link.set_ready(ready)

    def shutdown(self) -> None:
        """Stop listening to the link (once)."""
        if not self._listening:
            return
        self._listening = False
        self._ticker.stop()
        for signal, slot in (
            (self.link.moved, self._on_moved),
            (self.link.dealt, self._on_dealt),
            (self.link.ended, self._on_ended),
            (self.link.out_of_time, self._on_out_of_time),
            (self.link.peer_overdue, self._on_peer_overdue),
        ):
            # a slot the link let go of already (a rematch or resume disconnects the old
            # link's signals): PySide warns instead of raising; nothing is wrong
            with contextlib.suppress(RuntimeError, TypeError), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                signal.disconnect(slot)

    def _on_out_of_time(self, event: OutOfTime) -> None:
        self.controller._out_of_time()

    def _on_peer_overdue(self, event: PeerOverdue) -> None:
        self.controller._peer_overdue(event.seconds)

    def _on_moved(self, move: MovePlayed) -> None:
        if move.seq < self.seen:
            return
        self.seen = move.seq + 1
        self.controller._remote_moved(move)

    def _on_dealt(self, deal: DealLaidOut) -> None:
        self.deals_heard += 1
        self.controller._remote_dealt(deal)

    def _on_ended(self, ending: Ending) -> None:
        self.ended = ending
        self._ticker.stop()
        self.controller._remote_ended(ending)
