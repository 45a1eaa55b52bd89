"""The table's narration: one sentence for each event of a match, in the player's language.

What the log, the status line and screen readers say as a match goes (the controller says
it, :meth:`koikoi.ui.match.controller.GameController.said_event`; the replay viewer too). The
words are the controller's translations (context ``GameController``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    Dealt,
    DecisionNeeded,
    Event,
    KoikoiDeclared,
    MatchEnded,
    PlacedOnField,
    RoundEnded,
    StakesPaid,
    StockTurned,
    TurnStarted,
    YakuFormed,
)
from koikoi.engine.match import Match
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import lay_out, parse
from koikoi.engine.round import PICK_BASE, SHOBU, Action
from koikoi.net.private import seat_view
from koikoi.ui.common import names
from koikoi.ui.sound import clips


def _tr(text: str, disambiguation: str = "", n: int = -1) -> str:
    return QCoreApplication.translate("GameController", text, disambiguation, n)


def describe(event: Event, me: int, opponent: str | None) -> str:
    """One sentence for an event, told to the player in seat ``me`` against ``opponent``
    (the peer's nickname; None: the computer). Each seat has its own sentence, and the
    computer its own beside a named person, each whole, for translators."""
    you = getattr(event, "seat", None) == me

    def they(computer: str, named: str) -> str:
        return computer if opponent is None else named

    def fill(text: str, *args: object) -> str:
        return text.format(*args, name=opponent or "")

    if isinstance(event, Dealt):
        if event.oya == me:
            return _tr("Round {0}: you are oya (親) and play first.").format(event.round_no)
        return fill(
            they(
                _tr("Round {0}: the computer is oya (親) and plays first."),
                _tr("Round {0}: {name} is oya (親) and plays first."),
            ),
            event.round_no,
        )
    if isinstance(event, CardPlayed):
        text = (
            _tr("You played {0}.")
            if you
            else they(_tr("The computer played {0}."), _tr("{name} played {0}."))
        )
        return fill(text, names.card_name(event.card))
    if isinstance(event, StockTurned):
        text = (
            _tr("You turned {0} from the stock.")
            if you
            else they(
                _tr("The computer turned {0} from the stock."),
                _tr("{name} turned {0} from the stock."),
            )
        )
        return fill(text, names.card_name(event.card))
    if isinstance(event, Captured):
        taken = names.cards_named(event.taken)
        text = (
            _tr("You took {0} with {1}.")
            if you
            else they(_tr("The computer took {0} with {1}."), _tr("{name} took {0} with {1}."))
        )
        return fill(text, taken, names.card_name(event.card))
    if isinstance(event, PlacedOnField):
        return _tr("{0} stays on the field.").format(names.card_name(event.card))
    if isinstance(event, ChoiceNeeded):
        if not you:
            return ""
        a, b = event.candidates
        return _tr("{0} matches two field cards: choose {1} or {2}.").format(
            names.card_name(event.card), names.card_name(a), names.card_name(b)
        )
    if isinstance(event, YakuFormed):
        listed = ", ".join(names.yaku_with_points(y, p) for y, p in event.yaku)
        if len(event.yaku) == 1:
            text = (
                _tr("You hold {0}.")
                if you
                else they(_tr("The computer holds {0}."), _tr("{name} holds {0}."))
            )
            return fill(text, listed)
        text = (
            _tr("You hold {0}: %n point(s) in all.", "", event.total)
            if you
            else they(
                _tr("The computer holds {0}: %n point(s) in all.", "", event.total),
                _tr("{name} holds {0}: %n point(s) in all.", "", event.total),
            )
        )
        return fill(text, listed)
    if isinstance(event, DecisionNeeded):
        if not you:
            return fill(
                they(
                    _tr("The computer is deciding: koikoi or shobu…"),
                    _tr("{name} is deciding: koikoi or shobu…"),
                )
            )
        if event.can_koikoi:
            return _tr("Koikoi or shobu? Press K for こいこい, S for 勝負.")
        return _tr("Last turn: only 勝負 (shobu) is possible. Press S.")
    if isinstance(event, KoikoiDeclared):
        text = (
            _tr("You called 「こいこい」 (koikoi): the round goes on at ×{0}.")
            if you
            else they(
                _tr("The computer called 「こいこい」 (koikoi): the round goes on at ×{0}."),
                _tr("{name} called 「こいこい」 (koikoi): the round goes on at ×{0}."),
            )
        )
        return fill(text, event.koikoi_count + 1)
    if isinstance(event, TurnStarted):
        if you:
            return _tr("Your turn: play a card from your hand.")
        return fill(they(_tr("The computer's turn."), _tr("{name}'s turn.")))
    if isinstance(event, RoundEnded):
        r = event.result
        if r.outcome is Outcome.WIN:
            if r.winner == me:
                return _tr(
                    "You called 「勝負」 (shobu) and win the round: %n point(s).", "", r.points
                )
            return fill(
                they(
                    _tr(
                        "The computer called 「勝負」 (shobu) and wins the round: %n point(s).",
                        "",
                        r.points,
                    ),
                    _tr(
                        "{name} called 「勝負」 (shobu) and wins the round: %n point(s).",
                        "",
                        r.points,
                    ),
                )
            )
        if r.outcome is Outcome.TEYAKU:
            if r.winner == me:
                return _tr("Your dealt hand is a yaku (teyaku, 手役): %n point(s).", "", r.points)
            return fill(
                they(
                    _tr(
                        "The computer's dealt hand is a yaku (teyaku, 手役): %n point(s).",
                        "",
                        r.points,
                    ),
                    _tr(
                        "{name}'s dealt hand is a yaku (teyaku, 手役): %n point(s).",
                        "",
                        r.points,
                    ),
                )
            )
        if r.outcome is Outcome.NAGARE:
            return _tr("Nobody called shobu: the round is a draw (nagare, 流れ).")
        return _tr("Four cards of one month on the field: the cards are dealt again.")
    if isinstance(event, StakesPaid):
        if event.winner is None:
            return ""
        if event.winner == me:
            text = they(
                _tr("The computer paid you {0}. Stakes: you {1}, the computer {2}."),
                _tr("{name} paid you {0}. Stakes: you {1}, {name} {2}."),
            )
        else:
            text = they(
                _tr("You paid the computer {0}. Stakes: you {1}, the computer {2}."),
                _tr("You paid {name} {0}. Stakes: you {1}, {name} {2}."),
            )
        return fill(text, event.paid, event.scores[me], event.scores[1 - me])
    if isinstance(event, MatchEnded):
        if event.winner is None:
            return _tr("The match is over: a draw.")
        if event.winner == me:
            return _tr("The match is over: you win!")
        return fill(
            they(
                _tr("The match is over: the computer wins."),
                _tr("The match is over: {name} wins."),
            )
        )
    return ""


def cue(event: Event, me: int) -> str | None:
    """The sound heard with an event's sentence (:data:`koikoi.ui.sound.clips.NAMES`), for
    the player in seat ``me``; None: none. Both players' cards and calls are heard; only the
    local player's turn is.

    >>> cue(TurnStarted(seat=0), 0), cue(TurnStarted(seat=1), 0)
    ('turn', None)
    """
    if isinstance(event, TurnStarted):
        return clips.TURN if event.seat == me else None
    return _CUES.get(type(event))


_CUES: dict[type[Event], str] = {
    CardPlayed: clips.CARD,
    Captured: clips.CAPTURE,
    StockTurned: clips.DRAW,
    YakuFormed: clips.YAKU,
    KoikoiDeclared: clips.KOIKOI,
    MatchEnded: clips.MATCH_END,
}


def last_deal_events(data: dict[str, Any], seat: int) -> list[Event]:
    """The events of a record's last deal, to be told again (a resumed match), from the
    engine replaying the whole record; a privately dealt one's ``Dealt`` as ``seat`` may
    see it (its record holds stand-ins for the cards still sealed)."""
    parsed = parse(data)
    match = Match(parsed.settings, parsed.first_oya)
    events: list[Event] = []
    for deal in parsed.deals:
        events = lay_out(match, deal)
        for act in deal.actions:
            events += match.apply(act.action, act.seat)
    private = isinstance(data.get("net"), dict) and data["net"].get("dealing") == "private"
    return seat_view(events, seat) if private else events


def dealing_text(dealing: str) -> str:
    """How a network match deals (``private`` or ``seed``), in a short line."""
    if dealing == "private":
        return _tr("Private dealing: neither side can see the other's hand or the stock")
    return _tr("Deals from a joint seed")


def seconds_left_text(seconds: int) -> str:
    """The local player's move clock at 10 s left, said once a move."""
    return _tr("%n second(s) left to move.", "", seconds)


def peer_overdue_text(name: str, seconds: float, dealing: bool) -> str:
    """The peer ``name`` has not moved (``dealing``: has sent nothing of the deal) for
    ``seconds``: the player may end the match."""
    if dealing and seconds >= 60:
        text = _tr(
            "{0} has sent nothing of the deal for %n minute(s): you may end the match.",
            "",
            int(seconds // 60),
        )
    elif dealing:
        text = _tr(
            "{0} has sent nothing of the deal for %n second(s): you may end the match.",
            "",
            int(seconds),
        )
    elif seconds >= 60:
        text = _tr(
            "{0} has not moved for %n minute(s): you may end the match.", "", int(seconds // 60)
        )
    else:
        text = _tr("{0} has not moved for %n second(s): you may end the match.", "", int(seconds))
    return text.format(name)


def out_of_time_text(action: Action) -> str:
    """The safe move the table played for a player whose move clock ran out."""
    if action == SHOBU:
        return _tr("Your time ran out: the table called shobu for you.")
    if action >= PICK_BASE:
        return _tr("Your time ran out: the table took {0} for you.").format(
            names.card_name(action - PICK_BASE)
        )
    return _tr("Your time ran out: the table played {0} for you.").format(names.card_name(action))
