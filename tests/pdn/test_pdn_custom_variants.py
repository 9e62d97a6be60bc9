"""Games of custom (evolved) variants: a game made from a board keeps the
board's variant, is written with tags that name it, and reads back the same
with that variant; read without it, the reader says what it did."""

from __future__ import annotations

import gc
import io
import random
import tracemalloc

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import pdn
from draughts import variant as V
from draughts.variant import CaptureRule, Variant

ALL_SQUARES = attrs.evolve(V.INTERNATIONAL, name="x", all_squares=True)
ENGLISH_10 = attrs.evolve(V.ENGLISH, name="y", width=10, height=10, men_rows=4)
RUSSIAN_MAJORITY = attrs.evolve(
    V.RUSSIAN, name="russian-majority", capture_precedence=(CaptureRule.MOST_PIECES,)
)
ENGLISH_TWO_ROWS = attrs.evolve(V.ENGLISH, name="english-two-rows", men_rows=2)
CUSTOM = [ALL_SQUARES, ENGLISH_10, RUSSIAN_MAJORITY, ENGLISH_TWO_ROWS]


def playout(variant: Variant, plies: int, seed: int) -> draughts.Board:
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


@pytest.mark.parametrize("variant", CUSTOM, ids=lambda v: v.name)
def test_a_game_from_a_board_keeps_a_custom_variant(variant: Variant) -> None:
    board = playout(variant, 12, 1)
    game = pdn.Game.from_board(board)
    assert game.variant == variant
    assert game.board().variant == variant
    assert game.end().board().fen() == board.fen()
    text = str(game)  # raised IndexError / IllegalMoveError: the preset's board
    assert f'[GameType "{variant.gametype_string}"]' in text
    assert f'[Variant "{variant.name}"]' in text
    again = pdn.read_game(io.StringIO(text), variant=variant)
    assert again is not None
    assert again.errors == [] and again.warnings == []
    assert again.variant == variant
    assert again.mainline_moves() == board.move_stack
    assert str(again) == text


@pytest.mark.parametrize("variant", CUSTOM, ids=lambda v: v.name)
def test_a_new_game_of_a_custom_variant_is_of_that_variant(variant: Variant) -> None:
    game = pdn.Game(variant=variant)
    assert game.variant == variant
    assert game.board().fen() == variant.starting_fen
    assert game.headers.variant(variant) == variant


def test_the_start_goes_in_a_fen_tag_when_the_gametype_would_start_elsewhere() -> None:
    assert "FEN" not in pdn.Game(variant=RUSSIAN_MAJORITY).headers  # the same start
    game = pdn.Game(variant=ENGLISH_TWO_ROWS)
    assert game.headers["FEN"] == "B:W25-32:B1-8"


def test_read_without_the_variant_a_rule_change_is_a_warning() -> None:
    # Men that must take the most pieces play moves Russian rules also allow:
    # the moves read, by the GameType's rules, and the reader says so.
    board = playout(RUSSIAN_MAJORITY, 40, 3)
    game = pdn.read_game(io.StringIO(str(pdn.Game.from_board(board))))
    assert game is not None
    assert game.errors == []
    assert game.variant == V.RUSSIAN
    assert game.mainline_moves() == board.move_stack
    assert [(w.kind, w.line) for w in game.warnings] == [("variant", 9)]
    assert "unknown Variant 'russian-majority': read as russian" in game.warnings[0].message


