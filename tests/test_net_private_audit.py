"""The signed moves decide (issue 20, findings 2, 6 and 7): a privately dealt match is over
at its last move, whatever the loser does with its last seed; a seed withheld, wrong or
revealed early is named with its sender; leaving a deal whose cards were seen, before its
first move, is flagged and counted like an abandoned toss.

Two real sessions on the sans-I/O table of tests/net_support.py (real handshake, keys and
dealing; the clock is the table's), with a tap that makes one side the cheater: it stops,
changes or replaces what its own client sends. The honest side's ending, result, record and
``koikoi verify``'s report of that record are checked.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from koikoi.net.connection import Connection, ConnectionEvent
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import DealLaidOut, Ended, MovePlayed, TossDone
from koikoi.net.session.private_dealing import PrivateDealing
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_message, unpack
from tests.net_support import Table
from tests.test_net_toss_aborts import carry, connection

BOTH = ("private", "seed")
PRIVATE = {role: BOTH for role in Role}
SILENCE = 15.0


def _kind(message: bytes) -> object:
    value = unpack(message)
    return value.get("t") if isinstance(value, dict) else None


class SeedTap:
    """``cheater``'s seed of the first deal over that ``when`` accepts (given whether the
    match is over) gets ``behaviour``: ``withhold`` (it and everything after it stays
    back; the test sends the heartbeats), ``wrong`` (another seed), ``quit`` / ``finished``
    (a ``bye`` of that code in its place, nothing after it), ``drop`` (nothing more; the
    test drops the connection)."""

    def __init__(self, table: Table, cheater: Role, behaviour: str, *, last: bool) -> None:
        self.table, self.cheater, self.behaviour, self.last = table, cheater, behaviour, last
        self.fired = False
        self.deal_finished: bool | None = None

    def __call__(self, sender: Role, messages: list[bytes]) -> list[bytes]:
        if sender is not self.cheater:
            return messages
        if self.fired:
            return [] if self.behaviour != "wrong" else messages
        lockstep = self.table.sessions[sender].lockstep
        over = lockstep is not None and lockstep.match.finished
        out: list[bytes] = []
        for n, message in enumerate(messages):
            if _kind(message) == "seed" and over == self.last:
                self.fired = True
                if self.behaviour == "wrong":
                    return [*out, encode_message("seed", s=bytes(32)), *messages[n + 1 :]]
                if self.behaviour in ("quit", "finished"):
                    out.append(encode_message("bye", reason=self.behaviour))
                return out
            out.append(message)
        return out


def _cheat_after_the_last_move(
    cheater: Role, behaviour: str, seed: int
) -> tuple[Table, Session, float]:
    """A privately dealt match played to its last move; then ``cheater`` does
    ``behaviour`` with its last seed. Returns the table, the honest side and the time of
    the last move."""
    table = Table(dealings=PRIVATE, seed=seed, silence_timeout=SILENCE)
    tap = SeedTap(table, cheater, behaviour, last=True)
    table.tap = tap
    table.run()
    assert tap.fired, "the match did not reach its last move"
    honest = table.sessions[cheater.peer]
    over = table.now
    if behaviour == "withhold":  # the cheater stays connected, pinging, and says nothing
        while not honest.closed and table.now < over + 120:
            table.now += 1.0
            table.inject(cheater, encode_message("ping"))
            table.events[cheater.peer].extend(honest.tick(table.now))
    elif behaviour == "drop":
        table.events[cheater.peer].extend(honest.connection_lost(table.now, "reset"))
    return table, honest, over


BEHAVIOURS = {
    "withhold": "refused",
    "wrong": "cheat",
    "quit": "refused",
    "finished": "refused",
    "drop": "refused",
}


@pytest.mark.parametrize("cheater", list(Role))
@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
def test_nothing_done_with_the_last_seed_changes_a_finished_result(
    behaviour: str, cheater: Role
) -> None:
    table, honest, over = _cheat_after_the_last_move(cheater, behaviour, seed=3)
    assert honest.closed, honest.ending
    (ended,) = [e for e in table.events[cheater.peer] if isinstance(e, Ended)]
    ending = ended.ending
    assert ending is honest.ending
    # The result is the signed moves': the cheater's own engine says the same.
    moves = table.sessions[cheater].lockstep
    assert moves is not None and moves.match.finished
    assert ending.finished and ending.how == "finished", ending
    result = honest.result_json()
    assert result["finished"] is True
    assert result["winner"] == moves.match.winner
    assert result["scores"] == list(moves.match.scores)
    # The last audit is apart, and names the cheater.
    assert ending.audit is not None
    assert ending.audit.result == BEHAVIOURS[behaviour], ending.audit
    assert ending.audit.by is cheater
    last_deal = len(moves.record.deals) - 1
    assert ending.audit.deal == last_deal
    assert f"the {cheater.value} " in ending.audit.reason
    if behaviour == "withhold":  # bounded: the silence timeout after the last move
        assert over + SILENCE <= table.now <= over + SILENCE + 1.0
        assert f"withheld its seed of deal {last_deal} for 15 s" in ending.audit.reason
    if behaviour == "wrong":
        assert "revealed a seed that is not the one it committed to" in ending.audit.reason
    # The record says so, and verify agrees with the live result.
    record = honest.record().to_json()
    assert record["end"]["finished"] is True
    assert record["end"]["audit"]["result"] == BEHAVIOURS[behaviour]
    assert record["end"]["audit"]["by"] == cheater.seat
    report = verify_record(record).to_json()
    assert report["finished"] is True
    assert report["winner"] == result["winner"] and report["scores"] == result["scores"]
    assert report["proven"]["audit"] == {
        "result": "unaudited",
        "deal": last_deal,
        "missing": [cheater.seat],
    }


def test_an_honest_last_audit_is_done_on_both_sides_and_in_verify() -> None:
    table = Table(dealings=PRIVATE, seed=3)
    table.run()
    for role in Role:
        ending = table.sessions[role].ending
        assert ending is not None and ending.finished
        assert ending.audit is not None and ending.audit.result == "done"
        record = table.sessions[role].record().to_json()
        assert record["end"]["audit"] == {"result": "done"}
        report = verify_record(record).to_json()
        assert report["proven"]["audit"] == {"result": "done", "deals": len(record["deals"])}


def test_a_last_deal_whose_audit_names_a_cheat_is_proven_by_verify(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The joiner commits to one seed and deals with another: the last deal's audit names
    it; the match stays the moves', and verify proves the cheat from the record."""
    from koikoi.net import dealing

    real_start = PrivateDealing.start_deal
    liars: list[Session] = []

    def lying_start(self: PrivateDealing) -> None:
        real_start(self)
        lockstep = self.lockstep
        if self._session in liars and lockstep.match.round_no == lockstep.match.settings.rounds:
            dealer = self.deal.dealer  # the last round's
            context = dealer.transcript.context
            dealer._keys = dealing._Keys(bytes(range(32)), context, Role.JOINER)

    monkeypatch.setattr(PrivateDealing, "start_deal", lying_start)
    for seed in range(1, 30):
        table = Table(dealings=PRIVATE, seed=seed)
        liars[:] = [table.joiner]
        table.run()
        ending = table.host.ending
        assert ending is not None
        if ending.finished and ending.audit is not None and ending.audit.result == "cheat":
            break
    else:
        raise AssertionError("no match reached its last round")
    assert ending.audit is not None and ending.audit.by is Role.JOINER
    assert "the joiner sent a shuffled deck that its seed does not give" in ending.audit.reason
    result = table.host.result_json()
    assert result["finished"] is True
    report = verify_record(table.host.record().to_json()).to_json()
    assert report["finished"] is True and report["scores"] == result["scores"]
    audit = report["proven"]["audit"]
    assert audit["result"] == "cheat" and audit["by"] == Role.JOINER.seat, audit
    assert "its seed does not give" in audit["reason"]


