"""VectorEnv against Board: the same masks, rewards and ends, on both cores."""

from __future__ import annotations

import os
import subprocess
import sys

import attrs
import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import draughts  # noqa: E402
from draughts import VARIANTS, Board, IllegalMoveError  # noqa: E402
from draughts.ml import (  # noqa: E402
    PlayStats,
    VectorEnv,
    encode,
    index_to_move,
    legal_mask,
    play,
)
from tests.ml.helpers import custom_variants  # noqa: E402


def replay_check(
    variant: draughts.Variant, num_envs: int, steps: int, seed: int, max_plies: int = 300
) -> int:
    """Run random self-play in a VectorEnv and replay every game on Board:
    the same observations, masks, rewards and ends. Returns the games ended."""
    env = VectorEnv(variant, num_envs, seed=seed, max_plies=max_plies)
    boards = [Board(variant=variant) for _ in range(num_envs)]
    ended = 0
    for _ in range(steps):
        for i, board in enumerate(boards):
            assert (env.masks[i] == legal_mask(board, perspective=True)).all()
            assert (env.observations[i] == encode(board, perspective=True)).all()
        actions = env.sample()
        env.step(actions)
        for i, board in enumerate(boards):
            mover = board.turn
            board.push(index_to_move(board, int(actions[i]), perspective=True))
            outcome = board.outcome()
            assert env.terminated[i] == (outcome is not None)
            assert env.outcomes[i] == outcome
            expected = 0.0
            if outcome is not None and outcome.winner is not None:
                expected = 1.0 if outcome.winner == mover else -1.0
            assert env.rewards[i] == expected
            cut = outcome is None and board.ply() >= max_plies
            assert env.truncated[i] == cut
            if outcome is not None or cut:
                ended += 1
                assert (env.final_observations[i] == encode(board, perspective=True)).all()
                boards[i] = Board(variant=variant)
    return ended


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_trajectories_replay_on_board(variant: draughts.Variant) -> None:
    assert replay_check(variant, num_envs=4, steps=150, seed=1, max_plies=100) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_trajectories_replay_on_board_many_games(variant: draughts.Variant) -> None:
    # About 1,000 to 2,000 games a preset (400 at least: 300 plies at most each).
    assert replay_check(variant, num_envs=32, steps=4000, seed=2) >= 400


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=custom_variants(), seed=st.integers(0, 1000))
def test_custom_variants_replay_on_board(variant: draughts.Variant, seed: int) -> None:
    replay_check(variant, num_envs=2, steps=60, seed=seed, max_plies=40)


_DIGEST = """
import hashlib, sys
import draughts, draughts.ml
h = hashlib.sha256()
num_envs, steps = int(sys.argv[1]), int(sys.argv[2])
for name in sys.argv[3:]:
    env = draughts.ml.VectorEnv(name, num_envs, seed=5, max_plies=200)
    for _ in range(steps):
        actions = env.sample()
        obs, masks, rewards, terminated, truncated = env.step(actions)
        for array in (actions, obs, masks, rewards, terminated, truncated):
            h.update(array.tobytes())
print(draughts.BACKEND, h.hexdigest())
"""


