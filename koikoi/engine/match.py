"""A match: settings, stakes, rounds and the oya: RULES.md R2 and R3.

The match holds the current :class:`Round` and settles each deal's result against the
stakes. Decks come from outside (a seed, a shuffle or a record), so the same match code
runs practice, network games, replays and simulations.

>>> from koikoi.engine.deck import deck_from_seed
>>> m = Match(Settings(rounds=6, doubling=True), first_oya=0)
>>> events = m.deal(deck_from_seed(b"doc", m.round_no, m.deal_no))
>>> m.scores, m.round_no, m.current_seat() in (0, 1)
((25, 25), 1, True)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from koikoi.engine.cards import ALL_CARDS, CARD_KINDS, Card, CardSet, Kind, month_of
from koikoi.engine.deck import Deal, deal_from_order
from koikoi.engine.events import Dealt, Event, MatchEnded, RoundEnded, StakesPaid
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.round import BLANK, Action, Phase, Round

STAKE: Final = 25
"""Each player's starting points (R2.1)."""
STARTING_SCORES: Final = (STAKE, STAKE)
"""Both players' points when a match starts (R2.1)."""


def payment(points: int, loser_has: int) -> int:
    """What the loser of a round pays: its points, capped by what the loser has (R2.2, R9.4).

    >>> payment(12, 25), payment(40, 9)
    (12, 9)
    """
    return min(points, loser_has)


@dataclass(frozen=True, slots=True)
class Settings:
    """Match settings (R2.6): 6 or 12 rounds; "double at 8 or more" on or off."""

    rounds: int = 6
    doubling: bool = True

    def __post_init__(self) -> None:
        if self.rounds not in (6, 12):
            raise ValueError(f"a match is 6 or 12 rounds, not {self.rounds!r}")
        if not isinstance(self.doubling, bool):
            raise ValueError("doubling must be true or false")


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A finished deal as the match settled it (one ``rounds`` entry of ``koikoi replay``)."""

    result: RoundResult
    paid: int = 0
    capped: bool = False
    scores: tuple[int, int] = STARTING_SCORES
    next_oya: int = 0

    def to_json(self) -> dict[str, object]:
        r = self.result
        if r.outcome is Outcome.REDEAL:
            return {"result": "redeal"}
        if r.outcome is Outcome.NAGARE:
            return {
                "result": "nagare",
                "koikoi": r.koikoi,
                "scores": list(self.scores),
                "next_oya": self.next_oya,
            }
        return {
            "result": r.outcome.value,
            "winner": r.winner,
            "yaku": [{"id": y.value, "points": p} for y, p in r.yaku],
            "base": r.base,
            "koikoi": r.koikoi,
            "points": r.points,
            "paid": self.paid,
            "scores": list(self.scores),
            "next_oya": self.next_oya,
        }


class Move(NamedTuple):
    """One action of the current deal as both seats saw it: who acted, what they did, and
    the field they faced (all public). An AI may read what a player's choices reveal from
    these, for example that a seat which threw a card away held nothing to capture with."""

    seat: int
    action: Action
    field: CardSet


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may see (DESIGN.md): never the opponent's hand or the stock order.

    The AI and the window get only this. ``unseen`` is every card the seat has not seen:
    the opponent's hand and the stock together.
    """

    seat: int
    settings: Settings
    scores: tuple[int, int]
    round_no: int
    oya: int
    turn: int
    phase: Phase
    hand: CardSet
    field: CardSet
    captured: tuple[CardSet, CardSet]
    stock_size: int
    opponent_hand_size: int
    pending: Card
    """The played or drawn card waiting for a pick, or -1."""
    candidates: CardSet
    """The two field cards ``pending`` may take (empty when no pick is due)."""
    koikoi_count: int
    koikoi_calls: tuple[int, int]
    baselines: tuple[int, int]
    totals: tuple[int, int]
    legal_actions: tuple[Action, ...]
    """The seat's legal actions now (empty when it is not the seat's move)."""
    moves: tuple[Move, ...] = ()
    """This deal's actions so far, oldest first (from the match; empty without one)."""

    @property
    def unseen(self) -> CardSet:
        pending = 1 << self.pending if self.pending >= 0 else 0
        return ALL_CARDS & ~(self.hand | self.field | self.captured[0] | self.captured[1] | pending)

    @property
    def rounds_left(self) -> int:
        """Rounds after the current one."""
        return self.settings.rounds - self.round_no


