"""``hard``: determinized Monte Carlo search valued in match terms.

For each decision the player deals out the hidden cards many times, each time consistently
with everything its seat has seen (:func:`~koikoi.engine.match.determinize`: the unseen
cards split between the opponent's hand and the stock in a random order), tries every legal
action on the same deals (common random numbers, so the comparison between actions is not
drowned in the luck of the deal), and plays each round to its end with a fast playout policy
for both sides through the engine's unchecked door. Actions are compared by successive
halving: each pass spends its share of the budget on the better half of the previous pass.
The policy's own move is the default, and a searched move replaces it only when it is
better by more than the noise of the samples.

A round's end is valued by what it does to the chance of winning the match
(:func:`~koikoi.ai.stakes.match_value`): the transfer capped by the stakes left, the round
number and the score. So the koikoi decision weighs the opponent's threats in the sampled
hands, the shared multiplier and the 8-point doubling as the engine scores them, and in the
last round a shobu that wins the match is taken at once. The playout policy itself weighs
blocking against building by the match score (:func:`caution`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.basic import secures_match
from koikoi.ai.knowledge import STATIC_VALUE, card_gains
from koikoi.ai.koikoi_model import outlook
from koikoi.ai.stakes import SWINGS, TOTAL, value_table
from koikoi.engine.cards import (
    ALL_CARDS,
    CARD_MONTH_MASK,
    MONTH_LOW_BITS,
    NUM_CARDS,
    PLAINS,
    CardSet,
    card_tuple,
)
from koikoi.engine.match import Observation, determinize
from koikoi.engine.outcome import Outcome
from koikoi.engine.round import KOIKOI, PICK_BASE, SHOBU, Action, Phase, Round
from koikoi.engine.yaku import base_points, round_points

DEFAULT_PLAYOUTS: Final = 1200
"""The app's budget: about 100 ms a decision on one core of a slow machine."""

_PLAY, _DECIDE, _OVER = Phase.PLAY, Phase.DECIDE, Phase.OVER
_MONTH_MASK: Final = CARD_MONTH_MASK
_NOT_PLAIN: Final = ALL_CARDS & ~PLAINS

# The playout policy's weights (module attributes so that tuning runs can vary them).
YAKU_BONUS = 12.0
"""A capture that lifts the total right now, against any other."""
STATIC_WEIGHT = 0.5
"""How much a card's general worth counts beside the yaku it helps now."""
DENY = 0.5
"""Taking what the other seat needs, against what one needs oneself."""
KEEP = 0.3
"""Reluctance to throw away a card one could use."""
SAFE = 0.2
"""How much of a thrown card's danger is left when nobody else can hold its month."""
TEMPO = 8.0
"""How much later a capture nobody else can make may wait."""
PAIR = 0.5
"""How much of a thrown card's danger is left when we hold a card of its month."""
LATE_FACTOR = 3.0
"""At most this many times the budget for a decision late in a round."""
CONFIDENCE = 1.0
"""Standard errors by which a searched move must beat the policy's own to replace it."""
SUSPECT_WEIGHT = 0.05
"""How likely, against another unseen card, the opponent is to hold a card it could have
captured with when it threw a card away instead (see :func:`suspects`)."""
SUSPECT_INVERSE = 1 / SUSPECT_WEIGHT


