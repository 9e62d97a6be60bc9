"""The draw rules of the presets, as data (see :mod:`draughts.outcome`).

Each rule names its source (a federation's rules, a rule page, lidraughts);
the documentation's page on how games end shows them as a table, with the
choices made where a text is unclear.
"""

from __future__ import annotations

from draughts.outcome import DrawRule, Ending, Material, Reset, Termination

_ONE_KING = Material(kings=1)
_THREE_PIECES = (Material(kings=3), Material(kings=2, men=1), Material(kings=1, men=2))
_AT_MOST_TWO = (Material(kings=2), Material(kings=1, men=1), Material(kings=1))
_WITH_KINGS = Material(kings=(1, 99), men=(0, 99))

FMJD_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        source="FMJD rules art. 6.1 (via Wikipedia and lidraughts): third occurrence "
        "of the same position with the same player to move",
    ),
    DrawRule(
        Termination.TWENTY_FIVE_MOVE_RULE,
        50,
        source="FMJD rules art. 6.2 (via Wikipedia, lidraughts; DCTL: 50 reversible "
        "plies): 25 moves each with only king moves, no man move, no capture",
    ),
    DrawRule(
        Termination.SIXTEEN_MOVE_RULE,
        32,
        resets=Reset.CAPTURE,
        endings=tuple(Ending(m, _ONE_KING) for m in _THREE_PIECES),
        source="FMJD rules (via Wikipedia, lidraughts): three kings, two kings and a man "
        "or a king and two men against a lone king, 16 moves each; lidraughts "
        "counts on through a promotion and starts again after a capture",
    ),
    DrawRule(
        Termination.FIVE_MOVE_RULE,
        10,
        resets=Reset.NONE,
        endings=tuple(Ending(m, _ONE_KING) for m in _AT_MOST_TWO),
        source="FMJD rules (via Wikipedia, lidraughts): two kings, a king and a man, or "
        "a king against a lone king, 5 moves each",
    ),
)

WCDF_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        automatic=False,
        claim_on_next_move=True,
        source="WCDF rules of draughts (quoted on littlegolem): a player who shows that "
        "his next move creates the same position for the third time",
    ),
    DrawRule(
        Termination.FORTY_MOVE_RULE,
        80,
        automatic=False,
        source="WCDF rules of draughts (quoted on littlegolem; DCTL: 80 reversible "
        "plies): neither player advanced a man nor captured in his last 40 moves",
    ),
)

DAMA_DRAW_RULES = (
    DrawRule(
        Termination.KING_MOVES_RULE,
        80,
        source="the dama rule pages (Tagalog and Malay online play): 40 consecutive move "
        "pairs in which only kings moved and nothing was captured",
    ),
    DrawRule(
        Termination.PLY_LIMIT,
        300,
        resets=Reset.NONE,
        source="the dama rule pages (Tagalog and Malay online play): no winner after 300 plies",
    ),
    DrawRule(
        Termination.REPETITION,
        3,
        automatic=False,
        on_timeout=True,
        source="the dama rule pages (Tagalog and Malay online play): the same position, "
        "same side to move, 3 times; either player may claim; a time-out then draws",
    ),
    DrawRule(
        Termination.INSUFFICIENT_MATERIAL,
        0,
        automatic=False,
        on_timeout=True,
        endings=(Ending(_ONE_KING, _ONE_KING), Ending(Material(men=1), _ONE_KING)),
        source="the dama rule pages (Tagalog and Malay online play): a single man or king "
        "against a single king; claimable on one's own turn; a time-out then draws",
    ),
)

