"""Abandoning the coin toss after seeing the result, in seven disguises: each one is flagged.

These run version 2 (the released joint-seed hello, the toss before the cards, which keeps
its order); version 4's rules (the cards first, "They differ" counted by nobody) are in
tests/test_net_toss_cards_first.py.

A malicious peer built on the project's own modules (a real :class:`Connection`, its own
identity key, the real handshake and toss) tries to get a re-toss unseen: once it knows the
outcome it ends the toss, each time in another disguise. As the host it answers the joiner's
``answer`` with a malformed reveal, 40 random bytes, an empty frame, a close or silence; as the
joiner it leaves right after the reveal, or refuses the four cards right after it. The honest
side — the desktop app's options (it holds the first deal for its player), its pins in a file
read afresh for every connection as after a restart — flags every one in its record
(``end.suspicious``, stage ``toss``) and counts it in the peer's pin: after seven, the pin says
seven, and the next handshake shows it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection, ConnectionEvent, HandshakeDone
from koikoi.net.fair import TossPhase
from koikoi.net.identity import Identity, KnownPeers, PinStatus
from koikoi.net.roles import Role
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import CardsShown, Ended
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_frame, encode_message

SILENCE = 15.0


def connection(
    role: Role,
    identity: Identity,
    nickname: str,
    peers: KnownPeers,
    *,
    hold: bool = False,
    dealings: tuple[str, ...] = ("seed",),
) -> Connection:
    """One side of a match on no network, at time 0 (its peer's bytes are carried by hand:
    :func:`carry`); also the private-dealing audit tests' side."""
    return Connection(
        role,
        identity=identity,
        nickname=nickname,
        settings=Settings(),
        password="",
        known_peers=peers,
        now=0.0,
        silence_timeout=SILENCE,
        hold_for_confirmation=hold,
        dealings=dealings,
    )


def carry(src: Connection, dst: Connection) -> list[ConnectionEvent]:
    data = src.data_to_send()
    return dst.receive_data(data, 0.0) if data else []


def ended(events: list[ConnectionEvent]) -> Ending:
    (event,) = [e for e in events if isinstance(e, Ended)]
    return event.ending


# --- the malicious host: it has the joiner's answer, so it knows the outcome ----------------


def malformed_reveal(mallory: Connection, hana: Connection) -> list[ConnectionEvent]:
    session = mallory.session
    assert session is not None
    sealed = session._tx.encrypt_with_ad(b"", encode_message("reveal", r=bytes(31)))
    return hana.receive_data(encode_frame(sealed), 0.0)


def random_bytes(mallory: Connection, hana: Connection) -> list[ConnectionEvent]:
    return hana.receive_data(random.Random(40).randbytes(40), 0.0)


def empty_frame(mallory: Connection, hana: Connection) -> list[ConnectionEvent]:
    return hana.receive_data(bytes(4), 0.0)


def close(mallory: Connection, hana: Connection) -> list[ConnectionEvent]:
    return hana.connection_lost(0.0)


def silence(mallory: Connection, hana: Connection) -> list[ConnectionEvent]:
    hana.tick(SILENCE / 2)
    return hana.tick(SILENCE + 0.1)


HOST_DISGUISES: dict[str, Callable[[Connection, Connection], list[ConnectionEvent]]] = {
    "malformed reveal": malformed_reveal,
    "40 random bytes": random_bytes,
    "empty frame": empty_frame,
    "close": close,
    "silence": silence,
}


def host_aborts(mallory_id: Identity, hana_id: Identity, peers_file: Path, disguise: str) -> Ending:
    """Mallory hosts, hana joins; mallory reads hana's answer, then ends the toss."""
    mallory = connection(Role.HOST, mallory_id, "mallory", KnownPeers(None), hold=False)
    hana = connection(Role.JOINER, hana_id, "hana", KnownPeers(peers_file), hold=True)
    hana.start()
    while mallory.session is None or mallory.session.toss.phase is not TossPhase.AWAIT_ANSWER:
        assert not (mallory.closed or hana.closed), (mallory.failure, hana.failure)
        carry(hana, mallory)
        carry(mallory, hana)
    assert hana.session is not None
    carry(mallory, hana)  # the commitment: hana answers at once
    assert hana.session.toss.phase is TossPhase.AWAIT_REVEAL
    tx = mallory.session._tx
    nonce = tx.n
    carry(hana, mallory)  # the answer: mallory knows the outcome (and its reveal is ready)
    assert mallory.session.toss.result is not None
    mallory.data_to_send()  # ... and withheld
    tx.set_nonce(nonce)
    events = HOST_DISGUISES[disguise](mallory, hana)
    assert not any(isinstance(e, CardsShown) for e in events)
    return ended(events)


