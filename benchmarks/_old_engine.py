"""The built-in engine as it was before the strength work (commit d73f3fd),
for ``engine_speed.py`` and ``engine_match.py`` to measure the new one
against, in the same process.

Its two modules are taken from git (``git show d73f3fd:draughts/engine/...``)
into ``benchmarks/.baseline/old_engine-d73f3fd/old_engine/`` on first use,
with one import changed so that the old builtin module drives the old
search; everything else (boards, moves, limits) is the current library's.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REVISION = "d73f3fd"
MODULES = ("builtin", "search")
OURS = "from draughts.engine import search as _search"
OLD = "from old_engine import search as _search  # the old search, beside this file"


def old_engine_class(revision: str = REVISION) -> Any:
    """The ``BuiltinEngine`` class of ``revision``."""
    root = HERE / ".baseline" / f"old_engine-{revision}"
    package = root / "old_engine"
    if not all((package / f"{name}.py").exists() for name in MODULES):
        package.mkdir(parents=True, exist_ok=True)
        for name in MODULES:
            text = subprocess.run(
                ["git", "show", f"{revision}:draughts/engine/{name}.py"],
                cwd=HERE,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            if name == "builtin":
                if OURS not in text:
                    raise SystemExit(f"{revision}: draughts/engine/builtin.py has no {OURS!r}")
                text = text.replace(OURS, OLD)
            (package / f"{name}.py").write_text(text, encoding="utf-8")
        (package / "__init__.py").write_text("", encoding="utf-8")
    sys.path.insert(0, str(root))
    return importlib.import_module("old_engine.builtin").BuiltinEngine
