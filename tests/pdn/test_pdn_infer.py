"""The variant of a game whose tags name none: each kind of evidence, each
tie-break, and what the caller and the tags still decide."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import draughts
from draughts import pdn
from draughts._cli import main
from draughts.pdn.infer import Evidence, choose


def read(text: str, **options: object) -> pdn.Game:
    game = pdn.read_game(io.StringIO(text), **options)  # type: ignore[call-overload]
    assert game is not None
    return game  # type: ignore[no-any-return]


def inferred(game: pdn.Game) -> str:
    [warning] = [w for w in game.warnings if w.kind == "inferred"]
    assert warning.message.startswith(f"no GameType: read as {game.variant.name} (")
    return warning.message


def test_the_first_move_tells_which_side_moves_first() -> None:
    # 11-15 is a black man's move at the English start (Black moves first);
    # 21-17 a white man's at the Italian start (White moves first).
    english = read("1. 11-15 23-19 2. 8-11 22-17 *")
    assert (english.variant.name, english.errors) == ("english", [])
    assert "Black moved first" in inferred(english)
    italian = read("1. 21-17 12-15 2. 23-19 11-14 *")
    assert (italian.variant.name, italian.errors) == ("italian", [])
    assert "White moved first" in inferred(italian)
    assert "international and english cannot replay the moves" in inferred(italian)


def test_the_squares_tell_the_board() -> None:
    # Square 33 is on no 32-square board.
    game = read("1. 33-28 18-23 2. 39-33 12-18 *")
    assert (game.variant.name, game.errors) == ("international", [])
    assert "squares 1-39" in inferred(game)
    # Algebraic squares: the commonest variant that writes them.
    russian = read("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *")
    assert (russian.variant.name, russian.errors) == ("russian", [])
    assert "algebraic squares a1-g7" in inferred(russian)


def test_a_tie_goes_to_the_commoner_variant_and_says_it_is_a_guess() -> None:
    # Brazilian and Czech games move alike here: nothing needed their own rules
    # (and English and pool ones too, read in algebraic squares, which the
    # evidence ranks after the variants that write them).
    russian = read("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *")
    assert (
        "a guess: brazilian, czech, english and pool are not ruled out, the evidence ranks "
        "russian first" in inferred(russian)
    )
    # After one move Spanish and Portuguese (White first, from squares 1-12) are
    # not ruled out either; two moves later they are.
    english = read("1. 11-15 *")
    assert "a guess: pool, spanish and portuguese are not ruled out" in inferred(english)
    longer = read("1. 11-15 23-19 2. 8-11 22-17 *")
    assert "a guess: pool is not ruled out, english is commoner" in inferred(longer)


def test_a_full_replay_decides_what_the_squares_do_not() -> None:
    # A white man on 14 takes the black man behind it: backwards, as only pool
    # men may (English and Italian men capture forwards only).
    game = read('[FEN "W:W14:B18"]\n1. 14x23 *')
    assert (game.variant.name, game.errors) == ("pool", [])
    assert "english and italian cannot replay the moves" in inferred(game)


def test_fen_tag_evidence() -> None:
    # Squares beyond 32: a 10x10 board; the smallest board a FEN fits otherwise.
    assert read('[FEN "W:W31-50:B1-20"] *').variant.name == "international"
    assert read('[FEN "W:W31,27:B5,9"] *').variant.name == "english"
    # An algebraic FEN, and one with a numeric square too many for 8x8.
    assert read('[FEN "W:Wa1,c1:Bb8,h8"] *').variant.name == "russian"
    # Piece counts: Thai starts with 8 men a side, so 11 rule it out.
    assert read('[FEN "B:W1-11:B22-32"] *').variant.name != "thai"


def test_an_opening_position_says_who_moves_first() -> None:
    # The same men (eleven a side, one moved), White or Black to move: the
    # Italian and English 11-man ballots.
    white = read('[FEN "W:W21-32:B1-11,15"] *')
    black = read('[FEN "B:W19,21-23,25-32:B1-12"] *')
    assert white.variant.name == "italian"
    assert "an opening position with White to move" in inferred(white)
    assert black.variant.name == "english"
    assert "a guess: pool fits as well, english is commoner" in inferred(black)
    # A problem (three pieces a side) says nothing of who moved first.
    assert read('[FEN "W:W31,27,19:B17,12,5"] *').variant.name == "english"


def test_when_nothing_replays_the_game_the_one_that_plays_most_is_read() -> None:
    # The fourth move is illegal whatever the variant: the errors are the
    # ones reading it as English gives.
    text = "1. 11-15 23-19 2. 8-11 11-16 *"
    game = read(text)
    assert game.variant.name == "english"
    assert "no variant replays every move, this one plays the most" in inferred(game)
    assert game.errors == read(text, variant="english").errors
    assert [e.kind for e in game.errors] == ["illegal"]


def test_the_caller_and_the_tags_are_never_overridden() -> None:
    given = read("1. 11-15 23-19 *", variant="international")
    assert given.variant.name == "international" and given.errors
    assert not [w for w in given.warnings if w.kind == "inferred"]
    tagged = read('[GameType "20"]\n1. 11-15 23-19 *')
    assert tagged.variant.name == "international" and tagged.errors
    assert tagged.warnings == []
    off = read("1. 11-15 23-19 *", infer_variant=False)  # PDN 3.0's default
    assert off.variant.name == "international" and off.errors
    assert off.warnings == []


def test_the_headers_say_the_variant_read() -> None:
    game = read("1. 11-15 23-19 *")
    assert game.headers.variant().name == "english" == game.headers.copy().variant().name
    assert "GameType" not in game.headers  # the tags stay as they were
    assert "GameType" not in str(game).split("\n\n")[0]


def test_a_game_without_moves_or_fen_is_international() -> None:
    game = read('[Event "x"]\n[Result "2-0"]\n2-0')
    assert game.variant.name == "international"
    assert inferred(game).endswith("(no moves, no FEN tag)")


def test_choose_without_a_reader() -> None:
    evidence = Evidence()
    evidence.add_squares("c3-d4 f6-e5")
    evidence.first = "c3-d4"
    choice = choose(evidence, None, lambda variant, limit: (variant.name == "czech", 4))
    assert (choice.variant.name, choice.guess) == ("czech", False)
    assert "russian and brazilian cannot replay the moves" in choice.reason
    nothing = Evidence()
    nothing.add_squares("1-99")
    assert choose(nothing, None, lambda variant, limit: (True, 0)).variant.name == "international"


def test_each_game_is_chosen_alone() -> None:
    # A file of two variants: each game gets its own, whatever came before.
    text = "1. 11-15 23-19 *\n\n1. 32-28 18-23 *\n\n1. 21-17 12-15 *\n"
    handle = io.StringIO(text)
    names = []
    while (game := pdn.read_game(handle)) is not None:
        names.append(game.variant.name)
        assert game.errors == []
    assert names == ["english", "international", "italian"]


def test_playable_faults_are_warnings_and_strict_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A man on its crowning row (read as a king), and a short capture both of
    # whose readings the (absent) rest of the game allows (read as the first).
    path = tmp_path / "faults.pdn"
    path.write_text(
        '[GameType "21"]\n[FEN "W:W18,K15,1:BK30,K26,2"]\n1. 1-6 *\n\n'
        '[GameType "21"]\n[FEN "W:W23:B8,10,11,18,19"]\n1. 23x7 *\n'
    )
    games = []
    with pdn.open_pdn(path) as handle:
        while (game := pdn.read_game(handle)) is not None:
            games.append(game)
    assert [g.errors for g in games] == [[], []]
    assert [w.kind for w in games[0].warnings] == ["fen"]
    assert "a man on 1, the row where it would have been crowned: read as a king" in (
        games[0].warnings[0].message
    )
    assert games[0].board().piece_at(1) is not None
    assert "fits too" in games[1].warnings[0].message
    assert main(["validate", "--jobs", "1", str(path)]) == 0
    capsys.readouterr()
    assert main(["validate", "--jobs", "1", "--strict", str(path)]) == 1
    out = capsys.readouterr().out
    assert "would have been crowned" in out and "fits too" in out
    assert out.splitlines()[-1] == "2 PDN 3.0 violations"


RUSSIAN_GAME = (
    '[FEN "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12."]\n'
    "1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 4. f2-e3 c7-b6\n"
    "5. c1-b2 b6-c5 6. d4:b6 a5:c7 *\n\n"
)


def test_a_fen_tag_is_set_up_once_for_the_games_that_share_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Inference sets the FEN up as each variant it tries, a dozen a game:
    # the games after the first that share it parse no FEN at all (ussr1947,
    # 153 such games, read in 1.4 s instead of 0.1 s as russian).
    from draughts import board as board_module
    from draughts.pdn import _fastcheck, infer

    monkeypatch.setattr(infer, "_BOARDS", {}, raising=False)
    monkeypatch.setattr(_fastcheck, "_SETUPS", {}, raising=False)
    parsed: list[str] = []
    real = board_module.parse_fen
    monkeypatch.setattr(
        board_module, "parse_fen", lambda codec, fen: parsed.append(fen) or real(codec, fen)
    )
    handle = io.StringIO(RUSSIAN_GAME * 4)
    first = pdn.read_game(handle)
    assert first is not None and parsed != []
    parsed.clear()
    later = [pdn.read_game(handle) for _ in range(3)]
    assert parsed == []
    for game in [first, *later]:
        assert game is not None and (game.variant.name, game.errors) == ("russian", [])
        assert len(game.mainline_moves()) == 12
        assert "brazilian" in inferred(game)  # not ruled out: a guess, named


def test_a_kept_fen_board_is_handed_out_as_a_copy() -> None:
    from draughts.pdn.infer import board_of_fen
    from draughts.variant import RUSSIAN

    fen = "W:Wa1,c1:Bb8,h8"
    board, _ = board_of_fen(fen, RUSSIAN)
    board.push(next(iter(board.legal_moves)))
    again, _ = board_of_fen(fen, RUSSIAN)
    assert again is not board and again.move_stack == []
    assert again.fen() == fen and again == draughts.Board(fen, variant="russian")


def test_upper_case_algebraic_squares_infer_as_lower_case() -> None:
    """A game written with upper-case squares ("E3-D4", as some Russian
    files write them) is chosen for the same reasons as the same game in
    lower case: its first move's squares are read as the names they are,
    not as the numbers in them."""
    lower = "1. e3-d4 f6-g5 2. c3-b4 g5-h4 3. b4-a5 g7-f6 4. b2-c3 f6-g5 0-1"
    upper = lower.upper()
    games = [pdn.read_game(io.StringIO(text)) for text in (lower, upper)]
    for game in games:
        assert game is not None and game.errors == []
    assert games[0].variant == games[1].variant == draughts.variant.RUSSIAN
    assert [w.message for w in games[0].warnings] == [w.message for w in games[1].warnings]
    assert "a guess" in games[1].warnings[0].message


def test_an_upper_case_capture_split_in_two_is_joined() -> None:
    # White's c3 takes d4 and f6 (to g7), written in two parts.
    for text in ("1. c3:e5 e5:g7 *", "1. C3:E5 E5:G7 *", "1. C3:E5 e5:g7 *"):
        game = pdn.read_game(io.StringIO(f'[FEN "W:Wc3:Bd4,f6,h8"]\n{text}'), variant="russian")
        assert game is not None and game.errors == [], text
        assert [move.path for move in game.mainline_moves()] == [(22, 15, 8)], text
