"""Shared pieces of :mod:`draughts.pdn`: errors, headers, the visitor base."""

from __future__ import annotations

import contextlib
import enum
import re
from collections.abc import Iterable, Iterator, MutableMapping
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs

from draughts.variant import INTERNATIONAL, Variant, find_variant, gametype_preset

if TYPE_CHECKING:
    from draughts.board import Board
    from draughts.move import Move
    from draughts.pdn.infer import Choice

ResultT = TypeVar("ResultT")


class SkipType(enum.Enum):
    """The type of :data:`SKIP`.

    >>> SKIP is SkipType.SKIP
    True
    """

    SKIP = "skip"


SKIP = SkipType.SKIP
"""Returned by :meth:`BaseVisitor.end_headers` or
:meth:`BaseVisitor.begin_variation` to skip the moves or the variation."""


@attrs.frozen
class PdnError:
    """A problem found while reading a game: where, what and in which position.

    ``kind`` is one of ``"syntax"`` (text that is not PDN), ``"illegal"`` (a
    move no legal move matches), ``"ambiguous"`` (a move several legal moves
    match), ``"variant"`` (a ``GameType`` or ``Variant`` the library does not
    know), ``"fen"`` (a start position that cannot be set up) and ``"pdn3"``
    (a violation of the PDN 3.0 grammar found by :func:`check_strict`) and
    ``"incomplete"`` (a move, a tag or a comment the end of the file stops in
    the middle of: the record is cut); the
    warnings in :attr:`Game.warnings` have kind ``"notation"`` (a move written
    with the wrong separator, an ambiguous move read one way), ``"variant"``
    (a ``Variant`` tag the library does not know, read as the ``GameType``
    alone says), ``"fen"`` (a man on its crowning row in a FEN, read as a
    king), ``"inferred"`` (the variant chosen for a game no tag names one
    of) or ``"incomplete"`` (no result marker before the next game or the end
    of the file: the record may be cut).

    >>> error = PdnError(3, 14, "illegal move '32-27' in W:W31-50:B1-20", "illegal")
    >>> str(error)
    "3:14: illegal move '32-27' in W:W31-50:B1-20"
    """

    line: int
    """The line, from 1."""
    column: int
    """The column, from 1."""
    message: str
    kind: str
    fen: str | None = None
    """The position the error was found in, for move errors."""
    unparsed: str = ""
    """The text the error leaves out of the game, kept as read: a rejected
    move and the rest of its game or variation, all the movetext of a game
    whose tags give no board (an invalid ``FEN``, an unknown ``GameType``),
    a side line before any move, or the one token an error skips (``"$3"``,
    ``")"``, a stray word). The tokens of a line come with what stood
    between them, lines with a line break; parentheses it leaves open at the end of the game are
    closed (as the exporters close every variation)."""

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


_TAG_NAME = re.compile(r"[A-Za-z0-9_]+\Z")
# Tag names found valid, so that the common ones are not matched again: a
# game read sets about eight tags (the matches were 2% of reading one); kept
# small, as a file may name its tags anything.
_VALID_NAMES: set[str] = set()


