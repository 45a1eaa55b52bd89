"""``koikoi simulate``: computer-versus-computer matches, as JSON (CLI.md)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from koikoi.ai import PLAYERS
from koikoi.command import whole_number


def _rounds(text: str) -> int:
    if text not in ("6", "12"):
        raise argparse.ArgumentTypeError(f"--rounds is 6 or 12, not {text!r}")
    return int(text)


def _player(text: str) -> str:
    """A player name (argparse names the flag in its message)."""
    if text not in PLAYERS:
        raise argparse.ArgumentTypeError(
            f"unknown player {text!r} (choose from {', '.join(PLAYERS)})"
        )
    return text


def _cmd_simulate(args: argparse.Namespace) -> int:
    from koikoi.ai.simulate import SimulationSpec, simulate
    from koikoi.engine.match import Settings

    seed = args.seed if args.seed is not None else str(secrets.randbelow(10**9))
    spec = SimulationSpec(
        a=args.a,
        b=args.b,
        games=args.games,
        settings=Settings(rounds=args.rounds, doubling=not args.no_doubling),
        seed=seed,
        playouts=args.playouts or 0,
    )
    result = simulate(spec, jobs=args.jobs)
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``simulate``."""
    if name != "simulate":
        raise ValueError(f"not a subcommand of this module: {name!r}")
    p.description = "Play AI-versus-AI matches and print statistics as JSON (CLI.md)."
    p.add_argument("--a", required=True, type=_player, metavar="NAME")
    p.add_argument("--b", required=True, type=_player, metavar="NAME")
    p.add_argument("--games", required=True, type=whole_number("--games", 1), metavar="N")
    p.add_argument("--rounds", type=_rounds, default=6, metavar="6|12")
    p.add_argument("--no-doubling", action="store_true")
    p.add_argument("--seed", default=None, metavar="S", help="make the run reproducible (any text)")
    p.add_argument(
        "--jobs", type=whole_number("--jobs", 1), default=1, metavar="J", help="processes to use"
    )
    p.add_argument(
        "--playouts",
        type=whole_number("--playouts", 1),
        default=None,
        metavar="P",
        help="search budget per decision for players that search (default: the app's)",
    )
    p.set_defaults(run=_cmd_simulate)
