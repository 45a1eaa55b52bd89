"""The engine's optional compiled core: its hot modules built by mypyc, or the source.

``cards``, ``value``, ``deck``, ``yaku``, ``outcome`` and ``round`` (:data:`HOT_MODULES`) are
``mypy --strict`` clean, and mypyc compiles them unchanged into extension modules that sit
beside their sources (``python packaging/accel.py`` builds them; ``.ci/setup`` and
``packaging/build.sh`` run it). Python imports an extension module before a source file of
the same name, so where they are built the game, the AI and ``koikoi bench`` run them through
the same API; where they are not (no compiler), the source runs, and it stays the reference.

The build writes :data:`STAMP`, the digest of the sources it compiled. The compiled modules
are passed over for the source when the digest no longer matches the sources beside them (a
source edited after the build) or when ``KOIKOI_PURE_ENGINE=1``; :func:`choose` decides, as
:mod:`koikoi.engine` is imported.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import logging
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

logger = logging.getLogger(__name__)

PACKAGE: Final = "koikoi.engine"
HOT_MODULES: Final = ("cards", "value", "deck", "yaku", "outcome", "round")
"""The modules compiled, in the order a round imports them. Not ``events``: the network's
``SealedDealt`` subclasses ``Dealt``, and no interpreted class may subclass a compiled one
(only the checked door makes events, so the playouts lose nothing by it)."""
GROUP: Final = "koikoi.engine.hot"
"""mypyc's group name: its shared library is the extension module ``koikoi.engine.hot__mypyc``."""
STAMP: Final = "compiled.stamp"
PURE_ENV: Final = "KOIKOI_PURE_ENGINE"
"""Set to ``1``, the engine runs from source even where the compiled core is built."""

HERE: Final = Path(__file__).resolve().parent


def source_digest(folder: Path = HERE) -> str | None:
    """SHA-256 over the hot modules' sources, or None where they are absent (a frozen app)."""
    h = hashlib.sha256()
    for name in HOT_MODULES:
        try:
            h.update((folder / f"{name}.py").read_bytes())
        except OSError:
            return None
        h.update(b"\0")
    return h.hexdigest()


def extension_file(name: str, folder: Path = HERE) -> Path | None:
    """The compiled module ``name`` (an extension module beside its source), if built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def built(folder: Path = HERE) -> bool:
    """Every hot module and the shared library are built here."""
    names = (*HOT_MODULES, GROUP.rpartition(".")[2] + "__mypyc")
    return all(extension_file(n, folder) is not None for n in names)


def current(folder: Path = HERE) -> bool:
    """The compiled modules were built from the sources beside them (or no source is there:
    a frozen app carries the compiled modules alone)."""
    digest = source_digest(folder)
    if digest is None:
        return True
    try:
        return (folder / STAMP).read_text().strip() == digest
    except OSError:
        return False


def in_use() -> bool:
    """The engine imported in this process is the compiled one."""
    from koikoi.engine import round as round_module

    origin = getattr(round_module, "__file__", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class _SourceFinder:
    """Finds the hot modules as source files only (a meta path finder placed first)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in HOT_MODULES:
            return None
        source = HERE / f"{name}.py"
        if not source.is_file():  # a frozen app: only the compiled module is there
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def use_source() -> None:
    """From now on import the hot modules from source (before any of them is imported)."""
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())


def choose() -> None:
    """Pass over the compiled modules where asked to, or where they are out of date."""
    if os.environ.get(PURE_ENV) == "1":
        use_source()
    elif built() and not current():
        logger.warning(
            "the compiled engine was built from other sources: running the source "
            "(python packaging/accel.py builds it again)"
        )
        use_source()
