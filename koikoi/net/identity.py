"""This installation's identity key and the peers it has met (trust on first use).

Each installation has one Ed25519 key, created on first use under ``<home>/identity/``
(``home`` is :func:`koikoi.paths.koikoi_home`). The key file is owner-only (0600 in a 0700
folder), written atomically, and never replaced: a file that does not read back as a key
is an :class:`~koikoi.net.errors.IdentityFileError` telling the user to move it aside.

Peers are pinned by name the first time we play them, as SSH pins host keys: a later
handshake from the same name with another key is refused (:class:`PinStatus.CHANGED`) until
the user explicitly accepts the new key.

>>> me = Identity.generate()
>>> verify_signature(me.public_key, me.sign(b"koi"), b"koi")
True
>>> len(me.fingerprint), me.fingerprint.count("-")
(19, 3)
>>> peers = KnownPeers(None)  # in memory
>>> peers.check("Taro", me.public_key).status
<PinStatus.NEW: 'new'>
>>> peers.pin("Taro", me.public_key)
>>> peers.check("taro", me.public_key).status  # names compare case-insensitively
<PinStatus.KNOWN: 'known'>
>>> peers.check("TARO", Identity.generate().public_key).status
<PinStatus.CHANGED: 'changed'>
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import logging
import os
import sys
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any, Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from koikoi.net.errors import IdentityFileError
from koikoi.paths import atomic_write, koikoi_home

logger = logging.getLogger(__name__)

IDENTITY_DIR: Final = "identity"
KEY_FILE: Final = "key.json"
PEERS_FILE: Final = "known_peers.json"
KEY_FORMAT: Final = "koikoi-identity/1"
PEERS_FORMAT: Final = "koikoi-known-peers/1"
PUBLIC_KEY_LEN: Final = 32
SIGNATURE_LEN: Final = 64
_FINGERPRINT_DOMAIN: Final = b"koikoi-net/1 fingerprint\0"
_POSIX: Final = os.name == "posix"

if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold the lock file ``path`` (created owner-only) for a read-change-write."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _lock(fd)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def identity_dir(home: Path | None = None) -> Path:
    """``<home>/identity``, created owner-only; a looser mode is tightened (it is ours)."""
    folder = (home if home is not None else koikoi_home()) / IDENTITY_DIR
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if _POSIX and folder.stat().st_mode & 0o077:
        logger.warning("tightening permissions of %s to 0700", folder)
        folder.chmod(0o700)
    return folder


def fingerprint(public_key: bytes) -> str:
    """A short, readable name for an identity key: 16 base32 letters in groups of four.

    80 bits of SHA-256 over a domain label and the key. The first group is the short form
    shown in room lists (mDNS TXT); compare the whole string to be sure.
    """
    digest = hashlib.sha256(_FINGERPRINT_DOMAIN + public_key).digest()[:10]
    text = base64.b32encode(digest).decode("ascii").lower()
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is the Ed25519 signature of ``data`` by ``public_key``."""
    if len(public_key) != PUBLIC_KEY_LEN or len(signature) != SIGNATURE_LEN:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True, eq=False)
class Identity:
    """An Ed25519 signing key: who this installation is to its peers."""

    private_key: Ed25519PrivateKey

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @property
    def public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes_raw()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        return self.private_key.sign(data)


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise IdentityFileError(f"cannot read the {what} {path}: {error.strerror}") from None


def _read_key_file(path: Path) -> Identity:
    if _POSIX and path.stat().st_mode & 0o077:
        logger.warning("tightening permissions of %s to 0600", path)
        path.chmod(0o600)
    raw = _read_bytes(path, "identity key file")
    try:
        document = json.loads(raw)
        if not isinstance(document, dict) or document.get("format") != KEY_FORMAT:
            raise ValueError(f"not a {KEY_FORMAT} file")
        identity = Identity.from_private_bytes(bytes.fromhex(document["private_key"]))
        if identity.public_key != bytes.fromhex(document["public_key"]):
            raise ValueError("the private and public keys do not belong together")
    except (ValueError, KeyError, TypeError) as error:  # JSONDecodeError is a ValueError
        raise IdentityFileError(
            f"the identity key file {path} is corrupt ({error}); it was left untouched: "
            "move it aside to create a new identity (peers will see a changed key)"
        ) from None
    return identity


def load_or_create_identity(home: Path | None = None) -> Identity:
    """This installation's identity, created on first use.

    Creation is atomic and never replaces an existing file, even when two processes start
    at once on one home folder: the loser of the race reads the winner's key.
    """
    folder = identity_dir(home)
    path = folder / KEY_FILE
    if path.exists():
        return _read_key_file(path)
    identity = Identity.generate()
    document = {
        "format": KEY_FORMAT,
        "private_key": identity.private_key.private_bytes_raw().hex(),
        "public_key": identity.public_key.hex(),
    }
    content = json.dumps(document, indent=1).encode() + b"\n"
    try:
        atomic_write(path, content, mode=0o600, replace=False)
    except FileExistsError:  # another process created it meanwhile: keep that one
        return _read_key_file(path)
    logger.info("created identity %s in %s", identity.fingerprint, path)
    return identity


