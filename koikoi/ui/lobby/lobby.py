"""The lobby: play a person on the LAN (対戦), from finding a room to the coin toss.

Three pages. **Rooms**: the nickname (remembered), the rooms heard of by mDNS (title, host,
settings as the seed writes them, a lock on private rooms, rooms in play greyed), joining by
double-click or Enter (a password prompt for a private room), joining by address, and the form
to create a room (title, rounds, doubling, public or private, joint-seed dealing allowed for
older koikoi or not) with practice against the computer under it. Rooms and joins deal
privately only unless the player allows the joint seed (the room's setting; for joining, an
option under the list, remembered): a peer that offers only the seed is refused in words.
**Waiting**: a host's addresses and port and its room's state, or a joiner connecting.
**Before the match** (:class:`~koikoi.ui.net.prematch.PrematchPanel`): the peer, the
coin toss as it is played, then the four cards drawn from it, which both players confirm
before the first deal (``hold_for_confirmation``).

When the toss is over, :attr:`Lobby.match_ready` hands the link over: ``(link, peer, toss)``,
``link`` a :class:`~koikoi.ui.net.netlink.peer.PeerLink` (``play``, ``leave``, ``moved``,
``local_turn``, ``ended``, ``closed``), ``peer`` its
:class:`~koikoi.ui.net.netlink.base.PeerInfo`, ``toss`` the
:class:`~koikoi.net.session.events.TossDone`. A host's room stays announced (as in play) until
that link closes.

Every failure reaches the player as a sentence (:func:`~koikoi.ui.net.prematch.failure_text`);
nothing here blocks the UI thread: sockets are Qt's, zeroconf runs on threads of its own.

This module is what the lobby does; opening, announcing and closing a room is its hosting
half, :mod:`koikoi.ui.lobby.hosting`; the first two pages and the password prompt, as the
player sees them, are :mod:`koikoi.ui.lobby.lobby_pages` (their widgets keep the lobby's names:
``lobby.room_list``, ``lobby.address``, ``lobby.waiting_state``, …).
"""

from __future__ import annotations

import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Final

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QObject,
    Qt,
    Signal,
)
from PySide6.QtGui import QCloseEvent, QHideEvent, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from koikoi.engine.match import Settings
from koikoi.net.address import format_address, parse_address
from koikoi.net.discovery.txt import (
    Room,
    RoomStatus,
    clean_text,
)
from koikoi.net.errors import DealingRefused, IdentityChanged, IdentityFileError
from koikoi.net.hello import (
    MAX_NICKNAME,
    PRIVATE_VERSION,
    SEED_ONLY,
    WITH_SEED,
    dealing_refused_text,
)
from koikoi.net.identity import Identity, KnownPeers, load_or_create_identity
from koikoi.net.joincode import DIAL_TIMEOUT, JoinCode, JoinCodeError, decode, looks_like_code
from koikoi.net.resume import RESUME_WINDOW
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import CardsShown, TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.art import CardArt
from koikoi.ui.common.enter import enter_presses_buttons
from koikoi.ui.common.settings import NICKNAME, AppSettings
from koikoi.ui.common.signals import drop_slots, emit
from koikoi.ui.lobby.lobby_pages import STYLE, PasswordPrompt, RoomsPage, WaitingPage
from koikoi.ui.lobby.replying import LobbyReplying
from koikoi.ui.lobby.rooms import ROOM_ROLE, RoomAnnouncer, RoomFinder, mdns_bind
from koikoi.ui.net.neterrors import discovery_detail
from koikoi.ui.net.netlink.base import APP_DEALINGS, LinkError, PeerInfo, TimerFactory, qt_timer
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.peer import PeerLink
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.net.pins import write_later
from koikoi.ui.net.portmapping import EXIT_WAIT, MapperFactory, router_mappers
from koikoi.ui.net.prematch import PrematchPanel, ending_text, failure_text

logger = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("Lobby", text)


CODE_DIAL_LEAST: Final = 3.0
"""Seconds each address of a join code is given at least (a SYN is sent again after 1 s,
then 3 s)."""
SILENT_JOIN: Final = 3.0
"""Seconds a join waits for the room in silence; after them the waiting page counts the
seconds without an answer and says when the join gives up (the handshake's time limit)."""


