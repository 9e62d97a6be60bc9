"""draughts.pdn: reading, the game tree, visitors and writing.

Expected values come from the PDN 3.0 standard's examples, the rule books and
hand reasoning given in comments (international squares: row r from the top
holds squares 5r-4..5r; odd rows start in column 2, even rows in column 1).
"""

from __future__ import annotations

import gc
import io
import weakref
from pathlib import Path

import pytest

import draughts
from draughts import _core, pdn
from draughts.move import Move
from draughts.pdn import builders as _pdn_builders
from draughts.pdn import lexer as _pdn_lexer
from draughts.pdn import tree as _pdn_tree
from draughts.pdn.resolver import Resolver
from tests.conftest import game_tree as tree

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"


def read(text: str, **kwargs: object) -> pdn.Game:
    game = pdn.read_game(io.StringIO(text), **kwargs)  # type: ignore[call-overload]
    assert game is not None
    return game


def moves(game: pdn.GameNode) -> list[str]:
    return [str(move) for move in game.mainline_moves()]


# -- Reading: tags, results, game boundaries -------------------------------------


def test_tags_moves_and_result() -> None:
    game = read('[Event "Test"]\n[White "A"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0')
    assert dict(game.headers) == {"Event": "Test", "White": "A", "Result": "2-0"}
    # 28x19 takes the man on 23; 14x23 takes the man on 19.
    assert moves(game) == ["32-28", "19-23", "28x19", "14x23"]
    assert game.mainline_moves()[2].captures == (23,)
    assert game.errors == []
    # White lost the man that went 32-28-19; Black the one from 19 (14 now on 23).
    assert game.end().board().fen() == "W:W31,33-50:B1-13,15-18,20,23"


def test_end_of_file_and_several_games() -> None:
    handle = io.StringIO("1. 32-28 *\n\n1. 31-27 *\n")
    first, second = pdn.read_game(handle), pdn.read_game(handle)
    assert first is not None and second is not None
    assert moves(first) == ["32-28"] and moves(second) == ["31-27"]
    assert pdn.read_game(handle) is None
    assert pdn.read_game(io.StringIO("")) is None
    assert pdn.read_game(io.StringIO("\n  % only a line comment\n")) is None


def test_games_on_one_line_and_tags_without_terminator() -> None:
    # Nemesis writes no result token: the next tag block starts the next game.
    handle = io.StringIO(
        '[FEN "W:W31-50:B1-20"] *  1. 32-28 *\n[Event "A"]\n32-28 19-23\n[Event "B"]\n31-27\n'
    )
    games = []
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    assert [moves(g) for g in games] == [[], ["32-28"], ["32-28", "19-23"], ["31-27"]]
    assert [g.headers.get("Event") for g in games] == [None, None, "A", "B"]


@pytest.mark.parametrize(
    "token, variant",
    [
        ("1-0", "english"),
        ("0-1", "english"),
        ("1/2-1/2", "english"),
        ("*", "english"),
        ("2-0", "international"),
        ("0-2", "international"),
        ("1-1", "international"),
        ("0-0", "international"),
        ("1/2:1/2", "russian"),
        ("0:1", "russian"),
    ],
)
def test_result_forms_end_the_game(token: str, variant: str) -> None:
    first = {"english": "11-15", "international": "32-28", "russian": "c3-d4"}[variant]
    handle = io.StringIO(f"1. {first} {token}\n1. {first} *")
    game = pdn.read_game(handle, variant=variant)
    assert game is not None and game.errors == []
    assert game.headers["Result"] == token
    assert pdn.read_game(handle, variant=variant) is not None


def test_one_one_draw_is_not_a_move_prefix() -> None:
    # "1-10" is a move; "1-1" only a result when no digit follows (PDN 3.0 reading grammar).
    game = read("1-10 *")
    assert game.errors[0].kind == "illegal"  # 1-10 is not legal for White at the start


def test_escaped_quote_in_tag() -> None:
    game = read((DATA / "succeed_string.pdn").read_text())
    assert game.headers["White"] == 'This is a string with an escaped character "'
    assert moves(game) == ["32-28"]


