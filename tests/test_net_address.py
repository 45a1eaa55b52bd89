"""``koikoi.net.address``: one rule for ``HOST:PORT`` everywhere, and the command line's use of
it (``koikoi join ADDRESS``: a bad address is one line and exit 2, CLI.md). The window's
address field is held to the same cases (``tests/addresses.py``) in
``tests/test_ui_lobby_address.py``."""

from __future__ import annotations

import ipaddress
import socket
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from koikoi.net.address import format_address, parse_address
from tests.addresses import BAD_ADDRESSES

PORTS = st.integers(min_value=1, max_value=65535)
IPV4 = st.ip_addresses(v=4).map(str)
ZONES = st.from_regex(r"[A-Za-z0-9_.-]{1,15}", fullmatch=True)
IPV6 = st.ip_addresses(v=6).map(str) | st.tuples(
    st.ip_addresses(v=6, network="fe80::/10").map(str), ZONES
).map("%".join)
LABEL = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True)
HOST_NAMES = st.lists(LABEL, min_size=1, max_size=4).map(".".join)
SPACES = st.text(" \t\n\u3000", max_size=3)
"""What may surround a pasted address (an ideographic space from a Japanese keyboard too)."""


@given(IPV4 | IPV6 | HOST_NAMES, PORTS, SPACES, SPACES)
def test_what_is_formatted_parses_back(host: str, port: int, before: str, after: str) -> None:
    text = format_address(host, port)
    assert parse_address(before + text + after) == (host, port)
    assert format_address(*parse_address(text)) == text


@given(IPV6, PORTS)
def test_an_ipv6_address_is_never_split_at_its_last_colon(host: str, port: int) -> None:
    """``ADDR:PORT`` without brackets is refused, whatever the address: "::1:80" is itself an
    address, and no rule can tell it from ``[::1]:80`` (the rule in koikoi.net.address)."""
    with pytest.raises(ValueError, match=r"^an address is HOST:PORT with an IPv6 host in brack"):
        parse_address(f"{host}:{port}")
    with pytest.raises(ValueError, match="IPv6 host in brackets"):
        parse_address(host)  # no port: there is no default port


@given(st.text(max_size=60))
def test_any_text_parses_or_is_refused_in_one_line(text: str) -> None:
    try:
        host, port = parse_address(text)
    except ValueError as error:
        message = str(error)
        assert message.startswith("an address is HOST:PORT") and "\n" not in message
        assert len(message) < 300
        return
    assert 1 <= port <= 65535 and host and host == host.strip()
    assert parse_address(format_address(host, port)) == (host, port)
    if ":" in host:
        ipaddress.IPv6Address(host)


@pytest.mark.parametrize("text", BAD_ADDRESSES)
def test_bad_addresses_are_refused_with_the_text_named(text: str) -> None:
    with pytest.raises(ValueError, match="^an address is HOST:PORT") as caught:
        parse_address(text)
    assert "\n" not in str(caught.value) and repr(text[:20])[:-1] in str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.0.2.1:4000", ("192.0.2.1", 4000)),
        ("  192.0.2.1:4000\n", ("192.0.2.1", 4000)),
        ("[::1]:80", ("::1", 80)),
        (" [2001:db8::20]:4000 ", ("2001:db8::20", 4000)),
        ("[fe80::1%eth0]:65535", ("fe80::1%eth0", 65535)),
        ("hana.local:1", ("hana.local", 1)),
        ("hana.local:0080", ("hana.local", 80)),
    ],
)
def test_good_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


# --- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize("text", BAD_ADDRESSES)
def test_join_refuses_a_bad_address_in_one_line_with_exit_2(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before koikoi.net.address the command line dialled "::1:80" as [::1]:80 and the Arabic
    digits as port 4000, and 5,000 digits were a traceback."""
    from koikoi import cli  # in-process: the same parser and checks, without a start-up

    assert cli.main(["join", text, "--timeout", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("koikoi: join: an address is HOST:PORT") and err.count("\n") == 1, err


def test_join_dials_an_address_with_spaces_around_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A pasted address with spaces is the address: the command dials it (here a listener that
    hangs up at once, so the join ends early, exit 1, having connected)."""
    from koikoi import cli

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    accepted: list[str] = []

    def hang_up() -> None:
        connection, peer = listener.accept()
        accepted.append(peer[0])
        connection.close()

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    try:
        assert cli.main(["join", f"  127.0.0.1:{port} ", "--timeout", "10"]) == 1
    finally:
        listener.close()
    thread.join(5)
    assert accepted == ["127.0.0.1"]
    out, err = capsys.readouterr()
    assert '"finished": false' in out and err.startswith("koikoi: ")


def test_host_names_an_ipv6_address_it_cannot_listen_on_in_brackets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Not "cannot listen on 2001:db8::1:0", which reads as another address."""
    from koikoi import cli

    assert cli.main(["host", "--bind", "2001:db8::1", "--port", "0", "--bot", "random"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("koikoi: cannot listen on [2001:db8::1]:0: ")
    assert err.count("\n") == 1
