"""Rooms on the LAN by mDNS / DNS-SD (python-zeroconf): advertising one, browsing for all.

A host advertises its room as a ``_koikoi._tcp.local.`` service whose TXT record carries hints
(protocol version, title, host nickname, rounds, doubling, private, status, a short identity
fingerprint); a :class:`RoomBrowser` lists the rooms it hears of as :class:`Room` values. TXT is
a hint only, never trusted: anyone on the LAN can advertise anything, so every field is
validated, clamped and cleaned (control and bidi characters removed, lengths capped), the number
of rooms kept is capped and changes are reported at a bounded rate. The handshake decides who
the host is and what the match is.

Both sides run zeroconf's asyncio API on a thread of their own with its own event loop, so
neither a Qt window nor the host's own asyncio loop waits on the network; the browser's
callback runs on that thread (the lobby turns it into a queued signal). Where multicast does not
work at all, the browser reports :class:`BrowseFailed` and the advertiser raises
:class:`DiscoveryError`, each with a reason a person can read; joining by address still works.

The package, one job a module (import each name from its module):

- ``txt``: the TXT record built and parsed, :class:`Room` and :class:`Advertisement` (pure);
- ``titles``: which room ``join --room TITLE`` joins, :class:`TitleSearch` (sans I/O);
- ``interfaces``: this machine's addresses and interfaces, as mDNS uses them;
- ``mdns``: zeroconf started on its own thread and loop, or why it cannot be;
- ``advertiser``: :class:`RoomAdvertiser`; ``browser``: :class:`RoomBrowser`, :func:`find_room`,
  :func:`look_for_room`;
- ``zeroconf_internals``: the one place that uses zeroconf's private API (the packet sources
  the browser's per-source limits count, and zeroconf's cache).

>>> from koikoi.net.discovery.txt import Advertisement, clean_text, room_txt
>>> txt = room_txt(Advertisement("Hanami", "hana", 4000, rounds=12, fingerprint="abcd-efgh"))
>>> txt["title"], txt["rounds"], txt["fp"], txt["status"]
('Hanami', '12', 'abcd', 'open')
>>> clean_text("Ko\\u202eik\\x00oi  room\\n", 64)
'Koikoi room'
"""

from __future__ import annotations
