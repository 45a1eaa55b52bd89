"""One peer connection from its first byte to its close, sans-I/O: frames, handshake, session.

A transport (asyncio streams here, Qt sockets in the lobby) owns the socket and does only
this: pass received bytes to :meth:`Connection.receive_data`, write
:meth:`Connection.data_to_send`, call :meth:`Connection.tick` at :meth:`Connection.next_timer`,
report the end of the stream with :meth:`Connection.connection_lost`, and close the socket
once :attr:`Connection.closed` and everything is written. The local seat's moves go in
through :meth:`Connection.play` when :attr:`Connection.local_turn` is set.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net.errors import (
    DecryptError,
    HandshakeError,
    IdentityFileError,
    PeerRefused,
    ProtocolError,
    UnexpectedMessage,
)
from koikoi.net.handshake import Established, Handshake, Phase, refuse_message
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.resume import (
    Resumed,
    ResumeRefused,
    Suspended,
    check_claim,
    finished,
    read_reply,
    resume_message,
    resume_schema,
    suspendable,
)
from koikoi.net.roles import Role
from koikoi.net.session.after import AfterEvent, AfterMatch
from koikoi.net.session.clock import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_CLOCK,
    DEFAULT_SILENCE_TIMEOUT,
    ClockSetting,
)
from koikoi.net.session.core import Session
from koikoi.net.session.events import Ended, SessionEvent
from koikoi.net.wire import FrameDecoder, encode_frame, encode_message

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class HandshakeDone:
    """Both sides are authenticated and agree; the coin toss starts (the four cards come at
    its reveal, as :class:`~koikoi.net.session.events.CardsShown`)."""

    established: Established


@dataclass(frozen=True)
class HandshakeFailed:
    """The handshake failed; ``error`` says why (one line: ``str(error)``)."""

    error: ProtocolError


ConnectionEvent = HandshakeDone | HandshakeFailed | SessionEvent | Suspended | Resumed | AfterEvent


class Connection:
    """One side of one connection. ``silence_timeout`` also bounds the whole handshake.

    ``hold_for_confirmation`` makes the session wait for :meth:`confirm` once the four cards
    are drawn (:class:`~koikoi.net.session.core.Session`): the players compare them before the
    first deal (in version 4 also before the toss's outcome is drawn).

    A peer that abandons the toss after seeing the result, or a deal after seeing its cards
    (``Ending.suspicious``), is counted in its pin
    (:meth:`~koikoi.net.identity.KnownPeers.count_toss_abort`) as the session ends.
    """

    def __init__(
        self,
        role: Role,
        *,
        identity: Identity,
        nickname: str,
        settings: Settings,
        password: str,
        known_peers: KnownPeers,
        now: float,
        silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
        toss_secret: bytes | None = None,
        hold_for_confirmation: bool = False,
        move_clock: float | None = None,
        abandon_after: float = DEFAULT_ABANDON_AFTER,
        dealings: tuple[str, ...] = ("seed",),
        clock: ClockSetting = DEFAULT_CLOCK,
        stamps: tuple[str, ...] = (),
        after: bool = False,
    ) -> None:
        self.role = role
        self.move_clock = move_clock
        self.abandon_after = abandon_after
        self.hold_for_confirmation = hold_for_confirmation
        self.identity = identity
        self.nickname = nickname
        self.silence_timeout = silence_timeout
        self.handshake = Handshake(
            role,
            identity=identity,
            nickname=nickname,
            settings=settings,
            password=password,
            known_peers=known_peers,
            dealings=dealings,
            clock=clock,
            stamps=stamps,
            after=after,
        )
        self.session: Session | None = None
        self.after: AfterMatch | None = None
        """The connection after the finished match, when both hellos said ``after``
        (:mod:`koikoi.net.session.after`): open from the session's close until a side
        leaves."""
        self.failure: ProtocolError | None = None
        self.known_peers = known_peers
        self.toss_aborts: int | None = None
        """The peer's count of abandoned tosses after this session counted one, else None."""
        self._toss_secret = toss_secret
        self._decoder = FrameDecoder()
        self._out = bytearray()
        self._deadline = now + silence_timeout
        self._closed = False
        self.busy: Callable[[], bool] | None = None
        """For a host: asked before accepting the joiner's last handshake message; when it
        says True (another match started meanwhile) the handshake is refused as ``busy``."""
        self.resume_window = 0.0
        """Seconds a session whose connection drops mid-match stays suspended, waiting to be
        resumed over a new connection (:mod:`koikoi.net.resume`); 0: a drop ends it."""
        self.resuming: Session | None = None
        """For a joiner: the suspended session this connection resumes (set before start)."""
        self.resume_candidate: Callable[[bytes], Session | None] | None = None
        """For a host that is busy: the suspended session played with the identity key given
        (the joiner's, proven by the handshake), if any; the connection then resumes it."""
        self.suspended: Suspended | None = None
        """Set when the connection dropped mid-match and left its session suspended."""
        self._resume: tuple[Session, Established] | None = None
        self._goodbye = False
        """The peer's ``bye`` ``finished`` arrived after the match finished here."""
        self._rematch_asked = False
        """Rematch was clicked before the connection after the match opened."""
        self._peer_holds = -1
        """How many log entries the peer said it holds in its ``resume`` (-1: none yet)."""

    # --- state ---------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Write what :meth:`data_to_send` still holds, then close the socket."""
        if self._closed:
            return True
        session = self.session
        if session is None or not session.closed:
            return False
        return self.after is None or self.after.closed

    @property
    def after_open(self) -> bool:
        """The match is over and the connection stays open after it (both hellos said
        ``after``): stamps, :meth:`rematch` and goodbyes until a side leaves."""
        return self._after_open is not None

    @property
    def _after_open(self) -> AfterMatch | None:
        after = self.after
        return after if after is not None and not after.closed and not self._closed else None

    def _open_after(self, now: float) -> None:
        """The session closed on a finished match and both hellos said ``after``: the
        connection stays open for stamps, a rematch call and goodbyes."""
        session = self.session
        if self.after is not None or session is None or not session.closed or self._closed:
            return
        ending, established = session.ending, self.handshake.result
        if established is not None and established.after and ending is not None and ending.finished:
            self.after = AfterMatch(session, now)
            self.after.goodbye = self._goodbye or session.peer_said_goodbye
            if self._rematch_asked:  # clicked while the last acknowledgement was awaited
                self.after.rematch(now)

    @property
    def local_turn(self) -> Observation | None:
        return None if self.session is None else self.session.local_turn

    def data_to_send(self) -> bytes:
        if self.session is not None:
            for payload in self.session.outgoing():
                self._out += encode_frame(payload)
        data, self._out = bytes(self._out), bytearray()
        return data

    def next_timer(self) -> float | None:
        if self.closed:
            return None
        after = self._after_open
        if after is not None:
            return after.next_timer()
        if self.session is not None:
            return self.session.next_timer()
        return self._deadline

    # --- inputs --------------------------------------------------------------------------

    def start(self) -> None:
        """The joiner's hello; nothing for the host, which waits for it."""
        for payload in self.handshake.start():
            self._out += encode_frame(payload)

    @property
    def awaiting_goodbye(self) -> bool:
        """The match finished with this side's move and the peer has not yet said ``bye``
        ``finished``: keep reading; a drop now suspends the session (resume may still owe
        the peer the last entry)."""
        session = self.session
        if self.resume_window <= 0 or self.suspended is not None or self._goodbye:
            return False
        if not finished(session) or session is None or session.lockstep is None:
            return False
        if session.peer_said_goodbye:
            return False
        lockstep = session.lockstep
        last_by_peer = (
            bool(lockstep.actions) and lockstep.actions[-1]["seat"] == self.role.peer.seat
        )
        # the peer may lack entries, or this side's ack of its last one; or this side lacks
        # the ack of its own last one: a resume brings each (docs/protocol.md, "Resume")
        return self._peer_holds < lockstep.seq or last_by_peer or bool(session.unacknowledged)

    def unclean_end(self, now: float) -> list[ConnectionEvent]:
        """A joiner whose finished match's connection ended in an error rather than the
        host's clean close: the host may not have its goodbye, and may wait for a resume
        to learn that this side holds every entry. The session is suspended again, so
        the joiner dials once more (the host tells it when there is nothing to resume)."""
        if self.resume_window <= 0 or not finished(self.session) or self.suspended is not None:
            return []
        return self._suspend(now, "the connection ended in an error as the match ended")

    def receive_data(self, data: bytes, now: float) -> list[ConnectionEvent]:
        if self.closed and not self.awaiting_goodbye:
            return []
        try:
            frames = self._decoder.feed(data)
        except ProtocolError as error:
            return [] if self.closed else self._bad_stream(now, str(error))
        events: list[ConnectionEvent] = []
        for frame in frames:
            after = self._after_open
            if after is not None:
                events.extend(after.receive(frame, now))
                self._goodbye = self._goodbye or after.goodbye
                continue
            if self.closed:
                if self.awaiting_goodbye and self.session is not None:
                    self._goodbye = self.session.is_goodbye(frame)
                continue
            if self.session is not None:
                events.extend(self._counted(self.session.receive(frame, now)))
                self._open_after(now)
            elif self._resume is not None:
                events.extend(self._resume_step(frame, now))
            else:
                events.extend(self._handshake_step(frame, now))
        return events

    def play(self, action: Action, now: float) -> list[ConnectionEvent]:
        if self.session is None:
            raise ValueError("no session yet")
        return self._counted(self.session.play(action, now))

    def set_ready(self, now: float, ready: bool) -> list[ConnectionEvent]:
        """The local table is ready for its seat to act, or not (:meth:`Session.set_ready`);
        nothing before the handshake."""
        if self.session is not None and not self.closed:
            self.session.set_ready(ready, now)
        return self._counted([])

    def confirm(self, now: float, same: bool = True) -> list[ConnectionEvent]:
        """The local player compared the four cards: the same (the first deal comes once the
        peer confirmed too) or not (the session ends, the peer is told). Raises
        :class:`ValueError` before the handshake."""
        if self.session is None:
            raise ValueError("no session yet: the four cards come after the handshake")
        if same:
            return self._counted(self.session.confirm(now))
        return self._counted(self.session.reject_cards(now))

    def tick(self, now: float) -> list[ConnectionEvent]:
        if self.closed:
            return []
        after = self._after_open
        if after is not None:
            return list(after.tick(now))
        session = self.session
        if session is not None:
            if self._may_suspend() and now - session.heard_at >= session.silence_timeout:
                seconds = f"{session.silence_timeout:g}"
                return self._suspend(now, f"the peer sent nothing for {seconds} s", silent=True)
            events = self._counted(session.tick(now))
            self._open_after(now)
            return events
        if now >= self._deadline:
            seconds = f"{self.silence_timeout:g}"
            return self._fail(
                ProtocolError(
                    f"the peer did not finish the handshake within {seconds} s",
                    code="timeout",
                    seconds=seconds,
                )
            )
        return []

    def leave(self, now: float, reason: str = "the player left") -> list[ConnectionEvent]:
        after = self._after_open
        if after is not None:
            return list(after.leave(now))
        if self.closed:
            return []
        if self.session is not None:
            return self._counted(self.session.leave(now, reason))
        return self._fail(ProtocolError(f"the handshake was abandoned: {reason}"))

    def rematch(self, now: float) -> bool:
        """The player clicked Rematch after the match: the peer is told (``rematch``), at
        once, or as the connection after the match opens when the match's last waits still
        run; False when none is open or to come (:mod:`~koikoi.net.session.after`)."""
        after = self._after_open
        if after is not None:
            return after.rematch(now)
        session, established = self.session, self.handshake.result
        if self._closed or session is None or session.closed or established is None:
            return False
        if not established.after or session.ending is None or not session.ending.finished:
            return False
        self._rematch_asked = True
        return True

    def send_stamp(self, stamp: str, now: float) -> bool:
        """A stamp to the peer, during the match or after it; False when none can go (the
        peer takes none, the rate holds it back, the connection is closed)."""
        after = self._after_open
        if after is not None:
            return after.send_stamp(stamp, now)
        if self.session is None or self.closed:
            return False
        return self.session.send_stamp(stamp, now)

    def abandon(self, now: float) -> list[ConnectionEvent]:
        """End the match as abandoned by the peer (see :meth:`Session.abandon`; counted in
        its pin where it abandoned a toss or a deal); raises :class:`ValueError` before the
        session or while the peer's time is not up."""
        if self.session is None:
            raise ValueError("no session yet")
        return self._counted(self.session.abandon(now))

    def connection_lost(self, now: float, detail: str = "") -> list[ConnectionEvent]:
        # also while the last move's ack is still read: the peer may lack the move or the
        # mover its ack, and the resume brings both (docs/protocol.md, "Resume")
        after = self._after_open
        if self.awaiting_goodbye and self.session is not None:
            if after is not None:
                after.closed = True  # the match waits to be resumed: nothing more after it
            events: list[ConnectionEvent] = list(self.session.stop_waiting())
            reason = "the connection dropped before the peer had the last move"
            return events + self._suspend(now, reason)
        if after is not None:
            return list(after.connection_lost())
        if self.closed:
            return []
        try:
            self._decoder.close()
        except ProtocolError as error:
            detail = detail or str(error)
        if self.session is not None:
            if self._may_suspend():
                reason = "the connection dropped" + (f": {detail}" if detail else "")
                return self._suspend(now, reason, detail=detail)
            return self._counted(self.session.connection_lost(now, detail))
        reason = "the peer closed the connection during the handshake"
        return self._fail(ProtocolError(reason + (f": {detail}" if detail else "")))

    # --- steps ---------------------------------------------------------------------------

    def _bad_stream(self, now: float, reason: str) -> list[ConnectionEvent]:
        if self.session is not None:
            return self._counted(self.session.protocol_failure(now, reason))
        return self._fail(
            UnexpectedMessage(f"handshake failed: {reason}", refuse_message("protocol"))
        )

    def _handshake_step(self, frame: bytes, now: float) -> list[ConnectionEvent]:
        busy = self.busy is not None and self.handshake.phase is Phase.AWAIT_NOISE3 and self.busy()
        try:
            replies = self.handshake.receive(frame)
        except HandshakeError as error:
            return self._fail(error)
        except ProtocolError as error:  # a frame after the handshake failed or ended
            return self._fail(error)
        candidate = None
        if busy and self.handshake.result is not None and self.resume_candidate is not None:
            candidate = self.resume_candidate(self.handshake.result.peer.public_key)
        if candidate is not None and self.handshake.result is not None:
            # the peer of a suspended session dialled again: ready goes, then its resume
            for reply in replies:
                self._out += encode_frame(reply)
            self._resume = (candidate, self.handshake.result)
            return []
        if busy and self.handshake.result is not None:
            # docs/protocol.md "Ready and refuse": after noise3 the refusal goes encrypted, in
            # place of ready (nonce 0), so the joiner reads "busy", not a failed decryption.
            send = self.handshake.result.send
            send.set_nonce(0)
            self._out += encode_frame(send.encrypt_with_ad(b"", refuse_message("busy")))
            return self._fail(PeerRefused("the room started a match with someone else", "busy"))
        for reply in replies:
            self._out += encode_frame(reply)
        established = self.handshake.result
        if established is None:
            return []
        if self.resuming is not None:
            return self._start_resume(self.resuming, established)
        self.session = Session(
            established,
            self.identity,
            self.nickname,
            now=now,
            silence_timeout=self.silence_timeout,
            toss_secret=self._toss_secret,
            hold_for_confirmation=self.hold_for_confirmation,
            move_clock=self.move_clock,
            abandon_after=self.abandon_after,
        )
        self.session.start()
        return [HandshakeDone(established)]

    def _counted(self, events: list[SessionEvent]) -> list[ConnectionEvent]:
        """``events``, an abort among them counted in the peer's pin (:func:`count_aborts`)."""
        counted = count_aborts(events, self.session, self.known_peers)
        if counted is not None:
            self.toss_aborts = counted
        return list(events)

    # --- resume (koikoi/net/resume.py) ---------------------------------------------------

    def _may_suspend(self) -> bool:
        return self.resume_window > 0 and suspendable(self.session)

    def _suspend(
        self, now: float, reason: str, *, silent: bool = False, detail: str = ""
    ) -> list[ConnectionEvent]:
        """The connection is gone, the session waits for another one (it stays open)."""
        self.suspended = Suspended(now + self.resume_window, reason, silent, detail)
        self._closed = True
        logger.info("session suspended: %s", reason)
        return [self.suspended]

    def detach(self, now: float, reason: str) -> list[ConnectionEvent]:
        """Another connection takes the session over: this one lets go of it and closes."""
        if self.session is None or self.suspended is not None:
            return []
        if self.closed and not self.awaiting_goodbye:
            return []
        return self._suspend(now, reason)

    def _start_resume(self, session: Session, established: Established) -> list[ConnectionEvent]:
        """The joiner's new handshake is done: check the host is the session's, say resume."""
        if established.peer.public_key != session.peer.public_key:
            return self._refuse_resume(ResumeRefused("key"), established)
        self._out += encode_frame(established.send.encrypt_with_ad(b"", resume_message(session)))
        self._resume = (session, established)
        return []

    def _resume_step(self, frame: bytes, now: float) -> list[ConnectionEvent]:
        """The peer's ``resume`` (or its refusal): check it, resend, carry the session on."""
        assert self._resume is not None
        session, established = self._resume
        expected = "resume"
        try:
            plaintext = established.recv.decrypt_with_ad(b"", frame)
            claim = read_reply(plaintext, expected, resume_schema(session))
            resend = check_claim(session, established.peer.public_key, claim)
        except ResumeRefused as error:
            return self._refuse_resume(error, established)
        except DecryptError:
            return self._fail(ProtocolError("a resume message did not decrypt"))
        except ProtocolError as error:
            return self._fail(ProtocolError(f"resume failed: {error}"))
        if self.role is Role.HOST:
            own = resume_message(session)
            self._out += encode_frame(established.send.encrypt_with_ad(b"", own))
        acks = session.acks_to_resend(claim.get("seq", int))
        session.reconnect(established, now, acks + resend)
        self._peer_holds = claim.get("seq", int)
        self.session = session
        self._resume = None
        self.resuming = None
        logger.info("session resumed: %d entries and dealing messages resent", len(resend))
        return [Resumed(len(resend))]

    def _refuse_resume(
        self, error: ResumeRefused, established: Established
    ) -> list[ConnectionEvent]:
        if not error.by_peer:
            refusal = encode_message("noresume", reason=error.code)
            error.farewell = established.send.encrypt_with_ad(b"", refusal)
        return self._fail(error)

    def _fail(self, error: ProtocolError) -> list[ConnectionEvent]:
        farewell = error.farewell if isinstance(error, HandshakeError) else None
        if farewell is not None:
            self._out += encode_frame(farewell)
        self.failure = error
        self._closed = True
        logger.info("handshake failed: %s", error)
        return [HandshakeFailed(error)]


def count_aborts(
    events: Sequence[object], session: Session | None, known_peers: KnownPeers
) -> int | None:
    """Count in the peer's pin a toss it abandoned after seeing the result, or a deal it
    abandoned after seeing its cards, before its first move (docs/protocol.md, "Deal
    aborts": one count for both), however the ending came: a ``bye``, a drop or silence
    not resumed in time, time run out. The pin's count after it; None when no ending of
    ``events`` counts (or the pins cannot be written: the match record still says it).
    Every end of a session goes through it: a connection's steps, and the sessions no
    connection holds (expired or left while suspended)."""
    counted = None
    for event in events:
        if not isinstance(event, Ended) or session is None:
            continue
        ending = event.ending
        if ending.suspicious and ending.by is session.role.peer:
            peer = session.peer
            try:
                counted = known_peers.count_toss_abort(peer.nickname, peer.public_key)
            except (IdentityFileError, OSError) as error:
                logger.warning("cannot count the abandoned toss in the pins: %s", error)
            if ending.stage == "toss":
                logger.info("the peer abandoned the coin toss after seeing the result")
            else:
                logger.info("the peer abandoned a deal after seeing its cards")
    return counted
