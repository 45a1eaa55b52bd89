"""Undo in practice (待った): the local player takes back their own last turn.

What is taken back: the player's last hand play and everything after it in the deal — the
pick, the draw and its capture, a koikoi or shobu decision, and the computer's turn that
answered it — back to the moment the player was to play that card. Undo never reaches into
an earlier deal (a round that has ended stays ended: its stakes were paid) and does nothing
before the player's first play of the deal, while the computer moves, or in a network match,
where the session holds the match and both players' signed moves.

How: the record is cut before that play and replayed through the engine
(:func:`~koikoi.engine.record.replay_record`, as a resumed save is), so the match, the record
and the save are the engine's own, with no copy of a state to keep in step. The record gains
``"assisted": ["undo"]`` (kept by the save, so a resumed match stays marked): the match is
counted apart in the statistics (:mod:`koikoi.stats.tally`).

What the computer sees afterwards is only ever the observation of the replayed match: the
cards taken back are no longer played or drawn for it, and it keeps no memory between
decisions (the helper is given an observation and a generator, nothing else). Its generator
is drawn from the match seed and the position in the record
(:meth:`~koikoi.ui.match.opponents.ComputerOpponent._decision_rng`), so at a position seen
before it gets the same generator again; what differs after an undo is only what the player
does differently. The player, of course, has seen the card drawn and the computer's answer:
that is why the match is marked assisted.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QCoreApplication

from koikoi.engine.events import CardPlayed, Event, StockTurned
from koikoi.engine.record import GameRecord, parse, replay_record
from koikoi.stats.tally import ASSISTED_KEY
from koikoi.ui.common import names
from koikoi.ui.common.signals import emit
from koikoi.ui.match import narration
from koikoi.ui.match.controller import GameController, _Pending, _shown_of
from koikoi.ui.match.matchview import Mode

UNDO: Final = "undo"
"""The word for undo in the record's ``assisted`` list."""
UNDO_MODES: Final = frozenset({Mode.PLAY, Mode.PICK, Mode.DRAW_WAIT, Mode.DECIDE})
"""When the table waits for the local player: undo is offered then only."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Undo", text)


def undo_point(c: GameController) -> int | None:
    """Where the local player's last turn begins among the current deal's actions (the
    index of their last hand play), or None when there is nothing to take back now."""
    if c.remote is not None or c.match is None or c.record is None or not c.record.deals:
        return None
    if c.mode not in UNDO_MODES or c.match.round is None or c.match.round.over:
        return None
    actions = c.record.deals[-1].actions
    plays = [i for i, a in enumerate(actions) if a.get("seat") == c.me and "play" in a]
    return plays[-1] if plays else None


def can_undo(c: GameController) -> bool:
    return undo_point(c) is not None


def take_back(c: GameController) -> bool:
    """Take back the local player's last turn (see the module); False when there is none."""
    cut = undo_point(c)
    if cut is None or c.record is None:
        return False
    data = c.record.to_json()
    taken = _events_taken_back(data, cut)
    data["deals"][-1]["actions"] = data["deals"][-1]["actions"][:cut]
    assists = [a for a in data.get(ASSISTED_KEY, []) if isinstance(a, str)]
    data[ASSISTED_KEY] = assists if UNDO in assists else [*assists, UNDO]
    replayed = replay_record(data)  # the engine as it stood before the play

    for timer in (c._pump_timer, c._auto_timer, c.computer.timer):
        timer.stop()
    if c.ai is not None:
        c.ai.cancel()
    c._queue.clear()
    c._pending = _Pending()
    c._skip_choice = False
    c.draw_wait = None
    c.decision = None
    c.match = replayed.match
    c.record = GameRecord.from_json(data)
    c._shown = _shown_of(c.match)
    c.save()
    obs = c.match.observation(c.me)
    c.presenter.restore(obs, c, narration.last_deal_events(data, c.me), keep_log=True)
    emit(c.said, taken_back_text(taken, c.me))
    emit(c.state_changed)
    c.mode = Mode.BUSY  # quietly: the table hears the PLAY that follows
    c._after_queue()
    return True


def _events_taken_back(data: dict[str, Any], cut: int) -> list[Event]:
    """The events of the current deal's actions from ``cut`` on, as the engine told them."""
    parsed = parse(data)
    before = dict(data)
    before["deals"] = [*data["deals"][:-1], {**data["deals"][-1], "actions": []}]
    match = replay_record(before).match
    events: list[Event] = []
    for i, act in enumerate(parsed.deals[-1].actions):
        applied = match.apply(act.action, act.seat)
        if i >= cut:
            events += applied
    return events


def taken_back_text(events: list[Event], me: int) -> str:
    """What was taken back, in one line (the log and screen readers)."""
    played = next((e.card for e in events if isinstance(e, CardPlayed) and e.seat == me), None)
    drawn = next((e.card for e in events if isinstance(e, StockTurned) and e.seat == me), None)
    theirs = any(isinstance(e, CardPlayed) and e.seat != me for e in events)
    if played is None:
        return _tr("Undo: nothing was taken back.")
    if drawn is None:
        text = _tr("Undo: your play of {0} is taken back.").format(names.card_name(played))
    else:
        text = _tr("Undo: your play of {0} and the draw of {1} are taken back.").format(
            names.card_name(played), names.card_name(drawn)
        )
    if theirs:
        text += " " + _tr("The computer's turn after it is taken back too.")
    return text + " " + _tr("Play a card from your hand again.")
