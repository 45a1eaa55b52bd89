"""The :class:`Session` façade: the inputs, the lockstep of the moves and what the transport
reads, composed of the toss stage (:mod:`~koikoi.net.session.toss`), the move clock
(:mod:`~koikoi.net.session.clock`), the acknowledgements (:mod:`~koikoi.net.session.acks`),
private dealing (:mod:`~koikoi.net.session.private_dealing`), the endings
(:mod:`~koikoi.net.session.farewell`) and the record and journal
(:mod:`~koikoi.net.session.record`, :mod:`~koikoi.net.session.journal`); the package's
docstring (:mod:`koikoi.net.session`) says how a transport drives it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from koikoi.engine.match import Observation
from koikoi.engine.record import GameRecord
from koikoi.engine.round import Action, IllegalAction
from koikoi.net.errors import DecryptError, ProtocolError
from koikoi.net.fair import CoinToss
from koikoi.net.handshake import Established
from koikoi.net.hello import PRIVATE_VERSION, protocol_name
from koikoi.net.identity import Identity, verify_signature
from koikoi.net.lockstep import Lockstep, b64, decode_entry, signed_data
from koikoi.net.roles import Role
from koikoi.net.session import farewell, stamps, turns
from koikoi.net.session import record as _record
from koikoi.net.session import toss as toss_stage
from koikoi.net.session.acks import LAST_ACK_GRACE, Acks
from koikoi.net.session.clock import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_SILENCE_TIMEOUT,
    LinkClock,
    MoveClock,
    SafeMove,
    Turn,
    TurnClock,
    safe_action,
)
from koikoi.net.session.endings import (
    CARDS_DIFFER,
    AuditResult,
    Ending,
    How,
    Stage,
    clean,
)
from koikoi.net.session.events import (
    Ended,
    MovePlayed,
    OutOfTime,
    PeerOverdue,
    SessionEvent,
)
from koikoi.net.session.journal import Journal
from koikoi.net.session.messages import ACK, BYE, CLOCK, DEALING, MOVE, PING
from koikoi.net.session.private_dealing import PrivateDealing
from koikoi.net.session.record import Names
from koikoi.net.stamps import STAMP, StampLimits
from koikoi.net.wire import Message, Record, decode_message, encode_message

logger = logging.getLogger("koikoi.net.session")


class Session:
    """One side of a session; ``established`` is the finished handshake.

    ``silence_timeout`` (seconds) is how long the peer may stay silent; a heartbeat goes out
    whenever this side has sent nothing for a third of it. ``toss_secret`` fixes this side's
    coin-toss contribution to the four cards (rA or rB), ``toss_second`` its toss random of
    version 4 (tA or tB; tests only).

    The move clock is the one the handshake agreed (``established.clock``, seconds for each
    action and a reserve for the match), or ``move_clock`` seconds for each move with no
    reserve: when the local seat's runs out (it runs only while :meth:`set_ready` says the
    local table is ready), :meth:`tick` says :class:`OutOfTime` and the client plays
    :meth:`automatic_action`. ``abandon_after`` (seconds) is how long the peer may go
    without a move past what its clock gave it, heartbeats or not, before :meth:`tick` says
    :class:`PeerOverdue` and :meth:`abandon` may end the match.

    The toss runs at once; its reveal draws the four cards (:class:`CardsShown`) and each
    side sends ``confirm`` once its player sees the same four on both screens; in version 4
    the joiner then sends its ``toss`` and the host answers, which draws the outcome; the
    first deal (:class:`TossDone`) comes once both confirmed and the outcome is drawn.
    ``hold_for_confirmation`` makes this side wait for :meth:`confirm` (the desktop app);
    off, it confirms by itself as the cards are drawn (docs/protocol.md, "Waiting for the
    four cards"). :meth:`reject_cards` ends the session instead.

    Its parts, each with its own state: the link's times (:class:`LinkClock`) and the move
    clock (:class:`TurnClock`), the acknowledgements and the waits after the end
    (:class:`Acks`), the journal of a privately dealt side (:class:`Journal`) and, from the
    first privately dealt deal on, its dealing (:class:`PrivateDealing`).
    """

    def __init__(
        self,
        established: Established,
        identity: Identity,
        nickname: str,
        *,
        now: float,
        silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
        toss_secret: bytes | None = None,
        toss_second: bytes | None = None,
        hold_for_confirmation: bool = False,
        move_clock: float | None = None,
        abandon_after: float = DEFAULT_ABANDON_AFTER,
    ) -> None:
        if silence_timeout <= 0:
            raise ValueError("silence_timeout must be positive")
        agreed = established.clock
        if move_clock is None:  # the room's clock, as the handshake agreed it
            self._moves = TurnClock(agreed.seconds, abandon_after, agreed.reserve)
        else:  # a fixed clock for each move, no reserve (tests, ``--move-clock``)
            self._moves = TurnClock(move_clock, abandon_after)
        self.clock_setting = agreed
        """The move clock agreed in the handshake (the record and the results say it)."""
        if established.dealing not in ("seed", "private"):
            raise ValueError(f"unknown dealing {established.dealing!r}")
        self.dealing = established.dealing
        """How the deals are made (CLI.md's ``dealing``): ``private`` or ``seed``."""
        self._private: PrivateDealing | None = None
        """Private dealing, from the first deal on (None with the joint seed)."""
        self._journal = Journal()
        self.stamps = StampLimits(established.stamps, established.peer_stamps)
        self.protocol = protocol_name(established.version)
        self.role = established.role
        self.seat = self.role.seat
        self.settings = established.settings
        self.session_id = established.handshake_hash
        self.peer = established.peer
        self.identity = identity
        self.silence_timeout = silence_timeout
        self.seed_wait = silence_timeout
        """Private dealing: seconds the peer's seed of a deal over may come after this side's
        (docs/protocol.md, "End of a deal"); later, it withheld it and refused the audit."""
        self.heartbeat_interval = silence_timeout / 3
        self.stage = Stage.TOSS
        self.cards_first = established.version >= PRIVATE_VERSION
        """Version 4: the four cards are compared before the toss's outcome is drawn."""
        self.toss = CoinToss(
            self.role,
            self.session_id,
            secret=toss_secret,
            toss_secret=toss_second,
            cards_first=self.cards_first,
        )
        self.lockstep: Lockstep | None = None
        self.ending: Ending | None = None
        self._tx = established.send
        self._rx = established.recv
        self._out: list[bytes] = []
        self.confirmed = not hold_for_confirmation
        """Whether the local player confirmed the four cards (always True without the hold;
        a :meth:`confirm` before the cards are drawn stands for them when they come)."""
        self.peer_confirmed = False
        """Whether the peer's ``confirm`` arrived."""
        self._confirm_sent = False
        self._clock = LinkClock.at(now)
        self._acks = Acks(established.session_signatures)
        self._names = Names(
            nickname,
            established.peer.nickname,
            {self.role: identity.public_key, self.role.peer: established.peer.public_key},
        )

    # --- the parts' figures, as the transports and the bench read them -------------------

    @property
    def move_clock(self) -> float:
        """Seconds of each move's clock."""
        return self._moves.move_clock

    @move_clock.setter
    def move_clock(self, seconds: float) -> None:
        self._moves.move_clock = seconds

    @property
    def abandon_after(self) -> float:
        """Seconds the peer may go without a move before it may be declared gone."""
        return self._moves.abandon_after

    @abandon_after.setter
    def abandon_after(self, seconds: float) -> None:
        self._moves.abandon_after = seconds

    @property
    def _turn(self) -> Turn:
        """The turn's clock (the screenshots set when it began)."""
        return self._moves.turn

    @property
    def dealer_seeds(self) -> list[bytes]:
        """Private dealing: seeds for the coming deals (:attr:`Journal.dealer_seeds`)."""
        return self._journal.dealer_seeds

    @property
    def dealing_received(self) -> int:
        """The peer's dealing messages taken (:attr:`Journal.dealing_received`)."""
        return self._journal.dealing_received

    @dealing_received.setter
    def dealing_received(self, count: int) -> None:
        self._journal.dealing_received = count

    @property
    def deal_seconds(self) -> list[float]:
        """Per deal, start to laid out (:attr:`PrivateDealing.deal_seconds`)."""
        return [] if self._private is None else self._private.deal_seconds

    @property
    def play_seconds(self) -> list[float]:
        """Per deal, laid out to last move (:attr:`PrivateDealing.play_seconds`)."""
        return [] if self._private is None else self._private.play_seconds

    # --- what the transport reads --------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Send what :meth:`outgoing` still holds, then close the connection."""
        return self.stage is Stage.CLOSED and not self._waiting

    @property
    def _waiting(self) -> bool:
        """The match is over, and the last move's acknowledgement or the peer's seed of the
        last deal is still read (for the record and the audit: the result is final)."""
        return self._acks.waiting

    @property
    def local_turn(self) -> Observation | None:
        """The local seat's observation when it is to move, else None."""
        if self.stage is not Stage.PLAYING or self.lockstep is None:
            return None
        match = self.lockstep.match
        if match.current_seat() != self.seat:
            return None
        if self._private is not None and self._private.waits_for_keys:
            return None
        return match.observation(self.seat)

    @property
    def unacknowledged(self) -> tuple[int, ...]:
        """Sequence numbers of this side's entries the peer has not acknowledged yet, oldest
        first: what a resumed connection sends again (docs/protocol.md, "Session messages")."""
        return tuple(self._acks.unacked)

    def outgoing(self) -> list[bytes]:
        """Frame payloads (Noise ciphertexts) to send, in order; each is returned once."""
        out, self._out = self._out, []
        return out

    def next_timer(self) -> float | None:
        """When :meth:`tick` next has something to do (None once closed)."""
        if self.closed:
            return None
        wait_ends = self._acks.wait_ends
        if wait_ends is not None:
            return wait_ends
        clock = self._clock
        due = min(clock.last_rx + self.silence_timeout, clock.last_tx + self.heartbeat_interval)
        private = self._private
        if private is not None and private.seed_since is not None:
            seed_due = private.seed_since + self.seed_wait
            if seed_due > clock.now and private.peer_seed_owed():
                due = min(due, seed_due)  # (once past, the silence timeout decides)
        turn = self._clock_due()
        return due if turn is None else min(due, turn)

    def clock(self, now: float) -> MoveClock | None:
        """The move clock at ``now``: whose it is and how it stands; None outside play."""
        return turns.clock_state(self, now)

    def automatic_action(self, choose: SafeMove) -> Action:
        """A safe move for the local seat whose clock ran out: ``choose``'s (the client's
        computer player, such as the greedy player's ``choose``), and shobu whenever koikoi
        or shobu is asked (``ValueError`` when not its move). ``choose`` gets a random seeded
        by the session and the log's place, so the move is the same wherever it is made."""
        observation = self.local_turn
        if observation is None or self.lockstep is None:
            raise ValueError("it is not this seat's move")
        return safe_action(observation, choose, self.session_id, self.lockstep.seq)

    def abandon(self, now: float) -> list[SessionEvent]:
        """End the match as abandoned by the peer, which sent no move for what its clock
        gave it and the abandon time (:func:`~.turns.abandon`).

        The peer is told (``bye`` ``abandoned``); the record keeps every move signed so far.
        Raises :class:`ValueError` when it is not the peer's turn or its time is not up.
        """
        return turns.abandon(self, now)

    def _clock_seat(self) -> int | None:
        return turns.clock_seat(self)

    def _clock_due(self) -> float | None:
        return turns.clock_due(self)

    # --- inputs --------------------------------------------------------------------------

    @property
    def cards(self) -> tuple[str, str, str, str] | None:
        """The four cards to compare, once drawn (None before)."""
        return self.toss.cards

    def start(self) -> None:
        """The host commits to its coin-toss number; the joiner has nothing to send."""
        for message in self.toss.start():
            self._send(message)

    def confirm(self, now: float) -> list[SessionEvent]:
        """The local player sees the same four cards as the peer: ``confirm`` goes out, and
        the first deal comes once the peer's ``confirm`` is in too (:class:`TossDone`).

        Before the cards are drawn it stands for them (a rematch with a key already
        compared). Does nothing when already confirmed or closed.
        """
        if self.closed or self.confirmed:
            return []
        self._clock.now = now
        self.confirmed = True
        return self._confirm_and_deal()

    def reject_cards(self, now: float) -> list[SessionEvent]:
        """The local player says the four cards differ: the match never starts.

        The peer is told by a ``bye`` (``cheat``, a disagreement) whose detail says the cards
        differ; both sides end with ``how`` = ``cards``. Only before the first deal. In
        version 4 it comes before the toss's outcome is drawn and counts against nobody; in
        version 2 the toss is over, and refusing the cards counts as abandoning it after
        seeing the result.
        """
        if self.closed:
            return []
        if self.stage is not Stage.TOSS:
            raise ValueError("the four cards are compared before the first deal, not after it")
        self._clock.now = now
        return self._close(
            self._ending(False, How.CARDS, None, CARDS_DIFFER),
            announce="cheat",
            detail=CARDS_DIFFER,
        )

    def receive(self, payload: bytes, now: float) -> list[SessionEvent]:
        """One frame payload from the peer."""
        if self.closed:
            return []
        if self.stage is Stage.CLOSED:
            self._clock.now = self._clock.last_rx = now
            return farewell.after_the_end(self, payload)
        self._clock.now = self._clock.last_rx = now
        try:
            plaintext = self._rx.decrypt_with_ad(b"", payload)
        except DecryptError:
            return self._fail(
                How.PROTOCOL,
                self.role.peer,
                "a message from the peer did not decrypt: it was changed, replayed, reordered "
                "or dropped on the way",
            )
        try:
            message = decode_message(plaintext, self._expected())
        except ProtocolError as error:
            return self._fail(How.PROTOCOL, self.role.peer, f"the peer sent {error}")
        if message.kind == "ping":
            return []
        if message.kind == "stamp":  # nor a stamp (koikoi/net/session/stamps.py)
            return stamps.on_stamp(self, message.fields.get("id", str))
        if message.kind == "clock":  # not journaled: it changes no state a replay needs
            fields = message.fields
            turns.on_clock(self, fields.get("ready", bool), fields.get("reserve", int))
            return []
        if self.dealing == "private" and self.lockstep is not None:
            self._journal.items.append(["in", b64(plaintext)])
        return self._take(plaintext, message)

    def _take(self, plaintext: bytes, message: Message) -> list[SessionEvent]:
        """One decrypted message of the peer (not a ping), decoded."""
        if message.kind != "ack":
            self._acks.replayed = False
        if message.kind == "bye":
            reason = message.fields.get("reason", str)
            return self._on_bye(reason, message.fields.maybe("detail", str))
        if message.kind == "move":
            return self._on_move(
                message.fields.get("entry", bytes), message.fields.get("sig", bytes)
            )
        if message.kind == "confirm":
            self.peer_confirmed = True
            return self._confirm_and_deal()
        if message.kind == "ack":
            return self._on_ack(message.fields.get("ack", bytes), message.fields.get("sig", bytes))
        if message.kind in DEALING:
            assert self._private is not None  # DEALING is expected only then
            return self._private.on_dealing(plaintext, message)
        return toss_stage.on_toss(self, plaintext)

    def play(self, action: Action, now: float) -> list[SessionEvent]:
        """The local seat's move: applied, signed, sent.

        Raises :class:`ValueError` when it is not the local seat's move and
        :class:`~koikoi.engine.round.IllegalAction` for an illegal one (a local bug: nothing
        is sent and nothing changes).
        """
        if self.local_turn is None:
            raise ValueError("it is not this seat's move")
        self._clock.now = now
        private = self._private
        if private is not None:
            private.lockstep.match.round.check(action, self.seat)  # type: ignore[union-attr]
            self._journal.items.append(["play", str(action)])
            if private.play(action):
                return []  # the move goes out with the peer's key (PrivateDealing.on_dealing)
        return self._sign_and_send(action)

    def set_ready(self, ready: bool, now: float) -> None:
        """The local table is ready for its seat to act (``ready``), or shows a result, the
        toss or an animation: the local seat's move clock runs only while it is ready. The
        peer is told (version 4), so that its table shows who it waits for and why; it
        stays as said until said again. ``koikoi host``/``join`` never say it: a bot's table
        is always ready (:func:`~.turns.set_ready`)."""
        turns.set_ready(self, ready, now)

    def send_stamp(self, stamp: str, now: float) -> bool:
        """A stamp to the peer, if it takes it and the rate allows (:func:`~.stamps.send`)."""
        return stamps.send(self, stamp, now)

    def _sign_and_send(self, action: Action) -> list[SessionEvent]:
        lockstep = self.lockstep
        assert lockstep is not None
        seq = lockstep.seq
        self._moves.charge(self._clock.now)  # the time past the action's comes off the reserve
        entry, signature, events = lockstep.sign_move(self.identity, self.seat, action)
        self._moves.restart(lockstep.seq, self._clock.now)  # the peer's clock starts now
        self._send(encode_message("move", entry=entry.raw, sig=signature))
        self._acks.unacked.append(seq)
        out: list[SessionEvent] = [MovePlayed(seq, self.seat, action, tuple(events))]
        if self._private is not None:
            return out + self._private.moved(peer=False)
        if lockstep.match.finished:
            out += self._finish_locally()
        return out

    def tick(self, now: float) -> list[SessionEvent]:
        """Time passed: send a heartbeat when due; end the session if the peer fell silent."""
        if self.closed:
            return []
        clock, private = self._clock, self._private
        clock.now = now
        if self._waiting:
            return farewell.waits_ran_out(self, now)
        if now - clock.last_rx >= self.silence_timeout:
            seconds = f"{self.silence_timeout:g}"
            return self._close(
                self._ending(
                    False,
                    How.SILENT,
                    self.role.peer,
                    f"the peer sent nothing for {seconds} s: it is disconnected",
                ),
                announce="timeout",
            )
        if (
            private is not None
            and private.seed_since is not None
            and private.peer_seed_owed()
            and now - private.seed_since >= self.seed_wait
            and now - clock.last_rx <= 2 * self.heartbeat_interval
        ):  # heard from lately (its heartbeats), yet no seed: withheld, not a link gone
            return private.withheld_seed()
        if now - clock.last_tx >= self.heartbeat_interval:
            self._send(encode_message("ping"))
        due = self._clock_due()
        if due is None or now < due:
            return []
        self._moves.turn.told = True
        state = self.clock(now)
        assert state is not None and self.lockstep is not None
        seq = self.lockstep.seq
        if state.local:
            logger.info("the local seat's move clock ran out (move %d)", seq)
            return [OutOfTime(state.seat, seq)]
        return [PeerOverdue(state.seat, seq, state.waited)]

    def leave(self, now: float, reason: str = "the player left") -> list[SessionEvent]:
        """The local player leaves: the peer is told, the match ends unfinished (after the
        last move, the wait for the peer's acknowledgement or seed ends)."""
        if self.closed:
            return []
        self._clock.now = now
        if self._waiting:
            return self._stop_waiting(why="local")
        return self._close(self._ending(False, How.LEFT, self.role, reason), announce="quit")

    def connection_lost(self, now: float, detail: str = "") -> list[SessionEvent]:
        """The connection ended (closed, reset, or unreadable frames from the peer)."""
        if self.closed:
            return []
        self._clock.now = now
        if self._waiting:
            return self._stop_waiting(
                goodbye=False, why="dropped the connection before its seed of deal {deal}"
            )
        reason = "the connection dropped" + (f": {detail}" if detail else "")
        return self._close(self._ending(False, How.DROPPED, self.role.peer, reason))

    def protocol_failure(self, now: float, reason: str) -> list[SessionEvent]:
        """The transport caught the peer breaking the framing rules."""
        if self.closed:
            return []
        self._clock.now = now
        return self._fail(How.PROTOCOL, self.role.peer, f"the peer sent {reason}")

    def local_failure(self, now: float, reason: str) -> list[SessionEvent]:
        """This side cannot go on (its player failed): the peer is told, the match is off."""
        if self.closed:
            return []
        self._clock.now = now
        return self._fail(How.ERROR, self.role, reason)

    # --- resume (koikoi/net/resume.py) ---------------------------------------------------

    @property
    def heard_at(self) -> float:
        """When the peer's last message (or heartbeat) arrived."""
        return self._clock.last_rx

    @property
    def peer_said_goodbye(self) -> bool:
        """The peer's ``bye`` ended the wait for the last move's acknowledgement (what
        :meth:`is_goodbye` says of a ``bye`` after it)."""
        return self._acks.bye

    def is_goodbye(self, payload: bytes) -> bool:
        """After the match finished here: whether ``payload`` is the peer's ``bye``: its
        ``bye`` ``finished`` says it holds every entry; any other code says it will not
        resume (nothing is resumed after a ``bye``), and changes nothing of the result.
        Anything else is ignored."""
        try:
            plaintext = self._rx.decrypt_with_ad(b"", payload)
            message = decode_message(plaintext, {"move": MOVE, "ping": PING, "bye": BYE})
        except (DecryptError, ProtocolError):
            return False
        return message.kind == "bye"

    def reconnect(self, established: Established, now: float, resend: list[bytes]) -> None:
        """A new connection carries the suspended session on (docs/protocol.md, "Resume"):
        its keys replace the old connection's, whatever the old one still held unsent is
        dropped, and ``resend`` (the log entries the peer does not hold) goes first."""
        self._tx, self._rx = established.send, established.recv
        self.stamps.mine, self.stamps.theirs = established.stamps, established.peer_stamps
        self._out = []
        self._clock = LinkClock.at(now)
        self._acks.replayed = True
        if self._journal.items:
            self._journal.items.append(["resumed"])
        if self.lockstep is not None:  # the drop was nobody's move: the turn's clock restarts
            self._moves.restart(self.lockstep.seq, now)
        private = self._private
        if private is not None:  # and so does the wait for the peer's seed
            private.resumed(now)
        for message in resend:
            self._send(message)
        turns.say_ready_again(self)
        if self.ending is not None and self.ending.finished:
            if self._acks.unacked:  # the peer resends the last move's ack if it has it
                self._acks.last_until = now + LAST_ACK_GRACE  # the goodbye follows it
            if private is not None and private.peer_seed_owed():  # and its seed, lost
                self._acks.seed_until = now + self.seed_wait
                fault = private.audit_fault
                if fault is not None and fault.result is AuditResult.REFUSED:
                    private.audit_fault = None
            if not self._waiting:  # this side holds every entry and ack: it says so again
                self._send(encode_message("bye", reason="finished"))

    def restored(self, lockstep: Lockstep) -> None:
        """The session of a record (:func:`koikoi.net.resume.restore_session`) stands where
        the record stops: both players confirmed the cards before the first deal, every
        acknowledgement is in ``lockstep`` and this side's entries without one are still
        owed, oldest first."""
        self.confirmed = self.peer_confirmed = self._confirm_sent = True
        self.lockstep = lockstep
        self.stage = Stage.PLAYING
        self._acks.owed(lockstep, self.seat)
        self._moves.restart(lockstep.seq, self._clock.now)

    @property
    def dealing_sent(self) -> int:
        """How many dealing messages this side sent in the match (private dealing)."""
        return len(self._journal.dealing_sent)

    def dealing_to_resend(self, peer_dealt: int) -> list[tuple[int, bytes]]:
        """The dealing messages the peer lacks (:meth:`Journal.to_resend`)."""
        return self._journal.to_resend(peer_dealt)

    def acks_to_resend(self, peer_holds: int) -> list[bytes]:
        """The ``ack`` messages a resumed connection sends first (:meth:`Acks.to_resend`)."""
        return Acks.to_resend(self.lockstep, self.seat, peer_holds)

    # --- the record (koikoi/net/session/record.py) ---------------------------------------

    def record(self, local: bool = True) -> GameRecord:
        """The signed record so far (:func:`~koikoi.net.session.record.signed_record`)."""
        return _record.signed_record(self, local)

    @property
    def record_mark(self) -> tuple[object, ...]:
        """How far the signed record has grown (:func:`~.record.record_mark`)."""
        return _record.record_mark(self)

    @property
    def local_size(self) -> tuple[int, int]:
        """Seeds and journal items of the local part (:attr:`Journal.local_size`)."""
        return self._journal.local_size

    def local_items(self, seeds: int = 0, journal: int = 0) -> list[list[str]]:
        """The local part's items after earlier ones (:meth:`Journal.local_items`)."""
        return self._journal.local_items(seeds, journal)

    @property
    def local_mark(self) -> tuple[int, int]:
        """How far the local part has grown (:attr:`Journal.local_mark`)."""
        return self._journal.local_mark

    def local_json(self) -> dict[str, Any]:
        """The record file's sidecar, privately dealt (:meth:`Journal.local_json`)."""
        return self._journal.local_json()

    def replay(self, local: Mapping[str, Any], now: float) -> None:
        """A crashed side's session replayed (:func:`~koikoi.net.session.record.replay`)."""
        _record.replay(self, local, now)

    def result_json(self) -> dict[str, Any]:
        """The ``koikoi replay`` JSON as it stands (:func:`~.record.result_json`)."""
        return _record.result_json(self)

    # --- steps ---------------------------------------------------------------------------

    def _expected(self) -> dict[str, Record]:
        base = {"ping": PING, "bye": BYE}
        if self.cards_first:  # version 4: each side says when its table is ready
            base["clock"] = CLOCK
        if self.stamps.mine:  # its hello said this side shows stamps
            base["stamp"] = STAMP
        if self.stage is Stage.PLAYING:
            if self._private is not None:
                return {"move": MOVE, "ack": ACK, **DEALING, **base}
            return {"move": MOVE, "ack": ACK, **base}
        if self.stage is Stage.TOSS:
            return {**toss_stage.expected(self), **base}
        return base

    def _confirm_and_deal(self) -> list[SessionEvent]:
        """The four cards confirmed, on to the deal (:func:`~.toss.confirm_and_deal`)."""
        return toss_stage.confirm_and_deal(self)

    def _on_move(self, raw: bytes, signature: bytes) -> list[SessionEvent]:
        lockstep = self.lockstep
        assert lockstep is not None
        seat = self.role.peer.seat
        rejected = {"entry": b64(raw), "sig": b64(signature)}

        def cheat(what: str, where: str) -> list[SessionEvent]:
            return self._fail(How.CHEAT, self.role.peer, f"{where}: {what}", rejected)

        try:
            entry = decode_entry(raw)
        except ProtocolError as error:
            return cheat(str(error), lockstep.where(seat))
        where = lockstep.where(seat, entry.action)
        if self._acks.unacked:
            return cheat(
                f"the peer moved without acknowledging move {self._acks.unacked[0]}", where
            )
        if entry.seq != lockstep.seq:
            return cheat(
                f"sequence number {entry.seq} where {lockstep.seq} is due: "
                "a replayed, reordered or dropped log entry",
                where,
            )
        if entry.prev_hash != lockstep.prev_hash:
            return cheat("the entry does not chain to the previous one (prev_hash differs)", where)
        if not verify_signature(self.peer.public_key, signature, signed_data(raw)):
            return cheat("the peer's signature over the entry does not verify", where)
        if self._private is not None:
            refused = self._private.check_move(entry.action)
            if refused is not None:
                return cheat(refused, where)
        try:
            events, deals_before = lockstep.apply(seat, entry.action)
        except IllegalAction as error:
            return cheat(f"illegal move: {error}", where)
        if lockstep.state_hash() != entry.state_hash:
            lockstep.rollback_record(deals_before)
            return cheat("the state hash differs: the two engines disagree after this move", where)
        lockstep.commit(entry, signature, seat, deals_before)
        self._moves.restart(lockstep.seq, self._clock.now)  # the move gave the turn
        ack, ack_sig = lockstep.acknowledge(self.identity, entry.seq)
        self._send(encode_message("ack", ack=ack, sig=ack_sig))
        out: list[SessionEvent] = [MovePlayed(entry.seq, seat, entry.action, tuple(events))]
        if self._private is not None:
            return out + self._private.moved(peer=True)
        if lockstep.match.finished:
            out += self._finish_locally()
        return out

    def _on_ack(self, raw: bytes, signature: bytes) -> list[SessionEvent]:
        """The peer's signed acknowledgement of this side's oldest unacknowledged move."""
        lockstep = self.lockstep
        assert lockstep is not None
        if self._acks.resent(lockstep, raw, signature, self.seat):
            return []  # resent after a resume, already here: nothing new
        refused = self._acks.take(lockstep, self.peer.public_key, raw, signature)
        if refused is not None:
            return self._fail(refused[0], self.role.peer, refused[1])
        return []

    # --- after the last move, and goodbyes -----------------------------------------------

    def _maybe_done(self) -> list[SessionEvent]:
        return [] if self._waiting else self._stop_waiting()

    def _stop_waiting(self, goodbye: bool = True, why: str = "") -> list[SessionEvent]:
        """The waits after the end are over (:func:`~.farewell.stop_waiting`)."""
        return farewell.stop_waiting(self, goodbye, why)

    def stop_waiting(self) -> list[SessionEvent]:
        """The connection dropped while the last move's acknowledgement (or the peer's seed
        of the last deal) was read: the match is over, its ending goes out now (a resume
        may still bring the ack and the seed)."""
        if not self._waiting:
            return []
        return self._stop_waiting(
            goodbye=False, why="dropped the connection before its seed of deal {deal}"
        )

    def _on_bye(self, code: str, detail: str | None) -> list[SessionEvent]:
        return self._close(farewell.bye_ending(self, code, detail))

    def _finish_locally(self) -> list[SessionEvent]:
        """The last move is played: the match is over here and now (protocol version 2).

        The goodbye is a courtesy: nothing the peer sends or withholds afterwards changes
        the signed moves, so nobody waits for it. The mover of the last move sends it once
        the acknowledgement of that move came (or the wait for it ran out), so that a peer
        whose connection drops before the goodbye resumes and resends the acknowledgement.
        """
        ending = self._ending(True, How.FINISHED, None, "the match is over")
        if self._acks.unacked:  # this side moved last: its acknowledgement is on the way
            self._close(ending)
            self._acks.last_until = self._clock.now + LAST_ACK_GRACE
            return []  # Ended comes with the acknowledgement, or when the wait runs out
        return self._close(ending, announce="finished")

    # --- endings -------------------------------------------------------------------------

    def _send(self, message: bytes) -> None:
        self._out.append(self._tx.encrypt_with_ad(b"", message))
        self._clock.last_tx = self._clock.now

    def _send_dealing(self, message: bytes) -> None:
        """A dealing message goes out, and into the list a resume sends again from."""
        seq = 0 if self.lockstep is None else self.lockstep.seq
        self._journal.dealing_sent.append((seq, message))
        self._send(message)

    def _ending(
        self,
        finished: bool,
        how: How,
        by: Role | None,
        reason: str,
        rejected: dict[str, str] | None = None,
    ) -> Ending:
        """The session's ending now (:func:`koikoi.net.session.farewell.ending`)."""
        return farewell.ending(self, finished, how, by, reason, rejected)

    def _fail(
        self, how: How, by: Role, reason: str, rejected: dict[str, str] | None = None
    ) -> list[SessionEvent]:
        code = "error" if by is self.role else ("cheat" if how is How.CHEAT else "protocol")
        return self._close(
            self._ending(False, how, by, reason, rejected), announce=code, detail=reason
        )

    def _close(
        self, ending: Ending, announce: str | None = None, detail: str | None = None
    ) -> list[SessionEvent]:
        if self.stage is Stage.CLOSED:  # over already (reading the last acknowledgement)
            return self._stop_waiting() if self._waiting else []
        if announce is not None:
            if detail:
                self._send(encode_message("bye", reason=announce, detail=clean(detail)))
            else:
                self._send(encode_message("bye", reason=announce))
        self.ending = ending
        self.stage = Stage.CLOSED
        if ending.finished:
            logger.info("session over: the match finished")
        else:
            logger.info("session over: %s", ending.reason)
        return [Ended(ending)]
