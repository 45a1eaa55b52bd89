"""Network play driven by Qt's event loop: real sockets on 127.0.0.1, Qt offscreen.

A QtRoom and a QtJoin play each other in this process, or the real ``koikoi host`` / ``koikoi
join`` commands in another; bad peers are plain Python sockets. Each seat is moved by a
computer player of ``koikoi.ai`` answering the ``local_turn`` signal.
"""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEventLoop, QTimer
from pytestqt.qtbot import QtBot

from koikoi.ai import get_player
from koikoi.engine.match import Observation, Settings
from koikoi.net import policy
from koikoi.net.connection import HandshakeDone
from koikoi.net.errors import PeerRefused, SettingsMismatch
from koikoi.net.identity import Identity, KnownPeers, PinStatus
from koikoi.net.roles import Role
from koikoi.net.session.endings import Ending
from koikoi.net.session.events import MovePlayed, TossDone
from koikoi.net.transport.options import PeerOptions
from koikoi.net.verify import verify_record
from koikoi.net.wire import encode_frame
from koikoi.ui.net.netlink.base import LinkError, PeerInfo
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.peer import PeerLink
from koikoi.ui.net.netlink.room import QtRoom
from tests.conftest import run_koikoi
from tests.net_support import KoikoiProcess, spawn
from tests.stepped_clock import SteppedClock
from tests.ui_driver import StallMeter

PASSWORD = "matsu ni tsuru"


def options(name: str, password: str = "", rounds: int = 6, timeout: float = 15.0) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(rounds=rounds),
        known_peers=KnownPeers(None),
        password=password,
        silence_timeout=timeout,
    )


class Seat:
    """Listens to one end (a QtRoom or a QtJoin) and moves its seat with a computer player.

    ``later`` answers from a zero-delay timer instead of inside the signal (both must work);
    ``hold`` never answers (the match waits).
    """

    def __init__(
        self,
        link: QtRoom | PeerLink,
        player: str = "random",
        seed: int = 1,
        *,
        later: bool = False,
        hold: bool = False,
        first_delay_ms: int = 0,
        stop_after: int | None = None,
    ) -> None:
        self.link = link
        self.player = get_player(player)
        self.rng = random.Random(seed)
        self.later = later
        self.hold = hold
        self.first_delay_ms = first_delay_ms
        self.stop_after = stop_after
        self.turns = 0
        self.waiting = False
        self.peer: PeerInfo | None = None
        self.tossed: TossDone | None = None
        self.moves: list[MovePlayed] = []
        self.ending: Ending | None = None
        self.failure: LinkError | None = None
        self.refused: list[LinkError] = []
        self.closed = False
        link.established.connect(self._on_established)
        link.tossed.connect(self._on_tossed)
        link.moved.connect(self.moves.append)
        link.local_turn.connect(self._on_turn)
        link.ended.connect(self._on_ended)
        link.closed.connect(self._on_closed)
        if isinstance(link, QtRoom):
            link.refused.connect(self.refused.append)
        else:
            link.failed.connect(self._on_failed)

    def _on_established(self, peer: PeerInfo) -> None:
        self.peer = peer

    def _on_tossed(self, event: TossDone) -> None:
        self.tossed = event

    def _on_ended(self, ending: Ending) -> None:
        assert self.ending is None, "ended twice"
        self.ending = ending

    def _on_failed(self, failure: LinkError) -> None:
        assert self.failure is None, "failed twice"
        self.failure = failure

    def _on_closed(self) -> None:
        self.closed = True

    def _on_turn(self, observation: Observation) -> None:
        if self.hold or (self.stop_after is not None and self.turns >= self.stop_after):
            self.waiting = True  # to move, and not moving
            return
        self.turns += 1
        if self.turns == 1 and self.first_delay_ms:
            QTimer.singleShot(self.first_delay_ms, lambda: self._move(observation))
        elif self.later:
            QTimer.singleShot(0, lambda: self._move(observation))
        else:
            self._move(observation)

    def _move(self, observation: Observation) -> None:
        action = self.player.choose(observation, observation.legal_actions, self.rng)
        self.link.play(action)


