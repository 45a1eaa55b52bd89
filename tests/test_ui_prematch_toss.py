"""The lobby before a match, in the real window offscreen: the toss, the four cards, the deal.

A lobby joins a Qt room by address, as a player does. Its "before the match" page shows the
peer while the coin is tossed, then the toss's outcome and the four cards drawn from it, and
only once both players said "the same" does the match get handed over with its first deal. A
peer that abandons the toss after seeing the result is counted in its pin, said at once, and
shown with its count the next time it is met.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from koikoi.net.identity import KnownPeers
from koikoi.net.session import TossDone
from koikoi.net.transport import PeerOptions
from koikoi.ui import names
from koikoi.ui.lobby import Lobby
from koikoi.ui.netlink import WITH_SEED, PeerLink, QtRoom
from tests.test_ui_lobby import Ready, close_lobby, make_lobby
from tests.test_ui_netlink import close_room, open_room, options

LOOPBACK = "127.0.0.1"


def snapshot(lobby: Lobby) -> dict[str, Any]:
    panel = lobby.prematch
    return {
        "page": lobby.pages.currentWidget() is panel,
        "toss": panel.toss.text(),
        "cards": panel.card_ids(),
        "names": [label.text() for label in panel.card_names],
        "same": panel.same_button.isEnabled(),
        "differ": panel.differ_button.isEnabled(),
        "ask": panel.ask.isVisibleTo(panel),
        "warning": panel.warning.text() if panel.warning.isVisibleTo(panel) else "",
    }


def join_by_address(lobby: Lobby, room: QtRoom) -> dict[str, dict[str, Any]]:
    """Join ``room`` from the lobby's address field; what the page showed at each step."""
    seen: dict[str, dict[str, Any]] = {}
    lobby.address.setText(f"{LOOPBACK}:{room.port}")
    lobby.address_button.click()
    join = lobby.join
    assert join is not None
    # Connected after the lobby's own slots: they see the page as the lobby left it.
    join.established.connect(lambda _peer: seen.setdefault("established", snapshot(lobby)))
    join.cards_shown.connect(lambda _event: seen.setdefault("cards", snapshot(lobby)))
    return seen


def hold(name: str, base: PeerOptions | None = None) -> PeerOptions:
    return replace(base or options(name), hold_for_confirmation=True)


def test_the_toss_then_the_four_cards_then_the_deal(qtbot: QtBot, tmp_path: Path) -> None:
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    guest.dealings = WITH_SEED  # the room of these tests deals from the seed (PeerOptions')
    room = open_room(qtbot, hold("hana"))
    host_cards: list[Any] = []
    room.cards_shown.connect(host_cards.append)
    ready = Ready(guest)
    try:
        seen = join_by_address(guest, room)
        qtbot.waitUntil(lambda: guest.prematch.painted and bool(host_cards), timeout=15_000)
        # The handshake: the peer, the coin being tossed, no cards, nothing to confirm yet.
        first = seen["established"]
        assert first["page"] and first["cards"] == () and first["names"] == [""] * 4
        assert first["toss"] == "Tossing the coin for the first dealer…"
        assert not first["same"] and not first["differ"] and not first["ask"]
        # The toss is over: who deals first, and the four cards drawn from it.
        shown = seen["cards"]
        event = host_cards[0]
        assert shown["cards"] == event.cards and len(set(shown["cards"])) == 4
        seat_of_guest = 1
        expected = (
            "The coin is tossed: you are the first dealer (oya)."
            if event.result.first_oya == seat_of_guest
            else "The coin is tossed: hana is the first dealer (oya)."
        )
        assert shown["toss"] == expected
        assert all(shown["names"]) and shown["same"] and shown["differ"] and shown["ask"]
        _save_picture(guest, tmp_path)
        # No deal until both said "the same".
        QTest.mouseClick(guest.prematch.same_button, Qt.MouseButton.LeftButton)
        qtbot.wait(200)
        assert ready.args is None
        room.confirm_sas()
        qtbot.waitUntil(lambda: ready.args is not None, timeout=10_000)
        assert ready.args is not None
        link, _peer, toss = ready.args
        assert isinstance(toss, TossDone) and toss.result.cards == shown["cards"]
        assert toss.events  # the first deal is laid out
        assert isinstance(link, PeerLink)
        link.leave()
    finally:
        close_room(qtbot, room)
        close_lobby(qtbot, guest)


def _save_picture(lobby: Lobby, tmp_path: Path, name: str = "prematch-after-the-toss") -> None:
    """The page as the player sees it (``KOIKOI_SHOTS=DIR`` keeps it to look at)."""
    folder = Path(os.environ.get("KOIKOI_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    assert lobby.grab().save(str(folder / f"{name}.png"))


def test_a_host_leaving_after_the_toss_is_counted_and_shown_next_time(
    qtbot: QtBot, tmp_path: Path
) -> None:
    names.install_translations()  # the English plurals, as the app loads them
    guest = make_lobby(qtbot, tmp_path, "tsuki")
    guest.dealings = WITH_SEED  # the room of these tests deals from the seed (PeerOptions')
    hana = hold("hana")
    room = open_room(qtbot, hana)
    try:
        join_by_address(guest, room)
        qtbot.waitUntil(lambda: guest.prematch.painted, timeout=15_000)
        room.leave("changed my mind")  # the host saw the outcome and the cards, and leaves
        qtbot.waitUntil(lambda: guest.message.isVisible(), timeout=10_000)
        text = guest.message.text()
        assert "left" in text
        assert (
            "That counts as abandoning the coin toss after seeing the result: "
            "hana has done so 1 time." in text
        ), text
        peers = KnownPeers.load(tmp_path / "tsuki")
        assert peers.toss_aborts("hana", hana.identity.public_key) == 1
    finally:
        close_room(qtbot, room)
    # The same host, a second time: the count is shown before the toss, in the lobby.
    room = open_room(qtbot, replace(hana))
    try:
        seen = join_by_address(guest, room)
        qtbot.waitUntil(lambda: guest.prematch.painted, timeout=15_000)
        warning = "Careful: hana abandoned 1 toss after seeing the result."
        assert seen["established"]["warning"] == warning
        assert not guest.message.isVisible()
        _save_picture(guest, tmp_path, "prematch-toss-aborts")
        room.leave()
        qtbot.waitUntil(lambda: guest.message.isVisible(), timeout=10_000)
        assert "hana has done so 2 times." in guest.message.text()
    finally:
        close_room(qtbot, room)
    room = open_room(qtbot, replace(hana))
    try:
        seen = join_by_address(guest, room)
        qtbot.waitUntil(lambda: "established" in seen, timeout=15_000)
        assert seen["established"]["warning"] == (
            "Careful: hana abandoned 2 tosses after seeing the result."
        )
        guest.cancel()
    finally:
        close_room(qtbot, room)
        close_lobby(qtbot, guest)
