"""Both sides dial (docs/protocol.md, "Both sides dial"): a port listened on in both families,
and connections made *from* that port to the peer's candidates, again and again for a
bounded window, so that the two sides' SYNs cross (TCP simultaneous open) where stateful
firewalls and port-keeping NATs let an answer in only after a packet went out.

Every socket on the port has ``SO_REUSEADDR`` and ``SO_REUSEPORT``: Linux lets a socket
bind a port that a listening socket holds only when both set ``SO_REUSEPORT``. A SYN that
crosses this side's own SYN completes the dialling socket's connection (simultaneous open);
one that arrives between two attempts is taken by the listening socket. Either way one
TCP connection comes of the two addresses' pair, and the caller gets its streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from koikoi.net.address import format_address

logger = logging.getLogger("koikoi.net.transport")

ATTEMPT: Final = 1.0
"""Seconds one connection attempt waits for its answer before the next one starts: the
kernel sends the attempt's SYN at once, the next attempt's a second later, so a firewall's
state for the pair stays fresh and the peer's SYN finds it there."""
BOTH_DIAL_WINDOW: Final = 15.0
"""Seconds a room's host dials a reply code's addresses, ``host --internet --replies`` and the
app alike (NETWORK.md: the reason within 15 s)."""
PAUSE: Final = 0.25
"""Seconds between an attempt turned down at once (a refusal, no route) and the next."""
_PORT_TRIES: Final = 16
"""Ports 0 picks before giving up on one free in both families."""

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Connected = Callable[[Streams, tuple[str, int]], None]
"""Called with a connection's streams and the candidate it was dialled to."""


def _socket(family: socket.AddressFamily) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:  # the IPv4 socket holds IPv4: no mapped addresses here
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


NO_ANSWER: Final = "no answer"
"""What a candidate that never answered (nor refused) said: nothing."""
ANSWERED: Final = "answered, but no match came of it"
"""What a candidate that connected said, when no match came of its connection."""


def tried_line(candidates: Sequence[tuple[str, int]], why: Mapping[tuple[str, int], str]) -> str:
    """What each candidate answered, every one of them in the order dialled: ``host:port:
    why; …`` (one that never answered: :data:`NO_ANSWER`).

    >>> tried_line([("192.0.2.1", 4000), ("2001:db8::1", 4000)], {("192.0.2.1", 4000): "x"})
    '192.0.2.1:4000: x; [2001:db8::1]:4000: no answer'
    """
    return "; ".join(
        f"{format_address(*c)}: {why.get(c, NO_ANSWER)}" for c in dict.fromkeys(candidates)
    )


def why_not(error: OSError) -> str:
    """An error's words, without asyncio's ``Connect call failed (...)`` around them."""
    return os.strerror(error.errno) if error.errno else str(error) or type(error).__name__


def _any(family: socket.AddressFamily) -> str:
    return "::" if family == socket.AF_INET6 else "0.0.0.0"


def listen_both(port: int, backlog: int = 100) -> list[socket.socket]:
    """Listening sockets on ``port`` for IPv4 and, where this machine has it, IPv6 (port 0:
    one free in both). Raises :class:`OSError` when IPv4 cannot listen there, also when
    another program listens on ``port`` with ``SO_REUSEPORT`` (which would let this one
    share it)."""
    if port:
        _probe(port)
    last: OSError | None = None
    for _ in range(_PORT_TRIES if port == 0 else 1):
        v4 = _socket(socket.AF_INET)
        try:
            v4.bind(("0.0.0.0", port))
            v4.listen(backlog)
        except OSError:
            v4.close()
            raise
        chosen = v4.getsockname()[1]
        try:
            v6 = _socket(socket.AF_INET6)
        except OSError:  # no IPv6 on this machine
            return [v4]
        try:
            v6.bind(("::", chosen))
            v6.listen(backlog)
        except OSError as error:
            v6.close()
            if error.errno == errno.EADDRINUSE:
                v4.close()
                last = error
                continue  # port 0 chose one that IPv6 has in use: choose again
            if error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                return [v4]  # IPv6 turned off
            v4.close()
            raise
        return [v4, v6]
    assert last is not None
    raise last


def listen_dual(bind: str = "", port: int = 0) -> socket.socket:
    """A listening socket on ``port`` (0: any) whose port may also dial out: on every
    interface in both families (``bind`` empty), else on ``bind``. Raises :class:`OSError`
    when it cannot, also when another program holds ``port`` (nothing is shared)."""
    if port:
        _probe(port)
    family = _family(bind) if bind else socket.AF_INET6
    try:
        sock = _socket(family)
    except OSError:
        if bind:
            raise
        family, sock = socket.AF_INET, _socket(socket.AF_INET)  # no IPv6 on this machine
    try:
        if family == socket.AF_INET6 and not bind:  # one socket for both families
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((bind or _any(family), port))
        sock.listen(100)
    except OSError:
        sock.close()
        raise
    return sock


def _probe(port: int) -> None:
    """EADDRINUSE when ``port`` is taken, whoever holds it (a socket without
    ``SO_REUSEPORT`` cannot share it)."""
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            probe = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind((_any(family), port))
            except OSError as error:
                if error.errno == errno.EADDRINUSE or family == socket.AF_INET:
                    raise


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


async def dial_from(
    port: int,
    candidates: Sequence[tuple[str, int]],
    until: float,
    on_connected: Connected,
    attempt: float = ATTEMPT,
    why: dict[tuple[str, int], str] | None = None,
) -> dict[tuple[str, int], str]:
    """Dial each of ``candidates`` from this side's ``port`` again and again until the loop
    time ``until``, each candidate on its own; a candidate that connects is handed to
    ``on_connected`` and dialled no more. Returns what each candidate answered (its last
    answer, one phrase: an attempt that timed out says nothing over an earlier refusal;
    :data:`ANSWERED` for one that connected), once the window closed;
    ``why`` is filled as the attempts go (for a caller that cancels the task)."""
    why = {} if why is None else why

    async def one(candidate: tuple[str, int]) -> None:
        loop = asyncio.get_running_loop()
        family = _family(candidate[0])
        while loop.time() < until:
            try:
                sock = _socket(family)
            except OSError as error:
                why[candidate] = why_not(error)
                return
            try:
                sock.bind((_any(family), port))
                budget = max(0.05, min(attempt, until - loop.time()))
                await asyncio.wait_for(loop.sock_connect(sock, candidate), budget)
            except TimeoutError:  # nothing over what an earlier attempt answered
                sock.close()
                why.setdefault(candidate, NO_ANSWER)
                continue
            except OSError as error:
                sock.close()
                why[candidate] = why_not(error)
                if error.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                    return  # the pair is connected already (the listener took it), or no
                    # such family here
                await asyncio.sleep(min(PAUSE, max(0.0, until - loop.time())))
                continue
            except BaseException:
                sock.close()
                raise
            why[candidate] = ANSWERED  # what it says if no match comes of it
            reader, writer = await asyncio.open_connection(sock=sock)
            logger.info("dialled %s from port %d", format_address(*candidate), port)
            on_connected((reader, writer), candidate)
            return

    tasks = [asyncio.ensure_future(one(c)) for c in dict.fromkeys(candidates)]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*tasks, return_exceptions=True)
    return why
