"""The native generator against the pure one (its oracle), on random
positions of every preset and of random evolved variants: the same legal
moves in the same order, the same captures with and without duplicate
routes, the same Move lists, steps, squares-to-move matches, perft counts
(with and without bulk counting), the same positions and keys after
playing a move and taking it back, and the core's ``any_capture`` (the
engine's test, no pure twin) true exactly when a capture is legal.

Positions are random placements (any mix of men and kings, men also on the
row where they would be crowned) and the positions of random playouts from
the start.
"""

from __future__ import annotations

import functools
import random

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import draughts
from draughts._core import pure, raw, zobrist
from draughts._core.pure import keyed
from draughts._options import CaptureRule, Directions, Promotion, Removal

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")
from draughts._core.native import _native  # noqa: E402

BOTH_BACKENDS = False
"""This module compares the backends itself."""

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)
SLOW = settings(max_examples=600, deadline=None, suppress_health_check=_QUIET)


@functools.lru_cache(maxsize=64)
def _both(variant: draughts.Variant) -> tuple[pure.Tables, native.Tables]:
    return pure.Tables(variant), native.Tables(variant)


_DIRECTIONS = (
    Directions.DIAGONAL_FORWARD,
    Directions.DIAGONAL,
    Directions.ALL,
    Directions.ORTHOGONAL,
    Directions.DIAGONAL_FORWARD | Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
)


@st.composite
def evolved_variants(draw: st.DrawFn) -> draughts.Variant:
    """A preset with its rule options and board size drawn at random (the
    combinations a Variant refuses are drawn again)."""
    base = draw(st.sampled_from(draughts.VARIANTS), label="base")
    size = draw(st.sampled_from((4, 6, 8, 10, 12, 14)), label="size")
    rules = list(CaptureRule)
    precedence = draw(st.permutations(rules), label="precedence")[
        : draw(st.integers(0, len(rules)), label="rules")
    ]
    changes = {
        "width": size,
        "height": draw(st.sampled_from((size, 8, 10)), label="height"),
        "men_rows": 1,
        "start_fen": None,
        "flying_kings": draw(st.booleans(), label="flying"),
        "king_lands_directly_behind": draw(st.booleans(), label="lands behind"),
        "king_stops_behind_king": draw(st.booleans(), label="stops behind king"),
        "men_capture_kings": draw(st.booleans(), label="men capture kings"),
        "capture_precedence": tuple(precedence),
        "man_value": draw(st.integers(1, 3), label="man value"),
        "king_value": draw(st.integers(1, 5), label="king value"),
        "promotion": draw(st.sampled_from(list(Promotion)), label="promotion"),
        "removal": draw(st.sampled_from(list(Removal)), label="removal"),
        "reverse_in_capture": draw(st.booleans(), label="reverse"),
        "must_land_to_continue": draw(st.booleans(), label="must land"),
        "man_moves": draw(st.sampled_from(_DIRECTIONS[:1] + _DIRECTIONS[4:]), label="man moves"),
        "man_captures": draw(st.sampled_from(_DIRECTIONS), label="man captures"),
        "king_moves": draw(st.sampled_from(_DIRECTIONS[1:4]), label="king moves"),
        "king_captures": draw(st.sampled_from(_DIRECTIONS[1:4]), label="king captures"),
    }
    name = "evolved-" + "-".join(str(abs(hash(str(v))) % 1000) for v in changes.values())
    try:
        return attrs.evolve(base, name=name, aliases=(), variant_tag=None, **changes)
    except ValueError:
        assume(False)
        raise  # not reached: assume(False) ends the example


Position = tuple[int, int, int, int, int]
"""Side to move, white men, black men, white kings, black kings."""


_ROUTE_RICH_MOST = 16
"""The most pieces placed at random for a variant whose flying kings capture
along diagonals and lines alike. A king that can turn in eight directions
has exponentially many capture routes: on an all-squares 10x10 board with
immediate removal, the pure search (the oracle here) took up to 8 s for one
move list of a random placement of 24 pieces (half of them kings) even with
its routes merged (see ``draughts._core.pure.capture_search.MERGE_FROM``),
and with 30 pieces the routes can fill gigabytes; with 16 the slowest of 200
took 0.2 s.
The comparison needs no more than 16 pieces to reach every rule, and
``test_route_merging.py`` compares such captures, merged and not, of up to
three kings among 14 pieces."""


def _route_rich(variant: draughts.Variant) -> bool:
    captures = variant.king_captures
    return bool(
        variant.flying_kings and captures & Directions.DIAGONAL and captures & Directions.ORTHOGONAL
    )


