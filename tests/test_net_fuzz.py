"""Hostile input against a listening ``koikoi host``: thousands of random and mutated frames.

A seeded fuzzer (bounded in count and time, loopback only) opens connection after connection
and sends garbage: random bytes, lying length prefixes, mutated hellos, msgpack traps, and
mutated Noise messages after a real start of the handshake. The host must close every one of
them with a reason, never crash, and still play a whole match with a good peer afterwards.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest

from koikoi.engine.match import Settings
from koikoi.net.errors import ProtocolError
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.wire import FrameDecoder, encode_frame, encode_message, unpack
from tests.net_support import spawn

SEED = 20240611
CONNECTIONS = 2000
SILENT = 3
CONCURRENCY = 8
HOST_TIMEOUT = 3.0
"""The host's --timeout: a silent connection is dropped after this."""

Case = Callable[[asyncio.StreamReader, asyncio.StreamWriter, random.Random], Awaitable[None]]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """``data`` changed in one to four places, and never changed back to itself (a byte set
    to its own value, an insertion deleted again): an unchanged handshake message would
    finish the handshake and start a match, which this test does not mean to do."""
    while (changed := _mutate_once(rng, data)) == data:
        pass
    return changed


def _mutate_once(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(4)
        if op == 0 and out:
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        elif op == 1 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif op == 2:
            out.insert(rng.randrange(len(out) + 1), rng.randrange(256))
        elif len(out) > 1:
            del out[rng.randrange(len(out))]
    return bytes(out)


def joiner_handshake() -> Handshake:
    return Handshake(
        Role.JOINER,
        identity=Identity.generate(),
        nickname="fuzz",
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
    )


_IDENTITY = Identity.generate()
HELLO = joiner_handshake().start()[0]

TRAPS: list[bytes] = [
    msgpack.packb({"t": "hello", "v": 1.0}),  # a float
    msgpack.packb(msgpack.ExtType(5, b"x")),  # an ext type
    msgpack.packb(msgpack.Timestamp(1, 0)),  # the timestamp ext
    b"\x82\xa1t\xa5hello\xa1t\xa5hello",  # a repeated key
    msgpack.packb({1: 2}),  # a non-string key
    b"\x91" * 40 + b"\xc0",  # nested 40 deep
    b"\xcf" + b"\xff" * 8,  # 2**64 - 1 on its own
    b"\xd3" + b"\x80" + bytes(7),  # -2**63
    msgpack.packb({"t": "hello", "v": 2**70 // 2**10}),
    b"\xa3\xff\xfe\xfd",  # a string that is not UTF-8
    b"\xdd\xff\xff\xff\xff",  # an array claiming 4 billion items
    b"\xc1",  # a never-used byte
    encode_message(
        "hello",
        v=1,
        nick="a\u202eb",
        settings={"rounds": 6, "doubling": True},
        private=False,
        pake=b"",
    ),  # fmt: skip
    encode_message(
        "hello", v=1, nick="x", settings={"rounds": 7, "doubling": True}, private=False, pake=b""
    ),  # fmt: skip
    encode_message(
        "hello", v=1, nick="x", settings={"rounds": 6, "doubling": 1}, private=False, pake=b""
    ),  # fmt: skip
    encode_message(
        "hello",
        v=1,
        nick="x",
        settings={"rounds": 6, "doubling": True},
        private=True,
        pake=b"A" * 33,
    ),  # fmt: skip
    encode_message("hello", v=2),
    encode_message("noise1", m=b"\x00" * 32),
    encode_message("ready"),
    encode_message("move", entry=b"\x94\x00", sig=bytes(64)),
    encode_message("refuse", reason="busy"),
    msgpack.packb([1, 2, 3]),
    msgpack.packb("hello"),
]


async def send_raw(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    w.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))))


