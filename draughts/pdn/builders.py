"""The visitors that build what :func:`~draughts.pdn.read_game` returns: a
:class:`~draughts.pdn.Game` tree, the headers alone, nothing."""

from __future__ import annotations

from collections.abc import Callable

from draughts.board import Board
from draughts.move import Move
from draughts.pdn._line_visitor import LineVisitor
from draughts.pdn.headers import SKIP, BaseVisitor, Headers, PdnError, SkipType
from draughts.pdn.resolver import Resolver
from draughts.pdn.tree import ChildNode, Game, GameNode, Line, add_child
from draughts.variant import Variant, find_variant


class GameBuilder(LineVisitor[Game]):
    """Builds a :class:`Game` tree; the default visitor of :func:`read_game`.

    >>> import io
    >>> from draughts.pdn import read_game
    >>> game = read_game(io.StringIO("32-28 {good} 19-23 *"), Visitor=GameBuilder)
    >>> game.variations[0].comment
    'good'
    """

    def __init__(self, variant: Variant | str | int | None = None) -> None:
        # The variant a game is read as when its tags give no board (and so
        # no visit_board tells it): the one read_game was given.
        try:
            self._default = None if variant is None else find_variant(variant)
        except ValueError:  # the reader reports it
            self._default = None

    def begin_game(self) -> None:
        self.game = Game(Headers())
        self.game._default_variant = self._default
        self._node: GameNode = self.game
        # The moves played after _node that are not nodes yet (see
        # play_plain_lines): _node is then a leaf, the start of their line.
        self._tail: list[Move] = []
        self._stack: list[GameNode] = []
        self._starting = False
        self._starting_comment = ""
        self._starting_unparsed = ""

    def visit_header(self, name: str, value: str) -> None:
        self.game.headers[name] = value

    def visit_board(self, board: Board) -> None:
        self.game.variant = board.variant
        self.game.headers.read_as = board.variant  # what the headers say when no tag does

    def _here(self) -> GameNode:
        """The node of the last move read: the moves kept in the tail made
        into nodes first."""
        if self._tail:
            self._leave_tail()
            self._node = self._node.end()
        return self._node

    def _leave_tail(self) -> None:
        """The moves kept in the tail left to the leaf they follow, made
        into nodes when the tree is first looked at (see GameNode.variations)."""
        if self._tail:
            self._node._variations = Line(self._tail)
            self._tail.clear()

    def visit_move(self, board: Board, move: Move) -> None:
        node = self._here()
        if add_child is None:
            child = ChildNode(node, move)
            node._variations.append(child)  # type: ignore[union-attr]
        else:
            child = add_child(node, move)
        self._node = child
        if self._starting:
            self._start_line(child)

    def play_plain_lines(
        self,
        resolver: Resolver,
        board: Board,
        text: str,
        end: int,
        readline: Callable[[], str],
    ) -> tuple[int, str, int, int]:
        """The moves of plain lines, played by ``resolver`` (see
        :meth:`Resolver.play_lines`), kept in a list rather than visited:
        they become the game's nodes only when a comment, a NAG or a side
        line needs one, or when the tree is looked at (see
        :attr:`GameNode.variations`), so that most of a game's moves cost
        no Python object but the move itself."""
        if self._starting or type(self).visit_move is not GameBuilder.visit_move:
            # The first move of a side line (see _start_line), or a subclass's visits.
            return resolver.play_lines(board, text, end, self.visit_move, readline)
        return resolver.play_lines(board, text, end, self._tail, readline)

    def _start_line(self, node: ChildNode) -> None:
        """The first move of a side line: what was read before it goes to it."""
        node.starting_comment = self._starting_comment
        if self._starting_unparsed:
            node.starting_unparsed = self._starting_unparsed
        self._starting = False
        self._starting_comment = ""
        self._starting_unparsed = ""

    def visit_comment(self, comment: str) -> None:
        if self._starting:
            self._starting_comment = _join(self._starting_comment, comment)
        else:
            node = self._here()
            node.comment = _join(node.comment, comment)

    def visit_nag(self, nag: int) -> None:
        self._here().nags.add(nag)

    def begin_variation(self) -> None:
        node = self._here()
        parent = node.parent
        assert parent is not None, "the reader opens variations only after a move"
        self._stack.append(node)
        self._node = parent
        self._starting = True

    def end_variation(self) -> None:
        self._leave_tail()
        main = self._stack.pop()
        if self._starting and self._starting_unparsed:
            # A side line with no move: kept whole, as text after the move it
            # is a side line of (where it reads back the same).
            comment = self._starting_comment.replace("}", "]")
            text = "(\n" + (f"{{{comment}}}\n" if comment else "") + self._starting_unparsed + "\n)"
            main.unparsed = _lines(main.unparsed, text)
        self._node = main
        self._starting = False
        self._starting_comment = ""
        self._starting_unparsed = ""

    def visit_result(self, result: str) -> None:
        # The terminator gives the Result tag a game has not; one it has is
        # kept as it was read, "*" included.
        if "Result" not in self.game.headers:
            self.game.headers["Result"] = result

    def handle_error(self, error: PdnError) -> None:
        self.game.errors.append(error)

    def visit_unparsed(self, text: str) -> None:
        if self._starting:
            self._starting_unparsed = _lines(self._starting_unparsed, text)
        else:
            node = self._here()
            node.unparsed = _lines(node.unparsed, text)

    def handle_warning(self, warning: PdnError) -> None:
        self.game.warnings.append(warning)

    def result(self) -> Game:
        self._leave_tail()
        return self.game


def _join(first: str, second: str) -> str:
    return f"{first} {second}" if first else second


def _lines(first: str, second: str) -> str:
    return f"{first}\n{second}" if first else second


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the headers and skips the moves (see :func:`read_headers`).

    >>> import io
    >>> from draughts.pdn import read_game
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
    >>> from draughts.pdn import read_game
    >>> read_game(io.StringIO("32-28 *"), Visitor=SkipVisitor)
    True
    """

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True
