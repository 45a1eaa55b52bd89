"""Computer players. Each sees an Observation, never the full state.

Players are registered by name: the baselines ``random`` and ``greedy``, and the levels the
app offers, ``easy``, ``normal``, ``hard`` and ``expert`` (:data:`LEVELS`; every name is
``simulate``'s and ``--bot``'s). A player is a plain function of (observation,
legal actions, random generator, budget) returning one of the legal actions:

>>> import random
>>> from koikoi.engine.deck import deck_from_seed
>>> from koikoi.engine.match import Match
>>> m = Match()
>>> _ = m.deal(deck_from_seed(b"doc", m.round_no, m.deal_no))
>>> seat = m.current_seat()
>>> obs = m.observation(seat)
>>> action = get_player("normal").choose(obs, obs.legal_actions, random.Random(1))
>>> action in obs.legal_actions
True
>>> PLAYERS
('random', 'greedy', 'easy', 'normal', 'hard', 'expert')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from koikoi.ai.base import Player

__all__ = ["LEVELS", "PLAYERS", "UnknownPlayer", "get_player"]


def _random() -> Player:
    from koikoi.ai.basic import RandomPlayer

    return RandomPlayer()


def _greedy() -> Player:
    from koikoi.ai.basic import GreedyPlayer

    return GreedyPlayer()


def _easy() -> Player:
    from koikoi.ai.basic import EasyPlayer

    return EasyPlayer()


def _normal() -> Player:
    from koikoi.ai.normal import NormalPlayer

    return NormalPlayer()


def _hard() -> Player:
    from koikoi.ai.hard import HardPlayer

    return HardPlayer()


def _expert() -> Player:
    from koikoi.ai.expert import ExpertPlayer

    return ExpertPlayer()


_FACTORIES: Final[dict[str, Callable[[], Player]]] = {
    "random": _random,
    "greedy": _greedy,
    "easy": _easy,
    "normal": _normal,
    "hard": _hard,
    "expert": _expert,
}

PLAYERS: Final[tuple[str, ...]] = tuple(_FACTORIES)
"""Every player name, weakest first (what ``koikoi simulate`` and ``--bot`` accept)."""
LEVELS: Final[tuple[str, ...]] = ("easy", "normal", "hard", "expert")
"""The levels the app offers, weakest first (its settings' and start screen's choices)."""


class UnknownPlayer(ValueError):
    """A player name that is not one of :data:`PLAYERS`."""


def get_player(name: str) -> Player:
    """A new player of this name; raises :class:`UnknownPlayer` for anything else."""
    try:
        factory = _FACTORIES[name]
    except (KeyError, TypeError):
        raise UnknownPlayer(f"unknown player {name!r} (choose from {', '.join(PLAYERS)})") from None
    return factory()
