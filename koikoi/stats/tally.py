"""A finished practice match as one statistics entry, and entries added up (``koikoi stats``).

What counts as a match: a practice match that *finished* — its last round played, or a
player's stakes at 0 (R2.3, R2.4). A match abandoned or set aside before its end is neither
a win nor a loss and is not counted: it may still be resumed, and it is counted once it
finishes. Each match counts once (its entry is keyed by the match's seed).

Everything is read from the engine: the record is replayed (:func:`replay_record`) and its
``Match.history`` says who won each deal with which yaku and what was paid; the koikoi calls
are the record's actions. Nothing here re-derives a rule.

- ``points_per_round``: the player's net stakes won over the rounds played (final stakes
  minus the 25 they started with, R2.1), per round that counted (redeals do not, R2.5).
- ``koikoi_calls``: the player's koikoi calls; ``koikoi_paid``: those of them whose round
  the player then won (a round with two calls that the caller won pays twice).
- ``yaku``: the yaku of the rounds the player won (teyaku too), by the engine's ids.
- ``best_streak``: the most matches won in a row (a loss or a draw ends a streak).
- A match played with undo or hints (the record's ``assisted`` key, which the window writes)
  is *assisted*: counted apart, under ``assisted``, in the same shape.

>>> e = Entry("ab", "hard", Result.WIN, rounds=6, points=12, koikoi_calls=2, koikoi_paid=1,
...           yaku=(("tane", 1),))
>>> summary([e])["levels"]["hard"]["win_rate"], summary([e])["yaku"]
(1.0, {'tane': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from koikoi.engine.match import STAKE
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import parse, replay_record
from koikoi.engine.round import KOIKOI
from koikoi.engine.yaku import Yaku

ASSISTED_KEY: Final = "assisted"
"""The practice record's key listing the help a match was played with (``undo``, ``hint``)."""
YAKU_IDS: Final = tuple(y.value for y in Yaku)
MAX_ROUNDS: Final = 12
"""A match's rounds at most (R2.1: 6 or 12): a kept count past what a match can make is a
damaged file."""
HAND_SIZE: Final = 8
"""A player's turns in a round (R4.1), so its koikoi calls at most."""


class Result(StrEnum):
    """How a finished match ended for the player."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class NotCounted(ValueError):
    """A record that is no finished practice match (it is not counted)."""


@dataclass(frozen=True)
class Entry:
    """One finished practice match, from the player's side."""

    id: str
    """The match's seed (hex): one entry per match."""
    level: str
    result: Result
    rounds: int
    """Rounds played (R2.5: redeals are not rounds)."""
    points: int
    """Net stakes won: the final stakes minus the starting 25 (negative for a loss)."""
    koikoi_calls: int
    koikoi_paid: int
    yaku: tuple[tuple[str, int], ...] = ()
    """(yaku id, how many rounds won with it), in the engine's order."""
    assisted: tuple[str, ...] = ()
    """The help used (``undo``, ``hint``); empty for a match played alone."""
    at: str = ""
    """When it finished (ISO 8601, UTC)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "level": self.level,
            "result": self.result.value,
            "rounds": self.rounds,
            "points": self.points,
            "koikoi_calls": self.koikoi_calls,
            "koikoi_paid": self.koikoi_paid,
            "yaku": dict(self.yaku),
            "assisted": list(self.assisted),
            "at": self.at,
        }

    @classmethod
    def from_json(cls, data: object) -> Entry:
        """An entry as :meth:`to_json` wrote it; :class:`ValueError` naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("an entry is a JSON object")
        ints = {}
        for key in ("rounds", "points", "koikoi_calls", "koikoi_paid"):
            value = data.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{key} must be a whole number, not {value!r}")
            ints[key] = value
        if not 0 <= ints["rounds"] <= MAX_ROUNDS or not -STAKE <= ints["points"] <= STAKE:
            raise ValueError("rounds or points out of range")
        if not 0 <= ints["koikoi_paid"] <= ints["koikoi_calls"] <= MAX_ROUNDS * HAND_SIZE:
            raise ValueError("koikoi counts out of range")
        texts = {}
        for key in ("id", "level", "at"):
            value = data.get(key, "")
            if not isinstance(value, str):
                raise ValueError(f"{key} must be text, not {value!r}")
            texts[key] = value
        try:
            result = Result(str(data.get("result")))
        except ValueError:
            raise ValueError(
                f"result must be win, loss or draw, not {data.get('result')!r}"
            ) from None
        yaku = data.get("yaku", {})
        if not isinstance(yaku, dict) or not all(
            k in YAKU_IDS and isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_ROUNDS
            for k, n in yaku.items()
        ):
            raise ValueError("yaku must map yaku ids to counts")
        assisted = data.get("assisted", [])
        if not isinstance(assisted, list) or not all(isinstance(a, str) for a in assisted):
            raise ValueError("assisted must be a list of words")
        return cls(
            texts["id"],
            texts["level"],
            result,
            yaku=tuple(sorted(yaku.items(), key=lambda kv: YAKU_IDS.index(kv[0]))),
            assisted=tuple(assisted),
            at=texts["at"],
            **ints,
        )


