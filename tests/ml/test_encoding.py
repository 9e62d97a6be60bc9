"""draughts.ml.encode: shapes, planes, and different positions kept apart."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import draughts  # noqa: E402
from draughts import BLACK, VARIANTS, WHITE, Board  # noqa: E402
from draughts.ml import encode, encode_batch, observation_shape, plane_names  # noqa: E402
from tests.ml.helpers import custom_variants, random_positions  # noqa: E402


def _state(board: Board) -> tuple[object, ...]:
    """Everything an observation is meant to tell apart."""
    followed = []
    for color in (WHITE, BLACK):
        moves = board.king_moves(color)
        last = board.move_stack[-2 if board.turn == color else -1].to_square if moves else 0
        followed.append((moves, last))
    # Repetition is rule state only in a variant with a repetition rule.
    rule = any(r.is_repetition for r in board.variant.draw_rules)
    repetitions = sum(board.is_repetition(k) for k in range(2, 4)) if rule else 0
    counts = tuple(n for _, n in board.draw_rule_counts())
    return (board.fen(), counts, repetitions, tuple(followed))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_shape_and_pieces(variant: draughts.Variant) -> None:
    board = Board(variant=variant)
    x = encode(board)
    names = plane_names(variant)
    assert x.shape == observation_shape(variant) == (len(names), variant.height, variant.width)
    assert x.dtype == np.float32
    # The piece planes hold exactly the pieces, each on its own cell.
    assert x[:4].sum() == len(board.piece_map())
    cells = variant.width * variant.height
    assert int(x[names.index("squares")].sum()) == (cells if variant.all_squares else cells // 2)
    assert (x[4] == float(board.turn == BLACK)).all()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("perspective", [False, True])
def test_different_positions_get_different_arrays(
    variant: draughts.Variant, perspective: bool
) -> None:
    seen: dict[bytes, tuple[object, ...]] = {}
    states = set()
    for board in random_positions(variant, games=3, seed=len(variant.name)):
        state = _state(board)
        states.add(state)
        key = encode(board, perspective=perspective).tobytes()
        assert seen.setdefault(key, state) == state, board.fen()
    assert len(seen) == len(states)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=custom_variants(), seed=st.integers(0, 1000), perspective=st.booleans())
def test_custom_variants_keep_positions_apart(
    variant: draughts.Variant, seed: int, perspective: bool
) -> None:
    seen: dict[bytes, tuple[object, ...]] = {}
    for board in random_positions(variant, games=2, seed=seed, plies=150):
        x = encode(board, perspective=perspective)
        assert x.shape == observation_shape(variant)
        assert ((x >= 0) & (x <= 1)).all()
        state = _state(board)
        assert seen.setdefault(x.tobytes(), state) == state, board.fen()


def test_rule_state_shows() -> None:
    board = Board("W:WK46:BK4", variant="international")
    before = encode(board)
    for text in ["46-41", "4-9", "41-46", "9-4"]:
        board.push_pdn(text)
    after = encode(board)  # the same pieces, the 25-move count and a repetition
    assert (before[:6] == after[:6]).all()
    names = plane_names("international")
    assert after[names.index("repetition"), 0, 0] == pytest.approx(2 / 3)
    counts = dict((rule.termination.value, (n, rule.limit)) for rule, n in board.draw_rule_counts())
    assert counts["twenty-five-move-rule"] == (4, 50)  # plies
    assert after[names.index("twenty-five-move-rule"), 0, 0] == pytest.approx(5 / 56)
    assert before[names.index("twenty-five-move-rule"), 0, 0] == pytest.approx(1 / 52)


def test_frisian_king_moves() -> None:
    board = Board("W:WK46,50:B1", variant="frisian")
    board.push_pdn("46-41")
    board.push_pdn("1-7")
    x = encode(board)
    plane = plane_names("frisian").index("white king moves")
    # Square 41: row 8 from the top, column 1; one move of three.
    assert [a.tolist() for a in x[plane].nonzero()] == [[8], [1]]
    assert x[plane, 8, 1] == pytest.approx(1 / 3)
    turned = encode(board, perspective=True)  # White to move: nothing turns
    assert (turned == x).all()


def test_perspective_turns_the_board_for_black() -> None:
    board = Board(variant="english")  # Black moves first
    x, y = encode(board), encode(board, perspective=True)
    assert (y[0] == x[2][::-1, ::-1]).all()  # the mover's men: Black's, turned
    assert (y[2] == x[0][::-1, ::-1]).all()
    assert (y[4] == 1).all()


def test_encode_batch_is_encode_stacked() -> None:
    boards = list(random_positions(draughts.variant.FRISIAN, games=1, seed=5))[:30]
    batch = encode_batch(boards, perspective=True)
    assert (batch == np.stack([encode(b, perspective=True) for b in boards])).all()
    out = np.full_like(batch, 7.0)
    assert encode_batch(boards, perspective=True, out=out) is out
    assert (out == batch).all()


def test_encode_batch_errors() -> None:
    with pytest.raises(ValueError, match="board 1 plays english"):
        encode_batch([Board(), Board(variant="english")])
    with pytest.raises(ValueError, match="at least one"):
        encode_batch([])
    with pytest.raises(ValueError, match="shape"):
        encode_batch([Board()], out=np.zeros((2, 3)))
