"""``koikoi host``, ``join``, ``rooms`` and ``verify`` (CLI.md): network play from the shell.

A computer player sits in the local seat (``--bot``). The final result goes to stdout as the
``koikoi replay`` JSON; progress and the reason of an early end go to stderr. Exit 0: the
match finished; 1: it ended early (the peer left, the connection dropped, a cheat, a refused
handshake); 2: bad arguments. ``host --advertise`` announces the room by mDNS, ``rooms`` lists
the rooms on the LAN and ``join --room TITLE`` finds one by its title (``discovery.py``).

This module holds the arguments and the commands; the record and the result JSON are
:mod:`koikoi.net.cli_result`'s, the mDNS side (announcing, finding a room)
:mod:`koikoi.net.cli_lan`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from koikoi.command import EXIT_OK, UsageError, emit, read_input, say
from koikoi.engine.match import Settings
from koikoi.net.address import format_address, parse_address
from koikoi.net.cli_internet_args import add_host_arguments, add_join_arguments
from koikoi.net.cli_lan import _Announcer, _find_room, _pinned, _redial_room, _split_address
from koikoi.net.cli_result import (
    EXIT_EARLY,
    _finish,
    _GuessLines,
    _recorder,
    _refused_before_dialling,
)
from koikoi.net.connection import ConnectionEvent, HandshakeDone
from koikoi.net.hello import (
    MAX_NICKNAME,
    PRIVATE_ONLY,
    PRIVATE_VERSION,
    SEED_ONLY,
    dealing_refused_text,
    protocol_name,
    resuming_offer,
)
from koikoi.net.joincode import looks_like_code
from koikoi.net.resume import RESUME_WINDOW, Resumed, Suspended
from koikoi.net.roles import Role
from koikoi.net.session.clock import (
    DEFAULT_ABANDON_AFTER,
    DEFAULT_CLOCK,
    DEFAULT_SILENCE_TIMEOUT,
    ClockSetting,
)
from koikoi.net.session.core import Session
from koikoi.net.session.events import CardsShown, TossDone
from koikoi.net.transport.joiner import join, resume_joined
from koikoi.net.transport.options import Outcome, PeerOptions, ThreadedSeat
from koikoi.net.transport.room import Room

if TYPE_CHECKING:
    from koikoi.net.cli_internet_host import InternetRoom
    from koikoi.net.discovery.txt import Room as LanRoom

DEFAULT_BOT = "normal"
ROOMS_TIMEOUT = 3.0
"""Seconds ``koikoi rooms`` listens by default."""
FIND_TIMEOUT = 5.0
"""Seconds ``join --room`` looks for its room by default."""
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


def _seconds_between(option: str, low: float, high: float) -> Callable[[str], float]:
    """An argument type: seconds from ``low`` to ``high``; errors name ``option``."""
    takes = f"{option} takes" if option else "takes"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{takes} seconds, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{takes} {low:g} to {high:g} seconds, not {text}")
        return value

    return parse


_seconds = _seconds_between("--timeout", 0.1, 3600)
_window = _seconds_between("--resume-window", 0, 3600)
_reply_wait = _seconds_between("--reply-wait", 0, 3600)
_clock_seconds = _seconds_between("", 0.1, 86400)


def _clock(text: str) -> ClockSetting:
    """``--clock SECONDS[+RESERVE]|off``."""
    try:
        return ClockSetting.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


"""--move-clock and --abandon-after (argparse names the option before the message)."""


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


def _bind(text: str) -> str:
    """A ``--bind`` for mDNS: an address of this machine (unspecified: all interfaces)."""
    from koikoi.net.discovery.interfaces import DiscoveryError, interfaces_for

    try:
        interfaces_for(text)
    except DiscoveryError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _title(text: str) -> str:
    from koikoi.net.discovery.txt import MAX_TITLE, clean_text

    title = clean_text(text, MAX_TITLE)
    if not title:
        raise argparse.ArgumentTypeError(
            f"--room needs a title with visible characters, not {text!r}"
        )
    return title


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
        if Path(args.record).is_dir():
            raise UsageError(f"--record {args.record}: that is a folder; name a file in it")
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
        silence_timeout=DEFAULT_SILENCE_TIMEOUT if args.timeout is None else args.timeout,
        move_clock=args.move_clock,
        abandon_after=args.abandon_after,
        clock=getattr(args, "clock", DEFAULT_CLOCK),
        resume_window=args.resume_window,
        dealings=PRIVATE_ONLY if args.dealing == "private" else SEED_ONLY,
    )


def _bot(name: str) -> ThreadedSeat:
    from koikoi.ai import UnknownPlayer
    from koikoi.ai.base import Budget
    from koikoi.ai.seat import bot_seat

    stop = threading.Event()
    try:
        seat = bot_seat(name, budget=Budget(stop=stop.is_set))
    except UnknownPlayer as error:
        raise UsageError(f"--bot: {error}") from None
    return ThreadedSeat(seat, stop)


def nickname_warning(nickname: str, resembles: tuple[str, ...]) -> str:
    """A line warning of a nickname that mixes scripts or looks like a pinned one, or "".

    >>> print(nickname_warning("h\u0430na", ("hana",)))  # the second letter is Cyrillic
    WARNING: 'h\\u0430na' mixes scripts (LATIN, CYRILLIC); it looks like 'hana' but is not that player
    """  # noqa: E501
    from koikoi.net.identity import nickname_scripts

    notes = []
    scripts = nickname_scripts(nickname)
    if len(scripts) > 1:
        notes.append(f"mixes scripts ({', '.join(scripts)})")
    if resembles:
        names = ", ".join(repr(name) for name in resembles)
        notes.append(f"it looks like {names} but is not that player")
    return f"WARNING: {ascii(nickname)} " + "; ".join(notes) if notes else ""


# --- running -------------------------------------------------------------------------------


def _oya_line(oya: int, seat: int, when: str = "") -> str:
    """``coin toss: seat 1 (the peer) is the first oya`` (``when``: after ``coin toss, ``).

    >>> _oya_line(0, 1, "once both confirmed the cards")
    'coin toss, once both confirmed the cards: seat 0 (the peer) is the first oya'
    """
    who = "this side" if oya == seat else "the peer"
    return f"coin toss{', ' + when if when else ''}: seat {oya} ({who}) is the first oya"


def _progress(local: Role) -> Any:
    said = {"oya": False}

    def on_event(event: ConnectionEvent, now: float) -> None:
        if isinstance(event, Suspended):
            left = max(0.0, event.deadline - now)
            say(f"{event.reason}: waiting up to {left:.0f} s to resume the match")
        elif isinstance(event, Resumed):
            say(f"the match resumed ({event.resent} log entries sent again)")
        elif isinstance(event, HandshakeDone):
            peer = event.established.peer
            kind = "new" if event.established.pin.status.value == "new" else "known"
            say(f"playing {peer.nickname!r} ({peer.fingerprint}, {kind} peer)")
            warning = nickname_warning(peer.nickname, event.established.pin.resembles)
            if warning:
                say(warning)
            aborts = event.established.pin.toss_aborts
            if aborts:
                tosses = "toss" if aborts == 1 else "tosses"
                name = repr(peer.nickname)
                say(f"WARNING: {name} abandoned {aborts} {tosses} after seeing the result")
        elif isinstance(event, CardsShown):
            said["oya"] = event.result is not None
            if event.result is not None:  # version 2: the toss is decided with the cards
                say(_oya_line(event.result.first_oya, local.seat))
            say(f"the four cards: {' '.join(event.cards)}")
        elif isinstance(event, TossDone):
            if not said["oya"]:  # version 4: the toss is decided once both confirmed
                say(_oya_line(event.result.first_oya, local.seat, "once both confirmed the cards"))
            say("both sides confirmed the cards; the first deal")

    return on_event


def _install_stop(stop: asyncio.Event) -> None:
    """Ctrl-C, SIGTERM and SIGHUP (the terminal closed) leave the match: the peer is told and
    the record saved."""
    loop = asyncio.get_running_loop()
    hangup = getattr(signal, "SIGHUP", None)
    for sig in (signal.SIGINT, signal.SIGTERM, *(() if hangup is None else (hangup,))):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)


def _resuming_offer(
    offer: tuple[str, ...], restored: Session | None, role: Role
) -> tuple[str, ...]:
    """What a side restarted from ``restored`` offers (:func:`resuming_offer`)."""
    if restored is None:
        return offer
    return resuming_offer(offer, restored.protocol, restored.dealing, role is Role.JOINER)


async def _host(
    args: argparse.Namespace,
    options: PeerOptions,
    player: ThreadedSeat,
    restored: Session | None = None,
) -> Outcome:
    stop = asyncio.Event()
    _install_stop(stop)
    announcer = _Announcer(args, options) if args.advertise else None
    progress = _progress(Role.HOST)

    def on_event(event: ConnectionEvent, now: float) -> None:
        progress(event, now)
        if announcer is not None:
            announcer.playing(event, now)

    guesses = _GuessLines()
    room = Room(
        options,
        player,
        on_event=on_event,
        on_wrong_password=guesses.wrong_password,
        on_refused=guesses.turned_away,
        stop=stop,
        # an open room ends (anyone may end its one match by joining it anyway); a password
        # room's clear hello comes before the password, so it turns the peer away and waits
        end_on_refused_dealing=not options.password,
    )
    sockets = []
    if args.internet:  # both families on one port, which dials out too (both sides dial)
        from koikoi.net.cli_internet_host import listen_for_internet, open_internet

        sockets = listen_for_internet(args.bind, args.port)
    try:
        host, port = await room.open(args.bind, args.port, sockets)
    except OSError as error:
        raise UsageError(
            f"cannot listen on {format_address(args.bind, args.port)}: {error.strerror or error}"
        ) from None
    shown = format_address(host, port)
    internet: InternetRoom | None = None
    if args.internet:  # CLI.md "Across the internet": mapped, or one line why not, exit 1
        opened = await open_internet(
            room, port, options, args.map_lease, args.bind, replies=args.replies
        )
        if isinstance(opened, str):
            await room.close()
            outcome = Outcome(shown)
            outcome.failure = opened
            return outcome
        internet = args.internet_room = opened
    if restored is not None:
        room.adopt(restored)
    print(f"listening {shown}", file=sys.stderr, flush=True)
    match = asyncio.ensure_future(room.outcome())
    stopped = asyncio.ensure_future(stop.wait())
    ended = asyncio.ensure_future(asyncio.Event().wait() if internet is None else internet.ended)
    try:
        if announcer is not None:
            await announcer.publish(host, port)
        await asyncio.wait({match, stopped, ended}, return_when=asyncio.FIRST_COMPLETED)
        if not match.done() and room.playing:  # stopped during a match: it ends as left
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(match), LEAVE_GRACE)
        if match.done():
            return match.result()
        outcome = Outcome(shown)
        outcome.failure = str(ended.result()) if ended.done() else "stopped before any peer joined"
        return outcome
    finally:
        stopped.cancel()
        match.cancel()
        ended.cancel()
        if announcer is not None:
            await announcer.withdraw()
        if internet is not None:
            await internet.close()
        await room.close()
        guesses.close()


async def _join(
    host: str,
    port: int,
    options: PeerOptions,
    player: ThreadedSeat,
    room: LanRoom | None = None,
    bind: str | None = None,
    restored: Session | None = None,
) -> Outcome:
    stop = asyncio.Event()
    _install_stop(stop)
    progress = _progress(Role.JOINER)

    def on_event(event: ConnectionEvent, now: float) -> None:
        progress(event, now)
        if isinstance(event, HandshakeDone) and room is not None and room.fingerprint:
            peer = event.established.peer.fingerprint
            if not peer.startswith(room.fingerprint + "-"):  # the announcement lied, or a relay
                say(
                    f"WARNING: the room {room.title!r} was announced with the host identity "
                    f"{room.fingerprint}, but the peer is {peer}: another program answered"
                )

    redial = None if room is None else _redial_room(room, bind, (host, port))
    if restored is not None:
        return await resume_joined(host, port, restored, options, player, on_event, stop, redial)
    return await join(host, port, options, player, on_event=on_event, stop=stop, redial=redial)


def _restored(options: PeerOptions, role: Role, path: str | None) -> Session | None:
    """The match in play that ``--record FILE`` holds, when this side crashed or was killed
    during it and is started again (docs/protocol.md, "Resume"): restored from the record
    (:mod:`koikoi.net.restore`), to be resumed with the peer; None when the file holds no
    match in play."""
    from koikoi.net import restore

    if path is None:
        return None
    try:
        data = restore.unfinished_in(Path(path))
        if data is None:
            return None
        session = restore.restore(
            data,
            options.identity,
            options.nickname,
            role,
            options.settings,
            silence_timeout=options.silence_timeout,
        )
    except restore.RestoreError as error:
        why = "cannot be read" if error.unreadable else "cannot go on"
        raise UsageError(f"--record {path} holds a match in play that {why}: {error}") from None
    moves = restore.moves(session)
    say(f"resuming the match in {path} with {session.peer.nickname!r} after {moves} moves")
    return session


def _cmd_host(args: argparse.Namespace) -> int:
    if args.room is not None and not args.advertise:
        raise UsageError("--room goes with --advertise (nothing is announced without it)")
    if args.internet:
        from koikoi.net.cli_internet import check_bind

        check_bind(args.bind)
    options = _options(args)
    restored = _restored(options, Role.HOST, args.record)
    options.dealings = _resuming_offer(options.dealings, restored, Role.HOST)
    recorder = _recorder(options, Role.HOST, args.record)
    player = _bot(args.bot)
    args.internet_room = None
    outcome = asyncio.run(_host(args, options, player, restored))
    route = None  # a room with no part in routing has no route (CLI.md: absent)
    if args.internet_room is not None:
        route = args.internet_room.route(outcome.address)
    return _finish(outcome, recorder, route)


def _cmd_join(args: argparse.Namespace) -> int:
    if (args.address is None) == (args.room is None):
        raise UsageError(
            "join takes HOST:PORT or --room TITLE, not both"
            if args.room is not None
            else "join needs HOST:PORT or --room TITLE"
        )
    if args.room is None:
        if args.bind is not None:
            raise UsageError("--bind goes with --room (it is where to look for the room)")
        if looks_like_code(args.address):
            return _join_by_code(args)
        try:
            host, port = parse_address(args.address)
        except ValueError as error:
            raise UsageError(f"join: {error}") from None
        options = _options(args)
        restored = _restored(options, Role.JOINER, args.record)
        # a match agreed with the joint seed is redialled as it was joined (a koikoi-net/2
        # one with the version-2 hello: its host may be a released program)
        options.dealings = _resuming_offer(options.dealings, restored, Role.JOINER)
        recorder = _recorder(options, Role.JOINER, args.record)
        player = _bot(args.bot)
        outcome = asyncio.run(_join(host, port, options, player, restored=restored))
        return _finish(outcome, recorder)
    # with --room, --timeout is how long to look for the room (CLI.md); silence keeps its default
    search = FIND_TIMEOUT if args.timeout is None else args.timeout
    args.timeout = None
    options = _options(args)
    recorder = _recorder(options, Role.JOINER, args.record)
    player = _bot(args.bot)
    room = _find_room(args.room, args.bind, search, options, recorder)
    if room is None:
        return EXIT_EARLY
    if room.private and not options.password:
        say(f"the room {room.title!r} is private: give its password with --password-file")
        return EXIT_EARLY
    say(f"found the room {room.title!r} at {', '.join(room.addresses)}")
    if room.version < PRIVATE_VERSION:  # an older host: with this koikoi it deals from the
        # joint seed only (a version-3 host, like a version-2 one, answers the version-2 hello)
        if "seed" not in options.dealings:
            # no silent downgrade: this side deals privately only, so it does not dial
            who = f"the room {room.title!r} (announced as {protocol_name(room.version)})"
            return _refused_before_dialling(recorder, dealing_refused_text("seed", who=who))
        options.dealings = SEED_ONLY
    addresses = [_split_address(address) for address in room.addresses]
    outcome = asyncio.run(_join_any(addresses, options, player, room, args.bind))
    return _finish(outcome, recorder)


def _join_by_code(args: argparse.Namespace) -> int:
    """``join CODE``: the code's candidates dialled at once, the host's fingerprint pinned
    (:func:`koikoi.net.cli_internet.join_by_code`)."""
    from koikoi.net.cli_internet import join_by_code, read_code

    code = read_code(args.address)
    options = _options(args)
    options.expected_fingerprint = code.fingerprint
    recorder = _recorder(options, Role.JOINER, args.record)
    player = _bot(args.bot)
    run = join_by_code(
        code, options, player, _progress(Role.JOINER), _install_stop, args.reply_wait
    )
    outcome, route = asyncio.run(run)
    return _finish(outcome, recorder, route)


async def _join_any(
    addresses: list[tuple[str, int]],
    options: PeerOptions,
    player: ThreadedSeat,
    room: LanRoom,
    bind: str | None,
) -> Outcome:
    """Join at the first of ``addresses`` that answers (a room may have several)."""
    outcome: Outcome | None = None
    for host, port in addresses:
        outcome = await _join(host, port, options, player, room, bind)
        if outcome.connection is not None:
            break
    assert outcome is not None
    return outcome


def _cmd_rooms(args: argparse.Namespace) -> int:
    from koikoi.net.discovery.browser import BrowseFailed, DiscoveryEvent, RoomBrowser

    failed = threading.Event()

    def on_event(event: DiscoveryEvent) -> None:
        if isinstance(event, BrowseFailed):
            failed.set()

    browser = RoomBrowser(on_event, bind=args.bind, pinned=_pinned())
    browser.start()
    try:
        failed.wait(args.timeout)
    finally:
        browser.stop()
    if browser.failure is not None:
        say(f"cannot list the rooms: {browser.failure}")
        return EXIT_EARLY
    for room in browser.rooms():
        emit(room.to_json())
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace) -> int:
    from koikoi.engine.record import RecordError, loads
    from koikoi.net.verify import NotARecord, VerificationFailed, compare_records, verify_record

    paths = [args.record] if args.other is None else [args.record, args.other]
    if paths.count("-") > 1:
        raise UsageError("verify: only one of the two records can come from stdin ('-')")
    records = []
    for path in paths:
        text = read_input(path)  # as replay reads: '-' is stdin
        try:
            records.append(loads(text, unique_keys=True))
        except RecordError as error:
            raise UsageError(f"{path}: {error}") from None
    reports = []
    try:
        for path, data in zip(paths, records, strict=True):
            try:
                reports.append(verify_record(data))
            except NotARecord as error:
                raise UsageError(f"{path}: {error}") from None
            except VerificationFailed as error:
                where = f"{path}: " if len(paths) > 1 else ""
                raise VerificationFailed(f"{where}{error}") from None
        common = None
        if len(reports) == 2:
            common = compare_records(reports[0], reports[1], (paths[0], paths[1]))
    except VerificationFailed as error:
        emit({"valid": False, "error": str(error)})
        say(f"verify: {error}")
        return EXIT_EARLY
    if common is None:
        emit(reports[0].to_json())
    else:
        emit(
            {
                "valid": True,
                "agree": True,
                "common_moves": common,
                "records": [report.to_json() for report in reports],
            }
        )
    return EXIT_OK


def _common(p: argparse.ArgumentParser, *, silence: bool = True) -> None:
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
        "--resume-window",
        type=_window,
        default=RESUME_WINDOW,
        metavar="S",
        help=f"seconds a match whose connection dropped waits to be resumed (default "
        f"{RESUME_WINDOW:g}; 0: a dropped connection ends the match)",
    )
    # The move clock and the abandon time (docs/protocol.md, "Time"): not in CLI.md, for
    # tests, which cannot wait the 3 minutes after which a peer that never moves is gone.
    p.add_argument("--move-clock", type=_clock_seconds, default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--abandon-after",
        type=_clock_seconds,
        default=DEFAULT_ABANDON_AFTER,
        help=argparse.SUPPRESS,
    )
    # docs/protocol.md, "Version 3: the dealing negotiated"; CLI.md, "Fair play".
    p.add_argument(
        "--dealing",
        choices=("private", "seed"),
        default="private",
        metavar="private|seed",
        help="private (the default): deal by mental poker only, so neither side can see the "
        "other's hand or the stock; a peer that offers only joint-seed dealing is refused "
        "before any card is dealt. seed: offer joint-seed dealing only, to play an older "
        "koikoi (koikoi-net/2); from the seed either program can compute the other's hand. "
        "Both sides seed: a joint-seed match",
    )
    if not silence:
        return
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_SILENCE_TIMEOUT,
        metavar="S",
        help=f"seconds of silence before the peer counts as gone (default "
        f"{DEFAULT_SILENCE_TIMEOUT:g})",
    )


def configure(name: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``host``, ``join``, ``rooms`` and ``verify``."""
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
            help="address to listen on (default: all interfaces, so the LAN can join); with "
            "--advertise, also where the room is announced",
        )
        p.add_argument(
            "--advertise",
            action="store_true",
            help="announce the room on the LAN by mDNS until the match starts, withdraw it at exit",
        )
        p.add_argument(
            "--room",
            type=_title,
            metavar="TITLE",
            help="with --advertise: the room's title (default: the nickname)",
        )
        add_host_arguments(p)  # --internet, --replies
        p.add_argument(
            "--clock",
            type=_clock,
            default=DEFAULT_CLOCK,
            metavar="SECONDS[+RESERVE]|off",
            help=f"the room's move clock: seconds for each action and a reserve for the match "
            f"(default {DEFAULT_CLOCK.text()}); a player whose time runs out gets a safe move "
            "from their own client",
        )
        _common(p)
        p.set_defaults(run=_cmd_host)
    elif name == "join":
        p.description = (
            "Connect to a host, play the match with a bot in the local seat, print the result "
            "as JSON (the joiner is seat 1)."
        )
        p.add_argument(
            "address",
            metavar="HOST:PORT|CODE",
            nargs="?",
            help="where the room listens, or the join code its host gave",
        )
        p.add_argument(
            "--room",
            type=_title,
            metavar="TITLE",
            help="find the room by its title on the LAN (mDNS)",
        )
        p.add_argument(
            "--bind",
            type=_bind,
            metavar="ADDR",
            help="with --room: look on the interface with this address (default: all)",
        )
        add_join_arguments(p, _reply_wait)
        _common(p, silence=False)
        p.add_argument(
            "--timeout",
            type=_seconds,
            metavar="S",
            help=f"with --room: seconds to look for the room (default {FIND_TIMEOUT:g}); with "
            f"HOST:PORT: seconds of silence before the peer counts as gone (default "
            f"{DEFAULT_SILENCE_TIMEOUT:g})",
        )
        p.set_defaults(run=_cmd_join)
    elif name == "rooms":
        p.description = (
            "Listen for rooms announced by mDNS and print each as JSON. These are hints; the "
            "handshake decides."
        )
        p.add_argument(
            "--bind",
            type=_bind,
            metavar="ADDR",
            help="look on the interface with this address only (default: all interfaces)",
        )
        p.add_argument(
            "--timeout",
            type=_seconds,
            default=ROOMS_TIMEOUT,
            metavar="S",
            help=f"seconds to listen (default {ROOMS_TIMEOUT:g})",
        )
        p.set_defaults(run=_cmd_rooms)
    elif name == "verify":
        p.description = (
            "Check a signed network record; with two records of one session, also check that "
            "they agree move by move and name a key that signed two different entries."
        )
        p.add_argument("record", metavar="RECORD", help="a record file, or '-' for stdin")
        p.add_argument(
            "other",
            metavar="RECORD_B",
            nargs="?",
            help="the other side's record of the same session",
        )
        p.set_defaults(run=_cmd_verify)
    else:
        raise ValueError(f"not a subcommand of this module: {name!r}")