class Policy:
    """The fast playout policy, and the valuation of a round's end in match terms.

    It sees what a player at the table would: its own hand, the field and the piles (never
    the other hand or the stock order, which in a sample are only guesses). Each seat takes
    the capture worth most to it (its yaku progress plus what it denies the other seat, from
    tables made once per decision), a capture that lifts its total first, and throws away
    the card that would help the other seat least.
    """

    __slots__ = (
        "me",
        "scores",
        "values",
        "rounds_left",
        "doubling",
        "take",
        "give",
        "tempo",
        "pair",
    )

    def __init__(self, obs: Observation, refined: bool = True) -> None:
        """Tables for the position of ``obs``. Without ``refined`` the policy is the plain
        one ``normal`` plays: no waiting with captures nobody else can make, no keeping the
        month of a card it may take back, and no regard for the match score."""
        self.tempo = TEMPO if refined else 0.0
        self.pair = PAIR if refined else 1.0
        self.me = obs.seat
        self.scores = obs.scores
        self.rounds_left = obs.rounds_left
        self.values = value_table(obs.rounds_left)
        self.doubling = obs.settings.doubling
        piles = obs.captured
        gains = (
            card_gains(piles[0], piles[1], ALL_CARDS),
            card_gains(piles[1], piles[0], ALL_CARDS),
        )
        take = []
        give = []
        static = [STATIC_VALUE[c] * STATIC_WEIGHT for c in range(NUM_CARDS)]
        for seat in (0, 1):
            own, other = gains[seat], gains[1 - seat]
            fear = caution(obs.scores[seat], obs.rounds_left) if refined else 1.0
            deny = DENY * fear
            take.append([static[c] + own[c] + deny * other[c] for c in range(NUM_CARDS)])
            give.append([static[c] + fear * other[c] + KEEP * own[c] for c in range(NUM_CARDS)])
        self.take = take
        self.give = give

    def run(self, r: Round) -> float:
        """Play ``r`` out (it is changed) and return the match value for our seat."""
        while True:
            phase = r.phase
            if phase == _PLAY:
                r.push(self.play(r))
            elif phase == _DECIDE:
                r.push(self.decide(r))
            elif phase == _OVER:
                return self.value(r)
            else:
                r.push(self.pick(r))

    def play(self, r: Round) -> Action:
        seat = r.turn
        hand = r.hands[seat]
        field = r.field
        # the hand's cards whose month is on the field
        takes = hand & ((field | field >> 1 | field >> 2 | field >> 3) & MONTH_LOW_BITS) * 0xF
        mask = _MONTH_MASK
        if takes:
            val = self.take[seat]
            pile = r.captured[seat]
            now = r.totals[seat]
            plains = (pile & PLAINS).bit_count()
            seen = field | r.captured[0] | r.captured[1] | hand
            best, best_v = -1, -1e9
            for c in card_tuple(takes):
                matches = field & mask[c]
                v = val[c]
                if not mask[c] & ~seen:  # nobody else can take these: they can wait
                    v -= self.tempo
                got = 1 << c
                if matches.bit_count() == 2:  # a pick: count the better card
                    a, b = card_tuple(matches)
                    t = a if val[a] >= val[b] else b
                    v += val[t]
                    got |= 1 << t
                else:
                    for t in card_tuple(matches):
                        v += val[t]
                    got |= matches
                # only a non-plain card or a tenth plain can lift the total
                if (got & _NOT_PLAIN or plains + (got & PLAINS).bit_count() >= 10) and base_points(
                    pile | got
                ) > now:
                    v += YAKU_BONUS
                if v > best_v:
                    best, best_v = c, v
            return best
        val = self.give[seat]
        seen = field | r.captured[0] | r.captured[1] | hand
        best, best_v = -1, 1e9
        for c in card_tuple(hand):
            month = mask[c]
            v = val[c]
            if not month & ~seen:  # every other card of the month is in view: nobody can take it
                v *= SAFE
            elif hand & month & ~(1 << c):  # we hold its mate and may take it back
                v *= self.pair
            if v < best_v:
                best, best_v = c, v
        return best

    def pick(self, r: Round) -> Action:
        """Of two field matches, the better card, a yaku first."""
        seat = r.turn
        val = self.take[seat]
        pile = r.captured[seat] | 1 << r.pending
        now = r.totals[seat]
        a, b = card_tuple(r.field & _MONTH_MASK[r.pending])
        va = val[a] + (YAKU_BONUS if base_points(pile | 1 << a) > now else 0.0)
        vb = val[b] + (YAKU_BONUS if base_points(pile | 1 << b) > now else 0.0)
        return PICK_BASE + (a if va >= vb else b)

    def decide(self, r: Round) -> Action:
        """Shobu, unless it cannot save the match while going on still might."""
        if r.last_turn:
            return SHOBU
        seat = r.turn
        if self.rounds_left == 0:
            points = round_points(r.totals[seat], r.koikoi_count, self.doubling)[1]
            mine = self.scores[seat] + min(points, self.scores[1 - seat])
            if mine * 2 <= TOTAL:
                return KOIKOI
        return SHOBU

    def value(self, r: Round) -> float:
        """P(our seat wins the match) after the round ``r`` has ended."""
        result = r.result
        assert result is not None
        mine = self.scores[self.me]
        if result.outcome is Outcome.WIN and result.winner is not None:
            if result.winner == self.me:
                mine += min(result.points, TOTAL - mine)
            else:
                mine -= min(result.points, mine)
        return self.values[mine]