def open_room(qtbot: QtBot, opts: PeerOptions, bind: str = "127.0.0.1") -> QtRoom:
    room = QtRoom(opts)
    room.listen(bind, 0)
    assert room.port > 0
    return room


def close_room(qtbot: QtBot, room: QtRoom) -> None:
    """Leave the room and wait until it closed (at once when a test's ``leave`` closed it)."""
    if room._closed:  # closed already: its signal went out before anyone waited for it
        return
    with qtbot.waitSignal(room.closed, timeout=10_000):
        room.leave()


def check_records(host: Seat, joiner: Seat) -> dict[str, Any]:
    """Both sides' signed records verify and tell the same finished match."""
    results = []
    records = []
    for seat in (host, joiner):
        session = seat.link.session
        assert session is not None
        record = session.record().to_json()
        report = verify_record(json.loads(json.dumps(record)))
        assert report.to_json()["valid"] is True
        assert report.result["finished"] is True
        results.append(session.result_json())
        records.append(record)
    assert results[0] == results[1]
    assert records[0]["deals"] == records[1]["deals"]
    assert records[0]["net"] == records[1]["net"]
    assert sum(results[0]["scores"]) == 50
    return results[0]


# --- a whole match -------------------------------------------------------------------------


@pytest.mark.parametrize("password", ["", PASSWORD], ids=["open room", "password room"])
def test_a_room_and_a_joiner_play_a_whole_match(qtbot: QtBot, password: str) -> None:
    room = open_room(qtbot, options("hana", password))
    host = Seat(room, "greedy", 1)
    join = QtJoin(options("taro", password))
    joiner = Seat(join, "normal", 2, later=True)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=90_000)
    assert host.ending is not None and joiner.ending is not None
    assert host.ending.finished and joiner.ending.finished, (host.ending, joiner.ending)
    qtbot.waitUntil(lambda: joiner.closed, timeout=10_000)
    # The handshake told each side who the other is; the toss, the same four cards.
    assert host.peer is not None and joiner.peer is not None
    assert (host.peer.nickname, joiner.peer.nickname) == ("taro", "hana")
    assert host.tossed is not None and joiner.tossed is not None
    assert host.tossed.result.cards == joiner.tossed.result.cards
    assert len(set(host.tossed.result.cards)) == 4
    assert host.peer.pin is PinStatus.NEW and host.peer.private == bool(password)
    assert joiner.peer.fingerprint == room.options.identity.fingerprint
    assert host.tossed is not None and joiner.tossed is not None
    assert host.tossed.result == joiner.tossed.result
    # Every move reached both sides, in the same order.
    assert [(m.seq, m.action) for m in host.moves] == [(m.seq, m.action) for m in joiner.moves]
    check_records(host, joiner)
    assert join.failure is None and host.refused == []
    assert join.bytes_sent > 1000 and join.bytes_received > 1000
    # The room has played its match: a late joiner is told it is busy.
    _, late = _failed_join(qtbot, room, options("jiro", password))
    assert late.kind == "refused" and late.text == "the peer refused: it is already playing"
    close_room(qtbot, room)


# --- against the headless commands -----------------------------------------------------------


def _wait_process(qtbot: QtBot, proc: KoikoiProcess, timeout: float) -> int:
    try:
        qtbot.waitUntil(lambda: proc.proc.poll() is not None, timeout=int(timeout * 1000))
    except BaseException:
        proc.kill()
        raise AssertionError(f"koikoi did not finish; stderr:\n{proc.stderr[-3000:]}") from None
    return int(proc.proc.returncode)


