"""Move notation: writing PDN moves and reading them back.

Writing follows the PDN 3.0 writing rules 8 and 9: the short form (origin and
destination) unless another legal move shares both, and then the full route
through every square where the piece turned or landed behind a captured piece.
Reading is liberal: short, full-route and partial-route forms, ``-``, ``x``,
``X`` or ``:`` separators (or none: ``a3b4``, ``3228``), spaces around
separators, leading zeros, numeric or algebraic squares, and a trailing move
strength (``!``, ``?!``, ...). Square names run from file a to z (a board has
at most 26 files); on a board with an x-file (24 files or more) an ``x``
followed by a digit is a file letter unless it comes right after a digit, so
``w3-x4``, ``w3xx4`` and ``x4xw3`` read as squares of the x-file while
``28x17`` stays a capture from 28 to 17.

A written route that is the complete route of exactly one legal move names
that move, whatever else it could be the short or partial form of: with a
flying king, ``e3:g1`` is both the whole route of a single capture and the
short form of ``e3:c1:a3:c5:g1``, and it reads as the single capture. A move
keeps one route (:attr:`Move.path <draughts.Move.path>`), but the same pieces
taken in another order (a circuit run the other way round) are the same move,
and such a route is complete too. Any other text names the legal move whose
origin and destination it gives, with the squares between on its route in
order; when several moves fit, it is ambiguous. So a full route always reads
back as its move, and so does what :meth:`Board.pdn <draughts.Board.pdn>`
writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from draughts._core.geometry import Geometry
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from draughts.move import Move

_SEPARATOR = re.compile(r"\s*[-x:]\s*")
# On a board with an x-file (24 files or more) an ``x`` before a digit starts
# a square's name, unless it comes right after a digit: ``w3-x4``, ``x4xw3``
# and ``w3xx4`` (w3 takes to x4), but ``28x17`` is still 28 and 17.
_X_FILE_SEPARATOR = re.compile(r"\s*(?:[-:]|(?<=[0-9])x|x(?![0-9]))\s*")
_X_FILE = 23
"""The column of the x-file, counted from 0 (a is 0)."""
_SQUARE_TOKEN = re.compile(r"[a-z][0-9]{1,2}|[0-9]+")
_JOINED_ALPHA = re.compile(r"(?:[a-z][0-9]{1,2}){2,}")
_JOINED_NUMERIC = re.compile(r"[0-9]{4}")
_STRENGTH = re.compile(r"[!?*]+$|\([!?]+\)$")


def write_move(t: Geometry, move: Move, long: bool) -> str:
    """The move in the variant's notation; ``long`` gives the full route."""
    names = t.name_of_square
    if not move.captures:
        return f"{names[move.from_square]}-{names[move.to_square]}"
    squares = move.path if long else (move.from_square, move.to_square)
    return t.variant.capture_separator.join(names[s] for s in squares)


def squares_of_text(t: Geometry, text: str, fen: Callable[[], str]) -> list[int]:
    """The squares a move text names, in order (``fen()``, the position's
    FEN, is asked for only by an error message).

    :raises InvalidMoveError: if the text is not shaped like a move or names
        a square the board does not have.
    """
    body = _STRENGTH.sub("", text.strip()).strip().lower()
    separator = _X_FILE_SEPARATOR if t.width > _X_FILE else _SEPARATOR
    tokens = separator.split(body)
    if len(tokens) == 1:
        if _JOINED_ALPHA.fullmatch(body):  # "a3b4"
            tokens = _SQUARE_TOKEN.findall(body)
        elif _JOINED_NUMERIC.fullmatch(body):  # "3228": two squares, no separator
            tokens = [body[:2], body[2:]]
    if len(tokens) < 2 or not all(_SQUARE_TOKEN.fullmatch(token) for token in tokens):
        raise InvalidMoveError(f"not a move: {text!r} in {fen()}")
    squares = []
    for token in tokens:
        square = t.parse_square(token)
        if square is None:
            raise InvalidMoveError(
                f"no square {token!r} on the {t.variant.name} board: {text!r} in {fen()}"
            )
        squares.append(square)
    return squares


