"""Where the shipped assets live, in a source checkout and in an installed wheel alike.

The wheel maps the top-level ``assets/`` folder to ``koikoi/assets`` (see pyproject.toml);
a source checkout or an editable install reads the top-level folder directly.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def assets_dir() -> Path:
    """The folder holding ``cards/``, ``icons/`` and the other shipped assets."""
    packaged = Path(str(resources.files("koikoi"))) / "assets"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "assets"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("koikoi: the assets folder is missing from this installation")


def asset(relative: str) -> Path:
    """Path of one asset, e.g. ``asset("cards/matsu_crane.svg")``."""
    path = assets_dir() / relative
    if not path.is_file():
        raise FileNotFoundError(f"koikoi: asset {relative!r} is missing from this installation")
    return path
