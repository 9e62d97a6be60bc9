"""Real games of the national and online variants replay under their rules.

The files are in ``../shared/data/pdn`` (see its SOURCES.md): Czech team
championship games, the Italian archives, and lidraughts exports of Frisian,
Frysk!, antidraughts and breakthrough games. A game replays only if every move
in it is legal under the preset's rules, so each file is a check of the move
generator on thousands of real positions. Where a game ends in a position
the rules decide (no move left, or a king made in breakthrough), the result
the file records must be the one the rules give.
"""

from __future__ import annotations

import pytest

import draughts
from draughts import pdn
from tests.conftest import shared_path

# (file, variant, games in the file per SOURCES.md)
FILES = [
    ("czech/MR_Ceska_Dama_Druzstev_2008.pdn", "czech", 40),
    ("italian/40champ-1996.pdn", "italian", 302),
    ("italian/ci98-fero.pdn", "italian", 17),
    ("italian/ci98-perani.pdn", "italian", 19),
    ("italian/partite.pdn", "italian", 219),
    ("frisian/lidraughts_frisian.pdn", "frisian", 14),
    ("frysk/lidraughts_frysk.pdn", "frysk", 25),
    ("antidraughts/lidraughts_antidraughts.pdn", "antidraughts", 25),
    ("breakthrough/lidraughts_breakthrough.pdn", "breakthrough", 25),
]


def _games(relative: str, variant: str) -> list[pdn.Game]:
    games = []
    with pdn.open_pdn(shared_path(relative)) as handle:
        while (game := pdn.read_game(handle, variant=variant)) is not None:
            games.append(game)
    return games


@pytest.mark.parametrize(("relative", "variant", "count"), FILES, ids=[f[0] for f in FILES])
def test_corpus_replays(relative: str, variant: str, count: int) -> None:
    preset = draughts.find_variant(variant)
    games = _games(relative, variant)
    assert len(games) == count
    for number, game in enumerate(games, 1):
        assert game.errors == [], (relative, number, [str(e) for e in game.errors])
        # The Czech file counts the plies of each game in a PlyCount tag.
        if "PlyCount" in game.headers:
            assert sum(1 for _ in game.mainline_moves()) == int(game.headers["PlyCount"])
        # A game the rules decided carries the rules' result.
        outcome = game.end().board().outcome()
        if outcome is not None and outcome.winner is not None:
            recorded = pdn.normal_result(game.headers.get("Result", "*"), preset)
            assert outcome.result() == recorded, (relative, number)


def test_game_type_numbers_pick_the_presets() -> None:
    # lidraughts writes its own GameType numbers: 97 Frysk!, 98 antidraughts,
    # 96 breakthrough (research §1.6).
    for relative, name in [
        ("frysk/lidraughts_frysk.pdn", "frysk"),
        ("antidraughts/lidraughts_antidraughts.pdn", "antidraughts"),
        ("breakthrough/lidraughts_breakthrough.pdn", "breakthrough"),
    ]:
        with pdn.open_pdn(shared_path(relative)) as handle:
            game = pdn.read_game(handle)
        assert game is not None
        assert game.headers.variant().name == name
