"""A signed record whose JSON repeats a key in one object is refused wherever a signed record is
read: ``koikoi verify`` (exit 2, one line naming the key, as a file that cannot be read as a
record), a restore from ``--record FILE``, and the app's list of kept games. A JSON reader keeps
one of two values for a repeated key (Python's the last, others the first), so two programs
could read one signed record as two different ones. ``koikoi replay`` reads no signed field and
still takes such a record as before."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest

from koikoi.command import UsageError
from koikoi.engine.record import RecordError, loads, replay_text
from koikoi.net.roles import Role
from tests.conftest import run_koikoi
from tests.net_support import Table, in_play


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A finished match's record whose first deal has moves (the cards are random per run,
    and about one first deal in 55 is over as it is dealt: a teyaku or a redeal)."""
    for seed in range(3, 23):
        table = Table(seed=seed)
        table.run()
        record = table.host.record().to_json()
        if record["deals"][0]["actions"]:
            return record
    raise AssertionError("no first deal of 20 had moves")


def _repeating(record: dict[str, Any], where: str) -> str:
    """The record's JSON text with a key repeated: ``format`` at the top (the same value
    twice), or ``seat`` in the first action (another value first: a reader that keeps the
    first one sees another mover)."""
    text = json.dumps(record, indent=1)
    if where == "format":
        return text.replace('"format": ', '"format": "koikoi-record/1",\n "format": ', 1)
    seat = record["deals"][0]["actions"][0]["seat"]
    old = f'"seat": {seat}'
    assert old in text
    return text.replace(old, f'"seat": {1 - seat}, {old}', 1)


@pytest.mark.parametrize("where", ["format", "seat"])
def test_verify_refuses_a_record_that_repeats_a_key(
    finished: dict[str, Any], where: str, tmp_path: Path
) -> None:
    path = tmp_path / "repeated.json"
    path.write_text(_repeating(finished, where), encoding="utf-8")
    proc = run_koikoi("verify", str(path))
    assert proc.returncode == 2, proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and f"the key '{where}' twice in one object" in lines[0], lines
    assert proc.stdout == ""
    # the same record without the repeat verifies
    path.write_text(json.dumps(finished), encoding="utf-8")
    assert run_koikoi("verify", str(path)).returncode == 0


def test_loads_of_a_signed_record_names_the_repeated_key(finished: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="the key 'format' twice in one object"):
        loads(_repeating(finished, "format"), unique_keys=True)
    assert loads(json.dumps(finished), unique_keys=True) == finished


def test_replay_takes_a_record_that_repeats_a_key_as_before(finished: dict[str, Any]) -> None:
    assert replay_text(_repeating(finished, "format"))["finished"] is True


def _in_play() -> tuple[Table, dict[str, Any]]:
    """A match some moves in and not over (``in_play``: now and then one is over by then),
    its first deal with moves (:func:`_repeating` repeats a key of its first action)."""
    table = in_play(16, seeds=range(5, 45), until=_first_deal_has_moves)
    return table, table.host.record().to_json()


def _first_deal_has_moves(table: Table) -> bool:
    return bool(table.host.record().to_json()["deals"][0]["actions"])


def test_a_record_in_play_that_repeats_a_key_is_not_restored(tmp_path: Path) -> None:
    from koikoi.net.cli import _restored

    table, record = _in_play()
    path = tmp_path / "record.json"
    path.write_text(_repeating(record, "format"), encoding="utf-8")
    options = types.SimpleNamespace(
        identity=table.identities[Role.HOST],
        nickname="host",
        settings=table.settings,
        silence_timeout=15.0,
    )
    with pytest.raises(UsageError, match="the key 'format' twice in one object"):
        _restored(options, Role.HOST, str(path))  # type: ignore[arg-type]
    assert path.read_text(encoding="utf-8") == _repeating(record, "format")  # kept as it is


def test_the_kept_games_list_skips_a_network_record_that_repeats_a_key(
    finished: dict[str, Any], tmp_path: Path
) -> None:
    from koikoi.paths import games_dir
    from koikoi.ui.match.saves import SaveStore, kept_matches

    store = SaveStore(tmp_path)
    games = games_dir(store.directory)
    games.mkdir(parents=True)
    (games / "net-20260101-000000-seat0.json").write_text(
        _repeating(finished, "seat"), encoding="utf-8"
    )
    assert kept_matches(store) == []
    (games / "net-20260101-000000-seat0.json").write_text(json.dumps(finished), encoding="utf-8")
    assert len(kept_matches(store)) == 1
