"""Stamps in a session (docs/protocol.md, "Stamps"): a hostile peer built on the project's own
sessions (``Table.inject`` sends any message with the right keys) floods, sends ids off the
list or off the schema, or stamps a side that never offered them; an honest one is held to
its rate. Time is the table's own (``table.now``), stepped by hand."""

from __future__ import annotations

import base64
import json

import pytest

from koikoi.net.hello import HELLO_PRIVATE
from koikoi.net.roles import Role
from koikoi.net.session.endings import How
from koikoi.net.session.events import SessionEvent, StampReceived
from koikoi.net.stamps import RECEIVE_MAX, RECEIVE_WINDOW, SEND_INTERVAL, STAMPS
from koikoi.net.wire import encode_message, unpack
from tests.net_support import Table, handshake_pair, in_play

PRIVATE = {Role.HOST: ("private",), Role.JOINER: ("private",)}
BOTH: dict[Role, tuple[str, ...]] = {Role.HOST: STAMPS, Role.JOINER: STAMPS}


def stamps_of(table: Table, role: Role) -> list[str]:
    return [e.stamp for e in table.events[role] if isinstance(e, StampReceived)]


def words_of(value: object) -> tuple[set[str], set[str]]:
    """The keys and the strings of a JSON value, all the way down."""
    keys: set[str] = set()
    texts: set[str] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            keys.update(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            texts.add(item)
    return keys, texts


def kind(message: bytes) -> object:
    decoded = unpack(message)
    assert isinstance(decoded, dict)
    return decoded["t"]


def stamp(stamp_id: object) -> bytes:
    return encode_message("stamp", id=stamp_id)  # type: ignore[arg-type]


def stamp_table(stamps: dict[Role, tuple[str, ...]] = BOTH, moves: int = 2) -> Table:
    return in_play(moves, dealings=PRIVATE, stamps=stamps)


def test_a_stamp_goes_by_its_id_and_never_into_the_record_or_the_journal() -> None:
    table = stamp_table()
    assert table.joiner.send_stamp("greet", table.now)
    table.step()
    assert stamps_of(table, Role.HOST) == ["greet"]
    assert [unpack(m) for m in table.sent[Role.JOINER] if kind(m) == "stamp"] == [
        {"t": "stamp", "id": "greet"}
    ]
    table.now += SEND_INTERVAL
    assert table.host.send_stamp("nice", table.now)
    table.run()
    assert stamps_of(table, Role.JOINER) == ["nice"]
    assert table.host.ending is not None and table.host.ending.finished
    for role in Role:
        session = table.sessions[role]
        kept = [session.record().to_json(), session.local_json()]
        keys, texts = words_of(kept)
        assert not any("stamp" in key for key in keys)
        assert not {"stamp", "greet", "nice"} & texts  # (base64 may hold them by chance)
        journaled = [item[1] for item in kept[1]["journal"] if item[0] == "in"]
        assert journaled and "stamp" not in {kind(base64.b64decode(m)) for m in journaled}
        record = json.dumps(kept)
        for sent in table.sent[Role.JOINER] + table.sent[Role.HOST]:
            if kind(sent) == "stamp":
                assert base64.b64encode(sent).decode() not in record
    # the match's record is the same on both sides, stamps or not
    assert table.host.result_json() == table.joiner.result_json()


def test_the_sender_keeps_to_one_stamp_every_few_seconds() -> None:
    table = stamp_table()
    assert table.host.send_stamp("greet", table.now)
    start = table.now
    table.now = start + SEND_INTERVAL - 0.1
    assert table.host.stamps.ready_at(table.now) == pytest.approx(start + SEND_INTERVAL)
    assert not table.host.send_stamp("wait", table.now)
    table.step()
    assert stamps_of(table, Role.JOINER) == ["greet"]  # the refused one never went
    table.now = start + SEND_INTERVAL
    assert table.host.send_stamp("wait", table.now)
    table.step()
    assert stamps_of(table, Role.JOINER) == ["greet", "wait"]
    with pytest.raises(ValueError, match="unknown stamp"):
        table.host.send_stamp("hello world", table.now + 100)


def test_a_flood_of_stamps_is_dropped_and_the_match_goes_on() -> None:
    table = stamp_table()
    for _ in range(200):
        table.inject(Role.JOINER, stamp("close"))
    assert stamps_of(table, Role.HOST) == ["close"] * RECEIVE_MAX
    assert table.host.stamps.dropped == 200 - RECEIVE_MAX
    assert table.host.ending is None
    table.now += RECEIVE_WINDOW
    table.inject(Role.JOINER, stamp("thanks"))
    assert stamps_of(table, Role.HOST)[-1] == "thanks"
    table.run()
    assert table.host.ending is not None and table.host.ending.finished
    assert table.joiner.ending is not None and table.joiner.ending.finished


@pytest.mark.parametrize(
    ("message", "said"),
    [
        (stamp("gg"), "stamp.id: 'gg' is not a stamp this side takes"),
        (stamp(""), "stamp.id: string length 0"),
        (stamp("x" * 17), "stamp.id: string length 17"),
        (stamp(7), "stamp.id: expected a string"),
        (stamp("nice\u202e"), "stamp.id"),
        (encode_message("stamp"), "missing key 'id'"),
        (encode_message("stamp", id="nice", text="free text"), "unexpected key 'text'"),
    ],
)
def test_a_stamp_off_the_list_or_the_schema_is_a_protocol_error(message: bytes, said: str) -> None:
    table = stamp_table()
    table.inject(Role.JOINER, message)
    ending = table.ended(Role.HOST).ending
    assert ending.how is How.PROTOCOL and ending.by is Role.JOINER
    assert said in ending.reason
    assert stamps_of(table, Role.HOST) == []


def test_a_peer_that_did_not_offer_stamps_gets_none() -> None:
    table = stamp_table({Role.HOST: STAMPS})
    assert table.host.stamps.theirs == () and table.joiner.stamps.theirs == STAMPS
    assert not table.host.send_stamp("greet", table.now)
    table.step()
    assert not any(kind(m) == "stamp" for m in table.sent[Role.HOST])
    # the host takes them: the joiner may send
    assert table.joiner.send_stamp("greet", table.now)
    table.step()
    assert stamps_of(table, Role.HOST) == ["greet"]
    # a stamp forced on the side that said nothing is an unexpected message
    table.inject(Role.HOST, stamp("greet"))
    ending = table.ended(Role.JOINER).ending
    assert ending.how is How.PROTOCOL and "unexpected message 'stamp'" in ending.reason


def test_hellos_say_stamps_only_in_version_4_and_only_when_offered() -> None:
    _, agreed = handshake_pair(dealings=PRIVATE, stamps={Role.JOINER: STAMPS})
    assert agreed[Role.HOST].peer_stamps == STAMPS and agreed[Role.HOST].stamps == ()
    assert agreed[Role.JOINER].stamps == STAMPS and agreed[Role.JOINER].peer_stamps == ()
    # version 2 (joint seed only) carries none, whatever the side would show
    _, seed = handshake_pair(stamps=BOTH)
    assert all(e.version == 2 and e.stamps == () == e.peer_stamps for e in seed.values())
    # a hello of a koikoi without stamps is still read: the key is optional
    assert "stamps" in HELLO_PRIVATE.optional


def test_no_stamp_goes_after_the_match_is_over() -> None:
    table = stamp_table()
    table.run()
    assert all(table.sessions[role].ending is not None for role in Role)
    assert not table.host.send_stamp("thanks", table.now + 60)
    assert not table.joiner.send_stamp("thanks", table.now + 60)


def crossing_table(message: bytes) -> tuple[Table, list[SessionEvent]]:
    """A match played out where, as the side that moved last still reads its peer's last
    acknowledgement, ``message`` arrives from the peer first (it crossed the last move)."""
    taken: list[SessionEvent] = []

    def tap(sender: Role, plain: list[bytes]) -> list[bytes]:
        receiver = table.sessions[sender.peer]
        if not taken and receiver.ending is not None and receiver._waiting:
            taken.extend(table.inject(sender, message) or [StampReceived("(nothing)")])
        return plain

    table = stamp_table()
    table.tap = tap
    table.run()
    assert taken, "no side read on after the last move"
    return table, taken


def test_a_stamp_that_crosses_the_last_move_is_still_shown() -> None:
    table, taken = crossing_table(stamp("thanks"))
    assert taken == [StampReceived("thanks")]
    for role in Role:
        ending = table.sessions[role].ending
        assert ending is not None and ending.finished
    assert table.host.result_json() == table.joiner.result_json()


def test_a_table_readiness_that_crosses_the_last_move_is_dropped_and_the_audit_done() -> None:
    """The peer's table said it is busy (an animation, the round's panel) before its session
    knew the match was over: that ``clock`` reaches a side reading for the last seed and
    acknowledgement. It is taken and dropped; the seed after it still comes, the audit is
    done on both sides and the records agree (it once ended the wait as a refused audit)."""
    table, taken = crossing_table(encode_message("clock", ready=False, reserve=240_000))
    assert taken == [StampReceived("(nothing)")]  # nothing to show
    for role in Role:
        ending = table.sessions[role].ending
        assert ending is not None and ending.finished
        assert ending.audit is not None and ending.audit.result == "done", ending.audit
    records = [table.sessions[role].record().to_json() for role in Role]
    assert records[0]["deals"] == records[1]["deals"]


def test_an_unknown_stamp_after_the_last_move_changes_no_result() -> None:
    table, _ = crossing_table(stamp("gg"))
    for role in Role:
        ending = table.sessions[role].ending
        assert ending is not None and ending.finished  # the match was over already
