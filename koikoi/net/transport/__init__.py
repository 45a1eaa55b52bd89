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
