"""A round's result and a deal (koikoi/engine/value.py) behave as the frozen records they were.

They are plain classes so that the compiled core makes one in a fraction of the time; these
tests hold them to a dataclass's equality, hashing, ``repr`` and pickling, on either core
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

from koikoi.engine.deck import Deal, deal_from_order
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
    assert tuple(Reference.__dataclass_fields__) == RoundResult(Outcome.WIN).names()


@dataclass(frozen=True)
class DealReference:
    hands: tuple[int, int]
    field: int
    stock: tuple[int, ...]


deals = st.permutations(range(48)).map(lambda order: deal_from_order(order, 0))


@given(deals, deals)
def test_a_deal_is_a_value_too(a: Deal, b: Deal) -> None:
    ra, rb = (DealReference(d.hands, d.field, d.stock) for d in (a, b))
    assert (a == b) == (ra == rb) and (a != b) == (ra != rb)
    assert a == Deal(a.hands, a.field, a.stock) and hash(a) == hash(
        Deal(ra.hands, ra.field, ra.stock)
    )
    assert repr(a) == repr(ra).replace("DealReference(", "Deal(", 1)
    assert pickle.loads(pickle.dumps(a)) == a == copy.deepcopy(a)
    assert a != (a.hands, a.field, a.stock)
