"""The visitors that build what :func:`~draughts.pdn.read_game` returns: a
:class:`~draughts.pdn.Game` tree, the headers alone, nothing."""

from __future__ import annotations

from collections.abc import Callable

from draughts.board import Board
from draughts.move import Move
from draughts.pdn import _native
from draughts.pdn._line_visitor import LineVisitor
from draughts.pdn.headers import SKIP, BaseVisitor, Headers, PdnError, SkipType
from draughts.pdn.resolver import Resolver
from draughts.pdn.tree import ChildNode, Game, GameNode, add_child
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
        # The native chain of nodes (see play_plain_lines).
        self._chain = None if _native.NodeChain is None else _native.NodeChain(add_child)

    def begin_game(self) -> None:
        self.game = Game(Headers())
        self.game._default_variant = self._default
        self._node: GameNode = self.game
        self._stack: list[GameNode] = []
        self._starting = False
        self._starting_comment = ""
        self._starting_unparsed = ""

    def visit_header(self, name: str, value: str) -> None:
        self.game.headers[name] = value

    def visit_board(self, board: Board) -> None:
        self.game.variant = board.variant
        self.game.headers.read_as = board.variant  # what the headers say when no tag does

    def _visit_move_python(self, board: Board, move: Move) -> None:
        node = ChildNode(self._node, move)
        self._node.variations.append(node)
        self._node = node
        if self._starting:
            self._start_line(node)

    def _visit_move_native(self, board: Board, move: Move) -> None:
        assert add_child is not None
        node = self._node = add_child(self._node, move)
        if self._starting:
            self._start_line(node)

    # The native core makes the node (see tree.add_child): about 0.07 us a move less.
    visit_move = _visit_move_python if add_child is None else _visit_move_native

    def play_plain_lines(
        self,
        resolver: Resolver,
        board: Board,
        text: str,
        end: int,
        readline: Callable[[], str],
    ) -> tuple[int, str, int, int]:
        """The moves of plain lines, played by ``resolver`` (see
        :meth:`Resolver.play_lines`) with this builder's visits. On the
        native core the nodes are made by a ``NodeChain`` that the native
        loop calls itself, so that a move costs no Python frame (with the
        frame of visit_move, a replay of the International corpus took 10%
        longer)."""
        chain = self._chain
        if (
            chain is None
            or self._starting  # the first move of a side line: see _start_line
            or type(self).visit_move is not GameBuilder._visit_move_native  # a subclass's own
        ):
            return resolver.play_lines(board, text, end, self.visit_move, readline)
        chain.node = self._node
        try:
            return resolver.play_lines(board, text, end, chain, readline)
        finally:
            self._node = chain.node
            chain.node = None

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
            self._node.unparsed = _lines(self._node.unparsed, text)

    def handle_warning(self, warning: PdnError) -> None:
        self.game.warnings.append(warning)

    def result(self) -> Game:
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
