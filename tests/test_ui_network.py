"""A network match at the table: two MainWindows in one process over loopback, each seat
played by clicks, host in seat 0 and joiner in seat 1.

The links are set up directly with ``koikoi.ui.net.netlink`` (the lobby is another screen's
work); each window takes its match over with ``start_network_match`` when its link reports
``tossed``, as the lobby does.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox, QPushButton
from pytestqt.exceptions import TimeoutError as QtWaitTimeout
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.session.core import Session
from koikoi.net.session.events import TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.net.verify import verify_record
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.match.saves import SaveStore, kept_matches
from koikoi.ui.net.netlink.base import PeerInfo
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests.ui_driver import (
    FAST,
    StallMeter,
    actions_so_far,
    click,
    close_window,
    find_card,
    panel_button,
    play_windows_by_clicks,
)


def options(name: str, rounds: int = 6, timeout: float = 15.0) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(rounds=rounds),
        known_peers=KnownPeers(None),
        password="",
        silence_timeout=timeout,
    )


def open_window(qtbot: QtBot, home: Path) -> MainWindow:
    window = MainWindow(saves=SaveStore(home), timings=FAST)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


class Pair:
    """A host window (seat 0, "hana") and a joiner window (seat 1, "taro") in one match."""

    def __init__(self, qtbot: QtBot, tmp_path: Path, rounds: int = 6) -> None:
        self.qtbot = qtbot
        self.host = open_window(qtbot, tmp_path / "hana")
        self.joiner = open_window(qtbot, tmp_path / "taro")
        self.room = QtRoom(options("hana", rounds))
        self.room.listen("127.0.0.1", 0)
        self.join = QtJoin(options("taro", rounds))
        self.room.tossed.connect(self._host_tossed)
        self.join.tossed.connect(self._joiner_tossed)
        self.join.connect_to("127.0.0.1", self.room.port)
        qtbot.waitUntil(
            lambda: (
                self.host.controller.remote is not None
                and self.joiner.controller.remote is not None
            ),
            timeout=20_000,
        )

    def _host_tossed(self, toss: TossDone) -> None:
        link = self.room.match
        assert link is not None and link.peer is not None
        self.host.start_network_match(self.room, link.peer, toss)

    def _joiner_tossed(self, toss: TossDone) -> None:
        assert self.join.peer is not None
        self.joiner.start_network_match(self.join, self.join.peer, toss)

    @property
    def windows(self) -> list[MainWindow]:
        return [self.host, self.joiner]

    def close(self) -> None:
        for window in self.windows:
            close_window(window)


def at_the_toss(window: MainWindow) -> Callable[[], bool]:
    """For a wait in a loop: ``window`` shows the coin toss (the window bound now)."""
    return lambda: window.controller.mode is Mode.FIRST_OYA


def session_of(window: MainWindow) -> Session:
    link = window.link
    assert link is not None and link.session is not None  # a network match is on
    return link.session


def entries_of(link: QtRoom | QtJoin) -> int:
    """How many entries the session of ``link`` has in its log (0 before it has one)."""
    session = link.session
    lockstep = None if session is None else session.lockstep
    return 0 if lockstep is None else lockstep.seq


def log_text(window: MainWindow) -> str:
    return window.game.side.log.toPlainText()


def saved_record(window: MainWindow) -> dict[str, Any]:
    path = window.net_record
    assert path is not None and path.name.startswith("net-") and path.is_file()
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def check_joiner_table(window: MainWindow) -> None:
    """The joiner's own hand is at the bottom, face up; the host's cards are backs on top."""
    c = window.controller
    model = window.game.table.model
    assert c.me == 1 and model.me == 1
    obs = c.observation()
    if c.mode is Mode.PLAY and obs is not None:
        assert sum(1 << card for card in model.hand) == obs.hand
        table = window.game.table
        for card in model.hand:
            w = find_card(window, card)
            assert w.geometry().center().y() > table.height() * 0.6, "the hand is not at the bottom"


def clock_shown(text: str) -> int:
    """The seconds a prompt's clock shows (``… 0:19`` or ``… 0:19 (+5:00)``)."""
    minutes, seconds = re.search(r"(\d+):(\d\d)", text).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