def same_on_both_cores(num_envs: int, steps: int) -> None:
    """Random self-play in every preset gives the same actions, arrays and
    ends on the native core as on the pure one (its oracle)."""
    names = [v.name for v in VARIANTS]
    results = {}
    for pure in ("0", "1"):
        env = {**os.environ, "DRAUGHTS_PURE": pure}
        out = subprocess.run(
            [sys.executable, "-c", _DIGEST, str(num_envs), str(steps), *names],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        results[out[0]] = out[1]
    assert "pure" in results  # and "native" too where the extension is built
    assert len(set(results.values())) == 1, results


def test_both_cores_give_the_same_trajectories() -> None:
    same_on_both_cores(num_envs=4, steps=120)


@pytest.mark.slow
def test_both_cores_give_the_same_trajectories_many_games() -> None:
    same_on_both_cores(num_envs=32, steps=1500)


def test_arrays_are_filled_in_place() -> None:
    env = VectorEnv("english", 3, seed=0)
    arrays = env.reset()
    result = env.step(env.sample())
    assert result[0] is arrays[0] is env.observations
    assert result[1] is arrays[1] is env.masks
    assert result[2] is env.rewards


def test_illegal_and_malformed_actions() -> None:
    env = VectorEnv("english", 2, seed=0)
    with pytest.raises(IllegalMoveError, match="game 1: action 0"):
        env.step(np.array([env.sample()[0], 0]))
    with pytest.raises(ValueError, match="2 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="2 integers"):
        env.step(np.zeros(2, dtype=np.float32))
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("english", 0)
    # 8 x 7: turning the board puts the dark squares on light ones.
    odd = attrs.evolve(draughts.variant.RUSSIAN, name="odd", width=8, height=7, men_rows=2)
    with pytest.raises(ValueError, match="perspective=False"):
        VectorEnv(odd, 1)
    assert VectorEnv(odd, 1, perspective=False).masks.sum() > 0
    with pytest.raises(ValueError, match="already over: no-pieces"):
        VectorEnv("english", 2, fen="B:W18:B")


def test_play_counts_the_games() -> None:
    env = VectorEnv("english", 6, seed=4, max_plies=40)
    stats = play(env, steps=200)
    assert isinstance(stats, PlayStats)
    assert stats.steps == 1200
    assert stats.games == stats.white_wins + stats.black_wins + stats.draws + stats.truncated
    assert stats.truncated > 0 and stats.games >= 1200 // 40


def test_reset_with_seed_repeats_the_games() -> None:
    env = VectorEnv("frisian", 3)

    def run() -> list[list[int]]:
        env.reset(seed=9)
        played = []
        for _ in range(30):
            actions = env.sample()
            env.step(actions)
            played.append(actions.tolist())
        return played

    assert run() == run()


def test_a_game_from_a_fen_ends_and_starts_again() -> None:
    env = VectorEnv("international", 1, fen="W:W28:B23")
    env.step(env.masks[0].nonzero()[0])  # 28x19, the only move, wins
    assert env.terminated[0] and env.rewards[0] == 1.0
    assert env.outcomes[0] is not None and env.outcomes[0].result() == "2-0"
    assert env.boards[0].fen() == "W:W28:B23"


def as_bytes(observations: np.ndarray) -> np.ndarray:
    """The uint8 observations the float32 ones stand for (VectorEnv's rule)."""
    return np.floor(observations.astype(np.float64) * 255.0 + 0.5).astype(np.uint8)


@pytest.mark.parametrize("native", [None, False], ids=["default", "python"])
@pytest.mark.parametrize("variant", ["international", "frisian", "russian", "turkish"])
def test_uint8_observations_are_the_float32_ones_times_255(
    variant: str, native: bool | None
) -> None:
    # From a few kings, where the repetition, counting and king-move planes
    # (fractions) change; and from the start, where the pieces' planes do.
    n = Board(variant=variant)._ctx.core.square_count
    for fen in (None, f"W:WK{n},K{n - 2}:BK1"):
        floats = VectorEnv(variant, 6, seed=3, fen=fen, max_plies=60, native=native)
        small = VectorEnv(variant, 6, seed=3, fen=fen, max_plies=60, native=native, dtype=np.uint8)
        assert small.observations.dtype == small.final_observations.dtype == np.uint8
        fractions = set()
        for step in range(150):
            assert (small.observations == as_bytes(floats.observations)).all(), step
            assert (small.masks == floats.masks).all(), step
            fractions |= set(np.unique(small.observations).tolist()) - {0, 255}
            actions = floats.sample()
            assert (actions == small.sample()).all()
            floats.step(actions)
            small.step(actions)
            for name in ("rewards", "terminated", "truncated"):
                assert (getattr(small, name) == getattr(floats, name)).all(), (step, name)
            ended = np.flatnonzero(floats.terminated | floats.truncated)
            assert (
                small.final_observations[ended] == as_bytes(floats.final_observations[ended])
            ).all()
            assert small.outcomes == floats.outcomes
        if fen is not None:
            assert fractions  # the rule planes showed something between 0 and 1


def test_other_observation_types_are_refused() -> None:
    with pytest.raises(ValueError, match="float32 or uint8, not float64"):
        VectorEnv("english", 1, dtype=np.float64)


@pytest.mark.parametrize("native", [None, False], ids=["default", "python"])
def test_final_boards_since_the_reset(native: bool | None) -> None:
    env = VectorEnv("english", 2, seed=1, illegal="lose", native=native)
    assert env.final_boards == [None, None]
    # A forfeit on the first move ends a game of no moves: it has a final board.
    env.step(np.array([0, env.sample()[1]]))
    final = env.final_board(0)
    assert final is not None and final.ply() == 0
    assert env.final_boards[1] is None
    env.reset()
    assert env.final_boards == [None, None]
