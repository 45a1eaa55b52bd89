"""The app crashes mid-match and, started again, resumes the network match (docs/protocol.md,
"A side that crashed").

Two real windows offscreen over loopback: hana opens a room in her lobby, taro joins it by
address, both confirm the four cards and play by clicks. Then one window goes at once, as a
crash would take it (the window and everything in it deleted: nothing said to the peer,
nothing saved at its end); the other shows "reconnecting…". A new window is started on the
crashed side's home folder: its start screen offers the match ("Resume the match with … —
reconnect"), the player clicks it, the match resumes with the window that waited, and both play
on by clicks to the end. Both records verify and hold the same moves. Both roles crash in turn.

A separate test kills a real app process (``kill -9``) mid-match and finds its record on disk
holding every move played so far, with what it takes to resume it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QLabel
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.hello import SEED_ONLY, WITH_SEED
from koikoi.net.identity import load_or_create_identity
from koikoi.net.recordfile import attach_local, local_path
from koikoi.net.resume import restore_session
from koikoi.net.roles import Role
from koikoi.net.verify import verify_record
from koikoi.ui.lobby.lobby_pages import PasswordPrompt
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import RESUME_KEY, SaveStore, kept_matches
from koikoi.ui.net.netlink.base import APP_DEALINGS
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from koikoi.ui.smoke import LOOPBACK, open_window
from tests.conftest import run_koikoi
from tests.net_support import assert_same_deals
from tests.test_ui_lobby import both_at_the_cards, open_room
from tests.ui_driver import (
    FAST,
    actions_so_far,
    click,
    close_window,
    panel_button,
    play_windows_by_clicks,
)

ROOT = Path(__file__).resolve().parent.parent


def lobby_window(
    qtbot: QtBot,
    home: Path,
    nickname: str,
    *,
    keep: bool = True,
    dealings: tuple[str, ...] = SEED_ONLY,
) -> MainWindow:
    window = open_window(home, FAST, LOOPBACK)
    if keep:
        qtbot.addWidget(window)
    qtbot.waitExposed(window)
    window.show_lobby()
    window.lobby.nickname.setText(nickname)
    # the joint seed unless told: it is the one a released koikoi-net/2 peer plays
    window.lobby.dealings = dealings
    return window


def net_records(home: Path) -> list[Path]:
    return sorted((home / "games").glob("net-*.json"))


def moves(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [action for deal in record["deals"] for action in deal["actions"]]


def on_disk_with_journal(path: Path, home: Path, role: str) -> dict[str, Any]:
    """The record file at ``path`` and its sidecar, replayed as the app started again
    replays them: the record as it stood at the crash."""
    data = attach_local(json.loads(path.read_text(encoding="utf-8")), path)
    settings = Settings(rounds=data["settings"]["rounds"], doubling=data["settings"]["doubling"])
    identity = load_or_create_identity(home)
    session = restore_session(data, identity, role, Role(role), settings, now=0.0)
    return session.record(local=False).to_json()


def crash(qtbot: QtBot, window: MainWindow) -> None:
    """The window and all it holds (links, sockets, the room) go at once: no ``bye``, no
    closing, no last write; the kernel closes the sockets as a dead process's. A room keeps
    its connections in Python, not as Qt children: they go first."""
    # A dead process's mDNS announcement ends with it; in this process the announcer's
    # thread would outlive the window and show the room to every later test's lobby.
    announcer = window.lobby.announcer
    if announcer is not None:
        announcer.withdraw()
        announcer.wait()
    rooms = {id(r): r for r in (window.link, window.lobby.room) if isinstance(r, QtRoom)}
    for room in rooms.values():
        for link in list(room.links):
            shiboken6.delete(link)
    shiboken6.delete(window)
    qtbot.wait(50)


def start_match(
    qtbot: QtBot,
    tmp_path: Path,
    crashing: str,
    password: str = "",
    dealings: tuple[str, ...] = SEED_ONLY,
) -> tuple[MainWindow, MainWindow]:
    host = lobby_window(
        qtbot, tmp_path / "hana", "hana", keep=crashing != "host", dealings=dealings
    )
    joiner = lobby_window(
        qtbot, tmp_path / "taro", "taro", keep=crashing != "joiner", dealings=dealings
    )
    open_room(host.lobby, "crash", password=password)
    room = host.lobby.room
    assert isinstance(room, QtRoom)
    joiner.lobby.address.setText(f"{LOOPBACK}:{room.port}")
    joiner.lobby.address_password.setText(password)
    click(qtbot, joiner.lobby.address_button)
    both_at_the_cards(qtbot, host.lobby, joiner.lobby)
    click(qtbot, joiner.lobby.prematch.same_button)
    click(qtbot, host.lobby.prematch.same_button)
    qtbot.waitUntil(
        lambda: all(w.controller.remote is not None for w in (host, joiner)), timeout=15_000
    )
    return host, joiner


@pytest.mark.parametrize("dealings", [SEED_ONLY, APP_DEALINGS], ids=["seed", "private"])
@pytest.mark.parametrize("crashing", ["joiner", "host"])
def test_a_crashed_app_offers_the_match_and_resumes_it_with_the_waiting_peer(
    qtbot: QtBot, tmp_path: Path, crashing: str, dealings: tuple[str, ...]
) -> None:
    """Privately dealt too: its record file keeps the crashed side's seeds and journal
    (its sidecar, read back as ``local``), so the app started again deals on where it was."""
    host, joiner = start_match(qtbot, tmp_path, crashing, dealings=dealings)
    windows = [host, joiner]
    crashed, waiting = (joiner, host) if crashing == "joiner" else (host, joiner)
    home = tmp_path / ("taro" if crashing == "joiner" else "hana")
    play_windows_by_clicks(  # a few moves in, the crashing side to move
        qtbot,
        windows,
        random.Random(11),
        until=lambda: (
            actions_so_far(crashed) >= 7
            and crashed.controller.mode is Mode.PLAY
            and waiting.controller.mode is Mode.BUSY  # its own drawn card played out
        ),
    )
    qtbot.wait(300)  # nothing in flight
    played = actions_so_far(waiting)
    assert isinstance(waiting.link, QtRoom | QtJoin)
    field_before = list(crashed.game.table.model.field)  # slots, the gaps captures left too
    lines = crashed.game.side._lines  # the deal's, from its "Round N: … oya" on
    deal_start = max(n for n, line in enumerate(lines) if line.startswith("Round "))
    log_before = lines[deal_start:][-6:]
    crash(qtbot, crashed)
    qtbot.waitUntil(waiting.game.reconnecting.isVisible, timeout=15_000)
    assert "reconnecting" in waiting.game.reconnecting.text()
    if waiting.controller.mode is Mode.ROUND_OVER:  # the crashing side had gone on to the
        click(qtbot, panel_button(waiting))  # next round: this one reads its result first
        qtbot.waitUntil(lambda: waiting.controller.mode is Mode.BUSY, timeout=10_000)
    # one count on the table: the reconnecting one; the prompt says no clock runs (issue 22)
    name = "taro" if crashing == "joiner" else "hana"
    said = f"Waiting for {name} to reconnect: no clock runs meanwhile."
    assert waiting.game.prompt.text() == said, waiting.controller.mode
    assert waiting.controller.clock() is None

    # on disk: the record of the match in play, every move in it, and how to reconnect
    (path,) = net_records(home)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "end" not in record and RESUME_KEY in record
    assert record[RESUME_KEY]["role"] == crashing
    private = dealings == APP_DEALINGS
    # privately dealt, the record is written as each deal is laid out and the moves since
    # are in this side's journal beside it: replayed from both, every move is there
    on_disk = on_disk_with_journal(path, home, crashing) if private else record
    assert len(moves(on_disk)) + len(on_disk["deals"]) == played
    assert record["net"].get("dealing", "seed") == dealings[0]
    # this side's seeds and journal: beside its own file only, appended as they grew
    assert "local" not in record and local_path(path).exists() is private

    # the app again, on the same home: its start screen offers the match
    again = lobby_window(qtbot, home, "", keep=True)
    again.go_home()
    start = again.start
    assert start.reconnect_button.isVisible()
    peer = "hana" if crashing == "joiner" else "taro"
    assert f"Resume the match with {peer} — reconnect" in start.reconnect_button.text()
    click(qtbot, start.reconnect_button)
    assert again.stack.currentWidget() is again.game
    # a match first played in version 2 (the joint seed) is redialled as it was joined: its
    # host may be a released koikoi-net/2 program, which refuses a version-4 hello; its host
    # allows the seed, so that the joiner's redial is not refused (issue 20)
    assert record["net"]["protocol"] == ("koikoi-net/4" if private else "koikoi-net/2")
    offered = again.link.options.dealings  # type: ignore[union-attr]
    seed_offer = SEED_ONLY if crashing == "joiner" else WITH_SEED
    assert offered == (APP_DEALINGS if private else seed_offer)
    windows = [again, waiting]
    qtbot.waitUntil(
        lambda: again.restored_link is None and not waiting.game.reconnecting.isVisible(),
        timeout=30_000,
    )
    assert again.controller.remote is not None and again.net_message is None
    assert actions_so_far(again) == played
    # the table as it was: the field's cards in their places, the deal's log told again
    # (a resume tells the deal in play, not the ones before it)
    assert again.game.table.model.field == field_before
    told = again.game.side._lines
    assert [line for line in log_before if line in told] == log_before, (log_before, told)

    play_windows_by_clicks(
        qtbot,
        windows,
        random.Random(13),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in windows),
    )
    assert actions_so_far(again) > played
    qtbot.waitUntil(lambda: all(w.net_record is not None for w in windows), timeout=10_000)
    assert again.net_record == path  # the same file, written on
    records = [
        json.loads(w.net_record.read_text(encoding="utf-8")) for w in windows if w.net_record
    ]
    for rec in records:
        report = verify_record(rec)
        assert report.to_json()["valid"] is True and report.result["finished"] is True
        assert RESUME_KEY not in rec and "local" not in rec
    assert not any(local_path(w.net_record).exists() for w in windows if w.net_record)
    assert_same_deals(*records)
    files = [str(w.net_record) for w in windows if w.net_record]
    done = run_koikoi("verify", *files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["agree"] is True
    assert not any(k.reconnect for k in kept_matches(SaveStore(home)))
    for window in windows:
        window.go_home()
        close_window(window)


def type_password(qtbot: QtBot, window: MainWindow, password: str) -> None:
    """The lobby's password prompt, opened by the offer: the password typed, Join clicked."""
    qtbot.waitUntil(lambda: window.resume_prompt is not None, timeout=5_000)
    prompt = window.resume_prompt
    assert isinstance(prompt, PasswordPrompt) and prompt.isVisible()
    QTest.keyClicks(prompt.password, password)
    buttons = prompt.findChild(QDialogButtonBox)
    assert buttons is not None
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.text() == "Join"
    click(qtbot, ok)


