"""A privately dealt match's record file and its sidecar (koikoi/net/recordfile.py,
docs/protocol.md "A side that crashed"): the record rewritten as each deal is laid out, this
side's seeds and journal appended beside it before what it sends goes out, read back after a
crash (a torn last line dropped, a sidecar of another match refused in one line), and gone
with every secret seed once the match ended. The bytes written over a match are bounded by a
few times the finished record, not by its square.

The crashes are the sans-I/O harness of tests/test_net_private_resume.py with a real
:class:`RecordFile` per side saving after every step, as the clients' ``on_record`` does;
the bytes and the end go through the real asyncio transport over loopback.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest

from koikoi.engine.match import Observation, Settings
from koikoi.engine.round import Action
from koikoi.net import bench
from koikoi.net.connection import ConnectionEvent
from koikoi.net.recordfile import LocalFileError, RecordFile, attach_local
from koikoi.net.resume import NotResumable, restore_session
from koikoi.net.roles import Role
from koikoi.net.session.core import Session
from koikoi.net.transport.joiner import join
from koikoi.net.transport.room import Room
from tests.test_net_private_resume import (
    POINTS,
    PrivateMatch,
    assert_verified_and_alike,
    between_the_draw_keys,
    cut_when,
)


class WrittenMatch(PrivateMatch):
    """A privately dealt match whose sides each keep their record file in ``folder/name``,
    saved after every step before what it sends goes
    out, as the CLI and the app save it."""

    def __init__(self, seed: int, folder: Path, name: str = "match") -> None:
        self.folder = folder / name
        self.folder.mkdir()
        self.files = {role: RecordFile(self.folder / f"{role.value}.json") for role in Role}
        super().__init__(seed)

    def record(self, role: Role, events: list[ConnectionEvent]) -> None:
        super().record(role, events)
        session = self.session.get(role)
        if session is not None and session.toss.result is not None:
            self.files[role].save(session)


def written_and_cut(
    folder: Path, point: Any = between_the_draw_keys, name: str = "match"
) -> WrittenMatch:
    for seed in range(21, 31):
        match = WrittenMatch(seed, folder, f"{name}{seed}")
        if cut_when(match, point):
            return match
    raise AssertionError("ten matches ended before the cut point")


def from_disk(match: WrittenMatch, role: Role, path: Path | None = None) -> Session:
    """``role`` crashed: its session as a restarted client restores it, from its files."""
    path = path or match.files[role].path
    data = attach_local(json.loads(path.read_text(encoding="utf-8")), path)
    side = match.sides[role]
    return restore_session(data, side.identity, role.value, role, Settings(), now=match.now)


def refusal(match: WrittenMatch, role: Role, path: Path | None = None) -> str:
    with pytest.raises((NotResumable, LocalFileError)) as caught:
        from_disk(match, role, path)
    assert "\n" not in str(caught.value)
    return str(caught.value)


@pytest.mark.parametrize("crashed", list(Role))
@pytest.mark.parametrize("point", ["between the draw keys", "the second deal's lock"])
def test_a_side_restored_from_its_files_resumes_and_the_end_leaves_no_sidecar(
    tmp_path: Path, point: str, crashed: Role
) -> None:
    match = written_and_cut(tmp_path, POINTS[point])
    files = match.files[crashed]
    on_disk = json.loads(files.path.read_text(encoding="utf-8"))
    assert "local" not in on_disk and files.sidecar.exists()
    assert oct(files.sidecar.stat().st_mode & 0o777) == "0o600"
    before = match.session[crashed]
    restored = from_disk(match, crashed)
    assert restored.record().to_json()["deals"] == before.record().to_json()["deals"]
    assert (restored.dealing_received, restored.dealing_sent) == (
        before.dealing_received,
        before.dealing_sent,
    )
    match.session[crashed] = restored
    match.link = match.dial()
    match.run()
    assert match.resumed >= 1
    assert_verified_and_alike(match)
    for role in Role:
        match.files[role].save(match.session[role])  # the end, as the clients write it
        assert not match.files[role].sidecar.exists()
        assert "local" not in json.loads(match.files[role].path.read_text(encoding="utf-8"))
    assert sorted(p.name for p in match.folder.iterdir()) == ["host.json", "joiner.json"]


def test_the_record_file_time_is_the_last_write_of_the_match(tmp_path: Path) -> None:
    """Privately dealt, the record is rewritten only as each deal is laid out; its time
    still says when the match last wrote (the app offers a match written less than the
    resume window ago), so each line appended beside it touches it."""
    match = written_and_cut(tmp_path)
    files = match.files[Role.JOINER]
    os.utime(files.path, (0, 0))
    record = files.path.read_bytes()
    lines = files.sidecar.read_bytes().count(b"\n")
    match.link = match.dial()  # resumed: the journal grows (the resume, the peer's resent)
    for _ in range(200):
        match.now += 0.01
        match.step()
        if files.sidecar.read_bytes().count(b"\n") > lines:
            break
    assert files.sidecar.read_bytes().count(b"\n") > lines
    assert files.path.read_bytes() == record  # the record was not written again
    assert files.path.stat().st_mtime >= files.sidecar.stat().st_mtime - 1


def test_a_torn_last_line_is_dropped_and_the_match_goes_on(tmp_path: Path) -> None:
    """A crash in the middle of an append leaves the start of a line without its newline:
    that write never finished, so nothing of its step went out. It is dropped."""
    match = written_and_cut(tmp_path)
    sidecar = match.files[Role.JOINER].sidecar
    last = sidecar.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[1]
    with sidecar.open("ab") as out:
        out.write(last[: len(last) // 2])  # a line half written
    restored = from_disk(match, Role.JOINER)
    assert restored.local_size == match.session[Role.JOINER].local_size
    match.session[Role.JOINER] = restored
    match.link = match.dial()
    match.run()
    assert_verified_and_alike(match)


def test_a_whole_last_line_without_its_newline_is_dropped_too(tmp_path: Path) -> None:
    """The line's bytes all there but not its newline: the write did not finish either.
    The state is the one before that write, which the restored session replays."""
    match = written_and_cut(tmp_path)
    sidecar = match.files[Role.JOINER].sidecar
    raw = sidecar.read_bytes()
    sidecar.write_bytes(raw[:-1])
    lines = raw.split(b"\n")[1:-1]
    dropped = json.loads(lines[-1])
    restored = from_disk(match, Role.JOINER)
    seeds, journal = match.session[Role.JOINER].local_size
    taken = sum(1 for item in dropped if item[0] == "seed")
    assert restored.local_size == (seeds - taken, journal - (len(dropped) - taken))


def test_a_broken_line_before_the_last_is_refused_in_one_line(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    sidecar = match.files[Role.JOINER].sidecar
    lines = sidecar.read_bytes().split(b"\n")
    lines[2] = lines[2][:-5]
    sidecar.write_bytes(b"\n".join(lines))
    assert refusal(match, Role.JOINER) == "its local file's line 3 is not JSON"


def test_a_sidecar_of_another_match_is_refused_in_one_line(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path, name="one")
    other = written_and_cut(tmp_path, name="two")
    mine = match.files[Role.JOINER]
    theirs = other.files[Role.JOINER].sidecar
    mine.sidecar.write_bytes(theirs.read_bytes())
    assert refusal(match, Role.JOINER) == "its local file is of another match"


def test_a_sidecar_of_the_other_side_is_refused_in_one_line(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    files = match.files
    files[Role.JOINER].sidecar.write_bytes(files[Role.HOST].sidecar.read_bytes())
    assert refusal(match, Role.JOINER) == "its local file is of the host's side, not this one"


def test_a_sidecar_of_the_same_match_that_does_not_reach_its_record_is_refused(
    tmp_path: Path,
) -> None:
    """A sidecar kept from earlier in the match (a copy): its journal stops before the
    record's entries. The record must hold a move the copy lacks: a first deal that ends as
    it is dealt (a teyaku) leaves the record at the second deal with no move at all, and the
    copy then is no older than the record (it was restored: 3 runs in 92)."""
    for seed in range(21, 31):  # a match won in its first deal has no second: play another
        match = WrittenMatch(seed, tmp_path, f"match{seed}")
        files = match.files[Role.JOINER]
        early, reached = b"", False
        for _ in range(20_000):
            match.now += 0.01
            match.step()
            session = match.session.get(Role.JOINER)
            lockstep = None if session is None else session.lockstep
            if lockstep is not None and not early and files.sidecar.exists():
                early = files.sidecar.read_bytes()
            if session is not None and session.ending is not None:
                break
            if (
                lockstep is not None
                and len(lockstep.record.deals) >= 2
                and lockstep.seq >= 2
                and lockstep.record.deals[0].actions  # on disk since the second deal began
            ):
                reached = True
                break
        if reached:
            break
    assert reached and early
    files.sidecar.write_bytes(early)
    assert refusal(match, Role.JOINER).startswith("its local journal does not replay")


def test_a_record_without_its_sidecar_is_refused_in_one_line(tmp_path: Path) -> None:
    match = written_and_cut(tmp_path)
    match.files[Role.JOINER].sidecar.unlink()
    assert refusal(match, Role.JOINER).startswith(
        "it was dealt privately and keeps no local seeds and journal"
    )


def test_a_record_of_the_previous_version_with_its_local_key_is_restored(tmp_path: Path) -> None:
    """Before the sidecar, the record file kept the ``local`` key itself: a crash under that
    version is taken back all the same."""
    match = written_and_cut(tmp_path)
    files = match.files[Role.JOINER]
    files.sidecar.unlink()
    old = match.session[Role.JOINER].record().to_json()
    assert "local" in old
    files.path.write_text(json.dumps(old, indent=1), encoding="utf-8")
    match.session[Role.JOINER] = from_disk(match, Role.JOINER)
    match.link = match.dial()
    match.run()
    assert_verified_and_alike(match)


# --- over loopback: what a match writes, and what is left at its end ----------------------


def test_the_bytes_written_over_a_private_match_are_a_few_times_its_record(
    tmp_path: Path,
) -> None:
    """Each side's record file, written through ``on_record`` over a whole match: the
    record is rewritten at the toss, as each deal is laid out and at the end, and the
    journal is appended once, so what is written is bounded by the finished record's size
    times the deals (rewriting it after every message wrote some 250 times its size)."""
    bots = (bench._TimedBot("random", 41), bench._TimedBot("random", 42))
    writers = (
        bench._RecordWriter(tmp_path / "host.json"),
        bench._RecordWriter(tmp_path / "joiner.json"),
    )
    hosted, joined = asyncio.run(bench._session(bots, private=True, writers=writers))
    assert hosted.finished and joined.finished
    for writer in writers:
        size = writer.file.path.stat().st_size
        record = json.loads(writer.file.path.read_text(encoding="utf-8"))
        deals = len(record["deals"])
        assert "local" not in record and "end" in record
        assert writer.file.bytes_written <= (deals + 4) * size, (writer.file.bytes_written, size)
        assert not writer.file.sidecar.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["host.json", "joiner.json"]


class _Leaver:
    """A ``random`` player that leaves the match (sets ``stop``) at its ``moves``-th move:
    a move is asked for only while a deal is in play, so its seed of that deal is still
    secret."""

    def __init__(self, stop: asyncio.Event, moves: int) -> None:
        self.bot = bench._TimedBot("random", 7)
        self.stop = stop
        self.moves = moves

    async def choose(self, observation: Observation) -> Action:
        self.moves -= 1
        if self.moves <= 0:
            self.stop.set()
            await asyncio.sleep(3600)  # the stop ends the match before this
        return self.bot.choose_now(observation)

    def notify(self, events: Any) -> None:
        pass

    def cancel(self) -> None:
        pass


def test_a_player_who_leaves_mid_deal_leaves_no_sidecar_and_no_seed_on_disk(
    tmp_path: Path,
) -> None:
    async def play(folder: Path) -> tuple[Session, Session]:
        stop = asyncio.Event()
        options = bench._options("host", private=True), bench._options("joiner", private=True)
        files = RecordFile(folder / "host.json"), RecordFile(folder / "joiner.json")
        options[0].on_record, options[1].on_record = files[0].save, files[1].save
        room = Room(options[0], bench._TimedBot("random", 8))
        _, port = await room.open("127.0.0.1", 0)
        try:
            joined = await join("127.0.0.1", port, options[1], _Leaver(stop, 12), stop=stop)
            hosted = await room.outcome()
        finally:
            await room.close()
        assert hosted.session is not None and joined.session is not None
        return hosted.session, joined.session

    for attempt in range(5):  # a match won before the joiner's 12th move: play another
        folder = tmp_path / str(attempt)
        folder.mkdir()
        host, joiner = asyncio.run(play(folder))
        assert joiner.ending is not None
        if not joiner.ending.finished:
            break
    assert joiner.ending is not None and not joiner.ending.finished
    on_disk = b"".join(path.read_bytes() for path in folder.iterdir())
    assert not any(path.name.endswith(".local") for path in folder.iterdir())
    for session in (host, joiner):
        secret = base64.b64decode(session.local_json()["seeds"][-1])
        for form in (session.local_json()["seeds"][-1].encode(), secret, secret.hex().encode()):
            assert form not in on_disk  # the deal cut short: its seeds stay secret


def test_a_changed_resume_key_is_written_between_deals(tmp_path: Path) -> None:
    """The app's ``resume`` key (``extra``) changes while the signed record does not (a
    restored host listening on a new port): the record file says the new one at once; the
    same key again writes nothing."""
    match = written_and_cut(tmp_path)
    files, session = match.files[Role.HOST], match.session[Role.HOST]

    def resume_key() -> object:
        return json.loads(files.path.read_text(encoding="utf-8")).get("resume")

    files.save(session, {"resume": {"role": "host", "port": 4000}})
    assert resume_key() == {"role": "host", "port": 4000}
    writes = files.writes
    files.save(session, {"resume": {"role": "host", "port": 4000}})
    assert files.writes == writes
    files.save(session, {"resume": {"role": "host", "port": 4001}})
    assert resume_key() == {"role": "host", "port": 4001} and files.writes == writes + 1
