"""Game records in the ``koikoi-record/1`` format (CLI.md): read, validate, write, replay.

One format for saved games, replays, the network move log and test vectors. Readers ignore
keys they do not know, so writers may add player names, times, seeds or signatures.

>>> from koikoi.engine.deck import deck_from_seed
>>> rec = GameRecord(Settings(), first_oya=0)
>>> m = Match(rec.settings, rec.first_oya)
>>> order = deck_from_seed(b"doc", 1, 0)
>>> _ = m.deal(order); rec.add_deal(m.round.dealt_hands, m.round.field, m.round.stock)
>>> replay(rec.to_json())["finished"]
False
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any, Final

from koikoi.engine.cards import CARD_IDS, Card, CardSet, ids, to_set
from koikoi.engine.events import Event
from koikoi.engine.match import Match, Settings
from koikoi.engine.round import (
    KOIKOI,
    PICK_BASE,
    SHOBU,
    Action,
    IllegalAction,
    Phase,
    Round,
    pick,
    play,
)

FORMAT: Final = "koikoi-record/1"
VERBS: Final = ("play", "pick", "koikoi")
_CARD_INDEX: Final = {name: i for i, name in enumerate(CARD_IDS)}


class RecordError(ValueError):
    """A record that is malformed or breaks a rule; says where and which rule.

    ``deal`` and ``action`` count from 0; None prints as ``-`` (a fault of the whole record,
    or of a deal itself rather than one of its actions).
    """

    def __init__(self, deal: int | None, action: int | None, rule: str, message: str) -> None:
        d = "-" if deal is None else str(deal)
        a = "-" if action is None else str(action)
        super().__init__(f"deal {d} action {a}: {rule} {message}")
        self.deal = deal
        self.action = action
        self.rule = rule
        self.message = message


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    if action < PICK_BASE:
        return {"seat": seat, "play": CARD_IDS[action]}
    if action < KOIKOI:
        return {"seat": seat, "pick": CARD_IDS[action - PICK_BASE]}
    return {"seat": seat, "koikoi": action == KOIKOI}


SEALED: Final = "sealed"
"""A deal's key: its writer's view, stand-ins for the cards it did not see (:func:`lay_out`)."""

_RECORD_KEYS: Final = ("format", "settings", "first_oya", "deals")
_DEAL_KEYS: Final = ("hands", "field", "stock", "actions")


@dataclass
class RecordedDeal:
    hands: tuple[CardSet, CardSet]
    field: CardSet
    stock: tuple[Card, ...]
    actions: list[dict[str, Any]] = _field(default_factory=list)
    extra: dict[str, Any] = _field(default_factory=dict)
    """Keys a writer added to the deal (readers ignore them; they are kept)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hands": [ids(self.hands[0]), ids(self.hands[1])],
            "field": ids(self.field),
            "stock": [CARD_IDS[c] for c in self.stock],
        }
        out.update(self.extra)
        out["actions"] = self.actions
        return out


