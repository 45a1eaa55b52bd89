"""The command line of CLI.md: the scriptable face of the desktop app.

JSON goes to stdout; messages and errors to stderr. A bad argument or input gets one line
on stderr, nothing on stdout, and exit 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Final, NamedTuple, NoReturn

from koikoi import __version__
from koikoi.command import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    emit,
    positive_seconds,
    read_input,
    whole_number,
)


class Subcommand(NamedTuple):
    """Where a subcommand lives: ``module.configure(name, parser)`` adds its arguments and
    ``run``; the module is imported only when this subcommand is on the command line."""

    module: str
    help: str


SUBCOMMANDS: Final[dict[str, Subcommand]] = {
    "score": Subcommand("koikoi.cli", "score a pile of captured cards"),
    "replay": Subcommand("koikoi.cli", "replay a koikoi-record/1 file ('-' reads stdin)"),
    "bench": Subcommand("koikoi.cli", "engine speed on one core, as JSON"),
    "simulate": Subcommand(
        "koikoi.ai.cli", "computer-versus-computer matches, with win rates and decision times"
    ),
    "host": Subcommand(
        "koikoi.net.cli",
        "open a room and play one network match with a computer player in the seat",
    ),
    "join": Subcommand(
        "koikoi.net.cli",
        "join a room at HOST:PORT and play its match with a computer player in the seat",
    ),
    "rooms": Subcommand(
        "koikoi.net.cli", "list the rooms on the LAN (mDNS), one JSON object per line"
    ),
    "verify": Subcommand(
        "koikoi.net.cli",
        "check a network match's signed record: bytes, chain, signatures, hashes, moves",
    ),
    "view": Subcommand(
        "koikoi.ui.replay.viewcmd", "open the replay viewer on a koikoi-record/1 file"
    ),
    "stats": Subcommand(
        "koikoi.stats.cli", "the practice statistics (matches against the computer) as JSON"
    ),
}
"""Every subcommand, in the order ``koikoi --help`` lists them (one entry each)."""

__all__ = ["SUBCOMMANDS", "main"]


ENVIRONMENT: Final = """environment:
  KOIKOI_HOME       the folder of the identity key, the pinned peers, the saved games
                    and the practice statistics
  KOIKOI_MDNS_BIND  an IP address of this machine: the app's lobby finds and announces
                    rooms on that interface only; KOIKOI_MDNS_BIND=127.0.0.1 finds rooms
                    over loopback (two apps on one machine). The commands take --bind.
  KOIKOI_SOUND      0: the app never opens the audio device; 1: it does even offscreen
                    (where it otherwise plays no sound)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


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
    emit(score(pile, args.koikoi, not args.no_doubling).to_json())
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    from koikoi.engine.record import RecordError, replay_text

    text = read_input(args.file)
    try:
        result = replay_text(text)
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    emit(result)
    return EXIT_OK


def _cmd_bench(args: argparse.Namespace) -> int:
    from koikoi import bench

    result = bench.run(args.seconds)
    if args.net:
        from koikoi.net import bench as net_bench

        result.update(net_bench.run())
    emit(result)
    return EXIT_OK


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``score``, ``replay`` and ``bench`` (the engine's subcommands)."""
    if name == "score":
        p.add_argument("--koikoi", type=whole_number("--koikoi", 0, 15), default=0, metavar="N")
        p.add_argument("--no-doubling", action="store_true")
        p.add_argument("cards", nargs="*", metavar="CARD_ID")
        p.set_defaults(run=_cmd_score)
    elif name == "replay":
        p.add_argument("file", metavar="FILE")
        p.set_defaults(run=_cmd_replay)
    elif name == "bench":
        p.add_argument("--net", action="store_true", help="add the network figures")
        p.add_argument(
            "--seconds", type=positive_seconds("--seconds"), default=3.0, help=argparse.SUPPRESS
        )
        p.set_defaults(run=_cmd_bench)
    else:
        raise ValueError(f"not a subcommand of this module: {name!r}")


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line: its first word that is not an option (the
    top-level options take no value)."""
    for arg in argv:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg if arg in SUBCOMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``koikoi`` parser, with the arguments of ``command`` only (its module is imported
    here); every other subcommand is listed with its help but not loaded."""
    parser = _Parser(
        prog="koikoi",
        description="Koi-Koi (花札こいこい) for two players.",
        epilog=ENVIRONMENT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"koikoi {__version__}")
    parser.add_argument(
        "--smoke-test",
        nargs="?",
        const="practice",
        default=None,
        choices=("practice", "lan"),
        metavar="lan",
        help="start the window offscreen, play a round against the computer, exit; 'lan': "
        "two windows meet by mDNS on 127.0.0.1 and play a round against each other",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name, entry in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=entry.help)
        if name == command:
            importlib.import_module(entry.module).configure(name, p)
    return parser


def _start_gui(smoke_test: str | None) -> int:
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

    return run_app(smoke_test=smoke_test or False)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    try:
        parser = build_parser(_command_in(argv))
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
    return _start_gui(smoke_test=None)
