"""A computer player in a seat of the driver's loop (:mod:`koikoi.driver`): its player, its
own random generator and its budget (``koikoi host --bot``, ``simulate``)."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence

from koikoi.ai import get_player
from koikoi.ai.base import DEFAULT_BUDGET, Budget, Player
from koikoi.engine.events import Event
from koikoi.engine.match import Observation
from koikoi.engine.round import Action


class AiSeat:
    """A computer player in a seat, with its own random generator and budget.

    ``time_cap`` (seconds) adds a wall-clock limit to each decision, for the app; without it
    a seeded seat plays the same way on any machine. ``decision_seconds`` keeps how long each
    real choice (two or more legal actions) took.
    """

    def __init__(
        self,
        player: Player,
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
        time_cap: float | None = None,
    ) -> None:
        self.player = player
        self.rng = rng
        self.budget = budget
        self.time_cap = time_cap
        self.decision_seconds: list[float] = []

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {observation.seat} asked to move with nothing to do")
        budget = self.budget
        if self.time_cap is not None:
            budget = budget.with_time_cap(self.time_cap)
        start = time.perf_counter()
        action = self.player.choose(observation, legal, self.rng, budget)
        if len(legal) > 1:
            self.decision_seconds.append(time.perf_counter() - start)
        if action not in legal:  # a bug in the player: fail loudly, never play it
            raise ValueError(f"player {self.player.name} chose {action!r}, not one of {legal}")
        return action

    def notify(self, events: Sequence[Event]) -> None:
        """Computer players decide from observations alone; events are not needed."""


def seat_rng(seed: int | bytes | str, *label: object) -> random.Random:
    """A generator determined by ``seed`` and the labels (stable across Python versions)."""
    text = repr((seed, *label)).encode()
    return random.Random(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


def bot_seat(
    name: str,
    seed: int | bytes | str | None = None,
    budget: Budget = DEFAULT_BUDGET,
    time_cap: float | None = None,
) -> AiSeat:
    """A seat for the player of this name (``koikoi host --bot NAME``, practice).

    Raises :class:`koikoi.ai.UnknownPlayer` for an unknown name. Without a seed the
    generator is seeded from the system, so games differ.
    """
    player = get_player(name)
    rng = random.Random() if seed is None else seat_rng(seed, name)
    return AiSeat(player, rng, budget, time_cap)
