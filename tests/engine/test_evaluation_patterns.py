"""The learned patterns of the evaluation: their definition, the shipped
tables, and the C evaluation held to the pure one with them."""

from __future__ import annotations

import array
import gzip
import random
from typing import Any

import pytest

import draughts
from draughts._core import pure
from draughts.engine import patterns as P
from draughts.engine.evaluation import Evaluator
from draughts.engine.search import raw_position


def _native() -> Any:
    return pytest.importorskip("draughts._core.native", reason="the native core is not built")


def _compiled_search(*args: Any) -> Any:
    """The engine's C search (also when DRAUGHTS_PURE=1 put the pure core in place)."""
    c = pytest.importorskip("draughts.engine._native._c", reason="the engine's C is not built")
    return c.Search(*args)


# Boards of every size windows fit on: 10x10, 8x8, 12x12.
SIZES = ("international", "english", "russian", "canadian")


def _random_patterns(t: pure.Tables, seed: int, some: bool = False) -> P.Patterns:
    """Random tables for every window, or (``some``) for every third one,
    the others' all zero: a smaller set, whose windows the searches skip."""
    rng = random.Random(seed)
    tables = [
        array.array(
            "i",
            [rng.randrange(-300, 301) if not some or w % 3 == 1 else 0 for _ in range(729)],
        )
        for w in range(len(P.windows(t)))
    ]
    return P.Patterns(t, tables)


