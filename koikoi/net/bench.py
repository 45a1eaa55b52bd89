"""``koikoi bench --net``: what the network costs, measured over loopback in one process.

- ``handshake_ms``: connect → first deal ready (TCP connect, hellos, Noise XXpsk3, signatures,
  coin toss, first deal), median over several connections, open room; ``handshake_ms_private``
  the same for a password room (SPAKE2 added); ``handshake_ms_private_dealing`` an open room
  dealt privately (koikoi-net/4: the four cards, both confirmations, then the coin toss, and
  the first deal dealt by both sides together).
- ``match_overhead_pct``: a six-round ``random``-bot match over loopback against the very same
  match (same seed, first oya and bots) played in one process by :func:`koikoi.driver.
  play_match`, the bots' thinking subtracted from both. Both peers run in this one process
  and on one event loop, so each move's work on both sides (the engine twice, a signature,
  its check, two state hashes, encryption, two socket hops) is counted in full.
  ``match_overhead_pct_normal_vs_hard`` puts the same per-move cost against a real match,
  ``normal`` versus ``hard`` with their thinking, played in one process.
- ``bytes_per_match``: bytes on the wire for a whole session, both directions, framing
  included (handshake, toss, every move, heartbeats if any, goodbyes).
- ``deal_ms``: private dealing (koikoi-net/4) over loopback, in privately dealt sessions
  (``--dealing private``): from a deal's dealing started to the deal laid out, both peers'
  work and the messages together, median over the deals of whole matches (CLI.md);
  ``bytes_per_match_private`` such a session's bytes.
- ``move_ms_private``: one move of such a session, both peers' work, thinking out, from each
  deal laid out to its last move (the dealing before and the seeds and audit after left
  out); ``move_ms_seed`` one move of a joint-seed session measured the same way (the span
  of ``match_ms_net`` over its moves: the engine's work is in both), and
  ``move_ms_private_extra`` the difference (issue 15's goal: at most 2 ms).
  ``match_ms_private`` a whole privately dealt match, handshake done to the end, thinking
  out, over ``deals_per_match_private`` deals and ``moves_per_match_private`` moves;
  ``deal_all_ms_private`` what such a match spends per deal besides the moves (the dealing,
  the seeds, the audit, the replay with every card, and the toss's share).
- ``deal_ms_in_process``: both sides' work for one whole deal of :mod:`koikoi.net.dealing` in
  one process, without sockets, median: both shuffles and locks, the hands and the field
  opened, the 24 draws and the 16 plays opened, the seeds revealed; ``deal_setup_ms`` its part
  up to the deal in play, ``deal_audit_ms`` one side's replay of the deal from both seeds,
  ``deal_bytes`` the dealing's messages of one deal.
- ``record_bytes_written_private``: the bytes one side writes to disk keeping the record of a
  privately dealt match as the CLI and the app keep it (``PeerOptions.on_record``: the signed
  record, and this side's seeds and journal for a restart after a crash), summed over the
  match, on a temporary folder; ``record_write_ms_private`` the time those writes take
  (each one flushed to disk), ``record_writes_private`` how many times it writes (the record
  rewritten, or a line appended to its sidecar), and ``record_file_bytes_private`` the
  finished record file's size.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from koikoi.engine.events import Event
from koikoi.engine.match import Observation, Settings
from koikoi.engine.record import GameRecord
from koikoi.engine.round import Action
from koikoi.net import dealing
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.recordfile import RecordFile
from koikoi.net.session.core import Session
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome, PeerOptions
from koikoi.net.transport.room import Room

HANDSHAKES = 15
MATCHES = 10
DEALS = 21


class _TimedBot:
    """A computer player that keeps the time it spends choosing (its "thinking")."""

    def __init__(self, name: str, seed: int) -> None:
        from koikoi.ai import get_player

        self.player = get_player(name)
        self.rng = random.Random(seed)
        self.seconds = 0.0

    def choose_now(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = self.player.choose(observation, observation.legal_actions, self.rng)
        self.seconds += time.perf_counter() - start
        return action

    async def choose(self, observation: Observation) -> Action:
        return self.choose_now(observation)

    def notify(self, events: Sequence[Event]) -> None:
        pass

    def cancel(self) -> None:
        pass


class _SyncSeat:
    def __init__(self, bot: _TimedBot) -> None:
        self.bot = bot

    def choose(self, observation: Observation) -> Action:
        return self.bot.choose_now(observation)

    def notify(self, events: Sequence[Event]) -> None:
        pass


def _options(name: str, password: str = "", private: bool = False) -> PeerOptions:
    return PeerOptions(
        identity=Identity.generate(),
        nickname=name,
        settings=Settings(),
        known_peers=KnownPeers(None),
        password=password,
        dealings=("private", "seed") if private else ("seed",),
    )


async def _session(
    bots: tuple[_TimedBot, _TimedBot],
    password: str = "",
    private: bool = False,
    writers: tuple[_RecordWriter, _RecordWriter] | None = None,
) -> tuple[Outcome, Outcome]:
    options = _options("host", password, private), _options("joiner", password, private)
    if writers is not None:
        options[0].on_record, options[1].on_record = writers
    room = Room(options[0], bots[0])
    _, port = await room.open("127.0.0.1", 0)
    try:
        joined = await join("127.0.0.1", port, options[1], bots[1])
        return await room.outcome(), joined
    finally:
        await room.close()


def _handshake_ms(password: str, count: int, private: bool = False) -> float:
    times = []
    for i in range(count):
        bots = (_TimedBot("random", 2 * i), _TimedBot("random", 2 * i + 1))
        _, joined = asyncio.run(_session(bots, password, private))
        times.append((joined.times["first_deal"] - joined.times["connect"]) * 1000)
    return statistics.median(times)


def _local_match(
    settings: Settings, first_oya: int, seed: bytes, bots: tuple[_TimedBot, _TimedBot]
) -> tuple[float, GameRecord]:
    from koikoi.driver import play_match, seed_decks

    record = GameRecord(settings, first_oya)
    start = time.perf_counter()
    play_match(
        settings, first_oya, (_SyncSeat(bots[0]), _SyncSeat(bots[1])), seed_decks(seed), record
    )
    return time.perf_counter() - start, record


def _overhead(matches: int, bot: str = "random") -> dict[str, Any]:
    net_seconds = local_seconds = 0.0
    moves = 0
    total_bytes = 0
    for i in range(matches):
        bots = (_TimedBot(bot, 100 + 2 * i), _TimedBot(bot, 101 + 2 * i))
        hosted, joined = asyncio.run(_session(bots))
        session = joined.session
        assert session is not None and session.lockstep is not None and joined.finished
        start = min(hosted.times["first_deal"], joined.times["first_deal"])
        end = max(hosted.times["ended"], joined.times["ended"])
        net_seconds += end - start - bots[0].seconds - bots[1].seconds
        total_bytes += joined.bytes_sent + joined.bytes_received
        toss = session.toss.result
        assert toss is not None
        # The same match in one process: same decks, first oya and bots (fresh, same seeds).
        again = (_TimedBot(bot, 100 + 2 * i), _TimedBot(bot, 101 + 2 * i))
        elapsed, record = _local_match(session.settings, toss.first_oya, toss.seed, again)
        local_seconds += elapsed - again[0].seconds - again[1].seconds
        played = [
            [{k: v for k, v in a.items() if k in ("seat", "play", "pick", "koikoi")} for a in d]
            for d in (deal["actions"] for deal in session.record().to_json()["deals"])
        ]
        assert played == [d["actions"] for d in record.to_json()["deals"]], "not the same match"
        moves += session.lockstep.seq
    return {
        "match_overhead_pct": round((net_seconds / local_seconds - 1) * 100, 1),
        "match_ms_net": round(net_seconds / matches * 1000, 2),
        "match_ms_local": round(local_seconds / matches * 1000, 2),
        "net_us_per_move": round((net_seconds - local_seconds) / moves * 1e6, 1),
        "move_ms_seed": round(net_seconds / moves * 1000, 3),
        "moves_per_match": round(moves / matches, 1),
        "bytes_per_match": round(total_bytes / matches),
    }


def _private_matches(matches: int) -> dict[str, Any]:
    """Privately dealt ``random``-bot matches over loopback: ``deal_ms`` the median
    time from a deal's dealing started to the deal laid out on the joiner (both peers' work
    and the messages), ``bytes_per_match_private`` the bytes of a whole session.

    ``move_ms_private`` is what one move of such a session costs, both peers' work together,
    the bots' thinking taken out: the time from each deal laid out to its last move (on
    the joiner), summed over the deals, over the moves. It leaves out each deal's dealing
    (before) and its seeds and audit (after); ``match_ms_private`` is the whole match, from
    the handshake done to the end, thinking taken out, and ``deal_all_ms_private`` the rest
    of it per deal.
    """
    seconds: list[float] = []
    total_bytes = 0
    play_seconds = match_seconds = 0.0
    moves = deals = 0
    for i in range(matches):
        bots = (_TimedBot("random", 300 + 2 * i), _TimedBot("random", 301 + 2 * i))
        hosted, joined = asyncio.run(_session(bots, private=True))
        session = joined.session
        assert session is not None and session.dealing == "private" and joined.finished
        assert session.lockstep is not None
        seconds += session.deal_seconds
        total_bytes += joined.bytes_sent + joined.bytes_received
        thinking = bots[0].seconds + bots[1].seconds
        play_seconds += sum(session.play_seconds) - thinking
        start = min(hosted.times["established"], joined.times["established"])
        end = max(hosted.times["ended"], joined.times["ended"])
        match_seconds += end - start - thinking
        moves += session.lockstep.seq
        deals += len(session.deal_seconds)
    return {
        "deal_ms": round(statistics.median(seconds) * 1000, 2),
        "deal_all_ms_private": round((match_seconds - play_seconds) / deals * 1000, 2),
        "bytes_per_match_private": round(total_bytes / matches),
        "move_ms_private": round(play_seconds / moves * 1000, 3),
        "moves_per_match_private": round(moves / matches, 1),
        "match_ms_private": round(match_seconds / matches * 1000, 2),
        "deals_per_match_private": round(deals / matches, 1),
    }


class _RecordWriter:
    """``PeerOptions.on_record`` as the CLI and the app keep a record file
    (:class:`~koikoi.net.recordfile.RecordFile`), with the time spent counted."""

    def __init__(self, path: Path) -> None:
        self.file = RecordFile(path)
        self.seconds = 0.0

    def __call__(self, session: Session) -> None:
        start = time.perf_counter()
        self.file.save(session)
        self.seconds += time.perf_counter() - start


def _record_keeping(matches: int) -> dict[str, Any]:
    """Privately dealt ``random``-bot matches over loopback, each side keeping its record
    file in a temporary folder: per side and match, the bytes written, the time spent
    writing, the writes, and the finished file's size."""
    written = seconds = 0.0
    writes = size = 0
    with tempfile.TemporaryDirectory() as folder:
        for i in range(matches):
            bots = (_TimedBot("random", 500 + 2 * i), _TimedBot("random", 501 + 2 * i))
            writers = (
                _RecordWriter(Path(folder) / f"{i}-host.json"),
                _RecordWriter(Path(folder) / f"{i}-joiner.json"),
            )
            _, joined = asyncio.run(_session(bots, private=True, writers=writers))
            assert joined.finished and joined.session is not None
            for writer in writers:
                written += writer.file.bytes_written
                seconds += writer.seconds
                writes += writer.file.writes
                size += writer.file.path.stat().st_size
                assert not writer.file.sidecar.exists()
    sides = 2 * matches
    return {
        "record_bytes_written_private": round(written / sides),
        "record_write_ms_private": round(seconds / sides * 1000, 2),
        "record_writes_private": round(writes / sides, 1),
        "record_file_bytes_private": round(size / sides),
    }


