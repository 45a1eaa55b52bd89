"""The lockstep with hidden cards: one side's engine of a privately dealt match.

With private dealing (:mod:`koikoi.net.dealing`) a side knows its own hand, the field, and the
cards drawn or played so far; the other hand and the stock stay sealed. The rules engine still
needs a whole deck, so each side lays out a *shadow* deck: the cards it knows at their
positions, and the cards it does not know, in an order of its own, at the sealed positions
(never one that would give the other hand a teyaku it did not declare). When a card is opened
(the other side plays it, or both open a draw), it is swapped into its position, so the
engine plays exactly the cards the rules showed. The two sides' shadows differ, so the hash
of each move covers only what both know (:func:`public_state`), and the sealed deck in the
form both hold (:func:`~koikoi.net.dealing.sealed_hash`, chained over the deals).

At a deal's end, once both seeds are revealed and the dealing audited, :meth:`PrivateLockstep.
check_deal` replays the deal with the whole deck and full information, move by move, and
names the seat whose move the rules did not allow (a card it did not hold, a teyaku kept
quiet). docs/protocol.md, "Private dealing", "The lockstep with hidden cards", is normative.

>>> from koikoi.engine.match import Settings
>>> from koikoi.net.dealing import Dealer, deal_context, exchange
>>> game = {seat: PrivateLockstep(Settings(), 0, bytes(32), bytes(32), seat) for seat in (0, 1)}
>>> dealers = {seat: game[seat].new_dealer(seed=bytes([seat]) * 32) for seat in (0, 1)}
>>> exchange(dealers[0], dealers[1])
>>> _ = [game[seat].lay_out(dealers[seat], teyaku_hand=None) for seat in (0, 1)]
>>> game[0].state_hash() == game[1].state_hash()
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from koikoi.engine.cards import CardSet
from koikoi.engine.deck import Deal, deal_from_order
from koikoi.engine.events import Dealt, Event
from koikoi.engine.match import Match, Settings
from koikoi.engine.record import RecordedDeal
from koikoi.engine.round import Action, IllegalAction, Round, action_str
from koikoi.engine.yaku import teyaku_of
from koikoi.net.dealing import (
    FIELD,
    STOCK,
    Dealer,
    DealingCheat,
    DealTranscript,
    audit,
    deal_context,
    hand_positions,
    sealed_hash,
)
from koikoi.net.lockstep import Lockstep, round_state
from koikoi.net.mental import (
    GroupError,
    card_of,
    check_point,
    check_scalar,
    encrypt,
    invert,
    multiply,
)
from koikoi.net.roles import Role

PUBLIC_STATE_LABEL: Final = b"koikoi-net/3 state\0"
SEALED_KEY: Final = "sealed"
"""A record's deal not audited yet: its cards are the writer's view (stand-ins where sealed)."""
CARDS: Final = 48


def role_of(seat: int) -> Role:
    return Role.HOST if seat == Role.HOST.seat else Role.JOINER


def public_state(match: Match, dealing: bytes) -> bytes:
    """What both sides know of the match, as msgpack bytes both compute identically.

    :func:`koikoi.net.lockstep.canonical_state` with three changes (:func:`~koikoi.net.
    lockstep.round_state` with ``sealed``): the two hands are their numbers of cards, the
    stock is the cards drawn so far (bin, one byte each, in draw order), and a tenth
    top-level item, ``dealing``, the sealed hash of the deals so far.
    """
    state = round_state(match, sealed=True)
    state.append(dealing)
    packed: bytes = msgpack.packb(state, use_bin_type=True)
    return packed


def public_state_hash(match: Match, dealing: bytes) -> bytes:
    """``SHA-256("koikoi-net/3 state\\0" ‖ public_state)``."""
    return hashlib.sha256(PUBLIC_STATE_LABEL + public_state(match, dealing)).digest()


def _bit(card: int) -> int:
    return 1 << card


@dataclass(frozen=True, slots=True)
class SealedDealt(Dealt):
    """A privately dealt deal as the seat ``viewer`` may know it: its own hand and the field,
    and of the other hand and the stock only how many cards they hold. ``hands`` holds 0 for
    the other seat (its cards are sealed: the engine's stand-ins for them are nobody's to
    show); :meth:`hand_size` and :attr:`stock_size` give the counts. What the session hands a
    window, a bot or a log in place of the engine's own ``Dealt``."""

    viewer: int
    sizes: tuple[int, int]
    stock_cards: int

    def hand_size(self, seat: int) -> int:
        return self.sizes[seat]

    @property
    def stock_size(self) -> int:
        return self.stock_cards


