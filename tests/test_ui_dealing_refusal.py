"""Issue 20, finding 1, in the app: private dealing or a clear no, never a silent downgrade.

The app's rooms and joins deal privately only unless the player allowed joint-seed dealing
("Allow joint-seed dealing (for older koikoi)": a room setting, and an option for joining,
both off by default). A peer that offers only the joint seed is refused before any card is
dealt, and the refusal is said in words (English and Japanese) on both ends; a room
announced as koikoi-net/2 is not dialled unless the option is on; the room list and the
waiting page say where the seed is allowed.

Real Qt sockets on loopback, real zeroconf bound to 127.0.0.1; the cheats are a QtJoin and a
QtRoom of our own offering only the seed.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.discovery.advertiser import RoomAdvertiser
from koikoi.net.discovery.txt import Advertisement
from koikoi.net.errors import DealingRefused
from koikoi.net.hello import PROTOCOL_VERSION, SEED_ONLY, WITH_SEED
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common.settings import JOIN_SEED
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.lobby.rooms import RoomListModel
from koikoi.ui.main_window import MainWindow
from koikoi.ui.net.netlink.base import APP_DEALINGS, LinkError
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.prematch import failure_text
from koikoi.ui.smoke import LOOPBACK, open_window
from tests.test_ui_lobby import open_room, row_of, wait_listed
from tests.test_ui_netlink import close_room, options
from tests.test_ui_netlink import open_room as open_qt_room
from tests.ui_driver import FAST, close_window, double_click_room

SEED_WORDS = "the other side offers only joint-seed dealing"
PRIVATE_WORDS = "the other side deals privately only"


def _options(name: str, dealings: tuple[str, ...]) -> PeerOptions:
    made = options(name)
    made.dealings = dealings
    return made


def _failed(qtbot: QtBot, join: QtJoin) -> list[LinkError]:
    failures: list[LinkError] = []
    join.failed.connect(failures.append)
    return failures


@pytest.mark.parametrize(
    ("room_offer", "join_offer", "room_why", "join_why"),
    [
        (APP_DEALINGS, SEED_ONLY, "seed", "private"),  # a cheating joiner, the app's room
        (SEED_ONLY, APP_DEALINGS, "private", "seed"),  # a cheating room, the app's join
    ],
    ids=["app room, seed joiner", "seed room, app join"],
)
def test_the_app_refuses_a_peer_that_offers_only_the_seed_on_both_ends(
    qtbot: QtBot,
    room_offer: tuple[str, ...],
    join_offer: tuple[str, ...],
    room_why: str,
    join_why: str,
) -> None:
    room = open_qt_room(qtbot, _options("hana", room_offer))
    refused: list[LinkError] = []
    room.refused.connect(refused.append)
    join = QtJoin(_options("taro", join_offer))
    failures = _failed(qtbot, join)
    try:
        join.connect_to("127.0.0.1", room.port)
        qtbot.waitUntil(lambda: bool(refused) and bool(failures), timeout=15_000)
        for failure, why in ((refused[0], room_why), (failures[0], join_why)):
            assert failure.kind == "dealing", failure
            assert isinstance(failure.error, DealingRefused) and failure.error.why == why
            text = failure_text(failure)
            assert text.startswith("Refused: ")
            assert (SEED_WORDS if why == "seed" else PRIVATE_WORDS) in text
        assert room.match is None and room.session is None  # no session, no card
        assert join.session is None
        assert room.listening  # the room goes on waiting for an honest player
    finally:
        join.leave()
        close_room(qtbot, room)


def test_a_room_that_allows_the_seed_plays_a_seed_only_joiner(qtbot: QtBot) -> None:
    """Both allowed it: the room setting on, a joiner of the joint seed alone."""
    room = open_qt_room(qtbot, _options("hana", WITH_SEED))
    join = QtJoin(_options("taro", SEED_ONLY))
    try:
        with qtbot.waitSignal(join.established, timeout=15_000) as blocker:
            join.connect_to("127.0.0.1", room.port)
        assert blocker.args is not None and blocker.args[0].dealing == "seed"
    finally:
        join.leave()
        close_room(qtbot, room)


def _window(qtbot: QtBot, home: Path, nickname: str) -> MainWindow:
    window = open_window(home, FAST, LOOPBACK)
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    window.show_lobby()
    window.lobby.nickname.setText(nickname)
    return window


def test_the_lobby_offers_private_dealing_unless_the_player_allows_the_seed(
    qtbot: QtBot, tmp_path: Path
) -> None:
    window = _window(qtbot, tmp_path / "hana", "hana")
    lobby = window.lobby
    try:
        assert not lobby.room_seed.isChecked() and not lobby.join_seed.isChecked()
        assert lobby.room_dealings() == lobby.join_dealings() == ("private",)
        lobby.room_seed.setChecked(True)
        assert lobby.room_dealings() == ("private", "seed")
        lobby.join_seed.setChecked(True)
        assert lobby.join_dealings() == ("private", "seed")
        assert lobby.settings.get(JOIN_SEED) is True  # remembered like the nickname
        again = Lobby(lobby.settings, home=tmp_path / "hana")
        assert again.join_seed.isChecked() and not again.room_seed.isChecked()
        again.deleteLater()
    finally:
        close_window(window)


def test_the_lobby_says_why_it_turned_away_a_seed_only_joiner(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path / "hana", "hana")
    lobby = window.lobby
    title = f"Fuji {secrets.token_hex(3)}"
    join = None
    try:
        open_room(lobby, title)
        assert lobby.room is not None and lobby.room.options.dealings == ("private",)
        assert "joint-seed" not in lobby.waiting_title.text()
        join = QtJoin(_options("cheat", SEED_ONLY))
        failures = _failed(qtbot, join)
        join.connect_to("127.0.0.1", lobby.room.port)
        qtbot.waitUntil(lambda: bool(failures) and bool(lobby.turned_away.text()), timeout=15_000)
        assert SEED_WORDS in lobby.turned_away.text()
        assert lobby.pages.currentWidget() is lobby.waiting_page  # still open
        assert failures[0].kind == "dealing"
        window.grab().save(str(tmp_path / "turned-away.png"))
    finally:
        if join is not None:
            join.leave()
        close_window(window)


def test_a_room_that_allows_the_seed_says_so_on_the_waiting_page_and_in_lists(
    qtbot: QtBot, tmp_path: Path
) -> None:
    host = _window(qtbot, tmp_path / "hana", "hana")
    guest = _window(qtbot, tmp_path / "taro", "taro")
    title = f"Ume {secrets.token_hex(3)}"
    try:
        host.lobby.room_seed.setChecked(True)
        open_room(host.lobby, title)
        assert host.lobby.room is not None
        assert host.lobby.room.options.dealings == ("private", "seed")
        assert "joint-seed dealing allowed" in host.lobby.waiting_title.text()
        wait_listed(qtbot, guest.lobby, title, timeout=15_000)
        model = guest.lobby.finder.model
        row = row_of(guest.lobby, title)
        assert model.rooms()[row].dealing == "seed"
        assert model.index(row, 2).data().endswith(" · joint seed allowed")
        assert "joint seed allowed" in RoomListModel.describe(model.rooms()[row])
        guest.grab().save(str(tmp_path / "lobby-list.png"))
    finally:
        close_window(guest)
        announcer = host.lobby.announcer
        close_window(host)
        if announcer is not None:
            announcer.wait()


def test_a_room_announced_as_version_2_is_not_dialled_unless_the_seed_is_allowed(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """No silent downgrade: with the option off the lobby says why and does not dial (the
    room sees no connection); with it on, the room is joined with the joint seed alone."""
    room = open_qt_room(qtbot, _options("hana", SEED_ONLY))
    refused: list[LinkError] = []
    room.refused.connect(refused.append)
    title = f"Older {secrets.token_hex(3)}"
    advertiser = RoomAdvertiser(
        Advertisement(title, "hana", room.port, version=PROTOCOL_VERSION, dealing="seed"),
        bind=LOOPBACK,
    )
    advertiser.publish()
    window = _window(qtbot, tmp_path / "taro", "taro")
    lobby = window.lobby
    try:
        wait_listed(qtbot, lobby, title, timeout=15_000)
        row = row_of(lobby, title)
        assert lobby.finder.model.index(row, 2).data().endswith(" · joint seed only")
        double_click_room(lobby, title)
        assert lobby.failure is not None and lobby.failure.kind == "dealing"
        assert lobby.join is None  # not dialled
        assert SEED_WORDS in lobby.message.text() and lobby.message.isVisible()
        window.grab().save(str(tmp_path / "refused.png"))
        qtbot.wait(300)
        assert not room.links and not refused  # the room heard nothing

        lobby.join_seed.setChecked(True)
        double_click_room(lobby, title)
        qtbot.waitUntil(lambda: lobby.pages.currentWidget() is lobby.prematch, timeout=15_000)
        assert lobby.join is not None and lobby.join.options.dealings == SEED_ONLY
        assert lobby.peer is not None and lobby.peer.dealing == "seed"
    finally:
        close_window(window)
        close_room(qtbot, room)
        advertiser.withdraw()


@pytest.mark.parametrize("why", ["seed", "private"])
@pytest.mark.usefixtures("japanese")
def test_the_refusal_is_said_in_japanese(why: str) -> None:
    line = "refused: ..."
    text = failure_text(LinkError("dealing", line, "", DealingRefused(line, why)))
    assert not any(word in text for word in ("Refused", "joint-seed", "privately")), text
    assert "シード" in text
