"""Reading and writing PDN 3.0 FEN strings (with the common extensions).

Accepted on reading: ``W:W31-50:B1-20`` ranges, ``K`` before a square or a
range (a king range makes every square of it a king), lower case, a ``?``
side (taken as the variant's first player), the legacy trailing ``.``,
algebraic squares (``Wa1,c3``; on numeric boards ``a1`` is White's bottom-left
corner), leading zeros, empty piece lists (``B::``) and lidraughts' trailing
``:H<n>:F<n>`` counters. Written: the side, then White's and Black's pieces in
square order, kings marked ``K``, runs of men on numeric boards as ranges.

The king marker and the k-file: an item is a square (a number or an
algebraic name, in either case) with an optional king marker before it. The
marker is written ``K``; it is also read as ``k``, except on an algebraic
board with a k-file (11 files or more), where a lower-case ``k`` followed by a
digit begins the name of a square on the k-file. There ``k7`` is a man on k7,
``Kk7`` (or ``kk7``, ``KK7``) a king on k7, and ``K7`` a king on square number
7. The writer writes names in lower case and the marker in upper case, so
what it writes reads back; on every other board (numeric boards, and
algebraic boards of at most 10 files) items read as they always did.
"""

from __future__ import annotations

import functools
import re
from operator import getitem
from typing import TYPE_CHECKING, NamedTuple

from draughts.errors import InvalidFenError

if TYPE_CHECKING:
    from draughts._core.geometry import Geometry

_RANGE = re.compile(r"^([0-9]+)-(K?)([0-9]+)$", re.IGNORECASE)
"""A range of square numbers, after its king marker (see :func:`_king_marker`)."""
_K_FILE = 10
"""The column of the k-file, counted from 0 (a is 0)."""
_COUNTER = re.compile(r"^([HF])([0-9]+)$")
_CANONICAL_COUNTER = re.compile(r"[HF][0-9]+")


class FenPosition(NamedTuple):
    turn: int
    men: tuple[int, int]
    kings: tuple[int, int]
    halfmove_clock: int | None = None
    fullmove_number: int | None = None


def parse_fen(
    codec: FenCodec, fen: str, *, limit_pieces: bool = True, crowned: list[int] | None = None
) -> FenPosition:
    """Parse ``fen`` for the board of ``codec``.

    With ``limit_pieces`` a side may not have more pieces than it starts with.
    A man on the row where it would be crowned is an error, unless
    ``crowned`` is a list: then it is read as a king, as the rules would
    have crowned it, and its square is appended to the list.

    :raises InvalidFenError: naming the problem and the FEN.
    """
    position = codec.parse(fen, limit_pieces)
    if position is not None:
        return position
    return _parse_general(codec, fen, limit_pieces, crowned)


