"""Gymnasium adapters: :class:`DraughtsEnv` (one game) and
:class:`DraughtsVectorEnv` (many, on :class:`~draughts.ml.VectorEnv`).

One agent plays both sides (self-play): the observation is the board as the
side to move sees it (:func:`~draughts.ml.encode` with ``perspective=True``),
the action a :mod:`move index <draughts.ml.actions>` (also as the side to
move sees it, ``perspective=True``) of the
:class:`~gymnasium.spaces.Discrete` action space, ``info["action_mask"]``
the legal moves (``int8``, as :meth:`Discrete.sample
<gymnasium.spaces.Discrete.sample>` takes it), and the reward goes to the
side that just moved: +1 for a move that wins, -1 for one that loses. An
illegal action forfeits the game (-1), as in Gymnasium's and PettingZoo's
board games. The vector environment resets a game in the step that ends it
(:attr:`gymnasium.vector.AutoresetMode.SAME_STEP`): ``infos["final_obs"]``
and ``infos["final_info"]`` hold what the game ended on.

Importing this module registers the id ``draughts/Draughts-v0`` with
Gymnasium, so that ``gymnasium.make("draughts/Draughts-v0", variant="frisian")``
makes a :class:`DraughtsEnv`. Needs the ``ml`` extra (Gymnasium).

>>> from draughts.ml.gym import DraughtsEnv
>>> env = DraughtsEnv("english")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(info["action_mask"].sum())
((8, 8, 8), 7)
>>> action = env.action_space.sample(mask=info["action_mask"])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated
(0.0, False)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from draughts.ml.actions import legal_mask
from draughts.ml.encoding import Observation, layout
from draughts.ml.env import VectorEnv
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["ENV_ID", "DraughtsEnv", "DraughtsVectorEnv"]

ENV_ID = "draughts/Draughts-v0"
"""The id under which :class:`DraughtsEnv` is registered with Gymnasium."""


def _spaces(variant: Variant, size: int) -> tuple[spaces.Box, spaces.Discrete]:
    shape = layout(variant).shape
    return spaces.Box(0.0, 1.0, shape, dtype=np.float32), spaces.Discrete(size)


class DraughtsEnv(gymnasium.Env[Observation, np.int64]):
    """One game of ``variant`` as a Gymnasium environment (see the module's
    documentation); ``render_mode="ansi"`` renders the board as text.

    >>> env = DraughtsEnv("international", max_plies=200)
    >>> env.action_space
    Discrete(5000)
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(
        self,
        variant: Variant | str | int = INTERNATIONAL,
        *,
        max_plies: int | None = None,
        claim_draw: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._env = VectorEnv(
            find_variant(variant), 1, max_plies=max_plies, claim_draw=claim_draw, illegal="lose"
        )
        # Box's type parameter is any number array; ours are float32.
        self.observation_space, self.action_space = _spaces(  # type: ignore[assignment]
            self._env.variant, self._env.action_space_size
        )

    def _info(self, mask: npt.NDArray[np.bool_]) -> dict[str, Any]:
        return {"action_mask": mask.astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; ``seed`` seeds :attr:`np_random`."""
        super().reset(seed=seed)
        obs, masks = self._env.reset()
        return obs[0].copy(), self._info(masks[0])

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (a move index) for the side to move."""
        env = self._env
        env.step(np.array([action], dtype=np.int64))
        reward = float(env.rewards[0])
        terminated, truncated = bool(env.terminated[0]), bool(env.truncated[0])
        if terminated or truncated:
            # The vector environment has already started again: show the end.
            final = env.final_board(0)
            assert final is not None
            obs, mask = env.final_observations[0].copy(), legal_mask(final, perspective=True)
        else:
            obs, mask = env.observations[0].copy(), env.masks[0]
        return obs, reward, terminated, truncated, self._info(mask)

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``; after the end of a game,
        its last position), else None."""
        if self.render_mode != "ansi":
            return None
        env = self._env
        ended = env.terminated[0] or env.truncated[0]
        return str(env.final_board(0) if ended else env.board(0))


class DraughtsVectorEnv(gymnasium.vector.VectorEnv[Observation, npt.NDArray[np.int64], Any]):
    """``num_envs`` games of ``variant`` as a Gymnasium vector environment,
    stepped by one :class:`~draughts.ml.VectorEnv`; it behaves as Gymnasium's
    ``SyncVectorEnv`` of as many :class:`DraughtsEnv` in ``SAME_STEP`` mode.
    With ``copy=False`` it returns the environment's own arrays, which the
    next step overwrites.

    >>> env = DraughtsVectorEnv("english", 4)
    >>> obs, infos = env.reset(seed=0)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 8, 8, 8), (4, 2048))
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        variant: Variant | str | int = INTERNATIONAL,
        num_envs: int = 1,
        *,
        max_plies: int | None = None,
        claim_draw: bool = False,
        copy: bool = True,
    ) -> None:
        self.env = VectorEnv(
            find_variant(variant),
            num_envs,
            max_plies=max_plies,
            claim_draw=claim_draw,
            illegal="lose",
        )
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces(
            self.env.variant, self.env.action_space_size
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start every game again; ``seed`` seeds the action space's sampling."""
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
            self.action_space.seed(seed)
        obs, _masks = self.env.reset()
        return self._out(obs), self._masks({})

    def _masks(self, infos: dict[str, Any]) -> dict[str, Any]:
        # Every game has a mask: the info layout of Gymnasium's vector envs.
        infos["action_mask"] = self.env.masks.astype(np.int8)
        infos["_action_mask"] = np.ones(self.num_envs, dtype=np.bool_)
        return infos

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Observation, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        """Play ``actions[i]`` in game ``i``; see the class documentation."""
        env = self.env
        env.step(np.asarray(actions, dtype=np.int64))
        infos: dict[str, Any] = {}
        for i in np.flatnonzero(env.terminated | env.truncated).tolist():
            final = env.final_board(i)
            assert final is not None
            info = {"action_mask": legal_mask(final, perspective=True).astype(np.int8)}
            infos = self._add_info(
                infos, {"final_obs": env.final_observations[i].copy(), "final_info": info}, i
            )
        self._masks(infos)
        return (
            self._out(env.observations),
            env.rewards.astype(np.float64),  # Gymnasium's vector envs' reward type
            self._out(env.terminated),
            self._out(env.truncated),
            infos,
        )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="draughts.ml.gym:DraughtsEnv")
