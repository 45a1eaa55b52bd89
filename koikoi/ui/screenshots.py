"""Render the real window offscreen at set moments of a practice match, as PNG files.

    python -m koikoi.ui.screenshots docs/screenshots [--size 1024x640] [--size 1920x1080]
    python -m koikoi.ui.screenshots docs/screenshots/ja --language ja

The moments come from fixed seeds, so the pictures are the same on every run (the
computer's choices are seeded too): the start screen, the first oya, the deal, a choice
between two field cards, the keyboard on a glowing hand card, the koikoi panel, a round's
result, the match result, a teyaku, the rules and the score calculator. Without ``--size``
the window is shot at 1024×640 (a small laptop), 1280×800 and 1920×1080. Used for the
README and to look at the table while changing it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING

from koikoi.engine.cards import parse_card

if TYPE_CHECKING:
    from koikoi.ui.main_window import MainWindow

TWO_IN_HAND = b"two-matches-00000000000000000005"
TEYAKU = b"special-deal-0000000000000000002"
MATCH = b"screenshots-match-0000000000000001"
RESUME = b"screenshots-match-0000000000000000"
NET_TOSS = (
    sha256(b"screenshots toss: host").digest(),
    sha256(b"screenshots toss: joiner").digest(),
)
"""The two sides' coin-toss numbers: the same toss and deals on every run."""
CALCULATOR_PILE = (
    "matsu_crane", "sakura_curtain", "susuki_moon", "kiku_sake_cup", "hagi_boar",
    "momiji_deer", "botan_butterfly", "matsu_ribbon", "ume_ribbon", "sakura_ribbon",
)  # fmt: skip


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=_size, action="append")
    parser.add_argument(
        "--language", choices=("en", "ja"), default="en", help="the window's language (en)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sizes = args.size or [(1024, 640), (1280, 800), (1920, 1080)]
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="koikoi-shots-") as home:
        os.environ["KOIKOI_HOME"] = home
        for size in sizes:
            for path in _shoot(args.out, size, args.language):
                print(path, file=sys.stderr)
    return 0


def _rounds_played(window: MainWindow) -> int:
    m = window.controller.match
    return m.rounds_played if m is not None else 0