def _passed_squares(t: Geometry, move: Move) -> list[int]:
    """Every square the piece stood on or flew over, captured ones excluded."""
    index = t.index_of_square
    number = t.square_of_index
    captured = set(move.captures)
    out = [move.from_square]
    for a, b in zip(move.path, move.path[1:], strict=False):
        ia, ib = index[a], index[b]
        for ray in t.rays[ia]:
            if ib in ray:
                for sq in ray[: ray.index(ib) + 1]:
                    if number[sq] not in captured:
                        out.append(number[sq])
                break
        else:
            out.append(b)
    return out


def _is_subsequence(wanted: Sequence[int], route: Sequence[int]) -> bool:
    it = iter(route)
    return all(any(square == step for step in it) for square in wanted)


Routes = Callable[[], Iterable[tuple[tuple[int, ...], frozenset[int]]]]
"""Every route of every legal capture as (path, captured squares), also the
routes that take a legal move's pieces in another order."""


def match_move(
    t: Geometry,
    text: str,
    legal: Sequence[Move],
    fen: Callable[[], str],
    routes: Routes | None = None,
) -> Move:
    """The legal move that ``text`` names. ``fen()`` gives the position's FEN
    for an error message: made only then (made for every call, it took 7% of
    reading the OCA, whose multi-captures are written out in full).

    ``routes`` gives the capture routes the legal moves do not show: a
    :class:`Move` keeps one route, and the same pieces taken in another
    order (a circuit run the other way round) are the same move, so such a
    complete route names it too.

    :raises InvalidMoveError: for text that is not a move.
    :raises IllegalMoveError: if no legal move matches.
    :raises AmbiguousMoveError: if several do.
    """
    squares = squares_of_text(t, text, fen)
    origin, destination = squares[0], squares[-1]
    candidates = [m for m in legal if m.from_square == origin and m.to_square == destination]
    route = tuple(squares)
    if len(candidates) > 1 or len(squares) > 2:
        # A complete route names one move, also when it has only two squares:
        # ``e3:g1`` is the whole route of a single capture even when a longer
        # capture between the same squares exists (its short form). Two legal
        # moves never share a route: each leg of a route, a straight line
        # from one stop to the next, jumps the one piece between its ends,
        # so the route fixes the pieces taken.
        exact = [m for m in candidates if m.path == route]
        if len(exact) == 1:
            return exact[0]
    if len(squares) > 2 and candidates:
        # Otherwise the squares given must lie on the route in order (stops
        # first, then any square passed).
        middle = squares[1:-1]
        by_stops = [m for m in candidates if _is_subsequence(middle, m.path[1:-1])]
        if not by_stops:
            by_stops = [
                m for m in candidates if _is_subsequence(middle, _passed_squares(t, m)[1:-1])
            ]
        # Unless the text is another complete route of a legal move (its
        # pieces in another order). That costs a capture search, needed only
        # when the text could name several moves or no move at all.
        if routes is not None and (len(candidates) > 1 or not by_stops):
            taken = {captured for path, captured in routes() if path == route}
            reordered = [m for m in candidates if frozenset(m.captures) in taken]
            if len(reordered) == 1:
                return reordered[0]
        candidates = by_stops
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise IllegalMoveError(_illegal_message(t, text, legal, fen()))
    listed = ", ".join(write_move(t, m, True) for m in candidates)
    raise AmbiguousMoveError(
        f"ambiguous move {text!r} in {fen()}: it could be {listed}", tuple(candidates)
    )


def _illegal_message(t: Geometry, text: str, legal: Sequence[Move], fen: str) -> str:
    if not legal:
        return f"illegal move {text!r} in {fen}: the side to move has no legal move"
    shown = ", ".join(write_move(t, m, False) for m in legal[:8])
    more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
    if legal[0].captures:
        return f"illegal move {text!r} in {fen}: capture is mandatory: {shown}{more}"
    return f"illegal move {text!r} in {fen}; legal moves: {shown}{more}"
