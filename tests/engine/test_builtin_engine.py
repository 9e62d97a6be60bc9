"""The built-in engine: levels, forced wins, combinations and matches."""

from __future__ import annotations

import math
import random
import threading

import attrs
import pytest

import draughts
from draughts.engine import Analysis, Limit, Score, builtin

SEED_VARIANTS = ("english", "dama", "dama-flying", "brazilian")


def play_game(variant: str, hard_color: draughts.Color, seed: int, max_plies: int = 200) -> str:
    """A game of hard (6 plies) against easy; returns the winner's level or
    "draw" when the game reaches ``max_plies`` (a stand-in for the draw
    rules, which the engines do not need here)."""
    board = draughts.Board(variant=variant)
    hard, easy = builtin("hard"), builtin("easy", seed=seed)
    while board.legal_moves and board.ply() < max_plies:
        if board.turn == hard_color:
            move = hard.play(board, Limit(depth=6)).move
        else:
            move = easy.play(board).move
        assert move in board.legal_moves
        board.push(move)
    if board.legal_moves:
        return "draw"
    return "easy" if board.turn == hard_color else "hard"


@pytest.mark.parametrize(
    ("variant", "hard_color"),
    [
        ("english", draughts.WHITE),
        ("dama", draughts.BLACK),
        ("dama-flying", draughts.WHITE),
        ("brazilian", draughts.BLACK),
    ],
)
def test_hard_does_not_lose_to_easy(variant: str, hard_color: draughts.Color) -> None:
    assert play_game(variant, hard_color, seed=1) != "easy"


@pytest.mark.slow
@pytest.mark.parametrize("variant", SEED_VARIANTS)
def test_hard_never_loses_a_match_to_easy(variant: str) -> None:
    results = [
        play_game(variant, color, seed)
        for seed in range(2, 6)
        for color in (draughts.WHITE, draughts.BLACK)
    ]
    assert "easy" not in results


def _material(board: draughts.Board, plies: int) -> int:
    """Plain minimax of the piece count difference for the side to move,
    ``plies`` deep (a side without moves counts as having lost 100)."""
    moves = list(board.legal_moves)
    if not moves:
        return -100
    if plies == 0:
        return len(board.pieces(board.turn)) - len(board.pieces(board.turn.opponent))
    best = -1000
    for move in moves:
        board.push(move)
        best = max(best, -_material(board, plies - 1))
        board.pop()
    return best


def test_the_two_for_one_shot() -> None:
    # English, White (moving up the board) to move: men on 22, 26, 27 and
    # the back row 30-32, against black men on 4, 8, 12, 14 and 15.
    # 22-18 offers a man that Black must take: 15x22 is answered by 26x17x10
    # (over 22 and 14), 14x23 by 27x18x11 or 26x19x10 (over 23 and 15); the
    # full back row stops Black's capture from going on. White gives one
    # man and takes two; the exhaustive check below confirms that no other
    # move gains material within three plies.
    board = draughts.Board("W:W22,26,27,30,31,32:B4,8,12,14,15", variant="english")
    gains = {}
    for move in list(board.legal_moves):
        board.push(move)
        gains[str(move)] = -_material(board, 2) - 1  # 6 v 5 to start: +1
        board.pop()
    assert [move for move, gain in gains.items() if gain >= 1] == ["22-18"]
    analysis = builtin("hard").analyse(board, Limit(depth=6))
    assert analysis.pv[0] == draughts.Move(22, 18)
    assert analysis.score is not None and analysis.score.men >= 1


def test_forced_capture_of_a_king_in_one() -> None:
    # International: the white man on 28 must capture the black king on 23
    # diagonally in front of it, landing on 19 just behind: the only legal
    # move, which the engine must return as it is.
    board = draughts.Board("W:W28:BK23,3", variant="international")
    move = builtin("hard").play(board, Limit(depth=6)).move
    assert move == draughts.Move(28, 19, captures=(23,))


def test_win_by_taking_the_last_piece() -> None:
    # Dama-flying: the white king on 29 sees the lone black man on 18 along
    # the 29-25-22-18-15-11-8-4 diagonal with 15 free behind it: capturing
    # ends the game at once (Black has no piece), a win in 1 ply.
    board = draughts.Board("W:WK29:B18", variant="dama-flying")
    analysis = builtin("hard").analyse(board, Limit(depth=6))
    assert analysis.score == Score(math.inf, 1)
    assert analysis.pv[0].captures == (18,)


