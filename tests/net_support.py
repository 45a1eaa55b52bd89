"""Two real sessions on one table: a real handshake, real keys, and a wire the test can tap.

The tap sees the decrypted messages each side sends, as the protocol's plaintext, and may
drop, reorder, replay or replace them; what it returns is encrypted again with the sender's
keys and the right nonces, so the receiver sees exactly what a malicious peer with those keys
could send. Nothing of the protocol is mocked.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from koikoi.engine.match import Settings
from koikoi.engine.round import Action
from koikoi.net.discovery.txt import Room, RoomStatus
from koikoi.net.handshake import Established, Handshake
from koikoi.net.identity import Identity, KnownPeers
from koikoi.net.lockstep import decode_entry, encode_entry, signed_data
from koikoi.net.noise import CipherState
from koikoi.net.roles import Role
from koikoi.net.session.clock import DEFAULT_CLOCK, ClockSetting
from koikoi.net.session.core import Session
from koikoi.net.session.events import Ended, SessionEvent
from koikoi.net.wire import encode_message, unpack
from tests.conftest import REPO, user_environment

Tap = Callable[[Role, list[bytes]], list[bytes]]
"""Sees the plaintext messages ``role`` sent in one step; returns those to deliver."""


def handshake_pair(
    settings: Settings | None = None,
    dealings: Mapping[Role, tuple[str, ...]] | None = None,
    clocks: Mapping[Role, ClockSetting] | None = None,
    stamps: Mapping[Role, tuple[str, ...]] | None = None,
) -> tuple[dict[Role, Identity], dict[Role, Established]]:
    identities = {role: Identity.generate() for role in Role}
    shakes = {
        role: Handshake(
            role,
            identity=identities[role],
            nickname=role.value,
            settings=settings or Settings(),
            password="",
            known_peers=KnownPeers(None),
            dealings=(dealings or {}).get(role, ("seed",)),
            clock=(clocks or {}).get(role, DEFAULT_CLOCK),
            stamps=(stamps or {}).get(role, ()),
        )
        for role in Role
    }
    to_host = shakes[Role.JOINER].start()
    while to_host:
        to_joiner = [out for m in to_host for out in shakes[Role.HOST].receive(m)]
        to_host = [out for m in to_joiner for out in shakes[Role.JOINER].receive(m)]
    results = {}
    for role, shake in shakes.items():
        assert shake.result is not None
        results[role] = shake.result
    return identities, results


@dataclass
class _Wire:
    """One direction: decrypts what the sender sent, encrypts what the tap lets through."""

    opener: CipherState
    sealer: CipherState


@dataclass
class Table:
    settings: Settings = field(default_factory=Settings)
    tap: Tap | None = None
    silence_timeout: float = 15.0
    seed: int = 1
    secrets: dict[Role, bytes | None] = field(default_factory=dict)
    dealings: Mapping[Role, tuple[str, ...]] = field(default_factory=dict)
    clocks: Mapping[Role, ClockSetting] = field(default_factory=dict)
    """Each side's clock in its hello (the host's is the room's in version 4)."""
    stamps: Mapping[Role, tuple[str, ...]] = field(default_factory=dict)
    """The stamps each side's hello says it shows (version 4; none unless given)."""

    def __post_init__(self) -> None:
        self.identities, self.established = handshake_pair(
            self.settings, self.dealings, self.clocks, self.stamps
        )
        self.now = 0.0
        self._wires = {
            role: _Wire(
                copy.copy(self.established[role].send),
                copy.copy(self.established[role.peer].recv),
            )
            for role in Role
        }
        self.sessions = {
            role: Session(
                self.established[role],
                self.identities[role],
                role.value,
                now=self.now,
                silence_timeout=self.silence_timeout,
                toss_secret=self.secrets.get(role),
            )
            for role in Role
        }
        self.rng = random.Random(self.seed)
        self.events: dict[Role, list[SessionEvent]] = {role: [] for role in Role}
        self.sent: dict[Role, list[bytes]] = {role: [] for role in Role}
        """Every plaintext each side sent, before the tap."""
        self.sessions[Role.HOST].start()

    @property
    def host(self) -> Session:
        return self.sessions[Role.HOST]

    @property
    def joiner(self) -> Session:
        return self.sessions[Role.JOINER]

    def choose(self, session: Session) -> Action:
        observation = session.local_turn
        assert observation is not None
        return self.rng.choice(observation.legal_actions)

    def deliver(self, sender: Role, payloads: list[bytes]) -> None:
        if not payloads:
            return
        receiver = self.sessions[sender.peer]
        wire = self._wires[sender]
        plain = [wire.opener.decrypt_with_ad(b"", p) for p in payloads]
        self.sent[sender].extend(plain)
        if self.tap is not None:
            plain = self.tap(sender, plain)
        payloads = [wire.sealer.encrypt_with_ad(b"", p) for p in plain]
        for payload in payloads:
            self.events[sender.peer].extend(receiver.receive(payload, self.now))

    def inject(self, sender: Role, message: bytes) -> list[SessionEvent]:
        """Send ``message`` as ``sender`` would (encrypted with its keys), outside the flow."""
        payload = self._wires[sender].sealer.encrypt_with_ad(b"", message)
        events = self.sessions[sender.peer].receive(payload, self.now)
        self.events[sender.peer].extend(events)
        return events

    def step(self) -> bool:
        """Each side makes its moves and sends; returns whether anything happened."""
        moved = False
        for role in (Role.HOST, Role.JOINER):
            session = self.sessions[role]
            while session.local_turn is not None:
                self.events[role].extend(session.play(self.choose(session), self.now))
                moved = True
            out = session.outgoing()
            moved = moved or bool(out)
            self.deliver(role, out)
        return moved

    def run(self, max_steps: int = 10_000) -> None:
        for _ in range(max_steps):
            if self.host.closed and self.joiner.closed:
                return
            if not self.step():
                return
        raise AssertionError("the match did not end")

    def ended(self, role: Role) -> Ended:
        ends = [e for e in self.events[role] if isinstance(e, Ended)]
        assert len(ends) == 1, self.events[role]
        return ends[0]


