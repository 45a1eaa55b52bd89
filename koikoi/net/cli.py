"""``koikoi host``, ``koikoi join`` and ``koikoi verify`` (CLI.md): network play from the shell.

A computer player sits in the local seat (``--bot``). The final result goes to stdout as the
``koikoi replay`` JSON; progress and the reason of an early end go to stderr. Exit 0: the
match finished; 1: it ended early (the peer left, the connection dropped, a cheat, a refused
handshake); 2: bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import signal
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from koikoi.command import EXIT_OK, UsageError, emit, read_input, say
from koikoi.engine.match import Settings
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.handshake import MAX_NICKNAME
from koikoi.net.roles import Role
from koikoi.net.session import DEFAULT_SILENCE_TIMEOUT, TossDone
from koikoi.net.transport import Outcome, PeerOptions, Room, ThreadedSeat, join
from koikoi.paths import atomic_write, games_dir

EXIT_EARLY = 1
DEFAULT_BOT = "normal"
LEAVE_GRACE = 5.0
"""Seconds a stopped host waits for its match to wind down (the goodbye, the record)."""


# --- arguments -----------------------------------------------------------------------------


def _rounds(text: str) -> int:
    if text not in ("6", "12"):
        raise argparse.ArgumentTypeError(f"--rounds is 6 or 12, not {text!r}")
    return int(text)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--port takes a number 0-65535, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"--port takes a number 0-65535, not {port}")
    return port


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timeout takes seconds, not {text!r}") from None
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"--timeout takes 0.1 to 3600 seconds, not {text}")
    return value


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for an IPv6 address) as (host, port).

    >>> parse_address("127.0.0.1:4000"), parse_address("[::1]:80")
    (('127.0.0.1', 4000), ('::1', 80))
    """
    host, sep, port_text = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise UsageError(f"join needs HOST:PORT with a port 1-65535, not {text!r}")
    return host, int(port_text)


def _default_nickname() -> str:
    try:
        name = getpass.getuser()
    except (OSError, KeyError):
        name = ""
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NICKNAME]
    return name or "player"


def _read_password(path: str | None) -> str:
    if path is None:
        return ""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the password file is not UTF-8 text") from None
    except OSError as error:
        raise UsageError(
            f"cannot read the password file {path}: {error.strerror or error}"
        ) from None
    for ending in ("\r\n", "\n"):
        if text.endswith(ending):
            text = text[: -len(ending)]
            break
    if not text:
        raise UsageError(f"the password file {path} is empty")
    return text


def _options(args: argparse.Namespace) -> PeerOptions:
    from koikoi.net.errors import IdentityFileError, ProtocolError
    from koikoi.net.identity import KnownPeers, load_or_create_identity
    from koikoi.net.wire import Str

    nickname = args.name if args.name is not None else _default_nickname()
    try:
        Str(max_len=MAX_NICKNAME, min_len=1).check(nickname, "--name")
    except ProtocolError as error:
        raise UsageError(str(error)) from None
    password = _read_password(args.password_file)
    if args.record is not None:
        parent = Path(args.record).resolve().parent
        if not parent.is_dir():
            raise UsageError(f"--record {args.record}: the folder {parent} does not exist")
    try:
        identity = load_or_create_identity()
        known_peers = KnownPeers.load()
    except IdentityFileError as error:
        raise UsageError(str(error)) from None
    return PeerOptions(
        identity=identity,
        nickname=nickname,
        settings=Settings(rounds=args.rounds, doubling=not args.no_doubling),
        known_peers=known_peers,
        password=password,
        silence_timeout=args.timeout,
    )


def _bot(name: str) -> ThreadedSeat:
    from koikoi.ai import Budget, UnknownPlayer
    from koikoi.ai.seat import bot_seat

    stop = threading.Event()
    try:
        seat = bot_seat(name, budget=Budget(stop=stop.is_set))
    except UnknownPlayer as error:
        raise UsageError(f"--bot: {error}") from None
    return ThreadedSeat(seat, stop)


# --- running -------------------------------------------------------------------------------


def _progress(local: Role) -> Any:
    def on_event(event: ConnectionEvent, now: float) -> None:
        if isinstance(event, HandshakeDone):
            peer = event.established.peer
            kind = "new" if event.established.pin.status.value == "new" else "known"
            say(
                f"playing {peer.nickname!r} ({peer.fingerprint}, {kind} peer); "
                f"the four cards: {' '.join(event.established.sas)}"
            )
        elif isinstance(event, TossDone):
            oya = event.result.first_oya
            who = "this side" if oya == local.seat else "the peer"
            say(f"coin toss: seat {oya} ({who}) is the first oya")

    return on_event


def _install_stop(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)


def _save(outcome: Outcome, role: Role, record_path: str | None) -> None:
    session = outcome.session
    if session is None:
        return
    text = json.dumps(session.record().to_json(), ensure_ascii=False, indent=1) + "\n"
    targets: list[Path] = []
    if record_path is not None:
        targets.append(Path(record_path))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    name = f"net-{stamp}-{session.session_id.hex()[:8]}-{role.value}.json"
    targets.append(games_dir() / name)
    for target in targets:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, text.encode("utf-8"), mode=0o600)
        except OSError as error:
            say(f"cannot save the record to {target}: {error.strerror or error}")


