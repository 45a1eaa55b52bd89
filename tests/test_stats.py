"""The practice statistics without the window: a finished record read into an entry by the
engine's replay, the entries added up, the file kept whole or set aside, and ``koikoi stats``
(the real command, in a subprocess, on the test's own ``KOIKOI_HOME``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.ai import get_player
from koikoi.ai.seat import AiSeat
from koikoi.driver import play_match, seed_decks
from koikoi.engine.match import Settings
from koikoi.engine.outcome import Outcome
from koikoi.engine.record import GameRecord, replay_record
from koikoi.paths import koikoi_home
from koikoi.stats.store import STATS_NAME, StatsStore
from koikoi.stats.tally import YAKU_IDS, Entry, NotCounted, Result, entry_of_record, summary
from tests.conftest import run_koikoi


def finished_record(seed: bytes, level: str = "hard", **extra: Any) -> dict[str, Any]:
    """A whole practice match between two greedy-ish computers, written as the window
    writes its practice record (seed, human seat 0, level)."""
    record = GameRecord(
        Settings(6, True),
        0,
        extra={"kind": "practice", "seed": seed.hex(), "human_seat": 0, "ai_level": level, **extra},
    )
    seats = [AiSeat(get_player("normal"), random.Random(seed + bytes([s]))) for s in (0, 1)]
    match = play_match(record.settings, 0, seats, seed_decks(seed), record)
    assert match.finished
    return record.to_json()


def _expected_by_hand(data: dict[str, Any]) -> dict[str, Any]:
    """What the entry should say, counted from the replay's history another way."""
    match = replay_record(data).match
    calls = paid = 0
    yaku: dict[str, int] = {}
    for deal, outcome in zip(data["deals"], match.history, strict=True):
        mine = [a for a in deal["actions"] if a["seat"] == 0 and a.get("koikoi") is True]
        calls += len(mine)
        if outcome.result.winner == 0 and outcome.result.outcome is not Outcome.NAGARE:
            paid += len(mine)
            for y, _ in outcome.result.yaku:
                yaku[y.value] = yaku.get(y.value, 0) + 1
    return {"calls": calls, "paid": paid, "yaku": yaku, "scores": match.scores}


@pytest.mark.parametrize("seed", [b"stats-1", b"stats-2", b"stats-3", b"stats-4"])
def test_a_finished_record_becomes_an_entry_from_the_engines_results(seed: bytes) -> None:
    data = finished_record(seed)
    entry = entry_of_record(data, "2026-12-02T18:00:00Z")
    want = _expected_by_hand(data)
    me, them = want["scores"]
    assert entry.id == seed.hex() and entry.level == "hard" and not entry.assisted
    assert entry.result is (Result.WIN if me > them else Result.LOSS if me < them else Result.DRAW)
    assert entry.points == me - 25
    assert entry.koikoi_calls == want["calls"] and entry.koikoi_paid == want["paid"]
    assert dict(entry.yaku) == want["yaku"]
    assert Entry.from_json(json.loads(json.dumps(entry.to_json()))) == entry


def test_the_koikoi_calls_are_the_players_and_paid_only_in_rounds_they_won() -> None:
    """Over a few matches the player called koikoi, and some calls did not pay (the count
    is not simply every call)."""
    entries = [entry_of_record(finished_record(f"calls-{i}".encode())) for i in range(8)]
    assert sum(e.koikoi_calls for e in entries) > sum(e.koikoi_paid for e in entries) > 0


def test_an_unfinished_or_network_match_is_not_counted() -> None:
    data = finished_record(b"cut")
    data["deals"] = data["deals"][:2]
    with pytest.raises(NotCounted, match="not finished"):
        entry_of_record(data)
    with pytest.raises(NotCounted, match="practice"):
        entry_of_record({**finished_record(b"net"), "net": {}})


def test_a_match_played_with_undo_is_counted_apart() -> None:
    alone = entry_of_record(finished_record(b"alone"))
    helped = entry_of_record(finished_record(b"helped", assisted=["undo"]))
    assert helped.assisted == ("undo",)
    out = summary([alone, helped])
    assert out["matches"] == 1 and out["levels"]["hard"]["matches"] == 1
    assert out["assisted"]["matches"] == 1 and out["assisted"]["levels"]["hard"]["matches"] == 1


