"""The lobby's hosting half: opening a room from the form, announcing it by mDNS, saying on
the waiting page whether it is listed, the room's join code and who was turned away, and
closing it.

A room opened to the internet (the form's "Open to the internet", remembered) also asks the
home router for a mapping of its port (:class:`~koikoi.ui.net.portmapping.RoomMapping`, off
the UI thread, renewed while the room is open, removed when it closes) and says what the
router did; the code then names the mapping first. A LAN room maps nothing. Where the mappers
come from is the lobby's ``mappers`` factory (tests give a fake router).

:class:`LobbyHosting` is the half of :class:`~koikoi.ui.lobby.lobby.Lobby` that hosts (the
pages, joining and the moments before the match are the lobby's, which fills in what is
declared here). Its words are the lobby's (the translation context ``Lobby``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPushButton, QStackedWidget, QWidget

from koikoi.engine.match import Settings
from koikoi.net.address import parse_address
from koikoi.net.discovery.txt import Advertisement, announced_dealing, announced_version, clean_text
from koikoi.net.joincode import encode, room_code
from koikoi.net.portmap import Mapping
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.settings import ROOM_TITLE, AppSettings
from koikoi.ui.common.signals import drop_slots
from koikoi.ui.lobby.lobby_pages import RoomsPage, WaitingPage
from koikoi.ui.lobby.rooms import RoomAnnouncer
from koikoi.ui.net.neterrors import discovery_detail
from koikoi.ui.net.netlink.base import APP_DEALINGS, LinkError, PeerInfo, TimerFactory
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.net.portmapping import MapperFactory, RoomMapping
from koikoi.ui.net.prematch import failure_text

if TYPE_CHECKING:
    from koikoi.net.errors import IdentityChanged
    from koikoi.net.session.endings import Ending
    from koikoi.net.session.events import CardsShown, TossDone
    from koikoi.ui.net.netlink.join import QtJoin


def _tr(text: str) -> str:
    return QCoreApplication.translate("Lobby", text)


class LobbyHosting(QWidget):
    """The hosting half of the lobby (the lobby fills in what is declared here)."""

    settings: AppSettings
    bind: str | None
    now: Callable[[], float]
    make_timer: TimerFactory
    room: QtRoom | None
    join: QtJoin | None
    announcer: RoomAnnouncer | None
    pages: QStackedWidget
    rooms_page: RoomsPage
    waiting_page: WaitingPage
    waiting_state: QLabel
    turned_away: QLabel
    cancel_button: QPushButton
    room_title: QLineEdit
    private: QCheckBox
    room_password: QLineEdit
    peer: PeerInfo | None
    _changed_key: IdentityChanged | None
    mappers: MapperFactory
    """Where a room opened to the internet gets its mappers (the routers' ways)."""
    mapping: RoomMapping | None
    """The open room's mapping on the router, while it has one (None: a LAN room)."""
    _password_hint = ""

    # --- what the lobby provides ---------------------------------------------------------

    def _options(
        self, settings: Settings, password: str, dealings: tuple[str, ...] = APP_DEALINGS
    ) -> PeerOptions | None:
        raise NotImplementedError("the Lobby provides it")

    def _show_message(self, text: str | None) -> None:
        raise NotImplementedError("the Lobby provides it")

    def form_settings(self) -> Settings:
        raise NotImplementedError("the Lobby provides it")

    def room_dealings(self) -> tuple[str, ...]:
        raise NotImplementedError("the Lobby provides it")

    def _on_established(self, peer: PeerInfo) -> None:
        raise NotImplementedError("the Lobby provides it")

    def _on_cards(self, event: CardsShown) -> None:
        raise NotImplementedError("the Lobby provides it")

    def _on_tossed(self, toss: TossDone) -> None:
        raise NotImplementedError("the Lobby provides it")

    def _on_ended(self, ending: Ending) -> None:
        raise NotImplementedError("the Lobby provides it")

    # --- hosting -------------------------------------------------------------------------

    def create_room(self) -> None:
        if self.join is not None or self.room is not None:
            return
        private = self.private.isChecked()
        password = self.room_password.text() if private else ""
        if private and not password:
            self._show_message(_tr("A private room needs a password."))
            self.room_password.setFocus()
            return
        options = self._options(self.form_settings(), password, self.room_dealings())
        if options is None:
            return
        options.clock = self.rooms_page.chosen_clock()
        title = clean_text(self.room_title.text(), 48) or _tr("{0}'s room").format(options.nickname)
        self.settings.set(ROOM_TITLE, clean_text(self.room_title.text(), 48))
        self._changed_key = None
        self._show_message(None)
        room = QtRoom(options, parent=self, now=self.now, timer=self.make_timer)
        internet = self.rooms_page.internet.isChecked()
        try:  # a room open to the internet dials reply codes from its port: dial_out
            room.listen(self.bind or "", 0, dial_out=internet)
        except ValueError as error:
            room.deleteLater()
            self._show_message(_tr("The room cannot be opened: {0}").format(error))
            return
        self.room = room
        room.established.connect(self._on_established)
        room.cards_shown.connect(self._on_cards)
        room.tossed.connect(self._on_tossed)
        room.ended.connect(self._on_ended)
        room.refused.connect(self._on_refused)
        ad = Advertisement(
            title,
            options.nickname,
            room.port,
            rounds=options.settings.rounds,
            doubling=options.settings.doubling,
            private=private,
            fingerprint=options.identity.fingerprint,
            version=announced_version(options.dealings),
            dealing=announced_dealing(options.dealings),
            clock=options.clock,
        )
        announcer = RoomAnnouncer(ad, bind=self.bind, parent=self)
        announcer.published.connect(self._on_published)
        announcer.failed.connect(self._on_publish_failed)
        self.announcer = announcer
        announcer.publish()
        self.waiting_page.show_room(title, options, private, room.port, room.addresses())
        self._show_code()
        self.waiting_page.show_reply_field(internet)
        if internet:
            self._map(room, private)
        self.pages.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _show_code(self, mapping: Mapping | None = None) -> None:
        """The waiting page's join code: the room's addresses (after the router's mapping,
        when it made one) and its host's fingerprint."""
        room = self.room
        if room is None:
            return
        listening = []
        for text in room.addresses():
            with contextlib.suppress(ValueError):  # (the room's own format_address)
                listening.append(parse_address(text))
        mapped = []
        if mapping is not None:
            mapped = [
                (mapping.external_host, mapping.external_port),
                (mapping.internal_host, mapping.internal_port),
            ]
        code = room_code(listening, room.options.identity.fingerprint, mapped)
        self.waiting_page.show_code("" if code is None else encode(code))

    def _map(self, room: QtRoom, private: bool) -> None:
        """Ask the router to open the room's port (the answer comes back as a signal)."""
        mapping = RoomMapping(self.mappers, self, timer=self.make_timer)
        mapping.opened.connect(self._on_mapped)
        mapping.failed.connect(self._on_map_failed)
        mapping.renew_failed.connect(self._on_renew_failed)
        self.mapping = mapping
        self._password_hint = (
            ""
            if private
            else _tr(
                "Anyone who finds the port can try to join a room open to the internet: a "
                "password keeps strangers out (close the room, tick Private, open it again)."
            )
        )
        self.waiting_page.show_internet(
            _tr("Asking your router to open a port for this room…"), self._password_hint
        )
        mapping.start(room.port)

    def _on_mapped(self, mapping: Mapping) -> None:
        if self.room is None:
            return
        self._show_code(mapping)
        self.waiting_page.show_internet(
            _tr(
                "Your router opened port {0} for this room until you close it: a friend "
                "elsewhere joins by the code."
            ).format(mapping.external_port),
            self._password_hint,
        )

    def _on_map_failed(self, reason: str) -> None:
        if self.room is None:
            return
        self.waiting_page.show_internet(
            _tr(
                "The room is not open to the internet: {0}. A friend on the same network "
                "can still join."
            ).format(reason),
            "",
        )

    def _on_renew_failed(self, reason: str) -> None:
        if self.room is None or self.mapping is None or self.mapping.mapping is None:
            return
        self.waiting_page.show_internet(
            _tr(
                "Your router opened port {0} for this room, but did not renew it ({1}): it "
                "may close within two minutes. A friend on the same network can still join."
            ).format(self.mapping.mapping.external_port, reason),
            self._password_hint,
        )

    def keep_mapping(self, port: int) -> RoomMapping | None:
        """The router's mapping of ``port``, handed over to a rematch that listens there
        again (the match's room closes, its mapping must not): the lobby no longer closes
        it, nor speaks of it. None when this lobby maps nothing there."""
        mapping = self.mapping
        if mapping is None or mapping.port != port:
            return None
        self.mapping = None
        drop_slots(mapping.opened, mapping.failed, mapping.renew_failed)
        return mapping

    def _close_mapping(self) -> None:
        """The room closed: the router's mapping is removed (a LAN room has none)."""
        mapping, self.mapping = self.mapping, None
        if mapping is not None:
            drop_slots(mapping.opened, mapping.failed, mapping.renew_failed)
            mapping.close()

    def _on_published(self) -> None:
        if self.room is not None and self.peer is None:
            self.waiting_state.setText(
                _tr("Waiting for a player… The room is listed on the local network.")
            )

    def _on_publish_failed(self, reason: str) -> None:
        if self.room is not None and self.peer is None:
            self.waiting_state.setText(
                _tr(
                    "Waiting for a player… The room is not listed on the network ({0}): "
                    "give your friend an address below."
                ).format(discovery_detail(reason))
            )

    def _on_refused(self, failure: LinkError) -> None:
        self.turned_away.setText(failure_text(failure))

    def _close_room(self) -> None:
        room, self.room = self.room, None
        if room is not None:
            drop_slots(room.established, room.cards_shown, room.tossed, room.ended, room.refused)
            room.closed.connect(room.deleteLater)
            room.leave("the room was closed")
        announcer, self.announcer = self.announcer, None
        if announcer is not None:
            announcer.withdraw()
        self._close_mapping()
