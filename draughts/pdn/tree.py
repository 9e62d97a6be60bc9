"""The game tree of :mod:`draughts.pdn` (the visitors that build it are in
:mod:`draughts.pdn.builders`)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from draughts.board import Board
from draughts.move import Move
from draughts.pdn import _native
from draughts.pdn.headers import (
    SKIP,
    BaseVisitor,
    Headers,
    PdnError,
    ResultT,
    set_variant_tags,
)
from draughts.pdn.infer import board_of_fen
from draughts.pdn.writer import StringExporter
from draughts.variant import Variant, find_variant

# -- The game tree -------------------------------------------------------------

_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d*)?)\]")


class Line(tuple[Move, ...]):
    """The moves of a line that follows a leaf of the tree, not made into
    nodes yet (see :attr:`GameNode.variations`): a class of its own, so
    that no tuple a program stores is taken for one."""

    __slots__ = ()


class GameNode:
    """A position in a game tree: the :class:`Game` itself or a
    :class:`ChildNode` reached by a move.

    ``variations`` lists the moves played from here, the main line first.

    >>> game = Game(variant="english")
    >>> node = game.add_variation(game.board().parse_pdn("11-15"))
    >>> node.add_variation(node.board().parse_pdn("23-19")).ply()
    2
    >>> game.variations[0] is node, node.is_mainline()
    (True, True)
    """

    __slots__ = (
        "_nags",
        "_unparsed",
        "_variations",
        "comment",
        "move",
        "parent",
        "starting_comment",
    )

    parent: GameNode | None
    move: Move | None
    # The children, or (a Line) the moves of a line that follows this node
    # and has not been made into nodes yet: the reader leaves a game's plain
    # moves so (see builders.GameBuilder), and the nodes are made when the
    # tree is first looked at. Reading the International corpus with its
    # trees took 60% longer with a node made for every move (9,100 against
    # 14,300 games/s), most of it the cyclic garbage collector's work.
    _variations: list[ChildNode] | Line

    def __init__(self) -> None:
        self._variations = []
        self.comment = ""
        """The comment after the move (for the game: before the first move)."""
        self.starting_comment = ""
        """A comment before the move, written where a variation starts."""
        # The set of nags is made on first use: most nodes never get one, and
        # an empty set for every move read cost 4% of reading a game.
        self._nags: set[int] | None = None
        self._unparsed: tuple[str, str] | None = None

    @property
    def variations(self) -> list[ChildNode]:
        """The moves played from here, as nodes: the main line first."""
        children = self._variations
        if type(children) is Line:
            return self._grow(children)
        return children  # type: ignore[return-value]

    @variations.setter
    def variations(self, children: list[ChildNode]) -> None:
        self._variations = children

    def _grow(self, moves: Line) -> list[ChildNode]:
        """The line of ``moves`` that follows this node made into nodes
        (see :attr:`_variations`); this node's children.

        The tree's own walks (:meth:`end`, :meth:`mainline`, the writer's)
        read the slot and call this for a :class:`Line`, rather than run
        the property for every node they pass. Reading the International
        corpus and walking each game's main line (callgrind, instructions a
        game): 920 thousand, against 916 thousand when a node was made for
        every move as it was read (and 968 thousand with the property run
        for every node, the nodes made by a Python loop); read without the
        walk, 549 against 822 thousand."""
        if grow_line is not None:  # in one native call, which no other thread interrupts
            return grow_line(self, moves)
        with _GROWING:  # a line made once, whichever thread asks first
            current = self._variations
            if current is not moves:  # made meanwhile
                return current  # type: ignore[return-value]
            children: list[ChildNode] = []
            node: GameNode = self
            for move in moves:
                child = ChildNode(node, move)
                (children if node is self else node._variations).append(child)  # type: ignore[union-attr]
                node = child
            self._variations = children  # the whole line at once, for other threads
        return children

    @property
    def nags(self) -> set[int]:
        """Numeric annotation glyphs: 1 ``!``, 2 ``?``, 3 ``!!``, 4 ``??``,
        5 ``!?``, 6 ``?!``, 7 forced move (PDN's ``*``)."""
        nags = self._nags
        if nags is None:
            nags = self._nags = set()
        return nags

    @nags.setter
    def nags(self, nags: set[int]) -> None:
        self._nags = nags

    # The text errors left out, as (before the move, after it), None on the
    # nodes that have none, which is nearly all of them.

    @property
    def unparsed(self) -> str:
        """Text read after this node's move, NAGs, comment and side lines
        that is not part of the game (see :attr:`PdnError.unparsed`); the
        exporters write it back there, so that reading their output finds
        the same errors. For the game itself: the text before the first move
        (all of the movetext when the tags give no board).

        >>> import io
        >>> from draughts.pdn import read_game
        >>> game = read_game(io.StringIO("1. 32-28 19-23 2. 28-22 23x32 *"))
        >>> game.end().unparsed
        '28-22 23x32'
        """
        kept = self._unparsed
        return "" if kept is None else kept[1]

    @unparsed.setter
    def unparsed(self, text: str) -> None:
        self._unparsed = (self.starting_unparsed, text)

    @property
    def starting_unparsed(self) -> str:
        """Like :attr:`unparsed`, for text read where a side line starts,
        before its first move (a ``$3`` there, say)."""
        kept = self._unparsed
        return "" if kept is None else kept[0]

    @starting_unparsed.setter
    def starting_unparsed(self, text: str) -> None:
        self._unparsed = (text, self.unparsed)

    def game(self) -> Game:
        """The root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    def _path(self) -> list[Move]:
        moves: list[Move] = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def board(self) -> Board:
        """A new board with the position at this node (the moves from the
        start on its move stack)."""
        board = self.game().board()
        for move in self._path():
            board.push(move)
        return board

    def ply(self) -> int:
        """How many moves lead here from the start of the game."""
        count = 0
        node: GameNode = self
        while node.parent is not None:
            count += 1
            node = node.parent
        return count

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node: GameNode = self
        while True:
            children = node._variations  # the slot read, not the property: see _grow
            if isinstance(children, Line):
                children = node._grow(children)
            if not children:
                return node
            node = children[0]

    def is_end(self) -> bool:
        """Whether no move follows."""
        return not self.variations

    def is_mainline(self) -> bool:
        """Whether this node is on the game's main line."""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Whether this node is the first choice of its parent."""
        return self.parent is None or self.parent.variations[0] is self

    def variation(self, key: int | Move) -> ChildNode:
        """The child by index or by move.

        :raises KeyError: if there is no such child.
        """
        if isinstance(key, int):
            try:
                return self.variations[key]
            except IndexError:
                raise KeyError(key) from None
        for child in self.variations:
            if child.move == key:
                return child
        raise KeyError(key)

    def has_variation(self, move: Move) -> bool:
        """Whether a child plays ``move``."""
        return any(child.move == move for child in self.variations)

    def add_variation(
        self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add a child that plays ``move`` (not checked for legality) and
        return it."""
        node = ChildNode(self, move)
        node.comment = comment
        node.starting_comment = starting_comment
        node.nags.update(nags)
        self.variations.append(node)
        return node

    def add_main_variation(
        self, move: Move, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add a child that plays ``move`` as the first choice."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def promote_to_main(self, move: Move) -> None:
        """Make the child playing ``move`` the first choice."""
        node = self.variation(move)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def remove_variation(self, move: Move) -> None:
        """Remove the child playing ``move`` and everything after it."""
        self.variations.remove(self.variation(move))

    def add_line(
        self, moves: Iterable[Move], *, comment: str = "", nags: Iterable[int] = ()
    ) -> GameNode:
        """Add a line of moves from here; the comment and NAGs go to its last
        node, which is returned."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move)
        node.comment = comment
        node.nags.update(nags)
        return node

    def mainline(self) -> Iterator[ChildNode]:
        """The nodes of the main line after this one."""
        node: GameNode = self
        while True:
            children = node._variations  # the slot read, not the property: see _grow
            if isinstance(children, Line):
                children = node._grow(children)
            if not children:
                return
            node = children[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line after this node."""
        # Read without making the nodes of a line not made yet (see _variations).
        moves: list[Move] = []
        children = self._variations
        while children:
            if isinstance(children, Line):
                moves += children
                break
            node = children[0]
            moves.append(node.move)
            children = node._variations
        return moves

    def clock(self) -> float | None:
        """The remaining clock time in seconds from a ``[%clk h:mm:ss]``
        command in the comment, or None.

        >>> node = Game()
        >>> node.comment = "[%clk 1:55:21]"
        >>> node.clock()
        6921.0
        """
        match = _CLOCK.search(self.comment)
        if match is None:
            return None
        return int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the tree from this node, as :func:`read_game` would read it
        (the text errors left out included, see :attr:`unparsed`), and return
        the visitor's result."""
        board = self.board()
        visitor.begin_game()
        visitor.visit_board(board)
        if self.comment:
            visitor.visit_comment(self.comment)
        _walk(self, board, visitor)
        visitor.visit_result(self.game().headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(headers=False))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and deep-copy) the whole tree as a flat list, one entry per
        node, so that games of any length pickle without recursion; a node
        inside a tree pickles as its root and its place there, and unpickles
        as that node of the rebuilt tree."""
        path: list[int] = []
        node: GameNode = self
        parent = _parent(node)
        while parent is not None:
            index = next((i for i, child in enumerate(parent.variations) if child is node), -1)
            if index < 0:
                break
            path.append(index)
            node, parent = parent, _parent(parent)
        if node is not self:
            path.reverse()
            return (_node_at, (node, tuple(path)))
        # A root, or a node its parent no longer lists (its parent kept as it is).
        layouts: dict[type[GameNode], tuple[str, ...]] = {}
        entries: list[tuple[int, type[GameNode], tuple[Any, ...], dict[str, Any] | None]] = []
        queue = [(-1, self)]
        for position, (up, current) in enumerate(queue):  # grows while it is walked
            cls = type(current)
            names = layouts.get(cls)
            if names is None:
                names = layouts[cls] = _state_slots(cls)
            values = tuple(getattr(current, name, _Unset) for name in names)
            entries.append((up, cls, values, getattr(current, "__dict__", None) or None))
            queue += [(position, child) for child in current.variations]
        return (_rebuild_tree, (layouts, entries, parent))

    def _repr_svg_(self) -> str:
        """The position at this node as an SVG picture for notebooks, with
        the move that led here marked (see :func:`draughts.svg.board`).

        >>> game = Game(variant="english")
        >>> node = game.add_variation(game.board().parse_pdn("11-15"))
        >>> "lastmove s15" in node._repr_svg_(), "lastmove" in game._repr_svg_()
        (True, False)
        """
        import draughts.svg  # only notebooks draw; reading games should not import it

        return draughts.svg.board(self.board(), lastmove=self.move)


class ChildNode(GameNode):
    """A node reached by a move.

    >>> game = Game(variant="english")
    >>> node = game.add_variation(game.board().parse_pdn("11-15"))
    >>> node.move, node.pdn()
    (Move(11, 15), '11-15')
    """

    __slots__ = ()

    parent: GameNode
    move: Move

    def __init__(self, parent: GameNode, move: Move) -> None:
        # Every slot set here rather than through GameNode.__init__: a node is
        # made for each move read, so the saved call counts.
        self.parent = parent
        self.move = move
        self._variations = []
        self.comment = ""
        self.starting_comment = ""
        self._nags = None
        self._unparsed = None

    def pdn(self) -> str:
        """The move in PDN notation, in the position where it is played."""
        return self.parent.board().pdn(self.move)

    def __repr__(self) -> str:
        return f"<ChildNode {self.move!s} at ply {self.ply()}>"


NODE_DEFAULTS: dict[str, object] = {
    "comment": "",
    "starting_comment": "",
    "_nags": None,
    "_unparsed": None,
}
"""The slots :meth:`ChildNode.__init__` sets but ``parent``, ``move`` and
``_variations``, with the values it gives them (what the native core's
:data:`add_child` sets)."""


_maker = (
    None
    if _native.NodeMaker is None
    else _native.NodeMaker(ChildNode, "parent", "move", "_variations", NODE_DEFAULTS)
)
add_child: Callable[[GameNode, Move], ChildNode] | None = _maker
"""``ChildNode(parent, move)``, appended to ``parent.variations``, made by
the PDN reader's native module (``draughts/pdn/_native/node_maker.c``), in two thirds of
the time: what :class:`~draughts.pdn.builders.GameBuilder` does for every
move read before a comment, a NAG or a side line, and :attr:`GameNode.variations`
for the others when the tree is first looked at. None on the pure core."""

grow_line: Callable[[GameNode, Line], list[ChildNode]] | None = (
    None if _maker is None else _maker.grow
)
"""``grow_line(node, line)``: where ``node``'s children are the :class:`Line`
``line``, its children made, one node a move each the child of the one
before, in one native call (see ``NodeMaker.grow`` in node_maker.c); the
children. How :attr:`GameNode.variations` makes a line the reader left as
moves. None on the pure core."""

_GROWING = threading.Lock()
"""Held while the pure core makes a line's nodes (see GameNode._grow)."""


class Game(GameNode):
    """A game: headers, the start position and the tree of moves.

    A new game gets the seven tags PDN 3.0 asks for, plus ``GameType`` (and
    ``Variant`` for variants that share a ``GameType``) when the variant is
    not international:

    >>> game = Game(variant="dama")
    >>> dict(game.headers)["GameType"], game.headers["Variant"]
    ('21', 'dama')
    >>> game.board().fen()
    'B:W21-32:B1-12'

    :attr:`errors` lists the problems found when the game was read.
    """

    __slots__ = ("_default_variant", "_variant", "errors", "headers", "warnings")

    def __init__(
        self,
        headers: Headers | Iterable[tuple[str, str]] | None = None,
        *,
        variant: Variant | str | int | None = None,
    ) -> None:
        super().__init__()
        self.parent = None
        self.move = None
        self._default_variant = None if variant is None else find_variant(variant)
        self._variant: Variant | None = None
        if headers is None:
            self.headers = Headers(
                [
                    ("Event", "?"),
                    ("Site", "?"),
                    ("Date", "????.??.??"),
                    ("Round", "?"),
                    ("White", "?"),
                    ("Black", "?"),
                    ("Result", "*"),
                ]
            )
            if self._default_variant is not None:
                set_variant_tags(self.headers, self._default_variant)
        else:
            self.headers = headers if isinstance(headers, Headers) else Headers(headers)
        self.errors: list[PdnError] = []
        """Problems found while reading the game."""
        self.warnings: list[PdnError] = []
        """Departures from PDN 3.0 the reader accepted (see
        :meth:`BaseVisitor.handle_warning`)."""

    @property
    def variant(self) -> Variant:
        """The variant of the game: the one it was read with, else the one
        the headers name (see :meth:`Headers.variant`), with the variant
        given to the constructor as the default."""
        if self._variant is not None:
            return self._variant
        return self.headers.variant(self._default_variant)

    @variant.setter
    def variant(self, variant: Variant) -> None:
        self._variant = variant

    def board(self) -> Board:
        """A new board with the start position (the ``FEN`` tag, else the
        variant's start; a man the FEN puts on its crowning row is a king,
        as the reader reads it).

        :raises ValueError: if the variant or the FEN is invalid.
        """
        fen = self.headers.get("FEN")
        if fen and fen.strip():
            return board_of_fen(fen, self.variant)[0]
        return Board(variant=self.variant)

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game with the moves played on ``board``, its start position
        (a ``FEN`` tag unless it is the variant's start) and, when the game is
        over, its result.

        >>> board = Board(variant="russian")
        >>> for text in ["c3-d4", "d6-c5", "b2-c3"]:
        ...     _ = board.push_pdn(text)
        >>> from draughts.pdn import StringExporter
        >>> print(Game.from_board(board).accept(StringExporter(headers=False)))
        1. c3-d4 d6-c5 2. b2-c3 *
        >>> board = Board("W:W28:B23", variant="international")
        >>> _ = board.push_pdn("28x19")
        >>> Game.from_board(board).headers["Result"]
        '2-0'
        """
        start = board.copy()
        while start.move_stack:
            start.pop()
        game = cls(variant=board.variant)
        game.variant = board.variant  # as a game read is: the headers may not say it all
        if start.fen() != board.variant.starting_fen:
            game.headers["FEN"] = start.fen()
        game.add_line(board.move_stack)
        outcome = board.outcome()
        if outcome is not None:
            game.headers["Result"] = outcome.result()
        return game

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the whole game, headers first, and return the visitor's result.

        The result token written is the ``Result`` tag (``*`` without one).
        A game whose tags give no board (an invalid ``FEN``, an unknown
        ``GameType``: :func:`read_game` reports it and keeps the movetext as
        :attr:`unparsed`) is walked without :meth:`~BaseVisitor.visit_board`:

        >>> import io
        >>> from draughts.pdn import read_game
        >>> game = read_game(io.StringIO('[GameType "20"] [FEN "W:W51:B1"] 1. 32-28 *'))
        >>> print(game)
        [GameType "20"]
        [FEN "W:W51:B1"]
        [Result "*"]
        <BLANKLINE>
        1. 32-28
        *

        :raises ValueError: when such a game has moves (added after reading).
        """
        visitor.begin_game()
        visitor.begin_headers()
        for name, value in self.headers.items():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            try:
                board: Board | None = self.board()
            except ValueError as error:
                if self.variations:
                    raise ValueError(
                        f"the moves of a game cannot be written without its start: {error}"
                    ) from None
                board = None
            if board is not None:
                visitor.visit_board(board)
            if self.comment:
                visitor.visit_comment(self.comment)
            if board is not None:
                _walk(self, board, visitor)
            elif self.unparsed:
                visitor.visit_unparsed(self.unparsed)
        visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter())

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        try:
            variant = self.variant.name
        except ValueError:  # tags the library does not know
            variant = "unknown variant"
        return (
            f"<Game {white!r} vs. {black!r} ({variant}, "
            f"{len(self.mainline_moves())} moves, {len(self.errors)} errors)>"
        )


# -- Pickling ------------------------------------------------------------------


class _Unset:
    """Marks a slot that was never set, in a pickled node."""


def _parent(node: GameNode) -> GameNode | None:
    return getattr(node, "parent", None)


def _state_slots(cls: type[GameNode]) -> tuple[str, ...]:
    """The slots a pickled node of ``cls`` keeps: all but the links of the
    tree, which the flat list gives."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{klass.__name__.lstrip('_')}{name}"
            if name not in ("parent", "_variations", "__dict__", "__weakref__"):
                names.append(name)
    return tuple(names)


def _rebuild_tree(
    layouts: dict[type[GameNode], tuple[str, ...]],
    entries: list[tuple[int, type[GameNode], tuple[Any, ...], dict[str, Any] | None]],
    parent: GameNode | None,
) -> GameNode:
    """The tree :meth:`GameNode.__reduce__` flattened."""
    nodes: list[GameNode] = []
    for up, cls, values, extra in entries:
        node = cls.__new__(cls)
        for name, value in zip(layouts[cls], values, strict=True):
            if value is not _Unset:
                setattr(node, name, value)
        node.variations = []
        if up < 0:
            node.parent = parent
        else:
            node.parent = nodes[up]
            nodes[up].variations.append(node)  # type: ignore[arg-type]
        if extra:
            node.__dict__.update(extra)
        nodes.append(node)
    return nodes[0]


def _node_at(root: GameNode, path: tuple[int, ...]) -> GameNode:
    """The node reached from ``root`` by the variation indices of ``path``."""
    node = root
    for index in path:
        node = node.variations[index]
    return node


def _walk(start: GameNode, board: Board, visitor: BaseVisitor[ResultT]) -> None:
    """Visit the moves after ``start`` (``board`` at its position), main
    line first and each side line as a variation, without recursion: a tree
    of any depth is walked on an explicit task stack."""
    # A task is (kind, node): "line" visits what follows node; "alt" opens a
    # variation at node; "push"/"pop" keep the board in step; "end" closes.
    tasks: list[tuple[str, GameNode]] = [("line", start)]
    while tasks:
        kind, node = tasks.pop()
        if kind == "line":
            kept = node._unparsed  # what unparsed reads, without the call
            if kept is not None and kept[1]:  # after the node's side lines, as it was read
                visitor.visit_unparsed(kept[1])
            children = node._variations  # the slot read, not the property: see _grow
            if isinstance(children, Line):
                children = node._grow(children)
            if not children:
                continue
            main = children[0]
            _visit_node(main, board, visitor)
            tasks += [("pop", main), ("line", main), ("push", main)]
            for alt in reversed(children[1:]):
                tasks += [("end", alt), ("pop", alt), ("line", alt), ("push", alt), ("alt", alt)]
        elif kind == "push":
            assert node.move is not None
            board.push(node.move)
        elif kind == "pop":
            board.pop()
        elif kind == "alt":
            if visitor.begin_variation() is SKIP:
                del tasks[-4:]  # its push, line, pop and end
            else:
                assert isinstance(node, ChildNode)
                _visit_node(node, board, visitor)
        else:
            visitor.end_variation()


def _visit_node(node: ChildNode, board: Board, visitor: BaseVisitor[ResultT]) -> None:
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    kept = node._unparsed
    if kept is not None and kept[0]:
        visitor.visit_unparsed(kept[0])
    visitor.visit_move(board, node.move)
    if node._nags:
        for nag in sorted(node._nags):
            visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)
