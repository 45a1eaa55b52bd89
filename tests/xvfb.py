"""A virtual screen of a test's own (Xvfb) and the clean-up of the programs a test starts:
used by the tests that run the real app in a real window (tests/test_ui_atspi.py,
tests/test_sound_heard.py)."""

from __future__ import annotations

import os
import subprocess
from typing import Any


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