def seat_view(events: Iterable[Event], seat: int) -> list[Event]:
    """``events`` of a privately dealt deal as ``seat`` may see them: each ``Dealt`` becomes
    a :class:`SealedDealt` (the other hand and the stock as counts); the other events show
    only cards the rules opened, and pass as they are.

    >>> dealt = Dealt(0, 1, 0, 0b1111_1111, (0xFF00, 0xFF0000))
    >>> view = seat_view([dealt], 1)[0]
    >>> view.hands == (0, 0xFF0000), view.hand_size(0), view.stock_size
    (True, 8, 24)
    """
    out: list[Event] = []
    for event in events:
        if isinstance(event, Dealt) and not isinstance(event, SealedDealt):
            mine = event.hands[seat]
            hands = (mine, 0) if seat == 0 else (0, mine)
            sizes = (event.hand_size(0), event.hand_size(1))
            event = SealedDealt(
                event.oya,
                event.round_no,
                event.deal_no,
                event.field,
                hands,
                seat,
                sizes,
                event.stock_size,
            )
        out.append(event)
    return out


class PrivateLockstep(Lockstep):
    """One side's (``seat``'s) copy of a privately dealt match.

    No deal is laid out by itself: when one is due (:attr:`deal_due`), the session runs a
    :class:`~koikoi.net.dealing.Dealer` from :meth:`new_dealer` and lays the deal out with
    :meth:`lay_out` once the hands and the field are open. During the deal, :meth:`open`
    swaps each card the rules show into the engine; at its end :meth:`check_deal` replays it
    with the audited deck. The ``seed`` is the coin toss's: it chains the log, it deals
    nothing.
    """

    def __init__(
        self, settings: Settings, first_oya: int, seed: bytes, session: bytes, seat: int
    ) -> None:
        self.seat = seat
        self.dealing_hash = bytes(32)
        """The sealed hash of the deals laid out so far (32 zero bytes before the first)."""
        self.shadow: list[int] = []
        """Position → card of the deck the engine plays (true where known)."""
        self.known: set[int] = set()
        """The positions whose card this side knows."""
        self.oya_role = Role.HOST
        self.transcripts: list[DealTranscript] = []
        self.deal_first_move: list[int] = []
        """``deal_first_move[n]``: the sequence number of deal ``n``'s first move."""
        super().__init__(settings, first_oya, seed, session)

    # --- deals ---------------------------------------------------------------------------

    def _advance(self) -> list[Event]:
        return []  # a private deal is laid out by lay_out, once dealt

    @property
    def deals_laid(self) -> int:
        return len(self.transcripts)

    @property
    def deal_due(self) -> bool:
        """A deal is to be dealt (the match goes on and no deal is in play)."""
        return self.match.needs_deal

    @property
    def deal_over(self) -> bool:
        """The deal laid out last is over (the match may be over too)."""
        rnd = self.match.round
        return rnd is not None and rnd.over

    def new_dealer(self, seed: bytes | None = None) -> Dealer:
        """This side's dealer of the next deal (``seed`` fixed: tests and replays)."""
        match = self.match
        if not match.needs_deal:
            raise ValueError("no deal is due")
        context = deal_context(self.session, match.round_no, match.deal_no)
        return Dealer(role_of(self.seat), context, role_of(match.oya), seed=seed)

    def lay_out(self, dealer: Dealer, teyaku_hand: CardSet | None) -> list[Event]:
        """Lay out the deal ``dealer`` opened (this side's hand and the field known).

        ``teyaku_hand`` is the other hand when the other side declared a teyaku with it
        (opened by its keys), else None: the shadow then gives the other hand no teyaku.
        """
        if len(dealer.hand) != 8 or len(dealer.field) != 8:
            raise ValueError("the dealing has not opened this side's hand and the field")
        match = self.match
        oya = role_of(match.oya)
        mine = hand_positions(role_of(self.seat), oya)
        theirs = hand_positions(role_of(self.seat).peer, oya)
        shadow = [-1] * CARDS
        known = set()
        for position in (*mine, *FIELD):
            card = dealer.card_at(position)
            assert card is not None
            shadow[position] = card
            known.add(position)
        if teyaku_hand is not None:
            for position, card in zip(theirs, _cards_of(teyaku_hand), strict=True):
                shadow[position] = card
                known.add(position)
        unknown = sorted(set(range(CARDS)) - set(shadow))
        other = [shadow[p] for p in theirs if shadow[p] >= 0]
        if not other:  # a sealed hand: pick 8 of the unknown cards that make no teyaku
            other = _no_teyaku_hand(unknown)
            for position, card in zip(theirs, other, strict=True):
                shadow[position] = card
        rest = iter(card for card in unknown if card not in other)
        for position in range(CARDS):
            if shadow[position] < 0:
                shadow[position] = next(rest)
        self.shadow, self.known = shadow, known
        self.oya_role = oya
        self.transcripts.append(dealer.transcript)
        self.dealing_hash = sealed_hash(dealer.transcript, self.dealing_hash)
        self.deal_first_move.append(self.seq)
        events = match.deal(shadow)
        rnd = match.round
        assert rnd is not None
        self.record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        self.record.deals[-1].extra.update(
            {SEALED_KEY: True, "dealing": dealer.transcript.to_json()}
        )
        return events

    def refresh_record(self) -> None:
        """The record's current deal, until audited, keeps its dealing as it stands (keys
        opened so far); its cards are this side's view (``sealed``: the cards it does not
        know are stand-ins, :meth:`written_view`)."""
        if not self.transcripts or len(self.record.deals) < len(self.transcripts):
            return
        index = len(self.transcripts) - 1
        deal, rnd = self.record.deals[index], self.match.round
        if deal.extra.get(SEALED_KEY) and rnd is not None:
            extra = {**deal.extra, "dealing": self.transcripts[-1].to_json()}
            hands, stock = self.written_view()
            self.record.deals[index] = RecordedDeal(hands, deal.field, stock, deal.actions, extra)

    def written_view(self) -> tuple[tuple[CardSet, CardSet], tuple[int, ...]]:
        """The deal in play as its record shows it: the cards this side knows where they lie,
        and the stand-ins spread over the positions it does not know so that the other hand
        is no teyaku with the cards opened in it (docs/protocol.md, "Records and verify").

        The engine's own stand-ins were chosen so when the deal was laid out; the cards the
        other side played were swapped in since, and three of a month played with a stand-in
        for the fourth would make the hand as the engine holds it a teyaku a replay ends the
        deal on. Such a spread exists whenever the other side played by the rules (its dealt
        hand is one); else the engine's view is written as it stands."""
        rnd = self.match.round
        assert rnd is not None
        hands = rnd.dealt_hands
        peer = role_of(self.seat).peer
        if teyaku_of(hands[peer.seat]) is None:
            return hands, tuple(rnd.stock)
        theirs = hand_positions(peer, self.oya_role)
        sealed_hand = [p for p in theirs if p not in self.known]
        sealed_stock = [p for p in STOCK if p not in self.known]
        opened = [self.shadow[p] for p in theirs if p in self.known]
        pool = [self.shadow[p] for p in (*sealed_hand, *sealed_stock)]
        chosen = _fill_without_teyaku(opened, pool, len(sealed_hand))
        if chosen is None:  # no dealt hand of the rules holds what the other side played
            return hands, tuple(rnd.stock)
        rest = iter(card for card in pool if card not in chosen)
        deck = list(self.shadow)
        for position, card in zip(sealed_hand, chosen, strict=True):
            deck[position] = card
        for position in sealed_stock:
            deck[position] = next(rest)
        other = sum(_bit(deck[p]) for p in theirs)
        written = (hands[0], other) if peer.seat == 1 else (other, hands[1])
        return written, tuple(deck[p] for p in STOCK)

    def open(self, position: int, card: int) -> None:
        """The rules showed ``card`` at ``position`` (a play of the other side, or a draw):
        swap it into the engine's deck there."""
        if position in self.known:
            if self.shadow[position] != card:
                raise ValueError(f"position {position} is known to hold another card")
            return
        other = self.shadow.index(card)
        if other in self.known:
            raise ValueError(f"card {card} is known to lie at position {other}")
        placeholder = self.shadow[position]
        if position in STOCK or other in STOCK:  # both in the other hand: a set, unchanged
            self._swap_in_engine(position, placeholder, card)
            self._swap_in_engine(other, card, placeholder)
        self.shadow[position], self.shadow[other] = card, placeholder
        self.known.add(position)

    def _swap_in_engine(self, position: int, old: int, new: int) -> None:
        """Put ``new`` where the engine holds ``old``, which lies sealed at ``position``."""
        rnd = self.match.round
        assert rnd is not None
        if position in STOCK:
            index = position - STOCK.start
            if index < rnd.stock_pos:
                raise ValueError(f"position {position} was drawn already")
            stock = list(rnd.stock)
            stock[index] = new
            rnd.stock = tuple(stock)
            return
        seat = role_of(self.seat).peer.seat
        if not rnd.hands[seat] & _bit(old):
            raise ValueError(f"position {position} was played already")
        rnd.hands[seat] = rnd.hands[seat] & ~_bit(old) | _bit(new)
        dealt = list(rnd.dealt_hands)
        dealt[seat] = dealt[seat] & ~_bit(old) | _bit(new)
        rnd.dealt_hands = (dealt[0], dealt[1])

    def position_of(self, card: int) -> int:
        """Where a card of this side's hand lies (its ``play`` opens that position)."""
        position = self.shadow.index(card)
        if position not in hand_positions(role_of(self.seat), self.oya_role):
            raise ValueError(f"card {card} is not in this side's hand")
        return position

    def draws(self, action: Action) -> bool:
        """Whether ``action`` (legal, of the seat to move) turns a stock card: a play whose
        card does not leave a pick due, or the pick of a played card. Public knowledge: it
        depends on the field and the card played, not on the card drawn."""
        rnd = self.match.round
        assert rnd is not None
        trial = rnd.copy()
        trial.push(action)
        return trial.stock_pos > rnd.stock_pos

    @property
    def next_draw(self) -> int:
        """The deck position of the next stock card."""
        rnd = self.match.round
        assert rnd is not None
        return STOCK.start + rnd.stock_pos

    def state_hash(self) -> bytes:
        return public_state_hash(self.match, self.dealing_hash)

    # --- the end of a deal -----------------------------------------------------------------

    def check_deal(self, deck: Sequence[int]) -> None:
        """Replay the deal just over with the audited ``deck`` and full information.

        Raises :class:`~koikoi.net.dealing.DealingCheat` naming the side whose move the
        rules did not allow (a card it did not hold), or who kept a teyaku quiet; on success
        the record holds the deal as it was dealt (both hands and the stock)."""
        match = self.match
        if not self.deal_over or not self.transcripts:
            raise ValueError("no deal is over to check")
        index = len(self.transcripts) - 1
        dealt = replay_dealt(deck, self.transcripts[index].oya.seat, match)
        recorded = self.record.deals[index]
        extra = {key: value for key, value in recorded.extra.items() if key != SEALED_KEY}
        extra["dealing"] = self.transcripts[index].to_json()
        self.record.deals[index] = RecordedDeal(
            dealt.hands, dealt.field, dealt.stock, recorded.actions, extra
        )