@st.composite
def placements(draw: st.DrawFn, t: pure.Tables) -> Position:
    """Up to 30 pieces of any kind on random squares, either side to move
    (16 where flying kings capture both along diagonals and lines: see
    :data:`_ROUTE_RICH_MOST`)."""
    squares = draw(st.permutations(range(1, t.square_count + 1)), label="squares")
    most = _ROUTE_RICH_MOST if _route_rich(t.variant) else 30
    count = draw(st.integers(0, min(most, t.square_count)), label="pieces")
    boards = [0, 0, 0, 0]
    for square in squares[:count]:
        kind = draw(st.sampled_from((0, 1, 0, 1, 2, 3)), label="kind")
        boards[kind] |= t.bit_of_square[square]
    return (draw(st.sampled_from((0, 1)), label="turn"), *boards)  # type: ignore[return-value]


def _playout(t: pure.Tables, seed: int, plies: int) -> Position:
    """The position after a random game of ``plies`` plies from the start."""
    board = draughts.Board(variant=t.variant)
    c, (m0, m1), (k0, k1) = board._turn, board._men, board._kings
    rng = random.Random(seed)
    for _ in range(plies):
        own = (m0, k0, m1, k1) if c == 0 else (m1, k1, m0, k0)
        moves = pure.legal_moves(t, c, *own)
        if not moves:
            break
        m0, m1, k0, k1 = raw.apply(rng.choice(moves), c, m0, m1, k0, k1)
        c = 1 - c
    return c, m0, m1, k0, k1


def _move_tuples(moves: list[draughts.Move]) -> list[tuple[object, ...]]:
    return [(m.from_square, m.to_square, m.captures, m.path) for m in moves]


def _check_any_capture(n: native.Tables, position: Position, legal: list[raw.RawMove]) -> None:
    """The core's any_capture for the side to move is whether its legal
    moves (the pure ones) capture."""
    c, m0, m1, k0, k1 = position
    own = (m0, k0, m1, k1) if c == 0 else (m1, k1, m0, k0)
    expected = any(move.captured for move in legal)
    assert _native.any_capture(n, c, *own) is expected, (position, legal[:3])


def check_position(t: pure.Tables, n: native.Tables, position: Position, depth: int) -> None:
    """Every native answer about ``position`` equals the pure one."""
    c, m0, m1, k0, k1 = position
    own = (m0, k0, m1, k1) if c == 0 else (m1, k1, m0, k0)
    own_kings = own[1]
    frozen = own_kings & -own_kings  # the lowest king, if any, may not step
    legal = pure.legal_moves(t, c, *own)
    assert native.legal_moves(n, c, *own) == legal
    assert native.legal_moves(n, c, *own, frozen) == pure.legal_moves(t, c, *own, frozen)
    assert native.captures(n, c, *own, True) == pure.captures(t, c, *own, True)
    assert native.captures(n, c, *own) == pure.captures(t, c, *own)
    for frozen_kings in (0, frozen):
        assert _move_tuples(native.board_moves(n, c, *own, frozen_kings)) == _move_tuples(
            pure.board_moves(t, c, *own, frozen_kings)
        )
    occupied = m0 | m1 | k0 | k1
    men, kings = own[0], own[1]
    assert native.steps(n, c, men, kings, occupied, frozen) == pure.steps(
        t, c, men, kings, occupied, frozen
    )
    assert native.has_step(n, c, men, kings, occupied) == pure.has_step(t, c, men, kings, occupied)
    if n.native_ready:
        _check_any_capture(n, position, legal)
    keys = zobrist.keys(len(t.square_of_index))
    key = keys.of(c, (m0, m1), (k0, k1))
    assert native.position_key(n, c, m0, m1, k0, k1) == key
    for move in legal:
        origin, destination = move.origin, move.destination
        assert _move_tuples(native.moves_between(n, c, *own, origin, destination)) == _move_tuples(
            pure.moves_between(t, c, *own, origin, destination)
        )
        if not move.captured:
            assert native.find_step(n, c, men, kings, occupied, origin, destination) == (
                pure.find_step(t, c, men, kings, occupied, origin, destination)
            )
        after = native.apply_keyed(n, move, c, m0, m1, k0, k1, key)
        assert after == keyed.apply_keyed(t, move, c, m0, m1, k0, k1, key)
        assert after[:4] == raw.apply(move, c, m0, m1, k0, k1)
        assert after[4] == keys.of(1 - c, after[:2], after[2:4])
        captured_kings = move.captured_mask & (k1 if c == 0 else k0)
        back = native.undo_keyed(n, move, c, *after[:4], captured_kings, after[4])
        assert back == (m0, m1, k0, k1, key)
        assert back == keyed.undo_keyed(t, move, c, *after[:4], captured_kings, after[4])
    for d in range(1, depth + 1):
        expected = pure.perft(t, d, c, m0, m1, k0, k1)
        assert native.perft(n, d, c, m0, m1, k0, k1) == expected, f"depth {d}"
        assert native.perft(n, d, c, m0, m1, k0, k1, bulk=False) == expected
        assert native.perft(n, d, c, m0, m1, k0, k1, True) == pure.perft(
            t, d, c, m0, m1, k0, k1, True
        )


