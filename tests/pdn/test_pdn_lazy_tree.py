"""A game read with :func:`read_game` keeps the moves of its plain lines as
moves until its tree is looked at (``GameNode.variations`` makes the
nodes): whatever is asked first, and in whatever order, the tree is the one
a node made for every move gives, on both cores."""

from __future__ import annotations

import copy
import io
import pickle
from pathlib import Path

import pytest

import draughts
from draughts import pdn
from draughts.pdn.builders import GameBuilder
from tests.conftest import game_tree

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"
TEXTS = [
    "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *",
    "1. 32-28 19-23 {a comment} 2. 28x19 14x23\n3. 37-32 10-14 *",
    "1. 32-28 19-23 (1... 18-23 2. 37-32) 2. 28x19 14x23 3. 37-32 $1 *",
    "1. 32-28 19-23 2. 28-22 17x28 *",  # an illegal move: the rest is unparsed text
    "1. 32-28 (1. 33-28 18-23) (1. 34-29) 19-23 2. 28x19\n\n14x23 *",
]


class EveryMove(GameBuilder):
    """A builder that makes a node for every move as it is read (a subclass
    with a visit_move of its own is visited for every move)."""

    def visit_move(self, board: draughts.Board, move: draughts.Move) -> None:
        super().visit_move(board, move)


def games(text: str, visitor: type[GameBuilder] = GameBuilder) -> list[pdn.Game]:
    handle = io.StringIO(text)
    out = []
    while (game := pdn.read_game(handle, Visitor=visitor)) is not None:
        out.append(game)
    return out


def sources() -> list[str]:
    files = ["candidate95.pdn", "succeed_variation.pdn", "succeed_movestrength.pdn"]
    return [*TEXTS, *((DATA / name).read_text(encoding="utf-8") for name in files)]


def shape(game: pdn.Game) -> tuple[object, ...]:
    return (str(game), game_tree(game), [str(error) for error in game.errors])


@pytest.mark.parametrize("text", sources(), ids=range(len(sources())))
def test_the_tree_is_the_one_a_node_for_every_move_makes(text: str) -> None:
    eager = games(text, EveryMove)
    assert [shape(game) for game in games(text)] == [shape(game) for game in eager]


@pytest.mark.parametrize("text", sources(), ids=range(len(sources())))
def test_the_main_line_read_first_makes_no_difference(text: str) -> None:
    eager = games(text, EveryMove)
    lazy = games(text)
    assert [game.mainline_moves() for game in lazy] == [game.mainline_moves() for game in eager]
    assert [[node.move for node in game.mainline()] for game in lazy] == [
        game.mainline_moves() for game in eager
    ]
    assert [game.end().ply() for game in lazy] == [game.end().ply() for game in eager]
    assert [shape(game) for game in lazy] == [shape(game) for game in eager]


@pytest.mark.parametrize("text", TEXTS)
def test_a_game_not_looked_at_pickles_and_copies_whole(text: str) -> None:
    (expected,) = games(text, EveryMove)
    for made in (
        lambda game: pickle.loads(pickle.dumps(game)),
        copy.deepcopy,
    ):
        (game,) = games(text)
        assert shape(made(game)) == shape(expected)
        assert shape(game) == shape(expected)


def test_a_node_inside_a_line_not_made_yet_can_be_edited() -> None:
    text = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *"
    (lazy,) = games(text)
    (eager,) = games(text, EveryMove)
    for game in (lazy, eager):
        first = game.variations[0]
        first.variations[0].comment = "here"
        first.add_variation(first.board().parse_pdn("18-23"))
        game.end().nags.add(1)
    assert shape(lazy) == shape(eager)
    assert str(lazy).splitlines()[-1] == (
        "1. 32-28 19-23 {here} (1... 18-23) 2. 28x19 14x23 3. 37-32! *"
    )


def test_a_tuple_a_program_stores_is_not_taken_for_moves() -> None:
    (game,) = games("1. 32-28 19-23 *")
    children = ()
    game.variations = children  # type: ignore[assignment]
    assert game.variations is children
    assert game.mainline_moves() == []


def test_threads_that_look_at_one_game_see_one_tree() -> None:
    # The nodes of a line are made once, whichever thread asks first, and no
    # thread sees a line half made.
    import threading

    text = (DATA / "candidate95.pdn").read_text(encoding="utf-8")
    for game in games(text)[:20]:
        expected = [str(move) for move in game.mainline_moves()]
        barrier = threading.Barrier(4)
        seen: list[tuple[object, list[str]]] = []

        def look(
            game: pdn.Game, barrier: threading.Barrier, seen: list[tuple[object, list[str]]]
        ) -> None:
            barrier.wait()
            seen.append((game.end(), [str(node.move) for node in game.mainline()]))

        threads = [threading.Thread(target=look, args=(game, barrier, seen)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len({id(end) for end, _ in seen}) == 1
        assert all(moves == expected for _, moves in seen)
