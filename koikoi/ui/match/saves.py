"""The practice match in progress, kept as a ``koikoi-record/1`` file after every action.

The file is written atomically (:func:`koikoi.paths.atomic_write`), so a crash or a power
cut leaves either the old save or the new one, never half of one. It lives in the home
folder (:func:`koikoi.paths.koikoi_home`). A save that cannot be read is moved aside (never
deleted) and reported in one line; a finished match is moved to ``games/`` so nothing played
is lost.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from koikoi.engine.record import RecordError, Replay, loads, replay_record
from koikoi.paths import atomic_write, games_dir, koikoi_home, stamped_path
from koikoi.stats.store import StatsStore
from koikoi.stats.tally import entry_of_record

logger = logging.getLogger(__name__)

SAVE_NAME: Final = "practice.json"


@dataclass(frozen=True)
class SavedMatch:
    """A save that replays cleanly: its JSON and the match it leads to."""

    data: dict[str, Any]
    replay: Replay

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.data["seed"])


@dataclass(frozen=True)
class LoadResult:
    saved: SavedMatch | None = None
    problem: str | None = None
    """One line for the player when a save was found but set aside (English, as logged)."""
    reason: str = ""
    """Why the save was set aside, for the window to word ``problem`` in its language."""
    moved: Path | None = None
    """Where the save that could not be read was moved."""


class SaveStore:
    """The autosave of the practice match (one file) and the archive of finished ones."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else koikoi_home()

    @property
    def path(self) -> Path:
        return self.directory / SAVE_NAME

    def write(self, data: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        atomic_write(
            self.path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"), mode=0o600
        )

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> LoadResult:
        """The saved match, if there is one that can be resumed.

        A file that is not a valid record, or lacks the practice keys, is set aside and
        reported; a finished match is archived quietly (there is nothing to resume).
        """
        if not self.path.is_file():
            return LoadResult()
        try:
            data = loads(self.path.read_text(encoding="utf-8"))
            seed = data.get("seed")
            if not isinstance(seed, str) or not 0 < len(bytes.fromhex(seed)) <= 255:
                raise ValueError("the practice seed is missing")
            replayed = replay_record(data)
        except (OSError, UnicodeDecodeError, ValueError, RecordError) as exc:
            moved = self.set_aside()
            line = f"the saved match could not be read ({_one_line(exc)}); moved to {moved}"
            logger.warning("%s", line)
            return LoadResult(problem=line, reason=_one_line(exc), moved=moved)
        if replayed.match.finished:
            # the app stopped between the last round and the archive: counted here (once)
            _count(data, self.directory)
            self.archive()
            return LoadResult()
        return LoadResult(SavedMatch(data, replayed))

    def set_aside(self) -> Path:
        """Rename the save to ``practice.corrupt-<time>.json`` beside it; return the new path."""
        target = stamped_path(self.directory, "practice.corrupt")
        os.replace(self.path, target)
        return target

    def archive(self) -> Path | None:
        """Move a finished match's record into ``games/``; None when there is no save."""
        if not self.path.is_file():
            return None
        games = games_dir(self.directory)
        games.mkdir(parents=True, exist_ok=True)
        target = stamped_path(games, "practice")
        os.replace(self.path, target)
        return target

    def discard(self) -> None:
        """Forget the save (a new match replaces it): it is archived, not deleted."""
        self.archive()


def _count(data: dict[str, Any], directory: Path) -> None:
    """Add a finished practice match to the statistics (a failure is only logged here: the
    player hears of a damaged statistics file on the Statistics page)."""
    try:
        loaded = StatsStore(directory).add(entry_of_record(data))
    except (OSError, ValueError) as exc:
        logger.warning("the finished match was not counted in the statistics: %s", exc)
        return
    if loaded.problem:
        logger.warning("%s", loaded.problem)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# -- matches kept in games/: finished ones, and unfinished ones set aside ----------------------


@dataclass(frozen=True)
class KeptMatch:
    """A practice match kept in ``games/``, as the start screen lists it."""

    path: Path
    played: float
    """When it was last played (the file's modification time, seconds since the epoch)."""
    level: str
    scores: tuple[int, int]
    round_no: int
    rounds: int
    finished: bool
    """False for a match set aside before its end (it can be resumed) or a network match
    that ended early."""
    opponent: str = ""
    """The peer's nickname of a network game (``net-*.json``); empty for practice."""
    reconnect: bool = False
    """A network match this app was playing when it stopped (crashed, killed): in play, its
    record written less than the resume window ago, with what it takes to dial again (its
    :data:`RESUME_KEY`); the peer may still wait for it (docs/protocol.md, "Resume")."""
    private: bool = False
    """The match of a password room: its password (never written) is asked again."""
    title: str = ""
    """The room's title, or the address dialled, for the password prompt."""

    @property
    def network(self) -> bool:
        return bool(self.opponent)

    @property
    def resumable(self) -> bool:
        """A practice match set aside, or a network match to reconnect."""
        return not self.finished and (not self.network or self.reconnect)


RESUME_KEY: Final = "resume"
"""The key of a network record that says how to take its match up again after a crash
(``koikoi.net.restore.RESUME_KEY``, which says what it holds; named here too so that the
start screen does not load the network to list the matches it offers)."""


def reconnectable(data: dict[str, Any], written: float, window: float, now: float) -> bool:
    """A network record of a match in play (toss done, no end), written less than ``window``
    seconds before ``now``, that says how to reconnect (a password room's too: its
    password is never kept, the player types it again). As ``koikoi.net.resume.unfinished_record``
    says, without loading the network for the start screen."""
    info, net = data.get(RESUME_KEY), data.get("net")
    return (
        isinstance(net, dict)
        and "seed" in net
        and "toss" in net
        and "end" not in data
        and isinstance(info, dict)
        and info.get("role") in ("host", "joiner")
        and 0 <= now - written < window
    )


NET_SEAT = re.compile(r"-seat([01])\.json$")
"""A network game's file name ends with the local player's seat: ``net-<time>-seat1.json``."""


def kept_matches(store: SaveStore, limit: int = 20, window: float = 180.0) -> list[KeptMatch]:
    """The newest ``limit`` readable practice records in ``games/``, newest first.

    A file that does not replay is skipped with one log line: the list only shows, and a
    broken file stays where it is for the player to look at. A network match in play that
    was written less than ``window`` seconds ago (the resume window) is marked
    :attr:`KeptMatch.reconnect`.
    """
    games = games_dir(store.directory)
    try:
        files = [p for p in games.glob("practice-*.json") if p.is_file()]
        files += [p for p in games.glob("net-*.json") if p.is_file()]
        files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    out: list[KeptMatch] = []
    for path in files[:limit]:
        try:
            # a network game's record is signed: read strictly (a repeated key refused)
            data = loads(path.read_text(encoding="utf-8"), unique_keys=path.name.startswith("net-"))
            match = replay_record(data).match
            played = path.stat().st_mtime
        except (OSError, UnicodeDecodeError, ValueError, RecordError) as exc:
            logger.warning("skipped the kept match %s: %s", path.name, _one_line(exc))
            continue
        level = data.get("ai_level")
        if path.name.startswith("net-"):
            kept = _net_kept(path, played, data, match)
            if reconnectable(data, played, window, time.time()):
                kept = replace(kept, reconnect=True, **_room_of(data[RESUME_KEY]))
            out.append(kept)
            continue
        out.append(
            KeptMatch(
                path=path,
                played=played,
                level=level if isinstance(level, str) else "normal",
                scores=match.scores,
                round_no=match.round_no,
                rounds=match.settings.rounds,
                finished=match.finished,
            )
        )
    return out


def _room_of(info: dict[str, Any]) -> dict[str, Any]:
    """A resume key's password room (``private``) and what names it to the player."""
    room = info.get("room")
    title = room.get("title") if isinstance(room, dict) else None
    title = title or info.get("title") or info.get("address") or ""
    title = "".join(ch for ch in str(title) if ch.isprintable())[:60]
    return {"private": bool(info.get("private", False)), "title": title}


def _net_kept(path: Path, played: float, data: dict[str, Any], match: Any) -> KeptMatch:
    """A network game: the player's seat from the file name, the peer's name from the
    record's ``net`` key, finished as its ``end`` key says."""
    found = NET_SEAT.search(path.name)
    me = int(found.group(1)) if found else 0
    opponent = "?"
    net = data.get("net")
    players = net.get("players") if isinstance(net, dict) else None
    if isinstance(players, list):
        for player in players:
            if isinstance(player, dict) and player.get("seat") == 1 - me:
                nick = player.get("nick")
                if isinstance(nick, str) and nick:
                    opponent = "".join(ch for ch in nick if ch.isprintable())[:40] or "?"
    end = data.get("end")
    finished = bool(end.get("finished")) if isinstance(end, dict) else False
    return KeptMatch(
        path=path,
        played=played,
        level="",
        scores=(match.scores[me], match.scores[1 - me]),
        round_no=match.round_no,
        rounds=match.settings.rounds,
        finished=finished,
        opponent=opponent,
    )


def take_back(store: SaveStore, kept: KeptMatch) -> None:
    """Make a set-aside match the one in progress again; the one in progress, if any, is
    set aside in its place (moved to ``games/``)."""
    if kept.finished:
        raise ValueError("a finished match cannot be resumed")
    if kept.network:
        raise ValueError("a network game cannot be resumed")
    store.archive()
    store.directory.mkdir(parents=True, exist_ok=True)
    os.replace(kept.path, store.path)