def test_two_windows_play_a_whole_network_match_by_clicks(qtbot: QtBot, tmp_path: Path) -> None:
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    # the coin toss is shown as a toss on both screens, naming who won the first oya
    for window, other in ((host, "taro"), (joiner, "hana")):
        qtbot.waitUntil(at_the_toss(window), timeout=5000)
        panel = window.game.overlay.panel
        assert panel is not None and panel.accessibleName() == "Coin toss"
        toss = window.controller.toss
        assert toss is not None and toss.result is not None  # shown once it is known
        oya = toss.result.first_oya
        outcome = panel.result_label.text()  # type: ignore[attr-defined]
        if oya == window.controller.me:
            assert outcome == "The toss makes you oya (親): you play first."
        else:
            assert outcome == f"The toss makes {other} oya (親): {other} plays first."
    assert host.controller.me == 0 and joiner.controller.me == 1
    assert host.game.side.them.name.text() == "taro"
    assert joiner.game.side.them.name.text() == "hana"
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(5),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in pair.windows),
        check=lambda w: check_joiner_table(w) if w is joiner else None,
    )
    qtbot.waitUntil(lambda: host.net_record is not None and joiner.net_record is not None)
    records = [saved_record(w) for w in pair.windows]
    for record in records:
        report = verify_record(record)
        assert report.to_json()["valid"] is True and report.result["finished"] is True
    assert records[0]["deals"] == records[1]["deals"]
    # narration from either seat names the opponent, and never "the computer"
    for window, other in ((host, "taro"), (joiner, "hana")):
        text = log_text(window)
        assert "computer" not in text.lower()
        assert f"{other} played " in text and "You played " in text
    # the match result from each seat: the player's own points first
    assert host.controller.match is not None and joiner.controller.match is not None
    scores = host.controller.match.scores
    assert joiner.controller.match.scores == scores
    # both games are listed on the start screen, marked as network games
    for window, other in ((host, "taro"), (joiner, "hana")):
        kept = kept_matches(window.saves)
        assert [k.opponent for k in kept] == [other]
        assert kept[0].network and kept[0].finished
    # back to the start (no question: the match is over), where it is listed
    click(qtbot, panel_button(host, "home"))
    qtbot.waitUntil(lambda: host.stack.currentWidget() is host.start)
    assert host.question is None and not pair.room.listening  # no rematch: the room is closed
    listed = host.start.kept_list.item(0).text()
    assert listed.startswith("Network game vs taro · ") and listed.endswith(" · finished")
    mine, theirs = host.controller.match.scores
    assert f" · {mine}–{theirs} · " in listed
    assert not host.start.take_back_button.isVisible()
    pair.close()


def mid_round(pair: Pair, waiting: MainWindow) -> None:
    """Click both windows until a few moves are in and ``waiting`` waits for the other, in a
    round both play, having shown every move it was sent. The deals are random (each app's
    own secrets): a round can be over within those moves, and ``waiting`` may still be
    showing its last moves (or its result) while the other already plays the next round, so
    ``waiting`` must have caught up. Shobu at once keeps the stakes small, so the match is not
    over first (a match over there would leave nothing to wait for)."""
    other = pair.joiner if waiting is pair.host else pair.host

    def over() -> bool:
        return any(w.controller.mode is Mode.MATCH_OVER for w in pair.windows)

    def caught_up() -> bool:
        c, o = waiting.controller, other.controller
        if c.remote is None or o.remote is None:
            return False
        assert c.remote.session is not None and o.remote.session is not None  # a match on
        mine, theirs = c.remote.session.lockstep, o.remote.session.lockstep
        return (
            mine is not None
            and theirs is not None
            and mine.seq == theirs.seq
            and not c._queue
            and not c._pump_timer.isActive()
        )

    def waits_for_other() -> bool:
        c = waiting.controller
        return c.mode is Mode.BUSY and c.waiting_since is not None and caught_up()

    def let_it_catch_up(window: MainWindow) -> None:
        # the other window is about to play: the waiting one may still be showing the moves
        # it was sent, and under load the other's click always came first (a whole match
        # without the moment, series run 5 of 20e4988); give it that moment
        if window is other and actions_so_far(waiting) >= 6 and other.controller.mode is Mode.PLAY:
            with contextlib.suppress(QtWaitTimeout):
                pair.qtbot.waitUntil(waits_for_other, timeout=5_000)

    play_windows_by_clicks(
        pair.qtbot,
        pair.windows,
        random.Random(11),
        until=lambda: (
            over()
            or (
                actions_so_far(waiting) >= 6
                and other.controller.mode is Mode.PLAY
                and waits_for_other()
            )
        ),
        koikoi_rate=0.0,
        check=let_it_catch_up,
    )
    assert not over(), "the match was over before a round was under way"


