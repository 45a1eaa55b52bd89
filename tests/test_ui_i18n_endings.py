"""How a network match ended, in Japanese: every reason the network layer gives an ``Ending``
becomes a translated sentence, its English details (the system's, the peer's, the session's)
going to the log only; an ending this app does not know is said in general words.

The mapping is checked for every reason ``koikoi/net`` produces; then the endings are made to
happen for real between two windows over loopback: a cut connection, a hostile peer (built from
our own modules) sending a message the session does not take, a move that does not check, a
failure inside this app. Each side's message box is read for English.

New source strings come untranslated until the translations are regenerated at a merge: their
words are allowed while ``koikoi_ja.qm`` lacks them (:func:`pending`), so no other English
passes, and the test turns strict by itself once they are translated.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from pytestqt.qtbot import QtBot

from koikoi.net.roles import Role
from koikoi.net.session.endings import BYE_REASONS, CARDS_DIFFER, CARDS_DIFFER_PEER, Ending, How
from koikoi.net.wire import encode_message
from koikoi.ui.common import names
from koikoi.ui.net.netmatch import ending_text
from koikoi.ui.net.prematch import ending_text as prematch_ending_text
from tests.net_support import Table, in_play
from tests.test_ui_i18n import ALLOWED
from tests.test_ui_i18n_failures import english_in
from tests.test_ui_network import Pair, ended_message, mid_round, saved_record

NEW_SOURCES = [
    ("MainWindow", "The match was stopped: this app failed."),
    ("MainWindow", "The match with {0} ended: {1}."),
    ("NetErrors", "it gave no reason this app knows"),
    ("NetErrors", "it waited too long for a move from this side"),
    ("NetErrors", "it said the match is over, but it is not over here"),
    ("NetErrors", "a message that cannot be read"),
    ("NetErrors", "a message that does not fit at this point of the match"),
    ("NetErrors", "it was not taken back in time"),
    ("NetErrors", "this app failed"),
    ("NetErrors", "the connection was lost"),
    ("NetErrors", "the match ended in a way this app does not know"),
    ("NetErrors", "it plays another card than the one its app opened"),
    ("NetErrors", "its draw does not match the keys exchanged for it"),
    ("NetErrors", "its dealing seed is not the one it committed to"),
    ("NetErrors", "it kept quiet a hand that ended the deal at once (a teyaku)"),
    ("NetErrors", "it played a card its dealt hand did not hold"),
    ("NetErrors", "its part of the private dealing does not check"),
    ("NetErrors", "it asked to open a draw its move does not make"),
    ("NetErrors", "it opened a card out of its turn"),
    ("NetErrors", "it revealed its dealing seed before the deal was over"),
    ("NetErrors", "the deck it keeps is not the one it sent"),
    ("NetErrors", "a draw"),
    ("NetErrors", "you won"),
    ("NetErrors", "you lost"),
    (
        "NetErrors",
        "The result stands as the signed moves give it ({1}). {0} did not reveal its seed"
        " of the last deal, so that deal's audit could not be done.",
    ),
    (
        "NetErrors",
        "The result stands as the signed moves give it ({1}). The audit of the last deal"
        " failed: {0}'s part of the dealing does not check.",
    ),
    (
        "NetErrors",
        "The result stands as the signed moves give it ({0}). The audit of the last deal"
        " failed on this side's part of the dealing.",
    ),
    (
        "NetErrors",
        "{0} did not reveal its seed of the deal just played, so the deal could not be"
        " audited: the match ended, abandoned by {0}.",
    ),
    ("NetErrors", "it declared a teyaku its hand does not hold"),
]
"""The messages this change added (translated at the merge, with the others)."""

pytestmark = pytest.mark.usefixtures("japanese")  # every test reads the app in Japanese

MARK = "Zqxj"
"""A word no phrase holds, put in every free-text detail: it must reach the log, never the
window."""


def pending() -> set[str]:
    """The Latin words of the new messages the Japanese translation does not have yet."""
    words: set[str] = set()
    for context, source in NEW_SOURCES:
        if QCoreApplication.translate(context, source) == source:
            words |= set(re.findall(r"[A-Za-z]{2,}", source))
    return words


def said(context: str, source: str) -> str:
    return QCoreApplication.translate(context, source)


def errors(source: str) -> str:
    return said("NetErrors", source)


def ending(how: str, reason: str, by: Role | None = Role.HOST, stage: str = "play") -> Ending:
    """An ending as a record spells it: ``how`` may be one no app sends (``"mystery"``)."""
    return Ending(False, how, by, reason, stage, 12, "2026-12-01T00:00:00Z")  # type: ignore[arg-type]


# Every reason koikoi/net gives an Ending (session/, connection.py, resume.py, transport/,
# netlink/, fair.py, dealing.py, private.py), with the phrase the window says for it.
REASONS: list[tuple[str, str, str]] = [
    ("left", "the player left", ""),
    ("left", f"the peer left ({MARK} went home)", ""),
    ("dropped", "the connection dropped", ""),
    ("dropped", f"the connection dropped: [Errno 104] Connection reset by {MARK}", ""),
    ("dropped", "the connection dropped: not resumed in time", "it was not taken back in time"),
    (
        "dropped",
        f"the connection dropped: {MARK} closed; not resumed in time",
        "it was not taken back in time",
    ),
    ("silent", "the peer sent nothing for 15 s: it is disconnected", ""),
    ("abandoned", "the peer sent no move for 3 min: it abandoned the match", ""),
    ("abandoned", "the peer ended the match: no move came from this side for 3 min", ""),
    (
        "protocol",
        "a message from the peer did not decrypt: it was changed, replayed, reordered or "
        "dropped on the way",
        "a message did not decrypt: a wrong key, or it was changed on the way",
    ),
    (
        "protocol",
        f"the peer sent unexpected message '{MARK}' (expected move, ack, ping, bye)",
        "a message that does not fit at this point of the match",
    ),
    (
        "protocol",
        "the peer sent an unexpected hand message",
        "a message that does not fit at this point of the match",
    ),
    (
        "protocol",
        "the peer acknowledged a move this side did not send",
        "a message that does not fit at this point of the match",
    ),
    ("protocol", f"the peer sent malformed msgpack: {MARK}", "a message that cannot be read"),
    (
        "protocol",
        "the peer sent frame payload of 0 bytes is not in 1..65535",
        "a message that cannot be read",
    ),
    (
        "protocol",
        f"the peer sent entry: expected bytes, got {MARK}",
        "a message that cannot be read",
    ),
    (
        "protocol",
        f"the peer sent message: missing its type key '{MARK}'",
        "a message that cannot be read",
    ),
    (
        "protocol",
        f"the peer sent something new: {MARK}",
        "the peer sent a malformed or unexpected message",
    ),
    (
        "cheat",
        f"deal 0 action 4 (move 9, seat 0 play {MARK}): the move plays card 12, but the "
        "peer's play opened card 30",
        "it plays another card than the one its app opened",
    ),
    (
        "cheat",
        "deal 0 action 4 (move 9, seat 0): the move draws a card whose keys did not cross",
        "its draw does not match the keys exchanged for it",
    ),
    (
        "cheat",
        "cheat: the joiner revealed a seed that is not the one it committed to",
        "its dealing seed is not the one it committed to",
    ),
    (
        "cheat",
        "cheat: the host kept quiet a hand that ended the deal at once (a teyaku, R8)",
        "it kept quiet a hand that ended the deal at once (a teyaku)",
    ),
    (
        "cheat",
        f"cheat: the host played play {MARK} in move 3 of the deal, which its dealt cards do "
        "not allow",
        "it played a card its dealt hand did not hold",
    ),
    (
        "cheat",
        "cheat: the host sent a key of position 20 that its seed does not give",
        "its part of the private dealing does not check",
    ),
    (
        "cheat",
        "the peer asked for the key of a draw its move does not make",
        "it asked to open a draw its move does not make",
    ),
    ("cheat", "the peer opened a card out of its turn", "it opened a card out of its turn"),
    (
        "cheat",
        "the peer revealed its seed mid-deal",
        "it revealed its dealing seed before the deal was over",
    ),
    (
        "cheat",
        "the peer revealed its seed of deal 3 before the deal ended",
        "it revealed its dealing seed before the deal was over",
    ),
    (
        "cheat",
        "the peer's sealed deck is not the one of the decks it sent and this side received (a "
        "deck it sent is not the one it keeps)",
        "the deck it keeps is not the one it sent",
    ),
    (
        "cheat",
        "the peer declared a teyaku its opened hand does not hold",
        "it declared a teyaku its hand does not hold",
    ),
    (
        "cheat",
        "cheat: the host's coin-toss reveal does not match its commitment",
        "the host's coin toss reveal does not match its commitment",
    ),
    (
        "cheat",
        "the peer's acknowledgement of move 4: it acknowledges move 2",
        "the acknowledgement of move {0} does not check",
    ),
    ("cheat", f"{MARK} nobody wrote this", "the record is damaged, or it was changed"),
    *[
        ("stopped", f"the peer stopped the match: {meaning} ({MARK} said so)", meaning)
        for code, meaning in BYE_REASONS.items()
        if code != "finished"  # said as "not over here", below
    ],
    (
        "stopped",
        "the peer said the match is over, but it is not over here",
        "it said the match is over, but it is not over here",
    ),
    (
        "stopped",
        f"the host left the coin toss awaiting the answer: the peer stopped the match: "
        f"it failed ({MARK})",
        "it failed",
    ),
    ("stopped", f"the peer stopped the match: {MARK}", "it gave no reason this app knows"),
    ("error", f"the local player failed: {MARK}", ""),
    ("error", f"internal error: KeyError('{MARK}')", ""),
    ("cards", CARDS_DIFFER_PEER, ""),
    ("mystery", f"something {MARK} happened", "the match ended in a way this app does not know"),
]


@pytest.mark.parametrize(("how", "reason", "phrase"), REASONS)
def test_every_ending_the_network_gives_is_a_japanese_sentence(
    caplog: pytest.LogCaptureFixture, how: str, reason: str, phrase: str
) -> None:
    """The window's line for each reason: the phrase meant for it, in Japanese, no other
    English (but the new messages' words until they are translated); a detail in free text
    goes to the log."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    for mine in (False, True):
        text = ending_text(ending(how, reason), "hana", mine)
        if phrase:
            clause = errors(phrase)
            if "{0}" in clause:
                clause = clause.format("5")  # move 4, counted from 1
            assert clause in text, (reason, text)
        assert MARK not in text, text
        assert set(english_in(text)) <= pending() | ALLOWED, (reason, text)
        assert reason not in text, text
    if MARK in reason and how not in ("left",):
        assert MARK in caplog.text, (reason, caplog.text)


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("stopped", "the joiner left the coin toss awaiting the reveal: the peer stopped the "
         f"match: it caught a cheat or a disagreement ({MARK})"),
        ("protocol", f"the peer sent malformed msgpack: {MARK}"),
        ("cheat", "cheat: the host's coin-toss reveal does not match its commitment"),
        ("error", f"the local player failed: {MARK}"),
        ("cards", CARDS_DIFFER),
        ("mystery", MARK),
    ],
)  # fmt: skip
def test_a_match_that_did_not_start_says_why_in_japanese(how: str, reason: str) -> None:
    """The lobby's line for an ending before the first deal: the same phrases."""
    by = None if how == "cards" else Role.JOINER
    text = prematch_ending_text(ending(how, reason, by, stage="toss"))
    assert MARK not in text and reason not in text, text
    assert set(english_in(text)) <= pending() | ALLOWED, text


