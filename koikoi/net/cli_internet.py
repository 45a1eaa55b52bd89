"""Across the internet from the command line (CLI.md "Across the internet"): ``host
--internet`` maps the room's port on the home router (:mod:`koikoi.net.portmap`), prints
``mapped IP:PORT`` and ``code CODE`` on stderr, renews the lease while the room is open and
removes the mapping at exit; ``join CODE`` dials a join code's candidates
(:mod:`koikoi.net.joincode`) and pins the host's fingerprint; results gain ``route``."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import sys
import threading
from collections.abc import Callable
from typing import Final, TypeVar

from koikoi.command import UsageError, say
from koikoi.net.address import format_address
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.joincode import (
    DIAL_TIMEOUT,
    Candidate,
    JoinCode,
    JoinCodeError,
    decode,
    encode,
)
from koikoi.net.natpmp import NatPmpMapper
from koikoi.net.pcp import PcpMapper
from koikoi.net.portmap import (
    LEASE,
    MAP_TIMEOUT,
    RENEW_EVERY,
    Mapper,
    Mapping,
    MappingFailed,
    UpnpMapper,
    why_not_mapped,
)
from koikoi.net.transport.joiner import dial_first, join
from koikoi.net.transport.options import EventHook, LocalPlayer, Outcome, PeerOptions

logger = logging.getLogger(__name__)


T = TypeVar("T")


async def _on_thread(work: Callable[[], T], timeout: float) -> T:
    """``work()`` on a daemon thread (a router that never answers cannot hold the exit)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(value: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)  # type: ignore[arg-type]  # value is a T here

    def run() -> None:
        try:
            value: T | None = work()
            error: BaseException | None = None
        except BaseException as raised:  # handed to the loop, raised there
            value, error = None, raised
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=run, name="koikoi-portmap", daemon=True).start()
    return await asyncio.wait_for(future, timeout)


class InternetRoom:
    """A room's mapping while it is open: renewed every :data:`RENEW_EVERY` s, removed by
    :meth:`close`; :attr:`code` is the join code that names it."""

    def __init__(self, mapper: Mapper, mapping: Mapping, fingerprint: str) -> None:
        self.mapper = mapper
        self.mapping = mapping
        candidates = (
            Candidate(mapping.external_host, mapping.external_port),
            Candidate(mapping.internal_host, mapping.internal_port),
        )
        self.code = JoinCode(candidates, fingerprint, mapped=True)
        self.text = encode(self.code)
        self._renewing: asyncio.Task[None] | None = None

    def start_renewing(self) -> None:
        self._renewing = asyncio.ensure_future(self._renew())

    async def _renew(self) -> None:
        every = min(RENEW_EVERY, self.mapper.lease / 3)
        while True:
            await asyncio.sleep(every)
            try:
                await _on_thread(self.mapper.renew, MAP_TIMEOUT)
            except (MappingFailed, TimeoutError) as error:
                with contextlib.suppress(OSError):
                    say(f"the mapping could not be renewed: {error or 'no answer'}")

    async def close(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            self._renewing = None
        try:
            await _on_thread(self.mapper.close, MAP_TIMEOUT)
        except (MappingFailed, TimeoutError) as error:
            with contextlib.suppress(OSError):
                say(f"{error or 'the router did not answer'}; the mapping lapses with its lease")


async def open_internet(
    port: int, fingerprint: str, lease: int | None = None
) -> InternetRoom | str:
    """Map ``port`` for an internet room: the room, or one line saying why not (within
    :data:`MAP_TIMEOUT` s). ``lease``: seconds (default :data:`~koikoi.net.portmap.LEASE`)."""
    lease = LEASE if lease is None else max(1, lease)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAP_TIMEOUT
    failures: list[tuple[Mapper, MappingFailed]] = []
    mapper: Mapper | None = None
    try:
        for mapper in (UpnpMapper(lease=lease), PcpMapper(lease), NatPmpMapper(lease)):
            try:
                mapping = await _on_thread(
                    functools.partial(mapper.open, port), deadline - loop.time()
                )
                break
            except MappingFailed as error:
                failures.append((mapper, error))
        else:
            return f"cannot open the room to the internet: {why_not_mapped(failures)}"
    except TimeoutError:
        return (
            f"cannot open the room to the internet: the router did not finish mapping the "
            f"port within {MAP_TIMEOUT:g} s; turn on UPnP in its settings or forward the port "
            "by hand"
        )
    assert mapper is not None
    room = InternetRoom(mapper, mapping, fingerprint)
    # CLI.md: these two lines as they are (like ``listening``), for scripts to read
    print(f"mapped {format_address(mapping.external_host, mapping.external_port)}", file=sys.stderr)
    print(f"code {room.text}", file=sys.stderr, flush=True)
    say(
        f"the router opened port {mapping.external_port} for this room by {mapping.method} "
        "until it closes; give the other player the code"
    )
    room.start_renewing()
    return room


def check_bind(bind: str) -> None:
    """``host --internet`` listens where the router can forward to: not on the loopback."""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(bind).is_loopback:
            raise UsageError(
                f"--internet: a room bound to {bind} cannot be reached from the router; "
                "leave out --bind or give this machine's LAN address"
            )


def _local_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    import ifaddr

    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            host = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            with contextlib.suppress(ValueError):
                networks.append(ipaddress.ip_network(f"{host}/{ip.network_prefix}", strict=False))
    return networks


def host_route(peer: str, mapped: bool) -> str:
    """The host's ``route``: ``lan`` for a peer on one of this machine's networks, else
    ``mapped`` in a room with a mapping, else ``direct``. ``peer`` is ``IP:PORT`` as the room
    saw it (an IPv6 one unbracketed)."""
    host = peer.rpartition(":")[0].strip("[]") or peer
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return "mapped" if mapped else "direct"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in net for net in _local_networks()):
        return "lan"
    return "mapped" if mapped else "direct"