_entries = st.lists(
    st.builds(
        Entry,
        id=st.uuids().map(str),
        level=st.sampled_from(["easy", "normal", "hard"]),
        result=st.sampled_from(list(Result)),
        rounds=st.integers(1, 12),
        points=st.integers(-25, 25),
        koikoi_calls=st.integers(0, 5),
        koikoi_paid=st.just(0),
        yaku=st.dictionaries(st.sampled_from(YAKU_IDS), st.integers(1, 4)).map(
            lambda d: tuple((y, d[y]) for y in YAKU_IDS if y in d)
        ),
        assisted=st.sampled_from([(), ("undo",), ("hint",)]),
    ),
    max_size=30,
)


def _longest_run(results: list[Result]) -> int:
    text = "".join("w" if r is Result.WIN else "." for r in results)
    return max((len(run) for run in text.split(".")), default=0)


@settings(max_examples=150, deadline=None)
@given(_entries)
def test_the_summary_adds_up_whatever_the_matches(entries: list[Entry]) -> None:
    out = summary(entries)
    for part, assisted in ((out, False), (out["assisted"], True)):
        mine = [e for e in entries if bool(e.assisted) is assisted]
        assert part["matches"] == len(mine) == sum(s["matches"] for s in part["levels"].values())
        assert sum(part["yaku"].values()) == sum(n for e in mine for _, n in e.yaku)
        assert list(part["yaku"]) == [y for y in YAKU_IDS if y in part["yaku"]]  # R6 order
        assert part["best_streak"] == _longest_run([e.result for e in mine])
        for level, s in part["levels"].items():
            group = [e for e in mine if e.level == level]
            wins = sum(e.result is Result.WIN for e in group)
            assert (s["matches"], s["wins"]) == (len(group), wins)
            assert s["win_rate"] == pytest.approx(wins / len(group), abs=1e-4)
            assert s["best_streak"] == _longest_run([e.result for e in group]) <= wins
            rounds = sum(e.rounds for e in group)
            assert s["points_per_round"] == pytest.approx(
                sum(e.points for e in group) / rounds, abs=1e-3
            )
            assert s["koikoi_calls"] == sum(e.koikoi_calls for e in group) >= s["koikoi_paid"]
    assert json.loads(json.dumps(out)) == out


def test_the_file_keeps_each_match_once_and_is_written_whole(tmp_path: Path) -> None:
    store = StatsStore(tmp_path)
    first = entry_of_record(finished_record(b"once"))
    store.add(first)
    store.add(first)  # the same match again (found again on start-up): counted once
    store.add(entry_of_record(finished_record(b"twice")))
    assert [e.id for e in store.load().entries] == [b"once".hex(), b"twice".hex()]
    assert sorted(p.name for p in tmp_path.iterdir()) == [STATS_NAME]  # no temporary left


