"""Repetition, the incremental position key, and the counts under push/pop.

The hypothesis tests compare the board's incremental state with answers
computed independently: the key of a board set up from scratch at the same
position, and each draw rule's count worked out from its definition by
replaying the game ply by ply (:func:`naive_counts`).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughts import KING, MAN, VARIANTS, WHITE, Board, Color, Outcome, Termination, Variant
from draughts.outcome import DrawRule, Ending, Goal, Reset

# -- Repetition --------------------------------------------------------------------

# White's flying king goes round a triangle 46-41-37-46 (three moves) while
# Black's goes 4-9-4 (two): after ply 5 the pieces stand as at the start, but
# with Black to move. The men on 45 and 6 keep the 5-move rule away.
TRIANGLE = ["46-41", "4-9", "41-37", "9-4", "37-46"]
BACK_AND_FORTH = ["4-9", "46-41", "9-4", "41-46"]


def test_repetition_needs_the_same_side_to_move() -> None:
    board = Board("W:WK46,45:BK4,6", variant="international")
    start_pieces = board.piece_map()
    for text in TRIANGLE + BACK_AND_FORTH:
        board.push_pdn(text)
        assert board.outcome() is None
    # Ply 9: the start's pieces for the third time (plies 0, 5, 9), but only
    # the second time with Black to move.
    assert board.piece_map() == start_pieces and board.ply() == 9
    assert board.is_repetition(2) and not board.is_repetition(3)
    for text in BACK_AND_FORTH[:-1]:
        board.push_pdn(text)
        assert board.outcome() is None
    board.push_pdn(BACK_AND_FORTH[-1])  # ply 13: third time with Black to move
    assert board.is_repetition(3)
    assert board.outcome() == Outcome(Termination.REPETITION, None, "international")
    board.pop()
    assert board.outcome() is None


@pytest.mark.parametrize(
    ("variant", "fen", "cycle"),
    [
        ("russian", "W:WKa1,c3:BKh8,f6", ["a1-b2", "h8-g7", "b2-a1", "g7-h8"]),
        ("brazilian", "W:WKa1,c3:BKh8,f6", ["a1-b2", "h8-g7", "b2-a1", "g7-h8"]),
        ("pool", "B:WK29,K30:BK3,K4", ["3-7", "30-12", "7-3", "12-30"]),
        ("canadian", "W:WK67,K68:BK5,K6", ["68-18", "5-11", "18-68", "11-5"]),
    ],
)
def test_automatic_threefold_repetition(variant: str, fen: str, cycle: list[str]) -> None:
    # The start position comes back after every 4 plies: the third time is ply 8.
    board = Board(fen, variant=variant)
    for text in cycle * 2:
        assert board.outcome() is None
        board.push_pdn(text)
    assert board.ply() == 8 and board.is_repetition(3)
    outcome = board.outcome()
    assert outcome is not None and (outcome.termination, outcome.winner) == (
        Termination.REPETITION,
        None,
    )


@pytest.mark.parametrize(
    ("variant", "cycle", "first_claim"),
    [
        ("english", ["4-8", "29-25", "8-4", "25-29"], 7),
        ("dama", ["4-8", "29-25", "8-4", "25-29"], 8),
        ("dama-flying", ["3-7", "30-12", "7-3", "12-30"], 8),
    ],
)
def test_claimable_threefold_repetition(variant: str, cycle: list[str], first_claim: int) -> None:
    board = Board("B:WK29,K30:BK3,K4", variant=variant)
    claims = []
    for text in cycle * 2:
        claims.append(board.can_claim_threefold_repetition())
        assert board.outcome() is None
        board.push_pdn(text)
    # At ply 7 White's last move of the cycle would make the start position a
    # third time: WCDF lets him claim then ("with their next move they would
    # create the same position for the third time"); the dama seeds only once
    # the position "has occurred 3 times", at ply 8.
    claims.append(board.can_claim_threefold_repetition())
    assert claims == [False] * first_claim + [True] * (9 - first_claim)
    assert board.is_repetition(3)
    assert board.outcome() is None  # claimable, not automatic
    assert board.can_claim_draw()
    assert board.outcome(claim_draw=True) == Outcome(
        Termination.REPETITION, None, first_color=board.variant.first_color
    )


def test_a_man_move_starts_a_new_history() -> None:
    board = Board("W:WK46,45:BK4,6", variant="international")
    for text in ["46-41", "4-9", "41-46", "9-4"]:
        board.push_pdn(text)
    assert board.is_repetition(2)
    board.push_pdn("45-40")
    assert board.halfmove_clock == 0
    assert not board.is_repetition(2)


def test_no_repetition_rule_no_claim() -> None:
    import attrs

    from draughts.variant import ENGLISH

    plain = attrs.evolve(ENGLISH, name="no-repetition", draw_rules=())
    board = Board("B:WK29,K30:BK3,K4", variant=plain)
    for text in ["4-8", "29-25", "8-4", "25-29"] * 2:
        board.push_pdn(text)
    assert board.is_repetition(3)
    assert not board.can_claim_threefold_repetition()
    assert board.outcome(claim_draw=True) is None


# -- The position key ---------------------------------------------------------------


def test_key_depends_on_pieces_and_side_to_move() -> None:
    board = Board(variant="english")
    other = Board(variant="english")
    other.turn = WHITE
    assert board.position_key != other.position_key
    assert Board("W:WK46:B5").position_key != Board("W:W46:B5").position_key
    assert Board("W:W46:B5").position_key != Board("W:W46:BK5").position_key


def test_editing_the_board_updates_the_key() -> None:
    board = Board(variant="russian")
    board.push_pdn("c3-d4")
    board.remove_piece_at(board.variant.parse_square("a7"))
    assert board.position_key == Board(board.fen(), variant="russian").position_key


# -- Frisian king-move limit ---------------------------------------------------------


def test_frisian_king_may_make_three_quiet_moves_in_a_row() -> None:
    # RULES.md / rules-research.md §3.3: "a king may make at most 3
    # consecutive non-capturing moves while its owner still has men".
    board = Board("W:WK46,50:B1,2", variant="frisian")
    for text in ["46-41", "1-7", "41-46", "2-8", "46-41", "7-12"]:
        board.push_pdn(text)
    assert board.king_moves(WHITE) == 3
    assert {m.from_square for m in board.legal_moves} == {50}
    board.push_pdn("50-45")  # another piece moved: the king is free again
    board.push_pdn("8-13")
    assert board.king_moves(WHITE) == 0
    assert 41 in {m.from_square for m in board.legal_moves}
    board.pop()
    board.pop()
    assert {m.from_square for m in board.legal_moves} == {50}


def test_frisian_limit_does_not_apply_without_men() -> None:
    board = Board("W:WK46:B1,2", variant="frisian")
    for text in ["46-41", "1-7", "41-46", "2-8", "46-41", "7-12"]:
        board.push_pdn(text)
    assert board.king_moves(WHITE) == 0
    assert {m.from_square for m in board.legal_moves} == {41}


# -- Random playouts against independent answers ------------------------------------


def _material(board: Board) -> tuple[tuple[int, int], tuple[int, int], set[int], set[int]]:
    """(kings, men) per colour and each colour's king squares."""
    out = []
    for color in (0, 1):
        kings = board.pieces(KING, Color(color))
        men = board.pieces(MAN, Color(color))
        out.append(((len(kings), len(men)), set(kings)))
    return out[0][0], out[1][0], out[0][1], out[1][1]


