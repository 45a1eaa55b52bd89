"""One home for every name (issue 21), read from the source with ``ast``: nothing is imported.

A name is imported from the module that defines it (assigns it, or defines it by ``def`` or
``class``), never from a module that only imported it itself: no ``from koikoi.x import N as
N`` re-export, no ``__all__`` naming what a module did not define, and no ``from koikoi.x
import N`` in ``koikoi/`` or ``tests/`` where ``koikoi.x`` has ``N`` from somewhere else; the
tests' own helpers are held to the same rule. A package's submodules count as its own
(``from koikoi.net import wire``). Imports under ``if
TYPE_CHECKING:`` are checked like the others: a type has one home too."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO
from tests.test_import_cycles import module_name


@dataclass(frozen=True)
class Module:
    """What one module binds at its top level, as read from its source."""

    path: Path
    package: str
    defined: frozenset[str]
    """Names it assigns or defines by ``def``/``class`` (at top level, in ``if``/``try``)."""
    exported: tuple[str, ...]
    """The names in its ``__all__``, if it has one."""


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run at a module's top level, into ``if``/``try``/``with``."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.For | ast.While | ast.With):
            yield from _top_level(node.body)
            yield from _top_level(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
            yield from _top_level(node.finalbody)
            for handler in node.handlers:
                yield from _top_level(handler.body)


def _targets(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from _targets(element)
    elif isinstance(target, ast.Starred):
        yield from _targets(target.value)


def read_module(path: Path, name: str) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined: set[str] = set()
    exported: tuple[str, ...] = ()
    for node in _top_level(tree.body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                defined.update(_targets(target))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                exported = tuple(ast.literal_eval(node.value))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For):
            defined.update(_targets(node.target))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return Module(path, package, frozenset(defined), exported)


def read_modules(root: Path, folder: str = "koikoi") -> dict[str, Module]:
    """Every module under ``root/folder``, by its dotted name."""
    paths = {module_name(path, root): path for path in sorted((root / folder).rglob("*.py"))}
    return {name: read_module(path, name) for name, path in paths.items()}


def _source(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def _imports_in_scripts(tree: ast.Module) -> list[ast.ImportFrom]:
    """The imports of the Python scripts a module keeps in strings (run by a child process:
    ``python -c SCRIPT``), numbered by the string's line in the module."""
    found: list[ast.ImportFrom] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if "import" not in node.value or "koikoi" not in node.value:
            continue
        try:
            script = ast.parse(textwrap.dedent(node.value))
        except SyntaxError:
            continue  # prose, not a script
        for inner in ast.walk(script):
            if isinstance(inner, ast.ImportFrom):
                inner.lineno += node.lineno - 1
                found.append(inner)
    return found


def wrong_homes(path: Path, package: str, modules: dict[str, Module], root: Path) -> list[str]:
    """Each ``from koikoi.x import N`` in the source at ``path`` whose ``N`` is not
    ``koikoi.x``'s own, and each ``N as N`` re-export, as ``path:line: why``."""
    where = path.relative_to(root).as_posix()
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    nodes += _imports_in_scripts(tree)
    for node in sorted(nodes, key=lambda node: node.lineno):
        source = _source(node, package)
        if source not in modules:
            continue
        for alias in node.names:
            if alias.asname == alias.name:
                found.append(f"{where}:{node.lineno}: re-exports {alias.name} of {source}")
            if alias.name == "*":
                found.append(f"{where}:{node.lineno}: imports * from {source}")
            elif alias.name not in modules[source].defined and (
                f"{source}.{alias.name}" not in modules
            ):
                found.append(f"{where}:{node.lineno}: {source} does not define {alias.name}")
    return found


def pass_throughs(modules: dict[str, Module], root: Path) -> list[str]:
    """Each name in a module's ``__all__`` that the module does not define."""
    return [
        f"{module.path.relative_to(root).as_posix()}: __all__ names {exported}, not its own"
        for name, module in modules.items()
        for exported in module.exported
        if exported not in module.defined and f"{name}.{exported}" not in modules
    ]


def all_wrong_homes(root: Path) -> list[str]:
    """Every wrong home in ``root/koikoi`` and ``root/tests`` (the tests' helpers have one
    home each too)."""
    product = read_modules(root)
    modules = product | read_modules(root, "tests")
    found = pass_throughs(product, root)  # a test's __all__ may hold a fixture it imports
    for module in modules.values():
        found += wrong_homes(module.path, module.package, modules, root)
    return found


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_name_imported_from_a_module_that_only_imported_it_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "koikoi/__init__.py": "",
            "koikoi/home.py": (
                "from typing import TYPE_CHECKING\nX = 1\ndef f(): pass\nclass C: pass\n"
                "if TYPE_CHECKING:\n    Y: int\nelse:\n    Y = 2\n"
                "try:\n    Z = 3\nexcept ImportError:\n    Z = 4\n"
            ),
            "koikoi/sub/__init__.py": "",
            "koikoi/sub/part.py": "from koikoi.home import X, C\n",
            "koikoi/sub/again.py": "from .part import C\nfrom . import part\n",
            "koikoi/alias.py": "from koikoi.home import X as X, f as g\n",
            "koikoi/facade.py": "from koikoi.home import f\n__all__ = ['f', 'Own']\nOwn = 1\n",
            "koikoi/fine.py": (
                "from koikoi.home import X, Y, Z, f, C\nfrom koikoi.sub import part\n"
            ),
            "tests/__init__.py": "",
            "tests/support.py": "from koikoi.home import X\nY = 1\n",
            "tests/test_x.py": (
                "def t():\n    from koikoi.sub.part import X\n"
                "from tests.support import Y\nfrom tests.support import X as Z\n"
            ),
        },
    )
    assert all_wrong_homes(tmp_path) == [
        "koikoi/facade.py: __all__ names f, not its own",
        "koikoi/alias.py:1: re-exports X of koikoi.home",
        "koikoi/sub/again.py:1: koikoi.sub.part does not define C",
        "tests/test_x.py:2: koikoi.sub.part does not define X",
        "tests/test_x.py:4: tests.support does not define X",
    ]


def test_every_name_is_imported_from_its_home() -> None:
    modules = read_modules(REPO)
    assert "MAX_NICKNAME" in modules["koikoi.net.hello"].defined
    assert "parse_address" in modules["koikoi.net.address"].exported
    found = all_wrong_homes(REPO)
    assert not found, "\n".join(found)
