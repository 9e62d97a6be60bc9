"""Positions and variants the machine-learning tests share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
from hypothesis import strategies as st

from draughts import VARIANTS, Board, Variant
from draughts import variant as V
from draughts._options import CaptureRule, Promotion, Removal


def random_positions(variant: Variant, games: int, seed: int, plies: int = 400) -> Iterator[Board]:
    """Every position of ``games`` random games (a copy of each, with its
    history), the start included, up to the end of each game."""
    rng = random.Random(seed)
    for _ in range(games):
        board = Board(variant=variant)
        for _ in range(plies):
            yield board.copy()
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))


@st.composite
def custom_variants(draw: st.DrawFn) -> Variant:
    """A playable variant made from a preset with other rule switches."""
    base = draw(st.sampled_from(VARIANTS))
    size = draw(st.sampled_from([(base.width, base.height), (6, 6), (8, 8), (10, 10), (12, 10)]))
    fields: dict[str, Any] = {
        "name": "custom",
        "width": size[0],
        "height": size[1],
        "men_rows": draw(st.integers(1, 3)),
        "start_fen": None,
        "flying_kings": draw(st.booleans()),
        "removal": draw(st.sampled_from(list(Removal))),
        "promotion": draw(st.sampled_from(list(Promotion))),
        "king_move_limit": draw(st.none() | st.integers(1, 3)),
        "men_capture_kings": draw(st.booleans()),
        "capture_precedence": tuple(
            draw(st.lists(st.sampled_from(list(CaptureRule)), unique=True, max_size=2))
        ),
    }
    try:
        return attrs.evolve(base, **fields)
    except ValueError:
        return attrs.evolve(V.RUSSIAN, name="custom-fallback", flying_kings=False)
