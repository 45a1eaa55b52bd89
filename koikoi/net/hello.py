"""What a hello says (docs/protocol.md, "Hello"): the protocol versions, the dealing kinds
a side offers and the one both agree, the nickname and the match settings, and the hello's
schema. :mod:`koikoi.net.handshake` reads and writes hellos with these; the command line and
the app name versions and offers with them.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum
from typing import Final

from koikoi.engine.match import Settings
from koikoi.net.errors import ProtocolError
from koikoi.net.pake import PAKE_MESSAGE_LEN
from koikoi.net.session.clock import MAX_CLOCK_SECONDS, MAX_RESERVE_SECONDS, ClockSetting
from koikoi.net.stamps import HELLO_STAMPS
from koikoi.net.wire import Bool, Bytes, Fields, Int, ListOf, OneOf, Record, Str, Value

PROTOCOL_VERSION: Final = 2
"""2: one canonical encoding, rooms that idle sockets cannot lock, password guesses limited,
the match over at its last move (docs/protocol.md, "Version 2")."""
PROTOCOL_NAME: Final = f"koikoi-net/{PROTOCOL_VERSION}"
PRIVATE_VERSION: Final = 4
"""The version of every hello that offers private dealing: version 2 with the dealing
negotiated in the hello (``deal``) and the four cards compared before the coin toss is decided
(docs/protocol.md, "Version 4"). Use this name, never the number: it is the one place the
private-dealing version is written."""
RETIRED_VERSIONS: Final = (3,)
"""Versions a released koikoi spoke that this one no longer does (3: the dealing negotiated,
the toss before the cards); a peer speaking one is older and must update."""
VERSIONS: Final = (PROTOCOL_VERSION, PRIVATE_VERSION)
"""The versions a host accepts: a version-2 joiner gets a version-2 session (joint seed)."""
NEWEST_VERSION: Final = max(VERSIONS)


class Dealing(StrEnum):
    """How a session's deals are made. Each is its own string, so records (JSON), TXT,
    msgpack and the CLI carry ``private``/``seed`` as before."""

    PRIVATE = "private"
    """Each deal by mental poker from both sides' per-deal secrets (docs/protocol.md)."""
    SEED = "seed"
    """Every deal from the joint seed of the coin toss."""


DEALINGS: Final = (Dealing.PRIVATE, Dealing.SEED)
"""The dealing kinds, in the order of preference: private dealing, or the joint seed."""


def protocol_name(version: int) -> str:
    """``koikoi-net/2`` or ``koikoi-net/4`` (``koikoi-net/3`` in older records): what a
    session's record names."""
    return f"koikoi-net/{version}"


def agreed_dealing(mine: tuple[str, ...], theirs: tuple[str, ...]) -> Dealing:
    """The dealing of a session: the first kind of :data:`DEALINGS` both sides offer.

    >>> agreed_dealing(("private", "seed"), ("seed", "private"))
    <Dealing.PRIVATE: 'private'>
    >>> agreed_dealing(("seed",), DEALINGS)
    <Dealing.SEED: 'seed'>
    """
    for kind in DEALINGS:
        if kind in mine and kind in theirs:
            return kind
    raise ProtocolError("hello.deal: no dealing kind both sides support")


PRIVATE_ONLY: Final = (Dealing.PRIVATE,)
"""The default offer of ``koikoi host``/``join`` and the app (``Handshake(dealings=…)``):
private dealing only; a peer that offers only the joint seed is refused before any card is
dealt (docs/protocol.md, "A dealing refused")."""
WITH_SEED: Final = (Dealing.PRIVATE, Dealing.SEED)
"""The offer where the player allowed joint-seed dealing ("for older koikoi": the app's room
setting, or its option for joining): private dealing with a peer that offers it, else the
joint seed."""
SEED_ONLY: Final = (Dealing.SEED,)
"""``--dealing seed``, and a joiner of a koikoi-net/2 host: the joint seed alone, a version-2
hello."""


def resuming_offer(
    offer: tuple[str, ...], protocol: str, dealing: str, joiner: bool
) -> tuple[str, ...]:
    """What a side restarted after a crash offers when it dials or listens again: a match
    agreed with the joint seed (``dealing``, ``protocol`` as its record says) is resumed as it
    was agreed. A joiner of a koikoi-net/2 match offers the joint seed alone (its host may be
    a released version-2 program, which refuses a private-dealing hello); any other side of a
    joint-seed match allows the seed with its offer, so that its peer's redial is not refused.
    The one rule for the command line and the app.

    >>> resuming_offer(PRIVATE_ONLY, "koikoi-net/4", "private", True) == PRIVATE_ONLY
    True
    >>> resuming_offer(PRIVATE_ONLY, "koikoi-net/2", "seed", True) == SEED_ONLY
    True
    >>> resuming_offer(PRIVATE_ONLY, "koikoi-net/2", "seed", False) == WITH_SEED
    True
    """
    if dealing != "seed":
        return offer
    if joiner and protocol == protocol_name(PROTOCOL_VERSION):
        return SEED_ONLY
    return WITH_SEED if "private" in offer else SEED_ONLY


