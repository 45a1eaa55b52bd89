"""Build the engine's compiled core: its hot modules compiled by mypyc, beside their sources.

    python packaging/accel.py [--force]

Compiles ``koikoi/engine/{cards,deck,yaku,outcome,round}.py`` (koikoi/engine/compiled.py:
HOT_MODULES) with mypyc into extension modules in ``koikoi/engine/``, and writes the
sources' digest to ``koikoi/engine/compiled.stamp``, so that an edited source is not passed
over for an older build. Needs mypy (which brings mypyc), setuptools and a C compiler; the
pure-Python engine needs none of them and runs wherever this step was not taken. Does
nothing, and says nothing, when the build is current (unless ``--force``). ``.ci/setup`` and
``packaging/build.sh`` run it; so does the wheel's build hook (hatch_build.py) when asked.

Exit 0: built (or current) and checked in a fresh interpreter; 1: it could not be built, with
one line saying why (the source engine then runs, as before).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "koikoi" / "engine"
BUILD = ROOT / "build" / "accel"


def _compiled_module() -> ModuleType:
    """koikoi/engine/compiled.py, loaded alone (importing koikoi.engine would choose)."""
    spec = importlib.util.spec_from_file_location("_koikoi_compiled", ENGINE / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clean(compiled: ModuleType) -> None:
    """Remove the compiled modules and the stamp (a failed build leaves the source engine)."""
    for path in ENGINE.iterdir():
        if path.name.endswith(".so") or path.name.endswith(".pyd"):
            path.unlink()
    (ENGINE / compiled.STAMP).unlink(missing_ok=True)


def build(compiled: ModuleType) -> None:
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as exc:
        raise SystemExit(
            f"accel: {exc.name} is not installed (pip install mypy setuptools)"
        ) from None
    hot = compiled.HOT_MODULES
    sources = [str(ENGINE / f"{name}.py") for name in hot]
    shutil.rmtree(BUILD, ignore_errors=True)
    BUILD.mkdir(parents=True)
    here = Path.cwd()
    os.chdir(BUILD)  # no pyproject.toml here for setuptools to read as its own
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            extensions = mypycify(sources, opt_level="3", group_name=compiled.GROUP)
            dist = Distribution({"name": "koikoi-engine-compiled", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(BUILD / "lib")
            cmd.build_temp = str(BUILD / "temp")
            dist.run_command("build_ext")
    except (Exception, SystemExit) as exc:  # a missing compiler is a CompileError
        (BUILD / "build.log").write_text(log.getvalue())
        last = str(exc).strip().splitlines()[-1:] or [type(exc).__name__]
        raise SystemExit(
            f"accel: the compiled engine could not be built ({last[0]}); see {BUILD / 'build.log'}"
        ) from None
    finally:
        os.chdir(here)
    (BUILD / "build.log").write_text(log.getvalue())
    built = sorted((BUILD / "lib" / "koikoi" / "engine").iterdir())
    for path in built:
        shutil.copy2(path, ENGINE / path.name)


def check() -> None:
    """The engine a fresh interpreter imports here is the compiled one."""
    env = {k: v for k, v in os.environ.items() if k != "KOIKOI_PURE_ENGINE"}
    proc = subprocess.run(
        [sys.executable, "-c", "from koikoi.engine import compiled; print(compiled.in_use())"],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    if proc.stdout.strip() != "True":
        raise SystemExit(f"accel: built, but the compiled engine does not load: {proc.stderr}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even when current")
    args = parser.parse_args(argv)
    compiled = _compiled_module()
    if not args.force and compiled.built(ENGINE) and compiled.current(ENGINE):
        return 0  # quietly: .ci/setup's second run says nothing
    started = time.monotonic()
    clean(compiled)
    build(compiled)
    (ENGINE / compiled.STAMP).write_text(compiled.source_digest(ENGINE) + "\n")
    check()
    took = time.monotonic() - started
    print(f"accel: built the compiled engine in {took:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
