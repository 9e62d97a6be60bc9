"""How a game ends: :class:`Outcome`, :class:`Termination`, and the rules as data.

:meth:`Board.outcome <draughts.Board.outcome>` answers "is the game over, who
won and why?". The rules it applies are values on the :class:`~draughts.Variant`:
its :class:`Goal` (who wins when a side cannot move) and its
:attr:`~draughts.Variant.draw_rules`, a tuple of :class:`DrawRule`. A custom
variant picks its own:

>>> import attrs, draughts
>>> from draughts.outcome import DrawRule, Termination
>>> quick = attrs.evolve(draughts.variant.ENGLISH, name="quick-draw",
...     draw_rules=(DrawRule(Termination.FORTY_MOVE_RULE, 4, source="house rule"),))
>>> [rule.describe() for rule in quick.draw_rules]
['4 plies, reset by capture or man move']
"""

from __future__ import annotations

import enum
from typing import Literal

import attrs

from draughts.piece import WHITE, Color

__all__ = [
    "DrawRule",
    "Ending",
    "Goal",
    "Material",
    "Outcome",
    "Reset",
    "Termination",
]

ResultStyle = Literal["default", "international"]


class Termination(enum.Enum):
    """Why a game ended.

    >>> Termination.BLOCKED.value
    'blocked'
    """

    NO_PIECES = "no-pieces"
    """The side to move has no pieces left."""
    BLOCKED = "blocked"
    """The side to move has pieces but no legal move."""
    BREAKTHROUGH = "breakthrough"
    """A side made a king (:attr:`Goal.BREAKTHROUGH`)."""
    REPETITION = "repetition"
    """The same position, with the same side to move, occurred the number of
    times the rule names (three in every preset)."""
    TWENTY_FIVE_MOVE_RULE = "twenty-five-move-rule"
    """FMJD: 25 moves each with only kings moved and nothing captured."""
    SIXTEEN_MOVE_RULE = "sixteen-move-rule"
    """FMJD: three pieces, one at least a king, against a lone king: 16 moves each."""
    FIVE_MOVE_RULE = "five-move-rule"
    """FMJD / FMJD-64 7.2.8: at most two pieces, one at least a king, against a
    lone king: 5 moves each."""
    FORTY_MOVE_RULE = "forty-move-rule"
    """WCDF: 40 moves each with no man moved and nothing captured."""
    KING_MOVES_RULE = "king-moves-rule"
    """``dama``: 40 move pairs in which only kings moved and nothing was captured."""
    PLY_LIMIT = "ply-limit"
    """``dama``: no winner after 300 plies."""
    FIFTEEN_MOVE_RULE = "fifteen-move-rule"
    """FMJD-64 7.2.5: 15 moves each with only kings moved and nothing captured."""
    THREE_KINGS_RULE = "three-kings-rule"
    """FMJD-64 7.2.4: three kings or more against a lone king, not won by the
    strong side's 15th move."""
    KINGS_ENDGAME_RULE = "kings-endgame-rule"
    """FMJD-64 7.2.6 (or a game-length rule like it): both sides have kings and
    the material has not changed for the number of moves the rule names."""
    LONG_DIAGONAL_RULE = "long-diagonal-rule"
    """FMJD-64 7.2.7: three pieces against a lone king on the long diagonal,
    not won by the strong side's 5th move."""
    SEVEN_MOVE_RULE = "seven-move-rule"
    """Frisian: two kings against a lone king, 7 moves each."""
    INSUFFICIENT_MATERIAL = "insufficient-material"
    """Neither side can win with the material left (never while the side to
    move has a capture to make)."""
    TIMEOUT = "timeout"
    """A player ran out of time (:meth:`Board.outcome_on_timeout
    <draughts.Board.outcome_on_timeout>`)."""
    RESIGNATION = "resignation"
    """A player resigned."""
    AGREEMENT = "agreement"
    """The players agreed a draw."""


