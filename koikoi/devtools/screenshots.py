"""Render the real window offscreen at set moments of a match, as PNG files.

    python -m koikoi.devtools.screenshots docs/screenshots [--size 1024x640] [--size 1920x1080]
    python -m koikoi.devtools.screenshots docs/screenshots/ja --language ja
    python -m koikoi.devtools.screenshots docs/screenshots --network [--language ja]

A practice match: the moments come from fixed seeds, so the pictures are the same on every
run (the computer's choices are seeded too): the start screen, the first oya, the deal, a
choice between two field cards, the keyboard on a glowing hand card, the koikoi panel, a
round's result, the match result, a teyaku, the rules and the score calculator. Without
``--size`` the window is shot at 1024×640 (a small laptop), 1280×800 and 1920×1080.

``--network``: two windows in this process, each with its own home, meet through their
lobbies on 127.0.0.1 (mDNS bound there, as ``koikoi --smoke-test lan``): the lobby with other
rooms (one private, one in play), creating a room, the host waiting, the password prompt,
the prematch page (the coin toss, then the four cards; a known player who abandoned a toss;
waiting for the other to confirm), the table from the joiner's seat with the move clock,
the peer overdue, reconnecting, the question before leaving, the history and the replay;
then both sides dial: the joiner's reply code after his join by code got no answer, the host
dialling it back (:func:`_shoot_network`, the routers fake ones that refuse, so nothing leaves
the loopback); at 1280×800 and 1024×640 unless ``--size``. The coin toss is
fixed (:data:`NET_TOSS`); the deal depends on the session and changes from run to run.
Used for the README and docs/screenshots, and to look at the screens while changing them.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Final

from koikoi.engine.cards import parse_card
from koikoi.net.portmap import LEASE, Mapper, Mapping, MappingFailed

if TYPE_CHECKING:
    from koikoi.ui.main_window import MainWindow

TWO_IN_HAND = b"two-matches-00000000000000000005"
TEYAKU = b"special-deal-0000000000000000002"
MATCH = b"screenshots-match-0000000000000001"
RESUME = b"screenshots-match-0000000000000000"
NET_TOSS = (
    sha256(b"screenshots toss: host").digest(),
    sha256(b"screenshots toss: joiner").digest(),
)
"""The two sides' coin-toss numbers: the same toss and deals on every run."""
CALCULATOR_PILE = (
    "matsu_crane", "sakura_curtain", "susuki_moon", "kiku_sake_cup", "hagi_boar",
    "momiji_deer", "botan_butterfly", "matsu_ribbon", "ume_ribbon", "sakura_ribbon",
)  # fmt: skip


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=_size, action="append")
    parser.add_argument(
        "--language", choices=("en", "ja"), default="en", help="the window's language (en)"
    )
    parser.add_argument(
        "--network",
        action="store_true",
        help="a network match between two windows on 127.0.0.1 instead of the practice match",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.network:
        sizes = args.size or list(NET_SIZES)
    else:
        sizes = args.size or [(1024, 640), (1280, 800), (1920, 1080)]
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="koikoi-shots-") as home:
        os.environ["KOIKOI_HOME"] = home
        for size in sizes:
            try:
                shoot = _shoot_network if args.network else _shoot
                paths = shoot(args.out, size, args.language)
            except ShotFailed as failure:
                print(f"koikoi.devtools.screenshots: {failure}", file=sys.stderr)
                return 1
            for path in paths:
                print(path, file=sys.stderr)
    return 0


def _rounds_played(window: MainWindow) -> int:
    m = window.controller.match
    return m.rounds_played if m is not None else 0


