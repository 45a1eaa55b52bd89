"""What the parts of the Qt link share: the link's stage, its timers (the real clock's or a
test's), what the owner is told of a peer and of a failure, and the app's dealing kinds."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtNetwork import QTcpSocket

from koikoi.engine.match import Settings
from koikoi.net.errors import (
    AuthenticationFailed,
    BadSignature,
    DealingRefused,
    IdentityChanged,
    NotTheCodedHost,
    PeerRefused,
    ProtocolError,
    RoomMismatch,
    SettingsMismatch,
    VersionMismatch,
)
from koikoi.net.hello import PRIVATE_ONLY
from koikoi.net.identity import PinStatus
from koikoi.net.stamps import STAMPS
from koikoi.net.transport.options import PeerOptions

APP_DEALINGS: Final = PRIVATE_ONLY
"""The dealing kinds the app offers by default (``PeerOptions.dealings``, docs/protocol.md
"Version 4"): private dealing only. A peer that offers only the joint seed is refused before
any card is dealt (``LinkError`` ``dealing``), and a room announced as version 2 (mDNS ``v``)
is not dialled. ``WITH_SEED`` where the player allowed the seed, ``SEED_ONLY`` to play a
koikoi-net/2 host (:mod:`koikoi.net.handshake`)."""


STAY_AFTER = True
"""Whether the app's links stay connected after a match (docs/protocol.md, "After the
match"); False plays as an app from before it did (its tests' older peer)."""


def table_options(options: PeerOptions) -> PeerOptions:
    """``options`` with the app's offer: its table shows stamps (koikoi/ui/table/stamps.py),
    unless they say which (``()``: none), and stays connected after the match while its
    player reads the result (:mod:`koikoi.net.session.after`), unless they say not
    (``False``). The same object (its owner may change it later)."""
    if options.stamps is None:
        options.stamps = STAMPS
    if options.after is None:
        options.after = STAY_AFTER
    return options


RESTARTED: Final = "restarted from the record"
"""Why a match restored from its record waits (``Suspended.reason``), as the CLI says it."""


def _now() -> float:
    return time.monotonic()


class LinkStage(enum.Enum):
    """Where a :class:`PeerLink` is; only the link moves it on."""

    NEW = "new"
    CONNECTING = "connecting"
    """A joiner dialling."""
    OPEN = "open"
    """The socket carries the connection."""
    CLOSING = "closing"
    """Half-closed, waiting for the peer's end (at most the close grace)."""
    SUSPENDED = "suspended"
    """The connection dropped mid-match: the session waits for another one."""
    DONE = "done"
    """The socket is closed; nothing more is emitted."""


class Timer(Protocol):
    """A single-shot timer, as :class:`QTimer` is one: ``start`` (re)arms it."""

    def start(self, msec: int) -> None: ...

    def stop(self) -> None: ...


TimerFactory = Callable[[QObject, Callable[[], None]], Timer]
"""Makes a single-shot timer owned by its first argument that calls the second when it
fires: :func:`qt_timer`, or a test's stepped clock's."""


def qt_timer(parent: QObject, slot: Callable[[], None]) -> Timer:
    """A precise single-shot :class:`QTimer` (the real clock's)."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(slot)
    return timer


# --- what the owner is told ------------------------------------------------------------------


@dataclass(frozen=True)
class PeerInfo:
    """Who is at the other end, as the handshake proved it."""

    nickname: str
    fingerprint: str
    pin: PinStatus
    """``NEW`` (pinned now, first meeting) or ``KNOWN``; a changed key never gets this far."""
    settings: Settings
    private: bool
    address: str
    mixed_scripts: bool = False
    """The nickname mixes scripts (``h\u0430na``, a Cyrillic ``а``): show it as such."""
    resembles: tuple[str, ...] = ()
    """Pinned names it looks like but is not (for a new peer: a likely impostor)."""
    toss_aborts: int = 0
    """Coin tosses this (known) peer abandoned after seeing the result, as its pin counts."""
    dealing: str = "seed"
    """How the match deals, as the hellos agreed: ``private`` or ``seed`` (the joint seed)."""


@dataclass(frozen=True)
class LinkError:
    """Why a link has no session; ``str()`` and :attr:`text` are one line for the user.

    ``kind`` names the failure for the window to word it: ``address`` (not HOST:PORT),
    ``connect`` (nobody answered), ``auth`` (wrong password or tampering), ``settings``
    (``error.differs`` names them), ``room`` (password given to an open room or none to a
    private one), ``identity`` (a pinned key changed: ``error`` is the
    :class:`~koikoi.net.errors.IdentityChanged`), ``code`` (a mistyped join code: nothing was
    dialled), ``code_identity`` (the host joined by code has another identity than the code
    names: :class:`~koikoi.net.errors.NotTheCodedHost`), ``signature``, ``version``,
    ``refused`` (the
    peer said no: ``error.code``, e.g. ``busy``), ``busy`` (this room turned it away),
    ``dealing`` (no dealing both sides allow: ``error.why`` is ``seed`` when the peer offers
    only the joint seed, ``private`` when it deals privately only), ``protocol`` (malformed
    or unexpected bytes), ``left`` (this side gave up), ``dropped``
    (this room dropped a pending handshake: evicted by newer ones, or too slow) or
    ``internal`` (a bug here).
    """

    kind: str
    text: str
    address: str = ""
    error: Exception | None = None

    def __post_init__(self) -> None:
        # The error's traceback holds the frames it was raised through, and with them the
        # link that ran them: a cycle only Python's collector frees, on whichever thread it
        # runs (a zeroconf one), deleting the link's socket and timers there. Keep the error,
        # drop its frames.
        seen: set[int] = set()
        error: BaseException | None = self.error
        while error is not None and id(error) not in seen:
            seen.add(id(error))
            error.__traceback__ = None
            error = error.__cause__ or error.__context__

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def from_protocol(error: ProtocolError, address: str) -> LinkError:
        kinds: tuple[tuple[type[ProtocolError], str], ...] = (
            (AuthenticationFailed, "auth"),
            (SettingsMismatch, "settings"),
            (RoomMismatch, "room"),
            (IdentityChanged, "identity"),
            (NotTheCodedHost, "code_identity"),
            (BadSignature, "signature"),
            (VersionMismatch, "version"),
            (PeerRefused, "refused"),
            (DealingRefused, "dealing"),
        )
        kind = next((name for cls, name in kinds if isinstance(error, cls)), "protocol")
        if str(error).startswith("the handshake was abandoned"):
            kind = "left"
        return LinkError(kind, str(error), address, error)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text else "the connection failed"


def _peer_host(sock: QTcpSocket) -> str:
    """The peer's address as a person reads it (``::ffff:192.0.2.1`` as ``192.0.2.1``)."""
    text = sock.peerAddress().toString()
    if text.lower().startswith("::ffff:") and "." in text:  # a dual-stack socket's IPv4 peer
        return text[len("::ffff:") :]
    return text
