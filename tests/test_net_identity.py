"""Identity key store, fingerprints and pinned peers, on real files in a temporary home."""

from __future__ import annotations

import json
import os
import stat
from multiprocessing.synchronize import Event
from pathlib import Path

import pytest

from koikoi.net.errors import IdentityFileError
from koikoi.net.identity import (
    IDENTITY_DIR,
    KEY_FILE,
    PEERS_FILE,
    Identity,
    KnownPeers,
    PinStatus,
    fingerprint,
    load_or_create_identity,
    verify_signature,
)

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_created_once_then_reloaded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    first = load_or_create_identity()
    again = load_or_create_identity()
    assert first.public_key == again.public_key
    assert (tmp_path / IDENTITY_DIR / KEY_FILE).is_file()
    assert [p.name for p in (tmp_path / IDENTITY_DIR).iterdir()] == [KEY_FILE]  # no temp left


@posix_only
def test_owner_only_permissions(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path)
    assert _mode(tmp_path / IDENTITY_DIR) == 0o700
    assert _mode(tmp_path / IDENTITY_DIR / KEY_FILE) == 0o600


@posix_only
def test_loose_permissions_are_tightened(tmp_path: Path) -> None:
    identity = load_or_create_identity(tmp_path)
    (tmp_path / IDENTITY_DIR / KEY_FILE).chmod(0o644)
    (tmp_path / IDENTITY_DIR).chmod(0o755)
    assert load_or_create_identity(tmp_path).public_key == identity.public_key
    assert _mode(tmp_path / IDENTITY_DIR) == 0o700
    assert _mode(tmp_path / IDENTITY_DIR / KEY_FILE) == 0o600


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"[]",
        b'{"format": "something-else/1"}',
        b'{"format": "koikoi-identity/1"}',
        b'{"format": "koikoi-identity/1", "private_key": "zz", "public_key": "00"}',
    ],
)
def test_corrupt_key_file_is_an_error_and_left_alone(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / IDENTITY_DIR
    folder.mkdir(mode=0o700)
    path = folder / KEY_FILE
    path.write_bytes(content)
    with pytest.raises(IdentityFileError, match="corrupt.*move it aside"):
        load_or_create_identity(tmp_path)
    assert path.read_bytes() == content


def test_mismatched_public_key_is_detected(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path)
    path = tmp_path / IDENTITY_DIR / KEY_FILE
    document = json.loads(path.read_text())
    document["public_key"] = Identity.generate().public_key.hex()
    path.write_text(json.dumps(document))
    with pytest.raises(IdentityFileError, match="do not belong together"):
        load_or_create_identity(tmp_path)


def test_unreadable_key_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / IDENTITY_DIR / KEY_FILE).mkdir(parents=True)  # a folder where the file goes
    with pytest.raises(IdentityFileError, match="cannot read the identity key file"):
        load_or_create_identity(tmp_path)


def test_signatures_and_fingerprints() -> None:
    a, b = Identity.generate(), Identity.generate()
    signature = a.sign(b"settings")
    assert verify_signature(a.public_key, signature, b"settings")
    assert not verify_signature(a.public_key, signature, b"settingz")
    assert not verify_signature(b.public_key, signature, b"settings")
    assert not verify_signature(a.public_key, signature[:-1], b"settings")
    assert not verify_signature(bytes(31), signature, b"settings")
    assert fingerprint(a.public_key) == a.fingerprint != b.fingerprint
    assert fingerprint(bytes(32)) == "w5uy-ohhf-vcin-4sd3"  # stable across releases


