"""The native core's push and pop (its BoardState, in C) against Board's
Python ones, their oracle: after every move of random games of every preset
and of custom variants, the same bitboards, side to move, key, undo record,
draw counts and king-move counts; the same errors, with the board left as it
was; and the two mixed on one board (a C push taken back in Python and the
other way round)."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import _core
from draughts import variant as V
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.pdn import _native
from draughts.pdn import lexer as _pdn_lexer
from draughts.pdn.resolver import Resolver

pytestmark = pytest.mark.skipif(
    not _core.STATE_IN_C, reason="the native core is not built (or DRAUGHTS_PURE=1)"
)

CUSTOM = [
    attrs.evolve(V.RUSSIAN, name="russian-10", width=10, height=10, men_rows=4),
    attrs.evolve(V.INTERNATIONAL, name="all-squares", all_squares=True),
    attrs.evolve(V.FRISIAN, name="frisian-12", width=12, height=12, men_rows=5),
    attrs.evolve(V.ENGLISH, flying_kings=True),
]
VARIANTS = [*draughts.VARIANTS, *CUSTOM]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def state(board: draughts.Board) -> tuple[object, ...]:
    """Everything push and pop change, as values (but the legal move cache,
    which both drop)."""
    return (
        list(board._men),
        list(board._kings),
        board._turn,
        board.position_key,  # worked out if None: push stores it in its record
        list(board._stack),
        list(board.move_stack),
        board._quiet_from,
        board._starts,
        board._kmoves,
    )


def without_route(move: Move) -> Move:
    """The move as a hand-made one: squares and captures, no path."""
    return Move(move.from_square, move.to_square, captures=move.captures)


def check_move(board: draughts.Board, move: Move) -> None:
    """Push and pop ``move`` both ways on copies of ``board``: same states."""
    in_c, in_python = board.copy(), board.copy()  # before state() works out the key
    before = state(board)
    in_c.push(move)
    in_python._push_python(move)
    assert state(in_c) == state(in_python), move
    assert in_c._legal is None and in_python._legal is None  # the move cache is dropped
    assert in_c.position_key == in_python.position_key
    # Mixed: each takes back the other's push.
    assert in_c._pop_python() == move
    assert in_python.pop() == move
    assert state(in_c) == state(in_python) == before


@SETTINGS
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    key_first=st.booleans(),
)
def test_push_and_pop_agree_with_python_over_random_games(
    variant: draughts.Variant, seed: int, key_first: bool
) -> None:
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    if key_first:
        board.position_key  # noqa: B018 - the key is computed before the first push
    for _ in range(rng.randrange(20, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        for move in rng.sample(legal, min(3, len(legal))):
            check_move(board, move)
            check_move(board, without_route(move))
        board.push(rng.choice(legal))
    # The whole game taken back in C gives the Python states in reverse.
    replay = draughts.Board(variant=variant)
    states = [state(replay)]
    for move in board.move_stack:
        replay._push_python(move)
        states.append(state(replay))
    while board.move_stack:
        assert state(board) == states.pop()
        board.pop()
    assert state(board) == states.pop()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_bad_moves_raise_as_in_python_and_leave_the_board(variant: draughts.Variant) -> None:
    board = draughts.Board(variant=variant)
    empty = next(s for s in range(1, board.variant.square_count + 1) if board.piece_at(s) is None)
    theirs = next(s for s in board.pieces(board.turn.opponent))
    last = board.variant.square_count
    bad = [
        Move(empty, empty + 1 if empty < last else empty - 1),  # no piece there
        Move(theirs, empty),  # the opponent's piece
        Move(last + 1, 1),  # off the board
        Move(1, last + 1),
        Move(next(iter(board.pieces(board.turn))), empty, captures=(last + 7,)),
    ]
    for move in bad:
        before = state(board)
        with pytest.raises(IllegalMoveError) as in_c:
            board.push(move)
        assert state(board) == before
        with pytest.raises(IllegalMoveError) as in_python:
            board._push_python(move)
        assert str(in_c.value) == str(in_python.value)


def test_what_is_not_a_move_fails_as_in_python() -> None:
    board = draughts.Board()
    before = state(board)
    for value in ("32-28", None, 3):
        with pytest.raises(AttributeError):
            board.push(value)  # type: ignore[arg-type]
        assert state(board) == before


def test_pop_without_a_move_raises_index_error() -> None:
    board = draughts.Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board._pop_python()


def test_a_board_whose_state_python_code_replaced_still_plays() -> None:
    """Board's own methods assign new lists and ints (set_fen, clear, a
    subclass): push reads the attributes anew every time."""
    board = draughts.Board()
    board.set_fen("W:W31,32:B19,20")
    board._men = [board._men[0], board._men[1]]
    board.push_pdn("31-27")
    assert board.fen() == "B:W27,32:B19-20"
    assert board.pop() == Move(31, 27)
    assert board.fen() == "W:W31-32:B19-20"


def test_a_board_in_a_reference_cycle_is_collected() -> None:
    board = draughts.Board()
    board.push_pdn("32-28")
    board.move_stack.append(board)  # type: ignore[arg-type]  # a cycle through C state
    ref = weakref.ref(board)
    del board
    gc.collect()
    assert ref() is None


class Annotated(draughts.Board):
    """A subclass that counts the moves pushed (the C push is inherited)."""

    def push(self, move: Move) -> None:
        self.pushed = getattr(self, "pushed", 0) + 1
        super().push(move)


def test_a_subclass_extends_push() -> None:
    board = Annotated()
    board.push_pdn("32-28")
    board.push_pdn("19-23")
    assert board.pushed == 2
    plain = draughts.Board()
    plain.push_pdn("32-28")
    plain.push_pdn("19-23")
    assert state(board) == state(plain)


@pytest.mark.parametrize(
    ("variant", "in_c"),
    [(V.INTERNATIONAL, True), (V.ENGLISH, True), (V.RUSSIAN, True), (V.FRISIAN, False)],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_which_variants_push_in_c(
    variant: draughts.Variant, in_c: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every padded board the native core holds plays in C; Frisian, whose
    king-move count only the Python push keeps, goes to Python."""
    calls = []
    python_push = draughts.Board._push_python

    def counted(self: draughts.Board, move: Move) -> None:
        calls.append(move)
        python_push(self, move)

    monkeypatch.setattr(draughts.Board, "_push_python", counted)
    board = draughts.Board(variant=variant)
    rng = random.Random(7)
    for _ in range(60):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    assert (not calls) == in_c


