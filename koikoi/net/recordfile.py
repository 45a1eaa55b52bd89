"""A network match's record file as the match goes, and what a side that crashed reads back.

The signed record (``koikoi-record/1``) is rewritten whole, atomically, only when it grew: the
coin toss, an entry, a deal, the end. A privately dealt match's local part (this side's
seeds and the journal of what it took and played, :meth:`Session.local_json
<koikoi.net.session.core.Session.local_json>`) goes to a sidecar beside it,
``<record>.local`` (mode 0600): a header line naming the session and this side's role, then
one line per write, each a JSON list of the items that came since the last one, appended
and flushed to disk before what this side sends next goes out. Since that journal replays
every entry, such a record is rewritten only as each deal is laid out and at the end: the
bytes written over a match grow with its length, not with its square. At the end the
record is written with its ``end`` and the sidecar deleted: a finished match keeps no
secret seed on disk.

docs/protocol.md, "A side that crashed", is the normative text; :func:`attach_local` reads
the sidecar back into the record's ``local`` key for
:func:`~koikoi.net.resume.restore_session`.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from koikoi.engine.record import RecordError, no_repeated_keys
from koikoi.net.session.core import Session
from koikoi.paths import atomic_write, sync_folder

SUFFIX: Final = ".local"
"""The sidecar of ``games/net-….json`` is ``games/net-….json.local``."""
FORMAT: Final = "koikoi-local/1"
"""The sidecar's header line says this ``format``."""


def local_path(record: Path) -> Path:
    """The sidecar beside the record file ``record``."""
    return record.with_name(record.name + SUFFIX)


