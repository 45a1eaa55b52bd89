"""``koikoi stats``: the practice statistics as JSON (CLI.md), from ``stats.json`` in the home
folder (``$KOIKOI_HOME``, else the platform's user data folder).

No file yet is no error: the counts are zeros and the lists empty (exit 0). A damaged file
is set aside as the app does (one line on stderr naming where it went) and the statistics
start afresh (exit 0: the JSON printed is what there now is). Only a file that can neither be
read nor moved aside fails: one line on stderr, nothing on stdout, exit 1.
"""

from __future__ import annotations

import argparse

from koikoi.command import EXIT_FAILED, EXIT_OK, emit, say
from koikoi.stats.store import StatsError, StatsStore
from koikoi.stats.tally import summary


def _cmd_stats(args: argparse.Namespace) -> int:
    try:
        loaded = StatsStore().load()
    except StatsError as exc:
        say(str(exc))
        return EXIT_FAILED
    if loaded.problem:
        say(loaded.problem)
    emit(summary(loaded.entries))
    return EXIT_OK


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """``stats`` takes no arguments."""
    if name != "stats":
        raise ValueError(f"not a subcommand of this module: {name!r}")
    p.set_defaults(run=_cmd_stats)