def test_read_without_the_variant_fewer_men_read_from_the_fen_tag() -> None:
    board = playout(ENGLISH_TWO_ROWS, 20, 4)
    game = pdn.read_game(io.StringIO(str(pdn.Game.from_board(board))))
    assert game is not None
    assert game.errors == []
    assert game.mainline_moves() == board.move_stack
    assert game.variant == V.ENGLISH
    assert [w.kind for w in game.warnings] == ["variant"]


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        (ALL_SQUARES, "square 61 is off the international board"),
        (ENGLISH_10, "White has 20 pieces, more than the 15 a side starts with in english"),
    ],
    ids=lambda v: getattr(v, "name", ""),
)
def test_read_without_the_variant_a_board_the_gametype_cannot_give_is_an_error(
    variant: Variant, message: str
) -> None:
    board = playout(variant, 10, 5)
    text = str(pdn.Game.from_board(board))
    game = pdn.read_game(io.StringIO(text))
    assert game is not None
    assert [e.kind for e in game.errors] == ["fen"]
    assert message in game.errors[0].message
    assert game.mainline_moves() == []
    assert [w.kind for w in game.warnings] == ["variant"]


def test_the_default_variant_is_taken_only_when_the_tags_name_it() -> None:
    d10 = attrs.evolve(V.DAMA, name="d10", width=10, height=10, men_rows=4)
    # A real dama game: its GameType gives the 8x8 board, not d10's.
    game = pdn.read_game(io.StringIO('[GameType "21"]\n[Variant "dama"]\n1. 11-15 *'), variant=d10)
    assert game is not None and game.variant is V.DAMA and game.errors == []
    # No Variant tag: the GameType says international draughts.
    game = pdn.read_game(io.StringIO('[GameType "20"]\n1. 32-28 *'), variant=ALL_SQUARES)
    assert game is not None and game.variant is V.INTERNATIONAL
    # The tags that name the variant, written any way PDN allows.
    for gametype in ("20,W,10,10,N2,0", " 20 , w , 10 , 10 , n2 ", "20"):
        assert pdn.variant_of_tags(gametype, "X", ALL_SQUARES) is ALL_SQUARES
    assert pdn.variant_of_tags("20,W,10,10,N1,0", "x", ALL_SQUARES) != ALL_SQUARES
    assert pdn.variant_of_tags("21", "x", ALL_SQUARES) is V.ENGLISH
    assert pdn.variant_of_tags(None, "x", ALL_SQUARES) is ALL_SQUARES
    # An unknown default is only an error when the tags do not say the variant.
    assert pdn.variant_of_tags("25", "russian", "no-such-variant") is V.RUSSIAN


def test_a_gametype_of_a_known_number_that_cannot_be_built_says_why() -> None:
    with pytest.raises(ValueError, match="GameType '20,W,10,10,S2,0': SAN notation"):
        pdn.variant_of_tags("20,W,10,10,S2,0", None, None)
    game = pdn.read_game(io.StringIO('[GameType "20,W,10,10,S2,0"]\n1. 32-28 *'))
    assert game is not None and [e.kind for e in game.errors] == ["variant"]
    assert "SAN notation is not used" in game.errors[0].message


def test_a_full_gametype_gives_its_board_to_the_variant_a_tag_picks() -> None:
    dama = pdn.variant_of_tags("21,B,10,10,N1,0", "dama", None)
    assert (dama.width, dama.height, dama.draw_rules) == (10, 10, V.DAMA.draw_rules)
    assert pdn.variant_of_tags("21,B,8,8,N1,0", "dama", None) is V.DAMA


def test_the_renumbering_retry_keeps_the_variant_a_tag_picks() -> None:
    # The full GameType numbers from another corner, the moves as dama does:
    # the retry in the GameType's own numbering is dama's, not English's.
    text = '[GameType "21,B,8,8,N2,0"]\n[Variant "dama"]\n1. 11-15 23-19 *'
    game = pdn.read_game(io.StringIO(text))
    assert game is not None and game.errors == []
    assert game.variant is V.DAMA
    assert [str(m) for m in game.mainline_moves()] == ["11-15", "23-19"]


def test_a_custom_variant_with_the_presets_numbering_is_not_read_as_the_preset() -> None:
    # The renumbering retry (for files whose full GameType lies about the
    # numbering) once swapped a custom variant for its preset: 32-28 is not
    # a move on the all-squares board, but is one on the preset's.
    text = '[GameType "20,W,10,10,N2,0"]\n[Variant "x"]\n1. 32-28 *'
    game = pdn.read_game(io.StringIO(text), variant=ALL_SQUARES)
    assert game is not None
    assert game.variant == ALL_SQUARES
    assert [e.kind for e in game.errors] == ["illegal"]


