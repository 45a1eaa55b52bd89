"""The statistics file: ``stats.json`` in the home folder, one entry per finished practice match.

The home folder is the saves' (:func:`koikoi.paths.koikoi_home`: ``$KOIKOI_HOME``, else the
platform's user data folder). The file is rewritten whole by :func:`koikoi.paths.atomic_write`,
so a crash leaves the old file or the new one. One that cannot be read or is not a
statistics file is renamed to ``stats.corrupt-<time>.json`` beside it (never deleted) and
reported in one line; a fresh file is started. Entries, not totals, are kept: the totals are
worked out on reading (:func:`koikoi.stats.tally.summary`), so a streak or a new figure can be
computed from every match played.

>>> import tempfile
>>> store = StatsStore(Path(tempfile.mkdtemp()))
>>> store.load().entries
()
>>> from koikoi.stats.tally import Entry, Result
>>> _ = store.add(Entry("ab", "easy", Result.WIN, 6, 10, 0, 0))
>>> _ = store.add(Entry("ab", "easy", Result.WIN, 6, 10, 0, 0))  # the same match: once
>>> [e.id for e in store.load().entries]
['ab']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from koikoi.paths import atomic_write, koikoi_home, stamped_path
from koikoi.stats.tally import Entry

STATS_NAME: Final = "stats.json"
FORMAT: Final = "koikoi-stats/1"


class StatsError(OSError):
    """The statistics file can neither be read nor set aside (a folder without rights)."""


@dataclass(frozen=True)
class Loaded:
    """What the file holds, and what became of a file that could not be read."""

    entries: tuple[Entry, ...] = ()
    problem: str | None = None
    """One line (English, as logged) when a damaged file was set aside."""
    reason: str = ""
    """Why it was set aside, for the window to word ``problem`` in its language."""
    moved: Path | None = None
    """Where the damaged file went."""


class StatsStore:
    """``stats.json`` in ``directory`` (by default the home folder)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else koikoi_home()

    @property
    def path(self) -> Path:
        return self.directory / STATS_NAME

    def load(self) -> Loaded:
        """The entries, oldest first; none when there is no file yet. A file that cannot
        be read, or holds anything but statistics, is set aside and a fresh one begins
        (:class:`StatsError` only when it cannot even be moved)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Loaded()
        except (OSError, UnicodeDecodeError) as exc:
            return self._set_aside(_why(exc))
        try:
            return Loaded(_entries_of(text))
        except ValueError as exc:
            return self._set_aside(_why(exc))

    def add(self, entry: Entry) -> Loaded:
        """Add a finished match (once: a match already there is left as it is) and write
        the file; returns what was loaded first (with its problem, if one was set aside)."""
        loaded = self.load()
        if any(e.id == entry.id for e in loaded.entries):
            return loaded
        entries = [*loaded.entries, entry]
        data = {"format": FORMAT, "matches": [e.to_json() for e in entries]}
        self.directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        atomic_write(self.path, text.encode("utf-8"))
        return loaded

    def _set_aside(self, reason: str) -> Loaded:
        target = stamped_path(self.directory, "stats.corrupt")
        try:
            os.replace(self.path, target)
        except OSError as exc:
            raise StatsError(
                f"the statistics file {self.path} cannot be read ({reason}) nor moved aside "
                f"({_why(exc)})"
            ) from None
        line = f"the statistics could not be read ({reason}); moved to {target}, starting afresh"
        return Loaded(problem=line, reason=reason, moved=target)  # the caller says it


def _entries_of(text: str) -> tuple[Entry, ...]:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    matches = data.get("matches")
    if not isinstance(matches, list):
        raise ValueError("matches must be a list")
    entries: dict[str, Entry] = {}
    for i, item in enumerate(matches):
        try:
            entry = Entry.from_json(item)
        except ValueError as exc:
            raise ValueError(f"match {i}: {exc}") from None
        entries.setdefault(entry.id, entry)  # a match counted once, as add() keeps it
    return tuple(entries.values())


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