class Headers(MutableMapping[str, str]):
    """The tag pairs of a game, in the order they were added.

    >>> headers = Headers(Event="Final", GameType="25")
    >>> headers["Site"] = "Moscow"
    >>> list(headers), headers.variant().name
    (['Event', 'GameType', 'Site'], 'russian')

    :raises ValueError: when a tag name is not letters, digits and ``_``, or
        a value has a line break (a tag pair is one line of PDN).
    """

    def __init__(self, data: Iterable[tuple[str, str]] | None = None, **tags: str) -> None:
        self._tags: dict[str, str] = {}
        self.read_as: Variant | None = None
        """The variant the game was read as, when no tag names one (the
        reader's choice, see :func:`~draughts.pdn.read_game`): what
        :meth:`variant` then returns."""
        for name, value in (*(data or ()), *tags.items()):
            self[name] = value

    def __getitem__(self, name: str) -> str:
        return self._tags[name]

    def __setitem__(self, name: str, value: str) -> None:
        if name not in _VALID_NAMES:
            if not _TAG_NAME.match(name):
                raise ValueError(f"invalid PDN tag name: {name!r}")
            if type(name) is str and len(_VALID_NAMES) < 256:
                _VALID_NAMES.add(name)
        if type(value) is not str:
            value = str(value)
        if "\n" in value or "\r" in value:
            raise ValueError(f"a PDN tag value cannot hold a line break: {name} {value!r}")
        self._tags[name] = value

    def __delitem__(self, name: str) -> None:
        del self._tags[name]

    def __contains__(self, name: object) -> bool:
        # Mapping's would look the name up and catch the KeyError: the reader
        # asks for a tag a game lacks at the end of every game.
        return name in self._tags

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        """A copy of the headers."""
        copy = Headers(self._tags.items())
        copy.read_as = self.read_as
        return copy

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in self._tags.items())
        return f"Headers({inner})"

    def variant(self, default: Variant | str | int | None = None) -> Variant:
        """The variant these headers describe.

        The ``GameType`` tag decides (a number or the full form with board
        geometry); a ``Variant`` tag then picks among variants that share a
        ``GameType`` (``dama`` is GameType 21 with ``[Variant "dama"]``), or
        names the variant when there is no ``GameType``. Without either tag
        the result is ``default``, else the variant a game read was read as
        (:attr:`read_as`), else international draughts; ``default`` is also
        the result when the tags name it (see :func:`variant_of_tags`), as
        they name a custom variant.

        >>> Headers(GameType="21", Variant="dama").variant().name
        'dama'
        >>> Headers(Variant="American/English").variant().name
        'english'
        >>> Headers().variant("russian").name
        'russian'
        >>> import io
        >>> from draughts.pdn import read_game
        >>> read_game(io.StringIO("1. 11-15 23-19 *")).headers.variant().name
        'english'

        :raises ValueError: for a ``GameType`` or ``Variant`` the library does
            not know.
        """
        return variant_of_tags(
            self.get("GameType"), self.get("Variant"), self.read_as if default is None else default
        )


def variant_of_tags(
    gametype: str | None, variant_tag: str | None, default: Variant | str | int | None
) -> Variant:
    """The variant of a ``GameType`` and a ``Variant`` tag value (see
    :meth:`Headers.variant`).

    >>> variant_of_tags("21", "dama", None).name, variant_of_tags(None, None, "pool").name
    ('dama', 'pool')

    ``default`` is also the answer when the tags name it: a ``Variant`` tag
    that is its name (or its own ``Variant`` tag) and a ``GameType``, if
    any, with its number and board. That is how a custom variant is read
    back (see :func:`~draughts.pdn.set_variant_tags`):

    >>> import attrs
    >>> mine = attrs.evolve(INTERNATIONAL, name="mine", men_rows=3)
    >>> variant_of_tags("20,W,10,10,N2,0", "mine", mine) is mine
    True
    >>> variant_of_tags("20,W,10,10,N2,0", "mine", None) is INTERNATIONAL
    True
    """
    if default is not None and variant_tag:
        with contextlib.suppress(ValueError):  # an unknown default only matters without tags
            chosen = find_variant(default)
            if tags_name(chosen, gametype, variant_tag):
                return chosen
    if gametype is not None and gametype.strip():
        text = gametype.strip()
        try:
            base = find_variant(int(text)) if text.isdigit() else find_variant(text)
        except ValueError as error:
            if gametype_preset(text) is None:
                raise ValueError(f"unknown GameType {gametype!r}") from None
            # A known number with a board the library cannot build: say why.
            raise ValueError(f"GameType {gametype!r}: {error}") from None
        if variant_tag:
            tagged = gametype_preset(base.gametype, variant_tag)
            if tagged is None:
                return base
            # A full GameType gives its board to the tagged preset too.
            return tagged if "," not in text else _with_board_of(tagged, base)
        return base
    if variant_tag is not None and variant_tag.strip():
        for name in (variant_tag, *re.split(r"[/,]", variant_tag)):
            try:
                return find_variant(name)
            except ValueError:
                continue
        raise ValueError(f"unknown Variant {variant_tag!r}")
    return INTERNATIONAL if default is None else find_variant(default)


