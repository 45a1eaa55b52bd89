"""``koikoi verify``: a signed record passes, and every kind of tampering is caught and named."""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from koikoi.engine.cards import CARD_IDS
from koikoi.net.identity import Identity
from koikoi.net.lockstep import ack_signed_data, decode_entry, encode_entry, signed_data
from koikoi.net.verify import NotARecord, VerificationFailed, verify_record
from tests.conftest import run_koikoi
from tests.net_support import Table

Record = dict[str, Any]


@pytest.fixture(scope="module")
def record() -> Record:
    # Decks come from a fresh session each run: play until the match has what the tests
    # tamper with (three deals or more, the first two with a few moves each).
    for seed in range(41, 141):
        table = Table(seed=seed)
        table.run()
        assert table.host.ending is not None and table.host.ending.finished
        data = table.host.record().to_json()
        deals = data["deals"]
        if len(deals) >= 3 and all(len(d["actions"]) >= 6 for d in deals[:2]):
            return data
    raise AssertionError("no match with three deals in 100")


def sign(key: Identity, data: bytes) -> str:
    return base64.b64encode(key.sign(data)).decode()


def tampered(record: Record, change: Callable[[Record], None]) -> Record:
    data = copy.deepcopy(record)
    change(data)
    return data


def failure(data: Record) -> str:
    with pytest.raises(VerificationFailed) as info:
        verify_record(data)
    return str(info.value)


def first_action(data: Record, verb: str) -> dict[str, Any]:
    for deal in data["deals"]:
        for action in deal["actions"]:
            if verb in action:
                return action  # type: ignore[no-any-return]
    raise AssertionError(f"no {verb} in the record")


def test_an_honest_record_passes(record: Record) -> None:
    report = verify_record(record)
    assert report.toss and report.result["finished"] is True
    assert report.moves == sum(len(d["actions"]) for d in record["deals"])
    assert [p["role"] for p in report.players] == ["host", "joiner"]


def test_records_of_protocol_version_1_still_verify_and_others_do_not(record: Record) -> None:
    assert record["net"]["protocol"] == "koikoi-net/2"
    old = tampered(record, lambda data: data["net"].update(protocol="koikoi-net/1"))
    assert verify_record(old).result["finished"] is True
    future = tampered(record, lambda data: data["net"].update(protocol="koikoi-net/5"))
    assert "net.protocol is 'koikoi-net/5'" in failure(future)
    unnamed = tampered(record, lambda data: data["net"].update(protocol="koikoi-net/3"))
    assert "net.dealing is missing in a record of koikoi-net/3" in failure(unnamed)


def test_a_changed_card_is_named(record: Record) -> None:
    def change(data: Record) -> None:
        action = data["deals"][1]["actions"][2]
        verb = next(v for v in ("play", "pick") if v in action)
        action[verb] = next(c for c in CARD_IDS if c != action[verb])

    reason = failure(tampered(record, change))
    assert reason.startswith("deal 1 action 2 (move ")
    assert "the signed entry holds" in reason


def test_changed_entry_bytes_are_caught(record: Record) -> None:
    def change(data: Record) -> None:
        action = data["deals"][0]["actions"][3]
        raw = bytearray(base64.b64decode(action["entry"]))
        raw[-1] ^= 1  # the state hash
        action["entry"] = base64.b64encode(bytes(raw)).decode()

    reason = failure(tampered(record, change))
    assert reason.startswith("deal 0 action 3 ") and "signature does not verify" in reason


def test_a_re_signed_lie_about_the_state_is_caught(record: Record) -> None:
    # Whoever holds seat 0's key could sign anything; the replay still disagrees with it.
    key = Identity.generate()

    def change(data: Record) -> None:
        data["net"]["players"][0]["key"] = base64.b64encode(key.public_key).decode()
        shake = data["net"]["handshake"][0]
        shake["sig"] = sign(key, base64.b64decode(shake["signed"]))
        session = base64.b64decode(data["net"]["session"])
        for deal in data["deals"]:
            for action in deal["actions"]:
                if action["seat"] == 0:
                    raw = base64.b64decode(action["entry"])
                    action["sig"] = sign(key, signed_data(raw))
                elif "ack" in action:
                    ack = base64.b64decode(action["ack"])
                    action["ack_sig"] = sign(key, ack_signed_data(session, ack))
        target = data["deals"][where[0]]["actions"][where[1]]
        entry = decode_entry(base64.b64decode(target["entry"]))
        raw = encode_entry(entry.seq, entry.prev_hash, entry.action, bytes(32))
        target["entry"] = base64.b64encode(raw).decode()
        target["sig"] = base64.b64encode(key.sign(signed_data(raw))).decode()

    where = next(
        (i, j)
        for i, deal in enumerate(record["deals"])
        for j, action in enumerate(deal["actions"])
        if action["seat"] == 0
    )
    reason = failure(tampered(record, change))
    assert reason.startswith(f"deal {where[0]} action {where[1]} (move ")
    assert "state hash differs" in reason


def test_a_bad_signature_is_caught(record: Record) -> None:
    def change(data: Record) -> None:
        action = data["deals"][0]["actions"][1]
        sig = bytearray(base64.b64decode(action["sig"]))
        sig[0] ^= 0x80
        action["sig"] = base64.b64encode(bytes(sig)).decode()

    assert "signature does not verify against seat" in failure(tampered(record, change))


def test_swapped_seats_are_caught(record: Record) -> None:
    def change(data: Record) -> None:
        data["net"]["players"][0]["key"], data["net"]["players"][1]["key"] = (
            data["net"]["players"][1]["key"],
            data["net"]["players"][0]["key"],
        )

    assert "signature does not verify" in failure(tampered(record, change))


