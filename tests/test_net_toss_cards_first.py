"""Version 4: the four cards are compared before anyone can know who deals first (issue 20,
item 8; docs/protocol.md, "Coin toss and joint seed").

The host commits to ``rA`` (the cards) and ``tA`` (the toss); the cards come from the session
id, ``rA`` and ``rB``; both players confirm; only then does the joiner send ``tB`` and the host
answer with ``tA``. So an honest "They differ" ends the session and counts against nobody, on
both sides, while walking away once the outcome could be known still counts. The peers here
are built on the project's own modules (real :class:`Connection` objects, real keys, the real
handshake), with an injected clock; the attacks read or forge what a modified program could.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent
from koikoi.net.errors import CheatDetected, ProtocolError
from koikoi.net.fair import (
    CoinToss,
    TossPhase,
    first_oya,
    toss_commitment,
)
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.sas import sas_cards
from koikoi.net.session.endings import CARDS_DIFFER, Ending, Stage
from koikoi.net.session.events import CardsShown, Ended, TossDone
from koikoi.net.verify import VerificationFailed, verify_record
from koikoi.net.wire import encode_frame, encode_message, unpack
from tests.net_support import Table
from tests.test_net_confirm import pump

BOTH = ("private", "seed")
SILENCE = 15.0
DATA = Path(__file__).parent / "data" / "net"


def connection(
    role: Role,
    peers: KnownPeers,
    *,
    hold: bool = True,
    identity: Identity | None = None,
    dealings: tuple[str, ...] = BOTH,
) -> Connection:
    return Connection(
        role,
        identity=identity or Identity.generate(),
        nickname=role.value,
        settings=Settings(),
        password="",
        known_peers=peers,
        now=0.0,
        silence_timeout=SILENCE,
        hold_for_confirmation=hold,
        dealings=dealings,
    )


def pair(tmp_path: Path | None, hold: bool = True) -> dict[Role, Connection]:
    """A host and a joiner, each with its own pins file (read afresh: as after a restart),
    or pins in memory only (``tmp_path`` None)."""
    return {
        role: connection(
            role,
            KnownPeers(None if tmp_path is None else tmp_path / f"{role.value}.json"),
            hold=hold,
        )
        for role in Role
    }


def until_cards(
    tmp_path: Path | None,
) -> tuple[dict[Role, Connection], dict[Role, list[ConnectionEvent]]]:
    conns = pair(tmp_path)
    conns[Role.JOINER].start()
    seen = pump(conns)
    for role in Role:
        session = conns[role].session
        assert session is not None and session.cards is not None, conns[role].failure
    return conns, seen


def ending_of(events: list[ConnectionEvent]) -> Ending:
    (event,) = [e for e in events if isinstance(e, Ended)]
    return event.ending


def aborts(tmp_path: Path, role: Role, conns: dict[Role, Connection]) -> int:
    """How many tosses ``role``'s pins count for its peer (read from the file)."""
    peer = conns[role.peer]
    return KnownPeers(tmp_path / f"{role.value}.json").toss_aborts(
        peer.nickname, peer.identity.public_key
    )


def kinds(messages: list[bytes]) -> list[str]:
    out = []
    for message in messages:
        value = unpack(message)
        assert isinstance(value, dict)
        out.append(str(value["t"]))
    return out


# --- the order -----------------------------------------------------------------------------