def test_headers_variant() -> None:
    assert pdn.Headers(GameType="25").variant().name == "russian"
    assert pdn.Headers(GameType="21", Variant="dama-flying").variant().name == "dama-flying"
    assert pdn.Headers(GameType="21").variant().name == "english"
    assert pdn.Headers(GameType="20,W,10,10,N2,0").variant() is draughts.variant.INTERNATIONAL
    assert pdn.Headers().variant().name == "international"
    assert pdn.Headers().variant(default="pool").name == "pool"
    with pytest.raises(ValueError, match="unknown GameType"):
        pdn.Headers(GameType="0").variant()
    with pytest.raises(ValueError, match="tag name"):
        pdn.Headers()["Bad Name"] = "x"


def test_unknown_gametype_is_an_error_and_keeps_the_moves_as_text() -> None:
    handle = io.StringIO('[GameType "0"]\n1. e4 e5 *\n1. 32-28 *')
    game = pdn.read_game(handle)
    assert game is not None
    assert [e.kind for e in game.errors] == ["variant"]
    assert (game.errors[0].line, game.errors[0].column) == (1, 1)
    assert game.errors[0].unparsed == "1. e4 e5"
    second = pdn.read_game(handle)
    assert second is not None and moves(second) == ["32-28"]


# -- Reading: movetext forms -----------------------------------------------------


def test_comments_of_every_kind() -> None:
    text = (
        "{before} 1. 32-28 {a\n multi-line   comment} 19-23 ; to the end of line\n"
        "% skipped entirely\n2. 28x19 *"
    )
    game = read(text)
    assert game.comment == "before"
    first, second, _ = game.mainline()
    assert first.comment == "a multi-line comment"
    assert second.comment == "to the end of line"
    assert moves(game) == ["32-28", "19-23", "28x19"]


def test_nags_and_move_strengths() -> None:
    game = read((DATA / "succeed_movestrength.pdn").read_text())
    first, second, third = game.mainline()
    assert first.nags == {5}  # !? is NAG 5
    # (!?!!!) has no NAG number: kept as text so nothing is lost.
    assert second.comment == "(!?!!!)"
    assert third.nags == set()
    assert read("1. 32-28 $14 $1 19-23* *").variations[0].nags == {1, 14}
    assert read("1. 32-28 19-23* *").end().nags == {7}  # PDN's "*" strength is NAG 7


def test_nags_of_a_read_node_can_be_added_and_assigned() -> None:
    # A node's set of NAGs is made when first asked for: it must then stay.
    game = read("1. 32-28 19-23 *")
    first, second = game.mainline()
    first.nags.add(3)
    assert first.nags == {3} and first.nags is first.nags
    second.nags = {2}
    assert str(game).endswith("1. 32-28!! 19-23? *")
    assert game.nags == set()


def test_nested_variations_from_the_standard() -> None:
    # PDN 3.0 grammar example: 18-23 replaces 19-23, 37-32 replaces 38-32.
    game = read((DATA / "succeed_variation.pdn").read_text())
    assert game.errors == []
    assert moves(game) == ["32-28", "19-23", "28x19", "14x23"]
    reply = game.variations[0]
    assert [str(n.move) for n in reply.variations] == ["19-23", "18-23"]
    side = reply.variations[1]
    assert [str(n.move) for n in side.variations] == ["38-32", "37-32"]
    inner = side.variations[1]
    assert inner.nags == {2}
    assert inner.variations[0].nags == {1}
    assert inner.variations[0].comment == "Black wins"
    assert [str(m) for m in side.variations[0].mainline_moves()] == ["12-18"]
    assert not inner.is_mainline() and reply.is_mainline()


def test_variation_starting_comment_and_numbers() -> None:
    game = read("1. 32-28 19-23 (1... {or} 18-23 2. 38-32) 2. 28x19 *")
    alternative = game.variations[0].variations[1]
    assert alternative.starting_comment == "or"
    assert str(alternative.move) == "18-23"


def test_move_numbers_optional_and_ellipsis() -> None:
    assert moves(read("32-28 19-23 28x19 *")) == ["32-28", "19-23", "28x19"]
    assert moves(read("1. 32-28 1. ... 19-23 *")) == ["32-28", "19-23"]
    assert moves(read("1.32-28 1...19-23 *")) == ["32-28", "19-23"]