def _shoot(out: Path, size: tuple[int, int], language: str = "en") -> list[Path]:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from koikoi.engine.match import Settings
    from koikoi.ui.app import make_app
    from koikoi.ui.common import names
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.match.matchview import Mode
    from koikoi.ui.match.saves import SaveStore
    from koikoi.ui.match.timings import Timings

    app = make_app()
    names.install_translations(language)
    w, h = size
    written: list[Path] = []

    def pump(ms: int = 60) -> None:
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)

    def shot(window: MainWindow, name: str) -> None:
        pump(80)
        path = out / f"{name}-{w}x{h}.png"
        window.grab().save(str(path))
        written.append(path)

    def new_window() -> MainWindow:
        for f in Path(os.environ["KOIKOI_HOME"]).glob("**/*.json"):
            f.unlink()
        window = MainWindow(timings=Timings.instant(auto_take_ms=600_000))
        window.saves = window.controller.saves = SaveStore()
        window.resize(w, h)
        window.show()
        pump(100)
        while window.game.table.warming:
            pump(50)
        return window

    def until(window: MainWindow, done: Callable[[MainWindow], bool], rng: random.Random) -> None:
        c = window.controller
        for _ in range(3000):
            pump(5)
            if c.mode is Mode.BUSY or c._pump_timer.isActive():
                continue
            if done(window) or c.mode is Mode.MATCH_OVER:
                return
            step(window, rng)

    def coach(window: MainWindow, ask: Callable[[], bool]) -> None:
        """Ask the coach (a hint, a review) and wait for its answer to be shown."""
        pump(50)
        if not ask():
            raise ShotFailed(f"the coach had nothing to say at {window.controller.mode}")
        end = time.monotonic() + 20
        while window.coach.runner.asked is not None:
            if time.monotonic() > end:
                raise ShotFailed("the coach did not answer within 20 s")
            pump(20)
        pump(150)

    def step(window: MainWindow, rng: random.Random) -> None:
        c = window.controller
        if c.mode is Mode.FIRST_OYA:
            c.start_dealing()
        elif c.mode is Mode.PLAY:
            plays = c.legal_plays()
            capturing = [p for p in plays if c.matches_on_field(p)]
            c.play(rng.choice(capturing or list(plays)))
        elif c.mode is Mode.PICK:
            c.pick(c.candidates()[0])
        elif c.mode is Mode.DRAW_WAIT:
            c.continue_draw()
        elif c.mode is Mode.DECIDE and c.decision is not None:
            c.decide(c.decision.can_koikoi and c.decision.total < 7)
        elif c.mode is Mode.ROUND_OVER:
            c.next_round()

    # the start screen, with a saved match to resume
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, RESUME)
    until(window, lambda wd: _rounds_played(wd) >= 2, random.Random(1))
    window.go_home()
    shot(window, "start")
    window.close()

    # the first oya and the deal
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, TWO_IN_HAND)
    shot(window, "first-oya")
    window.controller.start_dealing()
    shot(window, "deal")
    # the keyboard on the sake cup, which glows: it can take a kiku card
    game = window.game
    cup = parse_card("kiku_sake_cup")
    for _ in range(9):
        if game.table.focus_key == cup:
            break
        game.handle_key(Qt.Key.Key_Right)
    shot(window, "keys")
    game.set_keyboard(False)
    # a choice between two: the sake cup matches two kiku cards
    window.controller.play(cup)
    shot(window, "choice")
    window.close()

    # the coach's hint on the first move
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, TWO_IN_HAND)
    window.controller.start_dealing()
    coach(window, window.coach.ask)
    shot(window, "hint")
    window.close()

    # koikoi or shobu, a round's result, the match's result
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, MATCH)
    until(window, lambda wd: wd.controller.mode is Mode.DECIDE, random.Random(2))
    shot(window, "koikoi")
    coach(window, window.coach.ask)  # the coach's numbers, in the decision's panel
    shot(window, "koikoi-advice")
    window.controller.decide(False)
    until(window, lambda wd: wd.controller.mode is Mode.ROUND_OVER, random.Random(2))
    shot(window, "round-result")
    coach(window, window.coach.review)
    shot(window, "round-review")
    until(window, lambda wd: wd.controller.mode is Mode.MATCH_OVER, random.Random(3))
    shot(window, "match-result")
    window.close()

    # a teyaku, and the rules
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, TEYAKU)
    until(window, lambda wd: wd.controller.mode is Mode.ROUND_OVER, random.Random(4))
    shot(window, "teyaku")
    window.show_help()
    pump(100)
    help_dialog = window._help
    if help_dialog is not None:
        path = out / "help.png"  # the dialog has its own size, whatever the window's
        help_dialog.grab().save(str(path))
        written.append(path)
        help_dialog.close()
    window.show_calculator()
    calculator = window._calculator
    if calculator is not None:  # a pile with several yaku, one koikoi called
        calculator.set_pile(sum(1 << parse_card(c) for c in CALCULATOR_PILE))
        calculator.koikoi.setValue(1)
        pump(100)
        path = out / "calculator.png"
        calculator.grab().save(str(path))
        written.append(path)
        calculator.close()
    window.controller.shutdown()
    window.close()

    QApplication.processEvents()
    return written


