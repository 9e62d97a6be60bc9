"""The JSON API's work, without the web server: request bodies checked and
turned into a :class:`~draughts.Board`, boards turned into answers.

Everything here takes and returns plain ``dict`` values, so that the rules
of the API can be tested and reused without Starlette. Bad input raises
:class:`BadRequest`, whose message names the field (and, for a move, its
index) that is wrong.

>>> answer = position({"variant": "english", "moves": ["11-15"]})
>>> answer["turn"], answer["history"]
('white', ['11-15'])
>>> position({"variant": "english", "moves": ["11-15", "22-19"]})
Traceback (most recent call last):
...
draughts.web.positions.BadRequest: moves[1]: '22-19' is not a legal move here (white to move)
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

import draughts
from draughts import pdn
from draughts.outcome import Outcome
from draughts.web.howto import how_to_play, menu_title

__all__ = [
    "FIRST_VARIANTS",
    "MAX_MOVES",
    "BadRequest",
    "board_from_request",
    "check_fields",
    "describe",
    "game_pdn",
    "outcome_json",
    "position",
    "short",
    "variants",
]

FIRST_VARIANTS = ("english", "dama", "dama-flying", "brazilian")
"""The variants listed first: the four rule sets the rule pages describe."""

MAX_MOVES = 3000
"""The longest game a request may replay (plies). Longer than any real game,
short enough that replaying it stays a matter of milliseconds."""

_POSITION_FIELDS = {"variant", "fen", "moves", "end"}
_END_KINDS = ("timeout", "resignation", "claim", "agreement")


class BadRequest(ValueError):
    """A request the API refuses, with the HTTP status to answer (400 for a
    malformed body, 422 for a well-formed one that the rules refuse).

    >>> BadRequest("variant: unknown variant 'chess'", status=422).status
    422
    """

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _color_name(color: draughts.Color) -> str:
    return "white" if color == draughts.WHITE else "black"


def _parse_color(value: object, field: str) -> draughts.Color:
    if value == "white":
        return draughts.WHITE
    if value == "black":
        return draughts.BLACK
    raise BadRequest(f"{field}: expected 'white' or 'black', not {value!r}")


def check_fields(body: object, allowed: set[str]) -> Mapping[str, Any]:
    """``body`` as a JSON object with only the ``allowed`` keys.

    >>> check_fields({"variant": "english", "colour": "red"}, {"variant"})
    Traceback (most recent call last):
    ...
    draughts.web.positions.BadRequest: unknown field 'colour' (known: variant)
    """
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object, not {type(body).__name__}")
    for key in body:
        if key not in allowed:
            raise BadRequest(f"unknown field {key!r} (known: {', '.join(sorted(allowed))})")
    return body


def board_from_request(body: Mapping[str, Any]) -> draughts.Board:
    """The board that ``variant``, ``fen`` and ``moves`` describe: the start
    position (or the FEN) with the moves played.

    >>> board_from_request({"variant": "dama", "fen": "B:WK29:BK4"}).fen()
    'B:WK29:BK4'

    :raises BadRequest: for a missing or mistyped field, an unknown variant,
        a bad FEN, or a move that is not legal (its index in ``moves`` named).
    """
    name = body.get("variant")
    if not isinstance(name, str):
        raise BadRequest(f"variant: expected a variant name (a string), not {name!r}")
    try:
        variant = draughts.find_variant(name)
    except ValueError as error:
        raise BadRequest(f"variant: {error}", status=422) from None
    fen = body.get("fen")
    if fen is not None and not isinstance(fen, str):
        raise BadRequest(f"fen: expected a string or null, not {fen!r}")
    moves = body.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadRequest(f"moves: expected a list of strings, not {short(moves)}")
    if len(moves) > MAX_MOVES:
        raise BadRequest(f"moves: {len(moves)} moves, more than the {MAX_MOVES} allowed")
    try:
        board = draughts.Board(fen if fen and fen.strip() else None, variant=variant)
    except ValueError as error:
        raise BadRequest(f"fen: {error}", status=422) from None
    for index, text in enumerate(moves):
        _play(board, index, text)
    return board


def _play(board: draughts.Board, index: int, text: str) -> None:
    turn = _color_name(board.turn)
    if board.outcome() is not None:
        raise BadRequest(f"moves[{index}]: {text!r} comes after the end of the game", status=422)
    try:
        move = board.parse_pdn(text)
    except draughts.AmbiguousMoveError:
        raise BadRequest(
            f"moves[{index}]: {text!r} is ambiguous: write the whole route", status=422
        ) from None
    except draughts.IllegalMoveError:
        raise BadRequest(
            f"moves[{index}]: {text!r} is not a legal move here ({turn} to move)", status=422
        ) from None
    except ValueError:
        raise BadRequest(f"moves[{index}]: {text!r} is not a move", status=422) from None
    board.push(move)


def short(value: object) -> str:
    """``value`` as an error message quotes it: its ``repr``, cut short.

    >>> short("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """An outcome as the API writes it.

    >>> outcome_json(draughts.Board("W:W28:B23", variant="international")
    ...     .outcome_on_resignation(draughts.WHITE))
    {'result': '0-2', 'termination': 'resignation', 'winner': 'black'}
    """
    if outcome is None:
        return None
    return {
        "result": outcome.result(),
        "termination": outcome.termination.value,
        "winner": None if outcome.winner is None else _color_name(outcome.winner),
    }


def _claims(board: draughts.Board) -> list[str]:
    """The draw rules the player to move may claim now (their termination
    names): the repetition, then the first other claimable rule."""
    if board.outcome() is not None:
        return []
    claims = []
    if board.can_claim_threefold_repetition():
        claims.append(draughts.Termination.REPETITION.value)
    claimed = board.outcome(claim_draw=True)
    if claimed is not None and claimed.termination.value not in claims:
        claims.append(claimed.termination.value)
    return claims


def _ending(board: draughts.Board, end: object) -> Outcome | None:
    """The outcome of the game: the board's own, or the ``end`` the players
    chose (``{"by": "timeout", "side": "white"}`` and the like)."""
    own = board.outcome()
    if end is None:
        return own
    if not isinstance(end, dict) or not isinstance(end.get("by"), str):
        raise BadRequest("end: expected an object like {'by': 'resignation', 'side': 'white'}")
    check_fields(end, {"by", "side"})
    kind = end["by"]
    if kind not in _END_KINDS:
        raise BadRequest(f"end.by: expected one of {', '.join(_END_KINDS)}, not {kind!r}")
    if own is not None:
        raise BadRequest(f"end: the game is already over ({own.termination.value})", status=422)
    if kind == "agreement":
        return board.outcome_by_agreement()
    if kind == "claim":
        claimed = board.outcome(claim_draw=True)
        if claimed is None:
            raise BadRequest("end: no draw can be claimed in this position", status=422)
        return claimed
    side = _parse_color(end.get("side"), "end.side")
    if kind == "timeout":
        return board.outcome_on_timeout(side)
    return board.outcome_on_resignation(side)


def position(body: object) -> dict[str, Any]:
    """The answer to ``POST /api/position``: the position after the moves,
    its legal moves, the outcome and the draws that can be claimed.

    >>> answer = position({"variant": "international", "fen": "W:W28:B23"})
    >>> answer["legal_moves"]
    [{'pdn': '28x19', 'from': 28, 'to': 19, 'path': [28, 19], 'captures': [23]}]
    """
    request = check_fields(body, _POSITION_FIELDS)
    board = board_from_request(request)
    return describe(board, _ending(board, request.get("end")))


def describe(board: draughts.Board, outcome: Outcome | None) -> dict[str, Any]:
    """The JSON description of ``board`` (see :func:`position`)."""
    moves = [] if outcome is not None else list(board.legal_moves)
    last = board.move_stack[-1] if board.move_stack else None
    return {
        "variant": board.variant.name,
        "fen": board.fen(),
        "turn": _color_name(board.turn),
        "pieces": [
            {"square": square, "color": _color_name(piece.color), "kind": piece.kind.name.lower()}
            for square, piece in sorted(board.piece_map().items())
        ],
        "legal_moves": [_move_json(board, move) for move in moves],
        "capture_required": bool(moves) and moves[0].is_capture,
        "last_move": None if last is None else _route_json(last),
        "history": _history(board),
        "outcome": outcome_json(outcome),
        "claims": [] if outcome is not None else _claims(board),
    }


def _route_json(move: draughts.Move) -> dict[str, Any]:
    return {
        "from": move.from_square,
        "to": move.to_square,
        "path": list(move.path),
        "captures": list(move.captures),
    }


def _move_json(board: draughts.Board, move: draughts.Move) -> dict[str, Any]:
    return {"pdn": board.pdn(move), **_route_json(move)}


def _history(board: draughts.Board) -> list[str]:
    """The moves played, each written as the position before it asks."""
    replay = board.copy()
    played = []
    while replay.move_stack:
        played.append(replay.pop())
    texts = []
    for move in reversed(played):
        texts.append(replay.pdn(move))
        replay.push(move)
    return texts


def game_pdn(body: object) -> str:
    """The game of a ``POST /api/pdn`` body as a PDN record: the moves, the
    start FEN when it is not the variant's, the players (``white`` and
    ``black`` fields), the result and its termination.

    >>> print(game_pdn({"variant": "english", "moves": ["11-15"], "white": "Ann",
    ...                 "black": "Bob", "end": {"by": "resignation", "side": "white"},
    ...                 "date": "2026.01.31"}), end="")
    [Event "Casual game"]
    [Site "?"]
    [Date "2026.01.31"]
    [Round "?"]
    [White "Ann"]
    [Black "Bob"]
    [Result "1-0"]
    [GameType "21"]
    [Termination "resignation"]
    <BLANKLINE>
    1. 11-15 1-0
    """
    request = check_fields(body, _POSITION_FIELDS | {"white", "black", "event", "date"})
    board = board_from_request(request)
    outcome = _ending(board, request.get("end"))
    game = pdn.Game.from_board(board)
    headers = game.headers
    tags = {"event": "Event", "date": "Date", "white": "White", "black": "Black"}
    defaults = {
        "event": "Casual game",
        "date": datetime.date.today().strftime("%Y.%m.%d"),
        "white": "White",
        "black": "Black",
    }
    for field, tag in tags.items():
        value = request.get(field, defaults[field])
        # The writer escapes quotes and backslashes; a line break it cannot.
        if not isinstance(value, str) or not value.isprintable():
            raise BadRequest(f"{field}: expected one line of printable text, not {short(value)}")
        headers[tag] = value
    headers["Result"] = "*" if outcome is None else outcome.result()
    if outcome is not None:
        headers["Termination"] = outcome.termination.value
    return str(game).rstrip("\n") + "\n"


def variants() -> list[dict[str, Any]]:
    """Every preset, :data:`FIRST_VARIANTS` first, with what a page needs to
    draw its board: the size, the playing squares (number, row, column,
    name) and how squares are written; and its name in the menu and its
    rules in a few sentences (see :mod:`draughts.web.howto`).

    >>> [v["name"] for v in variants()][:5]
    ['english', 'dama', 'dama-flying', 'brazilian', 'international']
    >>> variants()[0]["squares"][0]
    {'square': 1, 'row': 7, 'col': 1, 'name': '1'}
    """
    order = sorted(
        draughts.VARIANTS,
        key=lambda v: FIRST_VARIANTS.index(v.name) if v.name in FIRST_VARIANTS else 99,
    )
    return [
        {
            "name": variant.name,
            "title": variant.title,
            "menu": menu_title(variant),
            "how_to_play": how_to_play(variant),
            "width": variant.width,
            "height": variant.height,
            "notation": variant.notation,
            "first_color": _color_name(variant.first_color),
            "all_squares": variant.all_squares,
            "squares": [
                {
                    "square": square,
                    "row": variant.coordinates(square)[0],
                    "col": variant.coordinates(square)[1],
                    "name": variant.square_name(square),
                }
                for square in variant.squares
            ],
        }
        for variant in order
    ]
