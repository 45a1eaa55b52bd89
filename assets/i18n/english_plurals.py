"""The English plural forms of ``koikoi_en.ts``; ``python assets/i18n/update.py`` rebuilds them
with the Japanese translation (running this file does the same).

Qt picks a plural form (``%n point(s)`` → "1 point", "2 points") only from a translation,
even for the source language, so English ships a plurals-only translation, as Qt Linguist's
manual advises. :func:`fill`, on the messages ``update.py`` extracted, keeps those with
``%n`` (lupdate's Python parser marks only ``self.tr(text, "", n)`` as plural, not
``QCoreApplication.translate(context, text, "", n)``, so the ``%n`` decides) and fills every
form still empty by the one rule our sources follow ("(s)" is dropped for one, becomes "s"
otherwise). A source needing another rule gets its forms by hand in the .ts; filled forms
are kept.
"""

from __future__ import annotations

import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TS = HERE / "koikoi_en.ts"
QM = HERE / "koikoi_en.qm"


def tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).with_name(name))
    return found


def fill(ts: Path) -> int:
    tree = ET.parse(ts)
    filled = 0
    for context in tree.iter("context"):
        for message in context.findall("message"):
            if "%n" not in (message.findtext("source") or ""):
                context.remove(message)
    for context in tree.findall("context"):
        if not context.findall("message"):
            tree.getroot().remove(context)
    for message in tree.iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        if message.get("numerus") != "yes":
            message.set("numerus", "yes")
            translation.text = None
            for _ in range(2):
                ET.SubElement(translation, "numerusform")
        forms = translation.findall("numerusform")
        if all(f.text for f in forms):
            continue
        one, many = source.replace("(s)", ""), source.replace("(s)", "s")
        for i, form in enumerate(forms):
            form.text = one if i == 0 else many
        translation.attrib.pop("type", None)
        filled += 1
    ET.indent(tree, "    ")
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    return filled


def main() -> None:
    sys.path.insert(0, str(HERE))
    import update

    update.main([])


if __name__ == "__main__":
    main()
