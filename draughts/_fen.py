"""Reading and writing PDN 3.0 FEN strings (with the common extensions).

Accepted on reading: ``W:W31-50:B1-20`` ranges, ``K`` before a square or a
range (a king range makes every square of it a king), lower case, a ``?``
side (taken as the variant's first player), the legacy trailing ``.``,
algebraic squares (``Wa1,c3``; on numeric boards ``a1`` is White's bottom-left
corner), leading zeros, empty piece lists (``B::``) and lidraughts' trailing
``:H<n>:F<n>`` counters. Written: the side, then White's and Black's pieces in
square order, kings marked ``K``, runs of men on numeric boards as ranges.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from draughts._tables import Tables
from draughts.errors import InvalidFenError

_RANGE = re.compile(r"^(K?)([0-9]+)-(K?)([0-9]+)$")
_COUNTER = re.compile(r"^([HF])([0-9]+)$")


class FenPosition(NamedTuple):
    turn: int
    men: tuple[int, int]
    kings: tuple[int, int]
    halfmove_clock: int | None = None
    fullmove_number: int | None = None


def parse_fen(tables: Tables, fen: str, *, limit_pieces: bool = True) -> FenPosition:
    """Parse ``fen`` for the board described by ``tables``.

    With ``limit_pieces`` a side may not have more pieces than it starts with.

    :raises InvalidFenError: naming the problem and the FEN.
    """
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
            raise InvalidFenError(f"pieces of {'White' if color == 0 else 'Black'} listed twice in {fen!r}")
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
    limit = tables.start_piece_count if limit_pieces else None
    for color in (0, 1):
        count = (men[color] | kings[color]).bit_count()
        if limit is not None and count > limit:
            raise InvalidFenError(
                f"{'White' if color == 0 else 'Black'} has {count} pieces, more than the "
                f"{limit} a side starts with in {variant.name}, in {fen!r}"
            )
    return FenPosition(turn, (men[0], men[1]), (kings[0], kings[1]), halfmove, fullmove)


def _expand(tables: Tables, item: str, fen: str) -> list[tuple[int, bool]]:
    """The squares of one comma-separated item, each with its king flag."""
    if not item:
        raise InvalidFenError(f"empty square in {fen!r}")
    upper = item.upper()
    match = _RANGE.match(upper)
    if match is not None:
        first, last = int(match.group(2)), int(match.group(4))
        is_king = bool(match.group(1))
        for value in (first, last):
            if not 1 <= value <= tables.square_count:
                raise InvalidFenError(
                    f"square {value} is off the {tables.variant.name} board "
                    f"(1-{tables.square_count}) in {fen!r}"
                )
        if first > last:
            raise InvalidFenError(f"descending range {item!r} in {fen!r}")
        return [(square, is_king) for square in range(first, last + 1)]
    is_king = upper.startswith("K")
    if upper[0] in "GP" and upper[1:].isdigit() and tables.parse_square(item) is None:
        raise InvalidFenError(
            f"{item!r} is a lidraughts ghost piece (a capture in progress); "
            f"only whole moves are supported, in {fen!r}"
        )
    name = item[1:] if is_king else item
    square = tables.parse_square(name)
    if square is None:
        raise InvalidFenError(
            f"{name!r} is not a square of the {tables.variant.name} board in {fen!r}"
        )
    return [(square, is_king)]


def format_fen(tables: Tables, position: tuple[int, tuple[int, int], tuple[int, int]]) -> str:
    """The canonical FEN of ``(turn, men, kings)``."""
    turn, men, kings = position
    parts = ["WB"[turn]]
    for color, letter in ((0, "W"), (1, "B")):
        parts.append(letter + _format_squares(tables, men[color], kings[color]))
    return ":".join(parts)


def _format_squares(tables: Tables, men: int, kings: int) -> str:
    names = tables.name_of_square
    man_squares = tables.squares_of(men)
    king_squares = tables.squares_of(kings)
    if tables.algebraic:
        items = [(names[s][0], int(names[s][1:]), names[s]) for s in man_squares]
        items += [(names[s][0], int(names[s][1:]), "K" + names[s]) for s in king_squares]
        items.sort()
        return ",".join(item[2] for item in items)
    entries = sorted([(s, False) for s in man_squares] + [(s, True) for s in king_squares])
    out: list[str] = []
    i = 0
    while i < len(entries):
        square, is_king = entries[i]
        if is_king:
            out.append(f"K{square}")
            i += 1
            continue
        j = i
        while (
            j + 1 < len(entries)
            and not entries[j + 1][1]
            and entries[j + 1][0] == entries[j][0] + 1
        ):
            j += 1
        out.append(f"{square}-{entries[j][0]}" if j > i else str(square))
        i = j + 1
    return ",".join(out)
