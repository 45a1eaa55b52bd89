"""A TCP relay that delays what it forwards: ``python -m tests.fault_relay HOST PORT DELAY JITTER``.

Listens on 127.0.0.1 (a free port, printed on stdout as ``listening PORT``) and forwards each
connection to HOST:PORT, holding every chunk read, in each direction, for DELAY seconds plus
a uniform random 0..JITTER seconds before writing it on. The stream order is kept (a chunk
never overtakes the one before it: TCP is a stream), so this emulates latency and its
jitter, not loss or reordering; those come from the packet filter (tests/test_net_faults_netns.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys


async def _pipe(
    src: asyncio.StreamReader, dst: asyncio.StreamWriter, delay: float, jitter: float
) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
    last = 0.0

    async def writer() -> None:
        while True:
            when, data = await queue.get()
            await asyncio.sleep(max(0.0, when - loop.time()))
            if not data:
                with contextlib.suppress(OSError):
                    dst.write_eof()
                return
            dst.write(data)
            await dst.drain()

    task = asyncio.ensure_future(writer())
    try:
        while True:
            data = await src.read(65536)
            last = max(last, loop.time() + delay + random.uniform(0.0, jitter))
            queue.put_nowait((last, data))
            if not data:
                break
        await task
    except (OSError, asyncio.IncompleteReadError):
        pass
    finally:
        task.cancel()
        dst.close()


def main() -> None:
    host, port, delay, jitter = (
        sys.argv[1],
        int(sys.argv[2]),
        float(sys.argv[3]),
        float(sys.argv[4]),
    )

    async def run() -> None:
        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                up_reader, up_writer = await asyncio.open_connection(host, port)
            except OSError:
                writer.close()
                return
            await asyncio.gather(
                _pipe(reader, up_writer, delay, jitter),
                _pipe(up_reader, writer, delay, jitter),
                return_exceptions=True,
            )

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
        async with server:
            await server.serve_forever()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())


if __name__ == "__main__":
    main()