def test_the_cards_come_first_and_the_toss_after_both_confirmed() -> None:
    table = Table(seed=7, dealings={Role.HOST: BOTH, Role.JOINER: BOTH})
    table.run()
    host, joiner = table.host, table.joiner
    assert host.protocol == "koikoi-net/4" and host.ending is not None and host.ending.finished
    assert kinds(table.sent[Role.HOST])[:4] == ["commit", "reveal", "confirm", "toss"]
    assert kinds(table.sent[Role.JOINER])[:3] == ["answer", "confirm", "toss"]
    commit = unpack(table.sent[Role.HOST][0])
    assert isinstance(commit, dict) and set(commit) == {"t", "c", "ct"}
    (shown,) = [e for e in table.events[Role.JOINER] if isinstance(e, CardsShown)]
    assert shown.result is None  # nobody knows the outcome with the cards
    result = host.toss.result
    assert result is not None and result == joiner.toss.result
    assert (
        shown.cards
        == result.cards
        == sas_cards(host.session_id, result.host_random, result.joiner_random)
    )
    # the documented layout, recomputed here from docs/protocol.md
    tosses = result.host_toss + result.joiner_toss
    assert (
        result.toss_commitment
        == hashlib.sha256(
            b"koikoi-net/4 toss commit\0" + host.session_id + b"host\0" + result.host_toss
        ).digest()
    )
    material = host.session_id + result.host_random + result.joiner_random + tosses
    assert result.first_oya == hashlib.sha256(b"koikoi-net/4 oya\0" + material).digest()[0] & 1
    assert result.seed == hashlib.sha256(b"koikoi-net/4 seed\0" + material).digest()
    record = host.record().to_json()
    toss = record["net"]["toss"]
    assert {k: base64.b64decode(toss[k]) for k in ("toss_commit", "host_toss", "joiner_toss")} == {
        "toss_commit": result.toss_commitment,
        "host_toss": result.host_toss,
        "joiner_toss": result.joiner_toss,
    }
    assert verify_record(record).result == host.result_json()


def test_nothing_of_the_outcome_comes_before_both_confirmed(tmp_path: Path) -> None:
    conns, seen = until_cards(tmp_path)
    for role in Role:
        session = conns[role].session
        assert session is not None and session.toss.result is None
        (event,) = [e for e in seen[role] if isinstance(e, CardsShown)]
        assert event.result is None and event.cards == session.cards
    conns[Role.HOST].confirm(0.0)
    pump(conns)
    assert all(c.session is not None and c.session.toss.result is None for c in conns.values())
    conns[Role.JOINER].confirm(0.0)
    seen = pump(conns)
    results = [c.session.toss.result for c in conns.values() if c.session is not None]
    assert len(results) == 2 and results[0] is not None and results[0] == results[1]
    assert all(any(isinstance(e, TossDone) for e in seen[role]) for role in Role)


def _best_guess(conns: dict[Role, Connection], role: Role) -> int:
    """What a modified program on ``role``'s side computes of the first oya from everything it
    holds while the four cards are compared: the outcome if it has one, else the formula it
    could evaluate (the toss's randoms it has, with its own toss random when it drew one)."""
    session = conns[role].session
    assert session is not None
    toss = session.toss
    if toss.result is not None:  # the toss before the cards (version 3): known already
        return toss.result.first_oya
    host_random, joiner_random = toss._randoms
    return first_oya(session.session_id, host_random, joiner_random, toss._toss)


@pytest.mark.parametrize("role", [Role.HOST, Role.JOINER])
def test_neither_side_can_compute_the_oya_before_both_confirmed(role: Role) -> None:
    """A peer that tries to learn who deals first while the cards are compared: over 48
    sessions its guess matches at chance level (version 3 gave it 48 out of 48)."""
    right = 0
    runs = 48
    for _ in range(runs):
        conns, _ = until_cards(None)
        guess = _best_guess(conns, role)
        for side in Role:
            conns[side].confirm(0.0)
        pump(conns)
        session = conns[role].session
        assert session is not None and session.toss.result is not None
        right += guess == session.toss.result.first_oya
    assert 8 <= right <= 40  # chance: about 1 in 10^6 to fall outside


def test_the_state_before_confirming_does_not_determine_the_oya() -> None:
    """Everything the host holds before confirming (the session, rA, rB, tA) fixed: the
    joiner's fresh tB still gives either seat; and the joiner's view (rA, rB, c, ct) leaves tA
    behind a commitment."""
    session = bytes(range(32))
    outcomes: set[int] = set()
    for _ in range(32):
        host = CoinToss(
            Role.HOST, session, secret=b"\1" * 32, toss_secret=b"\3" * 32, cards_first=True
        )
        joiner = CoinToss(Role.JOINER, session, secret=b"\2" * 32, cards_first=True)
        (answer,) = joiner.receive(host.start()[0])
        assert joiner.receive(host.receive(answer)[0]) == []
        assert host.cards == joiner.cards == sas_cards(session, b"\1" * 32, b"\2" * 32)
        assert host.result is None and joiner.result is None
        (reply,) = host.receive(joiner.toss()[0])
        joiner.receive(reply)
        assert host.result is not None and host.result == joiner.result
        outcomes.add(host.result.first_oya)
    assert outcomes == {0, 1}  # about 1 in 2^31 to miss one