# --- mid-match: a withheld seed is named, never a way out ---------------------------------


@pytest.mark.parametrize("cheater", list(Role))
def test_a_seed_withheld_mid_match_is_named_within_the_wait(cheater: Role) -> None:
    for seed in range(1, 20):
        table = Table(dealings=PRIVATE, seed=seed, silence_timeout=SILENCE)
        tap = SeedTap(table, cheater, "withhold", last=False)
        table.tap = tap
        table.run()
        if tap.fired:
            break
    else:
        raise AssertionError("no match went past its first deal")
    honest = table.sessions[cheater.peer]
    assert honest.ending is None  # it waits for the seed, the cheater pinging along
    start = table.now
    while not honest.closed and table.now < start + 300:
        table.now += 1.0
        table.inject(cheater, encode_message("ping"))
        table.events[cheater.peer].extend(honest.tick(table.now))
    ending = honest.ending
    assert ending is not None and not ending.finished
    assert table.now <= start + SILENCE + 1.0  # the silence timeout, not the abandon time
    assert ending.how == "abandoned" and ending.by is cheater, ending
    assert f"the {cheater.value} withheld its seed of deal 0" in ending.reason
    assert ending.audit is not None and ending.audit.result == "refused"
    assert ending.audit.by is cheater and ending.audit.deal == 0
    assert honest.record().to_json()["end"]["audit"]["by"] == cheater.seat


