"""One deal of Koi-Koi, from the deal to its end: RULES.md R4, R5, R7 and R8.

Actions are small ints, so search can generate and apply millions of them:

- ``play(card)`` (0..47): play a card from the hand (R5.1);
- ``pick(card)`` (48..95): take this one of two field matches (R5.2);
- ``KOIKOI`` (96) and ``SHOBU`` (97): the end-of-turn decision (R7.1).

Two doors, as in python-chess: :meth:`Round.apply` checks the action, raises
:class:`IllegalAction` naming the rule broken, and returns the events; :meth:`Round.push`
trusts its caller (an action taken from :meth:`Round.legal_actions`) and returns nothing.
Both run the same code.

>>> from koikoi.engine.deck import deal_from_order, deck_from_seed
>>> r = Round(deal_from_order(deck_from_seed(b"doc", 1, 0), oya=0))
>>> r.phase, r.turn, len(r.legal_actions())
(<Phase.PLAY: 0>, 0, 8)
>>> r.apply(r.legal_actions()[0])[0]
CardPlayed(seat=0, card=0)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from koikoi.engine.cards import (
    CARD_IDS,
    CARD_MONTH_MASK,
    CARD_TUPLES_BY_CHUNK,
    Card,
    CardSet,
    card_list,
    full_months,
    iter_cards,
    parse_card,
)
from koikoi.engine.deck import Deal
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    DecisionNeeded,
    Event,
    KoikoiDeclared,
    PlacedOnField,
    RoundEnded,
    StockTurned,
    TurnStarted,
    YakuFormed,
)
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.yaku import TEYAKU_POINTS, base_points, round_points, teyaku_of, yaku_of

Action = int
PICK_BASE: Final = 48
KOIKOI: Final[Action] = 96
SHOBU: Final[Action] = 97


def play(card: Card) -> Action:
    return card


def pick(card: Card) -> Action:
    return PICK_BASE + card


def action_str(action: Action) -> str:
    """``'play <id>'``, ``'pick <id>'``, ``'koikoi'`` or ``'shobu'``."""
    if 0 <= action < PICK_BASE:
        return f"play {CARD_IDS[action]}"
    if PICK_BASE <= action < KOIKOI:
        return f"pick {CARD_IDS[action - PICK_BASE]}"
    if action == KOIKOI:
        return "koikoi"
    if action == SHOBU:
        return "shobu"
    raise ValueError(f"not an action: {action!r}")


def parse_action(text: str) -> Action:
    """Inverse of :func:`action_str`."""
    verb, _, rest = text.strip().partition(" ")
    if verb == "play" and rest:
        return play(parse_card(rest))
    if verb == "pick" and rest:
        return pick(parse_card(rest))
    if text.strip() == "koikoi":
        return KOIKOI
    if text.strip() == "shobu":
        return SHOBU
    raise ValueError(f"not an action: {text!r}")


class Phase(IntEnum):
    PLAY = 0  # the seat to move plays a hand card
    PICK_PLAYED = 1  # the played card has two field matches
    PICK_DRAWN = 2  # the drawn card has two field matches
    DECIDE = 3  # koikoi or shobu
    OVER = 4


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``rule`` is the RULES.md id it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule} {message}")
        self.rule = rule
        self.message = message


# Each constant Final on its own: compiled, a Final name is a C static, where a name bound
# by unpacking is looked up in the module's dict at every use.
_PLAY: Final = Phase.PLAY
_PICK_PLAYED: Final = Phase.PICK_PLAYED
_PICK_DRAWN: Final = Phase.PICK_DRAWN
_DECIDE: Final = Phase.DECIDE
_OVER: Final = Phase.OVER


BLANK: Final = Deal((0, 0), 0, ())
"""A stand-in deal: ``Round(BLANK)`` is a round none of whose state is set yet, for
:meth:`Round.copy` and :func:`koikoi.engine.match.determinize` to fill in whole. (A class
compiled by mypyc makes no instance without running ``__init__``, so ``Round.__new__`` is
not the way.)"""


class Round:
    """The state of one deal. Seats are 0 and 1; the oya (親) moves first (R3.3)."""

    __slots__ = (
        "hands",
        "field",
        "captured",
        "stock",
        "stock_pos",
        "oya",
        "turn",
        "phase",
        "pending",
        "baselines",
        "totals",
        "koikoi_count",
        "koikoi_calls",
        "doubling",
        "result",
        "over",
        "dealt_hands",
    )

    hands: list[CardSet]
    field: CardSet
    captured: list[CardSet]
    stock: tuple[Card, ...]
    stock_pos: int
    oya: int
    turn: int
    phase: Phase
    pending: Card
    """The played or drawn card waiting for a pick (-1 when none)."""
    baselines: list[int]
    """Each seat's total at its last koikoi, 0 before (R7.1)."""
    totals: list[int]
    """Each seat's current yaku total (base points)."""
    koikoi_count: int
    koikoi_calls: list[int]
    doubling: bool
    result: RoundResult | None
    over: bool
    """The round has ended (``phase`` is OVER); a plain attribute, read in every playout."""
    dealt_hands: tuple[CardSet, CardSet]

    def __init__(
        self, deal: Deal, oya: int = 0, doubling: bool = True, *, teyaku: bool = True
    ) -> None:
        if deal is BLANK:  # copy() and determinize fill in every attribute
            return
        self.hands = [deal.hands[0], deal.hands[1]]
        self.dealt_hands = deal.hands
        self.field = deal.field
        self.captured = [0, 0]
        self.stock = deal.stock
        self.stock_pos = 0
        self.oya = oya
        self.turn = oya
        self.phase = _PLAY
        self.pending = -1
        self.baselines = [0, 0]
        self.totals = [0, 0]
        self.koikoi_count = 0
        self.koikoi_calls = [0, 0]
        self.doubling = doubling
        self.result = None
        self.over = False
        self._check_deal(teyaku)

    def _check_deal(self, judge_teyaku: bool) -> None:
        """R4.2, then R8 unless ``judge_teyaku`` is False (a record's deal whose hands are
        partly stand-ins: :func:`koikoi.engine.record.lay_out`)."""
        full = full_months(self.field)  # a bit on the first card of each month of four
        if full:  # R4.2 (R4.4: a redeal never scores a teyaku)
            four = full * 0xF  # each such bit spread over its month's four (nibbles apart)
            self._finish(RoundResult(Outcome.REDEAL, redeal_cards=four))
            return
        if not judge_teyaku:
            return
        first, second = teyaku_of(self.hands[0]), teyaku_of(self.hands[1])
        if first is None and second is None:  # the usual deal (not a tuple compared)
            return
        teyaku = (first, second)
        for seat in (self.oya, 1 - self.oya):  # R8.3: the oya's teyaku counts first
            found = teyaku[seat]
            if found is not None:
                doubled, points = round_points(TEYAKU_POINTS, 0, self.doubling)
                self._finish(
                    RoundResult(
                        Outcome.TEYAKU,
                        seat,
                        ((found, TEYAKU_POINTS),),
                        TEYAKU_POINTS,
                        doubled,
                        0,
                        points,
                        self.hands[seat],
                    )
                )
                return

    def copy(self) -> Round:
        """An independent copy (for search)."""
        r = Round(BLANK)
        r.hands = self.hands[:]
        r.field = self.field
        r.captured = self.captured[:]
        r.stock = self.stock
        r.stock_pos = self.stock_pos
        r.oya = self.oya
        r.turn = self.turn
        r.phase = self.phase
        r.pending = self.pending
        r.baselines = self.baselines[:]
        r.totals = self.totals[:]
        r.koikoi_count = self.koikoi_count
        r.koikoi_calls = self.koikoi_calls[:]
        r.doubling = self.doubling
        r.result = self.result
        r.over = self.over
        r.dealt_hands = self.dealt_hands
        return r

    # -- queries --------------------------------------------------------------------------

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def last_turn(self) -> bool:
        """Both hands are empty: this turn's decision can only be shobu (R7.3)."""
        return not (self.hands[0] | self.hands[1])

    def candidates(self) -> CardSet:
        """The two field cards the pending card may take (empty unless a pick is due)."""
        if self.phase == _PICK_PLAYED or self.phase == _PICK_DRAWN:
            return self.field & CARD_MONTH_MASK[self.pending]
        return 0

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, in a fixed order (cards lowest first; koikoi before shobu)."""
        phase = self.phase
        if phase == _PLAY:  # a play action is the card itself; card_tuple, inlined
            hand = self.hands[self.turn]
            return (
                _T0[hand & 0xFFF]
                + _T1[hand >> 12 & 0xFFF]
                + _T2[hand >> 24 & 0xFFF]
                + _T3[hand >> 36 & 0xFFF]
            )
        if phase == _DECIDE:
            return _KOIKOI_SHOBU if self.hands[0] | self.hands[1] else _SHOBU_ONLY
        if phase == _OVER:
            return ()
        pair = self.field & CARD_MONTH_MASK[self.pending]  # a pick: two cards of a month
        low = pair & -pair
        return (PICK_BASE + low.bit_length() - 1, PICK_BASE + (pair ^ low).bit_length() - 1)

    # -- the fast door --------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply a legal action without checking it (for search). No events."""
        phase = self.phase
        if phase == _PLAY:  # _play, inlined: this is the hottest call of every playout
            seat = self.turn
            hands = self.hands
            hands[seat] = hands[seat] & ~(1 << action)  # not &=: see _resolve
            self._resolve(action, False, None)
        elif phase == _DECIDE:
            self._decide(action == KOIKOI, None)
        else:
            self._pick(action - PICK_BASE, None)

    # -- the checked door -----------------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalAction` (naming the rule) unless ``action`` is legal now."""
        phase = self.phase
        if phase == _OVER:
            assert self.result is not None
            raise IllegalAction(_END_RULES[self.result.outcome], "the round has already ended")
        if seat is not None and seat != self.turn:
            self._check_other_seat(action, seat)
        if not isinstance(action, int) or not 0 <= action <= SHOBU:
            raise IllegalAction("R5.1", f"not an action: {action!r}")
        if phase == _PLAY:
            if action >= KOIKOI:
                raise IllegalAction(
                    "R7.1", f"{action_str(action)}, but no total rose: a card must be played"
                )
            if action >= PICK_BASE:
                raise IllegalAction(
                    "R5.2", f"{action_str(action)}, but no pick is due: a card must be played"
                )
            if not self.hands[self.turn] >> action & 1:
                raise IllegalAction("R5.1", f"{CARD_IDS[action]} is not in seat {self.turn}'s hand")
        elif phase == _DECIDE:
            if action < KOIKOI:
                raise IllegalAction(
                    "R7.1", f"{action_str(action)} when koikoi or shobu must be decided"
                )
            if action == KOIKOI and self.last_turn:
                raise IllegalAction("R7.3", "koikoi on the last turn: only shobu is allowed")
        else:
            if not PICK_BASE <= action < KOIKOI:  # leaving the card untaken breaks R5.3
                raise IllegalAction(
                    "R5.3",
                    f"{action_str(action)}: missing pick; {CARD_IDS[self.pending]} has two "
                    "field matches and must take one",
                )
            if not self.candidates() >> (action - PICK_BASE) & 1:
                raise IllegalAction(
                    "R5.2",
                    f"{CARD_IDS[action - PICK_BASE]} is not one of the two field matches "
                    f"of {CARD_IDS[self.pending]}",
                )

    def _check_other_seat(self, action: Action, seat: int) -> None:
        """Name the rule an action by the seat not to move breaks: what the mover owed
        (a pick, a decision) or what the action claims (a decision nobody is due) comes
        before plain turn order."""
        phase = self.phase
        turn = self.turn
        if phase in (_PICK_PLAYED, _PICK_DRAWN):
            raise IllegalAction(
                "R5.3",
                f"missing pick: seat {turn}'s {CARD_IDS[self.pending]} has two field matches "
                f"and must take one before seat {seat} acts",
            )
        if phase == _DECIDE:
            raise IllegalAction(
                "R7.1", f"missing koikoi or shobu: seat {turn}'s total rose and must be decided"
            )
        if action in (KOIKOI, SHOBU):
            raise IllegalAction(
                "R7.1", f"{action_str(action)} by seat {seat}, whose total did not rise"
            )
        if PICK_BASE <= action < KOIKOI:
            raise IllegalAction("R5.2", f"{action_str(action)} by seat {seat}: no pick is due")
        raise IllegalAction("R5.7", f"seat {seat} acted out of turn; seat {turn} is to move")

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Check and apply an action; return what happened."""
        self.check(action, seat)
        events: list[Event] = []
        phase = self.phase
        if phase == _PLAY:
            self._play(action, events)
        elif phase == _DECIDE:
            self._decide(action == KOIKOI, events)
        else:
            self._pick(action - PICK_BASE, events)
        return events

    # -- the rules ------------------------------------------------------------------------

    def _play(self, card: Card, events: list[Event] | None) -> None:
        seat = self.turn
        hands = self.hands
        hands[seat] = hands[seat] & ~(1 << card)
        if events is not None:
            events.append(CardPlayed(seat, card))
        self._resolve(card, False, events)

    def _pick(self, target: Card, events: list[Event] | None) -> None:
        seat = self.turn
        card = self.pending
        self.field &= ~(1 << target)
        captured = self.captured
        captured[seat] = captured[seat] | (1 << card) | (1 << target)
        self.pending = -1
        drawn = self.phase == _PICK_DRAWN
        self.phase = _PLAY
        if events is not None:
            events.append(Captured(seat, card, (target,)))
        self._resolve(_NOTHING if drawn else _DRAW, True, events)

    def _resolve(self, card: Card, took: bool, events: list[Event] | None) -> None:
        """Match the played ``card`` (R5.2, R5.3), then draw and match the stock card (R5.4),
        then end the turn: one routine for both doors. ``card`` is ``_DRAW`` when only the
        draw is left and ``_NOTHING`` when only the end of the turn is; ``took`` says whether
        the turn has captured anything so far (a pick has).

        Every playout of the search runs this, so it is written straight, with locals, and
        the two matchings spelled out rather than looped. "Two matches" is tested in bit
        operations (the set less its lowest card is one card): compiled, ``int.bit_count``
        is a method call by name. A list item is updated as ``piles[seat] = piles[seat] | x``:
        compiled, ``piles[seat] |= x`` is a generic in-place operation on boxed numbers.
        """
        seat = self.turn
        piles = self.captured
        if card != _NOTHING:
            field = self.field
            if card != _DRAW:
                matches = field & CARD_MONTH_MASK[card]
                if not matches:
                    field |= 1 << card
                    if events is not None:
                        events.append(PlacedOnField(seat, card))
                elif (rest := matches & (matches - 1)) and not rest & (rest - 1):  # two
                    self.field = field
                    self._await_pick(seat, card, matches, False, events)
                    return
                else:
                    field ^= matches
                    piles[seat] = piles[seat] | matches | (1 << card)
                    took = True
                    if events is not None:
                        events.append(Captured(seat, card, tuple(iter_cards(matches))))
            card = self.stock[self.stock_pos]
            self.stock_pos += 1
            if events is not None:
                events.append(StockTurned(seat, card))
            matches = field & CARD_MONTH_MASK[card]
            if not matches:
                field |= 1 << card
                if events is not None:
                    events.append(PlacedOnField(seat, card))
            elif (rest := matches & (matches - 1)) and not rest & (rest - 1):  # two
                self.field = field
                self._await_pick(seat, card, matches, True, events)
                return
            else:
                field ^= matches
                piles[seat] = piles[seat] | matches | (1 << card)
                took = True
                if events is not None:
                    events.append(Captured(seat, card, tuple(iter_cards(matches))))
            self.field = field
        if took:  # R5.6: yaku are checked once, at the end of the turn
            captured = piles[seat]
            total = self.totals[seat] = base_points(captured)
            if total > self.baselines[seat]:  # R7.1
                self.phase = _DECIDE
                if events is not None:
                    events.append(
                        YakuFormed(seat, tuple(yaku_of(captured)), total, self.baselines[seat])
                    )
                    events.append(DecisionNeeded(seat, not self.last_turn))
                return
        if self.hands[0] | self.hands[1]:  # _next_turn, inlined for the playouts
            self.turn = seat ^ 1
            if events is not None:
                events.append(TurnStarted(seat ^ 1))
        else:
            self._next_turn(events)

    def _await_pick(
        self, seat: int, card: Card, matches: CardSet, drawn: bool, events: list[Event] | None
    ) -> None:
        self.phase = _PICK_DRAWN if drawn else _PICK_PLAYED
        self.pending = card
        if events is not None:
            a, b = card_list(matches)
            events.append(ChoiceNeeded(seat, card, (a, b), drawn))

    def _next_turn(self, events: list[Event] | None) -> None:
        if not (self.hands[0] | self.hands[1]):  # R7.5
            self._finish(RoundResult(Outcome.NAGARE, koikoi=self.koikoi_count), events)
            return
        self.turn ^= 1
        self.phase = _PLAY
        if events is not None:
            events.append(TurnStarted(self.turn))

    def _decide(self, koikoi: bool, events: list[Event] | None) -> None:
        seat = self.turn
        if koikoi:  # R7.1, R7.2
            self.koikoi_count += 1
            calls = self.koikoi_calls
            calls[seat] = calls[seat] + 1
            self.baselines[seat] = self.totals[seat]
            if events is not None:
                events.append(KoikoiDeclared(seat, self.koikoi_count))
            self._next_turn(events)
            return
        yaku = yaku_of(self.captured[seat])  # R7.4: shobu wins; the opponent scores nothing
        base = self.totals[seat]
        doubled, points = round_points(base, self.koikoi_count, self.doubling)
        self._finish(
            RoundResult(Outcome.WIN, seat, tuple(yaku), base, doubled, self.koikoi_count, points),
            events,
        )

    def _finish(self, result: RoundResult, events: list[Event] | None = None) -> None:
        self.result = result
        self.over = True
        self.phase = _OVER
        self.pending = -1
        if events is not None:
            events.append(RoundEnded(result))


_T0: Final = CARD_TUPLES_BY_CHUNK[0]
_T1: Final = CARD_TUPLES_BY_CHUNK[1]
_T2: Final = CARD_TUPLES_BY_CHUNK[2]
_T3: Final = CARD_TUPLES_BY_CHUNK[3]
_DRAW: Final = -1
_NOTHING: Final = -2
_KOIKOI_SHOBU: Final = (KOIKOI, SHOBU)
_SHOBU_ONLY: Final = (SHOBU,)
_END_RULES: Final = {
    Outcome.WIN: "R7.4",
    Outcome.NAGARE: "R7.5",
    Outcome.TEYAKU: "R8.2",
    Outcome.REDEAL: "R4.2",
}
