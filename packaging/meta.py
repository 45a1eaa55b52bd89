"""The project's name, version, app id and dependencies, read where they are kept.

``python packaging/meta.py name version`` prints them on one line (build.sh reads them so);
``dependencies`` prints one requirement a line. The spec imports it too.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_ID = "org.koikoi.Koikoi"
"""The reverse-DNS id: the .desktop and metainfo file names, the icon name, the macOS bundle."""


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def name() -> str:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    return str(project["name"])


def version() -> str:
    """The version from the file hatch reads it from (``[tool.hatch.version] path``)."""
    tool = pyproject()["tool"]
    assert isinstance(tool, dict)
    path = ROOT / tool["hatch"]["version"]["path"]
    found = re.search(r'^__version__ = "([^"]+)"', path.read_text(encoding="utf-8"), re.M)
    if found is None:
        raise SystemExit(f"meta: no __version__ in {path}")
    return found.group(1)


def dependencies() -> list[str]:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    return [str(d) for d in project["dependencies"]]


def app_id() -> str:
    return APP_ID


def main(args: list[str]) -> int:
    values = {"name": name, "version": version, "app_id": app_id}
    if args == ["dependencies"]:
        print("\n".join(dependencies()))
        return 0
    try:
        print(" ".join(values[a]() for a in args))
    except KeyError as exc:
        print(f"meta: unknown field {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
