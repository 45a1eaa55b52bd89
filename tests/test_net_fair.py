"""The commit-reveal coin toss for the first oya and the joint seed (RULES.md R3.2)."""

from __future__ import annotations

import hashlib
import os

import pytest

from koikoi.net.errors import CheatDetected, ProtocolError
from koikoi.net.fair import (
    CoinToss,
    TossPhase,
    TossResult,
    commitment,
    first_oya,
    joint_seed,
)
from koikoi.net.roles import Role
from koikoi.net.sas import sas_cards
from koikoi.net.wire import encode_message, unpack

SESSION = hashlib.sha256(b"a handshake hash").digest()


def toss(
    session: bytes = SESSION, host_secret: bytes | None = None, joiner_secret: bytes | None = None
) -> tuple[CoinToss, CoinToss]:
    host = CoinToss(Role.HOST, session, secret=host_secret)
    joiner = CoinToss(Role.JOINER, session, secret=joiner_secret)
    assert joiner.start() == []
    (commit,) = host.start()
    (answer,) = joiner.receive(commit)
    (reveal,) = host.receive(answer)
    assert joiner.receive(reveal) == []
    return host, joiner


def test_R3_2_both_sides_agree_on_oya_and_seed() -> None:
    host, joiner = toss()
    assert host.result is not None and host.result == joiner.result
    assert host.result.first_oya in (0, 1)
    assert len(host.result.seed) == 32
    assert host.phase is joiner.phase is TossPhase.DONE


def test_the_layout_is_the_documented_one() -> None:
    # Recomputed here from docs/protocol.md, not through the module's helpers.
    ra, rb = b"\1" * 32, b"\2" * 32
    host, _ = toss(host_secret=ra, joiner_secret=rb)
    expected_commit = hashlib.sha256(b"koikoi-net/1 commit\0" + SESSION + b"host\0" + ra).digest()
    oya_digest = hashlib.sha256(b"koikoi-net/1 oya\0" + SESSION + ra + rb).digest()
    seed = hashlib.sha256(b"koikoi-net/1 seed\0" + SESSION + ra + rb).digest()
    assert host.result == TossResult(
        first_oya=oya_digest[0] & 1,
        seed=seed,
        commitment=expected_commit,
        host_random=ra,
        joiner_random=rb,
        cards=sas_cards(SESSION, ra, rb),
    )
    assert (
        commitment(bytes(32), Role.HOST, ra).hex()
        == "b4bdf14892fa0deca20ba2c50eedabfe35054bd30e5b51d007cf700bde4d3a71"
    )
    assert joint_seed(bytes(32), ra, rb).hex().startswith("b0d94954c3530f69")


def test_the_transcript_rechecks() -> None:
    host, _ = toss()
    result = host.result
    assert result is not None
    assert commitment(SESSION, Role.HOST, result.host_random) == result.commitment
    assert first_oya(SESSION, result.host_random, result.joiner_random) == result.first_oya


def test_the_coin_is_fair_and_depends_on_both_sides() -> None:
    fixed = b"\7" * 32
    by_host = [first_oya(SESSION, os.urandom(32), fixed) for _ in range(2000)]
    by_joiner = [first_oya(SESSION, fixed, os.urandom(32)) for _ in range(2000)]
    for outcomes in (by_host, by_joiner):
        assert 900 < sum(outcomes) < 1100  # about 1 in 10^5 to fail by chance
    assert joint_seed(SESSION, fixed, b"\1" * 32) != joint_seed(SESSION, fixed, b"\2" * 32)
    assert joint_seed(SESSION, fixed, fixed) != joint_seed(bytes(32), fixed, fixed)


def test_messages_are_the_documented_ones() -> None:
    host = CoinToss(Role.HOST, SESSION, secret=b"\1" * 32)
    joiner = CoinToss(Role.JOINER, SESSION, secret=b"\2" * 32)
    (commit,) = host.start()
    (answer,) = joiner.receive(commit)
    (reveal,) = host.receive(answer)
    assert unpack(commit) == {"t": "commit", "c": commitment(SESSION, Role.HOST, b"\1" * 32)}
    assert unpack(answer) == {"t": "answer", "r": b"\2" * 32}
    assert unpack(reveal) == {"t": "reveal", "r": b"\1" * 32}


# --- Cheats --------------------------------------------------------------------------------


def _joiner_waiting_for_reveal(host_secret: bytes) -> CoinToss:
    host = CoinToss(Role.HOST, SESSION, secret=host_secret)
    joiner = CoinToss(Role.JOINER, SESSION)
    joiner.receive(host.start()[0])
    return joiner


