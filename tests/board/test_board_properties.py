"""Properties that hold in every variant, checked over random legal playouts."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts.variant import CaptureRule, Directions

PLIES = 60
# 8 playouts of each variant by default, 20 in -m slow.
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _variant_ids(variant: draughts.Variant) -> str:
    return variant.name


def _playout(data: st.DataObject, variant: draughts.Variant) -> list[draughts.Board]:
    """Boards along one random legal game (the board itself, copied at every ply)."""
    board = draughts.Board(variant=variant)
    seen = [board.copy()]
    for _ in range(data.draw(st.integers(0, PLIES), label="plies")):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(data.draw(st.sampled_from(moves), label="move"))
        seen.append(board.copy())
    return seen


def _free_choice(variant: draughts.Variant) -> draughts.Variant:
    return attrs.evolve(variant, name=variant.name + "-free", capture_precedence=())


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@FAST
@given(data=st.data())
def test_move_properties(variant: draughts.Variant, data: st.DataObject) -> None:
    _move_properties(variant, data)


@pytest.mark.slow
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@SLOW
@given(data=st.data())
def test_move_properties_many(variant: draughts.Variant, data: st.DataObject) -> None:
    _move_properties(variant, data)


def _move_properties(variant: draughts.Variant, data: st.DataObject) -> None:
    for board in _playout(data, variant):
        moves = list(board.legal_moves)
        fen = board.fen()

        # No duplicates; captures are mandatory.
        assert len(set(moves)) == len(moves), fen
        if any(m.captures for m in moves):
            assert all(m.captures for m in moves), fen

        # The majority rule: every legal move takes the most pieces possible.
        if variant.capture_precedence[:1] == (CaptureRule.MOST_PIECES,) and moves:
            free = draughts.Board(fen, variant=_free_choice(variant))
            most = max(len(m.captures) for m in free.legal_moves)
            assert all(len(m.captures) == most for m in moves), fen

        for move in moves:
            # Routes are well formed.
            assert move.path[0] == move.from_square and move.path[-1] == move.to_square
            if move.captures:
                assert len(move.path) == len(move.captures) + 1, (fen, move)

            # Notation parses back, short and long.
            assert board.parse_pdn(board.pdn(move)) == move, (fen, move)
            assert board.parse_pdn(board.pdn(move, long=True)) == move, (fen, move)

            mover = board.turn
            piece = board.piece_at(move.from_square)
            assert piece is not None and piece.color == mover
            own_before = len(board.pieces(mover))
            opp_before = len(board.pieces(mover.opponent))

            board.push(move)
            # Exactly the captured pieces leave the board.
            assert len(board.pieces(mover.opponent)) == opp_before - len(move.captures)
            assert len(board.pieces(mover)) == own_before
            for square in move.captures:
                assert board.piece_at(square) is None or square == move.to_square
            board.pop()
            assert board.fen() == fen

            # Men never step backward.
            if piece.kind == draughts.MAN and not move.captures:
                row_from = variant.coordinates(move.from_square)[0]
                row_to = variant.coordinates(move.to_square)[0]
                forward = row_to - row_from if mover == draughts.WHITE else row_from - row_to
                sideways_ok = bool(variant.man_moves & Directions.ORTHOGONAL_SIDEWAYS)
                assert forward > 0 or (forward == 0 and sideways_ok), (fen, move)


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@FAST
@given(data=st.data())
def test_fen_and_stack_properties(variant: draughts.Variant, data: st.DataObject) -> None:
    _fen_and_stack_properties(variant, data)


@pytest.mark.slow
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@SLOW
@given(data=st.data())
def test_fen_and_stack_properties_many(variant: draughts.Variant, data: st.DataObject) -> None:
    _fen_and_stack_properties(variant, data)


def _fen_and_stack_properties(variant: draughts.Variant, data: st.DataObject) -> None:
    board = draughts.Board(variant=variant)
    fens = [board.fen()]
    for _ in range(data.draw(st.integers(0, PLIES), label="plies")):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(data.draw(st.sampled_from(moves), label="move"))
        fens.append(board.fen())
        # The FEN describes the position completely.
        again = draughts.Board(board.fen(), variant=variant)
        assert again == board
        assert again.fen() == board.fen()
        if variant.king_move_limit is None:
            # A FEN does not record how many moves in a row a Frisian king has
            # made, so under that limit the moves may differ.
            assert sorted(again.legal_moves, key=str) == sorted(board.legal_moves, key=str)
    # Popping everything walks back through the same positions.
    while board.move_stack:
        assert board.fen() == fens.pop()
        board.pop()
    assert board.fen() == fens.pop() == variant.starting_fen


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
def test_start_position_is_symmetric(variant: draughts.Variant) -> None:
    board = draughts.Board(variant=variant)
    assert len(board.pieces(draughts.WHITE)) == len(board.pieces(draughts.BLACK))
    assert board.turn == variant.first_color
    assert board.legal_moves.count() > 0
