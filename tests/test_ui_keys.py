"""The keyboard scheme without Qt: key names, intents and the commands each moment gets."""

from __future__ import annotations

import doctest

import pytest

import koikoi.ui.common.keys as keys_module
from koikoi.engine.cards import parse_card
from koikoi.ui.common.keys import (
    ContinueDraw,
    Decide,
    Focus,
    Intent,
    Phase,
    Pick,
    Play,
    PressDefault,
    RefreshFocus,
    Select,
    ShowHelp,
    Situation,
    parse_key,
    respond,
)

CUP, PINE, PLUM, CHRYS_RIBBON, CHRYS_PLAIN = (
    parse_card(n)
    for n in ("kiku_sake_cup", "matsu_crane", "ume_plain_1", "kiku_ribbon", "kiku_plain_2")
)
HAND = (PINE, PLUM, CUP)
MATCHES = {PINE: (), PLUM: (), CUP: (CHRYS_RIBBON, CHRYS_PLAIN)}


def play(**kw: object) -> Situation:
    return Situation(Phase.PLAY, hand=HAND, matches=MATCHES, **kw)  # type: ignore[arg-type]


def test_the_docstring_examples_hold() -> None:
    result = doctest.testmod(keys_module, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("name", "intent", "index"),
    [
        ("F1", Intent.HELP, -1),
        ("S", Intent.SHOBU, -1),
        ("K", Intent.KOIKOI, -1),
        ("Return", Intent.ENTER, -1),
        ("Enter", Intent.ENTER, -1),
        ("Space", Intent.SPACE, -1),
        ("Escape", Intent.BACK, -1),
        ("Left", Intent.LEFT, -1),
        ("Down", Intent.DOWN, -1),
        ("1", Intent.NUMBER, 0),
        ("8", Intent.NUMBER, 7),
    ],
)
def test_key_names_mean_intents(name: str, intent: Intent, index: int) -> None:
    press = parse_key(name)
    assert press is not None and press.intent is intent and press.index == index


@pytest.mark.parametrize("name", ["9", "0", "Q", "Tab", ""])
def test_other_keys_are_left_to_qt(name: str) -> None:
    assert parse_key(name) is None
    assert respond(play(), parse_key(name)) is None


def test_a_number_selects_that_hand_card_and_a_second_confirm_plays_it() -> None:
    assert respond(play(), parse_key("3")) == [Select(CUP), Focus(CUP)]
    assert respond(play(), parse_key("7")) == []  # past the hand: used, nothing happens
    chosen = play(selected=PLUM, focused=PLUM)
    assert respond(chosen, parse_key("Return")) == [Play(PLUM)]
    assert respond(chosen, parse_key("Space")) == [Play(PLUM)]
    assert respond(play(focused=PLUM), parse_key("Return")) == [Select(PLUM), Focus(PLUM)]
    assert respond(play(), parse_key("Return")) == [Focus(PINE)]  # nowhere yet: the hand


def test_up_goes_to_the_field_cards_the_selected_card_takes_and_enter_takes_one() -> None:
    s = play(selected=CUP, focused=CUP)
    assert respond(s, parse_key("Up")) == [Focus(CHRYS_RIBBON)]
    on_field = play(selected=CUP, focused=CHRYS_RIBBON)
    assert respond(on_field, parse_key("Right")) == [Focus(CHRYS_PLAIN), RefreshFocus()]
    assert respond(on_field, parse_key("Left")) == [Focus(CHRYS_PLAIN), RefreshFocus()]
    assert respond(on_field, parse_key("Return")) == [Play(CUP, CHRYS_RIBBON)]
    assert respond(on_field, parse_key("Down")) == [Focus(CUP)]
    assert respond(play(selected=PINE, focused=PINE), parse_key("Up")) == []  # no match


def test_arrows_walk_the_hand_round_and_escape_puts_the_selection_back() -> None:
    assert respond(play(focused=CUP), parse_key("Right")) == [Focus(PINE), RefreshFocus()]
    assert respond(play(focused=PINE), parse_key("Left")) == [Focus(CUP), RefreshFocus()]
    assert respond(play(), parse_key("Right")) == [Focus(PINE), RefreshFocus()]
    escape = respond(play(selected=CUP, focused=CUP), parse_key("Escape"))
    assert escape == [Select(None), Focus(CUP)]  # the keyboard stays on it
    back = respond(play(selected=CUP, focused=CHRYS_PLAIN), parse_key("Escape"))
    assert back == [Select(None), Focus(PINE)]
    assert respond(play(focused=PLUM), parse_key("Down")) == []


def test_a_pick_cycles_its_two_candidates_and_takes_the_focused_one() -> None:
    s = Situation(Phase.PICK, candidates=(CHRYS_RIBBON, CHRYS_PLAIN), focused=CHRYS_RIBBON)
    for arrow in ("Left", "Right", "Up", "Down"):
        assert respond(s, parse_key(arrow)) == [Focus(CHRYS_PLAIN)]
    assert respond(s, parse_key("Space")) == [Pick(CHRYS_RIBBON)]
    unfocused = Situation(Phase.PICK, candidates=(CHRYS_RIBBON, CHRYS_PLAIN))
    assert respond(unfocused, parse_key("Return")) == [Pick(CHRYS_RIBBON)]
    assert respond(s, parse_key("1")) is None


def test_shobu_and_koikoi_only_while_deciding_and_enter_presses_a_panels_button() -> None:
    deciding = Situation(Phase.DECIDE, panel=True, panel_default=True)
    assert respond(deciding, parse_key("S")) == [Decide(False)]
    assert respond(deciding, parse_key("K")) == [Decide(True)]
    assert respond(deciding, parse_key("Return")) == [PressDefault()]
    assert respond(deciding, parse_key("Space")) is None  # Qt presses the focused button
    assert respond(play(), parse_key("K")) is None
    assert respond(Situation(Phase.OTHER, panel=True), parse_key("Return")) is None
    assert respond(play(), parse_key("F1")) == [ShowHelp()]


def test_the_drawn_card_goes_on_at_enter_or_space() -> None:
    s = Situation(Phase.DRAW_WAIT)
    assert respond(s, parse_key("Space")) == [ContinueDraw()]
    assert respond(s, parse_key("Enter")) == [ContinueDraw()]
    assert respond(s, parse_key("Left")) is None
