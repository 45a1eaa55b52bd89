"""A closing room answers the calls it holds with ``busy`` (docs/protocol.md, "End of the
match, leaving, silence"): never a silent hang-up, so a caller that retries on ``busy`` (the
app's rematch, calling the host's old room while the host opens a new one on the port) calls
again. Real sockets on 127.0.0.1, Qt offscreen.

Before, a room that left (its match over, its owner opening the rematch room) closed every
pending handshake without a word, and dropped the connections still queued for accepting:
the rematch caller read "the peer closed the connection during the handshake" and gave up.
"""

from __future__ import annotations

import time

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.errors import PeerRefused
from koikoi.net.handshake import Phase, refuse_message
from koikoi.net.policy import CLOSE_GRACE
from koikoi.net.roles import Role
from koikoi.net.wire import encode_frame
from koikoi.ui.net.netlink.base import LinkError
from koikoi.ui.net.netlink.room import QtRoom
from tests.stepped_clock import SteppedClock
from tests.test_ui_netlink import RawPeer, open_room, options

BUSY = encode_frame(refuse_message("busy"))


def leave_and_wait(qtbot: QtBot, room: QtRoom) -> None:
    with qtbot.waitSignal(room.closed, timeout=15_000):
        room.leave("the match is over")


def test_a_call_not_yet_accepted_when_the_room_leaves_is_refused_busy(qtbot: QtBot) -> None:
    """Connected, but not taken by the room yet (Qt takes it on a later turn of the loop):
    the room takes it as it closes and says busy."""
    room = open_room(qtbot, options("hana"))
    refused: list[LinkError] = []
    room.refused.connect(refused.append)
    raw = RawPeer.dial(room.port)
    leave_and_wait(qtbot, room)  # no turn of Qt's loop between the connect and the leave
    qtbot.waitUntil(lambda: raw.read() is not None and raw.eof, timeout=10_000)
    raw.sock.close()
    assert raw.received == BUSY
    assert [f.kind for f in refused] == ["busy"]


def test_a_silent_pending_handshake_is_refused_busy_when_the_room_leaves(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana"))
    raw = RawPeer.dial(room.port)
    qtbot.waitUntil(lambda: len(room.links) == 1, timeout=10_000)
    (link,) = room.links
    assert link.connection is not None
    assert link.connection.handshake.phase is Phase.AWAIT_HELLO
    leave_and_wait(qtbot, room)
    qtbot.waitUntil(lambda: raw.read() is not None and raw.eof, timeout=10_000)
    raw.sock.close()
    assert raw.received == BUSY


class StepJoiner:
    """A joiner built from our own ``Connection`` over a plain socket, sending each
    handshake message only when told (so the room leaves at a chosen point)."""

    def __init__(self, port: int) -> None:
        self.raw = RawPeer.dial(port)
        self.conn = options("taro").connection(Role.JOINER, time.monotonic())
        self.conn.start()
        self.fed = 0

    def send(self) -> None:
        self.raw.sock.setblocking(True)
        self.raw.sock.sendall(self.conn.data_to_send())
        self.raw.sock.setblocking(False)

    def take(self) -> int:
        """Feed what arrived to the connection; how many bytes it was."""
        data = self.raw.read()[self.fed :]
        self.fed += len(data)
        if data:
            self.conn.receive_data(data, time.monotonic())
        return len(data)


def host_phase(room: QtRoom) -> Phase | None:
    conns = [link.connection for link in room.links if link.connection is not None]
    return conns[0].handshake.phase if len(conns) == 1 else None


@pytest.mark.parametrize("phase", [Phase.AWAIT_NOISE1, Phase.AWAIT_NOISE3])
def test_a_joiner_calling_a_room_that_leaves_is_told_busy(qtbot: QtBot, phase: Phase) -> None:
    """Before the host's ``noise2`` the room refuses in the clear; after it, the joiner's
    ``noise3`` is what is left, and the busy hook refuses it encrypted, in place of
    ``ready``: the joiner reads ``busy`` either way, not a failed decryption. The room's
    close grace after it is on a stepped clock."""
    clock = SteppedClock()
    room = QtRoom(options("hana"), now=clock.now, timer=clock.timer)
    room.listen("127.0.0.1", 0)
    joiner = StepJoiner(room.port)
    joiner.send()  # hello
    qtbot.waitUntil(lambda: host_phase(room) is Phase.AWAIT_NOISE1, timeout=10_000)
    qtbot.waitUntil(lambda: joiner.take() == 0 and joiner.fed > 0, timeout=10_000)
    if phase is Phase.AWAIT_NOISE3:
        joiner.send()  # noise1
        qtbot.waitUntil(lambda: host_phase(room) is Phase.AWAIT_NOISE3, timeout=10_000)
        before = joiner.fed
        qtbot.waitUntil(lambda: joiner.take() == 0 and joiner.fed > before, timeout=10_000)
    assert host_phase(room) is phase
    room.leave("the match is over")
    if phase is Phase.AWAIT_NOISE3:
        joiner.send()  # noise3, after the room began to close
    # the refusal arrives (real bytes), then the room closes within its grace (stepped)
    qtbot.waitUntil(lambda: joiner.take() == 0 and joiner.conn.failure is not None, timeout=10_000)
    end = clock.now() + CLOSE_GRACE + 0.5
    while not room.done and clock.now() < end:
        clock.advance(0.25, qtbot, 0.25)
    qtbot.waitUntil(lambda: room.done, timeout=5_000)  # its close, handed out by Qt (real)
    qtbot.waitUntil(lambda: joiner.take() == 0 and joiner.raw.eof, timeout=10_000)
    joiner.raw.sock.close()
    failure = joiner.conn.failure
    assert isinstance(failure, PeerRefused) and failure.code == "busy", failure
