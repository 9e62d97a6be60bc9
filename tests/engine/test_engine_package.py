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


def fresh_modules(code: str) -> list[str]:
    """The modules loaded after ``code`` in a fresh interpreter (the tests'
    own has imported everything)."""
    probe = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def test_importing_the_package_imports_none_of_its_modules() -> None:
    loaded = fresh_modules("import draughts.engine")
    assert [name for name in loaded if name.startswith("draughts.engine.")] == []


@pytest.mark.parametrize(
    "code",
    [
        "import draughts.engine.hub",
        "from draughts.engine import HubEngine, Limit",
        # python -m draughts hub, to the end of its (empty) input.
        "import io, sys\nsys.stdin = io.TextIOWrapper(io.BytesIO(b'quit\\n'))\n"
        "from draughts._cli import main\nmain(['hub', '--book', 'default'])",
    ],
)
def test_a_hub_client_or_server_loads_no_pdn_reader_dxp_or_matches(code: str) -> None:
    loaded = fresh_modules(code)
    assert [name for name in HEAVY if name in loaded] == []


def test_every_public_name_resolves_to_its_module_s_object() -> None:
    # In a fresh interpreter, so that no earlier import has bound the name:
    # each is the object its module defines, and bound once asked for.
    code = (
        "import importlib, json, draughts.engine as e\n"
        "print(json.dumps({n: getattr(e, n) is getattr(importlib.import_module("
        "'draughts.engine.' + e._HOME[n]), n) and n in vars(e) for n in e.__all__}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names = json.loads(done.stdout)
    assert sorted(names) == sorted(draughts.engine._HOME) == sorted(draughts.engine.__all__)
    assert len(names) == 26
    assert [name for name, good in names.items() if not good] == []


@pytest.mark.parametrize("name", draughts.engine.__all__)
def test_from_import_gives_every_public_name(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from draughts.engine import {name}", namespace)
    assert namespace[name] is getattr(draughts.engine, name)


def test_builtin_stays_the_function_after_its_submodule_loads() -> None:
    # The submodule draughts.engine.builtin, loaded first by another module,
    # must not hide the function the package has always given.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import draughts.engine.hub_server, draughts.engine as e\n"
            "import draughts.engine.builtin as b\n"
            "print(callable(e.builtin), e.builtin is b, e.builtin.__name__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["True", "True", "builtin"]


def test_submodules_and_dir() -> None:
    assert draughts.engine.search is importlib.import_module("draughts.engine.search")
    assert set(draughts.engine.__all__) <= set(dir(draughts.engine))
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        draughts.engine.nosuch  # noqa: B018
    with pytest.raises(ImportError):
        from draughts.engine import nosuch  # noqa: F401
