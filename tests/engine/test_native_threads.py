"""The native search on several threads (Lazy SMP: helper threads sharing
the transposition table, ``search_smp.c``): one thread is still the Python
search's twin; with two, the moves of clear tactical positions are those of
one thread, limits and a stop hold, no helper thread outlives a search, a
kept searcher is renewed again and again, and every preset plays; the
engine's and the Hub server's ``threads`` settings. The threads' timing
makes the tree differ from run to run, so beyond one thread the tests
assert what must hold whatever the timing."""

from __future__ import annotations

import functools
import os
import sys
import threading
import time

import pytest

import draughts
from draughts._core import RawMove, pure, zobrist
from draughts.engine import Limit, _native, builtin
from draughts.engine import native_search as _native_search
from draughts.engine import search as _search
from draughts.engine.builtin import BuiltinEngine, _reversible_keys
from draughts.engine.hub_server import HubServer
from draughts.engine.search import raw_position

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")
engine_c = pytest.importorskip("draughts.engine._native._c", reason="the engine's C is not built")
needs_threads = pytest.mark.skipif(
    engine_c.MAX_THREADS < 2, reason="the engine's C was built without threads"
)

PRESETS = [variant.name for variant in draughts.variant.VARIANTS]


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C search, also when DRAUGHTS_PURE=1 put the pure core in place."""
    monkeypatch.setattr(_native, "_loaded", engine_c)
    monkeypatch.setattr(_native, "MAX_THREADS", engine_c.MAX_THREADS)


@functools.lru_cache(maxsize=32)
def _tables(variant: draughts.Variant) -> tuple[pure.Tables, native.Tables]:
    return pure.Tables(variant), native.Tables(variant)


def _native_searcher(
    board: draughts.Board, threads: int, **limits: object
) -> _native_search.NativeSearcher:
    _pt, nt = _tables(board.variant)
    keys = zobrist.keys(len(nt.square_of_index))
    subject = _native_search.searcher(
        nt,
        keys,
        game_keys=_reversible_keys(board),
        **limits,  # type: ignore[arg-type]
    )
    assert isinstance(subject, _native_search.NativeSearcher)
    subject.threads = threads
    return subject


def _middle_game() -> draughts.Board:
    board = draughts.Board(variant="international")
    opening = ("32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "41-37", "5-10", "34-29")
    for text in (*opening, "23x34", "40x29"):
        board.push_pdn(text)
    return board


def _helper_threads() -> int:
    """The search's helper threads alive in this process (named so by
    search_smp.c on Linux; 0 where this cannot be told)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 0
    alive = 0
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/comm") as comm:
                alive += comm.read().strip() == "draughts-help"
        except OSError:  # ended meanwhile
            pass
    return alive


def test_one_thread_is_the_python_search_whatever_the_pure_one_is_told() -> None:
    board = _middle_game()
    pt, _nt = _tables(board.variant)
    oracle = _search.Searcher(pt, zobrist.keys(len(pt.square_of_index)))
    oracle.threads = 4  # the pure search runs on one thread all the same
    subject = _native_searcher(board, 1)
    pos = raw_position(board, pt)
    expected = oracle.iterate(pos, 5, full_width=1)
    assert subject.iterate(pos, 5, full_width=1) == expected
    assert subject.nodes == oracle.nodes and subject.compiled.helper_nodes() == 0


@needs_threads
def test_two_threads_run_a_helper_and_count_its_nodes() -> None:
    board = _middle_game()
    subject = _native_searcher(board, 2)
    pos = raw_position(board, subject.t)
    depth, _score, pv = subject.iterate(pos, 10, full_width=2)
    assert depth == 10 and pv[0] in _search.legal(subject.t, pos)
    assert subject.nodes == subject._own_nodes + subject.compiled.helper_nodes()
    # Joined before iterate returned: no thread of the search is left.
    assert _helper_threads() == 0
    # On a busy machine the helper may not have been given a core during
    # that short search: here it is given time on its own, the main search
    # idle, and its nodes must show.
    before = subject.compiled.helper_nodes()
    subject.compiled.start_helpers(pos, subject.key_of(pos), 0, None, subject._limits(), 60, 2, 1)
    try:
        waited = time.monotonic() + 60
        while subject.compiled.helper_nodes() == before and time.monotonic() < waited:
            time.sleep(0.01)
    finally:
        subject.compiled.stop_helpers()
    assert subject.compiled.helper_nodes() > before
    assert subject.nodes == subject._own_nodes + subject.compiled.helper_nodes()
    # A renewed search counts from 0 again.
    subject.renew(game_keys=_reversible_keys(board))
    assert subject.nodes == 0


