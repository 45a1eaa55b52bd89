"""The lockstep with hidden cards (koikoi.net.private): two sides, each with its own engine
and its own dealer, play whole matches dealt privately as docs/protocol.md ("The lockstep with
hidden cards") lays it out; every move's hash agrees on both sides though neither engine holds
the other hand or the stock, each deal is audited and replayed with full information at its
end, and a teyaku kept quiet or a move the dealt cards do not allow is named."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from unittest import mock

import pytest

from koikoi.engine.cards import CardSet
from koikoi.engine.match import Settings
from koikoi.engine.record import replay
from koikoi.engine.round import PICK_BASE, Action
from koikoi.engine.yaku import teyaku_of
from koikoi.net.dealing import (
    FIELD,
    STOCK,
    Dealer,
    DealingCheat,
    exchange,
    hand_positions,
)
from koikoi.net.identity import Identity
from koikoi.net.lockstep import Lockstep
from koikoi.net.private import PrivateLockstep, role_of
from koikoi.net.roles import Role

SESSION = hashlib.sha256(b"private lockstep test").digest()


def _seed(game: int, seat: int, deal: int) -> bytes:
    return hashlib.sha256(b"seat %d game %d deal %d" % (seat, game, deal)).digest()


def _hand_bits(dealer: Dealer) -> CardSet:
    return sum(1 << card for card in dealer.hand)


@dataclass
class PrivateMatch:
    """Both sides of a privately dealt match, carried by hand (no session, no wire)."""

    game: int
    settings: Settings = field(default_factory=Settings)
    quiet_teyaku: bool = False
    """Every side keeps its teyaku quiet (a cheat)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.game)
        self.ids = {seat: Identity.generate() for seat in (0, 1)}
        first = self.game % 2
        self.sides = {
            seat: PrivateLockstep(self.settings, first, bytes(32), SESSION, seat) for seat in (0, 1)
        }
        self.dealers: dict[int, Dealer] = {}
        self.deals = 0
        self.hashes: list[bytes] = []

    def deal(self) -> None:
        self.dealers = {
            seat: self.sides[seat].new_dealer(seed=_seed(self.game, seat, self.deals))
            for seat in (0, 1)
        }
        self.deals += 1
        host, joiner = (self.dealers[role.seat] for role in (Role.HOST, Role.JOINER))
        exchange(host, joiner)
        declared: dict[int, CardSet | None] = {0: None, 1: None}
        for seat in (0, 1):  # a teyaku is declared by opening the whole hand
            dealer = self.dealers[seat]
            if teyaku_of(_hand_bits(dealer)) is not None and not self.quiet_teyaku:
                oya = role_of(self.sides[seat].match.oya)
                for position in hand_positions(dealer.role, oya):
                    self.dealers[1 - seat].receive(dealer.play(position))
                declared[1 - seat] = _hand_bits(dealer)
        for seat in (0, 1):
            holds = teyaku_of(_hand_bits(self.dealers[seat])) is not None
            if self.quiet_teyaku and holds:  # a modified client: its engine ignores its teyaku
                with mock.patch("koikoi.engine.round.teyaku_of", lambda hand: None):
                    self.sides[seat].lay_out(self.dealers[seat], declared[seat])
            else:
                self.sides[seat].lay_out(self.dealers[seat], declared[seat])
        assert self.sides[0].state_hash() == self.sides[1].state_hash()

    def move(self) -> None:
        side = self.sides[0]
        seat = side.match.current_seat()
        assert seat is not None
        mover, other = self.sides[seat], self.sides[1 - seat]
        action: Action = self.rng.choice(mover.match.legal_actions())
        if action < PICK_BASE:  # the mover opens the card it plays
            position = mover.position_of(action)
            self.dealers[1 - seat].receive(self.dealers[seat].play(position))
            opened = self.dealers[1 - seat].card_at(position)
            assert opened == action
            other.open(position, opened)
        assert mover.draws(action) == other.draws(action)
        if mover.draws(action):  # both open the drawn card
            position = mover.next_draw
            assert other.next_draw == position
            from_mover, from_other = self.dealers[seat].draw(), self.dealers[1 - seat].draw()
            self.dealers[1 - seat].receive(from_mover)
            self.dealers[seat].receive(from_other)
            for who in (0, 1):
                card = self.dealers[who].card_at(position)
                assert card is not None
                self.sides[who].open(position, card)
        entry, _, _ = mover.sign_move(self.ids[seat], seat, action)
        _, deals_before = other.apply(seat, action)
        assert other.state_hash() == entry.state_hash
        other.commit(entry, b"", seat, deals_before)
        self.hashes.append(entry.state_hash)

    def end_deal(self) -> None:
        host, joiner = (self.dealers[role.seat] for role in (Role.HOST, Role.JOINER))
        joiner.receive(host.reveal())
        host.receive(joiner.reveal())
        for seat in (0, 1):
            deck = self.dealers[seat].audit()
            self.sides[seat].check_deal(deck)

    def run(self) -> None:
        while not self.sides[0].match.finished:
            self.deal()
            while not self.sides[0].deal_over:
                self.move()
                self.check_hidden()
            self.end_deal()

    def check_hidden(self) -> None:
        """Each engine holds, at known positions, exactly what its dealer opened."""
        for seat, side in self.sides.items():
            dealer = self.dealers[seat]
            opened = {p for p in range(48) if dealer.card_at(p) is not None}
            assert side.known == opened
            for position in opened:
                assert side.shadow[position] == dealer.card_at(position)


