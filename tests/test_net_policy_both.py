"""The same policy cases against both transports: ``koikoi host``/``join``'s asyncio one
(:mod:`koikoi.net.transport`) and the app's Qt link (:mod:`koikoi.ui.net.netlink`).

Each decision is :mod:`koikoi.net.policy`'s; the two transports only carry it out. These
cases are where they used to disagree (the Qt room refused to resume a finished match whose
peer had not said goodbye; the Qt joiner redialled a gone host for the whole window; a failed
record write stopped the asyncio match and was only logged by the Qt link), and where they
must not start to (when the record is written, how long a close waits).

The other side is a peer built on the project's own :class:`Connection` over a blocking
socket, in a thread, moving the first legal action (as do both transports' local players
here): with fixed toss secrets every run plays the same match.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net import policy
from koikoi.net.connection import Connection, ConnectionEvent
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.resume import Resumed, finished
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room
from koikoi.ui.net.netlink.base import LinkStage
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom
from tests import virtual_loop
from tests.stepped_clock import SteppedClock
from tests.test_net_clock import NeverMoves

SETTINGS = Settings(rounds=6)
CLOSING = LinkStage.CLOSING
WINDOW = 60.0


def options(name: str, **changes: Any) -> PeerOptions:
    opts = PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=SETTINGS,
        known_peers=KnownPeers(None),
        silence_timeout=10.0,
        toss_secret=bytes([7]) * 32,
        resume_window=WINDOW,
    )
    return replace(opts, **changes)


class FirstLegal:
    """The asyncio transport's local player: the first legal action, at once."""

    async def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[0]

    def notify(self, events: Sequence[Event]) -> None:
        pass

    def cancel(self) -> None:
        pass


# --- the other side: our own Connection over a blocking socket, in a thread ------------------


@dataclass
class Peer:
    """One side driven by hand. ``drop_at_end``: once its match is finished here, the
    connection goes before this side's goodbye (its own last move still goes out; the ack
    and ``bye`` of the peer's last move do not)."""

    role: Role
    nick: str
    drop_at_end: bool = False
    identity: Identity = field(default_factory=Identity.generate)
    known: KnownPeers = field(default_factory=lambda: KnownPeers(None))
    session: Session | None = None
    events: list[ConnectionEvent] = field(default_factory=list)
    error: BaseException | None = None
    failure: object = None
    drop_at: int | None = None
    """Drop the connection once the log holds this many entries (mid-match)."""
    send_then_drop: bool = False
    """At ``drop_at`` (0 unless given), before this side's move: send what it has to send
    (the toss's last message, so the peer has the deal too), then drop."""
    hold_open: float = 0.0
    """Seconds to keep the socket open after the match, reading (0: close at the peer's end),
    at most: :attr:`release` ends the wait sooner."""
    release: threading.Event = field(default_factory=threading.Event)

    def connection(self) -> Connection:
        conn = Connection(
            self.role,
            identity=self.identity,
            nickname=self.nick,
            settings=SETTINGS,
            password="",
            known_peers=self.known,
            now=time.monotonic(),
            silence_timeout=10.0,
            toss_secret=bytes([9]) * 32,
        )
        conn.resume_window = WINDOW
        return conn

    def play(self, sock: socket.socket, conn: Connection, *, drop: bool) -> str:
        """Pump ``conn`` over ``sock`` until the stream ends (or this side drops it)."""
        sock.settimeout(0.05)
        give_up = time.monotonic() + 90
        while time.monotonic() < give_up:
            lockstep = None if conn.session is None else conn.session.lockstep
            if self.send_then_drop and lockstep is not None and lockstep.seq >= (self.drop_at or 0):
                sock.sendall(conn.data_to_send())  # the toss's last message: the peer deals
                sock.shutdown(socket.SHUT_WR)
                with contextlib.suppress(OSError):  # until the peer, past them, closes too
                    end = time.monotonic() + 10
                    while time.monotonic() < end and sock.recv(65536):
                        pass
                return "dropped"
            turn = conn.local_turn
            if turn is not None and not conn.closed:
                self.events += conn.play(turn.legal_actions[0], time.monotonic())
            data = conn.data_to_send()
            if conn.session is not None:
                self.session = conn.session
            session = self.session
            lockstep = None if session is None else session.lockstep
            if self.drop_at is not None and lockstep is not None and lockstep.seq >= self.drop_at:
                sock.shutdown(socket.SHUT_WR)
                return "dropped"
            if drop and finished(session) and session is not None:
                assert session.lockstep is not None
                if session.lockstep.actions[-1]["seat"] == self.role.seat:
                    sock.sendall(data)  # this side's last move goes, nothing after it
                sock.shutdown(socket.SHUT_WR)
                with contextlib.suppress(OSError):
                    end = time.monotonic() + 0.3
                    while time.monotonic() < end and sock.recv(65536):
                        pass
                return "dropped"
            if data:
                with contextlib.suppress(OSError):
                    sock.sendall(data)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                self.events += conn.tick(time.monotonic())
                continue
            except OSError as error:
                self.events += conn.connection_lost(time.monotonic(), str(error))
                return "reset"
            if not chunk:
                self.events += conn.connection_lost(time.monotonic())
                return "end"
            self.events += conn.receive_data(chunk, time.monotonic())
            if conn.closed and self.hold_open:
                with contextlib.suppress(OSError):
                    sock.sendall(conn.data_to_send())
                self.release.wait(self.hold_open)  # neither reading nor closing: it waits
                return "held"
        raise AssertionError("the match did not end")

    def run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def is_alive(self) -> bool:
        return self.thread.is_alive()

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)


