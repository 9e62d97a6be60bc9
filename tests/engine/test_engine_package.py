"""The draughts.engine package imports its modules only when a name is
asked for (PEP 562), and still gives every public name as before."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import draughts.engine

# The modules a Hub client or server does not need: the PDN reader (the
# opening book reads games only when it is built), DXP and the match runner.
HEAVY = ["draughts.pdn", "draughts.pdn.reader", "draughts.engine.dxp", "draughts.engine.matches"]

# Run in a fresh interpreter (the tests' own has imported everything), one
# step after another, each printing the modules loaded so far: one process
# instead of one a step (a start-up costs about 0.2 s of CPU time).
STEPS = r"""
import io, json, sys
steps = {}
import draughts.engine as e
steps["package"] = sorted(sys.modules)
import draughts.engine.hub
steps["hub client"] = sorted(sys.modules)
from draughts.engine import HubEngine, Limit
steps["from import"] = sorted(sys.modules)
sys.stdin = io.TextIOWrapper(io.BytesIO(b"quit\n"))
from draughts._cli import main
main(["hub", "--book", "default"])
steps["hub server"] = sorted(sys.modules)
# The submodule draughts.engine.builtin is loaded now (by the Hub server):
# the package's name builtin must still be the function.
import draughts.engine.builtin as b
builtin = [callable(e.builtin), e.builtin is b, e.builtin.__name__]
import importlib
def resolves(name):
    try:
        home = importlib.import_module("draughts.engine." + e._HOME[name])
    except (AttributeError, KeyError, ImportError):
        return False
    return getattr(e, name) is getattr(home, name) and name in vars(e)
resolved = {n: resolves(n) for n in e.__all__}
print(json.dumps({"steps": steps, "builtin": builtin, "resolved": resolved}))
"""


@pytest.fixture(scope="module")
def fresh() -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", STEPS], capture_output=True, text=True, check=True, timeout=120
    )
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_importing_the_package_imports_none_of_its_modules(fresh: dict[str, object]) -> None:
    loaded = fresh["steps"]["package"]  # type: ignore[index]
    assert [name for name in loaded if name.startswith("draughts.engine.")] == []


@pytest.mark.parametrize("step", ["hub client", "from import", "hub server"])
def test_a_hub_client_or_server_loads_no_pdn_reader_dxp_or_matches(
    fresh: dict[str, object], step: str
) -> None:
    loaded = fresh["steps"][step]  # type: ignore[index]
    assert "draughts.engine.hub" in loaded
    assert [name for name in HEAVY if name in loaded] == []


def test_every_public_name_resolves_to_its_module_s_object(fresh: dict[str, object]) -> None:
    # Each is the object its module defines, and bound once asked for.
    names = fresh["resolved"]
    assert isinstance(names, dict)
    assert sorted(names) == sorted(draughts.engine._HOME) == sorted(draughts.engine.__all__)
    assert len(names) == 26
    assert [name for name, good in names.items() if not good] == []


def test_builtin_stays_the_function_after_its_submodule_loads(fresh: dict[str, object]) -> None:
    assert fresh["builtin"] == [True, True, "builtin"]


@pytest.mark.parametrize("name", draughts.engine.__all__)
def test_from_import_gives_every_public_name(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from draughts.engine import {name}", namespace)
    assert namespace[name] is getattr(draughts.engine, name)


def test_submodules_and_dir() -> None:
    assert draughts.engine.search is importlib.import_module("draughts.engine.search")
    assert set(draughts.engine.__all__) <= set(dir(draughts.engine))
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        draughts.engine.nosuch  # noqa: B018
    with pytest.raises(ImportError):
        from draughts.engine import nosuch  # noqa: F401
