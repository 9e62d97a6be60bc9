"""Wins, losses, results, time-out, resignation, agreement and material claims.

Expected values come from the rule texts (../shared/RULES.md: "a player who
has no legal move (no pieces, or all blocked) loses"; the seed ``dama``
time-out and insufficient-material rules; lidraughts' antidraughts and
breakthrough goals) and from PDN 3.0 for the result strings.
"""

from __future__ import annotations

import attrs
import pytest

from draughts import BLACK, VARIANTS, WHITE, Board, Outcome, Termination
from draughts.outcome import DrawRule, Ending, Goal, Material, Reset
from draughts.variant import INTERNATIONAL


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_no_outcome_at_the_start(variant: object) -> None:
    board = Board(variant=variant)  # type: ignore[arg-type]
    assert board.outcome() is None
    assert board.outcome(claim_draw=True) is None
    assert not board.is_game_over(claim_draw=True)
    assert not board.can_claim_draw()


def test_capturing_the_last_piece_wins() -> None:
    board = Board("W:W28:B23", variant="international")
    board.push_pdn("28x19")
    outcome = board.outcome()
    assert outcome == Outcome(Termination.NO_PIECES, WHITE, "international")
    assert outcome.result() == "2-0"
    assert board.is_game_over()


def test_a_blocked_side_loses() -> None:
    # Black's man on 24 can step only to 27 or 28, both taken, and cannot
    # jump (31 and 32 are taken too).
    board = Board("B:W27,28,31,32:B24", variant="english")
    assert not board.legal_moves
    assert board.outcome() == Outcome(Termination.BLOCKED, WHITE, first_color=BLACK)
    # English results give the first player's (Black's) score first.
    assert board.outcome().result() == "0-1"  # type: ignore[union-attr]


def test_a_blocked_white_loses_with_the_default_result_style() -> None:
    # White's man on 29 can only step to 25 (taken) or jump it to 22 (taken).
    board = Board("W:W29:B25,22", variant="english")
    assert not board.legal_moves
    assert board.outcome() == Outcome(Termination.BLOCKED, BLACK, first_color=BLACK)
    assert board.outcome().result() == "1-0"  # type: ignore[union-attr]


def test_antidraughts_the_side_without_moves_wins() -> None:
    anti = attrs.evolve(INTERNATIONAL, name="anti-test", goal=Goal.ANTIDRAUGHTS)
    board = Board("W:W28:B23", variant=anti)
    board.push_pdn("28x19")
    assert board.outcome() == Outcome(Termination.NO_PIECES, BLACK, "international")


def test_breakthrough_the_first_king_wins() -> None:
    breakthrough = attrs.evolve(
        INTERNATIONAL, name="bt-test", goal=Goal.BREAKTHROUGH, draw_rules=()
    )
    board = Board("W:W7,40:B45", variant=breakthrough)
    assert board.outcome() is None
    board.push_pdn("7-2")
    # Black still has moves, but White has made a king.
    assert board.legal_moves
    assert board.outcome() == Outcome(Termination.BREAKTHROUGH, WHITE, "international")
    board.pop()
    assert board.outcome() is None


def test_result_strings() -> None:
    for style, white, draw, black in (
        ("default", "1-0", "1/2-1/2", "0-1"),
        ("international", "2-0", "1-1", "0-2"),
    ):
        assert Outcome(Termination.RESIGNATION, WHITE, style).result() == white  # type: ignore[arg-type]
        assert Outcome(Termination.AGREEMENT, None, style).result() == draw  # type: ignore[arg-type]
        assert Outcome(Termination.TIMEOUT, BLACK, style).result() == black  # type: ignore[arg-type]


def test_resignation_and_agreement() -> None:
    board = Board(variant="russian")
    assert board.outcome_on_resignation(WHITE) == Outcome(Termination.RESIGNATION, BLACK)
    assert board.outcome_on_resignation(BLACK).result() == "1-0"
    assert board.outcome_by_agreement() == Outcome(Termination.AGREEMENT, None)


# -- Time-out --------------------------------------------------------------------


def test_timeout_is_a_loss() -> None:
    for variant in ("international", "english", "dama"):
        board = Board(variant=variant)
        assert board.outcome_on_timeout(WHITE).winner == BLACK
        assert board.outcome_on_timeout(BLACK).winner == WHITE


@pytest.mark.parametrize("fen", ["B:WK29:BK4", "B:W5:BK4", "W:WK29:B9"])
def test_dama_timeout_with_a_single_piece_against_a_single_king_is_a_draw(fen: str) -> None:
    # The seed: "a single man or a single king against a single king".
    board = Board(fen, variant="dama")
    for color in (WHITE, BLACK):
        assert board.outcome_on_timeout(color) == Outcome(
            Termination.TIMEOUT, None, first_color=BLACK
        )


@pytest.mark.parametrize("fen", ["B:W5,K29:BK4", "B:W5:B9", "B:WK29:BK4,9"])
def test_dama_timeout_with_winning_material_left_is_a_loss(fen: str) -> None:
    # Two pieces against a king, or a man against a man: not in the seed's rule.
    board = Board(fen, variant="dama")
    assert board.outcome_on_timeout(BLACK).winner == WHITE


