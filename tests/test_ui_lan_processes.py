"""Two real app processes play each other, each played by clicks (``tests/app_player.py``).

Each process is the app's own window (offscreen) with its own ``KOIKOI_HOME`` — its own
identity, settings and games. The host opens a room from the lobby; the joiner finds it in
the lobby's list (mDNS) or types its address; both see and confirm the same four cards,
agree on the toss and click through a whole 6-round match with the UI tests' instant
timings. Both signed records pass ``koikoi verify`` and ``koikoi replay`` tells the same
story from either.

On loopback, discovery is bound to 127.0.0.1 (``KOIKOI_MDNS_BIND``). Across two network
namespaces joined by a veth pair (as root; skipped with the reason otherwise) discovery runs
with its default, every interface; nothing is sent anywhere but loopback and the namespaces
the test makes and removes.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore
from koikoi.ui.net.netlink import base as netlink_base
from koikoi.ui.net.netlink.base import APP_DEALINGS, LinkError
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests.conftest import REPO, run_koikoi
from tests.net_support import KoikoiProcess
from tests.test_net_netns import (  # noqa: F401  (the fixture that makes the namespaces)
    HOST_ADDRESS,
    JOINER_ADDRESS,
    Namespaces,
    _skip_reason,
    namespaces,
)
from tests.ui_driver import (
    FAST,
    actions_so_far,
    at_the_cards,
    click,
    close_window,
    panel_button,
    play_windows_by_clicks,
    type_into,
)

PLAYER = REPO / "tests" / "app_player.py"
RUN_LIMIT = 150.0
"""Seconds a player may take, from its start to the match result (about 10 s here)."""


def start_player(
    home: Path,
    *args: str,
    prefix: Sequence[str] = (),
    bind: str | None = "127.0.0.1",
    display: str | None = None,
    timeout: float = RUN_LIMIT - 20,
) -> KoikoiProcess:
    """``python tests/app_player.py ARGS`` with its own KOIKOI_HOME, its output in files.
    ``bind`` limits discovery to one address (None: the default, every interface); with a
    ``display`` its window is a real one on that X screen (Qt's xcb platform), not offscreen;
    ``timeout`` bounds the player's whole run."""
    home.mkdir(parents=True, exist_ok=True)
    role = args[args.index("--role") + 1]
    env = dict(os.environ, KOIKOI_HOME=str(home), PYTHONUNBUFFERED="1", QT_QPA_PLATFORM="offscreen")
    env.pop("KOIKOI_MDNS_BIND", None)
    if bind is not None:
        env["KOIKOI_MDNS_BIND"] = bind
    if display is not None:
        env.update(QT_QPA_PLATFORM="xcb", DISPLAY=display)
        env.pop("WAYLAND_DISPLAY", None)
    out, err = home / f"{role}.out", home / f"{role}.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [*prefix, sys.executable, str(PLAYER), *args, "--timeout", str(timeout)],
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            cwd=REPO,
            env=env,
        )
    return KoikoiProcess(proc, out, err)


def play_pair(
    start_host: Callable[[], KoikoiProcess],
    start_joiner: Callable[[KoikoiProcess], KoikoiProcess],
    meanwhile: Callable[[KoikoiProcess], None] = lambda _host: None,
) -> tuple[KoikoiProcess, KoikoiProcess]:
    """The host started, then the joiner (given the host), ``meanwhile`` run on the host
    while they play; both waited for to the end of the match (and killed if still there
    at the limit, or if anything failed) and found to have finished it (:func:`both_finished`).
    """
    host = start_host()
    try:
        joiner = start_joiner(host)
        try:
            meanwhile(host)
            codes = joiner.wait(RUN_LIMIT), host.wait(RUN_LIMIT)
        finally:
            joiner.kill()
    finally:
        host.kill()
    both_finished(host, joiner, codes)
    return host, joiner


