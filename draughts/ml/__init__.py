"""Machine learning on draughts: positions as arrays, moves as action
indices, batched self-play and training data (the ``ml`` extra: NumPy;
Gymnasium and PettingZoo for the adapters in :mod:`draughts.ml.gym` and
:mod:`draughts.ml.pettingzoo`).

>>> import draughts, draughts.ml
>>> board = draughts.Board(variant="english")
>>> draughts.ml.encode(board).shape
(8, 8, 8)
>>> mask = draughts.ml.legal_mask(board)
>>> int(mask.sum()), mask.shape
(7, (2048,))
>>> move = draughts.ml.index_to_move(board, int(mask.nonzero()[0][0]))
>>> move, draughts.ml.move_to_index(board, move)
(Move(9, 13), 268)

See :doc:`/ml` for the planes and the action index of every variant.
"""

from __future__ import annotations

from draughts.ml.actions import (
    action_space_size,
    index_to_move,
    legal_indices,
    legal_mask,
    move_to_index,
)
from draughts.ml.data import Dataset, dataset, load, selfplay_dataset
from draughts.ml.encoding import encode, encode_batch, observation_shape, plane_names
from draughts.ml.env import PlayStats, VectorEnv, play

__all__ = [
    "Dataset",
    "PlayStats",
    "VectorEnv",
    "action_space_size",
    "dataset",
    "encode",
    "encode_batch",
    "index_to_move",
    "legal_indices",
    "legal_mask",
    "load",
    "move_to_index",
    "observation_shape",
    "plane_names",
    "play",
    "selfplay_dataset",
]
