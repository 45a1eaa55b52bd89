"""Koikoi or shobu (R7): the expected gain of going on, in match terms.

Going on is worth it when what the player may still add outweighs what the opponent may
take, both multiplied by the shared koikoi count (R9.3) and doubled at 8 points (R9.2),
capped by the stakes each side has left (R2.2) and weighed by what they do to the chance of
winning the match (:mod:`koikoi.ai.stakes`): in the last round a shobu that wins the match
is taken at once, and one that cannot save it is not.

The threats are counted from what the seat has seen: each card that would lift a player's
total (a yaku one card away, or one more card of a counting yaku), where it is (on the
field, or among the unseen cards: the opponent's hand or the stock), and the chance that
the player gets it on each of their remaining turns.

``hard`` decides by its playouts, which measure the same gain over whole sampled futures,
and falls back on this model when its search is given no time.
"""

from __future__ import annotations

from dataclasses import dataclass

from koikoi.ai.knowledge import hold_probability, progress, rising_cards, win_points
from koikoi.ai.stakes import match_value, settle
from koikoi.engine.cards import CARD_MONTH_MASK, CardSet, card_tuple
from koikoi.engine.match import Observation
from koikoi.engine.yaku import base_points


@dataclass(frozen=True, slots=True)
class KoikoiOutlook:
    """The model's view of a koikoi decision (all values are P(win the match))."""

    shobu: float
    """Match value after a shobu now."""
    koikoi: float
    """Expected match value after a koikoi."""
    mine_first: float
    """P(the player lifts its total again before the opponent makes a yaku)."""
    theirs_first: float
    """P(the opponent makes a yaku first)."""

    @property
    def go_on(self) -> bool:
        return self.koikoi > self.shobu


def _turn_chance(
    rising: CardSet, field: CardSet, unseen: CardSet, my_hand: CardSet | None, opp_hand_size: int
) -> float:
    """P(a player gets at least one of ``rising`` on one turn (their play and their draw).

    ``my_hand`` is the player's hand when known (the seat's own), None for the opponent,
    whose hand is ``opp_hand_size`` cards out of ``unseen``.
    """
    u = max(1, unseen.bit_count())
    miss = 1.0
    for c in card_tuple(rising):
        month = CARD_MONTH_MASK[c]
        bit = 1 << c
        mates_unseen = (unseen & month & ~bit).bit_count()
        if field & bit:
            if my_hand is not None:
                p = 1.0 if my_hand & month else mates_unseen / u
            else:
                p = hold_probability(mates_unseen, u, opp_hand_size) + mates_unseen / u
        elif my_hand is not None and my_hand & bit:
            p = 1.0 if field & month else 0.0
        elif unseen & bit:
            # it is drawn onto its month, or (the opponent's) it is in hand and played there
            on_field = bool(field & month)
            drawn = 1.0 / u if on_field else 0.0
            in_hand = opp_hand_size / u if my_hand is None and on_field else 0.0
            p = in_hand + drawn
        else:
            p = 0.0
        miss *= 1.0 - min(1.0, p)
    return 1.0 - miss


FAR_HAZARD = 0.03
FAR_HAZARD_PER_POINT = 0.015


def _far_hazard(pile: CardSet, dead: CardSet) -> float:
    return min(0.3, FAR_HAZARD + FAR_HAZARD_PER_POINT * progress(pile, dead))


def _mean_rise(pile: CardSet, rising: CardSet, baseline: int) -> int:
    if not rising:
        return baseline + 1
    totals = [base_points(pile | 1 << c) for c in card_tuple(rising)]
    return round(sum(totals) / len(totals))


def outlook(obs: Observation) -> KoikoiOutlook:
    """Weigh shobu against koikoi for the seat deciding in ``obs`` (phase DECIDE)."""
    me = obs.seat
    they = 1 - me
    doubling = obs.settings.doubling
    count = obs.koikoi_count
    mine, theirs = obs.captured[me], obs.captured[they]
    total = obs.totals[me]
    rounds_left = obs.rounds_left
    shobu_score = settle(obs.scores, me, me, win_points(total, count, doubling))
    shobu = match_value(shobu_score, rounds_left)

    hand = obs.hand
    unseen = obs.unseen
    field = obs.field
    reachable = field | unseen | hand
    my_rising = rising_cards(mine, total, reachable & ~theirs)
    their_baseline = obs.baselines[they]
    their_rising = rising_cards(theirs, their_baseline, (field | unseen) & ~mine)
    p_me = _turn_chance(my_rising, field, unseen, hand, obs.opponent_hand_size)
    p_they = _turn_chance(their_rising, field, unseen, None, obs.opponent_hand_size)
    # Yaku two or more cards away still come in over several turns: a hazard that grows
    # with how far along each pile is.
    p_me = 1.0 - (1.0 - p_me) * (1.0 - _far_hazard(mine, theirs))
    p_they = 1.0 - (1.0 - p_they) * (1.0 - _far_hazard(theirs, mine))

    # After a koikoi the opponent moves next; then turns alternate until the hands run out.
    mine_first = theirs_first = 0.0
    alive = 1.0
    their_turns, my_turns = obs.opponent_hand_size, hand.bit_count()
    while their_turns or my_turns:
        if their_turns:
            theirs_first += alive * p_they
            alive *= 1.0 - p_they
            their_turns -= 1
        if my_turns:
            mine_first += alive * p_me
            alive *= 1.0 - p_me
            my_turns -= 1
    my_points = win_points(_mean_rise(mine, my_rising, total), count + 1, doubling)
    their_base = max(_mean_rise(theirs, their_rising, their_baseline), 1)
    their_points = win_points(their_base, count + 1, doubling)
    koikoi = (
        mine_first * match_value(settle(obs.scores, me, me, my_points), rounds_left)
        + theirs_first * match_value(settle(obs.scores, me, they, their_points), rounds_left)
        + alive * match_value(obs.scores[me], rounds_left)
    )
    return KoikoiOutlook(shobu, koikoi, mine_first, theirs_first)
