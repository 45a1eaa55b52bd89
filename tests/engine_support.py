"""Builders shared by the engine tests: deals by card id, state snapshots, random play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from koikoi.engine.cards import ALL_CARDS, CARD_IDS, Card, CardSet, parse_card, to_set
from koikoi.engine.deck import Deal, deal_from_order, deck_from_seed
from koikoi.engine.round import KOIKOI, SHOBU, Action, Phase, Round


def c(name: str) -> Card:
    return parse_card(name)


def cs(*names: str) -> CardSet:
    return to_set(parse_card(n) for n in names)


def make_deal(
    hand0: Sequence[str],
    hand1: Sequence[str],
    field: Sequence[str],
    stock_top: Sequence[str] = (),
) -> Deal:
    """A full deal of 48 cards: the given hands and field, the stock starting with
    ``stock_top`` (drawn first) and then every other card in card order."""
    named = [*hand0, *hand1, *field, *stock_top]
    assert len(named) == len(set(named)), "a card named twice"
    assert len(hand0) == len(hand1) == len(field) == 8
    rest = [n for n in CARD_IDS if n not in set(named)]
    stock = tuple(c(n) for n in [*stock_top, *rest])
    assert len(stock) == 24
    return Deal((cs(*hand0), cs(*hand1)), cs(*field), stock)


def snapshot(r: Round) -> tuple[object, ...]:
    """Everything that decides the game from here on (not the dealt hands or history)."""
    return (
        tuple(r.hands),
        r.field,
        tuple(r.captured),
        tuple(r.stock[r.stock_pos :]),
        r.oya,
        r.turn,
        r.phase,
        r.pending,
        tuple(r.baselines),
        tuple(r.totals),
        r.koikoi_count,
        tuple(r.koikoi_calls),
        r.doubling,
        r.result,
    )


def cards_in_play(r: Round) -> list[CardSet]:
    """The parts the 48 cards are in: hands, field, captures, stock to draw, pending card."""
    pending = 1 << r.pending if r.pending >= 0 else 0
    return [*r.hands, r.field, *r.captured, to_set(r.stock[r.stock_pos :]), pending]


def assert_conserved(r: Round) -> None:
    parts = cards_in_play(r)
    assert sum(p.bit_count() for p in parts) == 48, "a card is in two places or lost"
    union = 0
    for p in parts:
        union |= p
    assert union == ALL_CARDS


Policy = Callable[[Round, random.Random], Action]


def random_policy(r: Round, rng: random.Random) -> Action:
    return rng.choice(r.legal_actions())


def koikoi_policy(r: Round, rng: random.Random) -> Action:
    """Random plays and picks, koikoi whenever allowed: rounds run long."""
    legal = r.legal_actions()
    if r.phase == Phase.DECIDE:
        return KOIKOI if KOIKOI in legal else SHOBU
    return rng.choice(legal)


def seeded_deals(tag: bytes, count: int) -> Iterator[tuple[Deal, int]]:
    """Deals from ``deck_from_seed(tag + n, 1, 0)`` with the oya alternating, as (deal, oya)."""
    for n in range(count):
        order = deck_from_seed(tag + n.to_bytes(4, "big"), 1, 0)
        yield deal_from_order(order, n % 2), n % 2


def seeded_rounds(tag: bytes, count: int) -> Iterator[Round]:
    for deal, oya in seeded_deals(tag, count):
        yield Round(deal, oya)


class Found(NamedTuple):
    round: Round
    """A copy of the round at the position found."""
    actions: list[Action]
    """The actions from the deal to that position."""
    deal: Deal
    oya: int


def find_position(
    tag: bytes, policy: Policy, wanted: Callable[[Round], bool], tries: int = 500
) -> Found:
    """The first position, over seeded rounds played by ``policy``, where ``wanted`` holds."""
    for n, (deal, oya) in enumerate(seeded_deals(tag, tries)):
        r = Round(deal, oya)
        rng = random.Random(n)
        actions: list[Action] = []
        while True:
            if wanted(r):
                return Found(r.copy(), actions, deal, oya)
            if r.over:
                break
            a = policy(r, rng)
            actions.append(a)
            r.push(a)
    raise AssertionError("no such position in the seeded rounds")
