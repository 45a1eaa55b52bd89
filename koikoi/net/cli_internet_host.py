"""``host --internet`` (CLI.md "Across the internet"; docs/protocol.md): the room listens in
both families on one port, asks the router to map it (``mapped IP:PORT``), prints ``code
CODE`` on stderr and, while it waits, reads the lines typed on its standard input: a
joiner's **reply code** (docs/protocol.md, "Both sides dial") pins that joiner's identity
and dials its addresses from the room's port for :data:`BOTH_DIAL_WINDOW` s, while the
joiner dials the room, so that the two sides' SYNs cross. When nothing connects, one line
says what was tried and the setting to change, and the host exits 1.

A router that maps nothing leaves the room waiting for a reply code only when one can be
typed: with its input closed (``</dev/null``) the host exits 1 at once, the reason said, as
when there was no other way in."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys
import threading
from typing import TextIO

from koikoi.command import UsageError, say
from koikoi.net.address import format_address
from koikoi.net.cli_internet import Leased, code_for, host_route, map_port, open_pinhole
from koikoi.net.joincode import JoinCode, JoinCodeError, decode, encode
from koikoi.net.room import HANDSHAKE_DEADLINE
from koikoi.net.transport.bothdial import BOTH_DIAL_WINDOW, dial_from, listen_both, tried_line
from koikoi.net.transport.options import PeerOptions
from koikoi.net.transport.room import Room


def listen_for_internet(bind: str, port: int) -> list[socket.socket]:
    """The room's listening sockets: both families on one port (``bind`` the default), else
    ``bind`` alone; each lets the room's port dial out too (``SO_REUSEPORT``)."""
    try:
        if bind in ("0.0.0.0", "::", ""):
            return listen_both(port)
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.setblocking(False)
        try:
            sock.bind((bind, port))
            sock.listen(100)
        except OSError:
            sock.close()
            raise
        return [sock]
    except OSError as error:
        raise UsageError(
            f"cannot listen on {format_address(bind, port)}: {error.strerror or error}"
        ) from None


class _Lines:
    """The lines of standard input (or ``source``), read on a daemon thread (a blocking
    read), handed to the loop; None once the input ended."""

    def __init__(self, source: TextIO | None = None) -> None:
        loop = asyncio.get_running_loop()
        lines = sys.stdin if source is None else source
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False

        def put(line: str | None) -> None:
            self.ended = self.ended or line is None
            self.queue.put_nowait(line)

        def read() -> None:
            with contextlib.suppress(Exception):
                for line in lines:
                    loop.call_soon_threadsafe(put, line)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(put, None)

        threading.Thread(target=read, name="koikoi-stdin", daemon=True).start()


