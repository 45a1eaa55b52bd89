"""From the Join click to the first deal, in the real windows:
``python -m koikoi.devtools.lanbench``.

Each run is the path of ``koikoi --smoke-test lan`` (:class:`~koikoi.ui.smoke.LanSmoke`) with
the app's own timings (animations at their real speed), stopped once the first deal is at rest
on the joiner's table: two windows in this process, each with its own home folder and a new
identity key, meet by mDNS on 127.0.0.1; the host opens a room with the lobby's form, the
joiner double-clicks it in its list (and types the password of a private room), both confirm
the four cards at once, both press the toss panel's "Deal the cards" at once. Open rooms and
password rooms alternate. Figures, in milliseconds (median, min, max over the runs of a kind):

- ``join_to_first_deal_ms``: the joiner's double-click on the room → the first deal's cards on
  its table (coming out of the stock), through the password prompt (typed by the script), the
  handshake, the four cards painted on both screens and confirmed on both, the toss panel and
  its button;
- ``join_to_first_deal_without_players_ms``: the same less the players' steps (typing the
  password, confirming the cards, pressing the toss's button, as the script does them);
- ``join_to_laid_out_ms`` and ``deal_animation_ms``: to the deal's cards at rest, and the
  deal's animation itself (a designed pace, the same as in practice);
- ``join_to_cards_ms``: the double-click → the four cards painted on both screens;
- ``confirmed_to_toss_ms``: the last confirmation → the toss panel on the joiner's screen;
- ``listed_ms``: the host's "Open the room" → the room in the joiner's list (goal ≤ 2 s);
  ``lobby_reopened`` counts the runs' joiners that opened the lobby again, the room not
  listed after 5 s (a list filled by a flood of rooms elsewhere on the machine's network);
- ``largest_gap_ms``: the longest the UI thread was busy at once (a 10 ms timer's longest
  gap), from the first click on 対戦 to the deal at rest (goal ≤ 50 ms). Both windows share
  the one thread, so this is an upper bound for one window. ``largest_busy_ms``: the most
  processor time the UI thread itself used between two ticks: it leaves out the time a
  loaded machine gave to other processes, and waits for the interpreter lock while
  zeroconf's threads held it. ``largest_gap_by_phase_ms`` and ``largest_busy_by_phase_ms``
  say where they were: the largest over the runs in each step of :class:`LanSmoke`
  (``lobby``: the host presses 対戦; ``lobby_joiner``: the joiner does; ``create``: the host
  opens the room; ``listing``: until the room is listed and double-clicked; ``password``;
  ``cards``: until both screens show the cards, and the joiner confirms; ``confirm_host``;
  ``toss``: until both tables took the match and the toss panel is up on the joiner's screen,
  and pressed; ``dealing``: the deal).

Three kinds of run: ``open`` and ``password`` rooms with every player's step taken at once,
and ``open_toss_read``: an open room where the joiner reads the toss panel for 1.5 s (its coin
spins for about 1.1 s) before dealing, as a person would; the window prepares its card
pictures meanwhile, so the deal's stall is the one a player meets.

The script looks every 10 ms, so a step is seen up to 10 ms after it happened. Prints one
JSON object.

``--processes``: one window per process, as players have it. Each run starts two processes of
``tests/app_player.py`` (in a checkout of the repository), each a real app window offscreen
with its own home folder; the host opens a room (private with ``--password`` in the
``password`` runs), the joiner finds it in its list by mDNS on 127.0.0.1, both confirm the
cards and play a whole match by clicks with the UI tests' instant timings, each click 100 ms
after the window asked for it. Each process
measures its own UI thread (``stalls`` in its output; the phases are in that script's
docstring). ``--pace MS`` plays the same matches with the app's real animations (as a player
has them), each click MS after the window asked for it: a match then takes minutes. Prints,
for each kind of room and each side, each phase's longest wall-clock gap
and the UI thread's most processor time between two ticks, in milliseconds: the median and
the largest over the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PASSWORD = "matsu ni tsuru"
RUNS = 5
TOSS_READ = 1.5
"""Seconds the joiner reads the toss panel in the ``open_toss_read`` runs."""


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
    }


def run(runs: int = RUNS) -> dict[str, Any]:
    from koikoi.ui.app import make_app
    from koikoi.ui.match.timings import Timings
    from koikoi.ui.smoke import run_lan

    app = make_app()
    kinds = (("open", "", 0.0), ("password", PASSWORD, 0.0), ("open_toss_read", "", TOSS_READ))
    spans: dict[str, list[dict[str, float]]] = {kind: [] for kind, _, _ in kinds}
    gaps: dict[str, dict[str, float]] = {kind: {} for kind, _, _ in kinds}
    busy: dict[str, dict[str, float]] = {kind: {} for kind, _, _ in kinds}
    reopened = {kind: 0 for kind, _, _ in kinds}
    for _ in range(runs):
        for kind, password, reading in kinds:
            code, why, times = run_lan(
                app, password=password, play_round=False, timings=Timings(), toss_reading=reading
            )
            if code != 0:
                raise RuntimeError(f"a {kind} room run failed: {why}")
            spans[kind].append(times.spans())
            reopened[kind] += times.reopened
            for phase, gap in times.gaps.items():
                gaps[kind][phase] = max(gaps[kind].get(phase, 0.0), round(gap * 1000, 1))
            for phase, gap in times.busy.items():
                busy[kind][phase] = max(busy[kind].get(phase, 0.0), round(gap * 1000, 1))
    result: dict[str, Any] = {"runs": runs}
    for kind, rows in spans.items():
        result[kind] = {key: _summary([row[key] for row in rows]) for key in rows[0]}
        result[kind]["largest_gap_by_phase_ms"] = gaps[kind]
        result[kind]["largest_busy_by_phase_ms"] = busy[kind]
        result[kind]["lobby_reopened"] = reopened[kind]
    return result


PLAYER = Path(__file__).resolve().parents[2] / "tests" / "app_player.py"
THINK_MS = 100
"""Each player's moment before each click in ``--processes`` runs (a person's is longer)."""
PLAYER_LIMIT = 240.0
"""Seconds one player process may take, start to match result."""


def _player(home: Path, *args: str, pace: int = 0) -> subprocess.Popen[bytes]:
    home.mkdir(parents=True)
    env = dict(
        os.environ,
        KOIKOI_HOME=str(home),
        KOIKOI_MDNS_BIND="127.0.0.1",
        PYTHONUNBUFFERED="1",
        QT_QPA_PLATFORM="offscreen",
    )
    role = args[args.index("--role") + 1]
    with (home / "out").open("wb") as out, (home / "err").open("wb") as err:
        return subprocess.Popen(
            [
                sys.executable,
                str(PLAYER),
                *args,
                *(("--pace", str(pace)) if pace else ("--think", str(THINK_MS))),
                "--timeout",
                str(_limit(pace) - 20),
            ],  # fmt: skip
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            cwd=PLAYER.parents[1],
            env=env,
            start_new_session=role == "join",
        )


def _limit(pace: int) -> float:
    """Seconds a player process may take: a match with the real animations takes minutes."""
    return PLAYER_LIMIT if not pace else PLAYER_LIMIT * 6


def _one_match(
    folder: Path, password: str, pace: int = 0
) -> dict[str, dict[str, dict[str, float]]]:
    """A host and a joiner process play a whole match; each side's stalls by phase."""
    title = f"Stall {secrets.token_hex(3)}"
    extra = ["--password", password] if password else []
    procs = {
        "host": _player(
            folder / "host", "--role", "host", "--room", title, "--seed", "1", *extra, pace=pace
        ),
        "join": _player(
            folder / "join", "--role", "join", "--room", title, "--seed", "2", *extra, pace=pace
        ),
    }
    stalls: dict[str, dict[str, dict[str, float]]] = {}
    try:
        for role, proc in procs.items():
            code = proc.wait(_limit(pace))
            out = (folder / role / "out").read_text(encoding="utf-8").strip()
            if code != 0:
                tails = "".join(
                    f"\n--- {r}:\n" + (folder / r / "err").read_text(encoding="utf-8")[-1500:]
                    for r in procs
                )
                raise RuntimeError(f"the {role} process failed: {out[-500:]}{tails}")
            stalls[role] = json.loads(out)["stalls"]
    except subprocess.TimeoutExpired:
        raise RuntimeError("a player process did not finish in time") from None
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return stalls