def caution(score: int, rounds_left: int) -> float:
    """How much more a player with ``score`` stands to lose from the other side's points
    than to gain from its own, in match value (between 1/4 and 4).

    Ahead in the last rounds, points given away hurt more than points won help (and past a
    safe lead only the other side's points matter); behind, the reverse. The playout policy
    weighs blocking against building by this.
    """
    table = value_table(rounds_left)
    here = table[score]
    up = down = 0.0
    for k, p in SWINGS:
        up += p * (table[min(TOTAL, score + k)] - here)
        down += p * (here - table[max(0, score - k)])
    if up <= 1e-9:
        return 4.0 if down > 1e-9 else 1.0
    return max(0.25, min(4.0, down / up))


def suspects(obs: Observation) -> CardSet:
    """The unseen cards the opponent's own play says it most likely does not hold.

    A seat that threw a card away (played it onto a field with nothing of its month) would
    have captured instead, had it held a card of a month on that field: so it probably held
    none, and cards only leave a hand. Players nearly always capture when they can; a
    sample gives these cards a small weight rather than none, for the player who did not.
    """
    other = 1 - obs.seat
    out = 0
    for seat, action, field in obs.moves:
        if seat == other and action < PICK_BASE and not field & _MONTH_MASK[action]:
            out |= ((field | field >> 1 | field >> 2 | field >> 3) & MONTH_LOW_BITS) * 0xF
    return out & obs.unseen


def sample(obs: Observation, rng: random.Random, suspect: CardSet = 0) -> Round:
    """One deal of the hidden cards consistent with the observation.

    The opponent's hand is drawn from the unseen cards, each ``suspect`` card
    ``SUSPECT_WEIGHT`` times as likely as another (weighted sampling without replacement
    by random keys); the rest make the stock in a uniformly random order.
    """
    rand = rng.random
    h = obs.opponent_hand_size
    if suspect:
        weak = SUSPECT_INVERSE
        keyed = sorted(
            card_tuple(obs.unseen),
            key=lambda c: rand() ** weak if suspect >> c & 1 else rand(),
            reverse=True,
        )
        stock = sorted(keyed[h:], key=lambda _: rand())
        return determinize(obs, sum(1 << c for c in keyed[:h]), stock)
    hidden = sorted(card_tuple(obs.unseen), key=lambda _: rand())
    opponent = 0
    for c in hidden[:h]:
        opponent |= 1 << c
    return determinize(obs, opponent, hidden[h:])


def distinct(obs: Observation, legal: Sequence[Action]) -> list[Action]:
    """The legal actions less those that are the same move as an earlier one.

    Two plain cards of one month are interchangeable for every yaku (R6), so playing or
    picking either leads to the same game.
    """
    out: list[Action] = []
    seen_plain_months = 0
    for a in legal:
        card = a if a < PICK_BASE else a - PICK_BASE if a < KOIKOI else -1
        if card >= 0 and PLAINS >> card & 1:
            month = _MONTH_MASK[card]
            if seen_plain_months & month:
                continue
            seen_plain_months |= month
        out.append(a)
    return out