def _finish(outcome: Outcome, role: Role, record_path: str | None) -> int:
    _save(outcome, role, record_path)
    session = outcome.session
    if session is not None:
        result = session.result_json()
    else:
        result = {"rounds": [], "scores": [25, 25], "winner": None, "finished": False}
    if outcome.finished:
        emit(result)
        return EXIT_OK
    ending = session.ending if session is not None else None
    if ending is not None:
        result["ended"] = {
            key: value for key, value in ending.to_json().items() if key not in ("rejected",)
        }
    emit(result)
    say(outcome.reason)
    return EXIT_EARLY


async def _host(args: argparse.Namespace, options: PeerOptions, player: ThreadedSeat) -> Outcome:
    stop = asyncio.Event()
    _install_stop(stop)
    room = Room(
        options,
        player,
        on_event=_progress(Role.HOST),
        on_refused=lambda address, reason: say(f"turned away {address}: {reason}"),
        stop=stop,
    )
    try:
        host, port = await room.open(args.bind, args.port)
    except OSError as error:
        raise UsageError(
            f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}"
        ) from None
    shown = f"[{host}]" if ":" in host else host
    print(f"listening {shown}:{port}", file=sys.stderr, flush=True)
    match = asyncio.ensure_future(room.outcome())
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({match, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if not match.done() and room.playing:  # stopped during a match: it ends as left
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(match), LEAVE_GRACE)
        if match.done():
            return match.result()
        outcome = Outcome(f"{shown}:{port}")
        outcome.failure = "stopped before any peer joined"
        return outcome
    finally:
        stopped.cancel()
        match.cancel()
        await room.close()


async def _join(host: str, port: int, options: PeerOptions, player: ThreadedSeat) -> Outcome:
    stop = asyncio.Event()
    _install_stop(stop)
    return await join(host, port, options, player, on_event=_progress(Role.JOINER), stop=stop)


def _cmd_host(args: argparse.Namespace) -> int:
    options = _options(args)
    player = _bot(args.bot)
    outcome = asyncio.run(_host(args, options, player))
    return _finish(outcome, Role.HOST, args.record)


def _cmd_join(args: argparse.Namespace) -> int:
    host, port = parse_address(args.address)
    options = _options(args)
    player = _bot(args.bot)
    outcome = asyncio.run(_join(host, port, options, player))
    return _finish(outcome, Role.JOINER, args.record)


def _cmd_verify(args: argparse.Namespace) -> int:
    from koikoi.engine.record import RecordError, loads
    from koikoi.net.verify import NotARecord, VerificationFailed, verify_record

    text = read_input(args.record)  # as replay reads: '-' is stdin
    try:
        data = loads(text)
        report = verify_record(data)
    except (RecordError, NotARecord) as error:
        raise UsageError(f"{args.record}: {error}") from None
    except VerificationFailed as error:
        emit({"valid": False, "error": str(error)})
        say(f"verify: {error}")
        return EXIT_EARLY
    emit(report.to_json())
    return EXIT_OK


def _common(p: argparse.ArgumentParser) -> None:
    from koikoi.ai import PLAYERS

    p.add_argument("--rounds", type=_rounds, default=6, metavar="6|12")
    p.add_argument("--no-doubling", action="store_true", help="no doubling at 8 points or more")
    p.add_argument(
        "--password-file", metavar="F", help="a private room: the password is the file's text"
    )
    p.add_argument(
        "--bot",
        default=DEFAULT_BOT,
        choices=PLAYERS,
        metavar="NAME",
        help=f"the computer player in the local seat: {', '.join(PLAYERS)} (default {DEFAULT_BOT})",
    )
    p.add_argument("--name", metavar="NICK", help="the nickname the peer sees (default: user)")
    p.add_argument("--record", metavar="FILE", help="write the signed record here")
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_SILENCE_TIMEOUT,
        metavar="S",
        help=f"seconds of silence before the peer counts as gone (default "
        f"{DEFAULT_SILENCE_TIMEOUT:g})",
    )


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``host``, ``join`` and ``verify``."""
    if name == "host":
        p.description = (
            "Listen for one peer, play a match with a bot in the local seat, print the result "
            "as JSON (the host is seat 0)."
        )
        p.add_argument("--port", type=_port, default=0, metavar="P", help="0 picks a free port")
        p.add_argument(
            "--bind",
            default="0.0.0.0",
            metavar="ADDR",
            help="address to listen on (default: all interfaces, so the LAN can join)",
        )
        _common(p)
        p.set_defaults(run=_cmd_host)
    elif name == "join":
        p.description = (
            "Connect to a host, play the match with a bot in the local seat, print the result "
            "as JSON (the joiner is seat 1)."
        )
        p.add_argument("address", metavar="HOST:PORT")
        _common(p)
        p.set_defaults(run=_cmd_join)
    elif name == "verify":
        p.add_argument("record", metavar="RECORD")
        p.set_defaults(run=_cmd_verify)
    else:
        raise ValueError(f"not a subcommand of this module: {name!r}")