def test_a_removed_move_breaks_the_chain(record: Record) -> None:
    reason = failure(tampered(record, lambda data: data["deals"][0]["actions"].pop(1)))
    assert reason.startswith("deal 0 action 1 ") and "sequence number 2 where 1 is due" in reason


def test_swapped_moves_are_caught(record: Record) -> None:
    def change(data: Record) -> None:
        actions = data["deals"][0]["actions"]
        actions[1], actions[2] = actions[2], actions[1]

    assert failure(tampered(record, change)).startswith("deal 0 action 1 ")


def test_a_missing_signature_is_caught(record: Record) -> None:
    reason = failure(tampered(record, lambda data: data["deals"][0]["actions"][0].pop("sig")))
    assert reason.startswith("deal 0 action 0 ") and "no signed log entry" in reason


def test_a_changed_deal_is_caught(record: Record) -> None:
    def change(data: Record) -> None:
        deal = data["deals"][1]
        deal["stock"][0], deal["field"][0] = deal["field"][0], deal["stock"][0]

    assert failure(tampered(record, change)) == (
        "deal 1 action -: the cards are not the deal the joint seed gives"
    )


def test_a_changed_toss_is_caught(record: Record) -> None:
    def new_random(data: Record) -> None:
        data["net"]["toss"]["joiner_random"] = base64.b64encode(bytes(32)).decode()

    def host_random(data: Record) -> None:
        data["net"]["toss"]["host_random"] = base64.b64encode(bytes(32)).decode()

    def other_oya(data: Record) -> None:
        data["first_oya"] = 1 - data["first_oya"]

    reason = failure(tampered(record, new_random))  # another seed: another oya or deal
    assert reason.startswith(("coin toss: ", "deal 0 action -")), reason
    assert "does not match its commitment" in failure(tampered(record, host_random))
    assert "coin toss: first_oya is" in failure(tampered(record, other_oya))


def test_changed_settings_are_caught(record: Record) -> None:
    def change(data: Record) -> None:
        data["settings"]["doubling"] = not data["settings"]["doubling"]

    # Both players signed the settings in the handshake; a version 1 record, which has no
    # handshake signatures, still fails at the first move's state hash.
    assert "settings statement over this session id and these settings" in failure(
        tampered(record, change)
    )

    def old(data: Record) -> None:
        change(data)
        data["net"]["protocol"] = "koikoi-net/1"

    assert "state hash differs" in failure(tampered(record, old))


def test_a_cut_record_claiming_to_be_finished_is_caught(record: Record) -> None:
    def change(data: Record) -> None:
        data["deals"].pop()
        while not data["deals"][-1]["actions"]:  # a deal that ended at once has no actions
            data["deals"].pop()
        data["deals"][-1]["actions"].pop()

    assert "do not end it" in failure(tampered(record, change))


def test_a_cut_record_that_says_so_passes(record: Record) -> None:
    long_deal = next(i for i, deal in enumerate(record["deals"]) if len(deal["actions"]) > 5)
    kept = sum(len(deal["actions"]) for deal in record["deals"][:long_deal]) + 5

    def change(data: Record) -> None:
        data["deals"] = data["deals"][: long_deal + 1]
        data["deals"][-1]["actions"] = data["deals"][-1]["actions"][:5]
        data["end"] = {"finished": False, "how": "left", "by": 1}

    report = verify_record(tampered(record, change))
    assert report.moves == kept and report.result["finished"] is False
    assert report.result["rounds"][-1] == {"result": "in_progress"}


def test_not_a_record(record: Record) -> None:
    with pytest.raises(NotARecord):
        verify_record({"format": "koikoi-record/2"})
    assert "no network signatures" in failure(tampered(record, lambda data: data.pop("net")))
    assert "net.session" in failure(
        tampered(record, lambda data: data["net"].__setitem__("session", "***"))
    )


def test_the_command(record: Record, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    proc = run_koikoi("verify", str(good))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["valid"] is True
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered(record, lambda data: data["deals"][0]["actions"].pop(0))))
    proc = run_koikoi("verify", str(bad))
    assert proc.returncode == 1
    assert proc.stderr.startswith("koikoi: verify: deal 0 action 0 (move 0,")
    proc = run_koikoi("verify", "-", stdin=json.dumps(record))
    assert proc.returncode == 0


def test_a_record_without_its_last_turn_shobu_verifies_as_replay_reads_it(tmp_path: Path) -> None:
    """CLI.md: on a round's last turn the ``{"koikoi": false}`` may be absent. ``verify``
    then plays that shobu on a copy of the replayed match, on the compiled core as the
    command runs (a deep copy of its round failed there with a traceback)."""
    from tests.conftest import REPO

    whole = json.loads((REPO / "tests" / "data" / "net" / "v3_seed.json").read_text("utf-8"))
    cut = copy.deepcopy(whole)
    last = cut["deals"][-1]["actions"].pop()
    assert last["koikoi"] is False
    for name, record in (("whole", whole), ("cut", cut)):
        (tmp_path / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
    said = {}
    for name in ("whole", "cut"):
        proc = run_koikoi("verify", str(tmp_path / f"{name}.json"))
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        said[name] = json.loads(proc.stdout)
    assert said["cut"]["valid"] is True and said["cut"]["finished"] is True
    for key in ("rounds", "scores", "winner"):
        assert said["cut"][key] == said["whole"][key]
    replayed = json.loads(run_koikoi("replay", str(tmp_path / "cut.json")).stdout)
    assert replayed["rounds"] == said["cut"]["rounds"]
