"""Who a listening room lets in, as a sans-I/O policy: no sockets, no loop, time passed in.

A room plays one match, with the first peer whose handshake succeeds. Every transport (the
asyncio :class:`~koikoi.net.transport.room.Room` of ``koikoi host``, the Qt room of the window)
asks this policy the same three questions and does what it says:

- a connection arrives: :meth:`RoomPolicy.admit` gives it a :class:`Ticket`, or a
  :class:`Refusal` to send (``refuse`` with its ``code``) before closing;
- a handshake is about to finish: :meth:`RoomPolicy.busy` (the ``Connection.busy`` hook)
  says whether another match started meanwhile, so the handshake is refused as busy;
- a handshake finished (:meth:`RoomPolicy.established`), or failed, or a connection closed
  (:meth:`RoomPolicy.closed`, at the first of these: it says whether that was the room's
  match, and a second call changes nothing).

A pending handshake never keeps a real joiner out (protocol version 2): a newcomer is always
let in (unless a match is in play or over). When its address already holds its share
(``max_per_address``), the oldest of that address's silent connections (nothing received
yet) that have had ``speak_grace`` seconds to speak is evicted; when the room holds
``max_pending``, the oldest pending one is, silent ones first. A joiner sends its hello at
once, so it is never the silent one for long; the transport closes what
:meth:`RoomPolicy.take_evicted` returns. Each pending
connection also has deadlines (:meth:`RoomPolicy.deadline`): ``first_message`` seconds to say
anything, ``handshake`` seconds to finish; the transport closes what
:meth:`RoomPolicy.overdue` returns. Only a match in play (or played) makes a room busy.

A room that is closing (:meth:`RoomPolicy.leave`: its owner left it, a new room is to open on
its port) takes nobody: every newcomer is refused ``busy``, as by a room whose match is over,
and a handshake still running is refused ``busy`` by the busy hook, so a caller that retries
on ``busy`` (the app's rematch) calls again rather than give up on a hang-up.

A private room limits password guesses (each handshake is one guess, checked online by the
PAKE): one attempt in flight per address (a second one that speaks evicts the first), a
back-off after each wrong password from an address but the first (a typo, retyped at once:
then 1 s, doubling, at most ``max_backoff``) during which its connections are refused with
``wait``, and at most
``guesses_per_second`` attempts in all (a token bucket, spent when a connection speaks). The
transport reports :meth:`RoomPolicy.wrong_password` and tells the host the count.

>>> policy = RoomPolicy(max_pending=1)
>>> idle = policy.admit("192.0.2.1:5000", now=0.0)
>>> first = policy.admit("192.0.2.2:5000", now=0.1)
>>> policy.take_evicted() == [idle]
True
>>> policy.heard(first)
>>> policy.established(first, now=0.5)
>>> policy.admit("192.0.2.3:5000", now=0.6)
Refusal(code='busy', reason='the room is busy')
>>> policy.busy, policy.playing
(True, True)
>>> policy.closed(first, now=90.0), policy.playing, policy.match_over
(True, False, True)
>>> closing = RoomPolicy()
>>> closing.leave()
>>> closing.admit("192.0.2.4:5000", now=0.0), closing.busy
(Refusal(code='busy', reason='the room is busy'), True)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import itertools
import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "FIRST_MESSAGE_DEADLINE",
    "GuessReport",
    "HANDSHAKE_DEADLINE",
    "MAX_PENDING",
    "MAX_PER_ADDRESS",
    "SPEAK_GRACE",
    "Refusal",
    "RoomPolicy",
    "Ticket",
    "password_check",
    "password_matches",
]

MAX_PENDING: Final = 96
"""Handshakes a room runs at once; a newcomer beyond them evicts the oldest."""
MAX_PER_ADDRESS: Final = 8
"""Handshakes one address (its host, whatever the port) runs at once before a newcomer
from there evicts its oldest silent one."""
SPEAK_GRACE: Final = 0.5
"""Seconds a new connection is given to send its first bytes before it counts as silent
(the transport reads them on a later turn of its loop than the one that accepted it)."""
FIRST_MESSAGE_DEADLINE: Final = 3.0
"""Seconds a new connection has to send its first bytes."""
GUESSES_PER_SECOND: Final = 10.0
"""Password attempts a private room takes in all, per second (and in a burst)."""
FIRST_BACKOFF: Final = 1.0
"""Seconds an address waits after its second wrong password; doubled after each one more."""
MAX_BACKOFF: Final = 60.0
HANDSHAKE_DEADLINE: Final = 10.0
"""Seconds a connection has to finish its handshake (the password proof is automatic)."""


def address_host(address: str) -> str:
    """The host part of ``host:port`` or ``[v6]:port`` (what the per-address cap counts).

    >>> address_host("192.0.2.1:5000"), address_host("[::1]:5000"), address_host("peer")
    ('192.0.2.1', '::1', 'peer')
    """
    if address.startswith("["):
        return address[1 : address.find("]")] if "]" in address else address
    host, sep, port = address.rpartition(":")
    return host if sep and port.isdigit() and ":" not in host else address


@dataclass(frozen=True)
class Ticket:
    """An admitted connection, from its arrival to its close."""

    number: int
    address: str
    since: float
    """When it was admitted (the caller's clock)."""


@dataclass(frozen=True)
class Refusal:
    """Turn the connection away: send ``refuse`` with ``code``, close; ``reason`` is one line."""

    code: str
    reason: str


BUSY: Final = Refusal("busy", "the room is busy")


def _wait(host: str, seconds: float) -> Refusal:
    return Refusal("wait", f"wrong passwords from {host}: it waits {seconds:.0f} s")


@dataclass
class RoomPolicy:
    """The admission state of one room: the handshakes running and the match, if any."""

    max_pending: int = MAX_PENDING
    max_per_address: int = MAX_PER_ADDRESS
    speak_grace: float = SPEAK_GRACE
    first_message: float = FIRST_MESSAGE_DEADLINE
    handshake: float = HANDSHAKE_DEADLINE
    pending: dict[int, Ticket] = field(default_factory=dict)
    """Admitted connections whose handshake is still running, by ticket number."""
    spoken: set[int] = field(default_factory=set)
    """Pending tickets whose connection has sent something (:meth:`heard`)."""
    evicted: list[Ticket] = field(default_factory=list)
    """Pending connections pushed out by newcomers, for the transport to close."""
    private: bool = False
    """A password room: guesses are limited (see the module's text)."""
    guesses_per_second: float = GUESSES_PER_SECOND
    max_backoff: float = MAX_BACKOFF
    wrong: dict[str, int] = field(default_factory=dict)
    """Wrong passwords so far, by address (host part)."""
    _backoff_until: dict[str, float] = field(default_factory=dict, repr=False)
    _tokens: float = -1.0
    _tokens_at: float = 0.0
    match: Ticket | None = None
    """The connection playing the room's match (from its handshake to its close)."""
    match_over: bool = False
    """The room's match has been played; the room takes nobody else."""
    resumable: bool = False
    """The room's match is in play and may be resumed (docs/protocol.md, "Resume"): while
    set, a busy room still lets handshakes run, and the transport's ``resume_candidate``
    hook lets through only the match's peer, the others being refused ``busy`` at the end
    of their handshake."""
    closing: bool = False
    """The room's owner left it (:meth:`leave`): nobody else gets in, not even to resume."""
    _numbers: itertools.count[int] = field(default_factory=itertools.count, repr=False)

    def __post_init__(self) -> None:
        if self.max_pending < 1:
            raise ValueError(f"max_pending must be at least 1, not {self.max_pending}")
        if self.max_per_address < 1:
            raise ValueError(f"max_per_address must be at least 1, not {self.max_per_address}")

    @property
    def playing(self) -> bool:
        """A match is being played (its end is still to come)."""
        return self.match is not None

    @property
    def busy(self) -> bool:
        """Nobody else may finish a handshake: a match is in play or over, or the room is
        closing."""
        return self.match is not None or self.match_over or self.closing

    def leave(self) -> None:
        """The room is closing: every newcomer, and every handshake still running when it
        reaches the busy hook, is refused ``busy``; nothing is resumed any more."""
        self.closing = True
        self.resumable = False

    def admit(self, address: str, now: float) -> Ticket | Refusal:
        """A connection arrived from ``address``: let its handshake run, or refuse it (busy).

        When the room or the address is full, the oldest pending connection (of that address,
        when it is the address that is full) is evicted to make room: see
        :meth:`take_evicted`.
        """
        if self.closing or (self.busy and not self.resumable):
            return BUSY
        host = address_host(address)
        until = self._backoff_until.get(host, -math.inf)
        if self.private and now < until:
            return _wait(host, until - now)
        same = [t for t in self.pending.values() if address_host(t.address) == host]
        if len(same) >= self.max_per_address:
            silent = [
                t for t in same if t.number not in self.spoken and t.since + self.speak_grace <= now
            ]
            if silent:
                self._evict(silent, now)
        if len(self.pending) >= self.max_pending:
            self._evict(list(self.pending.values()), now)
        ticket = Ticket(next(self._numbers), address, now)
        self.pending[ticket.number] = ticket
        return ticket

    def _evict(self, among: list[Ticket], now: float) -> None:
        # Silent connections past their grace go first, then silent ones, then the oldest: a
        # joiner that has spoken survives any number of idle sockets opened after it.
        def rank(t: Ticket) -> tuple[bool, bool, float, int]:
            spoken = t.number in self.spoken
            return spoken, t.since + self.speak_grace > now, t.since, t.number

        victim = min(among, key=rank)
        self.pending.pop(victim.number)
        self.spoken.discard(victim.number)
        self.evicted.append(victim)

    def take_evicted(self) -> list[Ticket]:
        """The connections evicted since the last call: close them (no reason is owed)."""
        out, self.evicted = self.evicted, []
        return out

    def heard(self, ticket: Ticket, now: float = 0.0) -> None:
        """``ticket``'s connection sent its first bytes (a second call changes nothing).

        In a private room that is a password attempt: it evicts an earlier attempt from the
        same address still in flight, and it takes a token, or is itself evicted when the
        room took ``guesses_per_second`` attempts already (see :meth:`take_evicted`).
        """
        if ticket.number not in self.pending or ticket.number in self.spoken:
            return
        self.spoken.add(ticket.number)
        if not self.private:
            return
        host = address_host(ticket.address)
        for other in list(self.pending.values()):
            if (
                other.number != ticket.number
                and other.number in self.spoken
                and address_host(other.address) == host
            ):
                self._remove(other)
        rate = self.guesses_per_second
        if self._tokens < 0:
            self._tokens, self._tokens_at = rate, now
        self._tokens = min(rate, self._tokens + (now - self._tokens_at) * rate)
        self._tokens_at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
        else:
            self._remove(ticket)

    def _remove(self, ticket: Ticket) -> None:
        del self.pending[ticket.number]
        self.spoken.discard(ticket.number)
        self.evicted.append(ticket)

    def wrong_password(self, ticket: Ticket, now: float) -> int:
        """``ticket``'s handshake failed on the password: from the second time on, the address
        backs off (1 s, doubling). Returns how many wrong passwords came from that address."""
        host = address_host(ticket.address)
        count = self.wrong.get(host, 0) + 1
        self.wrong[host] = count
        if count > 1:
            delay = min(self.max_backoff, FIRST_BACKOFF * 2.0 ** min(count - 2, 32))
            self._backoff_until[host] = now + delay
        return count

    def deadline(self, ticket: Ticket) -> float:
        """When ``ticket``'s connection is overdue if its handshake is still pending."""
        if ticket.number in self.spoken:
            return ticket.since + self.handshake
        return ticket.since + min(self.first_message, self.handshake)

    def next_deadline(self) -> float | None:
        """The earliest deadline of a pending connection (None when none is pending)."""
        return min((self.deadline(t) for t in self.pending.values()), default=None)

    def overdue(self, now: float) -> list[Ticket]:
        """Pending connections past their deadline, no longer pending: close them."""
        late = [t for t in self.pending.values() if self.deadline(t) <= now]
        for ticket in late:
            del self.pending[ticket.number]
            self.spoken.discard(ticket.number)
        return late

    def established(self, ticket: Ticket, now: float) -> None:
        """``ticket``'s handshake succeeded: its match is the room's.

        Raises :class:`ValueError` when the room was busy (the transport did not install
        :attr:`busy` as the connection's busy hook) or the ticket is not pending.
        """
        if self.busy:
            raise ValueError("the room is already playing: the handshake should have been refused")
        if self.pending.pop(ticket.number, None) is None:
            raise ValueError(f"ticket {ticket.number} is not a pending handshake")
        self.spoken.discard(ticket.number)
        self.match = ticket

    def resumed(self, ticket: Ticket, now: float) -> None:
        """``ticket``'s connection resumed the room's match: it is the match's connection."""
        self.pending.pop(ticket.number, None)
        self.spoken.discard(ticket.number)
        self.match = ticket
        self.match_over = False

    def closed(self, ticket: Ticket, now: float) -> bool:
        """``ticket``'s connection is over; True when it was the room's match."""
        self.pending.pop(ticket.number, None)
        self.spoken.discard(ticket.number)
        if self.match is not None and self.match.number == ticket.number:
            self.match = None
            self.match_over = True
            return True
        return False


SCRYPT_N: Final = 2**14
"""scrypt's cost of a room password's check (with r 8, p 1: 16 MiB, 60–200 ms here,
docs/benchmarks.md)."""


def password_check(password: str, salt: bytes | None = None) -> dict[str, Any]:
    """A check of a password room's password, for its host's record to keep while the match is
    in play (docs/protocol.md, "A side that crashed"): a host restarted after a crash tells a
    password mistyped again at once, so a failed call to its room is never its own typo and
    never ends the match that waits. scrypt of the password with a random salt; not the
    password. A key named ``v`` says the scheme.

    >>> check = password_check("matsu", salt=bytes(16))
    >>> sorted(check), check["v"], check["n"]
    (['key', 'n', 'salt', 'v'], 'scrypt', 16384)
    >>> password_matches("matsu", check), password_matches("matsux", check)
    (True, False)
    """
    salt = secrets.token_bytes(16) if salt is None else salt
    key = _scrypt(password, salt, SCRYPT_N)
    return {
        "v": "scrypt",
        "n": SCRYPT_N,
        "salt": base64.b64encode(salt).decode("ascii"),
        "key": base64.b64encode(key).decode("ascii"),
    }


def password_matches(password: str, check: Mapping[str, Any]) -> bool:
    """Whether ``password`` is the one :func:`password_check` made ``check`` of; ValueError
    (one line) when ``check`` is not such a check."""
    n = check.get("n")
    if check.get("v") != "scrypt" or not isinstance(n, int) or not 2 <= n <= 2**20:
        raise ValueError("the record's password check is not one this program makes")
    try:
        salt = base64.b64decode(str(check.get("salt", "")), validate=True)
        key = base64.b64decode(str(check.get("key", "")), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the record's password check is not base64") from None
    if n & (n - 1) or len(salt) < 16 or len(key) != 32:
        raise ValueError("the record's password check is malformed")
    return hmac.compare_digest(_scrypt(password, salt, n), key)


WAIT_REASON: Final = "wrong passwords from "
"""How the reason of a ``wait`` refusal begins (:func:`_wait`)."""


@dataclass
class _Guesser:
    window: float
    """When this address's current window began."""
    said: int = 0
    """Lines said about it in this window."""
    wrong: int = 0
    wrong_said: int = 0
    turned: int = 0
    """Connections turned away since the last line about it."""
    reason: str = ""
    address: str = ""
    turned_in_all: int = 0


@dataclass
class GuessReport:
    """The host's lines about password guessing (wrong passwords, connections turned away
    after one or told to wait), coalesced per address: the first ``burst`` lines of an
    address in a window of ``every`` seconds are said as they come; after them, one line
    when the window ends, with the running counts (:meth:`due`, :meth:`next_due`); and
    :meth:`close` says what is left and one summary when anything was coalesced. Other
    refusals (busy, malformed, silent) pass through. Sans-I/O: the caller gives ``now``.

    >>> report = GuessReport(every=5.0, burst=1)
    >>> report.wrong_password("192.0.2.7", 1, now=0.0)
    ['1 wrong password from 192.0.2.7']
    >>> report.wrong_password("192.0.2.7", 2, now=1.0), report.due(5.0)
    ([], ['2 wrong passwords from 192.0.2.7'])
    """

    every: float = 5.0
    burst: int = 3
    _hosts: dict[str, _Guesser] = field(default_factory=dict, repr=False)
    _coalesced: bool = False

    def wrong_password(self, host: str, count: int, now: float) -> list[str]:
        """``count`` wrong passwords so far from ``host``: the lines to say now."""
        state, out = self._at(host, now)
        state.wrong = max(state.wrong, count)
        if state.said < self.burst:
            state.said += 1
            state.wrong_said = state.wrong
            return [*out, _wrong_line(host, state.wrong)]
        self._coalesced = True
        return out

    def turned_away(self, address: str, reason: str, now: float) -> list[str]:
        """A connection from ``address`` turned away for ``reason``: the lines to say now."""
        host = address_host(address)
        state = self._hosts.get(host)
        guessing = reason.startswith(WAIT_REASON) or (state is not None and state.wrong > 0)
        if not guessing:
            return [f"turned away {address}: {reason}"]
        state, out = self._at(host, now)
        state.turned_in_all += 1
        if state.said < self.burst:
            state.said += 1
            return [*out, f"turned away {address}: {reason}"]
        self._coalesced = True
        state.turned += 1
        state.reason, state.address = reason, address
        return out

    def next_due(self) -> float | None:
        """When a coalesced line is due (None: none is waiting)."""
        due = [s.window + self.every for s in self._hosts.values() if self._pending(s)]
        return min(due, default=None)

    def due(self, now: float) -> list[str]:
        """The coalesced lines whose window has ended by ``now``; the next window of such an
        address starts coalescing at once (an address that goes on is one line a window)."""
        out = []
        for host, state in self._hosts.items():
            if self._pending(state) and now >= state.window + self.every:
                out.append(self._line(host, state))
                state.window, state.said = now, self.burst
        return out

    def close(self) -> list[str]:
        """The lines still waiting, and a summary when anything was coalesced."""
        out = [self._line(host, s) for host, s in self._hosts.items() if self._pending(s)]
        if self._coalesced:
            guessers = [s for s in self._hosts.values() if s.wrong or s.turned_in_all]
            wrong = sum(s.wrong for s in guessers)
            turned = sum(s.turned_in_all for s in guessers)
            them = "it" if len(guessers) == 1 else "them"
            out.append(
                f"in all: {_plural(wrong, 'wrong password')} from"
                f" {_plural(len(guessers), 'address', 'addresses')},"
                f" {_plural(turned, 'connection')} from {them} turned away"
            )
        self._hosts.clear()
        self._coalesced = False
        return out

    def _at(self, host: str, now: float) -> tuple[_Guesser, list[str]]:
        state = self._hosts.get(host)
        if state is None:
            state = self._hosts[host] = _Guesser(now)
            return state, []
        out = []
        if now >= state.window + self.every:  # a new window: what waited first
            if self._pending(state):
                out.append(self._line(host, state))
                state.window, state.said = now, self.burst
            else:
                state.window, state.said = now, 0
        return state, out

    @staticmethod
    def _pending(state: _Guesser) -> bool:
        return state.wrong > state.wrong_said or state.turned > 0

    @staticmethod
    def _line(host: str, state: _Guesser) -> str:
        parts = []
        if state.wrong > state.wrong_said or not state.turned:
            parts.append(_wrong_line(host, state.wrong))
        if state.turned == 1:
            parts.append(f"turned away {state.address}: {state.reason}")
        elif state.turned:
            parts.append(
                f"turned away {state.turned} connections from {host} (the last: {state.reason})"
            )
        state.wrong_said, state.turned = state.wrong, 0
        return "; ".join(parts)


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _wrong_line(host: str, count: int) -> str:
    return f"{_plural(count, 'wrong password')} from {host}"


def _scrypt(password: str, salt: bytes, n: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=8, p=1, maxmem=2**26, dklen=32
    )
