"""The wheel's build hook: a wheel built where the engine's compiled core is built and
current (``python packaging/accel.py``) carries it, and is tagged for this interpreter and
platform; elsewhere the wheel is pure Python, as before. The hook compiles nothing, so a
from-source install (pip, pipx) needs no compiler; editable installs use the checkout's own
files and are left alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        engine = Path(self.root) / "koikoi" / "engine"
        spec = importlib.util.spec_from_file_location("_koikoi_compiled", engine / "compiled.py")
        if spec is None or spec.loader is None:
            return
        compiled = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(compiled)
        if not (compiled.built(engine) and compiled.current(engine)):
            return
        files = [p for p in sorted(engine.iterdir()) if p.name.endswith((".so", ".pyd"))]
        files.append(engine / compiled.STAMP)
        for path in files:
            build_data["force_include"][str(path)] = f"koikoi/engine/{path.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
