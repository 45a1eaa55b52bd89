"""The dealing is negotiated in the hello (docs/protocol.md, "Version 4: the dealing
negotiated, the cards before the toss"): private when both sides offer it, else the joint
seed when both allow it; a version-2 peer still plays (joint seed) with a host that allows
the seed, a version-4 joiner answered in version 2 gets a line that blames neither an older
host nor the path outright, and a peer of the retired version 3 is told to update koikoi.
Refusals of a dealing: tests/test_net_dealing_refusal.py."""

from __future__ import annotations

import json
from enum import StrEnum

import msgpack  # type: ignore[import-untyped]
import pytest

from koikoi.engine.match import Settings
from koikoi.net.errors import DealingRefused, UnexpectedMessage, VersionMismatch
from koikoi.net.handshake import Handshake
from koikoi.net.hello import DEALINGS, PRIVATE_ONLY, PRIVATE_VERSION, SEED_ONLY, WITH_SEED, Dealing
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.verify import VerificationFailed, verify_record
from koikoi.net.wire import encode_message, pack, unpack
from tests.net_support import Table
from tests.test_net_handshake import run

BOTH = ("private", "seed")


def _side(role: Role, dealings: tuple[str, ...], password: str = "") -> Handshake:
    return Handshake(
        role,
        identity=Identity.generate(),
        nickname=role.value,
        settings=Settings(),
        password=password,
        known_peers=KnownPeers(None),
        dealings=dealings,
    )


@pytest.mark.parametrize(
    ("host", "joiner", "version", "dealing"),
    [
        (BOTH, BOTH, PRIVATE_VERSION, "private"),
        (("private",), BOTH, PRIVATE_VERSION, "private"),
        (("seed",), BOTH, PRIVATE_VERSION, "seed"),  # a seed-only host answers in 4
        (BOTH, ("seed",), 2, "seed"),  # a joiner without private dealing speaks 2
        (("seed",), ("seed",), 2, "seed"),
    ],
)
@pytest.mark.parametrize("password", ["", "secret"])
def test_the_dealing_both_offer_is_the_one_agreed(
    host: tuple[str, ...], joiner: tuple[str, ...], version: int, dealing: str, password: str
) -> None:
    outcome = run(_side(Role.HOST, host, password), _side(Role.JOINER, joiner, password))
    ends = outcome.established()
    assert [(end.version, end.dealing) for end in ends] == [(version, dealing)] * 2
    joiner_hello = unpack(outcome.frames[0][1])
    assert isinstance(joiner_hello, dict) and joiner_hello["v"] == version
    assert ("deal" in joiner_hello) == (version == PRIVATE_VERSION == 4)


@pytest.mark.parametrize(("host", "joiner"), [(BOTH, BOTH), (SEED_ONLY, BOTH)])
def test_the_dealing_agreed_is_an_enum_that_is_its_string_on_every_wire(
    host: tuple[str, ...], joiner: tuple[str, ...]
) -> None:
    outcome = run(_side(Role.HOST, host), _side(Role.JOINER, joiner))
    for end in outcome.established():
        assert type(end.dealing) is Dealing and issubclass(Dealing, StrEnum)
        word = "private" if host == BOTH else "seed"
        assert end.dealing == word and str(end.dealing) == word and f"{end.dealing}" == word
        assert json.dumps({"dealing": end.dealing}) == json.dumps({"dealing": word})
        assert pack({"dealing": end.dealing}) == pack({"dealing": word})
    assert [list(map(str, offer)) for offer in (PRIVATE_ONLY, WITH_SEED, SEED_ONLY)] == [
        ["private"],
        ["private", "seed"],
        ["seed"],
    ]
    assert DEALINGS == tuple(Dealing) == (Dealing.PRIVATE, Dealing.SEED)
    hello = unpack(outcome.frames[0][1])  # the joiner's offer goes out as the same strings
    assert isinstance(hello, dict) and hello["deal"] == ["private", "seed"]


def test_a_released_version_2_joiner_plays_with_a_host_that_offers_private_dealing() -> None:
    """The hello of version 2 exactly as it was released (no ``deal`` key) meets a version-2
    answer; the host's first hello would have been version 4."""
    host = _side(Role.HOST, BOTH)
    joiner = _side(Role.JOINER, ("seed",))
    outcome = run(host, joiner)
    host_end, joiner_end = outcome.established()
    assert host_end.dealing == joiner_end.dealing == "seed"
    host_hello = unpack(outcome.frames[1][1])
    assert isinstance(host_hello, dict) and host_hello["v"] == 2 and "deal" not in host_hello


