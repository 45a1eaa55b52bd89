"""Announcing one room by mDNS: publish, change its status, withdraw."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
from dataclasses import replace
from typing import Any, Final

from zeroconf import BadTypeInNameException, NonUniqueNameException
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from koikoi.net.discovery.interfaces import DiscoveryError, advertised_addresses
from koikoi.net.discovery.mdns import (
    STOP_TIMEOUT,
    LoopThread,
    describe_error,
    start_zeroconf,
    wait_started,
    where_of,
)
from koikoi.net.discovery.txt import (
    MAX_TITLE,
    SERVICE_TYPE,
    Advertisement,
    RoomStatus,
    clean_text,
    cut_utf8,
    room_txt,
)
from koikoi.net.discovery.zeroconf_internals import drop_queued_answers, send_last_goodbye

logger = logging.getLogger(__name__)

LAST_GOODBYE_AFTER: Final = 0.2
"""Seconds after zeroconf's goodbyes that the room's last goodbye goes
(:func:`~koikoi.net.discovery.zeroconf_internals.send_last_goodbye`)."""

RECORD_TTL: Final = 120
"""Seconds a room's records live in caches: a host that vanishes without a goodbye is
forgotten within two minutes (zeroconf's default for service records is 75 minutes)."""


class RoomAdvertiser:
    """Publishes one room, changes its status, withdraws it.

    ``bind`` is the interface address to announce on (None or an unspecified address: all
    interfaces, IPv4 and IPv6); ``addresses`` where the room listens (default:
    :func:`advertised_addresses` of ``bind``). Methods are safe to call from any thread;
    :meth:`publish` and :meth:`withdraw` wait (up to a few seconds), :meth:`set_status` does not.
    """

    def __init__(
        self,
        ad: Advertisement,
        *,
        bind: str | None = None,
        addresses: list[str] | None = None,
    ) -> None:
        self.ad = ad
        self.bind = bind
        self.addresses = addresses if addresses is not None else advertised_addresses(bind)
        self._token = secrets.token_hex(3)
        self._thread: LoopThread | None = None
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._updates: set[asyncio.Task[None]] = set()
        """Status changes being announced (on the loop): a goodbye stops them first."""

    @property
    def name(self) -> str | None:
        """The service name actually published (zeroconf renames on a conflict)."""
        return None if self._info is None else self._info.name

    def _service(self) -> AsyncServiceInfo:
        label = cut_utf8(clean_text(self.ad.title, MAX_TITLE).replace(".", " "), 48).strip()
        name = f"{label or 'room'} #{self._token}.{SERVICE_TYPE}"
        if _republishable(self.ad.instance):
            name = self.ad.instance
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=self.ad.port,
            properties=dict(room_txt(self.ad)),
            server=f"koikoi-{self._token}.local.",
            parsed_addresses=self.addresses,
            host_ttl=RECORD_TTL,
            other_ttl=RECORD_TTL,
        )

    def publish(self, timeout: float = 10.0) -> None:
        """Announce the room; DiscoveryError when mDNS cannot be used here."""
        if self._thread is not None:
            raise RuntimeError("the room is already published")
        if not self.addresses:
            raise DiscoveryError("this machine has no address to announce")
        self._thread = LoopThread("koikoi-advertiser")
        try:
            self._thread.submit(self._publish()).result(timeout)
        except concurrent.futures.CancelledError:
            return  # withdrawn (from another thread) while it was being announced
        except concurrent.futures.TimeoutError:
            self.withdraw()
            raise DiscoveryError("mDNS did not announce the room in time") from None
        except DiscoveryError:
            self.withdraw()
            raise

    async def _publish(self) -> None:
        zc = self._zc = start_zeroconf(self.bind)
        await wait_started(zc, where_of(self.bind))
        info = self._service()
        try:
            announced = await zc.async_register_service(info, allow_name_change=True)
            await announced
        except (NonUniqueNameException, BadTypeInNameException, OSError, ValueError) as error:
            raise DiscoveryError(
                f"mDNS cannot announce the room: {describe_error(error)}"
            ) from None
        self._info = info
        logger.info("advertising %r at %s", info.name, ", ".join(self.addresses))

    def set_status(self, status: RoomStatus) -> None:
        """Change the status the room advertises (open → playing); does not wait."""
        self.ad = replace(self.ad, status=status)
        if self._thread is not None:
            future = self._thread.submit(self._update())
            future.add_done_callback(_log_failure)

    async def _update(self) -> None:
        if self._zc is None or self._info is None:
            return
        info = self._service()
        info.name = self._info.name
        self._info = info
        announcing = await self._zc.async_update_service(info)
        assert isinstance(announcing, asyncio.Task)  # zeroconf's ensure_future
        self._updates.add(announcing)
        try:
            await announcing
        finally:
            self._updates.discard(announcing)

    def withdraw(self, timeout: float = STOP_TIMEOUT) -> None:
        """Say goodbye (peers drop the room at once) and stop; safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            thread.submit(self._withdraw()).result(timeout)
        except Exception:
            logger.debug("withdrawing the room failed", exc_info=True)
        finally:
            thread.stop(timeout)

    async def _withdraw(self) -> None:
        zc, self._zc = self._zc, None
        if zc is None:
            return
        try:
            info = self._info
            if info is not None:
                # The goodbye must be the room's last word, or browsers list it again for
                # the records' whole TTL: a status change's announcements still to go (225
                # ms apart) stop, answers zeroconf queued before are dropped, and one more
                # goodbye, unlike zeroconf's three, follows them (tests/test_net_discovery.py)
                for announcing in list(self._updates):
                    announcing.cancel()
                await asyncio.gather(*self._updates, return_exceptions=True)
                goodbyes = await zc.async_unregister_service(info)
                drop_queued_answers(zc.zeroconf, info.name, info.server or "")
                await asyncio.wait_for(goodbyes, STOP_TIMEOUT)
                drop_queued_answers(zc.zeroconf, info.name, info.server or "")
                await asyncio.sleep(LAST_GOODBYE_AFTER)
                send_last_goodbye(zc.zeroconf, info)
        finally:
            self._info = None
            await zc.async_close()


def _republishable(name: str) -> bool:
    """Whether ``name`` is a service name of ours to publish again: of the service type, its
    instance part at most 63 bytes (DNS's label limit) and without control characters.

    >>> _republishable("Hana's room #0a1b2c._koikoi._tcp.local.")
    True
    >>> _republishable("x._http._tcp.local."), _republishable("")
    (False, False)
    """
    suffix = "." + SERVICE_TYPE
    instance = name[: -len(suffix)] if name.endswith(suffix) else ""
    return (
        bool(instance.strip())
        and len(instance.encode("utf-8")) <= 63
        and all(ch.isprintable() for ch in instance)
    )


def _log_failure(future: concurrent.futures.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.debug("mDNS update failed: %r", future.exception())
