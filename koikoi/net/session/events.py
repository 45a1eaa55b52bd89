"""What a :class:`~koikoi.net.session.core.Session` tells its transport, step by step: each input
(:meth:`~koikoi.net.session.core.Session.receive`, ``play``, ``tick`` …) returns a list of these."""

from __future__ import annotations

from dataclasses import dataclass

from koikoi.engine.events import Event
from koikoi.engine.round import Action
from koikoi.net.fair import TossResult
from koikoi.net.session.endings import Ending


@dataclass(frozen=True)
class CardsShown:
    """The four cards are drawn: show them and ask the player (:meth:`Session.confirm`).

    ``result``: version 2 only, the toss decided with the cards; None in version 4, whose
    outcome is drawn once both players confirmed (it comes with :class:`TossDone`). The first
    deal waits until both players confirmed."""

    cards: tuple[str, str, str, str]
    result: TossResult | None = None


@dataclass(frozen=True)
class TossDone:
    """Both players confirmed the four cards after the toss; the first deal is laid out
    (``events``; dealt privately, its ``Dealt`` is this side's view, as in
    :class:`DealLaidOut`)."""

    result: TossResult
    events: tuple[Event, ...]


@dataclass(frozen=True)
class MovePlayed:
    """A move (local or the peer's, checked) went into the log; ``events`` is what happened."""

    seq: int
    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True)
class DealLaidOut:
    """Private dealing: the next deal is dealt and laid out (``events``, its ``Dealt``
    first, a :class:`~koikoi.net.private.SealedDealt`: this side's hand and the field, the
    other hand and the stock as counts); with the joint seed a deal comes in the events of
    the move before it."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class Ended:
    ending: Ending


@dataclass(frozen=True)
class OutOfTime:
    """The local seat's move clock ran out (once per turn): its client now plays
    :meth:`Session.automatic_action` for it, and says so."""

    seat: int
    seq: int


@dataclass(frozen=True)
class PeerOverdue:
    """The peer, connected, sent no move for ``seconds`` (once per turn): the waiting side
    may end the match with :meth:`Session.abandon`."""

    seat: int
    seq: int
    seconds: float


@dataclass(frozen=True)
class StampReceived:
    """The peer sent a stamp this side shows (within the rate): ``stamp`` is its id, one of
    :data:`~koikoi.net.stamps.STAMPS`; the table words it in its player's language."""

    stamp: str


SessionEvent = (
    CardsShown
    | TossDone
    | MovePlayed
    | DealLaidOut
    | Ended
    | OutOfTime
    | PeerOverdue
    | StampReceived
)
