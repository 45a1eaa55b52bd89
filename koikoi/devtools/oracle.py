"""What seeing the hidden cards would be worth to ``expert``'s search: a bound on inference.

    python -m koikoi.devtools.oracle --sees hand|all|greedy [--b hard] [--games N]
        [--seed S] [--jobs J] [--playouts P] [--playout-opponent policy|greedy]

Plays ``expert``'s search (:func:`~koikoi.ai.expert.play_on`: the same playouts, halving
and koikoi decision, the same budget) with every sample dealt from the true hidden cards
instead of a reading of the opponent's play: ``--sees hand`` gives it the opponent's real
hand (the stock shuffled anew for each sample), ``--sees all`` the hand and the stock in
its real order. It plays ``--b`` on the decks, seats and random generators ``koikoi
simulate`` would use for ``--a expert`` with the same seed, and prints the same JSON.

No honest player can read more than the opponent's real hand, so the win rate of
``--sees hand`` bounds what any reading of the opponent's play can give this search.
``--sees all`` adds the stock order, which no play reveals.

``--sees greedy`` (with ``--b greedy``) is honest: it reads only its seat's observations,
but with the opponent's own rule, so that its samples come from the exact posterior of a
``greedy`` opponent's hand (:class:`GreedyReader`): the most any reading of that
opponent's plays can know. With ``--playout-opponent greedy`` its playouts play the
opponent's seat by ``greedy``'s rule too (:class:`GreedyOpponentPolicy`): the search's best
response to an opponent known entirely but for its cards.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence

from koikoi.ai.base import DEFAULT_BUDGET, Budget, Player
from koikoi.ai.basic import greedy_key, greedy_pick, greedy_play
from koikoi.ai.expert import DEFAULT_PLAYOUTS, play_on
from koikoi.ai.hard import Policy
from koikoi.ai.simulate import MatchStats, SimulationSpec, deck_seed, play_seeded, summarize
from koikoi.driver import DeckSource, seed_decks
from koikoi.engine.cards import CARD_MONTH_MASK, Card, CardSet, card_tuple
from koikoi.engine.match import Match, Observation, determinize
from koikoi.engine.round import PICK_BASE, SHOBU, Action, Round
from koikoi.engine.yaku import base_points

SEES = ("hand", "all", "greedy")
PLAYOUT_OPPONENTS = ("policy", "greedy")


class OraclePlayer:
    """``expert``'s search on the true hidden cards of :attr:`match` (set by the deck source).

    A player for experiments only: it reads the match itself, which no seat of a real
    table can.
    """

    name = "oracle"

    def __init__(self, sees: str, playouts: int = DEFAULT_PLAYOUTS) -> None:
        if sees not in ("hand", "all"):
            raise ValueError("sees must be hand or all")
        self.sees = sees
        self.playouts = playouts
        self.match: Match | None = None

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        return play_on(obs, legal, rng, budget, self.playouts, self.draw_for(obs))

    def draw_for(self, obs: Observation) -> _Draw:
        """The deals of the hidden cards for a decision at ``obs``: the true ones."""
        assert self.match is not None and self.match.round is not None
        r = self.match.round
        return _Draw(obs, r.hands[1 - obs.seat], r.stock[r.stock_pos :], self.sees == "all")


class _Draw:
    __slots__ = ("obs", "hand", "stock", "ordered")

    def __init__(self, obs: Observation, hand: int, stock: Sequence[Card], ordered: bool) -> None:
        self.obs, self.hand, self.stock, self.ordered = obs, hand, stock, ordered

    def __call__(self, rng: random.Random) -> Round:
        stock = list(self.stock)
        if not self.ordered:
            rng.shuffle(stock)
        return determinize(self.obs, self.hand, stock)


class GreedyReader:
    """``expert``'s search on hands drawn from the exact posterior of a ``greedy`` opponent.

    Honest: it reads only its seat's observations. ``greedy`` plays by a fixed rule
    (:func:`~koikoi.ai.basic.greedy_key`), so each of its plays this deal rules out every
    hand holding a card the rule ranks above the one it played. Its picks read only public
    cards and it always says shobu, so nothing else it does depends on its hand, and the
    hands no play rules out are equally likely (the deal is uniform): a uniform draw of them
    is a draw from the posterior. The rule reads the pile the opponent had at the time; the
    reader keeps the piles it saw at each of its own decisions, and between its last
    decision and the opponent's play only its own cards moved.
    """

    name = "greedy-reader"

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, knows_rule: bool = False) -> None:
        self.playouts = playouts
        self.knows_rule = knows_rule
        """Whether the playouts play the opponent's seat by ``greedy``'s rule."""
        self.deal: tuple[int, tuple[int, int]] | None = None
        self.piles: list[tuple[int, CardSet]] = []
        """(moves made before one of this seat's decisions this deal, the opponent's pile)."""

    def choose(
        self,
        obs: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        budget: Budget = DEFAULT_BUDGET,
    ) -> Action:
        posterior = self.observe(obs)
        if len(legal) == 1:
            return legal[0]
        policy = GreedyOpponentPolicy(obs) if self.knows_rule else None
        return play_on(obs, legal, rng, budget, self.playouts, posterior.draw, policy)

    def observe(self, obs: Observation) -> GreedyPosterior:
        """Note the opponent's pile at this decision; the posterior of its hand now."""
        seen = len(obs.moves)
        deal = (obs.round_no, obs.scores)
        if deal != self.deal or (self.piles and self.piles[-1][0] > seen):
            self.deal, self.piles = deal, []
        self.piles.append((seen, obs.captured[1 - obs.seat]))
        return GreedyPosterior(obs, self.piles)