def read_code(text: str) -> JoinCode:
    """``join CODE``'s argument; a mistyped one is a usage error (exit 2, one line)."""
    try:
        return decode(text)
    except JoinCodeError as error:
        raise UsageError(f"join: {error}") from None


def code_route(code: JoinCode, dialled: tuple[str, int]) -> str:
    """The joiner's ``route`` by code: ``mapped`` through the code's mapping, ``lan`` at an
    address of a private network (RFC 1918, ULA, link-local, loopback), ``ipv6`` at another
    IPv6 one, else ``direct``.

    >>> code = JoinCode((Candidate("203.0.113.11", 4000), Candidate("192.168.1.5", 4000)),
    ...                 "abcd-efgh-ijkl-mnop", mapped=True)
    >>> code_route(code, ("203.0.113.11", 4000)), code_route(code, ("192.168.1.5", 4000))
    ('mapped', 'lan')
    """
    first = code.ordered[0]
    if code.mapped and dialled == (first.host, first.port):
        return "mapped"
    address = ipaddress.ip_address(dialled[0])
    if any(address in net for net in _PRIVATE):
        return "lan"
    return "ipv6" if isinstance(address, ipaddress.IPv6Address) else "direct"


_PRIVATE: Final = tuple(
    ipaddress.ip_network(net)
    for net in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "127.0.0.0/8",
        "fc00::/7",
        "fe80::/10",
        "::1/128",
    )
)
"""Home and link networks (Python's ``is_private`` also counts documentation ranges)."""


async def join_by_code(
    code: JoinCode,
    options: PeerOptions,
    player: LocalPlayer,
    progress: EventHook,
    install_stop: Callable[[asyncio.Event], None],
) -> tuple[Outcome, str | None]:
    """Dial ``code``'s candidates (:func:`~koikoi.net.transport.joiner.dial_first`, within
    :data:`DIAL_TIMEOUT` s) and play the match at the first that answers, its host pinned
    (``options.expected_fingerprint``): the outcome and the route (None: nothing answered)."""
    where = [(c.host, c.port) for c in code.ordered]
    dialled = await dial_first(where, DIAL_TIMEOUT)
    if isinstance(dialled, list):
        outcome = Outcome(format_address(*where[0]))
        outcome.failure = "no address of the join code answered: " + "; ".join(dialled)
        return outcome, None
    (host, port), streams = dialled
    say(f"reached the room at {format_address(host, port)}")

    def on_event(event: ConnectionEvent, now: float) -> None:
        progress(event, now)
        if isinstance(event, HandshakeDone):  # the handshake refused any other identity
            say(
                f"the host's identity is {code.fingerprint}, as the join code says: if the "
                "code came through a channel you trust, nobody sits between you"
            )

    stop = asyncio.Event()
    install_stop(stop)
    joined = await join(host, port, options, player, on_event=on_event, stop=stop, streams=streams)
    return joined, code_route(code, (host, port))
