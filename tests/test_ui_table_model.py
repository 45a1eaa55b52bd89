"""The table model without Qt: it follows the engine's events and never re-derives a capture.

Whole matches run through the engine's checked door; each event goes to the model, which
must agree with the engine's observation whenever a player is asked to act, and a played
card must stay between places until the engine's next event says where it goes."""

from __future__ import annotations

import doctest
import random

import pytest

import koikoi.ui.table.table_model as table_model
from koikoi.engine.cards import parse_card
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.events import (
    Captured,
    CardPlayed,
    ChoiceNeeded,
    Event,
    PlacedOnField,
    StockTurned,
)
from koikoi.engine.match import Match, Settings
from koikoi.ui.table.table_model import COMPUTER, DRAWN, HUMAN, PLAYED, TableModel


def test_the_docstring_examples_hold() -> None:
    result = doctest.testmod(table_model, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


def _play_match(seed: bytes, rng: random.Random) -> tuple[int, int, int]:
    """Play a whole match with random legal actions, the model fed every event. Returns how
    many cards were played, how many of them were checked between places, and how many
    pending picks a resumed table was checked at."""
    m = Match(Settings(6, True))
    model = TableModel()
    played = checked = picks = 0
    so_far: list[Event] = []  # the round's events: a table resumed from them is the same table
    while not m.finished:
        if m.needs_deal:
            so_far = m.deal(deck_from_seed(seed, m.round_no, m.deal_no))
            for e in so_far:
                model.apply(e)
            continue
        obs = m.observation(HUMAN)
        assert model.check_against(obs) == []
        again = TableModel()
        again.restore(obs, so_far)
        assert (again.field, again.captured) == (model.field, model.captured)
        assert (again.hand, again.staged) == (model.hand, model.staged)
        if obs.pending >= 0:  # a pick is due: a resumed table stages the card alike
            resumed = TableModel()
            resumed.restore(obs)
            assert resumed.staged == model.staged
            assert set(resumed.candidates) == set(model.candidates)
            picks += 1
        events = m.apply(rng.choice(m.legal_actions()))
        so_far += events
        for i, e in enumerate(events):
            field_before = list(model.field)
            model.apply(e)
            if isinstance(e, CardPlayed | StockTurned):
                played += 1
                # between places: off the hand, not yet on the field or in a pile
                assert model.staged[e.card] == (PLAYED if isinstance(e, CardPlayed) else DRAWN)
                assert model.field == field_before
                assert e.card not in model.captured[e.seat]
                checked += 1
                nxt = events[i + 1] if i + 1 < len(events) else None
                assert isinstance(nxt, Captured | PlacedOnField | ChoiceNeeded)
            if isinstance(e, ChoiceNeeded):
                assert model.staged[e.card] == (DRAWN if e.drawn else PLAYED)
                assert set(model.candidates) == set(e.candidates)
    return played, checked, picks


@pytest.mark.parametrize("n", range(3))
def test_the_model_follows_the_engines_events_through_whole_matches(n: int) -> None:
    seed = f"table-model-{n}".encode().ljust(32, b"0")
    played, checked, picks = _play_match(seed, random.Random(n))
    assert played > 40 and checked == played and picks > 0


def test_a_played_card_waits_for_the_engine_to_say_where_it_goes() -> None:
    crane, pine, cherry = (
        parse_card(n) for n in ("matsu_crane", "matsu_plain_1", "sakura_plain_1")
    )
    model = TableModel()
    model.deal(1 << cherry, 8, 1 << pine, 24)
    # no field card of its month: it still waits until the engine places it
    model.apply(CardPlayed(HUMAN, cherry))
    assert cherry not in model.field and model.staged == {cherry: PLAYED}
    model.apply(PlacedOnField(HUMAN, cherry))
    assert cherry in model.field and model.staged == {}
    # the opponent's card turns one of their backs face up, and takes what the event says
    backs = len(model.opponent)
    model.apply(CardPlayed(COMPUTER, crane))
    assert len(model.opponent) == backs - 1 and model.staged == {crane: PLAYED}
    model.apply(Captured(COMPUTER, crane, (pine,)))
    assert model.captured[COMPUTER] == [pine, crane] and pine not in model.field