class GreedyPosterior:
    """The hands a ``greedy`` opponent may hold after its plays this deal, drawn uniformly.

    ``piles`` are (moves made, the opponent's pile) at the drawing seat's decisions this
    deal. A play of the opponent's that no hand of the unseen cards explains (it is not
    ``greedy``) rules nothing out: the most recent plays are read first, and a play whose
    ruling would leave fewer cards than its hand holds is skipped.
    """

    __slots__ = ("obs", "allowed")

    def __init__(self, obs: Observation, piles: Sequence[tuple[int, CardSet]]) -> None:
        self.obs = obs
        other = 1 - obs.seat
        allowed = obs.unseen
        size = obs.opponent_hand_size
        for index in reversed(range(len(obs.moves))):
            seat, action, field = obs.moves[index]
            if seat != other or action >= PICK_BASE:
                continue
            pile = max(((n, p) for n, p in piles if n <= index), default=(0, 0))[1]
            base = base_points(pile)
            chosen = greedy_key(pile, base, action, field)
            ranked_above = 0
            for x in card_tuple(allowed):
                k = greedy_key(pile, base, x, field)
                if k > chosen or (k == chosen and x < action):
                    ranked_above |= 1 << x
            if (allowed & ~ranked_above).bit_count() >= size:
                allowed &= ~ranked_above
        self.allowed = card_tuple(allowed)

    def draw(self, rng: random.Random) -> Round:
        obs = self.obs
        hand = sum(1 << c for c in rng.sample(self.allowed, obs.opponent_hand_size))
        stock = [c for c in card_tuple(obs.unseen) if not hand >> c & 1]
        rng.shuffle(stock)
        return determinize(obs, hand, stock)


class GreedyOpponentPolicy(Policy):
    """The playout policy for the searching seat, ``greedy``'s rule for the other: it plays
    the card :func:`~koikoi.ai.basic.greedy_key` ranks highest, picks as ``greedy`` picks
    and says shobu at once."""

    __slots__ = ()

    def play(self, r: Round) -> Action:
        seat = r.turn
        if seat == self.me:
            return super().play(r)
        return greedy_play(r.captured[seat], card_tuple(r.hands[seat]), r.field)

    def pick(self, r: Round) -> Action:
        seat = r.turn
        if seat == self.me:
            return super().pick(r)
        pair = r.field & CARD_MONTH_MASK[r.pending]
        return PICK_BASE + greedy_pick(r.captured[seat], pair, r.pending).bit_length() - 1

    def decide(self, r: Round) -> Action:
        return super().decide(r) if r.turn == self.me else SHOBU


def play_one(spec: SimulationSpec, i: int, sees: str, knows_rule: bool = False) -> MatchStats:
    """Match ``i`` of ``koikoi simulate``'s run ``spec`` with the oracle as player a."""
    if sees == "greedy":  # its budget, simulate's seats', holds spec.playouts
        reader: Player = GreedyReader(knows_rule=knows_rule)
        return play_seeded(spec, i, reader, seed_decks(deck_seed(spec.seed, i // 2)))
    player = OraclePlayer(sees)
    return play_seeded(spec, i, player, watched_decks(spec, i, player))


def watched_decks(spec: SimulationSpec, i: int, player: OraclePlayer) -> DeckSource:
    """Match ``i``'s decks of the run ``spec``, each deal showing ``player`` the match."""
    decks = seed_decks(deck_seed(spec.seed, i // 2))

    def watched(match: Match) -> Sequence[Card]:
        player.match = match
        return decks(match)

    return watched


def _play_indexed(args: tuple[SimulationSpec, int, str, bool]) -> MatchStats:
    return play_one(*args)


def main(argv: list[str] | None = None) -> int:
    from koikoi.ai import PLAYERS
    from koikoi.engine.match import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sees", choices=SEES, required=True)
    parser.add_argument("--b", choices=PLAYERS, default="hard")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="oracle")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=0)
    parser.add_argument("--playout-opponent", choices=PLAYOUT_OPPONENTS, default="policy")
    args = parser.parse_args(argv)
    if args.sees == "greedy" and args.b != "greedy":
        parser.error("--sees greedy reads a greedy opponent: give --b greedy")
    knows_rule = args.playout_opponent == "greedy"
    if knows_rule and args.sees != "greedy":
        parser.error("--playout-opponent greedy goes with --sees greedy")
    spec = SimulationSpec(
        f"oracle-{args.sees}", args.b, args.games, Settings(), args.seed, args.playouts
    )
    tasks = [(spec, i, args.sees, knows_rule) for i in range(args.games)]
    start = time.perf_counter()
    if args.jobs <= 1:
        results = list(map(_play_indexed, tasks))
    else:
        with multiprocessing.get_context().Pool(args.jobs) as pool:
            results = list(pool.imap(_play_indexed, tasks, chunksize=1))
    out = summarize(spec, results, time.perf_counter() - start)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
