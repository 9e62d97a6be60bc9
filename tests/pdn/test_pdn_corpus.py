"""Real game files: the PDN 3.0 conformance suite, replaying the corpus in
``../shared/data/pdn`` and exporting every game and reading it back.

Every remaining error is listed in ``EXPECTED_ERRORS`` with the reason the
record itself is wrong; everything else must replay without an error.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import draughts
from draughts import pdn
from tests.conftest import SHARED_ABSENT, corpus_marks
from tests.conftest import SHARED_PDN as CORPUS
from tests.conftest import game_tree as tree
from tests.fuzz.fuzz_pdn import comparable_errors

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"
CONFORMANCE = CORPUS / "pdn3-conformance"

# (file, game number from 1) -> (line, error kind): why the record is wrong.
EXPECTED_ERRORS = {
    # "9n" for "9." (a typo in the move number).
    ("international/prof2.pdn", 4): (73, "syntax"),
    # "62. 32-28": the black king moved 32-28 on move 60 and has not gone back.
    ("english/tinsley.pdn", 541): (5588, "illegal"),
    # Annotations outside braces: "8-11Redoversteppedthetimecontrolonthismove."
    ("english/tinsley.pdn", 623): (6434, "syntax"),
    ("english/tinsley.pdn", 693): (7170, "syntax"),
    # "1. - - 2. - - ...": the record has no moves.
    ("russian/abatsiev.pdn", 36): (599, "syntax"),
    ("russian/abatsiev.pdn", 142): (2351, "syntax"),
}


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.suffix in (".pdn", ".phn") and CONFORMANCE not in p.parents
    )


def variant_of(path: Path) -> draughts.Variant | None:
    try:
        return draughts.find_variant(path.relative_to(CORPUS).parts[0])
    except ValueError:
        return None


def require_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(SHARED_ABSENT)


def read_all(path: Path, variant: draughts.Variant | str | None) -> list[pdn.Game]:
    games = []
    with pdn.open_pdn(path) as handle:
        while (game := pdn.read_game(handle, variant=variant)) is not None:
            games.append(game)
    return games


def corpus_params() -> list[object]:
    params: list[object] = []
    for path in corpus_files():
        relative = path.relative_to(CORPUS).as_posix()
        params.append(pytest.param(relative, marks=corpus_marks(path), id=relative))
    return params or [pytest.param("", marks=pytest.mark.skip(reason=SHARED_ABSENT))]


@pytest.mark.parametrize("relative", corpus_params())
def test_corpus_replays(relative: str) -> None:
    require_corpus()
    path = CORPUS / relative
    variant = variant_of(path)
    if variant is None:
        pytest.skip(f"no preset for {path.parent.name}")
    found = {}
    count = 0
    with pdn.open_pdn(path) as handle:
        while (game := pdn.read_game(handle, variant=variant)) is not None:
            count += 1
            if game.errors:
                found[(relative, count)] = (game.errors[0].line, game.errors[0].kind)
    assert count > 0
    expected = {key: value for key, value in EXPECTED_ERRORS.items() if key[0] == relative}
    assert found == expected


def test_corpus_game_counts() -> None:
    # Counts from ../shared/data/pdn/SOURCES.md (number of [Event tags or of games).
    require_corpus()
    for relative, variant, games in [
        ("international/wk2003.pdn", "international", 190),
        ("russian/World_Championship_1998.pdn", "russian", 460),
        ("english/tinsley.pdn", "english", 724),
    ]:
        assert len(read_all(CORPUS / relative, variant)) == games


def round_trip_params() -> list[object]:
    params: list[object] = []
    for path in corpus_files():
        relative = path.relative_to(CORPUS).as_posix()
        params.append(pytest.param(relative, marks=corpus_marks(path), id=relative))
    return params or [pytest.param("", marks=pytest.mark.skip(reason=SHARED_ABSENT))]


@pytest.mark.parametrize("relative", round_trip_params())
def test_corpus_round_trip(relative: str) -> None:
    # Every game, exported and read again: the same moves, tags, comments,
    # NAGs and variations, and the same errors (the text they left out is
    # written back as it was).
    require_corpus()
    path = CORPUS / relative
    variant = variant_of(path)
    if variant is None:
        pytest.skip(f"no preset for {path.parent.name}")
    for game in read_all(path, variant):
        again = pdn.read_game(io.StringIO(str(game)), variant=game.variant)
        assert again is not None
        assert comparable_errors(again) == comparable_errors(game)
        assert again.mainline_moves() == game.mainline_moves()
        assert tree(again) == tree(game)
        # Every tag as it was read, the Result tag included ("*" if it had none).
        expected = {**dict(game.headers), "Result": game.headers.get("Result", "*")}
        assert dict(again.headers) == expected


def test_local_copies_replay() -> None:
    # The files in tests/data replay without the shared folder.
    for name, variant in [
        ("candidate95.pdn", "international"),
        ("babasy4.pdn", None),
        ("First_Computers_Match_Moscow_1998.pdn", None),
        ("British_Computer_Championship_2002.pdn", "english"),
        ("3_vs_1_King_Theory.phn", None),
    ]:
        games = read_all(DATA / name, variant)
        assert games and all(g.errors == [] for g in games), name


def test_babasy4_intermediate_square_picks_the_capture() -> None:
    # Game 49, 43... 2x30x17: the king on 2 takes 24 (landing 30), turns to take 34
    # (landing 39), then takes 22 to land on 17; the other 2x17 goes through 35 and
    # takes 40 instead of 34. Scan's replay listed it as ambiguous; it is not.
    games = read_all(DATA / "babasy4.pdn", None)
    node = next(n for n in games[48].mainline() if n.ply() == 86)
    assert node.move.from_square == 2 and node.move.to_square == 17
    assert set(node.move.captures) == {24, 34, 22}


def test_prof2_separator_quirks_are_warnings() -> None:
    games = read_all(DATA / "prof2.pdn", None)
    warnings = [(w.line, w.message) for g in games for w in g.warnings]
    # "16. 30-39" is the capture 30x39; "21. 38x33" is the plain move 38-33.
    assert warnings == [
        (232, "'30-39' is written with '-' but is 30x39"),
        (290, "'38x33' is written with a capture separator but is 38-33"),
    ]


# -- The PDN 3.0 conformance suite -------------------------------------------------

# Variants of the suite's files, from SOURCES.md; files whose variant has no
# preset here are skipped.
CONFORMANCE_VARIANTS = {
    "OCA_2.0.pdn": "english",
    "Principles of Strategy.pdn": "english",
    "Tricks traps and shots.pdn": "english",
    "inferno.pdn": "english",
    "beginner.pdn": "english",
    "borderclassics.pdn": "english",
    "bridges.pdn": "english",
    "gem.pdn": "english",
    "goulds.pdn": "english",
    "lpc.pdn": "english",
    "Campionato Assoluto 2005.pdn": "italian",
    "mrcd2000kval.pdn": "czech",
    "mrcd2006.pdn": "czech",
    "mrcd2007.pdn": "czech",
    "mrdrcd07.pdn": "czech",
    "mrdrcd08.pdn": "czech",
    "ussr1947.pdn": "russian",
    "abatsiev.pdn": "russian",
    "alphanumeric.pdn": "russian",
}


def conformance(kind: str, slow: tuple[str, ...] = ()) -> list[object]:
    """The files of the suite's folder ``kind``, those named in ``slow``
    only in the slow run."""
    folder = CONFORMANCE / kind
    if not folder.is_dir():
        return [pytest.param("", marks=pytest.mark.skip(reason=f"{folder} is absent"))]
    return [
        pytest.param(p.name, id=p.name, marks=[pytest.mark.slow] if p.name in slow else [])
        for p in sorted(folder.glob("*.pdn"))
    ]


# Games of the "succeed" files that the grammar accepts but the rules would
# not, read with a warning: the game can still be played.
SUCCEED_RECORD_WARNINGS = {
    # A capture written short although two captures share its squares (PDN 3.0
    # writing rule 8 asks for the full route), and both readings can play what
    # follows: 3x26 is the last move. The first reading is taken. (Game 3 of
    # schildpad.pdn has another, 36x16: the ninth move after it settles it.)
    ("Campionato Assoluto 2005.pdn", 46): (753, "notation"),
    # Problem positions with a man on the row where it would have been crowned,
    # as books print a piece just crowned: read as a king.
    ("beginner.pdn", 10): (78, "fen"),  # white man on 1
    ("goulds.pdn", 93): (837, "fen"),  # white man on 3
    ("lpc.pdn", 36): (286, "fen"),  # black man on 32
    ("lpc.pdn", 63): (502, "fen"),  # black man on 32
    ("lpc.pdn", 65): (518, "fen"),  # black man on 31
    ("lpc.pdn", 73): (582, "fen"),  # white man on 4
}


@pytest.mark.parametrize("name", conformance("succeed"))
def test_conformance_succeed_reads_without_error(name: str) -> None:
    path = CONFORMANCE / "succeed" / name
    assert pdn.check_strict(path.read_text(encoding="utf-8")) == []
    try:
        variant = draughts.find_variant(CONFORMANCE_VARIANTS.get(name, "international"))
    except ValueError:
        pytest.skip(f"no preset for the variant of {name}")
    found = {}
    for number, game in enumerate(read_all(path, variant), 1):
        assert game.errors == [], (number, game.errors)
        for warning in game.warnings:
            if warning.kind == "fen" or "fits too" in warning.message:
                found[(name, number)] = (warning.line, warning.kind)
    assert found == {k: v for k, v in SUCCEED_RECORD_WARNINGS.items() if k[0] == name}


# The two files whose variants take longest to infer (ussr1947.pdn: 153
# Russian games, 1.3 s of CPU time, ten times its reading as Russian) are
# inferred in the slow run; alphanumeric.pdn (Russian) and the other
# mrcd*.pdn (Czech) are inferred by default.
INFERRED_IN_THE_SLOW_RUN = ("ussr1947.pdn", "mrcd2007.pdn")


@pytest.mark.parametrize("name", conformance("succeed", slow=INFERRED_IN_THE_SLOW_RUN))
def test_conformance_succeed_reads_without_error_with_no_variant_given(name: str) -> None:
    # The variant of each game is inferred: no file of the suite has an error.
    games = read_all(CONFORMANCE / "succeed" / name, None)
    assert [(n, g.errors) for n, g in enumerate(games, 1) if g.errors] == []
    expected = CONFORMANCE_VARIANTS.get(name)
    if expected is not None and expected != "czech":  # czech games move as russian ones
        read_as = {g.variant.name for g in games}
        assert read_as <= {expected}, read_as


# The first violation of each file: what PDN 3.0 forbids there.
FAIL_FIRST = {
    # A game ends without a terminator before the next game's tags.
    "40Camp.DamaInternazionaleAssoluto.pdn": (228, 1),
    # "8-3 . 1-0": a stray dot.
    "Cat.A1.pdn": (405, 36),
    # "6." with no move, then the next game without a terminator.
    "Cat.C1.pdn": (579, 75),
    # "1. - -": no moves, only dashes.
    "abatsiev.pdn": (595, 1),
    # Result "4-6" is read as a move, so no terminator precedes the next game.
    "delfts.pdn": (28, 1),
    # "1. 0-2": a move number followed by a result instead of a move.
    "mrdrcd07.pdn": (198, 1),
    "mrdrcd08.pdn": (499, 1),
    # "{ nested { comment } }": comments do not nest, the last "}" is stray.
    "nested_comment.pdn": (1, 46),
}


@pytest.mark.parametrize("name", conformance("fail"))
def test_conformance_fail_is_reported_by_the_strict_check(name: str) -> None:
    path = CONFORMANCE / "fail" / name
    errors = pdn.check_strict(path.read_text(encoding="utf-8"))
    assert errors, name
    assert (errors[0].line, errors[0].column) == FAIL_FIRST[name]
    assert all(error.kind == "pdn3" for error in errors)