def _shoot(out: Path, size: tuple[int, int], language: str = "en") -> list[Path]:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from koikoi.engine.match import Settings
    from koikoi.ui import names
    from koikoi.ui.app import make_app
    from koikoi.ui.controller import Mode, Timings
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.saves import SaveStore

    app = make_app()
    names.install_translations(language)
    w, h = size
    written: list[Path] = []

    def pump(ms: int = 60) -> None:
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)

    def shot(window: MainWindow, name: str) -> None:
        pump(80)
        path = out / f"{name}-{w}x{h}.png"
        window.grab().save(str(path))
        written.append(path)

    def new_window() -> MainWindow:
        for f in Path(os.environ["KOIKOI_HOME"]).glob("**/*.json"):
            f.unlink()
        window = MainWindow(timings=Timings.instant(auto_take_ms=600_000))
        window.saves = window.controller.saves = SaveStore()
        window.resize(w, h)
        window.show()
        pump(100)
        while window.game.table.warming:
            pump(50)
        return window

    def until(window: MainWindow, done: Callable[[MainWindow], bool], rng: random.Random) -> None:
        c = window.controller
        for _ in range(3000):
            pump(5)
            if c.mode is Mode.BUSY or c._pump_timer.isActive():
                continue
            if done(window) or c.mode is Mode.MATCH_OVER:
                return
            step(window, rng)

    def step(window: MainWindow, rng: random.Random) -> None:
        c = window.controller
        if c.mode is Mode.FIRST_OYA:
            c.start_dealing()
        elif c.mode is Mode.PLAY:
            plays = c.legal_plays()
            capturing = [p for p in plays if c.matches_on_field(p)]
            c.play(rng.choice(capturing or list(plays)))
        elif c.mode is Mode.PICK:
            c.pick(c.candidates()[0])
        elif c.mode is Mode.DRAW_WAIT:
            c.continue_draw()
        elif c.mode is Mode.DECIDE and c.decision is not None:
            c.decide(c.decision.can_koikoi and c.decision.total < 7)
        elif c.mode is Mode.ROUND_OVER:
            c.next_round()

    # the start screen, with a saved match to resume
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, RESUME)
    until(window, lambda wd: _rounds_played(wd) >= 2, random.Random(1))
    window.go_home()
    shot(window, "start")
    window.close()

    # the first oya and the deal
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, TWO_IN_HAND)
    shot(window, "first-oya")
    window.controller.start_dealing()
    shot(window, "deal")
    # the keyboard on the sake cup, which glows: it can take a kiku card
    game = window.game
    cup = parse_card("kiku_sake_cup")
    for _ in range(9):
        if game.table.focus_key == cup:
            break
        game.handle_key(Qt.Key.Key_Right)
    shot(window, "keys")
    game.set_keyboard(False)
    # a choice between two: the sake cup matches two kiku cards
    window.controller.play(cup)
    shot(window, "choice")
    window.close()

    # koikoi or shobu, a round's result, the match's result
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, MATCH)
    until(window, lambda wd: wd.controller.mode is Mode.DECIDE, random.Random(2))
    shot(window, "koikoi")
    window.controller.decide(False)
    until(window, lambda wd: wd.controller.mode is Mode.ROUND_OVER, random.Random(2))
    shot(window, "round-result")
    until(window, lambda wd: wd.controller.mode is Mode.MATCH_OVER, random.Random(3))
    shot(window, "match-result")
    window.close()

    # a teyaku, and the rules
    window = new_window()
    window.start_practice(Settings(6, True), "normal", True, TEYAKU)
    until(window, lambda wd: wd.controller.mode is Mode.ROUND_OVER, random.Random(4))
    shot(window, "teyaku")
    window.show_help()
    pump(100)
    help_dialog = window._help
    if help_dialog is not None:
        path = out / "help.png"  # the dialog has its own size, whatever the window's
        help_dialog.grab().save(str(path))
        written.append(path)
        help_dialog.close()
    window.show_calculator()
    calculator = window._calculator
    if calculator is not None:  # a pile with several yaku, one koikoi called
        calculator.set_pile(sum(1 << parse_card(c) for c in CALCULATOR_PILE))
        calculator.koikoi.setValue(1)
        pump(100)
        path = out / "calculator.png"
        calculator.grab().save(str(path))
        written.append(path)
        calculator.close()
    window.controller.shutdown()
    window.close()

    # a network match: the coin toss and the table from the joiner's seat (seat 1)
    from koikoi.net.identity import Identity, KnownPeers
    from koikoi.ui.netlink import PeerOptions, QtJoin, QtRoom

    def options(name: str, secret: bytes) -> PeerOptions:
        return PeerOptions(
            Identity.generate(), name, Settings(6, True), KnownPeers(None), toss_secret=secret
        )

    host, joiner = new_window(), new_window()
    hana, taro = ("はな", "たろう") if language == "ja" else ("Hana", "Taro")
    room = QtRoom(options(hana, NET_TOSS[0]))
    room.listen("127.0.0.1", 0)
    join = QtJoin(options(taro, NET_TOSS[1]))

    def host_tossed(toss: object) -> None:
        if room.match is not None and room.match.peer is not None:
            host.start_network_match(room, room.match.peer, toss)

    room.tossed.connect(host_tossed)
    join.tossed.connect(lambda toss: joiner.start_network_match(join, join.peer, toss))
    join.connect_to("127.0.0.1", room.port)
    for _ in range(2000):
        pump(5)
        if joiner.controller.mode is Mode.FIRST_OYA and host.controller.mode is Mode.FIRST_OYA:
            break
    shot(joiner, "net-toss")
    rng = random.Random(6)
    for _ in range(6000):  # both seats play until the joiner waits for Hana mid-round
        pump(5)
        if (
            joiner.controller.waiting_since is not None
            and joiner.controller.record is not None
            and len(joiner.controller.record.deals[-1].actions) >= 9
        ):
            break
        for window in (host, joiner):
            c = window.controller
            if c.mode is not Mode.BUSY and not c._pump_timer.isActive():
                step(window, rng)
    pump(1100)  # the seconds count
    shot(joiner, "net-joiner")
    room.leave()
    for window in (host, joiner):
        window.controller.shutdown()
        window.close()
    QApplication.processEvents()
    return written


if __name__ == "__main__":
    raise SystemExit(main())