@pytest.mark.parametrize("game", range(3))
def test_a_whole_match_dealt_privately_agrees_on_every_hash(game: int) -> None:
    table = PrivateMatch(game)
    table.run()
    host, joiner = table.sides[0], table.sides[1]
    assert host.match.finished and joiner.match.finished
    assert host.match.scores == joiner.match.scores
    assert host.prev_hash == joiner.prev_hash
    records = [side.record.to_json() for side in (host, joiner)]
    # The records hold the deals as dealt (after each audit): the same on both sides, and a
    # replay of them gives the match both sides played.
    assert [d["hands"] for d in records[0]["deals"]] == [d["hands"] for d in records[1]["deals"]]
    for deals in zip(records[0]["deals"], records[1]["deals"], strict=True):
        assert [{**d, "actions": [a["entry"] for a in d["actions"]]} for d in deals][0] == {
            **deals[1],
            "actions": [a["entry"] for a in deals[1]["actions"]],
        }
    result = replay(records[0])
    assert result["scores"] == list(host.match.scores)


def test_the_hash_covers_the_sealed_deck_and_not_the_hidden_cards() -> None:
    table = PrivateMatch(5)
    table.deal()
    side = table.sides[0]
    before = side.state_hash()
    rnd = side.match.round
    assert rnd is not None
    stock = list(rnd.stock)
    stock[-1], stock[-2] = stock[-2], stock[-1]  # a different guess of the sealed stock
    rnd.stock = tuple(stock)
    assert side.state_hash() == before
    side.dealing_hash = bytes(32)  # another sealed deck
    assert side.state_hash() != before


def test_each_engine_knows_only_what_the_rules_showed() -> None:
    table = PrivateMatch(6)
    table.deal()
    for seat, side in table.sides.items():
        oya = role_of(side.match.oya)
        mine = set(hand_positions(role_of(seat), oya))
        assert side.known == mine | set(FIELD)
    for _ in range(4):
        if table.sides[0].deal_over:
            break
        table.move()
        table.check_hidden()
    for side in table.sides.values():
        assert not side.known & set(range(STOCK.start + side.match.round.stock_pos, 48))  # type: ignore[union-attr]


def _teyaku_game() -> int:
    """A game whose first deal gives a hand a teyaku (found from the seeds alone)."""
    for game in range(400):
        table = PrivateMatch(game)
        table.dealers = {
            seat: table.sides[seat].new_dealer(seed=_seed(game, seat, 0)) for seat in (0, 1)
        }
        transcript_copy = table.dealers[0].transcript
        transcript_copy.seeds = {Role.HOST: _seed(game, 0, 0), Role.JOINER: _seed(game, 1, 0)}
        from koikoi.net.dealing import _Keys

        keys = {r: _Keys(transcript_copy.seeds[r], transcript_copy.context, r) for r in Role}
        deck = [keys[Role.HOST].permutation[keys[Role.JOINER].permutation[j]] for j in range(48)]
        hands = (sum(1 << c for c in deck[0:8]), sum(1 << c for c in deck[8:16]))
        if any(teyaku_of(h) is not None for h in hands):
            return game
    raise AssertionError("no teyaku in 400 first deals")


def test_a_declared_teyaku_ends_the_deal_on_both_sides() -> None:
    game = _teyaku_game()
    table = PrivateMatch(game)
    table.deal()
    assert table.sides[0].deal_over and table.sides[1].deal_over
    assert table.sides[0].state_hash() == table.sides[1].state_hash()
    table.end_deal()  # the audit and the replay agree