def play(
    tmp_path: Path,
    *,
    by_address: bool,
    host_prefix: Sequence[str] = (),
    joiner_prefix: Sequence[str] = (),
    bind: str | None = "127.0.0.1",
    address: str = "127.0.0.1",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A host and a joiner play a whole match; what each printed."""
    title = f"Hanami {secrets.token_hex(3)}"  # unique: parallel runs never join each other

    def start_joiner(host: KoikoiProcess) -> KoikoiProcess:
        joining = ["--room", title]
        if by_address:
            joining = ["--address", f"{address}:{host.port(60)}"]
        return start_player(
            tmp_path / "taro", "--role", "join", *joining, "--seed", "2",
            prefix=joiner_prefix, bind=bind,
        )  # fmt: skip

    def start_host() -> KoikoiProcess:
        return start_player(
            tmp_path / "hana", "--role", "host", "--room", title, "--seed", "1",
            prefix=host_prefix, bind=bind,
        )  # fmt: skip

    host, joiner = play_pair(start_host, start_joiner)
    if not by_address:
        assert f"the room {title!r} is listed" in joiner.stderr
    return host.result(), joiner.result()


def both_finished(host: KoikoiProcess, joiner: KoikoiProcess, codes: tuple[int, int]) -> None:
    """Both players exited 0 (``codes``: the joiner's, the host's), each with its one line
    of result and no traceback."""
    assert codes == (0, 0), f"host:\n{host.stderr[-3000:]}\njoiner:\n{joiner.stderr[-3000:]}"
    for player in (host, joiner):
        assert "Traceback" not in player.stderr, player.stderr
        assert len(player.stdout.splitlines()) == 1, player.stdout


def check_the_match(host: dict[str, Any], joiner: dict[str, Any]) -> None:
    """The same four cards, the same toss, the same scores, and the same story from both
    saved records, which ``koikoi verify`` accepts."""
    assert (host["me"], joiner["me"]) == (0, 1)
    assert (host["peer"], joiner["peer"]) == ("taro", "hana")
    assert len(host["cards"]) == 4 and host["cards"] == joiner["cards"]
    assert host["toss"]["first_oya"] == joiner["toss"]["first_oya"]
    oya = host["toss"]["first_oya"]
    assert host["toss"]["text"].startswith(
        "The toss makes you oya" if oya == 0 else "The toss makes taro oya"
    )
    assert joiner["toss"]["text"].startswith(
        "The toss makes you oya" if oya == 1 else "The toss makes hana oya"
    )
    assert host["scores"] == joiner["scores"] and sum(host["scores"]) == 50
    stories = []
    for result, seat in ((host, 0), (joiner, 1)):
        path = Path(result["record"])
        assert path.name.startswith("net-") and path.name.endswith(f"-seat{seat}.json")
        verified = run_koikoi("verify", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        report = json.loads(verified.stdout)
        assert report["valid"] is True and report["finished"] is True
        assert report["claims"]["nicks"] == ["hana", "taro"]  # claimed: nothing signs a nick
        assert report["proven"]["handshake"] is True
        replayed = run_koikoi("replay", str(path))
        assert replayed.returncode == 0, replayed.stderr
        stories.append(json.loads(replayed.stdout))
    assert stories[0] == stories[1]
    assert stories[0]["finished"] is True and stories[0]["scores"] == host["scores"]
    # six rounds (redeals listed too), or fewer when a player's points ran out (R2.3)
    assert len(stories[0]["rounds"]) >= 6 or 0 in host["scores"]


def test_two_app_processes_find_each_other_in_the_lobby_and_play_a_whole_match(
    tmp_path: Path,
) -> None:
    host, joiner = play(tmp_path, by_address=False)
    check_the_match(host, joiner)


def test_two_app_processes_play_a_whole_match_joined_by_address(tmp_path: Path) -> None:
    host, joiner = play(tmp_path, by_address=True)
    check_the_match(host, joiner)


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
@pytest.mark.parametrize("by_address", [False, True], ids=["by-the-list", "by-address"])
def test_two_app_processes_in_two_network_namespaces_play_a_whole_match(
    namespaces: Namespaces,  # noqa: F811
    tmp_path: Path,
    by_address: bool,
) -> None:
    """Discovery with its default, every interface, across a veth pair."""
    host, joiner = play(
        tmp_path,
        by_address=by_address,
        host_prefix=("ip", "netns", "exec", namespaces.host),
        joiner_prefix=("ip", "netns", "exec", namespaces.joiner),
        bind=None,
        address=HOST_ADDRESS,
    )
    check_the_match(host, joiner)
    # across the veth pair, not over either namespace's loopback
    assert joiner["address"].startswith(f"{HOST_ADDRESS}:"), joiner["address"]
    assert host["address"].startswith(f"{JOINER_ADDRESS}:"), host["address"]


# --- a rematch through the UI, from the lobby (two windows in this process) -------------------


class LobbyPair:
    """Two windows, each with its own identity and games: hana opens a room in her lobby,
    taro joins it by address in his, both confirm the four cards; the match starts."""

    def __init__(self, qtbot: QtBot, tmp_path: Path) -> None:
        self.qtbot = qtbot
        self.homes = tmp_path / "hana", tmp_path / "taro"
        self.host, self.joiner = (open_lobby_window(qtbot, home) for home in self.homes)
        for window, name in ((self.host, "hana"), (self.joiner, "taro")):
            click(qtbot, window.start.play_person_button)
            assert window.stack.currentWidget() is window.lobby
            type_into(window.lobby.nickname, name)
        lobby = self.host.lobby
        type_into(lobby.room_title, f"Rematch {secrets.token_hex(3)}")
        click(qtbot, lobby.create_button)
        assert lobby.room is not None, lobby.message.text()
        self.port = lobby.room.port
        type_into(self.joiner.lobby.address, f"127.0.0.1:{self.port}")
        click(qtbot, self.joiner.lobby.address_button)
        qtbot.waitUntil(
            lambda: at_the_cards(self.host.lobby) and at_the_cards(self.joiner.lobby),
            timeout=15_000,
        )
        for window in self.windows:
            click(qtbot, window.lobby.prematch.same_button)
        self.wait_for_the_toss()

    @property
    def windows(self) -> list[MainWindow]:
        return [self.host, self.joiner]

    def wait_for_the_toss(self) -> None:
        self.qtbot.waitUntil(
            lambda: all(w.controller.mode is Mode.FIRST_OYA for w in self.windows),
            timeout=20_000,
        )
        for window in self.windows:
            panel = window.game.overlay.panel
            assert panel is not None and panel.accessibleName() == "Coin toss"

    def play_to_the_end(self, seed: int) -> None:
        play_windows_by_clicks(
            self.qtbot,
            self.windows,
            random.Random(seed),
            until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in self.windows),
        )
        self.qtbot.waitUntil(lambda: all(w.net_record is not None for w in self.windows))

    def close(self) -> None:
        for window in self.windows:
            close_window(window)
            window.lobby.shutdown()


def open_lobby_window(qtbot: QtBot, home: Path) -> MainWindow:
    window = MainWindow(saves=SaveStore(home), timings=FAST)
    window.lobby.home = home  # its own identity and pins, as another installation has
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def session_id(window: MainWindow) -> bytes:
    assert window.link is not None  # a network match is on
    session = window.link.session
    assert session is not None
    return bytes(session.session_id)


def fingerprint(window: MainWindow) -> str:
    """The fingerprint of the peer of ``window``'s network match."""
    assert window.peer is not None
    return window.peer.fingerprint


def rematch_room_listens(window: MainWindow) -> bool:
    """The host's rematch room is up and listening (the host's rematch link is a room)."""
    link = window.rematch_link
    return isinstance(link, QtRoom) and link.listening


@pytest.fixture
def lobby_pair(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LobbyPair]:
    monkeypatch.setenv("KOIKOI_MDNS_BIND", "127.0.0.1")  # nothing heard beyond loopback
    pair = LobbyPair(qtbot, tmp_path)
    yield pair
    pair.close()


def test_a_rematch_after_a_match_from_the_lobby_is_a_new_session_and_a_new_toss(
    qtbot: QtBot, lobby_pair: LobbyPair
) -> None:
    pair = lobby_pair
    host, joiner = pair.windows
    pair.play_to_the_end(seed=7)
    first_records = [w.net_record for w in pair.windows]
    first = session_id(host)
    peers = [fingerprint(w) for w in pair.windows]
    assert session_id(joiner) == first
    # both click Rematch, the joiner first: hana's table says so while she reads the result
    click(qtbot, panel_button(joiner))
    qtbot.waitUntil(lambda: "taro wants a rematch: click Rematch to play again." in log_of(host))
    assert joiner.controller.mode is Mode.MATCH_OVER and host.rematch_link is None
    assert "Rematch: hana is still reading the result" in log_of(joiner)
    assert not panel_button(joiner).isEnabled() and panel_button(host).isEnabled()
    # her click starts it: her room opens again and taro calls it
    click(qtbot, panel_button(host))
    assert "Rematch: waiting for taro to call…" in log_of(host)
    pair.wait_for_the_toss()
    # a new session, tossed anew, on links that hold the toss for the four cards (confirmed
    # for the same key without asking again)
    assert session_id(host) == session_id(joiner) != first
    for window, peer in zip(pair.windows, peers, strict=True):
        assert window.link is not None
        assert window.link.options.hold_for_confirmation is True
        assert fingerprint(window) == peer
    assert (host.controller.me, joiner.controller.me) == (0, 1)
    assert joiner.game.side.them.name.text() == "hana"
    play_windows_by_clicks(
        qtbot, pair.windows, random.Random(8), until=lambda: actions_so_far(host) >= 4
    )
    assert all(path is not None and path.is_file() for path in first_records)


class Impostor:
    """Another installation dialling hana's rematch room: a new key under ``name``."""

    def __init__(self, name: str, port: int) -> None:
        options = PeerOptions(
            identity=Identity.generate(),
            nickname=name,
            settings=Settings(rounds=6),
            known_peers=KnownPeers(None),
            password="",
            hold_for_confirmation=True,
            dealings=APP_DEALINGS,  # the app's offer: it gets as far as the pin
        )
        self.link = QtJoin(options)
        self.heard: list[object] = []
        for signal in (self.link.failed, self.link.ended, self.link.tossed):
            signal.connect(self.heard.append)
        self.link.established.connect(lambda _peer: self.link.confirm_sas(True))
        self.link.connect_to("127.0.0.1", port)

    def turned_away(self) -> bool:
        return bool(self.heard) and not any(isinstance(h, TossDone) for h in self.heard)


@pytest.fixture
def older_lobby_pair(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LobbyPair]:
    """A lobby pair of apps from before "After the match": a click on Rematch opens the
    host's room at once, for whoever calls (the path a drop after the match takes too)."""
    monkeypatch.setattr(netlink_base, "STAY_AFTER", False)
    monkeypatch.setenv("KOIKOI_MDNS_BIND", "127.0.0.1")  # nothing heard beyond loopback
    pair = LobbyPair(qtbot, tmp_path)
    yield pair
    pair.close()


def test_a_host_s_click_is_told_and_leaving_the_result_too(
    qtbot: QtBot, lobby_pair: LobbyPair
) -> None:
    """hana clicks Rematch first: taro's table says she wants one; he goes home instead, and
    her table says he has left (no rematch is waited for)."""
    pair = lobby_pair
    host, joiner = pair.windows
    pair.play_to_the_end(seed=11)
    click(qtbot, panel_button(host))
    qtbot.waitUntil(lambda: "hana wants a rematch: click Rematch to play again." in log_of(joiner))
    assert not rematch_room_listens(host) and host.link is not None and host.link.after_open
    # a stamp still goes after the last move, from the result panel: ありがとうございました
    button = result_stamp(joiner, "Thank you for the game")
    qtbot.waitUntil(button.isEnabled, timeout=5_000)
    click(qtbot, button)
    thanks = "taro: Thank you for the game"
    qtbot.waitUntil(lambda: host.stamps.spoken[-1:] == [thanks], timeout=5_000)
    heard = host.game.overlay.findChild(QLabel, "resultStampHeard")
    assert heard is not None and heard.isVisible() and heard.text() == thanks
    joiner.go_home()
    qtbot.waitUntil(lambda: "taro has left the table." in log_of(host))
    assert not panel_button(host).isEnabled() and host.rematch_link is None
    status = host.game.overlay.findChild(QLabel, "resultStatus")
    assert status is not None and status.isVisible() and status.text() == "taro has left the table."
    assert not result_stamp(host, "Thank you for the game").isEnabled()  # nobody to send it to
    assert "Traceback" not in log_of(host)


def test_a_rematch_room_turns_a_different_key_away(
    qtbot: QtBot, older_lobby_pair: LobbyPair
) -> None:
    pair = older_lobby_pair
    host, joiner = pair.windows
    pair.play_to_the_end(seed=9)
    first = session_id(host)
    click(qtbot, panel_button(host))
    qtbot.waitUntil(lambda: rematch_room_listens(host))
    # someone else, posing as taro with another key: the pin turns them away at the door,
    # and the room waits on for the real taro
    posing = Impostor("taro", pair.port)
    qtbot.waitUntil(posing.turned_away, timeout=10_000)
    (refusal,) = posing.heard
    assert isinstance(refusal, LinkError) and refusal.kind == "refused"
    assert "differs from the one it pinned" in refusal.text
    assert host.controller.mode is Mode.MATCH_OVER and rematch_room_listens(host)
    click(qtbot, panel_button(joiner))
    pair.wait_for_the_toss()
    assert session_id(host) == session_id(joiner) != first
    assert host.peer is not None and joiner.peer is not None
    assert host.peer.nickname == "taro" and joiner.peer.nickname == "hana"
    # after this match, a newcomer (another name, another key) answers the rematch: the
    # match is not played with them, and hana reads why
    pair.play_to_the_end(seed=10)
    second = session_id(host)
    click(qtbot, panel_button(host))
    qtbot.waitUntil(lambda: rematch_room_listens(host))
    stranger = Impostor("kaze", pair.port)
    qtbot.waitUntil(stranger.turned_away, timeout=10_000)
    (ending,) = stranger.heard
    assert isinstance(ending, Ending) and (ending.how, ending.stage) == ("left", "toss")
    qtbot.waitUntil(lambda: "No rematch with taro: someone else answered" in log_of(host))
    assert host.controller.mode is Mode.MATCH_OVER and session_id(host) == second
    assert panel_button(host).isEnabled()  # Rematch can be clicked again
    assert "Traceback" not in log_of(host)
    for link in (posing.link, stranger.link):
        link.leave()


def result_stamp(window: MainWindow, words: str) -> QPushButton:
    """The stamp button with ``words`` on the match result panel."""
    strip = window.game.overlay.findChild(QWidget, "resultStamps")
    assert strip is not None, "no stamps on the result panel"
    (button,) = [b for b in strip.findChildren(QPushButton) if b.text() == words]
    return button


def log_of(window: MainWindow) -> str:
    return window.game.side.log.toPlainText()


def test_the_player_script_fails_in_one_line_when_nobody_is_there(tmp_path: Path) -> None:
    """The driver itself: a failure is one line and exit code 1, soon, not a hang."""
    joiner = start_player(tmp_path / "taro", "--role", "join", "--address", "127.0.0.1:1")
    try:
        code = joiner.wait(60)
    finally:
        joiner.kill()
    assert code == 1
    (line,) = joiner.stdout.splitlines()
    assert line.startswith(
        "app_player join: failed: AssertionError: the lobby says: Could not reach 127.0.0.1:1: "
    ), line
    assert "connection refused" in line and "Traceback" not in line
