"""The real app in its own process, played by keys, stopping where a screen reader looks.

``python tests/atspi_app.py [--deal-seed HEX] [--seed TEXT]`` opens the window as ``koikoi``
does (``make_app``, ``MainWindow``, the data under ``$KOIKOI_HOME``) with instant timings,
starts a 6-round practice match against the computer from the start screen's Practice button
(by the keyboard: the button has the focus, Space presses it; ``--deal-seed`` fixes the
match's cards) and plays the whole match with key presses on the focused widget
(``tests/keyboard_player.py``; ``--seed`` fixes the player's choices).

Each time the game waits for the player it writes one JSON line on stdout — what a screen
reader should now find in the window: the accessible names of the hand, field and both capture
rows' cards, the panel's buttons, the focused widget's name, and ``said``, the sentences the
game has said (its log lines) since the last line —
and waits for a line on stdin before it presses the next key (``tests/test_ui_atspi.py``
reads the accessible tree over AT-SPI meanwhile). At the match result it writes a last line
with ``"done": true``, the path of the saved record and the names of the cards and yaku in
the app's language, waits for a line, and quits. On any
failure (an exception in a slot, an error logged, a timeout) it writes ``{"error": ...}``
and exits 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import select
import sys
import time
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, QSocketNotifier, Qt, QTimer
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from koikoi.engine.yaku import Yaku
from koikoi.ui.common.names import card_accessible_name, card_name, yaku_name
from koikoi.ui.match.matchview import Mode
from tests import keyboard_player
from tests.ui_driver import (
    FAST,
    ProcessBot,
    describe,
    wait_for_input,
)


class _Problems(logging.Handler):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.problems = problems

    def emit(self, record: logging.LogRecord) -> None:
        self.problems.append(f"logged: {record.getMessage()}")


def say(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def wait_for_go(bot: ProcessBot) -> None:
    """Wait for the test's line on stdin with Qt's loop running: the app answers the screen
    reader's questions over D-Bus meanwhile."""
    if not select.select([sys.stdin], [], [], 0)[0]:
        loop = QEventLoop()
        notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
        notifier.activated.connect(loop.quit)
        QTimer.singleShot(max(0, int((bot.deadline - time.monotonic()) * 1000)), loop.quit)
        loop.exec()  # not QTest.qWait, which sleeps between its rounds of events
        notifier.setEnabled(False)
    bot.wait(0)  # out of time?
    if not sys.stdin.readline():
        raise SystemExit("the test went away")


def checkpoint(window: Any, said: list[str], told: int) -> dict[str, Any]:
    """What a screen reader should find in the window now."""
    model = window.game.table.model
    panel = window.game.overlay.panel if window.game.overlay.isVisible() else None
    buttons = (
        [b.accessibleName() or b.text() for b in panel.findChildren(QPushButton) if b.isVisible()]
        if panel is not None
        else []
    )
    focus = QApplication.focusWidget()
    prompt = window.game.prompt
    side = window.game.side
    return {
        "mode": window.controller.mode.value,
        "hand": [card_accessible_name(c) for c in model.hand],
        "field": [card_accessible_name(c) for c in model.field if c is not None],
        "captured": [[card_accessible_name(c) for c in pile] for pile in model.captured],
        "me": window.controller.me,
        "buttons": buttons,
        "focus": focus.accessibleName() if focus is not None else None,
        "prompt": prompt.text() if prompt.isVisible() else "",
        "stakes": [box.stake.accessibleName() for box in (side.me, side.them)],
        "unit": side.me.tr("points"),
        "said": said[told:],
    }


def catalogue() -> dict[str, Any]:
    """The names of cards and yaku in the app's language, for the test to look for."""
    return {
        "cards": [card_name(c) for c in range(48)],
        "yaku": {y.value: yaku_name(y) for y in Yaku},
    }


def run(args: argparse.Namespace, problems: list[str]) -> int:
    from koikoi.ui.app import make_app
    from koikoi.ui.main_window import MainWindow

    app = make_app(["koikoi"])
    bot = ProcessBot(time.monotonic() + args.timeout, problems)
    window = MainWindow(timings=FAST)
    window.resize(1280, 800)
    window.show()
    bot.waitExposed(window)
    window.activateWindow()
    said: list[str] = []
    window.controller.said.connect(said.append)
    if args.deal_seed:  # the start screen's settings, with cards the test can repeat
        seed = bytes.fromhex(args.deal_seed)
        window.start.on_practice = lambda settings, level, assist: window.start_practice(
            settings, level, assist, seed
        )
    # the start screen, by the keyboard: Practice has the focus; Space presses it
    start: QWidget = window.start.practice_button
    bot.waitUntil(lambda: QApplication.focusWidget() is not None)
    if not start.hasFocus():
        raise AssertionError(f"the start screen opens with {QApplication.focusWidget()!r} focused")
    keyboard_player.key(
        bot, window, Qt.Key.Key_Space, lambda: window.stack.currentWidget() is window.game
    )
    rng = random.Random(args.seed or "atspi")
    told = 0
    for _ in range(3000):
        wait_for_input(bot, window)
        say(checkpoint(window, said, told))
        told = len(said)
        wait_for_go(bot)
        if window.controller.mode is Mode.MATCH_OVER:
            say({"done": True, "record": _record_path(window), **catalogue()})
            wait_for_go(bot)
            window.controller.shutdown()
            window.close()
            app.processEvents()
            return 0
        goes_on = keyboard_player.goes_on(window)
        keyboard_player.step(bot, window, rng, koikoi_rate=0.5)
        try:
            bot.waitUntil(goes_on, timeout=10_000)
        except TimeoutError as exc:
            raise AssertionError(f"no progress: {describe(window)}") from exc
    raise AssertionError("too many steps")


def _record_path(window: Any) -> str:
    folder = window.saves.directory / "games"  # a finished match's record (not stats.json)
    kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
    return str(kept[-1]) if kept else ""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", default="", help="the player's choices")
    parser.add_argument("--deal-seed", default="", help="the match's seed (hex), else random")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    problems: list[str] = []
    logging.getLogger().addHandler(_Problems(problems))

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        problems.append(f"{kind.__name__} in a slot: {exc}")
        traceback.print_exception(kind, exc, tb)

    sys.excepthook = hook
    try:
        return run(args, problems)
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        say({"error": f"{type(exc).__name__}: {exc}", "problems": problems[:3]})
        return 1


if __name__ == "__main__":
    sys.exit(main())
