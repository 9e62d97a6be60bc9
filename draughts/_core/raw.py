"""The raw move: what the generator makes, with internal indices.

A :class:`RawMove` names the squares by their index in the padded grid of
:mod:`draughts._core.geometry`, not by square number, so the generator and
the search never convert. :func:`apply` plays one on the four bitboards and
a :class:`MoveMaker` is where Python code turns raw moves into
:class:`draughts.Move` objects. (The native core's ``board_moves`` and
``moves_between`` hand out ``Move`` objects straight from C: the steps a
variant's :class:`MoveMaker` built, and captures from a cache of its own.)
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, NamedTuple

from draughts.move import Move

if TYPE_CHECKING:
    from draughts._core.geometry import Geometry


class RawMove(NamedTuple):
    """A move as the generator makes it (internal indices throughout)."""

    origin: int
    destination: int
    captured_mask: int
    """The bits of every captured piece."""
    captured: tuple[int, ...]
    """The captured squares in capture order (empty for a step)."""
    path: tuple[int, ...]
    """The origin, every landing square and the destination (empty for a step)."""
    crowned: bool
    """Whether the piece ends the move as a new king."""


NO_MOVE = RawMove(-1, -1, 0, (), (), False)
"""Stands where a table has no move (never played)."""

Bitboards = tuple[int, int, int, int]
"""White men, black men, white kings, black kings."""


def apply(move: RawMove, color: int, m0: int, m1: int, k0: int, k1: int) -> Bitboards:
    """The bitboards ``(m0, m1, k0, k1)`` after ``color`` plays ``move``.

    >>> apply(RawMove(1, 5, 0, (), (), False), 0, 0b10, 0, 0, 0)
    (32, 0, 0, 0)
    """
    origin, to, captured, _caps, _path, crowned = move
    a, b = 1 << origin, 1 << to
    if color == 0:
        if m0 & a:
            m0, k0 = (m0 ^ a, k0 | b) if crowned else ((m0 ^ a) | b, k0)
        else:
            k0 = (k0 & ~a) | b
        return m0, m1 & ~captured, k0, k1 & ~captured
    if m1 & a:
        m1, k1 = (m1 ^ a, k1 | b) if crowned else ((m1 ^ a) | b, k1)
    else:
        k1 = (k1 & ~a) | b
    return m0 & ~captured, m1, k0 & ~captured, k1


CAPTURES_KEPT = 20_000
"""How many capture moves a :class:`MoveMaker` keeps before forgetting them all."""

_SQUARE_ORDER = operator.attrgetter("from_square", "to_square")


def _step(origin: int, destination: int) -> Move:
    """The step between two square numbers, made once in a process: a move
    is the same value on every board that numbers its squares alike, and
    the variants the inference tries on a file (each 8x8 one, for an
    English archive) would otherwise build the same few hundred apiece."""
    move = _STEPS.get((origin, destination))
    if move is None:
        move = _STEPS[origin, destination] = Move(origin, destination, (), (origin, destination))
    return move


_STEPS: dict[tuple[int, int], Move] = {}


class MoveMaker:
    """Turns one variant's raw moves into :class:`Move` objects.

    A move is an immutable value, so each is built once and then looked up:
    building one costs about ten times as much as finding it. Steps are all
    made up front (a board has only so many); captures are kept as they come,
    and forgotten all at once when :data:`CAPTURES_KEPT` is reached, which only
    long runs over many king positions reach.
    """

    def __init__(self, geometry: Geometry, step_pairs: set[tuple[int, int]]) -> None:
        number = geometry.square_of_index
        self._number = number
        self.steps: dict[int, Move] = {
            origin << 16 | to: _step(number[origin], number[to]) for origin, to in step_pairs
        }
        """Every step, by ``origin << 16 | destination`` (internal indices)."""
        self.captures: dict[tuple[tuple[int, ...], tuple[int, ...]], Move] = {}
        """Captures already made, by (captured, path) indices."""

    def move(self, raw: RawMove) -> Move:
        """The :class:`Move` of any raw move."""
        if raw.captured:
            return self.captures_in_order([raw])[0]
        return self.steps[raw.origin << 16 | raw.destination]

    def captures_in_order(self, routes: list[RawMove]) -> list[Move]:
        """The moves of raw capture routes in square order (origin, then
        destination; routes between the same two squares keep their order)."""
        cache, number = self.captures, self._number
        moves = []
        for route in routes:
            key = (route.captured, route.path)
            move = cache.get(key)
            if move is None:
                move = Move(
                    number[route.origin],
                    number[route.destination],
                    tuple([number[i] for i in route.captured]),
                    tuple([number[i] for i in route.path]),
                )
                if len(cache) >= CAPTURES_KEPT:
                    cache.clear()
                cache[key] = move
            moves.append(move)
        if len(moves) > 1:
            moves.sort(key=_SQUARE_ORDER)
        return moves
