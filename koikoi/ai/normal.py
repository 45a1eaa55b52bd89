"""``normal``: a solid club player made of heuristics, well under a millisecond a move.

It plays the plain form of the heuristics that ``hard`` uses inside its search
(:class:`~koikoi.ai.hard.Policy`), without the search: each capture is valued by the yaku it
brings within reach (:func:`~koikoi.ai.knowledge.progress`, which knows a yaku is dead once
the opponent holds one of its cards) and by what it takes away from the opponent (blocking);
a capture that makes a yaku comes first, and the card thrown away is the one that would help
the opponent least, safest when every other card of its month is in view (card counting).
``hard``'s refinements (letting a capture nobody else can make wait, keeping the month of a
card it may take back, blocking harder when ahead late in the match) are left out.

Koikoi or shobu is a rule of thumb rather than ``hard``'s model: shobu when it wins the
match, koikoi in the last round when shobu cannot save it, and otherwise koikoi only with
a small yaku, cards left to improve it, and no yaku of the opponent one card away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.basic import secures_match
from koikoi.ai.hard import policy_choice
from koikoi.ai.knowledge import rising_cards, win_points
from koikoi.ai.stakes import settle
from koikoi.engine.match import Observation
from koikoi.engine.round import KOIKOI, SHOBU, Action, Phase

KOIKOI_MAX_TOTAL: Final = 6
"""Yaku worth more than this are banked at once."""
KOIKOI_MIN_HAND: Final = 4
"""Cards left in hand to go on for more."""


class NormalPlayer:
    """Sound heuristics (yaku in reach, blocking, card counting), no search."""

    name = "normal"

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if obs.phase == Phase.DECIDE:
            return decide(obs, legal)
        return policy_choice(obs, refined=False)


def decide(obs: Observation, legal: Sequence[Action]) -> Action:
    """Koikoi or shobu by rule of thumb."""
    if KOIKOI not in legal or secures_match(obs):
        return SHOBU
    me, they = obs.seat, 1 - obs.seat
    if obs.rounds_left == 0:
        points = win_points(obs.totals[me], obs.koikoi_count, obs.settings.doubling)
        if settle(obs.scores, me, me, points) * 2 <= 50:
            return KOIKOI  # shobu loses the match anyway
    if obs.totals[me] > KOIKOI_MAX_TOTAL or obs.hand.bit_count() < KOIKOI_MIN_HAND:
        return SHOBU
    theirs = obs.captured[they]
    reachable = (obs.field | obs.unseen) & ~obs.captured[me]
    if rising_cards(theirs, obs.baselines[they], reachable):
        return SHOBU  # they are one card from a yaku
    return KOIKOI
