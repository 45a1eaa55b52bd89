"""A round's result (koikoi/engine/outcome.py) behaves as the frozen dataclass it was.

It is a plain class so that the compiled core makes one in a tenth of the time; these tests
hold it to a dataclass's equality, hashing, ``repr`` and pickling, on whichever core runs
(tests/test_engine_compiled.py runs every test_engine_* file on the compiled one too, and
holds its fields read-only there).
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from koikoi.engine import events, outcome
from koikoi.engine.outcome import Outcome, RoundResult
from koikoi.engine.yaku import Yaku


@dataclass(frozen=True, slots=True)
class Reference:
    """The dataclass RoundResult was, field for field."""

    outcome: Outcome
    winner: int | None = None
    yaku: tuple[tuple[Yaku, int], ...] = ()
    base: int = 0
    doubled: bool = False
    koikoi: int = 0
    points: int = 0
    teyaku_hand: int = 0
    redeal_cards: int = 0


results = st.builds(
    lambda *a: a,
    st.sampled_from(Outcome),
    st.none() | st.integers(0, 1),
    st.lists(st.tuples(st.sampled_from(Yaku), st.integers(1, 20)), max_size=3).map(tuple),
    st.integers(0, 40),
    st.booleans(),
    st.integers(0, 9),
    st.integers(0, 80),
    st.integers(0, (1 << 48) - 1),
    st.integers(0, (1 << 48) - 1),
)


@given(results, results)
def test_equality_hash_and_repr_are_a_dataclass_s(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    ra, rb = RoundResult(*a), RoundResult(*b)
    assert (ra == rb) == (a == b) == (Reference(*a) == Reference(*b))
    assert (ra != rb) == (a != b)
    if a == b:
        assert hash(ra) == hash(rb)
    assert repr(ra) == repr(Reference(*a)).replace("Reference(", "RoundResult(", 1)
    assert ra != Reference(*a) and ra != a  # another class never equals it, as a dataclass


@given(results)
def test_it_pickles_and_copies_whole(a: tuple[Any, ...]) -> None:
    r = RoundResult(*a)
    for again in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert again == r and type(again) is RoundResult


def test_keywords_and_defaults_are_the_dataclass_s() -> None:
    assert RoundResult(Outcome.NAGARE, koikoi=2) == RoundResult(
        Outcome.NAGARE, None, (), 0, False, 2
    )
    assert RoundResult(Outcome.REDEAL, redeal_cards=0xF).redeal_cards == 0xF
    assert tuple(Reference.__dataclass_fields__) == outcome._FIELDS


def test_events_name_the_same_classes() -> None:
    assert events.RoundResult is RoundResult and events.Outcome is Outcome
