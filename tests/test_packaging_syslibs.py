"""A system library Qt needs is missing: ``koikoi`` says which Debian package to install, in one
line, instead of a traceback or Qt's abort with its list of platform plugins.

The library is made unloadable for one run only: in a private mount namespace ``/dev/null`` is
bound over its file (root and ``unshare`` needed, as in CI).
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def _can_hide_files() -> bool:
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "true"], capture_output=True
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _can_hide_files(), reason="hiding a library needs root and a mount namespace (unshare)"
)


def _library_file(soname: str) -> Path:
    """The real file the dynamic loader opens for ``soname`` (ldconfig's cache)."""
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        name, _, path = line.strip().partition(" => ")
        if name.split(" ")[0] == soname and "x86-64" in name:
            return Path(path).resolve()
    pytest.fail(f"{soname} is not installed here ({ctypes.util.find_library(soname)})")


def _koikoi_without(soname: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    hidden = _library_file(soname)
    script = 'mount --bind /dev/null "$0" && exec "$@"'
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(hidden)]
        + [sys.executable, "-m", "koikoi"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env=env,
    )


def _one_line_naming(result: subprocess.CompletedProcess[str], soname: str, package: str) -> None:
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"koikoi: the system library {soname} is missing or broken; "
        f"install it with 'sudo apt install {package}'"
    ], result.stderr
    assert "Traceback" not in result.stderr and "qt.qpa" not in result.stderr


def test_missing_xcb_cursor_names_its_package_not_the_plugin_list() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"QT_QPA_PLATFORM", "WAYLAND_DISPLAY"}}
    env["DISPLAY"] = ":97"  # an X display is asked for: Qt would load its xcb plugin
    _one_line_naming(
        _koikoi_without("libxcb-cursor.so.0", env), "libxcb-cursor.so.0", "libxcb-cursor0"
    )


def test_missing_egl_names_its_package_not_a_traceback() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")  # even offscreen, QtGui needs libEGL
    _one_line_naming(_koikoi_without("libEGL.so.1", env), "libEGL.so.1", "libegl1")


def test_offscreen_needs_no_xcb_library() -> None:
    """The check stops only what would fail: offscreen, a missing xcb library is no matter."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    hidden = _library_file("libxcb-cursor.so.0")
    script = 'mount --bind /dev/null "$0" && exec "$@"'
    result = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(hidden)]
        + [sys.executable, "-m", "koikoi", "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "smoke test passed" in result.stderr
