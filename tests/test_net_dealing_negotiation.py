"""The dealing is negotiated in the hello (docs/protocol.md, "Version 3: the dealing
negotiated"): private when both sides offer it, else the joint seed when both allow it; a
version-2 peer still plays (joint seed) with a host that allows the seed, and a version-3
joiner that allows the seed too, meeting a version-2 host, gets the one line that says who
must update koikoi. Refusals of a dealing: tests/test_net_dealing_refusal.py."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest

from koikoi.engine.match import Settings
from koikoi.net.errors import DealingRefused, UnexpectedMessage, VersionMismatch
from koikoi.net.handshake import Handshake
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.roles import Role
from koikoi.net.verify import VerificationFailed, verify_record
from koikoi.net.wire import encode_message, unpack
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
        (BOTH, BOTH, 3, "private"),
        (("private",), BOTH, 3, "private"),
        (("seed",), BOTH, 3, "seed"),  # a host that deals only by the seed answers in 3
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
    assert ("deal" in joiner_hello) == (version == 3)


def test_a_released_version_2_joiner_plays_with_a_host_that_offers_private_dealing() -> None:
    """The hello of version 2 exactly as it was released (no ``deal`` key) meets a version-2
    answer; the host's first hello would have been version 3."""
    host = _side(Role.HOST, BOTH)
    joiner = _side(Role.JOINER, ("seed",))
    outcome = run(host, joiner)
    host_end, joiner_end = outcome.established()
    assert host_end.dealing == joiner_end.dealing == "seed"
    host_hello = unpack(outcome.frames[1][1])
    assert isinstance(host_hello, dict) and host_hello["v"] == 2 and "deal" not in host_hello


def test_a_version_3_joiner_meeting_a_version_2_host_is_told_to_update_it() -> None:
    """A released host refuses the version-3 hello and answers with its version-2 hello: the
    joiner names the older side."""
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
        "the peer speaks koikoi-net/2, this koikoi speaks koikoi-net/3: "
        "the peer's koikoi is older, it needs to update koikoi"
    )


def test_a_version_3_answer_to_a_version_2_hello_is_refused() -> None:
    """A host answers in the joiner's version; anything else is a mismatch, named."""
    joiner = _side(Role.JOINER, ("seed",))
    other = _side(Role.HOST, BOTH)
    joiner.start()
    with pytest.raises(VersionMismatch, match="koikoi-net/3, this koikoi speaks koikoi-net/2"):
        joiner.receive(other._hello)


@pytest.mark.parametrize(
    "deal",
    [[], ["private", "private"], ["cards"], "private", None],
)
def test_a_bad_deal_list_ends_the_handshake_with_one_line(deal: object) -> None:
    host = _side(Role.HOST, BOTH)
    hello = encode_message(
        "hello",
        v=3,
        nick="odd",
        settings={"rounds": 6, "doubling": True},
        private=False,
        pake=b"",
        deal=deal,  # type: ignore[arg-type]
    )
    with pytest.raises(UnexpectedMessage, match=r"^handshake failed: hello\.deal"):
        host.receive(hello)


def test_a_version_3_hello_without_a_common_dealing_is_refused() -> None:
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


def test_a_version_3_session_dealt_from_the_seed_plays_and_its_records_verify() -> None:
    """A host that deals only by the seed and a joiner that offers private dealing meet in
    version 3 with the joint seed: the records say so and verify."""
    table = Table(seed=2, dealings={Role.HOST: ("seed",), Role.JOINER: BOTH})
    table.run()
    assert table.host.dealing == table.joiner.dealing == "seed"
    assert table.host.ending is not None and table.host.ending.finished
    for session in (table.host, table.joiner):
        record = session.record().to_json()
        assert record["net"]["protocol"] == "koikoi-net/3"
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
        ("koikoi-net/3", "private", "deal 0 action -: the dealing is missing"),
        ("koikoi-net/3", "cards", "net.dealing is 'cards', not 'private' or 'seed'"),
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