def ended_message(qtbot: QtBot, window: MainWindow) -> QMessageBox:
    qtbot.waitUntil(lambda: window.net_message is not None, timeout=20_000)
    box = window.net_message
    assert box is not None and box.isVisible()
    return box


def test_the_peer_dropping_mid_round_is_told_in_words(qtbot: QtBot, tmp_path: Path) -> None:
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    mid_round(pair, joiner)
    # the joiner waits for hana, her move clock counting down, and the window stays live
    meter = StallMeter()
    meter.start()
    qtbot.wait(1300)
    meter.stop()
    prompt = joiner.game.prompt.text()
    assert prompt.startswith("Waiting for hana… 0:"), prompt
    assert clock_shown(prompt) <= 59, prompt
    assert meter.largest_busy < 0.1, f"the UI thread stalled: {meter.summary()}"
    # hana's app goes away without a word: its socket is gone
    link = pair.room.match
    assert link is not None and link.socket is not None
    link.socket.abort()
    box = ended_message(qtbot, joiner)
    assert box.text().startswith("The connection to hana was lost")
    assert "Traceback" not in box.text() + box.informativeText()
    record = saved_record(joiner)
    assert record["end"]["how"] == "dropped" and record["end"]["finished"] is False
    assert verify_record(record).to_json()["valid"] is True
    assert joiner.net_record is not None and joiner.net_record.name in box.informativeText()
    ok = box.button(QMessageBox.StandardButton.Ok)
    click(qtbot, ok)
    qtbot.waitUntil(lambda: joiner.stack.currentWidget() is joiner.start)
    kept = kept_matches(joiner.saves)
    assert [(k.opponent, k.finished) for k in kept] == [("hana", False)]
    pair.close()


def test_leaving_is_confirmed_and_the_peer_is_told(qtbot: QtBot, tmp_path: Path) -> None:
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    mid_round(pair, host)
    click(qtbot, joiner.game.side.menu_button)
    qtbot.waitUntil(lambda: joiner.question is not None)
    box = joiner.question
    assert box is not None and box.text() == "Leave the match with hana?"
    # keep playing first: nothing happens
    keep = box.findChild(QPushButton, "keepPlaying")
    assert keep is not None
    click(qtbot, keep)
    qtbot.waitUntil(lambda: joiner.question is None)
    assert joiner.controller.remote is not None and joiner.controller.remote.ended is None
    click(qtbot, joiner.game.side.menu_button)
    qtbot.waitUntil(lambda: joiner.question is not None)
    assert joiner.question is not None
    leave = joiner.question.findChild(QPushButton, "leave")
    assert leave is not None
    click(qtbot, leave)
    qtbot.waitUntil(lambda: joiner.stack.currentWidget() is joiner.start, timeout=10_000)
    assert joiner.start.notice.text().startswith("You left the match with hana.")
    told = ended_message(qtbot, host)
    assert told.text() == "taro left the match."
    for window in pair.windows:
        record = saved_record(window)
        assert record["end"]["how"] == "left" and record["end"]["role"] == "joiner"
        assert verify_record(record).to_json()["valid"] is True
    click(qtbot, told.button(QMessageBox.StandardButton.Ok))
    qtbot.waitUntil(lambda: host.stack.currentWidget() is host.start)
    # a practice match after it: the computer again, the player in seat 0
    joiner.start_practice(Settings(6, True), "easy", True, b"after-a-network-match-0000000001")
    qtbot.waitUntil(lambda: joiner.controller.mode is Mode.FIRST_OYA)
    click(qtbot, panel_button(joiner))
    qtbot.waitUntil(lambda: joiner.controller.mode in (Mode.PLAY, Mode.BUSY, Mode.ROUND_OVER))
    c = joiner.controller
    assert c.me == 0 and c.remote is None and joiner.game.table.model.me == 0
    assert joiner.game.side.them.name.text() == "コンピューター Computer"
    qtbot.waitUntil(lambda: c.mode is Mode.PLAY or c.mode is Mode.ROUND_OVER, timeout=20_000)
    if c.mode is Mode.PLAY:
        obs = c.observation(0)
        assert obs is not None  # a practice match in play
        assert sum(1 << card for card in joiner.game.table.model.hand) == obs.hand
    assert joiner.game.side.rules.text().endswith("computer: easy")
    pair.close()


