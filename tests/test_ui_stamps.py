"""Stamps at the table: two MainWindows in one process over loopback (host "hana" in seat 0,
joiner "taro" in seat 1), privately dealt (version 4, whose hellos say the tables take
stamps). A stamp goes by a click and by a key, shows as a bubble by the sender's name in the
receiver's language, is spoken once, is greyed out for the rate, and the display options'
mute hides it. Practice against the computer has no row."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.session.events import TossDone
from koikoi.net.stamps import SEND_INTERVAL
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.common import names
from koikoi.ui.common.settings import STAMPS_MUTED
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.table.stamps import StampRow
from tests.test_ui_network import at_the_toss, open_window, session_of
from tests.ui_driver import click, close_window, panel_button, start_practice


def options(name: str, stamps: tuple[str, ...] | None = None) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(rounds=6),
        known_peers=KnownPeers(None),
        silence_timeout=15.0,
        dealings=("private",),
        stamps=stamps,
    )


class Clock:
    """The host link's clock: the real one, plus what the test moves it on by."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


class StampPair:
    def __init__(self, qtbot: QtBot, tmp_path: Path, joiner_stamps: tuple[str, ...] | None) -> None:
        self.host = open_window(qtbot, tmp_path / "hana")
        self.joiner = open_window(qtbot, tmp_path / "taro")
        self.clock = Clock()
        self.room = QtRoom(options("hana"), now=self.clock)
        self.room.listen("127.0.0.1", 0)
        self.join = QtJoin(options("taro", joiner_stamps))
        self.room.tossed.connect(self._host_tossed)
        self.join.tossed.connect(self._joiner_tossed)
        self.join.connect_to("127.0.0.1", self.room.port)
        qtbot.waitUntil(
            lambda: (
                self.host.controller.remote is not None
                and self.joiner.controller.remote is not None
            ),
            timeout=30_000,
        )

    def _host_tossed(self, toss: TossDone) -> None:
        link = self.room.match
        assert link is not None and link.peer is not None
        self.host.start_network_match(self.room, link.peer, toss)

    def _joiner_tossed(self, toss: TossDone) -> None:
        assert self.join.peer is not None
        self.joiner.start_network_match(self.join, self.join.peer, toss)

    def close(self) -> None:
        for window in (self.host, self.joiner):
            close_window(window)


@pytest.fixture
def english() -> Iterator[None]:
    names.install_translations("en")
    try:
        yield
    finally:
        names.install_translations("en")


def row(window: MainWindow) -> StampRow:
    return window.stamps


def log_text(window: MainWindow) -> str:
    return window.game.side.log.toPlainText()


def past_the_toss(qtbot: QtBot, pair: StampPair) -> None:
    """Both players read the coin toss and go on to the table, as they would by a click. The
    deal is random (private dealing): a teyaku in it ends the first round as it is dealt,
    and its result panel shows instead of the table; stamps go either way."""
    for window in (pair.host, pair.joiner):
        qtbot.waitUntil(at_the_toss(window), timeout=10_000)
        click(qtbot, panel_button(window))

        def on_the_table(w: MainWindow = window) -> bool:
            mode = w.controller.mode
            return not w.game.overlay.isVisible() or mode is Mode.ROUND_OVER

        qtbot.waitUntil(on_the_table, timeout=10_000)


def test_a_stamp_sent_in_english_shows_in_japanese_and_mute_hides_it(
    qtbot: QtBot, tmp_path: Path, english: None
) -> None:
    pair = StampPair(qtbot, tmp_path, None)
    host, joiner = pair.host, pair.joiner
    try:
        qtbot.waitUntil(lambda: row(host).isVisible() and row(joiner).isVisible())
        past_the_toss(qtbot, pair)
        qtbot.waitUntil(lambda: row(joiner).buttons["greet"].isEnabled())
        greet = row(joiner).buttons["greet"]
        assert greet.text() == "Good luck!"
        # the joiner clicks in English; the host's player reads Japanese
        click(qtbot, greet)
        assert "You: Good luck!" in log_text(joiner)
        assert not greet.isEnabled()  # the rate: greyed out at once
        click_again = row(joiner).buttons["thanks"]
        assert not click_again.isEnabled()
        assert names.install_translations("ja")
        bubble = row(host).bubble
        qtbot.waitUntil(bubble.isVisible, timeout=10_000)
        assert bubble.text() == "よろしくお願いします"
        assert row(host).spoken == ["taro「よろしくお願いします」"]
        assert "taro「よろしくお願いします」" in log_text(host)
        top = row(host).side.them.geometry()
        assert top.top() <= bubble.geometry().top() <= top.bottom()  # by the name
        # only one went: the greyed-out row sent nothing more
        assert len(session_of(host).stamps.received) == 1

        # the host answers by a key, Alt+3 (いい手！), without touching the mouse
        host.activateWindow()
        qtbot.waitUntil(host.isActiveWindow)
        QTest.keyClick(host.game, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(row(joiner).bubble.isVisible, timeout=10_000)
        assert row(joiner).bubble.text() == "いい手！"
        assert row(joiner).spoken == ["hana「いい手！」"]

        # the joiner mutes stamps in the display options (kept in its settings)
        joiner.show_display()
        dialog = joiner._display_dialog
        assert dialog is not None
        mute = dialog.findChild(QCheckBox, "muteStamps")
        assert mute is not None and not mute.isChecked()
        qtbot.waitExposed(dialog)
        indicator = QPoint(8, mute.height() // 2)  # the box itself, where a player clicks
        QTest.mouseClick(mute, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, indicator)
        assert joiner.display.stamps_muted and row(joiner).muted
        assert joiner.settings.get(STAMPS_MUTED)  # kept for the next launch
        assert not row(joiner).bubble.isVisible()
        dialog.close()
        # the host may send again once its rate allows (its link's clock moved on)
        pair.clock.ahead += SEND_INTERVAL
        row(host).refresh()
        close_button = row(host).buttons["close"]
        assert close_button.isEnabled()
        click(qtbot, close_button)
        qtbot.waitUntil(lambda: len(session_of(joiner).stamps.received) == 2, timeout=10_000)
        qtbot.wait(50)
        assert not row(joiner).bubble.isVisible()
        assert row(joiner).spoken == ["hana「いい手！」"]
        assert "おしい" not in log_text(joiner)
        # nothing of it is in either side's signed record or its journal
        for window in (host, joiner):
            session = session_of(window)
            record = json.dumps(session.record().to_json()) + json.dumps(session.local_json())
            assert "stamp" not in record and "greet" not in record and "nice" not in record
    finally:
        pair.close()


def test_a_peer_that_takes_no_stamps_greys_the_row_out(
    qtbot: QtBot, tmp_path: Path, english: None
) -> None:
    pair = StampPair(qtbot, tmp_path, ())
    try:
        host = pair.host
        qtbot.waitUntil(lambda: row(host).isVisible())
        assert not any(button.isEnabled() for button in row(host).buttons.values())
        host.activateWindow()
        QTest.keyClick(host.game, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
        assert session_of(host).stamps.last_sent is None
    finally:
        pair.close()


def test_practice_against_the_computer_has_no_stamps(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.ui_driver import open_window as practice_window

    window = practice_window(qtbot)
    try:
        start_practice(window, seed=b"\x01" * 16)
        qtbot.waitUntil(lambda: window.game.isVisible())
        assert not row(window).isVisible()
        assert window.controller.remote is None
    finally:
        close_window(window)
