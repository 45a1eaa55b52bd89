"""Every use of python-zeroconf's private API, in one place.

zeroconf keeps no record's sender, and the browser's per-source limits (docs/protocol.md,
"Discovery (mDNS)") need it: the packet's source address is the one thing a spammer on the LAN
cannot choose freely. So this module replaces zeroconf's record manager (the object its
listener hands every incoming response to, with its source) by a subclass that notes who sent
each service's records first (:class:`Sources`), and reads zeroconf's cache and engine. These
are zeroconf internals (``zeroconf._handlers``, ``zeroconf._protocol``, ``Zeroconf.engine``,
``Zeroconf.record_manager``, the outgoing answer queues): a zeroconf release that changes them fails
``tests/test_net_discovery_flood.py`` and ``tests/test_net_discovery.py``, and only this
module needs changing. Nothing else in koikoi touches a private zeroconf name."""

from __future__ import annotations

import logging
from typing import Final

from zeroconf import ServiceInfo, Zeroconf, current_time_millis
from zeroconf._dns import (
    DNSPointer,
    DNSRecord,
    DNSText,
)  # (zeroconf uses them without listing them)
from zeroconf._handlers.record_manager import RecordManager
from zeroconf._protocol.incoming import DNSIncoming
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.const import _FLAGS_AA, _FLAGS_QR_RESPONSE

from koikoi.net.discovery.txt import SERVICE_TYPE

logger = logging.getLogger(__name__)

_TYPE_PTR: Final = 12
_TYPE_TXT: Final = 16
_TYPE_SRV: Final = 33
_CLASS_IN: Final = 1


SOURCES_PER_NAME: Final = 4
"""Source addresses kept for one service name (the first to send its records)."""


class Sources:
    """Which addresses sent records of each service (PTR, SRV or TXT), in the order they
    first did, for the browser's per-source limits. The packet's source address is the one
    thing a spammer cannot choose freely on a LAN (its records may claim any address). A room
    counts against the share of one of its sources that has room (the browser's choice), so
    neither a source repeating another's room nor one naming it first (a room announced again
    keeps its name) takes it over. Bounded: at most :data:`SOURCES_PER_NAME` a name, and the
    oldest names are forgotten first."""

    def __init__(self, most: int = 4096) -> None:
        self.most = most
        self._by_name: dict[str, tuple[str, ...]] = {}

    def get(self, name: str) -> str | None:
        """The first source of ``name``, if any."""
        sources = self._by_name.get(name.lower())
        return sources[0] if sources else None

    def all(self, name: str) -> tuple[str, ...]:
        return self._by_name.get(name.lower(), ())

    def note(self, msg: DNSIncoming) -> None:
        source = msg.source[0] if msg.source else None
        if source is None:
            return
        suffix = "." + SERVICE_TYPE.lower()
        for record in msg.answers():
            if not record.ttl:
                continue  # a goodbye names no new room
            if isinstance(record, DNSPointer) and record.key == SERVICE_TYPE.lower():
                key = record.alias_key
            elif record.type in (_TYPE_SRV, _TYPE_TXT) and record.key.endswith(suffix):
                key = record.key
            else:
                continue
            if not key:
                continue
            known = self._by_name.get(key)
            if known is None:
                if len(self._by_name) >= self.most:
                    del self._by_name[next(iter(self._by_name))]
                self._by_name[key] = (source,)
            elif source not in known and len(known) < SOURCES_PER_NAME:
                self._by_name[key] = (*known, source)


class _SourceRecorder(RecordManager):
    """zeroconf's record manager, noting first who sent each service's records (zeroconf
    keeps no record's sender; its listener hands every response here, with its source)."""

    def __init__(self, zc: Zeroconf, sources: Sources) -> None:
        super().__init__(zc)
        self.koikoi_sources = sources

    def async_updates_from_response(self, msg: DNSIncoming) -> None:
        try:
            self.koikoi_sources.note(msg)
        except Exception:  # never in the way of zeroconf's own work
            logger.debug("cannot note the sender of an mDNS response", exc_info=True)
        super().async_updates_from_response(msg)


def note_sources(zeroconf: Zeroconf, sources: Sources) -> None:
    """From now on, note in ``sources`` who sent every response ``zeroconf`` hears: its record
    manager is replaced, before its sockets are made (they take it when the loop next runs)."""
    zeroconf.record_manager = _SourceRecorder(zeroconf, sources)


def can_send(zeroconf: Zeroconf) -> bool:
    """Whether a started ``zeroconf`` has a socket to send multicast on."""
    return bool(zeroconf.engine.senders)


def cached_txt(zeroconf: Zeroconf, name: str) -> bytes | None:
    """The TXT record's bytes zeroconf holds for the service ``name``, if any."""
    record = zeroconf.cache.get_by_details(name, _TYPE_TXT, _CLASS_IN)
    return record.text if isinstance(record, DNSText) else None


def cached_room_names(zeroconf: Zeroconf) -> list[str]:
    """The service names of our type that zeroconf's cache holds unexpired pointers to, oldest
    first (zeroconf reports a service once, so a room ignored then is found here again)."""
    now = current_time_millis()
    return [
        record.alias
        for record in list(zeroconf.cache.async_entries_with_name(SERVICE_TYPE))
        if isinstance(record, DNSPointer) and not record.is_expired(now)
    ]


def drop_queued_answers(zeroconf: Zeroconf, *names: str) -> int:
    """Drop the answers about ``names`` (a service withdrawn, its host) that ``zeroconf``
    queued and has not sent yet; how many went. zeroconf answers a question about records it
    multicast in the last second a second later (RFC 6762 §14), and does not look again when
    the time comes: such an answer to a question asked just before a goodbye went out after
    it, and every browser listed the service again for the records' whole TTL."""
    keys = {name.lower() for name in names}

    def about(record: DNSRecord) -> bool:
        alias = record.alias.lower() if isinstance(record, DNSPointer) else None
        return record.key in keys or alias in keys

    dropped = 0
    for queue in (zeroconf.out_queue, zeroconf.out_delay_queue):
        for group in queue.queue:
            for record in [r for r in group.answers if about(r)]:
                del group.answers[record]
                dropped += 1
            for additionals in group.answers.values():
                additionals.difference_update([r for r in additionals if about(r)])
    return dropped


def send_last_goodbye(zeroconf: Zeroconf, info: ServiceInfo) -> None:
    """Multicast the goodbye of ``info``'s pointer alone, once more. zeroconf sends its three
    goodbyes alike, and a listener ignores a packet the same as the last one it heard (within
    0.8 s): a browser that had an answer come in on another socket between them (a unicast
    reply to its question, asked just before the room withdrew) listed the room again, and
    the next two goodbyes went unheard. This one differs from them."""
    out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
    out.add_answer_at_time(info.dns_pointer(override_ttl=0), 0)
    zeroconf.async_send(out)
