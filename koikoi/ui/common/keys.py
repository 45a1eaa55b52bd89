"""The table's keyboard scheme, without Qt: a key's name → what the player means → commands.

The scheme follows the game's rules page (seed 000): the arrow keys move between hand cards
and the field cards the selected card can take; Enter or Space selects a hand card, then
plays it (onto the focused field card); ``1``–``8`` select hand cards from the left; Esc
puts the selection back; ``S`` shobu, ``K`` koikoi; ``H`` the coach's hint (practice); F1
the rules. The game screen names the
key Qt reports (:func:`parse_key`), describes the moment (:class:`Situation`) and carries
out the :data:`Command`\\ s that :func:`respond` returns, in order.

>>> s = Situation(Phase.PLAY, hand=(0, 5, 9), matches={0: (2,), 5: (), 9: ()})
>>> respond(s, parse_key("1"))
[Select(card=0), Focus(card=0)]
>>> respond(Situation(Phase.PLAY, hand=(0,), matches={0: (2,)}, selected=0, focused=0),
...         parse_key("Up"))
[Focus(card=2)]
>>> respond(s, parse_key("Q")) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from koikoi.engine.cards import Card


class Intent(Enum):
    """What a key means at the table."""

    HELP = "help"
    HINT = "hint"
    SHOBU = "shobu"
    KOIKOI = "koikoi"
    ENTER = "enter"
    SPACE = "space"
    BACK = "back"
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"
    NUMBER = "number"


@dataclass(frozen=True)
class Press:
    """A key the scheme knows: its intent and, for ``1``–``8``, the hand position (0–7)."""

    intent: Intent
    index: int = -1


KEY_NAMES: Final[Mapping[str, Press]] = {
    "F1": Press(Intent.HELP),
    "H": Press(Intent.HINT),
    "S": Press(Intent.SHOBU),
    "K": Press(Intent.KOIKOI),
    "Return": Press(Intent.ENTER),
    "Enter": Press(Intent.ENTER),
    "Space": Press(Intent.SPACE),
    "Escape": Press(Intent.BACK),
    "Left": Press(Intent.LEFT),
    "Right": Press(Intent.RIGHT),
    "Up": Press(Intent.UP),
    "Down": Press(Intent.DOWN),
    **{str(i): Press(Intent.NUMBER, i - 1) for i in range(1, 9)},
}
"""Key names as Qt spells them without its ``Key_`` prefix."""


def parse_key(name: str) -> Press | None:
    """The press a key's name stands for, or None for a key the table does not use."""
    return KEY_NAMES.get(name)


class Phase(Enum):
    """What the game waits for, as far as the keys are concerned."""

    PLAY = "play"
    PICK = "pick"
    DRAW_WAIT = "draw-wait"
    DECIDE = "decide"
    OTHER = "other"


@dataclass(frozen=True)
class Situation:
    """The moment a key is pressed: what is on the table and where the keyboard is."""

    phase: Phase
    hand: tuple[Card, ...] = ()
    matches: Mapping[Card, tuple[Card, ...]] = field(default_factory=dict)
    """For each hand card, the field cards of its month (left to right)."""
    candidates: tuple[Card, ...] = ()
    """The two field cards a pick is due between."""
    focused: Card | None = None
    selected: Card | None = None
    panel: bool = False
    """A panel lies over the table (first oya, koikoi or shobu, a result)."""
    panel_default: bool = False
    """The panel has a visible main button (Enter presses it)."""

    def takeable(self) -> tuple[Card, ...]:
        """The field cards the keyboard may move to: the selected (else the focused) hand
        card's matches, or the candidates of a pick."""
        if self.phase is Phase.PICK:
            return self.candidates
        if self.phase is Phase.PLAY:
            card = self.selected if self.selected is not None else self.focused
            if card is not None and card in self.hand:
                return self.matches.get(card, ())
        return ()


# -- commands: what the screen does, in order ------------------------------------------------


@dataclass(frozen=True)
class Focus:
    """Move the keyboard to a card."""

    card: Card


@dataclass(frozen=True)
class Select:
    """Select a hand card (it rises), or put the selection back (None)."""

    card: Card | None


@dataclass(frozen=True)
class Play:
    card: Card
    target: Card | None = None


@dataclass(frozen=True)
class Pick:
    card: Card


