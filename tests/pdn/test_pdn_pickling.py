"""Games pickle and deep-copy to equal games, however long.

A :class:`~draughts.pdn.Game` has no ``__eq__`` (nodes are compared by
identity, as ``remove_variation`` needs); two games are equal here when they
have the same class, headers, variant, errors, warnings, game comments and
the same tree: every node in the same place with the same move (and route),
comments and NAGs. :func:`snapshot` says all that as flat values, built
without recursion so that deep trees compare too.
"""

from __future__ import annotations

import copy
import io
import itertools
import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import pdn
from draughts import variant as V

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)

ANNOTATED = """[Event "Pickled"]
[Site "Here"]
[White "A"]
[Black "B"]
[Result "*"]
[Opening "none"]

{Before the first move.} 1. 32-28 {main} 19-23! (1... 18-23 {alt} 2. 33-29 $14 (2. 34-30
{deeper} 23x32)) 2. 28x19 14x23?! 3. 37-32 9-14 4. 99-98 {kept as text} *
"""


def snapshot(game: pdn.GameNode) -> tuple[object, ...]:
    """What makes a game the game it is, as comparable flat values."""
    nodes: list[tuple[object, ...]] = []
    stack: list[tuple[tuple[int, ...], pdn.GameNode]] = [((), game)]
    while stack:
        place, node = stack.pop()
        move = node.move
        nodes.append(
            (
                place,
                type(node).__name__,
                None if move is None else (move, move.path),
                node.comment,
                node.starting_comment,
                sorted(node.nags),
                len(node.variations),
            )
        )
        stack += [((*place, i), child) for i, child in enumerate(node.variations)]
    assert isinstance(game, pdn.Game)
    return (
        type(game),
        list(game.headers.items()),
        game.variant,
        game.errors,
        game.warnings,
        nodes,
    )


def assert_same_game(again: object, game: pdn.Game) -> None:
    assert isinstance(again, pdn.Game)
    assert snapshot(again) == snapshot(game)
    assert str(again) == str(game)
    for node in again.mainline():
        assert node.parent.variations[0] is node and node.game() is again


def read(text: str, **kwargs: object) -> pdn.Game:
    game = pdn.read_game(io.StringIO(text), **kwargs)  # type: ignore[call-overload]
    assert isinstance(game, pdn.Game)
    return game


def long_game(plies: int) -> pdn.Game:
    """A legal game of ``plies`` moves: kings that shuffle, each move one
    after which nothing can be captured if there is one (the draw rules do
    not stop pushes); the first seed whose game lasts that long."""
    for seed in itertools.count():
        rng = random.Random(seed)
        board = draughts.Board("W:WK46,K47,K48:BK3,K4,K5")
        while board.ply() < plies:
            legal = list(board.legal_moves)
            if not legal:
                break
            rng.shuffle(legal)
            for move in legal:
                board.push(move)
                if not any(reply.captures for reply in board.legal_moves):
                    break
                board.pop()
            else:
                board.push(legal[0])
        if board.ply() == plies:
            return pdn.Game.from_board(board)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_an_annotated_game_with_errors_pickles(protocol: int) -> None:
    game = read(ANNOTATED)
    assert [e.kind for e in game.errors] == ["invalid"] and game.errors[0].unparsed
    assert any(node.nags for node in game.mainline())
    again = pickle.loads(pickle.dumps(game, protocol=protocol))
    assert_same_game(again, game)
    assert again.comment == "Before the first move."


def test_warnings_and_a_custom_variant_survive() -> None:
    variant = attrs.evolve(V.RUSSIAN, name="r10", width=10, height=10, men_rows=4)
    board = draughts.Board(variant=variant)
    rng = random.Random(7)
    for _ in range(20):
        board.push(rng.choice(list(board.legal_moves)))
    game = pdn.Game.from_board(board)
    again = pickle.loads(pickle.dumps(game))
    assert_same_game(again, game)
    assert isinstance(again, pdn.Game) and again.variant == variant
    warned = read("1. 32-28 19-23 2. 28-19 *")  # a capture written with "-"
    assert [w.kind for w in warned.warnings] == ["inferred", "notation"]
    assert_same_game(pickle.loads(pickle.dumps(warned)), warned)
    fresh = pdn.Game(variant=variant)  # the variant given, no headers that say it all
    assert pickle.loads(pickle.dumps(fresh)).variant == variant