def test_a_teyaku_kept_quiet_is_named_at_the_deals_end() -> None:
    game = _teyaku_game()
    table = PrivateMatch(game, quiet_teyaku=True)
    table.deal()
    while not table.sides[0].deal_over:
        table.move()
    holder = next(seat for seat in (0, 1) if teyaku_of(_hand_bits(table.dealers[seat])) is not None)
    host, joiner = (table.dealers[role.seat] for role in (Role.HOST, Role.JOINER))
    joiner.receive(host.reveal())
    host.receive(joiner.reveal())
    honest = 1 - holder
    with pytest.raises(DealingCheat, match="kept quiet a hand that ended the deal") as caught:
        table.sides[honest].check_deal(table.dealers[honest].audit())
    assert caught.value.culprit is role_of(holder)


def test_a_move_the_dealt_cards_do_not_allow_is_named() -> None:
    """Replayed with another deck than the one played (what a card that was not in the hand
    would look like), the first move the true cards do not allow names its mover."""
    table = PrivateMatch(8)
    table.deal()
    while not table.sides[0].deal_over:
        table.move()
    side = table.sides[0]
    first = side.match.moves[0]
    deck = list(side.shadow)
    oya = role_of(side.match.oya)
    mover_positions = hand_positions(role_of(first.seat), oya)
    # Move the first card played out of its mover's hand, into the stock's last place.
    at = deck.index(first.action)
    assert at in mover_positions
    deck[at], deck[47] = deck[47], deck[at]
    with pytest.raises(DealingCheat, match=r"played play \w+ in move 0 of the deal") as caught:
        side.check_deal(deck)
    assert caught.value.culprit is role_of(first.seat)


def _first_deck(game: int) -> list[int]:
    """The first deal's deck of ``game``, from the seeds alone (the audit's formula)."""
    from koikoi.net.dealing import deal_context
    from koikoi.net.mental import derive_permutation

    context = deal_context(SESSION, 1, 0)
    host, joiner = (
        derive_permutation(_seed(game, role.seat, 0), context + b"\0" + role.label) for role in Role
    )
    return [host[joiner[j]] for j in range(48)]


def test_four_of_a_month_on_the_field_redeals_on_both_sides() -> None:
    """R4.2: the field is open to both, so both engines end the deal at once; the same oya
    deals again, and the match goes on to its end."""
    from koikoi.engine.cards import full_months

    game = next(g for g in range(20_000) if full_months(sum(1 << c for c in _first_deck(g)[16:24])))
    table = PrivateMatch(game)
    table.deal()
    for side in table.sides.values():
        assert side.deal_over and side.match.deal_no == 1 and side.match.rounds_played == 0
    table.end_deal()
    table.run()
    assert table.sides[0].match.scores == table.sides[1].match.scores


@pytest.mark.parametrize("game", range(4))
def test_the_stand_ins_depend_only_on_the_cards_a_side_knows(game: int) -> None:
    """At the lay-out, what a side's engine holds at the sealed positions (the other hand,
    the stock) is a function of the cards it knows: it tells nothing of the sealed cards."""
    from koikoi.net.private import _no_teyaku_hand

    table = PrivateMatch(game)
    table.deal()
    for seat, side in table.sides.items():
        if side.deal_over:
            continue
        oya = role_of(side.match.oya)
        theirs = list(hand_positions(role_of(seat).peer, oya))
        known_cards = {side.shadow[p] for p in side.known}
        unknown = sorted(set(range(48)) - known_cards)
        stand_ins = _no_teyaku_hand(unknown)
        assert [side.shadow[p] for p in theirs] == stand_ins
        assert [side.shadow[p] for p in STOCK] == [c for c in unknown if c not in stand_ins]


def test_what_a_listener_has_left_to_hear_is_the_locksteps_to_say() -> None:
    """The table's peer (``koikoi.ui.match.opponents.RemoteOpponent.behind``) asks the lockstep:
    deals laid out between moves count in private dealing only, and whose turn it is comes
    from the deal in play (none before the first deal)."""
    match = PrivateMatch(0)
    side = match.sides[0]
    assert side.deals_laid == 0 and side.turn is None and not side.unheard(0, 0)
    match.deal()
    rnd = side.match.round
    assert rnd is not None and side.turn == rnd.turn
    assert side.deals_laid == 1 and side.unheard(0, 0) and not side.unheard(0, 1)
    match.move()
    assert side.seq == 1 and side.unheard(0, 1) and not side.unheard(1, 1)
    seed = Lockstep(Settings(), 0, bytes(32), SESSION)  # its deal comes with the toss
    dealt = seed.match.round
    assert dealt is not None and seed.turn == dealt.turn
    assert seed.deals_laid == 0 and not seed.unheard(0, 0) and not seed.unheard(0, 1)