def test_a_rematch_is_a_new_session_and_a_new_toss(qtbot: QtBot, tmp_path: Path) -> None:
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(3),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in pair.windows),
    )
    qtbot.waitUntil(lambda: host.net_record is not None and joiner.net_record is not None)
    first = [w.net_record for w in pair.windows]
    sessions = [session_of(w).session_id for w in pair.windows]
    # the joiner clicks Rematch first: it redials until the host is back
    click(qtbot, panel_button(joiner))
    qtbot.wait(400)
    assert joiner.controller.mode is Mode.MATCH_OVER  # still waiting for hana
    assert "Rematch: calling hana again…" in log_text(joiner)
    click(qtbot, panel_button(host))
    for window in pair.windows:
        qtbot.waitUntil(at_the_toss(window), timeout=20_000)
        panel = window.game.overlay.panel
        assert panel is not None and panel.accessibleName() == "Coin toss"
    new_sessions = [session_of(w).session_id for w in pair.windows]
    assert new_sessions[0] == new_sessions[1] and new_sessions[0] != sessions[0]
    assert host.controller.me == 0 and joiner.controller.me == 1
    assert joiner.game.side.them.name.text() == "hana"
    # and the rematch plays: a round's first moves by clicks on both sides (or the whole
    # match, once in a long while over within them: a teyaku, a doubled win of the stake)
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(4),
        until=lambda: actions_so_far(host) >= 4 or host.controller.mode is Mode.MATCH_OVER,
    )
    assert all(path is not None and path.is_file() for path in first)  # the first records stay
    pair.close()


def test_a_cheat_is_caught_and_told_on_both_sides(qtbot: QtBot, tmp_path: Path) -> None:
    from koikoi.net.wire import encode_message

    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    mid_round(pair, joiner)
    # hana's app sends a move whose signature does not verify (a tampered log entry)
    link = pair.room.match
    assert link is not None and link.connection is not None
    session = link.connection.session
    assert session is not None
    session._send(encode_message("move", entry=b"\x00" * 40, sig=b"\x00" * 64))
    link._process([])  # the bytes go out as any move's would
    box = ended_message(qtbot, joiner)
    assert box.text().startswith("The match was stopped: a move from hana did not check (")
    assert box.icon() is QMessageBox.Icon.Warning
    record = saved_record(joiner)
    assert record["end"]["how"] == "cheat" and record["end"]["role"] == "host"
    told = ended_message(qtbot, host)
    assert told.text().startswith("taro's app stopped the match: it caught a cheat")
    assert saved_record(host)["end"]["how"] == "stopped"
    for b in (box, told):
        assert "Traceback" not in b.text() + b.informativeText()
    pair.close()


def test_the_joiner_plays_a_round_by_keys(qtbot: QtBot, tmp_path: Path) -> None:
    """The keyboard's select-then-take and the R5.5 wait work from seat 1 over the network."""
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows

    def played_out() -> bool:
        # a round that ended as it was dealt (a teyaku, or four of a month on the field:
        # about one deal in 60) had no moves, and one can end at the oya's first turn (a
        # moon and the sake cup taken at once, then shobu): its result is clicked away, the
        # next played, until each side has played a card
        record = joiner.controller.record
        return (
            joiner.controller.summary is not None
            and record is not None
            and {a["seat"] for deal in record.deals for a in deal.actions if "play" in a} == {0, 1}
        )

    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(22),
        until=played_out,
        check=lambda w: check_joiner_table(w) if w is joiner else None,
        by_keys=(joiner,),
    )
    assert "You played " in log_text(joiner) and "hana played " in log_text(joiner)
    assert joiner.controller.mode is Mode.ROUND_OVER
    assert joiner.controller.match is not None and joiner.controller.match.history
    pair.close()


