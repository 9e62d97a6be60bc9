"""The built-in engine's evaluation, keys, draw rules and clock."""

from __future__ import annotations

import random

import pytest

import draughts
from draughts._context import context
from draughts._core import RawMove
from draughts.engine import Limit, builtin
from draughts.engine import native_search as _native_search
from draughts.engine import search as _search
from draughts.engine._table import Table
from draughts.engine.builtin import _budget, _reversible_keys
from draughts.engine.draw_table import DrawTable
from draughts.engine.evaluation import FEATURES, WEIGHTS, Evaluator, evaluator, overridden
from draughts.engine.search import raw_position

VARIANTS = ("international", "english", "russian", "brazilian", "frisian", "turkish", "italian")


def _random_boards(variant: str, count: int, seed: int) -> list[draughts.Board]:
    """Positions of random games (each a copy, with its history)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = draughts.Board(variant=variant)
        for _ in range(rng.randrange(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.legal_moves:
            boards.append(board)
    return boards


@pytest.mark.parametrize("variant", VARIANTS)
def test_child_keys_are_the_board_keys(variant: str) -> None:
    # The search updates the Zobrist key move by move; it must agree with
    # the key the board computes for the same position.
    for board in _random_boards(variant, 6, seed=1):
        t = context(board.variant).core
        searcher = _search.Searcher(t, context(board.variant).keys)
        pos = raw_position(board, t)
        key = searcher.key_of(pos)
        assert key == board.position_key
        for raw in _search.legal(t, pos):
            child = _search.play(pos, raw)
            assert searcher._child_key(key, pos, raw) == searcher.key_of(child)
        for move in board.legal_moves:
            after = board.copy()
            after.push(move)
            assert searcher.key_of(raw_position(after, t)) == after.position_key


def _rotated(board: draughts.Board) -> draughts.Board:
    """The same position seen from the other side: every piece on the square
    opposite through the centre, colours swapped, the other side to move."""
    last = board.variant.square_count + 1
    flipped = draughts.Board.empty(variant=board.variant)
    for square, piece in board.piece_map().items():
        flipped.set_piece_at(last - square, draughts.Piece(piece.kind, piece.color.opponent))
    flipped.turn = board.turn.opponent
    return flipped


@pytest.mark.parametrize("variant", ["international", "english", "russian"])
def test_the_evaluation_is_the_same_for_both_colours(variant: str) -> None:
    for board in _random_boards(variant, 20, seed=2):
        t = context(board.variant).core
        e = evaluator(t)
        score = e.score(*raw_position(board, t))
        assert score == e.score(*raw_position(_rotated(board), t)), board.fen()


def test_features_of_a_runaway_man_and_a_king() -> None:
    # International: the white man on 7 has nothing in front of it (black's
    # man is on 45, behind it) and crowns in two moves; the white king on 46
    # sees the whole long diagonal 46-5 (9 squares) and 41, 37, ... is
    # blocked by nothing either way it looks, so it has more moves than a
    # king in the corner of a full board.
    board = draughts.Board("W:W7,K46:B45", variant="international")
    t = context(board.variant).core
    e = evaluator(t)
    _turn, m0, m1, k0, k1 = raw_position(board, t)
    white = dict(zip(FEATURES, e.features(0, m0, k0, m1 | k1, k1), strict=True))
    assert white["runaway"] == 1 and white["man"] == 1 and white["king"] == 1
    assert white["king_mobility"] == 9
    # A black king anywhere can catch the man: it is no longer a runaway.
    caught = draughts.Board("W:W7,K46:B45,K50", variant="international")
    _turn, m0, m1, k0, k1 = raw_position(caught, t)
    assert dict(zip(FEATURES, e.features(0, m0, k0, m1 | k1, k1), strict=True))["runaway"] == 0


def test_features_of_a_man_one_step_from_crowning() -> None:
    # International: the white man on 7 has black men on 2 and 12 near it,
    # so it is no runaway, but square 1 in front of it is free: it crowns
    # next move unless taken (a breakthrough). With 1 and 2 both taken by
    # black men it cannot step, and counts as a plain man.
    t = context(draughts.variant.INTERNATIONAL).core
    e = evaluator(t)

    def white(fen: str) -> dict[str, int]:
        _turn, m0, m1, k0, k1 = raw_position(draughts.Board(fen), t)
        return dict(zip(FEATURES, e.features(0, m0, k0, m1 | k1, k1), strict=True))

    free = white("W:W7:B2,12")
    assert free["crowning"] == 1 and free["runaway"] == 0
    assert white("W:W7:B1,2,12")["crowning"] == 0
    # A runaway counts once, as a runaway; a man further back not at all.
    assert white("W:W7:B45") == {**white("W:W7:B45"), "runaway": 1, "crowning": 0}
    assert white("W:W17:B2,12")["crowning"] == 0


def test_the_side_to_move_features_count_the_movers_men_only() -> None:
    # International: White's man on 7 (black men on 2 and 12: no runaway)
    # can step to the free square 1; Black's man on 44 has nothing in front
    # of it and no white king on the board: a runaway.
    t = context(draughts.variant.INTERNATIONAL).core
    e = evaluator(t)
    _turn, m0, m1, k0, k1 = raw_position(draughts.Board("W:W7:B2,12,44"), t)

    def counts(color: int, to_move: bool) -> dict[str, int]:
        own, kings, opp, opp_kings = (m0, k0, m1 | k1, k1) if color == 0 else (m1, k1, m0 | k0, k0)
        return dict(
            zip(FEATURES, e.features(color, own, kings, opp, opp_kings, to_move), strict=True)
        )

    assert counts(0, True)["crowning"] == counts(0, True)["crown_next"] == 1
    assert counts(0, False)["crowning"] == 1 and counts(0, False)["crown_next"] == 0
    assert counts(1, True)["runaway"] == counts(1, True)["runaway_next"] == 1
    assert counts(1, False)["runaway"] == 1 and counts(1, False)["runaway_next"] == 0
    # Weighted, they make the score depend on who moves.
    weights = tuple([100, 300, *([0] * (len(FEATURES) - 5)), 70, 40, 0])
    weighted = Evaluator(t, (weights, weights))
    white_moves = weighted.score(0, m0, m1, k0, k1)  # White: a man and its crowning
    black_moves = weighted.score(1, m0, m1, k0, k1)  # Black: three men and its runaway
    assert (white_moves, black_moves) == (100 + 70 - 300, 300 + 40 - 100)


def test_two_step_next_counts_the_movers_men_two_steps_out_with_a_free_path() -> None:
    # International, White crowns on 1-5. The man on 12 is two steps out;
    # its steps are 7 (then 1 or 2) and 8 (then 2 or 3). Squares next to 7:
    # 1, 2, 11, 12; next to 8: 2, 3, 12, 13. A black man on 3 stands in
    # the man's cone (no runaway) and next to 8, but the path through 7 is
    # free: a black piece could take the man on neither 7 nor 1.
    t = context(draughts.variant.INTERNATIONAL).core
    e = evaluator(t)

    def white(fen: str, to_move: bool = True) -> dict[str, int]:
        _turn, m0, m1, k0, k1 = raw_position(draughts.Board(fen), t)
        return dict(zip(FEATURES, e.features(0, m0, k0, m1 | k1, k1, to_move), strict=True))

    free = white("W:W12:B3")
    assert free["two_step_next"] == 1 and free["runaway"] == free["crowning"] == 0
    # Only for the side to move; a black king anywhere could catch the man.
    assert white("W:W12:B3", to_move=False)["two_step_next"] == 0
    assert white("W:W12:B3,K50")["two_step_next"] == 0
    # A black man on 11 (next to 7) closes the path through 7 too; one on
    # 1 closes only that one, the path through 8 staying open.
    assert white("W:W12:B3,11")["two_step_next"] == 0
    assert white("W:W12:B1")["two_step_next"] == 1
    # Both step squares taken: no path. A man one step out is crowning's,
    # one three steps out nobody's.
    assert white("W:W12:B7,8")["two_step_next"] == 0
    assert white("W:W7:B2,12")["two_step_next"] == 0
    assert white("W:W17:B3")["two_step_next"] == 0


def test_weights_overridden_by_name_and_bad_overrides_refused() -> None:
    base = WEIGHTS["international"]
    opening, endgame = overridden(base, "crown_next=140/60, king=200/400")
    assert opening[FEATURES.index("crown_next")] == 140 and endgame[FEATURES.index("king")] == 400
    assert overridden(base, "") == base
    for bad in ("nonsense=1/2", "king=1", "king=a/b"):
        with pytest.raises(ValueError, match="DRAUGHTS_WEIGHTS"):
            overridden(base, bad)


def test_custom_weights_change_the_score() -> None:
    # Only material: the start position is 0, a man ahead is 100.
    t = context(draughts.variant.INTERNATIONAL).core
    only_material = (100, 300, *([0] * (len(FEATURES) - 2)))
    e = Evaluator(t, (only_material, only_material))
    board = draughts.Board("W:W31-50:B1-19", variant="international")
    assert e.score(*raw_position(board, t)) == 100


def test_a_repetition_inside_the_search_is_a_draw() -> None:
    # White's three kings against a black man win; but when the position
    # after White's king move already occurred four plies before (in the
    # game), reaching it again is scored as a draw.
    board = draughts.Board("W:WK46,K47,K48:B5", variant="international")
    t = context(board.variant).core
    keys = context(board.variant).keys
    pos = raw_position(board, t)
    searcher = _search.Searcher(t, keys)
    free = _search.Searcher(t, keys).iterate(pos, 3)[1]
    assert free > 200
    step = next(m for m in _search.legal(t, pos) if not m[2])
    child = _search.play(pos, step)
    child_key = searcher.key_of(child)
    searcher = _search.Searcher(t, keys, game_keys=[child_key, 1, 2, searcher.key_of(pos)])
    searcher.line += [0] * 20
    assert searcher.search(child, child_key, 3, -_search.WIN, _search.WIN, 1, 4) == 0


# A middle game with fewer men than four fifths of the start (30 here, so
# that ProbCut may cut).
_MIDDLE_GAME = (
    "W:W27,28,30,32,33,34,35,37,38,39,40,42,43,44,47:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,23"
)


def _middle_game_searches(
    monkeypatch: pytest.MonkeyPatch, settings: dict[str, int], depth: int
) -> dict[tuple[bool, int], tuple[int, tuple[int, int, list[RawMove]]]]:
    """The nodes and result of searching :data:`_MIDDLE_GAME` to ``depth``
    with reductions from ply 1 (full width 1) and with every ply full
    width (full width ``depth``), before and after ``settings`` are set
    in the search module: keyed by (settings set, full width)."""
    board = draughts.Board(_MIDDLE_GAME)
    t = context(board.variant).core
    keys = context(board.variant).keys
    pos = raw_position(board, t)
    counted = {}
    for changed in (False, True):
        if changed:
            for name, value in settings.items():
                monkeypatch.setattr(_search, name, value)
        for full_width in (1, depth):
            searcher = _native_search.searcher(t, keys)
            result = searcher.iterate(pos, depth, full_width=full_width)
            counted[changed, full_width] = (searcher.nodes, result)
    return counted


@pytest.mark.parametrize(("name", "depth"), [("PROBCUT", 7), ("LATE_DEEP", 9)])
def test_selectivity_only_past_the_full_width(
    name: str, depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Searched with reductions from ply 1, ProbCut and the deeper late move
    # reductions each save nodes against the search without them (the
    # latter only from 8 plies on in this position: at 7 its re-searches
    # cost more than it saves); with every ply full width (the medium
    # level) neither changes anything.
    without = _middle_game_searches(monkeypatch, {name: 0}, depth)
    assert without[False, 1][0] < without[True, 1][0]
    assert without[False, depth] == without[True, depth]


@pytest.mark.parametrize(
    "settings", [{"LATE_PV": 0}, {"LATE_DEPTH": 4}, {"LATE_SACRIFICE": 1}, {"LATE_ROOT": 0}]
)
def test_fewer_late_move_reductions_only_past_the_full_width(
    settings: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each setting reduces fewer moves than hard does (none in open windows,
    # none below depth 4, no sacrifice, none at the root): more nodes past
    # the full width, and the same tree where every ply is searched in full.
    counted = _middle_game_searches(monkeypatch, settings, 7)
    assert counted[True, 1][0] > counted[False, 1][0]
    assert counted[True, 7] == counted[False, 7]


def test_the_no_progress_rule_is_a_draw_inside_the_search() -> None:
    # International: 25 moves each (50 plies) of kings without a capture or
    # man move draw. At 50 reversible plies even three kings against one
    # king score 0; with a fresh count they score as winning material.
    board = draughts.Board("W:WK46,K47,K48:BK5", variant="international")
    t = context(board.variant).core
    keys = context(board.variant).keys
    pos = raw_position(board, t)
    searcher = _search.Searcher(t, keys)
    searcher.line += [0] * 20
    key = searcher.key_of(pos)
    assert searcher.search(pos, key, 2, -_search.WIN, _search.WIN, 1, 50) == 0
    assert searcher.search(pos, key, 2, -_search.WIN, _search.WIN, 1, 0) != 0


def test_a_deep_iteration_sizes_every_per_ply_table() -> None:
    # A search asked for 100 plies may reach ply 100 + 60 with forced moves:
    # the killers of every ply, like the line's keys, must be there. Here
    # the deepest plies are searched directly after a shallow iterate.
    board = draughts.Board("W:WK46,K47:BK5", variant="international")
    t = context(board.variant).core
    searcher = _search.Searcher(t, context(board.variant).keys, max_nodes=10_000)
    pos = raw_position(board, t)
    searcher.iterate(pos, 100, guard_depth=1)
    key = searcher.key_of(pos)
    deepest = 100 + _search._MAX_EXTENDED_PLY
    searcher.nodes, searcher.enforce = 0, False
    searcher.clear_table()  # so that the position is searched, not looked up
    # Before the killers were sized here, this raised IndexError.
    score = searcher.search(pos, key, 1, -_search.WIN - 1, _search.WIN + 1, deepest, 0)
    assert -_search.WIN <= score <= _search.WIN


def test_draw_tables_follow_the_variants_rules() -> None:
    international = DrawTable(draughts.variant.INTERNATIONAL)
    assert international.no_progress == 50
    # The 16-move rule (three kings against one) is drawish, not drawn.
    assert international.endings[(3, 0, 1, 0)] == international.endings[(1, 0, 3, 0)] > 0
    # Frisian: a king against a king is insufficient material.
    frisian = DrawTable(draughts.Board(variant="frisian").variant)
    assert frisian.endings[(1, 0, 1, 0)] == 0
    italian = DrawTable(draughts.Board(variant="italian").variant)
    assert italian.no_progress is None and not italian.endings


def test_the_engine_knows_the_games_repetitions() -> None:
    board = draughts.Board("W:WK46:BK3", variant="international")
    for text in ["46-41", "3-8", "41-46", "8-3"]:
        board.push_pdn(text)
    keys = _reversible_keys(board)
    assert len(keys) == 5 and keys[0] == keys[-1] == board.position_key
    board.push_pdn("46-41")
    assert len(_reversible_keys(board)) == 6
    man = draughts.Board("W:W31,K46:BK5", variant="international")
    man.push_pdn("31-27")
    assert _reversible_keys(man) == [man.position_key]


def test_the_clock_budget() -> None:
    assert _budget(Limit(time=2.0), 5) == 2.0
    assert _budget(Limit(remaining=50.0), 5) == pytest.approx(2.0)
    assert _budget(Limit(remaining=50.0, increment=1.0), 5) == pytest.approx(2.8)
    # Never more than a third of the clock, nor more than an explicit time.
    assert _budget(Limit(remaining=1.0, increment=5.0), 5) == pytest.approx(1 / 3)
    assert _budget(Limit(remaining=50.0, time=0.5), 5) == 0.5
    # A forced move is played at once.
    assert _budget(Limit(remaining=50.0), 1) == 0.0
    with pytest.raises(ValueError, match="Limit increment must be 0 or more, not -1"):
        Limit(remaining=5.0, increment=-1)
    with pytest.raises(ValueError, match="Limit remaining must be positive, not 0"):
        Limit(remaining=0)


def test_a_clock_limit_plays_a_legal_move() -> None:
    board = draughts.Board(variant="english")
    result = builtin("hard").play(board, Limit(remaining=30.0, increment=0.5))
    assert result.move in board.legal_moves
    assert result.analysis is not None and result.analysis.depth is not None
    assert result.analysis.depth >= 1


def test_under_a_clock_hard_keeps_no_minimum_depth() -> None:
    # A millisecond left: without a clock hard would still finish 6 plies
    # (seconds here); under one it answers from the first ply it completes.
    board = draughts.Board(variant="international")
    result = builtin("hard").play(board, Limit(remaining=0.001))
    assert result.move in board.legal_moves
    assert result.analysis is not None and result.analysis.depth is not None
    assert 1 <= result.analysis.depth < 6
    unclocked = builtin("hard").analyse(board, Limit(time=0.001))
    assert unclocked.depth is not None and unclocked.depth >= 6


def test_only_international_itself_takes_its_fitted_weights() -> None:
    # International's weights are fitted to its own positions; the other
    # 10x10 and 12x12 variants, and International with a rule changed, keep
    # the large boards' weights.
    import attrs

    from draughts.engine.evaluation import WEIGHTS, family

    def weights(v: draughts.Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
        e = Evaluator(context(v).core)
        return e.opening, e.endgame

    assert WEIGHTS["international"] != WEIGHTS["large"]
    assert weights(draughts.variant.INTERNATIONAL) == WEIGHTS["international"]
    changed = attrs.evolve(draughts.variant.INTERNATIONAL, name="intl-6", men_rows=3)
    for v in (draughts.variant.FRISIAN, draughts.variant.CANADIAN, changed):
        assert (family(context(v).core), weights(v)) == ("large", WEIGHTS["large"])


def test_the_table_keeps_a_deep_entry_and_a_failed_low_node_keeps_its_move() -> None:
    # Keys 0, 2 and 4 share the first bucket of a 4-entry table.
    table = Table(4)
    a, b, c = (RawMove(o, o + 5, 0, (), (), False) for o in (1, 2, 3))
    table.store(0, 5, 10, 0, a, False)
    table.store(2, 3, 20, 0, b, False)  # shallower: the second place
    assert table.entries[:2] == [(0, 5, 10, 0, a, 0), (2, 3, 20, 0, b, 0)]
    table.store(0, 6, -30, 2, c, True)  # failed low: the move stays a
    assert table.probe(0) == (0, 6, -30, 2, a, 0)
    table.generation = 1
    table.store(4, 1, 0, 0, c, False)  # an older deep entry gives way
    assert table.entries[:2] == [(4, 1, 0, 0, c, 1), (0, 6, -30, 2, a, 0)]
    assert table.probe(2) is None and table.count() == 2
