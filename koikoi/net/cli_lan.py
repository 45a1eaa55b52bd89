"""The LAN side of ``koikoi host``/``join``/``rooms`` (CLI.md, ``discovery.py``): the room
announced by mDNS (``host --advertise``), the room found by its title (``join --room``) and
found again to resume, and the pinned peers a listing looks up first."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

from koikoi.command import emit, say
from koikoi.net.cli_result import _Recorder
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.transport.options import PeerOptions

if TYPE_CHECKING:
    from koikoi.net.discovery.advertiser import RoomAdvertiser
    from koikoi.net.discovery.txt import Room as LanRoom


class _Announcer:
    """``host --advertise``: the room on mDNS while the host runs, ``playing`` once a peer's
    handshake succeeds, withdrawn at exit. mDNS failing is said once; joining by address
    still works."""

    def __init__(self, args: argparse.Namespace, options: PeerOptions) -> None:
        self.title: str = args.room if args.room is not None else options.nickname
        self.options = options
        self.advertiser: RoomAdvertiser | None = None

    async def publish(self, host: str, port: int) -> None:
        from koikoi.net.discovery.advertiser import RoomAdvertiser
        from koikoi.net.discovery.interfaces import DiscoveryError
        from koikoi.net.discovery.txt import Advertisement, announced_dealing, announced_version

        settings = self.options.settings
        ad = Advertisement(
            title=self.title,
            host=self.options.nickname,
            port=port,
            rounds=settings.rounds,
            doubling=settings.doubling,
            private=bool(self.options.password),
            fingerprint=self.options.identity.fingerprint,
            version=announced_version(self.options.dealings),
            dealing=announced_dealing(self.options.dealings),
            clock=self.options.clock,
        )
        advertiser = RoomAdvertiser(ad, bind=host)
        try:
            await asyncio.to_thread(advertiser.publish)
        except DiscoveryError as error:
            say(f"cannot announce the room on the LAN ({error}); join it by address")
            return
        self.advertiser = advertiser
        say(f"advertising the room {ad.title!r} by mDNS at {', '.join(advertiser.addresses)}")

    def playing(self, event: ConnectionEvent, now: float) -> None:
        if isinstance(event, HandshakeDone) and self.advertiser is not None:
            from koikoi.net.discovery.txt import RoomStatus

            self.advertiser.set_status(RoomStatus.PLAYING)

    async def withdraw(self) -> None:
        advertiser, self.advertiser = self.advertiser, None
        if advertiser is not None:
            await asyncio.to_thread(advertiser.withdraw)


REFIND_TIMEOUT = 2.0
"""Seconds a joiner resuming by ``--room`` looks for its room again each time it dials."""


def _redial_room(room: LanRoom, bind: str | None, last: tuple[str, int]) -> Any:
    """Where to dial again to resume a match joined by ``--room``: the room found again by
    mDNS (its address may have changed; the same title, and the same identity when it was
    announced with one), else the address it was joined at."""
    from koikoi.net.discovery.browser import find_room
    from koikoi.net.discovery.interfaces import DiscoveryError

    async def redial() -> list[tuple[str, int]]:
        try:
            rooms = await asyncio.to_thread(
                find_room, room.title, bind=bind, timeout=REFIND_TIMEOUT, playing=True
            )
        except DiscoveryError:
            rooms = []
        same = [r for r in rooms if not room.fingerprint or r.fingerprint == room.fingerprint]
        found = [_split_address(address) for r in same for address in r.addresses]
        return [*found, last] if last not in found else found

    return redial


def _find_room(
    title: str, bind: str | None, timeout: float, options: PeerOptions, recorder: _Recorder
) -> LanRoom | None:
    """The room called ``title`` to join; None (said in one line) when no open room of that
    title appeared, or when rooms of that title came from more than one host (open or in
    play, seen up to SAME_TITLE_WAIT seconds after the first): then the result of a match
    never begun is printed too, ``ended`` ``refused``, with the ``candidates``."""
    from koikoi.net.discovery.browser import look_for_room
    from koikoi.net.discovery.interfaces import DiscoveryError
    from koikoi.net.discovery.titles import SameTitle

    try:
        found = look_for_room(
            title, bind=bind, timeout=timeout, pinned=options.known_peers.fingerprints()
        )
    except DiscoveryError as error:
        say(f"cannot look for the room {title!r}: {error}; join it by address")
        return None
    if found is None:
        say(f"no open room called {title!r} appeared within {timeout:g} s")
        return None
    if isinstance(found, SameTitle):
        where = ", ".join(
            f"{room.address} (host {room.host or '?'}, fingerprint {room.fingerprint})"
            if room.fingerprint is not None
            else f"{room.address} (a private room: no fingerprint)"
            for room in found.rooms
        )
        emit(
            {
                "rounds": [],
                "scores": [25, 25],
                "winner": None,
                "finished": False,
                "dealing": recorder.dealing,
                "ended": "refused",
                "candidates": [room.to_json() for room in found.rooms],
            }
        )
        say(
            f"{len(found.rooms)} rooms are called {title!r}, announced by different hosts (one "
            f"may pretend to be another): {where}; join one by address"
        )
        return None
    return found.room


def _split_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host.strip("[]"), int(port)


def _pinned() -> frozenset[str]:
    """The pinned peers' fingerprints, whose rooms a listing looks up first (none when the
    pins cannot be read: a listing needs no pins)."""
    from koikoi.net.errors import IdentityFileError
    from koikoi.net.identity import KnownPeers

    try:
        return KnownPeers.load().fingerprints()
    except (IdentityFileError, OSError, ValueError):
        return frozenset()
