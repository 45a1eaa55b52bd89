"""What every computer player is: a function of what its seat sees.

A player gets the seat's :class:`~koikoi.engine.match.Observation`, the legal actions, a
random generator and a :class:`Budget`, and returns one of the legal actions. It never gets
the round itself, so it cannot peek at the opponent's hand or the stock order (the honesty
tests shuffle those and check that no choice changes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from koikoi.engine.match import Observation
from koikoi.engine.round import Action


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a player may do for one decision.

    ``playouts`` counts simulated round endings (0: the player's own default), so a search is
    reproducible with a seed whatever the machine. The app may add a wall-clock cap:
    ``deadline`` is a :func:`time.monotonic` instant, and ``stop`` a callable (for example a
    ``threading.Event().is_set``) that another thread sets to cut the search short. A search
    cut short answers with the best action found so far, so the answer then depends on timing.
    """

    playouts: int = 0
    deadline: float | None = None
    stop: Callable[[], bool] | None = None

    def expired(self) -> bool:
        """True once the deadline has passed or ``stop`` says so."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return True
        return self.stop is not None and self.stop()

    def with_time_cap(self, seconds: float) -> Budget:
        """The same budget, cut off ``seconds`` from now."""
        return Budget(self.playouts, time.monotonic() + seconds, self.stop)


DEFAULT_BUDGET = Budget()


class Player(Protocol):
    """A computer player: ``choose`` returns one of ``legal`` (never anything else)."""

    name: str

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action: ...
