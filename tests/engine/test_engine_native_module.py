"""The built-in engine's native module, ``draughts.engine._native._c``: its
Search held to the declared contract
(:class:`draughts.engine._native.CompiledSearch`), its stub to its text
signatures, loaded only with the native core, and off on the pure one."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from draughts import _core
from draughts._context import context
from draughts._core import contract
from draughts.engine import _native
from draughts.engine.evaluation import Evaluator
from draughts.engine.native_search import NativeSearcher, searcher
from draughts.variant import ENGLISH

needs_module = pytest.mark.skipif(
    not _native.BUILT, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)


def _search() -> object:
    t = context(ENGLISH).core
    search = _native.compiled_search(t, Evaluator(t).data(), None, {}, 1, False, [])
    assert search is not None
    return search


@needs_module
def test_the_search_keeps_its_contract() -> None:
    assert contract.protocol_violations(_search(), _native.CompiledSearch) == []
    from draughts.engine._native import _c

    assert str(inspect.signature(_c.Search)).startswith("(core, evaluation, no_progress")


def test_a_method_with_other_parameters_breaks_it() -> None:
    class Search:
        def run(self, pos: object, key: int) -> None: ...
        def table_move(self, pos: object, key: int, /) -> None: ...
        def static(self, pos: object, /) -> int:
            return 0

    assert contract.protocol_violations(Search(), _native.CompiledSearch) == [
        "run: parameter 1 is 'pos' (positional or keyword) where the contract has"
        " 'pos' (positional-only)",
        "renew: missing",
        "clear_table: missing",
        "table_count: missing",
        "bitbases: missing",
        "stop: missing",
        "start_helpers: missing",
        "stop_helpers: missing",
        "helper_nodes: missing",
    ]


@needs_module
def test_it_runs_with_the_native_core_and_lives_outside_it() -> None:
    assert _core.BACKEND == "native"
    assert not hasattr(_core, "compiled_search")
    from draughts._core.native import _native as core_c

    assert not hasattr(core_c, "Search")
    assert type(_search()).__module__ == "draughts.engine._native._c"
    t = context(ENGLISH)
    assert isinstance(searcher(t.core, t.keys), NativeSearcher)


@needs_module
def test_a_board_of_the_pure_core_gets_the_python_search() -> None:
    from draughts._core import pure

    t = pure.Tables(ENGLISH)
    assert _native.compiled_search(t, Evaluator(t).data(), None, {}, 1, False, []) is None


def test_the_pure_core_has_none_of_it() -> None:
    code = (
        "import draughts; from draughts._context import context; "
        "from draughts.engine import _native as n, native_search as s; "
        "ctx = context(draughts.variant.ENGLISH); "
        "print(n.BUILT, type(s.searcher(ctx.core, ctx.keys)).__name__)"
    )
    env = {**os.environ, "DRAUGHTS_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split() == ["False", "Searcher"]


@needs_module
def test_the_stub_file_has_the_c_parameters() -> None:
    """``_c.pyi`` (what mypy reads) against the C text signatures (what runs)."""
    from draughts.engine._native import _c

    stub = ast.parse(Path(_c.__file__).with_name("_c.pyi").read_text("utf-8"))
    (cls,) = [node for node in stub.body if isinstance(node, ast.ClassDef)]
    methods = [f for f in cls.body if isinstance(f, ast.FunctionDef)]
    for function in methods:
        a = function.args
        stubbed = [(p.arg, "POSITIONAL_ONLY") for p in a.posonlyargs if p.arg != "self"]
        stubbed += [(p.arg, "POSITIONAL_OR_KEYWORD") for p in a.args if p.arg != "self"]
        value = _c.Search if function.name == "__init__" else getattr(_c.Search, function.name)
        found = inspect.signature(value).parameters.values()
        assert stubbed == [(p.name, p.kind.name) for p in found if p.name != "self"], function.name
    assert {f.name for f in methods} == {"__init__", *contract._members(_native.CompiledSearch)}
