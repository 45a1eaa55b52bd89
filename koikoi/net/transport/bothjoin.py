"""The joiner that listens as well as dials (docs/protocol.md, "Both sides dial"): when no
address of a join code answered, ``join CODE`` listens on its own port, dials the host's
addresses from it again and again, and plays over the first connection, dialled or
accepted, whose handshake proves the host the code names.

Whoever calls the listening joiner gets the joiner's side of the handshake and nothing
more: the host's fingerprint is pinned (a program with another identity is refused in the
handshake, before anything is played), and the connections are let in by the same policy as
a room's (:class:`~koikoi.net.room.RoomPolicy`: a cap on handshakes at once and per address,
deadlines for the first message and the whole handshake, and in a password room one PAKE
attempt in flight per address, a back-off after wrong passwords and a rate in all). The
first handshake that succeeds is the match's; every other connection is closed then.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from koikoi.net.address import format_address
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.errors import AuthenticationFailed, PeerRefused
from koikoi.net.room import Refusal, RoomPolicy, Ticket
from koikoi.net.transport.bothdial import NO_ANSWER, Streams, dial_from
from koikoi.net.transport.joiner import _join_once
from koikoi.net.transport.options import EventHook, LocalPlayer, Outcome, PeerOptions

MAX_PENDING: Final = 8
"""Handshakes a listening joiner runs at once (it waits for one host, not a crowd)."""
MAX_PER_ADDRESS: Final = 2


@dataclass
class Joined:
    """The connection a listening joiner played over."""

    outcome: Outcome
    peer: tuple[str, int]
    """The host's address and port as the connection saw them."""
    dialled: bool
    """This side dialled it (else the listening port took it)."""


async def join_both_ways(
    sockets: Sequence[socket.socket],
    port: int,
    candidates: Sequence[tuple[str, int]],
    until: float,
    options: PeerOptions,
    player: LocalPlayer,
    on_event: EventHook | None = None,
    stop: asyncio.Event | None = None,
) -> Joined | dict[tuple[str, int], str]:
    """Listen on ``sockets`` (this side's ``port``) and dial ``candidates`` from it until
    the loop time ``until``; play the match over the first connection whose handshake
    succeeds (``options.expected_fingerprint`` pins the host). Returns that connection, or,
    when the window closed (or ``stop`` was set) with no handshake done, why each candidate
    did not connect."""
    return await _BothWays(options, player, on_event, stop).run(sockets, port, candidates, until)


class _BothWays:
    """:func:`join_both_ways`'s connections: admitted by the policy, each a joiner's
    handshake, the first to succeed the match's and the others closed."""

    def __init__(
        self,
        options: PeerOptions,
        player: LocalPlayer,
        on_event: EventHook | None,
        stop: asyncio.Event | None,
    ) -> None:
        self.options, self.player, self.on_event, self.stop = options, player, on_event, stop
        self.loop = asyncio.get_running_loop()
        self.policy = RoomPolicy(MAX_PENDING, MAX_PER_ADDRESS, private=bool(options.password))
        self.writers: dict[int, asyncio.StreamWriter] = {}
        self.tasks: set[asyncio.Task[Outcome]] = set()
        self.winner: asyncio.Future[tuple[asyncio.Task[Outcome], Joined]] = (
            self.loop.create_future()
        )
        self.sweeper: asyncio.TimerHandle | None = None

    async def run(
        self,
        sockets: Sequence[socket.socket],
        port: int,
        candidates: Sequence[tuple[str, int]],
        until: float,
    ) -> Joined | dict[tuple[str, int], str]:
        why: dict[tuple[str, int], str] = {}

        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.arrive((reader, writer), False)

        servers = [await asyncio.start_server(accepted, sock=sock) for sock in sockets]
        dialling = asyncio.ensure_future(
            dial_from(port, candidates, until, lambda st, _: self.arrive(st, True), why=why)
        )
        try:
            while not self.winner.done():
                if self.stop is not None and self.stop.is_set():
                    break
                if self.loop.time() >= until and not self.policy.pending and not self.tasks:
                    break
                await asyncio.wait([self.winner], timeout=0.1)
        finally:
            dialling.cancel()
            for server in servers:
                server.close()
            if self.sweeper is not None:
                self.sweeper.cancel()
        if not self.winner.done():
            for writer in self.writers.values():
                writer.transport.abort()
            for task in list(self.tasks):
                task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.gather(*self.tasks, return_exceptions=True)
            return {c: why.get(c, NO_ANSWER) for c in candidates}
        task, joined = self.winner.result()
        joined.outcome = await task
        return joined

    def drop(self, tickets: Sequence[Ticket]) -> None:
        for ticket in tickets:
            writer = self.writers.pop(ticket.number, None)
            if writer is not None:
                writer.transport.abort()

    def sweep(self) -> None:
        self.drop(self.policy.overdue(self.loop.time()))
        if self.sweeper is not None:
            self.sweeper.cancel()
            self.sweeper = None
        deadline = self.policy.next_deadline()
        if deadline is not None:
            self.sweeper = self.loop.call_at(deadline, self.sweep)

    def arrive(self, streams: Streams, dialled: bool) -> None:
        """A connection came, accepted or dialled: its handshake runs, if the policy says."""
        reader, writer = streams
        peer = writer.get_extra_info("peername")
        if self.winner.done() or not isinstance(peer, tuple):
            writer.transport.abort()
            return
        where = (str(peer[0]), int(peer[1]))
        ticket = self.policy.admit(format_address(*where), self.loop.time())
        if isinstance(ticket, Refusal):
            writer.transport.abort()
            return
        self.writers[ticket.number] = writer
        self.drop(self.policy.take_evicted())
        task = asyncio.ensure_future(
            self.play(ticket, streams, Joined(Outcome(""), where, dialled))
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.sweep()

    async def play(self, ticket: Ticket, streams: Streams, joined: Joined) -> Outcome:
        task = asyncio.current_task()
        assert task is not None
        policy = self.policy

        def heard() -> None:
            if ticket.number in policy.pending and ticket.number not in policy.spoken:
                policy.heard(ticket, self.loop.time())
                self.drop(policy.take_evicted())
                self.sweep()

        def hook(event: ConnectionEvent, now: float) -> None:
            if isinstance(event, HandshakeDone) and not self.winner.done():
                policy.established(ticket, now)
                self.winner.set_result((task, joined))
                self.drop(list(policy.pending.values()))
            if self.on_event is not None and self.winner.done() and self.winner.result()[0] is task:
                self.on_event(event, now)

        host, port = joined.peer
        try:
            outcome = await _join_once(
                host, port, self.options, self.player, hook, self.stop, streams=streams,
                on_receive=heard,
            )  # fmt: skip
        finally:
            self.writers.pop(ticket.number, None)
            policy.closed(ticket, self.loop.time())
        failure = None if outcome.connection is None else outcome.connection.failure
        if isinstance(failure, AuthenticationFailed) or (
            isinstance(failure, PeerRefused) and failure.code == "auth"
        ):
            policy.wrong_password(ticket, self.loop.time())
        return outcome
