"""Both sides dial (docs/protocol.md "Both sides dial"; koikoi/net/transport/bothdial.py and
bothjoin.py) over loopback, both ends in one event loop: one port listened on in both
families and dialled out from; the listening joiner that plays only the host its code names
(a third party that calls it during the window is refused by the pinned fingerprint, and
the real host still gets in); the host that took a reply code lets in only that joiner; a
password room's listening joiner backs off a caller that guesses. The routers and firewalls
are tests/test_net_nat.py's."""

from __future__ import annotations

import asyncio
import errno
import io
import socket

import pytest

from koikoi.net.portmap import Mapping
from koikoi.net.transport.bothdial import ANSWERED, dial_from, listen_both
from koikoi.net.transport.bothjoin import Joined, join_both_ways
from koikoi.net.transport.joiner import join
from koikoi.net.transport.options import Outcome
from koikoi.net.transport.room import Room
from tests.test_net_transport import Bot, options


def test_one_port_listens_in_both_families_and_dials_out() -> None:
    async def main() -> tuple[list[tuple[socket.AddressFamily, int]], int, tuple[str, int]]:
        sockets = listen_both(0)
        bound = [(s.family, s.getsockname()[1]) for s in sockets]
        port = bound[0][1]
        seen: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()

        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if not seen.done():
                seen.set_result(writer.get_extra_info("peername")[:2])
            writer.close()

        server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        target = ("127.0.0.1", server.sockets[0].getsockname()[1])
        connected: list[tuple[str, int]] = []
        loop = asyncio.get_running_loop()
        try:
            why = await dial_from(
                port, [target], loop.time() + 5, lambda streams, c: connected.append(c)
            )
            assert why == {target: ANSWERED} and connected == [target]  # if no match came
            return bound, port, await asyncio.wait_for(seen, 5)
        finally:
            server.close()
            for sock in sockets:
                sock.close()

    bound, port, peer = asyncio.run(main())
    assert [p for _, p in bound] == [port] * len(bound)
    assert [f for f, _ in bound] in ([socket.AF_INET], [socket.AF_INET, socket.AF_INET6])
    assert peer == ("127.0.0.1", port)  # dialled from the listening port itself


def test_a_port_another_program_listens_on_is_not_shared() -> None:
    """SO_REUSEPORT lets the room's port dial out; it must not let a second room (or any
    program) listen on a port already taken."""
    taken = listen_both(0)
    try:
        port = taken[0].getsockname()[1]
        with pytest.raises(OSError) as raised:
            listen_both(port)
        assert raised.value.errno == errno.EADDRINUSE
    finally:
        for sock in taken:
            sock.close()
    again = listen_both(port)  # free again: taken at once
    for sock in again:
        sock.close()


def test_nothing_answering_is_said_per_address_when_the_window_closes() -> None:
    async def main() -> dict[tuple[str, int], str]:
        sockets = listen_both(0)
        port = sockets[0].getsockname()[1]
        free = socket.socket()
        free.bind(("127.0.0.1", 0))
        nobody = ("127.0.0.1", free.getsockname()[1])
        free.close()
        loop = asyncio.get_running_loop()
        try:
            return await dial_from(port, [nobody], loop.time() + 1.0, lambda s, c: None)
        finally:
            for sock in sockets:
                sock.close()

    why = asyncio.run(main())
    assert len(why) == 1 and "refused" in next(iter(why.values())).lower(), why


def test_an_attempt_that_times_out_says_nothing_over_an_earlier_refusal() -> None:
    """What the window's end tells of an address is the last thing it said: refused at
    first, then silent (its listening queue full: the SYNs go unanswered), it is still said
    refused, not "no answer", whenever the window closes on an attempt in flight."""

    async def main() -> dict[tuple[str, int], str]:
        sockets = listen_both(0)
        port = sockets[0].getsockname()[1]
        target_sock = socket.socket()
        target_sock.bind(("127.0.0.1", 0))  # not listening: a dial is refused
        target = ("127.0.0.1", target_sock.getsockname()[1])
        loop = asyncio.get_running_loop()
        why: dict[tuple[str, int], str] = {}
        filler: socket.socket | None = None
        try:
            dialling = asyncio.ensure_future(
                dial_from(port, [target], loop.time() + 2.0, lambda s, c: None, 0.3, why)
            )
            while target not in why:  # refused once; the next attempt after a pause
                await asyncio.sleep(0.005)
            target_sock.listen(0)
            filler = socket.create_connection(target, timeout=2)  # the one place queued
            return await dialling
        finally:
            for sock in [*sockets, target_sock, *([filler] if filler else [])]:
                sock.close()

    why = asyncio.run(main())
    assert len(why) == 1 and "refused" in next(iter(why.values())).lower(), why


