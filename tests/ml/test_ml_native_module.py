"""draughts.ml's native module, ``draughts.ml._native._c``: its VecEnv held
to the declared contract (:class:`draughts.ml._native.NativeVecEnv`, read
from the C text signatures), the stub file held to the C, loaded only with
the native core, and off on the pure one."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from draughts import _core
from draughts._core import contract
from draughts.ml import _native
from draughts.ml._native_env import encoder
from draughts.variant import INTERNATIONAL

needs_module = pytest.mark.skipif(
    not _native.BUILT, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)


def _env() -> Any:
    env = encoder(INTERNATIONAL, False)
    assert env is not None and type(env) is _native.VecEnv
    return env


@needs_module
def test_the_type_keeps_its_contract() -> None:
    env = _env()
    assert contract.protocol_violations(env, _native.NativeVecEnv) == []
    methods = {
        name
        for name in dir(env)
        if not name.startswith("_") and isinstance(getattr(env, name), types.BuiltinMethodType)
    }
    assert methods == set(contract._members(_native.NativeVecEnv))


@needs_module
def test_a_method_with_other_parameters_breaks_it() -> None:
    env = _env()
    planted = types.SimpleNamespace(**{n: getattr(env, n) for n in dir(env) if n[0] != "_"})
    planted.expand = lambda rows, out, /: None
    planted.history = lambda game, last, /: []
    assert contract.protocol_violations(planted, _native.NativeVecEnv) == [
        "expand: 2 parameters where the contract has 3",
        "history: parameter 2 is 'last' (positional-only) where the contract has "
        "'final' (positional-only)",
    ]


@needs_module
def test_it_runs_with_the_native_core_and_lives_outside_it() -> None:
    from draughts._core.native import _native as core_module

    assert _core.BACKEND == "native"
    assert not hasattr(core_module, "VecEnv")
    assert _native.VecEnv is not None and _native.VecEnv.__module__ == "draughts.ml._native._c"


def test_the_pure_core_has_none_of_it() -> None:
    code = (
        "import sys; from draughts.ml import _native as n, VectorEnv; "
        "env = VectorEnv('english', 2, seed=1); env.reset(); env.step(env.sample()); "
        "print(n.BUILT, n.VecEnv, env._native is None, 'draughts.ml._native._c' in sys.modules)"
    )
    env = {**os.environ, "DRAUGHTS_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split() == ["False", "None", "True", "False"]


def test_the_core_imports_neither_numpy_nor_the_ml_package() -> None:
    # draughts._core loads the native core where it is built (a build
    # without a compiler has none: the pure core must not load them either).
    code = (
        "import sys, draughts, draughts._core; "
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.startswith('draughts.ml')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@needs_module
def test_the_stub_file_has_the_c_parameters() -> None:
    """``_c.pyi`` (what mypy reads) against the C text signatures (what runs)."""
    from draughts.ml._native import _c

    stub = ast.parse(Path(_c.__file__).with_name("_c.pyi").read_text("utf-8"))
    (vec_env,) = [node for node in stub.body if isinstance(node, ast.ClassDef)]
    methods = [node for node in vec_env.body if isinstance(node, ast.FunctionDef)]
    env = _env()
    for method in methods:
        if method.name == "__init__":
            continue
        arguments = method.args
        stubbed = [(a.arg, "POSITIONAL_ONLY") for a in arguments.posonlyargs[1:]]
        stubbed += [(a.arg, "POSITIONAL_OR_KEYWORD") for a in arguments.args]
        found = inspect.signature(getattr(env, method.name)).parameters.values()
        assert stubbed == [(p.name, p.kind.name) for p in found], method.name
    assert {m.name for m in methods} - {"__init__"} == set(contract._members(_native.NativeVecEnv))


@needs_module
def test_the_environment_shows_the_collector_its_core() -> None:
    import gc

    env = _env()
    assert gc.is_tracked(env)
    assert any(isinstance(r, type(_core.tables(INTERNATIONAL))) for r in gc.get_referents(env))