class Lobby(LobbyReplying):
    """Find or open a room, meet the peer, compare the four cards, hand the match over.

    ``home`` is where the identity and the pinned peers live (default: koikoi's home);
    ``bind`` an IP address to browse, advertise and listen on (default ``$KOIKOI_MDNS_BIND``,
    else every interface); ``mappers`` what a room opened to the internet asks the router
    through (:func:`~koikoi.ui.net.portmapping.router_mappers`; tests give a fake router).
    """

    match_ready = Signal(object, object, object)
    """``(link: PeerLink, peer: PeerInfo, toss: TossDone)``: both confirmed, the toss is over."""
    back = Signal()
    """The player left the lobby (Esc or the back button)."""
    practice = Signal(object)
    """``Settings``: practice against the computer with the room form's settings."""

    def __init__(
        self,
        settings: AppSettings,
        art: CardArt | None = None,
        *,
        home: Path | None = None,
        bind: str | None = None,
        parent: QWidget | None = None,
        now: Callable[[], float] = time.monotonic,
        timer: TimerFactory = qt_timer,
        mappers: MapperFactory = router_mappers,
    ) -> None:
        super().__init__(parent)
        self.now, self.make_timer = now, timer  # the clock of its links and waits (tests step it)
        self.setObjectName("lobby")
        self.setStyleSheet(STYLE)
        self.settings = settings
        self.art = art if art is not None else CardArt()
        self.home = home
        self.bind = bind if bind is not None else mdns_bind()
        self.dealings: tuple[str, ...] | None = None
        """The dealing kinds the lobby's rooms and joins offer, when set (tests, tools);
        None: the player's choice, private dealing only unless joint-seed dealing is
        allowed (the room setting, the option for joining: :meth:`room_dealings`,
        :meth:`join_dealings`; docs/protocol.md, "Version 3")."""
        self.finder = RoomFinder(self.bind, self)
        self.mappers = mappers  # a room opened to the internet asks the router through them
        self.mapping = None
        self.room: QtRoom | None = None
        self.join: QtJoin | None = None
        self.announcer: RoomAnnouncer | None = None
        self.password_prompt: PasswordPrompt | None = None
        self.peer: PeerInfo | None = None
        self.failure: LinkError | None = None
        """The last failure shown (tests read its ``kind``)."""
        self.handed: PeerLink | QtRoom | None = None
        """The link handed over by :attr:`match_ready` (a host's room itself), until it
        closes."""
        self._identity: Identity | None = None
        self._known: KnownPeers | None = None
        self._loading: Future[tuple[Identity, KnownPeers]] | None = None
        """The identity and the pins, read (or the key created) on a worker thread: creating
        a key writes and syncs a file, which is no work for the UI thread."""
        self._targets: list[str] = []
        self._password = ""
        self._settings_wanted = Settings()
        self._changed_key: IdentityChanged | None = None
        self._retry: tuple[list[str], str, Settings, tuple[str, ...]] | None = None
        self._joined_room: Room | None = None
        self._code: JoinCode | None = None
        """The join code being joined by, its host's fingerprint pinned (None: none)."""
        """The room being joined from the list (None: by address)."""
        self._join_clock = timer(self, self._tell_join_progress)
        """While a join has no answer: the waiting page says how long it has waited."""
        self._reply_clock = timer(self, self._tell_reply_progress)

        outer = QVBoxLayout(self)
        outer.setContentsMargins(40, 24, 40, 24)
        top = QHBoxLayout()
        self.back_button = QPushButton(_tr("← Back"))
        self.back_button.setObjectName("secondaryButton")
        self.back_button.setAccessibleName(_tr("Back to the start screen"))
        self.back_button.clicked.connect(self.go_back)
        top.addWidget(self.back_button)
        title = QLabel(_tr("対戦 · Play a person"))
        title.setObjectName("subtitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        top.addWidget(title, 1)
        nick_label = QLabel(_tr("Your nickname:"))
        self.nickname = QLineEdit(settings.get(NICKNAME))
        self.nickname.setObjectName("nickname")
        self.nickname.setMaxLength(MAX_NICKNAME)
        self.nickname.setPlaceholderText(_tr("e.g. hana"))
        self.nickname.setAccessibleName(_tr("Your nickname"))
        self.nickname.editingFinished.connect(self._remember_nickname)
        nick_label.setBuddy(self.nickname)
        top.addWidget(nick_label)
        top.addWidget(self.nickname)
        outer.addLayout(top)

        self.message = QLabel("")
        self.message.setObjectName("notice")
        self.message.setWordWrap(True)
        self.message.setAccessibleName(_tr("Message"))
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.hide()
        outer.addWidget(self.message)
        self.accept_key_button = QPushButton(_tr("Accept the new key and try again"))
        self.accept_key_button.setObjectName("acceptNewKey")
        self.accept_key_button.setAccessibleName(_tr("Accept the peer's new key and try again"))
        self.accept_key_button.clicked.connect(self.accept_new_key)
        self.accept_key_button.hide()
        outer.addWidget(self.accept_key_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.reply_button = QPushButton(_tr("Make a reply code"))
        self.reply_button.setObjectName("makeReplyCode")
        self.reply_button.setAccessibleName(_tr("Make a reply code for the room's host to dial"))
        self.reply_button.clicked.connect(self.make_reply_code)
        self.reply_button.hide()
        outer.addWidget(self.reply_button, 0, Qt.AlignmentFlag.AlignLeft)

        self.pages = QStackedWidget()
        self.rooms_page = RoomsPage(self.finder.model, settings)
        self._connect_rooms_page(self.rooms_page)
        self.pages.addWidget(self.rooms_page)
        self.waiting_page = WaitingPage()
        self._connect_waiting_page(self.waiting_page)
        self.pages.addWidget(self.waiting_page)
        self.prematch = PrematchPanel(self.art)
        self.prematch.confirmed.connect(self._confirm)
        self.prematch.differ.connect(self._differ)
        self.prematch.cancelled.connect(self.cancel)
        self.pages.addWidget(self.prematch)
        outer.addWidget(self.pages, 1)
        enter_presses_buttons(self)  # Enter presses the focused button, as Space does
        self.finder.changed.connect(self._update_empty)
        self.finder.failed.connect(self._update_empty)
        self.finder.model.rowsInserted.connect(self._select_first)
        self._update_empty()

    # --- pages ---------------------------------------------------------------------------

    def _connect_rooms_page(self, page: RoomsPage) -> None:
        """The rooms page's widgets, under the lobby's names (tests and tools use them), and
        its buttons joined to the lobby's doings."""
        self.room_list = page.room_list
        self.empty = page.empty
        self.join_button = page.join_button
        self.join_seed = page.join_seed
        self.address = page.address
        self.address_password = page.address_password
        self.address_button = page.address_button
        self.room_title = page.room_title
        self.rounds = page.rounds
        self.doubling = page.doubling
        self.private = page.private
        self.room_password = page.room_password
        self.room_seed = page.room_seed
        self.create_button = page.create_button
        self.practice_button = page.practice_button
        # a double-click and Enter both "activate" a row (a double-click is not joined twice)
        self.room_list.activated.connect(self._on_activated)
        self.join_button.clicked.connect(self.join_selected)
        self.address.returnPressed.connect(self.join_by_address)
        self.address_password.returnPressed.connect(self.join_by_address)
        self.address_button.clicked.connect(self.join_by_address)
        self.create_button.clicked.connect(self.create_room)
        self.practice_button.clicked.connect(lambda: emit(self.practice, self.form_settings()))

    def _connect_waiting_page(self, page: WaitingPage) -> None:
        """The waiting page's widgets under the lobby's names; its button cancels."""
        self.waiting_title = page.waiting_title
        self.waiting_state = page.waiting_state
        self.addresses = page.addresses
        self.turned_away = page.turned_away
        self.cancel_button = page.cancel_button
        self.cancel_button.clicked.connect(self.cancel)
        page.dial_back_button.clicked.connect(self.dial_back_reply)

    # --- showing and leaving -------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self.finder.running:
            self.finder.start()
            self._update_empty()
        self._load_identity()
        if self.handed is not None or (
            self.peer is None and self.pages.currentWidget() is self.prematch
        ):
            self.pages.setCurrentWidget(self.rooms_page)  # back from a match handed over

    def hideEvent(self, event: QHideEvent) -> None:
        """Hidden (a match, the start screen, the window closing): stop browsing; showing the
        lobby again starts it. A room being hosted stays open and announced."""
        self.stop_browsing()
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closed as a window of its own: leave everything, as the main window does for it."""
        self.shutdown()
        super().closeEvent(event)

    def _load_identity(self) -> None:
        if self._loading is None and self._identity is None:
            home = self.home
            pool = ThreadPoolExecutor(1, thread_name_prefix="koikoi-identity")
            self._loading = pool.submit(
                lambda: (load_or_create_identity(home), KnownPeers.load(home, write_later))
            )
            finder = weakref.ref(self.finder)  # (nothing keeps a closed lobby alive)

            def pins_loaded(loading: Future[tuple[Identity, KnownPeers]]) -> None:
                """On the worker: the pinned peers' rooms are looked up first (a hint)."""
                browsing = finder()
                if browsing is not None and not loading.cancelled() and not loading.exception():
                    with contextlib.suppress(RuntimeError):  # (a lobby closed meanwhile)
                        browsing.set_pinned(loading.result()[1].fingerprints())

            self._loading.add_done_callback(pins_loaded)
            pool.shutdown(wait=False)  # the thread ends with its one task

    def stop_browsing(self) -> None:
        self.finder.stop()

    def go_back(self) -> None:
        """Esc / the back button: leave a room or a connection, then the lobby."""
        if self.pages.currentWidget() is not self.rooms_page:
            self.cancel()
            return
        self.stop_browsing()
        emit(self.back)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.go_back()
            return
        super().keyPressEvent(event)

    def _show_message(self, text: str | None) -> None:
        self.message.setText(text or "")
        self.message.setVisible(bool(text))
        self.accept_key_button.setVisible(self._changed_key is not None and bool(text))

    def _update_empty(self) -> None:
        if self.finder.failure is not None:
            text = _tr(
                "No rooms can be listed: {0}. Joining by address still works: ask the host "
                "for the address its screen shows."
            ).format(discovery_detail(self.finder.failure))
        elif self.finder.model.rowCount() == 0:
            text = _tr(
                "Looking for rooms on the local network… None yet: create one, or join by address."
            )
        elif self.finder.model.any_contested():
            text = _tr(
                "⚠ One title, different hosts: one room may pretend to be another. Join the "
                "one whose host fingerprint (in the Host column) you know; the peer's whole key "
                "is shown before the match."
            )
        else:
            text = ""
        self.empty.setText(text)
        self.empty.setVisible(bool(text))

    def _select_first(self) -> None:
        if not self.room_list.currentIndex().isValid():
            self.room_list.setCurrentIndex(self.finder.model.index(0, 0))

    # --- who this side is ----------------------------------------------------------------

    def nickname_text(self) -> str:
        return clean_text(self.nickname.text(), MAX_NICKNAME)

    def _remember_nickname(self) -> None:
        self.settings.set(NICKNAME, self.nickname_text())

    def form_settings(self) -> Settings:
        return Settings(rounds=self.rounds.checkedId(), doubling=self.doubling.isChecked())

    def room_dealings(self) -> tuple[str, ...]:
        """What a room created now offers: private dealing only, or with the joint seed
        for a peer that offers only that (the room setting, off by default)."""
        if self.dealings is not None:
            return self.dealings
        return WITH_SEED if self.room_seed.isChecked() else APP_DEALINGS

    def join_dealings(self) -> tuple[str, ...]:
        """What a join offers: private dealing only, or with the joint seed (the lobby's
        option for joining, off by default, remembered)."""
        if self.dealings is not None:
            return self.dealings
        return WITH_SEED if self.join_seed.isChecked() else APP_DEALINGS

    def _options(
        self, settings: Settings, password: str, dealings: tuple[str, ...] = APP_DEALINGS
    ) -> PeerOptions | None:
        nick = self.nickname_text()
        if not nick:
            self._show_message(_tr("Choose a nickname first: the other player sees it."))
            self.nickname.setFocus()
            return None
        self._remember_nickname()
        if self._identity is None or self._known is None:
            self._load_identity()
            assert self._loading is not None
            try:  # done long ago unless the player was very quick
                self._identity, self._known = self._loading.result(timeout=10)
            except (IdentityFileError, OSError, TimeoutError) as error:
                self._loading = None
                self._show_message(_tr("Your identity cannot be read: {0}").format(error))
                return None
        return PeerOptions(
            identity=self._identity,
            nickname=nick,
            settings=settings,
            known_peers=self._known,
            password=password,
            hold_for_confirmation=True,
            resume_window=RESUME_WINDOW,  # a dropped connection is dialled again (netlink/)
            dealings=dealings,
        )

    # --- joining -------------------------------------------------------------------------

    def selected_room(self) -> Room | None:
        index = self.room_list.currentIndex()
        if not index.isValid():
            return None
        room = self.finder.model.data(index, ROOM_ROLE)
        return room if isinstance(room, Room) else None

    def _on_activated(self, index: QModelIndex) -> None:
        room = self.finder.model.data(index, ROOM_ROLE)
        if isinstance(room, Room):
            self.join_room(room)

    def join_selected(self) -> None:
        room = self.selected_room()
        if room is None:
            self._show_message(_tr("Choose a room in the list first."))
            return
        self.join_room(room)

    def join_room(self, room: Room) -> None:
        """Join a listed room (its settings, as announced; the handshake checks them)."""
        if room.status is RoomStatus.PLAYING:
            self._show_message(_tr("That room is already playing."))
            return
        settings = Settings(rounds=room.rounds, doubling=room.doubling)
        self._code = None
        self._joined_room = room  # a drop mid-match finds it again by mDNS (it may move)
        # A room announced as version 2 or 3 is an older host: it refuses a version-4 hello
        # and deals with this koikoi only from the joint seed (its version-2 hello), so it is
        # joined with the seed alone if joint-seed dealing is allowed, else not dialled.
        dealings = self.join_dealings()
        if room.version < PRIVATE_VERSION:
            if "seed" not in dealings:
                line = dealing_refused_text("seed", who=f"the room {room.title!r}")
                self._fail(LinkError("dealing", line, room.address, DealingRefused(line, "seed")))
                return
            dealings = SEED_ONLY
        if not room.private:
            self._dial(list(room.addresses), "", settings, dealings)
            return
        prompt = PasswordPrompt(room.title, self)
        self.password_prompt = prompt

        def answered(result: int) -> None:
            self.password_prompt = None
            password = prompt.password.text()
            prompt.deleteLater()
            if result == QDialog.DialogCode.Accepted and password:
                self._dial(list(room.addresses), password, settings, dealings)

        prompt.finished.connect(answered)
        prompt.open()

    def join_by_address(self) -> None:
        """Join the address typed (HOST:PORT, [IPv6]:PORT, a host name), or the join code
        typed (told apart as ``koikoi join`` tells them: :func:`looks_like_code`), with the
        form's settings and the password typed beside it (for a private room)."""
        text = self.address.text().strip()
        self._joined_room = None
        self._code = None
        if looks_like_code(text):
            self.join_by_code(text)
            return
        try:
            parse_address(text)
        except ValueError as error:
            self._fail(LinkError("address", str(error), text))
            return
        self._dial([text], self.address_password.text(), self.form_settings())

    def join_by_code(self, text: str) -> None:
        """Join by a join code: a mistyped one is said in one line and nothing is dialled;
        else its addresses are dialled in order with its host's fingerprint pinned (a host
        of another identity is refused in the handshake, before anything is pinned)."""
        try:
            code = decode(" ".join(text.split()))  # (a code pasted in lines)
        except JoinCodeError as error:
            self._fail(LinkError("code", str(error), text.strip()))
            return
        if code.reply:  # a joiner's, for a host (docs/protocol.md, "Both sides dial")
            self._fail(LinkError("reply_code", "a reply code", text.strip()))
            return
        self._joined_room = None
        self._code = code
        targets = [format_address(c.host, c.port) for c in code.candidates]
        self._dial(targets, self.address_password.text(), self.form_settings())

    def _dial(
        self,
        targets: list[str],
        password: str,
        settings: Settings,
        dealings: tuple[str, ...] | None = None,
    ) -> None:
        if self.join is not None or self.room is not None:
            return
        options = self._options(settings, password, dealings or self.join_dealings())
        if options is None or not targets:
            return
        options.expected_fingerprint = None if self._code is None else self._code.fingerprint
        self._changed_key = None
        self._show_message(None)
        self._retry = (list(targets), password, settings, options.dealings)
        self._targets = list(targets)
        self._next_target(options)

    def _next_target(self, options: PeerOptions) -> None:
        address = self._targets.pop(0)
        join = QtJoin(options, self, now=self.now, timer=self.make_timer)
        room = self._joined_room
        if room is not None:
            join.follow_room(room.name, room.title, room.fingerprint, self.bind)
        self._take_join(join)
        self.waiting_page.show_joining(address)
        self.pages.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()
        try:
            join.connect_to_address(address, self._dial_budget())
        except ValueError as error:
            self._drop_join()
            self._fail(LinkError("address", str(error), address))
            return
        self._join_clock.start(1000)

    def _take_join(self, join: QtJoin) -> None:
        """``join`` is the lobby's join now: its signals are the lobby's."""
        self.join = join
        join.established.connect(self._on_established)
        join.cards_shown.connect(self._on_cards)
        join.tossed.connect(self._on_tossed)
        join.failed.connect(self._on_join_failed)
        join.ended.connect(self._on_ended)

    def _dial_budget(self) -> float | None:
        """A join code's addresses share :data:`~koikoi.net.joincode.DIAL_TIMEOUT` s (a
        dead one must not hold up the next for the whole silence timeout); None: the
        options' own."""
        code = self._code
        if code is None or len(code.candidates) < 2:
            return None
        return max(CODE_DIAL_LEAST, DIAL_TIMEOUT / len(code.candidates))

    def _tell_join_progress(self) -> None:
        """The waiting page of a join says what it waits for: the connection, then the room's
        answer; after :data:`SILENT_JOIN` seconds without one, for how long, and when the join
        gives up (the handshake's time limit, after which the lobby says why)."""
        join = self.join
        if join is None or join.done or self.peer is not None:
            self._join_clock.stop()
            return
        self._join_clock.start(1000)  # once a second while the join waits
        now = self.now()
        connected = join.times.get("connected")
        seconds = join.dial_seconds() if connected is None else join.options.silence_timeout
        limit = f"{seconds:g}"
        waited = now - (join.times.get("connect", now) if connected is None else connected)
        n = int(waited)
        if connected is None and waited < SILENT_JOIN:
            text = _tr("Connecting to {0}…")
        elif connected is None:
            text = QCoreApplication.translate(
                "Lobby", "No answer from {0} for %n second(s): the join stops at {1} s.", None, n
            )
        elif waited < SILENT_JOIN:
            text = _tr("Connected to {0}: the room checks who you are…")
        else:
            text = QCoreApplication.translate(
                "Lobby",
                "Connected to {0}, but no answer for %n second(s): the join stops at {1} s.",
                None,
                n,
            )
        self.waiting_state.setText(text.format(join.address, limit))

    def _on_join_failed(self, failure: LinkError) -> None:
        join = self.join
        if failure.kind == "connect" and self._targets and join is not None:
            options = join.options
            self._drop_join()
            self._next_target(options)  # the room announced other addresses too
            return
        self._drop_join()
        self._fail(failure)

    def _drop_join(self) -> None:
        self._join_clock.stop()
        join, self.join = self.join, None
        if join is not None:
            drop_slots(join.established, join.cards_shown, join.tossed, join.failed, join.ended)
            join.closed.connect(join.deleteLater)
            if join.done:
                join.deleteLater()

    # --- before the match ----------------------------------------------------------------

    def _on_established(self, peer: PeerInfo) -> None:
        self._join_clock.stop()
        self.peer = peer
        if self.announcer is not None:
            self.announcer.set_status(RoomStatus.PLAYING)
        # joined by code: the handshake proved the host holds the code's identity
        self.prematch.show_peer(peer, by_code=self.join is not None and self._code is not None)
        self.pages.setCurrentWidget(self.prematch)

    def _link(self) -> PeerLink | None:
        if self.join is not None:
            return self.join
        return None if self.room is None else self.room.match

    def _on_cards(self, event: CardsShown) -> None:
        """The toss is over: its outcome and the four cards drawn from it."""
        link = self._link()
        if link is None or self.peer is None:
            return
        self.prematch.show_cards(event, link.role.seat)
        self.prematch.follow(link)  # "Ben confirmed the four cards"

    def _confirm(self) -> None:
        link = self._link()
        if link is not None:
            link.confirm_sas(True)

    def _differ(self) -> None:
        link = self._link()
        if link is not None:
            link.confirm_sas(False)

    def _on_ended(self, ending: Ending) -> None:
        """The session ended before the first deal (after it, the table has the link)."""
        link = self._link()
        conn = None if link is None else link.connection
        counted = None if conn is None else conn.toss_aborts
        name = self.peer.nickname if self.peer is not None else ""
        text = ending_text(ending, counted, name)
        self._reset()
        self._show_message(text)

    def _on_tossed(self, toss: TossDone) -> None:
        link = self._link()
        peer = self.peer
        if link is None or peer is None:
            return
        handed: PeerLink | QtRoom = link
        if self.join is not None:
            self._drop_join_signals()
        elif self.room is not None:
            room = self.room
            drop_slots(room.established, room.cards_shown, room.tossed, room.ended, room.refused)
            # the room, not its link: a resumed match goes on over another link of the room
            handed = room
        self.handed = handed
        handed.closed.connect(self._on_handed_closed)
        if isinstance(handed, QtRoom):  # a room closes when its owner leaves it: here, once
            handed.match_closed.connect(self._on_handed_closed)  # its match's connection closed
        self.peer = None
        emit(self.match_ready, handed, peer, toss)

    def _drop_join_signals(self) -> None:
        join = self.join
        if join is not None:
            drop_slots(join.established, join.cards_shown, join.tossed, join.failed, join.ended)
        self.join = None

    def _on_handed_closed(self) -> None:
        """The match handed over is over: close the room, withdraw its announcement."""
        self.handed = None
        room, self.room = self.room, None
        if room is not None and room.done:  # the window left it
            room.deleteLater()
        elif room is not None:
            room.closed.connect(room.deleteLater)
            room.leave("the match is over")
        announcer, self.announcer = self.announcer, None
        if announcer is not None:
            announcer.withdraw()
        self._close_mapping()
        self.stop_reply()

    # --- failures ------------------------------------------------------------------------

    def _fail(self, failure: LinkError) -> None:
        self.failure = failure
        error = failure.error
        self._reset()
        self._changed_key = error if isinstance(error, IdentityChanged) else None
        self._show_message(failure_text(failure))
        self.offer_reply(failure)
        if self.reply_button.isVisible():
            self.reply_button.setFocus()
        if self._changed_key is not None:
            self.accept_key_button.setFocus()

    def accept_new_key(self) -> None:
        """The player read the warning and accepts the peer's new key: the old pin is
        forgotten and the same room dialled again (the new key is pinned on success)."""
        changed, retry = self._changed_key, self._retry
        self._changed_key = None
        if changed is None or retry is None or self._known is None:
            return
        self._known.forget(changed.name)
        targets, password, settings, dealings = retry
        self._dial(targets, password, settings, dealings)

    def cancel(self) -> None:
        """Stop connecting, leave before the match, or close the room."""
        link = self.join
        if link is not None:
            self._drop_join()
            link.leave("the player left before the match")
        self._close_room()
        self._reset()

    def _reset(self) -> None:
        self.stop_reply()
        if self.join is not None:
            self._drop_join()
        self._close_room()
        self.peer = None
        self.prematch.clear()
        self.pages.setCurrentWidget(self.rooms_page)

    def shutdown(self) -> None:
        """The window closes: leave everything, stop browsing. A room's mapping on the router
        is removed before the app goes, unless the router takes longer than
        :data:`~koikoi.ui.net.portmapping.EXIT_WAIT` s (then it lapses with its lease)."""
        mapping = self.mapping
        self.cancel()
        self.stop_browsing()
        if mapping is not None:
            mapping.wait(EXIT_WAIT)


def connect_match_ready(lobby: Lobby, target: QObject) -> bool:
    """Connect :attr:`Lobby.match_ready` to ``target.start_network_match`` when the target has
    it (the table's side of network play); whether it did."""
    start = getattr(target, "start_network_match", None)
    if start is None:
        return False
    lobby.match_ready.connect(start)
    return True


__all__ = ["Lobby", "connect_match_ready"]
