"""``koikoi bench``: engine speed on one core (CLI.md), measured through the engine's own API.

Random play here is what the AI's playouts do: list the legal actions and push one at random,
from the deal (laying out a deck order) to the end of the round. The same loop runs on a plain
list-based engine (koikoi/engine/listref.py) in slices taken turn about with the engine's, so
that the ratio between them holds on a machine whose load changes while it is measured.
"""

from __future__ import annotations

import gc
import random
import time
from typing import Any

from koikoi.engine import compiled
from koikoi.engine.cards import NUM_CARDS
from koikoi.engine.deck import deal_from_order
from koikoi.engine.listref import ListRound
from koikoi.engine.round import Round
from koikoi.engine.yaku import base_points, score


def _orders(rng: random.Random, n: int) -> list[list[int]]:
    orders = []
    for _ in range(n):
        order = list(range(NUM_CARDS))
        rng.shuffle(order)
        orders.append(order)
    return orders


def random_rounds(
    seconds: float, seed: int = 1, shuffle: bool = False, pool: list[list[int]] | None = None
) -> tuple[int, float]:
    """Play random rounds for about ``seconds``; return (rounds, elapsed).

    With ``shuffle`` the deck is shuffled inside the timed loop as well (the chance step);
    without, deck orders are shuffled beforehand (or taken from ``pool``) and each round
    starts from laying one out.
    """
    rng = random.Random(seed)
    if pool is None:
        pool = _orders(rng, 4096)
    rand = rng.random
    rounds = 0
    gc.collect()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for order in pool:
            if shuffle:
                rng.shuffle(order)
            r = Round(deal_from_order(order, rounds & 1), rounds & 1)
            while not r.over:
                actions = r.legal_actions()
                r.push(actions[int(rand() * len(actions))])
            rounds += 1
        now = time.perf_counter()
        if now >= deadline:
            return rounds, now - start


def list_random_rounds(
    seconds: float, seed: int = 1, pool: list[list[int]] | None = None
) -> tuple[int, float]:
    """:func:`random_rounds` (without ``shuffle``) on the list-based engine."""
    rng = random.Random(seed)
    if pool is None:
        pool = _orders(rng, 4096)
    rand = rng.random
    rounds = 0
    gc.collect()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for order in pool:
            r = ListRound(order, rounds & 1)
            while not r.over:
                actions = r.legal_actions()
                r.push(actions[int(rand() * len(actions))])
            rounds += 1
            if rounds & 511 == 0 and time.perf_counter() >= deadline:
                return rounds, time.perf_counter() - start


def piles(n: int, seed: int = 2) -> list[int]:
    """``n`` different capture piles of 0–24 cards, as a round's winner might hold."""
    rng = random.Random(seed)
    seen: set[int] = set()
    while len(seen) < n:
        size = rng.randint(0, 24)
        pile = 0
        for c in rng.sample(range(NUM_CARDS), size):
            pile |= 1 << c
        seen.add(pile)
    return sorted(seen, key=lambda p: rng.random())


def score_microseconds(n: int = 20_000, repeat: int = 5) -> tuple[float, float]:
    """Mean µs per full score (yaku list and points) and per base total, over ``n`` piles."""
    pool = piles(n)
    best_full = best_base = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for p in pool:
            score(p, 1, True)
        t1 = time.perf_counter()
        for p in pool:
            base_points(p)
        t2 = time.perf_counter()
        best_full = min(best_full, (t1 - t0) / n * 1e6)
        best_base = min(best_base, (t2 - t1) / n * 1e6)
    return best_full, best_base


SLICES = 12
"""The engine's and the list-based engine's timed loops alternate this many times each.

Short slices taken turn about put both engines under the same changes of the machine's
speed: on the project's shared 2-core machine one process's speed drifts by a third within
seconds, and three slices a side let the ratio move by as much."""


def run(seconds: float = 3.0) -> dict[str, Any]:
    rounds = list_rounds = 0
    elapsed = list_elapsed = 0.0
    pool = _orders(random.Random(1), 4096)  # both engines lay out the same deck orders
    for k in range(SLICES):
        n, t = random_rounds(seconds / SLICES, seed=k, pool=pool)
        rounds, elapsed = rounds + n, elapsed + t
        n, t = list_random_rounds(seconds / SLICES / 2, seed=k, pool=pool)
        list_rounds, list_elapsed = list_rounds + n, list_elapsed + t
    rounds_s, elapsed_s = random_rounds(seconds / 2, shuffle=True)
    full, base = score_microseconds()
    per_second = rounds / elapsed
    list_per_second = list_rounds / list_elapsed
    return {
        "rounds_per_second": round(per_second),
        "score_us": round(full, 3),
        "rounds_per_second_with_shuffle": round(rounds_s / elapsed_s),
        "base_points_us": round(base, 3),
        "score_piles": 20_000,
        "seconds": round(elapsed + elapsed_s, 2),
        "compiled": compiled.in_use(),
        "list_rounds_per_second": round(list_per_second),
        "list_ratio": round(per_second / list_per_second, 2),
    }
