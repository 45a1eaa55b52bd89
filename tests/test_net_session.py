"""The sans-I/O lockstep session: a whole match, and every cheat caught with the move named.

Two real sessions after a real handshake; a tap on the wire plays the cheater, with the
cheater's own keys, so each check is the one a modified client would run into.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from koikoi.engine.cards import CARD_IDS
from koikoi.engine.match import Settings
from koikoi.engine.record import replay
from koikoi.engine.round import KOIKOI, SHOBU, Round, play
from koikoi.net.errors import ProtocolError
from koikoi.net.lockstep import (
    Lockstep,
    LogEntry,
    canonical_state,
    decode_entry,
    encode_entry,
    entry_hash,
    genesis_hash,
    state_hash,
)
from koikoi.net.roles import Role
from koikoi.net.session.endings import Stage
from koikoi.net.session.events import Ended, MovePlayed, TossDone
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_message, unpack
from tests.net_support import Table, in_play, is_move, resign

MOVE_NAMED = re.compile(r"deal \d+ action \d+ \(move \d+, seat [01]( \w+( \w+)?)?\)")


def finished_table(**kwargs: object) -> Table:
    table = Table(**kwargs)  # type: ignore[arg-type]
    table.run()
    return table


# --- a whole match ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_match_in_lockstep(seed: int) -> None:
    table = finished_table(seed=seed)
    host, joiner = table.host, table.joiner
    assert host.closed and joiner.closed
    assert host.ending is not None and joiner.ending is not None
    assert host.ending.finished and joiner.ending.finished
    assert host.result_json() == joiner.result_json()
    assert host.result_json()["finished"] is True
    h, j = host.record().to_json(), joiner.record().to_json()
    assert h["deals"] == j["deals"] and h["net"] == j["net"]
    assert replay(h) == host.result_json()
    for record in (h, j):
        report = verify_record(record)
        assert report.result == host.result_json()
        assert report.moves == sum(len(d["actions"]) for d in record["deals"])
    # Both sides saw the same toss, and every move came out as an event on both sides.
    tosses = [e for role in Role for e in table.events[role] if isinstance(e, TossDone)]
    assert len(tosses) == 2 and tosses[0].result == tosses[1].result
    moves = {
        role: [e.seq for e in table.events[role] if isinstance(e, MovePlayed)] for role in Role
    }
    assert moves[Role.HOST] == moves[Role.JOINER] == list(range(report.moves))


def test_twelve_rounds_without_doubling() -> None:
    table = finished_table(settings=Settings(rounds=12, doubling=False), seed=7)
    record = table.host.record().to_json()
    assert record["settings"] == {"rounds": 12, "doubling": False}
    assert verify_record(record).result["finished"] is True


def _fresh() -> Lockstep:
    from koikoi.engine.match import Settings

    return Lockstep(Settings(), first_oya=0, seed=bytes(32), session=bytes(32))


def _round(game: Lockstep) -> Round:
    assert game.match.round is not None
    return game.match.round


@pytest.mark.parametrize(
    "change",
    [
        lambda g: setattr(_round(g), "stock_pos", 1),
        lambda g: _round(g).hands.__setitem__(0, _round(g).hands[0] ^ 1),
        lambda g: _round(g).koikoi_calls.__setitem__(1, 1),
        lambda g: _round(g).baselines.__setitem__(0, 3),
        lambda g: setattr(_round(g), "pending", 5),
        lambda g: setattr(g.match, "scores", (24, 26)),
        lambda g: setattr(g.match, "oya", 1),
        lambda g: setattr(_round(g), "stock", tuple(reversed(_round(g).stock))),
    ],
)
def test_the_state_hash_covers_the_whole_state(change: Callable[[Lockstep], object]) -> None:
    game = _fresh()
    before = state_hash(game.match)
    assert state_hash(_fresh().match) == before  # the same seed gives the same state
    assert len(canonical_state(game.match)) < 200
    change(game)
    assert state_hash(game.match) != before


def test_entries_chain_from_the_session_and_seed() -> None:
    table = finished_table()
    record = table.host.record().to_json()
    net = record["net"]
    import base64

    session, seed = base64.b64decode(net["session"]), base64.b64decode(net["seed"])
    prev = genesis_hash(session, seed)
    seq = 0
    for deal in record["deals"]:
        for action in deal["actions"]:
            raw = base64.b64decode(action["entry"])
            entry = decode_entry(raw)
            assert (entry.seq, entry.prev_hash) == (seq, prev)
            prev, seq = entry_hash(raw), seq + 1


def test_entries_have_one_encoding() -> None:
    raw = encode_entry(5, bytes(32), play(3), bytes(32))
    assert decode_entry(raw).seq == 5
    longer = raw[:1] + b"\xce" + (5).to_bytes(4, "big") + raw[2:]  # seq as uint32
    with pytest.raises(ProtocolError, match="canonical"):
        decode_entry(longer)
    for bad in (b"\x93\x00\x00\x00", encode_entry(0, bytes(31), 0, bytes(32)), b"\xc1"):
        with pytest.raises(ProtocolError):
            decode_entry(bad)
    with pytest.raises(ProtocolError, match="action"):
        decode_entry(encode_entry(0, bytes(32), SHOBU + 1, bytes(32)))


# --- cheats --------------------------------------------------------------------------------


Change = Callable[[Table, bytes, list[bytes], list[bytes]], list[bytes] | None]
"""What a cheat makes of a move: ``change(table, message, rest, out)`` sends instead."""


class Cheat:
    """A tap that lets the match run, then changes the ``nth`` move ``cheater`` sends (or the
    first after it that ``change`` takes: it returns None for a move it cannot cheat with).
    Not in a turn that ends the match: the cheater's own side has made its last move, so
    it ends as finished when told of the cheat, not as stopped (a random deal)."""

    def __init__(self, cheater: Role, nth: int, change: Change) -> None:
        self.cheater = cheater
        self.nth = nth
        self.change = change
        self.count = 0
        self.done = False
        self.table: Table | None = None

    def __call__(self, sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is not self.cheater or self.done:
            return messages
        assert self.table is not None  # cheated() sets it before the match runs
        lockstep = self.table.sessions[self.cheater].lockstep
        if lockstep is not None and lockstep.match.finished:
            return messages
        out: list[bytes] = []
        for i, message in enumerate(messages):
            if is_move(message) and not self.done:
                if self.count >= self.nth:
                    changed = self.change(self.table, message, messages[i + 1 :], out)
                    if changed is not None:
                        self.done = True
                        out.extend(changed)
                        return out
                self.count += 1
            out.append(message)
        return out


def cheated(cheater: Role, nth: int, change: Change, seed: int) -> Table:
    """A match played to its end with ``change(table, message, rest, out)`` made to the
    ``nth`` move ``cheater`` sends. The cards are random per run (each session's secrets),
    and now and then a match is over before that move: it is set aside for the next seed."""
    for each in range(seed, seed + 20):
        cheat = Cheat(cheater, nth, change)
        table = Table(tap=cheat, seed=each)
        cheat.table = table
        table.run()
        if cheat.done:
            return table
    raise AssertionError(f"no match of 20 lasted to move {nth} of the {cheater.value}")


def caught(table: Table, victim: Role) -> str:
    """The victim froze the match over a cheat by its peer; returns the reason."""
    ending = table.sessions[victim].ending
    assert ending is not None, "the cheat went unnoticed"
    assert not ending.finished
    assert ending.how == "cheat", ending
    assert ending.by is victim.peer
    assert table.ended(victim).ending is ending
    # The cheater was told why, and the match is unfinished there too.
    cheater = table.sessions[victim.peer].ending
    assert cheater is not None and cheater.how == "stopped" and not cheater.finished
    assert ending.reason in cheater.reason or ending.reason[:150] in cheater.reason
    # The record stays the honest prefix, with the rejected entry kept as evidence.
    record = table.sessions[victim].record().to_json()
    assert record["end"]["how"] == "cheat" and record["end"]["by"] == victim.peer.seat
    assert verify_record(record).result["finished"] is False
    return ending.reason


@pytest.mark.parametrize("cheater", list(Role))
def test_a_replayed_log_entry_is_caught(cheater: Role) -> None:
    sent: list[bytes] = []
    replayed: list[bytes] = []

    def tap(sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is cheater:
            moves = [m for m in messages if is_move(m)]
            if sent and moves and len(sent) >= 3:
                replayed.append(sent[-2])
                return [*messages, sent[-2]]  # an earlier entry, again, correctly signed
            sent.extend(moves)
        return messages

    for seed in range(5, 25):  # a match over before the cheater's fourth move: another
        sent.clear()
        table = Table(tap=tap, seed=seed)
        table.run()
        if replayed:
            break
    assert replayed
    reason = caught(table, cheater.peer)
    assert MOVE_NAMED.search(reason), reason
    assert "replayed, reordered or dropped" in reason
    assert "sequence number" in reason


def test_reordered_log_entries_are_caught() -> None:
    # A turn of two moves (a play and a pick, or a play and a decision) sent swapped.
    swapped: list[Role] = []

    def tap(sender: Role, messages: list[bytes]) -> list[bytes]:
        moves = [i for i, m in enumerate(messages) if is_move(m)]
        if not swapped and len(moves) >= 2:
            swapped.append(sender)
            a, b = moves[0], moves[1]
            messages = list(messages)
            messages[a], messages[b] = messages[b], messages[a]
        return messages

    for seed in range(1, 40):
        swapped.clear()
        table = Table(tap=tap, seed=seed)
        table.run()
        if swapped:
            break
    assert swapped, "no turn of two moves in 40 matches"
    reason = caught(table, swapped[0].peer)
    seq = decode_entry(unpack(table.sent[swapped[0]][-1])["entry"]).seq  # type: ignore[index,arg-type,call-overload]
    assert MOVE_NAMED.search(reason), reason
    assert f"sequence number {seq + 1} where {seq} is due" in reason or "sequence number" in reason


def test_a_dropped_log_entry_is_caught() -> None:
    def drop(table: Table, message: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        return []  # the entry vanishes; the next one cannot chain

    table = cheated(Role.JOINER, 4, drop, seed=11)
    # Either the next entry is out of sequence, or the peer waits on a move that never
    # comes; the tap drops the whole batch, so the host is left waiting: give it time.
    if table.host.ending is None:
        table.now += 16
        for role in Role:
            table.events[role].extend(table.sessions[role].tick(table.now))
        assert table.host.ending is not None and table.host.ending.how == "silent"
    else:
        assert "sequence number" in table.host.ending.reason


def test_an_illegal_move_is_caught() -> None:
    cheater = Role.JOINER

    def illegal(table: Table, message: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        # The victim may not have dealt yet (the cheater's confirm travels with this move):
        # a card dealt to the victim, as the cheater's own record has the deal of this move,
        # is not the cheater's to play. That deal, not the cheater's deal in play: its turn
        # may have ended the deal and laid out the next (a random deal: 3 in 3,000).
        lockstep = table.sessions[cheater].lockstep
        assert lockstep is not None
        seq, ends = move_entry(message).seq, 0
        for deal in lockstep.record.deals:
            ends += len(deal.actions)
            if seq < ends:
                break
        not_in_hand = next(c for c in range(48) if deal.hands[cheater.peer.seat] >> c & 1)
        return [resign(message, table.identities[cheater], action=play(not_in_hand))]

    table = cheated(cheater, 0, illegal, seed=3)
    reason = caught(table, cheater.peer)
    assert "illegal move: R5" in reason, reason
    assert MOVE_NAMED.search(reason)


def move_entry(message: bytes) -> LogEntry:
    """A move message's signed entry."""
    value = unpack(message)
    assert isinstance(value, dict) and isinstance(value["entry"], bytes)
    return decode_entry(value["entry"])


def move_action(message: bytes) -> int:
    """The action of a move message's signed entry."""
    return move_entry(message).action


def test_a_koikoi_out_of_turn_is_caught() -> None:
    cheater = Role.HOST

    def koikoi(
        table: Table, message: bytes, rest: list[bytes], out: list[bytes]
    ) -> list[bytes] | None:
        if move_action(message) in (KOIKOI, SHOBU):
            return None  # a decision of its own: a koikoi there is no cheat (a random deal)
        return [resign(message, table.identities[cheater], action=KOIKOI)]

    table = cheated(cheater, 2, koikoi, seed=4)
    reason = caught(table, cheater.peer)
    assert "illegal move: R" in reason and "koikoi" in reason, reason


def test_a_wrong_state_hash_is_caught() -> None:
    cheater = Role.HOST

    def lie(table: Table, message: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        return [resign(message, table.identities[cheater], state_hash=os.urandom(32))]

    table = cheated(cheater, 3, lie, seed=8)
    reason = caught(table, cheater.peer)
    assert "the state hash differs" in reason
    match = MOVE_NAMED.search(reason)
    assert match and "move 3" not in reason or match  # the move is named whatever its seq
    record = table.joiner.record().to_json()
    assert "rejected" in record["end"]


def test_a_bad_signature_is_caught() -> None:
    cheater = Role.JOINER

    def forge(table: Table, message: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        value = unpack(message)
        assert isinstance(value, dict)
        sig = bytearray(value["sig"])  # type: ignore[arg-type]
        sig[10] ^= 0x40
        return [encode_message("move", entry=value["entry"], sig=bytes(sig))]

    table = cheated(cheater, 2, forge, seed=9)
    reason = caught(table, cheater.peer)
    assert "signature over the entry does not verify" in reason
    assert MOVE_NAMED.search(reason)


def test_an_entry_signed_by_another_key_is_caught() -> None:
    from koikoi.net.identity import Identity

    stranger = Identity.generate()
    table = cheated(Role.HOST, 1, lambda table, m, rest, out: [resign(m, stranger)], seed=10)
    assert "signature" in caught(table, Role.JOINER)


def test_an_entry_off_the_chain_is_caught() -> None:
    cheater = Role.HOST

    def off_the_chain(table: Table, m: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        return [resign(m, table.identities[cheater], prev_hash=bytes(32))]

    table = cheated(cheater, 2, off_the_chain, seed=12)
    assert "does not chain to the previous one" in caught(table, Role.JOINER)


def test_a_malformed_entry_is_caught() -> None:
    cheater = Role.JOINER

    def garbage(table: Table, message: bytes, rest: list[bytes], out: list[bytes]) -> list[bytes]:
        raw = b"\x94\x00\xc4\x20" + bytes(32) + b"\x00"  # cut short
        sig = table.identities[cheater].sign(b"koikoi-net/1 move\0" + raw)
        return [encode_message("move", entry=raw, sig=sig)]

    table = cheated(cheater, 0, garbage, seed=13)
    reason = caught(table, Role.HOST)
    assert "malformed msgpack" in reason and MOVE_NAMED.search(reason), reason


def test_a_lying_coin_toss_reveal_is_caught() -> None:
    def lie(sender: Role, messages: list[bytes]) -> list[bytes]:
        out = []
        for message in messages:
            value = unpack(message)
            if isinstance(value, dict) and value.get("t") == "reveal":
                message = encode_message("reveal", r=os.urandom(32))
            out.append(message)
        return out

    table = Table(tap=lie)
    table.run()
    ending = table.joiner.ending
    assert ending is not None and ending.how == "cheat" and ending.by is Role.HOST
    assert ending.stage == "toss"
    assert ending.reason == "cheat: the host's coin-toss reveal does not match its commitment"
    # The host never got to play: the joiner said why and left.
    assert table.host.ending is not None and table.host.ending.how == "stopped"
    assert "reveal does not match" in table.host.ending.reason
    record = table.joiner.record().to_json()
    assert record["deals"] == [] and record["end"]["stage"] == "toss"
    assert "toss" not in record["net"]  # the joiner never accepted a toss


def test_a_move_in_the_clear_or_replayed_ciphertext_is_refused() -> None:
    table = Table()
    table.step()
    # A ciphertext the joiner already decrypted, sent again: the nonces disagree.
    session = table.joiner
    before = table.joiner.outgoing()
    assert before == []
    events = session.receive(b"\x00" * 40, table.now)
    assert isinstance(events[0], Ended)
    assert events[0].ending.how == "protocol"
    assert "did not decrypt" in events[0].ending.reason


def test_a_message_off_its_schema_is_refused() -> None:
    table = Table()
    while table.joiner.stage is Stage.TOSS:
        table.step()
    events = table.inject(Role.HOST, encode_message("move", entry=b"x", sig=bytes(64), extra=1))
    assert isinstance(events[0], Ended)
    assert "move: unexpected key 'extra'" in events[0].ending.reason
    assert events[0].ending.how == "protocol"


def test_a_float_or_an_unknown_message_is_refused() -> None:
    import msgpack  # type: ignore[import-untyped]

    for message in (
        msgpack.packb({"t": "ping", "x": 1.5}),
        encode_message("chat", text="hi"),
        encode_message("commit", c=bytes(32)),
    ):
        table = Table()
        while table.joiner.stage is Stage.TOSS:
            table.step()
        (event,) = table.inject(Role.HOST, message)
        assert isinstance(event, Ended) and event.ending.how == "protocol"


# --- leaving, silence, heartbeats -----------------------------------------------------------


def played(moves: int, seed: int = 1, **kwargs: Any) -> Table:
    """A table ``moves`` moves into play, its match not over (``in_play``), with the
    acknowledgements still queued delivered."""
    table = in_play(moves, seeds=range(seed, seed + 40), **kwargs)
    for role in Role:
        table.deliver(role, table.sessions[role].outgoing())
    return table


def test_a_peer_that_leaves_ends_the_match_unfinished_without_forfeit() -> None:
    table = played(12, seed=21)
    scores = table.host.lockstep.match.scores  # type: ignore[union-attr]
    events = table.joiner.leave(table.now, "the player closed the window")
    assert isinstance(events[0], Ended) and events[0].ending.how == "left"
    table.deliver(Role.JOINER, table.joiner.outgoing())
    ending = table.host.ending
    assert ending is not None and ending.how == "left" and ending.by is Role.JOINER
    result = table.host.result_json()
    assert result["finished"] is False and result["winner"] is None
    assert result["scores"] == list(scores)  # no forfeit scoring
    record = table.host.record().to_json()
    assert record["end"]["by"] == 1 and record["end"]["role"] == "joiner"
    assert record["end"]["moves"] >= 12 and record["end"]["time"].endswith("Z")
    assert verify_record(record).result["finished"] is False


def test_heartbeats_and_a_silent_peer() -> None:
    table = played(2, silence_timeout=3.0)
    host = table.host
    timer = host.next_timer()
    assert timer is not None and timer <= table.now + 1.0 + 1e-9  # a heartbeat is due first
    table.now += 1.0
    for role in Role:
        session = table.sessions[role]
        assert session.tick(table.now) == []
        pings = session.outgoing()
        assert len(pings) == 1
        table.deliver(role, pings)
    assert table.host.ending is table.joiner.ending is None  # heartbeats keep both alive
    # The joiner falls silent: 3 s after its last heartbeat the host says so.
    table.now += 2.9
    assert host.tick(table.now) == [] and host.ending is None
    table.now += 0.11
    events = [e for e in host.tick(table.now) if isinstance(e, Ended)]
    assert events and events[0].ending.how == "silent" and events[0].ending.by is Role.JOINER
    assert "sent nothing for 3 s" in events[0].ending.reason
    assert host.record().to_json()["end"]["how"] == "silent"


def test_a_dropped_connection_is_recorded() -> None:
    table = played(3)
    events = table.host.connection_lost(table.now, "connection reset")
    assert isinstance(events[0], Ended)
    assert events[0].ending.how == "dropped" and "connection reset" in events[0].ending.reason


def test_a_host_that_leaves_after_the_answer_is_suspicious() -> None:
    table = Table()
    # commit -> joiner; answer -> host; the host now knows the outcome and vanishes.
    table.deliver(Role.HOST, table.host.outgoing())
    answer = table.joiner.outgoing()
    opener = table._wires[Role.JOINER].opener
    kinds = [unpack(opener.decrypt_with_ad(b"", a))["t"] for a in answer]  # type: ignore[index,call-overload]
    assert kinds == ["answer"]
    events = table.joiner.connection_lost(table.now)
    ending = events[0].ending  # type: ignore[union-attr]
    assert ending.stage == "toss" and ending.suspicious and ending.by is Role.HOST
    assert "no re-toss" in ending.reason
    record = table.joiner.record().to_json()
    assert record["end"]["suspicious"] is True and record["deals"] == []
    assert verify_record(record).toss is False


def test_a_joiner_that_leaves_during_the_toss_is_not_suspicious() -> None:
    table = Table()
    table.deliver(Role.HOST, table.host.outgoing())
    events = table.host.connection_lost(table.now)
    ending = events[0].ending  # type: ignore[union-attr]
    assert ending.stage == "toss" and not ending.suspicious and ending.by is Role.JOINER


def test_the_local_side_cannot_move_out_of_turn_or_illegally() -> None:
    from koikoi.engine.round import IllegalAction

    table = Table()
    while table.host.stage is Stage.TOSS or table.joiner.stage is Stage.TOSS:
        table.step()
    mover = table.host if table.host.local_turn is not None else table.joiner
    other = table.joiner if mover is table.host else table.host
    with pytest.raises(ValueError, match="not this seat's move"):
        other.play(0, table.now)
    observation = mover.local_turn
    assert observation is not None
    not_in_hand = next(c for c in range(48) if not observation.hand >> c & 1)
    mover.outgoing()
    seq = mover.lockstep.seq  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=CARD_IDS[not_in_hand]):
        mover.play(play(not_in_hand), table.now)
    assert mover.outgoing() == [] and mover.lockstep.seq == seq  # type: ignore[union-attr]


def test_the_test_vector_in_the_protocol_document() -> None:
    from koikoi.engine.match import Settings
    from tests.conftest import REPO

    doc = " ".join((REPO / "docs" / "protocol.md").read_text(encoding="utf-8").split())
    game = Lockstep(Settings(), first_oya=0, seed=bytes(32), session=bytes(32))
    genesis = game.prev_hash
    state = canonical_state(game.match).hex()
    first = game.match.legal_actions()[0]
    _, deals_before = game.apply(0, first)
    entry = encode_entry(0, genesis, first, game.state_hash())
    assert f"prev_hash of entry 0 {genesis.hex()}" in doc
    # The long hex strings are wrapped in the document: compare them unwrapped.
    flat = doc.replace(" ", "")
    assert state in flat and entry.hex() in flat
    assert state_hash(_fresh().match).hex() in doc
    assert f"seat 0 plays card {first} ({CARD_IDS[first]})" in doc
    assert f"prev_hash of entry 1 {entry_hash(entry).hex()}" in doc


def _no_goodbye_from_the_joiner(sender: Role, messages: list[bytes]) -> list[bytes]:
    if sender is Role.JOINER:
        return [m for m in messages if unpack(m)["t"] != "bye"]  # type: ignore[index,call-overload]
    return messages


@pytest.mark.parametrize("code", ["quit", "timeout", "finished", "cheat", "protocol"])
def test_nothing_the_peer_sends_after_the_last_move_changes_the_result(code: str) -> None:
    """Protocol version 2: the match is over at its last move; a goodbye (or a dispute, or
    anything else) that comes later is not even read."""
    table = Table(tap=_no_goodbye_from_the_joiner, seed=30)
    table.run()
    assert table.joiner.ending is not None and table.joiner.ending.finished
    assert table.host.ending is not None and table.host.ending.finished
    assert table.host.closed
    assert table.inject(Role.JOINER, encode_message("bye", reason=code, detail="no way")) == []
    assert table.host.ending.finished and table.host.result_json()["finished"] is not False


def test_a_peer_that_never_says_goodbye_keeps_nobody_waiting() -> None:
    table = Table(tap=_no_goodbye_from_the_joiner, seed=32, silence_timeout=45.0)
    table.run()
    # The host's match ended at the last move, with no tick and no time passed.
    assert table.host.closed and table.host.next_timer() is None
    assert table.host.ending is not None and table.host.ending.finished
