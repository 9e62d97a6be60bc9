"""The evaluation's later features (free paths, wings, frozen men, kings
against kings, unsupported spearheads, golden men): what each counts on
hand-made positions, and the C evaluation held to the pure one with every
feature weighted."""

from __future__ import annotations

import random
from typing import Any

import pytest

import draughts
from draughts._context import context
from draughts._core import pure
from draughts.engine.evaluation import FEATURES, Evaluator, evaluator
from draughts.engine.search import raw_position


def _white(fen: str, variant: str = "international") -> dict[str, int]:
    board = draughts.Board(fen, variant=variant)
    t = context(board.variant).core
    _turn, m0, m1, k0, k1 = raw_position(board, t)
    return dict(zip(FEATURES, evaluator(t).features(0, m0, k0, m1 | k1, k1), strict=True))


def test_a_free_path_is_a_cone_free_for_two_rows() -> None:
    # The white man on 18 has the black man on 3 in its cone (12, 13, 7-9,
    # 1-4), three rows ahead, so it is no runaway; the next two rows (12,
    # 13, 7-9) are free, so its path is.
    free = _white("W:W18:B3")
    assert (free["runaway"], free["free_path"]) == (0, 1)
    # A black man two rows ahead closes the path; a black king anywhere too.
    assert _white("W:W18:B8")["free_path"] == 0
    assert _white("W:W18:B3,K50")["free_path"] == 0
    # Nothing in either cone: a runaway, counted once.
    alone = _white("W:W18:B45")
    assert (alone["runaway"], alone["free_path"]) == (1, 0)


def test_frozen_men_have_no_square_to_step_to() -> None:
    # White's 33 is blocked by 28 and 29; 38 can still step to 32.
    frozen = _white("W:W33,38:B28,29")
    assert frozen["frozen"] == 1
    # A man on the edge has one step only: 35 with 30 taken is frozen.
    assert _white("W:W35:B30")["frozen"] == 1
    assert _white("W:W35:B24")["frozen"] == 0


def test_wings_unsupported_golden_and_kings_facing_kings() -> None:
    # Columns 1-3 hold 36 and 46, columns 8-10 hold 45: a difference of 1,
    # counted against the side (as imbalance is).
    assert _white("W:W36,45,46:B5")["wings"] == -1
    # 18 in Black's half has nothing behind it on either diagonal (22, 23);
    # 27 is in White's own half. With 23 and 28 behind, each is held.
    assert _white("W:W18,27:B5")["unsupported"] == 1
    assert _white("W:W18,23,28:B5")["unsupported"] == 0
    # 47, 48 and 49 are the middle of White's back row; 46 and 50 are not.
    assert _white("W:W46,47,48,49,50:B5")["golden"] == 3
    # A white king counts against a black king only.
    assert _white("W:WK28:B5")["king_standoff"] == 0
    assert _white("W:WK28:BK5")["king_standoff"] == 1


def _placements(t: pure.Tables, count: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    squares = [i for i, number in enumerate(t.square_of_index) if number]
    rng = random.Random(seed)
    out = []
    for n in range(count):
        masks = [0, 0, 0, 0]
        # Kings are rarer, and every other position has none, so that men
        # meet men and paths are free or not.
        kinds = (0, 0, 0, 1, 1, 1, 2, 3) if n % 2 else (0, 1)
        for index in rng.sample(squares, rng.randrange(1, min(len(squares), 40))):
            masks[rng.choice(kinds)] |= 1 << index
        out.append((rng.randrange(2), masks[0], masks[1], masks[2], masks[3]))
    return out


@pytest.mark.parametrize("variant", ["international", "english", "canadian", "turkish"])
def test_the_c_evaluation_weighs_every_feature_as_the_pure_one(variant: str) -> None:
    native: Any = pytest.importorskip(
        "draughts._core.native", reason="the native core is not built"
    )
    c: Any = pytest.importorskip("draughts.engine._native._c", reason="the engine's C is not built")
    pt = pure.Tables(draughts.Board(variant=variant).variant)
    nt = native.Tables(pt.variant)
    rng = random.Random(5)
    weights = tuple(
        tuple([100, 250, *(rng.randrange(-60, 61) for _ in FEATURES[2:])]) for _phase in range(2)
    )
    oracle = Evaluator(pt, weights)  # type: ignore[arg-type]
    search = c.Search(nt, Evaluator(nt, weights).data(), None, {}, 1, False, [])  # type: ignore[arg-type]
    seen = {name: 0 for name in FEATURES}
    for pos in _placements(pt, 400, seed=6):
        _turn, m0, m1, k0, k1 = pos
        assert search.static(pos) == oracle.score(0, m0, m1, k0, k1), pos
        counts = oracle.features(0, m0, k0, m1 | k1, k1)
        for name, count in zip(FEATURES, counts, strict=True):
            seen[name] += count != 0
    # Every later feature was met on some of the positions (else the test proves little).
    later = FEATURES[FEATURES.index("free_path") :]
    assert all(seen[name] > 0 for name in later), seen
