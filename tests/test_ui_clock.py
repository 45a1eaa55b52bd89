"""The move clock at the table: two MainWindows over loopback, real widgets offscreen.

Both tables show the clock of the seat to move ("Your move — 0:42", "Waiting for hana…
0:42"), updated each second and said to a screen reader once, at 10 s left; a player whose
clock runs out gets a safe move played by their own table, in words; a peer that stays
connected but never moves can be declared, by the waiting player, to have abandoned the
match, and both records say so. Both links run on a stepped clock (tests/stepped_clock.py):
its seconds pass as the test advances it, the sockets stay real.
"""

from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.session.clock import DEFAULT_CLOCK, ClockSetting
from koikoi.net.session.events import TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.net.verify import verify_record
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.net.netlink.base import APP_DEALINGS
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests.stepped_clock import SteppedClock
from tests.test_ui_network import clock_shown, ended_message, log_text, open_window, saved_record
from tests.ui_driver import (
    actions_so_far,
    click,
    close_window,
    panel_button,
    play_windows_by_clicks,
)

STEP = 0.5
"""The stepped clock's step here: exact in binary, so its times are whole halves and a
deadline falls on a step (the clock's words count whole seconds up: 3.0000001 is 0:04)."""


def options(
    name: str,
    move_clock: float | None,
    abandon_after: float,
    dealings: tuple[str, ...] = APP_DEALINGS,
    clock: ClockSetting = DEFAULT_CLOCK,
) -> PeerOptions:
    """A side's options as the app's lobby makes them (privately dealt by default):
    ``move_clock`` seconds for each move and no reserve over the room's ``clock`` (None:
    the room's clock as agreed)."""
    return PeerOptions(
        dealings=dealings,
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        move_clock=move_clock,
        abandon_after=abandon_after,
        clock=clock,
    )


NO_CLOCK = ClockSetting(0)
"""A room with no move clock: a peer that never moves is waited for the abandon time alone
(with a clock, that counts from when the peer's clock runs out)."""


