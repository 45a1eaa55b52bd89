"""What ``koikoi host`` and ``join`` leave behind (CLI.md): the record written after every
entry and at the end (:class:`_Recorder`), and the result JSON on stdout with the lines that
say why a match ended early (:func:`_finish`)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, Final

from koikoi.command import EXIT_OK, emit, say
from koikoi.net.policy import RecordFailed
from koikoi.net.recordfile import RecordFile
from koikoi.net.roles import Role
from koikoi.net.session.clock import ClockSetting
from koikoi.net.session.core import Session
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.paths import games_dir, stamped_path

EXIT_EARLY = 1
"""The match ended early (the peer left, the connection dropped, a cheat, a refused
handshake)."""


class _Recorder:
    """Writes the session's record after every entry and at the end, privately dealt with
    its sidecar (:class:`~koikoi.net.recordfile.RecordFile`): to ``--record`` and to
    KOIKOI_HOME/games, under a name fixed at the first write. A target that fails is said
    once on stderr while another one still holds the record; when none does, the write
    raises, and the player is told once that the match goes on without crash recovery
    (``PeerOptions.on_record_failed``, :mod:`koikoi.net.policy`)."""

    def __init__(
        self, role: Role, record_path: str | None, dealing: str, clock: ClockSetting
    ) -> None:
        self.role = role
        self.record_path = record_path
        self.dealing = dealing
        """The dealing this side offered first: the result's ``dealing`` when no session
        started (a session says its own, :attr:`Session.dealing`)."""
        self.clock = clock
        """This side's clock: the result's ``clock`` when no session started (a session
        says the one agreed, :attr:`Session.clock_setting`)."""
        self.targets: list[RecordFile] | None = None
        self.failed: set[Path] = set()
        self.told = False
        """The player was told that the record cannot be saved."""

    def failed_write(self, failed: RecordFailed) -> None:
        """``PeerOptions.on_record_failed``: one line, the match goes on."""
        self.told = True
        with contextlib.suppress(OSError):
            say(failed.text)

    def last_write(self, session: Session) -> None:
        """The record at the end of the run; a failure not told yet is said."""
        try:
            self(session)
        except OSError as error:
            if not self.told:
                self.told = True
                with contextlib.suppress(OSError):
                    say(str(error))

    def __call__(self, session: Session) -> None:
        if self.targets is None:
            tail = f"-{session.session_id.hex()[:8]}-{self.role.value}.json"
            paths = [] if self.record_path is None else [Path(self.record_path)]
            kept = stamped_path(games_dir(), "net", tail)
            self.targets = [RecordFile(path) for path in [*paths, kept]]
        failures: list[tuple[Path, str]] = []
        for target in self.targets:
            try:
                target.path.parent.mkdir(parents=True, exist_ok=True)
                target.save(session)
            except OSError as error:
                failures.append((target.path, str(error.strerror or error)))
        if len(failures) == len(self.targets):  # nowhere: the caller tells the player
            path, why = failures[0]
            raise OSError(f"cannot save the record to {path}: {why}")
        for path, why in failures:
            if path not in self.failed:  # said once, not after every move
                self.failed.add(path)
                with contextlib.suppress(OSError):
                    say(f"cannot save the record to {path}: {why}")


def _recorder(options: PeerOptions, role: Role, record_path: str | None) -> _Recorder:
    recorder = _Recorder(role, record_path, options.dealings[0], options.clock)
    options.on_record = recorder
    options.on_record_failed = recorder.failed_write
    return recorder


ENDED = {"silent": "dropped"}
"""CLI.md's ``ended`` is how an unfinished match ended, as the record's ``end.how`` says it,
except that a peer gone silent counts as a dropped connection; ``end`` keeps the details."""


def _result_of(session: Session) -> dict[str, Any]:
    """The session's result JSON; when its record does not replay (a fault of this side's
    own making: never a traceback), the match as this side's engine played it, and one line
    saying why."""
    try:
        return session.result_json()
    except ValueError as error:  # RecordError, or a record the engine cannot lay out
        with contextlib.suppress(OSError):
            say(f"the result could not be read from the record: {error}")
    lockstep = session.lockstep
    if lockstep is None:
        return {"rounds": [], "scores": [25, 25], "winner": None, "finished": False}
    match = lockstep.match
    rounds = [outcome.to_json() for outcome in match.history]
    if match.round is not None and not match.round.over:
        rounds.append({"result": "in_progress"})
    finished = session.ending is not None and session.ending.finished and match.finished
    return {
        "rounds": rounds,
        "scores": list(match.scores),
        "winner": match.winner if finished else None,
        "finished": finished,
    }


AUDIT_WORDS: Final = {
    "refused": "was refused",
    "cheat": "caught a cheat",
    "unfinished": "was not waited for",
}
"""How a finished match's last audit went, in the line said beside its result."""