def test_antidraughts_gives_pieces_away() -> None:
    # English rules played to lose (antidraughts goal): White's man on 22
    # against Black's on 15. 22-18 puts it in front of 15, Black must jump
    # it (15x22) and White, left without a piece, has won in 2 plies. Under
    # the standard goal the same move just loses the man, and is avoided.
    anti = attrs.evolve(
        draughts.variant.ENGLISH, name="english-anti", goal=draughts.outcome.Goal.ANTIDRAUGHTS
    )
    board = draughts.Board("W:W22:B15", variant=anti)
    analysis = builtin("hard").analyse(board, Limit(depth=6))
    assert analysis.pv[0] == draughts.Move(22, 18)
    assert analysis.score == Score(math.inf, 2)
    standard = draughts.Board("W:W22:B15", variant="english")
    assert builtin("hard").play(standard, Limit(depth=6)).move != draughts.Move(22, 18)


def test_breakthrough_crowns_at_once() -> None:
    # English rules where the first king wins: the white man on 6 steps to 1
    # or 2 and is crowned, a win in 1 ply, although Black has more men.
    race = attrs.evolve(
        draughts.variant.ENGLISH, name="english-race", goal=draughts.outcome.Goal.BREAKTHROUGH
    )
    board = draughts.Board("W:W6:B9,10,11,12", variant=race)
    analysis = builtin("hard").analyse(board, Limit(depth=6))
    assert analysis.score == Score(math.inf, 1)
    assert analysis.pv[0].to_square in (1, 2)


def _wins_within(board: draughts.Board, plies: int) -> bool:
    """Whether the side to move can leave the opponent without a legal move
    within ``plies`` plies, by plain exhaustive search over the public API
    (independent of the engine's search)."""
    if plies <= 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if not board.legal_moves:
                return True
            if plies >= 3 and all(
                _reply_loses(board, reply, plies - 2) for reply in list(board.legal_moves)
            ):
                return True
        finally:
            board.pop()
    return False


def _reply_loses(board: draughts.Board, reply: draughts.Move, plies: int) -> bool:
    board.push(reply)
    try:
        return _wins_within(board, plies)
    finally:
        board.pop()


def _random_position(rng: random.Random, variant: str, pieces: int) -> draughts.Board:
    board = draughts.Board.empty(variant=variant)
    squares = rng.sample(list(board.variant.squares), pieces)
    for i, square in enumerate(squares):
        color = draughts.WHITE if i % 2 == 0 else draughts.BLACK
        kind = draughts.KING if rng.random() < 0.3 else draughts.MAN
        try:
            board.set_piece_at(square, draughts.Piece(kind, color))
        except ValueError:  # a man on its crowning row
            board.set_piece_at(square, draughts.Piece(draughts.KING, color))
    board.turn = draughts.WHITE if rng.random() < 0.5 else draughts.BLACK
    return board


