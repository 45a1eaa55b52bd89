"""Both sides dial, in the app (issue 23; docs/protocol.md, "Both sides dial"): windows in one
process over loopback, each with a home of its own, driven through their lobbies by clicks
and typing, over real sockets.

taro's join by code gets no answer (the code names a port nobody listens on: a room behind a
router that lets nothing in). His lobby offers "Make a reply code"; clicked, it listens on a
port of its own, shows the reply code (his address and fingerprint) with Copy, and dials the
room's address from that port. hana types the reply code under "Reply code" on her room's
waiting page and clicks "Dial back": her room dials taro's port from its own, and the match
starts over that connection, each side's identity pinned by the other's code. An impostor
room dialling taro's reply is refused by the pin; a reply nobody answers, and a room that
never dials back, are said in words within their windows and leave both sides as they were.

The routers are fake ones that refuse (tests/test_ui_joincode.py's): nothing is dialled
outside the loopback. The real routers and two real app processes are
tests/test_ui_internet_processes.py's.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from koikoi.net.joincode import Candidate, JoinCode, decode, encode
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.main_window import MainWindow
from koikoi.ui.smoke import LOOPBACK
from tests.stepped_clock import SteppedClock
from tests.test_ui_i18n_failures import english_in
from tests.test_ui_joincode import (
    EXTERNAL,
    MAPPED_PORT,
    REFUSAL,
    FakeRouter,
    _no_mdns,  # noqa: F401 (an autouse fixture: the lobbies' discovery stays off the network)
    host_fingerprint,
    lobby_window,
    open_room,
    type_and_join,
)
from tests.ui_driver import click, close_window

STEP = 0.125
"""The stepped clock's step: exact in binary, so 1.5 s falls on a step."""


def refusing_router(lobby: Lobby) -> list[FakeRouter]:
    routers: list[FakeRouter] = []

    def mappers() -> list[FakeRouter]:
        routers.append(FakeRouter(refusal=REFUSAL))
        return routers[-1:]

    lobby.mappers = mappers
    return routers


def window(qtbot: QtBot, home: Path, nickname: str) -> MainWindow:
    opened = lobby_window(qtbot, home, nickname)
    refusing_router(opened.lobby)
    return opened