@dataclass(frozen=True)
class Decide:
    koikoi: bool


@dataclass(frozen=True)
class ContinueDraw:
    """Resolve the drawn card now instead of after its wait (R5.5)."""


@dataclass(frozen=True)
class PressDefault:
    """Press the panel's main button, wherever the focus is."""


@dataclass(frozen=True)
class ShowHelp:
    pass


@dataclass(frozen=True)
class ShowHint:
    """The coach's hint on the move the table waits for (practice; the game screen's
    ``on_hint`` says whether one is given)."""


@dataclass(frozen=True)
class RefreshFocus:
    """The keyboard moved within a row: the field cards it may take have changed."""


Command = (
    Focus
    | Select
    | Play
    | Pick
    | Decide
    | ContinueDraw
    | PressDefault
    | ShowHelp
    | ShowHint
    | RefreshFocus
)


def respond(s: Situation, press: Press | None) -> list[Command] | None:
    """The commands for a key at this moment, or None when the table does not use it (the
    key then goes on to Qt: Space on a panel's focused button presses that button)."""
    if press is None:
        return None
    intent = press.intent
    if intent is Intent.HELP:
        return [ShowHelp()]
    if intent is Intent.HINT:  # the koikoi decision's panel too
        return [ShowHint()] if s.phase in (Phase.PLAY, Phase.PICK, Phase.DECIDE) else None
    if intent in (Intent.SHOBU, Intent.KOIKOI):
        return [Decide(intent is Intent.KOIKOI)] if s.phase is Phase.DECIDE else None
    if s.panel:
        return [PressDefault()] if intent is Intent.ENTER and s.panel_default else None
    confirm = intent in (Intent.ENTER, Intent.SPACE)
    if s.phase is Phase.DRAW_WAIT:
        return [ContinueDraw()] if confirm else None
    if s.phase is Phase.PICK:
        return _pick(s, intent, confirm)
    if s.phase is Phase.PLAY:
        return _play(s, press, confirm)
    return None


def _pick(s: Situation, intent: Intent, confirm: bool) -> list[Command] | None:
    cands = s.candidates
    if not cands:
        return None
    if intent in (Intent.LEFT, Intent.RIGHT, Intent.UP, Intent.DOWN):
        i = cands.index(s.focused) if s.focused in cands else -1
        return [Focus(cands[(i + 1) % len(cands)])]
    if confirm:
        return [Pick(s.focused if s.focused in cands else cands[0])]
    return None


def focus_hand(s: Situation, prefer: Card | None = None) -> list[Command]:
    """Put the keyboard on the hand: on ``prefer`` if given, else where it is if that is a
    hand card, else on the first card."""
    if not s.hand:
        return []
    if prefer is None and s.focused in s.hand:
        return []
    return [Focus(prefer if prefer in s.hand else s.hand[0])]


def _play(s: Situation, press: Press, confirm: bool) -> list[Command] | None:
    hand, focused, selected = s.hand, s.focused, s.selected
    intent = press.intent
    if intent is Intent.NUMBER:
        if press.index < len(hand):
            card = hand[press.index]
            return [Select(card), Focus(card)]
        return []
    if intent is Intent.BACK:
        after = Situation(s.phase, hand, s.matches, focused=focused)
        return [Select(None), *focus_hand(after, focused if focused in hand else None)]
    if intent in (Intent.LEFT, Intent.RIGHT):
        row = hand if focused is None or focused in hand else s.takeable()
        if not row:
            return []
        i = row.index(focused) if focused in row else -1
        step = 1 if intent is Intent.RIGHT else -1
        return [Focus(row[(i + step) % len(row)]), RefreshFocus()]
    if intent is Intent.UP:
        takeable = s.takeable()
        if takeable and (focused is None or focused in hand):
            return [Focus(takeable[0])]
        return []
    if intent is Intent.DOWN:
        if not hand:
            return []
        if focused in hand and selected is None:
            return []
        return [Focus(selected if selected in hand else hand[0])]
    if confirm:
        if focused is None:
            return focus_hand(s)
        if focused in hand:
            return [Play(focused)] if selected == focused else [Select(focused), Focus(focused)]
        if selected is not None and focused in s.matches.get(selected, ()):
            return [Play(selected, focused)]
        return []
    return None
