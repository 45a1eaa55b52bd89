"""Network failures in the player's language, from their typed codes.

``koikoi/net`` raises :class:`~koikoi.net.errors.ProtocolError` with an English ``str`` (for
the CLI and the logs), an :attr:`~koikoi.net.errors.ProtocolError.error_code` and named
``params``. In English the window shows that line as it is; in another language
:func:`error_detail` says a translated phrase for a known code, and "the connection failed:
<the English>" for a code this table does not know yet.
"""

from __future__ import annotations

import errno
import logging
import os
import re
from typing import Final

from PySide6.QtCore import QCoreApplication
from PySide6.QtNetwork import QAbstractSocket

from koikoi.net.session.endings import BYE_REASONS
from koikoi.net.transport.bothdial import ANSWERED as DIAL_ANSWERED
from koikoi.net.transport.bothdial import NO_ANSWER
from koikoi.ui.common.names import current_language

logger = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("NetErrors", text)


class ConnectFailed(Exception):
    """Dialling a room failed before any byte was exchanged. ``str()`` is the English line
    (with the system's own words, for the log); :attr:`error_code` says how, for the window:
    ``connect.refused``, ``connect.dns``, ``connect.unreachable``, ``connect.timeout`` (with
    ``seconds``) or ``connect.other``."""

    def __init__(self, text: str, how: str, **params: object) -> None:
        super().__init__(text)
        self.error_code = f"connect.{how}"
        self.params = params


_SOCKET_ERRORS: Final = {
    QAbstractSocket.SocketError.ConnectionRefusedError: "refused",
    QAbstractSocket.SocketError.HostNotFoundError: "dns",
    QAbstractSocket.SocketError.SocketTimeoutError: "timeout",
    QAbstractSocket.SocketError.NetworkError: "unreachable",
    QAbstractSocket.SocketError.UnknownSocketError: "unreachable",  # Qt's word for no route
}


def connect_failure(
    error: QAbstractSocket.SocketError | None, text: str, seconds: float | None = None
) -> ConnectFailed:
    """The typed failure of a dial that ended in the socket ``error`` (None: nobody answered
    within ``seconds``); ``text`` is the English line, which goes to the log as it is."""
    logger.info("%s", text)
    if error is None:
        return ConnectFailed(text, "timeout", seconds=f"{seconds or 0:g}")
    return ConnectFailed(text, _SOCKET_ERRORS.get(error, "other"))


class TurnedAway(Exception):
    """Why this room turned a connection away: :attr:`error_code` is ``away.busy``,
    ``away.wait`` (too many wrong passwords from there), ``away.evicted`` (a newer connection
    took its place), ``away.attempts`` (password attempts limited) or ``away.overdue`` (the
    handshake took too long); ``str()`` is the English line."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__(text)
        self.error_code = f"away.{why}"
        self.params: dict[str, object] = {}


def _phrases() -> dict[str, str]:
    return {
        "timeout": _tr("the peer did not finish the handshake within {seconds} s"),
        "protocol": _tr("the peer sent a malformed or unexpected message"),
        "noise": _tr("the encrypted channel could not be set up"),
        "decrypt": _tr("a message did not decrypt: a wrong key, or it was changed on the way"),
        "handshake": _tr("the handshake failed"),
        "unexpected": _tr("the peer sent a malformed or unexpected handshake message"),
        "version": _tr("the peer speaks another version of the game's protocol"),
        "settings": _tr("the match settings differ"),
        "room": _tr("a private room needs its password, an open room takes none"),
        "auth": _tr("wrong password, or the handshake was changed on the way"),
        "signature": _tr("the identity signature does not verify"),
        "identity": _tr("{name}'s identity key is not the one pinned"),
        "code_identity": _tr(
            "the host's identity is {found}, not {expected} as the join code says"
        ),
        "cheat": _tr("the peer's reveal does not match its commitment ({what})"),
        "refused.auth": _tr("the room refused: wrong password or a changed handshake"),
        "refused.signature": _tr("the room could not verify this side's identity signature"),
        "refused.identity": _tr("the room knows another key for this nickname"),
        "refused.protocol": _tr("the room received a malformed or unexpected message"),
        "refused.busy": _tr("the room is already playing"),
        "refused.wait": _tr("too many wrong passwords from this address: wait a little"),
        "dealing.seed": _tr(
            "the other side offers only joint-seed dealing, from which either program can "
            "compute the other's hand; this side deals privately only"
        ),
        "dealing.private": _tr(
            "the other side deals privately only and refuses joint-seed dealing, the only "
            "dealing offered from here"
        ),
        "connect.refused": _tr(
            "nothing listens at that address and port: the room is closed, or the port is wrong"
        ),
        "connect.dns": _tr("no computer of that name was found: check it, or use the IP address"),
        "connect.unreachable": _tr(
            "that address cannot be reached from this network (another network, or a firewall)"
        ),
        "connect.timeout": _tr("nobody answered within {seconds} s"),
        "connect.other": _tr("this computer could not open the connection"),
        "away.busy": _tr("the room is already playing"),
        "away.wait": _tr("too many wrong passwords from there: the room refuses it for a while"),
        "away.evicted": _tr("a newer connection took its place"),
        "away.attempts": _tr("the room limits password attempts"),
        "away.overdue": _tr("it did not finish the handshake in time"),
    }


def error_detail(error: BaseException | None, english: str) -> str:
    """What went wrong, in the current language; ``english`` is the error's own text."""
    if current_language() == "en":
        return english  # the network layer's own line, the most precise in English
    said = _coded(error, _phrases())
    return said if said is not None else _tr("the connection failed: {0}").format(english)


