"""The one loop of DESIGN.md: a match driven between two seats.

A seat is anything that can answer "your move" from an observation: the window's player, a
computer player (:class:`koikoi.ai.seat.AiSeat`), or the peer across the network. The driver
deals from a deck source, asks the seat to move, applies its answer through the engine's
checked door (an illegal answer raises :class:`~koikoi.engine.round.IllegalAction`), writes
the record and tells both seats what happened. It knows no computer player: those live in
:mod:`koikoi.ai`. Practice, ``simulate``, and ``host``/``join --bot`` all
run this same loop.

>>> from koikoi.ai.seat import bot_seat
>>> from koikoi.engine.match import Settings
>>> from koikoi.engine.record import GameRecord, replay
>>> seats = (bot_seat("greedy", seed=1), bot_seat("random", seed=2))
>>> record = GameRecord(Settings(), first_oya=0)
>>> match = play_match(Settings(), 0, seats, seed_decks(b"doc"), record)
>>> match.finished, sum(match.scores)
(True, 50)
>>> replay(record.to_json())["scores"] == list(match.scores)
True
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from koikoi.engine.cards import Card
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.events import Event
from koikoi.engine.match import Match, Observation, Settings
from koikoi.engine.record import GameRecord
from koikoi.engine.round import Action

logger = logging.getLogger(__name__)

DeckSource = Callable[[Match], Sequence[Card]]
"""Gives the deck order for the match's next deal (``match.round_no``, ``match.deal_no``)."""


class Seat(Protocol):
    """One side of the table.

    ``choose`` is called only when this seat is to move; ``observation.legal_actions``
    lists what it may answer. ``notify`` gets every event of the match as it happens, for
    both seats alike: a :class:`~koikoi.engine.events.Dealt` event carries both hands, so a
    seat that shows or sends events must keep to its own seat's hand.
    """

    def choose(self, observation: Observation) -> Action: ...

    def notify(self, events: Sequence[Event]) -> None: ...


def seed_decks(seed: bytes) -> DeckSource:
    """Decks from :func:`~koikoi.engine.deck.deck_from_seed` for each round and redeal."""

    def source(match: Match) -> Sequence[Card]:
        return deck_from_seed(seed, match.round_no, match.deal_no)

    return source


def play_match(
    settings: Settings,
    first_oya: int,
    seats: Sequence[Seat],
    deck_source: DeckSource,
    record: GameRecord | None = None,
) -> Match:
    """Play a whole match between ``seats[0]`` and ``seats[1]`` and return it, finished.

    Every deal (redeals included) and every action goes into ``record`` when one is given.
    """
    if len(seats) != 2:
        raise ValueError("a match has two seats")
    match = Match(settings, first_oya)
    while not match.finished:
        if match.needs_deal:
            events = match.deal(deck_source(match))
            rnd = match.round
            assert rnd is not None
            if record is not None:
                record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        else:
            seat = match.current_seat()
            assert seat is not None
            action = seats[seat].choose(match.observation(seat))
            events = match.apply(action, seat)
            if record is not None:
                record.add_action(seat, action)
        for s in seats:
            s.notify(events)
    return match