@dataclass
class GameRecord:
    """A record being written as a match is played; extra keys go in ``extra``."""

    settings: Settings
    first_oya: int
    deals: list[RecordedDeal] = _field(default_factory=list)
    extra: dict[str, Any] = _field(default_factory=dict)

    def add_deal(
        self, hands: Sequence[CardSet], field_cards: CardSet, stock: Sequence[Card]
    ) -> None:
        self.deals.append(RecordedDeal((hands[0], hands[1]), field_cards, tuple(stock)))

    def add_action(self, seat: int, action: Action, **extra: Any) -> None:
        entry = action_to_json(seat, action)
        entry.update(extra)
        self.deals[-1].actions.append(entry)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "settings": {"rounds": self.settings.rounds, "doubling": self.settings.doubling},
            "first_oya": self.first_oya,
        }
        out.update(self.extra)
        out["deals"] = [d.to_json() for d in self.deals]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record to go on writing, rebuilt from its JSON (a save being resumed).

        Settings, first oya, deals and actions come back as written, every extra key
        (top level, deal, action) kept, so ``from_json(d).to_json() == d`` for a record
        :meth:`to_json` wrote. The structure is checked (:class:`RecordError`, as
        :func:`parse`), not the rules: :func:`replay_record` does that.
        """
        parsed = parse(data)
        extra = {k: v for k, v in data.items() if k not in _RECORD_KEYS}
        record = cls(parsed.settings, parsed.first_oya, extra=extra)
        for deal_json, deal in zip(data["deals"], parsed.deals, strict=True):
            record.deals.append(
                RecordedDeal(
                    deal.hands,
                    deal.field,
                    deal.stock,
                    [dict(a) for a in deal_json.get("actions", [])],
                    {k: v for k, v in deal_json.items() if k not in _DEAL_KEYS},
                )
            )
        return record


# -- reading ---------------------------------------------------------------------------------


def _json_int(text: str) -> int:
    # CPython refuses to read an int of more than sys.get_int_max_str_digits() digits
    # (4,300 by default) with a plain ValueError; such a number is bad input wherever it is,
    # even in a key readers ignore.
    limit = sys.get_int_max_str_digits()
    digits = len(text) - text.startswith("-")
    if limit and digits > limit:
        raise RecordError(
            None, None, "format", f"a number too long to read: {digits} digits, over {limit}"
        )
    return int(text)


def no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s ``object_pairs_hook`` that refuses a key repeated in one object
    (:class:`RecordError` naming it)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(None, None, "format", f"the key {key!r} twice in one object")
        out[key] = value
    return out


def loads(text: str, *, unique_keys: bool = False) -> dict[str, Any]:
    """Parse a record's JSON text (structure is checked by :func:`parse`).

    Every fault is a :class:`RecordError`: text that is not JSON, nesting too deep, a
    number too long to read, or JSON that is not an object; with ``unique_keys``, also a
    key repeated in one object. A signed record is read so (``koikoi verify``, a restore):
    JSON readers keep one of two values of a repeated key, not all the same one, so such a
    record could be read as two different ones. ``koikoi replay`` reads no signed field and
    takes the last value, as before.
    """
    hook = no_repeated_keys if unique_keys else None
    try:
        data = json.loads(text, parse_int=_json_int, object_pairs_hook=hook)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise RecordError(None, None, "format", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError:
        raise RecordError(None, None, "format", "not UTF-8 text") from None
    if not isinstance(data, dict):
        raise RecordError(None, None, "format", "a record is a JSON object")
    return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _card(value: object, deal: int, action: int | None, where: str) -> Card:
    if not isinstance(value, str):
        raise RecordError(
            deal, action, "R1.1", f"{where}: a card id must be a string, not {value!r}"
        )
    card = _CARD_INDEX.get(value)
    if card is None:
        raise RecordError(deal, action, "R1.1", f"{where}: unknown card id {value!r}")
    return card


def _cards(value: object, n: int, deal: int, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(deal, None, "R4.1", f"{where} must be a list of {n} card ids")
    cards = [_card(v, deal, None, where) for v in value]
    if len(cards) != n:
        raise RecordError(deal, None, "R4.1", f"{where} holds {len(cards)} cards, not {n}")
    return cards


@dataclass(frozen=True, slots=True)
class ParsedAction:
    seat: int
    action: Action
    verb: str


@dataclass(frozen=True, slots=True)
class ParsedDeal:
    hands: tuple[CardSet, CardSet]
    field: CardSet
    stock: tuple[Card, ...]
    actions: tuple[ParsedAction, ...]
    sealed: bool = False
    """The deal is marked ``"sealed": true``: a network record's view of a privately dealt
    deal never audited, the cards its writer did not see being stand-ins (:func:`lay_out`)."""


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    settings: Settings
    first_oya: int
    deals: tuple[ParsedDeal, ...]


def parse(data: Mapping[str, Any]) -> ParsedRecord:
    """Check a record's structure and card ids (not yet the rules: see :func:`replay`)."""
    if data.get("format") != FORMAT:
        raise RecordError(None, None, "format", f"unknown format {data.get('format')!r}")
    settings_json = data.get("settings")
    if not isinstance(settings_json, dict):
        raise RecordError(None, None, "R2.6", "missing settings")
    rounds = settings_json.get("rounds")
    doubling = settings_json.get("doubling")
    if not _is_int(rounds) or rounds not in (6, 12):
        raise RecordError(None, None, "R2.1", f"settings.rounds must be 6 or 12, not {rounds!r}")
    if not isinstance(doubling, bool):
        raise RecordError(
            None, None, "R2.6", f"settings.doubling must be true or false, not {doubling!r}"
        )
    first_oya = data.get("first_oya")
    if not _is_int(first_oya) or first_oya not in (0, 1):
        raise RecordError(None, None, "R3.1", f"first_oya must be 0 or 1, not {first_oya!r}")
    deals_json = data.get("deals")
    if not isinstance(deals_json, list):
        raise RecordError(None, None, "format", "deals must be a list")
    deals = tuple(_parse_deal(d, i) for i, d in enumerate(deals_json))
    return ParsedRecord(Settings(rounds, doubling), first_oya, deals)