# --- the malicious joiner: it has the reveal --------------------------------------------------


def joiner_aborts(
    mallory_id: Identity, hana_id: Identity, peers_file: Path, disguise: str
) -> Ending:
    ending, _ = joiner_aborts_with(mallory_id, hana_id, peers_file, disguise)
    return ending


def joiner_aborts_with(
    mallory_id: Identity, hana_id: Identity, peers_file: Path, disguise: str
) -> tuple[Ending, Connection]:
    """Hana hosts, mallory joins; mallory reads the reveal, then quits or refuses the cards."""
    hana = connection(Role.HOST, hana_id, "hana", KnownPeers(peers_file), hold=True)
    mallory = connection(Role.JOINER, mallory_id, "mallory", KnownPeers(None), hold=True)
    mallory.start()
    while mallory.session is None or mallory.session.cards is None:
        assert not (mallory.closed or hana.closed), (mallory.failure, hana.failure)
        carry(mallory, hana)
        carry(hana, mallory)
    if disguise == "quit after the reveal":
        mallory.leave(0.0, "changed my mind")
    else:
        mallory.confirm(0.0, same=False)
    return ended(carry(mallory, hana)), hana


DISGUISES = [*HOST_DISGUISES, "quit after the reveal", "refuse the cards after the reveal"]


def test_seven_disguised_aborts_are_flagged_and_counted(tmp_path: Path) -> None:
    mallory_id, hana_id = Identity.generate(), Identity.generate()
    peers_file = tmp_path / "known_peers.json"
    for count, disguise in enumerate(DISGUISES, start=1):
        if disguise in HOST_DISGUISES:
            ending = host_aborts(mallory_id, hana_id, peers_file, disguise)
            by = Role.HOST
        else:
            ending = joiner_aborts(mallory_id, hana_id, peers_file, disguise)
            by = Role.JOINER
        assert ending.suspicious, (disguise, ending)
        assert ending.stage == "toss" and ending.by is by and not ending.finished, disguise
        record_end = ending.to_json()
        assert record_end["suspicious"] is True and record_end["stage"] == "toss"
        # The pin, read from the file as after a restart, counts it.
        assert KnownPeers(peers_file).toss_aborts("mallory", mallory_id.public_key) == count
    document = json.loads(peers_file.read_text())
    assert document["peers"]["mallory"]["toss_aborts"] == 7
    # The next handshake with mallory shows the count (the lobby words it from here).
    hana = connection(Role.JOINER, hana_id, "hana", KnownPeers(peers_file), hold=True)
    mallory = connection(Role.HOST, mallory_id, "mallory", KnownPeers(None), hold=False)
    hana.start()
    seen: list[ConnectionEvent] = []
    while not any(isinstance(e, HandshakeDone) for e in seen):
        carry(hana, mallory)
        seen += carry(mallory, hana)
    (done,) = [e for e in seen if isinstance(e, HandshakeDone)]
    assert done.established.pin.status is PinStatus.KNOWN
    assert done.established.pin.toss_aborts == 7


@pytest.mark.parametrize("disguise", DISGUISES)
def test_each_disguise_is_flagged_in_the_record(disguise: str, tmp_path: Path) -> None:
    mallory_id, hana_id = Identity.generate(), Identity.generate()
    peers_file = tmp_path / "known_peers.json"
    if disguise in HOST_DISGUISES:
        ending = host_aborts(mallory_id, hana_id, peers_file, disguise)
    else:
        ending = joiner_aborts(mallory_id, hana_id, peers_file, disguise)
    assert ending.suspicious and ending.stage == "toss"
    if ending.how not in ("protocol", "cards"):  # those keep their own words
        assert "after seeing the result" in ending.reason, ending.reason


@pytest.mark.parametrize("disguise", ["quit after the reveal", "refuse the cards after the reveal"])
def test_a_record_ended_at_the_four_cards_verifies(disguise: str, tmp_path: Path) -> None:
    # The toss is in the record (anyone can recheck it), no deal; the first oya is the toss's.
    for i in range(8):  # both first oyas, almost surely (1 in 128 to miss one)
        ending, hana = joiner_aborts_with(
            Identity.generate(), Identity.generate(), tmp_path / f"peers-{i}.json", disguise
        )
        assert hana.session is not None
        record = hana.session.record().to_json()
        assert "toss" in record["net"] and record["deals"] == []
        report = verify_record(record)
        assert report.toss and report.moves == 0 and report.result["finished"] is False
        assert record["end"]["suspicious"] is True


