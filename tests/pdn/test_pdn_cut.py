"""A real file cut after every byte: never a crash, always a warning or an
error where it is cut (a game without its result marker, a move, a tag or a
comment the end of the file stops in the middle of), and ``validate
--strict`` fails it (the missing result marker is an error there; PDN 3.0's
reading grammar, which check_strict follows, lets the last game omit it)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from draughts import pdn
from draughts._cli import main
from tests.conftest import DATA, shared_path

# Where each game of a whole file ends: after its result marker.
_TERMINATOR = re.compile(r"(?<=\s)(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|\*)(?=\s|\Z)")


# English moves from the start to where 13x22x29 is the capture.
ENGLISH = (
    '[GameType "21"]\n12-16 23-18 16-19 24x15 10x19 28-24 19x28 27-24 11-16 24-19 16x23 26x19 '
    "8-12 19-16 12x19 30-26 6-10 32-27 2-6 26-23 19x26 27-23 7-11 21-17 3-8 25-21 9-13 31-27 "
    "11-15 18x11 8x15 23-18 26-31 18x11 31x24 29-25 24-27 22-18\n"
)


def end_of(text: str) -> tuple[int, int]:
    """The line and column where the text of the last line ends."""
    last = text.removesuffix("\n")
    return last.count("\n") + 1, len(last) - last.rfind("\n")


def cut_warnings(game: pdn.Game) -> list[pdn.PdnError]:
    return [w for w in game.warnings if w.kind == "incomplete"]


def read_all(text: str) -> list[pdn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle)) is not None:
        str(game)  # and it can be written
        games.append(game)
    return games


def between_games(prefix: str, game_ends: set[int]) -> bool:
    """Whether ``prefix`` ends where no game is being read: at the start, or
    after a game's result marker, and then maybe whole comments."""
    rest = prefix.rstrip()
    while rest.endswith("}") and "{" in rest:
        rest = rest[: rest.rindex("{")].rstrip()
    return not rest or len(rest) in game_ends


def cut_failures(text: str, cuts: range) -> list[str]:
    """What is wrong with reading each cut of ``text`` (a file without errors)."""
    game_ends = {match.end() for match in _TERMINATOR.finditer(text)}
    failures = []
    for cut in cuts:
        prefix = text[:cut]
        games = read_all(prefix)
        violations = pdn.check_strict(prefix)
        # The games are clean: every error is about the cut.
        errors = [e for game in games for e in game.errors if e.kind != "incomplete"]
        if errors:
            failures.append(f"cut {cut}: {errors[0]}")
        if between_games(prefix, game_ends):  # nothing to see
            if any(cut_warnings(game) for game in games):
                failures.append(f"cut {cut}: a whole game reported as cut")
            continue
        comment = prefix.rfind("{")
        if comment > prefix.rfind("}"):  # cut inside a comment
            if not any(e.message == "the file ends inside a comment" for e in violations):
                failures.append(f"cut {cut}: check_strict finds no open comment")
            if between_games(prefix[:comment], game_ends):
                continue  # a comment outside the games: read_game finds no game
        where = end_of(prefix)
        last = games[-1].warnings if games else []
        if not any(w.kind == "incomplete" and (w.line, w.column) == where for w in last):
            failures.append(f"cut {cut}: no warning at {where}: {last}")
    return failures


@pytest.mark.parametrize(
    "size", [pytest.param(1500, id="first-game"), pytest.param(3000, marks=pytest.mark.slow)]
)
def test_a_file_cut_after_every_byte(size: int) -> None:
    # The first 1,500 bytes: the tags and the first 24 moves of the first game.
    text = (DATA / "pdn" / "candidate95.pdn").read_bytes()[:size].decode("utf-8")
    assert cut_failures(text, range(1, len(text) + 1)) == []


@pytest.mark.slow
def test_tinsley_cut_after_every_byte() -> None:
    text = shared_path("english/tinsley.pdn").read_bytes()[:3000].decode("utf-8")
    assert cut_failures(text, range(1, len(text) + 1)) == []