def replay_dealt(deck: Sequence[int], oya: int, match: Match) -> Deal:
    """Replay the deal ``match`` just played (its moves, its result) with the audited
    ``deck`` and full information; returns the deal as dealt.

    Raises :class:`~koikoi.net.dealing.DealingCheat` naming the side whose move the rules
    did not allow (a card it did not hold), or who kept a teyaku quiet (``koikoi verify``
    runs it too, on a record's last deal kept sealed)."""
    dealt = deal_from_order(deck, oya)
    truth = Round(dealt, oya, match.settings.doubling)
    for number, move in enumerate(match.moves):
        if truth.over:
            holder = truth.result.winner if truth.result is not None else None
            raise DealingCheat(
                role_of(oya if holder is None else holder),
                f"kept quiet a hand that ended the deal at once (a teyaku, R8), yet move"
                f" {number} of the deal was played",
                "teyaku",
            )
        try:
            truth.apply(move.action, move.seat)
        except IllegalAction as error:
            raise DealingCheat(
                role_of(move.seat),
                f"played {action_str(move.action)} in move {number} of the deal, which its"
                f" dealt cards do not allow ({error})",
                "replay",
            ) from None
    played = match.history[-1].result
    if truth.result != played:
        holder = truth.result.winner if truth.result is not None else None
        raise DealingCheat(
            role_of(oya if holder is None else holder),
            "kept quiet a hand that ended the deal at once (a teyaku, R8)"
            if not match.moves
            else "played a deal whose replay with every card ends otherwise",
            "teyaku",
        )
    return dealt