def _coded(error: BaseException | None, phrases: dict[str, str]) -> str | None:
    """The phrase of ``error``'s ``error_code``, filled with its ``params``; None when the
    code has none (or its params do not fill it)."""
    code = getattr(error, "error_code", None)
    params = dict(getattr(error, "params", None) or {})
    phrase = phrases.get(code) if isinstance(code, str) else None
    if phrase is None:
        return None
    if code == "map.refused_by":  # a router's result code, in words
        params["meaning"] = _refusal_meaning(str(params.get("protocol")), _int(params))
    try:
        return phrase.format(**params)
    except (KeyError, IndexError, ValueError):
        return None


def _bye_phrases() -> dict[str, str]:
    return {
        "finished": _tr("the match is over"),
        "quit": _tr("the player left"),
        "cheat": _tr("it caught a cheat or a disagreement"),
        "protocol": _tr("it received a malformed or unexpected message"),
        "timeout": _tr("it heard nothing from this side for too long"),
        "error": _tr("it failed"),
        "abandoned": _tr("it waited too long for a move from this side"),
    }


def bye_detail(english: str) -> str:
    """Why the peer's app stopped the match (an ending ``stopped``'s reason: its ``bye``
    code's meaning, then what it said), in the current language. In English the reason
    is said from that meaning on, the peer's words with it; in another language the peer's
    words (English, from its app) go to the log only. A reason with no known code is said
    by a generic phrase."""
    meanings = [("not over", _NOT_OVER), *BYE_REASONS.items()]
    phrases = {"not over": _tr("it said the match is over, but it is not over here")}
    phrases.update(_bye_phrases())
    for code, meaning in meanings:
        # the toss's own words may come first (a toss left, koikoi.net.fair)
        at = english.find(meaning)
        if at < 0 or code not in phrases:
            continue
        if current_language() == "en":
            return english[at:]
        logger.info("the peer's app stopped the match: %s", english)
        return phrases[code]
    logger.info("the peer's app stopped the match: %s", english)
    return _tr("it gave no reason this app knows")


_NOT_OVER: Final = "the peer said the match is over, but it is not over here"
"""The reason of a ``bye`` ``finished`` that came before the match was over here."""


# --- why a match ended ---------------------------------------------------------------------------


