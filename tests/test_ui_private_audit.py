"""Two windows play a privately dealt match over loopback; hana's app turns hostile at the
last move and keeps its seed of the last deal back (issue 20, 2). Taro's window shows the
match as won or lost by its signed moves (the result panel), then says in words that hana did
not reveal its last seed; its record is finished, its audit ``refused`` by seat 0."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.transport.options import PeerOptions
from koikoi.net.wire import unpack
from koikoi.ui.match.matchview import Mode
from tests import test_ui_network
from tests.test_ui_network import Pair, saved_record
from tests.ui_driver import play_windows_by_clicks


def test_a_withheld_last_seed_is_said_beside_a_finished_result(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = test_ui_network.options

    def private(name: str, rounds: int = 6, timeout: float = 15.0) -> PeerOptions:
        return dataclasses.replace(plain(name, rounds, 4.0), dealings=("private", "seed"))

    monkeypatch.setattr(test_ui_network, "options", private)
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        link = pair.room.match
        assert link is not None and link.connection is not None
        session = link.connection.session
        assert session is not None and session.dealing == "private"
        real = session._send

        def withhold_the_last_seed(message: bytes) -> None:
            lockstep = session.lockstep
            over = lockstep is not None and lockstep.match.finished
            if not (over and unpack(message)["t"] == "seed"):  # type: ignore[index,call-overload]
                real(message)

        session._send = withhold_the_last_seed  # type: ignore[method-assign]
        play_windows_by_clicks(
            qtbot,
            pair.windows,
            random.Random(7),
            until=lambda: all(w.controller.mode is Mode.MATCH_OVER for w in pair.windows),
            koikoi_rate=0.0,
        )
        qtbot.waitUntil(lambda: joiner.audit_message is not None, timeout=20_000)
        box = joiner.audit_message
        assert box is not None and box.isVisible()
        match = joiner.controller.match
        assert match is not None and match.finished
        outcome = (
            "a draw" if match.winner is None else "you won" if match.winner == 1 else "you lost"
        )
        assert box.text() == (
            f"The result stands as the signed moves give it ({outcome}). hana did not reveal"
            " its seed of the last deal, so that deal's audit could not be done."
        )
        assert joiner.controller.mode is Mode.MATCH_OVER  # the result panel stays
        qtbot.waitUntil(lambda: joiner.net_record is not None)
        record = saved_record(joiner)
        assert record["end"]["finished"] is True
        assert record["end"]["audit"]["result"] == "refused" and record["end"]["audit"]["by"] == 0
        assert host.audit_message is None  # hana's own audit of taro's seed passed
    finally:
        pair.close()
