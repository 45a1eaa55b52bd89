"""A join that gets no answer says so in words, second by second, until it gives up.

A real lobby offscreen dials a listening socket on loopback that accepts the connection and
never says a word (a room whose window hangs, say). The waiting page said "Connecting…" for
the whole handshake time limit, 15 s, the same words as before the connection was even made;
now it says the room was reached and is checking the player, then, after
:data:`~koikoi.ui.lobby.lobby.SILENT_JOIN` seconds, for how long it has not answered and when the
join stops; at the limit the lobby says why, in one line.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

import koikoi.ui.lobby.lobby
from koikoi.net.session.clock import DEFAULT_SILENCE_TIMEOUT
from koikoi.ui.lobby.lobby import Lobby
from tests.test_ui_lobby import LOOPBACK, PASSWORD, close_lobby, make_lobby

SILENT_JOIN: float = getattr(koikoi.ui.lobby.lobby, "SILENT_JOIN", 3.0)


@pytest.fixture
def silent_room() -> Iterator[int]:
    """A port on loopback that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind((LOOPBACK, 0))
        server.listen(4)
        yield int(server.getsockname()[1])


@pytest.fixture
def guest(qtbot: QtBot, tmp_path: Path) -> Iterator[Lobby]:
    lobby = make_lobby(qtbot, tmp_path, "tsuki")
    yield lobby
    close_lobby(qtbot, lobby)


def test_a_join_the_room_never_answers_says_how_long_then_why(
    qtbot: QtBot, guest: Lobby, silent_room: int
) -> None:
    address = f"{LOOPBACK}:{silent_room}"
    guest.address.setText(address)
    guest.address_password.setText(PASSWORD)
    started = time.monotonic()
    QTest.mouseClick(guest.address_button, Qt.MouseButton.LeftButton)
    assert guest.pages.currentWidget() is guest.waiting_page
    qtbot.waitUntil(
        lambda: guest.waiting_state.text().startswith(f"Connected to {address}"),
        timeout=int(SILENT_JOIN * 1000),
    )
    # after SILENT_JOIN seconds in silence: how long, and when it stops
    qtbot.waitUntil(lambda: "no answer for" in guest.waiting_state.text(), timeout=5_000)
    first = guest.waiting_state.text()
    limit = f"{DEFAULT_SILENCE_TIMEOUT:g}"
    assert first.endswith(f"the join stops at {limit} s."), first
    seconds = int(re.findall(r"for (\d+) second", first)[0])
    assert seconds >= SILENT_JOIN
    # the count goes on while the page waits
    qtbot.waitUntil(lambda: guest.waiting_state.text() != first, timeout=2_500)
    assert guest.pages.currentWidget() is guest.waiting_page
    # at the handshake's limit the join stops and the lobby says why
    qtbot.waitUntil(lambda: guest.message.isVisible(), timeout=int(DEFAULT_SILENCE_TIMEOUT * 1000))
    assert time.monotonic() - started <= DEFAULT_SILENCE_TIMEOUT + 2
    assert guest.pages.currentWidget() is guest.rooms_page
    assert "timed out" in guest.message.text() and "\n" not in guest.message.text()
    assert guest.join is None