def _long_diagonal(variant: Variant) -> set[int]:
    corner = variant.square_at(0, 0) is not None
    return {
        s
        for s in variant.squares
        if (lambda r, c: r == c if corner else r + c == variant.width - 1)(*variant.coordinates(s))
    }


def _strong(ending: Ending, mat: tuple, diagonal: set[int]) -> int | None:  # type: ignore[type-arg]
    counts, king_squares = (mat[0], mat[1]), (mat[2], mat[3])
    total = sum(counts[0]) + sum(counts[1])
    if not ending.pieces[0] <= total <= ending.pieces[1]:
        return None
    for strong in (0, 1):
        weak = 1 - strong
        if (
            ending.strong.matches(kings=counts[strong][0], men=counts[strong][1])
            and ending.weak.matches(kings=counts[weak][0], men=counts[weak][1])
            and (not ending.weak_king_on_long_diagonal or king_squares[weak] & diagonal)
        ):
            return strong
    return None


def naive_counts(variant: Variant, fen: str, moves: list) -> tuple[list[int | None], int]:  # type: ignore[type-arg]
    """Each counting rule's count, straight from its definition, by replay,
    and the plies since the last capture or man move."""
    board = Board(fen, variant=variant)
    diagonal = _long_diagonal(variant)
    positions = [_material(board)]
    movers = []
    events = []
    for move in moves:
        piece = board.piece_at(move.from_square)
        assert piece is not None
        movers.append(int(board.turn))
        board.push(move)
        landed = board.piece_at(move.to_square)
        assert landed is not None
        flags = Reset.NONE
        if move.captures:
            flags |= Reset.CAPTURE
        if piece.kind == MAN:
            flags |= Reset.MAN_MOVE
            if landed.kind == KING:
                flags |= Reset.PROMOTION
        events.append(flags)
        positions.append(_material(board))

    def strong_at(rule: DrawRule, i: int) -> int | None:
        if not rule.endings:
            return 0
        for ending in rule.endings:
            side = _strong(ending, positions[i], diagonal)
            if side is not None:
                return side
        return None

    result: list[int | None] = []
    end = len(positions) - 1
    for rule in variant.draw_rules:
        if rule.is_repetition:
            continue
        strong = strong_at(rule, end)
        if strong is None:
            result.append(None)
            continue
        i = end
        while i > 0 and strong_at(rule, i - 1) is not None and not rule.resets & events[i - 1]:
            i -= 1
        if rule.strong_side_moves:
            result.append(sum(1 for j in range(i, end) if movers[j] == strong))
        else:
            result.append(end - i)
    quiet = 0
    for flags in events:
        quiet = 0 if flags & Reset.ANY_PROGRESS else quiet + 1
    return result, quiet