def observe(rnd: Round, seat: int, match: Match | None = None) -> Observation:
    """The observation of ``rnd`` for ``seat`` (match facts from ``match`` when given)."""
    settings = match.settings if match else Settings(doubling=rnd.doubling)
    to_move = not rnd.over and rnd.turn == seat
    return Observation(
        seat=seat,
        settings=settings,
        scores=match.scores if match else (STAKE, STAKE),
        round_no=match.round_no if match else 1,
        oya=rnd.oya,
        turn=rnd.turn,
        phase=rnd.phase,
        hand=rnd.hands[seat],
        field=rnd.field,
        captured=(rnd.captured[0], rnd.captured[1]),
        stock_size=rnd.stock_left,
        opponent_hand_size=rnd.hands[1 - seat].bit_count(),
        pending=rnd.pending,
        candidates=rnd.candidates(),
        koikoi_count=rnd.koikoi_count,
        koikoi_calls=(rnd.koikoi_calls[0], rnd.koikoi_calls[1]),
        baselines=(rnd.baselines[0], rnd.baselines[1]),
        totals=(rnd.totals[0], rnd.totals[1]),
        legal_actions=rnd.legal_actions() if to_move else (),
        moves=tuple(match.moves) if match else (),
    )


class MatchOver(ValueError):
    """An action or a deal after the match has ended (R2.3, R2.4)."""


