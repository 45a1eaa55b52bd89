"""Finding 6: a private room shows nothing identifying its host (nickname, identity key,
fingerprint) to a prober that does not know the password. The prober is a joiner built on
the project's modules, dialling a real ``koikoi host`` and keeping every byte it receives and
every handshake payload it manages to decrypt."""

from __future__ import annotations

import base64
import socket
from pathlib import Path

from koikoi.engine.match import Settings
from koikoi.net.errors import HandshakeError
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers, load_or_create_identity
from koikoi.net.roles import Role
from koikoi.net.wire import FrameDecoder, encode_frame
from tests.net_support import spawn

NICK = "hanafuda-host"


class Prober(Handshake):
    """A joiner that keeps every payload its Noise state could decrypt."""

    seen: list[bytes]

    def _read_noise(self, message: bytes, psk_mixed: bool) -> bytes:
        payload = super()._read_noise(message, psk_mixed)
        self.seen.append(payload)
        return payload


def probe(port: int, password: str) -> tuple[bytes, str]:
    """Everything a prober learns: the raw bytes and decrypted payloads, and how it ended."""
    prober = Prober(
        Role.JOINER,
        identity=Identity.generate(),
        nickname="prober",
        settings=Settings(),
        password=password,
        known_peers=KnownPeers(None),
        dealings=("private",),  # what a koikoi host deals by default (a seed-only hello is
    )  # refused before the password: tests/test_net_dealing_refusal.py)
    prober.seen = []
    learned = bytearray()
    decoder = FrameDecoder()
    ending = "the host closed"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for payload in prober.start():
            sock.sendall(encode_frame(payload))
        while True:
            data = sock.recv(65536)
            if not data:
                break
            learned += data
            try:
                for frame in decoder.feed(data):
                    if prober.result is not None:  # the session's messages: not for us
                        break
                    for reply in prober.receive(frame):
                        sock.sendall(encode_frame(reply))
            except HandshakeError as error:
                ending = str(error)
                if error.farewell:
                    sock.sendall(encode_frame(error.farewell))
                break
            if prober.result is not None:
                ending = "established"
                break
    return bytes(learned) + b"".join(prober.seen), ending


def _identifying(identity: Identity) -> list[bytes]:
    key = identity.public_key
    return [
        NICK.encode(),
        key,
        base64.b64encode(key),
        key.hex().encode(),
        identity.fingerprint.encode(),
        identity.fingerprint.split("-")[0].encode(),
    ]


def _host(tmp_path: Path, *args: str) -> tuple[object, int, Identity]:
    home = tmp_path / "host"
    identity = load_or_create_identity(home)
    proc = spawn(
        home, "host", "--port", "0", "--bind", "127.0.0.1", "--name", NICK, "--bot", "random", *args
    )
    return proc, proc.port(), identity


def test_a_prober_without_the_password_learns_nothing_identifying(tmp_path: Path) -> None:
    secret = tmp_path / "password.txt"
    secret.write_text("matsu ni tsuru\n", encoding="utf-8")
    proc, port, identity = _host(tmp_path, "--password-file", str(secret))
    try:
        learned, ending = probe(port, "sakura ni maku")
        assert "wrong password" in ending, ending
        assert len(learned) > 100  # it did get the hello and noise2
        for secret_bytes in _identifying(identity):
            assert secret_bytes not in learned, secret_bytes
    finally:
        proc.kill()  # type: ignore[attr-defined]


def test_the_same_prober_does_learn_the_host_of_an_open_room(tmp_path: Path) -> None:
    # What the probe looks for is there when nothing hides it (an open room shows its host).
    proc, port, identity = _host(tmp_path)
    try:
        learned, ending = probe(port, "")
        assert ending == "established"
        assert NICK.encode() in learned and identity.public_key in learned
    finally:
        proc.kill()  # type: ignore[attr-defined]