@pytest.mark.parametrize("result", ["refused", "cheat"])
@pytest.mark.parametrize("winner", [0, 1, None])
def test_a_finished_match_whose_last_audit_failed_is_said_in_japanese(
    result: str, winner: int | None
) -> None:
    """The note beside a finished match's result panel: the result stands, and who kept the
    last audit from passing, in Japanese (issue 20, 2)."""
    from koikoi.ui.net.neterrors import audit_outcome, audit_text

    for peer in (True, False):
        text = audit_text(result, peer, "hana", audit_outcome(winner, 0))
        if result == "refused" and not peer:
            assert text == ""
            continue
        assert text and ("hana" in text) is peer, text
        assert set(english_in(text)) <= pending() | ALLOWED | {"hana"}, text
    names.install_translations("en")
    won = audit_text("refused", True, "hana", audit_outcome(0, 0))
    assert won == (
        "The result stands as the signed moves give it (you won). hana did not reveal its"
        " seed of the last deal, so that deal's audit could not be done."
    )


def test_a_seed_withheld_mid_match_is_said_in_japanese() -> None:
    from koikoi.net.session.endings import Audit, AuditResult

    reason = "the host withheld its seed of deal 2 for 15 s: it refused the deal's audit"
    withheld = Ending(
        False, How.ABANDONED, Role.HOST, reason, "play", 12, "2026-12-01T00:00:00Z",
        audit=Audit(AuditResult.REFUSED, Role.HOST, 2, reason),
    )  # fmt: skip
    text = ending_text(withheld, "hana", False)
    assert "hana" in text and reason not in text, text
    assert set(english_in(text)) <= pending() | ALLOWED | {"hana"}, text
    names.install_translations("en")
    assert ending_text(withheld, "hana", False) == (
        "hana did not reveal its seed of the deal just played, so the deal could not be"
        " audited: the match ended, abandoned by hana."
    )