class Goal(enum.Enum):
    """What a side plays for.

    >>> Goal.ANTIDRAUGHTS.value
    'antidraughts'
    """

    STANDARD = "standard"
    """A side with no legal move (no pieces, or all blocked) loses."""
    ANTIDRAUGHTS = "antidraughts"
    """A side with no legal move wins (lidraughts antidraughts)."""
    BREAKTHROUGH = "breakthrough"
    """The first side to make a king wins; a side with no legal move loses
    (lidraughts breakthrough)."""


class Reset(enum.IntFlag):
    """Moves that start a draw rule's count again.

    >>> Reset.CAPTURE | Reset.MAN_MOVE in Reset.ANY_PROGRESS
    True
    """

    NONE = 0
    CAPTURE = enum.auto()
    """A move that captures."""
    MAN_MOVE = enum.auto()
    """A move made by a man (a man's move that crowns it included)."""
    PROMOTION = enum.auto()
    """A move that crowns a man."""
    ANY_PROGRESS = CAPTURE | MAN_MOVE


def _span(value: int | tuple[int, int]) -> tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    low, high = value
    if not 0 <= low <= high:
        raise ValueError(f"not a count range: {value!r}")
    return (low, high)


@attrs.frozen
class Material:
    """The pieces one side has, as inclusive ranges of kings and men.

    A number means exactly that many.

    >>> Material(kings=(3, 99)).matches(kings=4, men=0)
    True
    >>> Material(kings=1, men=1).matches(kings=1, men=2)
    False
    """

    kings: tuple[int, int] = attrs.field(default=(0, 0), converter=_span)
    men: tuple[int, int] = attrs.field(default=(0, 0), converter=_span)

    def matches(self, *, kings: int, men: int) -> bool:
        """Whether a side with ``kings`` kings and ``men`` men has this material."""
        return self.kings[0] <= kings <= self.kings[1] and self.men[0] <= men <= self.men[1]

    def __str__(self) -> str:
        parts = []
        for count, letter in ((self.kings, "K"), (self.men, "M")):
            low, high = count
            if high == 0:
                continue
            if low == 0 and high >= 99:
                parts.append(f"any {letter}")
                continue
            text = str(low) if low == high else f"{low}+" if high >= 99 else f"{low}-{high}"
            parts.append(f"{text}{letter}")
        return "+".join(parts) or "nothing"


@attrs.frozen
class Ending:
    """A material balance: a strong side and a weak side (either colour).

    ``pieces`` bounds the total number of pieces on the board;
    ``weak_king_on_long_diagonal`` asks, as FMJD-64 7.2.7 does, that the weak
    side's king stands on the board's long diagonal.

    >>> str(Ending(Material(kings=3), Material(kings=1)))
    '3K v 1K'
    """

    strong: Material
    weak: Material
    pieces: tuple[int, int] = attrs.field(default=(0, 999), converter=_span)
    weak_king_on_long_diagonal: bool = False

    def __str__(self) -> str:
        text = f"{self.strong} v {self.weak}"
        low, high = self.pieces
        if (low, high) != (0, 999):
            text += f", {low}-{high} pieces" if low != high else f", {low} pieces"
        if self.weak_king_on_long_diagonal:
            text += ", lone king on the long diagonal"
        return text