class PinStatus(Enum):
    NEW = "new"
    """Never seen this name: pin the key after a successful handshake."""
    KNOWN = "known"
    """The key pinned for this name."""
    CHANGED = "changed"
    """Another key is pinned for this name: refuse unless the user accepts the new key."""


@dataclass(frozen=True)
class PinCheck:
    status: PinStatus
    name: str
    pinned_key: bytes | None
    """The key pinned for the name, if any (differs from the presented key when CHANGED)."""
    known_as: tuple[str, ...]
    """Other names this key is already pinned under (a known player with a new name)."""
    resembles: tuple[str, ...] = ()
    """Pinned names that look the same but are not (``hаna`` with a Cyrillic ``а`` and
    ``hana``): for a NEW peer, a likely impostor."""
    toss_aborts: int = 0
    """Coin tosses this pinned peer abandoned after seeing the result (its key's count)."""


# Letters of other scripts drawn like Latin ones (Unicode's confusables, the common part).
_LOOKALIKES: Final = str.maketrans(
    "аеорсухіјѕԁһӏԛԝвнкмтАВЕКМНОРСТХУІЈЅαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlqwbhkmtABEKMHOPCTXYIJSabeiknoptuxABEZHIKMNOPTYX",
)
_SCRIPT_GROUPS: Final = {"HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE", "CJK": "JAPANESE"}


def nickname_scripts(nickname: str) -> tuple[str, ...]:
    """The scripts of a nickname's letters, in order of appearance (Japanese kana and kanji
    count as one script; digits, spaces, marks and symbols as none).

    >>> nickname_scripts("hana"), nickname_scripts("h\u0430na"), nickname_scripts("花子さん")
    (('LATIN',), ('LATIN', 'CYRILLIC'), ('JAPANESE',))
    """
    scripts: list[str] = []
    for char in unicodedata.normalize("NFKC", nickname):
        if not char.isalpha():
            continue
        word = unicodedata.name(char, "UNKNOWN").split(" ")[0]
        script = _SCRIPT_GROUPS.get(word, word)
        if script not in scripts:
            scripts.append(script)
    return tuple(scripts)


def mixed_scripts(nickname: str) -> bool:
    """Letters from more than one script: how look-alike names are made (``h\u0430na``)."""
    return len(nickname_scripts(nickname)) > 1


def skeleton(nickname: str) -> str:
    """The pinned form with look-alike letters folded to Latin: equal skeletons look alike."""
    return pin_name(pin_name(nickname).translate(_LOOKALIKES))


def pin_name(nickname: str) -> str:
    """The form names are pinned under: NFKC, case-folded, so "Taro" cannot pose as "taro"."""
    return unicodedata.normalize("NFKC", nickname).casefold()


def toss_aborts(entry: dict[str, Any]) -> int:
    """An entry's count of abandoned tosses: 0 when absent (files written before it was
    counted) or not a count."""
    count = entry.get("toss_aborts", 0)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