def test_in_english_the_details_stay_and_an_unknown_ending_is_said_generally() -> None:
    """English keeps the network's precise words (as the other failures do); an ending this
    app does not know is said in general words, in English too."""
    names.install_translations("en")
    text = ending_text(
        ending(How.PROTOCOL, f"the peer sent malformed msgpack: {MARK}"), "hana", False
    )
    assert text == (
        f"The match was stopped: hana's app sent something malformed (the peer sent malformed "
        f"msgpack: {MARK})."
    )
    told = ending_text(
        ending(How.STOPPED, f"the peer stopped the match: it failed ({MARK})"), "hana", False
    )
    assert told == f"hana's app stopped the match: it failed ({MARK})."
    unknown = ending_text(ending("mystery", MARK), "hana", False)
    assert unknown == "The match with hana ended: the match ended in a way this app does not know."
    dropped = ending_text(ending(How.DROPPED, "the connection dropped"), "hana", False)
    assert dropped == "The connection to hana was lost."


# -- for real: two windows over loopback ------------------------------------------------------


def no_english(box_text: str) -> list[str]:
    return sorted(set(english_in(box_text)) - pending() - {"hana", "taro"})


def hostile_host_sends(pair: Pair, message: bytes) -> None:
    """hana's app turns hostile: its own session encrypts ``message`` and the link sends it
    as any message of hers goes out."""
    link = pair.room.match
    assert link is not None and link.connection is not None
    session = link.connection.session
    assert session is not None
    session._send(message)
    link._process([])


