"""Computer-versus-computer matches and their statistics (``koikoi simulate``, CLI.md).

Match ``i`` of a run is fixed by the run's seed and ``i`` alone, so the results do not
depend on how many processes play them. The first oya alternates from match to match and
the seat of player ``a`` every two matches, so each player is first oya in seat 0 and in
seat 1 equally often. Matches ``2k`` and ``2k + 1`` share their decks with the first oya
swapped: the same first deal goes to the other player, which takes much of the luck of the
deal out of the comparison (as duplicate bridge does).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from koikoi.ai.base import Budget, Player
from koikoi.ai.seat import AiSeat, seat_rng
from koikoi.driver import DeckSource, play_match, seed_decks
from koikoi.engine.events import Event, KoikoiDeclared, RoundEnded
from koikoi.engine.match import STAKE, Settings


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    a: str
    b: str
    games: int
    settings: Settings
    seed: str
    playouts: int = 0


@dataclass
class MatchStats:
    """One match, from player a's side."""

    winner: str | None  # "a", "b" or None (a draw)
    a_score: int
    rounds: int
    a_koikoi_calls: int = 0
    b_koikoi_calls: int = 0
    a_koikoi_rounds: int = 0
    a_koikoi_won: int = 0
    b_koikoi_rounds: int = 0
    b_koikoi_won: int = 0
    a_seconds: list[float] = field(default_factory=list)
    b_seconds: list[float] = field(default_factory=list)


class _Tally:
    """Counts koikoi calls per seat and per round from the match's events."""

    def __init__(self) -> None:
        self.calls = [0, 0]
        self.rounds_called = [0, 0]
        self.rounds_called_and_won = [0, 0]
        self._this_round = [0, 0]

    def notify(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, KoikoiDeclared):
                self.calls[e.seat] += 1
                self._this_round[e.seat] += 1
            elif isinstance(e, RoundEnded):
                for seat in (0, 1):
                    if self._this_round[seat]:
                        self.rounds_called[seat] += 1
                        if e.result.winner == seat:
                            self.rounds_called_and_won[seat] += 1
                self._this_round = [0, 0]


class _TallySeat(AiSeat):
    tally: _Tally

    def notify(self, events: Sequence[Event]) -> None:
        self.tally.notify(events)


def deck_seed(seed: str, pair: int) -> bytes:
    """The decks' seed of pair ``pair``. ``seed`` is any text, its bytes as given: a command
    line's bytes that are not UTF-8 come back as they were (``surrogateescape``)."""
    text = f"koikoi-simulate/{seed}/{pair}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:16]


def play_one(spec: SimulationSpec, i: int) -> MatchStats:
    """Match ``i`` of the run described by ``spec``."""
    from koikoi.ai import get_player

    return play_seeded(spec, i, get_player(spec.a), seed_decks(deck_seed(spec.seed, i // 2)))


def play_seeded(spec: SimulationSpec, i: int, player_a: Player, decks: DeckSource) -> MatchStats:
    """Match ``i`` of the run with ``player_a`` as player a, dealt from ``decks``: the seats,
    the first oya and the random generators of :func:`play_one`."""
    from koikoi.ai import get_player

    first_oya = i % 2
    a_seat = (i // 2) % 2
    budget = Budget(spec.playouts)
    a = _TallySeat(player_a, seat_rng(spec.seed, i, "a"), budget)
    b = AiSeat(get_player(spec.b), seat_rng(spec.seed, i, "b"), budget)
    tally = a.tally = _Tally()
    seats = (a, b) if a_seat == 0 else (b, a)
    match = play_match(spec.settings, first_oya, seats, decks)
    b_seat = 1 - a_seat
    win = match.winner
    return MatchStats(
        winner=None if win is None else "a" if win == a_seat else "b",
        a_score=match.scores[a_seat],
        rounds=match.rounds_played,
        a_koikoi_calls=tally.calls[a_seat],
        b_koikoi_calls=tally.calls[b_seat],
        a_koikoi_rounds=tally.rounds_called[a_seat],
        a_koikoi_won=tally.rounds_called_and_won[a_seat],
        b_koikoi_rounds=tally.rounds_called[b_seat],
        b_koikoi_won=tally.rounds_called_and_won[b_seat],
        a_seconds=a.decision_seconds,
        b_seconds=b.decision_seconds,
    )


def _play_indexed(args: tuple[SimulationSpec, int]) -> MatchStats:
    return play_one(*args)


def play_all(spec: SimulationSpec, jobs: int = 1) -> Iterator[MatchStats]:
    """Every match of the run, in order (``jobs`` processes share the work)."""
    tasks = [(spec, i) for i in range(spec.games)]
    if jobs <= 1 or spec.games <= 1:
        yield from map(_play_indexed, tasks)
        return
    import multiprocessing

    with multiprocessing.get_context().Pool(min(jobs, spec.games)) as pool:
        yield from pool.imap(_play_indexed, tasks, chunksize=1)


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> lo, hi = wilson(150, 200)
    >>> round(lo, 3), round(hi, 3)
    (0.686, 0.805)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _p95(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summarize(
    spec: SimulationSpec, results: Sequence[MatchStats], seconds: float
) -> dict[str, Any]:
    """The ``koikoi simulate`` JSON (CLI.md)."""
    games = len(results)
    a_wins = sum(1 for r in results if r.winner == "a")
    b_wins = sum(1 for r in results if r.winner == "b")
    rounds = sum(r.rounds for r in results)
    a_net = sum(r.a_score - STAKE for r in results)
    lo, hi = wilson(a_wins, games)
    out: dict[str, Any] = {
        "a": spec.a,
        "b": spec.b,
        "games": games,
        "a_wins": a_wins,
        "b_wins": b_wins,
        "draws": games - a_wins - b_wins,
        "a_win_rate": a_wins / games if games else 0.0,
        "a_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "rounds": rounds,
        "a_points_per_round": round(a_net / rounds, 4) if rounds else 0.0,
        "b_points_per_round": round(-a_net / rounds, 4) if rounds else 0.0,
    }
    for side in ("a", "b"):
        calls = sum(getattr(r, f"{side}_koikoi_calls") for r in results)
        called = sum(getattr(r, f"{side}_koikoi_rounds") for r in results)
        won = sum(getattr(r, f"{side}_koikoi_won") for r in results)
        times = [t for r in results for t in getattr(r, f"{side}_seconds")]
        out[f"{side}_koikoi_calls"] = calls
        out[f"{side}_koikoi_success"] = round(won / called, 4) if called else 0.0
        out[f"{side}_decisions"] = len(times)
        out[f"{side}_decision_ms_mean"] = round(_mean(times) * 1000, 3)
        out[f"{side}_decision_ms_p95"] = round(_p95(times) * 1000, 3)
    out["settings"] = {"rounds": spec.settings.rounds, "doubling": spec.settings.doubling}
    out["seed"] = spec.seed
    out["seconds"] = round(seconds, 2)
    return out


def simulate(spec: SimulationSpec, jobs: int = 1) -> dict[str, Any]:
    start = time.perf_counter()
    results = list(play_all(spec, jobs))
    return summarize(spec, results, time.perf_counter() - start)
