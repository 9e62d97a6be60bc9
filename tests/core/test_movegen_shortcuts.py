"""The move generator's shortcuts agree with the full generator."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

import draughts
from draughts._core.pure import capture_search as _capture_search
from draughts._core.pure import movegen as _movegen


def _positions(
    variant: draughts.Variant, seed: str, games: int, plies: tuple[int, int]
) -> Iterator[draughts.Board]:
    """The board at every ply of ``games`` random games (each with a random
    length in ``plies``), positions with no legal move left out."""
    rng = random.Random(seed)
    for _game in range(games):
        board = draughts.Board(variant=variant)
        for _ply in range(rng.randrange(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            yield board
            board.push(rng.choice(moves))


# The default run plays 2 random games a variant; -m slow the same 2 and 4 more.
@pytest.mark.parametrize("games", [2, pytest.param(6, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_find_step_agrees_with_steps(variant: draughts.Variant, games: int) -> None:
    """find_step (one quiet move checked on its own, used by the PDN reader)
    accepts exactly the steps that steps() lists, in positions of random games."""
    for board in _positions(variant, variant.name, games, (10, 120)):
        t, c, men, kings = board._ctx.core, board._turn, board._men, board._kings
        occupied = men[0] | men[1] | kings[0] | kings[1]
        listed = {(raw[0], raw[1]): raw for raw in _movegen.steps(t, c, men[c], kings[c], occupied)}
        for origin in (i for i, n in enumerate(t.square_of_index) if n):
            if not ((men[c] | kings[c]) >> origin) & 1:
                continue
            for destination in (i for i, n in enumerate(t.square_of_index) if n):
                found = _movegen.find_step(t, c, men[c], kings[c], occupied, origin, destination)
                assert found == listed.get((origin, destination)), board.fen()


def _searched_from_every_piece(board: draughts.Board) -> set[tuple[object, ...]]:
    """The captures found by running the recursive search from every piece of
    the side to move, with none of captures()' shortcuts (the shift pre-test
    of the men, the first-jump test of the kings, single jumps settled by bit
    tests), as (origin, destination, captured mask, crowned)."""
    t, c, men, kings = board._ctx.core, board._turn, board._men, board._kings
    own, opp = men[c] | kings[c], men[1 - c] | kings[1 - c]
    search = _capture_search.searcher(t, c).search
    routes: list[_movegen.RawMove] = []
    for index in range(len(t.square_of_index)):
        if (own >> index) & 1:
            search(
                index,
                bool((men[c] >> index) & 1),
                (own | opp) ^ (1 << index),
                opp,
                kings[1 - c],
                routes,
            )
    if len(routes) > 1 and t.precedence:
        routes = _movegen._apply_precedence(t, routes, kings[c], kings[1 - c])
    return {r[:3] + r[5:] for r in routes}


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_capture_shortcuts_agree_with_the_search(variant: draughts.Variant) -> None:
    """captures() only searches the pieces its cheap tests cannot settle; the
    search from every piece must find the same moves, in positions of random
    games."""
    seen_captures = 0
    for board in _positions(variant, "single-" + variant.name, 8, (10, 150)):
        t, c, men, kings = board._ctx.core, board._turn, board._men, board._kings
        fast = _movegen.captures(t, c, men[c], kings[c], men[1 - c], kings[1 - c])
        assert {r[:3] + r[5:] for r in fast} == _searched_from_every_piece(board), board.fen()
        seen_captures += bool(fast)
    assert seen_captures > 20


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_board_moves_are_the_raw_moves_in_square_order(variant: draughts.Variant) -> None:
    """board_moves (the board's list: prebuilt steps ordered by rank, cached
    captures) gives the moves of legal_moves() in (origin, destination)
    order, with their captures and paths."""
    for board in _positions(variant, "steps-" + variant.name, 6, (10, 120)):
        moves = list(board.legal_moves)
        keys = [(m.from_square, m.to_square) for m in moves]
        assert keys == sorted(keys), board.fen()
        t, c, men, kings = board._ctx.core, board._turn, board._men, board._kings
        number = t.square_of_index
        raw = _movegen.legal_moves(t, c, men[c], kings[c], men[1 - c], kings[1 - c])
        expected = sorted(
            (
                number[r[0]],
                number[r[1]],
                tuple(number[i] for i in r[3]),
                tuple(number[i] for i in r[4]) if r[3] else (number[r[0]], number[r[1]]),
            )
            for r in raw
        )
        made = _movegen.board_moves(t, c, men[c], kings[c], men[1 - c], kings[1 - c])
        assert made == moves
        assert sorted((m.from_square, m.to_square, m.captures, m.path) for m in made) == expected, (
            board.fen()
        )


def test_small_caches_give_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The king views and the capture Move cache forget everything when they
    fill up; with room for two entries (so they are emptied all the time,
    where this tree would otherwise keep 82 capture moves and 492 views) the
    perft from the AllKings position (every piece a king) still gives the
    published counts."""
    from draughts._core.pure import king_views as _king_views

    monkeypatch.setattr(_king_views, "_KING_VIEWS_PER_SQUARE", 2)
    from draughts._core import raw as _raw

    monkeypatch.setattr(_raw, "CAPTURES_KEPT", 2)

    def perft(board: draughts.Board, depth: int) -> int:
        moves = list(board.legal_moves)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    # A fresh variant object gets fresh tables, whose caches start empty.
    international = attrs.evolve(draughts.find_variant("international"), name="small-caches")
    all_kings = (
        "W:W"
        + ",".join(f"K{n}" for n in range(31, 51))
        + ":B"
        + ",".join(f"K{n}" for n in range(1, 21))
    )
    # AllKings, DCTL's perft table (research notes §4.3).
    assert perft(draughts.Board(all_kings, variant=international), 3) == 352
    t = draughts.Board(variant=international)._ctx.core
    assert max(len(views) for views in t.king_views) <= 2
    assert len(t.moves.captures) <= 2
    # The same tree through the raw generator, which keeps no Move objects.
    assert draughts.perft(draughts.Board(all_kings, variant=international), 4) == 1_399
