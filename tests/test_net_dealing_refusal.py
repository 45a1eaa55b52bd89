"""Issue 20, finding 1: no silent downgrade to joint-seed dealing.

From the joint seed either program can compute the other's hand and the stock, so a side that
deals privately only (``--dealing private``, the default) refuses a peer that offers only the
joint seed, before any card is dealt, with one line naming why, on both sides
(docs/protocol.md, "Version 4: the dealing negotiated, the cards before the toss"). The
attackers are peers built on our own modules (a joiner or a room that offers only the seed,
raw hellos on a socket) against the real ``koikoi host`` and ``koikoi join``; a match where
both sides said ``--dealing seed`` still plays from the seed.

Every socket is on loopback.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from pathlib import Path

import pytest

from koikoi.engine.match import Settings
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room
from koikoi.net.wire import encode_message, unpack
from tests.net_support import KoikoiProcess
from tests.test_net_dealing_negotiation import _side
from tests.test_net_handshake import run
from tests.test_net_play import host as spawn_host
from tests.test_net_play import join as spawn_join
from tests.test_net_transport import Bot

SEED_REFUSED = (
    "refused: the peer offers only joint-seed dealing, from which either program can compute "
    "the other's hand; this side deals privately only (--dealing seed allows it)"
)
"""The line of the side that deals privately only (a version-4 peer offered only the seed)."""
SEED_REFUSED_V2 = SEED_REFUSED.replace(
    "joint-seed dealing,", "joint-seed dealing (it speaks koikoi-net/2),"
)
"""The same, the peer's hello of version 2 (a released koikoi, or ``--dealing seed``)."""
ON_THE_PATH = "; if its koikoi is new, something on the path changed the hello"
"""What a joiner adds for a version-2 answer to its version-4 hello: a new host answers so
when something on the path changed the joiner's hello (docs/protocol.md, "Version 4")."""
PRIVATE_REFUSED = (
    "refused: the peer deals privately only and refuses joint-seed dealing, from which either "
    "program can compute the other's hand; this side offers only joint-seed dealing "
    "(--dealing seed): without it both deal privately"
)
"""The line of the side that offered only the seed, refused."""


def _released_hello(version: int = 2, **extra: object) -> bytes:
    """A hello as a released program sends it (version 2: no ``deal``)."""
    return encode_message(
        "hello",
        v=version,
        nick="old",
        settings={"rounds": 6, "doubling": True},
        private=False,
        pake=b"",
        **extra,  # type: ignore[arg-type]
    )


# --- the handshake, sans I/O -------------------------------------------------------------------


@pytest.mark.parametrize("password", ["", "secret"])
@pytest.mark.parametrize(
    ("host", "joiner", "host_line", "joiner_line"),
    [
        (("private",), ("seed",), SEED_REFUSED_V2, PRIVATE_REFUSED),
        (("seed",), ("private",), PRIVATE_REFUSED, SEED_REFUSED),
    ],
    ids=["private host, seed joiner", "seed host, private joiner"],
)
def test_no_common_dealing_is_refused_at_the_hellos_on_both_sides(
    host: tuple[str, ...],
    joiner: tuple[str, ...],
    host_line: str,
    joiner_line: str,
    password: str,
) -> None:
    outcome = run(_side(Role.HOST, host, password), _side(Role.JOINER, joiner, password))
    assert outcome.host_error is not None and outcome.joiner_error is not None
    assert str(outcome.host_error) == host_line
    assert str(outcome.joiner_error) == joiner_line
    host_code = "dealing.private" if host_line == PRIVATE_REFUSED else "dealing.seed"
    assert outcome.host_error.error_code == host_code
    codes = {outcome.host_error.error_code, outcome.joiner_error.error_code}
    assert codes == {"dealing.seed", "dealing.private"}
    # the two hellos and nothing else: no Noise message, no key, no card
    assert [to for to, _ in outcome.frames] == [Role.HOST, Role.JOINER]
    assert outcome.host.result is None and outcome.joiner.result is None


def test_a_version_4_hello_offering_only_the_seed_is_refused_by_a_private_host() -> None:
    """A joiner that speaks version 4 but offers ``deal`` ``["seed"]`` (no released program
    does; a cheat built on our modules would) gets the host's hello as the farewell."""
    host = _side(Role.HOST, ("private",))
    with pytest.raises(Exception) as caught:
        host.receive(_released_hello(4, deal=["seed"]))
    error = caught.value
    assert str(error) == SEED_REFUSED and getattr(error, "error_code", "") == "dealing.seed"
    farewell = unpack(error.farewell)  # type: ignore[attr-defined]
    assert isinstance(farewell, dict) and farewell["v"] == 4 and farewell["deal"] == ["private"]