@pytest.mark.parametrize("plies", [300, 1000])
def test_a_long_game_pickles(plies: int) -> None:
    # A node pickled with its parent and children recursed once per ply.
    game = long_game(plies)
    assert len(game.mainline_moves()) == plies
    data = pickle.dumps(game)
    assert len(data) < 60 * plies
    assert_same_game(pickle.loads(data), game)
    assert_same_game(copy.deepcopy(game), game)


def test_deeply_nested_variations_pickle() -> None:
    # Each side line holds the next one: variations nested 300 deep.
    game = pdn.Game(headers=[("FEN", "W:WK46,K47,K48:BK3,K4,K5")])
    node: pdn.GameNode = game
    for depth in range(300):
        board = node.board()
        quiet = [m for m in board.legal_moves if not _gives_a_capture(board, m)]
        node.add_variation(quiet[0], comment=f"main {depth}")
        node = node.add_variation(quiet[1], starting_comment="or", nags=[depth % 7 + 1])
    assert node.ply() == 300 and not node.is_mainline()
    again = pickle.loads(pickle.dumps(game))
    assert_same_game(again, game)


def _gives_a_capture(board: draughts.Board, move: draughts.Move) -> bool:
    board.push(move)
    try:
        return any(reply.captures for reply in board.legal_moves)
    finally:
        board.pop()


def test_a_node_pickles_as_its_place_in_its_game() -> None:
    game = read(ANNOTATED)
    deep = game.variations[0].variations[1].variations[1].variations[0]  # 23x32
    assert deep.comment == "" and deep.parent.comment == "deeper"
    again = pickle.loads(pickle.dumps(deep))
    assert isinstance(again, pdn.ChildNode)
    assert again.move == deep.move and again.ply() == deep.ply() == 4
    assert again.board().fen() == deep.board().fen()
    assert not again.is_mainline()
    assert_same_game(again.game(), game)
    # With the game in the same pickle, the node is that game's node.
    other, node = pickle.loads(pickle.dumps([game, deep]))
    assert node.game() is other
    assert other.variations[0].variations[1].variations[1].variations[0] is node


def test_a_node_cut_from_its_game_keeps_its_line() -> None:
    game = read(ANNOTATED)
    side = game.variations[0].variations[1]
    game.variations[0].remove_variation(side.move)
    again = pickle.loads(pickle.dumps(side))
    assert isinstance(again, pdn.ChildNode)
    assert again.move == side.move and again.comment == "alt"
    assert [n.move for n in again.mainline()] == [n.move for n in side.mainline()]
    assert_same_game(again.game(), game)  # the game as it is now, without the line


class TaggedGame(pdn.Game):
    """A user's subclass, with its own state."""

    def __init__(self) -> None:
        super().__init__()
        self.source = "test"


def test_a_subclass_keeps_its_own_state() -> None:
    game = TaggedGame()
    game.add_line(game.board().parse_pdn(text) for text in ["32-28"])
    game.add_line([draughts.Board().parse_pdn("33-28")])
    again = pickle.loads(pickle.dumps(game))
    assert isinstance(again, TaggedGame) and again.source == "test"
    assert_same_game(again, game)


# -- The property ---------------------------------------------------------------------

VARIANTS = ["international", "english", "russian", "frisian", "turkish", "thai", "dama"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_random_annotated_games_pickle(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    game = pdn.Game(variant=variant)
    game.headers["Event"] = f"random {seed}"
    node: pdn.GameNode = game
    board = game.board()
    for ply in range(rng.randint(0, 60)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        child = node.add_variation(move, comment=rng.choice(["", f"ply {ply}"]))
        if rng.random() < 0.2:
            child.nags.add(rng.randint(1, 7))
        others = [m for m in legal if m != move]
        if others and rng.random() < 0.3:
            node.add_variation(rng.choice(others), starting_comment="or")
        board.push(move)
        node = child
    again = pickle.loads(pickle.dumps(game))
    assert_same_game(again, game)
