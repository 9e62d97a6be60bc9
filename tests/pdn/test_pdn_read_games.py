"""``draughts.pdn.read_games``: the games of a file as an iterator."""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pytest

from draughts import pdn

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_games_are_those_read_game_reads_one_by_one() -> None:
    path = EXAMPLES / "First_Computers_Match_Moscow_1998.pdn"
    with pdn.open_pdn(path) as handle:
        one_by_one = []
        while (game := pdn.read_game(handle)) is not None:
            one_by_one.append(str(game))
    with pdn.open_pdn(path) as handle:
        assert [str(game) for game in pdn.read_games(handle)] == one_by_one
    assert len(one_by_one) == 6


def test_games_are_read_as_the_loop_asks_for_them() -> None:
    handle = io.StringIO("1. 32-28 *\n\n1. 31-27 *\n\n1. 33-29 *\n")
    games = pdn.read_games(handle)
    first = next(games)
    assert str(first.mainline_moves()[0]) == "32-28"
    # The second game is still in the file: read_game finds it.
    second = pdn.read_game(handle)
    assert second is not None and str(second.mainline_moves()[0]) == "31-27"
    assert [str(g.mainline_moves()[0]) for g in games] == ["33-29"]
    assert list(pdn.read_games(io.StringIO(""))) == []


def test_options_and_visitors_are_those_of_read_game() -> None:
    text = '[Event "A"]\n1. 11-15 *\n\n[Event "B"]\n1. 9-14 *\n'
    headers = list(pdn.read_games(io.StringIO(text), Visitor=pdn.HeadersBuilder))
    assert [h["Event"] for h in headers] == ["A", "B"]
    games = list(pdn.read_games(io.StringIO(text), variant="english"))
    assert [g.headers.variant().name for g in games] == ["english", "english"]
    assert all(g.errors == [] for g in games)


class _Failing(io.StringIO):
    """A handle whose reading fails after its first line."""

    def readline(self, size: int | None = -1, /) -> str:
        if self.tell() > 0:
            raise OSError("the disk went away")
        return super().readline(size)


def test_reading_a_tree_leaves_the_garbage_collector_as_it_found_it() -> None:
    # read_game leaves the collector alone (it once paused it, see
    # _read_tree): on after the read, still off if it was off, and on
    # when the read fails.
    text = "1. 32-28 19-23 2. 28x19 14x23 *\n"
    was_enabled = gc.isenabled()
    try:
        gc.enable()
        game = pdn.read_game(io.StringIO(text))
        assert game is not None and len(game.mainline_moves()) == 4
        assert gc.isenabled()
        gc.disable()
        assert pdn.read_game(io.StringIO(text)) is not None
        assert not gc.isenabled()
        gc.enable()
        with pytest.raises(OSError, match="the disk went away"):
            pdn.read_game(_Failing("1. 32-28 19-23\n2. 28x19 14x23 *\n"))
        assert gc.isenabled()
    finally:
        (gc.enable if was_enabled else gc.disable)()
