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
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, Final

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal

from koikoi.ai.coach import Advice, Mistake, card_of
from koikoi.engine.cards import card_tuple
from koikoi.engine.match import Observation
from koikoi.engine.record import parse, replay_record
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action
from koikoi.stats.tally import ASSISTED_KEY
from koikoi.ui.common import names
from koikoi.ui.common.signals import emit
from koikoi.ui.match.ai_helper import advise, review_round
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
REVIEW_SECONDS: Final = 4.0
"""A round's review: its choices weighed one after another, within this."""
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
    return action_name(advice.action)


def action_name(action: Action, in_a_sentence: bool = False) -> str:
    """``play Pine crane``, ``take Pine ribbon``, ``Koikoi`` (``call koikoi`` in a sentence)."""
    if action == KOIKOI:
        return _tr("call koikoi") if in_a_sentence else _tr("Koikoi")
    if action == SHOBU:
        return _tr("call shobu") if in_a_sentence else _tr("Shobu")
    card = card_of(action)
    assert card is not None
    if action >= PICK_BASE:
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


def _list(parts: Sequence[str]) -> str:
    """Reasons or moves one after another ("; " in English, "、" in Japanese)."""
    return _tr("; ").join(parts)


def decision_text(ranked: Sequence[Advice]) -> str:
    """Koikoi or shobu with the coach's numbers: the better one, then each one's win chance,
    what shobu takes now and what koikoi risks and is worth on average."""
    best = ranked[0]
    parts = [_tr("Hint: {0}.").format(action_name(best.action, True))]
    for advice in sorted(ranked, key=lambda a: a.action != SHOBU):  # shobu first
        if advice.action == SHOBU:
            parts.append(
                _tr("Shobu: win chance {0}, {1} points now.").format(
                    percent(advice.chance), round(advice.points)
                )
            )
        else:
            parts.append(
                _tr(
                    "Koikoi: win chance {0}; the computer wins the round first in {1} of "
                    "the deals; {2} points on average."
                ).format(percent(advice.chance), percent(advice.lost), f"{advice.points:+.1f}")
            )
    return " ".join(parts)


def hint_text(ranked: Sequence[Advice], obs: Observation) -> str:
    """The hint in one paragraph (the log, the status line and screen readers)."""
    if {a.action for a in ranked} == {KOIKOI, SHOBU}:
        return decision_text(ranked)
    best = ranked[0]
    if len(ranked) == 1:
        return _tr("Hint: {0} is your only move.").format(move_name(best, obs))
    text = _tr("Hint: {0}, win chance {1}").format(move_name(best, obs), percent(best.chance))
    why = reasons(best)
    if why:
        text += _tr(" ({0})").format(_list(why))
    text = _tr("{0}.").format(text)
    others = []
    for advice in ranked[1:SHOWN]:
        if best.chance - advice.chance < CLOSE:
            others.append(_tr("{0}: about as good").format(move_name(advice, obs)))
        else:
            others.append(_tr("{0}: {1}").format(move_name(advice, obs), percent(advice.chance)))
    if others:
        text += " " + _tr("Next: {0}.").format(_list(others))
    return text


def round_choices(c: GameController) -> tuple[list[tuple[Observation, Action]], list[int]]:
    """The local player's choices in the match's last deal — each the position they chose
    in and what they chose — and where each is among the deal's actions: the record
    replayed through the engine (as undo does), so what the coach weighs is what the
    player saw."""
    if c.record is None or not c.record.deals:
        return [], []
    data = c.record.to_json()
    before = dict(data)
    before["deals"] = [*data["deals"][:-1], {**data["deals"][-1], "actions": []}]
    match = replay_record(before).match
    choices: list[tuple[Observation, Action]] = []
    where: list[int] = []
    for n, act in enumerate(parse(data).deals[-1].actions):
        if act.seat == c.me:
            obs = match.observation(c.me)
            if len(obs.legal_actions) > 1:
                choices.append((obs, act.action))
                where.append(n)
        match.apply(act.action, act.seat)
    return choices, where


def mistake_text(number: int, mistake: Mistake) -> str:
    """One costly choice in words (the review's line and the replay viewer's note)."""
    better = mistake.better
    text = _tr("{0}. You chose to {1} (win chance {2}); the coach would {3} ({4})").format(
        number,
        action_name(mistake.action, True),
        percent(mistake.chance),
        action_name(better.action, True),
        percent(better.chance),
    )
    why = reasons(better)
    if why:
        text = _tr("{0}: {1}").format(text, _list(why))
    return _tr("{0}.").format(text)


class CoachRunner(QObject):
    """One coach's job at a time, off the UI thread: a hint (:meth:`ask`, answered by
    ``advised``) or a round's review (:meth:`review`, answered by ``reviewed``). An answer
    to a job no longer asked for (:meth:`cancel`, another job) is dropped."""

    advised = Signal(object, object)
    """(observation, ranking) on the UI thread."""
    reviewed = Signal(object, object)
    """(the choices, the mistakes found) on the UI thread."""
    _done = Signal(object, object)

    def __init__(self, parent: QObject | None = None, in_process: bool = True) -> None:
        super().__init__(parent)
        self.in_process = in_process
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._done.connect(self._on_done)
        self._future: tuple[object, Future[list[Any]]] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(10)
        self._poll.timeout.connect(self._check)
        self.asked: object | None = None
        """What the job in hand is about (an observation, a list of choices), else None."""

    def ask(self, obs: Observation, rng: random.Random) -> None:
        self._start(obs, advise, obs, rng, CAP_SECONDS)

    def review(self, choices: list[tuple[Observation, Action]], rng: random.Random) -> None:
        self._start(choices, review_round, choices, rng, REVIEW_SECONDS)

    def _start(self, key: object, job: Callable[..., list[Any]], *args: Any) -> None:
        self.asked = key
        host = _get_host() if self.in_process else None
        if host is not None:
            try:
                self._future = (key, host.executor.submit(job, *args))
                self._poll.start()
                return
            except RuntimeError as exc:  # a broken pool: think here instead
                logger.warning("the coach's process stopped (%s); thinking in a thread", exc)
        done = self._done

        def think() -> None:
            try:
                answer = job(*args)
            except Exception:  # a bug must not take the window down: no answer, one log line
                logger.exception("the coach failed")
                return
            emit(done, key, answer)

        self.pool.start(think)

    def _check(self) -> None:
        if self._future is None:
            self._poll.stop()
            return
        key, future = self._future
        if not future.done():
            return
        self._future = None
        self._poll.stop()
        try:
            answer = future.result()
        except Exception:  # a bug must not take the window down: no answer, one log line
            logger.exception("the coach failed")
            return
        self._on_done(key, answer)

    def _on_done(self, key: object, answer: object) -> None:
        if key is not self.asked:
            return
        emit(self.advised if isinstance(key, Observation) else self.reviewed, key, answer)

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
