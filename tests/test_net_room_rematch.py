"""A room whose match is over answers a new call with ``busy`` (docs/protocol.md, "End of the
match, leaving, silence" and "Resume"), over real sockets on loopback.

A privately dealt match is played to its end between a real ``Room`` and ``join``; the joiner
dials again at once with the same key, as the app's rematch does, while the host's match
connection is still closing (a relay keeps it open: the joiner's end of the stream is not
passed on, so the host waits its close grace for it). The room must refuse that call as
``busy``, so the caller's retry on ``busy`` works, and leave its finished match alone: it
used to take the call for a resume of the finished match (same key), send ``ready``, and
hang up when the caller started a new match instead of sending ``resume``.
"""

from __future__ import annotations

import asyncio
import contextlib

from koikoi.engine.match import Settings
from koikoi.net.errors import PeerRefused
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room
from tests import virtual_loop
from tests.test_net_faults import Bot


def options(name: str, identity: Identity) -> PeerOptions:
    return PeerOptions(
        identity=identity,
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        silence_timeout=10.0,
        resume_window=60.0,
        dealings=("private", "seed"),
    )


class HoldingRelay:
    """A TCP relay to a room that passes every byte both ways, but not the caller's end of
    the stream: the room's side stays open until :meth:`close` (a peer slow to close)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: asyncio.Server | None = None
        self.upstreams: list[asyncio.StreamWriter] = []
        self.tasks: set[asyncio.Task[None]] = set()

    async def open(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for writer in self.upstreams:
            writer.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.upstreams.append(up_writer)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, eof: bool) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(4096):
                    dst.write(data)
                    await dst.drain()
                if eof:
                    dst.write_eof()

        for task in (pump(reader, up_writer, False), pump(up_reader, writer, True)):
            future = asyncio.ensure_future(task)
            self.tasks.add(future)


def test_a_call_with_the_match_s_key_after_its_end_is_refused_busy_not_hung_up_on() -> None:
    async def main() -> tuple[Outcome, Outcome, Outcome, bool]:
        hana, taro = Identity.generate(), Identity.generate()
        room = Room(options("hana", hana), Bot(1))
        _, port = await room.open("127.0.0.1", 0)
        relay = HoldingRelay(port)
        relay_port = await relay.open()
        try:
            first = await asyncio.wait_for(
                join("127.0.0.1", relay_port, options("taro", taro), Bot(2)), 120
            )
            # the match is over for the joiner; the host's connection still closes
            closing = room.policy.playing
            again = await asyncio.wait_for(
                join("127.0.0.1", port, options("taro", taro), Bot(3)), 60
            )
            hosted = await asyncio.wait_for(room.outcome(), 30)
        finally:
            await relay.close()
            await room.close()
        return first, again, hosted, closing

    # on a virtual clock: the host's close grace for the held connection takes no real time
    first, again, hosted, closing = virtual_loop.run(main())
    assert first.failure is None and first.finished, first.failure
    assert first.session is not None and first.session.dealing == "private"
    assert closing  # the call came while the host's match connection was still open
    failure = None if again.connection is None else again.connection.failure
    assert isinstance(failure, PeerRefused) and failure.code == "busy", failure
    assert again.session is None
    # the room's finished match is untouched: not taken over, not resumed
    assert hosted.finished and hosted.resumed == 0 and hosted.session is not None
    assert hosted.session.session_id == first.session.session_id
