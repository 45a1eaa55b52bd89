"""What runs in the computer's helper process, and nothing of Qt.

The helper imports this module, not :mod:`koikoi.ui.match.ai_worker`: without Qt it needs about
half the memory (some 20 MB instead of 40). The player function gets an observation and
returns an action; :func:`child_init` makes the helper exit when the app is gone (see
:mod:`koikoi.ui.match.ai_worker`).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.process import BaseProcess
from typing import Any

from koikoi.engine.cards import CARD_MONTH_MASK
from koikoi.engine.match import Observation
from koikoi.engine.round import PICK_BASE, SHOBU, Action

logger = logging.getLogger(__name__)


def quick_choice(obs: Observation, legal: Sequence[Action]) -> Action:
    """A move found without search: a capture if there is one, shobu when asked.

    Used only when the real player overran its time cap, failed, or is not installed.
    """
    if SHOBU in legal:
        return SHOBU
    for action in legal:
        if action < PICK_BASE and obs.field & CARD_MONTH_MASK[action]:
            return action
    return legal[0]


class _FallbackPlayer:
    name = "fallback"

    def choose(
        self, obs: Observation, legal: Sequence[Action], rng: random.Random, budget: Any = None
    ) -> Action:
        return quick_choice(obs, legal)


def load_player(level: str) -> Any:
    """The computer player of this level from ``koikoi.ai`` (a quick fallback if missing)."""
    try:
        from koikoi import ai

        get_player = ai.get_player
    except (ImportError, AttributeError):
        logger.warning("koikoi.ai has no get_player; the computer plays a quick fallback")
        return _FallbackPlayer()
    return get_player(level)


def make_budget(cap_seconds: float, stop: Callable[[], bool]) -> Any:
    """A search budget with the app's wall-clock cap (koikoi.ai.base.Budget when present)."""
    try:
        from koikoi.ai.base import Budget
    except ImportError:
        return None
    return Budget(0, time.monotonic() + cap_seconds, stop)


def choose(
    player: Any,
    obs: Observation,
    legal: tuple[Action, ...],
    rng: random.Random,
    cap_seconds: float,
    stop: Callable[[], bool],
) -> Action:
    budget = make_budget(cap_seconds, stop)
    if budget is None:
        return int(player.choose(obs, legal, rng))
    return int(player.choose(obs, legal, rng, budget))


# -- in the helper process ------------------------------------------------------------------

_child_current: Any = None
_child_players: dict[str, Any] = {}


def child_init(current: Any) -> None:
    global _child_current
    _child_current = current
    # Ctrl+C in a terminal reaches every process of its group: the app quits and stops us
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        watch = threading.Thread(
            target=_exit_with_parent, args=(parent,), name="koikoi-parent-watch", daemon=True
        )
        watch.start()


def _exit_with_parent(parent: BaseProcess) -> None:
    """Exit when the app is gone, however it went (a crash, SIGKILL): nothing else would
    end this process, as it holds its own task queue open and waits on it forever."""
    parent.join()
    os._exit(0)


def child_choose(
    level: str,
    token: int,
    obs: Observation,
    legal: tuple[Action, ...],
    rng: random.Random,
    cap_seconds: float,
) -> int:
    """Runs in the helper process: the search stops early once its token is not current."""
    player = _child_players.get(level)
    if player is None:
        player = _child_players[level] = load_player(level)
    current = _child_current
    return choose(player, obs, legal, rng, cap_seconds, lambda: current.value != token)


def advise(obs: Observation, rng: random.Random, cap_seconds: float) -> list[Any]:
    """The coach's ranking of the legal moves (:func:`koikoi.ai.coach.advise`), within
    ``cap_seconds``; in the helper process or a thread."""
    from koikoi.ai.base import Budget
    from koikoi.ai.coach import advise as rank

    return rank(obs, rng, budget=Budget(0, time.monotonic() + cap_seconds))


def review_round(choices: list[Any], rng: random.Random, cap_seconds: float) -> list[Any]:
    """The coach's review of a round's choices (:func:`koikoi.ai.coach.review`), within
    ``cap_seconds``; in the helper process or a thread."""
    from koikoi.ai.base import Budget
    from koikoi.ai.coach import review

    return review(choices, rng, budget=Budget(0, time.monotonic() + cap_seconds))


def child_warm() -> bool:
    """The first real request should not pay for the imports."""
    import koikoi.ai  # noqa: F401

    return True