def dealing_refused_text(why: str, peer_version: int | None = None, who: str = "the peer") -> str:
    """The one line of a side that refuses the peer's dealing (:class:`DealingRefused`):
    ``why`` ``seed`` (the peer offers only the joint seed; ``peer_version`` 2 says it speaks
    the released version) or ``private`` (the peer deals privately only). ``who`` names the
    peer (``join --room``: the room, refused before dialling).

    >>> print(dealing_refused_text("seed"))
    refused: the peer offers only joint-seed dealing, from which either program can compute the other's hand; this side deals privately only (--dealing seed allows it)
    """  # noqa: E501
    if why == "seed":
        older = f" (it speaks {protocol_name(peer_version)})" if peer_version is not None else ""
        return (
            f"refused: {who} offers only joint-seed dealing{older}, from which either "
            "program can compute the other's hand; this side deals privately only "
            "(--dealing seed allows it)"
        )
    return (
        f"refused: {who} deals privately only and refuses joint-seed dealing, from which "
        "either program can compute the other's hand; this side offers only joint-seed "
        "dealing (--dealing seed): without it both deal privately"
    )


MAX_NICKNAME: Final = 32


def version_mismatch_text(version: int, mine: int = PROTOCOL_VERSION) -> str:
    """One line for a peer speaking another protocol version: who has to update koikoi.

    >>> version_mismatch_text(1)
    "the peer speaks koikoi-net/1, this koikoi speaks koikoi-net/2: the peer's koikoi is older, it needs to update koikoi"
    """  # noqa: E501
    where = (
        "the peer's koikoi is older, it needs to update koikoi"
        if version < mine or version in RETIRED_VERSIONS
        else "the peer's koikoi is newer: update koikoi here"
    )
    return (
        f"the peer speaks koikoi-net/{version}, this koikoi speaks {protocol_name(mine)}: {where}"
    )


def downgraded_answer_text(version: int, mine: int) -> str:
    """A joiner's line for a host that answered its hello of version ``mine`` in the older
    version ``version`` that this koikoi still speaks: a host of that version does so, but so
    does a new host whose joiner hello was changed on the way (it answers the version it read),
    so the line blames neither.

    >>> downgraded_answer_text(2, 4)
    'the host answered in koikoi-net/2, this koikoi speaks koikoi-net/4: its koikoi is older, or something on the path changed the hello'
    """  # noqa: E501
    return (
        f"the host answered in {protocol_name(version)}, this koikoi speaks "
        f"{protocol_name(mine)}: its koikoi is older, or something on the path changed the hello"
    )


def normal_nickname(nickname: str, what: str) -> str:
    """``nickname`` in NFKC (full-width and other compatibility forms folded), still a valid
    nickname, or :class:`ProtocolError`.

    >>> normal_nickname("\uff48\uff41\uff4e\uff41", "nick")
    'hana'
    """
    normal = unicodedata.normalize("NFKC", nickname)
    Str(max_len=MAX_NICKNAME, min_len=1).check(normal, what)
    return normal


def settings_wire(settings: Settings) -> dict[str, Value]:
    """The ``settings`` field of a hello: ``{"rounds": 6 or 12, "doubling": bool}``."""
    return {"rounds": settings.rounds, "doubling": settings.doubling}


def settings_differences(mine: Settings, theirs: Settings) -> tuple[str, ...]:
    """Names of the settings that differ, in a fixed order (``rounds``, ``doubling``)."""
    return tuple(
        name
        for name, a, b in (
            ("rounds", mine.rounds, theirs.rounds),
            ("doubling", mine.doubling, theirs.doubling),
        )
        if a != b
    )


def describe_setting(settings: Settings, name: str) -> str:
    """One setting in words, for a mismatch: ``"12 rounds"``, ``"doubling at 8+ off"``."""
    if name == "rounds":
        return f"{settings.rounds} rounds"
    return "doubling at 8+ " + ("on" if settings.doubling else "off")


_SETTINGS = Record({"rounds": OneOf((6, 12)), "doubling": Bool()})
HELLO = Record(
    {
        "v": Int(PROTOCOL_VERSION, PROTOCOL_VERSION),
        "nick": Str(max_len=MAX_NICKNAME),
        "settings": _SETTINGS,
        "private": Bool(),
        "pake": Bytes(0, PAKE_MESSAGE_LEN),
    }
)
_CLOCK = Record({"seconds": Int(0, MAX_CLOCK_SECONDS), "reserve": Int(0, MAX_RESERVE_SECONDS)})
HELLO_PRIVATE = Record(
    {
        **HELLO.fields,
        "v": Int(PRIVATE_VERSION, PRIVATE_VERSION),
        "deal": ListOf(OneOf(tuple(d.value for d in DEALINGS)), max_len=len(DEALINGS), min_len=1),
        "clock": _CLOCK,
        "stamps": HELLO_STAMPS,
        "after": Bool(),
    },
    optional=frozenset({"clock", "stamps", "after"}),
)
"""A private-dealing hello (:data:`PRIVATE_VERSION`): version 2's, ``deal``, the dealing
kinds the side supports, ``clock``, the move clock (the host's is the room's),
``stamps``, the stamp ids the side shows (absent: it takes none), and ``after``, whether
the side stays connected after the match (:mod:`koikoi.net.session.after`; absent: no)."""


def clock_wire(clock: ClockSetting) -> dict[str, Value]:
    """The ``clock`` field of a hello: ``{"seconds": 60, "reserve": 300}`` (0: no clock)."""
    return {"seconds": clock.seconds, "reserve": clock.reserve}


def clock_of(fields: Fields) -> ClockSetting:
    """The checked ``clock`` field of a hello, or :class:`ProtocolError`."""
    try:
        return ClockSetting(fields.get("seconds", int), fields.get("reserve", int))
    except ValueError as error:
        raise ProtocolError(f"hello.clock: {error}") from None