class LatePair(Pair):
    """As :class:`Pair`, but the window that is not oya takes its match over only when told:
    its peer may have moved by then (a busy machine, a slow window)."""

    def __init__(self, qtbot: QtBot, tmp_path: Path) -> None:
        self.held: dict[int, tuple[MainWindow, QtRoom | QtJoin, PeerInfo, TossDone]] = {}
        self.qtbot = qtbot
        self.host = open_window(qtbot, tmp_path / "hana")
        self.joiner = open_window(qtbot, tmp_path / "taro")
        self.room = QtRoom(options("hana"))
        self.room.listen("127.0.0.1", 0)
        self.join = QtJoin(options("taro"))
        self.room.tossed.connect(self._host_tossed)
        self.join.tossed.connect(self._joiner_tossed)
        self.join.connect_to("127.0.0.1", self.room.port)
        qtbot.waitUntil(lambda: len(self.held) == 2, timeout=20_000)

    def _host_tossed(self, toss: TossDone) -> None:
        link = self.room.match
        assert link is not None and link.peer is not None
        self.held[0] = (self.host, self.room, link.peer, toss)

    def _joiner_tossed(self, toss: TossDone) -> None:
        assert self.join.peer is not None
        self.held[1] = (self.joiner, self.join, self.join.peer, toss)

    def take_over(self, seat: int) -> None:
        window, link, peer, toss = self.held[seat]
        window.start_network_match(link, peer, toss)


def test_a_window_that_takes_over_after_the_peer_moved_still_shows_the_toss_then_the_table(
    qtbot: QtBot, tmp_path: Path
) -> None:
    for attempt in range(5):
        pair = LatePair(qtbot, tmp_path / str(attempt))
        session = pair.room.session
        assert session is not None and session.lockstep is not None
        if not session.lockstep.match.history:
            break
        # its first deal ended as it was dealt (a teyaku, or four of a month on the field:
        # about one in 60): the oya has no first turn to play before the other window takes
        # its match over, the premise here; another match is dealt
        for link in (pair.room, pair.join):
            link.leave()
        pair.close()
    else:
        raise AssertionError("five first deals in a row ended as they were dealt")
    toss = pair.held[0][3].result
    assert toss is not None  # a toss is done once its outcome is known
    oya = toss.first_oya
    quick, late = pair.windows[oya], pair.windows[1 - oya]
    pair.take_over(oya)
    qtbot.waitUntil(lambda: quick.controller.mode is Mode.FIRST_OYA, timeout=5000)
    click(qtbot, panel_button(quick))
    late_link = pair.held[1 - oya][1]

    def turn_over() -> bool:
        """The oya's whole turn is played and has reached the other side's link: its play,
        a pick of two matches, a pick for its drawn card, a koikoi (the deal goes on)."""
        lockstep = session_of(quick).lockstep
        return (
            lockstep is not None
            and lockstep.turn == 1 - oya
            and entries_of(late_link) == lockstep.seq
        )

    # the oya plays its first turn before the other window has taken its match over (the
    # whole turn: a turn stopped after its play would leave the oya to pick, and the other
    # side never to play, one deal in five)
    play_windows_by_clicks(qtbot, [quick], random.Random(3), until=turn_over, koikoi_rate=1.0)
    pair.take_over(1 - oya)
    assert late.controller.mode is Mode.FIRST_OYA  # the toss first, as for the quick side
    panel = late.game.overlay.panel
    assert panel is not None and panel.accessibleName() == "Coin toss"
    click(qtbot, panel_button(late))
    # then the deal and the peer's moves, up to the table as it stands: the late side's turn
    qtbot.waitUntil(lambda: late.controller.mode is Mode.PLAY, timeout=10_000)
    obs = late.controller.observation()
    model = late.game.table.model
    assert obs is not None
    assert sum(1 << card for card in model.hand) == obs.hand
    assert sum(1 << c for c in model.field if c is not None) == obs.field
    assert sum(1 << c for c in model.captured[oya]) == obs.captured[oya]
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(4),
        until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in pair.windows),
    )
    qtbot.waitUntil(lambda: all(w.net_record is not None for w in pair.windows))
    records = [saved_record(w) for w in pair.windows]
    assert records[0]["deals"] == records[1]["deals"]
    pair.close()
