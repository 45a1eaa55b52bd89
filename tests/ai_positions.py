"""Positions for the AI tests: built by hand, or reached by random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from koikoi.engine.cards import ALL_CARDS, card_tuple, parse_card, to_set
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Settings, determinize
from koikoi.engine.round import Phase, Round
from koikoi.engine.yaku import base_points


def cards(*names: str) -> int:
    return to_set(parse_card(n) for n in names)


def position(
    *,
    hands: tuple[int, int],
    field: int,
    captured: tuple[int, int] = (0, 0),
    turn: int = 0,
    phase: Phase = Phase.PLAY,
    pending: int = -1,
    baselines: tuple[int, int] = (0, 0),
    koikoi_calls: tuple[int, int] = (0, 0),
    scores: tuple[int, int] = (25, 25),
    round_no: int = 1,
    rounds: int = 6,
    oya: int = 0,
    stock_seed: int = 0,
) -> Match:
    """A match standing in the given position; the stock is the other cards, shuffled."""
    used = hands[0] | hands[1] | field | captured[0] | captured[1]
    if pending >= 0:
        used |= 1 << pending
    assert (
        hands[0].bit_count() == hands[1].bit_count()
        or abs(hands[0].bit_count() - hands[1].bit_count()) == 1
    )
    stock = list(card_tuple(ALL_CARDS & ~used))
    random.Random(stock_seed).shuffle(stock)
    m = Match(Settings(rounds=rounds), first_oya=oya)
    m.scores = scores
    m.rounds_played = round_no - 1
    # any deal starts the round; every card of it is then set from the arguments below
    m.deal(deck_from_seed(b"hand-built-position", 1, 0))
    r = m.round
    assert r is not None
    r.hands = [hands[0], hands[1]]
    r.field = field
    r.captured = [captured[0], captured[1]]
    r.stock = tuple(stock)
    r.stock_pos = 0
    r.turn = turn
    r.oya = oya
    r.phase = phase
    r.pending = pending
    r.baselines = list(baselines)
    r.totals = [base_points(captured[0]), base_points(captured[1])]
    r.koikoi_calls = list(koikoi_calls)
    r.koikoi_count = sum(koikoi_calls)
    r.result = None
    return m


def random_positions(n: int, seed: int = 0) -> Iterator[Match]:
    """``n`` positions where someone must choose, reached by random play from seeded deals."""
    rng = random.Random(seed)
    found = 0
    deal = 0
    while found < n:
        m = Match(Settings(rounds=rng.choice((6, 12)), doubling=rng.random() < 0.8))
        m.scores = (s := rng.randint(1, 49), 50 - s)
        m.rounds_played = rng.randint(0, m.settings.rounds - 1)
        m.deal(deck_from_seed(b"positions-%d" % seed, 1, deal))
        deal += 1
        while not m.finished and not m.needs_deal:
            legal = m.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                found += 1
                assert m.round is not None
                yield with_round(m, m.round.copy())
                if found >= n:
                    return
                if m.finished or m.needs_deal:
                    break
                legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])


def reshuffled(m: Match, seed: int) -> Round:
    """The same position for the seat to move, with the hidden cards dealt anew: the
    opponent's hand and the stock order are a fresh split of the cards that seat has not
    seen."""
    seat = m.current_seat()
    assert seat is not None
    obs = m.observation(seat)
    hidden = list(card_tuple(obs.unseen))
    random.Random(seed).shuffle(hidden)
    h = obs.opponent_hand_size
    return determinize(obs, to_set(hidden[:h]), hidden[h:])


def with_round(m: Match, r: Round) -> Match:
    """A copy of the match standing at round ``r``."""
    copy = Match(m.settings, m.first_oya, m.scores, m.oya, m.rounds_played, m.deal_no)
    copy.oya = m.oya
    copy.round = r
    copy.history = list(m.history)
    copy.moves = list(m.moves)  # the deal's public moves, which the players read
    return copy