def test_a_released_version_2_joiner_is_told_to_update_by_a_private_host() -> None:
    """To a released joiner the refusal is the host's version-4 hello: it reads the version
    first and says "the peer's koikoi is newer: update koikoi here" (the right advice: an
    updated koikoi deals privately)."""
    host = _side(Role.HOST, ("private",))
    with pytest.raises(Exception) as caught:
        host.receive(_released_hello())
    assert str(caught.value) == SEED_REFUSED_V2
    farewell = unpack(caught.value.farewell)  # type: ignore[attr-defined]
    assert isinstance(farewell, dict) and farewell["v"] == 4 and "deal" in farewell


def test_a_private_joiner_refuses_a_version_2_answer() -> None:
    """A released version-2 host (or a cheat answering in version 2) is refused as a dealing,
    not joined and not merely called older."""
    joiner = _side(Role.JOINER, ("private",))
    joiner.start()
    with pytest.raises(Exception) as caught:
        joiner.receive(_released_hello())
    assert str(caught.value) == SEED_REFUSED_V2 + ON_THE_PATH


def test_a_joiner_that_allows_both_still_names_an_older_host() -> None:
    """A joiner allowing both dealings (the app with joint-seed dealing allowed) that meets a
    version-2 answer to its version-4 hello: an older host, or a hello changed on the way."""
    joiner = _side(Role.JOINER, ("private", "seed"))
    joiner.start()
    with pytest.raises(Exception, match="its koikoi is older, or something on the path changed"):
        joiner.receive(_released_hello())


@pytest.mark.parametrize(
    ("host", "joiner", "version", "dealing"),
    [
        (("seed",), ("seed",), 2, "seed"),
        (("private", "seed"), ("seed",), 2, "seed"),
        (("private", "seed"), ("private", "seed"), 4, "private"),
        (("private",), ("private",), 4, "private"),
    ],
)
def test_sides_that_allow_a_common_dealing_still_meet(
    host: tuple[str, ...], joiner: tuple[str, ...], version: int, dealing: str
) -> None:
    ends = run(_side(Role.HOST, host), _side(Role.JOINER, joiner)).established()
    assert [(end.version, end.dealing) for end in ends] == [(version, dealing)] * 2


# --- the real koikoi host and join -------------------------------------------------------------


def _options(dealings: tuple[str, ...]) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname="cheat",
        settings=Settings(),
        known_peers=KnownPeers(None),
        silence_timeout=10.0,
        dealings=dealings,
    )


def _refused(proc: KoikoiProcess, line: str) -> dict[str, object]:
    """``proc`` ended as a refused handshake: exit 1, no deal, the line last on stderr."""
    assert proc.wait(60) == 1, proc.stderr
    result = proc.result()
    assert result["finished"] is False and result["ended"] == "refused", result
    assert result["rounds"] == [] and result["dealing"] == "private"
    lines = proc.stderr.splitlines()
    assert lines[-1] == f"koikoi: {line}", proc.stderr
    assert sum(line in text for text in lines) == 1, proc.stderr  # said once
    assert "Traceback" not in proc.stderr
    return result


def test_a_joiner_offering_only_the_seed_is_refused_by_the_real_host(tmp_path: Path) -> None:
    """The cheat of finding 1: a joiner that offers only the joint seed (a version-2 hello)
    to a default ``koikoi host``. Today it got the seed and computed the host's hand."""
    host, port = spawn_host(tmp_path, "--bot", "random")
    try:
        outcome: Outcome = asyncio.run(join("127.0.0.1", port, _options(("seed",)), Bot(1)))
        assert outcome.session is None
        assert outcome.failure == PRIVATE_REFUSED  # the cheat is told why, too
        _refused(host, SEED_REFUSED_V2)
    finally:
        host.kill()


def _frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


def _read_frame(sock: socket.socket) -> bytes:
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            raise AssertionError("the peer closed before a frame")
        head += chunk
    (length,) = struct.unpack(">I", head)
    body = b""
    while len(body) < length:
        chunk = sock.recv(length - len(body))
        if not chunk:
            raise AssertionError("the peer closed mid-frame")
        body += chunk
    return body


