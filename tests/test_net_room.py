"""The room's admission policy on its own: no socket, no loop, the clock passed in by hand.

Both transports (asyncio's ``koikoi host`` room and the window's Qt room) ask this policy, so
what it says here is what every room does; the last test holds a real handshake to it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import pytest

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.connection import Connection, HandshakeDone, HandshakeFailed
from koikoi.net.errors import PeerRefused
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.room import MAX_PENDING, Refusal, RoomPolicy, Ticket
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room


def admitted(policy: RoomPolicy, address: str = "192.0.2.1:4000", now: float = 0.0) -> Ticket:
    ticket = policy.admit(address, now)
    assert isinstance(ticket, Ticket), ticket
    return ticket


def test_a_full_room_evicts_its_oldest_silent_handshake_never_the_newcomer() -> None:
    policy = RoomPolicy(max_pending=3)
    tickets = [admitted(policy, f"192.0.2.{i}:4000", now=i) for i in range(3)]
    assert len({t.number for t in tickets}) == 3
    assert [t.since for t in tickets] == [0, 1, 2]
    assert not policy.busy and not policy.playing
    policy.heard(tickets[0])  # the oldest has spoken: the oldest silent one goes
    newcomer = admitted(policy, "192.0.2.9:4000", 3.0)
    assert policy.take_evicted() == [tickets[1]]
    assert policy.take_evicted() == []
    assert set(policy.pending) == {tickets[0].number, tickets[2].number, newcomer.number}
    # A handshake that fails frees its place: nobody is evicted then.
    assert policy.closed(tickets[2], 4.0) is False
    admitted(policy, "192.0.2.10:4000", 5.0)
    assert policy.take_evicted() == []


def test_the_default_limit() -> None:
    policy = RoomPolicy()
    for i in range(MAX_PENDING):
        admitted(policy, f"192.0.2.{i}:4000")
    admitted(policy, "192.0.2.200:4000", 10.0)
    assert len(policy.take_evicted()) == 1 and len(policy.pending) == MAX_PENDING


def test_an_address_over_its_share_evicts_its_own_silent_connections() -> None:
    policy = RoomPolicy(max_per_address=2, speak_grace=0.5)
    other = admitted(policy, "198.51.100.7:1", 0.0)
    first = admitted(policy, "192.0.2.1:4000", 0.0)
    second = admitted(policy, "192.0.2.1:4001", 0.1)
    # Within the grace nobody counts as silent yet: the newcomer is let in over the share.
    third = admitted(policy, "192.0.2.1:4002", 0.2)
    assert policy.take_evicted() == []
    policy.heard(first)
    admitted(policy, "192.0.2.1:4003", 1.0)
    assert policy.take_evicted() == [second]  # silent past its grace; not the one that spoke
    assert other.number in policy.pending and third.number in policy.pending


def test_deadlines_for_the_first_message_and_the_whole_handshake() -> None:
    policy = RoomPolicy(first_message=3.0, handshake=10.0)
    silent, talker = admitted(policy, now=0.0), admitted(policy, now=1.0)
    policy.heard(talker)
    assert policy.deadline(silent) == 3.0 and policy.deadline(talker) == 11.0
    assert policy.next_deadline() == 3.0
    assert policy.overdue(2.9) == []
    assert policy.overdue(3.0) == [silent]
    assert policy.next_deadline() == 11.0
    assert policy.overdue(11.0) == [talker]
    assert policy.pending == {} and policy.next_deadline() is None


def test_the_first_handshake_wins_and_the_room_is_busy_until_it_closes_and_after() -> None:
    policy = RoomPolicy()
    first, second = admitted(policy), admitted(policy, "192.0.2.2:4000")
    policy.established(second, 1.0)
    assert policy.playing and policy.busy and policy.match == second
    assert policy.pending == {first.number: first}
    # The other pending handshake may not finish now, and newcomers are turned away: only a
    # match makes a room busy.
    assert isinstance(policy.admit("192.0.2.3:4000", 2.0), Refusal)
    with pytest.raises(ValueError, match="already playing"):
        policy.established(first, 2.0)
    assert policy.closed(first, 3.0) is False
    assert policy.playing
    # The match ends: the room has played its match and takes nobody else.
    assert policy.closed(second, 60.0) is True
    assert not policy.playing and policy.busy and policy.match_over
    assert isinstance(policy.admit("192.0.2.4:4000", 61.0), Refusal)


def test_closing_twice_or_an_unknown_ticket_changes_nothing() -> None:
    policy = RoomPolicy()
    ticket = admitted(policy)
    assert policy.closed(ticket, 1.0) is False
    assert policy.closed(ticket, 2.0) is False
    with pytest.raises(ValueError, match="not a pending handshake"):
        policy.established(ticket, 3.0)
    assert not policy.busy and policy.pending == {}


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        RoomPolicy(max_pending=0)
    with pytest.raises(ValueError, match="at least 1"):
        RoomPolicy(max_per_address=0)


def _connection(role: Role) -> Connection:
    return Connection(
        role,
        identity=Identity.generate(),
        nickname=role.value,
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
        now=0.0,
    )


def test_a_handshake_finishing_after_another_match_started_is_refused_as_busy() -> None:
    # Two joiners run their handshakes at once; the policy's busy hook refuses the slower one
    # at its last message, and it learns why from the refuse message.
    policy = RoomPolicy()
    hosts, joiners, tickets = [], [], []
    for i in range(2):
        host, joiner = _connection(Role.HOST), _connection(Role.JOINER)
        host.busy = lambda: policy.busy
        tickets.append(admitted(policy, f"192.0.2.{i}:4000"))
        joiner.start()
        hosts.append(host)
        joiners.append(joiner)

    def exchange(i: int) -> list[object]:
        events: list[object] = []
        for _ in range(4):
            events += hosts[i].receive_data(joiners[i].data_to_send(), 0.0)
            events += joiners[i].receive_data(hosts[i].data_to_send(), 0.0)
        return events

    first = exchange(0)
    assert any(isinstance(e, HandshakeDone) for e in first)
    policy.established(tickets[0], 0.5)
    second = exchange(1)
    assert not any(isinstance(e, HandshakeDone) for e in second)
    failures = [e for e in second if isinstance(e, HandshakeFailed)]
    assert len(failures) == 2  # the host's side and the joiner's
    refused = failures[-1].error
    assert isinstance(refused, PeerRefused) and refused.code == "busy"
    assert str(refused) == "the peer refused: it is already playing"
    assert policy.closed(tickets[1], 1.0) is False and policy.playing


def test_a_failed_handshake_frees_its_place_before_its_socket_closes() -> None:
    # One handshake at a time; a silent connection fails at the one-second deadline but
    # never closes its end, so its socket lingers for the close grace. A joiner arriving in
    # that time gets in: the place was given back when the handshake failed.
    class Quick:
        def __init__(self) -> None:
            self.rng = random.Random(1)

        async def choose(self, observation: Observation) -> Action:
            return self.rng.choice(observation.legal_actions)

        def notify(self, events: Sequence[Event]) -> None:
            pass

        def cancel(self) -> None:
            pass

    def options(name: str) -> PeerOptions:
        return PeerOptions(
            identity=Identity.generate(),
            nickname=name,
            settings=Settings(),
            known_peers=KnownPeers(None),
            silence_timeout=1.0,
        )

    async def main() -> tuple[Outcome, list[str]]:
        failed: list[str] = []

        def on_event(event: object, now: float) -> None:
            if isinstance(event, HandshakeFailed):
                failed.append(str(event.error))

        room = Room(options("hana"), Quick(), max_pending=1, on_event=on_event)
        _, port = await room.open("127.0.0.1", 0)
        try:
            _, silent = await asyncio.open_connection("127.0.0.1", port)
            while not failed:
                await asyncio.sleep(0.01)
            joined = await join("127.0.0.1", port, options("taro"), Quick())
            silent.close()
            return joined, failed
        finally:
            await room.close()

    joined, failed = asyncio.run(main())
    assert failed == ["the peer did not finish the handshake within 1 s"]
    assert joined.failure is None and joined.finished, joined.reason


def test_wrong_passwords_back_off_doubling_from_the_second_and_one_attempt_in_flight() -> None:
    policy = RoomPolicy(private=True, max_backoff=4.0)
    now = 0.0
    waits: list[float] = []
    for _ in range(5):
        ticket = admitted(policy, "192.0.2.1:4000", now)
        policy.heard(ticket, now)
        assert policy.wrong_password(ticket, now) == len(waits) + 1
        policy.closed(ticket, now)
        until = now
        while isinstance(policy.admit("192.0.2.1:4001", until), Refusal):
            until += 0.25
        policy.take_evicted()
        policy.pending.clear()
        policy.spoken.clear()
        waits.append(until - now)
        now = until + 10.0  # the bucket is full again
    assert waits == [0.0, 1.0, 2.0, 4.0, 4.0]
    ticket = admitted(policy, "192.0.2.1:4000", now)
    policy.heard(ticket, now)
    policy.wrong_password(ticket, now)
    policy.closed(ticket, now)
    refusal = policy.admit("192.0.2.1:1", now + 0.1)
    assert isinstance(refusal, Refusal) and refusal.code == "wait"
    assert "wrong passwords from 192.0.2.1" in refusal.reason
    # Another address is not held back; a second attempt in flight evicts the first.
    first = admitted(policy, "198.51.100.1:1", now)
    second = admitted(policy, "198.51.100.1:2", now)
    policy.heard(first, now)
    policy.heard(second, now)
    assert policy.take_evicted() == [first]


def test_a_private_room_takes_at_most_its_guesses_per_second_in_all() -> None:
    policy = RoomPolicy(private=True, guesses_per_second=10.0, max_per_address=1000)
    taken = 0
    for i in range(400):  # 40 a second for 10 s, from 400 addresses
        now = i / 40
        ticket = admitted(policy, f"10.0.{i // 250}.{i % 250}:1", now)
        policy.heard(ticket, now)
        if ticket not in policy.take_evicted():
            taken += 1
            policy.closed(ticket, now)
    assert taken <= 10 + 10 * 10
    assert taken >= 100  # and it does take them at that rate
