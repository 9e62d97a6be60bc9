"""The game-tree nodes the PDN native module makes for the reader
(:data:`draughts.pdn.tree.add_child`) against ``ChildNode(parent, move)``."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import draughts
from draughts.pdn import _native, tree
from draughts.pdn.tree import ChildNode, Game, GameNode

pytestmark = pytest.mark.skipif(
    _native.NodeMaker is None, reason="the native modules are not built (or DRAUGHTS_PURE=1)"
)

MOVE = draughts.Board().parse_pdn("32-28")


def slots(node: GameNode) -> dict[str, Any]:
    names = {"parent", "variations", *tree._state_slots(type(node))}
    return {name: getattr(node, name) for name in names}


def test_a_node_made_in_c_is_the_node_childnode_makes() -> None:
    assert tree.add_child is not None
    game, other = Game(), Game()
    made = tree.add_child(game, MOVE)
    expected = ChildNode(other, MOVE)
    assert type(made) is ChildNode
    assert game.variations == [made]
    assert made.parent is game and made.variations == []
    assert tree.add_child(game, MOVE).variations is not made.variations  # a list each
    assert slots(made) == {**slots(expected), "parent": game}
    # Every slot ChildNode.__init__ sets is set (NODE_DEFAULTS lists them all).
    assert set(slots(expected)) == {"parent", "move", "variations", *tree.NODE_DEFAULTS}


def test_nodes_made_in_c_grow_a_tree_like_any_other() -> None:
    assert tree.add_child is not None
    game = Game()
    board = game.board()
    node: GameNode = game
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        node = tree.add_child(node, board.parse_pdn(text))
        board.push(node.move)  # type: ignore[arg-type]
    node.comment = "after four moves"
    assert [n.ply() for n in game.mainline()] == [1, 2, 3, 4]
    assert str(game).splitlines()[-1] == "1. 32-28 19-23 2. 28x19 14x23 {after four moves} *"


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((Game(),), "takes a parent node and a move"),
        ((Game(), MOVE, None), "takes a parent node and a move"),
        ((object(), MOVE), "GameNode"),  # not a node: its descriptor refuses it
    ],
)
def test_a_maker_checks_what_it_is_given(arguments: tuple[object, ...], error: str) -> None:
    assert tree.add_child is not None
    with pytest.raises(TypeError, match=error):
        tree.add_child(*arguments)  # type: ignore[arg-type]


def test_a_parent_whose_children_are_not_a_list_is_refused() -> None:
    assert tree.add_child is not None
    game = Game()
    game.variations = ()  # type: ignore[assignment]
    with pytest.raises(TypeError, match="must be a list"):
        tree.add_child(game, MOVE)


@pytest.mark.parametrize(
    ("names", "defaults"),
    [
        (("parent", "move", "nothing"), {}),
        (("parent", "move", "variations"), {"pdn": 1}),  # a method, not a slot
        (("parent", "move", "variations"), {1: 1}),
    ],
)
def test_a_maker_takes_slots_only(names: tuple[str, str, str], defaults: dict[Any, Any]) -> None:
    assert _native.NodeMaker is not None
    with pytest.raises((TypeError, AttributeError)):
        _native.NodeMaker(ChildNode, *names, defaults)


def test_a_maker_needs_a_class_that_can_be_made() -> None:
    assert _native.NodeMaker is not None
    with pytest.raises(TypeError, match="cannot be instantiated"):
        _native.NodeMaker(type(sys.flags), "parent", "move", "variations", {})


def test_a_line_grown_is_the_line_add_child_makes_one_by_one() -> None:
    assert tree.grow_line is not None and tree.add_child is not None
    board = Game().board()
    moves = []
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        moves.append(board.parse_pdn(text))
        board.push(moves[-1])
    game, other = Game(), Game()
    line = tree.Line(moves)
    game._variations = line
    children = tree.grow_line(game, line)
    assert children is game._variations and type(children) is list
    node: GameNode = other
    for move in moves:
        node = tree.add_child(node, move)
    assert [n.move for n in game.mainline()] == moves
    links = {"parent": None, "variations": None}  # nodes of two trees: compared apart
    assert [slots(n) | links for n in game.mainline()] == [
        slots(n) | links for n in other.mainline()
    ]
    # Grown already (by another thread, say): the children as they are.
    assert tree.grow_line(game, line) is children and len(game.mainline_moves()) == 4


def test_a_line_is_grown_only_where_the_node_holds_it() -> None:
    assert tree.grow_line is not None
    game = Game()
    assert tree.grow_line(game, tree.Line([MOVE])) is game.variations == []
    with pytest.raises(TypeError, match="tuple of moves"):
        tree.grow_line(Game(), [MOVE])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameNode"):
        tree.grow_line(object(), tree.Line())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tuple of moves"):
        tree.grow_line(Game())  # type: ignore[call-arg]


def test_a_builder_whose_visit_move_is_its_own_sees_every_move() -> None:
    """A subclass of GameBuilder that extends visit_move is called for the
    moves of plain lines too (keeping them as moves is only for GameBuilder's own)."""
    import io

    from draughts import pdn
    from draughts.pdn.builders import GameBuilder

    seen: list[str] = []

    class Counting(GameBuilder):
        def visit_move(self, board: draughts.Board, move: draughts.Move) -> None:
            seen.append(board.pdn(move))
            super().visit_move(board, move)

    text = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *"
    game = pdn.read_game(io.StringIO(text), Visitor=Counting)
    assert seen == ["32-28", "19-23", "28x19", "14x23", "37-32"]
    assert game is not None and len(game.mainline_moves()) == 5