def _check_with_process(seat: Seat, proc: KoikoiProcess, record: Path) -> None:
    session = seat.link.session
    assert session is not None and seat.ending is not None and seat.ending.finished
    result = proc.result()
    assert result.pop("dealing") == "seed"  # CLI.md: how the command dealt
    clock = session.clock_setting  # CLI.md: the clock the command played
    assert (result.pop("clock"), result.pop("reserve")) == (clock.seconds, clock.reserve)
    assert result == session.result_json()
    theirs = json.loads(record.read_text())
    mine = session.record().to_json()
    assert theirs["deals"] == mine["deals"] and theirs["net"] == mine["net"]
    for data in (theirs, mine):
        assert verify_record(data).to_json()["valid"] is True
    assert run_koikoi("verify", str(record)).returncode == 0
    assert "Traceback" not in proc.stderr


def test_a_qt_room_plays_the_koikoi_join_command(qtbot: QtBot, tmp_path: Path) -> None:
    room = open_room(qtbot, options("hana", PASSWORD))
    host = Seat(room, "normal", 3)
    secret = tmp_path / "password.txt"
    secret.write_text(PASSWORD + "\n")
    record = tmp_path / "joiner.json"
    proc = spawn(
        tmp_path / "joiner",
        "join",
        f"127.0.0.1:{room.port}",
        "--dealing",  # the Qt room of these tests offers the joint seed (PeerOptions' default)
        "seed",
        "--name",
        "taro",
        "--bot",
        "normal",
        "--password-file",
        str(secret),
        "--record",
        str(record),
    )
    try:
        assert _wait_process(qtbot, proc, 150) == 0, proc.stderr
        qtbot.waitUntil(lambda: host.ending is not None, timeout=10_000)
        _check_with_process(host, proc, record)
        assert host.peer is not None and host.peer.nickname == "taro"
        assert host.tossed is not None  # the same four cards on both sides:
        assert f"the four cards: {' '.join(host.tossed.result.cards)}" in proc.stderr
    finally:
        proc.kill()
    close_room(qtbot, room)


def test_a_qt_joiner_plays_the_koikoi_host_command(qtbot: QtBot, tmp_path: Path) -> None:
    record = tmp_path / "host.json"
    proc = spawn(
        tmp_path / "host",
        "host",
        "--dealing",  # the Qt joiner of these tests offers the joint seed
        "seed",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--name",
        "hana",
        "--rounds",
        "12",
        "--bot",
        "normal",
        "--record",
        str(record),
    )
    try:
        port = proc.port()
        join = QtJoin(options("taro", rounds=12))
        joiner = Seat(join, "normal", 4, later=True)
        join.connect_to_address(f"localhost:{port}")  # a host name, looked up by Qt
        assert _wait_process(qtbot, proc, 240) == 0, proc.stderr
        qtbot.waitUntil(lambda: joiner.closed, timeout=10_000)
        _check_with_process(joiner, proc, record)
        assert join.session is not None and join.session.settings.rounds == 12
    finally:
        proc.kill()


# --- what ends a link early ------------------------------------------------------------------


def _failed_join(qtbot: QtBot, room: QtRoom, opts: PeerOptions) -> tuple[Seat, LinkError]:
    join = QtJoin(opts)
    joiner = Seat(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: joiner.closed, timeout=20_000)
    assert joiner.failure is not None and joiner.ending is None and join.session is None
    assert "\n" not in joiner.failure.text and str(joiner.failure) == joiner.failure.text
    return joiner, joiner.failure


def test_a_wrong_password_is_one_line_on_both_sides(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana", PASSWORD))
    host = Seat(room)
    _, failure = _failed_join(qtbot, room, options("taro", "ume ni uguisu"))
    assert failure.kind == "auth"
    assert failure.text.startswith("wrong password or tampered handshake")
    qtbot.waitUntil(lambda: len(host.refused) == 1, timeout=10_000)
    assert host.refused[0].kind == "auth" and host.refused[0].address.startswith("127.0.0.1:")
    assert "wrong password" in host.refused[0].text and host.ending is None
    # The room keeps listening, and the right password gets in.
    assert room.listening and not room.policy.busy and room.policy.pending == {}
    join = QtJoin(options("taro", PASSWORD))
    joiner = Seat(join, hold=True)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: joiner.tossed is not None, timeout=20_000)
    assert host.peer is not None and host.peer.private
    close_room(qtbot, room)