def assists_of(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The help a practice record says it was played with (its ``assisted`` key)."""
    value = data.get(ASSISTED_KEY)
    if not isinstance(value, list):
        return ()
    return tuple(str(a) for a in value)


def entry_of_record(data: Mapping[str, Any], at: str = "") -> Entry:
    """The entry of a finished practice record (``koikoi-record/1`` with the practice keys:
    ``seed``, ``human_seat``, ``ai_level``). :class:`NotCounted` for an unfinished match or
    a network one; :class:`~koikoi.engine.record.RecordError` for a record that does not
    replay."""
    if data.get("kind", "practice") != "practice" or "net" in data:
        raise NotCounted("only practice matches are counted")
    seed = data.get("seed")
    if not isinstance(seed, str) or not seed:
        raise NotCounted("the practice seed is missing")
    me = data.get("human_seat", 0)
    if me not in (0, 1) or isinstance(me, bool):
        raise NotCounted(f"not a seat: {me!r}")
    match = replay_record(data).match
    if not match.finished:
        raise NotCounted("the match is not finished")
    level = data.get("ai_level")
    deals = parse(data).deals
    calls = paid = 0
    yaku: Counter[str] = Counter()
    for deal, outcome in zip(deals, match.history, strict=False):
        won = outcome.result.winner == me and outcome.result.outcome in (
            Outcome.WIN,
            Outcome.TEYAKU,
        )
        mine = sum(1 for a in deal.actions if a.seat == me and a.action == KOIKOI)
        calls += mine
        if won:
            paid += mine
            yaku.update(y.value for y, _ in outcome.result.yaku)
    winner = match.winner
    result = Result.DRAW if winner is None else Result.WIN if winner == me else Result.LOSS
    return Entry(
        id=seed,
        level=level if isinstance(level, str) and level else "normal",
        result=result,
        rounds=match.rounds_played,
        points=match.scores[me] - STAKE,
        koikoi_calls=calls,
        koikoi_paid=paid,
        yaku=tuple((y, yaku[y]) for y in YAKU_IDS if yaku[y]),
        assisted=assists_of(data),
        at=at,
    )


def _best_streak(entries: Iterable[Entry]) -> int:
    best = run = 0
    for e in entries:
        run = run + 1 if e.result is Result.WIN else 0
        best = max(best, run)
    return best


def _level(entries: list[Entry]) -> dict[str, Any]:
    matches = len(entries)
    wins = sum(1 for e in entries if e.result is Result.WIN)
    rounds = sum(e.rounds for e in entries)
    return {
        "matches": matches,
        "wins": wins,
        "draws": sum(1 for e in entries if e.result is Result.DRAW),
        "win_rate": round(wins / matches, 4) if matches else 0.0,
        "rounds": rounds,
        "points_per_round": round(sum(e.points for e in entries) / rounds, 3) if rounds else 0.0,
        "koikoi_calls": sum(e.koikoi_calls for e in entries),
        "koikoi_paid": sum(e.koikoi_paid for e in entries),
        "best_streak": _best_streak(entries),
    }


def _part(entries: list[Entry]) -> dict[str, Any]:
    levels: dict[str, list[Entry]] = {}
    for e in entries:
        levels.setdefault(e.level, []).append(e)
    yaku: Counter[str] = Counter()
    for e in entries:
        yaku.update(dict(e.yaku))
    return {
        "matches": len(entries),
        "levels": {name: _level(group) for name, group in levels.items()},
        "yaku": {y: yaku[y] for y in YAKU_IDS if yaku[y]},
        "best_streak": _best_streak(entries),
    }


def summary(entries: Iterable[Entry]) -> dict[str, Any]:
    """The ``koikoi stats`` JSON of ``entries`` (oldest first): the matches played alone at
    the top level, those played with undo or hints under ``assisted`` in the same shape.

    Top level and ``assisted``: ``matches``; ``levels``, per computer level (in the order
    first played) ``matches``, ``wins``, ``draws``, ``win_rate`` (wins / matches),
    ``rounds``, ``points_per_round``, ``koikoi_calls``, ``koikoi_paid``, ``best_streak``;
    ``yaku``, counts by id in the R6 order (teyaku last); ``best_streak`` over all levels.
    """
    alone: list[Entry] = []
    helped: list[Entry] = []
    for e in entries:
        (helped if e.assisted else alone).append(e)
    out = _part(alone)
    out["assisted"] = _part(helped)
    return out


__all__ = [
    "ASSISTED_KEY",
    "Entry",
    "NotCounted",
    "Result",
    "assists_of",
    "entry_of_record",
    "summary",
]