def test_dama_timeout_on_a_threefold_repetition_is_a_draw() -> None:
    board = Board("B:WK29,K30:BK3,K4", variant="dama")
    for text in ["4-8", "29-25", "8-4", "25-29"] * 2:
        board.push_pdn(text)
    assert board.is_repetition(3)
    assert board.outcome_on_timeout(BLACK) == Outcome(Termination.TIMEOUT, None, first_color=BLACK)
    board.pop()  # only twice now
    assert board.outcome_on_timeout(WHITE).winner == BLACK


def test_english_timeout_on_a_repetition_is_still_a_loss() -> None:
    board = Board("B:WK29,K30:BK3,K4", variant="english")
    for text in ["4-8", "29-25", "8-4", "25-29"] * 2:
        board.push_pdn(text)
    assert board.is_repetition(3)
    assert board.outcome_on_timeout(BLACK).winner == WHITE


# -- Insufficient material (dama) --------------------------------------------------


@pytest.mark.parametrize("variant", ["dama", "dama-flying"])
@pytest.mark.parametrize(
    ("fen", "claimable"),
    [
        ("B:WK29:BK4", True),  # king against king
        ("B:W26:BK4", True),  # man against king (25 would be on the flying king's line)
        ("W:WK29:B9", True),  # king against man
        ("B:W25:B9", False),  # man against man: a man may crown first and win
        ("B:W25,K29:BK4", False),  # two pieces against a king
    ],
)
def test_dama_insufficient_material_claim(variant: str, fen: str, claimable: bool) -> None:
    board = Board(fen, variant=variant)
    assert board.outcome() is None  # claimable only, never automatic
    assert board.can_claim_draw() is claimable
    draw = Outcome(Termination.INSUFFICIENT_MATERIAL, None, first_color=BLACK)
    expected = draw if claimable else None
    assert board.outcome(claim_draw=True) == expected


def test_insufficient_material_starts_when_the_material_is_reached() -> None:
    # Black's king takes White's second-last piece: from then on either side
    # may claim.
    board = Board("B:W22,K29:BK17", variant="dama")
    assert not board.can_claim_draw()
    board.push_pdn("17x26")
    assert board.can_claim_draw()
    board.pop()
    assert not board.can_claim_draw()


def test_rules_are_checked_in_the_variants_order() -> None:
    # Two automatic rules met at once: the first listed is reported.
    rules = (
        DrawRule(Termination.PLY_LIMIT, 2, resets=Reset.NONE),
        DrawRule(Termination.KING_MOVES_RULE, 2),
    )
    custom = attrs.evolve(INTERNATIONAL, name="order-test", draw_rules=rules)
    board = Board("W:WK46,K47:BK2,K3", variant=custom)
    board.push_pdn("46-41")
    board.push_pdn("3-9")
    assert board.outcome() == Outcome(Termination.PLY_LIMIT, None, "international")


def test_a_win_comes_before_a_draw_rule() -> None:
    # The ply that reaches a counting limit also leaves the opponent without
    # a piece: the capture wins.
    rules = (DrawRule(Termination.PLY_LIMIT, 1, resets=Reset.NONE),)
    custom = attrs.evolve(INTERNATIONAL, name="win-first", draw_rules=rules)
    board = Board("W:W28:B23", variant=custom)
    board.push_pdn("28x19")
    assert board.outcome() == Outcome(Termination.NO_PIECES, WHITE, "international")


def test_draw_rule_validation() -> None:
    with pytest.raises(ValueError, match="REPETITION"):
        DrawRule(Termination.REPETITION, 1)
    with pytest.raises(ValueError, match="FORTY_MOVE_RULE"):
        DrawRule(Termination.FORTY_MOVE_RULE, -1)
    with pytest.raises(ValueError, match="count range"):
        Material(kings=(2, 1))


def test_describe_rules_for_the_docs() -> None:
    rule = DrawRule(
        Termination.SIXTEEN_MOVE_RULE,
        32,
        resets=Reset.CAPTURE,
        endings=(Ending(Material(kings=3), Material(kings=1)),),
    )
    assert rule.describe() == "32 plies (3K v 1K), reset by capture"
    mixed = Ending(
        Material(kings=(1, 99), men=(0, 99)), Material(kings=(1, 99), men=(0, 99)), pieces=(4, 5)
    )
    assert str(mixed) == "1+K+any M v 1+K+any M, 4-5 pieces"


def test_antidraughts_preset() -> None:
    # lidraughts: "you win when you run out of moves (no pieces or all blocked)".
    board = Board("W:W28:B23", variant="antidraughts")
    board.push_pdn("28x19")
    assert board.outcome() == Outcome(Termination.NO_PIECES, BLACK, "international")
    blocked = Board("B:W27,28,31,32:B24", variant="english")
    anti = attrs.evolve(blocked.variant, name="anti-english", goal=Goal.ANTIDRAUGHTS)
    assert Board(blocked.fen(), variant=anti).outcome() == Outcome(
        Termination.BLOCKED, BLACK, first_color=BLACK
    )


def test_breakthrough_preset() -> None:
    # lidraughts: "the first player who makes a king wins", either colour.
    board = Board("B:W36:B44", variant="breakthrough")
    board.push_pdn("44-49")
    assert board.outcome() == Outcome(Termination.BREAKTHROUGH, BLACK, "international")
    assert board.outcome_on_timeout(WHITE).winner == BLACK
