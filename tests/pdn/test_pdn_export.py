"""Games with errors written back: the tags as they were, the text the errors
left out as it was, so that reading the export finds the same errors."""

from __future__ import annotations

import copy
import io
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughts import pdn
from draughts.board import Board
from tests.conftest import DATA
from tests.fuzz.fuzz_pdn import comparable_errors, mutate, round_trip_failure


def read(text: str, **options: object) -> pdn.Game:
    game = pdn.read_game(io.StringIO(text), **options)  # type: ignore[call-overload]
    assert game is not None
    return game


def messages(game: pdn.Game) -> list[str]:
    return [error.message for error in game.errors]


# Each input passes the round trip: read, str(game), read again give the same
# errors, tags and moves, in one game; and with FileExporter, as many games.
ROUND_TRIPS = [
    # The tags give no board: the whole movetext is kept.
    '[GameType "20"]\n[FEN "W:W18,K15,51:BK30,K26,2."]\n1. 15-10 *',
    '[GameType "20"]\n[FEN "W:W51:B1"]\n{first} ; second\n1. 32-28 (1. 33-29) 19-23 *',
    '[Variant "Turkish-ish"]\n1. 32-28 19-23 *',
    '[GameType "99"]\n1. 32-28 *',
    '[GameType "21"][FEN "B:W1-32:B1"]',
    # A rejected move and the rest of its line, in the main line or a side line.
    "1. 32-28 19-23 2. 28-22 23x32 *",
    "1. 32-28 (1. 32-27 19-23) (1. 33-29 17-21 2. 29-24x) 19-23 *",
    "1. 32-28 ( {why} 31-27x ) 19-23 *",
    '1. 32-28 19-23 /FEN "W:W1:B2"/ 2. 28x19 *',
    '[GameType "20"] /FEN "W:W51:B1"/ 1. 32-28 *',
    "1. 32-28 19-23 41. - - *",
    # Tokens an error skips, kept where they were.
    "1. 32-28 foo 19-23 $3 2. 28x19 ) 14x23 *",
    "$4 1. 32-28 ( !? 1. 33-29 ) 19-23 *",
    "(32-28 19-23) 1. 32-28 *",
    "1. 32-28 19-23 ( (x1) 18-22 ) 2. 28x19 *",
    # Mended, not kept: an unclosed variation or comment is written closed.
    "1. 32-28 (1. 33-29 19-23",
    "1. 32-28 {never closed",
    # Found by tests/fuzz/fuzz_pdn.py, shrunk:
    # a byte order mark as a stray token must not come first in an export,
    # where it would be read as the file's own;
    "1-0\ufeff",
    "\ufeff\ufeff:",
    # both parts of a split capture are kept when the joined capture is rejected.
    "[Variant/English]c3b4 f6e5 b4a5 g7f6 d2c3 h8g7 c3b4 b6c5 g3h4 a7b6 f2g3 e5d4 e3f4 f6e5 "
    "h4g5 g7f6 g3h4 e5g3 h2f4 f6e5 g5f6 e7g52.g5e2",
    # parentheses left open in kept text are closed (open, they took in the
    # ")" the export closes the side line with, and the "$" after it).
    "1. 32-28 $ (1. 33-29 0-4 (",
    "1. 32-28 19-23 2. 28-22 (\n1. 32-28 *",
    # what stood between the tokens of a line is kept (joined by a space,
    # "49x4", "x" and "3" would read as one move);
    "1. 32-28 19-23 2. 49x4x\x0b3 *",
    "9x4x\x0b1",
    # a game whose variant was inferred (Russian, from "2217") is read back
    # as that variant: the export writes "c3-b4", which alone reads as English.
    "22178-3",
    # Brackets on lines of their own stay apart (on one line they would be a tag).
    '1. 32-28 19-27 [\n Event\n "x" \n ] *',
    # A ; comment after a rejected move keeps its line to itself.
    "1. 32-28 19-23 2. 28-22 ; a } b\n 3. x {multi\nline]} tail *",
    # An empty comment before the moves (here one never closed) adds nothing
    # to the game's comment, as among the moves (found by the property below).
    '1. 1. 1. 1. [FEN "W:W31-50:B1-20"] ; rest 1. 1. 1. 1.\n{ ',
    # A stray "[" in a game whose variant is inferred, the result after it:
    # the line read ahead is cut after the result, and the "[" is no tag the
    # end of the file cuts.
    "gh4fe5[4x99 0-2\n",
    "3126192432272025373117374[29910-2\n",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_round_trip_keeps_the_errors(text: str) -> None:
    assert round_trip_failure(text) is None
    handle = io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    assert any(game.errors for game in games), "each input has an error to keep"


def test_invalid_fen_tag_is_kept_with_the_movetext() -> None:
    text = '[Event "e"]\n[GameType "20"]\n[FEN "W:W18,K15,51:BK30"]\n{start} 1. 15-10 30-35 *'
    game = read(text)
    assert messages(game) == [
        "invalid FEN tag: '51' is not a square of the international board in 'W:W18,K15,51:BK30'"
    ]
    assert game.unparsed == "{start}\n1. 15-10 30-35"
    assert str(game) == (
        '[Event "e"]\n[GameType "20"]\n[FEN "W:W18,K15,51:BK30"]\n[Result "*"]\n\n'
        "{start}\n1. 15-10 30-35\n*"
    )
    assert comparable_errors(read(str(game))) == comparable_errors(game)


def test_unknown_variant_tag_is_kept_verbatim() -> None:
    game = read('[Variant "Turkish-ish"]\n1. 32-28 *')
    assert messages(game) == ["unknown Variant 'Turkish-ish'"]
    assert dict(game.headers) == {"Variant": "Turkish-ish", "Result": "*"}
    assert str(game) == '[Variant "Turkish-ish"]\n[Result "*"]\n\n1. 32-28\n*'
    assert "unknown variant" in repr(game)


def test_rejected_text_lives_on_the_node_where_it_was_read() -> None:
    game = read("1. 32-28 (1. 33-29 28-22x) (45-40 x) 19-23 2. 28-22 23x32 *")
    first = game.variations[0]
    side = game.variations[1]
    assert side.move == Board().parse_pdn("33-29")
    assert side.unparsed == "28-22x"  # as it was read
    assert first.unparsed == "(\n45-40 x\n)"  # a side line without a move, kept whole
    assert first.end().unparsed == "28-22 23x32"
    assert len(game.errors) == 3


def test_starting_unparsed_comes_before_the_first_move_of_a_side_line() -> None:
    game = read("1. 32-28 ( {note} $4 1. 33-29 ) 19-23 *")
    side = game.variations[1]
    assert (side.starting_comment, side.starting_unparsed) == ("note", "$4")
    assert str(game).endswith("1. 32-28 ({note}\n$4\n1. 33-29) 1... 19-23 *")


def test_streaming_exporter_writes_the_kept_text_too() -> None:
    text = '[Result "*"]\n1. 32-28 foo 19-23 2. 28-22 23x32 *'
    streamed = pdn.read_game(io.StringIO(text), Visitor=pdn.StringExporter)
    assert streamed == str(read(text))
    assert streamed == '[Result "*"]\n\n1. 32-28\nfoo\n1... 19-23\n28-22 23x32\n*'


def test_visit_unparsed_follows_its_error() -> None:
    seen: list[str] = []

    class Record(pdn.BaseVisitor[list[str]]):
        def handle_error(self, error: pdn.PdnError) -> None:
            seen.append(f"error {error.unparsed}")

        def visit_unparsed(self, text: str) -> None:
            seen.append(f"text {text}")

        def result(self) -> list[str]:
            return seen

    pdn.read_game(io.StringIO("1. 32-28 $ 19-23 20-24 *"), Visitor=Record)
    assert seen == ["error $", "text $", "error 20-24", "text 20-24"]


def test_kept_text_survives_pickling_and_copying() -> None:
    game = read("1. 32-28 (45-40) 19-23 2. 28-22 23x32 *")
    assert game.variations[0].unparsed == "(\n45-40\n)"
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(again) == str(game)
        assert again.variations[0].unparsed == "(\n45-40\n)"


def test_a_game_without_a_board_cannot_be_given_moves_to_write() -> None:
    game = read('[GameType "20"]\n[FEN "W:W51:B1"]\n1. 32-28 *')
    game.add_variation(Board().parse_pdn("32-28"))
    with pytest.raises(ValueError, match="cannot be written without its start"):
        str(game)


def test_read_with_a_variant_keeps_it_when_the_fen_is_invalid() -> None:
    # So that convert, which writes the GameType of tagless games, names it.
    game = read('[FEN "W:W33:B1"]\n1. 32-28 1-0', variant="russian", infer_variant=False)
    assert game.errors and game.variant.name == "russian"
    pdn.set_variant_tags(game.headers, game.variant)
    assert str(game).startswith('[FEN "W:W33:B1"]\n[Result "1-0"]\n[GameType "25"]')


# -- Properties ------------------------------------------------------------------

TOKENS = [
    "1.", "2...", "32-28", "19-23", "28x19", "14x23", "33-29", "23x34", "40x29", "35-30",
    "11-15", "23-19", "a3-b4", "c3d4", "3228", "28-22x", "99-98", "(", ")", "{", "}", "[",
    "]", "{note}", "; rest", "%x", "$3", "!?", "(!)", "*", "1-0", "2-0", "1/2-1/2", "0-0",
    "-", '[FEN "W:W31-50:B1-20"]', '[FEN "W:W51:B1"]', '[GameType "21"]', '[Variant "x"]',
    '/FEN "B:W40:B10"/', "foo", "Wyllie", "\ufeff", "\x00", "é", '"',
]  # fmt: skip
SEPARATORS = [" ", " ", " ", "\n", "", "\t", "\r\n"]


@st.composite
def token_soups(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(st.sampled_from(TOKENS), max_size=30))
    return "".join(token + draw(st.sampled_from(SEPARATORS)) for token in tokens)


@settings(max_examples=60, deadline=None)
@given(token_soups())
def test_any_text_reads_back_with_the_same_errors(text: str) -> None:
    assert round_trip_failure(text) is None, repr(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(token_soups())
def test_any_text_reads_back_with_the_same_errors_many(text: str) -> None:
    assert round_trip_failure(text) is None, repr(text)


GAMES = [
    (DATA / "pdn" / name).read_text(encoding="utf-8", errors="replace")[:6000]
    for name in ("candidate95.pdn", "British_Computer_Championship_2002.pdn", "babasy4.pdn")
]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_mutated_games_read_back_with_the_same_errors(text: str, seed: int) -> None:
    mutated = mutate(random.Random(seed), text)
    assert round_trip_failure(mutated) is None, repr(mutated)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_mutated_games_read_back_with_the_same_errors_many(text: str, seed: int) -> None:
    mutated = mutate(random.Random(seed), text)
    assert round_trip_failure(mutated) is None, repr(mutated)
