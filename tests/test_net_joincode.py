"""The join code (koikoi/net/joincode.py, docs/protocol.md "Join code"): what a code says
comes back whole, every single-character typo is caught, and ``koikoi join CODE`` pins the
host's fingerprint over a real loopback connection (a forged one is refused)."""

from __future__ import annotations

import base64
import ipaddress
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi.net.identity import Identity, load_or_create_identity
from koikoi.net.joincode import (
    ALPHABET,
    MAX_EACH,
    Candidate,
    JoinCode,
    JoinCodeError,
    decode,
    encode,
    looks_like_code,
)
from tests.conftest import run_koikoi
from tests.net_support import spawn

ports = st.integers(1, 65535)
ipv4 = st.builds(lambda n: str(ipaddress.IPv4Address(n)), st.integers(0, 2**32 - 1))
ipv6 = st.builds(lambda n: str(ipaddress.IPv6Address(n)), st.integers(0, 2**128 - 1))
fingerprints = st.binary(min_size=10, max_size=10).map(
    lambda raw: "-".join(base64.b32encode(raw).decode().lower()[i : i + 4] for i in (0, 4, 8, 12))
)
"""Any 80 bits, written as :func:`koikoi.net.identity.fingerprint` writes them."""


@st.composite
def codes(draw: st.DrawFn) -> JoinCode:
    v4 = draw(st.lists(st.builds(Candidate, ipv4, ports), max_size=MAX_EACH))
    v6 = draw(st.lists(st.builds(Candidate, ipv6, ports), max_size=MAX_EACH, min_size=not v4))
    mapped, reply = draw(st.booleans()), draw(st.booleans())
    return JoinCode(tuple(v4 + v6), draw(fingerprints), mapped=mapped, reply=reply)


@settings(max_examples=300)
@given(codes())
def test_a_code_says_what_it_was_made_of(code: JoinCode) -> None:
    text = encode(code)
    assert decode(text) == code
    assert looks_like_code(text)
    assert set(text) <= set(ALPHABET + "-")
    assert decode(f"  {text.lower().replace('-', ' ')} ") == code  # as read over the phone
    misread = text.replace("0", "O").replace("1", "l")
    assert decode(misread) == code  # O and 0, l and 1: the same symbol


def _typos(symbols: str) -> list[str]:
    """Every text one typo away from ``symbols``: a symbol changed into any other, one left
    out, one added anywhere, two different neighbours swapped."""
    out: list[str] = []
    for i, ch in enumerate(symbols):
        out += [symbols[:i] + other + symbols[i + 1 :] for other in ALPHABET if other != ch]
        out.append(symbols[:i] + symbols[i + 1 :])
        if i + 1 < len(symbols) and symbols[i + 1] != ch:
            out.append(symbols[:i] + symbols[i + 1] + ch + symbols[i + 2 :])
    for i in range(len(symbols) + 1):
        out += [symbols[:i] + extra + symbols[i:] for extra in ALPHABET]
    return out


@settings(max_examples=40, deadline=None)
@given(codes())
def test_every_single_character_typo_is_caught(code: JoinCode) -> None:
    symbols = encode(code).replace("-", "")
    for typo in _typos(symbols):
        with pytest.raises(JoinCodeError):
            decode(typo)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "symbols, not 0"),
        ("KOI-KOI", "symbols, not 6"),
        ("0" * 29, "symbols, not 29: check it for a missing"),
        ("U" * 30, "but U, not 'U'"),
        ("é" * 30, "not 'é'"),
    ],
)
def test_what_is_not_a_code_is_said_in_one_line(text: str, says: str) -> None:
    with pytest.raises(JoinCodeError, match=says) as raised:
        decode(text)
    assert "\n" not in str(raised.value)


def test_a_reply_code_is_told_from_a_rooms_code() -> None:
    fp = Identity.generate().fingerprint
    room = JoinCode((Candidate("192.0.2.7", 4000),), fp)
    reply = JoinCode((Candidate("192.0.2.7", 4000),), fp, reply=True)
    assert encode(room) != encode(reply)
    assert decode(encode(reply)).reply and not decode(encode(room)).reply
    assert len(encode(room)) == len(encode(reply))  # the same lengths: typos caught alike


def _code_for(port: int, fp: str) -> str:
    return encode(JoinCode((Candidate("127.0.0.1", port),), fp))


def test_an_internet_room_on_the_loopback_is_refused_in_one_line() -> None:
    proc = run_koikoi("host", "--internet", "--bind", "127.0.0.1")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "--internet" in proc.stderr, proc.stderr


def test_a_mistyped_code_is_exit_2_with_one_line() -> None:
    code = _code_for(4000, Identity.generate().fingerprint)
    last = code[-1]
    typo = code[:-1] + ("0" if last != "0" else "1")
    proc = run_koikoi("join", typo)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "typo" in proc.stderr, proc.stderr


@pytest.mark.timeout(200)
def test_joining_by_code_plays_the_match_and_pins_the_host(tmp_path: Path) -> None:
    host_home = tmp_path / "host"
    host_home.mkdir()
    fp = load_or_create_identity(host_home).fingerprint
    host = spawn(host_home, "host", "--bind", "127.0.0.1", "--bot", "random", "--name", "hana")
    try:
        code = _code_for(host.port(), fp)
        joiner = spawn(tmp_path / "joiner", "join", code, "--bot", "random", "--name", "taro")
        try:
            assert joiner.wait(150) == 0, joiner.stderr
            assert host.wait(150) == 0, host.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    assert joiner.result()["finished"] is True
    assert joiner.result()["route"] == "lan"  # the code named no mapping
    assert "route" not in host.result()  # a room that took no part in routing
    assert f"({fp}, new peer)" in joiner.stderr
    assert f"the host's identity is {fp}, as the join code says" in joiner.stderr


@pytest.mark.timeout(120)
def test_a_forged_fingerprint_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    forged = Identity.generate().fingerprint
    host = spawn(tmp_path / "host", "host", "--bind", "127.0.0.1", "--bot", "random")
    try:
        joiner = spawn(tmp_path / "joiner", "join", _code_for(host.port(), forged), "--bot",
                       "random")  # fmt: skip
        try:
            assert joiner.wait(60) == 1, joiner.stderr
        finally:
            joiner.kill()
    finally:
        host.kill()
    result = joiner.result()
    assert result["finished"] is False and result["ended"] == "refused"
    assert result["rounds"] == []
    lines = [line for line in joiner.stderr.splitlines() if forged in line]
    assert len(lines) == 1 and "not joined" in lines[0], joiner.stderr
    assert "playing" not in joiner.stderr  # no handshake finished