class KnownPeers:
    """Pinned peer keys, in a JSON file (``path``) or only in memory (``path=None``).

    Each name's entry holds its ``key`` (hex), when it was ``pinned`` and, once counted,
    ``toss_aborts``: how many coin tosses the peer abandoned after seeing the result.

    A change (a pin, a count, a name forgotten) is made in memory at once and saved to the
    file under an exclusive lock (``flock``), which may wait for another koikoi. ``defer``
    runs that save elsewhere: it is handed a job to run later, in order (the app's worker
    thread, :mod:`koikoi.ui.net.pins`, so its UI thread never waits on the lock); without it the
    caller saves before the change returns (the CLI).
    """

    def __init__(
        self, path: Path | None, defer: Callable[[Callable[[], None]], None] | None = None
    ) -> None:
        self.path = path
        self.defer = defer
        self._peers: dict[str, dict[str, Any]] = {}
        if path is not None and path.exists():
            self._peers = self._read(path)

    @classmethod
    def load(
        cls, home: Path | None = None, defer: Callable[[Callable[[], None]], None] | None = None
    ) -> KnownPeers:
        return cls(identity_dir(home) / PEERS_FILE, defer)

    @staticmethod
    def _read(path: Path) -> dict[str, dict[str, Any]]:
        raw = _read_bytes(path, "pinned peers file")
        try:
            document = json.loads(raw)
            if not isinstance(document, dict) or document.get("format") != PEERS_FORMAT:
                raise ValueError(f"not a {PEERS_FORMAT} file")
            peers = document["peers"]
            if not isinstance(peers, dict):
                raise ValueError("'peers' is not a map")
            for name, entry in peers.items():
                if not isinstance(entry, dict) or len(bytes.fromhex(entry["key"])) != 32:
                    raise ValueError(f"bad entry for {name!r}")
        except (ValueError, KeyError, TypeError) as error:
            raise IdentityFileError(
                f"the pinned peers file {path} is corrupt ({error}); it was left untouched: "
                "fix it or move it aside (every peer will then be new again)"
            ) from None
        return peers

    @staticmethod
    def _save(path: Path, peers: dict[str, dict[str, Any]]) -> None:
        document = {"format": PEERS_FORMAT, "peers": peers}
        atomic_write(path, json.dumps(document, indent=1).encode() + b"\n", mode=0o600)

    def check(self, nickname: str, public_key: bytes) -> PinCheck:
        name = pin_name(nickname)
        entry = self._peers.get(name)
        pinned = None if entry is None else bytes.fromhex(entry["key"])
        aborts = 0
        if pinned is None:
            status = PinStatus.NEW
        elif pinned == public_key:
            status = PinStatus.KNOWN
            assert entry is not None
            aborts = toss_aborts(entry)
        else:
            status = PinStatus.CHANGED
        known_as = tuple(
            other
            for other, e in self._peers.items()
            if other != name and e["key"] == public_key.hex()
        )
        shape = skeleton(nickname)
        resembles = tuple(
            other
            for other, e in self._peers.items()
            if other != name and e["key"] != public_key.hex() and skeleton(other) == shape
        )
        return PinCheck(status, name, pinned, known_as, resembles, aborts)

    def fingerprints(self) -> frozenset[str]:
        """The fingerprints of every pinned key (a room list looks up their rooms first)."""
        return frozenset(fingerprint(bytes.fromhex(entry["key"])) for entry in self._peers.values())

    def pin(self, nickname: str, public_key: bytes) -> None:
        """Pin a new name (a no-op when already pinned to this key).

        Raises :class:`ValueError` when another key is pinned: that takes :meth:`accept`.
        """
        check = self.check(nickname, public_key)
        if check.status is PinStatus.CHANGED:
            raise ValueError(f"{nickname!r} is pinned to another key; accept() it explicitly")
        if check.status is PinStatus.NEW:
            self._store(check.name, public_key)

    def accept(self, nickname: str, public_key: bytes) -> None:
        """Re-pin a name to a new key: only after the user saw the warning and agreed."""
        logger.warning("re-pinning %r to the key %s", nickname, fingerprint(public_key))
        self._store(pin_name(nickname), public_key)

    def forget(self, nickname: str) -> None:
        self._change(pin_name(nickname), None)

    def toss_aborts(self, nickname: str, public_key: bytes) -> int:
        """How many tosses the peer pinned as ``nickname`` with ``public_key`` abandoned after
        seeing the result (0 for a name not pinned to that key)."""
        entry = self._peers.get(pin_name(nickname))
        if entry is None or entry["key"] != public_key.hex():
            return 0
        return toss_aborts(entry)

    def count_toss_abort(self, nickname: str, public_key: bytes) -> int:
        """One more toss abandoned after seeing the result by the peer pinned as
        ``nickname`` with ``public_key``: saved at once, so the count survives restarts.

        Returns the new count; 0 (nothing counted) when the name is not pinned to that key.
        """
        name = pin_name(nickname)

        def bump(peers: dict[str, dict[str, Any]]) -> bool:
            entry = peers.get(name)
            if entry is None or entry["key"] != public_key.hex():
                return False
            entry["toss_aborts"] = toss_aborts(entry) + 1
            return True

        self._update(bump)
        return self.toss_aborts(nickname, public_key)

    def _store(self, name: str, public_key: bytes) -> None:
        entry = {"key": public_key.hex(), "pinned": datetime.now(UTC).isoformat(timespec="seconds")}
        self._change(name, entry)

    def _change(self, name: str, entry: dict[str, Any] | None) -> None:
        """Set (or with ``None`` remove) one name's entry and save the file.

        Another process may have pinned a peer since this one read the file (two games at
        once), so the change is made to the file as it is now, under a lock, and the file is
        replaced atomically: neither writer loses the other's pins.
        """
        self._update(lambda peers: self._apply(peers, name, entry))

    def _update(self, change: Callable[[dict[str, dict[str, Any]]], bool]) -> None:
        """Apply ``change`` (which says whether it changed anything) to the pins as they are
        in the file now, under the lock, and save."""
        path = self.path
        if path is None:
            change(self._peers)
            return
        if self.defer is not None:
            # in memory now (this side's next check sees it), in the file later: the job
            # reads the file as it is then and changes only that copy
            change(self._peers)

            def save() -> None:
                self._save_change(path, change)

            self.defer(save)
            return
        self._peers = self._save_change(path, change)

    @classmethod
    def _save_change(
        cls, path: Path, change: Callable[[dict[str, dict[str, Any]]], bool]
    ) -> dict[str, dict[str, Any]]:
        """Apply ``change`` to the file as it is now, under its lock; the pins it holds."""
        with _exclusive(path.with_name(path.name + ".lock")):
            peers = cls._read(path) if path.exists() else {}
            if change(peers):
                cls._save(path, peers)
            return peers

    @staticmethod
    def _apply(peers: dict[str, dict[str, Any]], name: str, entry: dict[str, Any] | None) -> bool:
        """Change ``peers``; whether anything changed."""
        if entry is None:
            return peers.pop(name, None) is not None
        peers[name] = dict(entry)  # its own copy: memory and file are changed apart
        return True