def test_a_cut_connection_is_said_in_japanese(qtbot: QtBot, tmp_path: Path) -> None:
    """hana's socket is gone mid-round: taro's window says the connection was lost."""
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        mid_round(pair, joiner)
        link = pair.room.match
        assert link is not None and link.socket is not None
        link.socket.abort()
        box = ended_message(qtbot, joiner)
        assert saved_record(joiner)["end"]["how"] == "dropped"
        assert box.text().startswith(
            said("MainWindow", "The connection to {0} was lost.").split("{0}")[0]
        )
        assert not no_english(box.text()), box.text()
    finally:
        pair.close()


def test_a_hostile_peers_message_and_the_stop_it_is_told_are_said_in_japanese(
    qtbot: QtBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """hana's app (a session of our own, used as a hostile peer) sends a message no match
    takes: taro's app stops the match (``protocol``) and tells hana's, whose window says
    that taro's app stopped it (``stopped``, taro's English words in the log only)."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        mid_round(pair, joiner)
        hostile_host_sends(pair, encode_message(MARK.lower()))
        box = ended_message(qtbot, joiner)
        assert saved_record(joiner)["end"]["how"] == "protocol"
        assert errors("a message that does not fit at this point of the match") in box.text()
        assert not no_english(box.text()), box.text()
        told = ended_message(qtbot, host)
        assert saved_record(host)["end"]["how"] == "stopped"
        assert errors(BYE_REASONS["protocol"]) in told.text(), told.text()
        assert not no_english(told.text()), told.text()
        assert MARK.lower() in caplog.text  # taro's words, in hana's log
    finally:
        pair.close()


def test_a_move_that_does_not_check_and_the_stop_it_is_told_are_said_in_japanese(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """hana's app sends a move whose signature does not verify: taro's window names the
    cheat, hana's says taro's app caught one; neither shows the session's English."""
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        mid_round(pair, joiner)
        hostile_host_sends(pair, encode_message("move", entry=b"\x00" * 40, sig=b"\x00" * 64))
        box = ended_message(qtbot, joiner)
        assert saved_record(joiner)["end"]["how"] == "cheat"
        assert not no_english(box.text()), box.text()
        told = ended_message(qtbot, host)
        assert saved_record(host)["end"]["how"] == "stopped"
        assert errors(BYE_REASONS["cheat"]) in told.text(), told.text()
        assert not no_english(told.text()), told.text()
    finally:
        pair.close()


def test_a_failure_inside_this_app_is_said_in_japanese(
    qtbot: QtBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A step of taro's link fails (a bug met mid-match): taro's window says this app failed,
    the error's words in the log; hana's window says taro's app failed."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    pair = Pair(qtbot, tmp_path)
    host, joiner = pair.windows
    try:
        mid_round(pair, joiner)

        def failing(_conn: object) -> list[object]:
            raise RuntimeError(MARK)

        pair.join._guarded(failing)  # type: ignore[arg-type]
        box = ended_message(qtbot, joiner)
        assert saved_record(joiner)["end"]["how"] == "error"
        assert box.text() == said("MainWindow", "The match was stopped: this app failed.")
        assert MARK in caplog.text
        told = ended_message(qtbot, host)
        assert errors(BYE_REASONS["error"]) in told.text(), told.text()
        for text in (box.text(), told.text()):
            assert MARK not in text and not no_english(text), text
    finally:
        pair.close()


# -- the real reasons, from a real session and a hostile peer ----------------------------------


def _in_play() -> Table:
    """Two sessions over an in-memory wire (tests/net_support.py), a few moves into play and
    the match not over (``in_play`` sets aside a match over in its first moves)."""
    return in_play(4, seeds=range(3, 23))


def _bye(code: str) -> Callable[[Table], object]:
    """The host says goodbye with reason ``code``."""
    return lambda table: table.inject(
        Role.HOST, encode_message("bye", reason=code, detail=f"{MARK} said so")
    )


HOSTILE: dict[str, Callable[[Table], object]] = {
    **{f"bye {code}": _bye(code) for code in BYE_REASONS},
    "unexpected": lambda table: table.inject(Role.HOST, encode_message(MARK.lower())),
    "malformed": lambda table: table.inject(Role.HOST, b"\xc1" + MARK.encode()),
    "not a move": lambda table: table.inject(
        Role.HOST, encode_message("move", entry=MARK.encode(), sig=bytes(64))
    ),
    "undecryptable": lambda table: table.joiner.receive(MARK.encode() * 10, table.now),
    "cut": lambda table: table.joiner.connection_lost(table.now, f"[Errno 104] {MARK}"),
    "framing": lambda table: table.joiner.protocol_failure(
        table.now, f"frame payload of 0 bytes is not in 1..65535 ({MARK})"
    ),
    "own failure": lambda table: table.joiner.local_failure(
        table.now, f"the local player failed: {MARK}"
    ),
    "silence": lambda table: table.joiner.tick(table.now + 600),
    "leave": lambda table: table.joiner.leave(table.now),
}
"""What hana's side (the host, a session of our own) does, or what befalls taro's session."""


@pytest.mark.parametrize("what", list(HOSTILE))
def test_each_ending_a_real_session_gives_is_said_in_japanese(
    caplog: pytest.LogCaptureFixture, what: str
) -> None:
    """taro's session ends as the network layer ends it (its own reason, not one written
    here); the window's line is Japanese, the reason's English words in the log only."""
    caplog.set_level(logging.INFO, logger="koikoi.ui.net.neterrors")
    table = _in_play()
    HOSTILE[what](table)
    ending = table.joiner.ending
    assert ending is not None and not ending.finished, what
    mine = ending.by is not None and ending.by.seat == table.joiner.seat
    text = ending_text(ending, "hana", mine)
    assert MARK not in text and ending.reason not in text, (ending, text)
    assert set(english_in(text)) <= pending() | ALLOWED, (ending, text)
    if MARK in ending.reason and ending.how != "left":
        assert MARK in caplog.text, ending