# --- a network match: two windows in this process over loopback --------------------------

ABANDONED: Final = -1.0
"""``set_clock``'s wait past the abandon time (see there)."""
NET_SIZES: Final = ((1280, 800), (1024, 640))
"""The network part's sizes: the lobby and the prematch page matter most on a small laptop."""
PASSWORD: Final = "tsukimi"


@dataclass(frozen=True)
class NetWords:
    """The players' nicknames and the rooms' titles: names, not the app's words."""

    hana: str
    taro: str
    room: str
    """hana's private room."""
    open_room: tuple[str, str]
    """Another room, open: (title, host)."""
    playing_room: tuple[str, str]
    """A room whose match is under way."""


NET_WORDS: Final = {
    "en": NetWords(
        "hana", "taro", "Tsukimi by the river", ("Friday hanafuda", "ken"), ("Sakura club", "yuki")
    ),
    "ja": NetWords("はな", "たろう", "川辺の月見", ("金曜の花札", "けん"), ("桜の会", "ゆき")),
}


class ShotFailed(Exception):
    """A moment never came; the message is the one line the user reads."""


class RefusingRouter:
    """A home router that lets nothing in, as :class:`koikoi.net.portmap.Mapper` sees it: it
    refuses every mapping in the words of a real UPnP router that does (nothing is sent: the
    lobbies' ``mappers`` give it, not the real routers')."""

    def __init__(self) -> None:
        self.lease = LEASE
        self.answered = True

    def open(self, port: int) -> Mapping:
        raise MappingFailed(
            f"the router at {ROUTER} refused to map port {port} (ConflictInMappingEntry): "
            "allow UPnP port mappings for this machine in the router's settings",
            "refused",
            port=port,
        )

    def renew(self) -> None:
        pass

    def close(self) -> None:
        pass


ROUTER: Final = "192.0.2.44"
"""The fake router's external address (TEST-NET-1: only named, never dialled)."""


def refusing_routers() -> list[Mapper]:
    """A lobby's ``mappers``: one router, which refuses."""
    return [RefusingRouter()]


