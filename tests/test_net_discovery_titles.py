"""Finding 4 of issue 20: ``join --room TITLE`` when two rooms carry that title.

The rule (docs/protocol.md, "Discovery (mDNS)"): the search waits :data:`SAME_TITLE_WAIT`
seconds after the first open room of the title is reported, for another announcement; any
room of that title seen meanwhile (open or in play) from another host makes the title
ambiguous, and the joiner refuses to pick one. A room announced again by the same host (its
fingerprint, at an address it had) is one room. Here on an injected clock, sans I/O.
"""

from __future__ import annotations

from dataclasses import replace

from koikoi.net.discovery.titles import (
    SAME_TITLE_LISTEN,
    SAME_TITLE_WAIT,
    RoomFound,
    SameTitle,
    TitleSearch,
    same_host,
)
from koikoi.net.discovery.txt import RoomStatus
from tests.net_support import room

REAL = room("Hanami", "0a0a0a", "abcd", "10.0.0.2:4000")
SPOOF = room("Hanami", "0b0b0b", "wxyz", "10.0.0.9:4000")


def test_one_room_is_chosen_once_the_wait_is_over() -> None:
    search = TitleSearch("hanami")
    assert search.decide(0.0) is None and search.deadline is None
    search.see(REAL, 1.0)
    assert search.deadline == 1.0 + SAME_TITLE_WAIT
    assert search.decide(1.0 + SAME_TITLE_WAIT - 0.01) is None  # still waiting for a second
    assert search.decide(1.0 + SAME_TITLE_WAIT) == RoomFound(REAL)


def test_the_search_listens_a_while_in_all_even_when_the_first_room_comes_at_once() -> None:
    """A browser asks twice in its first seconds: a spoof (or the real room) whose first
    answer was lost comes with the second round, after the wait of a room heard at once."""
    search = TitleSearch("Hanami", started=10.0)
    search.see(REAL, 10.1)
    assert search.deadline == 10.0 + SAME_TITLE_LISTEN > 10.1 + SAME_TITLE_WAIT
    search.see(SPOOF, 10.0 + SAME_TITLE_LISTEN - 0.2)
    assert isinstance(search.decide(10.0 + SAME_TITLE_LISTEN), SameTitle)
    late = TitleSearch("Hanami", started=10.0)
    late.see(REAL, 13.0)  # heard late: the usual wait after it
    assert late.deadline == 13.0 + SAME_TITLE_WAIT


def test_a_spoof_announced_just_after_the_real_room_makes_the_title_ambiguous() -> None:
    search = TitleSearch("Hanami")
    search.see(REAL, 1.0)
    search.see(SPOOF, 1.0 + SAME_TITLE_WAIT * 0.9)
    decision = search.decide(1.0 + SAME_TITLE_WAIT)
    assert isinstance(decision, SameTitle)
    assert {room.fingerprint for room in decision.rooms} == {"abcd", "wxyz"}
    assert search.decide(100.0) == decision  # and it stays refused


def test_a_spoof_of_a_room_in_play_is_refused_not_joined() -> None:
    """The audit's case: the real room is playing, the spoof open; before, the spoof was the
    only candidate and was joined (with a warning after the handshake)."""
    search = TitleSearch("Hanami")
    search.see(replace(REAL, status=RoomStatus.PLAYING), 0.5)
    assert search.deadline is None  # nothing to join yet
    search.see(SPOOF, 2.0)
    decision = search.decide(2.0 + SAME_TITLE_WAIT)
    assert isinstance(decision, SameTitle) and len(decision.rooms) == 2


def test_a_room_gone_meanwhile_still_counts() -> None:
    """A room seen with the title stays a candidate even if a goodbye (which anyone can
    forge) removes it before the decision."""
    search = TitleSearch("Hanami")
    search.see(REAL, 1.0)
    search.see(SPOOF, 1.1)
    search.gone(REAL.name)
    assert isinstance(search.decide(1.0 + SAME_TITLE_WAIT), SameTitle)


def test_the_same_host_announced_twice_is_one_room() -> None:
    """A host restarted under a new name (the old announcement not yet expired), at the same
    address with another port, with the same fingerprint: one room, the latest joined."""
    again = room("Hanami", "0c0c0c", "abcd", "10.0.0.2:4100")
    assert same_host(REAL, again) and not same_host(REAL, SPOOF)
    search = TitleSearch("Hanami")
    search.see(REAL, 1.0)
    search.see(replace(REAL, rounds=12), 1.1)  # a change of the same name: the same room
    search.see(again, 1.2)
    assert search.decide(1.0 + SAME_TITLE_WAIT) == RoomFound(again)


def test_a_copied_fingerprint_from_another_address_is_another_host() -> None:
    """The fingerprint in TXT is only a hint anyone can copy: with no address in common it
    does not make a room the real host's."""
    copied = room("Hanami", "0d0d0d", "abcd", "10.0.0.9:4000")
    assert not same_host(REAL, copied)
    search = TitleSearch("Hanami")
    search.see(REAL, 1.0)
    search.see(copied, 1.5)
    assert isinstance(search.decide(1.0 + SAME_TITLE_WAIT), SameTitle)


def test_private_rooms_of_one_title_are_told_apart_by_name_only() -> None:
    """A private room publishes no fingerprint: two of one title are two rooms."""
    first = room("Hanami", "0e0e0e", None, "10.0.0.2:4000")
    second = room("Hanami", "0f0f0f", None, "10.0.0.2:4001")
    assert not same_host(first, second) and same_host(first, replace(first, rounds=12))
    search = TitleSearch("Hanami")
    search.see(first, 0.0)
    search.see(second, 0.1)
    assert isinstance(search.decide(SAME_TITLE_WAIT), SameTitle)


def test_a_spoof_after_the_wait_comes_too_late_and_other_titles_do_not_count() -> None:
    search = TitleSearch("Hanami")
    search.see(replace(SPOOF, title="Hanabi"), 0.5)  # another title: ignored
    search.see(REAL, 1.0)
    assert search.decide(1.0 + SAME_TITLE_WAIT) == RoomFound(REAL)
    search.see(SPOOF, 1.0 + SAME_TITLE_WAIT + 0.1)  # after the decision: it stands
    assert search.decide(5.0) == RoomFound(REAL)


def test_rooms_in_play_alone_are_nothing_to_join_unless_asked_for() -> None:
    playing = replace(REAL, status=RoomStatus.PLAYING)
    search = TitleSearch("Hanami")
    search.see(playing, 0.0)
    assert search.decide(60.0) is None
    resuming = TitleSearch("Hanami", playing=True)
    resuming.see(playing, 0.0)
    assert resuming.decide(SAME_TITLE_WAIT) == RoomFound(playing)