def test_padded_squares_and_separators() -> None:
    # candidate95 writes "1- 7"; a black man on 1 steps to 7 (or 6).
    game = read('[FEN "B:W50:B1"] 1... 1- 7 *')
    assert game.mainline_moves() == [Move(1, 7)]
    assert moves(read("1. 32 - 28 19 -23 *")) == ["32-28", "19-23"]
    assert read('[FEN "W:W28:B23"] 28:19 *').mainline_moves()[0].captures == (23,)
    assert moves(read("1. 3228 1923 *")) == ["32-28", "19-23"]


def test_algebraic_and_russian_short_notation() -> None:
    game = read('[GameType "25"] 1. c3-d4 f6-g5 2. g3-h4 *')
    assert [game.variant.square_name(m.from_square) for m in game.mainline_moves()] == [
        "c3",
        "f6",
        "g3",
    ]
    # Old Russian short form: origin file and destination (c3-d4 is "cd4").
    short = read('[GameType "25"] 1. cd4 fg5 *')
    assert short.mainline_moves() == game.mainline_moves()[:2]
    assert read("1. a3b4 *", variant="russian").errors == []


def test_split_capture_form() -> None:
    # White man 28 takes 23 (landing 19) then 13 (landing 8): written in two parts.
    game = read('[FEN "W:W28:B13,23"] 28x19 19x8 *')
    assert game.errors == []
    assert game.mainline_moves() == [Move(28, 8, captures=(23, 13), path=(28, 19, 8))]


def test_split_capture_across_a_move_number() -> None:
    # Playstrategy writes the two jumps of 2x11x18 as "e1xc3 58. c3xe5"; square
    # names count from the first player's (Black's) corner on the English board.
    game = read('[FEN "W:WK2:BK1,K7,K15"] 57... e1xc3 58. c3xe5 *', variant="english")
    assert game.errors == []
    assert game.mainline_moves()[0].captures == (7, 15)


def test_ambiguous_capture_settled_by_the_next_moves() -> None:
    # English, 23x7 is 23x14x7 (takes 18, 10) or 23x16x7 (takes 19, 11); after
    # 23x14x7 Black's 11 is still there to play 11-15, after 23x16x7 it is not.
    game = read('[FEN "W:W23:B8,10,11,18,19"] 1... 23x7 2. 11-15 *', variant="english")
    assert game.errors == []
    assert game.mainline_moves()[0].captures == (18, 10)
    assert [w.kind for w in game.warnings] == ["notation"]


def test_full_route_chooses_between_captures() -> None:
    # English, White man on 23: over 18 to 14 then over 10 to 7, or over 19 to 16
    # then over 11 to 7 (rows of four: 23 and 18, 14 and 10, 16 and 11 line up).
    fen = "W:W23:B8,10,11,18,19"
    first = read(f'[FEN "{fen}"] 23x14x7 *', variant="english")
    second = read(f'[FEN "{fen}"] 23x16x7 *', variant="english")
    assert first.mainline_moves()[0].captures == (18, 10)
    assert second.mainline_moves()[0].captures == (19, 11)
    # Nothing after "23x7" tells the two apart: one is taken, and the warning
    # names it and the other.
    ambiguous = read(f'[FEN "{fen}"] 23x7 *', variant="english")
    assert ambiguous.errors == []
    taken = ambiguous.mainline_moves()[0]
    assert taken.captures in ((18, 10), (19, 11))
    route, other = ("23x14x7", "23x16x7") if taken.captures == (18, 10) else ("23x16x7", "23x14x7")
    [warning] = ambiguous.warnings
    assert f"read as {route}," in warning.message and f"({other} fits too)" in warning.message
    # The strict check reports it (every warning is a PDN 3.0 violation there).
    assert warning.kind == "notation"


