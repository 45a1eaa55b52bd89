"""A virtual screen of a test's own (Xvfb) and the clean-up of the programs a test starts:
used by the tests that run the real app in a real window (tests/test_ui_atspi.py,
tests/test_sound_heard.py, tests/test_ui_internet_processes.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

needs_xvfb = pytest.mark.skipif(
    shutil.which("Xvfb") is None,
    reason="Xvfb is not installed (the apps' virtual screen; .ci/setup installs it)",
)
"""Skips a test (or, as ``pytestmark``, a module) where there is no Xvfb, saying so."""


def start_xvfb(procs: list[subprocess.Popen[Any]], size: str = "1400x900x24") -> str:
    """A new X server on a free display (Xvfb picks it: ``-displayfd``), appended to
    ``procs``; its ``DISPLAY`` value."""
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", size, "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs.append(xvfb)
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        display = f.readline().strip()
    assert display, "Xvfb did not start"
    return f":{display}"


def stop_all(procs: list[subprocess.Popen[Any]]) -> None:
    """End the programs, the last started first: terminate, then kill after 5 s."""
    for proc in reversed(procs):
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def display_fixture(size: str = "1400x900x24") -> Any:
    """A fixture: the ``DISPLAY`` of an X server of the test's own, ``size`` big, stopped
    after the test. Its name is the module's name for it (``display = display_fixture()``)."""

    @pytest.fixture
    def display() -> Iterator[str]:
        procs: list[subprocess.Popen[Any]] = []
        try:
            yield start_xvfb(procs, size)
        finally:
            stop_all(procs)

    return display
