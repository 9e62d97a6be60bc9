"""A PettingZoo AEC environment: one game, two agents, ``"player_0"`` (White)
and ``"player_1"`` (Black): the names PettingZoo recommends, numbered as the
library's :class:`~draughts.Color`.

Each agent observes a dictionary, as PettingZoo's board games do:
``"observation"``, the board as that agent sees it (:func:`~draughts.ml.encode`
with ``viewer`` its colour), and ``"action_mask"``, its legal moves as
``int8`` (all zeros while the other side is to move). An action is a
:mod:`move index <draughts.ml.actions>` as the agent sees the board
(``perspective=True``). At the end the winner gets +1 and
the loser -1 (0 each in a draw, decided as :meth:`Board.outcome
<draughts.Board.outcome>` decides it); an illegal action ends the game with
-1 for the agent that played it and 0 for the other, as in PettingZoo's
classic games. Needs the ``ml`` extra (PettingZoo).

>>> from draughts.ml.pettingzoo import env
>>> game = env(variant="english")
>>> game.reset(seed=0)
>>> game.agent_selection  # Black moves first in English draughts
'player_1'
>>> observation, reward, terminated, truncated, info = game.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((8, 8, 8), 7)
>>> game.step(int(observation["action_mask"].argmax()))
>>> game.agent_selection
'player_0'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from draughts.board import Board
from draughts.errors import IllegalMoveError
from draughts.ml.actions import action_space_size, index_to_move, legal_mask
from draughts.ml.encoding import encode, layout
from draughts.piece import BLACK, WHITE, Color
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["DraughtsAECEnv", "env"]

_AGENTS = ("player_0", "player_1")
_COLORS = {"player_0": WHITE, "player_1": BLACK}


# PettingZoo ships no type information: its AECEnv is Any to mypy.
class DraughtsAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game of ``variant`` for two agents (see the module's
    documentation). :func:`env` wraps it in PettingZoo's order checks.

    >>> DraughtsAECEnv("frisian").possible_agents
    ['player_0', 'player_1']
    """

    metadata = {  # noqa: RUF012 - PettingZoo's own attribute
        "render_modes": ["ansi"],
        "name": "draughts_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str | int = INTERNATIONAL,
        *,
        max_plies: int | None = None,
        claim_draw: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.variant = find_variant(variant)
        self.max_plies = max_plies
        self.claim_draw = claim_draw
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        size = action_space_size(self.variant)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, layout(self.variant).shape, np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(size))
        self.board = Board(variant=self.variant)
        self._ended = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: every move index of the variant."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees now."""
        color: Color = _COLORS[agent]
        board = self.board
        if board.turn == color and not self._ended:
            mask = legal_mask(board, perspective=True).astype(np.int8)
        else:
            mask = np.zeros(action_space_size(self.variant), dtype=np.int8)
        return {"observation": encode(board, viewer=color), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (nothing is random: ``seed`` changes nothing)."""
        self.board = Board(variant=self.variant)
        self._ended = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = _AGENTS[int(self.board.turn)]

    def step(self, action: int | None) -> None:
        """Play ``action`` for :attr:`agent_selection` (None for an agent
        whose game has ended, as PettingZoo asks)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        board = self.board
        try:
            move = index_to_move(board, int(action), perspective=True)  # type: ignore[arg-type]
        except (IllegalMoveError, ValueError, TypeError):
            self.rewards[agent] = -1.0
            self._end(truncated=False)
        else:
            board.push(move)
            outcome = board.outcome(claim_draw=self.claim_draw)
            if outcome is not None:
                if outcome.winner is not None:
                    winner = _AGENTS[int(outcome.winner)]
                    for name in self.agents:
                        self.rewards[name] = 1.0 if name == winner else -1.0
                self._end(truncated=False)
            elif self.max_plies is not None and board.ply() >= self.max_plies:
                self._end(truncated=True)
            self.agent_selection = _AGENTS[int(board.turn)]
        self._accumulate_rewards()

    def _end(self, *, truncated: bool) -> None:
        self._ended = True
        flags = self.truncations if truncated else self.terminations
        for name in self.agents:
            flags[name] = True

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``), else None."""
        return str(self.board) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """A :class:`DraughtsAECEnv` (``kwargs`` are its arguments) in
    PettingZoo's wrapper that checks the order of calls.

    >>> env(variant="turkish").unwrapped.variant.name
    'turkish'
    """
    return wrappers.OrderEnforcingWrapper(DraughtsAECEnv(**kwargs))