def unique_in_c(board: draughts.Board, origin: int, destination: int, capture: bool) -> object:
    """The C loop's answer for one move: the move it would visit, or None
    (the line "1-2" or "1x2", its numbers naming the squares asked about)."""
    seen: list[Move] = []
    text = "1x2" if capture else "1-2"
    numbers = (None, origin, destination)
    assert _native.play_line is not None
    _native.play_line(board.copy(), text, len(text), numbers, lambda b, m: seen.append(m))
    return seen[0] if seen else None


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_the_unique_move_agrees_with_python(variant: draughts.Variant, seed: int) -> None:
    """The PDN reader's question (the one legal move between two squares, a
    capture or not) gets Python's answer, for the legal moves' squares, for
    random squares, and for the wrong separator."""
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    last = board.variant.square_count
    for _ in range(rng.randrange(10, 80)):
        legal = list(board.legal_moves)
        if not legal:
            break
        pairs = [(m.from_square, m.to_square) for m in legal]
        pairs += [(rng.randint(1, last), rng.randint(1, last)) for _ in range(5)]
        for origin, destination in pairs:
            for capture in (False, True):
                expected = board._unique_move_python(origin, destination, capture)
                found = unique_in_c(board, origin, destination, capture)
                assert found == expected
                if found is not None:
                    assert found.path == expected.path  # type: ignore[attr-defined,union-attr]
        board.push(rng.choice(legal))


def test_the_unique_move_of_a_square_off_the_board_raises_as_moves_between() -> None:
    board = draughts.Board(variant="english")
    for origin, destination in [(0, 14), (9, 33), (-1, 14)]:
        with pytest.raises(ValueError, match="no square"):
            unique_in_c(board, origin, destination, False)


