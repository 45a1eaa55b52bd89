"""The asyncio transport over real loopback sockets, both ends in one event loop.

Covers what needs a socket but not a process: the room turning away a second joiner while it
plays, garbage after a finished handshake, a local player that fails or thinks slowly, and
leaving on request.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import fields

import pytest

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.connection import Connection, HandshakeDone
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions, ThreadedSeat
from koikoi.net.transport.room import OUT_OF_DESCRIPTORS, Room
from koikoi.net.wire import encode_frame
from tests import virtual_loop


class Bot:
    """A quick random player; ``hold`` makes it wait before its first move."""

    def __init__(self, seed: int, hold: asyncio.Event | None = None, delay: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.hold = hold
        self.delay = delay
        self.moves = 0
        self.cancelled = False

    async def choose(self, observation: Observation) -> Action:
        if self.hold is not None:
            await self.hold.wait()
        if self.delay and self.moves == 0:
            await asyncio.sleep(self.delay)
        self.moves += 1
        return self.rng.choice(observation.legal_actions)

    def notify(self, events: Sequence[Event]) -> None:
        pass

    def cancel(self) -> None:
        self.cancelled = True


def options(name: str, timeout: float = 15.0) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        silence_timeout=timeout,
    )


async def room(player: object, timeout: float = 15.0) -> tuple[Room, int]:
    r = Room(options("hana", timeout), player)  # type: ignore[arg-type]
    _, port = await r.open("127.0.0.1", 0)
    return r, port


def test_a_match_over_loopback_in_one_loop() -> None:
    async def main() -> tuple[Outcome, Outcome]:
        r, port = await room(Bot(1))
        try:
            joined = await join("127.0.0.1", port, options("taro"), Bot(2))
            return await r.outcome(), joined
        finally:
            await r.close()

    hosted, joined = asyncio.run(main())
    assert hosted.finished and joined.finished
    assert hosted.session is not None and joined.session is not None
    assert hosted.session.result_json() == joined.session.result_json()
    assert hosted.bytes_sent == joined.bytes_received > 1000
    assert joined.bytes_sent == hosted.bytes_received > 1000
    assert {"connected", "established", "first_deal", "ended"} <= set(joined.times)


def test_a_busy_room_turns_a_second_joiner_away() -> None:
    async def main() -> tuple[Outcome, Outcome, Outcome]:
        hold = asyncio.Event()
        r, port = await room(Bot(1, hold))
        try:
            first = asyncio.ensure_future(join("127.0.0.1", port, options("taro"), Bot(2, hold)))
            while not r.playing:
                await asyncio.sleep(0.01)
            second = await join("127.0.0.1", port, options("jiro"), Bot(3))
            hold.set()
            return await r.outcome(), await first, second
        finally:
            await r.close()

    hosted, first, second = asyncio.run(main())
    assert hosted.finished and first.finished
    assert second.session is None
    assert second.failure == "the peer refused: it is already playing"


def test_garbage_after_the_handshake_ends_the_match_with_a_reason() -> None:
    async def main() -> Outcome:
        r, port = await room(Bot(1, asyncio.Event()))  # the host never moves
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            conn = options("taro").connection(Role.JOINER, 0.0)
            conn.start()
            writer.write(conn.data_to_send())
            while conn.session is None:
                events = conn.receive_data(await reader.read(65536), 0.0)
                writer.write(conn.data_to_send())
            assert any(isinstance(e, HandshakeDone) for e in events)
            writer.write(encode_frame(b"\x00" * 64))  # not a ciphertext of the session keys
            writer.write_eof()
            outcome = await asyncio.wait_for(r.outcome(), 10)
            writer.close()
            return outcome
        finally:
            await r.close()

    outcome = asyncio.run(main())
    session = outcome.session
    assert session is not None and session.ending is not None
    assert session.ending.how == "protocol" and session.ending.by is Role.JOINER
    assert "did not decrypt" in session.ending.reason


def test_an_oversized_frame_after_the_handshake_ends_the_match() -> None:
    async def main() -> Outcome:
        r, port = await room(Bot(1, asyncio.Event()))
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            conn = options("taro").connection(Role.JOINER, 0.0)
            conn.start()
            writer.write(conn.data_to_send())
            while conn.session is None:
                conn.receive_data(await reader.read(65536), 0.0)
                writer.write(conn.data_to_send())
            writer.write((1 << 20).to_bytes(4, "big"))
            writer.write_eof()
            outcome = await asyncio.wait_for(r.outcome(), 10)
            writer.close()
            return outcome
        finally:
            await r.close()

    ending = asyncio.run(main()).session.ending  # type: ignore[union-attr]
    assert ending is not None and ending.how == "protocol"
    assert "frame length 1048576 is not in 1..65536" in ending.reason


def test_a_failing_local_player_stops_the_match_for_both() -> None:
    class Broken(Bot):
        async def choose(self, observation: Observation) -> Action:
            raise RuntimeError("out of cards in its head")

    async def main() -> tuple[Outcome, Outcome]:
        r, port = await room(Broken(1))
        try:
            joined = await join("127.0.0.1", port, options("taro"), Broken(2))
            return await r.outcome(), joined
        finally:
            await r.close()

    hosted, joined = asyncio.run(main())
    endings = [o.session.ending for o in (hosted, joined)]  # type: ignore[union-attr]
    assert all(e is not None and not e.finished for e in endings)
    hows = sorted(e.how for e in endings)  # type: ignore[union-attr]
    assert hows == ["error", "stopped"]
    assert any("out of cards in its head" in e.reason for e in endings)  # type: ignore[union-attr]


def test_leaving_on_request() -> None:
    async def main() -> tuple[Outcome, Outcome]:
        stop = asyncio.Event()
        r, port = await room(Bot(1, asyncio.Event()))
        try:
            task = asyncio.ensure_future(
                join("127.0.0.1", port, options("taro"), Bot(2, asyncio.Event()), stop=stop)
            )
            while not r.playing:
                await asyncio.sleep(0.01)
            stop.set()
            joined = await task
            return await r.outcome(), joined
        finally:
            await r.close()

    hosted, joined = asyncio.run(main())
    assert hosted.session.ending.how == "left"  # type: ignore[union-attr]
    assert hosted.session.ending.by is Role.JOINER  # type: ignore[union-attr]
    assert joined.session.ending.how == "left"  # type: ignore[union-attr]


def test_heartbeats_keep_a_slow_thinker_alive() -> None:
    # The silence timeout is short, and each side's first decision takes longer than it:
    # one waits in the loop, the other blocks its worker thread. Heartbeats keep both alive.
    # On a virtual clock (tests/virtual_loop.py): the 2.2 s of thinking are the loop's.
    class Sleepy:
        def __init__(self) -> None:
            self.rng = random.Random(4)
            self.first = True
            self.loop: asyncio.AbstractEventLoop | None = None

        def choose(self, observation: Observation) -> Action:
            if self.first:  # blocks its thread until 2.2 s of the loop's time went by
                self.first = False
                assert self.loop is not None
                until = self.loop.time() + 2.2
                while self.loop.time() < until:
                    time.sleep(0.002)
            return self.rng.choice(observation.legal_actions)

        def notify(self, events: Sequence[Event]) -> None:
            pass

    sleepy = Sleepy()

    async def main() -> tuple[Outcome, Outcome]:
        sleepy.loop = asyncio.get_running_loop()
        r, port = await room(ThreadedSeat(sleepy), timeout=1.0)
        try:
            joined = await join("127.0.0.1", port, options("taro", 1.0), Bot(5, delay=2.2))
            return await r.outcome(), joined
        finally:
            await r.close()

    hosted, joined = virtual_loop.run(main())
    assert hosted.finished and joined.finished, (hosted.reason, joined.reason)
    assert not sleepy.first  # it did think for 2.2 s


def test_nobody_at_the_address() -> None:
    async def main() -> Outcome:
        r, port = await room(Bot(1))
        await r.close()
        return await join("127.0.0.1", port, options("taro", 2.0), Bot(2))

    outcome = asyncio.run(main())
    assert outcome.session is None
    assert outcome.failure is not None and outcome.failure.startswith("cannot connect to")


class _OutOfDescriptors(PeerOptions):
    """Options whose first connections meet EMFILE, as in a flood under a low ``ulimit -n``."""

    failures = 3

    def connection(self, role: Role, now: float) -> Connection:
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        return super().connection(role, now)


def test_a_connection_that_meets_emfile_is_turned_away_quietly_and_the_room_plays_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    turned: list[tuple[str, str]] = []

    async def main() -> tuple[Outcome, list[Outcome], Outcome]:
        base = options("hana")
        short = _OutOfDescriptors(**{f.name: getattr(base, f.name) for f in fields(base)})
        r = Room(short, Bot(1), on_refused=lambda a, why: turned.append((a, why)))
        _, port = await r.open("127.0.0.1", 0)
        try:
            failed = [await join("127.0.0.1", port, options("taro"), Bot(2)) for _ in range(3)]
            joined = await join("127.0.0.1", port, options("taro"), Bot(2))
            return await r.outcome(), failed, joined
        finally:
            await r.close()

    with caplog.at_level(logging.INFO, logger="koikoi.net.transport"):
        hosted, failed, joined = asyncio.run(main())
    assert all(f.session is None and f.failure for f in failed)
    assert turned == [("a connection", OUT_OF_DESCRIPTORS)] * 3
    said = [r.getMessage() for r in caplog.records if "file descriptors" in r.getMessage()]
    assert said == [f"turned connections away: {OUT_OF_DESCRIPTORS}"]  # once, not three times
    assert not any("Too many open files" in r.getMessage() for r in caplog.records)
    assert hosted.finished and joined.finished
