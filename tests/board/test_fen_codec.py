"""The fast FEN reader and writer of ``draughts._fen`` against the rules of
the format (PDN 3.0 FEN, rules-research.md §2) and against the general parser.

``parse_fen`` tries a table-driven reader for the canonical form first and
falls back to the general parser for everything else, so the two must never
disagree: the property tests below feed both the same text.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import InvalidFenError
from draughts._context import context
from draughts._fen import FenCodec, _parse_general, format_fen, parse_fen
from draughts.variant import CANADIAN, INTERNATIONAL

VARIANTS = [
    "international",
    "english",
    "russian",
    "brazilian",
    "canadian",
    "turkish",
    "italian",
    "thai",
    "canadian-algebraic",
]
# A board with a k-file and algebraic names: "k7" is a square there, "K7" a king.
_EVOLVED = {
    "canadian-algebraic": attrs.evolve(
        CANADIAN, name="canadian-algebraic", aliases=(), notation="algebraic", first_square_corner=0
    )
}


def _tables(name: str) -> FenCodec:
    return context(_EVOLVED.get(name) or draughts.find_variant(name)).fen


# -- Writing: expected strings worked out by hand -------------------------------


@pytest.mark.parametrize(
    ("men", "kings", "expected"),
    [
        # Runs of two or more consecutive men are ranges; single men stand alone.
        ([31, 32], [], "31-32"),
        ([7], [], "7"),
        ([1, 2, 3, 5, 6], [], "1-3,5-6"),
        # A king breaks a run of men (4 is a king, so 1-3 and 5-6 are separate)
        # and kings are listed one by one, in square order with the men.
        ([1, 2, 3, 5, 6], [4], "1-3,K4,5-6"),
        ([], [10, 11, 12], "K10,K11,K12"),
        ([45], [1], "K1,45"),
        ([6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [], "6-15"),
    ],
)
def test_numeric_writing(men: list[int], kings: list[int], expected: str) -> None:
    # Black's pieces: its men may stand on 1-45 (it is crowned on 46-50).
    board = draughts.Board.empty()
    for square in men:
        board.set_piece_at(square, draughts.Piece(draughts.MAN, draughts.BLACK))
    for square in kings:
        board.set_piece_at(square, draughts.Piece(draughts.KING, draughts.BLACK))
    assert board.fen() == f"W:W:B{expected}"


def test_empty_sides_are_written_as_bare_letters() -> None:
    assert draughts.Board.empty().fen() == "W:W:B"


def test_algebraic_writing_orders_by_column_then_rank() -> None:
    # Russian players list squares file by file: a1, a3, b2, c1, ...
    board = draughts.Board("B:WKc3,a1,e1:Bh8,b8,Ka7", variant="russian")
    assert board.fen() == "B:Wa1,Kc3,e1:BKa7,b8,h8"


def test_algebraic_ranks_sort_as_numbers() -> None:
    # On a 10x10 board with algebraic names, rank 10 comes after rank 8, not
    # before it as it would in string order.
    variant = attrs.evolve(INTERNATIONAL, name="algebraic-10x10", notation="algebraic", aliases=())
    board = draughts.Board.empty(variant=variant)
    for name in ("a10", "a8", "c10"):
        board.set_piece_at(
            variant.parse_square(name), draughts.Piece(draughts.KING, draughts.BLACK)
        )
    assert board.fen().endswith(":BKa8,Ka10,Kc10")


def test_start_positions_are_written_canonically() -> None:
    # Published start FENs (rules-research.md §4.2).
    assert draughts.Board().fen() == "W:W31-50:B1-20"
    assert draughts.Board(variant="english").fen() == "B:W21-32:B1-12"
    assert draughts.Board(variant="canadian").fen() == "W:W43-72:B1-30"


# -- Reading: canonical forms and the errors the fast reader must not hide ------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("W:W31-50,31:B1-20", "listed twice"),  # a range, then one of its squares again
        ("W:W31-50:B1-20,45", "listed twice"),
        ("W:W1-5:B20", "would have been crowned"),  # white men on Black's back row
        ("W:W31-50:B1-20,21", "more than the 20"),
        ("W:W31-51:B1", "off the international board"),
        ("W:W35-31:B1", "descending range"),
        ("W:W31:B1,", "empty square"),
        ("W:W31-50:B1-20:", None),  # an empty trailing field is ignored
    ],
)
def test_errors_survive_the_fast_reader(text: str, problem: str | None) -> None:
    # Warm the range cache with the same items first: a remembered range must
    # not let a bad FEN through.
    draughts.Board("W:W31-50:B1-20")
    draughts.Board("W:W31-35:B1")
    if problem is None:
        assert draughts.Board(text).fen() == "W:W31-50:B1-20"
    else:
        with pytest.raises(InvalidFenError, match=problem):
            draughts.Board(text)


def test_king_range_crowns_every_square_even_when_remembered() -> None:
    for _ in range(2):
        assert draughts.Board("W:WK31-33:B1").fen() == "W:WK31,K32,K33:B1"
        assert draughts.Board("W:W31-33:B1").fen() == "W:W31-33:B1"


@pytest.mark.parametrize(
    ("text", "counters"),
    [
        # lidraughts writes the halfmove clock and the move number (rules-research.md §2.2).
        ("W:W31-50:B1-20:H0:F1", (0, 1)),
        ("B:W31-50:B1-20:H7:F12", (7, 12)),
        ("W:W31-50:B1-20:F3", (None, 3)),
        ("W:W31-50:B1-20:H2:H5", (5, None)),  # the last one counts, as in the general parser
    ],
)
def test_lidraughts_counters(text: str, counters: tuple[int | None, int | None]) -> None:
    t = _tables("international")
    position = parse_fen(t, text)
    assert (position.halfmove_clock, position.fullmove_number) == counters
    assert position == _parse_general(t, text, True)


@pytest.mark.parametrize("text", ["W:W31-50:B1-20:H", "W:W31-50:B1-20:Hx", "W:W31-50:B1-20:X1"])
def test_malformed_counters_are_still_errors(text: str) -> None:
    with pytest.raises(InvalidFenError, match="unknown fen field"):
        draughts.Board(text)


def test_numeric_squares_on_an_algebraic_board() -> None:
    # Russian also has a numeric numbering (GameType 25): 1-12 are Black's men.
    board = draughts.Board("W:W21-32:B1-12", variant="russian")
    assert board.fen() == draughts.find_variant("russian").starting_fen


# -- Properties: fast and general readers agree, writing round-trips ------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, int, tuple[int, int], tuple[int, int]]:
    """A random legal-looking position of a random variant: each square empty
    or holding a man or king of either colour, men never on their crowning row."""
    name = draw(st.sampled_from(VARIANTS))
    t = _tables(name)
    men, kings = [0, 0], [0, 0]
    for square in range(1, t.geometry.square_count + 1):
        bit = t.geometry.bit_of_square[square]
        what = draw(st.integers(0, 6))
        if what < 3:
            continue
        color = what % 2
        if what >= 5 or bit & t.geometry.promotion_mask[color]:
            kings[color] |= bit
        else:
            men[color] |= bit
    turn = draw(st.integers(0, 1))
    return name, turn, (men[0], men[1]), (kings[0], kings[1])


def _reference_items(t: FenCodec, men: int, kings: int) -> list[str]:
    """A plain writer to check the table-driven one: walk every square in
    writing order and group consecutive men on numeric boards."""
    entries = [
        (n, bool(kings & t.geometry.bit_of_square[n]))
        for n in range(1, t.geometry.square_count + 1)
        if (men | kings) & t.geometry.bit_of_square[n]
    ]
    names = t.geometry.name_of_square
    if t.geometry.algebraic:
        entries.sort(key=lambda e: (names[e[0]][0], int(names[e[0]][1:])))
        return [("K" if king else "") + names[n] for n, king in entries]
    items: list[str] = []
    run: list[int] = []
    for n, king in [*entries, (0, True)]:
        if not king and run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            items.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [] if king else [n]
        if king and n:
            items.append(f"K{n}")
    return items


Case = tuple[str, int, tuple[int, int], tuple[int, int]]
# The random tests below: 100 examples by default (about 0.4 s of CPU time
# each), 1,000 in the slow run.
FAST = settings(max_examples=100, deadline=None)
SLOW = settings(max_examples=1000, deadline=None)


@FAST
@given(positions())
def test_writing_matches_a_plain_writer_and_reads_back(case: Case) -> None:
    _writing_matches_a_plain_writer_and_reads_back(case)


@pytest.mark.slow
@SLOW
@given(positions())
def test_writing_matches_a_plain_writer_and_reads_back_many(case: Case) -> None:
    _writing_matches_a_plain_writer_and_reads_back(case)


def _writing_matches_a_plain_writer_and_reads_back(case: Case) -> None:
    name, turn, men, kings = case
    t = _tables(name)
    fen = format_fen(t, (turn, men, kings))
    white = ",".join(_reference_items(t, men[0], kings[0]))
    black = ",".join(_reference_items(t, men[1], kings[1]))
    assert fen == f"{'WB'[turn]}:W{white}:B{black}"
    for limit in (False, True):
        if limit and max((men[c] | kings[c]).bit_count() for c in (0, 1)) > t.start_piece_count:
            continue
        position = parse_fen(t, fen, limit_pieces=limit)
        assert (position.turn, position.men, position.kings) == (turn, men, kings)
        assert position == _parse_general(t, fen, limit)


def _outcome(read: Callable[[], object]) -> object:
    try:
        return read()
    except InvalidFenError as error:
        return ("error", str(error))


@FAST
@given(positions(), st.data())
def test_fast_and_general_readers_agree_on_edited_fens(case: Case, data: st.DataObject) -> None:
    _fast_and_general_readers_agree_on_edited_fens(case, data)


@pytest.mark.slow
@SLOW
@given(positions(), st.data())
def test_fast_and_general_readers_agree_on_edited_fens_many(
    case: Case, data: st.DataObject
) -> None:
    _fast_and_general_readers_agree_on_edited_fens(case, data)


def _fast_and_general_readers_agree_on_edited_fens(case: Case, data: st.DataObject) -> None:
    """Canonical FENs, some with lidraughts' counters, with one edit (a
    character dropped, or another inserted or put in its place): both readers
    give the same position or the same error."""
    name, turn, men, kings = case
    t = _tables(name)
    fen = format_fen(t, (turn, men, kings))
    fen += data.draw(st.sampled_from(["", ":H0:F1", ":H12", ":F7:H3"]))
    at = data.draw(st.integers(0, len(fen)))
    piece = data.draw(
        st.sampled_from(["", ",", "-", ":", "K", "k", "0", "9", "W", "B", "H", "F", "x", " ", "\n"])
    )
    cut = data.draw(st.integers(0, 1))
    edited = fen[:at] + piece + fen[at + cut :]
    for limit in (False, True):
        fast = _outcome(lambda: parse_fen(t, edited, limit_pieces=limit))  # noqa: B023
        general = _outcome(lambda: _parse_general(t, edited, limit))  # noqa: B023
        assert fast == general


def test_every_remembered_item_reads_as_the_general_parser_reads_it() -> None:
    draughts.Board("W:W31-50:B1-20")  # remember a few ranges too
    draughts.Board("W:WK31-33:B1-4")
    for name in VARIANTS:
        t = _tables(name)
        for item, (mask, is_king) in list(t.items.items()):
            # A man's item is read for the colour that may stand on its square.
            for letter, color in (("W", 0), ("B", 1)):
                try:
                    position = _parse_general(t, f"W:{letter}{item}", False)
                except InvalidFenError:
                    continue
                expected = (
                    position.men[color] | position.kings[color],
                    bool(position.kings[color]),
                )
                assert (mask, is_king) == expected, (name, item)
                break
            else:
                # A range no colour's men may fill (over a crowning row),
                # remembered from a FEN that was then refused, as
                # '[FEN "B:W1-32:B1"]' is in English: refused here too.
                for letter in "WB":
                    with pytest.raises(InvalidFenError):
                        parse_fen(t, f"W:{letter}{item}")