def test_a_version_4_joiner_answered_in_version_2_blames_neither_side_outright() -> None:
    """A released host refuses the version-4 hello and answers with its version-2 hello; but
    a new host answers in version 2 too when something on the path turned the joiner's hello
    into a version-2 one: the joiner's line says both (issue 20, item 7)."""
    joiner = _side(Role.JOINER, BOTH)
    joiner.start()
    released_host_hello = msgpack.packb(
        {
            "t": "hello",
            "v": 2,
            "nick": "old",
            "settings": {"rounds": 6, "doubling": True},
            "private": False,
            "pake": b"",
        },
        use_bin_type=True,
    )
    with pytest.raises(VersionMismatch) as caught:
        joiner.receive(released_host_hello)
    assert str(caught.value) == (
        "the host answered in koikoi-net/2, this koikoi speaks koikoi-net/4: "
        "its koikoi is older, or something on the path changed the hello"
    )


@pytest.mark.parametrize("role", [Role.HOST, Role.JOINER])
@pytest.mark.parametrize("mine", [BOTH, ("seed",)])
def test_a_peer_of_the_retired_version_3_is_told_to_update(
    role: Role, mine: tuple[str, ...]
) -> None:
    """Version 3 is no longer spoken (the toss came before the four cards): a side meeting
    its hello ends with the clear line, whatever it offers; a host answers with its hello."""
    released = msgpack.packb(
        {
            "t": "hello",
            "v": 3,
            "nick": "old",
            "settings": {"rounds": 6, "doubling": True},
            "private": False,
            "pake": b"",
            "deal": ["private", "seed"],
        },
        use_bin_type=True,
    )
    side = _side(role, mine)
    side.start()
    with pytest.raises(VersionMismatch) as caught:
        side.receive(released)
    assert str(caught.value) == (
        "the peer speaks koikoi-net/3, this koikoi speaks koikoi-net/4: "
        "the peer's koikoi is older, it needs to update koikoi"
    )
    assert (caught.value.farewell is not None) == (role is Role.HOST)


def test_a_version_4_answer_to_a_version_2_hello_is_refused() -> None:
    """A host answers in the joiner's version; anything else is a mismatch, named."""
    joiner = _side(Role.JOINER, ("seed",))
    other = _side(Role.HOST, BOTH)
    joiner.start()
    with pytest.raises(VersionMismatch, match="koikoi-net/4, this koikoi speaks koikoi-net/2"):
        joiner.receive(other._hello)


@pytest.mark.parametrize(
    "deal",
    [[], ["private", "private"], ["cards"], "private", None],
)
def test_a_bad_deal_list_ends_the_handshake_with_one_line(deal: object) -> None:
    host = _side(Role.HOST, BOTH)
    hello = encode_message(
        "hello",
        v=PRIVATE_VERSION,
        nick="odd",
        settings={"rounds": 6, "doubling": True},
        private=False,
        pake=b"",
        deal=deal,  # type: ignore[arg-type]
    )
    with pytest.raises(UnexpectedMessage, match=r"^handshake failed: hello\.deal"):
        host.receive(hello)


def test_a_version_4_hello_without_a_common_dealing_is_refused() -> None:
    """Only private offered on one side and only the seed on the other: no session, each
    side names the refusal (tests/test_net_dealing_refusal.py has the lines)."""
    outcome = run(_side(Role.HOST, ("seed",)), _side(Role.JOINER, ("private",)))
    assert isinstance(outcome.host_error, DealingRefused)
    assert isinstance(outcome.joiner_error, DealingRefused)
    assert (outcome.host_error.why, outcome.joiner_error.why) == ("private", "seed")


@pytest.mark.parametrize("dealings", [(), ("cards",), ("seed", "seed")])
def test_a_bad_local_offer_is_a_value_error(dealings: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="dealings must"):
        _side(Role.HOST, dealings)


def test_a_version_4_session_dealt_from_the_seed_plays_and_its_records_verify() -> None:
    """A host that deals only by the seed and a joiner that offers private dealing meet in
    version 4 with the joint seed: the records say so and verify."""
    table = Table(seed=2, dealings={Role.HOST: ("seed",), Role.JOINER: BOTH})
    table.run()
    assert table.host.dealing == table.joiner.dealing == "seed"
    assert table.host.ending is not None and table.host.ending.finished
    for session in (table.host, table.joiner):
        record = session.record().to_json()
        assert record["net"]["protocol"] == "koikoi-net/4"
        assert record["net"]["dealing"] == "seed"
        assert verify_record(record).result == session.result_json()


def test_a_version_2_record_keeps_its_released_shape() -> None:
    table = Table(seed=3)
    table.run()
    net = table.host.record().to_json()["net"]
    assert net["protocol"] == "koikoi-net/2" and "dealing" not in net


@pytest.mark.parametrize(
    ("protocol", "dealing", "words"),
    [
        ("koikoi-net/4", "cards", "net.dealing is 'cards', not 'private' or 'seed'"),
        ("koikoi-net/2", "seed", "net.dealing in a record of koikoi-net/2"),
    ],
)
def test_verify_names_a_dealing_that_does_not_fit(protocol: str, dealing: str, words: str) -> None:
    table = Table(seed=4)
    table.run()
    record = table.host.record().to_json()
    record["net"].update(protocol=protocol, dealing=dealing)
    with pytest.raises(VerificationFailed, match=words):
        verify_record(record)
