"""The failure paths in Japanese, each made to happen for real: a connection refused, a name
not found, a network unreachable, nobody answering; the rooms that cannot be listed or
announced; the connections a room turns away; a peer's illegal move; a signed record that does
not check. No English reaches the window; the system's own words go to the log."""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from koikoi.engine.round import play
from koikoi.net.lockstep import encode_entry, signed_data
from koikoi.net.wire import encode_message
from koikoi.ui.common import names
from koikoi.ui.common.settings import AppSettings, open_qsettings
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.net.neterrors import error_detail, move_problem
from koikoi.ui.net.netlink.base import LinkError
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.prematch import failure_text
from koikoi.ui.replay.history import verdict_of
from tests.conftest import REPO
from tests.test_net_discovery_netns import no_multicast  # noqa: F401  (the namespaces)
from tests.test_net_netns import Namespaces, _skip_reason
from tests.test_ui_i18n import ALLOWED, NOT_WORDS, _texts, english_words
from tests.test_ui_lobby import both_at_the_cards, close_lobby, make_lobby, open_room
from tests.test_ui_network import Pair, ended_message, mid_round, options
from tests.test_ui_viewer import net_record, open_viewer  # noqa: F401  (a fixture)


def english_in(text: str) -> list[str]:
    """The Latin words of ``text`` a Japanese screen may not show (as ``english_words``)."""
    return sorted(set(re.findall(r"[A-Za-z]{2,}", text)) - ALLOWED)


def english_words_but(widget: QWidget, *own: str) -> list[str]:
    """``english_words`` of ``widget``, but for the words of ``own`` (what the player wrote)."""
    theirs = {w for text in own for w in re.findall(r"[A-Za-z]{2,}", text)}
    found = []
    for where, shown in _texts(widget):
        words = set(english_in(NOT_WORDS.sub(" ", shown))) - theirs
        if words:
            found.append(f"{where}: {sorted(words)} in {shown!r}")
    return found


def closed_port() -> int:
    """A loopback port nothing listens on (it was just given back)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- dialling a room that is not there ------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "said"),
    [
        (None, "そのアドレスとポートで待っている部屋がありません"),  # refused
        ("no-such-host.invalid:4000", "その名前のコンピューターが見つかりません"),  # DNS
        ("255.255.255.255:4000", "このネットワークからはそのアドレスに届きません"),  # unreachable
    ],
    ids=["refused", "dns", "unreachable"],
)
def test_a_connection_the_system_refuses_is_said_in_japanese(
    qtbot: QtBot,
    tmp_path: Path,
    japanese: None,
    caplog: pytest.LogCaptureFixture,
    address: str | None,
    said: str,
) -> None:
    """The lobby's message is a Japanese sentence; the system's own words (Qt's, which may be
    English) are in the log, not the window."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    guest = make_lobby(qtbot, tmp_path, "guest", "つき")
    try:
        target = address or f"127.0.0.1:{closed_port()}"
        guest.address.setText(target)
        guest.address_button.click()
        qtbot.waitUntil(
            lambda: guest.failure is not None and guest.message.isVisible(), timeout=20_000
        )
        assert guest.failure is not None and guest.failure.kind == "connect"
        text = guest.message.text()
        assert said in text, text
        problems = english_words_but(guest, target)  # the address as the player wrote it
        assert not problems, problems
        assert f"cannot connect to {guest.failure.address}" in caplog.text  # kept for the log
    finally:
        close_lobby(qtbot, guest)


def test_nobody_answering_is_said_in_japanese(
    qtbot: QtBot, japanese: None, caplog: pytest.LogCaptureFixture
) -> None:
    """A room whose queue of connections is full never answers a new one (its SYN is
    dropped): the join gives up at its time limit, in words."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    full = socket.socket()
    full.bind(("127.0.0.1", 0))
    full.listen(0)
    port = full.getsockname()[1]
    queued = [socket.socket() for _ in range(4)]
    for s in queued:
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))  # fill the accept queue, never accepted
    join = QtJoin(options("つき", timeout=1.0))
    failures: list[LinkError] = []
    join.failed.connect(failures.append)
    try:
        join.connect_to("127.0.0.1", port)
        qtbot.waitUntil(lambda: bool(failures), timeout=10_000)
        (failure,) = failures
        assert failure.kind == "connect" and "no answer within 1 s" in failure.text
        assert error_detail(failure.error, failure.text) == "1秒待っても応答がありませんでした"
        text = failure_text(failure)
        assert text.startswith(f"127.0.0.1:{port}から時間内に応答がありませんでした"), text
        assert english_in(text) == [], text
        assert "no answer within 1 s" in caplog.text
    finally:
        join.leave()
        for s in [*queued, full]:
            s.close()


# -- the rooms that cannot be listed or announced ----------------------------------------------


def test_rooms_that_cannot_be_listed_are_said_in_japanese(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    """Browsing on an address this machine does not have: no interface for mDNS."""
    lobby = Lobby(AppSettings(open_qsettings()), home=tmp_path / "x", bind="192.0.2.77")
    qtbot.addWidget(lobby)
    lobby.show()
    try:
        qtbot.waitUntil(lambda: lobby.finder.failure is not None, timeout=10_000)
        qtbot.waitUntil(lobby.empty.isVisible)
        text = lobby.empty.text()
        assert "このコンピューターには192.0.2.77というアドレスのネットワークがありません" in text
        assert "アドレスで入ることはできます" in text
        assert not english_words(lobby), english_words(lobby)
    finally:
        close_lobby(qtbot, lobby)


NO_MULTICAST_LOBBY = """
import json, sys, time
from pathlib import Path
from PySide6.QtWidgets import QApplication
from koikoi.ui.common import names
from koikoi.ui.lobby.lobby import Lobby
from koikoi.ui.common.settings import AppSettings