# Clear tactics from tests/engine/test_builtin_engine.py and the engine's
# docstring: a two-for-one shot, a forced king capture, a win by taking the
# last piece, a capture that wins in English.
TACTICS = [
    ("W:W22,26,27,30,31,32:B4,8,12,14,15", "english", draughts.Move(22, 18)),
    ("W:W28:BK23,3", "international", draughts.Move(28, 19, captures=(23,))),
    ("B:W18:B14,K1", "english", draughts.Move(14, 23, captures=(18,), path=(14, 23))),
]


@needs_threads
@pytest.mark.parametrize(("fen", "variant", "move"), TACTICS)
def test_two_threads_play_the_tactics_one_thread_plays(
    fen: str, variant: str, move: draughts.Move
) -> None:
    board = draughts.Board(fen, variant=variant)
    one = builtin("hard").analyse(board, Limit(depth=6))
    for _ in range(3):
        two = builtin("hard", threads=2).analyse(board, Limit(depth=6))
        assert two.pv[0] == one.pv[0] == move
        assert two.score is not None and one.score is not None
        assert (two.score.men >= 1) == (one.score.men >= 1)


@needs_threads
def test_a_forced_win_is_found_on_two_threads() -> None:
    # Dama-flying: the white king on 29 takes the lone black man on 18 (it
    # may land on any free square behind it), a win in one ply that no
    # thread's timing may change.
    board = draughts.Board("W:WK29:B18", variant="dama-flying")
    for _ in range(3):
        analysis = builtin("hard", threads=2).analyse(board, Limit(depth=6))
        assert analysis.pv[0].captures == (18,)
        assert analysis.score is not None and analysis.score.plies == 1


@needs_threads
def test_a_deadline_holds_on_two_threads() -> None:
    board = _middle_game()
    subject = _native_searcher(board, 2, deadline=time.monotonic() + 0.05)
    pos = raw_position(board, subject.t)
    depth, _score, pv = subject.iterate(pos, 60, guard_depth=2)
    assert 2 <= depth < 60 and pv[0] in _search.legal(subject.t, pos)
    assert _helper_threads() == 0
    result = builtin("hard", threads=2).play(board, Limit(remaining=0.05))
    assert result.move in list(board.legal_moves)


@needs_threads
@pytest.mark.parametrize("budget", [3000, 20000, 100000])
def test_a_node_budget_counts_every_thread(budget: int) -> None:
    # Each thread adds its nodes to the shared count every 1024 and stops
    # once the count is spent: at most two such steps of each past it.
    board = _middle_game()
    subject = _native_searcher(board, 2, max_nodes=budget)
    pos = raw_position(board, subject.t)
    depth, _score, pv = subject.iterate(pos, 60)
    assert 1 <= depth < 60 and pv[0] in _search.legal(subject.t, pos)
    assert budget <= subject.nodes <= budget + 2 * 2 * 1024


@needs_threads
def test_a_stop_from_another_thread_ends_two_threads() -> None:
    # No limit is enforced (guard depth 40): only the stop can end it.
    board = _middle_game()
    subject = _native_searcher(board, 2)
    pos = raw_position(board, subject.t)
    deep = threading.Event()

    def report(depth: int, score: int, pv: list[RawMove]) -> None:
        if depth == 3:
            deep.set()

    outcome: list[tuple[int, int, list[RawMove]]] = []
    thread = threading.Thread(
        target=lambda: outcome.append(subject.iterate(pos, 40, guard_depth=40, report=report))
    )
    thread.start()
    assert deep.wait(60)
    time.sleep(0.2)
    subject.stop()
    thread.join(60)
    assert not thread.is_alive(), "the stop was not obeyed"
    ((depth, _score, pv),) = outcome
    assert 3 <= depth < 40 and pv[0] in _search.legal(subject.t, pos)
    assert _helper_threads() == 0


