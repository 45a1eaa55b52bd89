"""``expert``: ``hard``'s search on hands read from every play the opponent made this deal.

``hard`` reads one thing from the opponent's play: a seat that threw a card away held no
card that could capture (:func:`~koikoi.ai.hard.suspects`). Every other play says something
too: a seat that took the plain of one month, holding the crane's month with the crane on
the field, most likely did not hold a pine. ``expert`` weighs each sampled hand by how
likely the opponent's plays were had it held it (Bayes' rule, the prior being the uniform
deal of the unseen cards):

* the hand the opponent held at an earlier play is the hand it holds now (the sample) plus
  the cards it played since, all public;
* the opponent is modelled as a noisy version of the playout policy
  (:class:`~koikoi.ai.hard.Policy`): at each play it chooses card ``x`` with probability
  proportional to ``exp(BETA * score(x))``, a capture scored by what it takes and a
  throw by what it gives away, a capture ``CAPTURE`` above a throw;
* the likelihood of a hand is the product over the opponent's plays of that choice's
  probability. The numerator is the same for every sample, so a hand's weight is the
  product of ``1 / sum(exp(BETA * score(x)) for x in the hand it then held)``.

Samples are drawn by a Metropolis chain over the opponent's hands (a few swaps of a card
between its hand and the rest of the unseen cards for each sample, each kept by the ratio
of the weights); the stock is then shuffled uniformly. The
search itself is ``hard``'s (successive halving over common samples, the policy's move kept
unless beaten by more than the noise, the koikoi decision by playouts valued in match terms),
with the budget the 300 ms a decision allows on the project's machine.

The opponent's picks between two field cards and its koikoi calls are left out of the
reading: a pick is between two public cards, and a koikoi depends on the whole position
more than on one card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from koikoi.ai import hard
from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.hard import (
    Policy,
    koikoi_or_shobu,
    policy_choice,
    scaled_playouts,
    search,
)
from koikoi.engine.cards import CARD_MONTH_MASK, NUM_CARDS, Card, CardSet, card_tuple
from koikoi.engine.match import Observation, determinize
from koikoi.engine.round import PICK_BASE, Action, Phase, Round

DEFAULT_PLAYOUTS: Final = 2000
"""The app's budget (``hard`` has 1,200): p95 under 300 ms a decision on the project's
machine (docs/benchmarks.md)."""

# The reading's weights (module attributes so that tuning runs can vary them).
BETA = 0.5
"""How sharply the model opponent prefers its better plays (0: it plays at random)."""
CAPTURE = 3.0
"""How much a capture scores above a throw in the model opponent's eyes."""
CLIP = 12.0
"""Scores are kept within ±CLIP so that no single play rules a hand out entirely."""
STEPS = 3
"""Swaps proposed between two samples of the chain over the opponent's hands."""
BURN_IN = 4
"""Swaps a card of the hand proposed before the first sample."""
NOISE = 0.2
"""The share of the model opponent's plays made at random, whatever it holds (so that a
play against the model's taste weakens a hand rather than ruling it out)."""
TEMPO = 1.0
"""How much of the policy's ``TEMPO`` the model opponent applies to a capture that nobody
else could make (every other card of the month on the field, in a pile or played by it)."""


