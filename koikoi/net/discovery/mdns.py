"""zeroconf started for koikoi: on a thread of its own with its own event loop (so neither a Qt
window nor the host's asyncio loop waits on the network), on the interfaces of ``bind``, or a
:class:`DiscoveryError` saying why mDNS cannot work here."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import threading
from typing import Any, Final

from zeroconf.asyncio import AsyncZeroconf

from koikoi.net.discovery.interfaces import DiscoveryError, interfaces_for, is_all, local_ips
from koikoi.net.discovery.zeroconf_internals import Sources, can_send, note_sources

START_TIMEOUT: Final = 5.0
STOP_TIMEOUT: Final = 5.0


class LoopThread:
    """A daemon thread running an asyncio loop, for zeroconf to live on."""

    def __init__(self, name: str) -> None:
        """DiscoveryError when no loop or thread can be made (out of file descriptors, as in
        a connection flood, or of threads): said as the reason mDNS cannot work, not raised
        into the window."""
        try:
            self.loop = asyncio.new_event_loop()
        except OSError as error:
            raise DiscoveryError(f"cannot start mDNS: {error.strerror or error}") from None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        try:
            self._thread.start()
        except RuntimeError as error:
            self.loop.close()
            raise DiscoveryError(f"cannot start mDNS: {error}") from None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            with contextlib.suppress(Exception):  # zeroconf may leave broadcasts in flight
                tasks = asyncio.all_tasks(self.loop)
                for task in tasks:
                    task.cancel()
                self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
                self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def submit(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self, timeout: float) -> None:
        if self.loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.loop.stop)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)


def start_zeroconf(bind: str | None, sources: Sources | None = None) -> AsyncZeroconf:
    """An AsyncZeroconf on the running loop; DiscoveryError when multicast is unusable.
    With ``sources``, the sender of every response is noted there: this replaces zeroconf's
    record manager before its sockets are made (they take it when the loop next runs)."""
    interfaces, version = interfaces_for(bind)
    if not local_ips():
        raise DiscoveryError("no network interface has an address, so mDNS cannot work here")
    usable = local_ips(multicast=True)
    if not usable or (
        isinstance(interfaces, list) and ipaddress.ip_address(interfaces[0]) not in usable
    ):
        raise DiscoveryError(
            f"no network interface {where_of(bind)}can send multicast, so mDNS cannot work here"
        )
    try:
        zc = AsyncZeroconf(interfaces=interfaces, ip_version=version)
    except (OSError, RuntimeError, ValueError) as error:
        raise DiscoveryError(f"mDNS cannot start: {describe_error(error)}") from None
    if sources is not None:
        note_sources(zc.zeroconf, sources)
    return zc


async def wait_started(zc: AsyncZeroconf, where: str) -> None:
    """Wait for ``zc``'s sockets; DiscoveryError when none can send (``where``: where_of)."""
    try:
        await zc.zeroconf.async_wait_for_start(timeout=START_TIMEOUT)
    except Exception as error:
        raise DiscoveryError(f"mDNS cannot start: {describe_error(error)}") from None
    if not can_send(zc.zeroconf):
        raise DiscoveryError(f"no network interface {where}can send multicast, so mDNS cannot work")


def describe_error(error: BaseException) -> str:
    """An error of zeroconf or the system as the end of a line a person reads."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def where_of(bind: str | None) -> str:
    """``bind`` for the middle of a sentence ("no network interface {where}can ...")."""
    return "" if is_all(bind) else f"with the address {bind} "
