"""A screen reader's ears and eyes for tests: reads an app's accessible tree over AT-SPI.

Run by the system's Python (Debian's ``/usr/bin/python3`` with ``python3-pyatspi``), not the
project's venv: pyatspi is a GObject-introspection binding that pip cannot install. It talks
to the app only over the accessibility bus, as Orca does; nothing of koikoi is imported here.

    /usr/bin/python3 tests/atspi_reader.py --pid PID

It listens for ``object:announcement`` events (Qt's ``QAccessibleAnnouncementEvent``) from
the start and answers one JSON line on stdout for each line it reads on stdin:

* ``tree``: ``{"objects": [...], "heard": [...]}``: every object of the app's tree that is
  showing, as ``[role, name, states]`` (``states`` a string of letters: ``f`` focusable,
  ``F`` focused), the ``text`` of its text boxes as ``[role, name, states, text]``, and the
  announcements heard since the last answer (each ``[source role, source name, message]``);
* ``heard``: only the announcements heard since the last answer;
* ``quit``: it exits.

The first line it writes is ``{"ready": true, "app": NAME}`` once the app (by its process
id) is on the bus, or ``{"error": ...}``; ``--wait`` bounds that wait (seconds).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import gi  # type: ignore[import-not-found]

gi.require_version("Atspi", "2.0")
import pyatspi  # type: ignore[import-not-found]  # noqa: E402
from gi.repository import Atspi, GLib  # type: ignore[import-not-found]  # noqa: E402

TEXT_ROLES = {"text", "entry", "terminal", "document text", "paragraph"}


class Reader:
    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.app: Any = None
        self.heard: list[list[str]] = []
        pyatspi.Registry.registerEventListener(self._on_announcement, "object:announcement")

    def _on_announcement(self, event: Any) -> None:
        source = event.source
        try:
            role = source.getRoleName() if source is not None else ""
            name = source.name if source is not None else ""
        except Exception:  # the source went away meanwhile
            role = name = ""
        message = event.any_data
        self.heard.append([role, name, message if isinstance(message, str) else str(message)])

    def find_app(self) -> Any:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.get_process_id() == self.pid:
                    app.set_cache_mask(Atspi.Cache.NONE)  # every read asks the app itself
                    if app.name and app.childCount > 0:  # its window is up
                        return app
            except Exception:
                continue
        return None

    def tree(self) -> list[list[Any]]:
        out: list[list[Any]] = []
        self._walk(self.app, out, 0)
        return out

    def _walk(self, node: Any, out: list[list[Any]], depth: int) -> None:
        if node is None or depth > 60:
            return
        try:
            states = node.getState()
            if node is not self.app and not states.contains(pyatspi.STATE_SHOWING):
                return  # hidden: neither the reader nor its children are heard
            role = node.getRoleName()
            flags = ("f" if states.contains(pyatspi.STATE_FOCUSABLE) else "") + (
                "F" if states.contains(pyatspi.STATE_FOCUSED) else ""
            )
            row: list[Any] = [role, node.name or "", flags]
            if role in TEXT_ROLES:
                text = node.queryText()
                row.append(text.getText(0, text.characterCount))
            out.append(row)
            count = node.childCount
        except Exception:  # an object deleted while we read: what is left of it is not shown
            return
        for i in range(count):
            try:
                child = node.getChildAtIndex(i)
            except Exception:
                continue
            self._walk(child, out, depth + 1)

    def take_heard(self) -> list[list[str]]:
        heard, self.heard = self.heard, []
        return heard


def say(obj: object) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--wait", type=float, default=20.0)
    args = parser.parse_args()
    reader = Reader(args.pid)
    loop = GLib.MainLoop()
    deadline = time.monotonic() + args.wait

    def look_for_app() -> bool:
        reader.app = reader.find_app()
        if reader.app is not None:
            say({"ready": True, "app": reader.app.name})
            GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_line)
            return False
        if time.monotonic() > deadline:
            say({"error": f"no application with process id {args.pid} on the AT-SPI bus"})
            loop.quit()
            return False
        return True

    def on_line(fd: int, condition: int) -> bool:
        line = sys.stdin.readline()
        command = line.strip()
        if not line or command == "quit":
            loop.quit()
            return False
        try:
            if command == "tree":
                say({"objects": reader.tree(), "heard": reader.take_heard()})
            elif command == "heard":
                say({"heard": reader.take_heard()})
            else:
                say({"error": f"unknown command {command!r}"})
        except Exception as exc:  # one line for the test to show, and go on
            say({"error": f"{type(exc).__name__}: {exc}"})
        return True

    GLib.timeout_add(100, look_for_app)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