def test_pinning_lifecycle_persists(tmp_path: Path) -> None:
    taro, impostor = Identity.generate(), Identity.generate()
    peers = KnownPeers.load(tmp_path)
    assert peers.check("Taro", taro.public_key).status is PinStatus.NEW
    peers.pin("Taro", taro.public_key)

    reloaded = KnownPeers.load(tmp_path)
    assert reloaded.check("taro", taro.public_key).status is PinStatus.KNOWN
    changed = reloaded.check("ＴＡＲＯ", impostor.public_key)  # full-width letters fold too
    assert changed.status is PinStatus.CHANGED
    assert changed.pinned_key == taro.public_key
    with pytest.raises(ValueError, match="accept"):
        reloaded.pin("taro", impostor.public_key)

    reloaded.accept("taro", impostor.public_key)
    assert KnownPeers.load(tmp_path).check("taro", impostor.public_key).status is PinStatus.KNOWN
    reloaded.forget("Taro")
    assert KnownPeers.load(tmp_path).check("taro", taro.public_key).status is PinStatus.NEW


def test_a_known_key_under_a_new_name_is_reported() -> None:
    taro = Identity.generate()
    peers = KnownPeers(None)
    peers.pin("taro", taro.public_key)
    check = peers.check("hanako", taro.public_key)
    assert check.status is PinStatus.NEW
    assert check.known_as == ("taro",)


@posix_only
def test_peers_file_is_private(tmp_path: Path) -> None:
    KnownPeers.load(tmp_path).pin("taro", Identity.generate().public_key)
    assert _mode(tmp_path / IDENTITY_DIR / PEERS_FILE) == 0o600


@pytest.mark.parametrize(
    "content",
    [
        b"{",
        b'{"format": "koikoi-known-peers/1", "peers": []}',
        b'{"format": "koikoi-known-peers/1", "peers": {"taro": {"key": "00"}}}',
        b'{"format": "koikoi-known-peers/1", "peers": {"taro": 5}}',
    ],
)
def test_corrupt_peers_file_is_an_error_and_left_alone(tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / IDENTITY_DIR
    folder.mkdir()
    (folder / PEERS_FILE).write_bytes(content)
    with pytest.raises(IdentityFileError, match="corrupt"):
        KnownPeers.load(tmp_path)
    assert (folder / PEERS_FILE).read_bytes() == content


def test_losing_a_creation_race_reads_the_winners_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    winner: list[Identity] = []
    real_link = os.link

    def link_after_another_process(src: str | Path, dst: str | Path) -> None:
        # Another koikoi on the same home creates the key between our check and our link.
        monkeypatch.setattr(os, "link", real_link)
        winner.append(load_or_create_identity(tmp_path))
        real_link(src, dst)

    monkeypatch.setattr(os, "link", link_after_another_process)
    assert load_or_create_identity(tmp_path).public_key == winner[0].public_key
    assert [p.name for p in (tmp_path / IDENTITY_DIR).iterdir()] == [KEY_FILE]


def test_file_systems_without_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: str | Path, dst: str | Path) -> None:
        raise PermissionError("hard links are not supported here")

    real_link = os.link
    monkeypatch.setattr(os, "link", no_links)
    created = load_or_create_identity(tmp_path)
    monkeypatch.setattr(os, "link", real_link)
    assert load_or_create_identity(tmp_path).public_key == created.public_key
    assert [p.name for p in (tmp_path / IDENTITY_DIR).iterdir()] == [KEY_FILE]


def _pin_many(home: str, prefix: str, count: int, ready: Event) -> None:
    peers = KnownPeers.load(Path(home))  # read once, before the other process writes
    ready.wait()
    for i in range(count):
        peers.pin(f"{prefix}{i}", Identity.generate().public_key)


def test_two_processes_pinning_at_once_keep_every_pin(tmp_path: Path) -> None:
    import multiprocessing

    KnownPeers.load(tmp_path).pin("first", Identity.generate().public_key)
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    workers = [
        ctx.Process(target=_pin_many, args=(str(tmp_path), prefix, 40, ready))
        for prefix in ("a", "b")
    ]
    for worker in workers:
        worker.start()
    ready.set()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    document = json.loads((tmp_path / IDENTITY_DIR / PEERS_FILE).read_text())
    names = set(document["peers"])
    assert names == {"first"} | {f"{p}{i}" for p in "ab" for i in range(40)}
