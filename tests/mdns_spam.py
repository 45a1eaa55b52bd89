"""An mDNS flood for tests: many made-up rooms announced from one source address, for a
bounded time (it stops by itself).

``python -m tests.mdns_spam --source IP --interface IP --rooms N --seconds S [--mute M]``
binds a socket to ``--source`` (any address of this machine or namespace: on loopback any
127.0.0.x) and sends, to 224.0.0.251:5353 out of the interface with the address
``--interface`` only, N rooms (PTR, SRV, TXT and A records; the last M of them as PTR records
alone, so that each lookup of one asks the network and is never answered) every 0.2 s, and
at once whenever it hears a query (it answers faster than a real responder, which waits
20-120 ms). It prints ``spamming`` on stdout once it listens, and exits after S seconds.

It is meant to run inside a network namespace a test made (or on loopback with a handful of
rooms): multicast is sent on the one interface given, never routed.
"""

from __future__ import annotations

import argparse
import secrets
import select
import socket
import struct
import sys
import time

from zeroconf._dns import DNSAddress, DNSPointer, DNSService, DNSText
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.const import _CLASS_IN, _CLASS_IN_UNIQUE, _FLAGS_AA, _FLAGS_QR_RESPONSE

from koikoi.net.discovery.txt import SERVICE_TYPE

GROUP = "224.0.0.251"
PORT = 5353
_TYPE_A, _TYPE_PTR, _TYPE_TXT, _TYPE_SRV = 1, 12, 16, 33
PER_PACKET = 8
SANE = {"v": "3", "rounds": "6", "doubling": "1", "private": "0", "status": "open"}


def txt(**fields: str) -> bytes:
    out = b""
    for key, value in fields.items():
        item = f"{key}={value}".encode()
        out += bytes([len(item)]) + item
    return out


def packets(
    source: str,
    rooms: int,
    mute: int,
    tag: str,
    fp: str | None,
    *,
    ttl: int = 120,
    first: int = 0,
) -> list[bytes]:
    """The flood's packets: ``rooms`` rooms (``Spam TAG I`` for I from ``first``, titled
    ``Spam I``) of ``PER_PACKET`` per packet; ``ttl=0`` says goodbye to them."""
    server = f"spam-{tag}.local."
    out: list[bytes] = []
    for start in range(first, first + rooms, PER_PACKET):
        message = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
        message.add_answer_at_time(
            DNSAddress(server, _TYPE_A, _CLASS_IN_UNIQUE, ttl, socket.inet_aton(source)), 0
        )
        for i in range(start, min(first + rooms, start + PER_PACKET)):
            name = f"Spam {tag} {i}.{SERVICE_TYPE}"
            message.add_answer_at_time(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, ttl, name), 0)
            if i >= first + rooms - mute:
                continue
            fields = {**SANE, "title": f"Spam {i}", "host": "spam"}
            if fp is not None:
                fields["fp"] = fp
            message.add_answer_at_time(
                DNSService(name, _TYPE_SRV, _CLASS_IN_UNIQUE, ttl, 0, 0, 4000 + i, server), 0
            )
            message.add_answer_at_time(
                DNSText(name, _TYPE_TXT, _CLASS_IN_UNIQUE, ttl, txt(**fields)), 0
            )
        out.extend(message.packets())
    return out


def sender(source: str, interface: str) -> socket.socket:
    """A socket that sends from ``source`` to the mDNS group, out of the interface with the
    address ``interface`` only (and to this machine's own listeners)."""
    send = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    send.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    send.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(interface))
    send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
    send.bind((source, PORT))
    send.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    return send


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mdns_spam")
    parser.add_argument("--source", required=True)
    parser.add_argument("--interface", required=True)
    parser.add_argument("--rooms", type=int, default=300)
    parser.add_argument("--mute", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--fp", default=None, help="the TXT fp every spam room claims")
    args = parser.parse_args(argv)
    tag = secrets.token_hex(3)
    flood = packets(args.source, args.rooms, args.mute, tag, args.fp)

    send = sender(args.source, args.interface)

    listen = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
    listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listen.bind((GROUP, PORT))
    membership = struct.pack("4s4s", socket.inet_aton(GROUP), socket.inet_aton(args.interface))
    listen.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)

    def burst() -> None:
        for packet in flood:
            try:
                send.sendto(packet, (GROUP, PORT))
            except BlockingIOError:
                time.sleep(0.001)

    print("spamming", flush=True)
    end = time.monotonic() + args.seconds
    next_burst = 0.0
    while (now := time.monotonic()) < end:
        if now >= next_burst:
            burst()
            next_burst = now + 0.2
        ready, _, _ = select.select([listen], [], [], max(0.0, min(next_burst, end) - now))
        if ready:
            data, (asker, _) = listen.recvfrom(9000)
            query = len(data) > 2 and not data[2] & 0x80
            if query and asker != args.source:
                burst()
    send.close()
    listen.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