def test_leaving_mid_match_with_the_seed_owed_is_a_refused_audit() -> None:
    for seed in range(1, 20):
        table = Table(dealings=PRIVATE, seed=seed)
        tap = SeedTap(table, Role.JOINER, "quit", last=False)
        table.tap = tap
        table.run()
        if tap.fired:
            break
    else:
        raise AssertionError("no match went past its first deal")
    ending = table.host.ending
    assert ending is not None and ending.how == "left" and ending.by is Role.JOINER
    assert ending.audit is not None and ending.audit.result == "refused"
    assert ending.audit.by is Role.JOINER


# --- finding 7: a seed revealed before its deal ended -----------------------------------------


def _to_the_first_deal(table: Table) -> None:
    """Carry the messages until both sides laid out the first deal; nobody moves."""
    for _ in range(200):
        for role in Role:
            table.deliver(role, table.sessions[role].outgoing())
        if all(any(isinstance(e, TossDone) for e in table.events[r]) for r in Role):
            return
    raise AssertionError("the first deal was never laid out")


def _at_the_first_deal(dealings: tuple[str, ...] = BOTH, seed: int = 4) -> Table:
    """A table whose first deal is laid out on both sides and waits for its first move (the
    cards are random: a deal over as it is dealt, a teyaku, is dealt again)."""
    for _ in range(20):
        table = Table(dealings={role: dealings for role in Role}, seed=seed)
        _to_the_first_deal(table)
        lockstep = table.host.lockstep
        assert lockstep is not None and lockstep.match.round is not None
        if not lockstep.match.round.over:
            return table
    raise AssertionError("twenty first deals were over as they were dealt")


@pytest.mark.parametrize("cheater", list(Role))
def test_a_seed_revealed_mid_deal_is_named_at_once(cheater: Role) -> None:
    table = _at_the_first_deal()
    dealer = table.sessions[cheater]._private.deal.dealer  # type: ignore[union-attr]
    table.inject(cheater, encode_message("seed", s=dealer._seed))  # its own, committed seed
    honest = table.sessions[cheater.peer]
    ending = honest.ending
    assert ending is not None, "the early seed went unnoticed"
    assert ending.how == "cheat" and ending.by is cheater, ending
    assert "the peer revealed its seed of deal 0 before the deal ended" in ending.reason


# --- finding 6: walking away from a deal whose cards were seen -----------------------------


def _moves_of(table: Table, role: Role) -> int:
    return sum(isinstance(e, MovePlayed) for e in table.events[role])


@pytest.mark.parametrize("dealing", ["private", "seed"])
@pytest.mark.parametrize("how", ["leave", "drop", "bye quit"])
def test_leaving_the_first_deal_at_move_0_is_suspicious(how: str, dealing: str) -> None:
    table = _at_the_first_deal((dealing,))
    assert _moves_of(table, Role.HOST) == 0
    if how == "leave":
        table.joiner.leave(table.now)
        table.deliver(Role.JOINER, table.joiner.outgoing())
    elif how == "bye quit":
        table.inject(Role.JOINER, encode_message("bye", reason="quit"))
    else:
        table.events[Role.HOST].extend(table.host.connection_lost(table.now))
    ending = table.host.ending
    assert ending is not None and ending.by is Role.JOINER and not ending.finished
    assert ending.suspicious, ending
    assert ending.to_json()["suspicious"] is True and ending.stage == "play"
    assert "abandoning a deal after seeing its cards" in ending.reason
    if how == "leave":  # the leaver's own record says it too
        own = table.joiner.ending
        assert own is not None and own.suspicious