# --- "They differ" before the outcome: nobody is counted --------------------------------------


@pytest.mark.parametrize("presser", [Role.HOST, Role.JOINER])
@pytest.mark.parametrize("other_confirmed", [False, True])
def test_an_honest_they_differ_counts_against_nobody(
    presser: Role, other_confirmed: bool, tmp_path: Path
) -> None:
    conns, _ = until_cards(tmp_path)
    if other_confirmed:
        conns[presser.peer].confirm(0.0)
        pump(conns)
    mine = ending_of(conns[presser].confirm(0.0, same=False))
    theirs = ending_of(pump(conns)[presser.peer])
    assert mine.how == theirs.how == "cards"
    assert not mine.suspicious and not theirs.suspicious
    assert mine.by is None and theirs.by is presser
    assert "the other player saw different cards" in theirs.reason
    assert mine.to_json()["stage"] == "toss" and "suspicious" not in theirs.to_json()
    for role in Role:
        assert conns[role].toss_aborts is None
        assert aborts(tmp_path, role, conns) == 0
        session = conns[role].session
        assert session is not None and session.toss.result is None
        record = session.record().to_json()
        assert "suspicious" not in record["end"] and "toss" not in record["net"]
        verify_record(record)


@pytest.mark.parametrize("leaver", [Role.HOST, Role.JOINER])
@pytest.mark.parametrize("how", ["leave", "close", "silence"])
def test_leaving_while_the_cards_are_compared_is_not_counted(
    leaver: Role, how: str, tmp_path: Path
) -> None:
    conns, _ = until_cards(tmp_path)
    stayer = conns[leaver.peer]
    if how == "leave":
        conns[leaver].leave(0.0, "changed my mind")
        ending = ending_of(pump(conns)[leaver.peer])
    elif how == "close":
        ending = ending_of(stayer.connection_lost(0.0))
    else:
        stayer.tick(SILENCE / 2)
        ending = ending_of(stayer.tick(SILENCE + 0.1))
    assert ending.by is leaver and not ending.suspicious
    assert stayer.toss_aborts is None and aborts(tmp_path, leaver.peer, conns) == 0


# --- walking away once the outcome could be known: counted -----------------------------------


def _host_has_the_joiners_toss(tmp_path: Path) -> tuple[dict[Role, Connection], bytes]:
    """Both confirmed; the joiner's tB reached the host, whose answer (tA) is withheld.
    Returns the connections and the withheld bytes."""
    conns, _ = until_cards(tmp_path)
    conns[Role.HOST].confirm(0.0)
    pump(conns)
    joiner = conns[Role.JOINER]
    joiner.confirm(0.0)
    host = conns[Role.HOST]
    host.receive_data(joiner.data_to_send(), 0.0)  # the joiner's confirm and its toss
    session = host.session
    assert session is not None and session.toss.result is not None  # the host knows now
    withheld = host.data_to_send()
    assert joiner.session is not None and joiner.session.toss.phase is TossPhase.TOSSED
    return conns, withheld


def _sealed(conns: dict[Role, Connection], role: Role, message: bytes, nonce: int) -> bytes:
    session = conns[role].session
    assert session is not None
    session._tx.set_nonce(nonce)
    return encode_frame(session._tx.encrypt_with_ad(b"", message))


def _first_host_nonce(conns: dict[Role, Connection], withheld: bytes) -> int:
    """The nonce of the host's first withheld message (its ``toss``)."""
    session = conns[Role.HOST].session
    assert session is not None
    frames = 0
    rest = withheld
    while rest:
        size = int.from_bytes(rest[:4], "big")
        rest = rest[4 + size :]
        frames += 1
    return session._tx.n - frames


