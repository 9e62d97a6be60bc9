"""PDN game records: read them, walk them, edit them and write them back.

Shaped like python-chess's ``chess.pgn``: :func:`read_game` reads the next game
of an open file into a :class:`Game` tree, checking every move against the
rules; ``str(game)`` writes it as PDN 3.0.

>>> import io, draughts.pdn
>>> text = '[GameType "21"]\\n1. 11-15 23-19 2. 8-11 {book} (2. 9-14 $1) 22-17 *'
>>> game = draughts.pdn.read_game(io.StringIO(text))
>>> game.headers.variant().name
'english'
>>> [str(move) for move in game.mainline_moves()]
['11-15', '23-19', '8-11', '22-17']
>>> game.errors
[]
>>> print(game)
[GameType "21"]
[Result "*"]
<BLANKLINE>
1. 11-15 23-19 2. 8-11 {book} (2. 9-14!) 2... 22-17 *

Reading never raises on bad content: an illegal move, an unknown variant or a
syntax error becomes a :class:`PdnError` in :attr:`Game.errors`, with its line
and column, and the rest of the game is kept as text in the error.
"""

from __future__ import annotations

import contextlib
import enum
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from typing import IO, Any, Generic, TypeVar, overload

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.variant import INTERNATIONAL, VARIANTS, Variant, find_variant

__all__ = [
    "SKIP",
    "BaseVisitor",
    "ChildNode",
    "FileExporter",
    "Game",
    "GameBuilder",
    "GameNode",
    "Headers",
    "HeadersBuilder",
    "PdnError",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "check_strict",
    "normal_result",
    "open_pdn",
    "read_game",
    "read_headers",
    "set_variant_tags",
    "skip_game",
    "variant_of_tags",
]

ResultT = TypeVar("ResultT")


class SkipType(enum.Enum):
    """The type of :data:`SKIP`.

    >>> SKIP is SkipType.SKIP
    True
    """

    SKIP = "skip"


SKIP = SkipType.SKIP
"""Returned by :meth:`BaseVisitor.end_headers` or
:meth:`BaseVisitor.begin_variation` to skip the moves or the variation."""


@attrs.frozen
class PdnError:
    """A problem found while reading a game: where, what and in which position.

    ``kind`` is one of ``"syntax"`` (text that is not PDN), ``"illegal"`` (a
    move no legal move matches), ``"ambiguous"`` (a move several legal moves
    match), ``"variant"`` (a ``GameType`` or ``Variant`` the library does not
    know), ``"fen"`` (a start position that cannot be set up) and ``"pdn3"``
    (a violation of the PDN 3.0 grammar found by :func:`check_strict`); the
    warnings in :attr:`Game.warnings` have kind ``"notation"``.

    >>> error = PdnError(3, 14, "illegal move '32-27' in W:W31-50:B1-20", "illegal")
    >>> str(error)
    "3:14: illegal move '32-27' in W:W31-50:B1-20"
    """

    line: int
    """The line, from 1."""
    column: int
    """The column, from 1."""
    message: str
    kind: str
    fen: str | None = None
    """The position the error was found in, for move errors."""
    unparsed: str = ""
    """The moves after a rejected move, kept as read (rest of the game or of
    the variation)."""

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


_TAG_NAME = re.compile(r"[A-Za-z0-9_]+\Z")


class Headers(MutableMapping[str, str]):
    """The tag pairs of a game, in the order they were added.

    >>> headers = Headers(Event="Final", GameType="25")
    >>> headers["Site"] = "Moscow"
    >>> list(headers), headers.variant().name
    (['Event', 'GameType', 'Site'], 'russian')

    :raises ValueError: when a tag name is not letters, digits and ``_``.
    """

    def __init__(self, data: Iterable[tuple[str, str]] | None = None, **tags: str) -> None:
        self._tags: dict[str, str] = {}
        for name, value in (*(data or ()), *tags.items()):
            self[name] = value

    def __getitem__(self, name: str) -> str:
        return self._tags[name]

    def __setitem__(self, name: str, value: str) -> None:
        if not _TAG_NAME.match(name):
            raise ValueError(f"invalid PDN tag name: {name!r}")
        self._tags[name] = str(value)

    def __delitem__(self, name: str) -> None:
        del self._tags[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        """A copy of the headers."""
        return Headers(self._tags.items())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in self._tags.items())
        return f"Headers({inner})"

    def variant(self, default: Variant | str | int | None = None) -> Variant:
        """The variant these headers describe.

        The ``GameType`` tag decides (a number or the full form with board
        geometry); a ``Variant`` tag then picks among variants that share a
        ``GameType`` (``dama`` is GameType 21 with ``[Variant "dama"]``), or
        names the variant when there is no ``GameType``. Without either tag
        the result is ``default``, and international draughts without one.

        >>> Headers(GameType="21", Variant="dama").variant().name
        'dama'
        >>> Headers(Variant="American/English").variant().name
        'english'
        >>> Headers().variant("russian").name
        'russian'

        :raises ValueError: for a ``GameType`` or ``Variant`` the library does
            not know.
        """
        return variant_of_tags(self.get("GameType"), self.get("Variant"), default)