@attrs.frozen
class DrawRule:
    """One draw rule of a variant.

    A :attr:`~Termination.REPETITION` rule is met when the position (same side
    to move) has occurred ``limit`` times. Every other rule counts plies: it is
    met once ``limit`` plies have been played since its count started, while
    the material is one of its ``endings`` (any material when there are
    none). The count starts when the material enters one of the endings, and
    starts again after any move listed in ``resets``. With
    ``strong_side_moves`` the count is of the strong side's moves instead of
    plies. A limit of 0 makes a pure material rule (insufficient material),
    met only while the side to move has no capture: a capture is compulsory
    and changes the material, and with a piece each it takes the last one.

    >>> rule = DrawRule(Termination.TWENTY_FIVE_MOVE_RULE, 50, source="FMJD 6.2")
    >>> rule.automatic, rule.resets == Reset.ANY_PROGRESS
    (True, True)
    """

    termination: Termination
    limit: int = attrs.field()
    endings: tuple[Ending, ...] = ()
    resets: Reset = Reset.ANY_PROGRESS
    automatic: bool = True
    """True: the game ends by itself; False: the player to move may claim it."""
    strong_side_moves: bool = False
    claim_on_next_move: bool = False
    """For a claimable repetition: the player may also claim when one of his
    legal moves would make the repetition (WCDF), not only once it is on the
    board."""
    on_timeout: bool = False
    """When the rule is met, a player who runs out of time draws instead of losing."""
    source: str = ""
    """The rule text this encodes, for the docs."""

    @limit.validator
    def _check_limit(self, _attribute: object, value: int) -> None:
        if value < 0 or (self.termination is Termination.REPETITION and value < 2):
            raise ValueError(f"bad limit {value!r} for {self.termination.name}")

    @property
    def is_repetition(self) -> bool:
        """Whether this is a repetition rule rather than a counting one."""
        return self.termination is Termination.REPETITION

    def describe(self) -> str:
        """The rule in words, as the docs table shows it.

        >>> DrawRule(Termination.FIVE_MOVE_RULE, 10, resets=Reset.NONE,
        ...          endings=(Ending(Material(kings=1), Material(kings=1)),)).describe()
        '10 plies (1K v 1K)'
        >>> DrawRule(Termination.INSUFFICIENT_MATERIAL, 0,
        ...          endings=(Ending(Material(kings=1), Material(kings=1)),)).describe()
        'as soon as the material is reached (1K v 1K), the side to move having no capture'
        """
        if self.is_repetition:
            return f"same position, same side to move, {self.limit} times"
        if self.limit == 0:
            text = "as soon as the material is reached"
        elif self.strong_side_moves:
            text = f"{self.limit} moves of the strong side"
        else:
            text = f"{self.limit} plies"
        if self.endings:
            text += " (" + "; ".join(str(e) for e in self.endings) + ")"
        if not self.limit:
            text += ", the side to move having no capture"
        if self.limit and self.resets:
            names = [
                n
                for n, f in (
                    ("capture", Reset.CAPTURE),
                    ("man move", Reset.MAN_MOVE),
                    ("promotion", Reset.PROMOTION),
                )
                if f in self.resets
            ]
            if Reset.MAN_MOVE in self.resets:
                names = [n for n in names if n != "promotion"]
            text += ", reset by " + " or ".join(names)
        return text


@attrs.frozen
class Outcome:
    """The end of a game: why, and who won (None for a draw).

    >>> Outcome(Termination.BLOCKED, WHITE).result()
    '1-0'
    >>> Outcome(Termination.REPETITION, None, "international").result()
    '1-1'
    >>> from draughts import BLACK
    >>> Outcome(Termination.BLOCKED, WHITE, first_color=BLACK).result()  # English
    '0-1'
    """

    termination: Termination
    winner: Color | None
    result_style: ResultStyle = "default"
    first_color: Color = WHITE
    """The side whose score :meth:`result` writes first: the variant's first
    player (:attr:`Variant.first_color <draughts.Variant.first_color>`)."""

    def result(self) -> str:
        """The PDN result: ``1-0``/``1/2-1/2``/``0-1``, or ``2-0``/``1-1``/``0-2``
        in the ``international`` style. The first number is the score of the
        side that moves first (:attr:`first_color`): White's in International
        draughts, Black's in English draughts. PDN 1.0 and the PDN 2.0 draft,
        on which PDN 3.0 builds, give results "from the aspect of the 1st side
        to move"; the English archives write them so.
        """
        win, draw, loss = (
            ("2-0", "1-1", "0-2")
            if self.result_style == "international"
            else ("1-0", "1/2-1/2", "0-1")
        )
        if self.winner is None:
            return draw
        return win if self.winner == self.first_color else loss
