"""One home folder and one atomic write for everything koikoi keeps (``koikoi/paths.py``)."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import platformdirs
import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from koikoi.net.identity import IDENTITY_DIR, identity_dir
from koikoi.paths import atomic_write, games_dir, koikoi_home, platform_home, stamped_path
from koikoi.ui.match.saves import SaveStore

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def test_koikoi_home_env_overrides(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "h"))
    assert koikoi_home() == tmp_path / "h"
    assert games_dir() == tmp_path / "h" / "games"
    monkeypatch.setenv("KOIKOI_HOME", "")
    assert koikoi_home() == platform_home()
    monkeypatch.delenv("KOIKOI_HOME")
    assert koikoi_home() == platform_home()
    assert koikoi_home().name.lower() == "koikoi"


def _pretend(
    system: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> tuple[type[platformdirs.PlatformDirsABC], Path]:
    """Make platformdirs answer as it does on ``system``, with its base folder in tmp_path;
    return the class and the folder koikoi should use there."""
    monkeypatch.delenv("KOIKOI_HOME")
    if system == "windows":
        local = tmp_path / "AppData" / "Local"
        monkeypatch.setattr(platformdirs.windows, "get_win_folder", lambda name: str(local))
        return platformdirs.windows.Windows, local / "koikoi"
    if system == "macos":
        monkeypatch.setenv("HOME", str(tmp_path))
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
        return platformdirs.macos.MacOS, tmp_path / "Library" / "Application Support" / "koikoi"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    return platformdirs.unix.Unix, tmp_path / "share" / "koikoi"


@pytest.mark.parametrize("system", ["windows", "macos", "linux"])
def test_one_home_on_every_platform(
    system: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The identity, the pinned peers, the practice save and the saved games share one
    folder: no ``koikoi\\koikoi`` on Windows for the network side only."""
    dirs, expected = _pretend(system, monkeypatch, tmp_path)
    monkeypatch.setattr(platformdirs, "PlatformDirs", dirs)
    assert platform_home() == expected
    assert koikoi_home() == expected
    assert identity_dir() == expected / IDENTITY_DIR
    assert SaveStore().path == expected / "practice.json"
    assert games_dir() == expected / "games"


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    atomic_write(path, b"old")
    atomic_write(path, b"new" * 100_000)
    assert path.read_bytes() == b"new" * 100_000
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


@posix_only
def test_atomic_write_modes(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "plain", b"x")
        atomic_write(tmp_path / "key", b"x", mode=0o600)
        (tmp_path / "loose").write_bytes(b"")
        (tmp_path / "loose").chmod(0o644)
        atomic_write(tmp_path / "loose", b"x", mode=0o600)
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "key").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "loose").stat().st_mode) == 0o600


def test_atomic_write_without_replace_keeps_the_first(tmp_path: Path) -> None:
    path = tmp_path / "key.json"
    atomic_write(path, b"first", replace=False)
    with pytest.raises(FileExistsError):
        atomic_write(path, b"second", replace=False)
    assert path.read_bytes() == b"first"
    assert [p.name for p in tmp_path.iterdir()] == ["key.json"]


def test_atomic_write_races_have_one_winner(tmp_path: Path) -> None:
    path = tmp_path / "key.json"
    won: list[bytes] = []
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        data = b"writer %d" % n
        start.wait()
        try:
            atomic_write(path, data, replace=False)
        except FileExistsError:
            return
        won.append(data)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and path.read_bytes() == won[0]
    assert [p.name for p in tmp_path.iterdir()] == ["key.json"]


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    atomic_write(path, b"old")
    with pytest.raises(TypeError):
        atomic_write(path, "not bytes")  # type: ignore[arg-type]
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_stamped_names_sort_in_the_order_they_were_given(tmp_path: Path) -> None:
    """Within one millisecond and across a second's end, the name order is the time order;
    a name held by ``taken`` (given, not written yet) is not given again."""
    given: list[Path] = []
    for now in [1_000.9985] * 3 + [1_000.9999, 1_001.0, 1_001.0]:
        path = stamped_path(tmp_path, "practice", now=now, taken=set(given))
        if len(given) % 2 == 0:
            path.write_text("{}", encoding="utf-8")
        given.append(path)
    assert len(set(given)) == len(given)
    on_disk = [p for p in given if p.exists()]
    assert sorted(given) == given and sorted(tmp_path.iterdir()) == on_disk
    assert all(p.name.startswith("practice-") and p.name.endswith(".json") for p in given)


def test_finished_matches_archived_in_one_second_keep_their_order(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    for n in range(5):
        store.write({"n": n})
        store.archive()
    kept = sorted(games_dir(tmp_path).glob("practice-*.json"))
    assert [json.loads(p.read_text(encoding="utf-8"))["n"] for p in kept] == list(range(5))