@pytest.mark.parametrize(
    "lie",
    [
        b"\2" * 32,  # another number than committed to
        b"\1" * 31 + b"\0",  # one byte off
    ],
)
def test_a_lying_reveal_is_a_cheat(lie: bytes) -> None:
    joiner = _joiner_waiting_for_reveal(b"\1" * 32)
    with pytest.raises(CheatDetected) as caught:
        joiner.receive(encode_message("reveal", r=lie))
    assert caught.value.what == "host reveal"
    assert "does not match its commitment" in str(caught.value)
    assert joiner.result is None and joiner.phase is TossPhase.FAILED
    with pytest.raises(ProtocolError):
        joiner.receive(encode_message("reveal", r=b"\1" * 32))  # no second chance


def test_a_commitment_from_another_session_or_role_does_not_open() -> None:
    secret = b"\3" * 32
    for forged in (
        commitment(bytes(32), Role.HOST, secret),
        commitment(SESSION, Role.JOINER, secret),
    ):
        joiner = CoinToss(Role.JOINER, SESSION)
        joiner.receive(encode_message("commit", c=forged))
        with pytest.raises(CheatDetected):
            joiner.receive(encode_message("reveal", r=secret))


# --- Aborts and order ----------------------------------------------------------------------


def test_host_leaving_before_the_reveal_is_recorded_as_suspicious() -> None:
    joiner = _joiner_waiting_for_reveal(b"\1" * 32)
    abort = joiner.abort(Role.HOST, "connection closed")
    assert abort.suspicious and abort.phase is TossPhase.AWAIT_REVEAL
    assert "left the coin toss after the answer" in abort.describe()
    assert "no re-toss" in abort.describe()
    with pytest.raises(ProtocolError, match="aborted"):
        joiner.receive(encode_message("reveal", r=b"\1" * 32))
    assert joiner.abort(Role.JOINER, "again") is abort  # the first abort stands


def test_other_aborts_are_not_suspicious() -> None:
    host = CoinToss(Role.HOST, SESSION)
    host.start()
    left = host.abort(Role.JOINER, "timeout")
    assert not left.suspicious and left.phase is TossPhase.AWAIT_ANSWER
    with pytest.raises(ProtocolError, match="cannot start"):
        host.start()  # an aborted toss is not tossed again
    early = CoinToss(Role.JOINER, SESSION).abort(Role.HOST, "quit")
    assert not early.suspicious and early.phase is TossPhase.START


@pytest.mark.parametrize("by", list(Role))
def test_leaving_after_the_result_is_suspicious_on_both_sides(by: Role) -> None:
    # The four cards are compared after the toss: leaving then (or refusing the cards) is
    # abandoning the toss after seeing the result, whoever does it.
    for side in toss():
        abort = side.abort(by, "left while the four cards were shown")
        assert abort.suspicious and abort.phase is TossPhase.DONE
        assert f"the {by.value} left the coin toss after the reveal" in abort.describe()
        assert "after seeing the result" in abort.describe()
        assert side.result is not None  # the transcript stays for the record


def test_a_failed_reveal_keeps_the_phase_it_failed_in() -> None:
    joiner = _joiner_waiting_for_reveal(b"\1" * 32)
    with pytest.raises(ProtocolError):
        joiner.receive(b"\x00garbage")
    assert joiner.phase is TossPhase.FAILED
    abort = joiner.abort(Role.HOST, "garbage")
    assert abort.suspicious and abort.phase is TossPhase.AWAIT_REVEAL


def test_out_of_order_and_malformed_messages() -> None:
    joiner = CoinToss(Role.JOINER, SESSION)
    with pytest.raises(ProtocolError, match="unexpected message 'reveal' \\(expected 'commit'\\)"):
        joiner.receive(encode_message("reveal", r=bytes(32)))
    host = CoinToss(Role.HOST, SESSION)
    with pytest.raises(ProtocolError, match="expected now"):
        host.receive(encode_message("answer", r=bytes(32)))  # before the commitment
    host.start()
    with pytest.raises(ProtocolError, match="answer.r: expected 32 bytes, got 31"):
        host.receive(encode_message("answer", r=bytes(31)))
    done, _ = toss()
    with pytest.raises(ProtocolError, match="expected now"):
        done.receive(encode_message("answer", r=bytes(32)))  # replayed after the result


def test_bad_local_arguments() -> None:
    with pytest.raises(ValueError, match="handshake hash"):
        CoinToss(Role.HOST, b"short")
    with pytest.raises(ValueError, match="secret"):
        CoinToss(Role.HOST, SESSION, secret=b"\0")
