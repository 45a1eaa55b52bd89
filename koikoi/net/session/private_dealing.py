"""Private dealing in a session (docs/protocol.md, "The lockstep with hidden cards"): each
deal's :class:`~koikoi.net.dealing.Dealer` fed the peer's dealing messages, the ``hand``
declarations, the keys of the cards each move opens, the seeds revealed at each deal's end
and the deal's audit, then the next deal; the match over, the wait for the peer's last seed.

:class:`PrivateDealing` is owned by its :class:`~koikoi.net.session.core.Session` from the first
deal on; it keeps the state of the deal in play (:class:`DealState`) and of the audits, and
goes through the session for what goes out (each dealing message into the list a resume sends
again) and for how the session ends.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from koikoi.engine.round import PICK_BASE, Action, IllegalAction
from koikoi.engine.yaku import teyaku_of
from koikoi.net.dealing import SEED_LEN, Dealer, DealingCheat, hand_positions, sealed_hash
from koikoi.net.dealing import Phase as DealPhase
from koikoi.net.errors import ProtocolError
from koikoi.net.private import PrivateLockstep, seat_view
from koikoi.net.session.acks import LAST_ACK_GRACE
from koikoi.net.session.endings import Audit, AuditResult, How, cheat_text
from koikoi.net.session.events import DealLaidOut, SessionEvent, TossDone
from koikoi.net.wire import Message, encode_message

if TYPE_CHECKING:
    from koikoi.net.session.core import Session


@dataclass
class DealState:
    """Where the private dealing of the current deal stands (docs/protocol.md, "The
    lockstep with hidden cards")."""

    dealer: Dealer
    declared: bool = False
    """This side's ``hand`` went out."""
    peer_teyaku: bool | None = None
    """The peer's ``hand``: None until it came."""
    laid: bool = False
    pending: Action | None = None
    """A local move that waits for the peer's key of the card it draws."""
    peer_card: int | None = None
    """The card the peer's ``play`` opened for its next move."""
    peer_drew: bool = False
    """The card the peer's next move draws is open (both keys crossed)."""
    seed_sent: bool = False


class PrivateDealing:
    """The private dealing of ``session``'s match, whose lockstep is ``lockstep``; the first
    deal's dealing starts at once (the host sends its shuffled deck)."""

    def __init__(self, session: Session, lockstep: PrivateLockstep) -> None:
        self._session = session
        self.lockstep = lockstep
        self.deal_seconds: list[float] = []
        """For each deal, the seconds from its dealer's start to the deal laid out (both
        peers' work and the messages; ``koikoi bench --net``)."""
        self.play_seconds: list[float] = []
        """For each deal, the seconds from the deal laid out to its last move (the moves
        alone: no dealing setup, no seeds, no audit; ``koikoi bench --net``)."""
        self._deal_started = 0.0
        self._deal_laid = 0.0
        self.seed_since: float | None = None
        """When this side revealed its seed of the deal just over (the peer's is due within
        the silence timeout; a resume restarts the wait)."""
        self.audit_fault: Audit | None = None
        """A deal's audit that failed or was refused (the ending's ``audit``; None: every
        audit so far is done)."""
        self.deal: DealState
        self.start_deal()

    # --- where the deal stands -----------------------------------------------------------

    @property
    def waits_for_keys(self) -> bool:
        """The deal is not laid out yet, or a local move waits for the peer's key of its draw:
        the local seat cannot move."""
        return not self.deal.laid or self.deal.pending is not None

    @property
    def dealing_owed(self) -> bool:
        """A dealing message is owed (a deck, a key, a ``hand`` or a seed): the move clock
        waits for the side that owes it."""
        return self.waits_for_keys or self.lockstep.deal_over

    def owed_by_peer(self) -> bool:
        """Whether this side waits for a dealing message of the peer (a deck, a key, its
        ``hand`` or its seed): the withholder is the one the clock waits for."""
        private = self.deal
        if private.dealer.waiting_for is not None or private.pending is not None:
            return True
        if not private.laid:
            return private.declared and private.peer_teyaku is None
        return private.seed_sent and len(private.dealer.transcript.seeds) < 2

    def owed_message(self) -> str | None:
        """What dealing message the peer owes, in words (None: none)."""
        private, peer = self.deal, self._session.role.peer
        if not self.owed_by_peer():
            return None
        waiting = private.dealer.waiting_for
        if waiting is None and private.pending is not None:
            waiting = f"the {peer.value}'s key of the draw"
        if waiting is None:
            waiting = f"the {peer.value}'s " + ("hand" if not private.laid else "seed")
        return waiting.replace(f"the {peer.value}'s ", "", 1)

    def seen(self, local: bool) -> bool:
        """Whether a side (``local``: this one) has seen its hand of the deal: once its
        ``hand`` went (the peer's: once it came)."""
        return self.deal.declared if local else self.deal.peer_teyaku is not None

    def deal_index(self) -> int:
        """The record's index of the deal being dealt or played (or just over)."""
        return len(self.lockstep.transcripts) - (1 if self.deal.laid else 0)

    def peer_seed_owed(self) -> bool:
        """This side revealed its seed of the deal over, the peer not yet."""
        private = self.deal
        return private.seed_sent and self._session.role.peer not in private.dealer.transcript.seeds

    # --- the deal ------------------------------------------------------------------------

    def start_deal(self) -> None:
        """The next deal's dealing: a new dealer; the host sends its shuffled deck."""
        session = self._session
        journal = session._journal
        seed = journal.dealer_seeds.pop(0) if journal.dealer_seeds else os.urandom(SEED_LEN)
        journal.own_seeds.append(seed)
        self._deal_started = session._clock.now
        self.deal = DealState(self.lockstep.new_dealer(seed))
        for message in self.deal.dealer.start():
            session._send_dealing(message)

    def on_dealing(self, plaintext: bytes, message: Message) -> list[SessionEvent]:
        session = self._session
        kind, fields = message.kind, message.fields
        private, lockstep = self.deal, self.lockstep
        dealer, peer = private.dealer, session.role.peer
        session._journal.dealing_received += 1
        if kind == "hand":
            return self._on_hand(fields.get("teyaku", bool), fields.get("dealing", bytes))
        if kind == "draw" and private.pending is None and not self._peer_may_draw():
            return session._fail(
                How.CHEAT, peer, "the peer asked for the key of a draw its move does not make"
            )
        if kind == "play" and private.laid and not self._peer_may_play():
            return session._fail(How.CHEAT, peer, "the peer opened a card out of its turn")
        if kind == "seed" and not (private.laid and lockstep.deal_over):
            return session._fail(
                How.CHEAT,
                peer,
                f"the peer revealed its seed of deal {self.deal_index()} before the deal ended",
            )
        try:
            replies = dealer.receive(plaintext, message)  # decoded once, with its schema
        except DealingCheat as error:
            if kind == "seed":
                self.audit_fault = Audit(
                    AuditResult.CHEAT, error.culprit, self.deal_index(), cheat_text(error)
                )
            return session._fail(How.CHEAT, error.culprit, str(error))
        except ProtocolError as error:
            return session._fail(How.PROTOCOL, peer, f"the peer sent {error}")
        for reply in replies:
            session._send_dealing(reply)
        if kind in ("shuffle", "lock", "deal"):
            if dealer.phase is DealPhase.PLAYING and not private.declared:
                self._declare()
            return self._maybe_lay_out()
        if kind == "play" and private.laid:
            return self._opened_peer_card()
        if kind == "draw":
            return self._opened_draw()
        if kind == "seed":
            return self._maybe_audit()
        return []

    def _peer_may_play(self) -> bool:
        private = self.deal
        rnd = self.lockstep.match.round
        return (
            rnd is not None
            and not rnd.over
            and rnd.turn == self._session.role.peer.seat
            and int(rnd.phase) == 0
            and private.peer_card is None
        )

    def _peer_may_draw(self) -> bool:
        """The peer, to move, asks for this side's key of the next draw: only when the move it
        opened (a play) or owes (the pick of a played card) turns a stock card."""
        private, lockstep = self.deal, self.lockstep
        rnd = lockstep.match.round
        peer = self._session.role.peer
        if rnd is None or rnd.over or rnd.turn != peer.seat or private.peer_drew:
            return False
        if int(rnd.phase) == 0:
            return private.peer_card is not None and lockstep.draws(private.peer_card)
        return int(rnd.phase) == 1  # a pick of the played card: every pick draws

    def _declare(self) -> None:
        """This side's hand is open: a teyaku is declared with the keys of the whole hand."""
        private, session = self.deal, self._session
        dealer = private.dealer
        hand = sum(1 << card for card in dealer.hand)
        teyaku = teyaku_of(hand) is not None
        if teyaku:
            for position in hand_positions(dealer.role, dealer.oya):
                session._send_dealing(dealer.play(position))
        sealed = sealed_hash(dealer.transcript, self.lockstep.dealing_hash)
        session._send_dealing(encode_message("hand", teyaku=teyaku, dealing=sealed))
        private.declared = True

    def _on_hand(self, teyaku: bool, sealed: bytes) -> list[SessionEvent]:
        private, session = self.deal, self._session
        dealer, peer = private.dealer, session.role.peer
        if private.peer_teyaku is not None or dealer.phase is not DealPhase.PLAYING:
            return session._fail(How.PROTOCOL, peer, "the peer sent an unexpected hand message")
        if sealed != sealed_hash(dealer.transcript, self.lockstep.dealing_hash):
            return session._fail(
                How.CHEAT,
                peer,
                "the peer's sealed deck is not the one of the decks it sent and this side"
                " received (a deck it sent is not the one it keeps)",
            )
        if teyaku:
            cards = [dealer.card_at(p) for p in hand_positions(peer, dealer.oya)]
            if None in cards or teyaku_of(sum(1 << c for c in cards if c is not None)) is None:
                return session._fail(
                    How.CHEAT, peer, "the peer declared a teyaku its opened hand does not hold"
                )
        private.peer_teyaku = teyaku
        return self._maybe_lay_out()

    def _maybe_lay_out(self) -> list[SessionEvent]:
        private, lockstep, session = self.deal, self.lockstep, self._session
        if private.laid or not private.declared or private.peer_teyaku is None:
            return []
        dealer = private.dealer
        other = None
        if private.peer_teyaku:
            positions = hand_positions(session.role.peer, dealer.oya)
            other = sum(1 << (dealer.card_at(p) or 0) for p in positions)
        # the engine's Dealt holds stand-ins for the sealed cards: what goes out is this
        # seat's view of the deal (docs/protocol.md, "The lockstep with hidden cards")
        events = tuple(seat_view(lockstep.lay_out(dealer, other), session.seat))
        private.laid = True
        now = session._clock.now
        self.deal_seconds.append(now - self._deal_started)
        self._deal_laid = now
        session._moves.restart(lockstep.seq, now)
        result = session.toss.result
        assert result is not None
        out: list[SessionEvent] = [
            TossDone(result, events) if len(lockstep.transcripts) == 1 else DealLaidOut(events)
        ]
        if lockstep.deal_over:  # a teyaku or four of a month: over at once
            out += self._end_deal()
        return out

    def _opened_peer_card(self) -> list[SessionEvent]:
        position, card = self.deal.dealer.opened[-1]
        self.lockstep.open(position, card)
        self.deal.peer_card = card
        return []

    def _opened_draw(self) -> list[SessionEvent]:
        """A draw's keys crossed: the peer answered this side's move, or this side answers
        the peer's (its key goes out now)."""
        private, lockstep, session = self.deal, self.lockstep, self._session
        position = lockstep.next_draw
        if private.pending is None:
            try:  # opens it here (the peer's key came first)
                session._send_dealing(private.dealer.draw())
            except DealingCheat as error:
                return session._fail(How.CHEAT, error.culprit, str(error))
            private.peer_drew = True
        card = private.dealer.card_at(position)
        assert card is not None
        lockstep.open(position, card)
        if private.pending is not None:
            action, private.pending = private.pending, None
            return session._sign_and_send(action)
        return []

    # --- moves ---------------------------------------------------------------------------

    def play(self, action: Action) -> bool:
        """The local seat's move, checked legal: this side's keys of the cards it opens go
        out; True when it draws, and the move waits for the peer's key of the draw (it goes
        out with it, see :meth:`_opened_draw`)."""
        private, lockstep, session = self.deal, self.lockstep, self._session
        if action < PICK_BASE:  # the card played shows: this side's key of it
            session._send_dealing(private.dealer.play(lockstep.position_of(action)))
        if lockstep.draws(action):  # the card drawn shows once both keys crossed
            session._send_dealing(private.dealer.draw())
            private.pending = action
            session._moves.charge(session._clock.now)  # the move's time, before the key's
            session._moves.restart(lockstep.seq, session._clock.now, charged=True)  # key owed
            return True
        return False

    def check_move(self, action: Action) -> str | None:
        """Why the peer's move does not fit the cards it opened (None: it does)."""
        private, lockstep = self.deal, self.lockstep
        if not private.laid or lockstep.deal_over:
            return "a move while no deal is in play"
        rnd = lockstep.match.round
        assert rnd is not None
        if int(rnd.phase) == 0 and action < PICK_BASE and action != private.peer_card:
            opened = "no card" if private.peer_card is None else f"card {private.peer_card}"
            return f"the move plays card {action}, but the peer's play opened {opened}"
        try:
            rnd.check(action, self._session.role.peer.seat)
        except IllegalAction:
            return None  # the engine names it
        if lockstep.draws(action) != private.peer_drew:
            return (
                "the move draws a card whose keys did not cross"
                if not private.peer_drew
                else "the move draws no card, yet the peer asked for the key of one"
            )
        return None

    def moved(self, peer: bool) -> list[SessionEvent]:
        """A move went into the log (``peer``: the peer's, whose opened cards are spent)."""
        if peer:
            self.deal.peer_card, self.deal.peer_drew = None, False
        return self._end_deal() if self.lockstep.deal_over else []

    # --- the end of a deal, its audit, the end of the match ------------------------------

    def _end_deal(self) -> list[SessionEvent]:
        """The deal is over: this side reveals its seed; the audit follows the peer's."""
        private, session = self.deal, self._session
        if not private.seed_sent:
            private.seed_sent = True
            now = session._clock.now
            self.seed_since = now
            self.play_seconds.append(now - self._deal_laid)
            session._send_dealing(private.dealer.reveal())
        if self.lockstep.match.finished:
            return self.finish()
        return self._maybe_audit()

    def _maybe_audit(self) -> list[SessionEvent]:
        """Both seeds are in: audit the dealing, replay the deal with every card, record it,
        then deal the next one (or finish the match)."""
        private, lockstep, session = self.deal, self.lockstep, self._session
        transcript = private.dealer.transcript
        if not private.seed_sent or len(transcript.seeds) < 2:
            return []
        if not lockstep.deal_over:
            return session._fail(
                How.CHEAT, session.role.peer, "the peer revealed its seed mid-deal"
            )
        fault = self.audit_deal()
        if fault is not None:
            return session._fail(How.CHEAT, fault.by or session.role.peer, f"cheat: {fault.reason}")
        if lockstep.match.finished:  # not reached: the last deal's audit follows the end
            return self.finish()
        self.seed_since = None
        self.start_deal()
        return []

    def audit_deal(self) -> Audit | None:
        """Audit the deal just over (both seeds in) and replay it with every card: on
        success the record holds it as dealt; else the fault (also kept for the ending)."""
        private, lockstep = self.deal, self.lockstep
        index = len(lockstep.transcripts) - 1
        try:
            deck = private.dealer.audit()
            lockstep.check_deal(deck)
        except DealingCheat as error:
            self.audit_fault = Audit(AuditResult.CHEAT, error.culprit, index, cheat_text(error))
            return self.audit_fault
        lockstep.record.deals[index].extra["dealing"] = private.dealer.transcript.to_json()
        return None

    def refuse_audit(self, what: str) -> None:
        """The wait for the peer's seed of the last deal is over without it: the peer
        refused the audit (``what`` says how, with ``{deal}`` for the deal)."""
        session = self._session
        session._acks.seed_until = None
        if self.audit_fault is None and self.peer_seed_owed():
            deal, peer = self.deal_index(), session.role.peer
            reason = f"the {peer.value} " + what.replace("{deal}", str(deal))
            self.audit_fault = Audit(AuditResult.REFUSED, peer, deal, reason)

    def give_up(self, why: str) -> None:
        """The wait after the match's end is over: a seed still owed is a refused audit
        (``why`` says how), or an unfinished one when this side stopped waiting (``local``)."""
        session = self._session
        acks = session._acks
        if acks.seed_until is not None and why == "local":
            acks.seed_until = None
            if self.audit_fault is None and self.peer_seed_owed():
                deal, peer = self.deal_index(), session.role.peer.value
                reason = f"this side stopped waiting for the {peer}'s seed of deal {deal}"
                self.audit_fault = Audit(AuditResult.UNFINISHED, None, deal, reason)
        if acks.seed_until is not None:
            self.refuse_audit(why or "did not reveal its seed of deal {deal}")

    def audit(self) -> Audit:
        """How the audits stand for an ending now: a fault, the peer's seed still owed (a
        refused audit), or done."""
        audit = self.audit_fault
        if audit is None and self.peer_seed_owed():
            deal, peer = self.deal_index(), self._session.role.peer
            audit = Audit(
                AuditResult.REFUSED,
                peer,
                deal,
                f"the {peer.value} did not reveal its seed of deal {deal} before the match ended",
            )
        return audit or Audit(AuditResult.DONE)

    def withheld_seed(self) -> list[SessionEvent]:
        """Mid-match, the peer's seed of the deal over did not come within the wait (its
        heartbeats did): it withheld it, which ends the match as abandoned by it."""
        session = self._session
        self.refuse_audit(f"withheld its seed of deal {{deal}} for {session.seed_wait:g} s")
        fault = self.audit_fault
        assert fault is not None
        reason = f"{fault.reason}: it refused the deal's audit and abandoned the match"
        return session._close(
            session._ending(False, How.ABANDONED, session.role.peer, reason),
            announce="abandoned",
        )

    def finish(self) -> list[SessionEvent]:
        """Privately dealt, the last move is played (or the last deal was over at once): the
        match is over here and now, its result the signed moves' (docs/protocol.md, "End of
        the match"). This side's seed went out; the peer's is read for up to
        :attr:`~koikoi.net.session.core.Session.seed_wait`, and the last move's acknowledgement
        for :data:`~koikoi.net.session.acks.LAST_ACK_GRACE`, for the audit and the record only.
        :class:`Ended` comes once both are in or their waits ran out, its ``audit`` saying
        how the last audit went."""
        session = self._session
        session._close(session._ending(True, How.FINISHED, None, "the match is over"))
        now = session._clock.now
        if session._acks.unacked:
            session._acks.last_until = now + LAST_ACK_GRACE
        if self.peer_seed_owed():
            session._acks.seed_until = now + session.seed_wait
        else:  # both seeds are in (a journal replayed, a resume)
            self.audit_deal()
        return session._maybe_done()

    def last_seed(self, plaintext: bytes, message: Message) -> None:
        """The peer's seed of the last deal, after the match's end: check it, then audit."""
        session = self._session
        session._acks.seed_until = None
        session._journal.dealing_received += 1
        try:
            self.deal.dealer.receive(plaintext, message)
        except DealingCheat as error:
            self.audit_fault = Audit(
                AuditResult.CHEAT, error.culprit, self.deal_index(), cheat_text(error)
            )
            return
        except ProtocolError as error:  # not reached: decoded with its schema already
            self.refuse_audit(f"sent {error} for its seed of deal {{deal}}")
            return
        self.audit_deal()

    def resumed(self, now: float) -> None:
        """A new connection: the wait for the peer's seed of the deal over restarts."""
        if self.seed_since is not None:
            self.seed_since = now
