"""``docs/rules.md``: the rules the code cites (R5.3, R7.4, ...), in the repository."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO, SHARED

RULES = REPO / "docs" / "rules.md"
SPEC_RULES = SHARED / "spec" / "RULES.md"
RULE_ID = re.compile(r"\bR\d+\.\d+\b")


def test_rules_md_is_the_specification_byte_for_byte() -> None:
    if not SPEC_RULES.is_file():
        pytest.skip(f"no specification beside the repository ({SPEC_RULES}) to compare with")
    assert RULES.read_bytes() == SPEC_RULES.read_bytes(), (
        f"docs/rules.md differs from {SPEC_RULES}: copy it again (cp {SPEC_RULES} {RULES})"
    )


def test_every_rule_the_code_cites_is_in_rules_md() -> None:
    defined = set(re.findall(r"^- (R\d+\.\d+) ", RULES.read_text(encoding="utf-8"), re.M))
    assert len(defined) > 30
    cited: dict[str, str] = {}
    for path in sorted((REPO / "koikoi").rglob("*.py")):
        for rule in RULE_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rule, str(path.relative_to(REPO)))
    missing = {rule: where for rule, where in cited.items() if rule not in defined}
    assert not missing, f"rule ids cited but not in docs/rules.md: {missing}"
