"""How soon the coach's hint comes: ``python -m koikoi.devtools.hintbench [--hints N]``.

Random matches are played in this process; at each of the first seat's moves and koikoi
decisions the hint is asked as the window asks it (:class:`~koikoi.ui.match.coach.CoachRunner`:
the computer's helper process, the search capped at
:data:`~koikoi.ui.match.coach.CAP_SECONDS`), and timed from the ask to the ranking back on
the UI thread. Figures, in milliseconds: ``ms_p50``, ``ms_p95``, ``ms_max`` (the goal is a
hint shown within 500 ms), over ``hints`` hints; ``first_ms`` is the first one, which starts
the helper process (not counted above). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hints", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

    from koikoi.engine.match import Match, Observation, Settings
    from koikoi.ui.match.ai_worker import stop_helper
    from koikoi.ui.match.coach import CoachRunner

    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    runner = CoachRunner()
    rng = random.Random(args.seed)
    loop = QEventLoop()
    limit = QTimer()
    limit.setSingleShot(True)
    limit.timeout.connect(loop.quit)
    got: list[object] = []

    def advised(_obs: object, ranked: object) -> None:
        got.append(ranked)
        loop.quit()

    runner.advised.connect(advised)

    def ask(obs: Observation) -> float:
        got.clear()
        start = time.perf_counter()
        runner.ask(obs, random.Random(rng.random()))
        limit.start(10_000)
        loop.exec()
        limit.stop()
        if not got:
            raise SystemExit("no hint within 10 s")
        return (time.perf_counter() - start) * 1000

    times: list[float] = []
    first: float | None = None
    while len(times) < args.hints:
        match = Match(Settings())
        order = list(range(48))
        rng.shuffle(order)
        match.deal(order)
        while match.round is not None and not match.round.over and len(times) < args.hints:
            seat = match.round.turn
            obs = match.observation(seat)
            if seat == 0 and len(obs.legal_actions) > 1:
                took = ask(obs)
                if first is None:
                    first = took
                else:
                    times.append(took)
            match.apply(rng.choice(obs.legal_actions))
    stop_helper()
    del app
    times.sort()
    print(
        json.dumps(
            {
                "hints": len(times),
                "ms_p50": round(statistics.median(times), 1),
                "ms_p95": round(times[int(0.95 * (len(times) - 1))], 1),
                "ms_max": round(times[-1], 1),
                "first_ms": round(first or 0.0, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
