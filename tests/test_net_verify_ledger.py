"""The signed record proves who signed what (issue 12, findings 3 and 4).

Both players' handshake signatures over the session id are in every record, so a key that did
not sign a session cannot appear in its record; every accepted move is acknowledged by a signed
``ack``; ``verify`` keeps what signatures prove apart from what one side claims; ``verify A B``
names a key that signed two different entries for one move.
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from koikoi.engine.match import Settings
from koikoi.engine.round import KOIKOI, SHOBU, IllegalAction
from koikoi.net.errors import BadSignature
from koikoi.net.handshake import Handshake, session_statement
from koikoi.net.identity import Identity, KnownPeers, fingerprint, verify_signature
from koikoi.net.lockstep import (
    Lockstep,
    ack_signed_data,
    decode_ack,
    decode_entry,
    encode_ack,
    entry_hash,
)
from koikoi.net.roles import Role
from koikoi.net.session.acks import LAST_ACK_GRACE
from koikoi.net.session.core import Session
from koikoi.net.session.events import Ended
from koikoi.net.transport.options import PeerOptions
from koikoi.net.verify import VerificationFailed, compare_records, verify_record
from koikoi.net.wire import encode_message, unpack
from tests.conftest import run_koikoi
from tests.net_support import Table, resign, spawn
from tests.test_net_handshake import pair as handshake_pair
from tests.test_net_handshake import run as handshake_run

Record = dict[str, Any]


def b64d(text: str) -> bytes:
    return base64.b64decode(text)


def b64e(data: bytes) -> str:
    return base64.b64encode(data).decode()


def actions_of(record: Record) -> list[dict[str, Any]]:
    return [action for deal in record["deals"] for action in deal["actions"]]


def failure(data: Record) -> str:
    with pytest.raises(VerificationFailed) as info:
        verify_record(data)
    return str(info.value)


def finished_table(seed: int = 3) -> Table:
    table = Table(seed=seed)
    table.run()
    assert table.host.ending is not None and table.host.ending.finished
    assert table.joiner.ending is not None and table.joiner.ending.finished
    return table


def table_after_the_toss() -> Table:
    """A session whose toss is done and where nobody moved yet."""
    table = Table(seed=5)
    while table.host.lockstep is None or table.joiner.lockstep is None:
        for role in Role:
            table.deliver(role, table.sessions[role].outgoing())
    return table


@pytest.fixture(scope="module")
def victim() -> Record:
    """A real record: its joiner is the victim whose key a forger copies."""
    return finished_table(seed=4).joiner.record().to_json()


# --- 1. both identities' handshake signatures in every record --------------------------------


def test_every_record_carries_both_handshake_signatures_over_its_session() -> None:
    table = finished_table()
    records = [table.sessions[role].record().to_json() for role in Role]
    assert records[0]["net"] == records[1]["net"]
    shakes = records[0]["net"]["handshake"]
    assert [shake["role"] for shake in shakes] == ["host", "joiner"]
    report = verify_record(records[0])
    assert report.handshake is True
    proven = report.to_json()["proven"]
    assert proven["handshake"] is True
    assert [p["signed_session"] for p in proven["players"]] == [True, True]


def test_a_record_without_moves_naming_a_victims_key_fails(victim: Record) -> None:
    table = table_after_the_toss()
    table.joiner.leave(table.now)
    table.deliver(Role.JOINER, table.joiner.outgoing())
    honest = table.host.record().to_json()
    assert actions_of(honest) == [] and verify_record(honest).handshake is True

    victim_key = victim["net"]["players"][1]["key"]
    # The forger names the victim as its joiner and copies the victim's handshake signature.
    copied = copy.deepcopy(honest)
    copied["net"]["players"][1].update(key=victim_key, nick=victim["net"]["players"][1]["nick"])
    copied["net"]["handshake"][1] = victim["net"]["handshake"][1]
    assert "is not the joiner's settings statement over this session id" in failure(copied)
    # ... or keeps the statement of its own session, with the victim's signature.
    kept = copy.deepcopy(copied)
    kept["net"]["handshake"][1]["signed"] = honest["net"]["handshake"][1]["signed"]
    reason = failure(kept)
    assert (
        reason.startswith("handshake: the joiner's key (") and "did not sign this session" in reason
    )
    assert fingerprint(b64d(victim_key)) in reason
    # ... or drops the handshake block.
    bare = copy.deepcopy(copied)
    del bare["net"]["handshake"]
    assert "no handshake signatures" in failure(bare)


def test_a_version_1_record_still_reads_with_the_handshake_not_proven(victim: Record) -> None:
    old = copy.deepcopy(victim)
    old["net"]["protocol"] = "koikoi-net/1"
    del old["net"]["handshake"]
    for action in actions_of(old):  # version 1 had no acknowledgements
        del action["ack"], action["ack_sig"]
    report = verify_record(old).to_json()
    assert report["valid"] is True and report["finished"] is True
    assert report["proven"]["handshake"] is False
    assert [p["signed_session"] for p in report["proven"]["players"]] == [False, False]
    assert "koikoi-net/1" in report["claims"]["players"]
    # A version 1 record naming a key without its moves proves nothing about that key.
    table = table_after_the_toss()
    table.joiner.leave(table.now)
    table.deliver(Role.JOINER, table.joiner.outgoing())
    forged = table.host.record().to_json()
    forged["net"]["protocol"] = "koikoi-net/1"
    del forged["net"]["handshake"]
    forged["net"]["players"][1]["key"] = victim["net"]["players"][1]["key"]
    report = verify_record(forged).to_json()
    victim_proven = report["proven"]["players"][1]
    assert victim_proven["signed_session"] is False and victim_proven["moves"] == 0
    assert victim_proven["signed_to"] is None and report["proven"]["toss"] == "not signed"


# --- 2. signed acknowledgements ------------------------------------------------------------


def test_every_move_is_acknowledged_in_both_records_the_last_one_too() -> None:
    table = finished_table(seed=6)
    host, joiner = (table.sessions[role].record().to_json() for role in Role)
    assert host["deals"] == joiner["deals"]
    for role in Role:  # each side's ending came once its record was complete
        assert table.ended(role).ending.finished
    actions = actions_of(host)
    assert actions and all("ack" in a and "ack_sig" in a for a in actions)
    session = b64d(host["net"]["session"])
    for seq, action in enumerate(actions):
        acked, head = decode_ack(b64d(action["ack"]))
        assert acked == seq and len(head) == 32
    assert decode_ack(b64d(actions[-1]["ack"]))[0] == len(actions) - 1
    report = verify_record(host).to_json()["proven"]
    assert report["agreed_to"] == len(actions) - 1
    assert [p["signed_to"] for p in report["players"]] == [len(actions) - 1] * 2
    assert len(session) == 32


def _drop(kind: str, sender: Role) -> Any:
    def tap(role: Role, messages: list[bytes]) -> list[bytes]:
        if role is not sender:
            return messages
        return [m for m in messages if unpack(m)["t"] != kind]  # type: ignore[index,call-overload]

    return tap


def test_a_move_without_the_acknowledgement_of_the_last_one_is_refused() -> None:
    table = Table(seed=7, tap=_drop("ack", Role.JOINER))
    table.run()
    ending = table.host.ending
    assert ending is not None and ending.how == "cheat" and ending.by is Role.JOINER
    assert "the peer moved without acknowledging move" in ending.reason


def _ack_tap(change: str) -> Any:
    liar = Identity.generate()

    def tap(role: Role, messages: list[bytes]) -> list[bytes]:
        if role is not Role.JOINER:
            return messages
        out = []
        for message in messages:
            value = unpack(message)
            assert isinstance(value, dict)
            if value["t"] == "ack":
                raw, sig = value["ack"], value["sig"]
                assert isinstance(raw, bytes) and isinstance(sig, bytes)
                seq, head = decode_ack(raw)
                if change == "head":
                    raw = encode_ack(seq, bytes(32))
                elif change == "seq":
                    raw = encode_ack(seq + 1, head)
                else:
                    sig = liar.sign(b"koikoi-net/1 ack\0" + raw)
                message = encode_message("ack", ack=raw, sig=sig)
            out.append(message)
        return out

    return tap


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("head", "with another hash than the entry sent"),
        ("seq", "where move"),
        ("sig", "signature over the acknowledgement of move"),
    ],
)
def test_a_false_acknowledgement_is_caught(change: str, said: str) -> None:
    table = Table(seed=8, tap=_ack_tap(change))
    table.run()
    ending = table.host.ending
    assert ending is not None and ending.how == "cheat" and ending.by is Role.JOINER
    assert "the peer's acknowledgement of move" in ending.reason and said in ending.reason


def test_a_tampered_acknowledgement_in_a_record_is_caught() -> None:
    record = finished_table(seed=9).host.record().to_json()
    action = actions_of(record)[2]
    sig = bytearray(b64d(action["ack_sig"]))
    sig[5] ^= 1
    action["ack_sig"] = b64e(bytes(sig))
    assert "the acknowledgement's signature does not verify" in failure(record)
    record = finished_table(seed=9).host.record().to_json()
    first, second = actions_of(record)[1:3]
    second["ack"], second["ack_sig"] = first["ack"], first["ack_sig"]
    assert "the acknowledgement does not name this entry" in failure(record)


def test_a_withheld_last_acknowledgement_keeps_the_mover_at_most_a_moment() -> None:
    for seed in range(10, 80):
        table = Table(seed=seed)
        table.tap = _withhold_after_the_end(table)
        table.run()
        if not table.host.closed:  # the host moved last and waits for its acknowledgement
            break
    else:
        raise AssertionError("the host never moved last")
    host = table.host
    assert host.ending is not None and host.ending.finished  # final at once
    assert host.result_json()["finished"] is True
    assert not [e for e in table.events[Role.HOST] if isinstance(e, Ended)]
    assert host.next_timer() == pytest.approx(table.now + LAST_ACK_GRACE)
    assert host.tick(table.now + LAST_ACK_GRACE / 2) == [] and not host.closed
    assert host.tick(table.now + LAST_ACK_GRACE) == [Ended(host.ending)]
    assert host.closed and host.next_timer() is None and host.ending.finished
    record = host.record().to_json()
    assert "ack" not in actions_of(record)[-1]
    report = verify_record(record).to_json()
    assert report["finished"] is True
    actions = actions_of(record)
    signed = max(n for n, a in enumerate(actions) if a["seat"] == 1 or "ack" in a)
    assert report["proven"]["players"][1]["signed_to"] == signed < len(actions) - 1


def test_a_connection_lost_while_waiting_for_the_last_acknowledgement_ends_finished() -> None:
    for seed in range(10, 80):
        table = Table(seed=seed)
        table.tap = _withhold_after_the_end(table)
        table.run()
        if not table.host.closed:
            break
    else:
        raise AssertionError("the host never moved last")
    host = table.host
    assert host.unacknowledged and host.unacknowledged[-1] == len(host.lockstep.heads) - 1  # type: ignore[union-attr]
    (ended,) = host.connection_lost(table.now, "reset")
    assert isinstance(ended, Ended) and ended.ending.finished and ended.ending.how == "finished"
    assert host.closed and host.leave(table.now) == [] and host.ending is ended.ending


def _withhold_after_the_end(table: Table) -> Any:
    def tap(role: Role, messages: list[bytes]) -> list[bytes]:
        if role is Role.JOINER and table.joiner.ending is not None:
            # neither the acknowledgement of the last move nor a goodbye
            return [m for m in messages if unpack(m)["t"] not in ("ack", "bye")]  # type: ignore[index,call-overload,operator]
        return messages

    return tap


# --- 3. verify keeps proven and claimed apart ----------------------------------------------

CLAIM_KEYS = {"nick", "nicks", "end", "how", "by", "reason", "rejected", "stage", "time"}


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_claims_are_labelled_as_claims_and_change_nothing_proven(tmp_path: Path) -> None:
    table = finished_table(seed=11)
    record = table.host.record().to_json()
    honest = verify_record(record).to_json()
    assert not _keys(honest["proven"]) & CLAIM_KEYS
    assert honest["claims"]["nicks"] == ["host", "joiner"]
    assert honest["claims"]["end"]["how"] == "finished"

    lie = copy.deepcopy(record)
    lie["net"]["players"][1]["nick"] = "mallory"
    lie["end"] = {
        "finished": False,
        "how": "cheat",
        "by": 1,
        "role": "joiner",
        "reason": "the joiner cheated (it did not)",
        "stage": "play",
        "moves": 3,
        "time": "2026-01-01T00:00:00.000Z",
        "rejected": {"entry": b64e(b"\x94"), "sig": b64e(bytes(64))},
    }
    path = tmp_path / "lie.json"
    path.write_text(json.dumps(lie))
    proc = run_koikoi("verify", str(path))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    # Nothing one side says changes the proof; its rejected bytes are not the joiner's.
    assert report["proven"].pop("evidence") == {"seat": 1, "signed": False}
    assert report["proven"] == honest["proven"]
    assert report["proven"]["finished"] is True and report["finished"] is True
    assert report["claims"]["note"] == "what the record's writer says: no signature proves it"
    assert report["claims"]["nicks"] == ["host", "mallory"]
    assert report["claims"]["end"] == lie["end"]
    assert not _keys(report["proven"]) & CLAIM_KEYS


# --- 4. verify A B ---------------------------------------------------------------------------


def _loser_table() -> tuple[Table, int]:
    """A finished match the joiner won, in which the host (the loser) said shobu where it
    could have said koikoi: the sequence number of the last such shobu."""
    for seed in range(100, 400):
        table = finished_table(seed=seed)
        if table.host.result_json()["winner"] != 1:
            continue
        actions = actions_of(table.host.record().to_json())
        shobus = [n for n, a in enumerate(actions) if a["seat"] == 0 and a.get("koikoi") is False]
        for seq in reversed(shobus):
            try:
                _rewrite_the_ending(table, seq)
            except IllegalAction:  # shobu on the last turn (R7.3): koikoi was not a choice
                continue
            return table, seq
    raise AssertionError("no match where the losing host said shobu")


def _rewrite_the_ending(table: Table, seq: int) -> Record:
    """The loser's record re-signed from move ``seq``: koikoi instead of shobu, then "the
    joiner left". Every signature in it is genuine (the loser signs its own new entry)."""
    record = table.host.record().to_json()
    net = record["net"]
    lockstep = Lockstep(
        Settings(**record["settings"]), record["first_oya"], b64d(net["seed"]), b64d(net["session"])
    )
    actions = actions_of(record)
    for action in actions[:seq]:
        entry = decode_entry(b64d(action["entry"]))
        _, before = lockstep.apply(action["seat"], entry.action)
        lockstep.commit(entry, b64d(action["sig"]), action["seat"], before)
        lockstep.actions[-1].update(ack=action["ack"], ack_sig=action["ack_sig"])
    entry = decode_entry(b64d(actions[seq]["entry"]))
    assert entry.action == SHOBU
    lockstep.sign_move(table.identities[Role.HOST], 0, KOIKOI)
    forged = lockstep.record.to_json()
    forged["net"] = net
    forged["end"] = {
        "finished": False,
        "how": "left",
        "by": 1,
        "role": "joiner",
        "reason": "the peer left",
        "stage": "play",
        "moves": seq + 1,
        "time": "2026-01-01T00:00:00.000Z",
    }
    return forged