class Joiner(Peer):
    """Dials ``port``, plays; with ``drop_at_end`` dials again to resume the finished match."""

    def __init__(self, port: int, **kwargs: Any) -> None:
        super().__init__(Role.JOINER, "taro", **kwargs)
        self.port = port
        self.resumed = False
        self.again_failure: object = None

    def run(self) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
                conn = self.connection()
                conn.start()
                self.play(sock, conn, drop=self.drop_at_end)
                self.failure = conn.failure
            if self.drop_at_end:
                time.sleep(0.3)
                with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
                    conn = self.connection()
                    conn.resuming = self.session
                    conn.start()
                    self.play(sock, conn, drop=False)
                    self.resumed = any(isinstance(e, Resumed) for e in self.events)
                    self.again_failure = conn.failure
        except BaseException as error:  # reported by the test
            self.error = error


class Host(Peer):
    """Listens, plays one match, drops it before its goodbye and stops listening."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(Role.HOST, "hana", **kwargs)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])

    def run(self) -> None:
        try:
            self.server.settimeout(20)
            sock, _ = self.server.accept()
            with sock:
                conn = self.connection()
                self.play(sock, conn, drop=self.drop_at_end)
        except BaseException as error:
            self.error = error
        finally:
            self.server.close()  # the host is gone: its port is closed


# --- the transports as hosts -------------------------------------------------------------


@dataclass
class Hosted:
    """What a host transport did with one match."""

    session: Session | None
    resumed: int


def host_asyncio(
    opts: PeerOptions, joiner: Callable[[int], Joiner], *, moves: bool = True
) -> tuple[Hosted, Joiner]:
    async def main() -> tuple[Hosted, Joiner]:
        resumed: list[object] = []

        def on_event(event: ConnectionEvent, _now: float) -> None:
            if isinstance(event, Resumed):
                resumed.append(event)

        room = Room(opts, FirstLegal() if moves else NeverMoves(), on_event=on_event)
        _, port = await room.open("127.0.0.1", 0)
        peer = joiner(port)
        peer.start()
        try:
            while peer.is_alive():
                await asyncio.sleep(0.05)
            outcome: Outcome = await asyncio.wait_for(room.outcome(), 30)
        finally:
            await room.close()
        return Hosted(outcome.session, len(resumed)), peer

    return asyncio.run(main())


def host_qt(
    qtbot: QtBot, opts: PeerOptions, joiner: Callable[[int], Joiner], *, moves: bool = True
) -> tuple[Hosted, Joiner]:
    room = QtRoom(opts)
    room.listen("127.0.0.1", 0)
    if moves:
        room.local_turn.connect(lambda observation: room.play(observation.legal_actions[0]))
    resumed: list[int] = []
    room.resumed.connect(resumed.append)
    peer = joiner(room.port)
    peer.start()
    try:
        qtbot.waitUntil(lambda: not peer.is_alive(), timeout=90_000)
        qtbot.waitUntil(lambda: room.match is not None and room.match.done, timeout=30_000)
        return Hosted(room.session, len(resumed)), peer
    finally:
        if not room.done:
            with qtbot.waitSignal(room.closed, timeout=10_000):
                room.leave()


HOSTS = ["asyncio", "qt"]


def hosted(
    kind: str,
    qtbot: QtBot,
    opts: PeerOptions,
    joiner: Callable[[int], Joiner],
    *,
    moves: bool = True,
) -> tuple[Hosted, Joiner]:
    """``joiner`` against the ``kind`` of host transport; ``moves``: its player moves (the
    first legal action, at once), else it is still thinking when the match ends."""
    if kind == "asyncio":
        return host_asyncio(opts, joiner, moves=moves)
    return host_qt(qtbot, opts, joiner, moves=moves)


def records_agree(a: Session | None, b: Session | None, *, acks: bool = True) -> None:
    """Both finished the same match; ``acks``: their records are the same, acknowledgements
    too (without: the same entries, the last one's ack may be missing on one side)."""
    assert a is not None and b is not None
    assert a.ending is not None and a.ending.finished, a.ending
    assert b.ending is not None and b.ending.finished, b.ending
    assert a.lockstep is not None and b.lockstep is not None
    assert a.lockstep.seq == b.lockstep.seq
    if acks:
        assert a.record().to_json()["deals"] == b.record().to_json()["deals"]


# --- resume admission --------------------------------------------------------------------


@pytest.mark.parametrize("kind", HOSTS)
def test_a_finished_match_dropped_before_the_goodbye_is_resumed(kind: str, qtbot: QtBot) -> None:
    """The joiner's connection goes right after the last move, before its goodbye: the
    host may still owe it the last entry (or lack its ack), so the room lets the same key
    resume the finished match (docs/protocol.md, "Resume"). The Qt room used to stop being
    resumable at the match's end and refused the call ``busy``."""
    hosted_match, peer = hosted(
        kind, qtbot, options("hana"), lambda port: Joiner(port, drop_at_end=True)
    )
    assert peer.error is None, peer.error
    assert peer.again_failure is None, peer.again_failure
    assert peer.resumed
    assert hosted_match.resumed == 1
    records_agree(hosted_match.session, peer.session)


# --- the record --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", HOSTS)
def test_a_failed_record_write_is_told_once_and_the_match_goes_on(kind: str, qtbot: QtBot) -> None:
    """The disk is full: the player is told once that crash recovery is off, and the match
    is played to its end. The asyncio transport used to let the error end the match (an
    internal error), the Qt link to log it only."""
    told: list[policy.RecordFailed] = []
    writes: list[int] = []

    def write(session: Session) -> None:
        writes.append(0)
        raise OSError(28, "No space left on device")

    opts = options("hana", on_record=write)
    opts.on_record_failed = told.append
    hosted_match, peer = hosted(kind, qtbot, opts, lambda port: Joiner(port))
    assert peer.error is None, peer.error
    records_agree(hosted_match.session, peer.session)
    assert len(told) == 1 and "No space left on device" in told[0].text
    assert len(writes) > 10  # every write was tried; only the first failure was told


@pytest.mark.parametrize("kind", HOSTS)
def test_the_record_is_written_after_the_toss_every_entry_and_the_end(
    kind: str, qtbot: QtBot
) -> None:
    """Both write the record after each step that grew it (policy.RECORDED): the toss,
    every entry (this side's own before it is sent), the end. A step may bring more than one
    (the peer's toss and its first move in one read)."""
    states: list[tuple[int, bool]] = []

    def write(session: Session) -> None:
        seq = 0 if session.lockstep is None else session.lockstep.seq
        states.append((seq, session.ending is not None))

    hosted_match, peer = hosted(kind, qtbot, options("hana", on_record=write), Joiner)
    assert peer.error is None, peer.error
    session = hosted_match.session
    records_agree(session, peer.session)
    assert session is not None and session.lockstep is not None
    seqs = [seq for seq, _ended in states]
    assert seqs[0] <= 1 and seqs == sorted(seqs), states
    actions = session.lockstep.actions
    own = [n + 1 for n, action in enumerate(actions) if action["seat"] == session.role.seat]
    assert own and set(own) <= set(seqs), states  # each own entry, before it went out
    assert states[-1] == (len(actions), True), states  # and the end
    # (the mover of the last move is over at it, and writes the end again as its ack comes)
    assert all(seq == len(actions) for seq, ended in states if ended), states


# --- closing -----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", HOSTS)
def test_a_peer_that_does_not_close_is_waited_for_the_close_grace(kind: str, qtbot: QtBot) -> None:
    """After the match the peer neither reads nor closes: the host waits CLOSE_GRACE for
    its end of the stream, then closes (not at once: a farewell could be reset away; not
    for ever). The host's clock is a virtual one (asyncio) or a stepped one (Qt)."""
    peers: list[Joiner] = []

    def joiner(port: int) -> Joiner:
        peer = Joiner(port, hold_open=policy.CLOSE_GRACE + 60.0)
        peers.append(peer)
        return peer

    ended: list[float] = []
    opts = options("hana", resume_window=0.0)
    clock = SteppedClock()
    now = clock.now

    def note(session: Session) -> None:
        if session.ending is not None and not ended:
            ended.append(now())

    opts.on_record = note
    if kind == "asyncio":

        async def main() -> float:
            nonlocal now
            now = asyncio.get_running_loop().time
            room = Room(opts, FirstLegal())
            _, port = await room.open("127.0.0.1", 0)
            joiner(port).start()
            try:
                await asyncio.wait_for(room.outcome(), 60)
                # the room's outcome comes once its match's connection is closed
                return now()
            finally:
                await room.close()

        closed = virtual_loop.run(main(), quiet=0.25)  # the peer thread's goodbye, first
    else:
        room = QtRoom(opts, now=clock.now, timer=clock.timer)
        room.listen("127.0.0.1", 0)
        room.local_turn.connect(lambda observation: room.play(observation.legal_actions[0]))
        match_closed: list[float] = []
        room.match_closed.connect(lambda: match_closed.append(clock.now()))
        joiner(room.port).start()
        try:
            # the match over and the peer's goodbye read: the grace starts (stepped time
            # stands still until the test moves it, whatever the real bytes take)
            qtbot.waitUntil(
                lambda: bool(ended) and room.match is not None and room.match.stage is CLOSING,
                timeout=60_000,
            )
            clock.advance(policy.CLOSE_GRACE - 0.25, qtbot, 0.25)
            assert match_closed == []  # not at once
            clock.advance(0.5, qtbot, 0.25)
            qtbot.waitUntil(lambda: bool(match_closed), timeout=5_000)
            closed = match_closed[0]
        finally:
            with qtbot.waitSignal(room.closed, timeout=10_000):
                room.leave()
    for peer in peers:
        peer.release.set()
        peer.join(10)
    assert ended
    waited = closed - ended[0]
    assert policy.CLOSE_GRACE <= waited <= policy.CLOSE_GRACE + 0.25, waited


# --- dialling again ----------------------------------------------------------------------


def test_a_finished_joiner_whose_host_is_gone_stops_redialling_asyncio() -> None:
    """The host drops the finished match before its goodbye and goes away (its port
    closed): the joiner, finished too, waits for no resume (policy.redial_verdict)."""
    host = Host(drop_at_end=True)
    host.start()

    async def main() -> tuple[Outcome, float]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        outcome = await asyncio.wait_for(
            join("127.0.0.1", host.port, options("taro"), FirstLegal()), 2 * WINDOW
        )
        return outcome, loop.time() - start

    # the window's 60 s would pass in no real time; the host's thread has a quarter of a
    # real second to close its port before the joiner's clock moves on to its redial
    outcome, took = virtual_loop.run(main(), quiet=0.25)
    host.join(10)
    assert host.error is None, host.error
    assert outcome.finished
    assert took < 5.0, took  # not the 60 s window: a goodbye's grace and a redial or two
    records_agree(outcome.session, host.session, acks=False)


def test_a_finished_joiner_whose_host_is_gone_stops_redialling_qt(qtbot: QtBot) -> None:
    """The same with the app's joiner, which used to dial the closed port again and again
    for the whole window."""
    host = Host(drop_at_end=True)
    host.start()
    clock = SteppedClock()
    link = QtJoin(options("taro"), now=clock.now, timer=clock.timer)
    link.local_turn.connect(lambda observation: link.play(observation.legal_actions[0]))
    suspended: list[float] = []
    link.suspended.connect(suspended.append)
    failed: list[object] = []
    link.failed.connect(failed.append)
    link.connect_to("127.0.0.1", host.port)
    qtbot.waitUntil(lambda: finished(link.session), timeout=20_000)
    qtbot.waitUntil(lambda: not host.is_alive(), timeout=10_000)  # its port closed, then
    start = clock.now()
    while not link.done and clock.now() - start < 2 * WINDOW:
        clock.advance(0.25, qtbot, 0.25)
        qtbot.wait(20)  # a redial's refusal (real) comes before the next step of the clock
    took = clock.now() - start
    assert link.done and took < 5.0, took  # not the 60 s window (as above)
    host.join(10)
    assert host.error is None, host.error
    assert suspended  # it did wait to resume, for the host's sake
    assert failed == []  # giving up is no failure: the match is over, and finished
    records_agree(link.session, host.session, acks=False)


def test_the_redial_schedule_is_the_documented_one() -> None:
    """0.2 s, 0.5 s, 1 s, then every 2 s; never past the window (docs/protocol.md)."""
    schedule = policy.RedialSchedule()
    delays = [schedule.next_delay(0.0, 100.0) for _ in range(6)]
    assert delays == [0.2, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert schedule.next_delay(99.5, 100.0) == 0.5
    schedule.reset()
    assert schedule.next_delay(0.0, 100.0) == 0.2


def test_a_suspended_joiner_redials_on_the_same_schedule_asyncio() -> None:
    """The host drops mid-match and is gone: the joiner dials again after 0.2 s, 0.5 s,
    1 s, then every 2 s (policy.RedialSchedule), on a virtual clock (exact, no real
    waiting: tests/virtual_loop.py)."""
    host = Host(drop_at=4)
    host.start()
    calls: list[float] = []
    stop = asyncio.Event()

    async def redial() -> list[tuple[str, int]]:
        calls.append(asyncio.get_running_loop().time())
        if len(calls) == 5:
            stop.set()
        return [("127.0.0.1", host.port)]

    async def main() -> Outcome:
        return await asyncio.wait_for(
            join("127.0.0.1", host.port, options("taro"), FirstLegal(), stop=stop, redial=redial),
            60,
        )

    outcome = virtual_loop.run(main())
    host.join(10)
    assert host.error is None, host.error
    gaps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert len(gaps) == 4, calls
    for gap, expected in zip(gaps, policy.REDIAL_DELAYS[1:] + (2.0,), strict=True):
        assert gap == pytest.approx(expected, abs=1e-6), gaps
    assert outcome.session is not None and outcome.session.ending is not None
    assert not outcome.session.ending.finished  # the player left


def test_a_suspended_joiner_redials_on_the_same_schedule_qt(qtbot: QtBot) -> None:
    """The same with the app's joiner, on a stepped clock (exact, no real waiting)."""
    clock = SteppedClock()
    host = Host(drop_at=4)
    host.start()
    link = QtJoin(options("taro"), now=clock.now, timer=clock.timer)
    link.local_turn.connect(lambda observation: link.play(observation.legal_actions[0]))
    dials: list[float] = []
    real_dial = link._dial

    def dial(host: str, port: int, timeout: float) -> None:
        dials.append(clock.now())
        real_dial(host, port, timeout)

    link._dial = dial  # type: ignore[method-assign]
    link.connect_to("127.0.0.1", host.port)
    qtbot.waitUntil(lambda: link.is_suspended, timeout=20_000)
    host.join(10)
    assert host.error is None, host.error
    start = clock.now()
    for _ in range(60):  # 6 s of the stepped clock; each refused dial is seen at once
        clock.advance(0.1, qtbot, step=0.05)
        qtbot.waitUntil(lambda: link.is_suspended, timeout=5_000)
    redials = [round(t - start, 2) for t in dials[1:]]
    assert redials[:5] == [0.2, 0.7, 1.7, 3.7, 5.7], redials
    link.leave()


# --- deal aborts (docs/protocol.md) ------------------------------------------------------


@pytest.mark.parametrize("kind", HOSTS)
def test_a_joiner_gone_after_seeing_its_cards_and_never_back_is_counted_in_its_pin(
    kind: str, qtbot: QtBot
) -> None:
    """Attack (docs/protocol.md, "Deal aborts"): the joiner sees its cards of the first
    deal, before any move, and its connection goes; it never resumes. When the window runs
    out the ending is as suspicious as a ``bye`` there, and it counts in the joiner's pin
    the same. Both transports used to count only endings that came through a connection:
    a peer that disliked its hand had only to pull the cable, or stop moving."""
    opts = options("hana", resume_window=1.0)
    joiner = partial(Joiner, drop_at=0, send_then_drop=True)
    hosted_match, peer = hosted(kind, qtbot, opts, joiner, moves=False)
    assert peer.error is None, peer.error
    session = hosted_match.session
    assert session is not None and session.lockstep is not None
    assert session.lockstep.seq == 0  # the first deal laid out, nobody had moved
    ending = session.ending
    assert ending is not None and not ending.finished and ending.suspicious, ending
    assert opts.known_peers.toss_aborts("taro", peer.identity.public_key) == 1
