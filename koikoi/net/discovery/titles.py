"""Which room ``join --room TITLE`` joins when more than one host announces the title (sans I/O)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Final

from koikoi.net.address import parse_address
from koikoi.net.discovery.txt import MAX_TITLE, Room, RoomStatus, clean_text

SAME_TITLE_WAIT: Final = 1.0
"""Seconds ``join --room`` keeps listening after the first room of its title is reported, for
another room of that title (a spoof announced just after the real room)."""
SAME_TITLE_LISTEN: Final = 2.5
"""Seconds ``join --room`` listens at least before it joins: a browser asks at once and again
about 1 s later, so an answer lost the first time (to packet loss, or on loopback to another
program's socket that took a unicast reply) comes in the second round."""


def _ips(room: Room) -> set[str]:
    ips: set[str] = set()
    for address in room.addresses:
        with contextlib.suppress(ValueError):  # (a Room's addresses are format_address's)
            ips.add(parse_address(address)[0])
    return ips


def same_host(a: Room, b: Room) -> bool:
    """Whether two announcements are one host's: the same service name, or the same published
    fingerprint at an IP address they share (a host announced again, with a new name or port).
    A fingerprint alone proves nothing (anyone can copy four letters) and a private room
    publishes none, so rooms without one are told apart by name."""
    if a.name.casefold() == b.name.casefold():
        return True
    return a.fingerprint is not None and a.fingerprint == b.fingerprint and bool(_ips(a) & _ips(b))


@dataclass(frozen=True)
class RoomFound:
    """The room of the title to join: one host holds the title."""

    room: Room


@dataclass(frozen=True)
class SameTitle:
    """Rooms of the title from more than one host (one room each, the latest heard of): the
    joiner cannot tell the real one from a spoof by the title, and joins none."""

    rooms: tuple[Room, ...]


class TitleSearch:
    """Which room ``join --room TITLE`` joins, sans I/O (times are the caller's clock).

    Every room the browser reports goes to :meth:`see`. Once the first room of the title that
    can be joined (open, or in play too with ``playing``) has been seen, the search waits
    ``wait`` seconds more for another announcement (:attr:`deadline`); then :meth:`decide`
    gives :class:`RoomFound`, or :class:`SameTitle` when rooms of the title from more than one
    host (:func:`same_host`) were seen, open or in play, even if one has gone since (a goodbye
    can be forged); with ``started``, it never decides before ``listen`` seconds of browsing.
    Titles compare as :func:`clean_text` and without case. The decision, once given, stands.
    """

    def __init__(
        self,
        title: str,
        *,
        wait: float = SAME_TITLE_WAIT,
        playing: bool = False,
        started: float | None = None,
        listen: float = SAME_TITLE_LISTEN,
    ):
        self.wanted = clean_text(title, MAX_TITLE).casefold()
        self.wait = wait
        self.earliest = None if started is None else started + listen
        """With ``started`` (when browsing began): no decision before ``listen`` seconds."""
        self.statuses = (RoomStatus.OPEN, RoomStatus.PLAYING) if playing else (RoomStatus.OPEN,)
        self.deadline: float | None = None
        """When the search decides: ``wait`` after the first room it could join."""
        self._seen: dict[str, Room] = {}
        """Every room of the title seen, by name (case folded), the latest first."""
        self._gone: set[str] = set()
        self._decision: RoomFound | SameTitle | None = None

    def see(self, room: Room, now: float) -> None:
        if self._decision is not None or room.title.casefold() != self.wanted:
            return
        key = room.name.casefold()
        self._seen.pop(key, None)
        self._seen = {key: room, **self._seen}
        self._gone.discard(key)
        if self.deadline is None and room.status in self.statuses:
            self.deadline = max(now + self.wait, self.earliest or now)

    def gone(self, name: str) -> None:
        """The room ``name`` was removed: still a reason to doubt, no longer one to join."""
        self._gone.add(name.casefold())

    def hosts(self) -> list[list[Room]]:
        """The rooms seen, one list per host, the latest heard of first."""
        groups: list[list[Room]] = []
        for room in self._seen.values():
            group = next((g for g in groups if any(same_host(room, r) for r in g)), None)
            if group is None:
                groups.append([room])
            else:
                group.append(room)
        return groups

    def decide(self, now: float) -> RoomFound | SameTitle | None:
        """None while waiting (or while no room of the title can be joined)."""
        if self._decision is not None:
            return self._decision
        if self.deadline is None or now < self.deadline:
            return None
        groups = self.hosts()
        if len(groups) > 1:
            self._decision = SameTitle(tuple(group[0] for group in groups))
            return self._decision
        joinable = [
            room
            for room in groups[0]
            if room.status in self.statuses and room.name.casefold() not in self._gone
        ]
        if not joinable:
            return None  # it left meanwhile: look on
        self._decision = RoomFound(joinable[0])
        return self._decision