app = QApplication([])
names.install_translations("ja")
lobby = Lobby(AppSettings(), home=Path(sys.argv[1]))  # every interface, as a player's lobby does
lobby.show()

def wait(done):
    deadline = time.monotonic() + 30
    while not done() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)

wait(lambda: lobby.finder.failure is not None)
listed = lobby.empty.text()
lobby.nickname.setText("はな")
lobby.room_title.setText("金曜の花札")
lobby.create_button.click()
wait(lambda: lobby.announcer is not None and lobby.announcer.state == "failed")
app.processEvents()
said = {"listed": listed, "announced": lobby.waiting_state.text(), "message": lobby.message.text()}
print(json.dumps(said))
lobby.shutdown()
"""


@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_without_multicast_the_japanese_lobby_says_why_in_japanese(
    no_multicast: Namespaces,  # noqa: F811
    tmp_path: Path,
) -> None:
    """In a network namespace whose link cannot multicast, a Japanese lobby (a process of its
    own in it) can neither list rooms nor announce its own, and says so in Japanese."""
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        ["ip", "netns", "exec", no_multicast.joiner, sys.executable, "-c", NO_MULTICAST_LOBBY]
        + [str(tmp_path / "lobby")],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    multicast = "このコンピューターにはマルチキャストを送れるネットワークがありません"
    assert said["listed"].startswith(f"部屋の一覧を出せません：{multicast}。"), said
    assert multicast in said["announced"], said
    assert english_in(said["listed"] + said["announced"]) == [], said


# -- the connections a room turns away -----------------------------------------------------------


def test_a_room_says_in_japanese_whom_it_turned_away_and_why(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    """A connection that says nothing is dropped when its first message is overdue; a third
    player is turned away while the room is at the cards."""
    host = make_lobby(qtbot, tmp_path, "host", "はな")
    guest = make_lobby(qtbot, tmp_path, "guest", "つき")
    third = make_lobby(qtbot, tmp_path, "third", "かぜ")
    silent = socket.socket()
    try:
        open_room(host, "金曜の花札")
        port = host.room.port  # type: ignore[union-attr]
        silent.connect(("127.0.0.1", port))
        qtbot.waitUntil(lambda: bool(host.turned_away.text()), timeout=10_000)
        text = host.turned_away.text()
        assert text.endswith("をお断りしました：時間内に接続の準備が終わりませんでした"), text
        assert not english_words(host), english_words(host)
        guest.address.setText(f"127.0.0.1:{port}")
        guest.address_button.click()
        both_at_the_cards(qtbot, host, guest)
        third.address.setText(f"127.0.0.1:{port}")
        third.address_button.click()
        qtbot.waitUntil(lambda: third.message.isVisible(), timeout=10_000)
        qtbot.waitUntil(lambda: "対戦中です" in host.turned_away.text(), timeout=10_000)
        assert third.message.text() == QCoreApplication.translate(
            "Prematch", "The room is already playing with someone else."
        )
        problems = english_words(host) + english_words(third)
        assert not problems, problems
    finally:
        silent.close()
        for lobby in (third, guest, host):
            close_lobby(qtbot, lobby)


# -- a move that does not check ---------------------------------------------------------------


def test_an_illegal_move_ends_the_match_with_its_rule_in_japanese(
    qtbot: QtBot, tmp_path: Path, japanese: None
) -> None:
    """hana's app sends a move its player could not make (a card of taro's hand), signed as
    any move is: taro's app stops the match and names the rule, in Japanese."""
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        mid_round(pair, joiner)
        link = pair.room.match
        assert link is not None and link.connection is not None
        session = link.connection.session
        assert session is not None and session.lockstep is not None
        lockstep = session.lockstep
        rnd = lockstep.match.round
        assert rnd is not None
        not_hers = next(c for c in range(48) if rnd.hands[1] >> c & 1)
        raw = encode_entry(lockstep.seq, lockstep.prev_hash, play(not_hers), bytes(32))
        signature = session.identity.sign(signed_data(raw))
        session._send(encode_message("move", entry=raw, sig=signature))
        link._process([])  # the bytes go out as any move's would
        box = ended_message(qtbot, joiner)
        move = lockstep.seq + 1
        assert box.text().startswith("対戦を止めました：hanaさんの手が確認できませんでした（"), (
            box.text()
        )
        assert f"{move}手目：ルールで許されない手（ルールR5.1：手札から札を1枚出さ" in box.text()
        assert not english_words(box), english_words(box)
    finally:
        pair.close()