def test_fen_tag_with_and_without_setup_and_setup_command() -> None:
    with_setup = read('[SetUp "1"]\n[FEN "W:W28:B23"]\n28x19 *')
    without = read('[FEN "W:W28:B23."]\n28x19 *')
    command = read('/FEN "W:W28:B23"/ 28x19 *')
    for game in (with_setup, without, command):
        assert game.errors == [] and moves(game) == ["28x19"]
    assert command.headers["FEN"] == "W:W28:B23"


def test_bad_fen_and_late_setup_are_errors() -> None:
    bad = read('[FEN "W:W99:B1"] 1. 32-28 *')
    assert bad.errors[0].kind == "fen" and bad.errors[0].unparsed == "1. 32-28"
    late = read('1. 32-28 /FEN "W:W31-50:B1-20"/ 19-23 *')
    assert late.errors[0].kind == "setup" and moves(late) == ["32-28"]


def test_clock_in_comment() -> None:
    game = read("1. 32-28 {[%clk 1:55:21]} *")
    assert game.variations[0].clock() == 1 * 3600 + 55 * 60 + 21
    assert game.clock() is None


def test_byte_order_mark_left_in_the_text() -> None:
    game = read('\ufeff[Event "x"]\n1. 32-28 *')
    assert game.errors == [] and game.headers["Event"] == "x"


def test_nag_without_a_move_is_reported() -> None:
    game = read("$1 1. 32-28 19-23 ($3 18-23) *")
    assert [(e.column, e.kind) for e in game.errors] == [(1, "syntax"), (20, "syntax")]
    assert game.nags == set() and all(not n.nags for n in game.variations[0].variations)


def test_crlf_and_line_numbers() -> None:
    game = read('[Event "x"]\r\n\r\n1. 32-28 19-23\r\n2. 32-27 *\r\n')
    assert [(e.line, e.column, e.kind) for e in game.errors] == [(4, 4, "illegal")]


# -- Plain lines: the reader's fast path --------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "1. 32-28 19-23 2. 28x19 14x23\n",
        "  6.32-27 23-28  7.34-30 20-24\n",
        "44. 18x 9 14x 3\n",
        "4. 41-37  1- 7",
        "1. 32-28 17-22 2-0\n",
        "51. 32x3 1/2-1/2\n",
        "12. 1-10 *\n",
        "33-28 1-1\n",
        "1. 32-28 2-2\n",  # "2-2" is no result: a move
    ],
)
def test_plain_lines(line: str) -> None:
    assert _pdn_lexer.PLAIN_LINE.fullmatch(line)
    assert _pdn_lexer.plain_line_end(line) >= 0


@pytest.mark.parametrize(
    "line",
    [
        "1-0\n",
        "\n",
        "1. 32-28 1-1 19-23\n",
        "32-28-23\n",
        "32-28!\n",
        "1. 32-28 {c}\n",
        '[Event "x"]\n',
        "05-10\n",
        "1...19-23\n",
        "32-2819-23\n",
        "2-0 32-28\n",
        "c3-d4\n",
        "32:28\n",
        "32X28\n",
        "\ufeff1. 32-28\n",
        "32-28 1-0 [Event",
    ],
)
def test_lines_that_are_not_plain(line: str) -> None:
    assert not _pdn_lexer.PLAIN_LINE.fullmatch(line)
    assert _pdn_lexer.plain_line_end(line) == -1