def _line(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class RecordFile:
    """The record file at ``path`` of one session, written by :meth:`save` (a client's
    ``PeerOptions.on_record``) with what the session holds; ``bytes_written`` and
    ``writes`` count what went to disk (``koikoi bench --net``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bytes_written = 0
        self.writes = 0
        self._session: bytes | None = None
        self._mark: tuple[object, ...] | None = None
        """The session's :attr:`~Session.record_mark` when the record file was written."""
        self._local: tuple[int, int] | None = None
        """The session's :attr:`~Session.local_size` the sidecar holds (None: not written
        by this object yet, or a write of it failed: the next one writes it whole)."""

    @property
    def sidecar(self) -> Path:
        return local_path(self.path)

    def save(self, session: Session, extra: Mapping[str, Any] | None = None) -> None:
        """Bring the files up to ``session``: first the sidecar's new items (flushed), then
        the record when it grew, with ``extra`` keys (the app's ``resume``); at the end the
        sidecar goes. Raises :class:`OSError`; a later call writes what this one missed."""
        if session.session_id != self._session:
            self._session, self._mark, self._local = session.session_id, None, None
        appended = session.ending is None and self._save_local(session)
        # the app's ``resume`` key changes between entries too (a restored host's new port)
        mark = (*_mark(session), json.dumps(extra or {}, sort_keys=True))
        if mark != self._mark:
            data = session.record(local=False).to_json()
            data.update(extra or {})
            text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
            self._write_whole(self.path, text.encode("utf-8"))
            self._mark = mark
        elif appended:
            # the record's time says when the match last wrote (the app offers to resume
            # a match written less than the resume window ago)
            os.utime(self.path)
        if session.ending is not None:
            self.discard_local()

    def discard_local(self) -> None:
        """Delete the sidecar (the match ended: its seeds are no one's business now)."""
        try:
            self.sidecar.unlink()
        except FileNotFoundError:
            return
        sync_folder(self.path.parent)

    def _write_whole(self, path: Path, data: bytes) -> None:
        atomic_write(path, data, mode=0o600)
        self.bytes_written += len(data)
        self.writes += 1

    def _save_local(self, session: Session) -> bool:
        """The sidecar's new items, on disk; whether there were any."""
        size = session.local_size
        if size == self._local or (self._local is None and size == (0, 0)):
            return False
        written, self._local = self._local, None  # until this write is whole on disk
        if written is None:  # the whole local part, atomically (a restored match, say)
            header = {
                "format": FORMAT,
                "session": base64.b64encode(session.session_id).decode("ascii"),
                "role": session.role.value,
            }
            self._write_whole(self.sidecar, _line(header) + _line(session.local_items()))
        else:
            try:
                self._append(_line(session.local_items(*written)))
            except FileNotFoundError:  # deleted under it: written whole again
                self._local = None
                return self._save_local(session)
        self._local = size
        return True

    def _append(self, line: bytes) -> None:
        """One line at the sidecar's end, on disk before this returns (one ``write``: a
        crash leaves it whole or as the file's torn last line)."""
        fd = os.open(self.sidecar, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        self.bytes_written += len(line)
        self.writes += 1


def _mark(session: Session) -> tuple[object, ...]:
    """When the record file is written again: whenever the signed record grew
    (:attr:`Session.record_mark`); privately dealt and in play, only as each deal is laid
    out (its journal, beside it, replays every entry since: rewriting the whole record, its
    dealing transcripts included, after every entry writes the square of the match)."""
    lockstep = session.lockstep
    if session.dealing == "private" and session.ending is None and lockstep is not None:
        return "private", len(lockstep.record.deals)
    return session.record_mark


class LocalFileError(ValueError):
    """A sidecar that cannot be read back (one line)."""


def read_local(record: Path) -> dict[str, Any] | None:
    """The sidecar of the record file ``record`` as a record's ``local`` key (``seeds``,
    ``journal``, and the header's ``session`` and ``role``), or None when there is none.

    A last line without its newline, or that is not JSON, is a write a crash cut short: it
    is dropped (its step sent nothing: what a step sends goes out after its line is on
    disk). Anything else that is not as written raises :class:`LocalFileError`."""
    try:
        raw = local_path(record).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise LocalFileError(f"its local file cannot be read: {error.strerror or error}") from None
    lines = raw.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    parsed: list[Any] = []
    for n, line in enumerate(lines):
        try:
            parsed.append(json.loads(line, object_pairs_hook=no_repeated_keys))
        except RecordError as error:  # a key twice: no torn line makes that
            raise LocalFileError(f"its local file's line {n + 1}: {error.message}") from None
        except (ValueError, RecursionError):
            if n == len(lines) - 1 and n > 0:
                break  # the torn last line
            raise LocalFileError(f"its local file's line {n + 1} is not JSON") from None
    else:
        if not raw.endswith(b"\n") and len(parsed) > 1:
            parsed.pop()  # a whole JSON value, but its newline never came: not flushed
    if not parsed:
        raise LocalFileError("its local file is empty")
    header = parsed[0]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LocalFileError(f"its local file is not {FORMAT}")
    seeds: list[Any] = []
    journal: list[Any] = []
    for n, items in enumerate(parsed[1:], start=2):
        if not isinstance(items, list):
            raise LocalFileError(f"its local file's line {n} is not a list")
        for item in items:
            if isinstance(item, list) and len(item) == 2 and item[0] == "seed":
                seeds.append(item[1])
            else:
                journal.append(item)
    return {
        "session": header.get("session"),
        "role": header.get("role"),
        "seeds": seeds,
        "journal": journal,
    }


def attach_local(data: dict[str, Any], record: Path) -> dict[str, Any]:
    """``data`` (the record file ``record``, read) with its sidecar as its ``local`` key,
    for :func:`~koikoi.net.resume.restore_session`. A record that keeps a ``local`` key of
    its own (written by a version before the sidecar) keeps it. Raises
    :class:`LocalFileError` (one line)."""
    if "local" not in data:
        local = read_local(record)
        if local is not None:
            data["local"] = local
    return data


__all__ = [
    "FORMAT",
    "SUFFIX",
    "LocalFileError",
    "RecordFile",
    "attach_local",
    "local_path",
    "read_local",
]
