"""The coach's hint: ``expert``'s ranking of the legal moves, each with its reasons.

:func:`advise` plays out ``expert``'s samples (hands read from the opponent's plays) after
every distinct legal move alike and gives them best first, each with the chance of winning
the match after it (the mean match value of its playouts) and what a player can
see for themselves in it:

* :attr:`Advice.takes`: the field cards it captures (nothing: the card stays on the field;
  two: :attr:`Advice.choice`, one of them, as the player picks);
* :attr:`Advice.makes`: the yaku its capture completes now;
* :attr:`Advice.near`: the yaku it brings within one card (one more card of those still
  unseen or on the field would complete it; not before the move);
* :attr:`Advice.offers`: the yaku a card it leaves on the field would complete for the
  opponent, who may take it next.

For the koikoi decision the two moves are koikoi and shobu, with their chances. The words are
the window's (:mod:`koikoi.ui.match.coach_words`); nothing here knows a language. The search
sees only the seat's observation, as the players do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.expert import DEFAULT_PLAYOUTS, Reading
from koikoi.ai.hard import Policy, distinct, scaled_playouts
from koikoi.engine.cards import ALL_CARDS, CARD_MONTH_MASK, PLAINS, Card, CardSet, card_tuple
from koikoi.engine.match import Observation
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action, Phase
from koikoi.engine.yaku import Yaku, yaku_of

__all__ = ["HINT_PLAYOUTS", "REVIEW_PLAYOUTS", "Advice", "Mistake", "advise", "card_of", "review"]

HINT_PLAYOUTS: Final = DEFAULT_PLAYOUTS
"""``expert``'s own budget: a hint costs what one of its decisions does (p95 ≤ 300 ms)."""


REVIEW_PLAYOUTS: Final = HINT_PLAYOUTS // 2
"""A round's review weighs each of the player's choices with half a hint's playouts."""
MOST_MISTAKES: Final = 3
LEAST_COST: Final = 0.02
"""A choice that cost less win chance than this is not called a mistake (the playouts'
noise between two moves is about that)."""


@dataclass(frozen=True)
class Advice:
    """One legal move and what the coach says of it."""

    action: Action
    chance: float
    """The chance of winning the match after it, 0 to 1 (the search's estimate)."""
    samples: int
    """How many sampled deals the estimate is the mean of."""
    takes: CardSet = 0
    choice: bool = False
    """The card meets two field cards: it takes one of :attr:`takes`, the player's pick."""
    makes: tuple[Yaku, ...] = ()
    near: tuple[Yaku, ...] = ()
    offers: tuple[Yaku, ...] = ()
    points: float = 0.0
    """The round's points after it, on average over the playouts: the seat's, the opponent's
    taken off (koikoi against shobu: what either is worth in points)."""
    lost: float = 0.0
    """The chance the opponent wins the round after it (a koikoi's risk)."""


def card_of(action: Action) -> Card | None:
    """The card a move plays or picks; None for koikoi and shobu."""
    if action < PICK_BASE:
        return action
    if action < KOIKOI:
        return action - PICK_BASE
    return None


def advise(
    obs: Observation,
    rng: random.Random,
    playouts: int = HINT_PLAYOUTS,
    budget: Budget = DEFAULT_BUDGET,
) -> list[Advice]:
    """The seat's legal moves in ``obs``, best first (see the module); empty when it has
    none. One move alone is given at once, with no search (chance and samples 0)."""
    legal = obs.legal_actions
    if not legal:
        return []
    actions = distinct(obs, legal)
    if len(actions) == 1:
        return [_advice(obs, actions[0], 0.0, 0)]
    n = scaled_playouts(obs, budget.playouts or playouts)
    runs = _playouts(obs, actions, rng, n, budget)

    def order(action: Action) -> tuple[float, bool]:
        return (_mean([v for v, _, _ in runs[action]], -1.0), action == SHOBU)  # shobu on a tie

    out = []
    for a in sorted(actions, key=order, reverse=True):
        played = runs[a]
        advice = _advice(obs, a, _mean([v for v, _, _ in played]), len(played))
        points = _mean([p for _, p, _ in played])
        lost = _mean([1.0 if t else 0.0 for _, _, t in played])
        out.append(replace(advice, points=points, lost=lost))
    return out


def _mean(values: Sequence[float], empty: float = 0.0) -> float:
    return sum(values) / len(values) if values else empty


