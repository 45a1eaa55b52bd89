"""The transports' shared decisions, sans-I/O on a stepped clock (koikoi/net/policy.py);
tests/test_net_policy_both.py runs the same cases over both real transports."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from koikoi.net import policy
from koikoi.net.errors import PeerRefused, ProtocolError
from koikoi.net.resume import ResumeRefused, Suspended
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.session.endings import Ending, How
from koikoi.net.session.events import Ended, TossDone
from tests.test_net_resume import Match, until_play


@pytest.fixture(scope="module")
def played() -> Match:
    match = Match(3)
    match.run()
    return match


@pytest.fixture
def in_play() -> Match:
    match = Match(4)
    until_play(match)
    return match


def test_a_match_is_resumable_from_its_toss_until_it_ends_unfinished() -> None:
    toss = TossDone.__new__(TossDone)
    assert policy.resumable_after(toss, 180.0, False)
    assert not policy.resumable_after(toss, 0.0, False)  # no window: a drop ends it
    assert policy.resumable_after(Suspended(1.0, "dropped"), 0.0, False)
    quit_ = Ended(Ending(False, How.LEFT, Role.JOINER, "the player left", "playing", 3, ""))
    assert not policy.resumable_after(quit_, 180.0, True)
    done = Ended(Ending(True, How.FINISHED, None, "the match is over", "over", 90, ""))
    assert policy.resumable_after(done, 180.0, True)  # the peer may lack the last entry
    assert not policy.resumable_after(object(), 180.0, False)


def test_only_the_peer_s_key_resumes_a_match_in_play(in_play: Match) -> None:
    session = in_play.session[Role.HOST]
    key = session.peer.public_key
    kw = {"suspended": True, "awaiting_goodbye": False}
    assert policy.may_resume(session, key, **kw)
    assert not policy.may_resume(session, bytes(32), **kw)
    assert not policy.may_resume(session, key, closing=True, **kw)
    assert not policy.may_resume(None, key, **kw)


def test_a_finished_match_resumes_only_while_its_goodbye_is_owed(played: Match) -> None:
    session = played.session[Role.HOST]
    key = session.peer.public_key
    assert policy.may_resume(session, key, suspended=True, awaiting_goodbye=False)
    assert policy.may_resume(session, key, suspended=False, awaiting_goodbye=True)
    # the goodbye came: a call with the peer's key is a new match, the room is busy
    assert not policy.may_resume(session, key, suspended=False, awaiting_goodbye=False)


@dataclass
class Fake:
    """What the keeper reads of a session."""

    session_id: bytes = b"s" * 32
    dealing: str = "seed"
    local_mark: tuple[int, int] | None = None
    closed: bool = False


def test_the_record_is_due_after_the_recorded_events_and_a_private_journal_s_growth() -> None:
    keeper = policy.RecordKeeper()
    writes: list[object] = []
    seed = Fake()
    session = seed  # the keeper reads only the fields of Fake
    assert keeper.after(session, [TossDone.__new__(TossDone)], writes.append) is None  # type: ignore[arg-type]
    assert keeper.after(session, [object()], writes.append) is None  # type: ignore[arg-type]
    assert len(writes) == 1
    private = Fake(b"p" * 32, "private", (1, 0))
    keeper.after(private, [], writes.append)  # type: ignore[arg-type]
    keeper.after(private, [], writes.append)  # type: ignore[arg-type]
    private.local_mark = (2, 0)
    keeper.after(private, [], writes.append)  # type: ignore[arg-type]
    private.closed, private.local_mark = True, (3, 0)
    keeper.after(private, [], writes.append)  # type: ignore[arg-type]
    assert len(writes) == 3  # a write at each growth of the journal while open


def test_a_failed_write_is_reported_once_per_session() -> None:
    keeper = policy.RecordKeeper()
    tries: list[object] = []

    def full(session: Session) -> None:
        tries.append(session)
        raise OSError(28, "No space left on device")

    toss = [TossDone.__new__(TossDone)]
    first = keeper.after(Fake(), toss, full)  # type: ignore[arg-type]
    assert first is not None and "No space left" in first.text and "crash recovery" in first.text
    assert keeper.after(Fake(), toss, full) is None  # type: ignore[arg-type]
    assert keeper.after(Fake(b"t" * 32), toss, full) is not None  # type: ignore[arg-type]
    assert len(tries) == 3


def test_the_redial_schedule_and_the_window() -> None:
    schedule = policy.RedialSchedule()
    assert [schedule.next_delay(0.0, 100.0) for _ in range(6)] == [0.2, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert schedule.next_delay(99.5, 100.0) == 0.5  # never past the window
    assert schedule.next_delay(101.0, 100.0) == 0.0
    schedule.reset()
    assert schedule.next_delay(0.0, 100.0) == 0.2


def test_what_a_failed_redial_means(played: Match, in_play: Match) -> None:
    done, live = played.session[Role.JOINER], in_play.session[Role.JOINER]
    busy = PeerRefused("busy", "busy")
    nothing = ResumeRefused("over", by_peer=True)
    assert policy.redial_verdict(live, connected=True, failure=nothing) is policy.Verdict.END
    assert policy.redial_verdict(done, connected=True, failure=nothing) is policy.Verdict.END
    assert policy.redial_verdict(done, connected=False, failure=None) is policy.Verdict.GIVE_UP
    assert policy.redial_verdict(done, connected=True, failure=busy) is policy.Verdict.GIVE_UP
    assert policy.redial_verdict(live, connected=False, failure=None) is policy.Verdict.AGAIN
    assert policy.redial_verdict(live, connected=True, failure=busy) is policy.Verdict.AGAIN
    other = ProtocolError("tampered")
    assert policy.redial_verdict(done, connected=True, failure=other) is policy.Verdict.AGAIN


def test_a_rematch_calls_again_only_a_closed_port_or_a_busy_room() -> None:
    assert policy.retry_call(closed_port=True, refusal=None)
    assert policy.retry_call(closed_port=False, refusal="busy")
    assert not policy.retry_call(closed_port=False, refusal="wait")
    assert not policy.retry_call(closed_port=False, refusal=None)


def test_the_goodbye_is_waited_for_the_close_grace_only_when_owed() -> None:
    assert not policy.GoodbyeWait().close_now(closed=False, awaiting_goodbye=True, now=0.0)
    assert policy.GoodbyeWait().close_now(closed=True, awaiting_goodbye=False, now=0.0)
    wait = policy.GoodbyeWait()
    assert not wait.close_now(closed=True, awaiting_goodbye=True, now=10.0)
    assert wait.by == 10.0 + policy.CLOSE_GRACE
    assert not wait.close_now(closed=True, awaiting_goodbye=True, now=11.9)
    assert wait.close_now(closed=True, awaiting_goodbye=True, now=12.0)