def _parse_deal(d: object, i: int) -> ParsedDeal:
    if not isinstance(d, dict):
        raise RecordError(i, None, "format", "a deal is a JSON object")
    hands = d.get("hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise RecordError(i, None, "R4.1", "hands must be a list of two hands")
    h0 = _cards(hands[0], 8, i, "hands[0]")
    h1 = _cards(hands[1], 8, i, "hands[1]")
    field_cards = _cards(d.get("field"), 8, i, "field")
    stock = _cards(d.get("stock"), 24, i, "stock")
    everything = h0 + h1 + field_cards + stock
    if len(set(everything)) != 48:
        seen: set[Card] = set()
        for c in everything:
            if c in seen:
                raise RecordError(i, None, "R1.1", f"card {CARD_IDS[c]} is dealt twice")
            seen.add(c)
    actions_json = d.get("actions", [])
    if not isinstance(actions_json, list):
        raise RecordError(i, None, "format", "actions must be a list")
    actions = tuple(_parse_action(a, i, j) for j, a in enumerate(actions_json))
    sealed = d.get(SEALED) is True
    return ParsedDeal((to_set(h0), to_set(h1)), to_set(field_cards), tuple(stock), actions, sealed)


def _parse_action(a: object, deal: int, j: int) -> ParsedAction:
    if not isinstance(a, dict):
        raise RecordError(deal, j, "format", "an action is a JSON object")
    seat = a.get("seat")
    if not _is_int(seat) or seat not in (0, 1):
        raise RecordError(deal, j, "format", f"seat must be 0 or 1, not {seat!r}")
    verbs = [v for v in VERBS if v in a]
    if len(verbs) != 1:
        said = " and ".join(verbs) if verbs else "no verb"
        raise RecordError(
            deal,
            j,
            "format",
            f"an action needs exactly one verb of play, pick, koikoi; it has {said}",
        )
    verb = verbs[0]
    value = a[verb]
    if verb == "koikoi":
        if not isinstance(value, bool):
            raise RecordError(deal, j, "format", f"koikoi must be true or false, not {value!r}")
        return ParsedAction(seat, KOIKOI if value else SHOBU, verb)
    card = _card(value, deal, j, verb)
    return ParsedAction(seat, play(card) if verb == "play" else pick(card), verb)


# -- replaying -------------------------------------------------------------------------------


def lay_out(match: Match, deal: ParsedDeal) -> list[Event]:
    """Lay out a record's deal as the next deal of ``match``.

    A deal marked ``sealed`` (a privately dealt deal its writer never saw audited: the cards
    it did not see are stand-ins, docs/protocol.md "Private dealing") that holds moves is not
    judged for a teyaku (R8): its moves show that the deal was played, as both players'
    engines judged it when it was laid out, and a teyaku among the stand-ins (with the cards
    opened since) is nobody's hand. Every other deal is judged as dealt.
    """
    teyaku = not (deal.sealed and deal.actions)
    return match.deal_cards(deal.hands, deal.field, deal.stock, teyaku=teyaku)


@dataclass
class Replay:
    """A record played through the engine: the match as it stands and each deal's result."""

    match: Match
    rounds: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "scores": list(self.match.scores),
            "winner": self.match.winner,
            "finished": self.match.finished,
        }


def replay_record(data: Mapping[str, Any]) -> Replay:
    """Replay a record through the rules; raise :class:`RecordError` at the first fault."""
    rec = parse(data)
    match = Match(rec.settings, rec.first_oya)
    rounds: list[dict[str, Any]] = []
    for i, deal in enumerate(rec.deals):
        if match.finished:
            rule = "R2.3" if 0 in match.scores else "R2.4"
            raise RecordError(i, None, rule, "a deal after the match ended")
        if i > 0 and not match.needs_deal:
            raise RecordError(
                i - 1,
                len(rec.deals[i - 1].actions),
                "R5.7",
                "the deal stops before its round ended, yet another deal follows",
            )
        lay_out(match, deal)
        rnd = match.round
        assert rnd is not None
        for j, act in enumerate(deal.actions):
            if _unwritten_shobu(rnd, act):
                match.apply(SHOBU)  # R7.3: the round ended on its last turn
            try:
                if rnd.over:  # the round checks this too, but the match may be over as well
                    rnd.check(act.action, act.seat)
                match.apply(act.action, act.seat)
            except IllegalAction as exc:
                raise RecordError(i, j, exc.rule, exc.message) from None
        if rnd.phase == Phase.DECIDE and rnd.last_turn:
            match.apply(SHOBU)  # R7.3: on the last turn the shobu may go unwritten
        if rnd.over:
            rounds.append(match.history[-1].to_json())
        else:
            rounds.append({"result": "in_progress"})
    return Replay(match, rounds)


def _unwritten_shobu(rnd: Round, act: ParsedAction) -> bool:
    """Whether ``act`` comes after a last-turn rise whose shobu the record left out.

    On the round's last turn a rise leaves only shobu (R7.3), so the round has ended
    whether or not ``{"koikoi": false}`` is written; only the winner's own decision may
    still come (shobu, or a koikoi that breaks R7.3). Anything else is an action after the
    round ended (R7.4), as it is after a written shobu.
    """
    if rnd.phase != Phase.DECIDE or not rnd.last_turn:
        return False
    return not (act.action >= KOIKOI and act.seat == rnd.turn)


def replay(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``koikoi replay`` JSON of a record."""
    return replay_record(data).to_json()


def replay_text(text: str) -> dict[str, Any]:
    return replay(loads(text))


__all__ = [
    "FORMAT",
    "GameRecord",
    "RecordError",
    "Replay",
    "action_to_json",
    "lay_out",
    "loads",
    "no_repeated_keys",
    "parse",
    "replay",
    "replay_record",
    "replay_text",
]