def test_a_version_4_hello_offering_only_the_seed_is_refused_by_the_real_host(
    tmp_path: Path,
) -> None:
    """The same cheat speaking version 4 with ``deal`` ``["seed"]``: the host answers with its
    hello (``deal`` ``["private"]``, so the peer can name the refusal) and ends."""
    host, port = spawn_host(tmp_path, "--bot", "random", "--record", str(tmp_path / "h.json"))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            hello = encode_message(
                "hello",
                v=4,
                nick="cheat",
                settings={"rounds": 6, "doubling": True},
                private=False,
                pake=b"",
                deal=["seed"],
            )
            sock.sendall(_frame(hello))
            answer = unpack(_read_frame(sock))
        assert isinstance(answer, dict) and answer["t"] == "hello"
        assert answer["v"] == 4 and answer["deal"] == ["private"]
        _refused(host, SEED_REFUSED)
        assert not (tmp_path / "h.json").exists()  # no session, no record
    finally:
        host.kill()


async def _seed_room(port_box: list[int], refused: list[str]) -> Outcome:
    room = Room(
        _options(("seed",)),
        Bot(0),
        on_refused=lambda address, reason: refused.append(reason),
        end_on_refused_dealing=True,
    )
    _, port = await room.open("127.0.0.1", 0)
    port_box.append(port)
    try:
        return await asyncio.wait_for(room.outcome(), 60)
    finally:
        await room.close()


def test_a_host_offering_only_the_seed_is_refused_by_the_real_join(tmp_path: Path) -> None:
    """A cheating room built on our modules that offers only the joint seed, against a
    default ``koikoi join``: the joiner refuses it at its hello; the room learns why too."""

    async def main() -> tuple[Outcome, KoikoiProcess]:
        port_box: list[int] = []
        refused: list[str] = []
        task = asyncio.ensure_future(_seed_room(port_box, refused))
        while not port_box:
            await asyncio.sleep(0.01)
        joiner = spawn_join(tmp_path, port_box[0], "--bot", "random")
        outcome = await task
        return outcome, joiner

    outcome, joiner = asyncio.run(main())
    try:
        assert outcome.session is None and outcome.failure == PRIVATE_REFUSED
        _refused(joiner, SEED_REFUSED)
    finally:
        joiner.kill()


def test_a_host_answering_in_version_2_is_refused_by_the_real_join(tmp_path: Path) -> None:
    """A host that answers the version-4 hello with a version-2 one (a released host's
    farewell, or a cheat's offer of the seed): refused as a dealing, not dialled on."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(30)
    port = server.getsockname()[1]
    joiner = spawn_join(tmp_path, port, "--bot", "random")
    try:
        conn, _ = server.accept()
        with conn:
            conn.settimeout(20)
            theirs = unpack(_read_frame(conn))
            assert isinstance(theirs, dict) and theirs["v"] == 4 and theirs["deal"] == ["private"]
            conn.sendall(_frame(_released_hello()))
            _refused(joiner, SEED_REFUSED_V2 + ON_THE_PATH)
    finally:
        server.close()
        joiner.kill()


def _both(
    tmp_path: Path, host_args: tuple[str, ...], joiner_args: tuple[str, ...]
) -> tuple[KoikoiProcess, KoikoiProcess]:
    h, port = spawn_host(tmp_path, "--bot", "greedy", *host_args)
    j = spawn_join(tmp_path, port, "--bot", "random", *joiner_args)
    try:
        j.wait(90)
        h.wait(90)
    finally:
        h.kill()
        j.kill()
    return h, j


@pytest.mark.parametrize("seed_side", ["host", "joiner"])
def test_a_seed_side_and_a_private_side_both_refuse(tmp_path: Path, seed_side: str) -> None:
    """Two honest programs, one ``--dealing seed``, the other the default: neither plays,
    both say why (the seed side's line tells it how to deal privately)."""
    seed = ("--dealing", "seed")
    h, j = _both(
        tmp_path, seed if seed_side == "host" else (), seed if seed_side == "joiner" else ()
    )
    seed_proc, private_proc = (h, j) if seed_side == "host" else (j, h)
    for proc in (h, j):
        assert proc.proc.returncode == 1, proc.stderr
        result = proc.result()
        assert result["ended"] == "refused" and result["rounds"] == []
    assert seed_proc.result()["dealing"] == "seed"
    assert seed_proc.stderr.splitlines()[-1] == f"koikoi: {PRIVATE_REFUSED}"
    line = SEED_REFUSED_V2 if seed_side == "joiner" else SEED_REFUSED
    assert private_proc.stderr.splitlines()[-1] == f"koikoi: {line}"


def test_dealing_is_in_the_help(tmp_path: Path) -> None:
    from tests.conftest import run_koikoi

    for command in ("host", "join"):
        text = run_koikoi(command, "--help").stdout
        assert "--dealing private|seed" in text and "joint-seed" in text


# --- what the room announces -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "dealing"),
    [
        ({"v": "4", "dealing": "private"}, "private"),
        ({"v": "4", "dealing": "seed"}, "seed"),
        ({"v": "4"}, "seed"),  # no key: taken as the older hosts' offer of the seed too
        ({"v": "3", "dealing": "private"}, "seed"),  # with this koikoi a version-3 host
        ({"v": "3"}, "seed"),  # deals only from the joint seed (it answers a version-2 hello)
        ({"v": "2"}, "seed"),  # a released koikoi-net/2 host deals only so
        ({"v": "2", "dealing": "private"}, "seed"),  # a version-2 host cannot deal privately
        ({"v": "4", "dealing": "cards"}, "seed"),  # an unknown value is taken as absent
    ],
)
def test_the_txt_dealing_is_read_and_rooms_without_it_are_kept(
    fields: dict[str, str], dealing: str
) -> None:
    from koikoi.net.discovery.txt import parse_room
    from tests.test_net_discovery import SANE, _txt

    room = parse_room("x._koikoi._tcp.local.", _txt(**{**SANE, **fields}), ["10.0.0.1"], 4000)
    assert room.dealing == dealing and room.to_json()["dealing"] == dealing


