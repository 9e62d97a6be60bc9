"""HubEngine tells the engine the variant it is to play (the ``variant``
parameter, set before ``init``) and refuses boards of another variant."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import draughts
from draughts.engine import EngineError, HubEngine, Limit

FAKE = str(Path(__file__).resolve().parent / "fake_hub_engine.py")
OURS = [sys.executable, "-m", "draughts", "hub"]


def sent(log: Path) -> list[str]:
    return log.read_text().splitlines()


def test_the_variant_is_set_before_init(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with HubEngine.popen([sys.executable, FAKE, "normal", "killer", str(log)], variant="killer"):
        pass
    lines = sent(log)
    assert lines.index("set-param name=variant value=killer") < lines.index("init")


def test_international_is_scans_normal_and_not_sent_when_it_is_the_default(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log"
    with HubEngine.popen(
        [sys.executable, FAKE, "normal", "international", str(log)], variant="international"
    ) as engine:
        assert engine.variant == draughts.variant.INTERNATIONAL
    assert not any(line.startswith("set-param") for line in sent(log))


def test_an_option_given_by_hand_wins(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with HubEngine.popen(
        [sys.executable, FAKE, "normal", "killer", str(log)],
        variant="killer",
        options={"variant": "normal"},
    ):
        pass
    assert [line for line in sent(log) if line.startswith("set-param")] == [
        "set-param name=variant value=normal"
    ]


def test_a_variant_the_engine_does_not_offer_is_refused() -> None:
    with pytest.raises(EngineError, match="does not play frisian: its variants are normal, killer"):
        HubEngine.popen([sys.executable, FAKE], variant="frisian")


def test_a_board_of_another_variant_is_refused() -> None:
    with HubEngine.popen([sys.executable, FAKE, "normal", "killer"], variant="killer") as engine:
        with pytest.raises(EngineError, match="started for killer, not international"):
            engine.play(draughts.Board(), Limit(depth=1))
        move = engine.play(draughts.Board(variant="killer"), Limit(depth=1)).move
        assert move in draughts.Board(variant="killer").legal_moves


@pytest.mark.parametrize("variant", ["english", "antidraughts"])
def test_our_hub_engine_plays_the_variant_it_is_told(variant: str) -> None:
    """End to end against ``python -m draughts hub``, which starts as
    international: told the variant (antidraughts as Scan's ``losing``), it
    answers legal moves of that variant's board, 8x8 or 10x10."""
    board = draughts.Board(variant=variant)
    with HubEngine.popen(OURS, variant=variant, timeout=60) as engine:
        for _ in range(4):
            move = engine.play(board, Limit(depth=2)).move
            assert move in board.legal_moves
            board.push(move)
