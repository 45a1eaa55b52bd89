"""Network play driven from Qt's own event loop: the host's room and the joiner, as QObjects.

The protocol is the sans-I/O :class:`~koikoi.net.connection.Connection`; who a room lets in
is the sans-I/O :class:`~koikoi.net.room.RoomPolicy`. This package only moves bytes between
them and ``QTcpSocket``, keeps time with one single-shot ``QTimer`` per connection (re-armed
at ``Connection.next_timer()``), and hands what happened to the owner as signals:

- ``established(PeerInfo)``: the handshake is done (nickname, fingerprint, pin); the four
  cards are drawn;
- ``cards_shown(CardsShown)``: the four cards (``event.cards``) are to be compared and
  confirmed (:meth:`PeerLink.confirm_sas`); nobody knows who deals first yet (version 4;
  a version-2 session tossed first: ``event.result.first_oya``);
- ``tossed(TossDone)``: both players confirmed the four cards, the coin is tossed
  (``event.result.first_oya``) and the first deal is laid out;
- ``dealt(DealLaidOut)``: private dealing only: the next deal is dealt and laid out (with the
  joint seed a deal comes in the ``moved`` of the move that ended the deal before it);
- ``moved(MovePlayed)``: a move went into the log, the opponent's or the local seat's
  (``event.seat`` says whose; the local seat's come from :meth:`PeerLink.play`);
- ``local_turn(Observation)``: the local seat is to move; answer with :meth:`PeerLink.play`;
- ``out_of_time(OutOfTime)``: the local seat's move clock ran out: play
  ``session.automatic_action(choose)`` for it now (and say so);
- ``peer_overdue(PeerOverdue)``: the peer sent no move for the abandon time (heartbeats do
  not count): the player may end the match with :meth:`PeerLink.abandon`;
- ``ended(Ending)``: the session is over; ``ending.reason`` is one line, ``finished`` says
  whether the match was played out (privately dealt, a finished match's ``ending.audit``
  says how its last deal's audit went: it comes once the peer's last seed is in, or its
  wait ran out; the result came with the last move);
- ``failed(LinkError)``: there never was a session (cannot connect, the handshake failed);
- ``closed()``: the socket is closed and the link is done (after ``ended`` or ``failed``).

Signals come from a zero-delay timer, never from inside a socket's signal, so a slot may
call :meth:`PeerLink.play` or :meth:`PeerLink.leave`, or even run a dialog's event loop.

Nothing here blocks: connecting resolves host names in Qt's own lookup thread, writes are
buffered by Qt, and a socket is closed by a half-close and a short wait for the peer's end
(so a farewell is read before the kernel could reset it). Whatever a peer sends, no
exception reaches Qt: the link logs it at debug level and ends with a reason.

Everything runs on the thread that owns the link (the UI thread): the heaviest step, a
password room's SPAKE2, takes about 10 ms a side, and the UI thread is never busy for more
than about 20 ms at once through a whole handshake (docs/benchmarks.md, "The window on the
network"), well under the 50 ms that would call for a worker thread.

The parts, one job each: :mod:`~koikoi.ui.net.netlink.base` (the link's stage, its timers, what
the owner is told of a peer and of a failure), :mod:`~koikoi.ui.net.netlink.peer` (one
connection: :class:`PeerLink`), :mod:`~koikoi.ui.net.netlink.join` (the joiner and its redials:
:class:`QtJoin`) and :mod:`~koikoi.ui.net.netlink.room` (the host's room: :class:`QtRoom`).
"""

from __future__ import annotations