def _random_positions_agree(variant: draughts.Variant, data: st.DataObject, depth: int) -> None:
    t, n = _both(variant)
    # A board over 128 squares (an all-squares 12x12 or 14x14) runs on the
    # pure generator behind the native functions: compared all the same.
    assert n.native_ready == (t.square_count <= native.MAX_SQUARES)
    check_position(t, n, data.draw(placements(t), label="placement"), depth)
    seed = data.draw(st.integers(0, 2**32), label="seed")
    check_position(t, n, _playout(t, seed, data.draw(st.integers(0, 40), label="plies")), depth)


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
@FAST
@given(data=st.data())
def test_presets_agree(variant: draughts.Variant, data: st.DataObject) -> None:
    _random_positions_agree(variant, data, 2)


@settings(FAST, max_examples=60)
@given(variant=evolved_variants(), data=st.data())
def test_evolved_variants_agree(variant: draughts.Variant, data: st.DataObject) -> None:
    _random_positions_agree(variant, data, 2)


@pytest.mark.slow
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
@SLOW
@given(data=st.data())
def test_presets_agree_many(variant: draughts.Variant, data: st.DataObject) -> None:
    _random_positions_agree(variant, data, 3)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(variant=evolved_variants(), data=st.data())
def test_evolved_variants_agree_many(variant: draughts.Variant, data: st.DataObject) -> None:
    _random_positions_agree(variant, data, 3)


def _any_capture_positions(t: pure.Tables, seed: int, games: int) -> list[Position]:
    """Every position of ``games`` random games from the start, and as many
    random placements: positions with and without captures, men and kings."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = _playout(t, rng.randrange(2**32), 0)
        for _ply in range(rng.randrange(20, 120)):
            positions.append(position)
            c, m0, m1, k0, k1 = position
            own = (m0, k0, m1, k1) if c == 0 else (m1, k1, m0, k0)
            moves = pure.legal_moves(t, c, *own)
            if not moves:
                break
            position = (1 - c, *raw.apply(rng.choice(moves), c, m0, m1, k0, k1))
        squares = rng.sample(range(1, t.square_count + 1), rng.randrange(2, 24))
        boards = [0, 0, 0, 0]
        for square in squares:
            boards[rng.choice((0, 1, 0, 1, 2, 3))] |= t.bit_of_square[square]
        positions.append((rng.randrange(2), *boards))  # type: ignore[arg-type]
    return positions


def _any_capture_variants() -> list[draughts.Variant]:
    """Every preset the native core holds, and two variants of no preset."""
    international = draughts.find_variant("international")
    russian = draughts.find_variant("russian")
    custom = [
        attrs.evolve(
            international,
            name="x-any-capture-12",
            aliases=(),
            variant_tag=None,
            width=12,
            height=12,
            start_fen=None,
            man_captures=Directions.ALL,
        ),
        attrs.evolve(
            russian,
            name="x-any-capture-ortho",
            aliases=(),
            variant_tag=None,
            man_captures=Directions.ORTHOGONAL,
            king_captures=Directions.ORTHOGONAL,
            king_moves=Directions.ORTHOGONAL,
            start_fen=None,
        ),
    ]
    return [*draughts.VARIANTS, *custom]


@pytest.mark.parametrize("variant", _any_capture_variants(), ids=lambda v: v.name)
def test_any_capture_is_whether_a_capture_is_legal(variant: draughts.Variant) -> None:
    """On many positions of every preset and two custom variants, for both
    sides, the core's any_capture answers as the pure generator's moves."""
    t, n = _both(variant)
    if not n.native_ready:
        pytest.skip("a board the native core does not hold")
    positions = _any_capture_positions(t, seed=17, games=12)
    seen = set()
    for c, m0, m1, k0, k1 in positions:
        for side in (c, 1 - c):
            legal = pure.legal_moves(
                t, side, *((m0, k0, m1, k1) if side == 0 else (m1, k1, m0, k0))
            )
            _check_any_capture(n, (side, m0, m1, k0, k1), legal)
            seen.add(any(move.captured for move in legal))
    assert seen == {True, False}  # both answers were put to the test