def test_other_settings_are_named(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana", rounds=6))
    host = Seat(room)
    _, failure = _failed_join(qtbot, room, options("taro", rounds=12))
    assert failure.kind == "settings"
    assert isinstance(failure.error, SettingsMismatch) and failure.error.differs == ("rounds",)
    assert failure.text == "match settings differ: rounds: 12 rounds here, 6 rounds for the host"
    qtbot.waitUntil(lambda: len(host.refused) == 1, timeout=10_000)
    assert host.refused[0].text == (
        "match settings differ: rounds: 6 rounds here, 12 rounds for the joiner"
    )
    close_room(qtbot, room)


def test_a_peer_that_closes_mid_round(qtbot: QtBot) -> None:
    # Each side makes up to three moves of the first round, until one of them is to move and
    # does not; then the joiner's program dies: no goodbye, the connection just ends.
    room = open_room(qtbot, options("hana"))
    host = Seat(room, stop_after=3)
    join = QtJoin(options("taro"))
    joiner = Seat(join, stop_after=3)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(
        lambda: (host.waiting or joiner.waiting) and len(host.moves) == len(joiner.moves) >= 3,
        timeout=20_000,
    )
    played = len(host.moves)
    assert join.socket is not None
    join.socket.abort()
    qtbot.waitUntil(lambda: host.ending is not None, timeout=20_000)
    assert host.ending is not None and not host.ending.finished
    assert host.ending.how == "dropped" and host.ending.reason == "the connection dropped"
    assert host.ending.stage == "play" and host.ending.moves == played
    close_room(qtbot, room)


def test_the_room_leaves_and_the_joiner_is_told(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana"))
    host = Seat(room, hold=True)
    join = QtJoin(options("taro"))
    joiner = Seat(join, hold=True)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: joiner.tossed is not None, timeout=20_000)
    close_room(qtbot, room)
    qtbot.waitUntil(lambda: joiner.closed, timeout=20_000)
    assert host.ending is not None and host.ending.how == "left"
    assert joiner.ending is not None and joiner.ending.how == "left"
    assert joiner.ending.reason.startswith("the peer left")
    # it left the first deal at move 0, its cards seen: flagged like an abandoned toss
    assert joiner.ending.suspicious and host.ending.suspicious


class RawPeer:
    """A plain non-blocking socket: a peer that can say anything."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.setblocking(False)
        self.received = b""
        self.eof = False

    @classmethod
    def dial(cls, port: int) -> RawPeer:
        return cls(socket.create_connection(("127.0.0.1", port), timeout=5))

    def read(self) -> bytes:
        try:
            while data := self.sock.recv(65536):
                self.received += data
            self.eof = True
        except BlockingIOError:
            pass
        except OSError:
            self.eof = True
        return self.received


def test_garbage_before_the_handshake_is_turned_away(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana"))
    host = Seat(room)
    raw = RawPeer.dial(room.port)
    raw.sock.sendall(encode_frame(b"\xc1 not msgpack at all"))
    qtbot.waitUntil(lambda: len(host.refused) == 1, timeout=10_000)
    assert host.refused[0].kind == "protocol"
    assert host.refused[0].text.startswith("handshake failed: ")
    qtbot.waitUntil(lambda: raw.read() is not None and raw.eof, timeout=10_000)
    raw.sock.close()
    assert room.listening and not room.policy.busy
    close_room(qtbot, room)


def test_garbage_in_the_match_ends_it_with_a_reason(qtbot: QtBot) -> None:
    # A joiner that completes the handshake honestly, then sends bytes the session keys
    # never made.
    room = open_room(qtbot, options("hana"))
    host = Seat(room, hold=True)
    raw = RawPeer.dial(room.port)
    conn = options("taro").connection(Role.JOINER, 0.0)
    conn.start()
    raw.sock.sendall(conn.data_to_send())
    seen = 0

    def step() -> bool:
        nonlocal seen
        data = raw.read()
        events = conn.receive_data(data[seen:], 0.0)
        seen = len(data)
        raw.sock.sendall(conn.data_to_send())
        return any(isinstance(e, HandshakeDone) for e in events) or conn.session is not None

    qtbot.waitUntil(step, timeout=10_000)
    raw.sock.sendall(encode_frame(b"\x00" * 64))
    qtbot.waitUntil(lambda: host.ending is not None, timeout=10_000)
    assert host.ending is not None and host.ending.how == "protocol"
    assert host.ending.by is Role.JOINER and "did not decrypt" in host.ending.reason
    raw.sock.close()
    close_room(qtbot, room)


def test_a_joiner_fed_garbage_fails_with_one_line(qtbot: QtBot) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    clock = SteppedClock()  # the close grace, on a stepped clock
    join = QtJoin(options("taro"), now=clock.now, timer=clock.timer)
    joiner = Seat(join)
    join.connect_to("127.0.0.1", port)
    accepted: list[socket.socket] = []

    def accept() -> bool:
        try:
            accepted.append(server.accept()[0])
        except BlockingIOError:
            return False
        return True

    qtbot.waitUntil(accept, timeout=10_000)
    accepted[0].sendall((1 << 20).to_bytes(4, "big"))  # a frame far over the cap
    qtbot.waitUntil(lambda: joiner.failure is not None, timeout=10_000)
    clock.advance(policy.CLOSE_GRACE - 0.25, qtbot, 0.25)
    assert not joiner.closed  # its reason goes out; the peer may read it for the close grace
    clock.advance(0.5, qtbot, 0.25)
    qtbot.waitUntil(lambda: joiner.closed, timeout=5_000)
    assert joiner.failure is not None and joiner.failure.kind == "protocol"
    assert "frame length 1048576 is not in 1..65536" in joiner.failure.text
    for sock in (*accepted, server):
        sock.close()


def test_nobody_at_the_address_and_a_bad_address(qtbot: QtBot) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    server.close()
    join = QtJoin(options("taro"))
    joiner = Seat(join)
    join.connect_to_address(f"127.0.0.1:{port}")
    qtbot.waitUntil(lambda: joiner.closed, timeout=10_000)
    assert joiner.failure is not None and joiner.failure.kind == "connect"
    assert joiner.failure.text == f"cannot connect to 127.0.0.1:{port}: connection refused"
    # Giving up while connecting is a failure too, with its own kind.
    gave_up = QtJoin(options("taro"))
    quitter = Seat(gave_up)
    gave_up.connect_to("127.0.0.1", port)
    gave_up.leave()
    assert quitter.closed and quitter.failure is not None and quitter.failure.kind == "left"
    assert quitter.failure.text == f"gave up connecting to 127.0.0.1:{port}"
    with pytest.raises(ValueError, match="HOST:PORT with a port 1-65535, not 'hana'"):
        QtJoin(options("taro")).connect_to_address("hana")
    with pytest.raises(ValueError, match="HOST:PORT"):
        QtJoin(options("taro")).connect_to_address("::1:4000")  # IPv6 needs brackets


def test_ipv6_loopback(qtbot: QtBot) -> None:
    room = QtRoom(options("hana"))
    try:
        room.listen("::1", 0)
    except ValueError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    assert room.addresses() == [f"[::1]:{room.port}"]
    host = Seat(room, hold=True)
    join = QtJoin(options("taro"))
    joiner = Seat(join, hold=True)
    join.connect_to_address(f"[::1]:{room.port}")
    qtbot.waitUntil(lambda: host.tossed is not None and joiner.tossed is not None, timeout=20_000)
    assert host.peer is not None and host.peer.address.startswith("[::1]:")
    close_room(qtbot, room)


def test_listening_everywhere_lists_the_addresses_to_dial(qtbot: QtBot) -> None:
    room = QtRoom(options("hana"))
    room.listen("", 0)
    shown = room.addresses()
    assert shown and all(a.endswith(f":{room.port}") for a in shown)
    assert f"127.0.0.1:{room.port}" in shown and shown[-1].split(":")[0] in ("127.0.0.1", "[")
    # A dual-stack room shows an IPv4 joiner's address as IPv4 (not ::ffff:127.0.0.1).
    host = Seat(room, hold=True)
    join = QtJoin(options("taro"))
    Seat(join, hold=True)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.peer is not None, timeout=20_000)
    assert host.peer is not None and host.peer.address.startswith("127.0.0.1:")
    close_room(qtbot, room)
    with pytest.raises(ValueError, match="cannot listen on 'hana': not an IP address"):
        QtRoom(options("hana")).listen("hana", 0)
    busy = socket.create_server(("127.0.0.1", 0))
    try:
        taken = busy.getsockname()[1]
        with pytest.raises(ValueError, match=f"cannot listen on 127.0.0.1:{taken}: "):
            QtRoom(options("hana")).listen("127.0.0.1", taken)
    finally:
        busy.close()


# --- the room is busy ------------------------------------------------------------------------


def test_a_second_joiner_while_the_match_is_in_play_is_refused_as_busy(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("hana"))
    host = Seat(room, hold=True)
    first = QtJoin(options("taro"))
    Seat(first, hold=True)
    first.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.tossed is not None, timeout=20_000)
    assert room.policy.playing
    joiner, failure = _failed_join(qtbot, room, options("jiro"))
    assert failure.kind == "refused" and isinstance(failure.error, PeerRefused)
    assert failure.error.code == "busy"
    assert failure.text == "the peer refused: it is already playing"
    qtbot.waitUntil(lambda: len(host.refused) == 1, timeout=10_000)
    assert host.refused[0].kind == "busy" and host.refused[0].text == "the room is busy"
    assert host.ending is None and room.session is not None  # the match goes on
    close_room(qtbot, room)


# --- the window stays live -------------------------------------------------------------------


def measure_stall(qtbot: QtBot, password: str) -> tuple[float, float]:
    """(largest UI-thread gap this process caused, connect → first deal on the joiner), in
    seconds, with both ends in this thread: each side's handshake, PAKE and first deal count
    against it (:class:`~tests.ui_driver.StallMeter`: a busy machine's gaps do not)."""
    room = open_room(qtbot, options("hana", password))
    host = Seat(room, hold=True)
    join = QtJoin(options("taro", password))
    joiner = Seat(join, hold=True)
    meter = StallMeter()
    meter.start()
    qtbot.wait(50)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.tossed is not None and joiner.tossed is not None, timeout=20_000)
    qtbot.wait(50)
    meter.stop()
    print(f"\npassword handshake to the first deal: {meter.summary()}")
    largest = meter.largest_busy  # the window's own stalls, not a busy machine's
    first_deal = join.times["first_deal"] - join.times["connect"]
    close_room(qtbot, room)
    return largest, first_deal


def test_the_window_stays_live_through_a_password_handshake_and_the_first_deal(
    qtbot: QtBot,
) -> None:
    largest, _ = measure_stall(qtbot, PASSWORD)
    assert largest < 0.100, f"the UI thread stalled {largest * 1000:.0f} ms"


# --- time ------------------------------------------------------------------------------------


def test_a_half_open_connection_is_dropped_at_the_handshake_deadline(qtbot: QtBot) -> None:
    clock = SteppedClock()
    room = QtRoom(options("hana", timeout=1.0), now=clock.now, timer=clock.timer)
    room.listen("127.0.0.1", 0)
    host = Seat(room)
    raw = RawPeer.dial(room.port)  # connects and says nothing
    qtbot.waitUntil(lambda: len(room.policy.pending) == 1, timeout=10_000)
    clock.advance(0.95, qtbot)
    assert host.refused == [] and len(room.policy.pending) == 1  # not before its deadline
    clock.advance(0.1, qtbot)
    qtbot.waitUntil(lambda: len(host.refused) == 1, timeout=10_000)
    assert host.refused[0].text == "the peer did not finish the handshake within 1 s"
    assert room.policy.pending == {} and not room.policy.busy
    qtbot.waitUntil(lambda: raw.read() is not None and raw.eof, timeout=10_000)
    raw.sock.close()
    close_room(qtbot, room)


def test_heartbeats_keep_a_slow_player_connected(qtbot: QtBot) -> None:
    # 1.5 s of silence counts as gone; the host thinks for 6 s of the stepped clock. The
    # timers send heartbeats meanwhile, so neither side suspends nor ends the match; the
    # real-time run of the same is the modal dialog's test below.
    clock = SteppedClock()
    room = QtRoom(options("hana", timeout=1.5), now=clock.now, timer=clock.timer)
    room.listen("127.0.0.1", 0)
    host = Seat(room, "greedy", 5, hold=True)
    join = QtJoin(options("taro", timeout=1.5), now=clock.now, timer=clock.timer)
    joiner = Seat(join, "greedy", 6)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.tossed is not None and joiner.tossed is not None, timeout=20_000)
    sent = join.bytes_sent
    clock.advance(6.0, qtbot)
    assert host.ending is None and joiner.ending is None
    assert not join.is_suspended and not room.is_suspended
    assert join.bytes_sent > sent  # its heartbeats
    room.leave()
    clock.advance(policy.CLOSE_GRACE, qtbot)  # the close grace, on the stepped clock too
    close_room(qtbot, room)