HOST_WALKS: dict[str, Callable[[dict[Role, Connection], int], list[ConnectionEvent]]] = {
    "close": lambda conns, nonce: conns[Role.JOINER].connection_lost(0.0),
    "silence": lambda conns, nonce: (
        conns[Role.JOINER].tick(SILENCE / 2),
        conns[Role.JOINER].tick(SILENCE + 0.1),
    )[1],
    "bye quit": lambda conns, nonce: conns[Role.JOINER].receive_data(
        _sealed(conns, Role.HOST, encode_message("bye", reason="quit"), nonce), 0.0
    ),
    "they differ, late": lambda conns, nonce: conns[Role.JOINER].receive_data(
        _sealed(
            conns, Role.HOST, encode_message("bye", reason="cheat", detail=CARDS_DIFFER), nonce
        ),
        0.0,
    ),
    "garbage": lambda conns, nonce: conns[Role.JOINER].receive_data(os.urandom(40), 0.0),
}


@pytest.mark.parametrize("walk", list(HOST_WALKS))
def test_a_host_walking_away_once_it_has_the_joiners_toss_is_counted(
    walk: str, tmp_path: Path
) -> None:
    conns, withheld = _host_has_the_joiners_toss(tmp_path)
    nonce = _first_host_nonce(conns, withheld)
    ending = ending_of(HOST_WALKS[walk](conns, nonce))
    assert ending.by is Role.HOST and ending.suspicious, ending
    assert conns[Role.JOINER].toss_aborts == 1
    assert aborts(tmp_path, Role.JOINER, conns) == 1
    session = conns[Role.JOINER].session
    assert session is not None
    verify_record(session.record().to_json())


def test_a_host_whose_toss_fails_its_commitment_is_named_a_cheat(tmp_path: Path) -> None:
    conns, withheld = _host_has_the_joiners_toss(tmp_path)
    nonce = _first_host_nonce(conns, withheld)
    lie = _sealed(conns, Role.HOST, encode_message("toss", r=os.urandom(32)), nonce)
    ending = ending_of(conns[Role.JOINER].receive_data(lie, 0.0))
    assert ending.how == "cheat" and ending.by is Role.HOST and ending.suspicious
    assert "the host's toss does not match its commitment" in ending.reason
    assert conns[Role.JOINER].toss_aborts == 1


def test_the_honest_host_answer_goes_through(tmp_path: Path) -> None:
    """The control of the attacks above: the withheld answer, delivered, starts the match."""
    conns, withheld = _host_has_the_joiners_toss(tmp_path)
    events = conns[Role.JOINER].receive_data(withheld, 0.0) + pump(conns)[Role.JOINER]
    assert any(isinstance(e, TossDone) for e in events)
    session = conns[Role.JOINER].session
    assert session is not None and session.stage is Stage.PLAYING


@pytest.mark.parametrize("leaver", [Role.HOST, Role.JOINER])
def test_leaving_after_the_outcome_before_the_first_move_is_counted(
    leaver: Role, tmp_path: Path
) -> None:
    """Once the outcome is drawn on both sides ("after tA") and before the match's first
    move, a side that leaves abandoned the toss after seeing the result."""
    conns, _ = until_cards(tmp_path)
    for role in Role:
        conns[role].confirm(0.0)
    pump(conns)
    for role in Role:
        session = conns[role].session
        assert session is not None and session.stage is Stage.PLAYING
        assert session.lockstep is not None and session.lockstep.seq == 0
    conns[leaver].leave(0.0, "I do not like who deals first")
    ending = ending_of(pump(conns)[leaver.peer])
    assert ending.by is leaver and ending.suspicious and ending.stage == "play"
    assert aborts(tmp_path, leaver.peer, conns) == 1


# --- the order is enforced ---------------------------------------------------------------------


