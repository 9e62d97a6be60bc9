"""The native extension as a CPython module: its types take part in garbage
collection, its names are its own, and it says what it needs of a
free-threaded interpreter."""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
import sysconfig
import types
import weakref
from pathlib import Path

import pytest

import draughts
from draughts._core import UNDO_FIELDS, UNDO_KEY
from draughts.engine.evaluation import Evaluator
from draughts.move import Move
from draughts.variant import ENGLISH

native = pytest.importorskip("draughts._core.native", reason="the native core is not built here")
_native = native._native

BOTH_BACKENDS = False  # native only, whatever the run's backend


def _search(t: native.Tables) -> object:
    engine_c = pytest.importorskip("draughts.engine._native._c", reason="not built")
    search = engine_c.Search(t, Evaluator(t).data(), None, {}, 1, False, [])
    assert search is not None
    return search


def test_a_core_shows_the_collector_what_it_holds() -> None:
    t = native.Tables(ENGLISH)
    referents = gc.get_referents(t)
    assert Move in referents  # the Move type, held in C
    assert any(isinstance(r, Move) for r in referents)  # the step moves
    assert gc.is_tracked(t)


def test_a_cycle_through_a_core_and_its_search_is_collected() -> None:
    t = native.Tables(ENGLISH)
    search = _search(t)
    assert t in gc.get_referents(search)
    t.cycle = search  # Tables -> its __dict__ -> Search -> Tables (evaluator() would keep t)
    gone = weakref.ref(t)
    del t, search
    gc.collect()
    assert gone() is None


def test_the_types_have_distinct_qualified_names() -> None:
    types = [_native.Core, _native.BoardState]
    names = [f"{t.__module__}.{t.__qualname__}" for t in types]
    assert len(set(names)) == len(names)
    assert all(name.startswith("draughts._core.native._native.") for name in names)


@pytest.mark.skipif(
    not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="not a free-threaded CPython"
)
def test_a_free_threaded_interpreter_turns_the_gil_on_for_it() -> None:
    """The module declares Py_MOD_GIL_USED (see module.c for why)."""
    code = "import sys, draughts._core.native; print(sys._is_gil_enabled())"
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "True"


def test_the_undo_record_has_the_same_fields_on_both_sides() -> None:
    assert _native.UNDO_FIELDS == UNDO_FIELDS
    board = draughts.Board()
    before = (board._men[:], board._kings[:], board._turn, board.position_key)
    for push in (board.push, board._push_python):  # the C push and the Python one
        push(next(iter(board.legal_moves)))
        record = dict(zip(UNDO_FIELDS, board._stack[-1], strict=True))
        assert record["key"] == board._stack[-1][UNDO_KEY]
        board.pop()
        assert (board._men, board._kings, board._turn, board.position_key) == before
        assert [record[f"{c}_men"] for c in ("white", "black")] == before[0]
        assert [record[f"{c}_kings"] for c in ("white", "black")] == before[1]
        assert (record["turn"], record["key"]) == before[2:]


def test_the_rule_switches_are_read_by_name() -> None:
    t = native.Tables(ENGLISH)
    data = list(native._table_data(t))
    switches = data[7]
    assert isinstance(switches, native.RuleSwitches)
    assert switches.men_capture_kings and not switches.flying_kings
    missing = {k: v for k, v in switches._asdict().items() if k != "stops_behind_king"}
    data[7] = types.SimpleNamespace(**missing)
    with pytest.raises(AttributeError, match="stops_behind_king"):
        _native.Core()._load(*data)
    data[7] = switches
    core = _native.Core()
    core._load(*data)
    assert core.native_ready


def test_a_second_interpreter_runs_the_pure_core() -> None:
    """The module refuses to load in a subinterpreter (its types are
    static: Py_mod_multiple_interpreters, CPython 3.12 and later), and the
    library there falls back on the pure core."""
    if sys.version_info < (3, 12):
        pytest.skip("CPython 3.11 has no Py_mod_multiple_interpreters: the module loads there")
    try:
        import _interpreters as interpreters  # type: ignore[import-not-found]  # 3.13
    except ImportError:
        import _xxsubinterpreters as interpreters  # type: ignore[import-not-found]  # 3.12
    root = str(Path(draughts.__file__).resolve().parents[1])
    code = (
        f"import sys; sys.path.insert(0, {root!r}); import draughts\n"
        "assert draughts.BACKEND == 'pure', draughts.BACKEND\n"
        "board = draughts.Board(); board.push(next(iter(board.legal_moves)))\n"
    )
    interpreter = interpreters.create()
    try:
        failure = interpreters.run_string(interpreter, code)  # 3.12 raises instead
    finally:
        interpreters.destroy(interpreter)
    assert failure is None, failure.formatted
    assert draughts.BACKEND == "native"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc here")
def test_a_compiler_without_int128_is_told_why() -> None:
    """core.h stops a build without ``unsigned __int128`` (MSVC, 32-bit
    targets) with the reason; GCC stands in for such a compiler with the
    type's macro undefined."""
    header = Path(native.__file__).with_name("core.h")
    if not header.exists():
        pytest.skip("an installed wheel: no C sources beside the module")
    out = subprocess.run(
        ["gcc", "-U__SIZEOF_INT128__", "-fsyntax-only", "-x", "c", str(header)],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "needs a C compiler with unsigned __int128" in out.stderr
    assert "runs the pure-Python core" in out.stderr
