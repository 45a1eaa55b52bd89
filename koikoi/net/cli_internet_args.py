"""The command line's options for playing across the internet (CLI.md, "Across the
internet"): ``host --internet`` and its reply codes, ``join CODE --reply-wait``. Only
argparse here: every ``koikoi`` command builds its parser, so the heavy modules they run
(:mod:`koikoi.net.cli_internet`, :mod:`koikoi.net.cli_internet_host`) load only when used."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from koikoi.net.joincode import REPLY_WAIT


def add_host_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--internet",
        action="store_true",
        help="open the room to the internet: map its port on the home router (UPnP) and "
        "print the join code to give the other player",
    )
    p.add_argument(
        "--replies",
        action="store_true",
        help="with --internet: take reply codes typed on standard input (a joiner that "
        "cannot reach the room shows one); the room then waits for one where the router "
        "maps nothing, and both sides dial each other",
    )
    # the mapping's lease in seconds, for tests (docs/protocol.md, "Port mapping")
    p.add_argument("--map-lease", type=int, default=None, help=argparse.SUPPRESS)


def add_join_arguments(p: argparse.ArgumentParser, seconds: Callable[[str], float]) -> None:
    """``seconds``: the argument type of ``--reply-wait`` (0 to an hour)."""
    p.add_argument(
        "--reply-wait",
        type=seconds,
        default=0.0,
        metavar="S",
        help=f"with CODE: when no address of the code answers, show a reply code and wait "
        f"this many seconds for the host to take it, both sides dialling ({REPLY_WAIT:g} "
        "suits a code read over the phone; default 0: give up within 10 s)",
    )