def _placements(t: pure.Tables, count: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    """Random positions: every playing square empty or one of the 4 pieces."""
    squares = [i for i, number in enumerate(t.square_of_index) if number]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        masks = [0, 0, 0, 0]
        for index in rng.sample(squares, rng.randrange(0, min(len(squares), 40))):
            masks[rng.randrange(4)] |= 1 << index
        out.append((rng.randrange(2), *masks))
    return out


@pytest.mark.parametrize("variant", SIZES)
def test_configurations_are_the_squares_read_one_by_one(variant: str) -> None:
    # The definition: digit k of a window is its k-th square's state (0
    # empty or a king, 1 a white man, 2 a black man).
    t = pure.Tables(draughts.Board(variant=variant).variant)
    p = _random_patterns(t, 1)
    for _turn, m0, m1, _k0, _k1 in _placements(t, 50, seed=2):
        expected = [
            sum((1 if m0 >> i & 1 else 2 if m1 >> i & 1 else 0) * 3**k for k, i in enumerate(w))
            for w in p.windows
        ]
        assert p.configurations(m0, m1) == expected


# Canadian with the patterns of every third window (0.9 s of CPU time: its
# board is read by the pure generator) is evaluated in the slow run.
@pytest.mark.parametrize(
    ("variant", "some"),
    [
        pytest.param(
            variant, some, marks=[pytest.mark.slow] if (variant, some) == ("canadian", True) else []
        )
        for variant in SIZES
        for some in (False, True)
    ],
)
def test_the_c_evaluation_with_patterns_is_the_pure_one(variant: str, some: bool) -> None:
    native = _native()
    pt = pure.Tables(draughts.Board(variant=variant).variant)
    nt = native.Tables(pt.variant)
    oracle = Evaluator(pt, patterns=_random_patterns(pt, 3, some))
    assert oracle.patterns is not None
    windows = range(len(P.windows(pt)))
    assert oracle.patterns.active == tuple(w for w in windows if not some or w % 3 == 1)
    data = Evaluator(nt, patterns=_random_patterns(nt, 3, some)).data()
    assert len(data[-1][0]) == len(oracle.patterns.active)
    search = _compiled_search(nt, data, None, {}, 1, False, [])
    plain = Evaluator(pt, patterns=False)
    differs = 0
    for pos in _placements(pt, 300, seed=4):
        white = oracle.score(0, *pos[1:])
        assert search.static(pos) == white, pos
        differs += white != plain.score(0, *pos[1:])
    assert differs > 250  # the patterns were counted


@pytest.mark.parametrize("variant", ["international", "english"])
def test_the_shipped_tables_are_symmetric_and_score_both_colours_alike(variant: str) -> None:
    t = pure.Tables(draughts.Board(variant=variant).variant)
    p = P.learned(t)
    assert p is not None
    assert any(any(table) for table in p.weights)
    for w, table in enumerate(p.weights):
        other = p.weights[P.opposite(t, w)]
        assert all(table[c] == -other[P.mirrored(c)] for c in range(P.CONFIGURATIONS))
    # The start position's men: each window against its opposite.
    assert p.white(*raw_position(draughts.Board(variant=variant), t)[1:3]) == 0


def test_only_the_fitted_variants_have_patterns() -> None:
    assert P.learned_name(pure.Tables(draughts.variant.INTERNATIONAL)) == "international"
    assert P.learned_name(pure.Tables(draughts.variant.ENGLISH)) == "english"
    for variant in ("frisian", "russian", "canadian", "italian"):
        t = pure.Tables(draughts.Board(variant=variant).variant)
        assert P.patterns_for(t) is None
        assert Evaluator(t).data()[-1] is None


def test_the_switch_decides_which_variants_use_their_patterns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    international = pure.Tables(draughts.variant.INTERNATIONAL)
    english = pure.Tables(draughts.variant.ENGLISH)
    monkeypatch.delenv("DRAUGHTS_PATTERNS", raising=False)
    assert P.patterns_for(international) is None
    assert P.patterns_for(english) is None
    monkeypatch.setenv("DRAUGHTS_PATTERNS", "1")
    assert P.patterns_for(international) is not None
    assert P.patterns_for(english) is not None
    assert Evaluator(english).patterns is not None
    monkeypatch.setenv("DRAUGHTS_PATTERNS", "0")
    assert P.patterns_for(english) is None
    assert Evaluator(english).data()[-1] is None


def test_a_bad_pattern_file_is_refused() -> None:
    with pytest.raises(ValueError, match="not a pattern file"):
        P.decode(P.encode([[0] * P.CONFIGURATIONS])[:-8] + b"\x00" * 8)
    with pytest.raises(ValueError, match="not a pattern file"):
        P.decode(gzip.compress(b"DRPAT1" + b"\x00" * 7))
    t = pure.Tables(draughts.variant.INTERNATIONAL)
    with pytest.raises(ValueError, match="32 windows"):
        P.Patterns(t, P.decode(P.encode([[0] * P.CONFIGURATIONS] * 3)))


def test_the_native_search_refuses_bad_pattern_data() -> None:
    native = _native()
    nt = native.Tables(draughts.variant.INTERNATIONAL)
    data = list(Evaluator(nt, patterns=P.learned(nt)).data())
    windows, weights = data[-1]
    for bad, message in [
        ((windows, weights[:-4]), "729 int32"),
        (((windows[0][:5], *windows[1:]), weights), "6 squares"),
        ((((*windows[0][:5], 1), *windows[1:]), weights), "bad square 1"),
        ("nonsense", "None or"),
    ]:
        data[-1] = bad
        with pytest.raises((ValueError, TypeError), match=message):
            _compiled_search(nt, tuple(data), None, {}, 1, False, [])


# Canadian's 12x12 searches take about 12 s each in Python: they run with the
# slow tests (the default run keeps canadian's C evaluation against the pure one).
# International with the patterns of every third window (1.2 s of CPU time)
# is searched in the slow run; english and russian search both sets by default.
_SEARCH_CASES = [
    pytest.param(
        variant,
        some,
        marks=[pytest.mark.slow]
        if variant == "canadian" or (variant, some) == ("international", True)
        else [],
    )
    for variant in SIZES
    for some in (False, True)
]


@pytest.mark.parametrize(("variant", "some"), _SEARCH_CASES)
def test_the_c_search_with_patterns_is_the_python_one(
    variant: str, some: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node for node: the C search keeps the windows' numbers up to date move
    by move (captures, crownings, kings' moves), the Python one numbers them
    afresh at each evaluation."""
    _native()
    c = pytest.importorskip("draughts.engine._native._c", reason="the engine's C is not built")
    from draughts._core import zobrist
    from draughts.engine import _native as engine_native
    from draughts.engine import native_search as _native_search
    from draughts.engine import search as _search

    monkeypatch.setattr(engine_native, "_loaded", c)
    monkeypatch.setattr(
        _search, "evaluator", lambda t: Evaluator(t, patterns=_random_patterns(t, 5, some))
    )
    native = _native()
    rng = random.Random(7)
    compared = 0
    for seed in range(4):
        board = draughts.Board(variant=variant)
        for _ in range(10 + 15 * seed):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.legal_moves:
            continue
        pt = pure.Tables(board.variant)
        keys = zobrist.keys(len(pt.square_of_index))
        oracle = _search.Searcher(pt, keys)
        subject = _native_search.searcher(native.Tables(pt.variant), keys)
        assert isinstance(subject, _native_search.NativeSearcher)
        pos = raw_position(board, pt)
        expected = oracle.iterate(pos, 4, full_width=1)
        assert (subject.iterate(pos, 4, full_width=1), subject.nodes) == (
            expected,
            oracle.nodes,
        ), board.fen()
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("variant", SIZES)
def test_the_c_evaluation_with_every_feature_weighted_is_the_pure_one(variant: str) -> None:
    # Random weights for every feature (those counted for the side to move
    # too), each position scored with either side to move: the C sum is
    # the pure one.
    from draughts.engine.evaluation import FEATURES

    native = _native()
    pt = pure.Tables(draughts.Board(variant=variant).variant)
    nt = native.Tables(pt.variant)
    rng = random.Random(5)
    weights = tuple((100, *(rng.randrange(-300, 301) for _ in FEATURES[1:])) for _phase in range(2))
    oracle = Evaluator(pt, weights, patterns=False)  # type: ignore[arg-type]
    search = _compiled_search(nt, Evaluator(nt, weights).data(), None, {}, 1, False, [])  # type: ignore[arg-type]
    turn_matters = two_steps = 0
    placements = _placements(pt, 400, seed=6)
    # The same men without kings, too: the breakthrough features need no opposing king.
    placements += [(turn, m0, m1, 0, 0) for turn, m0, m1, _k0, _k1 in placements]
    for pos in placements:
        for turn in (0, 1):
            sign = 1 if turn == 0 else -1
            white = sign * oracle.score(turn, *pos[1:])
            assert search.static((turn, *pos[1:])) == white, (turn, pos)
        turn_matters += oracle.score(0, *pos[1:]) != -oracle.score(1, *pos[1:])
        _turn, m0, m1, k0, k1 = pos
        counts = oracle.features(0, m0, k0, m1 | k1, k1, True)
        two_steps += counts[FEATURES.index("two_step_next")] > 0
    assert turn_matters > 20  # the side-to-move features were counted
    assert two_steps > 5, two_steps  # two_step_next among them