def clock_json(clock: ClockSetting) -> dict[str, int]:
    """CLI.md's ``clock`` (seconds for each action, 0: no clock) and ``reserve`` (absent
    with no clock), of results and ``rooms``."""
    return {"clock": 0} if clock.off else {"clock": clock.seconds, "reserve": clock.reserve}


def _refused_before_dialling(recorder: _Recorder, line: str) -> int:
    """``join --room`` refused a room before dialling it: the result of a refused handshake
    (exit 1, ``ended`` ``refused``) and the line saying why."""
    result: dict[str, Any] = {"rounds": [], "scores": [25, 25], "winner": None}
    result.update(finished=False, dealing=recorder.dealing, ended="refused")
    result.update(clock_json(recorder.clock))
    emit(result)
    say(line)
    return EXIT_EARLY


def _finish(outcome: Outcome, recorder: _Recorder, route: str | None = None) -> int:
    """The result on stdout and the exit code; ``route`` (CLI.md) when a peer was reached."""
    session = outcome.session
    if session is not None:
        recorder.last_write(session)
    if session is not None:
        result = _result_of(session)
    else:
        result = {"rounds": [], "scores": [25, 25], "winner": None, "finished": False}
    result["dealing"] = session.dealing if session is not None else recorder.dealing
    result.update(clock_json(session.clock_setting if session is not None else recorder.clock))
    ending = session.ending if session is not None else None
    if ending is not None and ending.audit is not None:  # CLI.md "Fair play and the clock"
        result["audit"] = ending.audit.result
        if ending.audit.by is not None:
            result["audit_by"] = ending.audit.by.seat
    if outcome.resumed:
        result["resumed"] = outcome.resumed
    if route is not None and (outcome.connection is not None or session is not None):
        result["route"] = route
    if outcome.finished:
        emit(result)
        audit = ending.audit if ending is not None else None
        if audit is not None and audit.result != "done":
            how = AUDIT_WORDS.get(audit.result, audit.result)
            say(
                f"the match is over (its signed moves decide); its last audit {how}: {audit.reason}"
            )
        return EXIT_OK
    if ending is not None:
        result["ended"] = ENDED.get(ending.how, ending.how)
        result["end"] = {
            key: value for key, value in ending.to_json().items() if key not in ("rejected",)
        }
    else:  # no session: the handshake failed, or there was no connection at all
        result["ended"] = "refused" if outcome.connection is not None else "dropped"
    emit(result)
    say(outcome.reason)
    counted = outcome.connection.toss_aborts if outcome.connection is not None else None
    if counted is not None and session is not None:
        tosses = "toss" if counted == 1 else "tosses"
        if ending is not None and ending.stage == "play":  # docs/protocol.md, "Deal aborts"
            say(
                f"{session.peer.nickname!r} abandoned a deal after seeing its cards: counted in"
                f" its pin like an abandoned toss ({counted} in all)"
            )
        else:
            say(
                f"{session.peer.nickname!r} has abandoned {counted} {tosses} after seeing the"
                " result (counted in its pin)"
            )
    return EXIT_EARLY


class _GuessLines:
    """``host``'s lines about password guessing on stderr, coalesced per address
    (:class:`~koikoi.net.room.GuessReport` on the loop's clock; a waiting line is said when
    its window ends)."""

    def __init__(self) -> None:
        from koikoi.net.room import GuessReport

        self.report = GuessReport()
        self._timer: asyncio.TimerHandle | None = None

    def wrong_password(self, host: str, count: int) -> None:
        self._say(self.report.wrong_password(host, count, self._now()))

    def turned_away(self, address: str, reason: str) -> None:
        self._say(self.report.turned_away(address, reason, self._now()))

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._say(self.report.close(), wake=False)

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    def _due(self) -> None:
        self._timer = None
        self._say(self.report.due(self._now()))

    def _say(self, lines: list[str], wake: bool = True) -> None:
        for line in lines:
            with contextlib.suppress(OSError):
                say(line)
        due = self.report.next_due()
        if wake and due is not None and self._timer is None:
            self._timer = asyncio.get_running_loop().call_at(due, self._due)