def test_a_local_failure_never_reaches_qt(qtbot: QtBot) -> None:
    # A nickname the protocol cannot carry makes building the connection fail: the joiner
    # ends with one line, nothing is raised into Qt's event loop.
    room = open_room(qtbot, options("hana"))
    join = QtJoin(options("t" * 40))
    joiner = Seat(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: joiner.closed, timeout=10_000)
    assert joiner.failure is not None and joiner.failure.kind == "internal"
    assert "nickname" in joiner.failure.text and "\n" not in joiner.failure.text
    close_room(qtbot, room)


def test_a_modal_dialog_in_a_slot_does_not_starve_the_connection(qtbot: QtBot) -> None:
    # The window may ask "do you see the same four cards?" in a dialog with its own event
    # loop, from inside the established signal. Heartbeats must go on meanwhile (1 s of
    # silence counts as gone here), and the match carries on once the dialog is closed.
    # The real-time run of the stepped clock's heartbeat case above, kept short: the
    # dialog stays open for twice the silence and more.
    room = open_room(qtbot, options("hana", timeout=1.0))
    host = Seat(room, "greedy", 7)
    join = QtJoin(options("taro", timeout=1.0))
    joiner = Seat(join, "greedy", 8)

    def dialog(_: PeerInfo) -> None:
        loop = QEventLoop()
        QTimer.singleShot(2200, loop.quit)
        loop.exec()

    join.established.connect(dialog)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.ending is not None and joiner.ending is not None, timeout=60_000)
    assert host.ending is not None and host.ending.finished, host.ending
    assert joiner.ending is not None and joiner.ending.finished, joiner.ending
    check_records(host, joiner)
    close_room(qtbot, room)


def test_a_room_that_cannot_take_a_joiner_says_so_and_still_closes(qtbot: QtBot) -> None:
    room = open_room(qtbot, options("h" * 40))  # a nickname the protocol cannot carry
    host = Seat(room)
    join = QtJoin(options("taro"))
    joiner = Seat(join)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: len(host.refused) == 1 and joiner.closed, timeout=10_000)
    assert host.refused[0].kind == "internal" and "nickname" in host.refused[0].text
    assert joiner.failure is not None and joiner.failure.kind == "protocol"
    assert room.policy.pending == {} and room.links == {}
    close_room(qtbot, room)