_BOARD_FIELDS = ("first_color", "width", "height", "notation", "first_square_corner", "inverted")
"""The fields a full ``GameType`` value gives (see :attr:`Variant.gametype_string`)."""


def set_variant_tags(headers: Headers, variant: Variant) -> None:
    """Write the ``GameType`` (and ``Variant``) tags that name ``variant``:
    the number for a preset, the full form for another numbering.

    >>> headers = Headers()
    >>> set_variant_tags(headers, find_variant("dama"))
    >>> headers
    Headers(GameType='21', Variant='dama')

    A custom variant that no ``GameType`` can describe (other rules, men or
    size) gets the full ``GameType`` (its board and numbering) and its name
    as the ``Variant`` tag, which :func:`~draughts.pdn.read_game` given that
    variant recognises (see :func:`~draughts.pdn.variant_of_tags`); read
    without it, the game is read by the ``GameType`` with a ``"variant"``
    warning. When that reading would start elsewhere, the variant's start
    goes in a ``FEN`` tag (unless the headers have one):

    >>> import attrs
    >>> from draughts.variant import ENGLISH
    >>> headers = Headers()
    >>> set_variant_tags(headers, attrs.evolve(ENGLISH, name="y", width=10, height=10))
    >>> headers
    Headers(GameType='21,B,10,10,N1,0', Variant='y')
    >>> headers = Headers()
    >>> set_variant_tags(headers, attrs.evolve(ENGLISH, name="y2", men_rows=2))
    >>> headers
    Headers(GameType='21,B,8,8,N1,0', Variant='y2', FEN='B:W25-32:B1-8')
    """
    if gametype_preset(variant.gametype, variant.variant_tag) == variant:
        if variant != INTERNATIONAL:
            headers["GameType"] = str(variant.gametype)
        if variant.variant_tag is not None:
            headers["Variant"] = variant.variant_tag
        return
    gametype = headers["GameType"] = variant.gametype_string
    described = _variant_or_none(gametype, variant.variant_tag)
    if described == variant:  # a preset numbered otherwise
        if variant.variant_tag is not None:
            headers["Variant"] = variant.variant_tag
        return
    headers["Variant"] = variant.name
    if "FEN" not in headers:
        described = _variant_or_none(gametype, variant.name)
        if described is None or _start_or_none(described) != variant.starting_fen:
            headers["FEN"] = variant.starting_fen


def _variant_or_none(gametype: str, variant_tag: str | None) -> Variant | None:
    """The variant the tags give a reader that has no variant of its own."""
    try:
        return variant_of_tags(gametype, variant_tag, None)
    except ValueError:
        return None


def _start_or_none(variant: Variant) -> str | None:
    try:
        return variant.starting_fen
    except ValueError:  # a board the library cannot set up
        return None


def _with_board_of(variant: Variant, board_of: Variant) -> Variant:
    """``variant`` with the board and numbering of ``board_of``."""
    changes = {
        name: getattr(board_of, name)
        for name in _BOARD_FIELDS
        if getattr(board_of, name) != getattr(variant, name)
    }
    return attrs.evolve(variant, **changes) if changes else variant