def _cards_of(hand: CardSet) -> list[int]:
    return [card for card in range(CARDS) if hand >> card & 1]


def _no_teyaku_hand(cards: list[int]) -> list[int]:
    """8 of ``cards`` (24 sorted card ids) whose hand is no teyaku: the first 8 months' worth
    taken one card per month as far as it goes, so at most two of a month."""
    by_month: dict[int, list[int]] = {}
    for card in cards:
        by_month.setdefault(card // 4, []).append(card)
    chosen: list[int] = []
    while len(chosen) < 8:
        for month in sorted(by_month):
            if by_month[month] and len(chosen) < 8:
                chosen.append(by_month[month].pop(0))
    bits = sum(_bit(card) for card in chosen)
    assert teyaku_of(bits) is None
    return chosen


def _fill_without_teyaku(opened: list[int], pool: list[int], need: int) -> list[int] | None:
    """``need`` cards of ``pool`` that make no teyaku with the ``opened`` cards of a hand (a
    search, months the hand holds fewest of first); None when there are none.

    >>> _fill_without_teyaku([0, 1, 2], [3, 4, 5], 1)
    [4]
    >>> _fill_without_teyaku([0, 1, 2, 4, 5, 8, 9], [3], 1) is None
    True
    """
    counts = [0] * 12
    for card in opened:
        counts[card // 4] += 1
    order = sorted(pool, key=lambda card: (counts[card // 4], card))
    chosen: list[int] = []
    budget = [20_000]

    def search(start: int) -> bool:
        if len(chosen) == need:
            return teyaku_of(sum(_bit(card) for card in (*opened, *chosen))) is None
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for index in range(start, len(order)):
            card = order[index]
            if counts[card // 4] >= 3:  # a fourth of a month: teshi
                continue
            chosen.append(card)
            counts[card // 4] += 1
            if search(index + 1):
                return True
            chosen.pop()
            counts[card // 4] -= 1
        return False

    return chosen if search(0) else None


class AuditedLockstep(Lockstep):
    """``koikoi verify``'s copy of a privately dealt match: each deal laid out from the deck
    its dealing's audit gives (both seeds revealed), every move checked with full
    information, and the hashes computed as the players did (:func:`public_state_hash`)."""

    def __init__(self, settings: Settings, first_oya: int, seed: bytes, session: bytes) -> None:
        self.dealing_hash = bytes(32)
        self.unaudited = 0
        """Deals laid out from the record's cards (cut short before the seeds)."""
        super().__init__(settings, first_oya, seed, session)

    def _advance(self) -> list[Event]:
        return []  # each deal comes from its dealing (lay_out)

    def lay_out(
        self, transcript: DealTranscript, sealed: Sequence[int] | None = None, moves: int = 0
    ) -> list[Event]:
        """Audit ``transcript`` (the next deal's dealing) and lay out the deck it gives.

        A deal cut short (no seeds) is laid out from ``sealed``, the writer's view of it (the
        record's cards, as ``koikoi replay`` lays them out: a deal marked ``sealed`` with
        ``moves`` recorded is not judged for a teyaku, :func:`koikoi.engine.record.lay_out`):
        its signed entries and public hashes check, its hidden cards are not vouched for
        (:attr:`unaudited`).
        Raises :class:`~koikoi.net.dealing.DealingCheat` naming a side whose dealing its
        seed does not give, and ``ValueError`` for a dealing of another deal, or without
        seeds and without ``sealed``."""
        match = self.match
        if not match.needs_deal:
            raise ValueError("a dealing where no deal is due")
        if transcript.context != deal_context(self.session, match.round_no, match.deal_no):
            raise ValueError("the dealing is bound to another deal of another session")
        if transcript.oya is not role_of(match.oya):
            raise ValueError(f"the dealing names the {transcript.oya.value} as the oya")
        teyaku = True
        if len(transcript.seeds) < 2 and sealed is not None:
            check_opened(transcript, sealed)
            deck: Sequence[int] = sealed
            teyaku = not moves
            self.unaudited += 1
        else:
            deck = audit(transcript)
        self.dealing_hash = sealed_hash(transcript, self.dealing_hash)
        events = match.deal(deck, teyaku=teyaku)
        rnd = match.round
        assert rnd is not None
        self.record.add_deal(rnd.dealt_hands, rnd.field, rnd.stock)
        return events

    def state_hash(self) -> bytes:
        return public_state_hash(self.match, self.dealing_hash)


def check_opened(transcript: DealTranscript, sealed: Sequence[int]) -> dict[int, int]:
    """For a deal cut short: every position both sides sent a key of opens, in the final deck
    ``Z``, to the card the record shows there (``sealed``: a deck order whose hands and field
    count as sets, its stock in order). Returns the opened cards by position; raises
    ``ValueError`` naming a position that does not open so."""
    opened: dict[int, int] = {}
    keys = transcript.keys
    final = transcript.locked.get(Role.JOINER)
    if final is None:
        raise ValueError("the dealing did not reach the final deck")
    for position in sorted(set(keys[Role.HOST]) & set(keys[Role.JOINER])):
        try:
            host, joiner = keys[Role.HOST][position], keys[Role.JOINER][position]
            both = multiply(check_scalar(host), check_scalar(joiner))
            card = card_of(encrypt(check_point(final[position]), invert(check_scalar(both))))
        except GroupError as error:
            raise ValueError(f"position {position} does not open: {error}") from None
        if position in STOCK:
            shown: Sequence[int] = (sealed[position],)
        else:
            start = position - position % 8
            shown = sealed[start : start + 8]
        if card is None or card not in shown:
            raise ValueError(
                f"position {position} opens "
                + ("no card" if card is None else f"card {card}")
                + ", not a card the record shows there"
            )
        opened[position] = card
    return opened
