"""Property: every record a side writes, wherever the session stops, replays as ``koikoi verify``
proves it (issue 20, item 3).

Random matches between two in-memory sessions (a real handshake, real keys, one message
delivered at a time in a random interleaving, the moves random), privately dealt and dealt by
the joint seed. Along the way both sides' records are taken as a record file holds them after
each entry; each match is then ended at a random point: a side leaves, the connection drops
with messages in flight, or it is cut just before or just after an acknowledgement crosses.
On each record, ``koikoi replay`` (the engine's replay) and ``koikoi verify`` (koikoi/net/
verify.py) both accept, with the same rounds, scores, winner and finish, and the side's result
(what ``koikoi host``/``join`` print) is that replay. Seeded, bounded: a few seconds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koikoi.engine.record import replay
from koikoi.net.roles import Role
from koikoi.net.verify import verify_record
from koikoi.net.wire import unpack
from tests.net_support import Table

BOTH = ("private", "seed")
ENDS = ("leave host", "leave joiner", "drop", "cut before an ack", "cut after an ack")


def _kind(message: bytes) -> object:
    value = unpack(message)
    return value.get("t") if isinstance(value, dict) else None


class _Cut(Exception):
    pass


class Interleaved:
    """Drives a table one step at a time: a side plays, or one message in flight crosses."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.flight: dict[Role, list[bytes]] = {role: [] for role in Role}
        self.cut: str | None = None
        """``cut before an ack`` / ``cut after an ack``: armed, fires at the next ack."""
        self.fired = False
        table.tap = self._tap

    def _tap(self, sender: Role, plain: list[bytes]) -> list[bytes]:
        if self.cut is None or self.fired:
            return plain
        for n, message in enumerate(plain):
            if _kind(message) == "ack":
                self.fired = True
                return plain[:n] if self.cut == "cut before an ack" else plain[: n + 1]
        return plain

    def collect(self) -> None:
        for role in Role:
            self.flight[role].extend(self.table.sessions[role].outgoing())

    def tick(self) -> bool:
        """One step; False when nothing is left to do."""
        table = self.table
        self.collect()
        options: list[tuple[str, Role]] = [
            ("play", role) for role in Role if table.sessions[role].local_turn is not None
        ]
        options += [("send", role) for role in Role if self.flight[role]]
        if not options:
            return False
        what, role = self.rng.choice(options)
        if what == "play":
            session = table.sessions[role]
            table.events[role].extend(session.play(table.choose(session), table.now))
        else:
            table.deliver(role, [self.flight[role].pop(0)])
            if self.fired:  # the connection is cut with the ack (crossed or not)
                raise _Cut
        table.now += 0.01
        return True

    def drop(self) -> None:
        """The connection is gone: what is in flight never arrives, nor what a side had
        queued and not sent yet (the wire's nonces would be past it)."""
        self.collect()
        self.flight = {role: [] for role in Role}
        for role in Role:
            self.table.sessions[role].connection_lost(self.table.now, "cut")


def _agree(record: dict[str, Any], where: str) -> dict[str, Any]:
    replayed = replay(record)
    verified = verify_record(record).result
    assert replayed == verified, where
    return replayed


def _play_one(dealing: str, seed: int, checks: int) -> tuple[str, int]:
    rng = random.Random(seed)
    dealings = {role: (BOTH if dealing == "private" else ("seed",)) for role in Role}
    table = Table(dealings=dealings, seed=seed)
    drive = Interleaved(table, rng)
    end = ENDS[seed % len(ENDS)]
    stop_at = rng.randrange(20, 900)  # ticks: from the first deal to past a match's end
    checked = ticks = 0
    try:
        while ticks < stop_at and drive.tick():
            ticks += 1
            if rng.random() < checks / stop_at:  # a record file as written at this point
                for role in Role:
                    _agree(table.sessions[role].record().to_json(), f"{seed} tick {ticks} {role}")
                checked += 1
        if end.startswith("leave"):
            who = Role.HOST if end == "leave host" else Role.JOINER
            table.sessions[who].leave(table.now)
        elif end == "drop":
            drive.drop()
        else:
            drive.cut = end
        while drive.tick():
            pass
    except _Cut:
        drive.drop()
    for role in Role:
        session = table.sessions[role]
        if not session.closed:
            session.connection_lost(table.now, "the test ends")
        record = session.record().to_json()
        replayed = _agree(record, f"{dealing} {seed} {end} at {ticks}: {role.value}'s record")
        result = session.result_json()
        assert result["rounds"] == replayed["rounds"] and result["scores"] == replayed["scores"]
        if result["finished"]:
            assert replayed["finished"] and result["winner"] == replayed["winner"]
    lockstep = table.host.lockstep
    return end, 0 if lockstep is None else lockstep.seq


@pytest.mark.parametrize("dealing", ["private", "seed"])
def test_every_record_written_replays_as_verify_proves(dealing: str) -> None:
    matches = 10 if dealing == "private" else 10
    seen = [_play_one(dealing, 1000 + n, checks=6) for n in range(matches)]
    assert {end for end, _ in seen} == set(ENDS)
    assert max(moves for _, moves in seen) > 20  # some matches went well into their play