def _fold(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def _gametype_key(text: str) -> str:
    """A full ``GameType`` value written as :attr:`Variant.gametype_string`
    writes it: no spaces, capitals, the invert flag given."""
    key = re.sub(r"\s+", "", text).upper()
    return key + ",0" if key.count(",") == 4 else key


def tags_name(variant: Variant, gametype: str | None, variant_tag: str | None) -> bool:
    """Whether the tags name ``variant`` itself: a ``Variant`` tag that is its
    name or its own ``Variant`` tag, and a ``GameType``, if there is one,
    with its number and its board (a full value equal to its
    :attr:`~Variant.gametype_string`; a number alone, the board of that
    number's preset).

    >>> tags_name(INTERNATIONAL, "20", "International"), tags_name(INTERNATIONAL, "20", None)
    (True, False)
    """
    if not variant_tag or _fold(variant_tag) not in (
        _fold(variant.name),
        _fold(variant.variant_tag or variant.name),
    ):
        return False
    if gametype is None or not gametype.strip():
        return True
    text = gametype.strip()
    if "," in text:
        return _gametype_key(text) == variant.gametype_string
    if text != str(variant.gametype):
        return False
    preset = gametype_preset(variant.gametype)
    return preset is None or preset.gametype_string == variant.gametype_string


def tag_is_unknown(variant: Variant, variant_tag: str | None) -> bool:
    """Whether a ``Variant`` tag read with a ``GameType`` names nothing the
    library knows of that ``GameType``: then the tags gave ``variant`` from
    the ``GameType`` alone, and a custom variant's rules may be lost.

    >>> tag_is_unknown(INTERNATIONAL, "Standard"), tag_is_unknown(INTERNATIONAL, "mine")
    (False, True)
    """
    if not variant_tag or not variant_tag.strip():
        return False
    if tags_name(variant, None, variant_tag):
        return False
    for name in (variant_tag, *re.split(r"[/,]", variant_tag)):
        try:
            if find_variant(name).gametype == variant.gametype:
                return False
        except ValueError:
            continue
    return True


# -- Visitors ------------------------------------------------------------------


class BaseVisitor(Generic[ResultT]):
    """Receives the parts of a game in reading order; subclass it and
    override what you need. :func:`read_game` and :meth:`Game.accept` drive it.

    ``visit_move`` gets the board *before* the move; the reader has already
    checked that the move is legal there.

    >>> import io
    >>> from draughts.pdn import read_game
    >>> class CountMoves(BaseVisitor[int]):
    ...     def __init__(self) -> None:
    ...         self.count = 0
    ...     def visit_move(self, board, move) -> None:
    ...         self.count += 1
    ...     def result(self) -> int:
    ...         return self.count
    >>> read_game(io.StringIO("1. 32-28 19-23 (18-23) 2. 28x19 *"), Visitor=CountMoves)
    4
    """

    def begin_game(self) -> None:
        """A game starts."""

    def begin_headers(self) -> Headers | None:
        """The tags start."""
        return None

    def visit_header(self, name: str, value: str) -> None:
        """One tag pair."""

    def end_headers(self) -> SkipType | None:
        """The tags are over; return :data:`SKIP` to skip the moves."""
        return None

    def visit_board(self, board: Board) -> None:
        """The start position, after the headers (not called when the moves
        are skipped or the position cannot be set up)."""

    def visit_move(self, board: Board, move: Move) -> None:
        """A legal move, played from ``board`` (do not change the board)."""

    def visit_comment(self, comment: str) -> None:
        """A comment (whitespace inside it folded to single spaces)."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph, or a move strength as its NAG."""

    def begin_variation(self) -> SkipType | None:
        """A side line of the last move starts; return :data:`SKIP` to skip it
        (and then :meth:`end_variation` is not called for it)."""
        return None

    def end_variation(self) -> None:
        """The side line ends."""

    def visit_result(self, result: str) -> None:
        """The game terminator (a result or ``*``)."""

    def handle_error(self, error: PdnError) -> None:
        """A problem in the game; the default ignores it."""

    def visit_unparsed(self, text: str) -> None:
        """Text an error left out of the game (its :attr:`PdnError.unparsed`),
        where it was read: right after :meth:`handle_error`. The exporters
        write it back as it is, so that reading their output finds the same
        error; the default ignores it."""

    def handle_warning(self, warning: PdnError) -> None:
        """Something the liberal reader accepted that PDN 3.0 forbids (a
        capture written with ``-``: kind ``"notation"``); ignored by default."""

    def visit_choice(self, choice: Choice) -> None:
        """For a game whose tags name no variant, how the reader chose the
        one it reads the game as (:class:`draughts.pdn.infer.Choice`: the
        variant, the others the moves fit as well, the reason), right after
        the warning of kind ``"inferred"`` that says it; ignored by default."""

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> ResultT:
        """What the visitor made of the game."""
        raise NotImplementedError
