"""Across the internet from the command line (CLI.md "Across the internet"): a port mapped
on the home router (:mod:`koikoi.net.portmap`) and renewed while needed, the join code of a
port, the routes results say; ``join CODE`` dials a join code's candidates
(:mod:`koikoi.net.joincode`), its host's fingerprint pinned, and where none answers listens
too and shows a reply code for the host to dial back (docs/protocol.md, "Both sides dial").
The host's side, ``host --internet``, is :mod:`koikoi.net.cli_internet_host`'s."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import socket
import sys
import threading
from collections.abc import Callable
from typing import Final, TypeVar

from koikoi.command import UsageError, say
from koikoi.net.address import format_address
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.joincode import (
    DIAL_TIMEOUT,
    REPLY_WAIT,
    Candidate,
    JoinCode,
    JoinCodeError,
    decode,
    encode,
    room_code,
)
from koikoi.net.natpmp import NatPmpMapper
from koikoi.net.pcp import PcpMapper, PcpPinhole
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
from koikoi.net.transport.bothdial import listen_both, tried_line
from koikoi.net.transport.bothjoin import Joined, join_both_ways
from koikoi.net.transport.joiner import Redial, _resume_while_suspended, dial_first, join
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


class Leased:
    """A port's mapping while it is needed: renewed every :data:`RENEW_EVERY` s, removed by
    :meth:`close`."""

    def __init__(self, mapper: Mapper, mapping: Mapping) -> None:
        self.mapper = mapper
        self.mapping = mapping
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


async def map_port(port: int, lease: int | None = None) -> Leased | str:
    """Map TCP ``port`` on the home router (UPnP-IGD, then PCP, then NAT-PMP) and keep it
    renewed: the lease, or one line saying why not (within :data:`MAP_TIMEOUT` s).
    ``lease``: seconds (default :data:`~koikoi.net.portmap.LEASE`)."""
    lease = LEASE if lease is None else max(1, lease)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAP_TIMEOUT
    failures: list[tuple[Mapper, MappingFailed]] = []
    try:
        for mapper in (UpnpMapper(lease=lease), PcpMapper(lease), NatPmpMapper(lease)):
            try:
                mapping = await _on_thread(
                    functools.partial(mapper.open, port), deadline - loop.time()
                )
            except MappingFailed as error:
                failures.append((mapper, error))
                continue
            leased = Leased(mapper, mapping)
            leased.start_renewing()
            return leased
    except TimeoutError:
        return (
            f"the router did not finish mapping the port within {MAP_TIMEOUT:g} s; turn on "
            "UPnP in its settings or forward the port by hand"
        )
    return why_not_mapped(failures)


async def open_pinhole(port: int, lease: int | None = None) -> Leased | None:
    """An IPv6 pinhole for TCP ``port`` by PCP (:class:`~koikoi.net.pcp.PcpPinhole`), where
    this machine has a global IPv6 address and its router grants one (renewed as a mapping
    is); None otherwise, said in the log only: IPv6 may get through without one, or both
    sides dial."""
    if not any(_global6(host) for host, _ in local_addresses(port)):
        return None
    pinhole = PcpPinhole(LEASE if lease is None else max(1, lease))
    try:
        mapping = await _on_thread(functools.partial(pinhole.open, port), MAP_TIMEOUT)
    except (MappingFailed, TimeoutError) as error:
        logger.info("no IPv6 pinhole: %s", error or "no answer")
        return None
    leased = Leased(pinhole, mapping)
    leased.start_renewing()
    return leased


def _global6(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return (
        isinstance(address, ipaddress.IPv6Address)
        and address.ipv4_mapped is None
        and not (address.is_link_local or address.is_loopback or address.is_multicast)
        and address not in ipaddress.ip_network("fc00::/7")
    )


def local_addresses(port: int) -> list[tuple[str, int]]:
    """This machine's interface addresses with ``port``, for a code to choose from
    (:func:`~koikoi.net.joincode.room_code` leaves out what cannot be in one)."""
    import ifaddr

    out: list[tuple[str, int]] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            host = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            out.append((host, port))
    return out


def code_for(
    port: int,
    fingerprint: str,
    leased: Leased | None,
    bind: str = "0.0.0.0",
    reply: bool = False,
    pinhole: Leased | None = None,
) -> JoinCode:
    """The code of a port listened on: the router's mapping first (then the address it
    reaches), then this machine's addresses (:func:`local_addresses`, or ``bind`` alone),
    the IPv6 one a ``pinhole`` opened first among them."""
    mapped: list[tuple[str, int]] = []
    if leased is not None:
        m = leased.mapping
        mapped = [(m.external_host, m.external_port), (m.internal_host, m.internal_port)]
    here = local_addresses(port) if bind in ("0.0.0.0", "::", "") else [(bind, port)]
    if pinhole is not None:
        here.insert(0, (pinhole.mapping.external_host, port))
    code = room_code(here, fingerprint, mapped, reply=reply)
    if code is None:  # no address but the loopback's
        code = JoinCode((Candidate("127.0.0.1", port),), fingerprint, reply=reply)
    return code


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
    """The host's ``route``: ``lan`` for a peer on one of this machine's networks, ``ipv6``
    for another IPv6 one, else ``mapped`` in a room with a mapping, else ``direct``.
    ``peer`` is ``IP:PORT`` as the room saw it (an IPv6 one unbracketed)."""
    host = peer.rpartition(":")[0].strip("[]") or peer
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return "mapped" if mapped else "direct"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in net for net in _local_networks()):
        return "lan"
    if isinstance(address, ipaddress.IPv6Address):
        return "ipv6"  # through a pinhole, or a firewall that lets it in
    return "mapped" if mapped else "direct"


def read_code(text: str) -> JoinCode:
    """``join CODE``'s argument; a mistyped one, or a joiner's reply code, is a usage error
    (exit 2, one line)."""
    try:
        code = decode(text)
    except JoinCodeError as error:
        raise UsageError(f"join: {error}") from None
    if code.reply:
        raise UsageError(
            "join: this is a reply code, which the room's host types where its koikoi waits; "
            "join takes the code of the room"
        )
    return code


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


FIRST_DIAL: Final = 3.0
"""Seconds ``join CODE`` dials the code's addresses before it listens and offers a reply
code (it goes on dialling them from its own port all the same: a room that answers late is
still reached)."""


def _pinned_note(code: JoinCode, progress: EventHook) -> EventHook:
    def on_event(event: ConnectionEvent, now: float) -> None:
        progress(event, now)
        if isinstance(event, HandshakeDone):  # the handshake refused any other identity
            say(
                f"the host's identity is {code.fingerprint}, as the join code says: if the "
                "code came through a channel you trust, nobody sits between you"
            )

    return on_event


async def join_by_code(
    code: JoinCode,
    options: PeerOptions,
    player: LocalPlayer,
    progress: EventHook,
    install_stop: Callable[[asyncio.Event], None],
    reply_wait: float = REPLY_WAIT,
    lease: int | None = None,
) -> tuple[Outcome, str | None]:
    """Dial ``code``'s candidates (:func:`~koikoi.net.transport.joiner.dial_first`) and play
    the match at the first that answers, its host pinned (``options.expected_fingerprint``):
    the outcome and the route (None: nothing answered). When none answers within
    :data:`FIRST_DIAL` s, this side listens too and shows a reply code for the host to dial
    back (:func:`_reply`), for ``reply_wait`` s; ``reply_wait`` 0: it gives up after
    :data:`DIAL_TIMEOUT` s instead."""
    where = [(c.host, c.port) for c in code.ordered]
    dialled = await dial_first(where, FIRST_DIAL if reply_wait > 0 else DIAL_TIMEOUT)
    if isinstance(dialled, list):
        sockets: list[socket.socket] = []
        if reply_wait > 0:  # listening only now: a joiner that reached the room needs no port
            with contextlib.suppress(OSError):  # no port to listen on: no reply either
                sockets = listen_both(0)
        if not sockets:
            outcome = Outcome(format_address(*where[0]))
            outcome.failure = "no address of the join code answered: " + "; ".join(dialled)
            return outcome, None
        say(f"no address of the join code answered within {FIRST_DIAL:g} s: {'; '.join(dialled)}")
        return await _reply(
            code, sockets, options, player, progress, install_stop, reply_wait, lease
        )
    (host, port), streams = dialled
    say(f"reached the room at {format_address(host, port)}")
    stop = asyncio.Event()
    install_stop(stop)
    on_event = _pinned_note(code, progress)
    joined = await join(host, port, options, player, on_event=on_event, stop=stop, streams=streams)
    return joined, code_route(code, (host, port))


async def _reply(
    code: JoinCode,
    sockets: list[socket.socket],
    options: PeerOptions,
    player: LocalPlayer,
    progress: EventHook,
    install_stop: Callable[[asyncio.Event], None],
    reply_wait: float,
    lease: int | None,
) -> tuple[Outcome, str | None]:
    """Both sides dial (docs/protocol.md): listen on ``sockets``, dial the room from their
    port, map the port where the router can, and show the reply code (``code CODE`` on
    stderr, as a host's) that names this side's addresses and fingerprint."""
    loop = asyncio.get_running_loop()
    port = int(sockets[0].getsockname()[1])
    where = [(c.host, c.port) for c in code.ordered]
    stop = asyncio.Event()
    install_stop(stop)
    on_event = _pinned_note(code, progress)
    playing: list[bool] = []

    def watch(event: ConnectionEvent, now: float) -> None:
        if isinstance(event, HandshakeDone):
            playing.append(True)
        on_event(event, now)

    until = loop.time() + reply_wait
    joining = asyncio.ensure_future(
        join_both_ways(sockets, port, where, until, options, player, watch, stop)
    )
    pinholing = asyncio.ensure_future(open_pinhole(port, lease))
    mapped = await map_port(port, lease)
    if isinstance(mapped, str):
        say(f"this side's router mapped nothing either ({mapped})")
    leased = None if isinstance(mapped, str) else mapped
    pinhole = await pinholing
    try:
        if not playing and not joining.done():
            reply = code_for(
                port, options.identity.fingerprint, leased, reply=True, pinhole=pinhole
            )
            if leased is not None:
                m = leased.mapping
                say(f"the router opened port {m.external_port} for the reply by {m.method}")
            if pinhole is not None:
                say(f"the router opened an IPv6 pinhole for {_shown(pinhole)} by PCP")
            print(f"code {encode(reply)}", file=sys.stderr, flush=True)  # as a host's code
            say(
                "the room cannot be reached from here: read this reply code to its host, whose "
                f"koikoi takes it where it waits; both sides then dial (up to {reply_wait:g} s)"
            )
        result = await joining
    finally:
        for lease_ in (leased, pinhole):
            if lease_ is not None:
                await lease_.close()
    if isinstance(result, dict) and stop.is_set():
        outcome = Outcome(format_address(*where[0]))
        outcome.failure = "stopped before the host dialled back"
        return outcome, None
    if isinstance(result, dict):
        outcome = Outcome(format_address(*where[0]))
        tried = tried_line(where, result)
        outcome.failure = (
            f"the host did not take the reply code within {reply_wait:g} s, both sides "
            f"dialling ({tried}): turn on UPnP (or NAT-PMP/PCP) in either router, or forward "
            "a port to one side by hand"
        )
        return outcome, None
    outcome = await _resume_while_suspended(
        result.outcome, _same_addresses(where), options, player, on_event, stop
    )
    return outcome, reply_route(code, result, leased is not None)


def _shown(pinhole: Leased) -> str:
    return format_address(pinhole.mapping.external_host, pinhole.mapping.external_port)


def _same_addresses(where: list[tuple[str, int]]) -> Redial:
    async def redial() -> list[tuple[str, int]]:
        return where

    return redial


def reply_route(code: JoinCode, joined: Joined, mapped: bool) -> str:
    """The route of a joiner that listened and dialled: ``lan`` for a peer at a private
    address; through the code's mapping, ``mapped``; the host's call that came in through
    this side's mapping, ``mapped`` (the roles turned); else ``both-dial``.

    >>> fp = "abcd-efgh-ijkl-mnop"
    >>> code = JoinCode((Candidate("192.168.62.10", 4000), Candidate("2001:db8:62::10", 4000)), fp)
    >>> reply_route(code, Joined(Outcome(""), ("2001:db8:62::10", 4000), True), False)
    'both-dial'
    >>> reply_route(code, Joined(Outcome(""), ("203.0.113.12", 4000), False), True)
    'mapped'
    """
    host, port = joined.peer
    address = ipaddress.ip_address(host.split("%")[0])
    if any(address in net for net in _PRIVATE):
        return "lan"
    if joined.dialled:
        first = code.ordered[0]
        return "mapped" if code.mapped and (host, port) == (first.host, first.port) else "both-dial"
    coded = {(c.host, c.port) for c in code.candidates}
    return "mapped" if mapped and (host, port) not in coded else "both-dial"
