"""The move clock and abandonment (docs/protocol.md, "Time"), attack first.

A loser who keeps heartbeating but never moves must not hold the winner: after the abandon
time the waiting side ends the match, recorded as abandoned by the peer with every move
signed so far. The attacker is built on the project's own modules: a real session that pings
on time and never plays. Clock values are short so that each test runs in seconds.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import json
import random
import re
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import koikoi.net
from koikoi.ai.basic import GreedyPlayer
from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import KOIKOI, SHOBU, Action, Phase
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.session.clock import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_CLOCK,
    LEGACY_CLOCK,
    ClockSetting,
)
from koikoi.net.session.events import Ended, OutOfTime, PeerOverdue
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions, ThreadedSeat
from koikoi.net.transport.room import Room
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_message, unpack
from tests.conftest import run_koikoi
from tests.net_support import Table, in_play, spawn

LEGACY = {role: LEGACY_CLOCK for role in Role}
"""60 s for each move and no reserve: the clock of these cases (the reserve's are below)."""


def waiting_pair(moves: int = 6, **kwargs: Any) -> tuple[Table, Role, Role]:
    """A table a few moves in, its match not over; returns it, the seat to move and the seat
    waiting. Its clock is 60 s a move with no reserve unless ``clocks`` says another."""
    kwargs.setdefault("clocks", LEGACY)
    table = in_play(moves, seeds=range(5, 45), silence_timeout=1000.0, **kwargs)
    lockstep = table.host.lockstep
    assert lockstep is not None
    mover = Role.HOST if lockstep.match.current_seat() == Role.HOST.seat else Role.JOINER
    return table, mover, mover.peer


def pings(table: Table, role: Role) -> None:
    """``role`` ticks (sending its heartbeat) and the peer reads it."""
    session = table.sessions[role]
    table.events[role].extend(session.tick(table.now))
    table.deliver(role, session.outgoing())


def test_the_defaults_are_a_minute_an_action_five_minutes_of_reserve_and_three_to_abandon() -> None:
    assert ClockSetting(60, 300) == DEFAULT_CLOCK and DEFAULT_ABANDON_AFTER == 180.0
    table = Table()
    assert table.host.move_clock == 60.0 and table.host.abandon_after == 180.0
    assert table.host.clock_setting == DEFAULT_CLOCK
    assert table.host.clock(0.0) is None  # no clock during the toss


def test_both_sides_run_the_same_clock_from_the_move_that_gave_the_turn() -> None:
    table, mover, waiter = waiting_pair()
    started = table.now
    table.now += 17.5
    for role in Role:
        clock = table.sessions[role].clock(table.now)
        assert clock is not None
        assert clock.seat == mover.seat and clock.local == (role is mover)
        assert clock.left == pytest.approx(42.5) and clock.waited == pytest.approx(17.5)
        assert not clock.overdue
    # The mover's client is woken when its minute is up, not before.
    session = table.sessions[mover]
    timer = session.next_timer()
    assert timer is not None and timer <= started + 60.0 + 1e-9
    # A move restarts the clock, now the other seat's, on both sides.
    table.events[mover].extend(session.play(table.choose(session), table.now))
    table.deliver(mover, session.outgoing())
    for role in Role:
        clock = table.sessions[role].clock(table.now)
        assert clock is not None and clock.left == pytest.approx(60.0)


def test_the_local_player_who_runs_out_gets_a_safe_move_from_its_own_side() -> None:
    table, mover, waiter = waiting_pair()
    session = table.sessions[mover]
    table.now += 59.9
    assert not [e for e in session.tick(table.now) if isinstance(e, OutOfTime)]
    pings(table, waiter)  # the other side's heartbeats change nothing
    table.now += 0.2
    out = [e for e in session.tick(table.now) if isinstance(e, OutOfTime)]
    assert out == [OutOfTime(mover.seat, session.lockstep.seq)]  # type: ignore[union-attr]
    later = session.tick(table.now + 5)
    assert not [e for e in later if isinstance(e, OutOfTime)]  # said once a turn
    observation = session.local_turn
    assert observation is not None
    action = session.automatic_action(GreedyPlayer().choose)
    assert action in observation.legal_actions
    events = session.play(action, table.now)
    table.deliver(mover, session.outgoing())
    assert table.sessions[waiter].lockstep.seq == session.lockstep.seq  # type: ignore[union-attr]
    assert events and session.ending is None


def test_the_safe_move_is_the_clients_choice_with_a_random_of_the_session() -> None:
    """The session picks no computer player itself: the client passes its chooser, which
    gets the legal moves and a random that is the same for the same session and place in
    the log (both the window and a test get the same move)."""
    table, mover, _ = waiting_pair()
    session = table.sessions[mover]
    observation = session.local_turn
    assert observation is not None
    seen: list[tuple[tuple[Action, ...], float]] = []

    def last(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        assert obs.legal_actions == observation.legal_actions
        seen.append((tuple(legal), rng.random()))
        return legal[-1]

    assert session.automatic_action(last) == observation.legal_actions[-1]
    assert session.automatic_action(last) == observation.legal_actions[-1]
    assert seen[0] == seen[1] and seen[0][0] == tuple(observation.legal_actions)
    greedy = session.automatic_action(GreedyPlayer().choose)
    assert greedy == session.automatic_action(GreedyPlayer().choose)
    assert greedy in observation.legal_actions
    waiting = table.sessions[mover.peer]
    with pytest.raises(ValueError, match="not this seat's move"):
        waiting.automatic_action(last)


def test_the_protocol_core_imports_no_computer_player() -> None:
    """``koikoi.net`` decides; the computer players are ``koikoi.ai``'s, chosen by the
    client (the commands ``cli.py`` and ``bench.py`` pick the bot that plays)."""
    net = Path(koikoi.net.__file__).parent
    checked = 0
    for path in sorted(net.rglob("*.py")):
        if path.name in ("cli.py", "bench.py"):
            continue
        checked += 1
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert module.split(".")[:2] != ["koikoi", "ai"], f"{path.name} imports {module}"
    assert checked > 20


def test_the_automatic_move_calls_shobu_not_koikoi() -> None:
    """Each table's decks are the toss's (random): a match may hold fewer than three
    koikoi-or-shobu decisions, so the matches go on until three were met."""
    greedy = GreedyPlayer().choose
    decisions = matches = 0
    while decisions < 3:
        matches += 1
        assert matches <= 20, f"only {decisions} decisions in 20 matches"
        table = Table(seed=3)
        while not (table.host.closed and table.joiner.closed) and decisions < 3:
            for role in Role:
                session = table.sessions[role]
                while (obs := session.local_turn) is not None:
                    action = table.choose(session)
                    assert session.automatic_action(greedy) in obs.legal_actions
                    if obs.phase is Phase.DECIDE:
                        decisions += 1
                        assert session.automatic_action(greedy) == SHOBU
                        if KOIKOI in obs.legal_actions:
                            action = KOIKOI  # play on, to meet more decisions
                    table.events[role].extend(session.play(action, table.now))
                table.deliver(role, session.outgoing())


NO_CLOCK = {role: ClockSetting(0) for role in Role}
"""No move clock: the abandon time alone (with a clock, it counts from when the peer's runs
out: below)."""


def test_a_peer_that_pings_but_never_moves_is_declared_to_have_abandoned() -> None:
    table, mover, waiter = waiting_pair(moves=9, clocks=NO_CLOCK)
    good = table.sessions[waiter]
    good.abandon_after = 5.0
    moves = good.lockstep.seq  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not overdue"):
        good.abandon(table.now)
    # The loser heartbeats every second: it stays connected, and that changes nothing.
    for _ in range(4):
        table.now += 1.0
        pings(table, mover)
        assert not [e for e in table.events[waiter] if isinstance(e, PeerOverdue)]
    table.now += 1.0
    pings(table, mover)
    pings(table, waiter)
    overdue = [e for e in table.events[waiter] if isinstance(e, PeerOverdue)]
    assert len(overdue) == 1 and overdue[0].seat == mover.seat
    assert good.ending is None  # the sans-I/O session only says so: who waits decides
    events = good.abandon(table.now)
    assert isinstance(events[0], Ended)
    ending = events[0].ending
    assert ending.how == "abandoned" and ending.by is mover and not ending.finished
    assert "sent no move for 5 s" in ending.reason
    table.deliver(waiter, good.outgoing())
    # The good side's record: abandoned by the peer, with the last signed state.
    record = good.record().to_json()
    assert record["end"]["how"] == "abandoned"
    assert record["end"]["by"] == mover.seat and record["end"]["role"] == mover.value
    assert record["end"]["moves"] == moves
    report = verify_record(record)
    assert report.moves == moves and report.result["finished"] is False
    # The peer was told, and its own record agrees on who abandoned.
    sent = [unpack(m) for m in table.sent[waiter]]
    assert {"t": "bye", "reason": "abandoned"} in sent
    peer_end = table.sessions[mover].ending
    assert peer_end is not None and peer_end.how == "abandoned" and peer_end.by is mover


def test_an_abandoned_claim_off_the_peers_turn_is_not_believed() -> None:
    table, mover, waiter = waiting_pair()
    # The seat to move claims the other one abandoned: the one waiting cannot have.
    events = table.inject(mover, encode_message("bye", reason="abandoned"))
    ending = events[0].ending  # type: ignore[union-attr]
    assert ending.how == "stopped" and ending.by is mover


# --- over real sockets: the asyncio transport the CLI uses ---------------------------------


class NeverMoves:
    """The attacker's seat: thinks forever; its session keeps heartbeating meanwhile."""

    async def choose(self, observation: Observation) -> Action:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    def notify(self, events: Sequence[Event]) -> None:
        pass

    def cancel(self) -> None:
        pass


def options(name: str, **kwargs: float) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        **kwargs,  # type: ignore[arg-type]
    )


def greedy() -> ThreadedSeat:
    from koikoi.ai.seat import bot_seat

    return ThreadedSeat(bot_seat("greedy"))


async def _stall_against_room(abandon_after: float) -> tuple[Outcome, Outcome]:
    # no clock: the abandon time alone (a clock's time comes first, tested on a stepped clock)
    host = options("hana", abandon_after=abandon_after, silence_timeout=3.0)
    room = Room(dataclasses.replace(host, clock=ClockSetting(0)), greedy())
    _, port = await room.open("127.0.0.1", 0)
    try:
        # The attacker: silence timeout 3 s, so it pings every second; it never moves and
        # would never give up by itself.
        loser = options("taro", move_clock=3600.0, abandon_after=3600.0, silence_timeout=3.0)
        joined = asyncio.ensure_future(join("127.0.0.1", port, loser, NeverMoves()))
        hosted = await asyncio.wait_for(room.outcome(), abandon_after + 20)
        return hosted, await asyncio.wait_for(joined, 10)
    finally:
        await room.close()


def test_a_stalling_peer_over_tcp_is_recorded_as_having_abandoned() -> None:
    hosted, joined = asyncio.run(_stall_against_room(abandon_after=2.0))
    session = hosted.session
    assert session is not None and session.ending is not None
    ending = session.ending
    assert ending.how == "abandoned" and ending.by is Role.JOINER, ending
    assert "it abandoned the match" in hosted.reason
    record = session.record().to_json()
    assert record["end"]["how"] == "abandoned" and record["end"]["role"] == "joiner"
    assert verify_record(record).result["finished"] is False
    # The heartbeats kept it connected the whole time: it did not fall silent.
    assert hosted.times["ended"] - hosted.times["first_deal"] >= 1.9
    mine = joined.session
    assert mine is not None and mine.ending is not None
    assert mine.ending.how == "abandoned" and mine.ending.by is Role.JOINER


# --- the real CLI --------------------------------------------------------------------------


def test_koikoi_host_ends_the_match_of_a_peer_that_never_moves(tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    h = spawn(
        tmp_path / "host",
        "host",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--name",
        "hana",
        "--bot",
        "greedy",
        "--timeout",
        "3",
        "--abandon-after",
        "2",
        "--clock",  # the abandon time alone: a clock's time would come first
        "off",
        "--record",
        str(record),
        "--dealing",  # the in-process loser offers the joint seed (PeerOptions' default)
        "seed",
    )
    try:
        port = h.port()
        loser = options("taro", move_clock=3600.0, abandon_after=3600.0, silence_timeout=3.0)
        joined = asyncio.run(asyncio.wait_for(join("127.0.0.1", port, loser, NeverMoves()), 40))
        assert h.wait(30) == 1, h.stderr
    finally:
        h.kill()
        if h.proc.poll() is None:
            h.proc.send_signal(signal.SIGTERM)
    result = h.result()
    assert result["finished"] is False and result["winner"] is None
    assert result["ended"] == "abandoned" and result["end"]["by"] == 1
    assert re.search(r"the peer sent no move for [23] s: it abandoned the match", h.stderr)
    saved = json.loads(record.read_text())
    assert saved["end"]["how"] == "abandoned" and saved["end"]["role"] == "joiner"
    assert run_koikoi("verify", str(record)).returncode == 0
    assert joined.session is not None and joined.session.ending is not None
    assert joined.session.ending.how == "abandoned"