def in_play(
    moves: int,
    seeds: range = range(1, 41),
    until: Callable[[Table], bool] = lambda table: True,
    **kwargs: Any,
) -> Table:
    """A table at least ``moves`` moves into play (both lockstep ``seq``) and ``until`` it,
    its match not over and neither side ended. ``kwargs`` go to :class:`Table`.

    A table's cards are random whatever its ``seed`` (each session's toss and dealing secrets
    and the handshake are its own, per run), and now and then a match is over in its first
    moves: teyaku deals in a row, a doubled win that takes a player's whole stake (about one
    table in 1,500 within five moves). Such a table is set aside for the next seed. (The
    first deal is over as it is dealt, a teyaku or a redeal, about once in 55: a test that
    needs moves in it says so with ``until``.)"""
    for seed in seeds:
        table = Table(seed=seed, **kwargs)
        for _ in range(10_000):
            lockstep = table.host.lockstep
            over = lockstep is not None and lockstep.match.finished
            if over or table.host.ending is not None or table.joiner.ending is not None:
                break
            steps = [session.lockstep for session in (table.host, table.joiner)]
            if all(step is not None and step.seq >= moves for step in steps) and until(table):
                return table
            if not table.step():
                break
    raise AssertionError(f"no match of {len(seeds)} lasted {moves} moves")


def room(title: str, token: str, fp: str | None, address: str, **changes: Any) -> Room:
    """A room as the browser reports it, named ``TITLE #token``: open, six rounds with
    doubling, version 3, hosted by hana with the fingerprint ``fp`` (None: a private room)."""
    found = Room(
        name=f"{title} #{token}._koikoi._tcp.local.",
        title=title,
        addresses=(address,),
        rounds=6,
        doubling=True,
        private=fp is None,
        status=RoomStatus.OPEN,
        version=3,
        host=None if fp is None else "hana",
        fingerprint=fp,
    )
    return replace(found, **changes)