class InternetRoom:
    """A room open to the internet: its mapping (None when the router made none), its code,
    the reply codes typed in, the host dialling back. :attr:`ended` gets the line that ends
    the room early (exit 1)."""

    def __init__(
        self,
        room: Room,
        port: int,
        options: PeerOptions,
        leased: Leased | None,
        bind: str,
        pinhole: Leased | None = None,
    ) -> None:
        self.room = room
        self.port = port
        self.options = options
        self.leased = leased
        self.pinhole = pinhole
        self.code = code_for(port, options.identity.fingerprint, leased, bind, pinhole=pinhole)
        self.text = encode(self.code)
        self.reply: JoinCode | None = None
        self.ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._tasks: list[asyncio.Task[None]] = []

    def take_replies(self, lines: _Lines) -> None:
        self._tasks.append(asyncio.ensure_future(self._replies(lines)))

    async def _replies(self, lines: _Lines) -> None:
        while True:
            line = await lines.queue.get()
            if line is None:
                nothing = self.leased is None and self.pinhole is None  # no way in known
                if nothing and not self.room.playing and not self.ended.done():
                    self.ended.set_result(
                        "no reply code came before the input ended, and the router mapped "
                        "nothing: turn on UPnP (or NAT-PMP/PCP) in the router's settings, or "
                        "forward a port to this machine by hand"
                    )
                return
            text = line.strip()
            if not text:
                continue
            if self.room.playing or self.reply is not None:
                say("the room has its peer already; that line is not needed")
                continue
            try:
                code = decode(text)
            except JoinCodeError as error:
                say(f"that is not a reply code ({error}); type it again")
                continue
            if not code.reply:
                say(
                    "that is a room's code, not a reply code: the other player's koikoi shows "
                    "its reply code when it cannot reach this room"
                )
                continue
            await self._dial_back(code)

    async def _dial_back(self, code: JoinCode) -> None:
        """Pin the reply's identity and dial its addresses from the room's port."""
        loop = asyncio.get_running_loop()
        self.reply = code
        self.options.expected_joiner = code.fingerprint  # the room's handshakes from now on
        where = [(c.host, c.port) for c in code.ordered]
        say(
            f"dialling {', '.join(format_address(*c) for c in where)} from port {self.port} "
            f"for up to {BOTH_DIAL_WINDOW:g} s while the other side dials this room; only "
            f"{code.fingerprint} gets in"
        )
        until = loop.time() + BOTH_DIAL_WINDOW
        why: dict[tuple[str, int], str] = {}
        dialling = asyncio.ensure_future(
            dial_from(self.port, where, until, lambda streams, _: self.room.take(streams), why=why)
        )
        try:
            while not self.room.playing and loop.time() < until and not dialling.done():
                await asyncio.sleep(0.1)
            handshakes = loop.time() + HANDSHAKE_DEADLINE  # one that connected, to finish
            while not self.room.playing and self.room.policy.pending and loop.time() < handshakes:
                await asyncio.sleep(0.1)
        finally:
            dialling.cancel()
        if self.room.playing or self.ended.done():
            return
        tried = tried_line(where, why)
        self.ended.set_result(
            f"the reply code's addresses did not answer within {BOTH_DIAL_WINDOW:g} s, both "
            f"sides dialling ({tried}): turn on UPnP (or NAT-PMP/PCP) in either router, or "
            "forward a port to one side by hand"
        )

    def route(self, peer: str) -> str:
        """The host's ``route``: ``lan`` for a peer on one of this machine's networks; with a
        reply code taken, ``mapped`` through the reply's mapping (the roles turned) and
        ``both-dial`` at one of its addresses; else ``mapped`` or ``direct``
        (:func:`~koikoi.net.cli_internet.host_route`)."""
        route = host_route(peer, self.leased is not None)
        reply = self.reply
        if route == "lan" or reply is None:
            return route
        host, _, port = peer.rpartition(":")
        with contextlib.suppress(ValueError):
            host = str(ipaddress.ip_address(host.strip("[]")))
        first = reply.ordered[0]
        if reply.mapped and (host, port) == (first.host, str(first.port)):
            return "mapped"
        if host in {c.host for c in reply.candidates}:
            return "both-dial"
        return route

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for leased in (self.leased, self.pinhole):
            if leased is not None:
                await leased.close()


async def open_internet(
    room: Room,
    port: int,
    options: PeerOptions,
    lease: int | None,
    bind: str = "0.0.0.0",
    *,
    replies: bool = False,
) -> InternetRoom | str:
    """Map ``port`` and print the room's code; or one line saying why the room cannot be
    opened (the router mapped nothing and no reply code can be typed: ``replies`` off, or
    standard input closed)."""
    lines = _Lines() if replies else None
    pinholing = asyncio.ensure_future(open_pinhole(port, lease))
    mapped = await map_port(port, lease)
    pinhole = await pinholing
    if isinstance(mapped, str):
        await asyncio.sleep(0.05)  # an input that is closed has said so by now
        if (lines is None or lines.ended) and pinhole is None:  # no way in known here
            return f"cannot open the room to the internet: {mapped}"
        say(f"cannot open the room to the internet: {mapped}")
    leased = None if isinstance(mapped, str) else mapped
    internet = InternetRoom(room, port, options, leased, bind, pinhole)
    if leased is not None:
        m = leased.mapping
        # CLI.md: these two lines as they are (like ``listening``), for scripts to read
        print(f"mapped {format_address(m.external_host, m.external_port)}", file=sys.stderr)
    print(f"code {internet.text}", file=sys.stderr, flush=True)
    if leased is not None:
        say(
            f"the router opened port {leased.mapping.external_port} for this room by "
            f"{leased.mapping.method} until it closes; give the other player the code"
        )
    if pinhole is not None:
        m = pinhole.mapping
        say(f"the router opened an IPv6 pinhole for {format_address(m.external_host, port)} by PCP")
    if leased is None and lines is not None:
        say(
            "give the other player the code all the same: where their koikoi cannot reach "
            "this room it shows a reply code; type it here and both sides dial each other"
        )
    if lines is not None:
        internet.take_replies(lines)
    return internet