@pytest.fixture
def hana(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    opened = window(qtbot, tmp_path / "hana", "hana")
    yield opened
    close_window(opened)


@pytest.fixture
def taro(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    opened = window(qtbot, tmp_path / "taro", "taro")
    yield opened
    close_window(opened)


@pytest.fixture
def dead_port() -> Iterator[int]:
    """A loopback port bound and never listening: a dial there is refused at once."""
    with socket.socket() as dead:
        dead.bind((LOOPBACK, 0))
        yield dead.getsockname()[1]


def unreachable_code(room_owner: MainWindow, port: int) -> str:
    """The room's code as a friend elsewhere gets it, its one address unreachable from here."""
    return encode(JoinCode((Candidate(LOOPBACK, port),), host_fingerprint(room_owner)))


def reply_of(qtbot: QtBot, lobby: Lobby) -> str:
    """The reply code the joiner's waiting page shows, as Copy copies it."""
    page = lobby.waiting_page
    qtbot.waitUntil(lambda: page.code.isVisible() and page.code_is_reply, timeout=5_000)
    click(qtbot, page.copy_button)
    text = QGuiApplication.clipboard().text()
    assert text == page.code_text
    return text


def ask_for_a_reply(qtbot: QtBot, lobby: Lobby, code: str) -> str:
    """The joiner joins by ``code``, is told nobody answered, clicks "Make a reply code"."""
    type_and_join(qtbot, lobby, code)
    qtbot.waitUntil(lobby.reply_button.isVisible, timeout=15_000)
    assert lobby.message.text().startswith("Could not reach "), lobby.message.text()
    click(qtbot, lobby.reply_button)
    return reply_of(qtbot, lobby)


def dial_back(qtbot: QtBot, lobby: Lobby, reply: str) -> None:
    page = lobby.waiting_page
    assert page.reply_code.isVisible() and page.dial_back_button.isVisible()
    page.reply_code.clear()
    QTest.keyClicks(page.reply_code, reply.lower().replace("-", " "))  # as read out
    click(qtbot, page.dial_back_button)


def test_a_code_nobody_answers_gets_a_reply_code_the_host_dials_back_and_they_play(
    qtbot: QtBot, hana: MainWindow, taro: MainWindow, tmp_path: Path, dead_port: int
) -> None:
    room = open_room(qtbot, hana.lobby, internet=True)
    page = hana.lobby.waiting_page
    qtbot.waitUntil(lambda: "not open to the internet" in page.internet.text(), timeout=5_000)
    assert page.reply_head.isVisible()
    reply = ask_for_a_reply(qtbot, taro.lobby, unreachable_code(hana, dead_port))
    guest = taro.lobby
    both = guest.both_ways
    assert both is not None
    code = decode(reply)
    assert code.reply and code.fingerprint == guest._identity.fingerprint  # type: ignore[union-attr]
    assert code.candidates == (Candidate(LOOPBACK, both.port),)
    assert guest.waiting_page.code_head.text().startswith("Your koikoi cannot reach the room.")
    assert guest.waiting_page.copy_button.accessibleName() == "Copy the reply code"
    assert "while its host dials you" in guest.waiting_state.text()
    said = guest.waiting_page.internet
    qtbot.waitUntil(lambda: said.text().startswith("Your router opened no port for the reply ("))
    # an impostor's room, given the reply, dials taro: his koikoi refuses it (the pinned
    # code of hana's room names her identity), and goes on waiting for hers
    mallory = window(qtbot, tmp_path / "mallory", "mallory")
    try:
        open_room(qtbot, mallory.lobby, internet=True)
        dial_back(qtbot, mallory.lobby, reply)
        said = mallory.lobby.waiting_page.reply_state
        qtbot.waitUntil(lambda: "no match came of it" in said.text(), timeout=10_000)
        assert mallory.lobby.turned_away.text().startswith("The room refused the connection")
        assert f"{LOOPBACK}:{both.port}: answered, but no match came of it" in said.text()
        assert mallory.lobby.peer is None and mallory.lobby.room is not None
        assert guest.both_ways is both and not guest.prematch.painted
    finally:
        close_window(mallory)
    # hana types the reply: her room dials taro's port from its own, the match starts
    dial_back(qtbot, hana.lobby, reply)
    assert page.reply_state.text().startswith(f"Dialling {LOOPBACK}:{both.port} for up to 15 s")
    assert code.fingerprint in page.reply_state.text()
    qtbot.waitUntil(lambda: guest.prematch.painted and hana.lobby.prematch.painted, timeout=15_000)
    assert guest.prematch.proof.text().startswith("Proven by the join code: hana's key ")
    assert guest.both_ways is None  # its port closed, its handshakes done
    click(qtbot, guest.prematch.same_button)
    click(qtbot, hana.lobby.prematch.same_button)
    qtbot.waitUntil(
        lambda: all(w.controller.remote is not None for w in (hana, taro)), timeout=15_000
    )
    assert room.options.expected_joiner == code.fingerprint  # the room let only taro in
    assert taro.controller.remote is not None


def on_stepped_clock(lobby: Lobby) -> SteppedClock:
    """``lobby``'s links and waits from now on, on a stepped clock."""
    clock = SteppedClock()
    lobby.now, lobby.make_timer = clock.now, clock.timer
    return clock


def test_a_reply_nobody_answers_is_said_and_the_room_takes_others_again(
    qtbot: QtBot, hana: MainWindow, taro: MainWindow, dead_port: int
) -> None:
    hana.lobby.dial_back_window = 1.5
    room = open_room(qtbot, hana.lobby, internet=True)
    page = hana.lobby.waiting_page
    page.reply_code.setText("not a code")
    click(qtbot, page.dial_back_button)
    assert page.reply_state.text().startswith("That is not a reply code (")
    dial_back(qtbot, hana.lobby, unreachable_code(hana, dead_port))  # her own room's code
    assert page.reply_state.text().startswith("That is a room's code, not a reply code")
    gone = encode(JoinCode((Candidate(LOOPBACK, dead_port),), "abcd-efgh-ijkl-mnop", reply=True))
    clock = on_stepped_clock(hana.lobby)  # the dial back's window
    dial_back(qtbot, hana.lobby, gone)
    assert room.options.expected_joiner == "abcd-efgh-ijkl-mnop"
    assert not page.dial_back_button.isEnabled()
    clock.advance(1.5 - STEP, qtbot, STEP)  # refused again and again, dialled on
    assert "did not answer" not in page.reply_state.text()
    assert not page.dial_back_button.isEnabled()
    clock.advance(STEP, qtbot, STEP)
    qtbot.waitUntil(lambda: "did not answer within 1.5 s" in page.reply_state.text(), timeout=5_000)
    assert f"{LOOPBACK}:{dead_port}: connection refused" in page.reply_state.text().lower()
    assert page.dial_back_button.isEnabled() and page.reply_code.isEnabled()
    assert room.options.expected_joiner is None  # the pin is off: anyone may join again
    type_and_join(qtbot, taro.lobby, f"{LOOPBACK}:{room.port}")
    qtbot.waitUntil(lambda: taro.lobby.prematch.painted, timeout=15_000)


def test_a_reply_nobody_answers_is_said_in_japanese_address_by_address(
    japanese: None, qtbot: QtBot, hana: MainWindow, dead_port: int
) -> None:
    hana.lobby.dial_back_window = 1.5
    open_room(qtbot, hana.lobby, internet=True)
    page = hana.lobby.waiting_page
    gone = JoinCode(
        (Candidate(LOOPBACK, dead_port), Candidate("::1", dead_port)),
        "abcd-efgh-ijkl-mnop",
        reply=True,
    )
    clock = on_stepped_clock(hana.lobby)
    dial_back(qtbot, hana.lobby, encode(gone))
    clock.advance(1.5, qtbot, STEP)
    qtbot.waitUntil(page.dial_back_button.isEnabled, timeout=5_000)
    text = page.reply_state.text()
    assert not english_in(text.replace("koikoi", "")), text  # the app's name is its own
    # each address with what it answered: refused here; ::1 refused too, or not on this machine
    assert f"{LOOPBACK}:{dead_port}: そこでは何も待ち受けていません" in text, text
    assert f"[::1]:{dead_port}: " in text, text


def test_a_room_that_never_dials_back_is_said_in_time_and_a_reply_can_be_made_again(
    qtbot: QtBot, hana: MainWindow, taro: MainWindow, dead_port: int
) -> None:
    guest = taro.lobby
    guest.reply_timeout = 1.5
    open_room(qtbot, hana.lobby, internet=True)
    type_and_join(qtbot, guest, unreachable_code(hana, dead_port))
    qtbot.waitUntil(guest.reply_button.isVisible, timeout=15_000)
    clock = on_stepped_clock(guest)  # the reply's wait
    click(qtbot, guest.reply_button)
    reply_of(qtbot, guest)
    both = guest.both_ways
    assert both is not None
    port = both.port
    clock.advance(1.5 - STEP, qtbot, STEP)  # dialling the room, refused, dialling on
    assert guest.both_ways is both
    clock.advance(STEP, qtbot, STEP)
    qtbot.waitUntil(lambda: guest.both_ways is None, timeout=5_000)
    assert guest.message.text().startswith("The room did not dial back in time, both sides")
    assert f"{LOOPBACK}:{dead_port}: connection refused" in guest.message.text().lower()
    assert guest.reply_button.isVisible() and guest.pages.currentWidget() is guest.rooms_page
    with socket.socket() as late, pytest.raises(ConnectionRefusedError):
        late.connect((LOOPBACK, port))  # the reply's port is closed
    # a second try: Cancel stops it at once, its port closed too
    guest.reply_timeout = 60
    click(qtbot, guest.reply_button)
    again = guest.both_ways
    assert again is not None
    port = again.port
    click(qtbot, guest.cancel_button)
    assert guest.both_ways is None and guest.pages.currentWidget() is guest.rooms_page
    with socket.socket() as late, pytest.raises(ConnectionRefusedError):
        late.connect((LOOPBACK, port))


def _open(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the other side has not closed (what it said is read away)."""
    alive = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            while sock.recv(65536):  # its hello, say
                pass
        except BlockingIOError:
            alive += 1  # open, nothing more said
        except OSError:
            pass  # reset
    return alive


def test_a_flood_at_the_waiting_joiners_port_is_capped_and_the_room_still_gets_in(
    qtbot: QtBot, hana: MainWindow, taro: MainWindow, dead_port: int
) -> None:
    """Anyone who reads the reply code (or scans the port) can call the waiting joiner: the
    room's limits hold there (MAX_PENDING handshakes at once, the silent ones evicted for
    newer), and the host dialling back still gets in past the idle sockets."""
    from koikoi.net.transport.bothjoin import MAX_PENDING

    open_room(qtbot, hana.lobby, internet=True)
    reply = ask_for_a_reply(qtbot, taro.lobby, unreachable_code(hana, dead_port))
    both = taro.lobby.both_ways
    assert both is not None
    flood = [socket.create_connection((LOOPBACK, both.port)) for _ in range(4 * MAX_PENDING)]
    try:
        qtbot.waitUntil(lambda: _open(flood) <= MAX_PENDING, timeout=5_000)
        qtbot.wait(200)
        assert _open(flood) <= MAX_PENDING
        assert len(both.links) <= MAX_PENDING
        dial_back(qtbot, hana.lobby, reply)
        qtbot.waitUntil(
            lambda: taro.lobby.prematch.painted and hana.lobby.prematch.painted, timeout=15_000
        )
        assert _open(flood) == 0  # the match's handshake done, every other call is closed
    finally:
        for sock in flood:
            sock.close()


def test_a_reply_whose_port_the_router_maps_names_the_mapping_first_and_says_so(
    qtbot: QtBot, hana: MainWindow, taro: MainWindow, dead_port: int
) -> None:
    """The joiner's router maps the reply's port: the code then names the mapping first (the
    host may reach it: the roles turn), and the page says the code changed; the mapping goes
    with the reply. Nothing dials the fake router's address (Cancel comes first)."""
    routers: list[FakeRouter] = []

    def mappers() -> list[FakeRouter]:
        routers.append(FakeRouter())
        return routers[-1:]

    guest = taro.lobby
    guest.mappers = mappers
    open_room(qtbot, hana.lobby, internet=True)
    type_and_join(qtbot, guest, unreachable_code(hana, dead_port))
    qtbot.waitUntil(guest.reply_button.isVisible, timeout=15_000)
    click(qtbot, guest.reply_button)
    said = guest.waiting_page.internet
    qtbot.waitUntil(lambda: said.text().startswith("Your router opened port 40213"), timeout=5_000)
    both = guest.both_ways
    assert both is not None
    code = decode(guest.waiting_page.code_text)
    assert code.reply and code.mapped
    assert code.candidates[:2] == (Candidate(EXTERNAL, MAPPED_PORT), Candidate(LOOPBACK, both.port))
    assert routers[0].calls == [f"open {both.port}"]
    click(qtbot, guest.cancel_button)
    qtbot.waitUntil(lambda: routers[0].calls[-1:] == ["close"], timeout=5_000)


def test_the_apps_dialler_keeps_an_address_s_refusal_over_a_later_silence(qtbot: QtBot) -> None:
    """As koikoi/net/transport/bothdial.py's (tests/test_net_bothdial.py): refused at first,
    then silent (its listening queue full), an address is still said refused when the window
    closes on an attempt in flight, however late the window's end comes to the event loop."""
    import errno

    from koikoi.net.transport.bothdial import listen_both
    from koikoi.ui.net.netlink.bothways import QtDialFrom

    sockets = listen_both(0)
    target_sock = socket.socket()
    target_sock.bind((LOOPBACK, 0))  # not listening: a dial is refused
    target = (LOOPBACK, target_sock.getsockname()[1])
    filler: socket.socket | None = None
    try:
        dial = QtDialFrom(sockets[0].getsockname()[1], [target], 1.5, attempt=0.3)
        ended: list[bool] = []
        dial.finished.connect(lambda: ended.append(True))
        dial.start()
        qtbot.waitUntil(lambda: target in dial.why, timeout=5_000)
        target_sock.listen(0)
        filler = socket.create_connection(target, timeout=2)  # the one place queued
        qtbot.waitUntil(lambda: bool(ended), timeout=10_000)
        assert dial.why[target] == errno.ECONNREFUSED
        assert f"{LOOPBACK}:{target[1]}: connection refused" in dial.tried().lower()
        dial.deleteLater()
    finally:
        for sock in [*sockets, target_sock, *([filler] if filler else [])]:
            sock.close()
