"""The backend contract (:mod:`draughts._core.contract`): both backends and
:mod:`draughts._core` keep it, every native function's parameters (read
from its C text signature) are the pure one's, and the checker reports a
backend that breaks it."""

from __future__ import annotations

import ast
import inspect
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from draughts import _core
from draughts._core import contract, pure

BOTH_BACKENDS = False  # this module compares the backends itself

try:
    from draughts._core import native
    from draughts._core.native import _native
except ImportError:  # not built
    native = None  # type: ignore[assignment]
    _native = None  # type: ignore[assignment]

needs_native = pytest.mark.skipif(native is None, reason="the native core is not built here")


def _shape(function: Callable[..., object]) -> list[tuple[str, str, object]]:
    return [
        (p.name, p.kind.name, p.default) for p in inspect.signature(function).parameters.values()
    ]


def test_the_pure_backend_keeps_the_contract() -> None:
    assert contract.violations(pure) == []


@needs_native
def test_the_native_backend_keeps_the_contract() -> None:
    assert contract.violations(native) == []
    assert set(contract.CONTRACT) <= set(native.__all__)


def test_the_core_exports_the_contract() -> None:
    assert contract.violations(_core) == []
    assert set(contract.CONTRACT) <= set(_core.__all__)


def test_the_core_holds_no_pdn_checks() -> None:
    """The PDN checks live in draughts.pdn's native module (its contract:
    tests/pdn/test_pdn_native_module.py), not in the core."""
    pdn_checks = ("check_each", "infer_each", "play_final", "record_tags")
    assert not [name for name in pdn_checks if hasattr(_core, name)]
    if _native is not None:
        assert not [name for name in pdn_checks if hasattr(_native, name)]


def test_the_pure_fallback_table_is_the_contract() -> None:
    assert tuple(pure.FUNCTIONS) == contract.FUNCTION_NAMES
    assert all(pure.FUNCTIONS[name] is getattr(pure, name) for name in contract.FUNCTION_NAMES)


@needs_native
@pytest.mark.parametrize("name", contract.FUNCTION_NAMES)
def test_a_native_function_has_the_pure_ones_parameters(name: str) -> None:
    assert _shape(getattr(native, name)) == _shape(getattr(pure, name))


@needs_native
def test_every_c_function_has_a_text_signature() -> None:
    functions = [
        value for value in vars(_native).values() if isinstance(value, types.BuiltinFunctionType)
    ]
    assert len(functions) >= len(contract.FUNCTION_NAMES) - 1
    for function in functions:
        assert function.__text_signature__, function.__name__
        inspect.signature(function)  # the text parses


# -- The checker finds planted violations ------------------------------------------


def _pure_copy(**changes: object) -> types.SimpleNamespace:
    """A fake backend: the pure one's members, some replaced or removed (None)."""
    members = {name: getattr(pure, name) for name in contract.CONTRACT}
    members.update(changes)
    return types.SimpleNamespace(**{k: v for k, v in members.items() if v is not None})


def test_the_checker_reports_a_missing_function() -> None:
    assert contract.violations(_pure_copy(has_step=None)) == ["has_step: missing"]


def test_the_checker_reports_a_missing_class() -> None:
    assert contract.violations(_pure_copy(BoardState=None)) == ["BoardState: missing"]
    assert contract.violations(_pure_copy(Tables=pure.legal_moves)) == ["Tables: not a class"]


def test_the_checker_reports_a_renamed_parameter() -> None:
    def steps(t: object, colour: int, men: int, kings: int, occupied: int, frozen_kings: int = 0):  # type: ignore[no-untyped-def]
        return []

    assert contract.violations(_pure_copy(steps=steps)) == [
        "steps: parameter 2 is 'colour' (positional or keyword) where the contract has"
        " 'color' (positional or keyword)"
    ]


def test_the_checker_reports_another_default_or_kind_or_count() -> None:
    def perft(t, depth, c, m0, m1, k0, k1, keep_duplicates=False, bulk=False):  # type: ignore[no-untyped-def]
        return 0

    def position_key(t, color, m0, m1, k0, k1, /):  # type: ignore[no-untyped-def]
        return 0

    def has_step(t, color, men, kings, occupied, extra=0):  # type: ignore[no-untyped-def]
        return False

    found = contract.violations(
        _pure_copy(perft=perft, position_key=position_key, has_step=has_step)
    )
    assert found == [
        "has_step: 6 parameters where the contract has 5",
        "perft: parameter 9 is 'bulk=False' (positional or keyword) where the contract has"
        " 'bulk=True' (positional or keyword)",
        "position_key: parameter 1 is 't' (positional-only) where the contract has"
        " 't' (positional or keyword)",
    ]


def test_the_checker_reports_a_c_function_without_text_signature() -> None:
    class Opaque:
        """Stands for a C function whose docstring has no signature line."""

        __signature__ = "no text signature"

        def __call__(self, *args: object) -> None:
            return None

    assert contract.violations(_pure_copy(find_step=Opaque())) == [
        "find_step: no signature to read (a C function needs a text signature)"
    ]


@needs_native
def test_the_checker_reports_a_c_function_with_other_parameters() -> None:
    found = contract.violations(_pure_copy(captures=_native.board_moves))
    assert found == [
        "captures: parameter 7 is 'frozen_kings=0' (positional or keyword) where the contract"
        " has 'keep_duplicates=False' (positional or keyword)"
    ]


def _stub_parameters(function: ast.FunctionDef) -> list[tuple[str, str]]:
    """A stub's parameters as ``(name, kind)``, ``self`` left out."""
    a = function.args
    kinds = [
        *((p.arg, "POSITIONAL_ONLY") for p in a.posonlyargs),
        *((p.arg, "POSITIONAL_OR_KEYWORD") for p in a.args),
        *([(a.vararg.arg, "VAR_POSITIONAL")] if a.vararg else []),
        *((p.arg, "KEYWORD_ONLY") for p in a.kwonlyargs),
    ]
    return [k for k in kinds if k[0] != "self"]


def _runtime_parameters(value: Callable[..., object]) -> list[tuple[str, str]]:
    parameters = inspect.signature(value).parameters.values()
    return [(p.name, p.kind.name) for p in parameters if p.name != "self"]


@needs_native
def test_the_stub_file_has_the_c_parameters() -> None:
    """``_native.pyi`` (what mypy reads) against the C text signatures (what
    runs): every function and every method of Core and BoardState (the other
    native modules' stubs have tests of their own: test_engine_native_module,
    test_pdn_native_module, test_ml_native_module)."""
    stub = ast.parse(Path(_native.__file__).with_name("_native.pyi").read_text("utf-8"))
    checked = 0
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            pairs = [(node, getattr(_native, node.name))]
        elif isinstance(node, ast.ClassDef) and node.name in {"Core", "BoardState"}:
            cls = getattr(_native, node.name)
            pairs = [
                (f, getattr(cls, f.name))
                for f in node.body
                if isinstance(f, ast.FunctionDef) and not f.decorator_list
            ]
        else:
            continue
        for function, value in pairs:
            assert _stub_parameters(function) == _runtime_parameters(value), function.name
            checked += 1
    assert checked >= len(contract.FUNCTION_NAMES) + 4  # and the methods of Core, BoardState


@needs_native
def test_both_board_states_hold_the_same_attributes() -> None:
    """STATE_NAMES: the pure state's slots, and the C state's members."""
    assert pure.BoardState.__slots__ == _core.STATE_NAMES
    missing = [name for name in _core.STATE_NAMES if not hasattr(native.BoardState, name)]
    assert missing == []