def test_what_the_end_of_the_file_cuts_is_named() -> None:
    cases = {
        '[Event "a"]\n1. 32-28 19-2': (2, 10, "the file ends inside a move ('19-2')"),
        "1. 32-28 19-23 2. 28x1": (1, 19, "the file ends inside a move ('28x1')"),
        # 28x19 is a legal capture, of one piece or the first of several.
        "1. 32-28 19-23 2. 28x19x": (1, 24, "the file ends inside 'x'"),
        # 13x22 must go on (to 29): the cut capture is not played.
        ENGLISH + "13x22x": (3, 1, "the file ends inside a move ('13x22x')"),
        "1. 32-28 1/2-1/": (1, 10, "the file ends inside '1/2-1/'"),
        '1. 32-28 *\n[Event "Wor': (2, 1, "the file ends inside a tag"),
        "1. 32-28 {a comm": (1, 10, "comment not closed before the end of the file"),
    }
    for text, (line, column, message) in cases.items():
        game = read_all(text)[-1]
        assert [(e.line, e.column, e.kind) for e in game.errors] == [(line, column, "incomplete")]
        assert game.errors[0].message.startswith(message)
        assert [(w.message, (w.line, w.column)) for w in cut_warnings(game)] == [
            ("no result marker: the record may be cut", end_of(text))
        ]
        # Written back, the cut text is dropped: it would read as something else.
        assert read_all(str(game))[0].errors == []
    # A token that is no start of one is not taken for a cut one.
    (junk,) = read_all("1. 32-28 foo").pop().errors
    assert (junk.kind, junk.message, junk.unparsed) == ("syntax", "unexpected 'foo'", "foo")


def test_the_next_game_without_a_result_marker_before_it() -> None:
    first, second = read_all('[Event "a"]\n1. 32-28 19-23\n\n[Event "b"]\n1. 31-27 *')
    assert [(w.line, w.column) for w in cut_warnings(first)] == [(4, 1)]
    assert cut_warnings(second) == [] and first.errors == []


def test_validate_strict_fails_a_cut_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "pdn" / "candidate95.pdn").read_bytes()[:3000]
    path = tmp_path / "cut.pdn"
    for cut in (1, 30, 51, 200, 1000, 1234, 2000, 2999):
        path.write_bytes(text[:cut])
        assert main(["validate", "--strict", str(path)]) == 1, cut
        # At the cut (a comment the cut leaves open: where it opens).
        prefix = text[:cut].decode()
        opened = prefix.rfind("{")
        places = {end_of(prefix), end_of(prefix[:opened]) if opened >= 0 else (0, 0)}
        output = capsys.readouterr().out
        assert any(f"{path}:{line}:{column}: " in output for line, column in places), output
    # After the first game's result: nothing at the cut (the comment before
    # the first tags is a PDN 3.0 violation of the whole file).
    first = _TERMINATOR.search(text.decode())
    assert first is not None
    path.write_bytes(text[: first.end()])
    main(["validate", "--strict", str(path)])
    line, column = end_of(text[: first.end()].decode())
    assert f"{path}:{line}:{column}: " not in capsys.readouterr().out


def test_convert_tells_a_cut_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "cut.pdn", tmp_path / "out.pdn"
    source.write_text('[Result "0-1"]\n1. 32-28 19-23\n2. 28x19 14x23 3. 37-3')
    assert main(["convert", str(source), str(out)]) == 1  # the cut move is an error
    assert capsys.readouterr().err.splitlines()[:2] == [
        f"{source}:3:19: game 1: the file ends inside a move ('37-3'): the record is cut",
        f"{source}:3:23: game 1: warning: no result marker: the record may be cut",
    ]
    source.write_text('[Result "0-1"]\n1. 32-28 19-23\n2. 28x19 14x23\n')
    assert main(["convert", str(source), str(out)]) == 0  # cut between moves: a warning
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{source}:3:15: game 1: warning: no result marker: the record may be cut"
    )
    # The tag as it was read: the written record ends with its result.
    assert out.read_text().endswith("1. 32-28 19-23 2. 28x19 14x23 0-1\n\n")


def test_validate_warns_of_a_cut_record_without_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.pdn"
    game = '[GameType "20"]\n[Result "0-1"]\n1. 32-28 19-23\n2. 28x19 14x23\n\n'
    path.write_text(game + '[GameType "20"]\n1. 32-28 *\n')
    assert main(["validate", "--jobs", "1", str(path)]) == 0  # a warning, not an error
    output = capsys.readouterr().out.splitlines()
    assert output[0] == f"{path}:6:1: game 1: warning: no result marker: the record may be cut"
    assert output[-1] == "1 file, 2 games, 5 moves, 0 games with errors"
    assert main(["validate", "--jobs", "1", "--json", str(path)]) == 0
    [entry] = json.loads(capsys.readouterr().out)["files"]
    assert entry["warnings"] == [
        {
            "game": 1,
            "line": 6,
            "column": 1,
            "kind": "incomplete",
            "message": "no result marker: the record may be cut",
        }
    ]
    # In strict mode it is one of the file's violations, told once.
    assert main(["validate", "--jobs", "1", "--strict", str(path)]) == 1
    assert capsys.readouterr().out.count("the record may be cut") == 1