@pytest.mark.parametrize("crashing", ["joiner", "host"])
def test_a_password_room_s_match_is_resumed_with_its_password_typed_again(
    qtbot: QtBot, tmp_path: Path, crashing: str
) -> None:
    """A password room: the crashed side's start screen offers the match too; its click asks
    for the room's password (the lobby's prompt). Cancel keeps the offer; a wrong password
    is said in one line and the offer stays, the peer still waiting; the right one resumes
    the match, played on by clicks to the end. The password is nowhere on disk."""
    secret = "kiku-" + os.urandom(3).hex()
    host, joiner = start_match(qtbot, tmp_path, crashing, password=secret)
    windows = [host, joiner]
    crashed, waiting = (joiner, host) if crashing == "joiner" else (host, joiner)
    home = tmp_path / ("taro" if crashing == "joiner" else "hana")
    play_windows_by_clicks(
        qtbot,
        windows,
        random.Random(23),
        until=lambda: actions_so_far(crashed) >= 5 and crashed.controller.mode is Mode.PLAY,
    )
    qtbot.wait(300)
    played = actions_so_far(waiting)
    crash(qtbot, crashed)
    qtbot.waitUntil(waiting.game.reconnecting.isVisible, timeout=15_000)
    (path,) = net_records(home)
    before = path.read_text(encoding="utf-8")
    assert json.loads(before)[RESUME_KEY]["private"] is True

    again = lobby_window(qtbot, home, "", keep=True)
    again.go_home()
    start = again.start
    assert start.reconnect_button.isVisible()
    peer = "hana" if crashing == "joiner" else "taro"
    assert f"Resume the match with {peer} — reconnect" in start.reconnect_button.text()

    click(qtbot, start.reconnect_button)  # Cancel: nothing happens, the offer stays
    qtbot.waitUntil(lambda: again.resume_prompt is not None, timeout=5_000)
    prompt = again.resume_prompt
    assert isinstance(prompt, PasswordPrompt)
    (label,) = prompt.findChildren(QLabel)  # the lobby's words: the room's title, or its address
    named = "crash" if crashing == "host" else f"{LOOPBACK}:"
    assert label.text().startswith(f"「{named}") and label.text().endswith(
        " is private. Its password:"
    )
    buttons = prompt.findChild(QDialogButtonBox)
    assert buttons is not None
    click(qtbot, buttons.button(QDialogButtonBox.StandardButton.Cancel))
    qtbot.waitUntil(lambda: again.resume_prompt is None, timeout=5_000)
    assert again.stack.currentWidget() is start and start.reconnect_button.isVisible()

    click(qtbot, start.reconnect_button)  # a wrong password: one line, the offer stays
    type_password(qtbot, again, secret + "x")
    qtbot.waitUntil(lambda: again.stack.currentWidget() is start, timeout=30_000)
    notice = start.notice.text()
    assert notice.startswith("That match could not be resumed: "), notice
    assert "password" in notice and "\n" not in notice and "Traceback" not in notice
    assert start.reconnect_button.isVisible() and again.link is None
    assert path.read_text(encoding="utf-8") == before  # the record as it was
    assert waiting.game.reconnecting.isVisible()  # the peer still waits

    click(qtbot, start.reconnect_button)  # the right one
    type_password(qtbot, again, secret)
    assert again.stack.currentWidget() is again.game
    windows = [again, waiting]
    qtbot.waitUntil(
        lambda: again.restored_link is None and not waiting.game.reconnecting.isVisible(),
        timeout=30_000,
    )
    assert again.controller.remote is not None and again.net_message is None
    assert actions_so_far(again) == played
    play_windows_by_clicks(
        qtbot,
        windows,
        random.Random(29),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in windows),
    )
    qtbot.waitUntil(lambda: all(w.net_record is not None for w in windows), timeout=10_000)
    assert again.net_record == path
    records = [
        json.loads(w.net_record.read_text(encoding="utf-8")) for w in windows if w.net_record
    ]
    for rec in records:
        report = verify_record(rec)
        assert report.to_json()["valid"] is True and report.result["finished"] is True
    assert_same_deals(*records)
    files = [str(w.net_record) for w in windows if w.net_record]
    done = run_koikoi("verify", *files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["agree"] is True
    for folder in (tmp_path / "hana", tmp_path / "taro"):  # the password is never written
        for file in folder.rglob("*"):
            if file.is_file():
                assert secret.encode() not in file.read_bytes(), file
    for window in windows:
        window.go_home()
        close_window(window)


def test_when_the_peer_no_longer_waits_the_app_says_so_and_keeps_the_record(
    qtbot: QtBot, tmp_path: Path
) -> None:
    host, joiner = start_match(qtbot, tmp_path, "joiner")
    play_windows_by_clicks(
        qtbot,
        [host, joiner],
        random.Random(17),
        until=lambda: actions_so_far(joiner) >= 4 and joiner.controller.mode is Mode.PLAY,
    )
    qtbot.wait(300)
    played = actions_so_far(host)
    crash(qtbot, joiner)
    qtbot.waitUntil(host.game.reconnecting.isVisible, timeout=15_000)
    host.go_home()  # hana stops waiting: her room closes
    close_window(host)
    home = tmp_path / "taro"
    (path,) = net_records(home)

    again = lobby_window(qtbot, home, "", keep=True)
    again.go_home()
    assert again.start.reconnect_button.isVisible()
    again.resume_window = 2.0  # the rest of the window, shortened for the test
    click(qtbot, again.start.reconnect_button)
    assert again.game.reconnecting.isVisible()
    qtbot.waitUntil(lambda: again.net_message is not None, timeout=20_000)
    message = again.net_message
    assert message is not None
    assert message.text() == "hana did not answer: the match could not be resumed."
    assert "\n" not in message.text()
    click(qtbot, message.button(message.StandardButton.Ok))
    qtbot.waitUntil(lambda: again.stack.currentWidget() is again.start, timeout=5_000)
    record = json.loads(path.read_text(encoding="utf-8"))  # kept, with its end written
    assert len(moves(record)) + len(record["deals"]) == played
    assert record["end"]["how"] == "dropped" and verify_record(record).to_json()["valid"]
    assert not again.start.reconnect_button.isVisible()
    close_window(again)


def test_an_app_killed_mid_match_has_every_move_on_disk(tmp_path: Path) -> None:
    """Two real app processes play; the joiner's is killed (SIGKILL) mid-match: its record
    on disk holds every move it played and every one it accepted (beyond what both records
    hold: at most its own last move, written before it was sent, or the host's own moves that
    never reached it), verifies, has no end, and says how to reconnect."""
    from tests.test_ui_lan_processes import start_player

    title = "Crash " + os.urandom(3).hex()
    host = start_player(
        tmp_path / "hana", "--role", "host", "--room", title, "--think", "30", "--dealing", "seed"
    )
    try:
        port = host.port(60)
        joiner = start_player(
            tmp_path / "taro",
            "--role", "join", "--address", f"127.0.0.1:{port}",
            "--think", "30", "--dealing", "seed",
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 90
            mine: list[Path] = []
            while True:
                assert time.monotonic() < deadline, joiner.stderr[-2000:]
                mine = net_records(tmp_path / "taro")
                if mine and len(moves(json.loads(mine[0].read_text()))) >= 9:
                    break
                time.sleep(0.01)
            joiner.proc.send_signal(signal.SIGKILL)  # no goodbye, no last write
            joiner.proc.wait(10)
        finally:
            joiner.kill()
        time.sleep(1.0)  # the host has taken in whatever reached it
        (theirs,) = net_records(tmp_path / "hana")
        host_record = json.loads(theirs.read_text(encoding="utf-8"))
    finally:
        host.kill()
    (path,) = mine
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "end" not in record and "end" not in host_record  # the host waits to resume
    info = record[RESUME_KEY]
    assert info == {"role": "joiner", "address": f"127.0.0.1:{port}"}
    seat = next(p["seat"] for p in record["net"]["players"] if p["role"] == "joiner")
    kept, held = moves(record), moves(host_record)
    common = min(len(kept), len(held))
    signed = [(a["seat"], a["entry"], a["sig"]) for a in kept[:common]]
    assert signed == [(a["seat"], a["entry"], a["sig"]) for a in held[:common]]
    # the acknowledgements both hold are the same; the joiner may lack the host's acks of its
    # own last moves (an ack arriving writes no record; the host sends it again on resume):
    # of the run of its own moves at the end (a play, then its koikoi call: two in a row)
    pairs = list(zip(kept[:common], held[:common], strict=True))
    assert all(x["ack"] == y["ack"] for x, y in pairs if "ack" in x and "ack" in y)
    unacked = [i for i, (x, y) in enumerate(pairs) if "ack" in y and "ack" not in x]
    if unacked:
        assert all(action["seat"] == seat for action in kept[unacked[0] : common]), unacked
    # beyond what both hold: the joiner's own entry, written before it was sent and killed
    # on its way, or the host's, sent as the joiner was killed; never the peer's lost
    assert len(kept) - common <= 1
    assert all(action["seat"] == seat for action in kept[common:])
    assert all(action["seat"] != seat for action in held[common:])
    done = run_koikoi("verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["proven"]["moves"] == len(kept)
    (offered,) = kept_matches(SaveStore(tmp_path / "taro"))
    assert offered.reconnect and offered.resumable and offered.opponent == "hana"


def test_a_record_that_cannot_be_taken_up_again_is_said_in_one_line(
    qtbot: QtBot, tmp_path: Path
) -> None:
    host, joiner = start_match(qtbot, tmp_path, "joiner")
    play_windows_by_clicks(
        qtbot,
        [host, joiner],
        random.Random(19),
        until=lambda: actions_so_far(joiner) >= 3 and joiner.controller.mode is Mode.PLAY,
    )
    qtbot.wait(300)
    crash(qtbot, joiner)
    home = tmp_path / "taro"
    (path,) = net_records(home)
    record = json.loads(path.read_text(encoding="utf-8"))
    record[RESUME_KEY]["address"] = "nowhere"  # a hand-edited note: no port
    path.write_text(json.dumps(record), encoding="utf-8")
    again = lobby_window(qtbot, home, "", keep=True)
    again.go_home()
    click(qtbot, again.start.reconnect_button)
    assert again.stack.currentWidget() is again.start and again.controller.remote is None
    notice = again.start.notice.text()
    assert notice.startswith("That match could not be resumed: an address is HOST:PORT")
    assert "\n" not in notice and "Traceback" not in notice
    assert again.start.reconnect_button.isVisible()  # the record stays, as it was
    assert json.loads(path.read_text(encoding="utf-8")) == record
    # the offer goes when the peer has stopped waiting (the window shortened for the test)
    again.resume_window = 1.5
    os.utime(path)
    again.refresh_start()
    assert again.start.reconnect_button.isVisible()
    qtbot.waitUntil(lambda: not again.start.reconnect_button.isVisible(), timeout=5_000)
    assert "ended early" in again.start.kept_list.item(0).text()
    host.go_home()
    for window in (host, again):
        close_window(window)


def test_a_kept_practice_match_that_cannot_be_taken_back_says_why(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The same line for a practice match set aside (its file gone meanwhile): the start
    screen is refreshed first, then says why, and the line stays."""
    games = tmp_path / "home" / "games"
    games.mkdir(parents=True)
    path = games / "practice-20261130-101010.json"
    record = {
        "format": "koikoi-record/1",
        "settings": {"rounds": 6, "doubling": True},
        "first_oya": 0,
        "deals": [],
        "seed": "00" * 16,
        "ai_level": "easy",
    }
    path.write_text(json.dumps(record), encoding="utf-8")
    window = open_window(tmp_path / "home", FAST, LOOPBACK)
    qtbot.addWidget(window)
    start = window.start
    assert start.kept_list.count() == 1 and start.kept[0].resumable
    start.kept_list.setCurrentRow(0)
    path.unlink()  # gone between the listing and the click
    click(qtbot, start.take_back_button)
    assert window.stack.currentWidget() is start
    assert start.notice.isVisible()
    assert start.notice.text().startswith("That match could not be resumed: ")
    assert start.kept_list.count() == 0
    close_window(window)
