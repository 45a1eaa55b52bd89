"""A join that gets no answer says so in words, second by second, until it gives up.

A real lobby offscreen dials a listening socket on loopback that accepts the connection and
never says a word (a room whose window hangs, say). The waiting page said "Connecting…" for
the whole handshake time limit, 15 s, the same words as before the connection was even made;
now it says the room was reached and is checking the player, then, after
:data:`~koikoi.ui.lobby.lobby.SILENT_JOIN` seconds, for how long it has not answered and when the
join stops; at the limit the lobby says why, in one line. The lobby's clock (its join's and
its waiting page's) is a stepped one here: the seconds pass as the test moves it on.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

import koikoi.ui.lobby.lobby
from koikoi.net.session.clock import DEFAULT_SILENCE_TIMEOUT
from koikoi.ui.lobby.lobby import Lobby
from tests.stepped_clock import SteppedClock
from tests.test_ui_lobby import LOOPBACK, PASSWORD, close_lobby, make_lobby

SILENT_JOIN: float = getattr(koikoi.ui.lobby.lobby, "SILENT_JOIN", 3.0)
STEP = 0.5
"""The stepped clock's step: exact in binary, so the whole seconds fall on steps."""


@pytest.fixture
def silent_room() -> Iterator[int]:
    """A port on loopback that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind((LOOPBACK, 0))
        server.listen(4)
        yield int(server.getsockname()[1])


@pytest.fixture
def clock() -> SteppedClock:
    return SteppedClock()


@pytest.fixture
def guest(qtbot: QtBot, tmp_path: Path, clock: SteppedClock) -> Iterator[Lobby]:
    lobby = make_lobby(qtbot, tmp_path, "tsuki", clock=clock)
    yield lobby
    close_lobby(qtbot, lobby)


def test_a_join_the_room_never_answers_says_how_long_then_why(
    qtbot: QtBot, guest: Lobby, clock: SteppedClock, silent_room: int
) -> None:
    address = f"{LOOPBACK}:{silent_room}"
    guest.address.setText(address)
    guest.address_password.setText(PASSWORD)
    QTest.mouseClick(guest.address_button, Qt.MouseButton.LeftButton)
    assert guest.pages.currentWidget() is guest.waiting_page
    join = guest.join
    assert join is not None
    qtbot.waitUntil(lambda: "connected" in join.times, timeout=5_000)  # the kernel's backlog
    clock.advance(1.0, qtbot, STEP)
    assert guest.waiting_state.text() == f"Connected to {address}: the room checks who you are…"
    # after SILENT_JOIN seconds in silence: how long, and when it stops
    clock.advance(SILENT_JOIN - 1.0, qtbot, STEP)
    first = guest.waiting_state.text()
    limit = f"{DEFAULT_SILENCE_TIMEOUT:g}"
    assert first.startswith(f"Connected to {address}, but no answer for "), first
    assert first.endswith(f"the join stops at {limit} s."), first
    assert int(re.findall(r"for (\d+) second", first)[0]) == SILENT_JOIN
    # the count goes on while the page waits
    clock.advance(1.0, qtbot, STEP)
    assert int(re.findall(r"for (\d+) second", guest.waiting_state.text())[0]) == SILENT_JOIN + 1
    # at the handshake's limit the join stops and the lobby says why
    clock.advance(DEFAULT_SILENCE_TIMEOUT - SILENT_JOIN - 1.5, qtbot, STEP)
    assert guest.pages.currentWidget() is guest.waiting_page and not guest.message.isVisible()
    clock.advance(1.0, qtbot, STEP)
    qtbot.waitUntil(lambda: guest.message.isVisible(), timeout=5_000)
    assert guest.pages.currentWidget() is guest.rooms_page
    assert "timed out" in guest.message.text() and "\n" not in guest.message.text()
    assert guest.join is None