async def send_random_frame(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    w.write(encode_frame(bytes(rng.randrange(256) for _ in range(rng.randint(1, 500)))))


async def send_bad_length(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    length = rng.choice([0, 65537, 70000, 2**31, 2**32 - 1])
    w.write(length.to_bytes(4, "big") + bytes(rng.randint(0, 20)))


async def send_truncated(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    frame = encode_frame(HELLO)
    w.write(frame[: rng.randrange(1, len(frame))])


async def send_mutated_hello(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    payload = mutate(rng, HELLO)
    if payload:
        w.write(encode_frame(payload))


async def send_trap(
    reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random
) -> None:
    w.write(encode_frame(rng.choice(TRAPS)))


async def read_frame(reader: asyncio.StreamReader, decoder: FrameDecoder) -> bytes | None:
    while True:
        data = await asyncio.wait_for(reader.read(65536), 10)
        if not data:
            return None
        frames = decoder.feed(data)
        if frames:
            return frames[0]


async def deep(reader: asyncio.StreamReader, w: asyncio.StreamWriter, rng: random.Random) -> None:
    """A real hello (and noise1), then a mutated or foreign next handshake message."""
    shake = joiner_handshake()
    decoder = FrameDecoder()
    w.write(encode_frame(shake.start()[0]))
    host_hello = await read_frame(reader, decoder)
    if host_hello is None:
        return
    (noise1,) = shake.receive(host_hello)
    if rng.random() < 0.4:
        w.write(encode_frame(rng.choice([mutate(rng, noise1), *TRAPS, HELLO])))
        return
    w.write(encode_frame(noise1))
    noise2 = await read_frame(reader, decoder)
    if noise2 is None:
        return
    (noise3,) = shake.receive(noise2)
    choice = rng.random()
    if choice < 0.6:  # a changed noise3: it cannot decrypt or verify
        w.write(encode_frame(mutate(rng, noise3)))
    elif choice < 0.8:  # noise3 again in place of... a replayed noise1
        w.write(encode_frame(noise1))
    else:
        w.write(encode_frame(rng.choice(TRAPS)))


CASES: list[tuple[Case, int]] = [
    (send_raw, 3),
    (send_random_frame, 3),
    (send_bad_length, 1),
    (send_truncated, 1),
    (send_mutated_hello, 4),
    (send_trap, 2),
    (deep, 2),
]


@dataclass
class Seen:
    closed: bool
    frames: list[bytes]
    error: str | None = None


async def attack(port: int, case: Case, rng: random.Random, silent: bool = False) -> Seen:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = bytearray()
    try:
        if not silent:
            await case(reader, writer, rng)
            await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()
        while True:  # the host must close: read to its end of the stream
            data = await asyncio.wait_for(reader.read(65536), HOST_TIMEOUT + 10)
            if not data:
                break
            received += data
    except TimeoutError:
        return Seen(False, [], "the host kept the connection open")
    except (ConnectionError, OSError) as error:  # a reset also closes the connection
        return Seen(True, [], str(error))
    finally:
        writer.close()
    decoder = FrameDecoder()
    try:
        frames = decoder.feed(bytes(received))
    except ProtocolError as error:
        return Seen(True, [], f"the host sent malformed frames: {error}")
    return Seen(True, frames)


async def fuzz(port: int) -> list[Seen]:
    rng = random.Random(SEED)
    weighted = [case for case, weight in CASES for _ in range(weight)]
    jobs = [(rng.choice(weighted), random.Random(rng.random())) for _ in range(CONNECTIONS)]
    seen: list[Seen] = []
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(case: Case, case_rng: random.Random, silent: bool = False) -> None:
        async with gate:
            seen.append(await attack(port, case, case_rng, silent))

    silent = [one(send_raw, random.Random(i), silent=True) for i in range(SILENT)]
    await asyncio.wait_for(asyncio.gather(*silent, *(one(c, r) for c, r in jobs)), timeout=240)
    return seen


@pytest.mark.timeout(360)  # the fuzzers may take their 240 s
def test_the_host_survives_hostile_input_and_then_plays(tmp_path: Path) -> None:
    host = spawn(
        tmp_path / "host",
        "host", "--port", "0", "--bind", "127.0.0.1", "--bot", "random", "--name", "hana",
        "--timeout", str(HOST_TIMEOUT), "--dealing", "seed",  # the fuzzed hello offers the seed
    )  # fmt: skip
    try:
        port = host.port()
        seen = asyncio.run(fuzz(port))
        assert host.proc.poll() is None, host.stderr[-3000:]
        assert len(seen) == CONNECTIONS + SILENT
        problems = [s.error for s in seen if not s.closed or (s.error and "malformed" in s.error)]
        assert not problems, problems[:5]
        # Each bad connection was closed with a reason: mostly told to the peer (a refusal,
        # or the host's hello when the settings differ), always written on the host's side.
        told = 0
        for s in seen:
            if s.frames:
                last = unpack(s.frames[-1])
                assert isinstance(last, dict) and last.get("t") in ("refuse", "hello", "noise2")
                told += last.get("t") == "refuse"
        assert told > CONNECTIONS // 2
        turned_away = [line for line in host.stderr.splitlines() if "turned away" in line]
        assert len(turned_away) == CONNECTIONS + SILENT
        assert all(line.split(": ", 2)[-1].strip() for line in turned_away)
        # Silent ones are dropped at the room's first-message deadline (or their own).
        assert sum("did not finish the handshake" in line for line in turned_away) >= SILENT
        assert "Traceback" not in host.stderr

        # And a good peer still gets its match.
        joiner = spawn(
            tmp_path / "joiner", "join", f"127.0.0.1:{port}", "--bot", "greedy", "--dealing", "seed"
        )
        try:
            assert joiner.wait(60) == 0, joiner.stderr
            assert host.wait(60) == 0, host.stderr[-3000:]
        finally:
            joiner.kill()
        assert host.result() == joiner.result() and host.result()["finished"] is True
    finally:
        host.kill()