def _automatic_draw(board: Board) -> Termination | None:
    for rule in board.variant.draw_rules:
        if not rule.automatic:
            continue
        if rule.is_repetition:
            if board.is_repetition(rule.limit):
                return rule.termination
            continue
        # A rule met by the material alone does not hold while the side to
        # move has a capture, which changes the material (docs/termination.rst).
        if rule.limit == 0 and board.has_captures():
            continue
        for counted, n in board.draw_rule_counts():
            if counted is rule and n is not None and n >= rule.limit:
                return rule.termination
    return None


# Endgame starts make the material rules come into play within a short game.
ENDGAMES = {
    "international": "W:WK46,K47,28:BK5,23",
    "russian": "W:WKa1,Kc1,e3:BKh8,f6",
    "brazilian": "W:WKc1,Ke1,e3:BKb8,f6",
    "canadian": "W:WK67,K68,60:BK5,11",
    "english": "B:WK29,K30,22:BK3,11",
    "dama": "B:WK29,21:BK3,11",
}


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    endgame=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(0, 120),
)
def test_random_playouts(variant: Variant, endgame: bool, seed: int, length: int) -> None:
    fen = ENDGAMES.get(variant.name) if endgame else None
    fen = fen or variant.starting_fen
    rng = random.Random(seed)
    board = Board(fen, variant=variant)
    for _ in range(length):
        outcome = board.outcome()
        legal = list(board.legal_moves)
        if variant.goal is Goal.BREAKTHROUGH and (
            board.pieces(KING, WHITE) or board.pieces(KING, WHITE.opponent)
        ):
            assert outcome is not None and outcome.termination is Termination.BREAKTHROUGH
            break
        if not legal:
            # No legal move always ends the game, with a winner.
            assert outcome is not None and outcome.winner is not None
            loser = board.turn
            expected = loser if variant.goal is Goal.ANTIDRAUGHTS else loser.opponent
            assert outcome.winner == expected
            break
        fired = _automatic_draw(board)
        if fired is None:
            assert outcome is None
        else:
            assert outcome is not None and outcome.termination is fired
        before = (board.fen(), board.position_key, board.halfmove_clock, board.draw_rule_counts())
        move = rng.choice(legal)
        board.push(move)
        # The incremental key is the key of the position built from scratch.
        assert board.position_key == Board(board.fen(), variant=variant).position_key
        board.pop()
        assert (
            board.fen(),
            board.position_key,
            board.halfmove_clock,
            board.draw_rule_counts(),
        ) == before
        board.push(move)
    counted = [n for _, n in board.draw_rule_counts()]
    assert (counted, board.halfmove_clock) == naive_counts(variant, fen, board.move_stack)
    # A replay of the same moves on a fresh board ends in the same state.
    replay = Board(fen, variant=variant)
    for move in board.move_stack:
        replay.push(move)
    assert (replay.position_key, replay.halfmove_clock, replay.draw_rule_counts()) == (
        board.position_key,
        board.halfmove_clock,
        board.draw_rule_counts(),
    )


def test_copies_keep_or_restart_the_history() -> None:
    board = Board("W:WK46,K47:BK2,K3", variant="international")
    for text in ["46-41", "3-9", "41-46", "9-3"]:
        board.push_pdn(text)
    same = board.copy()
    assert (same.position_key, same.halfmove_clock, same.is_repetition(2)) == (
        board.position_key,
        4,
        True,
    )
    fresh = board.copy(stack=False)
    assert (fresh.position_key, fresh.halfmove_clock, fresh.is_repetition(2)) == (
        board.position_key,
        0,
        False,
    )
    same.pop()
    assert board.ply() == 4  # the copy's history is its own
