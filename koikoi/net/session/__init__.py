"""The session after the handshake, as a sans-I/O state machine: coin toss, lockstep, goodbye.

Feed it every frame payload from the peer (:meth:`Session.receive`), the local seat's moves
(:meth:`Session.play`) and the passing of time (:meth:`Session.tick`, by
:meth:`Session.next_timer`); send what :meth:`Session.outgoing` returns, in order, and close
the connection once :attr:`Session.closed`. Times are plain seconds from any monotonic
clock, passed in, so tests step them by hand; nothing here blocks or touches a socket.

Stages: the coin toss (:mod:`koikoi.net.fair`) and the four cards, which both players
confirm (``confirm``; in version 4 before the toss's outcome is drawn by the ``toss``
messages, in version 2 after it), then play in lockstep
(:mod:`koikoi.net.lockstep`): the seat to move signs a log entry and sends it; the other
checks the entry's place in the chain, its signature, the move with its own engine and the
state hash. Anything wrong freezes the match with a reason naming the move. Every ending —
the match finished, a peer left, went silent, dropped the connection, cheated or sent
garbage — is an :class:`Ending` kept in the record; an unfinished match is never scored.

The package, one part a module: :mod:`~koikoi.net.session.core` (the :class:`Session`
façade: the toss, the lockstep, the inputs and the transport's view), ``toss`` (the coin
toss and the four cards until the first deal), ``endings`` (the stages, :class:`Ending`,
:class:`Audit`, the ``bye`` codes), ``farewell`` (which ending each way out is, the waits
after the last move), ``clock`` (the link's times and the move clock, its safe move chosen
by the client's :class:`SafeMove`), ``acks`` (the acknowledgements), ``private_dealing``
(each privately dealt deal and its audit), ``journal`` and ``record`` (the signed record,
the sidecar's seeds and journal, a crashed side replayed), ``events`` and ``messages`` (what
goes to the transport and over the wire).

>>> from koikoi.engine.match import Settings
>>> from koikoi.net.handshake import Handshake
>>> from koikoi.net.identity import Identity, KnownPeers
>>> from koikoi.net.roles import Role
>>> from koikoi.net.session.core import Session
>>> ids = {Role.HOST: Identity.generate(), Role.JOINER: Identity.generate()}
>>> shakes = {role: Handshake(role, identity=ids[role], nickname=role.value,
...                           settings=Settings(), password="", known_peers=KnownPeers(None))
...           for role in Role}
>>> to_host = shakes[Role.JOINER].start()
>>> while to_host:
...     to_joiner = [out for m in to_host for out in shakes[Role.HOST].receive(m)]
...     to_host = [out for m in to_joiner for out in shakes[Role.JOINER].receive(m)]
>>> host, joiner = (Session(shakes[r].result, ids[r], r.value, now=0.0) for r in Role)
>>> host.start()
>>> pending = {host: joiner, joiner: host}
>>> while not (host.closed and joiner.closed):
...     for me, peer in pending.items():
...         for payload in me.outgoing():
...             _ = peer.receive(payload, now=0.0)
...         if me.local_turn is not None:
...             _ = me.play(me.local_turn.legal_actions[0], now=0.0)
>>> host.ending.finished, host.result_json() == joiner.result_json()
(True, True)
"""

from __future__ import annotations