def _protocol_phrases() -> list[tuple[str, str]]:
    """What the peer sent that this side refused (the reason of an ending ``protocol``, as
    patterns of :mod:`koikoi.net.session` and :mod:`koikoi.net.wire`), and what each says."""
    unreadable = _tr("a message that cannot be read")
    return [
        (r"a message from the peer did not decrypt", _phrases()["decrypt"]),
        (
            r"the peer (?:sent (?:an? )?unexpected|acknowledged a move this side did not send)",
            _tr("a message that does not fit at this point of the match"),
        ),
        (
            r"the peer sent (?:malformed msgpack|frame payload|nesting|integer outside|map key"
            r"|\w+ values are not allowed|message:|\w+: expected|connection closed in the)",
            unreadable,
        ),
    ]


def protocol_detail(english: str) -> str:
    """What the peer's app sent that ended the match (an ending ``protocol``'s reason), in
    the current language; in another language than English the reason goes to the log."""
    if current_language() == "en":
        return english
    logger.info("malformed: %s", english)
    for pattern, phrase in _protocol_phrases():
        if re.match(pattern, english):
            return phrase
    return _phrases()["protocol"]


def dropped_detail(english: str) -> str:
    """What is known of a lost connection (an ending ``dropped``'s reason after "the
    connection dropped"), in the current language: empty when nothing is to be said; the
    system's own words go to the log in another language than English."""
    detail = english.removeprefix("the connection dropped").removeprefix(": ")
    if current_language() == "en" or not detail:
        return detail
    logger.info("the connection dropped: %s", detail)
    if detail.endswith("not resumed in time"):
        return _tr("it was not taken back in time")
    return ""


def failure_detail(english: str) -> str:
    """This app's own failure that stopped the match (an ending ``error``'s reason): the
    English line in English, else empty (the line goes to the log)."""
    if current_language() == "en":
        return english
    logger.info("this app failed: %s", english)
    return ""


def ending_detail(how: str, english: str) -> str:
    """Why a match was stopped, as a clause in the current language: ``how`` and
    ``english`` are an ``Ending``'s ``how`` and ``reason``. A ``how`` this table does not
    know gets a generic clause in every language; its reason goes to the log."""
    if how == "cheat":
        return move_problem(english)
    if how == "protocol":
        return protocol_detail(english)
    if how == "stopped":
        return bye_detail(english)
    if how == "error":
        return failure_detail(english) or _tr("this app failed")
    if how == "dropped":
        return dropped_detail(english) or _tr("the connection was lost")
    logger.info("the match ended (%s): %s", how, english)
    return _tr("the match ended in a way this app does not know")


# --- mDNS: why the rooms cannot be listed or announced -----------------------------------------


def _discovery_phrases() -> list[tuple[str, str]]:
    """The lines of :mod:`koikoi.net.discovery` (and of the room's announcer), as patterns, and
    what each says to a player."""
    return [
        (r"no network interface has an address", _tr("this computer has no network address")),
        (
            r"no network interface with the address (?P<bind>\S+) can send multicast",
            _tr("the network of {bind} cannot send multicast"),
        ),
        (
            r"no network interface can send multicast",
            _tr("no network of this computer can send multicast"),
        ),
        (
            r"no network interface of this machine has the address (?P<bind>\S+)",
            _tr("this computer has no network with the address {bind}"),
        ),
        (r"--bind takes an IP address, not (?P<bind>.+)", _tr("{bind} is not an IP address")),
        (r"mDNS cannot start", _tr("the search for rooms on the network could not start")),
        (r"mDNS browsing failed", _tr("the search for rooms on the network stopped")),
        (r"mDNS cannot announce the room", _tr("the room could not be announced on the network")),
        (r"mDNS did not announce the room in time", _tr("announcing the room took too long")),
        (
            r"this machine has no address to announce",
            _tr("this computer has no address to announce"),
        ),
    ]


def discovery_detail(english: str) -> str:
    """Why mDNS does not work here (a line of :mod:`koikoi.net.discovery`), in the current
    language; in another than English the system's own words go to the log only."""
    if current_language() == "en":
        return english
    logger.info("mDNS: %s", english)
    for pattern, phrase in _discovery_phrases():
        found = re.match(pattern, english)
        if found is not None:
            return phrase.format(**found.groupdict())
    return _tr("the search for rooms on the network does not work here")


# --- a move (or a record) that does not check ----------------------------------------------------