def run_processes(runs: int = RUNS, pace: int = 0) -> dict[str, Any]:
    """One window per process: each side's stalls by phase over ``runs`` matches of each
    kind of room; ``pace``: the app's real animations and that many milliseconds before
    each click, instead of the instant timings."""
    if not PLAYER.is_file():
        raise RuntimeError(f"--processes needs a checkout of the repository ({PLAYER} missing)")
    seen: dict[str, dict[str, dict[str, dict[str, list[float]]]]] = {}
    failed: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="koikoi-lanbench-") as tmp:
        for n in range(runs):
            for kind, password in (("open", ""), ("password", PASSWORD)):
                began = time.monotonic()
                try:
                    stalls = _one_match(Path(tmp) / f"{kind}-{n}", password, pace)
                except RuntimeError as error:  # counted and told, the other runs go on
                    print(f"lanbench: {kind} run {n + 1} failed: {error}", file=sys.stderr)
                    failed[kind] = failed.get(kind, 0) + 1
                    continue
                print(f"lanbench: {kind} run {n + 1}: {time.monotonic() - began:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
                for role, phases in stalls.items():
                    for phase, figures in phases.items():
                        row = seen.setdefault(kind, {}).setdefault(role, {}).setdefault(phase, {})
                        for key, value in figures.items():
                            row.setdefault(key, []).append(value)
    result: dict[str, Any] = {
        "runs": runs,
        "one_window_per_process": True,
        "timings": f"real, {pace} ms before each click" if pace else "instant",
        "failed": failed,
    }
    for kind, roles in seen.items():
        result[kind] = {
            role: {
                phase: {
                    key: {"median": round(statistics.median(v), 1), "max": max(v)}
                    for key, v in figures.items()
                }
                for phase, figures in phases.items()
            }
            for role, phases in roles.items()
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi.devtools.lanbench")
    parser.add_argument("--runs", type=int, default=RUNS, metavar="N", help="runs of each kind")
    parser.add_argument(
        "--processes",
        action="store_true",
        help="one window per process: two app processes play whole matches (repository checkout)",
    )
    parser.add_argument(
        "--pace",
        type=int,
        default=0,
        metavar="MS",
        help="with --processes: the app's real animations, MS before each click (minutes a match)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        runs = max(1, args.runs)
        result = run_processes(runs, max(0, args.pace)) if args.processes else run(runs)
    except RuntimeError as error:
        print(f"lanbench: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
