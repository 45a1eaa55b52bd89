"""Finding 11: a look-alike nickname ("h\u0430na", a Cyrillic "а") is flagged, never passed
off as an ordinary new peer; nicknames are NFKC-normalised; the fingerprint goes with it."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from koikoi.engine.match import Settings
from koikoi.net.errors import IdentityChanged
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers, PinStatus, fingerprint, mixed_scripts
from koikoi.net.roles import Role
from tests.net_support import spawn

LOOKALIKE = "h\u0430na"  # Latin h, Cyrillic а, Latin n, Latin a


def fingerprint_of(key_hex: str) -> str:
    return fingerprint(bytes.fromhex(key_hex))


def _handshake(host_peers: KnownPeers, joiner_name: str, joiner: Identity) -> Handshake:
    host = Handshake(
        Role.HOST,
        identity=Identity.generate(),
        nickname="taro",
        settings=Settings(),
        password="",
        known_peers=host_peers,
    )
    join = Handshake(
        Role.JOINER,
        identity=joiner,
        nickname=joiner_name,
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
    )
    to_host = join.start()
    while to_host:
        to_joiner = [out for m in to_host for out in host.receive(m)]
        to_host = [out for m in to_joiner for out in join.receive(m)]
    return host


def test_a_lookalike_of_a_pinned_name_is_flagged_with_its_fingerprint() -> None:
    peers = KnownPeers(None)
    real = Identity.generate()
    peers.pin("hana", real.public_key)
    impostor = Identity.generate()
    host = _handshake(peers, LOOKALIKE, impostor)
    assert host.result is not None
    peer, pin = host.result.peer, host.result.pin
    assert pin.status is PinStatus.NEW  # another name: it is new ...
    assert pin.resembles == ("hana",)  # ... and it looks like one already pinned
    assert peer.mixed_scripts and mixed_scripts(LOOKALIKE) and not mixed_scripts("hana")
    assert peer.fingerprint == impostor.fingerprint


def test_full_width_letters_are_the_same_name_so_an_impostor_is_caught() -> None:
    peers = KnownPeers(None)
    peers.pin("hana", Identity.generate().public_key)
    host = Handshake(
        Role.HOST,
        identity=Identity.generate(),
        nickname="taro",
        settings=Settings(),
        password="",
        known_peers=peers,
    )
    join = Handshake(
        Role.JOINER,
        identity=Identity.generate(),
        nickname="\uff48\uff41\uff4e\uff41",  # "ｈａｎａ"
        settings=Settings(),
        password="",
        known_peers=KnownPeers(None),
    )
    assert join.nickname == "hana"  # NFKC: what is sent is the normal form
    failure = None
    to_host = join.start()
    try:
        while to_host:
            to_joiner = [out for m in to_host for out in host.receive(m)]
            to_host = [out for m in to_joiner for out in join.receive(m)]
    except IdentityChanged as error:
        failure = error
    assert failure is not None and "may be an impostor" in str(failure)


def test_koikoi_host_warns_of_a_lookalike_joiner(tmp_path: Path) -> None:
    # The host has played "hana" before: her key is pinned in its home.
    home = tmp_path / "host"
    KnownPeers.load(home).pin("hana", Identity.generate().public_key)
    host = spawn(home, "host", "--port", "0", "--bind", "127.0.0.1", "--name", "taro")
    joiner = None
    try:
        port = host.port()
        joiner = spawn(tmp_path / "joiner", "join", f"127.0.0.1:{port}", "--name", LOOKALIKE)
        line = host.wait_for("WARNING:")
        assert line.endswith(
            "WARNING: 'h\\u0430na' mixes scripts (LATIN, CYRILLIC); "
            "it looks like 'hana' but is not that player"
        )
        playing = host.wait_for("playing ")
        # The nickname goes with the joiner's fingerprint, and it is a new peer.
        pinned = json.loads((home / "identity" / "known_peers.json").read_text())["peers"]
        assert f"({fingerprint_of(pinned[LOOKALIKE]['key'])}, new peer)" in playing
    finally:
        host.kill()
        if joiner is not None:
            joiner.kill()


def test_the_window_gets_the_flags_with_the_fingerprint(qtbot: QtBot) -> None:
    from tests.test_ui_netlink import Seat, close_room, open_room
    from tests.test_ui_netlink import options as qt_options

    host_options = qt_options("taro")
    host_options.known_peers.pin("hana", Identity.generate().public_key)
    room = open_room(qtbot, host_options)
    host = Seat(room, hold=True)
    from koikoi.ui.net.netlink.join import QtJoin

    join = QtJoin(qt_options(LOOKALIKE))
    joiner = Seat(join, hold=True)
    join.connect_to("127.0.0.1", room.port)
    qtbot.waitUntil(lambda: host.peer is not None and joiner.peer is not None, timeout=20_000)
    assert host.peer is not None
    assert host.peer.nickname == LOOKALIKE and host.peer.pin is PinStatus.NEW
    assert host.peer.mixed_scripts and host.peer.resembles == ("hana",)
    assert host.peer.fingerprint == join.options.identity.fingerprint
    assert joiner.peer is not None and not joiner.peer.mixed_scripts
    close_room(qtbot, room)
