"""Addresses as people type them and as the program shows them: ``HOST:PORT``.

One rule for the command line (``koikoi join HOST:PORT``), the window's address field, a
record's ``resume`` address and the rooms mDNS lists (Qt-free, stdlib only):

- ``HOST:PORT`` where HOST is an IPv4 address or a host name, and ``[IPV6]:PORT`` for an IPv6
  address (RFC 3986's brackets; a zone may follow, ``[fe80::1%eth0]:4000``). PORT is 1-65535
  in ASCII digits.
- Spaces around the whole text are dropped (a pasted address often carries them); none may be
  inside it.
- **An IPv6 address is never split at its last colon.** ``::1:80`` is itself a whole IPv6
  address (``0:0:0:0:0:0:1:80``), so reading its last group as a port would be a guess that
  turns ``fe80::4000`` into the host ``fe80:`` and the port 4000. A host with a colon outside
  brackets is therefore refused, with a line that says to write ``[IPV6]:PORT``. Every caller
  needs a port (there is no default port), so a bare IPv6 address is refused the same way.

:func:`format_address` writes what :func:`parse_address` reads: for every host it accepts,
``parse_address(format_address(host, port)) == (host, port)`` (``tests/test_net_address.py``).

>>> parse_address(" 192.0.2.1:4000 "), parse_address("[::1]:80"), parse_address("hana.lan:1")
(('192.0.2.1', 4000), ('::1', 80), ('hana.lan', 1))
>>> format_address("192.0.2.1", 4000), format_address("fe80::1%3", 80)
('192.0.2.1:4000', '[fe80::1%3]:80')
"""

from __future__ import annotations

import ipaddress
from typing import Final

__all__ = ["format_address", "parse_address"]

MAX_PORT: Final = 65535
_USAGE: Final = "an address is HOST:PORT with a port 1-65535"
_BRACKETS: Final = "an address is HOST:PORT with an IPv6 host in brackets ([2001:db8::1]:4000)"


def format_address(host: str, port: int) -> str:
    """``host:port``, an IPv6 address (any host with a colon) in brackets.

    >>> format_address("10.0.0.2", 4000), format_address("::1", 4000)
    ('10.0.0.2:4000', '[::1]:4000')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[IPV6]:PORT`` (spaces around it dropped) as ``(host, port)``, the
    IPv6 address without its brackets. Anything else raises :class:`ValueError` with one line
    naming the text (the module's rule).

    >>> parse_address("[fe80::1%eth0]:4000")
    ('fe80::1%eth0', 4000)
    >>> parse_address("hana")
    Traceback (most recent call last):
    ValueError: an address is HOST:PORT with a port 1-65535, not 'hana'
    >>> parse_address("::1:80")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: an address is HOST:PORT with an IPv6 host in brackets (...), not '::1:80'
    """
    stripped = text.strip()
    if stripped.startswith("["):
        host, close, rest = stripped[1:].partition("]")
        sep, port_text = rest[:1], rest[1:]
        if not close or sep != ":" or not _is_ipv6(host):
            raise ValueError(f"{_BRACKETS}, not {_shown(text)}")
    else:
        host, sep, port_text = stripped.rpartition(":")
        if ":" in host:  # "::1:80", "fe80::4000": an IPv6 address, no port (the rule above)
            raise ValueError(f"{_BRACKETS}, not {_shown(text)}")
        if not sep or not _is_host_name(host):
            raise ValueError(f"{_USAGE}, not {_shown(text)}")
    # ASCII digits only (str.isdigit takes "٤٠٠٠"), and few enough for int() to take
    if not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        raise ValueError(f"{_USAGE}, not {_shown(text)}")
    port = int(port_text)
    if not 1 <= port <= MAX_PORT:
        raise ValueError(f"{_USAGE}, not {_shown(text)}")
    return host, port


def _shown(text: str) -> str:
    """``text`` quoted for an error line (escapes keep it one line), cut if long."""
    return repr(text) if len(text) <= 80 else repr(text[:80]) + "..."


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _is_host_name(text: str) -> bool:
    """An IPv4 address or a name to look up: not empty, no spaces, brackets or controls."""
    return bool(text) and text.isprintable() and not any(c.isspace() or c in "[]" for c in text)