def _lost_within(board: draughts.Board, plies: int) -> bool:
    """Whether every move of the side to move lets the opponent win within
    ``plies - 1`` plies (or it has no move at all)."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if not _wins_within(board, plies - 1):
                return False
        finally:
            board.pop()
    return True


@pytest.mark.parametrize(
    "variant",
    [
        *SEED_VARIANTS,
        pytest.param("international", marks=pytest.mark.slow),
        pytest.param("russian", marks=pytest.mark.slow),
    ],
)
def test_every_forced_result_within_the_horizon_is_found(variant: str) -> None:
    # Random positions with four or five pieces, sorted by an exhaustive
    # search into: the side to move wins within 5 plies (its third move at
    # the latest leaves the opponent without a move), it loses within 6
    # plies (whatever it does, the opponent's third move leaves it without
    # one), or neither. Searching 6 plies, hard must score exactly the first
    # as wins and the second as losses, and its move must keep a win.
    rng = random.Random(variant)
    checked = {"win": 0, "loss": 0, "open": 0}
    for _ in range(3000):
        if min(checked.values()) >= 2:
            break
        board = _random_position(rng, variant, rng.choice((4, 5)))
        if not board.legal_moves:
            continue
        if _wins_within(board, 5):
            expected = "win"
        elif checked["loss"] < 2 or checked["open"] < 2:
            expected = "loss" if _lost_within(board, 6) else "open"
        else:
            continue
        if checked[expected] >= 2:
            continue
        checked[expected] += 1
        score = builtin("hard").analyse(board, Limit(depth=6)).score
        assert score is not None
        # Forced moves are searched without using up depth, so hard may also
        # see results further away than 6 plies: those count as "open".
        plies = score.plies if score.plies is not None else 0
        found = "win" if 0 < plies <= 5 else "loss" if -6 <= plies < 0 else "open"
        assert found == expected, board.fen()
        if expected == "win":
            assert score.plies is not None
            board.push(builtin("hard").play(board, Limit(depth=6)).move)
            assert all(
                _reply_loses(board, reply, score.plies - 2) for reply in list(board.legal_moves)
            ), board.fen()
    assert checked == {"win": 2, "loss": 2, "open": 2}


def test_easy_makes_reproducible_mistakes() -> None:
    # Easy searches 2 plies like medium given Limit(depth=2), so where they
    # differ, easy has taken another move on purpose: that should happen
    # about 30 % of the time. The same seed makes the same choices.
    rng = random.Random(7)
    boards: list[draughts.Board] = []
    while len(boards) < 60:
        board = _random_position(rng, "english", 6)
        if board.legal_moves.count() > 1:
            boards.append(board)
    first, again = builtin("easy", seed=5), builtin("easy", seed=5)
    best = builtin("medium")
    differ = 0
    for board in boards:
        move = first.play(board).move
        assert move == again.play(board).move
        differ += move != best.play(board, Limit(depth=2)).move
    assert 8 <= differ <= 30


def test_levels_and_limits() -> None:
    board = draughts.Board(variant="english")
    assert builtin("easy").analyse(board).depth == 2
    assert builtin("medium").analyse(board).depth == 4
    # A time limit smaller than hard's minimum still completes 6 plies.
    assert builtin("hard").analyse(board, Limit(time=0.001)).depth >= 6
    nodes = builtin("hard").analyse(board, Limit(nodes=5000, depth=40))
    assert isinstance(nodes, Analysis) and nodes.depth is not None and nodes.depth >= 6
    with pytest.raises(ValueError, match="unknown engine level 'expert'"):
        builtin("expert")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Limit depth must be positive, not 0"):
        Limit(depth=0)


def test_pv_is_a_legal_line() -> None:
    board = draughts.Board()
    analysis = builtin("hard").analyse(board, Limit(depth=5))
    assert len(analysis.pv) >= 5
    for move in analysis.pv:
        assert move in board.legal_moves
        board.push(move)


def test_game_over_is_a_value_error() -> None:
    # The white man on 29 is blocked by the black men on 25 and 22.
    board = draughts.Board("W:W29:B22,25", variant="english")
    with pytest.raises(ValueError, match="white has no legal move"):
        builtin().play(board)


def test_hard_keeps_its_table_from_move_to_move() -> None:
    # The hard level renews one search per variant from move to move: the
    # position after its own move and the reply the search expected starts
    # from a table that already knows it, so a fixed depth takes fewer
    # nodes than for an engine that never saw the game.
    board = draughts.Board()
    engine = builtin("hard")
    played = engine.play(board, Limit(depth=9))
    assert played.ponder is not None
    board.push(played.move)
    board.push(played.ponder)
    again = engine.analyse(board, Limit(depth=8))
    fresh = builtin("hard").analyse(board, Limit(depth=8))
    assert again.nodes < fresh.nodes, (again.nodes, fresh.nodes)
    # The easy and medium levels search each move afresh.
    medium = builtin("medium")
    assert medium.analyse(board).nodes == medium.analyse(board).nodes


def test_two_threads_may_play_with_one_hard_engine() -> None:
    # The kept search is not shared: a thread that finds it in use makes
    # its own, and both play a legal move of their own board.
    engine = builtin("hard")
    boards = [draughts.Board(), draughts.Board(variant="english")] * 2
    moves: dict[int, draughts.Move] = {}

    def play(i: int) -> None:
        moves[i] = engine.play(boards[i], Limit(depth=7)).move

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(boards))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(moves[i] in board.legal_moves for i, board in enumerate(boards))
