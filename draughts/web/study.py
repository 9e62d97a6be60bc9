"""A PDN game for the study view (``POST /api/study``): the first game of a
text read as :func:`draughts.pdn.read_game` reads it (the variant from its
tags, else inferred from its FEN and moves), turned into a flat list of
nodes that a page can step through.

>>> answer = study({"pdn": '[GameType "21"]\\n1. 11-15 {a} (1. 9-13 22-18) 23-19 *'})
>>> answer["variant"], answer["fen"]
('english', None)
>>> [(node["parent"], node["move"], node["comment"]) for node in answer["nodes"]]
[(None, None, ''), (0, '11-15', 'a'), (1, '23-19', ''), (0, '9-13', ''), (3, '22-18', '')]
>>> answer["nodes"][0]["children"], answer["nodes"][1]["children"]
([1, 3], [2])
"""

from __future__ import annotations

import base64
import binascii
import io
from typing import Any

import draughts
from draughts import pdn
from draughts.web.positions import BadRequest, check_fields, short

__all__ = ["MAX_NODES", "MAX_TEXT", "study"]

MAX_NODES = 20_000
"""The most moves (main line and variations together) a studied game may have."""

MAX_TEXT = 4 * 1024 * 1024
"""The most characters of a file sent as ``pdn_base64`` read once it is
decompressed (the first game is studied; a file that decompresses to more
is read only that far)."""

_FIELDS = {"pdn", "pdn_base64", "variant"}
_MAX_MESSAGES = 20


def study(body: object) -> dict[str, Any]:
    """The answer to ``POST /api/study``: ``{"pdn": text}``, or
    ``{"pdn_base64": bytes}`` for a file as it is (compressed or not), and
    optionally ``"variant"``, the variant of a game whose tags name none (otherwise
    inferred). The answer has the game's ``variant``, its start ``fen``
    (null for the variant's start), its ``headers`` (``[name, value]``
    pairs), its ``errors`` and ``warnings`` as messages, and its ``nodes``:
    the start (``nodes[0]``) and then every move, each with its ``parent``
    (an index in ``nodes``), its ``children`` (main line first), the
    ``move`` as PDN, its ``comment``, ``starting_comment`` and ``nags``.

    :raises BadRequest: for a body that is not ``{"pdn": "..."}``, (422) for
        a text with no game (nothing but errors), an unknown variant or more than
        :data:`MAX_NODES` moves.
    """
    request = check_fields(body, _FIELDS)
    if ("pdn" in request) == ("pdn_base64" in request):
        raise BadRequest("expected either pdn (a game's text) or pdn_base64 (a file's bytes)")
    if "pdn_base64" in request:
        text = _file_text(request["pdn_base64"])
    else:
        text = request["pdn"]
        if not isinstance(text, str):
            raise BadRequest(f"pdn: expected the text of a PDN game, not {short(text)}")
    variant = request.get("variant")
    if variant is not None:
        if not isinstance(variant, str):
            raise BadRequest(f"variant: expected a variant name or null, not {short(variant)}")
        try:
            variant = draughts.find_variant(variant).name
        except ValueError as error:
            raise BadRequest(f"variant: {error}", status=422) from None
    try:
        game = pdn.read_game(io.StringIO(text), variant=variant)
    except ValueError as error:  # a NAG of thousands of digits: int() refuses it
        raise BadRequest(f"pdn: the text cannot be read: {error}", status=422) from None
    if game is None:
        raise BadRequest("pdn: the text holds no game", status=422)
    if game.errors and not game.variations and not list(game.headers.items()):
        # Nothing read but errors ("hello", binary data): not a game.
        raise BadRequest(f"pdn: the text holds no game: {game.errors[0]}", status=422)
    start = game.board()
    return {
        "variant": game.variant.name,
        "fen": None if "FEN" not in game.headers else start.fen(),
        "headers": [[name, value] for name, value in game.headers.items()],
        "errors": [str(error) for error in game.errors[:_MAX_MESSAGES]],
        "warnings": [str(warning) for warning in game.warnings[:_MAX_MESSAGES]],
        "nodes": _nodes(game, start),
    }


def _file_text(packed: object) -> str:
    """The text of a file sent in base64, decompressed as
    :func:`draughts.pdn.open_pdn` decompresses it (gzip, bzip2, xz, zstd),
    its first :data:`MAX_TEXT` characters at most (a small file can
    decompress to gigabytes)."""
    if not isinstance(packed, str):
        raise BadRequest(f"pdn_base64: expected a file's bytes in base64, not {short(packed)}")
    try:
        data = base64.b64decode(packed, validate=True)
    except (binascii.Error, ValueError) as error:
        raise BadRequest(f"pdn_base64: not base64: {error}") from None
    try:
        with pdn.open_pdn(io.BytesIO(data)) as handle:
            return handle.read(MAX_TEXT)
    except pdn.NotTextError as error:
        raise BadRequest(f"pdn_base64: {error}", status=422) from None
    except (OSError, EOFError, ValueError) as error:  # a damaged or cut compressed file
        raise BadRequest(f"pdn_base64: the file cannot be read: {error}", status=422) from None


def _nodes(game: pdn.Game, start: draughts.Board) -> list[dict[str, Any]]:
    """The tree as a flat list, depth first with the main line first (so a
    line's moves follow each other), walked without recursion: variations
    may nest deeper than Python's stack."""
    nodes: list[dict[str, Any]] = [_node(None, None, game)]
    # (node, index of its parent in nodes, the board before its move)
    stack: list[tuple[pdn.ChildNode, int, draughts.Board]] = [
        (child, 0, start) for child in reversed(game.variations)
    ]
    while stack:
        node, parent, board = stack.pop()
        if len(nodes) > MAX_NODES:
            raise BadRequest(f"pdn: the game has more than {MAX_NODES} moves", status=422)
        index = len(nodes)
        nodes[parent]["children"].append(index)
        nodes.append(_node(parent, board.pdn(node.move), node))
        after = board.copy(stack=False)
        after.push(node.move)
        stack.extend((child, index, after) for child in reversed(node.variations))
    return nodes


def _node(parent: int | None, move: str | None, node: pdn.GameNode) -> dict[str, Any]:
    return {
        "parent": parent,
        "children": [],
        "move": move,
        "comment": node.comment,
        "starting_comment": node.starting_comment,
        "nags": sorted(node.nags),
    }