def test_leaving_before_knowing_the_outcome_is_not_counted(tmp_path: Path) -> None:
    # The joiner that leaves before answering cannot know the outcome: no flag, no count.
    peers_file = tmp_path / "known_peers.json"
    mallory_id, hana_id = Identity.generate(), Identity.generate()
    hana = connection(Role.HOST, hana_id, "hana", KnownPeers(peers_file), hold=True)
    mallory = connection(Role.JOINER, mallory_id, "mallory", KnownPeers(None), hold=True)
    mallory.start()
    while hana.session is None:
        carry(mallory, hana)
        carry(hana, mallory)
    ending = ended(hana.connection_lost(0.0))
    assert not ending.suspicious and ending.stage == "toss"
    assert KnownPeers(peers_file).toss_aborts("mallory", mallory_id.public_key) == 0
    assert hana.toss_aborts is None


def test_pins_written_before_the_count_still_load(tmp_path: Path) -> None:
    key = Identity.generate().public_key
    peers_file = tmp_path / "known_peers.json"
    peers = {
        "taro": {"key": key.hex(), "pinned": "2026-01-01T00:00:00+00:00"},
        "jiro": {"key": bytes(32).hex(), "pinned": "x", "toss_aborts": "many"},
        "saburo": {"key": bytes([1] * 32).hex(), "toss_aborts": -4},
    }
    peers_file.write_text(json.dumps({"format": "koikoi-known-peers/1", "peers": peers}))
    known = KnownPeers(peers_file)
    assert known.check("taro", key).toss_aborts == 0
    assert known.toss_aborts("jiro", bytes(32)) == 0  # not a count: read as none
    assert known.toss_aborts("saburo", bytes([1] * 32)) == 0
    assert known.count_toss_abort("taro", key) == 1
    assert known.count_toss_abort("taro", bytes(32)) == 0  # another key: not that peer
    assert known.count_toss_abort("nobody", key) == 0
    again = KnownPeers(peers_file)
    assert again.check("taro", key).toss_aborts == 1
    assert again.check("taro", key).status is PinStatus.KNOWN


def test_a_dealer_that_never_makes_the_first_move_is_counted_when_abandoned(
    tmp_path: Path,
) -> None:
    """Attack (docs/protocol.md, "Deal aborts"): the oya sees its cards of the first deal
    and never moves. Its time up, the waiting side declares the match abandoned
    (:meth:`Connection.abandon`, as both transports do): as suspicious as leaving there, and
    counted in the pin the same. Only the endings that came in a message or a drop used to
    be counted; a peer that disliked its hand had only to stop moving. (Whoever the toss
    makes oya plays the cheat; the other side counts it.)"""
    names = {Role.HOST: "hana", Role.JOINER: "taro"}
    ids = {role: Identity.generate() for role in Role}
    pins = {role: KnownPeers(tmp_path / f"{role.value}.json") for role in Role}
    sides = {role: connection(role, ids[role], names[role], pins[role]) for role in Role}
    for side in sides.values():
        side.abandon_after = 5.0
    sides[Role.JOINER].start()
    while any(s.session is None or s.session.lockstep is None for s in sides.values()):
        assert not any(s.closed for s in sides.values())
        carry(sides[Role.JOINER], sides[Role.HOST])
        carry(sides[Role.HOST], sides[Role.JOINER])
    lockstep = sides[Role.HOST].session.lockstep  # type: ignore[union-attr]
    assert lockstep is not None and lockstep.seq == 0 and lockstep.match.round is not None
    dealer = Role.HOST if lockstep.match.round.oya == Role.HOST.seat else Role.JOINER
    waiter = dealer.peer
    ending = ended(sides[waiter].abandon(10_000.0))  # its clock, its reserve and 5 s past
    assert ending.how == "abandoned" and ending.by is dealer and ending.suspicious, ending
    assert sides[waiter].toss_aborts == 1
    again = KnownPeers(tmp_path / f"{waiter.value}.json")  # saved at once
    assert again.toss_aborts(names[dealer], ids[dealer].public_key) == 1