def test_leaving_after_the_first_move_is_not_suspicious() -> None:
    table = _at_the_first_deal()
    for _ in range(50):
        table.step()
        if _moves_of(table, Role.HOST) >= 2:
            break
    assert not table.host.lockstep.match.round.over  # type: ignore[union-attr]
    table.joiner.leave(table.now)
    table.deliver(Role.JOINER, table.joiner.outgoing())
    ending = table.host.ending
    assert ending is not None and ending.how == "left" and not ending.suspicious, ending


def test_leaving_a_later_deal_before_its_first_move_is_suspicious() -> None:
    for seed in range(1, 20):
        table = Table(dealings=PRIVATE, seed=seed)
        laid = {role: False for role in Role}
        for _ in range(5000):
            for role in Role:
                session = table.sessions[role]
                laid[role] = any(isinstance(e, DealLaidOut) for e in table.events[role])
                while not laid[role] and session.local_turn is not None:
                    table.events[role].extend(session.play(table.choose(session), table.now))
                table.deliver(role, session.outgoing())
            if all(laid.values()) or table.host.ending is not None:
                break
        lockstep = table.host.lockstep
        rnd = lockstep.match.round if lockstep is not None else None
        # a second deal that ended as it was dealt (a teyaku, R8) is no deal in play: the
        # next one is being dealt, and its cards are not seen yet (not counted, by design)
        if all(laid.values()) and table.host.ending is None and rnd is not None and not rnd.over:
            break
    else:
        raise AssertionError("no match reached its second deal")
    table.joiner.leave(table.now)
    table.deliver(Role.JOINER, table.joiner.outgoing())
    ending = table.host.ending
    assert ending is not None and ending.how == "left" and ending.suspicious, ending


# --- the pin counts it, as an abandoned toss ----------------------------------------------


QUITS: dict[str, Callable[[Connection, Connection], list[ConnectionEvent]]] = {
    "leave": lambda mallory, hana: (mallory.leave(0.0, "not this hand"), carry(mallory, hana))[1],
    "drop": lambda mallory, hana: hana.connection_lost(0.0, "reset"),
}


@pytest.mark.parametrize("how", list(QUITS))
def test_quitting_at_move_0_is_counted_in_the_pin(how: str, tmp_path: Path) -> None:
    peers_file = tmp_path / "known_peers.json"
    mallory_id = Identity.generate()
    count = 0
    for _ in range(10):
        hana = connection(
            Role.HOST, Identity.generate(), "hana", KnownPeers(peers_file), dealings=BOTH
        )
        mallory = connection(Role.JOINER, mallory_id, "mallory", KnownPeers(None), dealings=BOTH)
        mallory.start()
        seen: list[ConnectionEvent] = []
        for _ in range(200):
            seen += carry(mallory, hana)
            carry(hana, mallory)
            if any(isinstance(e, TossDone) for e in seen):
                break
        else:
            raise AssertionError("the first deal was never laid out")
        lockstep = hana.session.lockstep if hana.session is not None else None
        assert lockstep is not None and lockstep.match.round is not None
        if lockstep.match.round.over:  # over as it was dealt (a teyaku): no move to await
            continue
        count += 1
        events = QUITS[how](mallory, hana)
        (ended,) = [e for e in events if isinstance(e, Ended)]
        ending: Ending = ended.ending
        assert ending.suspicious and ending.by is Role.JOINER, ending
        assert hana.toss_aborts == count
        assert KnownPeers(peers_file).toss_aborts("mallory", mallory_id.public_key) == count
        if count == 2:
            return
    raise AssertionError("the first deals were over as they were dealt")


def test_a_peer_gone_silent_with_its_seed_owed_is_silent_not_a_withholder() -> None:
    """No heartbeat either: the link may be gone, so the ending is the silence timeout's
    (a resume would take it back), not a refused audit."""
    for seed in range(1, 20):
        table = Table(dealings=PRIVATE, seed=seed, silence_timeout=SILENCE)
        tap = SeedTap(table, Role.JOINER, "withhold", last=False)
        table.tap = tap
        table.run()
        if tap.fired:
            break
    else:
        raise AssertionError("no match went past its first deal")
    host = table.host
    start = table.now
    while not host.closed and table.now < start + 60:
        table.now += 0.5
        table.events[Role.HOST].extend(host.tick(table.now))
    ending = host.ending
    assert ending is not None and ending.how == "silent" and ending.by is Role.JOINER, ending
    assert ending.audit is not None and ending.audit.result == "refused"  # it never came