def _shoot_network(out: Path, size: tuple[int, int], language: str = "en") -> list[Path]:
    """hana opens a private room, taro finds it among other rooms (one in play), types its
    password, sees the coin toss and the four cards, leaves; joins again (hana now sees a
    known player who abandoned a toss), both confirm, and the match is played from taro's
    seat: his move's clock, the wait for hana's, hana overdue, a dropped connection taken up
    again, leaving; then taro's history and the replay of that match. Last, hana opens her
    room to the internet and taro joins by a code of it that names a port nobody listens on
    (as across two routers that let nothing in: theirs are fake ones that refuse): he makes
    a reply code, hana types it and dials back, and the four cards come.

    Pages are named as in the README at 1280×800 (``lobby.png``) and get ``-WxH`` at other
    sizes; the table's pictures always carry their size, as the practice ones do."""
    from PySide6.QtCore import QEventLoop, QModelIndex, QPoint, Qt
    from PySide6.QtGui import QPainter, QPixmap
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QPushButton, QWidget

    from koikoi.engine.match import Settings
    from koikoi.net.discovery.txt import Advertisement, RoomStatus
    from koikoi.net.joincode import Candidate, JoinCode, encode
    from koikoi.net.transport.options import PeerOptions
    from koikoi.ui.app import make_app
    from koikoi.ui.common import names
    from koikoi.ui.lobby.lobby import Lobby
    from koikoi.ui.lobby.rooms import RoomAnnouncer
    from koikoi.ui.match.matchview import Mode
    from koikoi.ui.match.timings import Timings
    from koikoi.ui.net.netlink.base import APP_DEALINGS
    from koikoi.ui.net.netlink.join import QtJoin
    from koikoi.ui.replay.viewer import ReplayViewer
    from koikoi.ui.smoke import LOOPBACK, click, open_window, type_into

    app = make_app()
    names.install_translations(language)
    words = NET_WORDS[language]
    w, h = size
    page_suffix = "" if size == (1280, 800) else f"-{w}x{h}"
    written: list[Path] = []

    def pump(ms: int = 60) -> None:
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)

    def wait(done: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                raise ShotFailed(f"no {what} after {seconds:g} s{said()}")
            pump(10)

    def said() -> str:
        """What the lobbies say, if anything: often why a moment never came."""
        texts = [
            f"{window.lobby.nickname.text()}'s lobby says: {window.lobby.message.text()}"
            for window in windows
            if window.lobby.message.text()
        ]
        return f" ({'; '.join(texts)})" if texts else ""

    def save(pixmap: QPixmap, name: str) -> None:
        path = out / f"{name}.png"
        if not pixmap.save(str(path)):
            raise ShotFailed(f"cannot write {path}")
        written.append(path)

    def page(widget: QWidget, name: str, dialog: QWidget | None = None) -> None:
        """A page of the window (a dialog over it drawn where it opens: in the middle)."""
        pump(80)
        pixmap = widget.grab()
        if dialog is not None:
            over = dialog.grab()
            painter = QPainter(pixmap)
            painter.drawPixmap(
                QPoint(
                    (pixmap.width() - over.width()) // 2, (pixmap.height() - over.height()) // 3
                ),
                over,
            )
            painter.end()
        save(pixmap, name + page_suffix)

    def held(widget: QWidget, name: str) -> None:
        """A page as it is the moment a dial starts: the events run, but not the sockets'
        (on the loopback the answer would come before the picture)."""
        end = time.monotonic() + 0.08
        while time.monotonic() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.ExcludeSocketNotifiers)
            time.sleep(0.005)
        save(widget.grab(), name + page_suffix)

    def table(window: MainWindow, name: str, *, timers: bool = True) -> None:
        """``timers`` False: only the posted events (layouts, texts) are taken, no timer
        fires: a clock set past the abandon time is shown, not acted on."""
        if timers:
            pump(80)
        else:
            app.sendPostedEvents()
        save(window.grab(), f"{name}-{w}x{h}")

    ours = {words.room, words.open_room[0], words.playing_room[0]}

    def only_ours(lobby: Lobby) -> None:
        """Hide the rooms of other programs on this machine (tests announce rooms too)."""
        for r, room in enumerate(lobby.finder.model.rooms()):
            lobby.room_list.setRowHidden(r, QModelIndex(), room.title not in ours)

    def type_text(field: QLineEdit, text: str) -> None:
        """Keys as the player types them; Japanese as an input method commits it (the key
        simulator knows no kana)."""
        if text.isascii():
            type_into(field, text)
        else:
            field.setFocus()
            field.insert(text)

    def fixed_toss(lobby: Lobby, secret: bytes) -> None:
        """The lobby's link gets a fixed coin-toss number: the same four cards every run."""
        make = lobby._options

        def options(
            settings: Settings, password: str, dealings: tuple[str, ...] = APP_DEALINGS
        ) -> PeerOptions | None:
            made = make(settings, password, dealings)
            if made is not None:
                made.toss_secret = secret  # the deals stay private, as players get them
            return made

        lobby._options = options  # type: ignore[method-assign]

    def step(window: MainWindow) -> None:
        c = window.controller
        if c.mode is Mode.BUSY or c._pump_timer.isActive() or window.game.table._anim:
            return
        if c.mode is Mode.FIRST_OYA:
            c.start_dealing()
        elif c.mode is Mode.PLAY:
            plays = c.legal_plays()
            capturing = [p for p in plays if c.matches_on_field(p)]
            c.play((capturing or list(plays))[0])
        elif c.mode is Mode.PICK:
            c.pick(c.candidates()[0])
        elif c.mode is Mode.DRAW_WAIT:
            c.continue_draw()
        elif c.mode is Mode.DECIDE:
            c.decide(False)
        elif c.mode is Mode.ROUND_OVER:
            c.next_round()

    def play_until(done: Callable[[], bool], what: str, *windows: MainWindow) -> None:
        end = time.monotonic() + 60
        while not done():
            if time.monotonic() > end:
                modes = ", ".join(str(window.controller.mode) for window in windows)
                raise ShotFailed(f"no {what} after 60 s of play ({modes})")
            pump(10)
            if not done():
                for window in windows:
                    step(window)

    def set_clock(window: MainWindow, waited: float) -> None:
        """The turn began ``waited`` seconds ago: the clock as a slow player sees it;
        :data:`ABANDONED`: past the peer's whole clock (its action's seconds and reserve)
        and the abandon time, whether or not a dealing message is owed meanwhile (which
        leaves the abandon time alone: it passed 200 s only then)."""
        session = window.controller.remote.session if window.controller.remote else None
        if session is None or session.clock(time.monotonic()) is None:
            raise ShotFailed("no move clock on the table")
        if waited == ABANDONED:
            moves = session._moves
            waited = moves.move_clock + moves.reserves[1] + moves.abandon_after + 10.0
        session._turn.started = time.monotonic() - waited
        window.game.update_prompt()

    timings = Timings.instant(auto_take_ms=600_000)
    announcers: list[RoomAnnouncer] = []
    windows: list[MainWindow] = []
    dead = socket.socket()  # bound, never listening: a port nobody answers on
    folder = Path(os.environ["KOIKOI_HOME"]) / f"net-{w}x{h}"
    try:
        host = open_window(folder / "hana", timings, LOOPBACK)
        joiner = open_window(folder / "taro", timings, LOOPBACK)
        windows += [host, joiner]
        for window in windows:
            window.resize(w, h)
            window.lobby.mappers = refusing_routers
        for (title, nick), status, port in (
            (words.open_room, RoomStatus.OPEN, 4101),
            (words.playing_room, RoomStatus.PLAYING, 4102),
        ):
            ad = Advertisement(title, nick, port, rounds=12, doubling=False, status=status)
            announcer = RoomAnnouncer(ad, bind=LOOPBACK)
            announcer.publish()
            announcers.append(announcer)

        # hana fills in the form for a private room
        click(host.start.play_person_button)
        lobby = host.lobby
        fixed_toss(lobby, NET_TOSS[0])
        type_text(lobby.nickname, words.hana)
        lobby.room_title.clear()
        type_text(lobby.room_title, words.room)
        click(lobby.private)
        type_into(lobby.room_password, PASSWORD)
        wait(lambda: lobby.finder.model.rowCount() >= 2, "other rooms in hana's list")
        lobby.room_title.setFocus()
        only_ours(lobby)
        page(host, "create-room")
        click(lobby.create_button)
        if lobby.room is None:
            raise ShotFailed(f"the room did not open: {lobby.message.text()}")
        wait(
            lambda: lobby.announcer is not None and lobby.announcer.state == "published",
            "announcement of hana's room",
        )
        page(host, "room-waiting")

        # taro finds it among the others
        click(joiner.start.play_person_button)
        jlobby = joiner.lobby
        fixed_toss(jlobby, NET_TOSS[1])
        type_text(jlobby.nickname, words.taro)
        model = jlobby.finder.model

        def row() -> int:
            """hana's room in taro's list (its port: another run may announce its twin)."""
            if lobby.room is None:
                return -1
            port = f":{lobby.room.port}"
            rooms = model.rooms()
            return next(
                (
                    r
                    for r, room in enumerate(rooms)
                    if room.title == words.room and any(a.endswith(port) for a in room.addresses)
                ),
                -1,
            )

        wait(lambda: model.rowCount() >= 3 and row() >= 0, "three rooms in taro's list")
        jlobby.room_list.setCurrentIndex(model.index(row(), 0))
        jlobby.room_list.setFocus()
        only_ours(jlobby)
        page(joiner, "lobby")

        def join(shoot: bool) -> None:
            """taro double-clicks hana's room and types its password."""
            view = jlobby.room_list
            index = model.index(row(), 0)
            centre = view.visualRect(index).center()
            click(view.viewport(), centre)
            QTest.mouseDClick(
                view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre
            )
            prompt = jlobby.password_prompt
            if prompt is None:
                raise ShotFailed("no password prompt for the private room")
            wait(prompt.isVisible, "password prompt")
            type_into(prompt.password, PASSWORD)
            if shoot:
                page(joiner, "password", prompt)
            prompt.done(QDialog.DialogCode.Accepted)

        # the first meeting: the coin toss, seen the moment the handshake is done
        tossing: list[bool] = []

        def on_page(_index: int) -> None:
            if jlobby.pages.currentWidget() is jlobby.prematch and not tossing:
                tossing.append(True)
                page(joiner, "prematch-toss")

        jlobby.pages.currentChanged.connect(on_page)
        join(True)
        wait(lambda: jlobby.prematch.painted and lobby.prematch.painted, "four cards")
        jlobby.pages.currentChanged.disconnect(on_page)
        page(joiner, "prematch-cards")
        # taro leaves, the toss seen: hana's pin counts it
        click(jlobby.prematch.cancel_button)
        wait(
            lambda: lobby.pages.currentWidget() is lobby.rooms_page and lobby.message.isVisible(),
            "hana's lobby telling the toss was abandoned",
        )
        page(host, "prematch-left")

        # the second meeting: a known player, with the abandoned toss in the warning
        click(lobby.create_button)
        wait(lambda: lobby.room is not None, "hana's room again")
        wait(
            lambda: row() >= 0 and model.rooms()[row()].status is RoomStatus.OPEN,
            "hana's room open again in taro's list",
            40,
        )
        join(False)
        wait(lambda: jlobby.prematch.painted and lobby.prematch.painted, "four cards again")
        page(host, "prematch-known")
        click(jlobby.prematch.same_button)
        page(joiner, "prematch-waiting")
        click(lobby.prematch.same_button)

        # the table from taro's seat
        wait(lambda: joiner.controller.mode is Mode.FIRST_OYA, "coin toss on taro's table")
        button = joiner.game.overlay.findChild(QPushButton, "default")
        wait(lambda: button is None or button.isVisible(), "toss panel")
        table(joiner, "net-toss")
        play_until(
            lambda: joiner.controller.mode is Mode.PLAY and not joiner.game.table._anim,
            "move of taro's",
            host,
            joiner,
        )
        set_clock(joiner, 18.3)
        table(joiner, "net-your-move")
        jc = joiner.controller
        play_until(
            lambda: (
                jc.waiting_since is not None
                and (clock := jc.clock()) is not None
                and not clock.local
                and host.controller.mode is Mode.PLAY
            ),
            "wait for hana's move",
            host,
            joiner,
        )
        set_clock(joiner, 18.3)
        table(joiner, "net-joiner")
        set_clock(joiner, ABANDONED)  # hana has not moved for her clock and the abandon time
        table(joiner, "net-abandon", timers=False)  # set back before a clock timer fires
        set_clock(joiner, 1.0)

        def moves() -> int:
            record = jc.record
            return 0 if record is None else sum(len(deal.actions) for deal in record.deals)

        play_until(lambda: moves() >= 12 and jc.mode is Mode.PLAY, "twelve moves", host, joiner)

        # taro asks to leave, and stays
        click(joiner.game.side.menu_button)
        question = joiner.question
        if question is None:
            raise ShotFailed("no question before leaving the match")
        wait(question.isVisible, "question before leaving")
        page(joiner, "leave-question", question)
        stay = question.findChild(QPushButton, "keepPlaying")
        if stay is None:
            raise ShotFailed("no button to keep playing")
        click(stay)

        # the connection drops: taro's table says so while it dials again
        link = joiner.link
        assert isinstance(link, QtJoin) and link.socket is not None  # taro dialled hana
        dropped: list[bool] = []

        def on_suspended(_seconds: float) -> None:
            if not dropped:
                dropped.append(True)
                table(joiner, "net-reconnecting")

        link.suspended.connect(on_suspended)
        link.socket.abort()
        wait(
            lambda: bool(dropped) and not joiner.game.reconnecting.isVisible(),
            "end of the reconnection",
        )
        link.suspended.disconnect(on_suspended)

        # taro leaves; his history and the replay of the match
        if jc.remote is not None and jc.remote.ended is None:
            jc.leave()
        wait(lambda: joiner.net_record is not None, "taro's record of the match")
        joiner.go_home()
        wait(lambda: bool(joiner.start.kept), "taro's history")
        joiner.start.kept_list.setCurrentRow(0)
        page(joiner, "history")
        joiner.view_kept(joiner.start.kept[0])
        viewer = joiner.findChild(ReplayViewer)
        if viewer is None:
            raise ShotFailed("no replay viewer")
        viewer.resize(w, h)
        viewer.go(min(12, viewer.last))
        wait(lambda: not viewer.animating, "replay at rest")
        page(viewer, "viewer")
        viewer.close()

        # both sides dial: hana opens her room to the internet (her router refuses); taro's
        # join by a code of it that names a port nobody listens on gets no answer
        host.go_home()
        click(host.start.play_person_button)
        if not lobby.rooms_page.internet.isChecked():
            click(lobby.rooms_page.internet)
        click(lobby.create_button)
        room = lobby.room
        if room is None:
            raise ShotFailed(f"the internet room did not open: {lobby.message.text()}")
        hpage = lobby.waiting_page
        asking = hpage.internet.text()
        wait(lambda: hpage.internet.text() != asking, "answer from hana's router")
        wait(
            lambda: lobby.announcer is not None and lobby.announcer.state == "published",
            "announcement of hana's internet room",
        )
        dead.bind((LOOPBACK, 0))
        unreachable = JoinCode(
            (Candidate(LOOPBACK, dead.getsockname()[1]),), room.options.identity.fingerprint
        )
        click(joiner.start.play_person_button)
        jlobby.address.clear()
        type_into(jlobby.address, encode(unreachable))
        type_into(jlobby.address_password, PASSWORD)
        click(jlobby.address_button)
        wait(jlobby.reply_button.isVisible, "offer of a reply code")
        click(jlobby.reply_button)
        jpage = jlobby.waiting_page
        wait(
            lambda: jpage.code_is_reply and bool(jpage.internet.text()),
            "reply code and the answer from taro's router",
        )
        page(joiner, "reply-code")

        # hana types taro's reply code and dials it back; the four cards come
        type_into(hpage.reply_code, jpage.code_text)
        click(hpage.dial_back_button)
        if lobby.dial_back is None:
            raise ShotFailed(f"hana's room did not dial back: {hpage.reply_state.text()}")
        held(host, "dial-back")
        wait(
            lambda: jlobby.prematch.painted and lobby.prematch.painted,
            "four cards after the dial back",
        )
        click(jlobby.prematch.cancel_button)
        wait(lambda: lobby.pages.currentWidget() is lobby.rooms_page, "hana's lobby again")
    finally:
        for window in windows:
            window.go_home()
        pump(300)
        for window in windows:
            window.controller.shutdown()
            window.close()
        for announcer in announcers:
            announcer.withdraw()
        for window in windows:
            for a in (window.lobby.announcer,):
                if a is not None:
                    a.withdraw()
        for announcer in announcers:
            announcer.wait()
        dead.close()
        pump(200)
        QApplication.processEvents()
    return written


if __name__ == "__main__":
    raise SystemExit(main())