def is_move(message: bytes) -> bool:
    value = unpack(message)
    return isinstance(value, dict) and value.get("t") == "move"


def resign(
    message: bytes,
    identity: Identity,
    *,
    seq: int | None = None,
    prev_hash: bytes | None = None,
    action: Action | None = None,
    state_hash: bytes | None = None,
) -> bytes:
    """A move message with fields of its entry changed and signed again by ``identity``."""
    value = unpack(message)
    assert isinstance(value, dict)
    raw = value["entry"]
    assert isinstance(raw, bytes)
    entry = decode_entry(raw)
    new = encode_entry(
        entry.seq if seq is None else seq,
        entry.prev_hash if prev_hash is None else prev_hash,
        entry.action if action is None else action,
        entry.state_hash if state_hash is None else state_hash,
    )
    return encode_message("move", entry=new, sig=identity.sign(signed_data(new)))


def teyaku_seeds(session_id: bytes) -> dict[Role, bytes]:
    """Private dealing: both sides' dealer seeds for a session's first deal that ends as it
    is dealt with a teyaku (R8), the field holding no four of a month (which redeals first,
    R4.2). Found by search; either side may compute them, as each must draw the same."""
    return deal_seeds(session_id, 1, 0, teyaku=True)


def deal_seeds(session_id: bytes, round_no: int, deal_no: int, teyaku: bool) -> dict[Role, bytes]:
    """Private dealing: both sides' dealer seeds for deal ``deal_no`` of round ``round_no``
    that ends at once in a teyaku (``teyaku``) or is played (no teyaku, no four of a month on
    the field): a random deal is one of the first kind about once in 60 (R4.2, R8)."""
    from koikoi.engine.cards import full_months
    from koikoi.engine.yaku import teyaku_of
    from koikoi.net.dealing import deal_context
    from koikoi.net.mental import derive_permutation

    context = deal_context(session_id, round_no, deal_no)
    host_seed = bytes(32)
    host_perm = derive_permutation(host_seed, context + b"\0" + Role.HOST.label)
    for n in range(5000):
        joiner_seed = n.to_bytes(32, "big")
        joiner_perm = derive_permutation(joiner_seed, context + b"\0" + Role.JOINER.label)
        deck = [host_perm[joiner_perm[j]] for j in range(48)]
        hands = [sum(1 << c for c in deck[a : a + 8]) for a in (0, 8)]
        field = sum(1 << c for c in deck[16:24])
        if full_months(field):
            continue
        if any(teyaku_of(hand) is not None for hand in hands) == teyaku:
            return {Role.HOST: host_seed, Role.JOINER: joiner_seed}
    raise AssertionError(f"no such deal in 5000 (teyaku: {teyaku})")


# --- real processes ------------------------------------------------------------------------

FIRST_DEAL = "both sides confirmed the cards; the first deal"
"""What ``koikoi host`` and ``join`` say once the first deal is laid out. Privately dealt,
the joiner lays it out only with the host's part of the deal, which the host sends once it
took the joiner's ``confirm``: both sides are past the coin toss, so a connection cut from
then on suspends the match (a cut before the host took that ``confirm`` ends it, by design,
docs/protocol.md "Resume"). A fault test cuts after this line, not a fixed time after
"coin toss", whose distance from that point grows with the machine's load."""


@dataclass
class KoikoiProcess:
    """A ``koikoi`` command running in the background, its output going to files."""

    proc: subprocess.Popen[bytes]
    out: Path
    err: Path

    @property
    def stdout(self) -> str:
        return self.out.read_text(encoding="utf-8")

    @property
    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8")

    def result(self) -> dict[str, Any]:
        """The JSON koikoi printed on stdout."""
        value = json.loads(self.stdout)
        assert isinstance(value, dict)
        return value

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"koikoi did not finish within {timeout} s; stderr:\n{self.stderr[-3000:]}"
            ) from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        """Wait until ``text`` shows up on stderr; return the line that holds it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.stderr.splitlines():
                if text in line:
                    return line
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"no {text!r} on stderr; stderr:\n{self.stderr[-3000:]}")

    def type(self, line: str) -> None:
        """Type ``line`` on the program's standard input (spawned ``typed``)."""
        assert self.proc.stdin is not None, "spawn(..., typed=True)"
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def port(self, timeout: float = 30.0) -> int:
        line = self.wait_for("listening ", timeout)
        return int(line.rsplit(":", 1)[1])