def _parse_general(
    codec: FenCodec, fen: str, limit_pieces: bool, crowned: list[int] | None = None
) -> FenPosition:
    """Every accepted form of FEN, and the errors. :class:`FenCodec` reads the
    common canonical form faster and leaves everything else to this."""
    # One pass over the fields in the order of the FEN grammar; most of its
    # length is the error messages, each naming what is wrong and where.
    tables = codec.geometry
    variant = tables.variant
    text = fen.strip()
    if text.endswith("."):
        text = text[:-1]
    text = text.replace(" ", "")
    if not text:
        raise InvalidFenError("empty fen")
    fields = text.split(":")
    side = fields[0].upper()
    if side == "?":
        turn = int(variant.first_color)
    elif side in ("W", "B"):
        turn = 0 if side == "W" else 1
    else:
        raise InvalidFenError(f"fen must start with W, B or ?, not {fields[0]!r}: {fen!r}")

    men = [0, 0]
    kings = [0, 0]
    seen = 0
    halfmove: int | None = None
    fullmove: int | None = None
    colors_seen: set[int] = set()
    for field in fields[1:]:
        if not field:
            continue
        head = field[0].upper()
        counter = _COUNTER.match(field.upper())
        if counter is not None and head in "HF":
            value = int(counter.group(2))
            if head == "H":
                halfmove = value
            else:
                fullmove = value
            continue
        if head not in "WB":
            if field.startswith("+") or field[0].isdigit():
                # lidraughts' Frisian king-move counters: not part of the position.
                continue
            raise InvalidFenError(f"unknown fen field {field!r} in {fen!r}")
        color = 0 if head == "W" else 1
        if color in colors_seen:
            raise InvalidFenError(
                f"pieces of {'White' if color == 0 else 'Black'} listed twice in {fen!r}"
            )
        colors_seen.add(color)
        body = field[1:]
        if not body:
            continue
        for item in body.split(","):
            for square, is_king in _expand(tables, item, fen):
                bit = tables.bit_of_square[square]
                if seen & bit:
                    raise InvalidFenError(
                        f"square {tables.name_of_square[square]} is listed twice in {fen!r}"
                    )
                seen |= bit
                if not is_king and crowned is not None and bit & tables.promotion_mask[color]:
                    crowned.append(square)
                    is_king = True
                if is_king:
                    kings[color] |= bit
                else:
                    if bit & tables.promotion_mask[color]:
                        raise InvalidFenError(
                            f"a {'white' if color == 0 else 'black'} man on "
                            f"{tables.name_of_square[square]}, the row where it would have "
                            f"been crowned, in {fen!r}"
                        )
                    men[color] |= bit
    limit = codec.start_piece_count if limit_pieces else None
    for color in (0, 1):
        count = (men[color] | kings[color]).bit_count()
        if limit is not None and count > limit:
            raise InvalidFenError(
                f"{'White' if color == 0 else 'Black'} has {count} pieces, more than the "
                f"{limit} a side starts with in {variant.name}, in {fen!r}"
            )
    return FenPosition(turn, (men[0], men[1]), (kings[0], kings[1]), halfmove, fullmove)


def _expand(tables: Geometry, item: str, fen: str) -> list[tuple[int, bool]]:
    """The squares of one comma-separated item, each with its king flag."""
    if not item:
        raise InvalidFenError(f"empty square in {fen!r}")
    is_king = _king_marker(tables, item)
    name = item[1:] if is_king else item
    match = _RANGE.match(name)
    if match is not None:
        first, last = int(match.group(1)), int(match.group(3))
        for value in (first, last):
            if not 1 <= value <= tables.square_count:
                raise InvalidFenError(
                    f"square {value} is off the {tables.variant.name} board "
                    f"(1-{tables.square_count}) in {fen!r}"
                )
        if first > last:
            raise InvalidFenError(f"descending range {item!r} in {fen!r}")
        return [(square, is_king) for square in range(first, last + 1)]
    upper = item.upper()
    if upper[0] in "GP" and upper[1:].isdigit() and tables.parse_square(item) is None:
        raise InvalidFenError(
            f"{item!r} is a lidraughts ghost piece (a capture in progress); "
            f"only whole moves are supported, in {fen!r}"
        )
    square = tables.parse_square(name)
    if square is None:
        hint = ""
        if item[0] == "k" and not is_king:
            hint = f" (on a board with a k-file a king is marked with a capital K: K{item[1:]})"
        raise InvalidFenError(
            f"{name!r} is not a square of the {tables.variant.name} board{hint} in {fen!r}"
        )
    return [(square, is_king)]


def _king_marker(tables: Geometry, item: str) -> bool:
    """Whether ``item`` starts with the king marker: ``K``, or ``k`` unless
    the board names its squares algebraically and has a k-file and a digit
    follows (``k7`` is then the square k7, see the module's docstring)."""
    head = item[0]
    if head == "K":
        return True
    if head != "k":
        return False
    has_k_file = tables.algebraic and tables.width > _K_FILE
    return not (has_k_file and item[1:2].isdigit())


def format_fen(codec: FenCodec, position: tuple[int, tuple[int, int], tuple[int, int]]) -> str:
    """The canonical FEN of ``(turn, men, kings)``."""
    turn, (white_men, black_men), (white_kings, black_kings) = position
    write = codec.write_squares
    return f"{'WB'[turn]}:W{write(white_men, white_kings)}:B{write(black_men, black_kings)}"