_WHERE: Final = re.compile(
    r"deal (?P<deal>\d+) action (?:\d+|-)(?: \(move (?P<move>\d+), seat \d+[^)]*\))?: (?P<what>.*)",
    re.DOTALL,
)
"""``Lockstep.where``'s words before a move's problem: ``deal 2 action 5 (move 17, seat 1
play matsu_crane): ...`` (deal and move counted from 0)."""


def _rule_meanings() -> dict[str, str]:
    """What the rule a rejected move broke says (RULES.md's ids, as the engine names them)."""
    over = _tr("the round had already ended")
    return {
        "R5.1": _tr("a card from the hand must be played"),
        "R5.2": _tr("only a field card of the same month can be taken, and only when one is due"),
        "R5.3": _tr("with two matches on the field, one of them must be taken"),
        "R5.7": _tr("the players move in turn"),
        "R7.1": _tr("koikoi or shobu is decided when a player's total rose, and only then"),
        "R7.3": _tr("on the last turn only shobu is allowed"),
        "R7.4": over,
        "R7.5": over,
        "R8.2": over,
        "R4.2": over,
    }


def _move_phrases() -> dict[str, str]:
    """What a problem of a move or a record (its pattern) says to a player; ``{0}``, ``{1}``:
    the moves it names, counted from 1."""
    return {
        r"the peer moved without acknowledging move (\d+)": _tr(
            "it moved before acknowledging move {0}"
        ),
        r"sequence number (\d+) where (\d+) is due": _tr(
            "it is numbered {0} where {1} is due (replayed, reordered or dropped)"
        ),
        r"the entry does not chain": _tr("it does not follow on from the move before"),
        r"the acknowledgement's signature": _tr("its acknowledgement's signature does not verify"),
        r".*signature.* does not verify": _tr("its signature does not verify"),
        r"the state hash differs": _tr("after it, the two games' states differ"),
        r"the signed entry holds": _tr("the signed move is not the move the record shows"),
        r"the action has no signed log entry": _tr("it is not signed"),
        r"the acknowledgement is malformed": _tr("its acknowledgement cannot be read"),
        r"the acknowledgement does not name": _tr("its acknowledgement is of another move"),
        r"the deal's round had already ended": _tr("the round had already ended"),
        r"a deal the moves before it do not": _tr("the moves before it do not lead to this deal"),
        r"the cards are not the deal the joint": _tr(
            "its cards are not the ones the coin toss dealt"
        ),
        r"the peer's acknowledgement of move (\d+)": _tr(
            "the acknowledgement of move {0} does not check"
        ),
        r"(?:cheat: )?the host's coin-toss reveal|coin toss: the host's random": _tr(
            "the host's coin toss reveal does not match its commitment"
        ),
        r"coin toss:": _tr("the coin toss gives another deal than the record"),
        r"the record carries no handshake": _tr("the record has no handshake signatures"),
        r"handshake:": _tr("a player's key did not sign this session"),
        r"the record has deals but no coin toss": _tr("the record has no coin toss"),
        r"the record says the match finished": _tr(
            "the record says the match finished, but its moves do not end it"
        ),
        r"the record carries no network signatures": _tr("the record has no network signatures"),
        r"net\.protocol is": _tr("the record's protocol is not one this koikoi reads"),
        # private dealing (koikoi.net.dealing, koikoi.net.private, the session)
        r"the move plays card": _tr("it plays another card than the one its app opened"),
        r"the move draws": _tr("its draw does not match the keys exchanged for it"),
        r"cheat: the (?:host|joiner) revealed a seed": _tr(
            "its dealing seed is not the one it committed to"
        ),
        r"cheat: the (?:host|joiner) kept quiet a hand": _tr(
            "it kept quiet a hand that ended the deal at once (a teyaku)"
        ),
        r"cheat: the (?:host|joiner) played .* its dealt cards do not allow": _tr(
            "it played a card its dealt hand did not hold"
        ),
        r"cheat: the (?:host|joiner) ": _tr("its part of the private dealing does not check"),
        r"the peer asked for the key of a draw": _tr(
            "it asked to open a draw its move does not make"
        ),
        r"the peer opened a card out of its turn": _tr("it opened a card out of its turn"),
        r"the peer revealed its seed (?:mid-deal|of deal \d+ before the deal ended)": _tr(
            "it revealed its dealing seed before the deal was over"
        ),
        r"the peer's sealed deck is not": _tr("the deck it keeps is not the one it sent"),
        r"the peer declared a teyaku": _tr("it declared a teyaku its hand does not hold"),
    }


