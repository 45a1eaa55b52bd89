"""The compiled engine against the source engine, over random rounds: identical or not.

    python -m koikoi.devtools.engine_diff --rounds 1000000 [--seed S] [--chunk C]

Plays the same random rounds in two processes, one running the engine from source
(``KOIKOI_PURE_ENGINE=1``) and one its compiled core (koikoi/engine/compiled.py), and
compares everything the engine says of each round: every legal-action list, the events of
every action through the checked door (``Round.apply``), the state after the same action
through the fast door (``Round.push``) and in a ``copy()``, the rule a random action breaks
(``Round.check``), and at the end the result, each pile's yaku, points and the cards of each
yaku. Each round's random choices come from its own seed, so any chunk can be played again
alone: where two chunks' digests differ, that chunk is played again with every line written
out, and the first line that differs is named. Prints one JSON object; exit 0 when every
round was identical, 1 when one was not or the compiled core is not there to compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from koikoi.engine.cards import NUM_CARDS
from koikoi.engine.compiled import PURE_ENV, in_use
from koikoi.engine.deck import deal_from_order
from koikoi.engine.round import SHOBU, IllegalAction, Round
from koikoi.engine.yaku import base_points, score, yaku_cards

ROOT = Path(__file__).resolve().parent.parent.parent


def _state(r: Round) -> tuple[object, ...]:
    return (
        tuple(r.hands),
        r.field,
        tuple(r.captured),
        r.stock_pos,
        r.turn,
        int(r.phase),
        r.pending,
        tuple(r.baselines),
        tuple(r.totals),
        r.koikoi_count,
        tuple(r.koikoi_calls),
        r.over,
        r.result,
    )


def _probe(r: Round, action: int, seat: int | None) -> str:
    try:
        r.check(action, seat)
    except IllegalAction as exc:
        return exc.rule
    return "legal"


def transcript(seed: int, index: int, flip: bool = False) -> Iterator[str]:
    """Every line the engine gives for round ``index`` of ``seed``. ``flip`` plays one choice
    differently (the last legal action once), as a differing engine would: the tests make
    sure the comparison sees it."""
    rng = random.Random(f"{seed}:{index}")
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    oya = rng.randrange(2)
    doubling = rng.random() < 0.8
    r = Round(deal_from_order(order, oya), oya, doubling)
    fast = Round(deal_from_order(order, oya), oya, doubling)
    yield repr((index, oya, doubling, r.dealt_hands, r.field, _state(r)))
    step = 0
    while True:
        actions = r.legal_actions()
        yield repr((actions, fast.legal_actions()))
        probe = rng.randrange(SHOBU + 2)
        yield _probe(r, probe, None) + " " + _probe(r, probe, rng.randrange(2))
        if r.over:
            break
        action = actions[-1] if flip and step == 3 else actions[rng.randrange(len(actions))]
        yield repr(r.apply(action, r.turn))
        fast.push(action)
        yield repr((_state(fast), _state(r.copy())))
        step += 1
    yield repr(r.result)
    for pile in r.captured:
        yield repr((base_points(pile), score(pile, r.koikoi_count, doubling), yaku_cards(pile)))


def play(seed: int, start: int, rounds: int, chunk: int, flip: int, out: Any) -> None:
    """The child's part: one line per chunk, ``first_round digest``; lines whole on --trace."""
    print(json.dumps({"compiled": in_use()}), file=out, flush=True)
    for first in range(start, start + rounds, chunk):
        h = hashlib.sha256()
        for index in range(first, min(first + chunk, start + rounds)):
            for line in transcript(seed, index, flip=index == flip):
                h.update(line.encode())
                h.update(b"\n")
        print(first, h.hexdigest(), file=out)


def trace(seed: int, start: int, rounds: int, flip: int, out: Any) -> None:
    print(json.dumps({"compiled": in_use()}), file=out)
    for index in range(start, start + rounds):
        for line in transcript(seed, index, flip=index == flip):
            print(index, line, file=out)


def _children(args: list[str], flip: int) -> tuple[list[str], list[str], float, float]:
    """Run the child in both engines at once; their output lines and seconds."""
    procs = []
    with tempfile.TemporaryDirectory() as tmp:
        for pure, name in ((True, "pure"), (False, "compiled")):
            env = {**os.environ, PURE_ENV: "1" if pure else "0"}
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
            )
            extra = [] if pure or flip < 0 else ["--flip", str(flip)]
            path = Path(tmp) / name
            f = path.open("w")
            cmd = [sys.executable, "-m", "koikoi.devtools.engine_diff", *args, *extra]
            procs.append((subprocess.Popen(cmd, env=env, stdout=f), f, path, time.monotonic()))
        took = [0.0, 0.0]
        while not all(took):
            for i, (proc, _, _, started) in enumerate(procs):
                if not took[i] and proc.poll() is not None:
                    took[i] = time.monotonic() - started
            time.sleep(0.02)
        results = []
        for (proc, f, path, _), seconds in zip(procs, took, strict=True):
            f.close()
            if proc.returncode != 0:
                raise SystemExit(f"engine_diff: a child exited {proc.returncode}")
            results.append((path.read_text().splitlines(), seconds))
    (pure_lines, pure_s), (compiled_lines, compiled_s) = results
    return pure_lines, compiled_lines, pure_s, compiled_s


def compare(rounds: int, seed: int = 1, chunk: int = 1000, flip: int = -1) -> dict[str, Any]:
    """Play ``rounds`` rounds in both engines and compare; the report (``identical``)."""
    common = ["--seed", str(seed), "--chunk", str(chunk)]
    pure, compiled, pure_s, compiled_s = _children(
        ["--play", "--start", "0", "--rounds", str(rounds), *common], flip
    )
    report: dict[str, Any] = {
        "rounds": rounds,
        "seed": seed,
        "chunks": len(pure) - 1,
        "pure_seconds": round(pure_s, 1),
        "compiled_seconds": round(compiled_s, 1),
    }
    engines = json.loads(pure[0])["compiled"], json.loads(compiled[0])["compiled"]
    if engines != (False, True):
        report["identical"] = False
        report["error"] = "the compiled core is not built here (python packaging/accel.py)"
        return report
    differing = [a for a, b in zip(pure[1:], compiled[1:], strict=True) if a != b]
    report["identical"] = not differing
    if differing:
        first = int(differing[0].split()[0])
        n = min(chunk, rounds - first)
        a, b, _, _ = _children(
            ["--trace", "--start", str(first), "--rounds", str(n), *common], flip
        )
        for line_a, line_b in zip(a[1:], b[1:], strict=False):
            if line_a != line_b:
                report["round"] = int(line_a.split()[0])
                report["pure"] = line_a.partition(" ")[2]
                report["compiled"] = line_b.partition(" ")[2]
                break
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--flip", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        play(args.seed, args.start, args.rounds, args.chunk, args.flip, sys.stdout)
        return 0
    if args.trace:
        trace(args.seed, args.start, args.rounds, args.flip, sys.stdout)
        return 0
    started = time.monotonic()
    report = compare(args.rounds, args.seed, args.chunk, args.flip)
    report["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(report))
    return 0 if report["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
