"""The page's "how to play" panel and menu names: each variant's rules in a
few plain sentences, written from its :class:`~draughts.Variant` fields so
that the words cannot drift from the rules the library plays.

>>> lines = how_to_play(draughts.find_variant("english"))
>>> lines[1]
'A man that reaches the far row becomes a king, and that ends the move.'
>>> print(lines[-1][:70])
Draws, when a player claims them: the same position for the third time
"""

from __future__ import annotations

import draughts
from draughts.outcome import DrawRule, Goal
from draughts.variant import CaptureRule, Directions, Promotion

__all__ = ["MENU_TITLES", "how_to_play", "menu_title"]

MENU_TITLES = {
    "dama": "Dama (checkers moves, online-play draws)",
    "dama-flying": "Dama with flying kings (diagonal moves)",
    "turkish": "Turkish dama (straight moves, 16 men each)",
}
"""Menu names for the variants whose titles a player could mistake for one
another: three games are called "dama", and the one played in Turkey moves
straight, not diagonally."""

_PRECEDENCE = {
    CaptureRule.MOST_PIECES: "take the most pieces",
    CaptureRule.MOST_VALUE: "take the most value (a king counts more than a man)",
    CaptureRule.WITH_KING: "capture with a king when a king can",
    CaptureRule.MOST_KINGS: "take the most kings",
    CaptureRule.KINGS_FIRST: "take kings as early as you can",
}

_COUNTED = {
    "king-moves-rule": "only kings moved and nothing was captured",
    "twenty-five-move-rule": "only kings moved and nothing was captured",
    "fifteen-move-rule": "only kings moved and nothing was captured",
    "forty-move-rule": "no man moved and nothing was captured",
}


def menu_title(variant: draughts.Variant) -> str:
    """The variant's name in the page's menu.

    >>> menu_title(draughts.find_variant("turkish"))
    'Turkish dama (straight moves, 16 men each)'
    >>> menu_title(draughts.find_variant("russian"))
    'Russian draughts (shashki)'
    """
    return MENU_TITLES.get(variant.name, variant.title)


def _directions(directions: Directions) -> str:
    if directions == Directions.DIAGONAL | Directions.ORTHOGONAL:
        return "diagonally or straight, in any direction"
    diagonal = directions & (Directions.DIAGONAL_FORWARD | Directions.DIAGONAL_BACKWARD)
    straight = directions & ~Directions.DIAGONAL
    parts = []
    if diagonal == Directions.DIAGONAL_FORWARD:
        parts.append("diagonally forward")
    elif diagonal:
        parts.append("diagonally forward or backward")
    if straight == Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS:
        parts.append("straight forward or sideways")
    elif straight == Directions.ORTHOGONAL:
        parts.append("straight in any direction")
    elif straight:
        parts.append("straight ahead")
    return " or ".join(parts)


def _men(variant: draughts.Variant) -> list[str]:
    moves = _directions(variant.man_moves)
    captures = _directions(variant.man_captures)
    lines = [f"Men move one square {moves} and capture by jumping an adjacent piece {captures}."]
    if not variant.men_capture_kings:
        lines.append("A man may not capture a king.")
    ending = {
        Promotion.ENDS_MOVE: ", and that ends the move",
        Promotion.CONTINUES_AS_KING: "; in a capture it goes on taking as a king",
        Promotion.PASSES: "; a man that only passes the far row in a capture stays a man",
    }[variant.promotion]
    lines.append(f"A man that reaches the far row becomes a king{ending}.")
    return lines


def _kings(variant: draughts.Variant) -> str:
    along = "along a diagonal" if variant.king_moves == Directions.DIAGONAL else "along a line"
    if variant.king_moves == Directions.ORTHOGONAL:
        along = "along a row or a column"
    if not variant.flying_kings:
        way = "diagonally" if variant.king_moves == Directions.DIAGONAL else "straight"
        return f"Kings move one square {way} in any direction, and capture forward or backward."
    landing = "land on any free square beyond it"
    if variant.king_lands_directly_behind:
        landing = "land on the square just behind it"
    elif variant.king_stops_behind_king:
        landing += " (just behind it, when it is a king)"
    text = (
        f"Kings fly: they move any number of free squares {along}, and capture at a "
        f"distance: they jump a piece on the line and {landing}."
    )
    if variant.king_move_limit is not None:
        text += (
            f" While its side has men, one king may not make more than "
            f"{variant.king_move_limit} moves in a row without capturing."
        )
    return text


def _captures(variant: draughts.Variant) -> str:
    rules = [_PRECEDENCE[rule] for rule in variant.capture_precedence]
    choice = f"you must {', then '.join(rules)}" if rules else "you may choose any capture"
    return (
        f"Capturing is compulsory, and a capture goes on while the piece can take more; {choice}."
    )


def _goal(variant: draughts.Variant) -> str:
    if variant.goal is Goal.ANTIDRAUGHTS:
        return "You win when you have no pieces left or cannot move: give your pieces away."
    if variant.goal is Goal.BREAKTHROUGH:
        return "The first player to make a king wins (or whose opponent cannot move)."
    return "You win when your opponent has no pieces left or cannot move."


def _draw(rule: DrawRule) -> str:
    name = rule.termination.value
    if name == "repetition":
        return "the same position for the third time (same side to move)"
    if name == "ply-limit":
        return f"no winner after {rule.limit} plies"
    if name == "insufficient-material":
        return "too little material left to win"
    if name in _COUNTED and not rule.endings:
        return f"{rule.limit // 2} moves each in which {_COUNTED[name]}"
    return "some endings of few pieces, after a set number of moves"


def _draws(variant: draughts.Variant) -> list[str]:
    lines = []
    for automatic, words in ((True, "Draws"), (False, "Draws, when a player claims them")):
        # One phrase per rule, without the repeats of rules counted per ending.
        phrases = list(
            dict.fromkeys(_draw(r) for r in variant.draw_rules if r.automatic == automatic)
        )
        if phrases:
            lines.append(f"{words}: {'; '.join(phrases)}.")
    if not lines:
        lines.append("No rule ends the game in a draw by itself.")
    return lines


def how_to_play(variant: draughts.Variant) -> list[str]:
    """The rules of ``variant`` in a few sentences, for the page's panel.

    >>> how_to_play(draughts.find_variant("turkish"))[0]
    'Men move one square straight forward or sideways and capture by jumping an adjacent piece straight forward or sideways.'
    """  # noqa: E501 - a doctest's output is one line
    return [*_men(variant), _kings(variant), _captures(variant), _goal(variant), *_draws(variant)]
