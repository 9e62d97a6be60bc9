"""Variants: the rules of each national game, as data.

A :class:`Variant` is a frozen value that says everything the move generator,
the notation and the FEN code need to know about a game: the board, the start
position, how men and kings move and capture, which capture must be chosen,
what happens when a man reaches the far row during a capture, and how squares
are numbered in PDN. The presets below are ordinary values; a custom variant is
built with :class:`Variant` directly or with :func:`attrs.evolve` on a preset:

>>> import attrs, draughts
>>> v = attrs.evolve(draughts.variant.RUSSIAN, name="russian-majority",
...                  capture_precedence=(CaptureRule.MOST_PIECES,))
>>> draughts.Board(variant=v).legal_moves.count()
7
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal, SupportsIndex

import attrs

from draughts._context import context, keep_for_good
from draughts._core.geometry import Geometry
from draughts._options import CaptureRule, Directions, Promotion, Removal
from draughts._preset_draw_rules import (
    APCA_DRAW_RULES,
    DAMA_DRAW_RULES,
    FMJD64_DRAW_RULES,
    FMJD_DRAW_RULES,
    FRISIAN_DRAW_RULES,
    ONE_PIECE_EACH,
    SPANISH_DRAW_RULES,
    WCDF_DRAW_RULES,
)
from draughts._variant_checks import CHECKS, validate
from draughts.outcome import DrawRule, Goal, ResultStyle, Termination
from draughts.piece import BLACK, WHITE, Color

__all__ = [
    "ANTIDRAUGHTS",
    "BRAZILIAN",
    "BREAKTHROUGH",
    "CANADIAN",
    "CZECH",
    "DAMA",
    "DAMA_FLYING",
    "ENGLISH",
    "FRISIAN",
    "FRYSK",
    "INTERNATIONAL",
    "ITALIAN",
    "KILLER",
    "POOL",
    "PORTUGUESE",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "TURKISH",
    "VARIANTS",
    "CaptureRule",
    "Directions",
    "Promotion",
    "Removal",
    "Variant",
    "find_variant",
]


ITALIAN_PRECEDENCE = (
    CaptureRule.MOST_PIECES,
    CaptureRule.WITH_KING,
    CaptureRule.MOST_KINGS,
    CaptureRule.KINGS_FIRST,
)


Notation = Literal["numeric", "algebraic"]

_GAMETYPE_RE = re.compile(
    r"^\s*(?P<number>-?[0-9]+)\s*(?:,\s*(?P<color>[WB])\s*,\s*(?P<width>[0-9]+)\s*,"
    r"\s*(?P<height>[0-9]+)\s*,\s*(?P<notation>[ANS])(?P<corner>[0-3])"
    r"\s*(?:,\s*(?P<invert>[01]))?)?\s*$",
    re.IGNORECASE,
)


@attrs.frozen(cache_hash=True)
class Variant:
    """The complete rules of one game of draughts.

    Every field has a meaning in the rule books; the presets in this module
    (:data:`INTERNATIONAL`, :data:`ENGLISH`, ...) fill them in with their
    sources. Geometry fields follow the PDN 3.0 ``GameType`` tag:
    ``width,height``, the first player's colour, the notation letter and the
    corner where square 1 (or ``a1``) lies seen from the first player
    (0 bottom left, 1 bottom right, 2 top left, 3 top right), and the invert
    flag (the first player's bottom-left square is not playable).

    >>> INTERNATIONAL.gametype_string
    '20,W,10,10,N2,0'
    >>> ENGLISH.first_color
    <Color.BLACK: 1>

    A variant that cannot be played is refused when it is made (by
    :func:`attrs.evolve` too), with the field and the value named:

    >>> attrs.evolve(INTERNATIONAL, name="mr6", men_rows=6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: variant 'mr6': men_rows=6 leaves no empty row between the sides ...

    :raises ValueError: for a field of the wrong type or out of range, rows of
        men that meet or overlap, men or kings without a move direction, no
        capture direction at all, or a :attr:`start_fen` that does not fit
        the board.
    """

    name: str
    """The preset's key, as :func:`find_variant` knows it (``"international"``)."""
    title: str
    """A human name (``"International draughts"``)."""
    gametype: int
    """The PDN ``GameType`` number."""
    width: int = 8
    height: int = 8
    first_color: Color = WHITE
    """The side that moves first."""
    notation: Notation = "numeric"
    """How moves and FEN squares are written: ``"numeric"`` (``32-28``) or
    ``"algebraic"`` (``c3-d4``)."""
    first_square_corner: int = 2
    """Where square 1 (or ``a1``) lies, seen from the first player: 0 bottom
    left, 1 bottom right, 2 top left, 3 top right."""
    inverted: bool = False
    """True when the first player's bottom-left square is not a playing square."""
    all_squares: bool = False
    """Play on all squares of the board, not only the dark ones (Turkish)."""
    men_rows: int = 3
    """Rows of men each side starts with, counted from its own back row."""
    start_fen: str | None = None
    """An explicit start position; when None it is built from :attr:`men_rows`."""
    man_moves: Directions = Directions.DIAGONAL_FORWARD
    """Where a man may step (one square) without capturing."""
    man_captures: Directions = Directions.DIAGONAL
    """Where a man may capture."""
    king_moves: Directions = Directions.DIAGONAL
    """Where a king may move without capturing."""
    king_captures: Directions = Directions.DIAGONAL
    """Where a king may capture."""
    flying_kings: bool = True
    """Kings move and capture at a distance (else one square, like men)."""
    king_lands_directly_behind: bool = False
    """A capturing flying king must land on the square just behind the piece (Thai)."""
    king_stops_behind_king: bool = False
    """A flying king that captures a king must land just behind it (Killer)."""
    king_move_limit: int | None = None
    """How many non-capturing moves in a row one king may make while its side
    still has men (Frisian: 3); None for no limit. The board tracks the count
    and passes the kings that reached it to the move generator."""
    men_capture_kings: bool = True
    """False when men may not capture kings (Italian)."""
    capture_precedence: tuple[CaptureRule, ...] = (CaptureRule.MOST_PIECES,)
    """Which captures must be preferred; empty for free choice."""
    man_value: int = 1
    """A captured man's weight for :attr:`CaptureRule.MOST_VALUE`."""
    king_value: int = 1
    """A captured king's weight for :attr:`CaptureRule.MOST_VALUE`."""
    promotion: Promotion = Promotion.PASSES
    """What a man does on reaching the far row during a capture."""
    removal: Removal = Removal.AT_END
    """When captured pieces leave the board."""
    reverse_in_capture: bool = False
    """Whether a capturing piece may turn back 180 degrees between two jumps.
    With removal at the end the jumped piece blocks the way back anyway."""
    must_land_to_continue: bool = True
    """A flying king that could stop on several squares behind a captured
    piece must choose one from which it can capture again, if there is one."""
    capture_separator: str = "x"
    """The separator written between the squares of a capture."""
    result_style: ResultStyle = "default"
    """``"international"`` results are ``2-0``/``1-1``/``0-2``; ``"default"``
    are ``1-0``/``1/2-1/2``/``0-1``."""
    aliases: tuple[str, ...] = ()
    """Other names :func:`find_variant` accepts."""
    variant_tag: str | None = None
    """The PDN ``Variant`` tag value that tells this variant apart from
    another one with the same ``GameType`` (``"dama"``)."""
    goal: Goal = Goal.STANDARD
    """Who wins: normally the side left without a legal move loses; see
    :class:`~draughts.outcome.Goal` for antidraughts and breakthrough."""
    draw_rules: tuple[DrawRule, ...] = ()
    """How the game can be drawn besides agreement: repetition, move counts
    and material rules, automatic or claimable (see
    :class:`~draughts.outcome.DrawRule` and :doc:`/termination`)."""

    def __attrs_post_init__(self) -> None:
        validate(self)

    @property
    def gametype_string(self) -> str:
        """The full PDN ``GameType`` value, e.g. ``"21,B,8,8,N1,0"``."""
        letter = "A" if self.notation == "algebraic" else "N"
        return (
            f"{self.gametype},{self.first_color.letter},{self.width},{self.height},"
            f"{letter}{self.first_square_corner},{int(self.inverted)}"
        )

    @property
    def square_count(self) -> int:
        """How many playing squares the board has (50 on 10x10).

        >>> ENGLISH.square_count
        32
        """
        return len(self._tables.index_of_square) - 1

    @property
    def squares(self) -> range:
        """The square numbers, ``range(1, square_count + 1)``."""
        return range(1, self.square_count + 1)

    @property
    def starting_fen(self) -> str:
        """The start position as a FEN.

        >>> ENGLISH.starting_fen
        'B:W21-32:B1-12'
        """
        return context(self).fen.starting_fen

    def square_name(self, square: int) -> str:
        """The square as the variant writes it: ``"32"`` or ``"c3"``.

        >>> RUSSIAN.square_name(29), INTERNATIONAL.square_name(29)
        ('a1', '29')

        :raises ValueError: if the board has no such square.
        """
        geo = self._tables
        if not 1 <= square < len(geo.index_of_square):
            raise ValueError(f"no square {square!r} on the {self.name} board")
        return geo.name_of_square[square]

    def parse_square(self, text: str) -> int:
        """The square number for ``"32"``, ``"032"`` or ``"c3"``.

        >>> RUSSIAN.parse_square("c3")
        22

        :raises ValueError: if the text names no square of this board.
        """
        square = self._tables.parse_square(text)
        if square is None:
            raise ValueError(f"no square {text!r} on the {self.name} board")
        return square

    def coordinates(self, square: int) -> tuple[int, int]:
        """``(row, column)`` of a square, both from 0, row 0 nearest White,
        column 0 on White's left.

        >>> ENGLISH.coordinates(1), INTERNATIONAL.coordinates(46)
        ((7, 1), (0, 0))
        """
        geo = self._tables
        if not 1 <= square < len(geo.index_of_square):
            raise ValueError(f"no square {square!r} on the {self.name} board")
        return divmod(geo.index_of_square[square], geo.stride)

    def square_at(self, row: int, column: int) -> int | None:
        """The square number at ``(row, column)`` (see :meth:`coordinates`),
        None for a square that is not played on.

        >>> INTERNATIONAL.square_at(0, 0)
        46
        """
        geo = self._tables
        if not (0 <= row < self.height and 0 <= column < self.width):
            raise ValueError(f"({row}, {column}) is off the {self.name} board")
        square = geo.square_of_index[row * geo.stride + column]
        return square or None

    @property
    def _tables(self) -> Geometry:
        return context(self).core

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A preset pickles as its name (a board's pickle stays small, and
        # unpickles to the preset itself); any other variant field by field.
        if _BY_NAME.get(self.name) == self:
            return (find_variant, (self.name,))
        return super().__reduce_ex__(protocol)


# Every field has a check in draughts._variant_checks: a new field without
# one fails here, at import.
_UNCHECKED = {field.name for field in attrs.fields(Variant)} - set(CHECKS)
if _UNCHECKED:
    raise TypeError(f"Variant fields without a check: {sorted(_UNCHECKED)}")


# -- Presets -----------------------------------------------------------------
# Sources: the rule pages of english, dama, dama-flying and brazilian; the
# PDN 3.0 standard (GameType table, numbering, start positions); the FMJD and
# WCDF rules.

INTERNATIONAL = Variant(
    name="international",
    title="International draughts",
    gametype=20,
    width=10,
    height=10,
    men_rows=4,
    result_style="international",
    aliases=("standard", "fmjd", "10x10", "polish"),
    draw_rules=FMJD_DRAW_RULES,
)
"""FMJD international draughts, 10x10 (GameType 20): flying kings, men
capture backward, the most pieces must be taken, no promotion in passing."""

ENGLISH = Variant(
    name="english",
    title="English draughts / American checkers",
    gametype=21,
    first_color=BLACK,
    first_square_corner=1,
    man_captures=Directions.DIAGONAL_FORWARD,
    flying_kings=False,
    capture_precedence=(),
    promotion=Promotion.ENDS_MOVE,
    aliases=("american", "checkers", "draughts"),
    draw_rules=WCDF_DRAW_RULES,
)
"""English draughts / American checkers (WCDF; GameType 21): short
kings, men capture forward only, free choice of capture, Black (red) first."""

DAMA = attrs.evolve(
    ENGLISH,
    name="dama",
    title="Dama (English rules, online-play endings)",
    aliases=(),
    variant_tag="dama",
    draw_rules=DAMA_DRAW_RULES,
)
"""The ``dama`` rules (the Tagalog and Malay rule pages): English movement and captures;
it differs from :data:`ENGLISH` only in how a game ends. Written to PDN as
GameType 21 with a ``Variant "dama"`` tag."""

DAMA_FLYING = attrs.evolve(
    ENGLISH,
    name="dama-flying",
    title="Dama with flying kings",
    man_captures=Directions.DIAGONAL,
    flying_kings=True,
    aliases=(),
    variant_tag="dama-flying",
    draw_rules=DAMA_DRAW_RULES,
)
"""The ``dama-flying`` rules (the Turkish rule page): flying kings, men capture forward
and backward, free choice of capture, a man crowned mid-capture stops there."""

BRAZILIAN = Variant(
    name="brazilian",
    title="Brazilian draughts",
    gametype=26,
    notation="algebraic",
    first_square_corner=0,
    draw_rules=FMJD64_DRAW_RULES,
)
"""Brazilian draughts (GameType 26): international rules on 8x8."""

RUSSIAN = Variant(
    name="russian",
    title="Russian draughts (shashki)",
    gametype=25,
    notation="algebraic",
    first_square_corner=0,
    capture_precedence=(),
    promotion=Promotion.CONTINUES_AS_KING,
    capture_separator=":",
    aliases=("shashki",),
    draw_rules=FMJD64_DRAW_RULES,
)
"""Russian draughts (GameType 25): free choice of capture; a man reaching the
far row mid-capture is crowned and goes on capturing as a king."""

POOL = Variant(
    name="pool",
    title="American pool checkers",
    gametype=23,
    first_color=BLACK,
    first_square_corner=1,
    capture_precedence=(),
    aliases=("american-pool", "pool-checkers"),
    draw_rules=APCA_DRAW_RULES,
)
"""American pool checkers (APCA; GameType 23): flying kings, men capture
backward, free choice of capture, no promotion in passing; dark moves first."""

CANADIAN = Variant(
    name="canadian",
    title="Canadian draughts",
    gametype=27,
    width=12,
    height=12,
    men_rows=5,
    result_style="international",
    draw_rules=FMJD_DRAW_RULES,
)
"""Canadian draughts (GameType 27): international rules on 12x12."""


# -- More national and online variants -----------------------------------------
# Sources: the PDN 3.0 standard (GameType, start positions and numbering);
# each federation's rule book, through the parameters of Rein Halbersma's
# DCTL and lidraughts; where sources disagree, the choice made is stated in
# each preset's docstring.

FRISIAN = Variant(
    name="frisian",
    title="Frisian draughts",
    gametype=40,
    width=10,
    height=10,
    men_rows=4,
    man_captures=Directions.ALL,
    king_captures=Directions.ALL,
    king_move_limit=3,
    capture_precedence=(CaptureRule.MOST_VALUE, CaptureRule.WITH_KING),
    man_value=100,
    king_value=199,
    draw_rules=FRISIAN_DRAW_RULES,
    aliases=("frisian-draughts", "fries", "friesdammen"),
)
"""Frisian draughts (GameType 40; rules of the Fryske Dambûn as encoded by
DCTL, with lidraughts and mindsports): men and kings capture along diagonals
and orthogonals, forward and backward; the capture of the greatest value is
compulsory, a king being worth more than one man and less than two (exact
integers: man 100, king 199, as lidraughts: two men minus a hundredth, exact
while fewer than 100 kings are taken), then a capture with a
king is preferred; a king may make at most three non-capturing moves in a row
while its side has men. Where sources disagree: the king's value
follows the federation's "less than two men" (mindsports, boardspace, DCTL,
lidraughts) rather than Wikipedia's 1.5, so three kings outweigh five men;
non-capturing king moves are diagonal only (Wikipedia, lidraughts), not also
straight (mindsports)."""

FRYSK = attrs.evolve(
    FRISIAN,
    name="frysk",
    title="Frysk! (Frisian with five men each)",
    gametype=97,
    start_fen="W:W46-50:B1-5",
    result_style="international",
    aliases=("frysk!",),
)
"""Frysk! (lidraughts, GameType 97 there): Frisian rules, each side starting
with five men on its back row; results written ``2-0`` as lidraughts does."""

ITALIAN = Variant(
    name="italian",
    title="Italian draughts (dama italiana)",
    gametype=22,
    inverted=True,
    man_captures=Directions.DIAGONAL_FORWARD,
    flying_kings=False,
    men_capture_kings=False,
    capture_precedence=ITALIAN_PRECEDENCE,
    promotion=Promotion.ENDS_MOVE,
    draw_rules=(
        DrawRule(
            Termination.REPETITION,
            3,
            source="FID brief rules (fid.it): the same position three times "
            "(DCTL reads art. 9.3(b1) as four) [uncertain]",
        ),
    ),
    aliases=("dama-italiana",),
)
"""Italian draughts (FID rules; GameType ``22,W,8,8,N2,1``): the board is
turned so that each player's bottom-right corner is a playing square, square 1
in Black's right-hand corner; short kings; men capture forward only and may
not capture kings; the capture of most pieces, then a capture with a king, then
of most kings, then the one meeting kings first (FID art. 6.6-6.9). "Kings
first" is read capture by capture: of two sequences, the one that takes a king
where the other takes a man is chosen, so when both take their first king on
the same jump the next king decides, and so on. This follows the FID's ten
rules of Italian draughts (federdama.org, rule 8: capture "dalla parte dove si
incontrano prima i pezzi più forti", where the stronger pieces, in the plural,
are met first) and the rule's aim of taking kings as early as possible; the
English summaries say "the king" and pydraughts compares the first king only,
which would leave a free choice there. In ``B:WK10,11,K19,20,26,K28:BK13``
both four-piece captures take two kings, the first on the first jump:
13x6x15x22x29 (kings on the first and third jumps) is the only legal move, not
13x6x15x24x31 (first and fourth)."""

SPANISH = Variant(
    name="spanish",
    title="Spanish draughts (damas)",
    gametype=24,
    first_square_corner=1,
    inverted=True,
    man_captures=Directions.DIAGONAL_FORWARD,
    capture_precedence=(CaptureRule.MOST_PIECES, CaptureRule.MOST_KINGS),
    promotion=Promotion.ENDS_MOVE,
    draw_rules=SPANISH_DRAW_RULES,
    aliases=("damas",),
)
"""Spanish draughts (GameType ``24,W,8,8,N1,1``): inverted board with White
on squares 1-12; flying kings; men capture forward only; the capture of most
pieces, then of most kings. Played on the light squares in Spain, which PDN
3.0 cannot express; the geometry is the same."""

PORTUGUESE = attrs.evolve(
    SPANISH,
    name="portuguese",
    title="Portuguese draughts (damas clássicas)",
    gametype=28,
    aliases=("damas-classicas",),
)
"""Portuguese draughts (GameType ``28,W,8,8,N1,1``; Federação Portuguesa de
Damas, "Regras Damas Clássicas"): the same rules as :data:`SPANISH`."""

CZECH = Variant(
    name="czech",
    title="Czech draughts (česká dáma)",
    gametype=29,
    notation="algebraic",
    first_square_corner=0,
    man_captures=Directions.DIAGONAL_FORWARD,
    capture_precedence=(CaptureRule.WITH_KING,),
    promotion=Promotion.ENDS_MOVE,
    aliases=("ceska-dama",),
)
"""Czech draughts (GameType ``29,W,8,8,A0,0``; Czech federation rules, art.
4.14, as encoded by DCTL): flying kings, men capture forward only; a king must
capture when it can, otherwise the choice is free. Captures are written with
``x`` as PDN 3.0 gives for type 29 (DCTL uses ``:``; both are read)."""

THAI = Variant(
    name="thai",
    title="Thai draughts (mak-hot)",
    gametype=31,
    first_color=BLACK,
    men_rows=2,
    man_captures=Directions.DIAGONAL_FORWARD,
    king_lands_directly_behind=True,
    capture_precedence=(),
    promotion=Promotion.ENDS_MOVE,
    removal=Removal.IMMEDIATE,
    capture_separator="-",
    aliases=("mak-hot", "makhos"),
)
"""Thai draughts (GameType ``31,B,8,8,N2,0``): eight men each on the two back
rows; flying kings that, when capturing, land on the square directly behind
the captured piece; men capture forward only; free choice of capture; captured
pieces leave the board at once. There is no governing body: the first player
(Black) and the ``-`` separator follow the PDN 3.0 GameType table."""

TURKISH = Variant(
    name="turkish",
    title="Turkish draughts (dama)",
    gametype=30,
    notation="algebraic",
    first_square_corner=0,
    all_squares=True,
    start_fen="W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
    ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    man_moves=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
    man_captures=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
    king_moves=Directions.ORTHOGONAL,
    king_captures=Directions.ORTHOGONAL,
    removal=Removal.IMMEDIATE,
    draw_rules=(
        DrawRule(
            Termination.INSUFFICIENT_MATERIAL,
            0,
            endings=ONE_PIECE_EACH,
            source="draughts.github.io Turkish rules: a game where both players "
            "have one piece left is drawn",
        ),
    ),
    aliases=("turkish-dama",),
)
"""Turkish draughts (GameType ``30,W,8,8,A0,0``): all 64 squares, sixteen
men each on the second and third rows; men move and capture one square
forward or sideways; kings move and capture like rooks, any distance; the
capture of most pieces is compulsory; a capture may not turn back by 180
degrees and captured pieces leave the board at once. A man reaching the far
row during a capture goes on capturing (sideways) as a man and is crowned when
the move ends (Wikipedia, "promoted to a king at the end of the move"; pydraughts
plays it so too). Sources disagree: some say it goes on as a
king, others that the move ends there; no federation text could be read."""

KILLER = attrs.evolve(
    INTERNATIONAL,
    name="killer",
    title="Killer draughts",
    king_stops_behind_king=True,
    aliases=("killer-draughts",),
    variant_tag="killer",
)
"""Killer draughts (Christian Freeling's International variant, mindsports):
a flying king must stop on the first square after the last piece it captures
if, and only if, that piece is a king, a single capture included. Written to
PDN as GameType 20 with a ``Variant "killer"`` tag."""

ANTIDRAUGHTS = attrs.evolve(
    INTERNATIONAL,
    name="antidraughts",
    title="Antidraughts (international losing draughts)",
    gametype=98,
    goal=Goal.ANTIDRAUGHTS,
    draw_rules=(
        DrawRule(
            Termination.REPETITION,
            3,
            source="lidraughts antidraughts: threefold repetition is the only draw rule",
        ),
    ),
    aliases=("losing", "giveaway", "anti"),
)
"""Antidraughts (lidraughts, GameType 98 there): international rules, but the
side left without a legal move (no pieces, or all blocked) wins."""

BREAKTHROUGH = attrs.evolve(
    INTERNATIONAL,
    name="breakthrough",
    title="Breakthrough draughts",
    gametype=96,
    goal=Goal.BREAKTHROUGH,
    draw_rules=(),
    aliases=(),
)
"""Breakthrough (lidraughts, GameType 96 there): international rules; the
first side to make a king wins; no draw rules."""

VARIANTS: tuple[Variant, ...] = (
    INTERNATIONAL,
    ENGLISH,
    DAMA,
    DAMA_FLYING,
    BRAZILIAN,
    RUSSIAN,
    POOL,
    CANADIAN,
    FRISIAN,
    FRYSK,
    ITALIAN,
    SPANISH,
    PORTUGUESE,
    CZECH,
    THAI,
    TURKISH,
    KILLER,
    ANTIDRAUGHTS,
    BREAKTHROUGH,
)
keep_for_good(VARIANTS)
"""Every preset, in the order the docs list them."""


def _fold(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def _by_name(variants: Iterable[Variant]) -> dict[str, Variant]:
    table: dict[str, Variant] = {}
    for variant in variants:
        for key in (variant.name, *variant.aliases):
            table.setdefault(_fold(key), variant)
    return table


def gametype_preset(gametype: int | str, variant_tag: str | None = None) -> Variant | None:
    """The preset with a PDN ``GameType`` number, or None if there is none.

    ``gametype`` is the number, alone or at the start of a full ``GameType``
    value (``"20,W,10,10,N2,0"``, whose geometry is not looked at). Of the
    presets that share the number, ``variant_tag`` picks the one with that
    ``Variant`` tag (``"dama"``); without it, the one that has none.

    >>> gametype_preset("20,W,10,10,N2,0") is INTERNATIONAL
    True
    >>> gametype_preset(21, "Dama").name, gametype_preset(99)
    ('dama', None)
    """
    if isinstance(gametype, str):
        number = gametype.split(",", 1)[0].strip()
        if not _GAMETYPE_NUMBER.fullmatch(number):
            return None
        gametype = int(number)
    tag = None if variant_tag is None else _fold(variant_tag)
    for variant in VARIANTS:
        if variant.gametype == gametype and variant.variant_tag == tag:
            return variant
    return None


_GAMETYPE_NUMBER = re.compile(r"-?[0-9]+")


def find_variant(key: str | int | Variant) -> Variant:
    """The variant for a name or alias, a ``GameType`` number, or a full
    ``GameType`` value.

    A full ``GameType`` whose geometry differs from the preset of that number
    gives the preset with that geometry (board size, first player, numbering),
    so a file's own numbering is honoured.

    >>> find_variant("russian") is find_variant(25) is find_variant("25,W,8,8,A0,0")
    True
    >>> find_variant("Checkers").name
    'english'
    >>> find_variant("23,W,8,8,A0,0").notation
    'algebraic'

    :raises ValueError: for an unknown name or number.
    """
    if isinstance(key, Variant):
        return key
    if isinstance(key, int):
        preset = gametype_preset(key)
        if preset is None:
            raise ValueError(f"unknown GameType: {key!r}")
        return preset
    # A name already folded (the common "international") is found without
    # folding it again: the PDN reader looks its variant up twice a game.
    found = _BY_NAME.get(key) or _BY_NAME.get(_fold(key))
    if found is not None:
        return found
    match = _GAMETYPE_RE.match(key)
    if match is None:
        raise ValueError(f"unknown variant: {key!r}")
    base = find_variant(int(match["number"]))
    if match["color"] is None:
        return base
    notation_letter = match["notation"].upper()
    if notation_letter == "S":
        raise ValueError(f"SAN notation is not used by draughts: {key!r}")
    custom = attrs.evolve(
        base,
        first_color=Color.from_letter(match["color"]),
        width=int(match["width"]),
        height=int(match["height"]),
        notation="algebraic" if notation_letter == "A" else "numeric",
        first_square_corner=int(match["corner"]),
        inverted=match["invert"] == "1",
    )
    return base if custom == base else custom


_BY_NAME = _by_name(VARIANTS)