class Reading:
    """What the opponent's plays this deal say about the hand it holds now.

    :meth:`weight` is the likelihood of the opponent's plays had it held ``hand`` now, up to
    a factor common to every hand; :meth:`draw` deals the hidden cards by it.
    """

    __slots__ = ("obs", "terms", "unseen", "_hand", "_rest", "_z")

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.unseen = card_tuple(obs.unseen)
        other = 1 - obs.seat
        policy = Policy(obs)
        take, give = policy.take[other], policy.give[other]
        mask = CARD_MONTH_MASK
        terms: list[tuple[float, float, float, list[float]]] = []
        played_since = 0  # the opponent's cards played at this move or later
        piles = obs.captured[0] | obs.captured[1]
        tempo = TEMPO * hard.TEMPO
        for seat, action, field in reversed(obs.moves):
            if seat != other or action >= PICK_BASE:
                continue
            played_since |= 1 << action
            scores = [0.0] * NUM_CARDS
            open_ = ~(field | piles | played_since)
            for x in range(NUM_CARDS):
                matches = field & mask[x]
                if matches:
                    got = [take[t] for t in card_tuple(matches)]
                    s = take[x] + (max(got) if len(got) == 2 else sum(got)) + CAPTURE
                    if not mask[x] & open_:
                        s -= tempo
                else:
                    s = -give[x]
                scores[x] = math.exp(BETA * max(-CLIP, min(CLIP, s)))
            known = sum(scores[x] for x in card_tuple(played_since))
            size = obs.opponent_hand_size + played_since.bit_count()
            terms.append((known, scores[action], NOISE / size, scores))
        self.terms = terms
        self._hand: list[Card] | None = None
        self._rest: list[Card] | None = None
        self._z: list[float] | None = None

    def weight(self, hand: CardSet) -> float:
        """The likelihood of the opponent's plays given it holds ``hand`` now (unnormalised)."""
        w = 1.0
        cards = card_tuple(hand)
        keep = 1.0 - NOISE
        for known, chosen, noise, scores in self.terms:
            z = known
            for x in cards:
                z += scores[x]
            w *= noise + keep * chosen / z
        return w

    def draw(self, rng: random.Random) -> Round:
        """One deal of the hidden cards, the opponent's hand by its weight.

        A Metropolis chain over hands: each draw proposes ``STEPS`` swaps of a card of the
        hand with an unseen card outside it and keeps each with probability
        ``min(1, new weight / old weight)`` (the first draw starts from a uniform hand and
        runs ``BURN_IN`` swaps a card first); the stock is then shuffled uniformly.
        """
        obs = self.obs
        h = obs.opponent_hand_size
        if not self.terms or h == 0 or h == len(self.unseen):
            hidden = list(self.unseen)
            rng.shuffle(hidden)
            return determinize(obs, sum(1 << c for c in hidden[:h]), hidden[h:])
        if self._hand is None:
            hidden = list(self.unseen)
            rng.shuffle(hidden)
            self._hand, self._rest = hidden[:h], hidden[h:]
            self._z = [self._sum(t, self._hand) for t in range(len(self.terms))]
            steps = BURN_IN * h
        else:
            steps = STEPS
        hand, rest, z = self._hand, self._rest, self._z
        assert rest is not None and z is not None
        terms = self.terms
        keep = 1.0 - NOISE
        w = self._likelihood(z)
        randrange, random_ = rng.randrange, rng.random
        n_rest = len(rest)
        for _ in range(steps):
            i, j = randrange(h), randrange(n_rest)
            out, into = hand[i], rest[j]
            new_z = [zt + s[into] - s[out] for zt, (_, _, _, s) in zip(z, terms, strict=True)]
            new_w = 1.0
            for zt, (_, chosen, noise, _) in zip(new_z, terms, strict=True):
                new_w *= noise + keep * chosen / zt
            if new_w >= w or random_() * w < new_w:
                hand[i], rest[j] = into, out
                z, w = new_z, new_w
        self._z = z
        stock = list(rest)
        rng.shuffle(stock)
        return determinize(obs, sum(1 << c for c in hand), stock)

    def _sum(self, t: int, hand: Sequence[Card]) -> float:
        known, _, _, scores = self.terms[t]
        return known + sum(scores[x] for x in hand)

    def _likelihood(self, z: Sequence[float]) -> float:
        keep = 1.0 - NOISE
        w = 1.0
        for zt, (_, chosen, noise, _) in zip(z, self.terms, strict=True):
            w *= noise + keep * chosen / zt
        return w


class ExpertPlayer:
    """``hard``'s search over hands weighted by every play the opponent made."""

    name = "expert"
    playouts = DEFAULT_PLAYOUTS

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]  # before the reading is made: nothing to weigh
        return play_on(obs, legal, rng, budget, self.playouts, Reading(obs).draw)


def play_on(
    obs: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget,
    playouts: int,
    draw: Callable[[random.Random], Round],
    policy: Policy | None = None,
) -> Action:
    """``expert``'s choice with the hidden cards of each sample dealt by ``draw`` (and the
    samples played out by ``policy``, by default the playout policy of the position)."""
    if len(legal) == 1:
        return legal[0]
    n = scaled_playouts(obs, budget.playouts or playouts)
    if obs.phase == Phase.DECIDE:
        return koikoi_or_shobu(obs, rng, n, budget, draw=draw, policy=policy)
    default = policy_choice(obs)
    return search(obs, legal, rng, n, budget, default=default, draw=draw, policy=policy)
