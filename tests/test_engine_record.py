"""Game records through the engine API (CLI.md ``koikoi-record/1``): writing, reading and
replay errors with their deal, action and rule. The command-line golden set is in
test_golden_replays.py; these call :mod:`koikoi.engine.record` directly."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from koikoi.engine.cards import CARD_IDS
from koikoi.engine.deck import deck_from_seed
from koikoi.engine.match import Match, Settings
from koikoi.engine.record import (
    FORMAT,
    GameRecord,
    RecordError,
    action_to_json,
    loads,
    parse,
    replay,
    replay_record,
    replay_text,
)
from koikoi.engine.round import KOIKOI, SHOBU, Phase, pick, play
from tests.engine_support import c, find_position, koikoi_policy, make_deal

# The scripted deal of test_engine_round: seat 0 wins hanami + tsukimi after two koikoi, 60.
S_FIELD = ["kiku_sake_cup", "susuki_moon", "sakura_curtain", "botan_butterfly",
           "momiji_deer", "hagi_boar", "fuji_ribbon", "fuji_plain_1"]  # fmt: skip
S_HAND0 = ["kiku_plain_1", "susuki_plain_1", "sakura_plain_1", "matsu_plain_1",
           "ume_plain_1", "ayame_plain_1", "yanagi_lightning", "kiri_plain_1"]  # fmt: skip
S_HAND1 = ["botan_plain_1", "momiji_plain_1", "hagi_plain_1", "matsu_ribbon",
           "ume_ribbon", "ayame_ribbon", "yanagi_ribbon", "kiri_plain_2"]  # fmt: skip
S_STOCK = ["matsu_plain_2", "momiji_plain_2", "fuji_cuckoo", "ayame_plain_2",
           "fuji_plain_2", "ume_plain_2", "kiri_plain_yellow"]  # fmt: skip
S_ACTIONS: list[dict[str, Any]] = [
    {"seat": 0, "play": "kiku_plain_1"},
    {"seat": 1, "play": "botan_plain_1"},
    {"seat": 0, "play": "susuki_plain_1"},
    {"seat": 0, "pick": "fuji_plain_1"},
    {"seat": 0, "koikoi": True},
    {"seat": 1, "play": "hagi_plain_1"},
    {"seat": 1, "koikoi": True},
    {"seat": 0, "play": "matsu_plain_1"},
    {"seat": 1, "play": "ayame_ribbon"},
    {"seat": 0, "play": "sakura_plain_1"},
    {"seat": 0, "koikoi": False},
]


def s_record() -> dict[str, Any]:
    deal = make_deal(S_HAND0, S_HAND1, S_FIELD, S_STOCK)
    rec = GameRecord(Settings(6, True), 0)
    rec.add_deal(deal.hands, deal.field, deal.stock)
    rec.deals[-1].actions.extend(copy.deepcopy(S_ACTIONS))
    return rec.to_json()


def error_of(data: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(data)
    return info.value


def test_record_json_shape() -> None:
    data = s_record()
    assert data["format"] == FORMAT == "koikoi-record/1"
    assert data["settings"] == {"rounds": 6, "doubling": True}
    assert data["first_oya"] == 0
    (deal,) = data["deals"]
    assert deal["hands"] == [
        sorted(S_HAND0, key=CARD_IDS.index),
        sorted(S_HAND1, key=CARD_IDS.index),
    ]
    assert deal["field"] == sorted(S_FIELD, key=CARD_IDS.index)
    assert deal["stock"][: len(S_STOCK)] == S_STOCK and len(deal["stock"]) == 24


def test_action_json() -> None:
    assert action_to_json(1, play(c("kiri_plain_2"))) == {"seat": 1, "play": "kiri_plain_2"}
    assert action_to_json(0, pick(c("matsu_crane"))) == {"seat": 0, "pick": "matsu_crane"}
    assert action_to_json(0, KOIKOI) == {"seat": 0, "koikoi": True}
    assert action_to_json(1, SHOBU) == {"seat": 1, "koikoi": False}


def test_replay_of_the_60_point_round() -> None:
    assert replay(s_record()) == {
        "rounds": [
            {"result": "win", "winner": 0,
             "yaku": [{"id": "hanami", "points": 5}, {"id": "tsukimi", "points": 5}],
             "base": 10, "koikoi": 2, "points": 60, "paid": 25, "scores": [50, 0],
             "next_oya": 0},
        ],
        "scores": [50, 0], "winner": 0, "finished": True,
    }  # fmt: skip


def test_write_read_round_trip() -> None:
    """A match played and written as it goes reads back to the same deals and actions."""
    rec = GameRecord(Settings(12, False), 1, extra={"players": ["a", "b"]})
    m = Match(rec.settings, rec.first_oya)
    plays = 0
    while plays < 60 and not m.finished:
        if m.needs_deal:
            m.deal(deck_from_seed(b"round trip", m.round_no, m.deal_no))
            assert m.round is not None
            rec.add_deal(m.round.dealt_hands, m.round.field, m.round.stock)
        else:
            seat = m.current_seat()
            assert seat is not None
            action = m.legal_actions()[-1]  # the highest card; shobu when asked
            m.apply(action, seat)
            rec.add_action(seat, action, ms=plays)
            plays += 1
    text = rec.dumps()
    data = loads(text)
    assert data == rec.to_json() == json.loads(text)
    assert data["players"] == ["a", "b"]  # writers' extra keys survive
    parsed = parse(data)
    assert parsed.settings == rec.settings and parsed.first_oya == 1
    assert len(parsed.deals) == len(rec.deals)
    for p, d in zip(parsed.deals, rec.deals, strict=True):
        assert (p.hands, p.field, p.stock) == (d.hands, d.field, d.stock)
        assert [action_to_json(a.seat, a.action) for a in p.actions] == [
            {k: v for k, v in a.items() if k != "ms"} for a in d.actions
        ]
    replayed = replay_record(data)
    assert replayed.match.scores == m.scores
    assert [h.to_json() for h in replayed.match.history] == [h.to_json() for h in m.history]
    assert replay_text(text) == replayed.to_json()


# -- illegal records: where and which rule --------------------------------------------------


def _with_actions(actions: list[dict[str, Any]]) -> dict[str, Any]:
    data = s_record()
    data["deals"][0]["actions"] = actions
    return data


def _edited(edit: Any) -> dict[str, Any]:
    actions = copy.deepcopy(S_ACTIONS)
    edit(actions)
    return _with_actions(actions)


@pytest.mark.parametrize(
    ("name", "edit", "action", "rule"),
    [
        ("out of turn", lambda a: a[1].update(seat=0), 1, "R5.7"),
        ("card not in hand", lambda a: a[0].update(play="momiji_plain_1"), 0, "R5.1"),
        ("missing pick", lambda a: a.pop(3), 3, "R5.3"),
        ("extra pick", lambda a: a.insert(1, {"seat": 1, "pick": "botan_butterfly"}), 1, "R5.2"),
        ("pick of a non-candidate", lambda a: a[3].update(pick="fuji_plain_2"), 3, "R5.2"),
        ("koikoi without a rise", lambda a: a.insert(1, {"seat": 1, "koikoi": True}), 1, "R7.1"),
        ("missing decision", lambda a: a.pop(4), 4, "R7.1"),
        ("decision before the pick", lambda a: a.insert(3, {"seat": 0, "koikoi": True}), 3,
         "R5.3"),
        ("action after shobu", lambda a: a.append({"seat": 1, "play": "kiri_plain_2"}), 11,
         "R7.4"),
        ("two verbs", lambda a: a[0].update(pick="kiku_sake_cup"), 0, "format"),
        ("no verb", lambda a: a[2].pop("play"), 2, "format"),
        ("unknown card", lambda a: a[0].update(play="kiku_plain_3"), 0, "R1.1"),
        ("bad seat", lambda a: a[0].update(seat=2), 0, "format"),
    ],
)  # fmt: skip
def test_illegal_actions_name_deal_action_and_rule(
    name: str, edit: Any, action: int, rule: str
) -> None:
    err = error_of(_edited(edit))
    assert (err.deal, err.action, err.rule) == (0, action, rule), name
    assert str(err).startswith(f"deal 0 action {action}: {rule} ")


def test_deal_after_the_match_ended() -> None:
    data = s_record()
    data["deals"].append(copy.deepcopy(data["deals"][0]))
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (1, None, "R2.3")
    assert str(err).startswith("deal 1 action -: R2.3 ")


def test_deal_before_the_last_one_ended() -> None:
    data = s_record()
    del data["deals"][0]["actions"][5:]
    data["deals"].append(copy.deepcopy(data["deals"][0]))
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (0, 5, "R5.7")


def test_deck_faults_are_of_the_deal() -> None:
    data = s_record()
    deal = data["deals"][0]
    deal["stock"][0] = deal["field"][0]
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (0, None, "R1.1")
    data = s_record()
    data["deals"][0]["stock"].pop()
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (0, None, "R4.1")


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (lambda d: d.pop("settings"), "R2.6"),
        (lambda d: d.update(format="koikoi-record/2"), "format"),
        (lambda d: d["settings"].update(rounds=7), "R2.1"),
        (lambda d: d.update(first_oya=2), "R3.1"),
        (lambda d: d.update(deals={}), "format"),
    ],
)
def test_record_faults(edit: Any, rule: str) -> None:
    data = s_record()
    edit(data)
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (None, None, rule)
    assert str(err).startswith(f"deal - action -: {rule} ")


def test_unreadable_text() -> None:
    for text in ("{", "[]", '"koikoi"'):
        with pytest.raises(RecordError) as info:
            replay_text(text)
        assert (info.value.deal, info.value.action) == (None, None)


def test_unknown_keys_are_ignored() -> None:
    data = s_record()
    data["signature"] = "..."
    data["deals"][0]["seed"] = "00"
    data["deals"][0]["actions"][0]["t"] = 1.5
    assert replay(data)["scores"] == [50, 0]


def test_a_record_is_rebuilt_from_its_json_to_go_on_writing() -> None:
    """A save resumed: GameRecord.from_json gives back the record as it was written, every
    extra key kept, and it goes on being written where it stopped."""
    data = s_record()
    data["seed"] = "ab" * 32
    data["deals"][0]["dealt_at"] = "12:00"
    data["deals"][0]["actions"][0]["ms"] = 120
    cut = copy.deepcopy(data)
    last = cut["deals"][0]["actions"].pop()
    rebuilt = GameRecord.from_json(cut)
    assert rebuilt.to_json() == cut
    assert json.loads(rebuilt.dumps()) == cut
    assert rebuilt.settings == Settings(6, True) and rebuilt.first_oya == 0
    rebuilt.add_action(last["seat"], SHOBU)
    assert rebuilt.to_json() == data
    assert replay(rebuilt.to_json())["scores"] == [50, 0]
    rebuilt.deals[0].actions[0]["ms"] = 0  # a copy: the JSON it came from is untouched
    assert cut["deals"][0]["actions"][0]["ms"] == 120


def test_rebuilding_checks_the_structure() -> None:
    data = s_record()
    data["deals"][0]["actions"][0] = {"seat": 0}
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data)
    assert (info.value.deal, info.value.action) == (0, 0)


# -- R7.3 in records: the last turn's shobu --------------------------------------------------


def _last_turn_record() -> tuple[dict[str, Any], int]:
    found = find_position(
        b"record-R7.3", koikoi_policy, lambda r: r.phase == Phase.DECIDE and r.last_turn
    )
    rec = GameRecord(Settings(), found.oya)
    rec.add_deal(found.deal.hands, found.deal.field, found.deal.stock)
    r = Match(rec.settings, found.oya)
    r.deal_cards(found.deal.hands, found.deal.field, found.deal.stock)
    for action in found.actions:
        seat = r.current_seat()
        assert seat is not None
        r.apply(action, seat)
        rec.add_action(seat, action)
    return rec.to_json(), found.round.turn


def test_R7_3_last_turn_shobu_may_go_unwritten() -> None:
    data, seat = _last_turn_record()
    unwritten = replay(data)
    data["deals"][0]["actions"].append({"seat": seat, "koikoi": False})
    written = replay(data)
    assert unwritten == written
    assert written["rounds"][0]["result"] == "win" and written["rounds"][0]["winner"] == seat


def test_R7_3_koikoi_on_the_last_turn_is_illegal() -> None:
    data, seat = _last_turn_record()
    n = len(data["deals"][0]["actions"])
    data["deals"][0]["actions"].append({"seat": seat, "koikoi": True})
    err = error_of(data)
    assert (err.deal, err.action, err.rule) == (0, n, "R7.3")
