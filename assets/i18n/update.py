"""Update the translations from the sources: ``python assets/i18n/update.py`` from the repo.

One command for everything under ``assets/i18n``:

1. ``pyside6-lupdate`` reads ``koikoi/ui/**/*.py``. Its Python parser gives ``self.tr(...)`` the
   class's context, but puts a module's helper (``_tr("...")`` in lobby.py, the ``t``
   shorthand of help.py) in the empty context; those messages move to the context the
   helper passes to Qt at run time: the module's for ``_tr`` (:data:`FILE_CONTEXTS`, which
   must name every module with such a helper), the class's for ``t = self.tr``.
2. ``koikoi_ja.ts`` gets every message, keeping the translations it already has; a new
   message comes in ``type="unfinished"`` for a translator (Qt Linguist:
   ``pyside6-linguist assets/i18n/koikoi_ja.ts``), and one gone from the sources is dropped.
3. ``koikoi_en.ts`` keeps the plural messages only, filled by the English rule
   (``english_plurals.py``).
4. ``pyside6-lrelease`` compiles both to the ``.qm`` files the app loads. They are committed
   (the wheel and the packaged app copy ``assets/`` as it is, with no build step);
   ``tests/test_ui_i18n.py`` checks they are what this command makes.

``--check`` changes nothing and exits 1 when a file would change or a Japanese message is
unfinished (the test runs the same check).
"""

from __future__ import annotations

import argparse
import ast
import copy
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SOURCES = ROOT / "koikoi" / "ui"
LANGUAGES = ("ja", "en")


def sources() -> list[Path]:
    """The window's modules, in its subpackages too; by file name, so each name is one file's."""
    found = sorted(SOURCES.rglob("*.py"))
    names = [p.name for p in found if p.name != "__init__.py"]
    if len(names) != len(set(names)):
        raise SystemExit("two modules of koikoi/ui share a file name: FILE_CONTEXTS is by name")
    return found


def source_named(name: str) -> Path:
    """The module of ``koikoi/ui`` whose file is called ``name``."""
    return next(p for p in sources() if p.name == name)


FILE_CONTEXTS = {
    "lobby.py": "Lobby",
    "lobby_pages.py": "Lobby",
    "hosting.py": "Lobby",
    "replying.py": "Lobby",
    "prematch.py": "Prematch",
    "rooms.py": "Rooms",
    "clock_words.py": "ClockWords",
    "start_screen.py": "StartScreen",
    "main_window.py": "MainWindow",
    "netmatch.py": "MainWindow",
    "rematch.py": "MainWindow",
    "help.py": "HelpDialog",
    "calculator.py": "ScoreCalculator",
    "neterrors.py": "NetErrors",
    "display.py": "Display",
    "gallery.py": "Gallery",
    "glossary.py": "Glossary",
    "rules_window.py": "Rules",
    "table_layout.py": "TableView",
    "narration.py": "GameController",
    "spoken.py": "GameScreen",
    "banner.py": "CallBanner",
    "turn_cue.py": "TurnCue",
    "undo.py": "Undo",
    "coach.py": "Coach",
    "counting.py": "Statistics",
}
"""The context of each module's translation helper, for the messages lupdate leaves without."""

ALIASES = "tr+=_tr,tr+=t"


def tool(name: str) -> str:
    return shutil.which(name) or str(Path(sys.executable).with_name(name))


