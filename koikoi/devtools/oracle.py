"""What seeing the hidden cards would be worth to ``expert``'s search: a bound on inference.

    python -m koikoi.devtools.oracle --sees hand|all [--b hard] [--games N] [--seed S]
        [--jobs J] [--playouts P]

Plays ``expert``'s search (:func:`~koikoi.ai.expert.play_on`: the same playouts, halving
and koikoi decision, the same budget) with every sample dealt from the true hidden cards
instead of a reading of the opponent's play: ``--sees hand`` gives it the opponent's real
hand (the stock shuffled anew for each sample), ``--sees all`` the hand and the stock in
its real order. It plays ``--b`` on the decks, seats and random generators ``koikoi
simulate`` would use for ``--a expert`` with the same seed, and prints the same JSON.

No honest player can read more than the opponent's real hand, so the win rate of
``--sees hand`` bounds what any reading of the opponent's play can give this search.
``--sees all`` adds the stock order, which no play reveals.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence

from koikoi.ai.base import DEFAULT_BUDGET, Budget
from koikoi.ai.expert import DEFAULT_PLAYOUTS, play_on
from koikoi.ai.simulate import MatchStats, SimulationSpec, deck_seed, play_seeded, summarize
from koikoi.driver import DeckSource, seed_decks
from koikoi.engine.cards import Card
from koikoi.engine.match import Match, Observation, determinize
from koikoi.engine.round import Action, Round

SEES = ("hand", "all")


class OraclePlayer:
    """``expert``'s search on the true hidden cards of :attr:`match` (set by the deck source).

    A player for experiments only: it reads the match itself, which no seat of a real
    table can.
    """

    name = "oracle"

    def __init__(self, sees: str, playouts: int = DEFAULT_PLAYOUTS) -> None:
        if sees not in SEES:
            raise ValueError(f"sees must be one of {', '.join(SEES)}")
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


def play_one(spec: SimulationSpec, i: int, sees: str) -> MatchStats:
    """Match ``i`` of ``koikoi simulate``'s run ``spec`` with the oracle as player a."""
    player = OraclePlayer(sees)  # its budget, simulate's seats', holds spec.playouts
    return play_seeded(spec, i, player, watched_decks(spec, i, player))


def watched_decks(spec: SimulationSpec, i: int, player: OraclePlayer) -> DeckSource:
    """Match ``i``'s decks of the run ``spec``, each deal showing ``player`` the match."""
    decks = seed_decks(deck_seed(spec.seed, i // 2))

    def watched(match: Match) -> Sequence[Card]:
        player.match = match
        return decks(match)

    return watched


def _play_indexed(args: tuple[SimulationSpec, int, str]) -> MatchStats:
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
    args = parser.parse_args(argv)
    spec = SimulationSpec(
        f"oracle-{args.sees}", args.b, args.games, Settings(), args.seed, args.playouts
    )
    tasks = [(spec, i, args.sees) for i in range(args.games)]
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
