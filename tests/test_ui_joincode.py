"""The join code in the app (issue 23): two MainWindows in one process over loopback, each
with a home of its own (settings, identity, pins), driven through their lobbies.

The host's waiting page shows the room's join code (its addresses and port, the host's
fingerprint) with a Copy button; the other window types it in the address field and joins,
the host's identity pinned by the code, and the four-card page says the code proved it. A
typo is caught before anything is dialled; a code naming another identity is refused in
words and nothing is pinned. "Open to the internet" asks a fake router (a
:class:`koikoi.net.portmap.Mapper` answering as miniupnpd would, given as the lobby's
``mappers``; the real routers are tests/test_net_nat.py's): the page says what it did, the
code names the mapping first, the lease is renewed on a stepped clock and removed at close;
a router that refuses is said in its words and the room still takes a friend on the LAN.

The rooms are joined by code, never found by mDNS: the lobbies' discovery is kept off the
network here (the room finder does not browse, the advertiser announces nothing).
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QAccessible, QFontInfo, QGuiApplication
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from koikoi.net.discovery.advertiser import RoomAdvertiser
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.joincode import ALPHABET, DIAL_TIMEOUT, Candidate, JoinCode, decode, encode
from koikoi.net.portmap import LEASE, MAP_TIMEOUT, RENEW_EVERY, Mapping, MappingFailed
from koikoi.ui.common.settings import ROOM_INTERNET
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.lobby.rooms import RoomFinder
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY
from koikoi.ui.net.netlink.base import APP_DEALINGS
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.smoke import LOOPBACK, open_window
from tests.stepped_clock import SteppedClock
from tests.ui_driver import (
    FAST,
    actions_so_far,
    click,
    close_window,
    panel_button,
    play_windows_by_clicks,
)

EXTERNAL = "192.0.2.44"
"""The fake router's external address (TEST-NET-1: never dialled here)."""
MAPPED_PORT = 40213


@pytest.fixture(autouse=True)
def _no_mdns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RoomFinder, "start", lambda self: None)
    monkeypatch.setattr(RoomAdvertiser, "publish", lambda self, timeout=10.0: None)


class FakeRouter:
    """A home router as :class:`koikoi.net.portmap.Mapper` sees it: it maps the room's port
    to :data:`EXTERNAL`:``MAPPED_PORT``, or refuses with ``refusal``. Its calls are counted
    (from the mapping's worker thread)."""

    def __init__(
        self, refusal: str = "", hold: threading.Event | None = None, close_takes: float = 0.0
    ) -> None:
        self.lease = LEASE
        self.answered = True
        self.refusal = refusal
        self.hold = hold
        """Set: the router answers only once it is set (one that takes its time)."""
        self.close_takes = close_takes
        """Seconds the router takes to answer a removal (on the mapping's worker)."""
        self.calls: list[str] = []
        self.mapping: Mapping | None = None

    def open(self, port: int) -> Mapping:
        self.calls.append(f"open {port}")
        if self.hold is not None:
            self.hold.wait(10)
        if self.refusal:
            raise MappingFailed(self.refusal)
        self.mapping = Mapping(EXTERNAL, MAPPED_PORT, LOOPBACK, port)
        return self.mapping

    def renew(self) -> None:
        self.calls.append("renew")

    def close(self) -> None:
        time.sleep(self.close_takes)  # the router's time to answer, on the worker thread
        if self.mapping is not None:
            self.calls.append("close")
        self.mapping = None


REFUSAL = (
    f"the router at {EXTERNAL} refused to map port 4000 (ConflictInMappingEntry): allow UPnP "
    "port mappings for this machine in the router's settings"
)


def lobby_window(qtbot: QtBot, home: Path, nickname: str) -> MainWindow:
    window = open_window(home, FAST, LOOPBACK)
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    window.show_lobby()
    window.lobby.nickname.setText(nickname)
    window.lobby.dealings = APP_DEALINGS
    return window