# Texts whose plain lines hold something the fast path leaves to the
# token-by-token reading: each is read both ways and must come out the same.
FAST_PATH_CASES = [
    "1. 32-28 19-23 2. 28x19 14x23 2-0",
    '[Event "a"]\n\n1. 32-28 19-23\n2. 28-19 14x23 *',  # capture written with "-"
    "1. 32x28 19-23\n2. 28x22 *",  # step written with "x"
    "1. 32-28 19-23 2. 28-22 23x32 3. 31-27 *\n\n1. 31-27 *",  # illegal, then a game
    "1. 32-28 51-46 2. 31-27 *",  # no such square
    "1. 32-28 19-23\n2. 28x 19 14x23 1-1\n",
    "32-28 19-23\n28x19 14x23\n*",
    "\t1. 32-28\t19-23 (18-23 2. 28x19)\n2. 28x19 14x23 *",
    '[FEN "W:W28:B13,23"]\n28x19\n19x8 *',  # split capture
    '[FEN "W:W23:B8,10,11,18,19"]\n1... 23x7\n2. 11-15\n*',  # ambiguous, then settled
    '[GameType "20,W,10,10,N1,0"]\n1. 32-28 18-23 *',
    '[FEN "B:W31-50:B1-20"]\n20-25 31-27 *',
    "1. 32-28 *\n1. 31-27 *\n",
    "1. 32-28 50-45\n2. 31-27 17-22 *",  # plain line after an error
    "1. 32-28 19-23 1/2-1/2",
    "1. 32-28 19-23",
    '[GameType "99"]\n1. 32-28 19-23 *',
    "(1. 32-28)\n1. 32-28 *",
    "1. 32-28 19-23\n(18-23) $1 2. 28x19 *",  # the line's moves count
    "1. 32-28 19-23 (\n18-23 2. 28x19\n) {c}\n2. 28x19 14x23 *",  # a side line's first move
    "1. 32-28 19-23 ( {before} $3\n18-23 2. 28x19\n)\n2. 28x19 14x23 *",
]


def _read_all(text: str, variant: str | None = None) -> list[object]:
    handle = io.StringIO(text)
    out: list[object] = []
    while (game := pdn.read_game(handle, variant=variant)) is not None:
        try:
            written = str(game)
        except ValueError as error:  # an unknown GameType
            written = str(error)
        out.append((dict(game.headers), written, tree(game), game.errors, game.warnings))
    handle.seek(0)
    out.append(pdn.read_headers(handle))
    out.append(pdn.skip_game(handle))
    return out


