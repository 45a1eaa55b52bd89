"""A thin asyncio TCP transport around the sans-I/O :class:`~koikoi.net.connection.Connection`.

All protocol decisions are the connection's; this package only moves bytes, keeps time, and
asks the local player for its moves without blocking the event loop (a computer player
thinks in a worker thread, so heartbeats go on while it does). The desktop lobby drives the
same :class:`Connection` from Qt's sockets instead.

:func:`join` connects to a host; :class:`Room` listens, answers every connection (a bad one
is closed with a reason and the room keeps listening), plays one match with the first peer
whose handshake succeeds and turns away the others as busy.

The package, one part a module: :mod:`~koikoi.net.transport.options` (:class:`PeerOptions`,
the local player, :class:`Outcome`), ``driving`` (:func:`drive`: one connection over asyncio
streams), ``joiner`` (:func:`join`, dialling again to resume, :func:`resume_joined`) and
``room`` (the host's :class:`Room`).
"""

from __future__ import annotations

from koikoi.net.transport.driving import drive
from koikoi.net.transport.joiner import WAIT_RETRIES, Redial, join, resume_joined
from koikoi.net.transport.options import (
    EventHook,
    LocalPlayer,
    Outcome,
    PeerOptions,
    SyncSeat,
    ThreadedSeat,
)
from koikoi.net.transport.room import OUT_OF_DESCRIPTORS, RefusedHook, Room, WrongPasswordHook

__all__ = [
    "OUT_OF_DESCRIPTORS",
    "WAIT_RETRIES",
    "EventHook",
    "LocalPlayer",
    "Outcome",
    "PeerOptions",
    "Redial",
    "RefusedHook",
    "Room",
    "SyncSeat",
    "ThreadedSeat",
    "WrongPasswordHook",
    "drive",
    "join",
    "resume_joined",
]
