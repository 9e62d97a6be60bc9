"""The pure-Python generator's own tables: prebuilt moves and caches, on top
of the :class:`~draughts._core.geometry.Geometry` of a variant.

Everything here exists for speed. Steps and single jumps are the same
immutable values every time, so they are made once, in tables indexed by
square; what a king sees from its square is remembered per arrangement of
its lines (:mod:`draughts._core.pure.king_views`); the capture search is
built once per colour (:mod:`draughts._core.pure.capture_search`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from draughts._core.geometry import Geometry
from draughts._core.raw import NO_MOVE, MoveMaker, RawMove

if TYPE_CHECKING:
    from draughts._core.pure.capture_search import CaptureSearch
    from draughts._core.pure.king_views import KingView
    from draughts.move import Move
    from draughts.variant import Variant


class Tables(Geometry):
    """A variant's geometry with the pure generator's prebuilt moves and caches."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.king_views: list[dict[int, KingView]] = [{} for _ in self.rays]
        """Per index, what a king there can do, by the occupied squares of
        its lines (see :mod:`draughts._core.pure.king_views`)."""
        self.capture_searchers: list[CaptureSearch | None] = [None] * 4
        """Per colour, then per colour keeping duplicate routes, the capture
        search built for these rules, made on first use."""

    def __reduce__(self) -> tuple[type[Tables], tuple[Variant]]:
        # The caches hold closures: rebuild them on the other side instead.
        return (Tables, (self.variant,))

    @functools.cached_property
    def step_objects(self) -> StepObjects:
        """Every step a man or king can make on this board, prebuilt."""
        return StepObjects(self)

    @functools.cached_property
    def moves(self) -> MoveMaker:
        """The :class:`~draughts.Move` objects of this board's raw moves.
        Made apart from :attr:`step_objects`: the native core needs the
        moves alone, and the pure generator's prebuilt steps took a sixth of
        the time of validating the OCA once (each 8x8 variant the inference
        tries builds its tables)."""
        return MoveMaker(self, _step_pairs(self, _man_steps(self)))

    @functools.cached_property
    def man_jumps(self) -> tuple[tuple[tuple[int, int, list[RawMove | None]], ...], ...]:
        """Per colour, ``(shift, direction, row)`` for each direction a man
        captures in: ``row[origin]`` is the raw move of a man's single jump
        from index ``origin`` along ``shift``, built once (None off the board)."""
        size = len(self.square_of_index)
        number = self.square_of_index

        def jump(origin: int, shift: int, crowning: int) -> RawMove | None:
            over, land = origin + shift, origin + 2 * shift
            if not (0 <= land < size and number[origin] and number[over] and number[land]):
                return None
            return RawMove(
                origin, land, 1 << over, (over,), (origin, land), bool((crowning >> land) & 1)
            )

        return tuple(
            tuple(
                (
                    self.shift[d],
                    d,
                    [
                        jump(origin, self.shift[d], self.promotion_mask[color])
                        for origin in range(size)
                    ],
                )
                for d in self.man_capture_dirs[color]
            )
            for color in (0, 1)
        )

    @functools.cached_property
    def man_onward(self) -> tuple[list[tuple[int, tuple[tuple[int, int], ...]]], ...]:
        """Per colour and square, what a man there needs to jump again:
        ``(near, pairs)``, where ``near`` holds the squares next to it in its
        capture directions and ``pairs`` each such square's bit with the bit
        of the square behind it."""

        def onward(color: int, square: int) -> tuple[int, tuple[tuple[int, int], ...]]:
            pairs = tuple(
                (1 << ray[0], 1 << ray[1])
                for d in self.man_capture_dirs[color]
                if len(ray := self.rays[square][d]) >= 2
            )
            return sum(over for over, _ in pairs), pairs

        return tuple(
            [onward(color, square) for square in range(len(self.rays))] for color in (0, 1)
        )


ManSteps = list[list[list[tuple[int, int] | None]]]


def _man_steps(t: Tables) -> ManSteps:
    """Per colour and step shift, a row where ``row[to]`` is the man's step
    ``(origin, to)`` that ends on index ``to``, None where there is none.
    A step that would wrap across the board's edge passes through a padding
    square, which has no number: those stay None and are never read, since
    the generator only looks up squares a step reaches."""
    number = t.square_of_index
    size = len(number)
    return [
        [
            [
                (to - shift, to)
                if 0 <= to - shift < size and number[to - shift] and number[to]
                else None
                for to in range(size)
            ]
            for shift in t.man_shifts[color]
        ]
        for color in (0, 1)
    ]


def _step_pairs(t: Tables, man_steps: ManSteps) -> set[tuple[int, int]]:
    """Every ``(origin, to)`` a man's or a king's step joins."""
    pairs = {pair for rows in man_steps for row in rows for pair in row if pair}
    pairs |= {(o, to) for o, rays in enumerate(t.rays) for ray in rays for to in ray}
    return pairs


class StepObjects:
    """Prebuilt step values. For the men, ``men_raw[colour]`` pairs each of
    the colour's step shifts with a row where ``row[to]`` is the step that
    ends on index ``to``; for the kings, ``kings_raw[origin][d][i]`` is the
    step to the i-th square of the ray. ``men_ranks`` and ``kings_ranks``
    hold each step's place in square order instead, and ``by_rank[rank]``
    its :class:`~draughts.Move`, so that a list of steps is put in square
    order by sorting small ints."""

    def __init__(self, t: Tables) -> None:
        number = t.square_of_index
        man_steps = _man_steps(t)
        pairs = _step_pairs(t, man_steps)
        self.moves = t.moves
        order = sorted(pairs, key=lambda pair: (number[pair[0]], number[pair[1]]))
        rank_of = {pair: rank for rank, pair in enumerate(order)}
        self.by_rank: list[Move] = [self.moves.steps[a << 16 | b] for a, b in order]

        def rank(pair: tuple[int, int] | None) -> int:
            return -1 if pair is None else rank_of[pair]

        def raw(pair: tuple[int, int] | None, crowning: int) -> RawMove:
            if pair is None:
                return NO_MOVE
            return RawMove(pair[0], pair[1], 0, (), (), bool((crowning >> pair[1]) & 1))

        self.men_raw = tuple(
            tuple(
                (shift, [raw(p, t.promotion_mask[c]) for p in row])
                for shift, row in zip(t.man_shifts[c], man_steps[c], strict=True)
            )
            for c in (0, 1)
        )
        self.men_ranks = tuple(
            tuple(
                (shift, [rank(p) for p in row])
                for shift, row in zip(t.man_shifts[c], man_steps[c], strict=True)
            )
            for c in (0, 1)
        )
        self.kings_raw: list[tuple[tuple[RawMove, ...], ...]] = [
            tuple(tuple(RawMove(o, to, 0, (), (), False) for to in ray) for ray in rays)
            for o, rays in enumerate(t.rays)
        ]
        self.kings_ranks = [
            tuple(tuple(rank_of[o, to] for to in ray) for ray in rays)
            for o, rays in enumerate(t.rays)
        ]