class _Lookups:
    """A board's FEN lookups (see :class:`FenCodec`), shared by the
    variants that number and name its squares alike."""

    def __init__(self, tables: Geometry) -> None:
        count = tables.square_count
        names = tables.name_of_square
        bits = tables.bit_of_square
        # Each single-square item is read once by the general parser, so the
        # two paths cannot disagree on what an item means.
        self.items: dict[str, tuple[int, bool]] = {}
        for text in {str(n) for n in range(1, count + 1)} | set(names[1:]):
            for item in (text, "K" + text):
                try:
                    expanded = _expand(tables, item, item)
                except InvalidFenError:
                    continue
                square, is_king = expanded[0]
                self.items[item] = (bits[square], is_king)
        self.numbers = {str(n): n for n in range(1, count + 1)}
        # upto[n]: the squares numbered 1..n, so a range is one subtraction.
        self.upto = [0] * (count + 1)
        for n in range(1, count + 1):
            self.upto[n] = self.upto[n - 1] | bits[n]

        # Writing order: by number, or on algebraic boards by column letter
        # then rank (``a1,a3,b2``), the order players list squares in.
        order = list(range(1, count + 1))
        if tables.algebraic:
            order.sort(key=lambda n: (names[n][0], int(names[n][1:])))
        self.runs = not tables.algebraic
        self.labels = ["", *(names[n] for n in order)]
        place = [0] * (count + 1)
        for j, n in enumerate(order, 1):
            place[n] = j
        square_of_index = tables.square_of_index
        self.width = (len(square_of_index) + 7) // 8
        self.byte_tables: list[list[int]] = []
        for byte in range(self.width):
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                index = byte * 8 + low.bit_length() - 1
                number = square_of_index[index] if index < len(square_of_index) else 0
                table[value] = table[value ^ low] | (1 << place[number] if number else 0)
            self.byte_tables.append(table)


_LOOKUPS: dict[tuple[object, ...], _Lookups] = {}


