"""The simple players: ``random`` and ``greedy`` (baselines) and ``easy`` (for beginners)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.knowledge import CARD_POINTS, STATIC_VALUE, captures, win_points
from koikoi.ai.stakes import settle
from koikoi.engine.cards import Card, CardSet, card_tuple
from koikoi.engine.match import Observation
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action, Phase
from koikoi.engine.yaku import base_points


class RandomPlayer:
    """Any legal action, uniformly: the floor every other player must beat."""

    name = "random"

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        return legal[rng.randrange(len(legal))]


def greedy_pick(pile: CardSet, targets: CardSet, card: Card) -> CardSet:
    """Of two field matches, the one that adds most yaku points, then card points (how
    ``greedy`` picks)."""
    base = base_points(pile)
    best, key = 0, (-1, -1)
    for t in card_tuple(targets):
        k = (base_points(pile | 1 << card | 1 << t) - base, CARD_POINTS[t])
        if k > key:
            best, key = 1 << t, k
    return best


def _taken(pile: CardSet, card: Card, field: CardSet) -> CardSet:
    """What playing ``card`` takes from ``field`` (picking the better of two matches)."""
    matches = captures(card, field)
    if matches.bit_count() == 2:
        return greedy_pick(pile, matches, card)
    return matches


class GreedyPlayer:
    """The capture worth the most yaku points right now, then the most card points;
    with nothing to take, throw away the cheapest card; shobu at once."""

    name = "greedy"

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        if obs.phase == Phase.DECIDE:
            return SHOBU
        pile = obs.captured[obs.seat]
        if obs.phase != Phase.PLAY:
            best = greedy_pick(pile, obs.candidates, obs.pending)
            return PICK_BASE + best.bit_length() - 1
        return greedy_play(pile, legal, obs.field)


def greedy_play(pile: CardSet, cards: Sequence[Card], field: CardSet) -> Card:
    """The card of ``cards`` (lowest first) ``greedy`` plays onto ``field`` with ``pile``
    taken so far: the one :func:`greedy_key` ranks highest, the first on a tie."""
    base = base_points(pile)
    choice, key = cards[0], (-1, -1, -100)
    for card in cards:
        k = greedy_key(pile, base, card, field)
        if k > key:
            choice, key = card, k
    return choice


def greedy_key(pile: CardSet, base: int, card: Card, field: CardSet) -> tuple[int, int, int]:
    """How ``greedy`` ranks playing ``card`` onto ``field`` with ``pile`` taken so far
    (``base`` its yaku points): yaku points gained, a capture before a throw, card points
    taken (a throw: minus the card's points). Its play is the highest, the lowest card on a
    tie."""
    taken = _taken(pile, card, field)
    if taken:
        gained = taken | 1 << card
        return (
            base_points(pile | gained) - base,
            1,
            sum(CARD_POINTS[c] for c in card_tuple(gained)),
        )
    return (0, 0, -CARD_POINTS[card])


def secures_match(obs: Observation) -> bool:
    """Shobu now ends the match as its winner (R2.3, R2.4): the last round, or the opponent
    paying out everything they have."""
    seat = obs.seat
    points = win_points(obs.totals[seat], obs.koikoi_count, obs.settings.doubling)
    mine = settle(obs.scores, seat, seat, points)
    return mine >= 50 or (obs.rounds_left == 0 and mine > 50 - mine)


class EasyPlayer:
    """A beginner: takes what it can, liking lights and animals, but sees no yaku coming,
    counts no cards and sometimes grabs the wrong thing; likes to say koikoi early."""

    name = "easy"
    blunder = 0.35
    """How often it takes a capture at random when it has several."""
    koikoi_chance = 0.5
    """How often it goes on with a small yaku and cards left."""
    koikoi_max_total = 4
    koikoi_min_hand = 4

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        seat = obs.seat
        pile = obs.captured[seat]
        if obs.phase == Phase.DECIDE:
            if KOIKOI not in legal or secures_match(obs):
                return SHOBU
            small = (
                obs.totals[seat] <= self.koikoi_max_total
                and obs.hand.bit_count() >= self.koikoi_min_hand
            )
            return KOIKOI if small and rng.random() < self.koikoi_chance else SHOBU
        if obs.phase != Phase.PLAY:  # a pick: the bigger card, always
            return max(legal, key=lambda a: STATIC_VALUE[a - PICK_BASE])
        takes = [c for c in legal if captures(c, obs.field)]
        if takes:
            if len(takes) > 1 and rng.random() < self.blunder:
                return takes[rng.randrange(len(takes))]
            base = base_points(pile)

            def value(card: Card) -> float:
                gained = _taken(pile, card, obs.field) | 1 << card
                yaku = base_points(pile | gained) - base
                return 3.0 * yaku + sum(STATIC_VALUE[c] for c in card_tuple(gained))

            return max(takes, key=value)
        low = min(CARD_POINTS[c] for c in legal)
        cheap = [c for c in legal if CARD_POINTS[c] == low]
        return cheap[rng.randrange(len(cheap))]