class ClockPair:
    """Host "hana" (seat 0) and joiner "taro" (seat 1), each with its own clock values."""

    def __init__(
        self,
        qtbot: QtBot,
        tmp_path: Path,
        hana: PeerOptions,
        taro: PeerOptions,
        clock: SteppedClock | None = None,
    ) -> None:
        """``clock``: both links (and with them both tables' move clocks) on a stepped
        clock, which moves only as the test advances it; None: the real clock."""
        self.qtbot = qtbot
        self.clock = clock
        self.host = open_window(qtbot, tmp_path / "hana")
        self.joiner = open_window(qtbot, tmp_path / "taro")
        if clock is None:
            self.room, self.join = QtRoom(hana), QtJoin(taro)
        else:
            self.room = QtRoom(hana, now=clock.now, timer=clock.timer)
            self.join = QtJoin(taro, now=clock.now, timer=clock.timer)
        self.room.listen("127.0.0.1", 0)
        self.room.tossed.connect(self._host_tossed)
        self.join.tossed.connect(self._joiner_tossed)
        self.join.connect_to("127.0.0.1", self.room.port)
        qtbot.waitUntil(
            lambda: all(w.controller.remote is not None for w in self.windows), timeout=20_000
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

    def to_the_table(self) -> None:
        """Both players click the toss panel away; the first oya's table waits for a move.

        About one first deal in 60 ends as it is dealt (a teyaku, or four of a month on the
        field): its result is clicked away too, on each table, until a deal is in play, its
        dealing done (privately dealt, the next deal's dealing comes after those clicks: until
        it is done a waiting table says it waits for the peer's part of the deal, not for its
        move)."""
        for window in self.windows:
            self.qtbot.waitUntil(
                lambda: window.controller.mode is Mode.FIRST_OYA,  # noqa: B023
                timeout=20_000,
            )
            click(self.qtbot, panel_button(window))

        def in_play() -> bool:
            for window in self.windows:
                if window.controller.mode is Mode.ROUND_OVER:
                    click(self.qtbot, panel_button(window))
            modes = {w.controller.mode for w in self.windows}
            return modes == {Mode.PLAY, Mode.BUSY} and not any(
                w.controller.peer_dealing() for w in self.windows
            )

        self.qtbot.waitUntil(in_play, timeout=10_000)

    def mover(self) -> tuple[MainWindow, MainWindow]:
        """(the window whose player is to move, the one waiting)."""
        host, joiner = self.windows
        return (host, joiner) if host.controller.mode is Mode.PLAY else (joiner, host)

    def close(self) -> None:
        for window in self.windows:
            close_window(window)


def left_to_move(window: MainWindow) -> list[str]:
    return [line for line in log_text(window).splitlines() if line.endswith("left to move.")]


def test_both_tables_show_the_clock_and_a_player_who_runs_out_gets_a_safe_move(
    qtbot: QtBot, tmp_path: Path
) -> None:
    clock = SteppedClock()
    pair = ClockPair(
        qtbot, tmp_path, options("hana", 20.0, 3600.0), options("taro", 20.0, 3600.0), clock
    )
    pair.to_the_table()
    mover, waiter = pair.mover()
    name = "hana" if mover is pair.host else "taro"
    moves = actions_so_far(mover)
    heard: dict[MainWindow, list[str]] = {mover: [], waiter: []}  # the sounds asked for
    for window, names in heard.items():
        window.controller.cued.connect(names.append)
    mine = mover.game.prompt.text()
    assert mine.startswith("Your move — 0:20"), mine  # the stepped clock has not moved yet
    assert left_to_move(mover) == []
    # It counts down each second on both tables, said to a screen reader only at 10 s left.
    # The waiting table runs the mover's clock from when it hears that the mover's table is
    # ready: a message's way later (here a step of the stepped clock).
    clock.advance(1.0, qtbot, STEP)  # the tables' clock ticks each second of the links'
    assert mover.game.prompt.text().startswith("Your move — 0:19"), mover.game.prompt.text()
    clock.advance(1.0, qtbot, STEP)
    assert mover.game.prompt.text().startswith("Your move — 0:18"), mover.game.prompt.text()
    # the mover's "ready" is a message on its way: under load it may take longer than the steps
    qtbot.waitUntil(
        lambda: waiter.game.prompt.text().startswith(f"Waiting for {name}… 0:"), timeout=5_000
    )
    theirs = waiter.game.prompt.text()
    assert 18 <= clock_shown(theirs) <= 19, theirs
    # not re-read every second: the instruction is its name, the clock is not in it
    assert mover.game.prompt.accessibleName() == (
        "Your turn: click a card to play it (or 1–8 and Enter)."
    )
    clock.advance(7.5, qtbot, STEP)  # 10.5 s left: not yet
    assert left_to_move(mover) == [] and "clock" not in heard[mover]
    clock.advance(1.0, qtbot, STEP)
    assert left_to_move(mover) == ["10 seconds left to move."]
    assert left_to_move(waiter) == []
    assert heard[mover] == ["clock"] and heard[waiter] == []  # heard with its words
    assert mover.controller.mode is Mode.PLAY and actions_so_far(mover) == moves
    # Its minute (here 20 s) runs out: the table plays a card for the player, in words.
    clock.advance(9.0, qtbot, STEP)  # 0.5 s left
    assert "Your time ran out" not in log_text(mover) and actions_so_far(mover) == moves
    clock.advance(1.0, qtbot, STEP)
    # the link's event, handed out on Qt's next turn (a real one)
    qtbot.waitUntil(lambda: "Your time ran out" in log_text(mover), timeout=5_000)
    said = [line for line in log_text(mover).splitlines() if "Your time ran out" in line]
    assert len(said) == 1 and said[0].startswith("Your time ran out: the table played "), said
    assert left_to_move(mover) == ["10 seconds left to move."]  # said once, not each second
    assert heard[mover].count("clock") == 1
    qtbot.waitUntil(lambda: actions_so_far(mover) > moves, timeout=10_000)
    qtbot.waitUntil(lambda: actions_so_far(waiter) > moves, timeout=10_000)
    # Play goes on, the peer's app agreeing move by move.
    play_windows_by_clicks(
        qtbot,
        pair.windows,
        random.Random(3),
        until=lambda: actions_so_far(pair.host) >= moves + 4,
    )
    for window in pair.windows:
        assert window.controller.remote is not None and window.controller.remote.ended is None
    hosted, joined = pair.room.session, pair.join.session
    assert hosted is not None and joined is not None

    def seqs() -> tuple[int, int]:
        assert hosted is not None and joined is not None
        assert hosted.lockstep is not None and joined.lockstep is not None
        return hosted.lockstep.seq, joined.lockstep.seq

    def settled() -> bool:  # the last move has arrived, and its ack too
        assert hosted is not None and joined is not None
        return seqs()[0] == seqs()[1] and not hosted.unacknowledged and not joined.unacknowledged

    qtbot.waitUntil(settled)
    # the same signed moves (a privately dealt deal in play shows each side only its own)
    assert [deal["actions"] for deal in hosted.record().to_json()["deals"]] == [
        deal["actions"] for deal in joined.record().to_json()["deals"]
    ]
    pair.close()


def test_a_peer_that_never_moves_can_be_ended_as_abandoned(qtbot: QtBot, tmp_path: Path) -> None:
    # hana walked away from her table: her app stays connected (heartbeats) but never moves
    # for her; taro may end the match after 3 s without a move (the room has no clock).
    clock = SteppedClock()
    hana = options("hana", 3600.0, 3600.0, clock=NO_CLOCK)
    pair = ClockPair(qtbot, tmp_path, hana, options("taro", None, 3.0), clock)
    host, joiner = pair.windows
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
    clock.advance(2.5, qtbot, STEP)
    assert not button.isVisible()
    clock.advance(0.5, qtbot, STEP)
    # the link's event (said in words), handed out on Qt's next turn (a real one)
    qtbot.waitUntil(lambda: "has not moved" in log_text(joiner), timeout=5_000)
    assert button.isVisible()
    prompt = joiner.game.prompt.text()
    assert prompt.startswith("hana has not moved for 0:03"), prompt
    assert prompt.endswith(": you may end the match.")
    assert button.text() == "End the match"
    assert button.accessibleName().startswith("hana has not moved for 0:0")
    assert not host.game.side.abandon_button.isVisible()  # hana is the one to move
    said = [line for line in log_text(joiner).splitlines() if "has not moved" in line]
    assert len(said) == 1, said  # said once, in words, for a screen reader too
    assert said[0] == "hana has not moved for 3 seconds: you may end the match.", said
    # The player decides: nothing ends by itself, not in 10 s more (less than the silence
    # timeout, so no heartbeat late in real time can end it either).
    clock.advance(10.0, qtbot, STEP)
    assert joiner.controller.remote is not None and joiner.controller.remote.ended is None
    click(qtbot, button)
    box = ended_message(qtbot, joiner)
    assert box.text() == "hana did not move for too long: you ended the match."
    told = ended_message(qtbot, host)
    assert told.text() == "You did not move for too long: taro ended the match."
    assert not button.isVisible()
    for window in pair.windows:
        record = saved_record(window)
        end = record["end"]
        assert end["how"] == "abandoned" and end["finished"] is False
        assert end["role"] == "host" and end["by"] == 0  # hana abandoned, not taro "left"
        assert verify_record(record).to_json()["valid"] is True
    assert "it abandoned the match" in saved_record(joiner)["end"]["reason"]
    for window, message in ((joiner, box), (host, told)):
        click(qtbot, message.button(QMessageBox.StandardButton.Ok))
        qtbot.waitUntil(lambda: window.stack.currentWidget() is window.start)  # noqa: B023
    pair.close()


def test_the_clock_waits_while_the_coin_toss_panel_is_up_and_runs_once_the_table_is_ready(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Nobody clicks the coin-toss panel away: the first oya's clock does not run (the
    time its table is not ready is the peer's to wait, not the player's to lose). Once the
    panel is clicked away and the deal shown, the oya has the whole clock."""
    clock = SteppedClock()
    pair = ClockPair(
        qtbot, tmp_path, options("hana", 3.0, 3600.0), options("taro", 3.0, 3600.0), clock
    )
    sessions = [pair.room.session, pair.join.session]
    assert all(s is not None and s.lockstep is not None for s in sessions)
    for window in pair.windows:
        qtbot.waitUntil(lambda: window.controller.mode is Mode.FIRST_OYA, timeout=20_000)  # noqa: B023
    clock.advance(30.0, qtbot, STEP)  # ten times the clock, the panel still up
    assert [w for w in pair.windows if "Your time ran out" in log_text(w)] == []
    assert all(s is not None and s.lockstep is not None and s.lockstep.seq == 0 for s in sessions)
    pair.to_the_table()
    mover, waiter = pair.mover()
    assert mover.game.prompt.text().startswith("Your move — 0:03"), mover.game.prompt.text()
    clock.advance(2.5, qtbot, STEP)
    assert "Your time ran out" not in log_text(mover)
    clock.advance(1.0, qtbot, STEP)
    qtbot.waitUntil(lambda: "Your time ran out" in log_text(mover), timeout=5_000)
    qtbot.waitUntil(lambda: actions_so_far(waiter) == actions_so_far(mover) > 0, timeout=10_000)
    pair.close()
