"""The coach in practice: a hint on the player's move, asked by a key or a button.

:class:`CoachRunner` asks :func:`koikoi.ai.coach.advise` off the UI thread (in the
computer's helper process, as the computer's own thinking goes, else in a pool thread) and
hands the ranking back by signal. :func:`hint_text` and :func:`decision_text` say it in
the player's language: the best move and its reasons, the next ones with their chances.
A match in which the player asked for a hint is marked ``"hint"`` in its record's
``assisted`` list, as undo marks it (:mod:`koikoi.ui.match.undo`): the statistics count it
apart.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Final

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal

from koikoi.ai.coach import Advice, card_of
from koikoi.engine.cards import card_tuple
from koikoi.engine.match import Observation
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU
from koikoi.stats.tally import ASSISTED_KEY
from koikoi.ui.common import names
from koikoi.ui.common.signals import emit
from koikoi.ui.match.ai_helper import advise
from koikoi.ui.match.ai_worker import _get_host
from koikoi.ui.match.controller import GameController
from koikoi.ui.match.matchview import Mode

logger = logging.getLogger(__name__)

HINT: Final = "hint"
"""The word for a hint in the record's ``assisted`` list."""
HINT_MODES: Final = frozenset({Mode.PLAY, Mode.PICK, Mode.DECIDE})
"""When a hint is given: the table waits for the player's move or decision."""
CAP_SECONDS: Final = 0.45
"""The search's time cap: a hint is shown within half a second of the key."""
SHOWN: Final = 3
"""Moves said in a hint: the best and the next two."""
CLOSE: Final = 0.01
"""Chances closer than this are said to be about the same."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Coach", text)


def percent(chance: float) -> str:
    return _tr("{0} %").format(round(100 * chance))


def move_name(advice: Advice, obs: Observation) -> str:
    """The move in words: the card played or picked, koikoi or shobu."""
    if advice.action == KOIKOI:
        return _tr("Koikoi")
    if advice.action == SHOBU:
        return _tr("Shobu")
    card = card_of(advice.action)
    assert card is not None
    if advice.action >= PICK_BASE:
        return _tr("take {0}").format(names.card_name(card))
    return _tr("play {0}").format(names.card_name(card))


def reasons(advice: Advice) -> list[str]:
    """Why, in words a player can check on the table."""
    out = []
    card = card_of(advice.action)
    if card is not None and advice.action < PICK_BASE:
        taken = [names.card_name(c) for c in card_tuple(advice.takes)]
        if advice.choice:
            out.append(_tr("it takes {0} or {1}, as you pick").format(*taken))
        elif taken:
            out.append(_tr("it takes {0}").format(", ".join(taken)))
        else:
            out.append(_tr("it takes nothing and stays on the field"))
    for yaku in advice.makes:
        out.append(_tr("it makes {0}").format(names.yaku_name(yaku)))
    for yaku in advice.near:
        out.append(_tr("it brings {0} within one card").format(names.yaku_name(yaku)))
    for yaku in advice.offers:
        out.append(_tr("it leaves the opponent a card for {0}").format(names.yaku_name(yaku)))
    return out


def hint_text(ranked: Sequence[Advice], obs: Observation) -> str:
    """The hint in one paragraph (the log, the status line and screen readers)."""
    best = ranked[0]
    if len(ranked) == 1:
        return _tr("Hint: {0} is your only move.").format(move_name(best, obs))
    text = _tr("Hint: {0}, win chance {1}").format(move_name(best, obs), percent(best.chance))
    why = reasons(best)
    if why:
        text += " (" + "; ".join(why) + ")"
    text += "."
    others = []
    for advice in ranked[1:SHOWN]:
        if best.chance - advice.chance < CLOSE:
            others.append(_tr("{0}: about as good").format(move_name(advice, obs)))
        else:
            others.append(_tr("{0}: {1}").format(move_name(advice, obs), percent(advice.chance)))
    if others:
        text += " " + _tr("Next: {0}.").format("; ".join(others))
    return text


class CoachRunner(QObject):
    """One hint at a time, off the UI thread; ``advised`` carries the ranking of the
    observation it was asked for."""

    advised = Signal(object, object)
    """(observation, ranking) on the UI thread."""
    _done = Signal(object, object)

    def __init__(self, parent: QObject | None = None, in_process: bool = True) -> None:
        super().__init__(parent)
        self.in_process = in_process
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._done.connect(self._on_done)
        self._future: tuple[Observation, Future[list[Advice]]] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(10)
        self._poll.timeout.connect(self._check)
        self.asked: Observation | None = None

    def ask(self, obs: Observation, rng: random.Random) -> None:
        self.asked = obs
        host = _get_host() if self.in_process else None
        if host is not None:
            try:
                self._future = (obs, host.executor.submit(advise, obs, rng, CAP_SECONDS))
                self._poll.start()
                return
            except RuntimeError as exc:  # a broken pool: think here instead
                logger.warning("the coach's process stopped (%s); thinking in a thread", exc)
        done = self._done

        def think() -> None:
            try:
                ranked = advise(obs, rng, CAP_SECONDS)
            except Exception:  # a bug must not take the window down: no hint, one log line
                logger.exception("the coach failed")
                return
            emit(done, obs, ranked)

        self.pool.start(think)

    def _check(self) -> None:
        if self._future is None:
            self._poll.stop()
            return
        obs, future = self._future
        if not future.done():
            return
        self._future = None
        self._poll.stop()
        try:
            ranked = future.result()
        except Exception:  # a bug must not take the window down: no hint, one log line
            logger.exception("the coach failed")
            return
        self._on_done(obs, ranked)

    def _on_done(self, obs: object, ranked: object) -> None:
        if obs is self.asked:
            emit(self.advised, obs, ranked)

    def cancel(self) -> None:
        self.asked = None


def mark_hinted(c: GameController) -> None:
    """The match's record says a hint was asked (once), and the save keeps it."""
    record = c.record
    if record is None:
        return
    assists = [a for a in record.extra.get(ASSISTED_KEY, []) if isinstance(a, str)]
    if HINT not in assists:
        record.extra[ASSISTED_KEY] = [*assists, HINT]
        c.save()
