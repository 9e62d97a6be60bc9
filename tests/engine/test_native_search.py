"""The built-in engine's search in C against the Python Searcher (its oracle):
the same depth, score, principal variation and node count at fixed depths on
every preset, on positions of random playouts (with their repetition
history), under Frisian root restrictions, node budgets and drawn endings;
the same static evaluation; limits and a stop from another thread that
end it with a legal move; two
threads searching at once; and the Python search where there is no C one.

The oracle runs on the pure generator's tables, so nothing native is in it.
"""

from __future__ import annotations

import functools
import random
import threading
import time

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import _core
from draughts._context import context
from draughts._core import RawMove, pure, zobrist
from draughts.engine import Limit, _native, builtin
from draughts.engine import native_search as _native_search
from draughts.engine import search as _search
from draughts.engine.builtin import BuiltinEngine, _reversible_keys
from draughts.engine.egtb import Bitbases
from draughts.engine.search import raw_position

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")
engine_c = pytest.importorskip("draughts.engine._native._c", reason="the engine's C is not built")

PRESETS = [variant.name for variant in draughts.variant.VARIANTS]


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C search, also when DRAUGHTS_PURE=1 put the pure core in place."""
    monkeypatch.setattr(_native, "_loaded", engine_c)


@functools.lru_cache(maxsize=64)
def _tables(variant: draughts.Variant) -> tuple[pure.Tables, native.Tables]:
    return pure.Tables(variant), native.Tables(variant)


def _playout(variant: str, seed: int, plies: int) -> draughts.Board | None:
    """The position after up to ``plies`` random moves (None if the game
    ended there), with its history."""
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    return board if board.legal_moves else None


def _searchers(
    board: draughts.Board, **limits: object
) -> tuple[_search.Searcher, _native_search.NativeSearcher]:
    pt, nt = _tables(board.variant)
    keys = zobrist.keys(len(pt.square_of_index))
    game_keys = _reversible_keys(board)
    oracle = _search.Searcher(pt, keys, game_keys=game_keys, **limits)  # type: ignore[arg-type]
    subject = _native_search.searcher(nt, keys, game_keys=game_keys, **limits)  # type: ignore[arg-type]
    assert isinstance(subject, _native_search.NativeSearcher)
    return oracle, subject


def _compare(board: draughts.Board, depth: int, root_every: int = 0) -> None:
    """Both searches iterate to ``depth`` alike (with every ``root_every``-th
    root move only, when given)."""
    oracle, subject = _searchers(board)
    pos = raw_position(board, oracle.t)
    if root_every:
        oracle.root = subject.root = _search.legal(oracle.t, pos)[::root_every]
    reversible = len(_reversible_keys(board)) - 1
    expected = oracle.iterate(pos, depth, reversible=reversible, full_width=1)
    got = subject.iterate(pos, depth, reversible=reversible, full_width=1)
    assert (got, subject.nodes) == (expected, oracle.nodes), (board.fen(), depth)


@pytest.mark.parametrize("variant", PRESETS)
def test_every_preset_searches_alike_at_depths_1_to_4(variant: str) -> None:
    boards = [draughts.Board(variant=variant)]
    boards += [b for seed in range(3) if (b := _playout(variant, seed, 20 + 25 * seed))]
    for board in boards:
        for depth in range(1, 5):
            _compare(board, depth)


_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)
@given(
    variant=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
    depth=st.integers(1, 4),
)
def test_random_playouts_search_alike(variant: str, seed: int, plies: int, depth: int) -> None:
    board = _playout(variant, seed, plies)
    if board is not None:
        _compare(board, depth)


@pytest.mark.parametrize(
    ("variant", "seed", "depth"),
    [("international", 0, 7), ("international", 1, 6), ("international", 2, 6), ("english", 0, 9)],
)
def test_middle_games_search_alike_deeper(variant: str, seed: int, depth: int) -> None:
    board = _playout(variant, seed, 40)
    assert board is not None
    _compare(board, depth)


@pytest.mark.parametrize("entries", [64, 1000])
def test_a_small_table_replaces_alike(entries: int) -> None:
    # With a table of 64 entries (1000 is rounded down to 512), nearly
    # every store takes the place of another position: the C table must
    # keep what the Python one keeps, where it keeps it.
    board = _playout("international", 4, 40)
    assert board is not None
    oracle, subject = _searchers(board)
    oracle.table_entries = subject.table_entries = entries
    assert oracle.table_entries == subject.table_entries == 1 << (entries.bit_length() - 1)
    pos = raw_position(board, oracle.t)
    assert subject.iterate(pos, 6, full_width=2) == oracle.iterate(pos, 6, full_width=2)
    assert subject.nodes == oracle.nodes
    assert subject.table_count() == oracle.table_count() > oracle.table_entries * 3 // 4
    assert oracle.table_count() <= oracle.table_entries < subject.nodes // 5


def test_a_restricted_root_searches_alike() -> None:
    board = _playout("russian", 5, 30)
    assert board is not None
    for depth in (1, 3, 4):
        _compare(board, depth, root_every=2)


def test_the_frisian_king_move_limit_at_the_root() -> None:
    # Positions of random games where the board allows fewer moves than the
    # generator (the Frisian limit on king moves): the engine restricts the
    # root of both searches.
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        board = draughts.Board(variant="frisian")
        for _ in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            t = _tables(board.variant)[0]
            if len(_search.legal(t, raw_position(board, t))) != len(moves):
                _compare_engines(board, Limit(depth=4))
                found += 1
                break
            board.push(rng.choice(moves))
        if found == 2:
            return
    pytest.fail("no restricted Frisian position in 400 random games")


def _compare_engines(board: draughts.Board, limit: Limit) -> None:
    """The built-in engine with the C search and with the Python one."""
    got = builtin("hard").analyse(board, limit)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_native, "_loaded", None)
        expected = builtin("hard").analyse(board, limit)
    fields = ("score", "depth", "pv", "nodes")
    assert [getattr(got, f) for f in fields] == [getattr(expected, f) for f in fields]


def test_a_repetition_in_the_game_history_searches_alike() -> None:
    # Kings shuffled back and forth: the game's last positions come back in
    # the search, which scores them as draws in both.
    board = draughts.Board("W:WK46,K47:BK3,K4", variant="international")
    there = [next(m for m in board.legal_moves if not m.captures)]
    board.push(there[0])
    there.append(next(m for m in board.legal_moves if not m.captures))
    board.push(there[1])
    for move in there:
        board.push(board.find_move(move.to_square, move.from_square))
    for move in there:
        board.push(move)
    assert len(_reversible_keys(board)) == 7
    for depth in range(1, 6):
        _compare(board, depth)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("international", "W:WK46,K47,K48:BK5"),  # drawish: three kings against one
        ("international", "W:WK46:BK5"),  # drawn at once
        ("english", "W:WK1,K2:BK32"),
        ("russian", "B:WK1,K3,K5:BK32"),
        ("antidraughts", "W:W31,32:B20"),
        ("breakthrough", "W:W16,17:B35,K50"),
    ],
)
def test_endings_and_goals_search_alike(variant: str, fen: str) -> None:
    board = draughts.Board(fen, variant=variant)
    for depth in range(1, 6):
        _compare(board, depth)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        # Men near crowning on both sides, some runaways, some not.
        ("international", "W:W7,16,23,28:B32,38,44,43,12"),
        ("international", "B:W6,9,14,33:B37,42,45,38"),
        ("russian", "W:W22,27,18:B13,5,9"),
    ],
)
def test_the_side_to_move_features_weighted_search_alike(
    monkeypatch: pytest.MonkeyPatch, variant: str, fen: str
) -> None:
    # crown_next, runaway_next and two_step_next are weighted 0 as shipped; weighted, the
    # two searches still agree node for node (the C leaf cache is keyed by
    # the side to move, the Python one too).
    monkeypatch.setenv(
        "DRAUGHTS_WEIGHTS", "crown_next=150/60,runaway_next=40/90,two_step_next=45/70"
    )
    _search.evaluator.cache_clear()
    try:
        assert _search.evaluator(_tables(draughts.Board(variant=variant).variant)[0]).opening[
            -3:
        ] == (150, 40, 45)
        board = draughts.Board(fen, variant=variant)
        for depth in range(1, 6):
            _compare(board, depth)
    finally:
        monkeypatch.delenv("DRAUGHTS_WEIGHTS")
        _search.evaluator.cache_clear()


@functools.lru_cache(maxsize=4)
def _bitbases(variant: str, pieces: int) -> Bitbases:
    return Bitbases.build(variant, pieces)


def _random_ending(variant: str, pieces: int, rng: random.Random) -> draughts.Board:
    """A position of ``pieces`` pieces (men and kings of both colours at
    random squares) with a legal move."""
    size = draughts.Board(variant=variant).variant.square_count
    while True:
        squares = rng.sample(range(1, size + 1), pieces)
        sides: list[list[str]] = [[], []]
        for i, square in enumerate(squares):
            sides[i % 2].append(rng.choice(["", "K"]) + str(square))
        fen = f"{rng.choice('WB')}:W{','.join(sides[0])}:B{','.join(sides[1])}"
        try:
            board = draughts.Board(fen, variant=variant)
        except draughts.errors.InvalidFenError:
            continue  # a man on its crowning row
        if board.legal_moves:
            return board


@pytest.mark.parametrize(
    ("variant", "pieces", "fens"),
    [
        # Two men against a king, and kings with a man left to take.
        ("english", 2, ["W:W20,27:BK19", "W:WK14,K2:B18,K32"]),
        pytest.param(
            "english", 3, ["W:WK14,K2:B18,K32", "B:W22,K3:B9,K30"], marks=pytest.mark.slow
        ),
        ("international", 2, ["W:W28,K46:B19,K5", "B:W33:B18,K4"]),
    ],
)
def test_bitbase_probes_search_alike(variant: str, pieces: int, fens: list[str]) -> None:
    # The probes below the root give both searches the same scores, lines
    # and node counts, on the positions named and on random endings of one
    # or two pieces more than the bitbases hold.
    probe = _bitbases(variant, pieces).prober()
    rng = random.Random(pieces)
    boards = [draughts.Board(fen, variant=variant) for fen in fens]
    boards += [_random_ending(variant, pieces + 1 + i % 2, rng) for i in range(12)]
    decided = 0
    for board in boards:
        for depth in (1, 3, 5):
            oracle, subject = _searchers(board)
            oracle.use_bitbases(probe)
            subject.use_bitbases(probe)
            pos = raw_position(board, oracle.t)
            expected = oracle.iterate(pos, depth, full_width=1)
            got = subject.iterate(pos, depth, full_width=1)
            assert (got, subject.nodes) == (expected, oracle.nodes), (board.fen(), depth)
            decided += abs(expected[1]) > _search.KNOWN_WIN - 100 or expected[1] == 0
    assert decided >= 6  # the probes did decide scores
    # And without them again, both forget the bitbases alike.
    oracle, subject = _searchers(boards[0])
    for searcher in (oracle, subject):
        searcher.use_bitbases(probe)
        searcher.use_bitbases(None)
    pos = raw_position(boards[0], oracle.t)
    assert subject.iterate(pos, 4) == oracle.iterate(pos, 4)
    assert subject.nodes == oracle.nodes


def test_bad_bitbases_are_refused() -> None:
    board = draughts.Board("W:W20,27:BK19", variant="english")
    _, subject = _searchers(board)
    probe = _bitbases("english", 2).prober()
    compiled = subject.compiled
    tables = dict(probe.tables)
    with pytest.raises(ValueError, match="pieces"):
        compiled.bitbases(9, probe.squares, tables)
    with pytest.raises(ValueError, match="not one new square"):
        compiled.bitbases(2, [probe.squares[0], *probe.squares[:-1]], tables)
    with pytest.raises(ValueError, match="one raw bit per square"):
        compiled.bitbases(2, probe.squares[:-1], tables)
    with pytest.raises(ValueError, match="bytes, not"):
        compiled.bitbases(2, probe.squares, {(0, 1, 0, 1): b"\x00"})
    with pytest.raises(ValueError, match="bad material"):
        compiled.bitbases(2, probe.squares, {(0, 1, 0, 2): tables[0, 1, 0, 1]})
    with pytest.raises(ValueError, match="bad material"):
        compiled.bitbases(2, probe.squares, {(0, 1, 0, 1): "text"})
    # A refused table leaves no bitbases: the search is the plain one.
    oracle, _ = _searchers(board)
    pos = raw_position(board, oracle.t)
    assert subject.iterate(pos, 4) == oracle.iterate(pos, 4)


def test_a_node_budget_stops_both_at_the_same_node() -> None:
    board = _playout("international", 7, 40)
    assert board is not None
    for nodes in (1500, 5000):
        _compare_engines(board, Limit(nodes=nodes))


def test_a_deadline_stops_the_search_with_a_legal_move() -> None:
    board = _playout("international", 8, 40)
    assert board is not None
    _, subject = _searchers(board, deadline=time.monotonic())
    pos = raw_position(board, subject.t)
    depth, _score, pv = subject.iterate(pos, 30, guard_depth=2)
    assert 2 <= depth < 30 and pv and pv[0] in _search.legal(subject.t, pos)
    # The built-in engine under a short clock still gives a legal move.
    result = builtin("hard").play(board, Limit(remaining=0.05))
    assert result.move in list(board.legal_moves)


def test_a_stop_before_the_search_leaves_depth_1_alike() -> None:
    # Whatever the guard depth, a stopped search completes depth 1 (there
    # must be a move to play) and no more, both searches node for node.
    board = _playout("international", 9, 30)
    assert board is not None
    oracle, subject = _searchers(board)
    pos = raw_position(board, oracle.t)
    signal = _search.StopSignal()
    signal.set()
    for searcher in (oracle, subject):
        signal.watch(searcher)
    expected = oracle.iterate(pos, 12, guard_depth=12)
    assert subject.iterate(pos, 12, guard_depth=12) == expected
    assert expected[0] == 1 and subject.nodes == oracle.nodes
    # A run at depth 1 is never cut short, even when asked to stop.
    key = subject.key_of(pos)
    assert subject.search(pos, key, 1, -_search.WIN - 1, _search.WIN + 1, 0, 0) == expected[1]


@pytest.mark.parametrize("kind", ["python", "c"])
def test_a_stop_from_another_thread_ends_a_search_in_progress(kind: str) -> None:
    # Limits are never enforced here (guard depth 40): only the stop, asked
    # while a depth no search reaches is under way, can end it.
    board = _playout("international", 10, 40)
    assert board is not None
    searcher = _searchers(board)[0 if kind == "python" else 1]
    pos = raw_position(board, searcher.t)
    reached: list[int] = []
    deep = threading.Event()

    def report(depth: int, score: int, pv: list[_core.RawMove]) -> None:
        reached.append(depth)
        if depth == 3:
            deep.set()

    outcome: list[tuple[int, int, list[_core.RawMove]]] = []
    thread = threading.Thread(
        target=lambda: outcome.append(searcher.iterate(pos, 40, guard_depth=40, report=report))
    )
    thread.start()
    assert deep.wait(60)
    time.sleep(0.2)  # well into a deeper iteration
    searcher.stop()
    thread.join(60)
    assert not thread.is_alive(), "the stop was not obeyed"
    ((depth, _score, pv),) = outcome
    assert depth == reached[-1] >= 3 and depth < 40
    assert pv and pv[0] in _search.legal(searcher.t, pos)


@pytest.mark.parametrize("variant", ["international", "english", "canadian", "turkish"])
def test_the_static_evaluation_is_the_pure_one(variant: str) -> None:
    # Random placements, few pieces included (the drawn endings divide the
    # score, rounding down for negative scores as Python does).
    pt, _nt = _tables(draughts.Board(variant=variant).variant)
    oracle, subject = _searchers(draughts.Board(variant=variant))
    squares = [i for i, number in enumerate(pt.square_of_index) if number]
    rng = random.Random(3)
    for _ in range(300):
        chosen = rng.sample(squares, rng.randrange(1, min(len(squares), 30)))
        masks = [0, 0, 0, 0]
        for index in chosen:
            masks[rng.randrange(4)] |= 1 << index
        pos = (rng.randrange(2), *masks)
        white = oracle._static(pos) * (1 if pos[0] == 0 else -1)
        assert subject.compiled.static(pos) == white, pos


def test_two_threads_search_at_once() -> None:
    boards = [b for seed in (11, 12) if (b := _playout("international", seed, 40))]
    assert len(boards) == 2
    pairs = [_searchers(board) for board in boards]
    expected = []
    for board, (oracle, _subject) in zip(boards, pairs, strict=True):
        expected.append(oracle.iterate(raw_position(board, oracle.t), 6))
    results: dict[int, list[tuple[int, int, list[_core.RawMove]]]] = {0: [], 1: []}

    def run(i: int) -> None:
        for _ in range(3):
            _oracle, subject = _searchers(boards[i])
            results[i].append(subject.iterate(raw_position(boards[i], subject.t), 6))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(boards))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {i: [expected[i]] * 3 for i in range(2)}


def test_bad_input_is_refused() -> None:
    board = draughts.Board()
    _, subject = _searchers(board)
    pos = raw_position(board, subject.t)
    key = subject.key_of(pos)
    limits = (True, 0, 1, 0, None, None, 1024, 90, 6, 3, 1, 0, 6, 1)
    compiled = subject.compiled
    with pytest.raises(ValueError, match="power of two"):
        compiled.run(pos, key, 2, -10, 10, 0, 0, None, (*limits[:6], 1000, *limits[7:]))
    with pytest.raises(ValueError, match="share a square"):
        compiled.run((0, pos[1], pos[1], 0, 0), key, 2, -10, 10, 0, 0, None, limits)
    with pytest.raises(ValueError, match="late_root"):
        compiled.run(pos, key, 2, -10, 10, 0, 0, None, (*limits[:13], 2))
    with pytest.raises(ValueError, match="root index"):
        compiled.run(pos, key, 2, -10, 10, 0, 0, [99], limits)
    with pytest.raises(ValueError, match="depth"):
        compiled.run(pos, key, 5000, -10, 10, 0, 0, None, limits)
    with pytest.raises(ValueError, match="key"):
        compiled.run(pos, -1, 2, -10, 10, 0, 0, None, limits)
    with pytest.raises(TypeError, match="pos"):
        compiled.static((0, 1, 2))
    subject.root = [
        _search.legal(
            _tables(draughts.variant.ENGLISH)[0],
            raw_position(draughts.Board(variant="english"), _tables(draughts.variant.ENGLISH)[0]),
        )[0]
    ]
    with pytest.raises(ValueError, match="not legal"):
        subject.iterate(pos, 2)


def test_boards_the_native_core_does_not_hold_use_the_python_search() -> None:
    big = attrs.evolve(draughts.variant.INTERNATIONAL, name="big", width=18, height=18)
    pt = pure.Tables(big)
    nt = native.Tables(big)
    assert not nt.native_ready
    searcher = _native_search.searcher(nt, zobrist.keys(len(pt.square_of_index)))
    assert type(searcher) is _search.Searcher
    # Keys other than the variant's own do not reach C either.
    small = _tables(draughts.variant.ENGLISH)[1]
    assert type(_native_search.searcher(small, zobrist.Keys(len(small.square_of_index)))) is (
        _search.Searcher
    )


@pytest.mark.skipif(draughts.BACKEND != "native", reason="the native backend is not in use")
def test_keys_for_many_board_sizes_keep_the_native_search() -> None:
    # The shared keys were once kept for the last 16 sizes only: a program
    # (or a test run) that met more sizes got new keys for English, which
    # the identity check refused, and searched in Python from then on.
    ctx = context(draughts.variant.ENGLISH)
    for size in range(1, 18):  # 17 other sizes, small ones: they are kept
        zobrist.keys(size)
    assert type(_native_search.searcher(ctx.core, ctx.keys)) is _native_search.NativeSearcher


# By default each variant with one table size (overfilled or not), every
# pair in the slow run.
_RENEWED = {("international", 256), ("english", _search.TABLE_ENTRIES), ("frisian", 256)}


@pytest.mark.parametrize(
    ("variant", "entries"),
    [
        pytest.param(
            variant, entries, marks=[] if (variant, entries) in _RENEWED else [pytest.mark.slow]
        )
        for variant in ("international", "english", "frisian")
        for entries in (_search.TABLE_ENTRIES, 256)
    ],
)
def test_a_renewed_search_keeps_its_table_alike(variant: str, entries: int) -> None:
    # A game's moves searched one after another by one searcher each,
    # renewed between moves (table kept, its entries now of an older
    # generation, which give way first; history halved, killers and line
    # new): both agree move after move, a repetition of the game included,
    # with a table that the moves overfill (256) or not.
    rng = random.Random(variant)
    board = draughts.Board(variant=variant)
    oracle, subject = _searchers(board)
    oracle.table_entries = subject.table_entries = entries
    for move_number in range(12):
        if not board.legal_moves:
            break
        if move_number:
            game_keys = _reversible_keys(board)
            kept = oracle.table_count()
            oracle.renew(game_keys=game_keys)
            subject.renew(game_keys=game_keys)
            assert oracle.table_count() == subject.table_count() == kept > 0
            assert oracle.table.generation == move_number
        pos = raw_position(board, oracle.t)
        reversible = len(_reversible_keys(board)) - 1
        expected = oracle.iterate(pos, 5, reversible=reversible, full_width=2)
        got = subject.iterate(pos, 5, reversible=reversible, full_width=2)
        assert (got, subject.nodes) == (expected, oracle.nodes), (board.fen(), move_number)
        board.push(rng.choice(list(board.legal_moves)))
    assert oracle.history


def test_a_kept_table_saves_the_next_move_most_of_its_search() -> None:
    # After a search to depth 8, the position two plies down its principal
    # variation is searched to depth 7 with at most three quarters of the
    # nodes by the renewed searcher than by a new one (about half with the
    # evaluation of December 2026: 6,219 against 11,968).
    board = draughts.Board()
    subject = _searchers(board)[1]
    pos = raw_position(board, subject.t)
    _depth, _score, pv = subject.iterate(pos, 8, full_width=2)
    for move in pv[:2]:
        board.push(subject.t.moves.move(move))
    fresh = _searchers(board)[1]
    subject.renew(game_keys=_reversible_keys(board))
    pos = raw_position(board, subject.t)
    kept_result = subject.iterate(pos, 7, full_width=2)
    fresh_result = fresh.iterate(pos, 7, full_width=2)
    assert subject.nodes < fresh.nodes * 3 / 4, (subject.nodes, fresh.nodes)
    assert kept_result[2][0] in _search.legal(subject.t, pos)
    assert fresh_result[0] == kept_result[0] == 7


def _renewed_search(depth: int) -> tuple[int, tuple[int, int, list[RawMove]]]:
    """Nodes and result of a search to ``depth`` two plies down the
    principal variation of one from the start to ``depth``, by the renewed
    searchers (C and Python, which must agree)."""
    board = draughts.Board()
    oracle, subject = _searchers(board)
    pos = raw_position(board, oracle.t)
    expected = oracle.iterate(pos, depth, full_width=2)
    assert subject.iterate(pos, depth, full_width=2) == expected
    for move in expected[2][:2]:
        board.push(oracle.t.moves.move(move))
    game_keys = _reversible_keys(board)
    oracle.renew(game_keys=game_keys)
    subject.renew(game_keys=game_keys)
    pos = raw_position(board, oracle.t)
    expected = oracle.iterate(pos, depth, full_width=2)
    assert (subject.iterate(pos, depth, full_width=2), subject.nodes) == (expected, oracle.nodes)
    return oracle.nodes, expected


def test_enhanced_transposition_cutoffs_search_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    # The renewed table refutes some moves outright from depth ETC_DEPTH
    # (6) on: both searches agree, with the cutoffs and without; to depth 8
    # they save nodes (19,985 against 20,368 in December 2026); a search
    # that never reaches ETC_DEPTH is the same tree either way.
    with_cutoffs = {depth: _renewed_search(depth) for depth in (5, 8)}
    monkeypatch.setattr(_search, "ETC_DEPTH", 0)
    without = {depth: _renewed_search(depth) for depth in (5, 8)}
    assert with_cutoffs[5] == without[5]
    assert with_cutoffs[8][0] < without[8][0]


_LATE_SETTINGS = [
    {"LATE_PV": 0},
    {"LATE_DEPTH": 4},
    {"LATE_SACRIFICE": 1},
    {"LATE_PV": 0, "LATE_SACRIFICE": 1},
    {"LATE_ROOT": 0},
]


# By default each setting in one variant (the variants in turn), every pair
# in the slow run.
@pytest.mark.parametrize(
    ("variant", "settings"),
    [
        pytest.param(
            variant,
            settings,
            id=f"{variant}-settings{k}",
            marks=[] if k % 3 == v else [pytest.mark.slow],
        )
        for v, variant in enumerate(["international", "english", "russian"])
        for k, settings in enumerate(_LATE_SETTINGS)
    ],
)
def test_late_move_settings_search_alike(
    variant: str, settings: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The late move reductions' settings reach C: with each, both searches
    # still visit the same nodes (reductions from ply 1 on, so they act).
    for name, value in settings.items():
        monkeypatch.setattr(_search, name, value)
    for seed in range(2):
        board = _playout(variant, seed, 30)
        if board is not None:
            _compare(board, 6)


def test_quiet_leaves_remembered_without_threats_are_not_used_with_them() -> None:
    # The C search remembers the quiescence search's quiet leaves by key
    # (search.c, known_leaf); one met with no threat extension left did not
    # look at the opponent's captures, so a search with threat extensions
    # must not take it as quiet. One searcher pair searches each position
    # without threat extensions, then with them, then without again: both
    # agree every time, and the extensions change some searches' nodes.
    changed = 0
    for seed in range(6):
        board = _playout("international", seed, 24)
        assert board is not None
        oracle, subject = _searchers(board)
        pos = raw_position(board, oracle.t)
        nodes = []
        for budget in (0, _search.THREAT_EXTENSIONS, 0):
            oracle.threat_budget = subject.threat_budget = budget
            expected = oracle.iterate(pos, 4, full_width=2)
            got = subject.iterate(pos, 4, full_width=2)
            assert (got, subject.nodes) == (expected, oracle.nodes), (board.fen(), budget)
            nodes.append(oracle.nodes)
        changed += nodes[0] != nodes[1]
    assert changed, "no position where the threat extensions change the search"


def test_hard_grows_its_kept_table_with_the_time_a_move_may_take() -> None:
    # A second's search fills the default 2**18 entries many times over, so
    # the table hard keeps in C grows with the move's time; it never shrinks
    # (a new size drops what the table holds), and an explicit size stays.
    board = draughts.Board(variant="english")
    engine = builtin("hard")
    engine.play(board, Limit(time=0.02))
    kept = engine._kept[board.variant]
    if not isinstance(kept, _native_search.NativeSearcher):
        pytest.skip("the pure search keeps the default table (DRAUGHTS_PURE=1)")
    assert kept.table_entries == _search.TABLE_ENTRIES
    engine.play(board, Limit(time=0.3))
    assert engine._kept[board.variant] is kept
    assert kept.table_entries == 2**20
    engine.play(board, Limit(time=0.02))
    assert kept.table_entries == 2**20
    fixed = BuiltinEngine("hard", table_entries=1024)
    fixed.play(board, Limit(time=0.3))
    assert fixed._kept[board.variant].table_entries == 1024
