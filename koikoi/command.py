"""What every ``koikoi`` subcommand shares (CLI.md): exit codes, bad input, JSON out, input.

A subcommand lives in its own module (see ``SUBCOMMANDS`` in :mod:`koikoi.cli`), which
imports this one and never :mod:`koikoi.cli`, so the command line loads a subcommand's
module only when that subcommand runs.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import Any, Final

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2


class UsageError(Exception):
    """Bad arguments or input: one line on stderr, nothing on stdout, exit 2."""


def emit(data: Any) -> None:
    """One JSON document on a line of stdout: its text as it is where stdout can write it,
    else with ``\\u`` escapes (the same JSON), as for a lone surrogate that a record's
    ``"\\ud800"`` gave a name."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def say(line: str) -> None:
    """One line for the user on stderr."""
    print(f"koikoi: {line}", file=sys.stderr, flush=True)


def read_input(path: str) -> str:
    """The UTF-8 text of ``path`` (``-`` is stdin), without the byte order mark some editors
    write first (RFC 8259 8.1 lets a reader ignore it); a :class:`UsageError` when
    unreadable."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
        return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


_WHOLE: Final = re.compile(r"-?[0-9]+")


def whole_number(flag: str, low: int, high: int | None = None) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` written in plain digits
    (``int()`` would also take ``1_0``, ``+3``, `` 3`` and other scripts' digits)."""
    span = f"{low}-{high}" if high is not None else f"of {low} or more"

    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text) or len(text) > 20:
            raise argparse.ArgumentTypeError(f"{flag} takes a whole number, not {text!r}")
        n = int(text)
        if n < low or (high is not None and n > high):
            raise argparse.ArgumentTypeError(f"{flag} takes a number {span}, not {n}")
        return n

    return parse


def positive_seconds(flag: str) -> Any:
    """An argparse type: a finite number of seconds above 0."""

    def parse(text: str) -> float:
        try:
            seconds = float(text)
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds) or seconds <= 0:
            raise argparse.ArgumentTypeError(f"{flag} takes seconds above 0, not {text!r}")
        return seconds

    return parse
