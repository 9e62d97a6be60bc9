"""The Gymnasium adapters pass Gymnasium's checker and match its SyncVectorEnv."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")
gymnasium = pytest.importorskip("gymnasium", reason="the Gymnasium adapter needs gymnasium")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from draughts.ml.gym import ENV_ID, DraughtsEnv, DraughtsVectorEnv  # noqa: E402


@pytest.mark.parametrize("variant", ["international", "english", "frisian", "turkish"])
def test_gymnasium_check_env(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        env = gymnasium.make(ENV_ID, variant=variant, max_plies=50, render_mode="ansi")
        assert isinstance(env.unwrapped, DraughtsEnv)
        check_env(env.unwrapped)


def test_a_game_to_its_end() -> None:
    env = DraughtsEnv("english", render_mode="ansi")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(1000):
        legal = np.flatnonzero(info["action_mask"])
        _obs, reward, terminated, _truncated, info = env.step(int(rng.choice(legal)))
        if terminated:
            break
    assert terminated and reward in (0.0, 1.0, -1.0)
    final = env._env.final_boards[0]
    assert final is not None and final.outcome() is not None
    assert env.render() == str(final)  # the position the game ended on


def test_an_illegal_action_loses() -> None:
    env = DraughtsEnv("english")
    _obs, info = env.reset()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, _ = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)


@pytest.mark.parametrize("variant", ["english", "russian", "frisian"])
def test_vector_env_matches_sync_vector_env(variant: str) -> None:
    n = 5
    ours = DraughtsVectorEnv(variant, n, max_plies=40)
    theirs = SyncVectorEnv(
        [lambda: DraughtsEnv(variant, max_plies=40) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    first, second = ours.reset(seed=1), theirs.reset(seed=1)
    assert data_equivalence(first, second)
    info = first[1]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        a, b = ours.step(actions), theirs.step(actions)
        assert data_equivalence(a, b, exact=True)
        ended += int((a[2] | a[3]).sum())
        info = a[4]
    assert ended >= n


def test_vector_env_spaces_hold_what_it_returns() -> None:
    env = DraughtsVectorEnv("international", 3)
    obs, infos = env.reset(seed=0)
    assert obs in env.observation_space
    actions = env.action_space.sample(mask=tuple(infos["action_mask"]))
    obs, _rewards, _terminated, _truncated, infos = env.step(actions)
    assert obs in env.observation_space
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