def variant_of_tags(gametype: str | None, variant_tag: str | None,
                    default: Variant | str | int | None) -> Variant:
    """The variant of a ``GameType`` and a ``Variant`` tag value (see
    :meth:`Headers.variant`).

    >>> variant_of_tags("21", "dama", None).name, variant_of_tags(None, None, "pool").name
    ('dama', 'pool')
    """
    if gametype is not None and gametype.strip():
        text = gametype.strip()
        try:
            base = find_variant(int(text)) if text.isdigit() else find_variant(text)
        except ValueError:
            raise ValueError(f"unknown GameType {gametype!r}") from None
        if variant_tag:
            tag = _fold(variant_tag)
            for candidate in VARIANTS:
                if candidate.gametype == base.gametype and candidate.variant_tag == tag:
                    return candidate
        return base
    if variant_tag is not None and variant_tag.strip():
        for name in (variant_tag, *re.split(r"[/,]", variant_tag)):
            try:
                return find_variant(name)
            except ValueError:
                continue
        raise ValueError(f"unknown Variant {variant_tag!r}")
    return INTERNATIONAL if default is None else find_variant(default)


def _fold(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


# -- The game tree -------------------------------------------------------------

_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d*)?)\]")


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

    __slots__ = ("comment", "move", "nags", "parent", "starting_comment", "variations")

    parent: GameNode | None
    move: Move | None

    def __init__(self) -> None:
        self.variations: list[ChildNode] = []
        self.comment = ""
        """The comment after the move (for the game: before the first move)."""
        self.starting_comment = ""
        """A comment before the move, written where a variation starts."""
        self.nags: set[int] = set()
        """Numeric annotation glyphs: 1 ``!``, 2 ``?``, 3 ``!!``, 4 ``??``,
        5 ``!?``, 6 ``?!``, 7 forced move (PDN's ``*``)."""

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
        while node.variations:
            node = node.variations[0]
        return node

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

    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> ChildNode:
        """Add a child that plays ``move`` (not checked for legality) and
        return it."""
        node = ChildNode(self, move)
        node.comment = comment
        node.starting_comment = starting_comment
        node.nags.update(nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "",
                           nags: Iterable[int] = ()) -> ChildNode:
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

    def add_line(self, moves: Iterable[Move], *, comment: str = "",
                 nags: Iterable[int] = ()) -> GameNode:
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
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line after this node."""
        return [node.move for node in self.mainline()]

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
        """Walk the tree from this node, as :func:`read_game` would read it,
        and return the visitor's result."""
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
        super().__init__()
        self.parent = parent
        self.move = move

    def pdn(self) -> str:
        """The move in PDN notation, in the position where it is played."""
        return self.parent.board().pdn(self.move)

    def __repr__(self) -> str:
        return f"<ChildNode {self.move!s} at ply {self.ply()}>"


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

    def __init__(self, headers: Headers | Iterable[tuple[str, str]] | None = None, *,
                 variant: Variant | str | int | None = None) -> None:
        super().__init__()
        self.parent = None
        self.move = None
        self._default_variant = None if variant is None else find_variant(variant)
        self._variant: Variant | None = None
        if headers is None:
            self.headers = Headers([
                ("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                ("White", "?"), ("Black", "?"), ("Result", "*"),
            ])
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
        variant's start).

        :raises ValueError: if the variant or the FEN is invalid.
        """
        fen = self.headers.get("FEN")
        return Board(fen if fen and fen.strip() else None, variant=self.variant)

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game with the moves played on ``board``.

        >>> board = Board(variant="russian")
        >>> for text in ["c3-d4", "d6-c5", "b2-c3"]:
        ...     _ = board.push_pdn(text)
        >>> print(Game.from_board(board).accept(StringExporter(headers=False)))
        1. c3-d4 d6-c5 2. b2-c3 *
        """
        start = board.copy()
        while start.move_stack:
            start.pop()
        game = cls(variant=board.variant)
        if start.fen() != board.variant.starting_fen:
            game.headers["FEN"] = start.fen()
        game.add_line(board.move_stack)
        return game

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the whole game, headers first, and return the visitor's result.

        The result token written is the ``Result`` tag (``*`` without one).
        """
        visitor.begin_game()
        visitor.begin_headers()
        for name, value in self.headers.items():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            board = self.board()
            visitor.visit_board(board)
            if self.comment:
                visitor.visit_comment(self.comment)
            _walk(self, board, visitor)
        visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter())

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return (f"<Game {white!r} vs. {black!r} ({self.variant.name}, "
                f"{len(self.mainline_moves())} moves, {len(self.errors)} errors)>")


def set_variant_tags(headers: Headers, variant: Variant) -> None:
    """Write the ``GameType`` (and ``Variant``) tags that name ``variant``:
    the number for a preset, the full form for another numbering.

    >>> headers = Headers()
    >>> set_variant_tags(headers, find_variant("dama"))
    >>> headers
    Headers(GameType='21', Variant='dama')
    """
    preset = next((v for v in VARIANTS if v.gametype == variant.gametype
                   and v.variant_tag is None), None)
    if preset is None or preset.gametype_string != variant.gametype_string:
        headers["GameType"] = variant.gametype_string
    elif variant != INTERNATIONAL:
        headers["GameType"] = str(variant.gametype)
    if variant.variant_tag is not None:
        headers["Variant"] = variant.variant_tag


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
            if not node.variations:
                continue
            main = node.variations[0]
            _visit_node(main, board, visitor)
            tasks += [("pop", main), ("line", main), ("push", main)]
            for alt in reversed(node.variations[1:]):
                tasks += [("end", alt), ("pop", alt), ("line", alt), ("push", alt),
                          ("alt", alt)]
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
    visitor.visit_move(board, node.move)
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


# -- Visitors ------------------------------------------------------------------

class BaseVisitor(Generic[ResultT]):
    """Receives the parts of a game in reading order; subclass it and
    override what you need. :func:`read_game` and :meth:`Game.accept` drive it.

    ``visit_move`` gets the board *before* the move; the reader has already
    checked that the move is legal there.

    >>> import io
    >>> class CountMoves(BaseVisitor[int]):
    ...     def __init__(self) -> None:
    ...         self.count = 0
    ...     def visit_move(self, board, move) -> None:
    ...         self.count += 1
    ...     def result(self) -> int:
    ...         return self.count
    >>> read_game(io.StringIO("1. 32-28 19-23 (18-23) 2. 28x19 *"), Visitor=CountMoves)
    4
    """

    def begin_game(self) -> None:
        """A game starts."""

    def begin_headers(self) -> Headers | None:
        """The tags start."""
        return None

    def visit_header(self, name: str, value: str) -> None:
        """One tag pair."""

    def end_headers(self) -> SkipType | None:
        """The tags are over; return :data:`SKIP` to skip the moves."""
        return None

    def visit_board(self, board: Board) -> None:
        """The start position, after the headers (not called when the moves
        are skipped or the position cannot be set up)."""

    def visit_move(self, board: Board, move: Move) -> None:
        """A legal move, played from ``board`` (do not change the board)."""

    def visit_comment(self, comment: str) -> None:
        """A comment (whitespace inside it folded to single spaces)."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph, or a move strength as its NAG."""

    def begin_variation(self) -> SkipType | None:
        """A side line of the last move starts; return :data:`SKIP` to skip it
        (and then :meth:`end_variation` is not called for it)."""
        return None

    def end_variation(self) -> None:
        """The side line ends."""

    def visit_result(self, result: str) -> None:
        """The game terminator (a result or ``*``)."""

    def handle_error(self, error: PdnError) -> None:
        """A problem in the game; the default ignores it."""

    def handle_warning(self, warning: PdnError) -> None:
        """Something the liberal reader accepted that PDN 3.0 forbids (a
        capture written with ``-``: kind ``"notation"``); ignored by default."""

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> ResultT:
        """What the visitor made of the game."""
        raise NotImplementedError


class GameBuilder(BaseVisitor[Game]):
    """Builds a :class:`Game` tree; the default visitor of :func:`read_game`.

    >>> import io
    >>> game = read_game(io.StringIO("32-28 {good} 19-23 *"), Visitor=GameBuilder)
    >>> game.variations[0].comment
    'good'
    """

    def begin_game(self) -> None:
        self.game = Game(Headers())
        self._node: GameNode = self.game
        self._stack: list[GameNode] = []
        self._starting = False
        self._starting_comment = ""

    def visit_header(self, name: str, value: str) -> None:
        self.game.headers[name] = value

    def visit_board(self, board: Board) -> None:
        self.game.variant = board.variant

    def visit_move(self, board: Board, move: Move) -> None:
        self._node = self._node.add_variation(move)
        if self._starting:
            self._node.starting_comment = self._starting_comment
            self._starting = False
            self._starting_comment = ""

    def visit_comment(self, comment: str) -> None:
        if self._starting:
            self._starting_comment = _join(self._starting_comment, comment)
        else:
            self._node.comment = _join(self._node.comment, comment)

    def visit_nag(self, nag: int) -> None:
        self._node.nags.add(nag)

    def begin_variation(self) -> None:
        parent = self._node.parent
        assert parent is not None, "the reader opens variations only after a move"
        self._stack.append(self._node)
        self._node = parent
        self._starting = True

    def end_variation(self) -> None:
        self._node = self._stack.pop()
        self._starting = False
        self._starting_comment = ""

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def handle_error(self, error: PdnError) -> None:
        self.game.errors.append(error)

    def handle_warning(self, warning: PdnError) -> None:
        self.game.warnings.append(warning)

    def result(self) -> Game:
        return self.game


def _join(first: str, second: str) -> str:
    return f"{first} {second}" if first else second


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the headers and skips the moves (see :func:`read_headers`).

    >>> import io
    >>> read_game(io.StringIO('[Event "A"] 32-28 *'), Visitor=HeadersBuilder)
    Headers(Event='A')
    """

    def begin_headers(self) -> Headers:
        self.headers = Headers()
        return self.headers

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Skips a whole game (see :func:`skip_game`).

    >>> import io
    >>> read_game(io.StringIO("32-28 *"), Visitor=SkipVisitor)
    True
    """

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


# -- Writing -------------------------------------------------------------------

_WORD = re.compile(r"[^ \t\n\r\f\v]+")
_STRENGTH_OF_NAG = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
_WIN, _DRAW, _LOSS, _FORFEIT = "win", "draw", "loss", "forfeit"
_RESULT_MEANING = {
    "1-0": _WIN, "2-0": _WIN, "1:0": _WIN, "2:0": _WIN,
    "0-1": _LOSS, "0-2": _LOSS, "0:1": _LOSS, "0:2": _LOSS,
    "1/2-1/2": _DRAW, "1-1": _DRAW, "1/2:1/2": _DRAW, "1:1": _DRAW,
    "0-0": _FORFEIT, "0:0": _FORFEIT, "*": "*",
}
_RESULT_TEXT = {
    "default": {_WIN: "1-0", _DRAW: "1/2-1/2", _LOSS: "0-1", _FORFEIT: "0-0", "*": "*"},
    "international": {_WIN: "2-0", _DRAW: "1-1", _LOSS: "0-2", _FORFEIT: "0-0", "*": "*"},
}


def normal_result(result: str, variant: Variant) -> str | None:
    """``result`` in the variant's PDN 3.0 result style, None if it is not
    a result.

    >>> normal_result("1/2:1/2", find_variant("russian")), normal_result("1-0", INTERNATIONAL)
    ('1/2-1/2', '2-0')
    """
    meaning = _RESULT_MEANING.get(result.strip())
    return None if meaning is None else _RESULT_TEXT[variant.result_style][meaning]


class StringExporter(BaseVisitor[str]):
    """Writes a game as PDN 3.0 text, lines wrapped at ``columns``.

    Moves are written short unless ambiguous, in the variant's notation;
    move strengths ``!`` to ``?!`` follow the move, other NAGs are ``$n``;
    the ``Result`` tag and the terminator use the variant's result style.

    >>> game = Game(variant="russian")
    >>> node = game.add_variation(game.board().parse_pdn("c3-d4"), comment="main")
    >>> _ = game.add_variation(game.board().parse_pdn("a3-b4"), nags=[5])
    >>> print(game.accept(StringExporter(headers=False)))
    1. c3-d4 {main} (1. a3-b4!?) *
    """

    def __init__(self, *, headers: bool = True, comments: bool = True,
                 variations: bool = True, columns: int = 80) -> None:
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.columns = columns
        self._lines: list[str] = []
        self._reset()

    def _reset(self) -> None:
        self._line: list[str] = []
        self._width = 0
        self._prefix = ""
        self._number_due = True
        self._variant: Variant | None = None
        self._tags: dict[str, str] | None = {}

    def _flush(self) -> None:
        if self._line:
            self._emit(" ".join(self._line))
        self._line = []
        self._width = 0

    def _emit(self, line: str) -> None:
        self._lines.append(line)

    def _put(self, token: str) -> None:
        token = self._prefix + token
        self._prefix = ""
        if self._line and self._width + 1 + len(token) > self.columns:
            self._flush()
        self._width += len(token) + (1 if self._line else 0)
        self._line.append(token)

    def _append(self, suffix: str) -> None:
        """Glue ``suffix`` to the last token, moving that token to a new
        line if the line would get too long."""
        if not self._line:
            self._put(suffix)
            return
        last = self._line[-1] + suffix
        if self._width + len(suffix) > self.columns and len(self._line) > 1:
            self._line.pop()
            self._flush()
            self._line, self._width = [last], len(last)
        else:
            self._line[-1] = last
            self._width += len(suffix)

    def begin_game(self) -> None:
        self._reset()

    def visit_header(self, name: str, value: str) -> None:
        if self._tags is not None:
            self._tags[name] = value

    def visit_board(self, board: Board) -> None:
        self._variant = board.variant

    def _write_headers(self) -> None:
        """Write the tags, once, when the variant (for the result style) is known."""
        if self._tags is None:
            return
        tags, self._tags = self._tags, None
        if self._variant is None:
            with contextlib.suppress(ValueError):  # an unknown GameType: results kept as read
                self._variant = variant_of_tags(tags.get("GameType"), tags.get("Variant"), None)
        if not self.headers or not tags:
            return
        for name, value in tags.items():
            if name == "Result" and self._variant is not None:
                value = normal_result(value, self._variant) or value
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            self._emit(f'[{name} "{escaped}"]')
        if "Result" not in tags:
            self._emit('[Result "*"]')
        self._emit("")

    def visit_move(self, board: Board, move: Move) -> None:
        self._write_headers()
        ply = board.ply()
        first = board.turn == board.variant.first_color
        offset = (ply % 2) ^ (0 if first else 1)
        number = (ply + offset) // 2 + 1
        if first:
            self._put(f"{number}.")
        elif self._number_due:
            self._put(f"{number}...")
        self._put(board.pdn(move))
        self._number_due = False

    def visit_nag(self, nag: int) -> None:
        strength = _STRENGTH_OF_NAG.get(nag)
        if strength is not None and self._line and self._line[-1][-1] not in "!?":
            self._append(strength)
        else:
            self._put(f"${nag}")

    def visit_comment(self, comment: str) -> None:
        self._write_headers()
        if not self.comments:
            return
        # Word by word, so the comment wraps; the reader folds the line breaks
        # back into spaces. A "}" would end the comment early: it becomes "]".
        self._prefix += "{"
        for word in _WORD.finditer(comment.replace("}", "]")):
            self._put(word.group(0))
        if self._prefix:  # an empty comment
            self._put("}")
        else:
            self._append("}")
        self._number_due = True

    def begin_variation(self) -> SkipType | None:
        if not self.variations:
            return SKIP
        self._prefix += "("
        self._number_due = True
        return None

    def end_variation(self) -> None:
        self._append(")")
        self._number_due = True

    def visit_result(self, result: str) -> None:
        self._write_headers()
        if self._variant is not None:
            result = normal_result(result, self._variant) or "*"
        elif result not in _RESULT_MEANING:
            result = "*"
        self._put(result)

    def end_game(self) -> None:
        self._write_headers()
        self._flush()

    def result(self) -> str:
        text = "\n".join(self._lines)
        self._lines = []
        return text


class FileExporter(StringExporter):
    """Writes games to an open text file, each followed by a blank line;
    :meth:`result` is the number of characters written for the game.

    >>> out = io.StringIO()
    >>> Game(variant="english").accept(FileExporter(out)) == len(out.getvalue())
    True
    >>> out.getvalue().splitlines()[-3:]
    ['', '*', '']
    """

    def __init__(self, handle: IO[str], *, headers: bool = True, comments: bool = True,
                 variations: bool = True, columns: int = 80) -> None:
        super().__init__(headers=headers, comments=comments, variations=variations,
                         columns=columns)
        self.handle = handle
        self._written = 0

    def begin_game(self) -> None:
        super().begin_game()
        self._written = 0

    def _emit(self, line: str) -> None:
        self._written += self.handle.write(line + "\n")

    def end_game(self) -> None:
        super().end_game()
        self._written += self.handle.write("\n")

    def result(self) -> int:  # type: ignore[override]
        return self._written


# -- Reading -------------------------------------------------------------------

@overload
def read_game(handle: IO[str], *, variant: Variant | str | int | None = None,
              Visitor: None = None) -> Game | None: ...


@overload
def read_game(handle: IO[str], *, variant: Variant | str | int | None = None,
              Visitor: Callable[[], BaseVisitor[ResultT]]) -> ResultT | None: ...


def read_game(handle: IO[str], *, variant: Variant | str | int | None = None,
              Visitor: Callable[[], BaseVisitor[Any]] | None = None) -> Any:
    """Read the next game from ``handle`` and return it (or what ``Visitor``
    makes of it); None at the end of the file.

    ``variant`` is the variant of games without a ``GameType`` or ``Variant``
    tag (international if not given). Bad content never raises: every
    problem is reported to the visitor (:attr:`Game.errors` for games), and
    the next call reads the next game. The file is read line by line, so
    memory does not grow with its size. Line numbers count from where reading
    of the handle started (they start again after the end of the file).

    >>> import io
    >>> pdn = io.StringIO("1. 32-28 19-23 2. 28x19 14x23 2-0\\n\\n1. 31-27 *")
    >>> read_game(pdn).mainline_moves()[-1]
    Move(14, 23, captures=(19,), path=(14, 23))
    >>> len(read_game(pdn).mainline_moves()), read_game(pdn)
    (1, None)
    """
    from draughts._pdn_reader import read

    visitor: BaseVisitor[Any] = GameBuilder() if Visitor is None else Visitor()
    return read(handle, visitor, variant)


def read_headers(handle: IO[str], *, variant: Variant | str | int | None = None
                 ) -> Headers | None:
    """The headers of the next game, skipping its moves; None at the end.

    >>> import io
    >>> pdn = io.StringIO('[Event "A"]\\n1. 32-28 *\\n[Event "B"]\\n1. 31-27 *')
    >>> [read_headers(pdn)["Event"], read_headers(pdn)["Event"], read_headers(pdn)]
    ['A', 'B', None]
    """
    from draughts._pdn_reader import read

    headers: Headers | None = read(handle, HeadersBuilder(), variant)
    return headers


def skip_game(handle: IO[str]) -> bool:
    """Skip the next game; False at the end of the file.

    >>> import io
    >>> pdn = io.StringIO("1. 32-28 * 1. 31-27 *")
    >>> skip_game(pdn), read_game(pdn).mainline_moves(), skip_game(pdn)
    (True, [Move(31, 27)], False)
    """
    from draughts._pdn_reader import read

    return read(handle, SkipVisitor(), None) is not None


def open_pdn(path: str | os.PathLike[str]) -> IO[str]:
    """Open a PDN file for reading, guessing its encoding: UTF-8 (with or
    without a byte order mark) when the start of the file decodes as UTF-8,
    else CP1252 (Latin-1 with the Windows punctuation).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pdn")
    >>> _ = open(path, "wb").write('[Site "Cannes é"]'.encode("latin-1"))
    >>> with open_pdn(path) as handle:
    ...     read_headers(handle)["Site"]
    'Cannes é'
    """
    from draughts._pdn_reader import guess_encoding

    with open(path, "rb") as raw:
        head = raw.read(1 << 16)
    return open(path, encoding=guess_encoding(head), errors="replace")


def check_strict(handle: IO[str] | str) -> list[PdnError]:
    """Check text against the PDN 3.0 reading grammar and return each
    violation (kind ``"pdn3"``) with its line and column.

    This checks the file's form only (tokens, tags, the game terminator
    between games, comment and variation nesting); :func:`read_game` checks
    the moves.

    >>> check_strict("1. 33-29 19-23 2. 35-30 { nested { comment } }")
    [PdnError(line=1, column=46, message="unexpected '}'", kind='pdn3', fen=None, unparsed='')]
    >>> check_strict('[Result "1-0"]\\n1. 32-28 1-0')
    []
    """
    from draughts._pdn_strict import check

    if isinstance(handle, str):
        handle = io.StringIO(handle)
    return check(handle)
