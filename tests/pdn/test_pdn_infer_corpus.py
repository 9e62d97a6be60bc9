"""Every corpus file read with its GameType and Variant tags removed: the same
errors, and the same variant unless the warning says the choice was a guess
(an antidraughts game moves as an international one does; a Brazilian game
that never needed the majority capture replays as Russian)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from draughts import pdn
from tests.conftest import SHARED_ABSENT
from tests.conftest import SHARED_PDN as CORPUS

TAG = re.compile(r'\[[ \t]*(?:GameType|Variant)[ \t]*"[^"\n]*"[ \t]*\]')


def files() -> list[object]:
    if not CORPUS.is_dir():
        reason = SHARED_ABSENT
        return [pytest.param("", marks=pytest.mark.skip(reason=reason))]
    paths = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".pdn", ".phn"))
    return [pytest.param(p, id=str(p.relative_to(CORPUS))) for p in paths]


def games_of(text: str) -> list[pdn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    return games


@pytest.mark.slow
@pytest.mark.parametrize("path", files())
def test_tags_removed_give_the_same_errors_and_variant(path: Path) -> None:
    with pdn.open_pdn(path) as handle:
        text = handle.read()
    # Blanked out, so that every line and column stays where it was.
    stripped = TAG.sub(lambda match: " " * len(match.group(0)), text)
    if stripped == text:
        pytest.skip("no GameType or Variant tag")
    for number, (tagged, bare) in enumerate(
        zip(games_of(text), games_of(stripped), strict=True), 1
    ):
        assert [str(e) for e in bare.errors] == [str(e) for e in tagged.errors], number
        if bare.variant != tagged.variant:
            [warning] = [w for w in bare.warnings if w.kind == "inferred"]
            assert "a guess" in warning.message, (number, warning.message)
            # The variant the tags name was not ruled out by the evidence.
            assert tagged.variant.name in warning.message.split("a guess")[1], number
