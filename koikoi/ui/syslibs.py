"""The system libraries Qt needs, and one line naming the package when one is missing.

Without them Qt either fails to import (``libEGL.so.1: cannot open shared object file``) or,
worse, aborts with a dump of its platform plugins ("could not load the Qt platform plugin
xcb ... available platform plugins are ..."). The app asks here first, before Qt is imported
or a ``QApplication`` made, and says which Debian package to install. Qt-free, so it can run
before Qt is loaded.

>>> print(import_failure(ImportError("libEGL.so.1: cannot open shared object file")))
koikoi: the system library libEGL.so.1 is missing or broken; install it with 'sudo apt
install libegl1'
>>> import_failure(ImportError("No module named 'PySide6'")) is None
True
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Final

DEBIAN_PACKAGES: Final = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libGLdispatch.so.0": "libglvnd0",
    "libdrm.so.2": "libdrm2",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}
"""Each library Qt loads from the system (or, frozen, from the bundle), by its Debian package."""

PLATFORM_LIBRARIES: Final[Mapping[str, Sequence[str]]] = {
    "xcb": (
        "libxcb.so.1",
        "libX11-xcb.so.1",
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libxcb-image.so.0",
        "libxcb-render-util.so.0",
        "libxcb-randr.so.0",
        "libxcb-shape.so.0",
        "libxcb-xkb.so.1",
        "libxkbcommon-x11.so.0",
    ),
    "wayland": ("libwayland-client.so.0", "libwayland-cursor.so.0", "libxkbcommon.so.0"),
}
"""What each on-screen platform plugin loads beyond Qt's own libraries."""

_SONAME: Final = re.compile(r"\b(lib[\w.+-]+?\.so(?:\.\d+)*)\b")


def _message(library: str) -> str:
    package = DEBIAN_PACKAGES.get(library)
    how = (
        f"install it with 'sudo apt install {package}'"
        if package
        else "install the package that provides it"
    )
    return f"koikoi: the system library {library} is missing or broken; {how}"


def import_failure(exc: ImportError) -> str | None:
    """The one line for Qt failing to import because of a system library, else ``None``."""
    found = _SONAME.search(str(exc))
    return _message(found.group(1)) if found else None


def _loads(library: str) -> bool:
    try:
        ctypes.CDLL(library)
    except OSError:
        return False
    return True


def _platforms(environ: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order, as it chooses them on Linux."""
    requested = [p.split(":")[0].strip() for p in environ.get("QT_QPA_PLATFORM", "").split(";")]
    requested = [p for p in requested if p]
    if requested:
        return requested
    if environ.get("XDG_SESSION_TYPE") == "wayland" and environ.get("WAYLAND_DISPLAY"):
        return ["wayland", "xcb"]
    return ["xcb"]


def platform_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """One line naming a missing library when no platform Qt would try can load, else
    ``None`` (also off Linux, and for platforms such as ``offscreen`` that need none)."""
    if not sys.platform.startswith("linux"):
        return None
    first_missing: str | None = None
    for platform in _platforms(os.environ if environ is None else environ):
        libraries = PLATFORM_LIBRARIES.get(platform)
        if libraries is None:
            return None
        missing = next((lib for lib in libraries if not _loads(lib)), None)
        if missing is None:
            return None
        first_missing = first_missing or missing
    return _message(first_missing) if first_missing else None
