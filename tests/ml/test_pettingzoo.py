"""The PettingZoo AEC environment passes PettingZoo's API test and plays the rules."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")
pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from draughts import Board  # noqa: E402
from draughts.ml import index_to_move, legal_mask  # noqa: E402
from draughts.ml.pettingzoo import DraughtsAECEnv, env  # noqa: E402


# A dictionary observation with an action mask is PettingZoo's own form for
# board games (its chess and go give the same two warnings).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("variant", ["international", "english", "frisian", "turkish"])
def test_pettingzoo_api_test(variant: str) -> None:
    api_test(env(variant=variant, max_plies=60), num_cycles=200)
    api_test(DraughtsAECEnv(variant, max_plies=60), num_cycles=200)


@pytest.mark.parametrize("variant", ["english", "antidraughts", "brazilian"])
def test_games_follow_the_board(variant: str) -> None:
    game = env(variant=variant)
    rng = np.random.default_rng(5)
    for _ in range(3):
        game.reset()
        board = Board(variant=variant)
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _ = game.last()
            if terminated or truncated:
                outcome = board.outcome()
                assert outcome is not None
                expected = 0.0
                if outcome.winner is not None:
                    expected = 1.0 if agent == f"player_{int(outcome.winner)}" else -1.0
                assert reward == expected
                game.step(None)
                continue
            assert agent == f"player_{int(board.turn)}"
            mask = observation["action_mask"]
            assert (mask == legal_mask(board, perspective=True)).all()
            action = int(rng.choice(np.flatnonzero(mask)))
            board.push(index_to_move(board, action, perspective=True))
            game.step(action)


def test_an_illegal_action_ends_the_game() -> None:
    game = env(variant="english")
    game.reset()
    game.step(0)
    assert game.terminations == {"player_0": True, "player_1": True}
    assert game.rewards == {"player_0": 0.0, "player_1": -1.0}