def _real_levels_pct(net_us_per_move: float) -> float:
    """What the network adds to a ``normal``-versus-``hard`` match, thinking included.

    The match is played once in one process (seeded, so always the same one); the network's
    cost is its moves times the measured cost of one move over loopback.
    """
    bots = (_TimedBot("normal", 7), _TimedBot("hard", 8))
    seed = bytes(range(32))
    elapsed, record = _local_match(Settings(), 0, seed, bots)
    moves = sum(len(deal.actions) for deal in record.deals)
    return round(moves * net_us_per_move / 1e6 / elapsed * 100, 2)


def run(
    handshakes: int = HANDSHAKES,
    matches: int = MATCHES,
    real_levels: bool = True,
    deals: int = DEALS,
) -> dict[str, Any]:
    """The network figures of ``koikoi bench --net``."""
    result: dict[str, Any] = {
        "handshake_ms": round(_handshake_ms("", handshakes), 2),
        "handshake_ms_private": round(_handshake_ms("matsu ni tsuru", handshakes), 2),
        "handshake_ms_private_dealing": round(_handshake_ms("", handshakes, private=True), 2),
    }
    result.update(_overhead(matches))
    if real_levels:
        result["match_overhead_pct_normal_vs_hard"] = _real_levels_pct(result["net_us_per_move"])
    in_process = dealing.bench(deals)
    result["deal_ms_in_process"] = in_process.pop("deal_ms")
    result.update(in_process)
    result.update(_private_matches(matches))
    result["move_ms_private_extra"] = round(result["move_ms_private"] - result["move_ms_seed"], 3)
    result.update(_record_keeping(matches))
    return result