@pytest.fixture
def host(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    window = lobby_window(qtbot, tmp_path / "hana", "hana")
    yield window
    close_window(window)


@pytest.fixture
def joiner(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    window = lobby_window(qtbot, tmp_path / "taro", "taro")
    yield window
    close_window(window)


def open_room(qtbot: QtBot, lobby: Lobby, *, internet: bool = False, password: str = "") -> QtRoom:
    lobby.room_title.setText("across town")
    lobby.rooms_page.internet.setChecked(internet)
    lobby.private.setChecked(bool(password))
    lobby.room_password.setText(password)
    click(qtbot, lobby.create_button)
    room = lobby.room
    assert isinstance(room, QtRoom), lobby.message.text()
    assert lobby.pages.currentWidget() is lobby.waiting_page
    return room


def shown_code(lobby: Lobby) -> str:
    """The code on the waiting page, as Copy copies it (the label may break it in lines)."""
    page = lobby.waiting_page
    assert page.code.isVisible() and page.copy_button.isVisible()
    assert page.code.text().replace("\n", "-") == page.code_text
    return page.code_text


def type_and_join(qtbot: QtBot, lobby: Lobby, text: str) -> None:
    """The player types ``text`` in the address field and presses Join."""
    lobby.address.clear()
    QTest.keyClicks(lobby.address, text)
    click(qtbot, lobby.address_button)


def host_fingerprint(window: MainWindow) -> str:
    room = window.lobby.room
    assert room is not None
    return room.options.identity.fingerprint


def test_the_waiting_page_shows_the_rooms_code_and_copy_puts_it_on_the_clipboard(
    qtbot: QtBot, host: MainWindow
) -> None:
    routers: list[FakeRouter] = []

    def mappers() -> list[FakeRouter]:
        routers.append(FakeRouter())
        return routers

    host.lobby.mappers = mappers
    room = open_room(qtbot, host.lobby)
    text = shown_code(host.lobby)
    code = decode(text)
    assert code.candidates == (Candidate(LOOPBACK, room.port),)
    assert code.fingerprint == host_fingerprint(host) and not code.mapped
    page = host.lobby.waiting_page
    assert QFontInfo(page.code.font()).fixedPitch()  # monospace, for reading symbol by symbol
    assert page.code.font().pixelSize() >= 24 or page.code.font().pointSize() >= 18
    groups = text.split("-")
    assert all(len(group) == 5 for group in groups[:-1])
    # a screen reader hears it symbol by symbol, a group at a time
    spoken = "Join code: " + ", ".join(" ".join(g) for g in groups)
    reader = QAccessible.queryAccessibleInterface(page.code)
    assert reader is not None and reader.text(QAccessible.Text.Name) == spoken
    assert page.copy_button.accessibleName() == "Copy the join code"
    click(qtbot, page.copy_button)
    assert QGuiApplication.clipboard().text() == text
    assert page.copy_button.text() == "Copied"
    # a LAN room maps nothing and says nothing of the internet
    assert routers == [] and host.lobby.mapping is None
    assert not page.internet.isVisible() and not page.password_hint.isVisible()


def test_a_second_window_joins_by_the_code_and_the_card_page_says_the_code_proved_the_host(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    open_room(qtbot, host.lobby)
    code = shown_code(host.lobby)
    type_and_join(qtbot, joiner.lobby, code.lower().replace("-", " "))  # as a chat garbles it
    guest = joiner.lobby
    qtbot.waitUntil(lambda: guest.prematch.painted and host.lobby.prematch.painted, timeout=15_000)
    proof = guest.prematch.proof
    assert proof.isVisible()
    assert proof.text().startswith("Proven by the join code: hana's key ")
    assert host_fingerprint(host) in proof.text()
    assert "the four-card check is already passed" in guest.prematch.ask.text()
    assert "Compare the four cards" not in guest.prematch.who.text()
    assert not host.lobby.prematch.proof.isVisible()  # the host has no code to check
    # the match starts as any other does: both confirm, the toss, the table
    click(qtbot, guest.prematch.same_button)
    click(qtbot, host.lobby.prematch.same_button)
    qtbot.waitUntil(
        lambda: all(w.controller.remote is not None for w in (host, joiner)), timeout=15_000
    )
    known = guest._known
    assert known is not None and host_fingerprint(host) in known.fingerprints()


def test_a_code_whose_first_address_is_dead_is_joined_at_the_next(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    room = open_room(qtbot, host.lobby)
    with socket.socket() as dead:
        dead.bind((LOOPBACK, 0))
        closed = dead.getsockname()[1]  # bound, never listening: refused at once
        candidates = (Candidate(LOOPBACK, closed), Candidate(LOOPBACK, room.port))
        code = encode(JoinCode(candidates, host_fingerprint(host)))
        type_and_join(qtbot, joiner.lobby, code)
        qtbot.waitUntil(lambda: joiner.lobby.prematch.painted, timeout=15_000)
    assert joiner.lobby.prematch.proof.isVisible()


def test_a_one_character_typo_is_caught_in_one_line_without_dialling(
    qtbot: QtBot, joiner: MainWindow
) -> None:
    listener = socket.create_server((LOOPBACK, 0))
    listener.setblocking(False)
    try:
        port = listener.getsockname()[1]
        good_fp = Identity.generate().fingerprint
        good = encode(JoinCode((Candidate(LOOPBACK, port),), good_fp))
        symbols = good.replace("-", "")
        changed = symbols[4]
        other = ALPHABET[(ALPHABET.index(changed) + 1) % len(ALPHABET)]
        typos = [
            symbols[:4] + other + symbols[5:],  # one symbol misheard
            symbols[:7] + symbols[8:],  # one left out
            symbols[:7] + "7" + symbols[7:],  # one added
        ]
        i = next(i for i in range(len(symbols) - 1) if symbols[i] != symbols[i + 1])
        typos.append(symbols[:i] + symbols[i + 1] + symbols[i] + symbols[i + 2 :])  # swapped
        lobby = joiner.lobby
        for typo in typos:
            lobby.failure = None
            type_and_join(qtbot, lobby, typo)
            assert lobby.join is None, typo  # nothing dialled
            assert lobby.failure is not None and lobby.failure.kind == "code", typo
            shown = lobby.message.text()
            assert shown.startswith("That join code does not check out: "), shown
            assert "\n" not in shown and lobby.message.isVisible()
            assert lobby.pages.currentWidget() is lobby.rooms_page
        qtbot.wait(100)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody dialled the code's address
        reply = encode(JoinCode((Candidate(LOOPBACK, port),), good_fp, reply=True))
        type_and_join(qtbot, lobby, reply)  # a joiner's reply code, typed here by mistake
        assert lobby.join is None and lobby.failure is not None
        assert lobby.failure.kind == "reply_code"
        assert lobby.message.text().startswith("That is a reply code: "), lobby.message.text()
        # the same code typed right is dialled (the field told the two apart)
        type_and_join(qtbot, lobby, good)
        assert lobby.join is not None
        qtbot.waitUntil(lambda: _accepted(listener), timeout=10_000)
    finally:
        listener.close()


def _accepted(listener: socket.socket) -> bool:
    try:
        connection, _ = listener.accept()
    except BlockingIOError:
        return False
    connection.close()
    return True


def test_a_code_naming_another_identity_is_refused_in_words_and_nothing_is_pinned(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    room = open_room(qtbot, host.lobby)
    forged = Identity.generate().fingerprint
    code = encode(JoinCode((Candidate(LOOPBACK, room.port),), forged))
    guest = joiner.lobby
    type_and_join(qtbot, guest, code)
    qtbot.waitUntil(lambda: guest.failure is not None, timeout=15_000)
    assert guest.failure is not None and guest.failure.kind == "code_identity"
    shown = guest.message.text()
    assert shown.startswith(f"The room at {LOOPBACK}:{room.port} is not the one the join code ")
    assert host_fingerprint(host) in shown and forged in shown and "\n" not in shown
    assert guest.pages.currentWidget() is guest.rooms_page  # no card page, no match
    assert guest._known is not None and guest._known.fingerprints() == frozenset()
    home = guest.home
    assert home is not None
    assert KnownPeers.load(home).fingerprints() == frozenset()  # nor on disk


def test_a_router_maps_the_port_the_code_names_it_first_renewed_then_removed(
    qtbot: QtBot, host: MainWindow
) -> None:
    clock = SteppedClock()
    lobby = host.lobby
    lobby.now, lobby.make_timer = clock.now, clock.timer
    router = FakeRouter()
    lobby.mappers = lambda: [router]
    room = open_room(qtbot, lobby, internet=True)
    assert lobby.settings.get(ROOM_INTERNET) is True  # remembered like the other options
    page = lobby.waiting_page
    qtbot.waitUntil(lambda: "Your router opened" in page.internet.text(), timeout=10_000)
    assert page.internet.text() == (
        f"Your router opened port {MAPPED_PORT} for this room until you close it: a friend "
        "elsewhere joins by the code."
    )
    code = decode(shown_code(lobby))
    assert code.mapped and code.fingerprint == host_fingerprint(host)
    assert code.candidates == (
        Candidate(EXTERNAL, MAPPED_PORT),
        Candidate(LOOPBACK, room.port),
    )
    assert page.password_hint.isVisible()  # no password: it suggests one
    assert "password keeps strangers out" in page.password_hint.text()
    assert router.calls == [f"open {room.port}"]
    mapping = lobby.mapping
    assert mapping is not None
    for n in (1, 2):
        clock.advance(RENEW_EVERY, qtbot, step=RENEW_EVERY / 4)
        qtbot.waitUntil(lambda n=n: mapping.renewals == n, timeout=10_000)  # type: ignore[misc]
    assert router.calls.count("renew") == 2
    click(qtbot, lobby.cancel_button)
    mapping.wait()
    assert router.calls[-1] == "close" and router.mapping is None
    assert lobby.mapping is None


def test_a_refusing_router_is_said_in_its_words_and_the_room_takes_a_friend_on_the_lan(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    router = FakeRouter(refusal=REFUSAL)
    host.lobby.mappers = lambda: [router]
    room = open_room(qtbot, host.lobby, internet=True, password="matsu")
    page = host.lobby.waiting_page
    qtbot.waitUntil(lambda: "not open to the internet" in page.internet.text(), timeout=10_000)
    assert page.internet.text() == (
        f"The room is not open to the internet: {REFUSAL}. A friend on the same network can "
        "still join."
    )
    assert not page.password_hint.isVisible()  # it has one
    code = decode(shown_code(host.lobby))
    assert not code.mapped and code.candidates == (Candidate(LOOPBACK, room.port),)
    joiner.lobby.address_password.setText("matsu")
    type_and_join(qtbot, joiner.lobby, shown_code(host.lobby))
    qtbot.waitUntil(
        lambda: joiner.lobby.prematch.painted and host.lobby.prematch.painted, timeout=15_000
    )


def test_a_router_that_takes_too_long_is_given_up_and_its_late_mapping_removed(
    qtbot: QtBot, host: MainWindow
) -> None:
    clock = SteppedClock()
    lobby = host.lobby
    lobby.now, lobby.make_timer = clock.now, clock.timer
    answer = threading.Event()
    router = FakeRouter(hold=answer)
    lobby.mappers = lambda: [router]
    open_room(qtbot, lobby, internet=True)
    page = lobby.waiting_page
    assert page.internet.text() == "Asking your router to open a port for this room…"
    qtbot.waitUntil(lambda: bool(router.calls), timeout=10_000)  # asked, on the worker
    assert lobby.isVisible() and page.code.text() != ""  # the window goes on meanwhile
    clock.advance(MAP_TIMEOUT, qtbot, step=MAP_TIMEOUT / 4)
    assert page.internet.text().startswith(
        "The room is not open to the internet: the router did not finish mapping the port "
        f"within {MAP_TIMEOUT:g} s"
    )
    answer.set()  # the router answers after all: the mapping nobody was told of goes
    qtbot.waitUntil(lambda: "close" in router.calls, timeout=10_000)
    assert not decode(shown_code(lobby)).mapped


def test_closing_the_window_removes_the_mapping_before_the_app_goes(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The mapping's worker is a daemon thread: the app's exit would cut it short, so the
    window's close waits for the removal (a little)."""
    window = lobby_window(qtbot, tmp_path / "hana", "hana")
    router = FakeRouter(close_takes=0.3)
    window.lobby.mappers = lambda: [router]
    open_room(qtbot, window.lobby, internet=True)
    qtbot.waitUntil(lambda: router.mapping is not None, timeout=10_000)
    qtbot.waitUntil(
        lambda: window.lobby.mapping is not None and window.lobby.mapping.mapping is not None
    )
    close_window(window)
    assert router.calls[-1] == "close" and router.mapping is None


@pytest.mark.parametrize("leaving", ["cancel", "home-after-the-match"])
def test_quitting_at_once_after_the_room_closed_still_waits_for_the_removal(
    qtbot: QtBot, tmp_path: Path, leaving: str
) -> None:
    """The mapping was let go a moment before the window closed (the room's Cancel, or home
    after a match, its port kept for a rematch till then): its removal is still on the
    worker, which the app's exit would cut short, so the window's close waits for it too
    (a little), not only for a mapping still open."""
    window = lobby_window(qtbot, tmp_path / "hana", "hana")
    router = FakeRouter(close_takes=0.3)
    window.lobby.mappers = lambda: [router]
    room = open_room(qtbot, window.lobby, internet=True)
    qtbot.waitUntil(
        lambda: window.lobby.mapping is not None and window.lobby.mapping.mapping is not None,
        timeout=10_000,
    )
    if leaving == "cancel":
        click(qtbot, window.lobby.cancel_button)
    else:  # as a match's start hands the port over (the rematch listens there again)
        window.kept_mapping = window.lobby.keep_mapping(room.port)
        assert window.kept_mapping is not None
        window.go_home()
    assert router.mapping is not None  # the router has not answered yet
    close_window(window)
    assert router.calls[-1] == "close" and router.mapping is None


def test_a_code_s_silent_first_address_has_its_share_of_the_dial_then_the_next_is_dialled(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    """A dead address of a code must not hold the join for the whole silence timeout (a
    mapped room's external address, from inside a home whose router does not loop back):
    the code's addresses share DIAL_TIMEOUT."""
    room = open_room(qtbot, host.lobby)
    guest = joiner.lobby
    clock = SteppedClock()
    guest.now, guest.make_timer = clock.now, clock.timer
    guest._join_clock = clock.timer(guest, guest._tell_join_progress)
    # a listener whose one-place queue is full: the kernel drops the next SYN (it hangs)
    full = socket.socket()
    full.bind((LOOPBACK, 0))
    full.listen(0)
    filler = socket.create_connection(full.getsockname())
    try:
        silent = full.getsockname()[1]
        candidates = (Candidate(LOOPBACK, silent), Candidate(LOOPBACK, room.port))
        type_and_join(qtbot, guest, encode(JoinCode(candidates, host_fingerprint(host))))
        share = DIAL_TIMEOUT / 2
        clock.advance(share - 1, qtbot, step=0.5)
        assert guest.pages.currentWidget() is guest.waiting_page
        assert guest.waiting_state.text() == (
            f"No answer from {LOOPBACK}:{silent} for {int(share - 1)} seconds: the join stops "
            f"at {share:g} s."
        )
        clock.advance(1.5, qtbot, step=0.5)
        qtbot.waitUntil(lambda: guest.prematch.painted, timeout=15_000)  # the next address
        assert guest.prematch.proof.isVisible()
    finally:
        filler.close()
        full.close()


def test_an_internet_rooms_port_stays_mapped_for_the_rematch_and_is_removed_at_home(
    qtbot: QtBot, host: MainWindow, joiner: MainWindow
) -> None:
    """The rematch listens on the room's port again and the joiner dials the address it
    joined by: the router's mapping must outlive the match's room (it was removed with it,
    so a friend across the internet could not call back). It goes when the host goes home."""
    router = FakeRouter()
    host.lobby.mappers = lambda: [router]
    room = open_room(qtbot, host.lobby, internet=True)
    page = host.lobby.waiting_page
    qtbot.waitUntil(lambda: "Your router opened" in page.internet.text(), timeout=10_000)
    type_and_join(qtbot, joiner.lobby, f"{LOOPBACK}:{room.port}")
    windows = [host, joiner]
    qtbot.waitUntil(lambda: all(w.lobby.prematch.painted for w in windows), timeout=15_000)
    for window in windows:
        click(qtbot, window.lobby.prematch.same_button)
    qtbot.waitUntil(
        lambda: all(w.controller.mode is Mode.FIRST_OYA for w in windows), timeout=20_000
    )
    first = host.link
    play_windows_by_clicks(
        qtbot,
        windows,
        random.Random(5),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in windows),
    )
    # both click Rematch: the host's room opens again on its port, the joiner calls it
    click(qtbot, panel_button(joiner))
    qtbot.waitUntil(lambda: "wants a rematch" in host.game.side.log.toPlainText())
    click(qtbot, panel_button(host))
    qtbot.waitUntil(
        lambda: host.link is not first and host.controller.mode is Mode.FIRST_OYA,
        timeout=20_000,
    )
    assert router.mapping is not None and "close" not in router.calls  # still mapped
    assert host.kept_mapping is not None and host.lobby.mapping is None
    kept = host.kept_mapping
    host.go_home()
    kept.wait()
    assert router.calls[-1] == "close" and router.mapping is None
    assert host.kept_mapping is None


def test_a_restored_internet_room_asks_the_router_again(qtbot: QtBot, tmp_path: Path) -> None:
    """The host's app crashed mid-match: started again, its room listens where it did and,
    as the room was open to the internet, asks the router to map the port again (the old
    mapping lapses with its lease). The log says what the router did; home removes it."""
    from tests.test_ui_crash_resume import crash, net_records
    from tests.test_ui_crash_resume import lobby_window as crash_window

    router = FakeRouter()
    host = crash_window(qtbot, tmp_path / "hana", "hana", keep=False, dealings=APP_DEALINGS)
    joiner = lobby_window(qtbot, tmp_path / "taro", "taro")
    host.lobby.mappers = lambda: [router]
    room = open_room(qtbot, host.lobby, internet=True)
    qtbot.waitUntil(lambda: router.mapping is not None, timeout=10_000)
    port = room.port
    type_and_join(qtbot, joiner.lobby, f"{LOOPBACK}:{port}")
    windows = [host, joiner]
    qtbot.waitUntil(lambda: all(w.lobby.prematch.painted for w in windows), timeout=15_000)
    for window in windows:
        click(qtbot, window.lobby.prematch.same_button)
    qtbot.waitUntil(lambda: all(w.controller.remote is not None for w in windows), timeout=15_000)
    qtbot.waitUntil(lambda: bool(net_records(tmp_path / "hana")), timeout=10_000)
    record = json.loads(net_records(tmp_path / "hana")[0].read_text(encoding="utf-8"))
    resume = record[RESUME_KEY]
    assert resume["internet"] is True and resume["port"] == port
    play_windows_by_clicks(  # a few moves in, as a crash comes mid-match
        qtbot,
        windows,
        random.Random(3),
        until=lambda: actions_so_far(host) >= 5 and host.controller.mode is Mode.PLAY,
    )
    qtbot.wait(300)  # nothing in flight
    crash(qtbot, host)
    qtbot.waitUntil(joiner.game.reconnecting.isVisible, timeout=15_000)
    again_router = FakeRouter()  # the same router, its old mapping lapsing
    again = lobby_window(qtbot, tmp_path / "hana", "")
    again.lobby.mappers = lambda: [again_router]
    again.go_home()
    click(qtbot, again.start.reconnect_button)
    qtbot.waitUntil(lambda: again_router.calls == [f"open {port}"], timeout=10_000)
    said = f"Your router opened port {MAPPED_PORT} for this match again."
    qtbot.waitUntil(lambda: said in again.game.side.log.toPlainText(), timeout=10_000)
    qtbot.waitUntil(lambda: not joiner.game.reconnecting.isVisible(), timeout=30_000)
    kept = again.kept_mapping
    assert kept is not None
    again.go_home()
    kept.wait()
    assert again_router.calls[-1] == "close"
    close_window(again)
    close_window(joiner)
