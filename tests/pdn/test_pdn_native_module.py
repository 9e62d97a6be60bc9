"""The PDN reader's native module, ``draughts.pdn._native._c``: held to its
declared contract (:class:`draughts.pdn._native.NativePdn`), loaded only
with the native core, and off on the pure one."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from draughts import _core
from draughts._core import contract
from draughts.pdn import _native

needs_module = pytest.mark.skipif(
    not _native.BUILT, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)


@needs_module
def test_the_module_keeps_its_contract() -> None:
    from draughts.pdn._native import _c

    assert contract.protocol_violations(_c, _native.NativePdn) == []
    functions = {n for n, v in vars(_c).items() if isinstance(v, types.BuiltinFunctionType)}
    assert functions == set(contract._members(_native.NativePdn))


@needs_module
def test_a_function_with_other_parameters_breaks_it() -> None:
    from draughts.pdn._native import _c

    planted = types.SimpleNamespace(**{n: getattr(_c, n) for n in dir(_c)})
    planted.play_line = lambda board, text, end, numbers, /: (0, 0)
    planted.check_each = lambda setups, text, start, /: ()
    del planted.record_tags
    assert contract.protocol_violations(planted, _native.NativePdn) == [
        "play_line: 4 parameters where the contract has 5",
        "check_each: 3 parameters where the contract has 4",
        "record_tags: missing",
    ]


@needs_module
def test_it_runs_with_the_native_core_and_lives_outside_it() -> None:
    assert _core.BACKEND == "native"
    moved = ("plain_line_end", "NodeMaker", "split_games", "check_each", "play_final")
    assert not any(hasattr(_core, name) for name in moved)
    assert (
        _native.NodeMaker is not None and _native.NodeMaker.__module__ == "draughts.pdn._native._c"
    )


@needs_module
def test_the_loop_refuses_a_board_of_the_pure_core() -> None:
    from draughts._core import pure

    class PureBoard(pure.BoardState):
        pass

    assert _native.play_line is not None
    with pytest.raises(TypeError, match="native board"):
        _native.play_line(PureBoard(), "32-28", 5, (), print)  # type: ignore[arg-type]


def test_the_pure_core_has_none_of_it() -> None:
    code = (
        "from draughts.pdn import _native as n; "
        "print(n.BUILT, n.play_line, n.plain_line_end, n.NodeMaker, n.split_games,"
        " n.check_each, n.infer_each, n.play_final, n.record_tags)"
    )
    env = {**os.environ, "DRAUGHTS_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split() == ["False"] + ["None"] * 8


@needs_module
def test_the_stub_file_has_the_c_parameters() -> None:
    """``_c.pyi`` (what mypy reads) against the C text signatures (what runs)."""
    from draughts.pdn._native import _c

    stub = ast.parse(Path(_c.__file__).with_name("_c.pyi").read_text("utf-8"))
    functions = [node for node in stub.body if isinstance(node, ast.FunctionDef)]
    for function in functions:
        arguments = function.args
        stubbed = [(a.arg, "POSITIONAL_ONLY") for a in arguments.posonlyargs]
        stubbed += [(a.arg, "POSITIONAL_OR_KEYWORD") for a in arguments.args]
        found = inspect.signature(getattr(_c, function.name)).parameters.values()
        assert stubbed == [(p.name, p.kind.name) for p in found], function.name
    assert {f.name for f in functions} == set(contract._members(_native.NativePdn))
