"""The lobby's address field reads addresses by the command line's rule (koikoi.net.address):
what ``koikoi join`` refuses, the window refuses before dialling, in one line; what it dials,
the window dials."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.addresses import BAD_ADDRESSES
from tests.test_ui_lobby import close_lobby, make_lobby


def test_the_address_field_refuses_what_the_command_line_refuses(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Before koikoi.net.address the window dialled "127.0.0.1:٤٠٠٠" as port 4000 (and
    the command line dialled "::1:80"): the two doors disagreed."""
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    try:
        for text in BAD_ADDRESSES:
            guest.failure = None
            guest.address.setText(text)
            guest.address_button.click()
            assert guest.join is None, text  # nothing dialled
            assert guest.failure is not None and guest.failure.kind == "address", text
            assert guest.failure.text.startswith("an address is HOST:PORT"), text
            shown = guest.message.text()
            assert "HOST:PORT" in shown and "\n" not in shown, text
    finally:
        close_lobby(qtbot, guest)


def test_the_address_field_dials_an_address_with_spaces_around_it(
    qtbot: QtBot, tmp_path: Path
) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    accepted: list[str] = []

    def hang_up() -> None:
        connection, peer = listener.accept()
        accepted.append(peer[0])
        connection.close()

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    try:
        guest.address.setText(f" \u3000127.0.0.1:{port}  ")
        guest.address_button.click()
        qtbot.waitUntil(lambda: bool(accepted), timeout=10_000)
        assert accepted == ["127.0.0.1"]
        qtbot.waitUntil(lambda: guest.failure is not None, timeout=10_000)
        assert guest.failure is not None and guest.failure.kind != "address"
    finally:
        close_lobby(qtbot, guest)
        listener.close()
        thread.join(5)
