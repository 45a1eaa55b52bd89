"""Where koikoi keeps its files, and the one way it writes them.

The home folder holds the identity key, the pinned peers, the practice save and the saved
games. It is ``$KOIKOI_HOME`` when that is set (tests, two peers as one user on one
machine), else the platform's user data folder for "koikoi", by one rule everywhere: no
vendor folder above it (``%LOCALAPPDATA%\\koikoi`` on Windows, ``~/Library/Application
Support/koikoi`` on macOS, ``~/.local/share/koikoi`` on Linux).

Every file is written by :func:`atomic_write`: a reader (or a crash, or a power cut) sees
the old file or the new one whole, never half of one.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.json", b"{}", mode=0o600)
>>> (folder / "a.json").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'{}', ['a.json'])
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Container
from pathlib import Path
from typing import Final

import platformdirs

HOME_ENV: Final = "KOIKOI_HOME"
APP_NAME: Final = "koikoi"
APP_AUTHOR: Final = False
"""No vendor folder: on Windows platformdirs would otherwise put ``koikoi\\koikoi``."""
GAMES_DIR: Final = "games"
"""Finished matches, practice and network alike, under the home folder."""

_POSIX: Final = os.name == "posix"
_BINARY: Final = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


def platform_home() -> Path:
    """The platform's user data folder for koikoi (without the ``$KOIKOI_HOME`` override)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=APP_AUTHOR)


def koikoi_home() -> Path:
    """``$KOIKOI_HOME`` if set and not empty, else :func:`platform_home` (not created here)."""
    override = os.environ.get(HOME_ENV)
    return Path(override) if override else platform_home()


def games_dir(home: Path | None = None) -> Path:
    """``<home>/games``, where finished matches are kept (not created here)."""
    return (home if home is not None else koikoi_home()) / GAMES_DIR


def stamped_path(
    directory: Path,
    prefix: str,
    tail: str = ".json",
    *,
    taken: Container[Path] = (),
    now: float | None = None,
) -> Path:
    """``<directory>/<prefix>-<YYYYmmdd-HHMMSS-mmm><tail>``: the local time ``now`` (default:
    the clock) to the millisecond, a name no file has and ``taken`` does not hold.

    A name already used moves the stamp on by a millisecond until one is free, so names
    given one after another sort by name in the order they were given, even within one
    second (a ``-2`` after the stamp would sort before the plain name).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> first = stamped_path(folder, "practice", now=0.5)
    >>> _ = first.write_text("{}")
    >>> second = stamped_path(folder, "practice", now=0.5)
    >>> second.name[-9:], first.name[-9:], sorted([second, first]) == [first, second]
    ('-501.json', '-500.json', True)
    """
    ms = int((time.time() if now is None else now) * 1000)
    while True:
        whole, part = divmod(ms, 1000)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(whole))
        target = directory / f"{prefix}-{stamp}-{part:03d}{tail}"
        if not target.exists() and target not in taken:
            return target
        ms += 1


def atomic_write(path: Path, data: bytes, *, mode: int | None = None, replace: bool = True) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one whole.

    The bytes go to a temporary file in the same folder (which must exist), are flushed to
    disk, and the file is renamed over ``path``; then the folder itself is flushed where the
    platform allows, so the rename survives a power cut too. ``mode`` (e.g. ``0o600`` for a
    key) is the new file's exact permission bits on POSIX; without it the file gets the
    usual ``0o666`` less the umask.

    With ``replace=False`` an existing ``path`` is never replaced, even by another process
    racing to create it: :class:`FileExistsError` is raised instead (a first-use file such
    as the identity key, where the first writer wins).
    """
    folder = path.parent
    temporary, fd = _new_temporary(path, 0o666 if mode is None else mode)
    try:
        try:
            if mode is not None and _POSIX:
                os.fchmod(fd, mode)  # exact, whatever the umask
            _write_all(fd, data)
        finally:
            os.close(fd)
        if replace:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path, data, mode)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    sync_folder(folder)


def _new_temporary(path: Path, mode: int) -> tuple[Path, int]:
    """A new file beside ``path`` (``.<name>.<random>.tmp``), open for writing."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY
    while True:
        candidate = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return candidate, os.open(candidate, flags, mode)
        except FileExistsError:
            continue


def _link_new(temporary: Path, path: Path, data: bytes, mode: int | None) -> None:
    """Give the finished ``temporary`` the name ``path`` unless that name exists."""
    try:
        os.link(temporary, path)  # FileExistsError when another writer got there first
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: an exclusive create instead
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY
        fd = os.open(path, flags, 0o666 if mode is None else mode)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename, a new file) to disk; a no-op where impossible."""
    if not _POSIX:
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