def _calls(path: Path) -> list[tuple[str, str, bool]]:
    """(context, source, inside an f-string) of each helper call (``tr``, ``_tr``, ``t``) with
    a literal message: ``_tr`` passes its module's context (:data:`FILE_CONTEXTS`); ``t``, the
    shorthand ``t = self.tr``, and ``tr`` pass their class's."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for inner in ast.walk(node):
                classes.setdefault(id(inner), node.name)
    in_fstring: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            in_fstring.update(id(inner) for inner in ast.walk(node))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or not call.args:
            continue
        first = call.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in ("tr", "_tr", "t"):
            continue
        context = FILE_CONTEXTS.get(path.name, "")
        if name != "_tr" and id(call) in classes:
            context = classes[id(call)]
        found.append((context, first.value, id(call) in in_fstring))
    return found


def _in_fstrings(path: Path) -> list[tuple[str, str]]:
    """(context, source) of the ``tr`` calls inside f-strings, which lupdate does not see."""
    return [(context, source) for context, source, inside in _calls(path) if inside]


def _helper_contexts(path: Path) -> dict[str, set[str]]:
    """The run-time contexts of each message lupdate left without one, by its source: a
    module's ``_tr`` and a class's ``t = self.tr`` in one file pass different contexts."""
    contexts: dict[str, set[str]] = {}
    for context, source, _ in _calls(path):
        if context:
            contexts.setdefault(source, set()).add(context)
    return contexts


def extract(out: Path) -> ET.ElementTree[ET.Element]:
    """Every message of the sources, in its run-time context, with no translation yet."""
    files = [str(p.relative_to(ROOT)) for p in sources()]
    subprocess.run(
        [tool("pyside6-lupdate"), "-silent", "-locations", "absolute", "-no-obsolete",
         "-tr-function-alias", ALIASES, "-source-language", "en", "-target-language", "ja",
         *files, "-ts", str(out)],
        cwd=ROOT, check=True,
    )  # fmt: skip
    tree = ET.parse(out)
    root = tree.getroot()
    contexts: dict[str, ET.Element] = {}
    for context in root.findall("context"):
        contexts[context.findtext("name") or ""] = context
    empty = contexts.pop("", None)
    if empty is not None:
        root.remove(empty)
        _spread_helper_messages(root, contexts, empty)
    for path in sources():
        for name, source in _in_fstrings(path):
            target = _context(root, contexts, name)
            if all(m.findtext("source") != source for m in target.findall("message")):
                message = ET.SubElement(target, "message")
                ET.SubElement(message, "source").text = source
                ET.SubElement(message, "translation", type="unfinished")
    for context in root.findall("context"):
        root.remove(context)
    for name in sorted(contexts):
        context = contexts[name]
        for message in context.findall("message"):
            for where in message.findall("location"):
                message.remove(where)
        root.append(context)
    return tree


def _context(root: ET.Element, contexts: dict[str, ET.Element], name: str) -> ET.Element:
    """The context ``name`` of ``root``, made if there is none yet."""
    if name not in contexts:
        contexts[name] = ET.SubElement(root, "context")
        ET.SubElement(contexts[name], "name").text = name
    return contexts[name]


def _spread_helper_messages(
    root: ET.Element, contexts: dict[str, ET.Element], empty: ET.Element
) -> None:
    """The messages lupdate found outside a class (``empty``), each put in the contexts its
    module's helpers translate it in."""
    helpers: dict[str, dict[str, set[str]]] = {}
    for message in empty.findall("message"):
        # the same words in two modules' helpers are one message with two locations:
        # each module's context gets it
        wheres: list[ET.Element | None] = list(message.findall("location")) or [None]
        for where in wheres:
            file = Path(where.get("filename", "") if where is not None else "").name
            if file not in FILE_CONTEXTS:
                raise SystemExit(f"{file}: a message outside a class, with no known context")
            if file not in helpers:
                helpers[file] = _helper_contexts(source_named(file))
            source = message.findtext("source") or ""
            for name in sorted(helpers[file].get(source, {FILE_CONTEXTS[file]})):
                target = _context(root, contexts, name)
                if all(m.findtext("source") != source for m in target.findall("message")):
                    target.append(copy.deepcopy(message))


def _key(context: str, message: ET.Element) -> tuple[str, str, str]:
    return context, message.findtext("source") or "", message.findtext("comment") or ""


def merge(
    fresh: ET.ElementTree[ET.Element], old: Path, language: str
) -> ET.ElementTree[ET.Element]:
    """``fresh`` with the translations ``old`` already has."""
    known: dict[tuple[str, str, str], ET.Element] = {}
    if old.exists():
        for context in ET.parse(old).getroot().iter("context"):
            for message in context.findall("message"):
                known[_key(context.findtext("name") or "", message)] = message
    tree = copy.deepcopy(fresh)
    root = tree.getroot()
    root.set("language", language)
    root.set("sourcelanguage", "en")
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.findall("message"):
            before = known.get(_key(name, message))
            done = before.find("translation") if before is not None else None
            if before is None or done is None:
                continue
            translation = message.find("translation")
            if translation is not None:
                message.remove(translation)
            message.append(copy.deepcopy(done))
            if before.get("numerus"):
                message.set("numerus", before.get("numerus", ""))
    return tree


def unfinished(ts: Path) -> list[str]:
    """The messages of ``ts`` still without a finished translation."""
    missing = []
    for context in ET.parse(ts).getroot().iter("context"):
        for message in context.findall("message"):
            translation = message.find("translation")
            forms = [] if translation is None else translation.findall("numerusform")
            texts = [f.text for f in forms] if forms else [getattr(translation, "text", None)]
            if translation is None or translation.get("type") or not all(texts):
                missing.append(f"{context.findtext('name')}: {message.findtext('source')}")
    return missing


def write(tree: ET.ElementTree[ET.Element], path: Path) -> None:
    ET.indent(tree, "    ")
    tree.write(path, encoding="utf-8", xml_declaration=True)
    with path.open("a", encoding="utf-8") as f:
        f.write("\n")


def build(folder: Path) -> None:
    """Write the .ts and .qm files of every language into ``folder``."""
    sys.path.insert(0, str(HERE))
    import english_plurals

    with tempfile.TemporaryDirectory() as tmp:
        fresh = extract(Path(tmp) / "fresh.ts")
    for language in LANGUAGES:
        ts = folder / f"koikoi_{language}.ts"
        tree = merge(fresh, HERE / ts.name, language)
        write(tree, ts)
        if language == "en":
            english_plurals.fill(ts)
        subprocess.run(
            [tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))],
            check=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; 1 when stale")
    args = parser.parse_args(argv)
    if not args.check:
        build(HERE)
        missing = unfinished(HERE / "koikoi_ja.ts")
        print(f"koikoi_ja.ts: {len(missing)} message(s) to translate")
        for line in missing:
            print(f"  {line}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build(out)
        stale = [
            p.name for p in sorted(out.iterdir()) if p.read_bytes() != (HERE / p.name).read_bytes()
        ]
        missing = unfinished(out / "koikoi_ja.ts")
    for name in stale:
        print(f"{name} is not what the sources make: run python assets/i18n/update.py")
    for line in missing:
        print(f"koikoi_ja.ts: not translated: {line}")
    return 1 if stale or missing else 0


if __name__ == "__main__":
    sys.exit(main())
