"""How live the window stays while it plays on the network: ``python -m koikoi.devtools.netbench``.

A :class:`~koikoi.ui.net.netlink.room.QtRoom` and a :class:`~koikoi.ui.net.netlink.join.QtJoin`
connect over loopback in this process, on the one Qt thread, while a 10 ms ``QTimer`` ticks;
each run goes from the joiner's connect to both sides' first deal, open room and password
room. Figures:

- ``first_deal_ms``: the joiner's connect → its first deal laid out (TCP, hellos, SPAKE2 in a
  password room, Noise XXpsk3, signatures, coin toss, the deal), median over the runs;
- ``largest_gap_ms``: the longest wait between two ticks of the 10 ms timer in any run — how
  long the UI thread was busy at once (goal: under 100 ms). Both ends run on this thread,
  so each one's handshake counts against it: an upper bound for the one end a window runs;
- ``gap_p50_ms``: the median over the runs of each run's longest gap;
- ``cold_first_deal_ms``, ``cold_gap_ms``: the same for the first run of its kind in the
  process (not counted above), which pays for first uses: the password room runs first, so
  its cold run is the process's first handshake of all (the worst case of a window).

``--dealing private`` offers what the app offers (:data:`~koikoi.ui.net.netlink.base.APP_DEALINGS`):
the first deal is then dealt privately (SRA, both ends' shuffles and keys on this thread)
before it is laid out; the default, ``seed``, deals it from the joint seed.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QElapsedTimer, QEventLoop, QObject, QTimer

from koikoi.engine.match import Settings
from koikoi.net.hello import SEED_ONLY
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.transport.options import PeerOptions
from koikoi.ui.net.netlink.base import APP_DEALINGS
from koikoi.ui.net.netlink.join import QtJoin
from koikoi.ui.net.netlink.room import QtRoom

PASSWORD = "matsu ni tsuru"
RUNS = 15


class _Meter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.clock = QElapsedTimer()
        self.last = 0
        self.largest = 0

    def start(self) -> None:
        self.clock.start()
        self.last = 0
        self.timer.start()

    def _tick(self) -> None:
        now = self.clock.nsecsElapsed()
        self.largest = max(self.largest, now - self.last)
        self.last = now

    def stop(self) -> float:
        self._tick()
        self.timer.stop()
        return self.largest / 1e6


def _options(name: str, password: str, dealings: tuple[str, ...] = SEED_ONLY) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        password=password,
        dealings=dealings,
    )


def _wait(loop: QEventLoop, done: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError("the handshake did not finish in time")
        loop.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


def one_run(password: str, dealings: tuple[str, ...] = SEED_ONLY) -> tuple[float, float]:
    """(connect → first deal on the joiner, largest timer gap), in milliseconds."""
    loop = QEventLoop()
    room = QtRoom(_options("hana", password, dealings))
    room.listen("127.0.0.1", 0)
    join = QtJoin(_options("taro", password, dealings))
    tossed: list[object] = []
    room.tossed.connect(tossed.append)
    join.tossed.connect(tossed.append)
    meter = _Meter()
    meter.start()
    join.connect_to("127.0.0.1", room.port)
    _wait(loop, lambda: len(tossed) == 2, 30)
    gap = meter.stop()
    first_deal = (join.times["first_deal"] - join.times["connect"]) * 1000
    closed: list[bool] = []
    room.closed.connect(lambda: closed.append(True))
    join.closed.connect(lambda: closed.append(True))
    room.leave()
    _wait(loop, lambda: len(closed) == 2, 10)
    room.deleteLater()
    join.deleteLater()
    return first_deal, gap


def run(runs: int = RUNS, dealings: tuple[str, ...] = SEED_ONLY) -> dict[str, Any]:
    result: dict[str, Any] = {
        "runs": runs,
        "dealing": "private" if "private" in dealings else "seed",
    }
    for label, password in (("password", PASSWORD), ("open", "")):
        cold = one_run(password, dealings)  # the first of its kind here: first-use costs
        figures = [one_run(password, dealings) for _ in range(runs)]
        result[label] = {
            "cold_first_deal_ms": round(cold[0], 1),
            "cold_gap_ms": round(cold[1], 1),
            "first_deal_ms": round(statistics.median(f[0] for f in figures), 1),
            "largest_gap_ms": round(max(f[1] for f in figures), 1),
            "gap_p50_ms": round(statistics.median(f[1] for f in figures), 1),
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi.devtools.netbench")
    parser.add_argument("--runs", type=int, default=RUNS, metavar="N")
    parser.add_argument("--dealing", choices=("seed", "private"), default="seed")
    args = parser.parse_args(argv)
    import koikoi.ui  # noqa: F401  (its guard for PySide6 6.12 first)

    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    result = run(max(1, args.runs), APP_DEALINGS if args.dealing == "private" else SEED_ONLY)
    del app
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