def estimate(
    obs: Observation,
    actions: Sequence[Action],
    rng: random.Random,
    playouts: int,
    budget: Budget = DEFAULT_BUDGET,
    keep: Action | None = None,
    draw: Callable[[random.Random], Round] | None = None,
    policy: Policy | None = None,
) -> dict[Action, list[float]]:
    """Playout values of ``actions`` (match values for the seat), sample by sample.

    Successive halving: pass k gives the surviving actions an equal share of the budget on
    fresh samples shared by all of them (so the lists line up from their ends), then keeps
    the better half; the last pass has two. ``keep`` survives every pass. A budget that
    expires stops the search between samples. ``draw`` deals the hidden cards for each
    sample (default: :func:`sample`, reading the opponent's throws by :func:`suspects`);
    ``policy`` plays the samples out (default: :class:`Policy` for the position).
    """
    alive = list(actions)
    if policy is None:
        policy = Policy(obs)
    values: dict[Action, list[float]] = {a: [] for a in alive}
    passes = max(1, (len(alive) - 1).bit_length())
    per_pass = playouts // passes
    timed = budget.deadline is not None or budget.stop is not None
    if draw is None:
        suspect = suspects(obs) if SUSPECT_WEIGHT < 1.0 else 0

        def draw(rng: random.Random) -> Round:
            return sample(obs, rng, suspect)

    for _ in range(passes):
        for _ in range(max(1, per_pass // len(alive))):
            if timed and budget.expired():
                return values
            base = draw(rng)
            for a in alive:
                r = base.copy()
                r.push(a)
                values[a].append(policy.run(r))
        if len(alive) <= 2:
            break
        alive.sort(key=lambda a: _mean(values[a]), reverse=True)
        survivors = alive[: max(2, (len(alive) + 1) // 2)]
        if keep is not None and keep not in survivors:
            survivors[-1] = keep
        alive = survivors
    return values


def search(
    obs: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    playouts: int,
    budget: Budget = DEFAULT_BUDGET,
    default: Action | None = None,
    draw: Callable[[random.Random], Round] | None = None,
    policy: Policy | None = None,
) -> Action:
    """The action with the best mean match value over about ``playouts`` playouts.

    With a ``default`` (the policy's own choice), another action replaces it only when
    better by more than ``CONFIDENCE`` standard errors of the paired differences: a search
    too small to tell two moves apart keeps the sound one instead of following its noise.
    """
    actions = distinct(obs, legal)
    if default is not None and default not in actions:
        default = None
    if len(actions) == 1:
        return actions[0]
    values = estimate(obs, actions, rng, playouts, budget, keep=default, draw=draw, policy=policy)
    longest = max(len(v) for v in values.values())
    finalists = [a for a in actions if len(values[a]) == longest]
    # A tie between koikoi and shobu goes to shobu: the points in hand.
    best = max(finalists, key=lambda a: (_mean(values[a]), a == SHOBU))
    if default is None or best == default:
        return best
    return best if significantly_better(values[best], values[default]) else default


def significantly_better(a: list[float], b: list[float]) -> bool:
    """Whether ``a`` beats ``b`` by ``CONFIDENCE`` standard errors, sample for sample."""
    n = min(len(a), len(b))
    if n < 2:
        return False
    diffs = [x - y for x, y in zip(a[-n:], b[-n:], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > CONFIDENCE * math.sqrt(var / n)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -1.0


def policy_choice(obs: Observation, refined: bool = True) -> Action:
    """The playout policy's move for the seat to move in ``obs``.

    The policy reads only the seat's own hand, the field and the piles, so the sample of
    hidden cards it is given to read them from cannot change its choice.
    """
    r = sample(obs, random.Random(0))
    policy = Policy(obs, refined)
    if obs.phase == Phase.PLAY:
        return policy.play(r)
    if obs.phase == Phase.DECIDE:
        return SHOBU if secures_match(obs) else policy.decide(r)
    return policy.pick(r)


def koikoi_or_shobu(
    obs: Observation,
    rng: random.Random,
    playouts: int,
    budget: Budget = DEFAULT_BUDGET,
    draw: Callable[[random.Random], Round] | None = None,
    policy: Policy | None = None,
) -> Action:
    """Koikoi or shobu, by the expected match value of going on against stopping.

    Shobu at once when it wins the match. Otherwise the playouts weigh it: each sampled
    future of a koikoi (the opponent's threats played out from the hands they may hold, the
    shared multiplier and the 8-point doubling as the engine scores them) against the
    points in hand, both valued by what they do to the chance of winning the match (the
    stakes left, the round, the score). When the search had no time for a single sample, the
    card-counting model of :mod:`koikoi.ai.koikoi_model` decides alone; it is never mixed
    into the playouts' estimate (that lost matches against ``normal`` at every weight tried,
    docs/benchmarks.md).
    """
    if secures_match(obs):
        return SHOBU
    values = estimate(obs, (KOIKOI, SHOBU), rng, playouts, budget, draw=draw, policy=policy)
    if not values[KOIKOI] or not values[SHOBU]:
        model = outlook(obs)
        return KOIKOI if model.koikoi > model.shobu else SHOBU
    return KOIKOI if _mean(values[KOIKOI]) > _mean(values[SHOBU]) else SHOBU


def scaled_playouts(obs: Observation, playouts: int) -> int:
    """The playouts for this decision: ``playouts`` at the start of a round, more later on,
    when each playout is shorter (up to ``LATE_FACTOR`` times), so every decision costs about
    the same time."""
    cards_left = obs.hand.bit_count() + obs.opponent_hand_size
    return int(playouts * min(LATE_FACTOR, 16 / max(1, cards_left)))


class HardPlayer:
    """Determinized Monte Carlo over honest samples of the hidden cards."""

    name = "hard"
    playouts = DEFAULT_PLAYOUTS

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        n = scaled_playouts(obs, budget.playouts or self.playouts)
        if obs.phase == Phase.DECIDE:
            return koikoi_or_shobu(obs, rng, n, budget)
        return search(obs, legal, rng, n, budget, default=policy_choice(obs))