@pytest.mark.parametrize(
    "text",
    [
        *FAST_PATH_CASES,
        *(DATA / name for name in ("babasy4.pdn", "candidate95.pdn", "prof2.pdn")),
    ],
)
def test_plain_lines_read_as_token_by_token(
    text: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if isinstance(text, Path):
        text = text.read_text(encoding="utf-8", errors="replace")
    variant = "english" if "W23:B8" in text else None
    fast = _read_all(text, variant)
    monkeypatch.setattr(_pdn_lexer, "plain_line_end", lambda line: -1)
    monkeypatch.setattr(_pdn_lexer, "tag_line", None)
    assert _read_all(text, variant) == fast


@pytest.mark.parametrize(
    "text",
    [*FAST_PATH_CASES, *sorted(DATA.glob("*.p?n"))],
    ids=lambda text: text.name if isinstance(text, Path) else None,
)
def test_the_native_reading_reads_as_the_pure_one(
    text: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The native core's parts of the reader (plain lines and tag lines read
    in C, moves played by the C loop, nodes made in C) against the pure
    backend's, in one process: the same games, errors, warnings and text."""
    if not _core.STATE_IN_C:
        pytest.skip("the native core is not built (or DRAUGHTS_PURE=1)")
    if isinstance(text, Path):
        text = text.read_text(encoding="utf-8", errors="replace")
    variant = "english" if "W23:B8" in text else None
    native = _read_all(text, variant)
    monkeypatch.setattr(_pdn_lexer, "plain_line_end", _pdn_lexer._plain_line_end_python)
    monkeypatch.setattr(_pdn_lexer, "tag_line", None)
    monkeypatch.setattr(Resolver, "play_line", Resolver._play_line_python)
    monkeypatch.setattr(Resolver, "play_lines", Resolver._play_lines_python)
    monkeypatch.setattr(_pdn_builders, "add_child", None)
    monkeypatch.setattr(_pdn_tree, "add_child", None)
    monkeypatch.setattr(_pdn_tree, "grow_line", None)
    assert _read_all(text, variant) == native


def test_unknown_default_variant_reported_at_the_first_plain_move() -> None:
    game = read("\n  1. 32-28 *", variant="no such variant")
    assert [(e.line, e.column, e.kind) for e in game.errors] == [(2, 3, "variant")]


# -- Errors ----------------------------------------------------------------------


def test_illegal_move_keeps_the_rest_and_reading_goes_on() -> None:
    handle = io.StringIO("1. 32-28 19-23 2. 28-22 {why} 23x32 *\n\n1. 31-27 *")
    game = pdn.read_game(handle)
    assert game is not None
    assert moves(game) == ["32-28", "19-23"]
    (error,) = game.errors
    assert (error.line, error.column, error.kind) == (1, 19, "illegal")
    # After 32-28 19-23 White must take: 28x19 is the only legal move.
    assert error.fen == "W:W28,31,33-50:B1-18,20,23"
    assert "capture is mandatory: 28x19" in error.message
    assert error.unparsed == "28-22 {why} 23x32"
    assert str(error).startswith("1:19: illegal move '28-22'")
    following = pdn.read_game(handle)
    assert following is not None and moves(following) == ["31-27"]


def test_error_in_a_variation_keeps_the_main_line() -> None:
    game = read("1. 32-28 19-23 (18-23 50-50 12-18) 2. 28x19 *")
    assert moves(game) == ["32-28", "19-23", "28x19"]
    (error,) = game.errors
    assert error.kind == "invalid" or error.kind == "illegal"
    assert error.unparsed == "50-50 12-18"


def test_syntax_errors_are_reported_with_position() -> None:
    game = read("1. 32-28 ?? 19-23 ) #@ *")
    assert [(e.column, e.kind) for e in game.errors] == [(19, "syntax"), (21, "syntax")]
    assert moves(game) == ["32-28", "19-23"]
    nested = read((DATA / "fail_nested_comment.pdn").read_text())
    assert [(e.line, e.column) for e in nested.errors] == [(1, 46)]
    unclosed = read("1. 32-28 {never closed\n19-23")
    assert unclosed.errors[0].message.startswith("comment not closed")
    open_variation = read("1. 32-28 (31-27 *")
    assert "variation not closed" in open_variation.errors[0].message


def test_kurnik_gametype_with_standard_numbering() -> None:
    # kurnik declares N1 (square 1 bottom right) but numbers as GameType 20 does.
    game = read('[GameType "20,W,10,10,N1,0"]\n1. 32-28 18-23 *')
    assert game.errors == [] and moves(game) == ["32-28", "18-23"]
    assert game.variant is draughts.variant.INTERNATIONAL


def test_notation_warnings() -> None:
    # Liberal: a capture written with "-" is read, and reported as a warning.
    game = read('[FEN "W:W28:B23"] 28-19 *', variant="international")
    assert game.errors == [] and [w.kind for w in game.warnings] == ["notation"]


def test_a_handle_read_part_way_is_not_kept() -> None:
    # The reader keeps where it stands in a handle in a weak dictionary keyed
    # by the handle; the value held the handle, so every handle not read to
    # its end (an open file, a StringIO of one game, its text) was kept for ever.
    handle = io.StringIO("1. 32-28 *\n\n1. 31-27 *")
    ref = weakref.ref(handle)
    first = pdn.read_game(handle)
    assert first is not None and first.mainline_moves() == [Move(32, 28)]
    del handle
    gc.collect()
    assert ref() is None


def test_thai_captures_written_with_its_separator_are_no_warning() -> None:
    # Thai writes captures with "-" (its capture_separator, as PDN 3.0 gives
    # for GameType 31): each one read was warned of as "written with '-'".
    board = draughts.Board("B:W10,19:B15,23", variant="thai")
    for text in ["15-6", "19-26", "6-1"]:
        board.push_pdn(text)
    assert [bool(move.captures) for move in board.move_stack] == [True, True, False]
    text = str(pdn.Game.from_board(board))
    assert "1. 15-6 19-26 2. 6-1 *" in text
    game = read(text)
    assert game.errors == [] and game.warnings == []
    assert game.mainline_moves() == board.move_stack
    assert read('[GameType "31"]\n[FEN "B:W10:B15"]\n1... 15x6 *').warnings == []
    # A plain move written as a capture is still told.
    told = read('[GameType "31"]\n[FEN "B:W10:B20"]\n1... 20x16 *')
    assert [w.kind for w in told.warnings] == ["notation"]


# -- The tree ----------------------------------------------------------------------


def test_tree_editing() -> None:
    game = pdn.Game(variant="english")
    board = game.board()
    a = game.add_variation(board.parse_pdn("11-15"))
    b = game.add_variation(board.parse_pdn("9-13"))
    assert game.variation(1) is b and game.variation(b.move) is b
    game.promote_to_main(b.move)
    assert game.variations[0] is b and b.is_main_variation()
    end = a.add_line([a.board().parse_pdn("23-19")], comment="end", nags=[1])
    assert end.ply() == 2 and end.comment == "end" and end.game() is game
    game.remove_variation(a.move)
    assert not game.has_variation(a.move)
    with pytest.raises(KeyError):
        game.variation(5)


def test_from_board_and_start_position() -> None:
    board = draughts.Board("W:W28:B23", variant="international")
    board.push(board.parse_pdn("28x19"))
    game = pdn.Game.from_board(board)
    assert game.headers["FEN"] == "W:W28:B23"
    assert game.mainline_moves() == board.move_stack
    assert game.end().board() == board
    plain = pdn.Game.from_board(draughts.Board())
    assert "FEN" not in plain.headers and "GameType" not in plain.headers


# -- Visitors ------------------------------------------------------------------


def test_read_headers_and_skip_game() -> None:
    handle = io.StringIO('[Event "A"]\n1. 32-28 (31-27) *\n[Event "B"]\n1. 31-27 *\n1. 33-29 *')
    headers = pdn.read_headers(handle)
    assert headers is not None and headers["Event"] == "A"
    assert pdn.skip_game(handle)
    last = pdn.read_game(handle)
    assert last is not None and moves(last) == ["33-29"]
    assert not pdn.skip_game(handle)


def test_visitor_can_skip_variations() -> None:
    class MainOnly(pdn.GameBuilder):
        def begin_variation(self) -> pdn.SkipType:
            return pdn.SKIP

    handle = io.StringIO("1. 32-28 19-23 (18-23 (17-22) 38-32) 2. 28x19 *")
    game = pdn.read_game(handle, Visitor=MainOnly)
    assert game is not None
    assert moves(game) == ["32-28", "19-23", "28x19"]
    assert len(game.variations[0].variations) == 1


# -- Writing -------------------------------------------------------------------


def test_export_short_long_and_numbers() -> None:
    game = read('[FEN "W:W23:B8,10,11,18,19"] 23x16x7 *', variant="english")
    # Two routes end on 7, so the full route is written (PDN 3.0 rule 8); the
    # game starts with White, the second player in English: "1...".
    assert str(game).splitlines()[-1] == "1... 23x16x7 *"
    game = read("1. 32-28 {c} 19-23 2. 28x19 *")
    assert game.accept(pdn.StringExporter(headers=False)) == "1. 32-28 {c} 1... 19-23 2. 28x19 *"
    assert game.accept(pdn.StringExporter(headers=False, comments=False)) == (
        "1. 32-28 19-23 2. 28x19 *"
    )


def test_export_writes_results_as_read_unless_a_style_is_asked_for() -> None:
    russian = read('[GameType "25"][Result "1/2:1/2"] 1. c3-d4 1/2:1/2')
    # The tag as read; the terminator in PDN 3.0 form (no colon).
    assert '[Result "1/2:1/2"]' in str(russian) and str(russian).endswith("1/2-1/2")
    international = read('[Result "1-0"] 1. 32-28 1-0')
    assert str(international).endswith("1. 32-28 1-0")
    drawn = read('[Result "1/2-1/2"] 1. 32-28 1/2-1/2')
    assert '[Result "1/2-1/2"]' in str(drawn) and str(drawn).endswith("1/2-1/2")
    styled = {
        results: [
            game.accept(pdn.StringExporter(results=results)).splitlines()[i]
            for game in (russian, international, drawn)
            for i in (-3, -1)
        ]
        for results in ("2-0", "1-0", "variant")
    }
    assert styled == {
        "2-0": ['[Result "1-1"]', "1. c3-d4 1-1", '[Result "2-0"]', "1. 32-28 2-0",
                '[Result "1-1"]', "1. 32-28 1-1"],
        "1-0": ['[Result "1/2-1/2"]', "1. c3-d4 1/2-1/2", '[Result "1-0"]', "1. 32-28 1-0",
                '[Result "1/2-1/2"]', "1. 32-28 1/2-1/2"],
        "variant": ['[Result "1/2-1/2"]', "1. c3-d4 1/2-1/2", '[Result "2-0"]', "1. 32-28 2-0",
                    '[Result "1-1"]', "1. 32-28 1-1"],
    }  # fmt: skip
    with pytest.raises(ValueError, match="results must be one of"):
        pdn.StringExporter(results="1-1")  # type: ignore[arg-type]


def test_export_wraps_at_80_columns() -> None:
    with (DATA / "candidate95.pdn").open(encoding="latin-1") as handle:
        game = pdn.read_game(handle)
    assert game is not None
    lines = str(game).splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(len(line) > 70 for line in lines)


def test_dama_is_written_with_gametype_21_and_variant_tag() -> None:
    game = pdn.Game(variant="dama")
    game.add_variation(game.board().parse_pdn("11-15"))
    text = str(game)
    assert '[GameType "21"]' in text and '[Variant "dama"]' in text
    again = read(text)
    assert again.variant.name == "dama" and again.mainline_moves() == game.mainline_moves()


def test_file_exporter() -> None:
    out = io.StringIO()
    for text in ("1. 32-28 *", "1. 31-27 2-0"):
        read(text).accept(pdn.FileExporter(out, headers=False))
    assert out.getvalue() == "1. 32-28 *\n\n1. 31-27 2-0\n\n"


def test_round_trip_keeps_the_tree() -> None:
    text = (
        '[Event "x"]\n{intro} 1. 32-28! $14 {c1} 19-23 (18-23 {s} 38-32 (37-32? 23-29!)'
        " 12-18) (17-22) 2. 28x19 14x23 *"
    )
    game = read(text)
    again = read(str(game))
    assert tree(again) == tree(game)
    assert str(again) == str(game)


# -- Files and encodings -----------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_open_pdn_guesses_the_encoding(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "g.pdn"
    site = "Fryslân \u2013 Cannes é"  # the en dash is one of CP1252's own characters
    path.write_bytes(f'[Site "{site}"]\n1. 32-28 *'.encode(encoding))
    with pdn.open_pdn(path) as handle:
        game = pdn.read_game(handle)
    assert game is not None and game.headers["Site"] == site


def test_check_strict() -> None:
    errors = pdn.check_strict((DATA / "fail_delfts.pdn").read_text())
    # The "4-6" result is a move to the grammar, so no terminator precedes game 2.
    assert [(e.line, e.column) for e in errors] == [(28, 1)]
    assert pdn.check_strict("1. 001-02 *")[0].message == "unexpected '0'"
    assert pdn.check_strict("1. 32-28 () *")[0].message == "an empty variation"
    messages = [e.message for e in pdn.check_strict('[event "x"] *')]
    assert messages[0] == "unexpected 'e'"
    assert any(m.startswith("a tag needs a tag name") for m in messages)


# -- Notebooks ---------------------------------------------------------------------


def test_game_nodes_render_as_svg() -> None:
    import xml.etree.ElementTree as ET

    def classes(svg: str) -> list[str]:
        return [e.get("class", "") for e in ET.fromstring(svg).iter()]

    game = read("1. 32-28 19-23 2. 28x19 14x23 *")
    root = classes(game._repr_svg_())
    # The start position (20 men each), and no move to mark at the root.
    assert sum(c.startswith("piece white man") for c in root) == 20
    assert sum(c.startswith("piece black man") for c in root) == 20
    assert not any(c.startswith(("lastmove", "route", "captured")) for c in root)
    # After 28x19 (third ply) the white man stands on 19, Black's man from 23
    # is gone and the capture is marked: 28 and 19 tinted, 23 crossed out.
    node = game.variations[0].variations[0].variations[0]
    after = classes(node._repr_svg_())
    assert "piece white man s19" in after and "piece white man s28" not in after
    assert not any(c.startswith("piece") and c.endswith(" s23") for c in after)
    assert {"lastmove s28", "lastmove s19", "captured s23", "route"} <= set(after)