def plain_line(variant: draughts.Variant, rng: random.Random) -> str:
    """A plain line of a random game's moves, with move numbers and spacing
    as records write them, maybe spoiled at a random move (a number with no
    square, a move that is not legal, the wrong separator), maybe ending
    with a result."""
    game = draughts.Board(variant=variant)
    words: list[str] = []
    for _ in range(rng.randrange(1, 60)):
        legal = list(game.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        sep = "x" if move.captures else "-"
        words.append(f"{move.from_square}{rng.choice(['', ' '])}{sep}{move.to_square}")
        game.push(move)
    spoiled = rng.randrange(len(words) + 1)
    if spoiled < len(words):
        origin, destination = words[spoiled].replace("x", "-").split("-")
        words[spoiled] = rng.choice(
            [
                f"{origin}-99",
                f"{destination}-{origin}",
                words[spoiled].translate({45: 120, 120: 45}),
            ]
        )
    parts = []
    for ply, word in enumerate(words):
        if ply % 2 == 0 and rng.random() < 0.7:
            parts.append(f"{ply // 2 + 1}." + rng.choice(["", " ", "  "]))
        parts.append(word + rng.choice([" ", "  ", "\t"]))
    return "".join(parts) + rng.choice(["", "*", "2-0", "1-1", "1/2-1/2"]) + rng.choice(["", "\n"])


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_the_plain_line_loop_agrees_with_python(variant: draughts.Variant, seed: int) -> None:
    """The PDN reader's loop over a plain line's moves, in C and in Python
    (:meth:`Resolver.play_line`): the same moves visited (each before its
    push) and played, the same count and place where it stopped, the same
    board, when the line goes wrong at a random place."""
    rng = random.Random(seed)
    text = plain_line(variant, rng)
    end = _pdn_lexer._plain_line_end_python(text)
    if end < 0:  # a square over 99, which no plain line writes
        assert _native.plain_line_end is not None and _native.plain_line_end(text) == -1
        return

    def replay(play: Callable[..., tuple[int, int]]) -> tuple[object, ...]:
        board = draughts.Board(variant=variant)
        seen: list[tuple[str, Move]] = []

        def visit(b: draughts.Board, move: Move) -> None:
            seen.append((b.fen(), move))

        return (play(board, text, end, visit), seen, state(board))

    resolver = Resolver(variant)
    native = replay(resolver._play_line_native)
    assert native == replay(Resolver(variant)._play_line_python)
    played, stop = native[0]  # type: ignore[misc]
    assert stop == end if played == len(_pdn_lexer.PLAIN_MOVE.findall(text, 0, end)) else stop < end


@pytest.mark.parametrize(
    ("text", "played", "stop"),
    [
        ("1. 32-28 19-23! 2. 28x19", 1, 9),  # a move strength is not plain
        ("32-28 {c} 19-23", 1, 6),
        ("32-28  19-23x", 1, 7),  # nor a move not followed by a space
        ("32-28 1-1", 1, 6),  # the result of some variants
        ("   ", 0, 3),
        ("12.", 0, 3),
    ],
)
def test_the_c_loop_stops_at_what_is_not_plain(text: str, played: int, stop: int) -> None:
    """Given a line that is not plain (the lexer never gives it one), the C
    loop plays the plain moves before the first thing that is not, and says
    where that starts."""
    board = draughts.Board()
    assert _native.play_line is not None
    numbers = Resolver(board.variant).numbers
    result = _native.play_line(board, text, len(text), numbers, lambda b, m: None)
    assert result == (played, stop)
    assert len(board.move_stack) == played


@pytest.mark.parametrize(
    "arguments",
    [
        (b"32-28", 5, (), print),
        ("32-28", 6, (), print),
        ("32-28", -1, (), print),
        ("32-28", 5, [], print),
        ("32-28", 5, (), None),
        ("32-28", 5.0, (), print),
    ],
)
def test_the_c_loop_checks_its_arguments(arguments: tuple[object, ...]) -> None:
    with pytest.raises((TypeError, ValueError)):
        _native.play_line(draughts.Board(), *arguments)


@pytest.mark.parametrize("variant", [V.RUSSIAN, V.BRAZILIAN], ids=lambda v: v.name)
@pytest.mark.parametrize(
    "fen",
    [
        "W:WK1,K10,K19:BK32",  # three kings against one: the long-diagonal rules count
        "W:WK1,K10:BK32",
        "W:WK1,K10,K19:BK31,K32",  # one piece too many for them
        "W:WK1,K10,K19,12:BK32,27",
    ],
)
def test_king_moves_on_and_off_the_long_diagonal_count_as_in_python(
    variant: draughts.Variant, fen: str
) -> None:
    """Russian and Brazilian rules about a lone king on the long diagonal
    start or stop with a quiet king move onto or off it, when few pieces
    are left: every move of these positions, and two plies deep."""
    board = draughts.Board(fen, variant=variant)
    for move in list(board.legal_moves):
        check_move(board, move)
        board.push(move)
        for reply in list(board.legal_moves):
            check_move(board, reply)
        board.pop()
