"""The PDN reader's native hot spots: ``draughts.pdn._native._c``, a C11
module of its own (the files beside this one), so that the native core,
:mod:`draughts._core.native`, is the move generator and the board state only.

Each is the native twin of pure Python in :mod:`draughts.pdn`, which stays
the definition and is the oracle in the tests; the readers take the native
one where this module has it and their own everywhere else:

- :data:`plain_line_end` and :data:`tag_line` read the two commonest kinds of
  line (a plain line of move numbers and moves, a line of one tag pair) as
  the lexer's regular expressions do (:data:`draughts.pdn.lexer.PLAIN_LINE`,
  :data:`draughts.pdn.lexer.TOKEN`);
- :data:`play_line` plays the moves of a plain line on a board
  (:meth:`draughts.pdn.resolver.Resolver._play_line_python`), and
  :data:`play_lines` those of the plain lines that follow it
  (:meth:`draughts.pdn.resolver.Resolver._play_lines_python`);
- :data:`NodeMaker` makes the game tree's nodes
  (:class:`draughts.pdn.tree.ChildNode`), one at a time or a line of them;
- :data:`split_games` finds where the games of PDN bytes start (the pure
  scanner of :mod:`draughts.pdn.offsets`), and :data:`count_controls`
  counts the control bytes that tell binary data from text
  (``draughts.pdn._text.refuse_binary``);
- :data:`check_each`, :data:`infer_each`, :data:`play_final` and
  :data:`record_tags` check a whole game in one call, building no game tree
  (``pdn_check.c``, reading the movetext with ``pdn_movetext.c`` and the
  tags with ``pdn_tags.c``): the fast paths of :mod:`draughts.pdn._fastcheck` and
  :mod:`draughts.pdn._fastgame`, whose callers read the game with the full
  reader wherever these answer "not known here".

The module reaches the board state and the move generator through the
native core's C API (a capsule, ``draughts/_core/native/core_api.h``), so it runs exactly when the
native core does: every name here is None when :data:`draughts._core.BACKEND`
is ``"pure"`` (the core not built, or ``DRAUGHTS_PURE=1``) or when the module
was not built. :class:`NativePdn` declares the functions with their
parameters; the tests hold the module to it.

>>> from draughts import _core
>>> (plain_line_end is None) == (_core.BACKEND == "pure")
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from draughts import _core

if TYPE_CHECKING:
    from draughts.board import Board
    from draughts.move import Move
    from draughts.pdn._native._c import NodeMaker as _NodeMaker


class NativePdn(Protocol):
    """What ``draughts.pdn._native._c`` offers, with each function's
    parameters (all by position only). ``NodeMaker``, its class, is
    declared in its stub file."""

    def plain_line_end(self, text: str, /) -> int:
        """Where the result of a plain PDN line starts (its length when it
        has none), or -1 when the line is not plain."""

    def tag_line(self, text: str, /) -> tuple[str, str, int] | None:
        """``(name, value, start)`` of a line of one tag pair, else None."""

    def play_line(
        self,
        board: Board,
        text: str,
        end: int,
        numbers: tuple[int | None, ...],
        visit: Callable[[Any, Move], object] | list[Move],
        /,
    ) -> tuple[int, int]:
        """The moves of a plain line played on ``board``, each given to
        ``visit`` (called, or appended to it when it is a list): how many,
        and where the first not played starts (``end`` if none)."""

    def play_lines(
        self,
        board: Board,
        text: str,
        end: int,
        numbers: tuple[int | None, ...],
        visit: Callable[[Any, Move], object] | list[Move],
        readline: Callable[[], str],
        /,
    ) -> tuple[int, str, int, int]:
        """:meth:`play_line`, then the plain lines ``readline()`` gives while
        each line before was played to its end (blank lines passed over):
        the moves played, the last line read, where reading goes on in it,
        and how many lines were read."""

    def split_games(
        self,
        data: bytes,
        pos: int,
        line: int,
        column: int,
        skip: int,
        final: bool,
        base: int,
        /,
    ) -> tuple[list[int], int, int]:
        """The game starts of PDN bytes."""

    def count_controls(self, data: bytes, /) -> int:
        """How many bytes of ``data`` are controls a text file has few of."""

    def check_each(
        self,
        setups: tuple[tuple[Any, list[int], list[int], int, bytes, bool], ...],
        text: str,
        start: int,
        limit: int,
        /,
    ) -> tuple[tuple[int, int, int, int, int], ...]:
        """A game's movetext played on bitboards from each setup."""

    def play_final(
        self,
        setup: tuple[Any, list[int], list[int], int, bytes, bool],
        text: str,
        start: int,
        names: tuple[str, ...] | None,
        separator: str,
        /,
    ) -> tuple[
        int,
        int,
        int,
        int,
        int,
        list[int] | None,
        list[int] | None,
        int,
        tuple[tuple[str, ...], tuple[int, ...]] | None,
    ]:
        """A game's movetext played on bitboards, with the position it ends in."""

    def record_tags(self, text: str, /) -> tuple[int, str | None, str | None, str | None] | None:
        """The plain tag pairs a game record starts with."""

    def infer_each(
        self, text: str, start: int, starters: dict[Any, Any], final: int, /
    ) -> tuple[int, int, int, int, int, int, Any, tuple[tuple[Any, ...], ...] | None] | None:
        """What a game's movetext shows of its board, and its candidates'
        replays; ``final`` 1 or 2, a replay that plays every move answered
        as :meth:`play_final` answers (2: with its line), so that a game's
        record needs no second replay."""