def test_a_third_party_calling_a_listening_joiner_is_refused_by_the_pinned_fingerprint() -> None:
    """Attack: during the window, a program with another identity dials the joiner's port
    first. The joiner's handshake refuses it (the code pinned the host), nothing is played
    with it, and the real host, calling next, plays the match."""

    async def main() -> tuple[Joined | dict[tuple[str, int], str], Outcome, list[str], str]:
        loop = asyncio.get_running_loop()
        real, fake = options("hana"), options("mallory")
        joiner = options("taro")
        joiner.expected_fingerprint = real.identity.fingerprint
        sockets = [s for s in listen_both(0) if s.family == socket.AF_INET]
        port = sockets[0].getsockname()[1]
        joining = asyncio.ensure_future(
            join_both_ways(sockets, port, [], loop.time() + 20, joiner, Bot(2))
        )
        turned: list[str] = []
        impostor = Room(fake, Bot(9), on_refused=lambda address, why: turned.append(why))
        await impostor.open("127.0.0.1", 0)
        room = Room(real, Bot(1))
        await room.open("127.0.0.1", 0)
        try:
            impostor.take(await asyncio.open_connection("127.0.0.1", port))
            while not turned:
                await asyncio.sleep(0.01)
            room.take(await asyncio.open_connection("127.0.0.1", port))
            joined = await asyncio.wait_for(joining, 60)
            return joined, await room.outcome(), turned, real.identity.fingerprint
        finally:
            await impostor.close()
            await room.close()

    joined, hosted, turned, host_fp = asyncio.run(main())
    assert isinstance(joined, Joined)
    assert joined.outcome.finished and hosted.finished
    assert joined.outcome.session is not None
    assert joined.outcome.session.peer.fingerprint == host_fp
    assert len(turned) == 1 and "identity" in turned[0], turned


def test_a_host_that_took_a_reply_code_lets_in_only_that_joiner() -> None:
    """Attack: once the host took a reply code, anyone else who calls its room (a scanner
    that found the port, a relay) is turned away in the handshake; the joiner the reply
    names plays."""

    async def main() -> tuple[Outcome, Outcome, Outcome]:
        host, taro, jiro = options("hana"), options("taro"), options("jiro")
        host.expected_joiner = taro.identity.fingerprint
        room = Room(host, Bot(1))
        _, port = await room.open("127.0.0.1", 0)
        try:
            other = await join("127.0.0.1", port, jiro, Bot(3))
            joined = await join("127.0.0.1", port, taro, Bot(2))
            return other, joined, await room.outcome()
        finally:
            await room.close()

    other, joined, hosted = asyncio.run(main())
    assert other.session is None and other.failure is not None
    assert "identity" in other.failure, other.failure
    assert joined.finished and hosted.finished


def test_a_password_rooms_listening_joiner_backs_off_a_caller_that_guesses() -> None:
    """Attack: in a password room each call to the listening joiner would be one online
    guess of the password for the caller. The room's limits hold on it: after the second
    wrong guess from an address, that address waits (its next call gets no hello, so no
    guess), and the real host, with the password, still plays."""

    async def main() -> tuple[list[int], int, Joined | dict[tuple[str, int], str]]:
        loop = asyncio.get_running_loop()
        real, guesser, joiner = options("hana"), options("mallory"), options("taro")
        real.password = joiner.password = "matsu"
        guesser.password = "guess"
        joiner.expected_fingerprint = real.identity.fingerprint
        sockets = [s for s in listen_both(0) if s.family == socket.AF_INET]
        port = sockets[0].getsockname()[1]
        joining = asyncio.ensure_future(
            join_both_ways(sockets, port, [], loop.time() + 30, joiner, Bot(2))
        )
        wrong: list[int] = []
        turned: list[str] = []
        impostors = []
        room = Room(real, Bot(1))
        await room.open("127.0.0.1", 0)
        try:
            for calls in (1, 2, 3):  # a fresh room each time: no limit of its own in the way
                impostor = Room(
                    guesser,
                    Bot(9),
                    on_wrong_password=lambda host, count: wrong.append(count),
                    on_refused=lambda address, why: turned.append(why),
                )
                impostors.append(impostor)
                await impostor.open("127.0.0.1", 0)
                impostor.take(await asyncio.open_connection("127.0.0.1", port))
                while len(turned) < calls:
                    await asyncio.sleep(0.01)
            guesses = len(wrong)
            await asyncio.sleep(1.2)  # the address's back-off after two wrong guesses
            room.take(await asyncio.open_connection("127.0.0.1", port))
            joined = await asyncio.wait_for(joining, 60)
            return wrong, guesses, joined
        finally:
            for impostor in impostors:
                await impostor.close()
            await room.close()

    wrong, guesses, joined = asyncio.run(main())
    assert guesses == 2, wrong  # the third call got no hello: no guess
    assert isinstance(joined, Joined) and joined.outcome.finished


class _Router:
    """A mapper that did its work already (the pinhole below) and removes it quietly."""

    lease = 120
    answered = True

    def open(self, port: int) -> Mapping:
        raise AssertionError("the pinhole is open already")

    def renew(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_room_whose_input_ended_waits_on_only_while_it_has_a_way_in() -> None:
    """``host --internet`` with nothing to type to it (its input ended): without a mapping
    or a pinhole the room ends in one line; with an IPv6 pinhole a peer can still come, and
    it waits."""
    from koikoi.net.cli_internet import Leased
    from koikoi.net.cli_internet_host import InternetRoom, _Lines

    async def ends(pinhole: bool) -> str | None:
        host = options("hana")
        room = Room(host, Bot(1))
        _, port = await room.open("127.0.0.1", 0)
        hole = Mapping("2001:db8:61::10", port, "2001:db8:61::10", port, "PCP pinhole")
        internet = InternetRoom(
            room, port, host, None, "127.0.0.1", Leased(_Router(), hole) if pinhole else None
        )
        internet.take_replies(_Lines(io.StringIO("")))
        try:
            return await asyncio.wait_for(asyncio.shield(internet.ended), 1.0)
        except TimeoutError:
            return None
        finally:
            await internet.close()
            await room.close()

    line = asyncio.run(ends(pinhole=False))
    assert line is not None and line.startswith("no reply code came before the input ended")
    assert "UPnP" in line
    assert asyncio.run(ends(pinhole=True)) is None