def test_a_loser_re_signing_its_last_moves_is_named_by_verify_a_b(tmp_path: Path) -> None:
    table, seq = _loser_table()
    winner = table.joiner.record().to_json()
    forged = _rewrite_the_ending(table, seq)
    # Alone, the rewritten record verifies: its signatures are all real.
    alone = verify_record(forged).to_json()
    assert alone["finished"] is False and alone["claims"]["end"]["how"] == "left"
    assert alone["proven"]["players"][1]["signed_to"] == seq - 1  # the winner never saw it
    paths = tmp_path / "winner.json", tmp_path / "loser.json"
    paths[0].write_text(json.dumps(winner))
    paths[1].write_text(json.dumps(forged))
    proc = run_koikoi("verify", str(paths[1]))
    assert proc.returncode == 0, proc.stderr
    # Side by side, the loser's key signed two different entries for one move.
    proc = run_koikoi("verify", str(paths[0]), str(paths[1]))
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1
    loser_key = table.identities[Role.HOST].public_key
    assert f"the host's key {fingerprint(loser_key)} ('host'" in line
    assert f"signed two different entries for move {seq}:" in line
    assert "shobu" in line and "koikoi" in line
    assert json.loads(proc.stdout)["valid"] is False


def test_verify_a_b_agrees_on_two_honest_records_and_a_cut_one(tmp_path: Path) -> None:
    table = finished_table(seed=12)
    host, joiner = (table.sessions[role].record().to_json() for role in Role)
    paths = [tmp_path / "host.json", tmp_path / "joiner.json", tmp_path / "cut.json"]
    cut = copy.deepcopy(joiner)
    # the deck is random (the session's keys are): the first deal may be a teyaku, no moves
    at = next(i for i, deal in enumerate(cut["deals"]) if len(deal.get("actions", [])) >= 3)
    before = sum(len(deal.get("actions", [])) for deal in cut["deals"][:at])
    cut["deals"] = cut["deals"][: at + 1]
    cut["deals"][at]["actions"] = cut["deals"][at]["actions"][:3]
    cut["end"] = {"finished": False, "how": "dropped", "by": 0}
    for path, data in zip(paths, (host, joiner, cut), strict=True):
        path.write_text(json.dumps(data))
    proc = run_koikoi("verify", str(paths[0]), str(paths[1]))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["valid"] is True and report["agree"] is True
    assert report["common_moves"] == len(actions_of(host))
    assert [r["finished"] for r in report["records"]] == [True, True]
    proc = run_koikoi("verify", str(paths[0]), str(paths[2]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["common_moves"] == before + 3


def test_verify_a_b_of_two_sessions_says_so_in_one_line(tmp_path: Path) -> None:
    paths = [tmp_path / "one.json", tmp_path / "two.json"]
    for seed, path in zip((13, 14), paths, strict=True):
        path.write_text(json.dumps(finished_table(seed=seed).host.record().to_json()))
    proc = run_koikoi("verify", *map(str, paths))
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"koikoi: verify: {paths[0]} and {paths[1]} are records of different sessions: "
        "nothing to compare"
    ]
    # A record that fails on its own is named with its file.
    bad = json.loads(paths[1].read_text())
    actions_of(bad)[0]["sig"] = b64e(bytes(64))
    paths[1].write_text(json.dumps(bad))
    proc = run_koikoi("verify", *map(str, paths))
    assert proc.returncode == 1 and proc.stderr.startswith(f"koikoi: verify: {paths[1]}: deal ")
    assert run_koikoi("verify", "-", "-").returncode == 2


def test_verify_a_b_names_an_acknowledgement_of_two_entries_too() -> None:
    # Had the winner also acknowledged the loser's rewritten move, its key would have signed
    # acknowledgements of two different entries for that move: both keys are named.
    table, seq = _loser_table()
    forged = _rewrite_the_ending(table, seq)
    action = actions_of(forged)[seq]
    session = b64d(forged["net"]["session"])
    ack = encode_ack(seq, entry_hash(b64d(action["entry"])))
    action["ack"] = b64e(ack)
    action["ack_sig"] = b64e(table.identities[Role.JOINER].sign(ack_signed_data(session, ack)))
    a = verify_record(table.joiner.record().to_json())
    b = verify_record(forged)
    with pytest.raises(VerificationFailed) as info:
        compare_records(a, b)
    reason = str(info.value)
    assert f"the host's key {fingerprint(table.identities[Role.HOST].public_key)}" in reason
    assert f"signed two different entries for move {seq};" in reason
    assert f"the joiner's key {fingerprint(table.identities[Role.JOINER].public_key)}" in reason
    assert f"signed acknowledgements of two different entries for move {seq}:" in reason


# --- 5. finding 3(a): a dispute after the last move changes nothing --------------------------


def _dispute_after_the_end(table: Table, loser: Role) -> Any:
    def tap(role: Role, messages: list[bytes]) -> list[bytes]:
        out = []
        for message in messages:
            if role is loser and unpack(message)["t"] == "bye":  # type: ignore[index,call-overload]
                message = encode_message("bye", reason="cheat", detail="you cheated, I saw it")
            out.append(message)
        return out

    return tap


def test_bye_cheat_after_the_last_move_leaves_the_win_finished_in_both_records() -> None:
    for seed in range(20, 40):
        table = Table(seed=seed)
        table.tap = _dispute_after_the_end(table, Role.JOINER)
        table.run()
        if table.host.result_json()["winner"] == 0:
            break
    else:
        raise AssertionError("the host never won")
    sent = [unpack(m) for m in table.sent[Role.JOINER]]
    assert sent[-1] == {"t": "bye", "reason": "finished"}  # what the tap turned into a dispute
    for role in Role:
        session = table.sessions[role]
        assert session.ending is not None and session.ending.finished, role
        result = session.result_json()
        assert result["finished"] is True and result["winner"] == 0
        record = session.record().to_json()
        assert record["end"]["finished"] is True
        assert verify_record(record).to_json()["proven"]["winner"] == 0
    assert not [
        e for e in table.events[Role.HOST] if isinstance(e, Ended) and not e.ending.finished
    ]


async def _dispute_joiner(port: int, seed: int) -> Session:
    """A joiner (built on the project's modules) that plays a whole match with random moves
    and then says ``bye cheat`` where ``bye finished`` is due."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = PeerOptions(
        identity=Identity.generate(),
        nickname="taro",
        settings=Settings(),
        known_peers=KnownPeers(None),
    ).connection(Role.JOINER, loop.time())
    rng = random.Random(seed)
    conn.start()
    patched = False
    while not conn.closed:
        session = conn.session
        if session is not None and not patched:
            patched = True
            send = session._send

            def dispute(message: bytes, send: Any = send) -> None:
                if unpack(message) == {"t": "bye", "reason": "finished"}:
                    message = encode_message("bye", reason="cheat", detail="you cheated")
                send(message)

            session._send = dispute  # type: ignore[method-assign]
        observation = conn.local_turn
        if observation is not None:
            conn.play(rng.choice(observation.legal_actions), loop.time())
        writer.write(conn.data_to_send())
        if conn.closed:
            break
        if conn.local_turn is not None:
            continue
        data = await reader.read(65536)
        if not data:
            conn.connection_lost(loop.time())
            break
        conn.receive_data(data, loop.time())
    writer.write(conn.data_to_send())
    await writer.drain()
    writer.close()
    assert conn.session is not None
    return conn.session


def test_bye_cheat_after_the_last_move_leaves_the_cli_result_finished(tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    host = spawn(
        tmp_path / "host", "host", "--port", "0", "--bind", "127.0.0.1", "--name", "hana",
        "--bot", "random", "--record", str(record), "--dealing", "seed",  # the joiner's offer
    )  # fmt: skip
    try:
        joiner = asyncio.run(_dispute_joiner(host.port(), seed=1))
        assert host.wait(60) == 0, host.stderr
    finally:
        host.kill()
    assert joiner.ending is not None and joiner.ending.finished
    end = joiner.result_json()
    winner, scores = end["winner"], end["scores"]
    # the host's bot plays at random: a match may end drawn, 25-25, with no winner
    assert sum(scores) == 50 and (winner is None) == (scores[0] == scores[1])
    result = host.result()
    assert result["finished"] is True
    assert (result["winner"], result["scores"]) == (winner, scores)
    saved = json.loads(record.read_text())
    assert saved["end"]["finished"] is True
    proven = verify_record(saved).to_json()["proven"]
    assert (proven["winner"], proven["scores"]) == (winner, scores)
    assert joiner.record().to_json()["end"]["finished"] is True


# --- the handshake: both signatures cover the session id, in both kinds of room --------------


@pytest.mark.parametrize("password", ["", "sesame"])
def test_both_sides_hold_both_signatures_over_the_session_id(password: str) -> None:
    _, _, host_shake, joiner_shake = handshake_pair(password, password)
    host, joiner = handshake_run(host_shake, joiner_shake).established()
    assert host.handshake_hash == joiner.handshake_hash
    assert host.session_signatures == joiner.session_signatures
    # The joiner signed the session id itself in noise3; the host signed it in ready.
    assert host.peer_signed_hash == joiner.peer_signed_hash == host.handshake_hash
    keys = (host_shake.identity.public_key, joiner_shake.identity.public_key)
    for role, key, signature in zip(Role, keys, host.session_signatures, strict=True):
        assert verify_signature(
            key, signature, session_statement(role, host.handshake_hash, host.settings)
        )


class _HostSigningAnotherSession(Handshake):
    """A host whose ``ready`` signs some other session id."""

    def _settings_signature(self, handshake_hash: bytes) -> bytes:
        if handshake_hash == self._session_id:
            handshake_hash = bytes(32)
        return super()._settings_signature(handshake_hash)


def test_a_host_that_does_not_sign_the_session_in_ready_is_refused() -> None:
    host = _HostSigningAnotherSession(
        Role.HOST,
        identity=Identity.generate(),
        nickname="hana",
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
    )
    _, _, _, joiner = handshake_pair()
    outcome = handshake_run(host, joiner)
    assert isinstance(outcome.joiner_error, BadSignature)
    assert str(outcome.joiner_error) == (
        "'hana''s signature over the session in ready does not verify"
    )
    assert joiner.result is None


# --- the rejected move of a cheat: what its signature proves ---------------------------------


def _lying_joiner(table_ref: list[Table], at: int) -> Any:
    seen = [0]

    def tap(role: Role, messages: list[bytes]) -> list[bytes]:
        if role is not Role.JOINER:
            return messages
        out = []
        for message in messages:
            if unpack(message)["t"] == "move":  # type: ignore[index,call-overload]
                seen[0] += 1
                if seen[0] == at:
                    identity = table_ref[0].identities[Role.JOINER]
                    message = resign(message, identity, state_hash=bytes(32))
            out.append(message)
        return out

    return tap


def test_a_cheat_whose_signed_move_fails_is_proven_and_a_made_up_one_is_not() -> None:
    for seed in range(15, 35):  # a match over before the joiner's third move: another
        ref: list[Table] = []
        table = Table(seed=seed, tap=_lying_joiner(ref, 3))
        ref.append(table)
        table.run()
        ending = table.host.ending
        if ending is None or ending.how != "finished":
            break
    assert ending is not None and ending.how == "cheat" and ending.by is Role.JOINER
    record = table.host.record().to_json()
    evidence = verify_record(record).to_json()["proven"]["evidence"]
    assert evidence == {
        "seat": 1,
        "signed": True,
        "move": ending.moves,
        "fails": "the state hash differs from the state after the move",
    }
    # An honest record cut before one of the joiner's moves, that move shown as "rejected":
    # the joiner's signature is real, and the move checks, so the cheat is not proven.
    honest = finished_table(seed=16).host.record().to_json()
    actions = actions_of(honest)
    n = next(i for i, a in enumerate(actions) if a["seat"] == 1 and i > 2)
    deal, index = next(
        (i, j)
        for i, d in enumerate(honest["deals"])
        for j, a in enumerate(d["actions"])
        if a is actions[n]
    )
    honest["deals"] = honest["deals"][: deal + 1]
    honest["deals"][deal]["actions"] = honest["deals"][deal]["actions"][:index]
    honest["end"] = {
        "finished": False,
        "how": "cheat",
        "by": 1,
        "rejected": {"entry": actions[n]["entry"], "sig": actions[n]["sig"]},
    }
    report = verify_record(honest).to_json()
    assert report["proven"]["evidence"] == {"seat": 1, "signed": True, "move": n, "fails": None}
    assert report["claims"]["end"]["how"] == "cheat"


def test_the_acknowledgement_test_vector_in_the_protocol_document() -> None:
    from koikoi.engine.round import PICK_BASE
    from koikoi.net.lockstep import encode_entry
    from tests.conftest import REPO

    doc = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
    flat = "".join(doc.split())
    game = Lockstep(Settings(), first_oya=0, seed=bytes(32), session=bytes(32))
    genesis = game.prev_hash
    first = game.match.legal_actions()[0]
    assert first < PICK_BASE
    game.apply(0, first)
    entry = encode_entry(0, genesis, first, game.state_hash())
    ack = encode_ack(0, entry_hash(entry))
    key = Identity.from_private_bytes(bytes(range(32)))
    signature = key.sign(ack_signed_data(bytes(32), ack))
    assert f"seat1acknowledgesentry0withtheack{ack.hex()}" in flat
    assert key.public_key.hex() in flat and f"itssigis{signature.hex()}" in flat
    assert decode_ack(ack) == (0, entry_hash(entry))
