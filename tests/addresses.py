"""The addresses every door refuses, one table for all of them: ``koikoi.net.address`` and
``koikoi join ADDRESS`` (``tests/test_net_address.py``) and the lobby's address field
(``tests/test_ui_lobby_address.py``) are held to the same cases, so a case added here is
checked at every door."""

from __future__ import annotations

BAD_ADDRESSES: list[str] = [
    "",
    "   ",
    "nowhere",
    "127.0.0.1",
    "127.0.0.1:",
    "127.0.0.1:0",
    "127.0.0.1:65536",
    "127.0.0.1:-1",
    "127.0.0.1:+80",
    "127.0.0.1: 80",
    "127.0.0.1:\u0664\u0660\u0660\u0660",  # Arabic-Indic 4000: str.isdigit and int() take it
    "127.0.0.1:" + "9" * 5000,  # int() refuses more than 4300 digits, with its own message
    ":4000",
    "hana lan:4000",
    "::1",
    "::1:80",  # a whole IPv6 address (0:0:0:0:0:0:1:80), never [::1]:80 by a guess
    "fe80::1:4000",
    "[::1]",
    "[::1]:",
    "[::1]80",
    "[::1:80",
    "[hana.lan]:80",
    "[127.0.0.1]:80",
    "[::1]:0",
]
"""Addresses every door refuses: the command line, the window's field, a record's note."""