_loaded: Any = None
if _core.BACKEND == "native":
    try:
        from draughts.pdn._native import _c as _loaded
    except ImportError:  # not built, or built against another core
        _loaded = None

if TYPE_CHECKING:
    # mypy holds the module to the protocol (the tests hold its parameters
    # to it at run time: tests/pdn/test_pdn_native_module.py).
    from draughts.pdn._native import _c as _checked_module

    _checked: NativePdn = _checked_module

BUILT = _loaded is not None
"""Whether the PDN reader's native module runs (with the native core)."""
plain_line_end: Callable[[str], int] | None = _loaded and _loaded.plain_line_end
"""See :meth:`NativePdn.plain_line_end`; None where the module does not run."""
tag_line: Callable[[str], tuple[str, str, int] | None] | None = _loaded and _loaded.tag_line
"""See :meth:`NativePdn.tag_line`; None where the module does not run."""
play_line: Callable[..., tuple[int, int]] | None = _loaded and _loaded.play_line
"""See :meth:`NativePdn.play_line`; None where the module does not run."""
play_lines: Callable[..., tuple[int, str, int, int]] | None = _loaded and _loaded.play_lines
"""See :meth:`NativePdn.play_lines`; None where the module does not run."""
split_games: Callable[..., tuple[list[int], int, int]] | None = _loaded and _loaded.split_games
"""See :meth:`NativePdn.split_games`; None where the module does not run."""
count_controls: Callable[[bytes], int] | None = _loaded and _loaded.count_controls
"""See :meth:`NativePdn.count_controls`; None where the module does not run."""
check_each: Callable[..., tuple[tuple[int, int, int, int, int], ...]] | None = (
    _loaded and _loaded.check_each
)
"""See :meth:`NativePdn.check_each`; None where the module does not run."""
infer_each: Callable[[str, int, dict[Any, Any], int], tuple[Any, ...] | None] | None = (
    _loaded and _loaded.infer_each
)
"""See :meth:`NativePdn.infer_each`; None where the module does not run."""
play_final: Callable[..., tuple[Any, ...]] | None = _loaded and _loaded.play_final
"""See :meth:`NativePdn.play_final`; None where the module does not run."""
record_tags: Callable[[str], tuple[int, str | None, str | None, str | None] | None] | None = (
    _loaded and _loaded.record_tags
)
"""See :meth:`NativePdn.record_tags`; None where the module does not run."""
NodeMaker: type[_NodeMaker] | None = _loaded and _loaded.NodeMaker
"""The maker of game-tree nodes (see :data:`draughts.pdn.tree.add_child`);
None where the module does not run."""

__all__ = [
    "BUILT",
    "NativePdn",
    "NodeMaker",
    "check_each",
    "count_controls",
    "infer_each",
    "plain_line_end",
    "play_final",
    "play_line",
    "play_lines",
    "record_tags",
    "split_games",
    "tag_line",
]