def _what(english: str) -> str:
    """A move's or a record's problem (after where it is), in the current language."""
    illegal = re.match(r"illegal move: (R\d+(?:\.\d+)?)", english)
    if illegal is not None:
        rule = illegal[1]
        meaning = _rule_meanings().get(rule)
        if meaning is None:
            return _tr("a move the rules do not allow (rule {0})").format(rule)
        return _tr("a move the rules do not allow (rule {0}: {1})").format(rule, meaning)
    for pattern, phrase in _move_phrases().items():
        found = re.match(pattern, english)
        if found is not None:
            return phrase.format(*(_number(g) for g in found.groups()))
    return _tr("the record is damaged, or it was changed")


def _number(text: str | None) -> str:
    """A move counted from 0 in the network's words, counted from 1 for a player."""
    return str(int(text) + 1) if text is not None and text.isdigit() else text or ""


def move_problem(english: str) -> str:
    """Why a move, an acknowledgement or a signed record does not check (the words of
    :mod:`koikoi.net.session` and ``koikoi verify``), in the current language: where (the move
    and deal, counted from 1) and what; in another language than English the network's own
    words go to the log only."""
    if current_language() == "en":
        return english
    logger.info("does not check: %s", english)
    where = ""
    what = english
    found = _WHERE.match(english)
    if found is not None:
        deal, move, what = _number(found["deal"]), found["move"], found["what"]
        if move is None:
            where = _tr("deal {0}").format(deal)
        else:
            where = _tr("move {0} (deal {1})").format(_number(move), deal)
    said = _what(what)
    return _tr("{0}: {1}").format(where, said) if where else said


# --- the audit of a privately dealt match's deals (docs/protocol.md, "The audit") ---------------


def audit_outcome(winner: int | None, me: int) -> str:
    """The signed moves' result from this seat, as a clause: "you won", "you lost", "a draw"."""
    if winner is None:
        return _tr("a draw")
    return _tr("you won") if winner == me else _tr("you lost")


def audit_text(result: str, culprit_is_peer: bool, name: str, outcome: str) -> str:
    """A finished match whose last audit did not pass (``result``: an ``Audit``'s
    ``refused`` or ``cheat``), in the player's language: the result stands as the signed
    moves give it (``outcome``, from :func:`audit_outcome`), and who refused or failed the
    audit (the peer ``name``, or this app). Empty for an audit that passed."""
    if result == "refused" and culprit_is_peer:
        return _tr(
            "The result stands as the signed moves give it ({1}). {0} did not reveal its seed"
            " of the last deal, so that deal's audit could not be done."
        ).format(name, outcome)
    if result == "cheat" and culprit_is_peer:
        return _tr(
            "The result stands as the signed moves give it ({1}). The audit of the last deal"
            " failed: {0}'s part of the dealing does not check."
        ).format(name, outcome)
    if result == "cheat":
        return _tr(
            "The result stands as the signed moves give it ({0}). The audit of the last deal"
            " failed on this side's part of the dealing."
        ).format(outcome)
    return ""


def withheld_seed_text(name: str) -> str:
    """A match ended mid-way because the peer ``name`` kept back its seed of a deal over."""
    return _tr(
        "{0} did not reveal its seed of the deal just played, so the deal could not be"
        " audited: the match ended, abandoned by {0}."
    ).format(name)


# --- the router's port mapping ---------------------------------------------------------------


