"""Counting draw rules, per variant: each fires at exactly the ply its rule
text gives, no earlier and no later, and resets as the text says.

The positions are walked with real legal moves: :func:`walk` plays quiet
moves (no capture, none that lets the opponent capture, never a position seen
before in the walk, so no repetition rule interferes), king moves unless a man
move is asked for. The expected plies come from the rule texts quoted in
``draughts/variant.py`` and ``docs/termination.rst``: "25 moves each" is 50
plies, "the strong side's 15th move" is the 29th ply when the strong side
moves first and the 30th when the weak side does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container
from pathlib import Path

import pytest

from draughts import BLACK, KING, MAN, VARIANTS, WHITE, Board, Move, Termination
from draughts.outcome import DrawRule, Ending, Goal, Material, Reset


def walk(
    board: Board,
    plies: int,
    *,
    man_at: Container[int] = (),
    keep: Callable[[Board], bool] | None = None,
    seen: set[int] | None = None,
    check: Callable[[Board], None] | None = None,
) -> list[Move]:
    """Play ``plies`` quiet moves; at the board plies in ``man_at`` a man
    moves, else a king. ``keep`` must hold after every move; ``check`` is
    called before every move. A depth-first search with a fixed seed finds
    such a line (a greedy walk can wander into a corner)."""
    if seen is None:
        seen = {board.position_key}
    rng = random.Random(plies)
    played: list[Move] = []

    def extend(left: int) -> bool:
        if left == 0:
            return True
        if check is not None:
            check(board)
        want_man = board.ply() in man_at
        moves = sorted(board.legal_moves, key=lambda m: (m.from_square, m.to_square))
        rng.shuffle(moves)
        for move in moves:
            piece = board.piece_at(move.from_square)
            assert piece is not None
            if move.captures or (piece.kind == MAN) != want_man:
                continue
            board.push(move)
            key = board.position_key
            if (
                key not in seen
                and not board.has_captures()
                and board.legal_moves
                and (keep is None or keep(board))
            ):
                seen.add(key)
                played.append(move)
                if extend(left - 1):
                    return True
                played.pop()
            board.pop()
        return False

    if not extend(plies):
        raise AssertionError(f"no quiet line of {plies} plies from {board.fen()}")
    return played


def no_outcome(board: Board) -> None:
    assert board.outcome() is None, board.outcome()
    assert not board.can_claim_draw()


def fires_at(
    board: Board, plies: int, termination: Termination, *, automatic: bool = True, **options: object
) -> None:
    """Walk ``plies - 1`` plies with no ending, then one more that ends the
    game by ``termination`` (automatically, or by a claim)."""
    seen = {board.position_key}
    walk(board, plies - 1, seen=seen, check=no_outcome, **options)  # type: ignore[arg-type]
    no_outcome(board)
    walk(board, 1, seen=seen, **options)  # type: ignore[arg-type]
    if automatic:
        outcome = board.outcome()
    else:
        assert board.outcome() is None
        assert board.can_claim_draw()
        outcome = board.outcome(claim_draw=True)
    assert outcome is not None, f"nothing fired after {plies} plies in {board.fen()}"
    assert (outcome.termination, outcome.winner) == (termination, None)
    assert board.is_game_over(claim_draw=True)
    # pop() takes the board back to the ply before: nothing has fired there.
    board.pop()
    no_outcome(board)


def counts(board: Board) -> dict[tuple[Termination, int], int | None]:
    return {(r.termination, r.limit): n for r, n in board.draw_rule_counts()}


# -- International and Canadian: FMJD ------------------------------------------


@pytest.mark.parametrize("variant", ["international", "canadian"])
def test_twenty_five_move_rule_after_50_king_plies(variant: str) -> None:
    # Two kings each: no material rule applies, only the 25-move rule.
    fen = "W:WK46,K47:BK4,K5" if variant == "international" else "W:WK67,K68:BK5,K6"
    fires_at(Board(fen, variant=variant), 50, Termination.TWENTY_FIVE_MOVE_RULE)


def test_twenty_five_move_rule_counts_from_the_last_man_move() -> None:
    # Men on both sides; a man move at ply 20 starts the count again, so the
    # rule fires 50 plies after it, at ply 71.
    board = Board("W:WK46,K47,45:BK4,K5,6", variant="international")
    fires_at(board, 71, Termination.TWENTY_FIVE_MOVE_RULE, man_at={20})
    assert board.halfmove_clock == 49


def test_twenty_five_move_rule_counts_from_the_last_capture() -> None:
    # White must capture 23 first (ply 1): 3 kings against 2, still no
    # material rule; the count starts after the capture.
    board = Board("W:WK46,K48,K49:BK2,K3,23", variant="international")
    board.push_pdn("46x5")
    assert board.halfmove_clock == 0
    fires_at(board, 50, Termination.TWENTY_FIVE_MOVE_RULE)


def test_sixteen_move_rule_after_32_plies() -> None:
    # Three kings against a lone king: 16 moves each.
    fires_at(
        Board("W:WK47,K48,K49:BK5", variant="international"), 32, Termination.SIXTEEN_MOVE_RULE
    )


def test_sixteen_move_rule_starts_when_the_ending_arises() -> None:
    # 3 kings against king and man: no material rule until White takes the
    # man (ply 1); 16 moves each from there.
    board = Board("W:WK46,K47,K48:BK3,23", variant="international")
    assert counts(board)[(Termination.SIXTEEN_MOVE_RULE, 32)] is None
    board.push_pdn("46x19")
    assert counts(board)[(Termination.SIXTEEN_MOVE_RULE, 32)] == 0
    fires_at(board, 32, Termination.SIXTEEN_MOVE_RULE)


def test_sixteen_move_rule_is_not_reset_by_man_moves_or_promotion() -> None:
    # King and two men against a king: the men walk up and one is crowned
    # (king, man v king: the same rule); lidraughts counts on through both.
    board = Board("W:WK46,12,17:BK45", variant="international")
    walk(board, 30, man_at={0, 2, 4})
    assert len(board.pieces(KING, WHITE)) == 2  # a man was crowned on the way
    assert counts(board)[(Termination.SIXTEEN_MOVE_RULE, 32)] == 30
    assert board.halfmove_clock == 25
    fires_at(board, 2, Termination.SIXTEEN_MOVE_RULE)


def test_five_move_rule_after_10_plies() -> None:
    fires_at(Board("W:WK47,K48:BK5", variant="international"), 10, Termination.FIVE_MOVE_RULE)
    fires_at(Board("W:WK47:BK5", variant="international"), 10, Termination.FIVE_MOVE_RULE)


def test_five_move_rule_starts_at_the_capture_that_leaves_two_pieces() -> None:
    # Black's king takes one of three white kings: 3v1 (16-move rule,
    # counting) becomes 2v1, and the 5-move count starts at that capture.
    board = Board("B:WK37,K48,K49:BK5", variant="international")
    before = counts(board)
    assert before[(Termination.SIXTEEN_MOVE_RULE, 32)] == 0
    assert before[(Termination.FIVE_MOVE_RULE, 10)] is None
    board.push_pdn("5x41")
    after = counts(board)
    assert after[(Termination.SIXTEEN_MOVE_RULE, 32)] is None
    assert after[(Termination.FIVE_MOVE_RULE, 10)] == 0
    fires_at(board, 10, Termination.FIVE_MOVE_RULE)


# -- English: WCDF, claimable ----------------------------------------------------


def test_english_forty_move_rule_is_claimable_after_80_plies() -> None:
    board = Board("B:WK29,K30:BK3,K4", variant="english")
    fires_at(board, 80, Termination.FORTY_MOVE_RULE, automatic=False)
    walk(board, 5)  # the game goes on as long as nobody claims
    assert board.outcome() is None and board.can_claim_draw()


def test_english_forty_move_rule_reset_by_a_man_move() -> None:
    board = Board("B:WK29,K30,32:BK3,K4,1", variant="english")
    fires_at(board, 80 + 31, Termination.FORTY_MOVE_RULE, automatic=False, man_at={30})


# -- dama and dama-flying: seeds 000 and 002 -----------------------------------


@pytest.mark.parametrize("variant", ["dama", "dama-flying"])
def test_dama_king_moves_rule_after_40_move_pairs(variant: str) -> None:
    board = Board("B:WK29,K30:BK3,K4", variant=variant)
    fires_at(board, 80, Termination.KING_MOVES_RULE)


def test_dama_300_ply_limit() -> None:
    # Men on both sides move now and then (every 60 plies), so the 80-ply
    # king rule never fires; the game is drawn by the 300th ply.
    board = Board("B:WK21,K22,29,30,31,32:BK11,K12,1,2,3,4", variant="dama")
    man_at = {60, 61, 120, 121, 180, 181, 240, 241}
    fires_at(board, 300, Termination.PLY_LIMIT, man_at=man_at)
    assert board.halfmove_clock < 80


# -- Russian and Brazilian: FMJD-64 ------------------------------------------------


def black_king_off_a1_h8(board: Board) -> bool:
    diagonal = {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}
    return not {board.variant.square_name(s) for s in board.pieces(KING, BLACK)} & diagonal


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_three_kings_rule_strong_side_moves_first(variant: str) -> None:
    # White (three kings) to move: its 15th move is ply 29.
    board = Board("W:WKc1,Ke1,Kg1:BKb8", variant=variant)
    fires_at(board, 29, Termination.THREE_KINGS_RULE, keep=black_king_off_a1_h8)


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_three_kings_rule_weak_side_moves_first(variant: str) -> None:
    # Black (the lone king) to move: White's 15th move is ply 30.
    board = Board("B:WKc1,Ke1,Kg1:BKb8", variant=variant)
    fires_at(board, 30, Termination.THREE_KINGS_RULE, keep=black_king_off_a1_h8)


def test_long_diagonal_rule_strong_side_5th_move() -> None:
    on_diagonal = lambda board: not black_king_off_a1_h8(board)  # noqa: E731
    board = Board("W:WKc1,Ke1,Kg1:BKh8", variant="russian")
    fires_at(board, 9, Termination.LONG_DIAGONAL_RULE, keep=on_diagonal)
    board = Board("B:WKc1,Ke1,Kg1:BKh8", variant="russian")
    fires_at(board, 10, Termination.LONG_DIAGONAL_RULE, keep=on_diagonal)


def test_russian_five_move_rule() -> None:
    fires_at(Board("W:WKc1,Ke1:BKb8", variant="russian"), 10, Termination.FIVE_MOVE_RULE)


def test_fifteen_move_rule_after_30_king_plies() -> None:
    # Eight pieces: no material rule, only 7.2.5.
    board = Board("W:WKc1,Ke1,a3,b2:BKb8,Kd8,h6,g7", variant="russian")
    fires_at(board, 30, Termination.FIFTEEN_MOVE_RULE)


def test_kings_endgame_rule_4_or_5_pieces_after_60_plies() -> None:
    # King and man each: man moves (plies 20 and 40) reset 7.2.5 but not
    # 7.2.6, which fires when the material has been unchanged 30 moves each.
    board = Board("W:WKc1,a3:BKb8,h6", variant="russian")
    fires_at(board, 60, Termination.KINGS_ENDGAME_RULE, man_at={20, 21, 40, 41})


def test_kings_endgame_rule_6_or_7_pieces_after_120_plies() -> None:
    board = Board("W:WKc1,a3,b2:BKb8,h6,g7", variant="russian")
    man_at = {20, 21, 45, 46, 70, 71, 95, 96}
    fires_at(board, 120, Termination.KINGS_ENDGAME_RULE, man_at=man_at)


def test_kings_endgame_count_stops_when_the_weaker_side_loses_its_king() -> None:
    # King and two men against king and man: 7.2.6 counts. White takes the
    # black king; a lone man is left, and no ending of FMJD-64 has a weaker
    # side without a king.
    board = Board("W:WKc1,a3,b2:BKd2,h6", variant="russian")
    assert counts(board)[(Termination.KINGS_ENDGAME_RULE, 60)] == 0
    board.push_pdn("c1:e3")
    assert counts(board)[(Termination.KINGS_ENDGAME_RULE, 60)] is None


def test_kings_endgame_rule_reset_by_a_promotion() -> None:
    # A white man one step from the crowning row is crowned at ply 10: the
    # material changes, so 7.2.6 counts again from there (and 7.2.5 too).
    board = Board("W:WKc1,a7:BKh4,h6", variant="russian")
    walk(board, 10)
    walk(board, 1, man_at={10})
    assert counts(board)[(Termination.KINGS_ENDGAME_RULE, 60)] == 0


def test_long_diagonal_count_follows_the_lone_king_onto_and_off_the_diagonal() -> None:
    # The count starts when the lone king reaches a1-h8, goes on through a
    # strong king move that does not touch the diagonal, and stops when the
    # lone king leaves it.
    board = Board("B:WKc1,Ke1,Kg1:BKb8", variant="russian")
    rule = (Termination.LONG_DIAGONAL_RULE, 5)
    assert counts(board)[rule] is None
    board.push_pdn("b8-e5")
    assert counts(board)[rule] == 0
    board.push_pdn("c1-d2")
    assert counts(board)[rule] == 1
    board.push_pdn("e5-h2")
    assert counts(board)[rule] is None


# -- Pool ------------------------------------------------------------------------


def test_pool_fifteen_move_rule_after_30_plies() -> None:
    board = Board("B:WK29,K30:BK3,K4", variant="pool")
    fires_at(board, 30, Termination.FIFTEEN_MOVE_RULE)


# -- Counters carried by a FEN (lidraughts :H and :F) --------------------------------


def test_fen_halfmove_clock_carries_on() -> None:
    # 48 quiet plies before the FEN: the 25-move rule fires 2 plies later.
    board = Board("W:WK46,K47:BK4,K5:H48", variant="international")
    assert board.halfmove_clock == 48
    fires_at(board, 2, Termination.TWENTY_FIVE_MOVE_RULE)


def test_fen_history_before_the_counter_is_not_searched_for_repetitions() -> None:
    board = Board("W:WK46,K47:BK2,K3:H30", variant="international")
    for text in ["46-41", "3-9", "41-46", "9-3"]:
        board.push_pdn(text)
    assert board.is_repetition(2) and not board.is_repetition(3)


def test_fen_move_number_counts_towards_the_ply_limit() -> None:
    # Move 150 with Black (dama's first player) to move: 298 plies were
    # played, so the 300-ply limit comes 2 plies later.
    board = Board("B:WK21,K22,29,30:BK11,K12,3,4:F150", variant="dama")
    fires_at(board, 2, Termination.PLY_LIMIT)
    assert board.copy(stack=False).draw_rule_counts()[1][1] == 0


# -- Custom rules ----------------------------------------------------------------


def test_a_custom_variant_chooses_its_rules() -> None:
    import attrs

    from draughts.variant import INTERNATIONAL

    custom = attrs.evolve(
        INTERNATIONAL, name="custom", draw_rules=(DrawRule(Termination.FORTY_MOVE_RULE, 6),)
    )
    fires_at(Board("W:WK46,K47:BK4,K5", variant=custom), 6, Termination.FORTY_MOVE_RULE)
    none = attrs.evolve(INTERNATIONAL, name="no-draws", draw_rules=())
    board = Board("W:WK47:BK5", variant=none)
    walk(board, 60, check=no_outcome)


def test_a_capture_of_the_last_king_stops_the_count() -> None:
    # dama: a man against a lone king is insufficient material; once the man
    # takes the king no king is left, and no material rule holds.
    board = Board("W:W21:BK17", variant="dama")
    assert counts(board)[(Termination.INSUFFICIENT_MATERIAL, 0)] == 0
    board.push_pdn("21x14")
    assert counts(board)[(Termination.INSUFFICIENT_MATERIAL, 0)] is None
    board.pop()
    assert counts(board)[(Termination.INSUFFICIENT_MATERIAL, 0)] == 0


def test_a_capture_that_leaves_a_man_against_a_king_starts_the_count() -> None:
    # dama: the black king takes one of two white men. A man against a king
    # is insufficient material, though the weaker side (either one, with a
    # piece each) need not have a king.
    board = Board("B:W5,6:BK1", variant="dama")
    assert counts(board)[(Termination.INSUFFICIENT_MATERIAL, 0)] is None
    board.push_pdn("1x10")
    assert counts(board)[(Termination.INSUFFICIENT_MATERIAL, 0)] == 0


@pytest.mark.parametrize(
    ("resets", "after_man_move"), [(Reset.CAPTURE, 3), (Reset.ANY_PROGRESS, 0)]
)
def test_a_material_rule_restarts_on_man_moves_only_if_it_says_so(
    resets: Reset, after_man_move: int
) -> None:
    import attrs

    from draughts.variant import INTERNATIONAL

    rule = DrawRule(
        Termination.SIXTEEN_MOVE_RULE,
        32,
        resets=resets,
        endings=(Ending(Material(kings=1, men=(0, 2)), Material(kings=1)),),
    )
    custom = attrs.evolve(INTERNATIONAL, name="custom", draw_rules=(rule,))
    board = Board("W:WK46,38:BK1", variant=custom)
    for text in ["46-41", "1-7", "38-32"]:
        board.push_pdn(text)
    assert board.draw_rule_counts() == [(rule, after_man_move)]


@pytest.mark.parametrize("variant", ["international", "english", "dama", "russian", "pool"])
def test_pop_restores_every_count(variant: str) -> None:
    rng = random.Random(variant)
    board = Board(variant=variant)
    history = []
    while len(history) < 120 and board.legal_moves:
        history.append((board.fen(), board.position_key, board.halfmove_clock, counts(board)))
        board.push(rng.choice(list(board.legal_moves)))
    for fen, key, clock, rule_counts in reversed(history):
        board.pop()
        assert (board.fen(), board.position_key, board.halfmove_clock, counts(board)) == (
            fen,
            key,
            clock,
            rule_counts,
        )


# -- The docs table ------------------------------------------------------------------

DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "termination.rst"
BEGIN, END = ".. begin generated table\n", ".. end generated table\n"


def render_termination_table() -> str:
    """The per-variant table of docs/termination.rst, from the Variant data."""
    goals = {
        Goal.STANDARD: "a side with no legal move loses",
        Goal.ANTIDRAUGHTS: "a side with no legal move wins",
        Goal.BREAKTHROUGH: "the first side to make a king wins; a side with no legal move loses",
    }
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 12 18 30 10 30",
        "",
        "   * - Variant",
        "     - Rule",
        "     - When",
        "     - How",
        "     - Source",
    ]

    def row(*cells: str) -> None:
        lines.append(f"   * - {cells[0]}")
        lines.extend(f"     - {cell}" for cell in cells[1:])

    for variant in VARIANTS:
        row(
            f"``{variant.name}``",
            "win",
            goals[variant.goal],
            "automatic",
            "the rule pages; lidraughts",
        )
        if not variant.draw_rules:
            row("", "(no draw rules)", "only agreement, resignation, time-out", "", "")
        for rule in variant.draw_rules:
            how = "automatic" if rule.automatic else "claimable"
            if rule.claim_on_next_move:
                how += ", also when the next move would repeat"
            if rule.on_timeout:
                how += "; a time-out then draws"
            row("", f"``{rule.termination.name}``", rule.describe(), how, rule.source or "")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def test_docs_table_is_generated_from_the_variants() -> None:
    text = DOCS_PAGE.read_text(encoding="utf-8")
    table = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    assert table.strip() == render_termination_table().strip(), (
        "docs/termination.rst is out of date: run python tests/board/test_draw_rules.py"
    )


if __name__ == "__main__":
    page = DOCS_PAGE.read_text(encoding="utf-8")
    head, rest = page.split(BEGIN)
    _, tail = rest.split(END)
    DOCS_PAGE.write_text(
        head + BEGIN + "\n" + render_termination_table() + "\n" + END + tail, encoding="utf-8"
    )


def test_frisian_two_kings_against_one_draw_after_seven_moves_each() -> None:
    # Frisian (mindsports, lidraughts): two kings against a lone king are
    # drawn after 7 moves each, read as 14 plies. The moves avoid captures and
    # repetitions (chosen by a walk over the legal moves and checked here).
    board = Board("W:WK31,K36:BK15", variant="frisian")
    moves = [
        "31-4",
        "15-20",
        "4-10",
        "20-3",
        "10-5",
        "3-8",
        "5-10",
        "8-2",
        "10-5",
        "2-7",
        "5-10",
        "7-1",
        "10-5",
        "1-6",
    ]
    for ply, text in enumerate(moves, start=1):
        assert board.outcome() is None, ply
        board.push_pdn(text)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.SEVEN_MOVE_RULE
    board.pop()
    assert board.outcome() is None
