"""The app pins a new peer off its UI thread: a handshake never waits on the pins file's
lock (``flock``), which another koikoi may hold (two games at once, a slow disk)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.hello import WITH_SEED
from koikoi.net.identity import PEERS_FILE, Identity, KnownPeers, PinStatus, identity_dir
from koikoi.ui.net.pins import wait_written, write_later
from tests.test_ui_lobby import close_lobby, make_lobby
from tests.test_ui_netlink import close_room, open_room, options

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock is POSIX")

HELD = 8.0
"""Seconds the other koikoi holds the pins file's lock."""


class OtherKoikoi:
    """Holds the lock of the pins file in ``home`` (as another koikoi saving its pins)."""

    def __init__(self, home: Path) -> None:
        path = identity_dir(home) / PEERS_FILE
        self.fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        self.timer = threading.Timer(HELD, self.release)
        self.timer.start()

    def release(self) -> None:
        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1


def test_a_pin_is_in_memory_at_once_and_in_the_file_once_the_lock_is_free(
    tmp_path: Path,
) -> None:
    other = OtherKoikoi(tmp_path)
    peers = KnownPeers.load(tmp_path, write_later)
    key = Identity.generate().public_key
    start = time.monotonic()
    try:
        peers.pin("hana", key)
        assert time.monotonic() - start < 1.0  # did not wait for the lock
        assert peers.check("hana", key).status is PinStatus.KNOWN
        assert KnownPeers.load(tmp_path).check("hana", key).status is PinStatus.NEW
    finally:
        other.release()
        other.timer.cancel()
    wait_written()
    assert KnownPeers.load(tmp_path).check("hana", key).status is PinStatus.KNOWN


def test_the_lobby_s_handshake_goes_on_while_another_koikoi_holds_the_pins(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The joiner pins the new host as its handshake ends, on the UI thread; the page of
    the four cards comes while the lock is still held (it used to wait for it: the window
    froze for as long as the other koikoi held the file)."""
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    guest.dealings = WITH_SEED  # the room deals from the seed (PeerOptions')
    room = open_room(qtbot, options("hana"))
    other: OtherKoikoi | None = None
    try:
        qtbot.waitUntil(lambda: guest._known is not None or guest._loading is not None)
        assert guest._loading is not None
        guest._loading.result(timeout=10)  # the pins are read before the lock is taken
        other = OtherKoikoi(tmp_path / "tsuki")
        start = time.monotonic()
        guest.address.setText(f"127.0.0.1:{room.port}")
        guest.address_button.click()
        qtbot.waitUntil(lambda: guest.prematch.painted, timeout=int(HELD * 1000 / 2))
        assert time.monotonic() - start < HELD / 2
        assert other.fd >= 0  # still held
    finally:
        if other is not None:
            other.release()
            other.timer.cancel()
        close_room(qtbot, room)
        close_lobby(qtbot, guest)
    wait_written()
    pinned = KnownPeers.load(tmp_path / "tsuki")
    assert pinned.check("hana", room.options.identity.public_key).status is PinStatus.KNOWN
