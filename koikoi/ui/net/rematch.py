"""The main window's network rematch, and what each table says of the other after a match.

Once a network match is over both tables stay connected while their players read the
result, when both apps can (docs/protocol.md, "After the match"; koikoi/net/session/after.py):
a click on Rematch is told to the other table ("Ben wants a rematch"), and one who leaves
is told too ("Ben has left the table"). The rematch starts when both have clicked: the host
listens again on its port, the joiner dials it again, and the new match skips the four
cards, the same key being the same player. Where that connection is gone (an older app, a
drop, ten minutes of reading) a click starts the rematch at once, as before: the host
listens, the joiner calls for 30 s. Words are the window's (context ``MainWindow``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QWidget

from koikoi.net.policy import REMATCH_CALL_EVERY, REMATCH_CALL_FOR, retry_call
from koikoi.net.session.after import AfterOver, Over

if TYPE_CHECKING:
    from koikoi.net.session.events import TossDone
    from koikoi.ui.lobby.lobby import Lobby
    from koikoi.ui.match.controller import GameController
    from koikoi.ui.net.netlink.base import LinkError, PeerInfo
    from koikoi.ui.net.netlink.peer import PeerLink
    from koikoi.ui.net.netlink.room import QtRoom
    from koikoi.ui.net.portmapping import RoomMapping
    from koikoi.ui.table.game_screen import GameScreen

    NetLink = PeerLink | QtRoom


def _tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


class RematchWindow(QMainWindow):
    """The rematch's part of the main window (:class:`~koikoi.ui.net.netmatch.NetMatchWindow`
    is built on it and fills in what is declared here)."""

    controller: GameController
    game: GameScreen
    lobby: Lobby
    link: NetLink | None
    peer: PeerInfo | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rematch_link: NetLink | None = None
        """The link of a network rematch being set up (a new room, or a redial)."""
        self._redial_until = 0.0
        self._room_at: tuple[str, int] | None = None
        """Where the host's room of the network match listened, for a rematch."""
        self._wants = False
        """This player clicked Rematch, and the rematch waits for the other's click."""
        self._peer_wants = False
        """The other player clicked Rematch (its table told this one)."""
        self.kept_mapping: RoomMapping | None = None
        """The router's mapping of an internet room's port, kept from the lobby for the
        rematches that listen there again; removed when the host goes home or the window
        closes."""
        self._going = False
        """The rematch is under way: the room opens again, or the call goes."""

    def start_network_match(
        self, link: NetLink, peer: PeerInfo, toss: TossDone, restored: bool = False
    ) -> None:
        raise NotImplementedError("NetMatchWindow plays the match")

    def follow_after_the_match(self, link: NetLink) -> None:
        """A network match starts on ``link``: hear the other table after it."""
        self._wants = self._peer_wants = self._going = False
        self._room_at = self._listening_at(link)
        link.peer_rematch.connect(lambda link=link: self._peer_rematch(link))
        link.after_over.connect(lambda over, link=link: self._after_over(link, over))
        closed = getattr(link, "match_closed", link.closed)  # a room's match, or the link
        closed.connect(lambda link=link: self._match_link_closed(link))

    def network_rematch(self) -> None:
        """The player clicked Rematch: the other table is told and the rematch starts once
        its player clicked too, or at once where no connection is left to ask over."""
        old, peer = self.link, self.peer
        if old is None or peer is None or self.rematch_link is not None or self._wants:
            return
        name = peer.nickname
        told = old.rematch()  # also when the other clicked first: its table waits for this
        if self._peer_wants or not told:
            self._go_rematch(old, name, both=self._peer_wants)
            return
        self._wants = True
        self._rematch_words(
            _tr(
                "Rematch: {0} is still reading the result; their table says you want a rematch."
            ).format(name),
            enabled=False,
        )

    def _peer_rematch(self, link: NetLink) -> None:
        if link is not self.link or self.peer is None or self.rematch_link is not None:
            return
        self._peer_wants = True
        name = self.peer.nickname
        if self._wants:
            self._go_rematch(link, name, both=True)
            return
        self._rematch_words(
            _tr("{0} wants a rematch: click Rematch to play again.").format(name), enabled=True
        )

    def _after_over(self, link: NetLink, over: AfterOver) -> None:
        """The connection after the match closed: a peer who left is said; otherwise a
        rematch goes on as where that connection never was."""
        if link is not self.link or self.peer is None or self.rematch_link is not None:
            return
        name = self.peer.nickname
        if over.how is Over.QUIT:  # this side left it (home, or the rematch under way)
            return
        if over.how is Over.LEFT:
            self._wants = self._peer_wants = False
            self._rematch_words(_tr("{0} has left the table.").format(name), enabled=False)
        elif self._wants:  # no click can come over it now: call, or listen, as before
            self._go_rematch(link, name, both=False)

    def _match_link_closed(self, link: NetLink) -> None:
        """The match's connection closed with no time after the match (it dropped while the
        last acknowledgement was awaited): a click waiting on it goes ahead as before."""
        if link is self.link and self._wants and not self._going and self.peer is not None:
            self._go_rematch(link, self.peer.nickname, both=False)

    def _rematch_words(self, text: str, *, enabled: bool) -> None:
        """``text`` in the log (read to a screen reader), the prompt and on the result
        panel, above its buttons; the result's Rematch button on or off."""
        self.game.side.add_line(text)
        self.game.prompt.setText(text)
        self.game.prompt.show()
        status = self.game.overlay.findChild(QLabel, "resultStatus")
        if status is not None:
            status.setText(text)
            status.show()
        button = self.game.overlay.findChild(QPushButton, "default")
        if button is not None:
            button.setEnabled(enabled)

    def _go_rematch(self, old: NetLink, name: str, *, both: bool) -> None:
        """Both players want the rematch (``both``), or no connection is left to ask over
        (the other may not have clicked yet): the host
        listens again on the same port, the joiner redials the same address until the host
        is back (30 s); a new handshake, a new session, a new toss. The peer must be the
        same key as in the match just played."""
        from koikoi.ui.net.netlink.room import QtRoom

        if self._going:
            return
        self._going = True
        if self._room_at is None:  # the joiner: the time after the match is over
            old.leave()
        if self._room_at is not None:  # the host: its room opens again where it was
            bind, port = self._room_at
            if self.kept_mapping is None:  # an internet room: the port stays mapped
                self.kept_mapping = self.lobby.keep_mapping(port)

            def listen_again() -> None:
                if self.link is not old or self.rematch_link is not None:
                    return  # gone home meanwhile, or already listening
                room = QtRoom(old.options, parent=self)
                try:
                    room.listen(bind, port)
                except ValueError as exc:
                    self._rematch_failed(str(exc))
                    return
                self.rematch_link = room
                room.established.connect(lambda info: self._rematch_established(room, info))
                room.tossed.connect(lambda toss: self._rematch_tossed(room, toss))

            old.leave()
            if getattr(old, "done", True):
                listen_again()
            else:  # a lobby's room still holds the port until the match's link closes
                old.closed.connect(listen_again)
            text = (
                _tr("Rematch: waiting for {0} to call…")
                if both
                else _tr("Rematch: waiting for {0} to click Rematch too…")
            ).format(name)
        else:
            self._redial_until = time.monotonic() + REMATCH_CALL_FOR
            self._redial(old)
            text = _tr("Rematch: calling {0} again…").format(name)
        self._rematch_words(text, enabled=False)

    def _listening_at(self, link: NetLink | None) -> tuple[str, int] | None:
        """Where the host's room listened (bind address, port), for a rematch; None for the
        joiner. ``link`` is a ``QtRoom``, or the lobby room's ``PeerLink`` of the match."""
        from koikoi.net.address import parse_address
        from koikoi.net.roles import Role
        from koikoi.ui.net.netlink.room import QtRoom

        if isinstance(link, QtRoom):
            addresses = link.addresses()
            bind = parse_address(addresses[0])[0] if len(addresses) == 1 else ""
            return bind, link.port
        sock = getattr(link, "socket", None)
        if getattr(link, "role", None) is Role.HOST and sock is not None:
            return self.lobby.bind or "", int(sock.localPort())
        return None

    def _redial(self, old: NetLink) -> None:
        from koikoi.ui.net.netlink.join import QtJoin

        join = QtJoin(old.options, parent=self)
        self.rematch_link = join
        join.established.connect(lambda info: self._rematch_established(join, info))
        join.tossed.connect(lambda toss: self._rematch_tossed(join, toss))

        def failed(failure: LinkError) -> None:
            if self.rematch_link is not join:
                return
            # the host is not back yet: its port is closed, or its old room (its match over,
            # or closing) says busy; nothing else is retried (a room never hangs up on a call)
            error = failure.error
            code = getattr(error, "error_code", "")
            closed_port = failure.kind == "connect" and code == "connect.refused"
            refusal = getattr(error, "code", None) if failure.kind == "refused" else None
            again = retry_call(closed_port=closed_port, refusal=refusal)
            if again and time.monotonic() < self._redial_until:
                QTimer.singleShot(round(REMATCH_CALL_EVERY * 1000), self, lambda: again_for(join))
                return
            self.rematch_link = None
            self._rematch_failed(failure.text)

        def again_for(failed_join: QtJoin) -> None:
            if self.rematch_link is failed_join and self.link is old:  # still this rematch
                self._redial(old)

        join.failed.connect(failed)
        join.connect_to_address(old.address)

    def _rematch_established(self, link: NetLink, info: PeerInfo) -> None:
        """A rematch skips the four cards, which were compared before the first match: the
        same key is the same player. Anyone else is turned away before the toss."""
        if self.rematch_link is not link:
            return
        same = self.peer is not None and info.fingerprint == self.peer.fingerprint
        if same:
            link.confirm_sas(True)  # a no-op where the options do not hold the toss
        else:
            link.leave("not the same player")
            self.rematch_link = None
            self._rematch_failed(_tr("someone else answered"))

    def _rematch_tossed(self, link: NetLink, toss: TossDone) -> None:
        if self.rematch_link is not link:
            return
        self.rematch_link = None
        from koikoi.ui.net.netlink.room import QtRoom

        match = link.match if isinstance(link, QtRoom) else link  # a room's match link
        new_peer = match.peer if match is not None else None
        if new_peer is None or self.peer is None or new_peer.fingerprint != self.peer.fingerprint:
            link.leave("not the same player")
            self._rematch_failed(_tr("someone else answered"))
            return
        self.start_network_match(link, new_peer, toss)

    def release_mapping(self, wait: float = 0.0) -> None:
        """No rematch will listen on the port again: the router's mapping is removed
        (waiting up to ``wait`` s for the router, as the app does on its way out)."""
        mapping, self.kept_mapping = self.kept_mapping, None
        if mapping is not None:
            mapping.close()
            if wait:
                mapping.wait(wait)

    def _rematch_failed(self, why: str) -> None:
        name = self.peer.nickname if self.peer is not None else ""
        self._wants = self._peer_wants = self._going = False
        self._rematch_words(_tr("No rematch with {0}: {1}").format(name, why), enabled=True)
