"""The state each move's hash covers, pinned for fixed matches: the joint seed's
``canonical_state`` (koikoi-net/1) and private dealing's ``public_state`` (koikoi-net/3) are
built by one helper (:func:`koikoi.net.lockstep.round_state`), and these digests, taken before
it was shared, say that neither changed a byte."""

from __future__ import annotations

import hashlib
import random

import pytest

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity
from koikoi.net.lockstep import Lockstep, canonical_state
from koikoi.net.private import public_state
from tests.test_net_private_lockstep import PrivateMatch

SEED_MATCHES = {
    0: (
        "243672fd92d3af60fd17606036fb3148bf82ce0effb7cd1fdfe8aeccf16c6161",
        "f35a950a8c348306c46de7ff387821771ec9b74d3a2679fbb0f34c8b9f05e96e",
    ),
    1: (
        "06df99e0b9d83b37dbac396d2740ccf509ed145e4dad066929d757facd318a8a",
        "3b05934aa227ea3ab553cf6244834ed6b669aef25263131be97f7617bd01d632",
    ),
}
PRIVATE_MATCHES = {
    0: (
        "0e615b65791dd56593836b7747446acc88f057208b7deb7139c02180005623b1",
        "448cc2610317af75a179278c5fc9aabb00e98f500cc588d37226a9c16fb68d3f",
    ),
    1: (
        "e4cfa3655fbc0380b3f544922f8ddf73eb401f93c57708d1402f6ed80f2d03cf",
        "bd6b93529fc8c4b5101084e7566b179fe51d7399990abd92c0565ef26ae7fe5a",
    ),
}


def _seed_match(game: int) -> tuple[str, str]:
    """A whole joint-seed match of random moves: the digest of every canonical state after
    a move, one after the other, and of the moves' state hashes."""
    rng = random.Random(game)
    me = Identity.generate()
    side = Lockstep(Settings(), game % 2, hashlib.sha256(b"seed %d" % game).digest(), bytes(32))
    states, hashes = hashlib.sha256(), hashlib.sha256()
    states.update(canonical_state(side.match))
    while not side.match.finished:
        seat = side.match.current_seat()
        assert seat is not None
        entry, _, _ = side.sign_move(me, seat, rng.choice(side.match.legal_actions()))
        states.update(canonical_state(side.match))
        hashes.update(entry.state_hash)
    return states.hexdigest(), hashes.hexdigest()


def _private_match(game: int) -> tuple[str, str]:
    """The same for a privately dealt match (both sides carried by hand): every public state
    of seat 0 after a move, and the moves' state hashes."""
    table = PrivateMatch(game)
    states = hashlib.sha256()
    side = table.sides[0]
    while not side.match.finished:
        table.deal()
        states.update(public_state(side.match, side.dealing_hash))
        while not side.deal_over:
            table.move()
            states.update(public_state(side.match, side.dealing_hash))
        table.end_deal()
    return states.hexdigest(), hashlib.sha256(b"".join(table.hashes)).hexdigest()


@pytest.mark.parametrize("game", range(2))
def test_the_joint_seed_state_is_unchanged(game: int) -> None:
    assert _seed_match(game) == SEED_MATCHES[game]


@pytest.mark.parametrize("game", range(2))
def test_the_public_state_of_private_dealing_is_unchanged(game: int) -> None:
    assert _private_match(game) == PRIVATE_MATCHES[game]