@pytest.mark.parametrize(
    "content",
    [b"{not json", b'{"format": "koikoi-stats/1", "matches": [{"result": "win"}]}', b"\xff\xfe"],
    ids=["not-json", "bad-entry", "not-utf8"],
)
def test_a_damaged_file_is_set_aside_and_koikoi_stats_says_so_in_one_line(
    content: bytes,
) -> None:
    home = koikoi_home()
    home.mkdir(parents=True, exist_ok=True)
    (home / STATS_NAME).write_bytes(content)
    proc = run_koikoi("stats")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "could not be read" in proc.stderr and "moved to" in proc.stderr
    assert json.loads(proc.stdout)["matches"] == 0
    kept = list(home.glob("stats.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == content  # kept, not deleted
    assert not (home / STATS_NAME).exists()


def _stats_file(*entries: dict[str, Any]) -> Path:
    home = koikoi_home()
    home.mkdir(parents=True, exist_ok=True)
    path = home / STATS_NAME
    path.write_text(json.dumps({"format": "koikoi-stats/1", "matches": list(entries)}), "utf-8")
    return path


@pytest.mark.parametrize(
    ("key", "value"),
    [("points", 10**400), ("points", -26), ("rounds", 13), ("koikoi_calls", 97)]
    + [("yaku", {"kasu": 10**30})],
)
def test_a_count_no_match_can_make_is_a_damaged_file_set_aside(key: str, value: object) -> None:
    entry = entry_of_record(finished_record(b"out-of-range")).to_json()
    entry[key] = value
    content = _stats_file(entry).read_bytes()
    proc = run_koikoi("stats")
    assert proc.returncode == 0 and proc.stderr.count("\n") == 1, proc.stderr
    assert "out of range" in proc.stderr or "counts" in proc.stderr, proc.stderr
    (kept,) = koikoi_home().glob("stats.corrupt-*.json")
    assert kept.read_bytes() == content and json.loads(proc.stdout)["matches"] == 0


def test_a_match_written_twice_in_the_file_counts_once() -> None:
    entry = entry_of_record(finished_record(b"written-twice")).to_json()
    _stats_file(entry, entry)
    proc = run_koikoi("stats")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert json.loads(proc.stdout)["matches"] == 1


def test_a_name_no_encoding_can_write_is_printed_escaped_as_the_same_json() -> None:
    entry = entry_of_record(finished_record(b"lone-surrogate")).to_json()
    entry["level"] = "\ud800"  # what a file's "\\ud800" reads as: no UTF-8 for it
    _stats_file(entry)
    proc = run_koikoi("stats")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert list(json.loads(proc.stdout)["levels"]) == ["\ud800"]
    assert proc.stdout.isascii()


def test_koikoi_stats_with_no_file_yet_prints_zeros() -> None:
    proc = run_koikoi("stats")
    assert proc.returncode == 0 and proc.stderr == ""
    out = json.loads(proc.stdout)
    assert out == {
        "matches": 0,
        "levels": {},
        "yaku": {},
        "best_streak": 0,
        "assisted": {"matches": 0, "levels": {}, "yaku": {}, "best_streak": 0},
    }


def test_koikoi_stats_prints_the_keys_of_cli_md() -> None:
    store = StatsStore()
    entries = [entry_of_record(finished_record(f"cli-{i}".encode(), "easy")) for i in range(3)]
    for e in entries:
        store.add(e)
    proc = run_koikoi("stats")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    level = out["levels"]["easy"]
    for key in ("matches", "wins", "win_rate", "points_per_round", "koikoi_calls", "koikoi_paid"):
        assert key in level
    assert level["matches"] == 3
    assert level["wins"] == sum(e.result is Result.WIN for e in entries)
    assert out["yaku"] == summary(entries)["yaku"] and "assisted" in out


def test_koikoi_stats_fails_in_one_line_when_the_file_can_neither_be_read_nor_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / STATS_NAME).mkdir(parents=True)  # a folder where the file should be: unreadable
    (home / STATS_NAME / "x").write_text("keeps the folder from being replaced")
    locked = tmp_path / "home"
    monkeypatch.setenv("KOIKOI_HOME", str(locked))
    locked.chmod(0o500)  # nor can it be renamed
    try:
        proc = run_koikoi("stats")
    finally:
        locked.chmod(0o700)
    if proc.returncode == 0:  # root renames whatever the bits say
        assert "moved to" in proc.stderr
        return
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "cannot be read" in proc.stderr


def test_a_finished_save_found_on_start_up_is_counted_once(tmp_path: Path) -> None:
    """The app stopped between a match's last round and its archive: the save is finished.
    Loading it archives it and counts it, once however often it is found."""
    from koikoi.ui.match.saves import SaveStore

    saves = SaveStore(tmp_path)
    data = finished_record(b"crashed")
    saves.write(data)
    assert saves.load().saved is None  # nothing to resume: archived
    assert not saves.path.exists() and len(list((tmp_path / "games").glob("*.json"))) == 1
    saves.write(data)  # found again (a copy taken back by hand)
    saves.load()
    assert [e.id for e in StatsStore(tmp_path).load().entries] == [b"crashed".hex()]