def test_a_joiner_toss_before_its_confirm_is_refused(tmp_path: Path) -> None:
    conns, _ = until_cards(tmp_path)
    joiner = conns[Role.JOINER].session
    assert joiner is not None
    early = encode_frame(joiner._tx.encrypt_with_ad(b"", encode_message("toss", r=bytes(32))))
    ending = ending_of(conns[Role.HOST].receive_data(early, 0.0))
    assert ending.how == "protocol" and ending.by is Role.JOINER and not ending.suspicious
    assert "toss" in ending.reason


def test_a_joiner_toss_before_the_hosts_confirm_is_refused(tmp_path: Path) -> None:
    """The joiner confirmed, the host's player is still looking: a ``toss`` now would let
    the host learn the outcome before it confirmed."""
    conns, _ = until_cards(tmp_path)
    conns[Role.JOINER].confirm(0.0)
    pump(conns)
    joiner = conns[Role.JOINER].session
    assert joiner is not None
    early = encode_frame(joiner._tx.encrypt_with_ad(b"", encode_message("toss", r=bytes(32))))
    ending = ending_of(conns[Role.HOST].receive_data(early, 0.0))
    assert ending.how == "protocol" and ending.by is Role.JOINER and not ending.suspicious


def test_the_coin_toss_refuses_out_of_order_steps() -> None:
    host = CoinToss(Role.HOST, bytes(32), cards_first=True)
    joiner = CoinToss(Role.JOINER, bytes(32), cards_first=True)
    with pytest.raises(ProtocolError):
        joiner.toss()  # before the cards
    with pytest.raises(ProtocolError):
        host.toss()  # the host never starts it
    (answer,) = joiner.receive(host.start()[0])
    joiner.receive(host.receive(answer)[0])
    (toss,) = joiner.toss()
    with pytest.raises(ProtocolError):
        joiner.toss()  # once
    liar = copy.copy(joiner)
    with pytest.raises(CheatDetected, match="does not match its commitment"):
        liar.receive(encode_message("toss", r=bytes(32)))
    assert toss_commitment(bytes(32), bytes(32)) != joiner._toss_commitment


# --- rematch: a confirmation before the cards stands for them ---------------------------------


def test_a_confirm_before_the_cards_stands_for_them(tmp_path: Path) -> None:
    conns = pair(tmp_path)
    conns[Role.JOINER].start()
    while conns[Role.HOST].session is None or conns[Role.JOINER].session is None:
        pump(conns)
    for role in Role:  # a rematch with the key just played: both confirm at the handshake
        conns[role].confirm(0.0)
    seen = pump(conns)
    assert all(any(isinstance(e, TossDone) for e in seen[role]) for role in Role)


# --- records --------------------------------------------------------------------------------


def _v4_record() -> dict[str, object]:
    table = Table(seed=8, dealings={Role.HOST: BOTH, Role.JOINER: BOTH})
    table.run()
    return table.host.record().to_json()


@pytest.mark.parametrize("key", ["host_toss", "joiner_toss", "toss_commit"])
def test_verify_rechecks_the_toss_after_the_cards(key: str) -> None:
    record = _v4_record()
    verify_record(record)
    tampered = json.loads(json.dumps(record))
    tampered["net"]["toss"][key] = base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(VerificationFailed, match="coin toss|net.seed"):
        verify_record(tampered)
    missing = json.loads(json.dumps(record))
    del missing["net"]["toss"][key]
    with pytest.raises(VerificationFailed, match=f"net.toss.{key}"):
        verify_record(missing)


@pytest.mark.parametrize("name", ["v3_private", "v3_seed"])
def test_records_of_version_3_still_verify(name: str) -> None:
    """Written by the released version-3 program (the toss before the cards), kept as they
    were: they verify, and a second exchange added to one is refused."""
    record = json.loads((DATA / f"{name}.json").read_text())
    assert record["net"]["protocol"] == "koikoi-net/3"
    verified = verify_record(record)
    assert verified.result["finished"] is True
    record["net"]["toss"]["host_toss"] = base64.b64encode(bytes(32)).decode()
    with pytest.raises(VerificationFailed, match="no second exchange"):
        verify_record(record)
