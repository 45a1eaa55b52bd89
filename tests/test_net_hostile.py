"""Attacks by a hostile peer over real loopback sockets (protocol version 2).

Each test builds the attacker on the project's own modules and shows the attack fail.
"""

from __future__ import annotations

import asyncio
import random
import time

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.transport import Outcome, PeerOptions, Room
from koikoi.net.wire import unpack
from tests.test_net_transport import Bot


def options(name: str, timeout: float = 15.0, password: str = "") -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        silence_timeout=timeout,
        password=password,
    )


async def _play_without_goodbye(port: int, seed: int) -> Connection:
    """A joiner that plays a whole match, then neither says goodbye nor closes."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = options("taro").connection(Role.JOINER, loop.time())
    rng = random.Random(seed)
    conn.start()
    patched = False
    while not conn.closed:
        session = conn.session
        if session is not None and not patched:
            patched = True
            send = session._send

            def no_goodbye(message: bytes, send=send) -> None:  # type: ignore[no-untyped-def]
                if unpack(message)["t"] != "bye":  # type: ignore[index,call-overload]
                    send(message)

            session._send = no_goodbye  # type: ignore[method-assign]
        observation = conn.local_turn
        if observation is not None:
            conn.play(rng.choice(observation.legal_actions), loop.time())
        writer.write(conn.data_to_send())
        if conn.closed:
            break
        if conn.local_turn is not None:
            continue
        data = await reader.read(65536)
        assert data, "the host closed before the match was over"
        conn.receive_data(data, loop.time())
    writer.write(conn.data_to_send())
    await writer.drain()
    # The match is over here: stay connected and silent, never a goodbye.
    conn.hold = (reader, writer)  # type: ignore[attr-defined]
    return conn


def test_a_peer_that_never_says_goodbye_does_not_keep_the_host_waiting() -> None:
    async def main() -> tuple[Outcome, float, float]:
        room = Room(options("hana", timeout=10.0), Bot(1))
        _, port = await room.open("127.0.0.1", 0)
        try:
            joiner = await _play_without_goodbye(port, seed=2)
            over = time.monotonic()
            hosted = await asyncio.wait_for(room.outcome(), 30)
            waited = time.monotonic() - over
            assert joiner.session is not None and joiner.session.ending is not None
            assert joiner.session.ending.finished
            return hosted, waited, hosted.times["ended"]
        finally:
            await room.close()

    hosted, waited, _ = asyncio.run(main())
    assert hosted.finished, hosted.reason
    # The old protocol waited for the goodbye until the silence timeout (here 10 s, 45 s
    # and more in play); now the host is done at the last move, plus its closing grace.
    assert waited < 3.0, waited