def spawn(
    home: Path,
    *args: str,
    prefix: Sequence[str] = (),
    name: str | None = None,
    typed: bool = False,
) -> KoikoiProcess:
    """Start ``koikoi ARGS`` with its own KOIKOI_HOME (``prefix`` runs it, e.g. in a netns);
    ``typed``: its standard input a pipe for :meth:`KoikoiProcess.type` (else empty)."""
    home.mkdir(parents=True, exist_ok=True)
    label = name or (args[0] if args else "koikoi")
    out, err = home / f"{label}.out", home / f"{label}.err"
    env = user_environment(KOIKOI_HOME=str(home), PYTHONUNBUFFERED="1")
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "koikoi", *args],
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.PIPE if typed else subprocess.DEVNULL,
            cwd=REPO,
            env=env,
        )
    return KoikoiProcess(proc, out, err)


def join_and_play(
    home: Path, host: KoikoiProcess, room: str, *args: str, prefix: Sequence[str] = ()
) -> KoikoiProcess:
    """taro's bot (its folder ``home``) joins the room ``room`` by title on 127.0.0.1 (with
    ``args``; ``prefix`` runs it, e.g. in a netns) and plays it to the end with the host's bot;
    both processes exit 0."""
    joiner = spawn(
        home, "join", "--room", room, "--bind", "127.0.0.1", "--bot", "random",
        "--name", "taro", *args, prefix=prefix,
    )  # fmt: skip
    try:
        assert joiner.wait(90) == 0, joiner.stderr
        assert host.wait(90) == 0, host.stderr
    finally:
        joiner.kill()
    return joiner


def assert_same_deals(first: dict[str, Any], second: dict[str, Any]) -> None:
    """Two sides' records of one match hold the same deals, entry by entry, each entry with
    its acknowledgement, but for one thing time decides: the mover of the match's last moves
    reads for their acknowledgements ``LAST_ACK_GRACE`` seconds and then ends
    (koikoi/net/session/acks.py), so on a loaded machine its record may lack the acks of
    its own moves after the peer's last one, which the peer's record holds."""
    records = [copy.deepcopy(first["deals"]), copy.deepcopy(second["deals"])]
    entries = [[action for deal in deals for action in deal["actions"]] for deals in records]
    assert len(entries[0]) == len(entries[1]), "the records hold different numbers of entries"
    if entries[0]:
        last_seat = entries[0][-1]["seat"]
        tail = len(entries[0])
        while tail and entries[0][tail - 1]["seat"] == last_seat:
            tail -= 1
        for n in range(tail, len(entries[0])):
            if any("ack" not in side[n] for side in entries):  # not read in time by one side
                for side in entries:
                    side[n].pop("ack", None)
                    side[n].pop("ack_sig", None)
    assert records[0] == records[1], _first_difference(records[0], records[1])


def _first_difference(first: list[Any], second: list[Any]) -> str:
    """Where two records' deals first differ, in one line (a failure says what, not only
    that)."""
    for number, (one, other) in enumerate(zip(first, second, strict=False)):
        for key in sorted(set(one) | set(other)):
            if key == "actions":
                continue
            if one.get(key) != other.get(key):
                return f"deal {number}: {key} {one.get(key)!r} != {other.get(key)!r}"
        actions = (one.get("actions", []), other.get("actions", []))
        for index, (mine, theirs) in enumerate(zip(*actions, strict=False)):
            if mine != theirs:
                return f"deal {number}, entry {index}: {mine!r} != {theirs!r}"
        if len(actions[0]) != len(actions[1]):
            return f"deal {number}: {len(actions[0])} entries != {len(actions[1])}"
    return f"{len(first)} deals != {len(second)}"
