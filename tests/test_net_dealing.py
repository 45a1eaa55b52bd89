"""Private dealing of one deal (koikoi.net.dealing): an honest deal, and every attack of issue
15 performed by a peer and caught with the culprit named."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl.bindings import crypto_core_ed25519_add

from koikoi.engine.deck import deal_from_order
from koikoi.net import mental
from koikoi.net.dealing import (
    FIELD,
    STOCK,
    Dealer,
    DealingCheat,
    DealTranscript,
    Phase,
    audit,
    deal_context,
    exchange,
    hand_positions,
    play_deal,
    sealed_hash,
)
from koikoi.net.errors import CheatDetected
from koikoi.net.mental import CARD_POINTS, join_points, split_points
from koikoi.net.roles import Role
from koikoi.net.wire import Value, encode_message, pack, unpack

HOST, JOINER = Role.HOST, Role.JOINER
CONTEXT = deal_context(bytes(32), 1, 0)
LOW_ORDER = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def seed(name: str) -> bytes:
    return hashlib.sha256(name.encode()).digest()


def pair(oya: Role = HOST) -> tuple[Dealer, Dealer]:
    return (
        Dealer(HOST, CONTEXT, oya, seed=seed("host")),
        Dealer(JOINER, CONTEXT, oya, seed=seed("joiner")),
    )


Tamper = Callable[[Dealer, dict[str, Value]], None]


def msg(payload: bytes) -> dict[str, Value]:
    """A message as its map, to rewrite."""
    message = unpack(payload)
    assert isinstance(message, dict)
    return message


def blob(message: dict[str, Value], key: str) -> bytes:
    value = message[key]
    assert isinstance(value, bytes)
    return value


def run(host: Dealer, joiner: Dealer, tamper: dict[tuple[Role, str], Tamper]) -> None:
    """The dealing up to the deal in play; ``tamper[(sender, type)]`` rewrites that message
    on the wire (the sender is the cheat: it may use its own secrets)."""
    queue = [(joiner, message) for message in host.start()]
    while queue:
        receiver, payload = queue.pop(0)
        sender = joiner if receiver is host else host
        payload = rewrite(sender, payload, tamper)
        queue.extend((sender, reply) for reply in receiver.receive(payload))


def rewrite(sender: Dealer, payload: bytes, tamper: dict[tuple[Role, str], Tamper]) -> bytes:
    message = msg(payload)
    change = tamper.get((sender.role, str(message["t"])))
    if change is None:
        return payload
    change(sender, message)
    return pack(message)


def set_point(field: str, position: int, point: bytes) -> Tamper:
    def change(_: Dealer, message: dict[str, Value]) -> None:
        points = list(split_points(blob(message, field)))
        points[position] = point
        message[field] = join_points(points)

    return change


def caught(culprit: Role) -> AbstractContextManager[pytest.ExceptionInfo[DealingCheat]]:
    return pytest.raises(DealingCheat, match=f"^cheat: the {culprit.value} ")


def check_named(info: pytest.ExceptionInfo[DealingCheat], culprit: Role, what: str) -> None:
    assert info.value.culprit is culprit
    assert info.value.what == what
    assert info.value.params["culprit"] == culprit.value
    assert isinstance(info.value, CheatDetected) and "\n" not in str(info.value)


# --- An honest deal ---------------------------------------------------------------------------


def test_an_honest_deal_gives_each_side_its_hand_and_the_field_and_audits() -> None:
    host, joiner = play_deal(seed("host"), seed("joiner"))
    deck = host.audit()
    assert deck == joiner.audit()
    assert sorted(deck) == list(range(48))
    assert host.hand == deck[0:8] and joiner.hand == deck[8:16]
    assert host.field == joiner.field == deck[16:24]
    for position in range(48):
        assert host.card_at(position) == joiner.card_at(position) == deck[position]


@settings(max_examples=12, deadline=None)
@given(
    host_seed=st.binary(min_size=32, max_size=32),
    joiner_seed=st.binary(min_size=32, max_size=32),
    oya=st.sampled_from([HOST, JOINER]),
    draws=st.integers(0, 24),
    plays=st.tuples(st.sets(st.integers(0, 7), max_size=8), st.sets(st.integers(0, 7))),
)
def test_each_side_sees_its_hand_the_field_and_the_stock_only_as_drawn(
    host_seed: bytes,
    joiner_seed: bytes,
    oya: Role,
    draws: int,
    plays: tuple[set[int], set[int]],
) -> None:
    host = Dealer(HOST, CONTEXT, oya, seed=host_seed)
    joiner = Dealer(JOINER, CONTEXT, oya, seed=joiner_seed)
    exchange(host, joiner)
    for _ in range(draws):
        to_joiner, to_host = host.draw(), joiner.draw()
        host.receive(to_host)
        joiner.receive(to_joiner)
    played = {
        role: [hand_positions(role, oya)[i] for i in sorted(chosen)]
        for role, chosen in zip((HOST, JOINER), plays, strict=True)
    }
    for position in played[HOST]:
        joiner.receive(host.play(position))
    for position in played[JOINER]:
        host.receive(joiner.play(position))
    joiner.receive(host.reveal())
    host.receive(joiner.reveal())
    deck = audit(host.transcript)
    assert sorted(deck) == list(range(48)) and deck == audit(joiner.transcript)
    drawn = list(STOCK)[:draws]
    for side in (host, joiner):
        mine = hand_positions(side.role, oya)
        theirs = hand_positions(side.peer, oya)
        seen = {p for p in range(48) if side.card_at(p) is not None}
        assert seen == {*mine, *FIELD, *drawn, *played[side.peer]}, side.role
        assert not seen & (set(theirs) - set(played[side.peer]))
        assert side.hand == tuple(deck[p] for p in mine)
        assert all(side.card_at(p) == deck[p] for p in seen)


def _values(value: object, found: list[object], seen: set[int]) -> None:
    """Every value reachable from ``value`` (attributes, slots, containers)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    found.append(value)
    if isinstance(value, dict):
        for key, item in value.items():
            _values(key, found, seen)
            _values(item, found, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _values(item, found, seen)
    elif type(value).__module__.startswith("koikoi") and not isinstance(value, Enum):
        for name in getattr(type(value), "__slots__", ()):
            _values(getattr(value, name), found, seen)
        for item in getattr(value, "__dict__", {}).values():
            _values(item, found, seen)


def _secrets(side: Dealer) -> set[bytes]:
    """What only ``side`` may know: its seed, keys, their inverses and products."""
    keys = side._keys
    secret = {side._seed, keys.single, mental.invert(keys.single)}
    for key in keys.card:
        secret |= {key, mental.invert(key), mental.multiply(key, mental.invert(keys.single))}
    return secret


def test_before_a_card_is_opened_a_side_holds_only_sealed_points_of_the_hidden_cards() -> None:
    host, joiner = pair()
    queue = [(joiner, m) for m in host.start()]
    states = []
    # Deliver until each side has the final deck but neither has the peer's hand keys yet.
    while queue:
        receiver, payload = queue.pop(0)
        if msg(payload)["t"] == "deal":
            states.append(receiver)
            continue
        sender = joiner if receiver is host else host
        queue.extend((sender, reply) for reply in receiver.receive(payload))
    assert {side.role for side in states} == {HOST, JOINER}
    for side, other in ((host, joiner), (joiner, host)):
        assert side.phase is Phase.AWAIT_DEAL
        values: list[object] = []
        _values(side, values, set())
        blobs = {v for v in values if isinstance(v, bytes)}
        assert side._seed in blobs  # the walk reaches the side's own secrets …
        assert not blobs & _secrets(other)  # … and never the other's
        assert not blobs & set(CARD_POINTS)  # no card in the clear
        assert all(side.card_at(p) is None for p in range(48))  # no card id
        assert side.hand == () and side.field == ()
        sealed = side.transcript.locked[JOINER]
        assert all(mental.card_of(point) is None for point in sealed)


def test_a_seed_revealed_lets_anyone_replay_the_deal() -> None:
    host, joiner = play_deal(seed("host"), seed("joiner"), oya=JOINER)
    replayed, _ = play_deal(seed("host"), seed("joiner"), oya=JOINER)
    assert replayed.transcript == host.transcript
    assert audit(joiner.transcript) == audit(host.transcript)
    assert host.hand == audit(host.transcript)[8:16]  # the joiner is oya: 0–7 are its


# --- Attacks, each caught at once with the culprit named --------------------------------------


def test_a_wrong_key_in_the_deal_is_caught_and_names_the_joiner() -> None:
    host, joiner = pair()
    wrong = mental.derive_scalar(b"x" * 32, b"", b"wrong", 0)
    with caught(JOINER) as info:
        run(host, joiner, {(JOINER, "deal"): set_point("keys", 3, wrong)})
    check_named(info, JOINER, "wrong key")
    assert "position 3" in str(info.value) and host.phase is Phase.FAILED


def test_a_wrong_key_at_a_draw_is_caught_and_names_the_host() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    message = msg(host.draw())
    message["k"] = mental.derive_scalar(b"x" * 32, b"", b"wrong", 0)
    joiner.draw()
    with caught(HOST) as info:
        joiner.receive(pack(message))
    check_named(info, HOST, "wrong key")


def test_the_peers_key_of_its_own_card_cannot_open_another_position() -> None:
    """A key that is right for another position is still a wrong key here."""
    host, joiner = pair()
    exchange(host, joiner)
    message = msg(host.draw())
    message["k"] = host._keys.card[25]
    joiner.draw()
    with caught(HOST) as info:
        joiner.receive(pack(message))
    check_named(info, HOST, "wrong key")


@pytest.mark.parametrize("key", [bytes(32), mental.ORDER.to_bytes(32, "little")])
def test_a_key_that_is_no_scalar_is_caught(key: bytes) -> None:
    host, joiner = pair()
    with caught(HOST) as info:
        run(host, joiner, {(HOST, "deal"): set_point("keys", 9, key)})
    check_named(info, HOST, "key")


def test_a_card_the_joiner_substitutes_into_the_deck_opens_nothing_and_names_it() -> None:
    """The joiner puts the Crane (card 0) into the field, encrypted with its own shuffle key
    as if it came from the host's deck: it has no host key, so the card opens to nothing."""
    host, joiner = pair()
    crane = mental.encrypt(CARD_POINTS[0], joiner._keys.single)
    with caught(JOINER) as info:
        run(host, joiner, {(JOINER, "shuffle"): set_point("deck", FIELD.start, crane)})
    check_named(info, JOINER, "wrong key")
    assert f"position {FIELD.start}" in str(info.value)


def test_a_point_substituted_in_the_stock_is_caught_at_its_draw() -> None:
    host, joiner = pair()
    other = mental.encrypt(CARD_POINTS[5], mental.derive_scalar(b"y" * 32, b"", b"k", 0))
    run(host, joiner, {(HOST, "lock"): set_point("deck", 30, other)})
    for _ in range(6):
        to_joiner, to_host = host.draw(), joiner.draw()
        host.receive(to_host)
        joiner.receive(to_joiner)
    to_joiner, to_host = host.draw(), joiner.draw()  # position 30
    with caught(HOST) as info:
        joiner.receive(to_joiner)
    check_named(info, HOST, "wrong key")


def test_a_duplicate_point_in_a_deck_is_caught_on_arrival() -> None:
    host, joiner = pair()

    def duplicate(_: Dealer, message: dict[str, Value]) -> None:
        points = list(split_points(blob(message, "deck")))
        points[7] = points[3]
        message["deck"] = join_points(points)

    with caught(HOST) as info:
        run(host, joiner, {(HOST, "shuffle"): duplicate})
    check_named(info, HOST, "duplicate")
    assert "3 and 7" in str(info.value)


def test_a_duplicate_card_under_another_key_is_caught_when_it_opens_twice() -> None:
    """The host copies the sealed card at stock position 31 to position 30 under its key of
    30 (``a30·a31⁻¹·Y[31]``): the points differ and both open, to the same card. The joiner
    names the host at the second opening."""
    host, joiner = pair()
    keys = host._keys

    def copy_card(_: Dealer, message: dict[str, Value]) -> None:
        points = list(split_points(blob(message, "deck")))
        rekey = mental.multiply(keys.card[30], mental.invert(keys.card[31]))
        points[30] = mental.encrypt(points[31], rekey)
        message["deck"] = join_points(points)

    run(host, joiner, {(HOST, "lock"): copy_card})
    for _ in range(30 - STOCK.start + 1):  # up to position 30
        to_joiner, to_host = host.draw(), joiner.draw()
        joiner.receive(to_joiner)
        host.receive(to_host)
    opened = joiner.card_at(30)
    to_joiner, to_host = host.draw(), joiner.draw()  # position 31
    with caught(HOST) as info:
        joiner.receive(to_joiner)
    check_named(info, HOST, "duplicate")
    assert opened is not None and f"card {opened} twice" in str(info.value)


@pytest.mark.parametrize(
    "point",
    [
        pytest.param(LOW_ORDER, id="low-order"),
        pytest.param(mental.ORDER.to_bytes(32, "little"), id="off-curve"),
        pytest.param((2**255 - 18).to_bytes(32, "little"), id="non-canonical"),
        pytest.param((1).to_bytes(32, "little"), id="identity"),
        pytest.param(
            crypto_core_ed25519_add(CARD_POINTS[2], LOW_ORDER),
            id="outside-subgroup",
        ),
    ],
)
@pytest.mark.parametrize("step", [(HOST, "shuffle"), (JOINER, "shuffle"), (HOST, "lock")])
def test_a_point_outside_the_subgroup_is_caught_on_arrival(
    point: bytes, step: tuple[Role, str]
) -> None:
    host, joiner = pair()
    with caught(step[0]) as info:
        run(host, joiner, {step: set_point("deck", 11, point)})
    check_named(info, step[0], "point")
    assert "position 11" in str(info.value)


@pytest.mark.parametrize(
    "step", [(HOST, "shuffle"), (JOINER, "shuffle"), (HOST, "lock"), (JOINER, "lock")]
)
@pytest.mark.parametrize("first", ["point", "duplicate"])
def test_of_a_bad_point_and_a_duplicate_the_first_by_position_is_named(
    step: tuple[Role, str], first: str
) -> None:
    """Whether the receiver checks the deck point by point or by multiplying it whole, the
    fault it names is the one at the lowest position."""
    host, joiner = pair()
    bad, dup = (3, 8) if first == "point" else (9, 6)

    def spoil(_: Dealer, message: dict[str, Value]) -> None:
        points = list(split_points(blob(message, "deck")))
        points[bad] = LOW_ORDER
        points[dup] = points[1]
        message["deck"] = join_points(points)

    with caught(step[0]) as info:
        run(host, joiner, {step: spoil})
    check_named(info, step[0], first)
    assert (f"position {bad}" if first == "point" else f"1 and {dup}") in str(info.value)


def test_the_final_deck_from_the_joiner_is_checked_too() -> None:
    host, joiner = pair()
    with caught(JOINER) as info:
        run(host, joiner, {(JOINER, "lock"): set_point("deck", 47, LOW_ORDER)})
    check_named(info, JOINER, "point")


def test_a_draw_out_of_order_is_caught() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    message = msg(joiner.draw())
    message["pos"] = 25
    message["k"] = joiner._keys.card[25]
    with caught(JOINER) as info:
        host.receive(pack(message))
    check_named(info, JOINER, "order")
    assert "next draw is at 24" in str(info.value)


def test_a_draw_two_ahead_of_this_side_is_caught() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    host.receive(joiner.draw())  # one ahead: kept until the host draws
    assert host.card_at(24) is None
    joiner.receive(host.draw())
    host.receive(joiner.draw())  # position 25, one ahead again: fine
    assert host.card_at(24) is not None and host.card_at(25) is None
    bogus: dict[str, Value] = {"t": "draw", "pos": 26, "k": joiner._keys.card[26]}
    with caught(JOINER) as info:
        host.receive(pack(bogus))
    check_named(info, JOINER, "order")


@pytest.mark.parametrize(
    ("position", "why", "what"),
    [
        (0, "a card of the host's hand", "order"),
        (16, "a field card (no hand position)", "message"),
        (12, "played twice", "order"),
    ],
)
def test_a_play_of_a_card_the_joiner_does_not_hold_is_caught(
    position: int, why: str, what: str
) -> None:
    host, joiner = pair()
    exchange(host, joiner)
    if why == "played twice":
        host.receive(joiner.play(12))
    forged: dict[str, Value] = {"t": "play", "pos": position, "k": joiner._keys.card[position]}
    with caught(JOINER) as info:
        host.receive(pack(forged))
    check_named(info, JOINER, what)


def test_a_key_before_the_deck_is_locked_is_caught() -> None:
    host, joiner = pair()
    host.start()
    early: dict[str, Value] = {"t": "draw", "pos": 24, "k": host._keys.card[24]}
    with caught(HOST) as info:
        joiner.receive(pack(early))
    check_named(info, HOST, "message")
    assert "unexpected message 'draw'" in str(info.value)


def test_a_key_after_the_seed_is_caught() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    draw = host.draw()
    joiner.receive(host.reveal())
    with caught(HOST) as info:
        joiner.receive(draw)
    check_named(info, HOST, "order")


def test_a_withheld_key_is_what_the_side_waits_for() -> None:
    host, joiner = pair()
    assert joiner.waiting_for == "the host's shuffled deck"
    first = host.start()
    assert host.waiting_for == "the joiner's shuffled deck"
    lock = host.receive(joiner.receive(first[0])[0])
    replies = joiner.receive(lock[0])
    assert joiner.waiting_for == "the host's keys of this side's hand and of the field"
    assert host.receive(replies[0])  # the final deck; the host sends its deal keys
    assert host.waiting_for == "the joiner's keys of this side's hand and of the field"
    host.receive(replies[1])
    assert host.waiting_for is None
    host.draw()  # the joiner withholds its key of the draw
    assert host.waiting_for == "the joiner's key of the draw at position 24"
    assert host.card_at(24) is None
    host.reveal()
    with pytest.raises(ValueError, match="revealed its seed"):
        host.draw()


# --- The audit at the deal's end --------------------------------------------------------------


def test_a_seed_that_is_not_the_committed_one_is_caught_when_revealed() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    host.reveal()
    with caught(JOINER) as info:
        host.receive(pack({"t": "seed", "s": seed("another")}))
    check_named(info, JOINER, "seed")


def _lying_deal(liar: Role, step: str) -> Dealer:
    """A deal where ``liar`` sends ``step`` made with another seed than its committed one,
    keeps to it (its keys open fine), and reveals its committed seed at the end."""
    host, joiner = pair()
    side = host if liar is HOST else joiner
    impostor = Dealer(liar, CONTEXT, HOST, seed=seed("impostor"))
    real_keys = side._keys
    if step == "shuffle":
        side._keys = impostor._keys  # the whole dealing from another seed
    else:  # a locked deck from other per-card keys (the shuffle honest)
        keys = type(real_keys).__new__(type(real_keys))
        keys.permutation, keys.single = real_keys.permutation, real_keys.single
        keys.card = impostor._keys.card
        side._keys = keys
    exchange(host, joiner)
    for _ in range(3):
        to_joiner, to_host = host.draw(), joiner.draw()
        joiner.receive(to_joiner)
        host.receive(to_host)
    side._keys = real_keys
    joiner.receive(host.reveal())
    host.receive(joiner.reveal())
    return joiner if liar is HOST else host


@pytest.mark.parametrize("liar", [HOST, JOINER])
@pytest.mark.parametrize("step", ["shuffle", "lock"])
def test_a_seed_that_does_not_replay_to_what_was_sent_is_named_by_the_audit(
    liar: Role, step: str
) -> None:
    honest = _lying_deal(liar, step)
    assert honest.card_at(26) is not None  # the deal went on: the lie showed nowhere else
    with caught(liar) as info:
        honest.audit()
    check_named(info, liar, "replay")
    what = "shuffled deck" if step == "shuffle" else "locked deck"
    assert what in str(info.value)


def test_a_tampered_key_in_a_transcript_is_named_by_the_audit() -> None:
    host, _ = play_deal(seed("host"), seed("joiner"))
    host.transcript.keys[JOINER][30] = host.transcript.keys[JOINER][31]
    with caught(JOINER) as info:
        audit(host.transcript)
    check_named(info, JOINER, "replay")
    assert "position 30" in str(info.value)


def test_a_tampered_commitment_in_a_transcript_is_named_by_the_audit() -> None:
    host, _ = play_deal(seed("host"), seed("joiner"))
    host.transcript.commitments[HOST] = bytes(32)
    with caught(HOST) as info:
        audit(host.transcript)
    check_named(info, HOST, "seed")


@pytest.mark.parametrize("oya", [HOST, JOINER])
def test_a_side_audits_by_replaying_only_the_peers_steps(
    oya: Role, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dealer's own decks and keys are what it computed from its own seed: its audit
    replays the peer's shuffle and lock alone (96 multiplications, not 192), same deck."""
    from koikoi.net import dealing

    host, joiner = play_deal(seed("host"), seed("joiner"), oya=oya)
    calls: list[int] = []
    real = mental.encrypt  # what dealing.py imports

    def counted(point: bytes, key: bytes) -> bytes:
        calls.append(1)
        return real(point, key)

    monkeypatch.setattr(dealing, "encrypt", counted)
    full = audit(host.transcript)
    assert len(calls) == 4 * 48
    for side in (host, joiner):
        calls.clear()
        assert side.audit() == full
        assert len(calls) == 2 * 48


@pytest.mark.parametrize("liar", [HOST, JOINER])
def test_a_side_s_short_audit_names_the_same_cheat_as_the_whole_one(liar: Role) -> None:
    """The peer's lie in each step and in a key: the honest side's audit (its own steps not
    replayed) gives the very verdict :func:`audit` gives on the same transcript."""
    for step in ("shuffle", "lock"):
        honest = _lying_deal(liar, step)
        with caught(liar) as whole:
            audit(honest.transcript)
        with caught(liar) as short:
            honest.audit()
        assert str(short.value) == str(whole.value) and short.value.what == whole.value.what
    host, joiner = play_deal(seed("host"), seed("joiner"))
    honest = host if liar is JOINER else joiner
    honest.transcript.keys[liar][30] = honest.transcript.keys[liar][31]
    with caught(liar) as short:
        honest.audit()
    assert "position 30" in str(short.value)


def test_the_audit_needs_both_seeds() -> None:
    host, joiner = pair()
    exchange(host, joiner)
    host.reveal()
    with pytest.raises(ValueError, match="joiner's seed is not revealed"):
        host.audit()


# --- The transcript as a record keeps it ------------------------------------------------------


def test_a_transcript_goes_through_json_and_still_audits() -> None:
    host, _ = play_deal(seed("host"), seed("joiner"), oya=JOINER)
    kept = json.loads(json.dumps(host.transcript.to_json()))
    again = DealTranscript.from_json(kept)
    assert again == host.transcript
    assert audit(again) == host.audit()


def test_a_record_whose_dealing_was_tampered_names_who_the_change_blames() -> None:
    host, _ = play_deal(seed("host"), seed("joiner"))
    kept = host.transcript.to_json()
    locked = kept["locked"]
    assert isinstance(locked, dict)
    points = list(split_points(base64.b64decode(locked["host"])))
    points[2], points[9] = points[9], points[2]  # two cards of the oya's hand swapped
    locked["host"] = base64.b64encode(join_points(points)).decode()
    with caught(HOST) as info:
        audit(DealTranscript.from_json(kept))
    check_named(info, HOST, "replay")
    assert "locked deck" in str(info.value)


@pytest.mark.parametrize(
    "damage",
    [
        lambda kept: kept.pop("seeds"),
        lambda kept: kept.update(context="not base64!"),
        lambda kept: kept.update(oya="dealer"),
        lambda kept: kept["commitments"].update(host=base64.b64encode(b"short").decode()),
        lambda kept: kept["keys"]["joiner"].append([99, kept["keys"]["joiner"][0][1]]),
        lambda kept: kept["keys"]["joiner"].append(kept["keys"]["joiner"][0]),
        lambda kept: kept.update(keys=[]),
        lambda kept: kept["keys"].update(
            host=[[True if p == 1 else p, k] for p, k in kept["keys"]["host"]]
        ),
        lambda kept: kept["keys"]["host"].append("AAAA"),
        lambda kept: kept.update(shuffled={"dealer": ""}),
        lambda kept: kept.update(locked=None),
    ],
    ids=[
        "no seeds",
        "bad base64",
        "bad oya",
        "short",
        "position 99",
        "twice",
        "keys list",
        "position true",
        "no pair",
        "no such role",
        "null",
    ],
)
def test_a_malformed_dealing_in_a_record_is_one_clear_line(
    damage: Callable[[dict[str, Any]], object],
) -> None:
    host, _ = play_deal(seed("host"), seed("joiner"))
    kept: dict[str, Any] = json.loads(json.dumps(host.transcript.to_json()))
    damage(kept)
    with pytest.raises(ValueError, match="^the dealing in the record is malformed") as info:
        DealTranscript.from_json(kept)
    assert "\n" not in str(info.value)


def test_the_documented_vector() -> None:
    """docs/protocol.md, "Private dealing (koikoi-net/3)": the vector other programs check."""
    context = deal_context(bytes(32), 1, 0)
    host = Dealer(HOST, context, HOST, seed=bytes(32))
    joiner = Dealer(JOINER, context, HOST, seed=bytes([1]) * 32)
    assert context.hex() == "8ba22a85af596d0691342fabd07a6b53628593915d3f8d6b3011f6cb71e87406"
    assert host.commitment.hex() == (
        "582a05954522e1b24ab4ce4ad084fb3fa79548faa60f0edd4cc92b7edcc91fbe"
    )
    assert joiner.commitment.hex() == (
        "f9c77ea394e330edc36b08051971713f327677a0e70db3e41f86d31d552d9f05"
    )
    assert host._keys.single.hex() == (
        "efcc34b45ae479867c8da87aadc07c46433e3781d84632f6149634d81f6d8b0a"
    )
    assert host._keys.card[0].hex() == (
        "d55dbddf4277919da50269623f9e3e89c0e7e7da1a8a44c24a24ae47f4e6a900"
    )
    assert host._keys.permutation[:8] == (46, 34, 18, 4, 30, 9, 28, 39)
    exchange(host, joiner)
    assert host.transcript.shuffled[HOST][0].hex() == (
        "ace55dd5f37778f041007671fd5aad56dee429b201034ebd3adb1ba1cacfa48e"
    )
    assert host.transcript.locked[JOINER][0].hex() == (
        "36a274af7d8645e48f152f5c86b78ed31ee165c3053deb732654a25734d23ad1"
    )
    joiner.receive(host.reveal())
    host.receive(joiner.reveal())
    deck = " ".join(str(card) for card in host.audit())
    assert deck == (
        "36 11 31 9 41 6 0 44 30 3 17 15 16 20 5 12 4 42 32 13 27 29 46 38 "
        "39 22 33 2 25 23 37 1 45 28 40 24 14 18 19 43 8 26 7 35 10 21 34 47"
    )


def test_the_audited_deck_is_the_order_the_engine_lays_out() -> None:
    """The positions are those of docs/protocol.md "Deals": ``deal_from_order`` with the
    audited deck gives each seat the hand its side opened, the field, and the stock in the
    order it was drawn."""
    for oya in (HOST, JOINER):
        host, joiner = play_deal(seed("host"), seed(f"joiner {oya.value}"), oya=oya)
        deal = deal_from_order(list(host.audit()), oya.seat)
        for side in (host, joiner):
            assert deal.hands[side.role.seat] == sum(1 << card for card in side.hand)
            assert deal.field == sum(1 << card for card in side.field)
            assert deal.stock == tuple(side.card_at(p) for p in STOCK)


def test_the_sealed_hash_binds_every_deck_and_commitment() -> None:
    host, joiner = pair()
    with pytest.raises(ValueError, match="final deck"):
        sealed_hash(host.transcript)
    exchange(host, joiner)
    first = sealed_hash(host.transcript)
    assert first == sealed_hash(joiner.transcript)
    assert sealed_hash(host.transcript, first) != first  # chained to the deal before
    parts = [
        b"koikoi-net/3 dealing\0",
        bytes(32),
        host.commitment,
        joiner.commitment,
        *(join_points(host.transcript.shuffled[role]) for role in (HOST, JOINER)),
        *(join_points(host.transcript.locked[role]) for role in (HOST, JOINER)),
    ]
    assert first == hashlib.sha256(b"".join(parts)).digest()
    swapped = list(host.transcript.locked[JOINER])
    swapped[30], swapped[31] = swapped[31], swapped[30]
    host.transcript.locked[JOINER] = tuple(swapped)
    assert sealed_hash(host.transcript) != first


def _honest_deal(deliver: Callable[[Dealer, bytes], list[bytes]]) -> None:
    """An honest deal up to three draws and a play, every message through ``deliver``."""
    host, joiner = pair()
    queue = [(joiner, m) for m in host.start()]
    while queue:
        receiver, payload = queue.pop(0)
        sender = joiner if receiver is host else host
        queue.extend((sender, reply) for reply in deliver(receiver, payload))
    for _ in range(3):
        to_joiner, to_host = host.draw(), joiner.draw()
        deliver(joiner, to_joiner)
        deliver(host, to_host)
    deliver(joiner, host.play(2))


MESSAGES = 6 + 6 + 1  # two shuffles, two locks, two deals; 6 draw keys; a play


def test_the_honest_deal_that_the_damage_test_walks_has_its_messages() -> None:
    seen: list[str] = []

    def deliver(receiver: Dealer, payload: bytes) -> list[bytes]:
        seen.append(f"{msg(payload)['t']!s}>{receiver.role.value}")
        return receiver.receive(payload)

    _honest_deal(deliver)
    assert len(seen) == MESSAGES
    assert seen[:6] == [
        "shuffle>joiner",
        "shuffle>host",
        "lock>joiner",
        "lock>host",
        "deal>host",
        "deal>joiner",
    ]


class _Damaged(Exception):
    pass


@settings(max_examples=150, deadline=None)
@given(
    which=st.integers(0, MESSAGES - 1),
    flips=st.lists(st.tuples(st.integers(0, 2000), st.integers(1, 255)), min_size=1, max_size=3),
    cut=st.integers(1, 2000),
)
def test_a_damaged_message_ends_the_dealing_with_one_named_line_never_a_traceback(
    which: int, flips: list[tuple[int, int]], cut: int
) -> None:
    count = 0

    def deliver(receiver: Dealer, payload: bytes) -> list[bytes]:
        nonlocal count
        count += 1
        if count - 1 != which:
            return receiver.receive(payload)
        damaged = bytearray(payload)
        for offset, mask in flips:
            damaged[offset % len(damaged)] ^= mask
        try:
            receiver.receive(bytes(damaged[:cut]))
        except DealingCheat as error:
            assert error.culprit is receiver.peer and "\n" not in str(error)
            assert receiver.phase is Phase.FAILED
            raise _Damaged from error
        raise _Damaged  # a flip the checks cannot see (none so far): still no traceback

    with pytest.raises(_Damaged):
        _honest_deal(deliver)


def test_a_message_the_session_decoded_is_not_decoded_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session decodes each message with the dealing's schemas before the dealer sees it:
    the dealer takes that decoding; one of a type its phase does not take is refused as if
    it were decoded here."""
    from koikoi.net import dealing
    from koikoi.net.wire import decode_message

    schemas = {"shuffle": dealing.SHUFFLE, "lock": dealing.LOCK, "draw": dealing.DRAW}
    host, joiner = pair()
    shuffle = host.start()[0]
    calls: list[bytes] = []

    def counted(payload: bytes, expected: Any) -> Any:
        calls.append(payload)
        return decode_message(payload, expected)

    monkeypatch.setattr(dealing, "decode_message", counted)
    replies = joiner.receive(shuffle, decode_message(shuffle, schemas))
    assert calls == [] and joiner.phase is Phase.AWAIT_LOCK
    draw = encode_message("draw", pos=24, k=bytes(32))
    with caught(JOINER) as info:  # the host waits for a shuffle: a draw is out of place
        host.receive(draw, decode_message(draw, schemas))
    assert calls == [draw] and "unexpected message 'draw'" in str(info.value)
    host, joiner = pair()
    host.start()
    assert joiner.receive(shuffle) == replies  # without it: decoded here, the same replies
