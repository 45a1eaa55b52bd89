"""``koikoi view RECORD``: the record read and checked (:mod:`koikoi.ui.replay.history`, no Qt; a
bad one is one line and exit 2, as ``replay``), and only then the replay viewer's window
(:mod:`koikoi.ui.replay.viewer`, started by :func:`koikoi.ui.app.run_view`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from koikoi.command import EXIT_FAILED
from koikoi.ui.replay.history import load


def _no_display(smoke_test: bool) -> str | None:
    """The line ``koikoi`` itself prints on Linux without a display (the smoke test runs
    offscreen and needs none)."""
    if (
        sys.platform.startswith("linux")
        and not smoke_test
        and not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))
    ):
        return (
            "koikoi: no display found (DISPLAY and WAYLAND_DISPLAY are unset); run it in a "
            "desktop session, or under a virtual one with 'xvfb-run koikoi view RECORD'"
        )
    return None


def _cmd_view(args: argparse.Namespace) -> int:
    data, replayed = load(args.record)
    if (problem := _no_display(args.smoke_test)) is not None:
        print(problem, file=sys.stderr)
        return EXIT_FAILED
    from koikoi.ui.app import run_view

    return run_view(data, replayed, Path(args.record).name, smoke_test=args.smoke_test)


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``view``."""
    if name != "view":
        raise ValueError(f"not a subcommand of this module: {name!r}")
    p.add_argument("record", metavar="RECORD", help="a koikoi-record/1 file ('-' reads stdin)")
    p.add_argument(
        "--smoke-test",
        action="store_true",
        help="step offscreen from the first move to the last and back, checking each, exit",
    )
    p.set_defaults(run=_cmd_view)
