"""日本語 and English: every message of the sources translated and compiled (and shipped in the
wheel), no English left on any screen in Japanese (a whole match, its panels, the rules, the
calculator, the lobby, a room, the four cards, the history and the viewer), the plurals of
both languages, the language from the system's locale or the start screen's choice (at
once, and kept), and the network's failures worded from their typed codes."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTabBar,
    QTableWidget,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from koikoi.engine.yaku import Yaku
from koikoi.net.errors import PeerRefused, ProtocolError
from koikoi.net.session.endings import BYE_REASONS, Ending, How
from koikoi.paths import games_dir, koikoi_home
from koikoi.ui.app import MainWindows
from koikoi.ui.common import names
from koikoi.ui.common.settings import LANGUAGE, AppSettings, DisplayOptions
from koikoi.ui.learn.glossary import GLOSSARY
from koikoi.ui.learn.help import PAGES
from koikoi.ui.lobby.rooms import RoomListModel
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.net.netlink.base import LinkError
from koikoi.ui.net.netmatch import ending_text
from koikoi.ui.net.prematch import failure_text
from koikoi.ui.replay.history import steps_of, verdict_of
from koikoi.ui.replay.viewer import ReplayViewer
from tests.conftest import REPO
from tests.stepped_clock import SteppedClock
from tests.test_ui_clock import NO_CLOCK, STEP, ClockPair, options
from tests.test_ui_lobby import both_at_the_cards, close_lobby, make_lobby, open_room
from tests.test_ui_network import ended_message, log_text
from tests.test_ui_viewer import played_match
from tests.ui_driver import (
    actions_so_far,
    click,
    close_window,
    open_window,
    panel_button,
    play_by_clicks,
    play_windows_by_clicks,
    start_practice,
    wait_for_input,
)

I18N = REPO / "assets" / "i18n"

ALLOWED = {
    "Koi", "Alt", "Enter", "Space", "Esc", "Home", "End", "Page", "Up", "Down", "English",
    "host", "local", "db", "hana", "F1", "OK", "IP", "Ctrl", "UPnP", "NAT", "PMP", "PCP",
}  # fmt: skip
"""Latin words a Japanese screen may show: key caps, OK (a Japanese dialog's button too), IP
(an IPアドレス), the routers' protocols (UPnP, PCP, NAT-PMP: their names in Japanese too),
the language's own name, example
addresses (hana.local:4000, [2001:db8::20]:4000)."""


def _texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """What a player sees or hears of ``widget`` and the visible widgets under it."""
    for w in [widget, *widget.findChildren(QWidget)]:
        if not w.isVisible():
            continue
        where = f"{type(w).__name__}#{w.objectName()}"
        yield where, w.accessibleName()
        yield where, w.accessibleDescription()
        yield where, w.toolTip()
        if w.isWindow():
            yield where, w.windowTitle()
        if isinstance(w, (QLabel, QAbstractButton)):
            yield where, re.sub(r"<[^>]+>", " ", w.text())
        if isinstance(w, QLineEdit):
            yield where, w.placeholderText()
        if isinstance(w, QTextEdit):
            yield where, w.toPlainText()
        if isinstance(w, QPlainTextEdit):  # the game log
            yield where, w.toPlainText()
        yield from ((where, text) for text in _list_texts(w))


def _list_texts(w: QWidget) -> Iterator[str]:
    """The items of a tab bar, combo box, list or table (and the table's headers)."""
    if isinstance(w, QTabBar):
        for i in range(w.count()):
            yield w.tabText(i)
            yield w.tabToolTip(i)
    if isinstance(w, QComboBox):
        yield from (w.itemText(i) for i in range(w.count()))
    if isinstance(w, QAbstractItemView) and not isinstance(w, (QTableWidget, QHeaderView)):
        model = w.model()
        for row in range(model.rowCount() if model is not None else 0):
            index = model.index(row, 0)
            # A room's title is what its host typed, in any language; and other rooms on
            # the shared loopback (other tests', other programs') are listed too.
            room = model.room_at(row) if isinstance(model, RoomListModel) else None
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                text = value if isinstance(value, str) else ""
                yield text.replace(room.title, "") if room is not None else text
    if isinstance(w, QTableWidget):
        for row in range(w.rowCount()):
            for col in range(w.columnCount()):
                item = w.item(row, col)
                yield item.text() if item is not None else ""
        for col in range(w.columnCount()):
            head = w.horizontalHeaderItem(col)
            yield head.text() if head is not None else ""


NOT_WORDS = re.compile(
    r"[a-z2-7]{4}(?:-[a-z2-7]{4}){1,3}|(?<=鍵 )[a-z2-7]{4}\b|\S+\.json|[0-9A-Z]{5}(?:-[0-9A-Z]{5})+"
)
"""Key fingerprints (ab3d-…, or a room's short one: 鍵 ab3d), record file names and join codes
(4G6BS-V2Q56-…), which no language translates."""


ROMAJI = frozenset(romaji for _, _, romaji, _ in GLOSSARY)
"""The glossary's romaji column, the same in every language (as a word's reading is)."""


def english_words(widget: QWidget) -> list[str]:
    found = []
    for where, shown in _texts(widget):
        if where == "QTableWidget#glossaryTable" and shown in ROMAJI:
            continue
        text = NOT_WORDS.sub(" ", shown)
        words = set(re.findall(r"[A-Za-z]{2,}", text)) - ALLOWED
        if words:
            found.append(f"{where}: {sorted(words)} in {shown!r}")
    return found


# -- the translation files ----------------------------------------------------------------------


@pytest.mark.timeout(420)  # update.py may take its 300 s
def test_every_message_of_the_sources_is_translated_and_compiled() -> None:
    """lupdate over koikoi/ui finds nothing the .ts lacks, nothing is unfinished, and the .qm
    files are what lrelease makes of the .ts (a string added without its translation fails)."""
    done = subprocess.run(
        [sys.executable, str(I18N / "update.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_carries_the_compiled_translations(tmp_path: Path) -> None:
    """The .qm files are committed and copied with assets/ (the packaged app's spec copies
    assets/ whole too), so an installed koikoi finds them where the app looks."""
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("koikoi-*.whl")
    with zipfile.ZipFile(wheel) as zipped:
        for language in ("ja", "en"):
            packed = zipped.read(f"koikoi/assets/i18n/koikoi_{language}.qm")
            assert packed == (I18N / f"koikoi_{language}.qm").read_bytes()


def test_plurals_follow_each_language(japanese: None) -> None:
    translate = QCoreApplication.translate
    assert names.points(1) == "1点" and names.points(7) == "7点"
    assert names.cards(3) == "3枚"
    said = translate("RoundResultPanel", "Capped: only %n point(s) left to pay.", "", 1)
    assert said == "持ち点が残り1点なので、支払いはそこまでです。"
    names.install_translations("en")
    assert (names.points(1), names.points(7), names.cards(1)) == ("1 point", "7 points", "1 card")
    said = translate("RoundResultPanel", "Capped: only %n point(s) left to pay.", "", 2)
    assert said == "Capped: only 2 points left to pay."


def test_cards_and_yaku_are_named_in_each_language(japanese: None) -> None:
    assert names.card_accessible_name(0) == "松に鶴、1月（松）の光"
    assert names.card_japanese(0) == "まつにつる"  # beside the name, its reading
    assert names.yaku_name(Yaku.INOSHIKACHO) == "猪鹿蝶"
    assert names.yaku_japanese(Yaku.INOSHIKACHO) == "いのしかちょう"
    names.install_translations("en")
    assert names.card_accessible_name(0) == "Pine crane, January light"
    assert names.card_japanese(0) == "松に鶴"
    assert names.yaku_name(Yaku.INOSHIKACHO) == "Boar, deer, butterflies"
    assert names.yaku_japanese(Yaku.INOSHIKACHO) == "猪鹿蝶"


# -- no English on a Japanese screen -----------------------------------------------------------


def test_no_english_on_any_screen_in_japanese(qtbot: QtBot, japanese: None) -> None:
    window = open_window(qtbot)
    problems: list[str] = []
    assert window.windowTitle() == "花札こいこい"
    problems += english_words(window)  # the start screen
    window.show_help()
    assert window._help is not None
    problems += english_words(window._help)
    window._help.close()
    window.show_calculator()
    assert window._calculator is not None
    problems += english_words(window._calculator)
    window._calculator.close()
    window.show_lobby()
    problems += english_words(window)  # the lobby: rooms, joining, creating a room
    window.go_home()
    start_practice(window, seed=b"plain-takes-plain-00000000000029")
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    problems += english_words(window)  # who deals first
    click(qtbot, panel_button(window))
    seen: set[Mode] = set()

    def walk_once_per_mode(w: MainWindow) -> None:
        if w.controller.mode not in seen:
            seen.add(w.controller.mode)
            problems.extend(english_words(w))

    # the table mid-deal, its log and prompt, a choice of two cards, the koikoi panel, the
    # round results and the match result, as a whole match is played by clicks
    play_by_clicks(qtbot, window, random.Random(7), check=walk_once_per_mode)
    walk_once_per_mode(window)
    assert {Mode.PLAY, Mode.DECIDE, Mode.ROUND_OVER, Mode.MATCH_OVER} <= seen, seen
    close_window(window)
    assert not problems, "\n".join(problems)


def test_the_same_walk_finds_english_in_english(qtbot: QtBot) -> None:
    """The walk above can fail: in English it finds the words it looks for."""
    names.install_translations("en")
    window = open_window(qtbot)
    found = "\n".join(english_words(window))
    assert "Practice" in found and "Quit" in found
    close_window(window)


def _row(table: QTableWidget, row: int) -> list[str]:
    """The texts of a row of ``table`` (-1: its header)."""
    items = [
        table.horizontalHeaderItem(c) if row < 0 else table.item(row, c)
        for c in range(table.columnCount())
    ]
    return [item.text() if item is not None else "" for item in items]


def test_no_english_in_the_learning_pages_and_the_display_options_in_japanese(
    qtbot: QtBot, japanese: None
) -> None:
    """Each help tab (the rules in short, the rules with pictures, the cards, the glossary),
    reached from the start screen's buttons as a player does, the display options dialog
    and its choices, and the start screen in high contrast."""
    window = open_window(qtbot)
    problems: list[str] = []
    seen: list[str] = []
    for page in PAGES[1:]:
        click(qtbot, window.start.learn_buttons[page])
        help_ = window._help
        assert help_ is not None and help_.isVisible()
        assert PAGES[help_.tabs.currentIndex()] == page
        seen.append(help_.tabs.tabText(help_.tabs.currentIndex()))
        problems += english_words(help_)
    assert window._help is not None
    window._help.show_page("short")
    problems += english_words(window._help)
    assert seen == ["絵で見るルール", "札", "用語集"]
    rules = window._help.rules
    nintendo, r6 = (rules.findChild(QTableWidget, n) for n in ("nintendoTable", "r6Table"))
    assert nintendo is not None and r6 is not None
    assert _row(nintendo, 0)[0] == "高得点の倍付け"
    assert _row(r6, -1) == [
        "役",
        "読み",
        "点数",
        "条件",
    ]  # the name is the Japanese: no column twice
    assert _row(r6, 0)[:3] == ["五光", "ごこう", "10"]
    window._help.close()
    click(qtbot, window.start.display_button)
    dialog = window._display_dialog
    assert dialog is not None and dialog.isVisible()
    problems += english_words(dialog)
    dialog.set_options(DisplayOptions(high_contrast="on"))
    dialog._changed()  # as choosing "On" in its high-contrast list does
    assert window.high_contrast and window.start.high_contrast
    dialog.close()
    problems += english_words(window)  # the start screen in high contrast
    close_window(window)
    assert not problems, "\n".join(problems)


def test_the_japanese_start_screen_fits_a_small_window(qtbot: QtBot, japanese: None) -> None:
    """At 1024×640 with a match to resume and the learning buttons, no button of the start
    screen is squeezed below its text (Japanese lines are taller than English ones)."""
    window = open_window(qtbot, size=(1024, 640))
    start_practice(window, seed=b"plain-takes-plain-00000000000029")
    assert wait_for_input(qtbot, window) is Mode.FIRST_OYA
    window.go_home()
    start = window.start
    assert start.resume_button.isVisible()
    buttons = [start.resume_button, start.practice_button, start.play_person_button]
    buttons += [start.help_button, *start.learn_buttons.values(), start.display_button]
    squeezed = [
        f"{b.text()!r}: {b.height()} < {b.sizeHint().height()}"
        for b in buttons
        if b.height() < b.sizeHint().height()
    ]
    close_window(window)
    assert not squeezed, squeezed


def test_no_english_at_the_move_clock_of_a_network_match_in_japanese(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    """Both tables with the move clock ("your move — 0:11", "waiting for…"), the warning at
    10 s left and the move the table makes for a player whose time ran out, in the log."""
    clock = SteppedClock()  # the links' clock, moved on by the test
    pair = ClockPair(
        qtbot, tmp_path, options("はな", 12.0, 3600.0), options("たろう", 12.0, 3600.0), clock
    )
    try:
        pair.to_the_table()
        mover, waiter = pair.mover()
        assert mover.game.prompt.text().startswith("あなたの番 — 0:"), mover.game.prompt.text()
        # the waiting table shows the mover's clock once it hears the mover's table is ready
        # (a message on its way: until then it says the mover's table still shows the deal)
        qtbot.waitUntil(lambda: "を待っています… 0:" in waiter.game.prompt.text(), timeout=5_000)
        problems = english_words(mover) + english_words(waiter)
        clock.advance(12.5, qtbot, STEP)  # past the 10 s warning and the end of the clock
        qtbot.waitUntil(lambda: "時間切れです" in log_text(mover), timeout=5_000)
        assert "持ち時間はあと10秒です。" in log_text(mover)
        problems += english_words(mover) + english_words(waiter)
        assert not problems, "\n".join(problems)
    finally:
        pair.close()


def test_no_english_when_a_peer_never_moves_in_japanese(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    """The prompt and button to end a match the peer abandoned, the log's line, and both
    players' messages when it is ended."""
    clock = SteppedClock()
    hana = options("はな", 3600.0, 3600.0, clock=NO_CLOCK)
    pair = ClockPair(qtbot, tmp_path, hana, options("たろう", None, 3.0), clock)
    host, joiner = pair.windows
    try:
        pair.to_the_table()
        play_windows_by_clicks(
            qtbot,
            pair.windows,
            random.Random(5),
            until=lambda: (
                actions_so_far(host) >= 2
                and host.controller.mode is Mode.PLAY
                and joiner.controller.waiting_since is not None
            ),
        )
        button = joiner.game.side.abandon_button
        clock.advance(3.5, qtbot, STEP)  # past the abandon time
        qtbot.waitUntil(button.isVisible, timeout=5_000)
        assert button.text() == "対戦を終わらせる"
        assert joiner.game.prompt.text().startswith("はなさんが打たないまま0:0"), (
            joiner.game.prompt.text()
        )
        problems = english_words(joiner)
        click(qtbot, button)
        box, told = ended_message(qtbot, joiner), ended_message(qtbot, host)
        assert box.text() == "はなさんが長い間打たなかったので、対戦を終わらせました。"
        problems += english_words(box) + english_words(told)
        for window, message in ((joiner, box), (host, told)):
            click(qtbot, message.button(QMessageBox.StandardButton.Ok))
            qtbot.waitUntil(lambda: window.stack.currentWidget() is window.start)  # noqa: B023
        assert not problems, "\n".join(problems)
    finally:
        pair.close()


def test_no_english_in_the_history_and_the_replay_viewer_in_japanese(
    qtbot: QtBot, japanese: None
) -> None:
    games = games_dir()
    games.mkdir(parents=True)
    data = played_match(seed=4)
    (games / "practice-20261201-101010.json").write_text(json.dumps(data), "utf-8")
    window = open_window(qtbot)
    assert window.start.kept_list.count() == 1
    problems = english_words(window)  # the start screen with its earlier matches
    viewer = ReplayViewer(steps_of(data, None), "記録", verdict_of(data), anim_scale=0.0)
    qtbot.addWidget(viewer)
    viewer.resize(1280, 800)
    viewer.show()
    qtbot.waitExposed(viewer)
    problems += english_words(viewer)
    viewer.close()
    close_window(window)
    assert not problems, "\n".join(problems)


def test_no_english_in_the_lobby_room_and_before_the_match_in_japanese(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    host = make_lobby(qtbot, tmp_path, "host", "はな")
    guest = make_lobby(qtbot, tmp_path, "guest", "つき")
    try:
        problems = english_words(host)  # the rooms, joining by address, the create-room form
        open_room(host, "金曜の花札")
        problems += english_words(host)  # the room waiting, its addresses
        port = host.room.port  # type: ignore[union-attr]
        guest.address.setText(f"127.0.0.1:{port}")
        QTest.mouseClick(guest.address_button, Qt.MouseButton.LeftButton)
        both_at_the_cards(qtbot, host, guest)
        problems += english_words(host) + english_words(guest)  # the four cards
        QTest.mouseClick(guest.prematch.same_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "4枚の札を確かめる" in guest.prematch.status.text())
        problems += english_words(guest)
        assert not problems, "\n".join(problems)
    finally:
        close_lobby(qtbot, host)
        close_lobby(qtbot, guest)


# -- which language ----------------------------------------------------------------------------


def _start_and_say(env: dict[str, str]) -> str:
    """Start the app as ``koikoi`` does and say the main window's title and first button."""
    code = (
        "from koikoi.ui.app import make_app\n"
        "from koikoi.ui.main_window import MainWindow\n"
        "app = make_app()\n"
        "w = MainWindow()\n"
        "print(w.windowTitle(), '|', w.start.quit_button.text())\n"
        "w.controller.shutdown()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _env(home: Path, lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG=lang, LANGUAGE="", KOIKOI_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    return env


def test_the_system_locale_chooses_the_language(tmp_path: Path) -> None:
    assert _start_and_say(_env(tmp_path, "ja_JP.UTF-8")) == "花札こいこい | 終了"
    assert _start_and_say(_env(tmp_path, "en_GB.UTF-8")) == "花札こいこい Koi-Koi | Quit"


def test_the_language_chosen_in_the_settings_applies_at_once_and_stays(
    qtbot: QtBot, tmp_path: Path
) -> None:
    names.install_translations("en")
    windows = MainWindows()
    first = windows.window
    first.show()
    qtbot.waitExposed(first)
    choice = first.start.language
    choice.setCurrentIndex(choice.findData("ja"))
    qtbot.waitUntil(lambda: windows.window is not first)
    japanese = windows.window
    assert not first.isVisible() and japanese.isVisible()
    assert AppSettings().get(LANGUAGE) == "ja"
    assert japanese.windowTitle() == "花札こいこい"
    assert japanese.start.quit_button.text() == "終了"
    assert english_words(japanese) == []
    assert japanese.start.language.currentData() == "ja"
    home = Path(os.environ["KOIKOI_HOME"])
    assert _start_and_say(_env(home, "en_GB.UTF-8")) == "花札こいこい | 終了"  # and stays

    choice = japanese.start.language
    choice.setCurrentIndex(choice.findData("en"))
    qtbot.waitUntil(lambda: windows.window is not japanese)
    english = windows.window
    assert english.start.quit_button.text() == "Quit"
    assert names.card_accessible_name(0) == "Pine crane, January light"
    choice = english.start.language
    choice.setCurrentIndex(choice.findData(""))  # back to the system's language
    qtbot.waitUntil(lambda: windows.window is not english)
    windows.window.controller.shutdown()
    windows.window.close()
    names.install_translations("en")
    assert _start_and_say(_env(home, "ja_JP.UTF-8")) == "花札こいこい | 終了"
    assert _start_and_say(_env(home, "C.UTF-8")) == "花札こいこい Koi-Koi | Quit"


# -- the network's failures ----------------------------------------------------------------------


def test_network_failures_are_worded_from_their_codes(japanese: None) -> None:
    timeout = ProtocolError(
        "the peer did not finish the handshake within 15 s", code="timeout", seconds=15
    )
    assert str(timeout) == "the peer did not finish the handshake within 15 s"  # the CLI's
    said = failure_text(LinkError("protocol", str(timeout), "10.0.0.2:4000", timeout))
    assert said == "10.0.0.2:4000との接続の準備が時間切れになりました。相手の応答が止まりました。"
    wait = PeerRefused("the peer refused: too many wrong passwords", "wait")
    said = failure_text(LinkError("refused", str(wait), "10.0.0.2:4000", wait))
    assert said == (
        "部屋に接続を断られました：このアドレスからのパスワードの間違いが多すぎます。少し待ってください"
    )
    unknown = ProtocolError("the peer's clock ran backwards", code="a-code-from-tomorrow")
    said = failure_text(LinkError("protocol", str(unknown), "", unknown))
    assert said == (
        "相手からゲームが理解できないデータが届きました：接続に失敗しました："
        "the peer's clock ran backwards"
    )
    assert re.search(r"[A-Za-z]", failure_text(LinkError("auth", "wrong password", ""))) is None
    names.install_translations("en")  # in English, the network layer's own line
    said = failure_text(LinkError("refused", str(wait), "10.0.0.2:4000", wait))
    assert said == "The room refused the connection: the peer refused: too many wrong passwords"


def test_a_connection_the_room_dropped_is_said_to_be_turned_away() -> None:
    names.install_translations("en")
    dropped = LinkError("dropped", "did not finish the handshake in time", "10.0.0.3:5000")
    assert failure_text(dropped) == (
        "Turned away 10.0.0.3:5000: did not finish the handshake in time"
    )


def test_the_peers_reason_for_stopping_is_worded_from_its_code(japanese: None) -> None:
    """In Japanese the code's meaning alone: the peer's own words (English, from its app)
    go to the log; in English they follow it."""
    reason = f"the peer stopped the match: {BYE_REASONS['timeout']} (15 s)"
    ending = Ending(False, How.STOPPED, None, reason, "play", 12, "2026-11-30T10:00:00Z")
    said = ending_text(ending, "はな", mine=False)
    assert said == "はなさんのアプリが対戦を止めました：こちらから長い間何も届きませんでした。"
    names.install_translations("en")
    said = ending_text(ending, "hana", mine=False)
    assert (
        said == "hana's app stopped the match: it heard nothing from this side for too long (15 s)."
    )


def test_a_save_that_cannot_be_read_is_reported_in_japanese(qtbot: QtBot, japanese: None) -> None:
    path = koikoi_home() / "practice.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    window = open_window(qtbot)
    notice = window.start.notice
    assert notice.isVisible()
    assert notice.text().startswith("保存した対戦を読み込めませんでした（")
    assert "practice.corrupt-" in notice.text()
    close_window(window)
