"""A whole round of the rules engine dealt privately, turn by turn as docs/protocol.md proposes
("Plugging it into the session"): the mover opens the card it plays with ``play``, both open
the drawn card with ``draw``; each side sees, at every step, exactly the cards the rules have
shown it, and the audit at the end gives the deck the engine played."""

from __future__ import annotations

import hashlib
import random

import pytest

from koikoi.engine.deck import deal_from_order
from koikoi.engine.round import PICK_BASE, Round
from koikoi.net.dealing import (
    FIELD,
    STOCK,
    Dealer,
    DealTranscript,
    audit,
    deal_context,
    exchange,
    hand_positions,
)
from koikoi.net.roles import Role


def _deck_in_advance(host: Dealer, joiner: Dealer, seeds: tuple[bytes, bytes]) -> list[int]:
    """The deck, for the test's engine only: the audit of a copy given both seeds (neither
    side could compute it)."""
    copy = DealTranscript.from_json(host.transcript.to_json())
    copy.seeds = {Role.HOST: seeds[0], Role.JOINER: seeds[1]}
    return list(audit(copy))


@pytest.mark.parametrize("game", range(6))
def test_a_round_of_the_engine_dealt_privately(game: int) -> None:
    rng = random.Random(game)
    seeds = (
        hashlib.sha256(b"round host %d" % game).digest(),
        hashlib.sha256(b"round joiner %d" % game).digest(),
    )
    oya = Role.HOST if game % 2 == 0 else Role.JOINER
    context = deal_context(bytes(32), 1 + game, 0)
    sides = {
        Role.HOST: Dealer(Role.HOST, context, oya, seed=seeds[0]),
        Role.JOINER: Dealer(Role.JOINER, context, oya, seed=seeds[1]),
    }
    exchange(sides[Role.HOST], sides[Role.JOINER])
    deck = _deck_in_advance(sides[Role.HOST], sides[Role.JOINER], seeds)
    engine = Round(deal_from_order(deck, oya.seat), oya=oya.seat)
    seat_role = {role.seat: role for role in sides}
    shown: dict[Role, set[int]] = {
        role: {*hand_positions(role, oya), *FIELD} for role in sides
    }  # the positions each side may know
    dealt_over = engine.over  # a teyaku or four of a month (R4.2, R8): no move at all
    while not engine.over:
        mover = seat_role[engine.turn]
        action = rng.choice(engine.legal_actions())
        drawn_before = engine.stock_pos
        if action < PICK_BASE:  # a card played from the hand: its owner opens it
            side = sides[mover]
            position = next(p for p in hand_positions(mover, oya) if side.card_at(p) == action)
            sides[mover.peer].receive(side.play(position))
            assert sides[mover.peer].card_at(position) == action
            shown[mover.peer].add(position)
        engine.apply(action)
        for index in range(drawn_before, engine.stock_pos):  # each card the engine drew
            position = STOCK.start + index
            from_mover, from_other = sides[mover].draw(), sides[mover.peer].draw()
            sides[mover.peer].receive(from_mover)
            sides[mover].receive(from_other)
            for role in sides:
                assert sides[role].card_at(position) == engine.stock[index]
                shown[role].add(position)
        for role, side in sides.items():
            assert {p for p in range(48) if side.card_at(p) is not None} == shown[role]
    assert dealt_over or engine.stock_pos > 0
    sides[Role.JOINER].receive(sides[Role.HOST].reveal())
    sides[Role.HOST].receive(sides[Role.JOINER].reveal())
    assert sides[Role.HOST].audit() == sides[Role.JOINER].audit() == tuple(deck)
