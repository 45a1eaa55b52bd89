"""Render the learning windows and the display options offscreen, as PNG files.

    python -m koikoi.devtools.learn_screenshots docs/screenshots
    python -m koikoi.devtools.learn_screenshots docs/screenshots/ja --language ja

The rules with pictures, the card gallery and the glossary at a small screen's size
(960×640) and a large one (1920×1080); the display dialog; and high contrast on the start
screen, the rules and the table (large cards, reading aids off). Used to look at these
windows while changing them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

MATCH = b"screenshots-match-0000000000000001"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--language", choices=("en", "ja"), default="en", help="the windows' language (en)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="koikoi-learn-shots-") as home:
        os.environ["KOIKOI_HOME"] = home
        for path in _shoot(args.out, args.language):
            print(path, file=sys.stderr)
    return 0


def _shoot(out: Path, language: str = "en") -> list[Path]:
    from PySide6.QtWidgets import QApplication, QWidget

    from koikoi.engine.match import Settings
    from koikoi.engine.yaku import Yaku
    from koikoi.ui.app import make_app
    from koikoi.ui.common import names
    from koikoi.ui.common.settings import DisplayOptions
    from koikoi.ui.main_window import MainWindow
    from koikoi.ui.match.matchview import Mode
    from koikoi.ui.match.timings import Timings

    app = make_app()
    names.install_translations(language)
    written: list[Path] = []

    def pump(ms: int = 80) -> None:
        end = time.monotonic() + ms / 1000
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.005)

    def shot(widget: QWidget, name: str) -> None:
        pump()
        path = out / f"{name}.png"
        widget.grab().save(str(path))
        written.append(path)

    window = MainWindow(timings=Timings.instant(auto_take_ms=600_000))
    window.resize(1280, 800)
    window.show()
    pump(150)
    for (w, h), dialog_size in (((960, 640), (940, 600)), ((1920, 1080), (1500, 1000))):
        size = f"{w}x{h}"
        window.show_help("rules")
        help_ = window._help
        assert help_ is not None
        help_.resize(*dialog_size)
        shot(help_, f"learn-rules-{size}")
        rules = help_.rules
        rules.contents.setCurrentRow(1 + list(Yaku).index(Yaku.INOSHIKACHO))
        shot(help_, f"learn-rules-yaku-{size}")
        rules.contents.setCurrentRow(len(rules.sections) - 1)
        shot(help_, f"learn-rules-nintendo-{size}")
        help_.show_page("cards")
        help_.gallery.contents.setCurrentRow(0)
        shot(help_, f"learn-cards-{size}")
        help_.show_page("glossary")
        shot(help_, f"learn-glossary-{size}")
    window.show_display()
    dialog = window._display_dialog
    assert dialog is not None
    shot(dialog, "display-options")
    window.apply_display(DisplayOptions(high_contrast="on"))
    dialog.set_options(window.display)
    shot(dialog, "display-options-high-contrast")
    shot(window, "high-contrast-start-1280x800")
    window.show_help("rules")
    help_ = window._help
    assert help_ is not None
    shot(help_, "high-contrast-rules")
    help_.close()
    dialog.close()
    window.apply_display(
        DisplayOptions(reading_aids=False, card_size="large", high_contrast="on"), save=False
    )
    window.start_practice(Settings(6, True), "normal", True, MATCH)
    for _ in range(400):
        pump(10)
        if window.controller.mode is Mode.FIRST_OYA:
            window.controller.start_dealing()
        elif window.controller.mode is Mode.PLAY:
            break
    shot(window, "high-contrast-table-large-no-aids-1280x800")
    window.controller.shutdown()
    window.close()
    QApplication.processEvents()
    return written


if __name__ == "__main__":
    raise SystemExit(main())