def _playouts(
    obs: Observation, actions: Sequence[Action], rng: random.Random, n: int, budget: Budget
) -> dict[Action, list[tuple[float, int, bool]]]:
    """About ``n`` playouts shared out evenly: each sampled deal is played out after every
    move, so that the chances shown side by side are of the same deals (``expert``'s own
    search halves the field as it goes, and a move it dropped early has a noisier mean).
    Each playout gives the match value, the round's points for the seat (the opponent's
    negative) and whether the opponent won the round."""
    policy = Policy(obs)
    draw = Reading(obs).draw
    runs: dict[Action, list[tuple[float, int, bool]]] = {a: [] for a in actions}
    timed = budget.deadline is not None or budget.stop is not None
    me = obs.seat
    for _ in range(max(2, n // len(actions))):
        if timed and budget.expired():
            break
        base = draw(rng)
        for a in actions:
            r = base.copy()
            r.push(a)
            value = policy.run(r)
            result = r.result
            points, theirs = 0, False
            if result is not None and result.outcome is Outcome.WIN and result.winner is not None:
                theirs = result.winner != me
                points = -result.points if theirs else result.points
            runs[a].append((value, points, theirs))
    return runs


def _advice(obs: Observation, action: Action, chance: float, samples: int) -> Advice:
    card = card_of(action)
    if card is None or obs.phase == Phase.DECIDE:
        return Advice(action, chance, samples)
    me, them = obs.seat, 1 - obs.seat
    pile = obs.captured[me]
    if action >= PICK_BASE:  # the pending card takes the picked one
        takes = 1 << card
        taken = takes | (1 << obs.pending if obs.pending >= 0 else 0)
        left: CardSet = 0
    else:
        meets = obs.field & CARD_MONTH_MASK[card]
        count = meets.bit_count()
        if count == 0:
            takes, taken, left = 0, 0, 1 << card
        else:  # one or three: all of them; two: a pick follows, either may be taken
            takes = meets
            taken = (meets | 1 << card) if count != 2 else 1 << card
            left = 0
    after = pile | taken
    before_yaku = {y for y, _ in yaku_of(pile)}
    after_yaku = {y for y, _ in yaku_of(after)}
    makes = tuple(y for y in Yaku if y in after_yaku and y not in before_yaku)
    theirs = obs.captured[them]
    near_after = _one_card_away(after, ALL_CARDS & ~after & ~theirs)
    near_before = _one_card_away(pile, ALL_CARDS & ~pile & ~theirs)
    near = tuple(y for y in Yaku if y in near_after and y not in near_before | after_yaku)
    their_yaku = {y for y, _ in yaku_of(theirs)}
    offers: tuple[Yaku, ...] = ()
    if left:
        offers = tuple(y for y in Yaku if y in {z for z, _ in yaku_of(theirs | left)} - their_yaku)
    choice = action < PICK_BASE and takes.bit_count() == 2
    return Advice(action, chance, samples, takes, choice, makes, near, offers)


def _one_card_away(pile: CardSet, reachable: CardSet) -> set[Yaku]:
    """The yaku ``pile`` lacks that one more card of ``reachable`` would complete."""
    have = {y for y, _ in yaku_of(pile)}
    out: set[Yaku] = set()
    for c in card_tuple(reachable):
        out.update(y for y, _ in yaku_of(pile | 1 << c) if y not in have)
    return out


@dataclass(frozen=True)
class Mistake:
    """A choice of the player's that the coach would have made otherwise."""

    choice: int
    """Its index among the choices given to :func:`review`."""
    action: Action
    chance: float
    """The win chance after it, by the same playouts as :attr:`better`'s."""
    better: Advice

    @property
    def cost(self) -> float:
        """The win chance it gave away."""
        return self.better.chance - self.chance


def review(
    choices: Sequence[tuple[Observation, Action]],
    rng: random.Random,
    playouts: int = REVIEW_PLAYOUTS,
    budget: Budget = DEFAULT_BUDGET,
) -> list[Mistake]:
    """The (at most :data:`MOST_MISTAKES`) choices of ``choices`` — each the position a
    player chose in and what they chose — that cost the most win chance, the costliest
    first; a choice that cost under :data:`LEAST_COST`, or had no other move, is none. A
    budget that runs out leaves the choices not yet weighed out."""
    found = []
    for n, (obs, action) in enumerate(choices):
        if budget.expired():
            break
        if len(distinct(obs, obs.legal_actions)) < 2:
            continue
        ranked = advise(obs, rng, playouts, budget)
        mine = _the_same_move(obs, action, ranked)
        if mine is not None and ranked[0].chance - mine.chance >= LEAST_COST:
            found.append(Mistake(n, action, mine.chance, ranked[0]))
    found.sort(key=lambda m: m.cost, reverse=True)
    return found[:MOST_MISTAKES]


def _the_same_move(obs: Observation, action: Action, ranked: Sequence[Advice]) -> Advice | None:
    """``action``'s advice: its own, or that of the move ``distinct`` kept for it (the other
    plain of its month)."""
    for advice in ranked:
        if advice.action == action:
            return advice
    card = card_of(action)
    if card is None:
        return None
    for advice in ranked:
        other = card_of(advice.action)
        same_kind = (advice.action >= PICK_BASE) == (action >= PICK_BASE)
        plains = other is not None and PLAINS >> other & 1 and PLAINS >> card & 1
        if other is not None and same_kind and plains and CARD_MONTH_MASK[other] >> card & 1:
            return advice  # the month's other plain: the same game (R6)
    return None