@pytest.mark.parametrize(
    ("dealings", "version", "dealing"),
    [(("private",), 4, "private"), (("private", "seed"), 4, "seed"), (("seed",), 2, "seed")],
)
def test_a_room_announces_what_it_allows_and_a_browser_hears_it(
    dealings: tuple[str, ...], version: int, dealing: str
) -> None:
    """TXT ``v`` and ``dealing`` from the offer, through a real advertiser and browser."""
    import secrets

    from koikoi.net.discovery.advertiser import RoomAdvertiser
    from koikoi.net.discovery.browser import RoomAdded, RoomBrowser
    from koikoi.net.discovery.txt import (
        Advertisement,
        announced_dealing,
        announced_version,
        room_txt,
    )
    from tests.test_net_discovery import LOOPBACK, Seen

    title = f"Momiji {secrets.token_hex(3)}"
    ad = Advertisement(
        title,
        "hana",
        4000,
        version=announced_version(dealings),
        dealing=announced_dealing(dealings),
    )
    assert room_txt(ad)["dealing"] == dealing and room_txt(ad)["v"] == str(version)
    seen = Seen()
    browser = RoomBrowser(seen, bind=LOOPBACK)
    browser.start()
    advertiser = RoomAdvertiser(ad, bind=LOOPBACK)
    try:
        advertiser.publish()
        _, added = seen.wait(lambda e: isinstance(e, RoomAdded) and e.room.title == title, 5)
    finally:
        advertiser.withdraw()
        browser.stop()
    assert isinstance(added, RoomAdded)
    assert (added.room.version, added.room.dealing) == (version, dealing)


def test_a_password_room_turns_a_seed_only_joiner_away_and_waits(tmp_path: Path) -> None:
    """The hello that offers only the seed comes before the password: a password room does
    not end on it (anyone could end it so), it says why and waits for its player."""
    secret = tmp_path / "password.txt"
    secret.write_text("matsu ni tsuru\n", encoding="utf-8")
    host, port = spawn_host(tmp_path, "--bot", "random", "--password-file", str(secret))
    try:
        options = _options(("seed",))
        options.password = "a guess"
        outcome: Outcome = asyncio.run(join("127.0.0.1", port, options, Bot(1)))
        assert outcome.session is None and outcome.failure == PRIVATE_REFUSED
        line = host.wait_for("turned away")
        assert line.endswith(f": {SEED_REFUSED_V2}"), line
        assert host.proc.poll() is None  # still listening
    finally:
        host.kill()