def test_a_record_that_does_not_check_is_said_in_japanese(
    qtbot: QtBot,
    net_record: dict[str, Any],  # noqa: F811
    tmp_path: Path,
    japanese: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The viewer of a signed record whose move carries another move's signature says which
    move and why, in Japanese; verify's own words go to the log."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    changed = copy.deepcopy(net_record)
    actions = changed["deals"][1]["actions"]
    first, second = [i for i, a in enumerate(actions) if "play" in a][:2]
    actions[second]["sig"] = actions[first]["sig"]
    viewer = open_viewer(qtbot, changed, tmp_path / "net-20261130-120000-seat1.json")
    text = viewer.verified.text()
    assert re.fullmatch(
        r"署名付きの記録が確認できません：2回目の配りの\d+手目：署名が正しくありません", text
    ), text
    problems = english_words_but(viewer, "test")  # the name open_viewer gives the record
    assert not problems, problems
    reason = verdict_of(changed)
    assert reason is not None and reason.reason in caplog.text


def test_every_reason_verify_and_the_session_give_is_worded_in_japanese(
    japanese: None,
) -> None:
    """Each line ``koikoi verify`` and a session's cheat check can give, in Japanese."""
    where = "deal 1 action 4 (move 9, seat 0 play matsu_crane): "
    lines = {
        where + "illegal move: R5.3 missing pick": "2回目の配りの10手目：ルールで許されない手",
        where + "illegal move: R9.9 something": "（ルールR9.9）",
        where + "the peer moved without acknowledging move 8": "9手目の確認を返さないまま",
        where + "sequence number 3 where 9 is due: a replayed": "10番目の手のところに4番目",
        where + "the entry does not chain to the previous one (prev_hash differs)": "つながって",
        where + "the peer's signature over the entry does not verify": "署名が正しくありません",
        where + "the state hash differs: the two engines disagree": "状態が食い違い",
        where + "the signed entry holds 'koikoi', not the action shown": "署名された手が",
        where + "the action has no signed log entry ('entry' and 'sig')": "署名がありません",
        where + "the acknowledgement is malformed: x": "確認のデータが読めません",
        where + "the acknowledgement does not name this entry (x)": "別の手",
        where
        + "the acknowledgement's signature does not verify against seat 1's key": "確認の署名",
        where + "log entry: not in shortest-form msgpack": "記録が壊れているか",
        "deal 2 action -: a deal the moves before it do not reach": "3回目の配り：それまでの手",
        "deal 0 action -: the cards are not the deal the joint seed gives": "コイントス",
        "deal 0 action 3: the deal's round had already ended": "1回目の配り：その回は",
        "the peer's acknowledgement of move 4: it acknowledges move 2": "5手目の確認が正しく",
        "cheat: the host's coin-toss reveal does not match its commitment": "約束した値",
        "coin toss: the host's random does not match its commitment": "約束した値",
        "coin toss: first_oya is 1, the toss gives 0": "コイントスの結果が記録と合いません",
        "the record carries no handshake signatures (net.handshake): nothing": "接続時の署名",
        "handshake: the host's key (ab3d-ef12) did not sign this session": "鍵の署名",
        "the record has deals but no coin toss (net.toss)": "記録にコイントスがありません",
        "the record says the match finished, but its moves do not end it": "対戦が終わった",
        "the record carries no network signatures (no 'net' key)": "ネットワーク対戦の署名",
        "net.protocol is 'koikoi-net/9', not 'koikoi-net/2'": "読めない通信方式",
        "net.players[0].key is not valid base64": "記録が壊れているか",
    }
    for english, said in lines.items():
        text = move_problem(english)
        assert said in text, (english, text)
        assert english_in(text) == [], (english, text)
    names.install_translations("en")
    assert move_problem(where + "illegal move: R5.3 x") == where + "illegal move: R5.3 x"