FMJD64_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        source="FMJD-64 7.2.3 (via lidraughts): the same position, same side to move, 3 times",
    ),
    DrawRule(
        Termination.LONG_DIAGONAL_RULE,
        5,
        resets=Reset.CAPTURE,
        strong_side_moves=True,
        endings=tuple(Ending(m, _ONE_KING, weak_king_on_long_diagonal=True) for m in _THREE_PIECES),
        source="FMJD-64 7.2.7 (via lidraughts): three pieces against a lone king on the "
        "long diagonal, not won by the strong side's 5th move",
    ),
    DrawRule(
        Termination.FIVE_MOVE_RULE,
        10,
        resets=Reset.NONE,
        endings=tuple(Ending(m, _ONE_KING) for m in _AT_MOST_TWO),
        source="FMJD-64 7.2.8 (via lidraughts): two kings, king and man, or king "
        "against a king, 5 moves each",
    ),
    DrawRule(
        Termination.THREE_KINGS_RULE,
        15,
        resets=Reset.CAPTURE,
        strong_side_moves=True,
        endings=(Ending(Material(kings=(3, 99)), _ONE_KING),),
        source="FMJD-64 7.2.4 (via lidraughts): three kings or more against a lone king, "
        "not captured by the strong side's 15th move",
    ),
    DrawRule(
        Termination.FIFTEEN_MOVE_RULE,
        30,
        source="FMJD-64 7.2.5 (via lidraughts): 15 moves each with only kings moved, "
        "no man moved and nothing captured",
    ),
    DrawRule(
        Termination.KINGS_ENDGAME_RULE,
        60,
        resets=Reset.CAPTURE | Reset.PROMOTION,
        endings=(Ending(_WITH_KINGS, _WITH_KINGS, pieces=(4, 5)),),
        source="FMJD-64 7.2.6 (via lidraughts): both sides have kings and the material "
        "is unchanged (no capture, no promotion): 30 moves each with 4-5 pieces",
    ),
    DrawRule(
        Termination.KINGS_ENDGAME_RULE,
        120,
        resets=Reset.CAPTURE | Reset.PROMOTION,
        endings=(Ending(_WITH_KINGS, _WITH_KINGS, pieces=(6, 7)),),
        source="FMJD-64 7.2.6 (via lidraughts): as above, 60 moves each with 6-7 pieces",
    ),
)

APCA_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        source="APCA tournament rule 26 as DCTL encodes it (max_repetitions=3); "
        "automatic as on lidraughts, the text read not saying",
    ),
    DrawRule(
        Termination.FIFTEEN_MOVE_RULE,
        30,
        source="APCA tournament rule 26 as DCTL encodes it (30 reversible plies, DCTL "
        "counting plies as its 80 for English shows) [uncertain]",
    ),
)

ONE_PIECE_EACH = (
    Ending(Material(kings=1), Material(kings=1)),
    Ending(Material(men=1), Material(kings=1)),
    Ending(Material(men=1), Material(men=1)),
)

FRISIAN_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        source="lidraughts Frisian: the same position, same side to move, 3 times",
    ),
    DrawRule(
        Termination.INSUFFICIENT_MATERIAL,
        0,
        endings=(Ending(Material(kings=1), Material(kings=1)),),
        source="Frisian rules (mindsports, lidraughts): a king against a king is "
        "drawn at once (lidraughts lets 2 more moves be played)",
    ),
    DrawRule(
        Termination.SEVEN_MOVE_RULE,
        14,
        resets=Reset.NONE,
        endings=(Ending(Material(kings=2), Material(kings=1)),),
        source="Frisian rules (mindsports, lidraughts): two kings against a lone king "
        "are drawn after 7 moves each; read as 14 plies from when the material "
        "appears, as lidraughts does (Halbersma on damforum counts 13 plies for "
        "the strong side to win) [uncertain]",
    ),
)

SPANISH_DRAW_RULES = (
    DrawRule(
        Termination.REPETITION,
        3,
        source="Spanish rules (section64port): the same position, same side to "
        "move, for the third time",
    ),
    DrawRule(
        Termination.KING_MOVES_RULE,
        40,
        source="Spanish rules (section64port): 40 successive king moves, 20 each, "
        "without a capture",
    ),
)