@needs_threads
def test_a_kept_table_on_two_threads_game_after_game() -> None:
    # The hard level keeps its searcher from move to move: renewed between
    # moves (which refuses while helpers run), its helpers started and
    # joined each time, through a whole game against itself.
    engine = builtin("hard", threads=2)
    board = draughts.Board(variant="international")
    for _ in range(16):
        if not board.legal_moves:
            break
        board.push(engine.play(board, Limit(time=0.02)).move)
    kept = engine._kept[board.variant]
    assert kept.threads == 2
    # Under DRAUGHTS_PURE=1 the engine's boards are the pure core's: the
    # Python search plays, on one thread.
    native_search = isinstance(kept, _native_search.NativeSearcher)
    assert native_search == (draughts.BACKEND == "native")
    assert _helper_threads() == 0


@needs_threads
@pytest.mark.parametrize("variant", PRESETS)
def test_every_preset_plays_on_two_threads(variant: str) -> None:
    board = draughts.Board(variant=variant)
    for _ in range(4):
        if not board.legal_moves:
            break
        result = builtin("hard", threads=2).play(board, Limit(depth=4))
        assert result.move in list(board.legal_moves)
        board.push(result.move)


def test_helpers_refuse_what_would_change_their_tables() -> None:
    board = _middle_game()
    subject = _native_searcher(board, 2)
    pos = raw_position(board, subject.t)
    started = subject.compiled.start_helpers(
        pos, subject.key_of(pos), 0, None, subject._limits(), 60, 2, 1
    )
    assert started == (1 if engine_c.MAX_THREADS > 1 else 0)
    try:
        if started and sys.platform == "linux":  # the helper is seen (and named) while it runs
            waited = time.monotonic() + 30
            while _helper_threads() == 0 and time.monotonic() < waited:
                time.sleep(0.01)
            assert _helper_threads() == 1
        if started:
            with pytest.raises(RuntimeError, match="helper threads are running"):
                subject.compiled.clear_table()
            with pytest.raises(RuntimeError, match="helper threads are running"):
                subject.compiled.renew([])
            limits = (*subject._limits()[:6], 1024, *subject._limits()[7:])
            with pytest.raises(RuntimeError, match="table_entries changed"):
                subject.compiled.run(
                    pos, subject.key_of(pos), 2, -(10**6), 10**6, 0, 0, None, limits
                )
    finally:
        subject.compiled.stop_helpers()
    assert _helper_threads() == 0
    subject.compiled.clear_table()  # allowed again
    with pytest.raises(ValueError, match="count"):
        subject.compiled.start_helpers(pos, 0, 0, None, subject._limits(), 60, 2, 64)


def test_the_threads_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="threads must be from 1 to 64"):
        BuiltinEngine("hard", threads=0)
    with pytest.raises(ValueError, match="threads must be from 1 to 64"):
        builtin("hard", threads=65)
    assert builtin("hard", threads=64)._threads == 64


def test_the_hub_threads_parameter() -> None:
    lines: list[str] = []
    server = HubServer(lines.append, level="hard")
    server.handle("hub")
    assert any(
        line.startswith("param name=threads value=1 type=int min=1 max=64") for line in lines
    ), lines
    server.handle("set-param name=threads value=2")
    assert server._make_engine()._threads == 2
    server.handle("pos")
    server.handle("level depth=5")
    server.handle("go think")
    server.wait()
    assert lines[-1].startswith("done move=")
    for bad in ("0", "65", "two", "-1"):
        del lines[:]
        server.handle(f"set-param name=threads value={bad}")
        assert lines == ['error message="threads must be a whole number from 1 to 64"'], lines
    assert server._make_engine()._threads == 2
