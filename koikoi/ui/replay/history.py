"""A game record as the replay viewer steps through it.

No Qt here: :func:`steps_of` plays a ``koikoi-record/1`` through the engine's checked door
(``Match.apply``, after :func:`~koikoi.engine.record.replay_record` has checked the whole
record) and keeps, for every step — a deal laid out, or one action — the events it yielded
and both seats' observations after it. The viewer shows a step from these alone, so what it
shows is what the engine had. ``koikoi view RECORD`` (:mod:`koikoi.ui.replay.viewcmd`) reads and
checks the record here (a bad one is one line and exit 2, as ``replay``), and only then
starts the window.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from koikoi.command import UsageError, read_input
from koikoi.engine.events import Dealt, Event
from koikoi.engine.match import Match, Observation, Settings
from koikoi.engine.record import RecordError, lay_out, loads, parse, replay_record
from koikoi.engine.round import SHOBU, Phase
from koikoi.ui.match.saves import NET_SEAT


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: a deal laid out (``action`` None) or one action of it."""

    deal: int
    """The deal's index in the record, from 0."""
    action: int | None
    """The action's index in its deal; None for the deal itself."""
    seat: int | None
    """Who acted (None for a deal)."""
    events: tuple[Event, ...]
    observations: tuple[Observation, Observation]
    """What each seat saw after the step (the engine's :meth:`Match.observation`)."""
    implied: bool = False
    """A last-turn shobu the record left unwritten (R7.3), applied as ``replay`` does."""


@dataclass(frozen=True)
class Replayed:
    """A whole record in steps, with who it belongs to."""

    settings: Settings
    steps: tuple[Step, ...]
    deal_starts: tuple[int, ...]
    """The index of each deal's first step (its layout)."""
    owner: int
    """The seat of the player whose record it is ("you" in the narration)."""
    opponent: str | None
    """The other player's nickname in a network game; None: the computer."""
    level: str | None
    """The computer's level of a practice match (None when the record does not say)."""
    finished: bool
    scores: tuple[int, int]
    sealed: frozenset[int] = frozenset()
    """The deals a privately dealt record keeps ``sealed`` (never audited: the match ended
    mid-deal): the cards its writer never saw are stand-ins, so only its view is true."""

    def deal_of(self, index: int) -> int:
        """The deal a step belongs to."""
        return self.steps[index].deal

    def round_of(self, deal: int) -> int:
        """The round a deal belongs to, from 1 (a redeal is dealt in the same round)."""
        dealt = self.steps[self.deal_starts[deal]].events[0]
        assert isinstance(dealt, Dealt)
        return dealt.round_no

    def deal_end(self, deal: int) -> int:
        """The index of a deal's last step."""
        starts = self.deal_starts
        return starts[deal + 1] - 1 if deal + 1 < len(starts) else len(self.steps) - 1


def steps_of(
    data: Mapping[str, Any], path: Path | None = None, owner: int | None = None
) -> Replayed:
    """Every step of a record; :class:`RecordError` at its first fault (as ``replay``)."""
    replay_record(data)  # the whole record is checked first: a fault names its deal and rule
    rec = parse(data)
    match = Match(rec.settings, rec.first_oya)
    steps: list[Step] = []
    starts: list[int] = []

    def seen() -> tuple[Observation, Observation]:
        return match.observation(0), match.observation(1)

    for i, deal in enumerate(rec.deals):
        starts.append(len(steps))
        events = lay_out(match, deal)
        steps.append(Step(i, None, None, tuple(events), seen()))
        rnd = match.round
        assert rnd is not None
        for j, act in enumerate(deal.actions):
            events = match.apply(act.action, act.seat)
            steps.append(Step(i, j, act.seat, tuple(events), seen()))
        if rnd.phase is Phase.DECIDE and rnd.last_turn:  # R7.3, as replay_record does
            seat = rnd.turn
            events = match.apply(SHOBU, seat)
            steps.append(Step(i, len(deal.actions), seat, tuple(events), seen(), implied=True))
    me = owner if owner is not None else owner_of(data, path)
    return Replayed(
        settings=rec.settings,
        steps=tuple(steps),
        deal_starts=tuple(starts),
        owner=me,
        opponent=opponent_of(data, me),
        level=level if isinstance(level := data.get("ai_level"), str) else None,
        finished=match.finished,
        scores=match.scores,
        sealed=frozenset(
            i
            for i, deal in enumerate(data.get("deals", ()))
            if isinstance(deal, Mapping) and deal.get("sealed") is True
        ),
    )


def owner_of(data: Mapping[str, Any], path: Path | None) -> int:
    """Whose record it is: ``human_seat`` of a practice save, the seat in a network game's
    file name, else seat 0."""
    seat = data.get("human_seat")
    if seat in (0, 1) and not isinstance(seat, bool):
        return int(seat)
    found = NET_SEAT.search(path.name) if path is not None else None
    return int(found.group(1)) if found else 0


def opponent_of(data: Mapping[str, Any], me: int) -> str | None:
    """The other player's nickname in a network record (printable, at most 40 characters)."""
    net = data.get("net")
    players = net.get("players") if isinstance(net, dict) else None
    if not isinstance(players, list):
        return None
    for player in players:
        if isinstance(player, dict) and player.get("seat") == 1 - me:
            nick = player.get("nick")
            if isinstance(nick, str):
                return "".join(ch for ch in nick if ch.isprintable())[:40] or "?"
    return "?"


@dataclass(frozen=True)
class Verdict:
    """What ``koikoi verify`` says of a network record: all checks pass, or the first
    failing one."""

    ok: bool
    reason: str = ""


def verdict_of(data: Mapping[str, Any]) -> Verdict | None:
    """The ``verify`` result of a network record; None for a record without signatures."""
    if not isinstance(data.get("net"), dict):
        return None
    from koikoi.net.verify import NotARecord, VerificationFailed, verify_record

    try:
        verify_record(data)
    except (NotARecord, VerificationFailed) as exc:
        return Verdict(False, str(exc))
    return Verdict(True)


def load(path: str) -> tuple[dict[str, Any], Replayed]:
    """Read and step a record file; a :class:`UsageError` (one line) when it cannot be."""
    text = read_input(path)
    try:
        data = loads(text)
        return data, steps_of(data, Path(path))
    except RecordError as exc:
        raise UsageError(str(exc)) from None
