"""What a privately dealt side keeps of its own match beyond the signed record
(docs/protocol.md, "A side that crashed" and "Resume"): its seeds of the deals, the journal
of what it took and did since the deals began, and every dealing message it sent, with the
count of the peer's it took. The seeds and the journal are the record file's sidecar
(:mod:`koikoi.net.recordfile`); they replay the session to where it stood.

>>> journal = Journal()
>>> journal.own_seeds.append(bytes(32)); journal.items.append(["play", "7"])
>>> journal.local_size, journal.local_items(seeds=1)
((1, 1), [['play', '7']])
>>> Journal.seeds_of({"seeds": ["AAAA"]}, 3)
[b'\\x00\\x00\\x00']
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from koikoi.net.lockstep import b64


@dataclass
class Journal:
    """A privately dealt side's own part of the match (empty with the joint seed)."""

    dealer_seeds: list[bytes] = field(default_factory=list)
    """This side's seeds for the coming deals, first used first (tests only; else each is
    random)."""
    own_seeds: list[bytes] = field(default_factory=list)
    """This side's seed of each deal so far, in order (the last one is secret until its
    deal's end; only the local record keeps it)."""
    items: list[list[str]] = field(default_factory=list)
    """What this side took and did since the deals began, in order: ``["in", message]`` for
    each message of the peer, ``["play", action]`` for each local move, ``["resumed"]`` for
    each new connection. With :attr:`own_seeds` it replays the session to where it stood
    (docs/protocol.md, "A side that crashed")."""
    dealing_sent: list[tuple[int, bytes]] = field(default_factory=list)
    """Every dealing message this side sent in the match, in order, each with the number of
    log entries this side held as it went (its place among this side's entries): what a
    resumed connection sends again (docs/protocol.md, "Resume")."""
    dealing_received: int = 0
    """How many of the peer's dealing messages this side took in the match (the ``dealt`` of
    its ``resume``)."""

    @property
    def local_size(self) -> tuple[int, int]:
        """How many seeds and journal items the local part (:meth:`local_json`) holds:
        :meth:`local_items` gives what came after an earlier size."""
        return len(self.own_seeds), len(self.items)

    def local_items(self, seeds: int = 0, journal: int = 0) -> list[list[str]]:
        """The local part's items after ``seeds`` seeds and ``journal`` journal items, as a
        record file appends them (:mod:`koikoi.net.recordfile`): each new seed as
        ``["seed", seed]``, then each new journal item as it is."""
        out = [["seed", b64(seed)] for seed in self.own_seeds[seeds:]]
        return out + [list(item) for item in self.items[journal:]]

    @property
    def local_mark(self) -> tuple[int, int]:
        """How far the local part of the record (:meth:`local_json`) and the dealing sent
        have grown: files written at one mark and read at another lack something. A client
        writes what changed whenever it changed (the record file's sidecar,
        :mod:`koikoi.net.recordfile`), before what it sends goes out (docs/protocol.md,
        "A side that crashed")."""
        return len(self.items), len(self.dealing_sent)

    def local_json(self) -> dict[str, Any]:
        """What only this side's own record file keeps, beside it, of a privately dealt match
        in play (its sidecar, read back as the ``local`` key; docs/protocol.md, "A side that
        crashed"): this side's seeds, the last one still secret, and the journal that replays
        the session from them."""
        return {
            "seeds": [b64(seed) for seed in self.own_seeds],
            "journal": [list(item) for item in self.items],
        }

    def to_resend(self, peer_dealt: int) -> list[tuple[int, bytes]]:
        """The dealing messages the peer lacks, having taken ``peer_dealt`` of them (the
        ``dealt`` of its ``resume``), in the order they went, each with the number of log
        entries this side held as it went: a resumed connection sends each just before
        this side's entry of that number (docs/protocol.md, "Sending again")."""
        if not 0 <= peer_dealt <= len(self.dealing_sent):
            raise ValueError(f"this side sent {len(self.dealing_sent)} dealing messages")
        return self.dealing_sent[peer_dealt:]

    @staticmethod
    def seeds_of(local: Mapping[str, Any], size: int) -> list[bytes]:
        """The seeds of a sidecar's ``local`` key (``ValueError``, one line, if they are not
        ``size`` bytes each in base64)."""
        value = local.get("seeds")
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise ValueError("its local seeds are not a list of strings")
        out = [b64_bytes(x) for x in value]
        if any(len(x) != size for x in out):
            raise ValueError(f"its local seeds are not {size} bytes each")
        return out


def b64_bytes(text: str) -> bytes:
    """A sidecar's base64 text, as bytes (``ValueError``, one line, if it is not base64)."""
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        raise ValueError("its local key holds bytes that are not base64") from None
