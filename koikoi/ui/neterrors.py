"""Network failures in the player's language, from their typed codes.

``koikoi/net`` raises :class:`~koikoi.net.errors.ProtocolError` with an English ``str`` (for
the CLI and the logs), an :attr:`~koikoi.net.errors.ProtocolError.error_code` and named
``params``. In English the window shows that line as it is; in another language
:func:`error_detail` says a translated phrase for a known code, and "the connection failed:
<the English>" for a code this table does not know yet.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from koikoi.net.session import BYE_REASONS
from koikoi.ui.names import current_language


def _tr(text: str) -> str:
    return QCoreApplication.translate("NetErrors", text)


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
        "cheat": _tr("the peer's reveal does not match its commitment ({what})"),
        "refused.auth": _tr("the room refused: wrong password or a changed handshake"),
        "refused.signature": _tr("the room could not verify this side's identity signature"),
        "refused.identity": _tr("the room knows another key for this nickname"),
        "refused.protocol": _tr("the room received a malformed or unexpected message"),
        "refused.busy": _tr("the room is already playing"),
        "refused.wait": _tr("too many wrong passwords from this address: wait a little"),
    }


def error_detail(error: BaseException | None, english: str) -> str:
    """What went wrong, in the current language; ``english`` is the error's own text."""
    if current_language() == "en":
        return english  # the network layer's own line, the most precise in English
    code = getattr(error, "error_code", None)
    params = getattr(error, "params", {})
    phrase = _phrases().get(code) if isinstance(code, str) else None
    if phrase is not None and isinstance(params, dict):
        try:
            return phrase.format(**params)
        except (KeyError, IndexError, ValueError):
            pass
    return _tr("the connection failed: {0}").format(english)


def _bye_phrases() -> dict[str, str]:
    return {
        "finished": _tr("the match is over"),
        "quit": _tr("the player left"),
        "cheat": _tr("it caught a cheat or a disagreement"),
        "protocol": _tr("it received a malformed or unexpected message"),
        "timeout": _tr("it heard nothing from this side for too long"),
        "error": _tr("it failed"),
    }


def bye_detail(english: str) -> str:
    """Why the peer's app stopped the match (its ``bye`` code's meaning, then what it said),
    in the current language; the peer's own words stay as they were sent."""
    phrases = _bye_phrases()
    for code, meaning in BYE_REASONS.items():
        if english.startswith(meaning) and code in phrases:
            return phrases[code] + english.removeprefix(meaning)
    return english
