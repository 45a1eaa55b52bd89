"""The table's modules, the keys, the style and the picture tools stay mypy --strict clean
(PySide6 ships its stubs), as the engine and the network core do."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

STRICT = [
    "koikoi/ui/table.py",
    "koikoi/ui/table_model.py",
    "koikoi/ui/card_widget.py",
    "koikoi/ui/keys.py",
    "koikoi/ui/game_screen.py",
    "koikoi/ui/style.py",
    "koikoi/ui/art.py",
    "koikoi/ui/sheet.py",
    "koikoi/ui/screenshots.py",
]


def test_mypy_strict_on_the_table_and_its_tools():
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *STRICT],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