@dataclass
class Match:
    """A match of 6 or 12 rounds between seats 0 and 1 (R2, R3)."""

    settings: Settings = field(default_factory=Settings)
    first_oya: int = 0
    scores: tuple[int, int] = STARTING_SCORES
    oya: int = 0
    rounds_played: int = 0
    """Rounds that counted so far (R2.5: not redeals)."""
    deal_no: int = 0
    """Deals of the current round so far (redeals)."""
    round: Round | None = None
    history: list[DealOutcome] = field(default_factory=list)
    finished: bool = False
    moves: list[Move] = field(default_factory=list)
    """The current deal's actions so far (public: see :class:`Move`)."""

    def __post_init__(self) -> None:
        if self.first_oya not in (0, 1):
            raise ValueError("first_oya must be 0 or 1")
        self.oya = self.first_oya

    @property
    def round_no(self) -> int:
        """The number of the current (or next) round, from 1."""
        return self.rounds_played + 1 if not self.finished else self.rounds_played

    @property
    def needs_deal(self) -> bool:
        return not self.finished and (self.round is None or self.round.over)

    @property
    def winner(self) -> int | None:
        """The match winner once finished; None for a draw or an unfinished match (R2.4)."""
        if not self.finished or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def current_seat(self) -> int | None:
        """The seat to act, or None when a deal is due or the match is over."""
        if self.round is None or self.round.over:
            return None
        return self.round.turn

    def legal_actions(self) -> tuple[Action, ...]:
        return () if self.round is None else self.round.legal_actions()

    def copy(self) -> Match:
        """An independent copy: what is applied to it leaves this match as it is (the
        compiled round cannot be deep-copied: :meth:`Round.copy` copies it)."""
        other = copy.copy(self)
        other.round = None if self.round is None else self.round.copy()
        other.history = list(self.history)
        other.moves = list(self.moves)
        return other

    def observation(self, seat: int) -> Observation:
        if self.round is None:
            raise ValueError("no deal yet")
        return observe(self.round, seat, self)

    def deal(self, order: Sequence[Card], *, teyaku: bool = True) -> list[Event]:
        """Lay out the next deal from a deck order (R4) by the current oya (``teyaku``: as
        :meth:`deal_cards`)."""
        if self.finished:
            raise MatchOver("the match has ended")
        if not self.needs_deal:
            raise ValueError("the current deal is still being played")
        d = deal_from_order(order, self.oya)
        return self.deal_cards(d.hands, d.field, d.stock, teyaku=teyaku)

    def deal_cards(
        self,
        hands: tuple[CardSet, CardSet],
        field_cards: CardSet,
        stock: Sequence[Card],
        *,
        teyaku: bool = True,
    ) -> list[Event]:
        """Lay out a deal given as hands, field and stock (a record's form of a deal).
        ``teyaku`` False: the hands are not judged for a teyaku (R8), for a record's deal
        whose hands are partly stand-ins (:func:`koikoi.engine.record.lay_out`)."""
        if self.finished:
            raise MatchOver("the match has ended")
        self.round = Round(
            Deal(hands, field_cards, tuple(stock)),
            self.oya,
            self.settings.doubling,
            teyaku=teyaku,
        )
        self.moves = []
        events: list[Event] = [
            Dealt(self.oya, self.round_no, self.deal_no, field_cards, (hands[0], hands[1]))
        ]
        if self.round.over:
            assert self.round.result is not None
            events.append(RoundEnded(self.round.result))
            events.extend(self._settle(self.round.result))
        return events

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Check and apply an action of the seat to move; settle the round if it ended."""
        if self.finished:
            raise MatchOver("the match has ended")
        if self.round is None:
            raise ValueError("no deal yet")
        mover, before = self.round.turn, self.round.field
        events = self.round.apply(action, seat)
        self.moves.append(Move(mover, action, before))
        if self.round.over:
            assert self.round.result is not None
            events.extend(self._settle(self.round.result))
        return events

    def _settle(self, result: RoundResult) -> list[Event]:
        s0, s1 = self.scores
        paid = 0
        capped = False
        counts = result.outcome is not Outcome.REDEAL
        if result.outcome is Outcome.REDEAL:
            self.deal_no += 1  # R4.5: the same oya deals again; not a round (R2.5)
        else:
            self.deal_no = 0
            self.rounds_played += 1
            if result.winner is not None:  # R2.2, R9.4
                loser_has = s1 if result.winner == 0 else s0
                paid = payment(result.points, loser_has)
                capped = paid < result.points
                if result.winner == 0:
                    s0, s1 = s0 + paid, s1 - paid
                else:
                    s0, s1 = s0 - paid, s1 + paid
                self.oya = result.winner  # R3.3 (and R8.2 for a teyaku)
            self.scores = (s0, s1)
            if 0 in self.scores or self.rounds_played >= self.settings.rounds:
                self.finished = True  # R2.3, R2.4
        self.history.append(DealOutcome(result, paid, capped, self.scores, self.oya))
        events: list[Event] = [
            StakesPaid(result.winner, paid, capped, self.scores, self.oya, counts)
        ]
        if self.finished:
            events.append(MatchEnded(self.scores, self.winner))
        return events


# -- the first oya, offline (R3.1) ---------------------------------------------------------


def first_oya_of(card_a: Card, card_b: Card) -> int | None:
    """Who is oya after each player turned a card: 0 (a), 1 (b), or None to turn again (R3.1).

    >>> from koikoi.engine.cards import parse_card as c
    >>> first_oya_of(c("ume_warbler"), c("kiku_plain_1"))  # the earlier month
    0
    >>> first_oya_of(c("sakura_plain_1"), c("sakura_curtain"))  # same month: higher card
    1
    >>> first_oya_of(c("kiri_plain_1"), c("kiri_plain_yellow")) is None  # two plains
    True
    """
    ma, mb = month_of(card_a), month_of(card_b)
    if ma != mb:
        return 0 if ma < mb else 1
    pa, pb = CARD_KINDS[card_a].points, CARD_KINDS[card_b].points
    if pa == pb:
        assert CARD_KINDS[card_a] is Kind.PLAIN  # only plains share a month and a kind
        return None
    return 0 if pa > pb else 1


@dataclass(frozen=True, slots=True)
class FirstOya:
    """The cards turned to choose the first oya (each turn a pair: seat 0's, seat 1's)."""

    turns: tuple[tuple[Card, Card], ...]
    oya: int


def turn_for_first_oya(rng: random.Random) -> FirstOya:
    """Each player turns a card from a shuffled deck until one is oya (R3.1).

    The turned cards go back and the deck is shuffled again before the deal.
    """
    turns: list[tuple[Card, Card]] = []
    while True:
        a, b = rng.sample(range(48), 2)
        turns.append((a, b))
        oya = first_oya_of(a, b)
        if oya is not None:
            return FirstOya(tuple(turns), oya)


def determinize(obs: Observation, opponent_hand: CardSet, stock: Sequence[Card]) -> Round:
    """A full round consistent with ``obs``, with the hidden cards filled in (for search).

    ``opponent_hand`` must hold ``obs.opponent_hand_size`` cards and ``stock`` the
    ``obs.stock_size`` cards still to be drawn, in draw order, together exactly
    ``obs.unseen``. The AI samples them (determinization); the real hidden cards never
    reach it.
    """
    if opponent_hand.bit_count() != obs.opponent_hand_size or len(stock) != obs.stock_size:
        raise ValueError("the hidden cards do not fit the observation")
    if opponent_hand | sum(1 << c for c in stock) != obs.unseen or opponent_hand & sum(
        1 << c for c in stock
    ):
        raise ValueError("the hidden cards must be exactly the unseen cards")
    r = Round(BLANK)
    seat = obs.seat
    hands = [0, 0]
    hands[seat] = obs.hand
    hands[1 - seat] = opponent_hand
    r.hands = hands
    r.dealt_hands = (hands[0], hands[1])
    r.field = obs.field
    r.captured = list(obs.captured)
    r.stock = tuple(stock)
    r.stock_pos = 0
    r.oya = obs.oya
    r.turn = obs.turn
    r.phase = obs.phase
    r.pending = obs.pending
    r.baselines = list(obs.baselines)
    r.totals = list(obs.totals)
    r.koikoi_count = obs.koikoi_count
    r.koikoi_calls = list(obs.koikoi_calls)
    r.doubling = obs.settings.doubling
    r.result = None
    r.over = False
    return r