@pytest.mark.parametrize(
    ("warm_up", "count"),
    # A stress test (hundreds of variants made and dropped): under -m slow.
    [
        pytest.param(20, 24, marks=pytest.mark.slow, id="24"),
        pytest.param(150, 200, marks=pytest.mark.slow, id="200"),
    ],
)
def test_reading_with_many_custom_variants_keeps_few_of_them(warm_up: int, count: int) -> None:
    # The reader's start boards and move resolvers were kept for every variant
    # read with, each start board with its variant's tables: 80 MB for 200
    # (some 10 MB for the default run's 24).
    def read(name: str) -> None:
        variant = attrs.evolve(V.RUSSIAN, name=name)
        game = pdn.read_game(io.StringIO("1. c3-d4 *"), variant=variant)
        assert game is not None and game.errors == []

    # Memory is compared between two points of the steady state, long after
    # the caches are full: what earlier tests left in them, made before the
    # tracing started, does not count when it is freed.
    tracemalloc.start()
    try:
        for i in range(warm_up):  # more than the caches hold (16 variants each)
            read(f"reader-warm-up{i}")
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            read(f"reader{i}")
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - before
        assert growth < 1_000_000, growth
    finally:
        tracemalloc.stop()


# -- The property ----------------------------------------------------------------

BASES = [V.INTERNATIONAL, V.ENGLISH, V.RUSSIAN, V.ITALIAN, V.FRISIAN, V.THAI, V.TURKISH]


@st.composite
def evolved_variants(draw: st.DrawFn) -> Variant:
    base = draw(st.sampled_from(BASES))
    notation = draw(st.sampled_from(["numeric", "algebraic"]))
    # Not algebraic on boards wider than 10: a man on the k-file ("k1") reads
    # as a king in a FEN (a bug of the FEN layer, not of PDN).
    widths = [6, 8, 10] if notation == "algebraic" else [6, 8, 10, 12]
    width = draw(st.sampled_from(widths))
    height = draw(st.sampled_from([6, 8, 10, 12]))
    return attrs.evolve(
        base,
        name=draw(st.sampled_from([base.name, "custom", "my-variant"])),
        width=width,
        height=height,
        men_rows=draw(st.integers(1, height // 2 - 1)),
        all_squares=draw(st.booleans()),
        notation=notation,
        first_square_corner=draw(st.integers(0, 3)),
        start_fen=None,
    )


def base_name(variant: Variant) -> str:
    return next(base.name for base in BASES if base.gametype == variant.gametype)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evolved_variants(), st.integers(0, 30), st.integers(0, 2**32 - 1))
def test_games_of_evolved_variants_read_back_the_same(
    variant: Variant, plies: int, seed: int
) -> None:
    board = playout(variant, plies, seed)
    game = pdn.Game.from_board(board)
    assert game.variant == variant
    text = str(game)
    again = pdn.read_game(io.StringIO(text), variant=variant)
    assert again is not None
    assert again.errors == [], text
    assert again.variant == variant
    assert again.mainline_moves() == board.move_stack
    assert again.headers.get("Result") == game.headers["Result"]
    # Without the variant the reader never raises; the tags give it the board
    # and numbering, and a Variant tag it does not know is a warning (a
    # variant that kept a preset's name claims to be that preset), unless
    # the GameType's board cannot be built at all, an error of that kind.
    plain = pdn.read_game(io.StringIO(text))
    assert plain is not None
    kinds = [e.kind for e in plain.errors]
    if "variant" in kinds:
        assert plain.mainline_moves() == []
        return
    assert plain.variant.gametype_string == variant.gametype_string
    if variant.name != base_name(variant):
        assert [w.kind for w in plain.warnings] == ["variant"]