class FenCodec:
    """One variant's FEN: its start position, and lookups that make the
    canonical FEN fast to read and write, built once per variant.

    Reading: every item the writer produces (``31``, ``K31``, ``a1``, ``Ka1``)
    maps straight to its bit. Writing: a padded-grid bitboard is turned, a
    byte at a time through 256-entry tables, into a mask whose bit ``j`` is
    the ``j``-th square in writing order, so runs of men become runs of bits
    and the loop is per run or per piece, never per square of the board.
    """

    def __init__(self, tables: Geometry) -> None:
        self.geometry = tables
        names = tables.name_of_square
        self.promotion = tables.promotion_mask

        # The lookups depend on the board's squares and names alone: variants
        # that number their board alike share them (building them took a
        # tenth of the time of validating the OCA once, for the 8x8 variants
        # the inference tries).
        shape = (
            tuple(tables.square_of_index),
            tuple(names),
            tuple(tables.bit_of_square),
            tables.algebraic,
            tables.width,
        )
        lookups = _LOOKUPS.get(shape)
        if lookups is None:
            if len(_LOOKUPS) >= 64:  # a program making boards of many shapes
                _LOOKUPS.clear()
            lookups = _LOOKUPS[shape] = _Lookups(tables)
        self.items = lookups.items
        self.numbers = lookups.numbers
        self.upto = lookups.upto
        self.runs = lookups.runs
        self.labels = lookups.labels
        self.width = lookups.width
        self.byte_tables = lookups.byte_tables

    def parse(self, fen: str, limit_pieces: bool) -> FenPosition | None:
        """The position of a FEN in canonical form (``W:W..:B..``, upper
        case, no spaces; lidraughts' ``:H<n>:F<n>`` allowed), or None to leave
        it to the general parser, also when it is wrong, so that errors are
        reported in one place."""
        fields = fen.split(":")
        if len(fields) < 3:
            return None
        side, white, black = fields[:3]
        halfmove = fullmove = None
        for field in fields[3:]:
            # lidraughts' counters, as it writes them (``:H0:F1``).
            if _CANONICAL_COUNTER.fullmatch(field) is None:
                return None
            if field[0] == "H":
                halfmove = int(field[1:])
            else:
                fullmove = int(field[1:])
        if side == "W":
            turn = 0
        elif side == "B":
            turn = 1
        else:
            return None
        if white[:1] != "W" or black[:1] != "B":
            return None
        items = self.items
        men = [0, 0]
        kings = [0, 0]
        seen = 0
        for color, body in ((0, white[1:]), (1, black[1:])):
            if not body:
                continue
            promotion = self.promotion[color]
            own_men = own_kings = 0
            for item in body.split(","):
                found = items.get(item)
                if found is None:
                    found = self._range(item)
                    if found is None:
                        return None
                mask, is_king = found
                if mask & seen:
                    return None
                seen |= mask
                if is_king:
                    own_kings |= mask
                elif mask & promotion:
                    return None
                else:
                    own_men |= mask
            men[color] = own_men
            kings[color] = own_kings
        if limit_pieces:
            limit = self.start_piece_count
            if (men[0] | kings[0]).bit_count() > limit or (men[1] | kings[1]).bit_count() > limit:
                return None
        return FenPosition(turn, (men[0], men[1]), (kings[0], kings[1]), halfmove, fullmove)

    def _range(self, item: str) -> tuple[int, bool] | None:
        first_text, dash, last_text = item.partition("-")
        if not dash:
            return None
        is_king = first_text[:1] == "K"
        first = self.numbers.get(first_text[1:] if is_king else first_text)
        last = self.numbers.get(last_text)
        if first is None or last is None or first > last:
            return None
        found = self.upto[last] & ~self.upto[first - 1], is_king
        # Only well-formed ranges reach here, at most two per pair of
        # squares, so remembering them keeps the table small.
        self.items[item] = found
        return found

    def _ordered(self, mask: int) -> int:
        """``mask`` with bit ``j`` for the ``j``-th square in writing order."""
        # Each byte's table sets bits no other byte's does, so the sum is
        # their union, and sum() runs in C without a call per byte.
        return sum(map(getitem, self.byte_tables, mask.to_bytes(self.width, "little")))

    def write_squares(self, men: int, kings: int) -> str:
        """One side's pieces: kings as ``K<square>``, on numeric boards runs
        of men as ranges (``31-50``)."""
        if not men | kings:
            return ""
        men = self._ordered(men)
        kings = self._ordered(kings) if kings else 0
        labels = self.labels
        out: list[str] = []
        if self.runs and not kings:
            # The usual case, men only: one step per run.
            while men:
                low = men & -men
                first = low.bit_length() - 1
                carried = men + low
                last = (carried & -carried).bit_length() - 2
                out.append(labels[first] if last == first else f"{labels[first]}-{labels[last]}")
                men &= carried
        elif self.runs:
            while men | kings:
                both = men | kings
                low = both & -both
                first = low.bit_length() - 1
                if low & kings:
                    out.append("K" + labels[first])
                    kings ^= low
                    continue
                # Adding the lowest bit carries through the run of men that
                # starts there: the carry lands just past its last square.
                carried = men + low
                last = (carried & -carried).bit_length() - 2
                out.append(labels[first] if last == first else f"{labels[first]}-{labels[last]}")
                men &= carried
        else:
            while men | kings:
                both = men | kings
                low = both & -both
                label = labels[low.bit_length() - 1]
                out.append("K" + label if low & kings else label)
                men &= ~low
                kings &= ~low
        return ",".join(out)

    @functools.cached_property
    def starting_fen(self) -> str:
        """The canonical FEN of the variant's start position."""
        geometry = self.geometry
        variant = geometry.variant
        if variant.start_fen is not None:
            # Normalise an explicit setup so that it reads back identically.
            start = parse_fen(self, variant.start_fen, limit_pieces=False)
            return format_fen(self, (start.turn, start.men, start.kings))
        rows = variant.men_rows
        white = black = 0
        for index, number in enumerate(geometry.square_of_index):
            if number:
                row = index // geometry.stride
                if row < rows:
                    white |= 1 << index
                elif row >= geometry.height - rows:
                    black |= 1 << index
        return format_fen(self, (int(variant.first_color), (white, black), (0, 0)))

    @functools.cached_property
    def start_piece_count(self) -> int:
        """The most pieces a side starts with: no position can have more."""
        start = parse_fen(self, self.starting_fen, limit_pieces=False)
        return max((start.men[c] | start.kings[c]).bit_count() for c in (0, 1))
