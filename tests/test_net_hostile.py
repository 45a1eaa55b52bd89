"""Attacks by a hostile peer over real loopback sockets (protocol version 2).

Each test builds the attacker on the project's own modules and shows the attack fail.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.connection import Connection
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room
from koikoi.net.wire import unpack
from koikoi.ui.net.netlink.join import QtJoin
from tests.net_support import spawn
from tests.test_net_transport import Bot
from tests.ui_driver import StallMeter


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

            def no_goodbye(message: bytes, send: Callable[[bytes], None] = send) -> None:
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


# --- Finding 2: half-open connections never lock a room --------------------------------------

IDLE = 64


async def hold_idle_connections(port: int, stop: asyncio.Event, opened: list[int]) -> None:
    """Keep ``IDLE`` connections open and silent; reopen each as soon as the host drops it."""

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.01)
                continue
            opened.append(1)
            try:
                while not stop.is_set():
                    read = asyncio.ensure_future(reader.read(4096))
                    halt = asyncio.ensure_future(stop.wait())
                    done, _ = await asyncio.wait({read, halt}, return_when=asyncio.FIRST_COMPLETED)
                    halt.cancel()
                    if read not in done:
                        read.cancel()
                        break
                    try:
                        if not read.result():
                            break
                    except OSError:
                        break
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(IDLE)))


def test_idle_connections_held_open_and_reopened_never_lock_the_asyncio_room() -> None:
    async def main() -> tuple[Outcome, Outcome, int]:
        room = Room(options("hana"), Bot(1))
        _, port = await room.open("127.0.0.1", 0)
        stop = asyncio.Event()
        opened: list[int] = []
        flood = asyncio.ensure_future(hold_idle_connections(port, stop, opened))
        try:
            # Every idle connection is in, was dropped at its deadline and came back.
            while len(opened) < 2 * IDLE:
                await asyncio.sleep(0.01)
            joined = await asyncio.wait_for(join("127.0.0.1", port, options("taro"), Bot(2)), 60)
            hosted = await asyncio.wait_for(room.outcome(), 30)
            return joined, hosted, len(opened)
        finally:
            stop.set()
            await flood
            await room.close()

    joined, hosted, opened = asyncio.run(main())
    assert joined.failure is None and joined.finished, joined.reason
    assert hosted.finished
    assert opened >= 2 * IDLE


def test_idle_connections_held_open_and_reopened_never_lock_the_qt_room(qtbot: QtBot) -> None:
    from tests.test_ui_netlink import Seat, close_room, open_room
    from tests.test_ui_netlink import options as qt_options

    room = open_room(qtbot, qt_options("hana"))
    host = Seat(room)
    stop_flood: list[Callable[[], object]] = []
    opened: list[int] = []

    def flood() -> None:  # the attacker's own loop, in its own thread
        async def main() -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            stop_flood.append(lambda: loop.call_soon_threadsafe(stop.set))
            await hold_idle_connections(room.port, stop, opened)

        asyncio.run(main())

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    try:
        qtbot.waitUntil(lambda: len(opened) >= 2 * IDLE, timeout=30_000)
        join = QtJoin(qt_options("taro"))
        joiner = Seat(join, seed=2)
        join.connect_to("127.0.0.1", room.port)
        qtbot.waitUntil(
            lambda: joiner.ending is not None or joiner.failure is not None, timeout=60_000
        )
        assert joiner.failure is None, joiner.failure
        assert joiner.ending is not None and joiner.ending.finished, joiner.ending
        qtbot.waitUntil(lambda: host.ending is not None, timeout=10_000)
        assert host.ending is not None and host.ending.finished
        assert any(r.kind == "dropped" for r in host.refused)
    finally:
        qtbot.waitUntil(lambda: bool(stop_flood), timeout=10_000)
        stop_flood[0]()
        thread.join(10)
        close_room(qtbot, room)


def test_idle_connections_never_lock_koikoi_host(tmp_path: Path) -> None:
    host = spawn(
        tmp_path / "host",
        "host", "--port", "0", "--bind", "127.0.0.1", "--name", "hana", "--bot", "random",
    )  # fmt: skip
    try:
        port = host.port()

        async def main() -> tuple[int, int]:
            stop = asyncio.Event()
            opened: list[int] = []
            flood = asyncio.ensure_future(hold_idle_connections(port, stop, opened))
            try:
                while len(opened) < 2 * IDLE:  # dropped at the deadline, and back
                    await asyncio.sleep(0.01)
                joiner = spawn(
                    tmp_path / "joiner",
                    "join", f"127.0.0.1:{port}", "--name", "taro", "--bot", "random",
                )  # fmt: skip
                code = await asyncio.to_thread(joiner.wait, 60)
                assert code == 0, joiner.stderr
                return code, len(opened)
            finally:
                stop.set()
                await flood

        _, opened = asyncio.run(main())
        assert opened >= 2 * IDLE
        assert host.wait(30) == 0, host.stderr[-3000:]
        assert host.result()["finished"] is True
        assert "Traceback" not in host.stderr
    finally:
        host.kill()


CHURN = """
import asyncio, sys, time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
made = [0]


async def one(until: float) -> None:
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.001)
            continue
        made[0] += 1
        try:
            # the refusal, then the room's end: dial again
            while await asyncio.wait_for(reader.read(4096), max(0.1, until - time.monotonic())):
                pass
        except (OSError, asyncio.TimeoutError):
            pass
        writer.close()


async def main() -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(one(until) for _ in range(64)))


asyncio.run(main())
print(made[0], flush=True)
"""
"""Another machine dialling a busy room again the moment it is turned away, on 64 sockets."""


def test_a_flood_of_refused_dials_never_freezes_the_qt_rooms_match(qtbot: QtBot) -> None:
    """A room in play refuses every newcomer and closes at once, so an attacker can dial
    again as fast as it is refused. Qt's server accepted every connection the kernel had
    ready in one turn of the event loop; refused ones were answered and closed inside that
    turn, so a dialler on another core kept the queue full and the turn never ended: the
    match's bytes and timers waited (seen as a match that stopped for a minute, under load)."""
    from tests.test_ui_netlink import Seat, close_room, open_room
    from tests.test_ui_netlink import options as qt_options

    room = open_room(qtbot, qt_options("hana"))
    host = Seat(room, stop_after=2)  # the match waits for the host's third move
    join = QtJoin(qt_options("taro"))
    joiner = Seat(join, seed=2)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.waiting, timeout=20_000)
    churn = subprocess.Popen(
        [sys.executable, "-c", CHURN, str(room.port), "4"], stdout=subprocess.PIPE, text=True
    )
    try:
        meter = StallMeter()
        meter.start()
        qtbot.waitUntil(lambda: churn.poll() is not None, timeout=30_000)
        meter.stop()
        out, _ = churn.communicate()
        print(f"\nrefused dials: {out.strip()}; {meter.summary()}")
        assert int(out) > 200, "the flood hardly dialled"  # 1,979-5,524 measured
        assert meter.largest < 1.0, f"the room's loop froze: {meter.summary()}"
        host.stop_after = None  # the match goes on to its end
        observation = (
            room.match.connection.local_turn if room.match and room.match.connection else None
        )
        assert observation is not None
        host._move(observation)
        qtbot.waitUntil(
            lambda: joiner.ending is not None and host.ending is not None, timeout=30_000
        )
        assert joiner.ending is not None and joiner.ending.finished, joiner.ending
        assert any(r.kind == "busy" for r in host.refused)
    finally:
        churn.kill()
        churn.wait()
        close_room(qtbot, room)
