"""The command line of CLI.md: the scriptable face of the desktop app.

JSON goes to stdout; messages and errors to stderr. A bad argument or input gets one line
on stderr, nothing on stdout, and exit 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from koikoi import __version__

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad arguments or input: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _koikoi_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--koikoi takes a number 0-15, not {text!r}") from None
    if not 0 <= n <= 15:
        raise argparse.ArgumentTypeError(f"--koikoi takes a number 0-15, not {n}")
    return n


def _cmd_score(args: argparse.Namespace) -> int:
    from koikoi.engine.cards import UnknownCardError, parse_card
    from koikoi.engine.yaku import score

    pile = 0
    for name in args.cards:
        try:
            card = parse_card(name)
        except UnknownCardError:
            raise UsageError(f"unknown card id {name!r} (see RULES.md R1.1)") from None
        if pile >> card & 1:
            raise UsageError(f"card {name} is given twice")
        pile |= 1 << card
    _emit(score(pile, args.koikoi, not args.no_doubling).to_json())
    return EXIT_OK


def _read_input(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _cmd_replay(args: argparse.Namespace) -> int:
    from koikoi.engine.record import RecordError, replay_text

    text = _read_input(args.file)
    try:
        result = replay_text(text)
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    _emit(result)
    return EXIT_OK


def _cmd_bench(args: argparse.Namespace) -> int:
    from koikoi import bench

    result = bench.run(args.seconds)
    if args.net:
        from koikoi.net import bench as net_bench  # type: ignore[attr-defined,unused-ignore]

        result.update(net_bench.run())
    _emit(result)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="koikoi", description="Koi-Koi (花札こいこい) for two players.")
    parser.add_argument("--version", action="version", version=f"koikoi {__version__}")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="start the window offscreen, play a round against the computer, exit",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    p = sub.add_parser("score", help="score a pile of captured cards")
    p.add_argument("--koikoi", type=_koikoi_count, default=0, metavar="N")
    p.add_argument("--no-doubling", action="store_true")
    p.add_argument("cards", nargs="*", metavar="CARD_ID")
    p.set_defaults(run=_cmd_score)

    p = sub.add_parser("replay", help="replay a koikoi-record/1 file ('-' reads stdin)")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=_cmd_replay)

    p = sub.add_parser("bench", help="engine speed on one core, as JSON")
    p.add_argument("--net", action="store_true", help="add the network figures")
    p.add_argument("--seconds", type=float, default=3.0, help=argparse.SUPPRESS)
    p.set_defaults(run=_cmd_bench)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return parser


_EXTRA_COMMANDS: list[Callable[[Any], None]] = []
"""Registrars of further subcommands (simulate; host, join, rooms, verify), added below."""


def _register_optional() -> None:
    import importlib

    if _EXTRA_COMMANDS:  # once per process: main() may be called again, e.g. by tests
        return
    for module in ("koikoi.ai.cli", "koikoi.net.cli"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        _EXTRA_COMMANDS.append(mod.register)


def _start_gui(smoke_test: bool) -> int:
    if (
        sys.platform.startswith("linux")
        and not smoke_test
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("QT_QPA_PLATFORM")
    ):
        print(
            "koikoi: no display found (DISPLAY and WAYLAND_DISPLAY are unset); run it in a "
            "desktop session, or under a virtual one with 'xvfb-run koikoi'",
            file=sys.stderr,
        )
        return EXIT_FAILED
    from koikoi.ui.app import run_app

    return run_app(smoke_test=smoke_test)


def main(argv: Sequence[str] | None = None) -> int:
    _register_optional()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            return _start_gui(args.smoke_test)
        code: int = args.run(args)
        return code
    except UsageError as exc:
        print(f"koikoi: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("koikoi: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def gui_main() -> int:
    return _start_gui(smoke_test=False)
