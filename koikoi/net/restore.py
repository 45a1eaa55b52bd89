"""A network match restored from its record after this side crashed or was killed (Qt-free).

The one way to take a match in play up again from the file its side wrote after every entry
(docs/protocol.md, "A side that crashed"), for the command line (``koikoi host``/``join
--record FILE``) and the window (a match offered on the start screen): the record read
strictly, its local sidecar attached (a privately dealt match's seeds and journal), the
session replayed and checked (:func:`koikoi.net.resume.restore_session`). What goes wrong is
a :class:`RestoreError` of one line; each caller says it in its own words.

The window's records also say how to reconnect (:data:`RESUME_KEY`, read by
:func:`reconnect_of`): the role, where to dial or listen again, the room it was announced as.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from koikoi.engine.match import Settings
from koikoi.engine.record import RecordError, loads
from koikoi.net.hello import PROTOCOL_VERSION, protocol_name, resuming_offer
from koikoi.net.identity import Identity
from koikoi.net.lockstep import Lockstep
from koikoi.net.recordfile import LocalFileError, attach_local
from koikoi.net.resume import NotResumable, restore_session, unfinished_record
from koikoi.net.roles import Role
from koikoi.net.session.clock import DEFAULT_SILENCE_TIMEOUT
from koikoi.net.session.core import Session
from koikoi.net.session.events import TossDone

RESUME_KEY: Final = "resume"
"""The key of a network record that says how to take its match up again after a crash:
``role`` (``host``/``joiner``), for the joiner ``address`` (``host:port`` dialled last) and,
when it joined a room found by mDNS, ``room`` (``name``, ``title``, ``fingerprint``); for the
host ``bind`` and ``port`` (where its room listened), and for a password room ``private``
and ``check`` (the password's check, never the password). Nothing signs it (docs/protocol.md,
"A side that crashed")."""


class RestoreError(ValueError):
    """A record of a match in play that cannot be taken up again, in one line (``str``).
    ``unreadable``: the file could not be read as a record (else it was read, and its match
    cannot go on: it does not verify, names another identity, its sidecar does not fit)."""

    def __init__(self, reason: str, *, unreadable: bool = False) -> None:
        super().__init__(reason)
        self.unreadable = unreadable


class NoReconnect(RestoreError):
    """The record does not say how to reconnect (no :data:`RESUME_KEY` with a role)."""

    def __init__(self) -> None:
        super().__init__("the record does not say how to reconnect")


def read_strict(path: Path) -> dict[str, Any]:
    """The signed record in ``path``, read strictly (a repeated key refused), with its local
    sidecar attached; :class:`RestoreError` (one line) when it cannot be read or its sidecar
    does not belong to it. OSError is left to the caller."""
    text = path.read_text(encoding="utf-8")
    return _strict(text, path)


def _strict(text: str, path: Path) -> dict[str, Any]:
    try:
        data = loads(text, unique_keys=True)
    except RecordError as error:
        raise RestoreError(str(error), unreadable=True) from None
    try:
        return attach_local(data, path)  # a privately dealt match's seeds and journal
    except LocalFileError as error:
        raise RestoreError(str(error)) from None


def unfinished_in(path: Path) -> dict[str, Any] | None:
    """The record in ``path`` when it holds a match in play (as :func:`read_strict` has it);
    None when there is no such file, or it is not a record (to be written over), or its match
    is over. :class:`RestoreError` when it holds a match in play that cannot be read."""
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
        data = loads(text)
    except (OSError, UnicodeDecodeError, RecordError):
        return None  # not a record: written over, as before
    if not unfinished_record(data):
        return None
    return _strict(text, path)


def restore(
    data: Mapping[str, Any],
    identity: Identity,
    nickname: str,
    role: Role,
    settings: Settings,
    *,
    silence_timeout: float = DEFAULT_SILENCE_TIMEOUT,
    now: float | None = None,
) -> Session:
    """The session of the record ``data`` as it stood after its last entry, ready to be
    resumed (:func:`koikoi.net.resume.restore_session`); :class:`RestoreError` saying why
    not."""
    try:
        return restore_session(
            data,
            identity,
            nickname,
            role,
            settings,
            now=time.monotonic() if now is None else now,
            silence_timeout=silence_timeout,
        )
    except NotResumable as error:
        raise RestoreError(str(error)) from None


def moves(session: Session) -> int:
    """How many moves the restored match had when it was cut off."""
    lockstep = session.lockstep
    return 0 if lockstep is None else lockstep.seq


def first_toss(session: Session) -> TossDone:
    """The ``TossDone`` that began the restored match (the first deal laid out as it was
    dealt), for a table that opens at the restored position."""
    result = session.toss.result
    if result is None or session.lockstep is None:
        raise RestoreError("the record's match has no toss")
    settings = session.lockstep.match.settings
    first = Lockstep(settings, result.first_oya, result.seed, session.session_id)
    return TossDone(result, tuple(first.events))


@dataclass(frozen=True)
class Reconnect:
    """What a record written by the window says about taking its match up again."""

    role: Role
    nickname: str
    """This side's nickname in the record ("" when it has none)."""
    settings: Settings
    protocol: str
    """The protocol the match was agreed in (``koikoi-net/N``)."""
    dealing: str
    """How it was dealt: ``seed`` or ``private``."""
    info: Mapping[str, Any]
    """The record's :data:`RESUME_KEY`: where to dial or listen again."""

    def offer(self, dealings: tuple[str, ...]) -> tuple[str, ...]:
        """What this side offers when it dials or listens again (:func:`resuming_offer`)."""
        return resuming_offer(dealings, self.protocol, self.dealing, self.role is Role.JOINER)

    def password_check(self) -> dict[str, Any] | None:
        """The host's check of its room's password, when the record keeps one."""
        check = self.info.get("check")
        return check if isinstance(check, dict) else None


def reconnect_of(data: Mapping[str, Any]) -> Reconnect:
    """How to reconnect the match of the record ``data`` (:data:`RESUME_KEY`);
    :class:`NoReconnect` when the record does not say."""
    info = data.get(RESUME_KEY)
    if not isinstance(info, dict) or info.get("role") not in ("host", "joiner"):
        raise NoReconnect
    role = Role(info["role"])
    net = data.get("net", {})
    players = {p.get("role"): p for p in net.get("players", [])}
    raw = data.get("settings", {})
    return Reconnect(
        role=role,
        nickname=str(players.get(role.value, {}).get("nick", "")),
        settings=Settings(rounds=int(raw.get("rounds", 6)), doubling=bool(raw.get("doubling"))),
        protocol=str(net.get("protocol", protocol_name(PROTOCOL_VERSION))),
        dealing=str(net.get("dealing", "seed")),
        info=info,
    )
