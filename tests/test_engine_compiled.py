"""The engine's compiled core (koikoi/engine/compiled.py) against its source, the reference.

``.ci/setup`` builds the core (python packaging/accel.py), so here it must be built, current
and in use wherever the source engine is not asked for: these tests fail, never skip, when
it is not. ``KOIKOI_NO_COMPILED_ENGINE=1`` says a machine has no compiler, and only then are
they skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi.devtools import engine_diff
from koikoi.engine import compiled
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(
    os.environ.get("KOIKOI_NO_COMPILED_ENGINE") == "1", reason="KOIKOI_NO_COMPILED_ENGINE=1"
)

BUILD_HINT = "the compiled engine is not built here: python packaging/accel.py (.ci/setup runs it)"


def _python(code: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, compiled.PURE_ENV: "1" if pure else "0"}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, timeout=60
    )


def test_the_compiled_core_is_built_from_these_sources():
    assert compiled.built(), BUILD_HINT
    assert compiled.current(), "the compiled engine is older than its sources: " + BUILD_HINT


def test_it_runs_unless_the_source_is_asked_for():
    code = "from koikoi.engine import compiled, round; print(compiled.in_use(), round.__file__)"
    on, path = _python(code, pure=False).stdout.split()
    assert on == "True" and not path.endswith(".py"), BUILD_HINT
    off, path = _python(code, pure=True).stdout.split()
    assert off == "False" and path.endswith("round.py")


def test_random_rounds_give_identical_events_in_both():
    report = engine_diff.compare(2000, seed=24, chunk=500)
    assert report["identical"], report
    assert report["chunks"] == 4


def test_a_round_played_differently_is_found_and_named():
    report = engine_diff.compare(2000, seed=24, chunk=500, flip=1234)
    assert not report["identical"]
    assert report["round"] == 1234
    assert report["pure"] != report["compiled"]


def test_the_engine_tests_pass_on_the_compiled_core():
    tests = sorted(str(p) for p in (REPO / "tests").glob("test_engine_*.py"))
    tests.remove(str(REPO / "tests" / "test_engine_compiled.py"))
    env = {**os.environ, compiled.PURE_ENV: "0"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *tests]
    proc = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout


def test_a_deal_and_a_round_s_result_cannot_be_changed_on_the_compiled_core():
    code = (
        "from koikoi.engine.deck import Deal\n"
        "from koikoi.engine.outcome import Outcome, RoundResult\n"
        "r = RoundResult(Outcome.WIN, 0, (), 1, False, 0, 1)\n"
        "d = Deal((1, 2), 4, ())\n"
        "try:\n    r.points = 99\nexcept AttributeError:\n    print('read-only', r.points)\n"
        "try:\n    d.field = 0\nexcept AttributeError:\n    print('read-only', d.field)\n"
    )
    out = _python(code, pure=False).stdout.split()
    assert out == ["read-only", "1", "read-only", "4"], BUILD_HINT


def test_bench_says_which_core_ran_and_the_list_engine_s_figures():
    for pure in (True, False):
        env = {**os.environ, compiled.PURE_ENV: "1" if pure else "0"}
        proc = subprocess.run(
            [sys.executable, "-m", "koikoi", "bench", "--seconds", "0.3"],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["compiled"] is (not pure)
        assert out["list_rounds_per_second"] > 0
        ratio = out["rounds_per_second"] / out["list_rounds_per_second"]
        assert abs(out["list_ratio"] - ratio) < 0.02 * ratio + 0.01


def test_a_build_older_than_its_sources_is_passed_over(tmp_path: Path):
    folder = tmp_path / "engine"
    folder.mkdir()
    for name in compiled.HOT_MODULES:
        shutil.copy2(compiled.HERE / f"{name}.py", folder / f"{name}.py")
    digest = compiled.source_digest(folder)
    assert digest is not None
    (folder / compiled.STAMP).write_text(digest + "\n")
    assert compiled.current(folder)
    with (folder / "yaku.py").open("a") as f:
        f.write("# edited after the build\n")
    assert not compiled.current(folder)
    (folder / compiled.STAMP).unlink()
    assert not compiled.current(folder)
    for name in compiled.HOT_MODULES:  # a frozen app: compiled modules without sources
        (folder / f"{name}.py").unlink()
    assert compiled.current(folder)


def test_an_edited_source_runs_instead_of_the_build(tmp_path: Path):
    """The warning and the source engine, in a copy of the package whose round.py changed."""
    if not compiled.built():
        pytest.fail(BUILD_HINT)
    copy = tmp_path / "koikoi"
    shutil.copytree(REPO / "koikoi", copy, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "engine" / "round.py").open("a") as f:
        f.write("\nEDITED = True\n")
    code = "from koikoi.engine import compiled, round; print(compiled.in_use(), round.EDITED)"
    env = {**os.environ, compiled.PURE_ENV: "0", "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert proc.stdout.split() == ["False", "True"], proc.stderr
    assert "built from other sources" in proc.stderr


def test_every_module_of_the_package_imports_on_the_compiled_core():
    """No interpreted class subclasses a compiled one (mypyc refuses it at import)."""
    code = (
        "import pkgutil, importlib, koikoi\n"
        "from koikoi.engine import compiled\n"
        "assert compiled.in_use()\n"
        "names = [m.name for m in pkgutil.walk_packages(koikoi.__path__, 'koikoi.')]\n"
        "for name in names:\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "print(len(names))\n"
    )
    proc = _python(code, pure=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert int(proc.stdout) > 100


def test_ai_matches_are_the_same_on_both_cores():
    """Search (copy, determinize, playouts by push) through the match: the same seeded
    matches, decision for decision, whichever core runs."""
    outs = []
    for pure in (True, False):
        env = {**os.environ, compiled.PURE_ENV: "1" if pure else "0"}
        args = ["simulate", "--a", "hard", "--b", "normal", "--games", "2", "--seed", "1"]
        proc = subprocess.run(
            [sys.executable, "-m", "koikoi", *args, "--playouts", "100"],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        outs.append({k: v for k, v in out.items() if "_ms_" not in k and k != "seconds"})
    assert outs[0] == outs[1]
    assert outs[0]["a_decisions"] > 0