def _mapping_phrases() -> dict[str, str]:
    """What a :class:`~koikoi.net.portmap.MappingFailed` says, by its code."""
    return {
        "map.library": _tr(
            "the router cannot be asked for a port: the UPnP library (miniupnpc) is missing"
        ),
        "map.silent": _tr(
            "no router answered {protocol}: turn it on in the router's settings, or forward a "
            "port to this computer by hand"
        ),
        "map.unspoken": _tr("the router does not speak {protocol}"),
        "map.error": _tr("the router's UPnP service answered with an error"),
        "map.offline": _tr(
            "the router has no internet connection, or no external address: check its connection"
        ),
        "map.private": _tr(
            "the router's external address {external} is private: another router or the "
            "provider's NAT stands in front of it, so a mapping reaches no one"
        ),
        "map.refused": _tr(
            "the router refused to map port {port}: allow UPnP port mappings for this computer "
            "in the router's settings"
        ),
        "map.refused_by": _tr("the router refused by {protocol}: {meaning}"),
        "map.malformed": _tr("the router's {protocol} answer could not be read"),
        "map.no_gateway": _tr("this computer has no default gateway to ask by {protocol}"),
        "map.pinhole": _tr("the router opened its firewall for another address ({external})"),
        "map.renew": _tr("the router did not renew the port's mapping"),
        "map.remove": _tr("the router did not remove the port's mapping"),
        "map.none": _tr(
            "no router answered UPnP, PCP or NAT-PMP: turn on UPnP (or NAT-PMP/PCP) in the "
            "router's settings, or forward a port to this computer by hand and join by address"
        ),
        "map.slow": _tr(
            "the router did not finish mapping the port within {seconds} s: turn on UPnP in its "
            "settings or forward the port by hand"
        ),
        "map.garbled": _tr("the router's answer could not be read"),
        "map.other": _tr("the router could not be asked for a port"),
    }


def _refusal_meaning(protocol: str, result: int) -> str:
    """A NAT-PMP (RFC 6886 3.5) or PCP (RFC 6887 7.4) result code, in words."""
    natpmp = protocol == "NAT-PMP"
    if result == 2:
        return _tr("{0} is turned off for this computer").format(protocol)
    if result == (3 if natpmp else 7):
        return _tr("the router has no external address")
    if result == (4 if natpmp else 8):
        return _tr("it has no port left")
    if not natpmp and result == 10:
        return _tr("this computer has too many mappings")
    if not natpmp and result == 11:
        return _tr("it cannot give the port asked for")
    if not natpmp and result == 12:
        return _tr("another NAT stands between this computer and the router")
    return _tr("it does not understand the request (code {0})").format(result)


def mapping_detail(error: BaseException) -> str:
    """Why the router mapped no port (a :class:`~koikoi.net.portmap.MappingFailed`), in the
    current language: its own English line in English, else a phrase by its code (the
    English, with the router's own words, goes to the log)."""
    english = str(error)
    if current_language() == "en":
        return english
    logger.info("the router mapped no port: %s", english)
    said = _coded(error, _mapping_phrases())
    return said if said is not None else _tr("the router could not be asked for a port")


def _int(params: dict[str, object]) -> int:
    result = params.get("result")
    return result if isinstance(result, int) else -1


# --- what a dialled address answered -------------------------------------------------------

Why = int | str
"""Why a dialled address made no match: an errno, ``NO_ANSWER`` or ``DIAL_ANSWERED``
(koikoi/net/transport/bothdial.py's words, as the CLI says them), or the system's own words
for a failure with no errno."""


def dial_words(why: Why) -> str:
    """``why`` in the current language: in English the system's words for an errno (the
    most precise), in another a phrase for the usual ones."""
    if current_language() == "en":
        return os.strerror(why) if isinstance(why, int) else why
    if why == NO_ANSWER or why == errno.ETIMEDOUT:
        return _tr("no answer")
    if why == DIAL_ANSWERED:
        return _tr("answered, but no match came of it")
    if why == errno.ECONNREFUSED:
        return _tr("nothing listens there")
    if why in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return _tr("no route to it from this network")
    if why in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return _tr("this computer has no address of that kind")
    if why in (errno.ECONNRESET, errno.ECONNABORTED, errno.EPIPE):
        return _tr("the connection was cut")
    logger.info("a dialled address: %s", os.strerror(why) if isinstance(why, int) else why)
    return _tr("the connection failed")
