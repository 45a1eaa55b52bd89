"""Why the router opened no port, in the player's language (``mapping_detail`` of
koikoi/ui/net/neterrors.py): every :class:`~koikoi.net.portmap.MappingFailed` the product
raises names a code that has a phrase, with the phrase's every field; the real PCP and NAT-PMP
mappers' refusals are said in Japanese without English, their own line in English; and an
internet room's waiting page, in Japanese, says a refusing router's reason in Japanese."""

from __future__ import annotations

import ast
import socket
import string
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from koikoi.net.natpmp import RESULTS as NATPMP_RESULTS
from koikoi.net.natpmp import parse_mapping
from koikoi.net.pcp import RESULTS as PCP_RESULTS
from koikoi.net.pcp import PcpMapper
from koikoi.net.portmap import MappingFailed, open_first
from koikoi.ui.common import names
from koikoi.ui.main_window import MainWindow
from koikoi.ui.net.neterrors import _mapping_phrases, mapping_detail
from tests.test_net_pcp import Router
from tests.test_ui_i18n_failures import english_in
from tests.test_ui_joincode import _no_mdns, lobby_window, open_room  # noqa: F401  (a fixture)
from tests.ui_driver import close_window

REPO = Path(__file__).resolve().parent.parent
LEASE = 120


def raised_codes() -> list[tuple[str, str, set[str]]]:
    """(where, code, keyword names) of every ``MappingFailed(...)`` call in ``koikoi/``."""
    found = []
    for path in sorted((REPO / "koikoi").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "MappingFailed"):
                continue
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            code = node.args[1] if len(node.args) > 1 else None
            assert isinstance(code, ast.Constant) and isinstance(code.value, str), (
                f"{where}: a MappingFailed without its code (the window cannot say it)"
            )
            found.append((where, code.value, {k.arg for k in node.keywords if k.arg}))
    return found


def test_every_mapping_failure_names_a_code_whose_phrase_it_fills(qapp: object) -> None:
    phrases = _mapping_phrases()
    found = raised_codes()
    assert len(found) >= 25, found  # the package was read
    for where, code, params in found:
        phrase = phrases.get(f"map.{code}")
        assert phrase is not None, f"{where}: map.{code} has no phrase"
        fields = {f for _, f, _, _ in string.Formatter().parse(phrase) if f}
        if code == "refused_by":  # the meaning is the window's words for the result code
            assert {"protocol", "result"} <= params, where
            fields -= {"meaning"}
        assert fields <= params, f"{where}: map.{code} says {fields}, the call gives {params}"
    said = {f"map.{code}" for _, code, _ in found}
    assert said == set(phrases), set(phrases) ^ said  # no phrase for a failure never raised
    doc = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert not [code for code in said if f"`{code}`" not in doc]  # its table names each


@pytest.fixture
def router() -> Iterator[Router]:
    built = Router()
    yield built
    built.close()


def failures(router: Router) -> list[MappingFailed]:
    """The real mappers' failures: a PCP router refusing with each RFC 6887 code (over a
    socket), NAT-PMP's answer with each RFC 6886 code, a port where nothing listens, and
    no router answering at all."""
    out: list[MappingFailed] = []
    for result in PCP_RESULTS:
        router.result = result
        with pytest.raises(MappingFailed) as caught:
            PcpMapper(LEASE, gateway="127.0.0.1", port=router.port).open(40213)
        out.append(caught.value)
    for result in NATPMP_RESULTS:
        with pytest.raises(MappingFailed) as caught:
            parse_mapping(struct.pack("!BBHIHHI", 0, 130, result, 7, 40213, 40213, 0))
        out.append(caught.value)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as closed:
        closed.bind(("127.0.0.1", 0))
        nobody = closed.getsockname()[1]
    silent = PcpMapper(LEASE, gateway="127.0.0.1", port=nobody)
    with pytest.raises(MappingFailed) as caught:
        silent.open(40213)
    out.append(caught.value)
    with pytest.raises(MappingFailed) as caught:
        open_first([PcpMapper(LEASE, gateway="127.0.0.1", port=nobody)], 40213)
    out.append(caught.value)
    return out


def test_the_mappers_failures_are_said_in_japanese_and_in_their_own_english(
    qapp: object, router: Router
) -> None:
    found = failures(router)
    codes = {getattr(e, "error_code", "") for e in found}
    assert {"map.refused_by", "map.unspoken", "map.none"} <= codes, codes
    assert all(mapping_detail(e) == str(e) for e in found)  # English: the line as it is
    assert names.install_translations("ja")
    try:
        said = [mapping_detail(e) for e in found]
    finally:
        names.install_translations("en")
    for error, line in zip(found, said, strict=True):
        assert not english_in(line), f"{error!s} -> {line}"
        assert len([c for c in line if "\u3040" <= c <= "\u9fff"]) >= 8, line
    # the result codes a home router gives are told apart; an unknown one by its number
    refusals = said[: len(PCP_RESULTS)]
    assert len({refusals[1], refusals[6], refusals[7], refusals[11]}) == 4, refusals
    assert "13" in refusals[12]


def test_an_internet_rooms_refusing_router_is_said_in_japanese(
    qtbot: QtBot, tmp_path: Path, router: Router, japanese: None
) -> None:
    router.result = 2  # NOT_AUTHORIZED: PCP turned off for this machine
    host: MainWindow = lobby_window(qtbot, tmp_path / "hana", "hana")
    try:
        host.lobby.mappers = lambda: [PcpMapper(LEASE, gateway="127.0.0.1", port=router.port)]
        open_room(qtbot, host.lobby, internet=True, password="matsu")
        page = host.lobby.waiting_page
        qtbot.waitUntil(lambda: "PCP" in page.internet.text(), timeout=10_000)
        text = page.internet.text()
        assert not english_in(text), text
        assert "PCP" in text and "無効" in text, text  # its protocol, and turned off
    finally:
        close_window(host)
