"""The variant's draw rules as the built-in engine's search applies them
(:class:`DrawTable`): the no-progress count and the drawn endings.

>>> import draughts
>>> _draw_table(draughts.variant.ENGLISH) is _draw_table(draughts.variant.ENGLISH)
True
"""

from __future__ import annotations

from draughts.outcome import Reset
from draughts.variant import Variant

__all__ = ["DrawTable"]

_DRAWISH = 8  # a drawn ending that the strong side may still win is worth 1/8
_SMALL_MATERIAL = 8  # endings are looked up only with this many pieces or fewer


class DrawTable:
    """The variant's draw rules as the search applies them.

    ``no_progress`` is the plies without a man move or capture after which
    the variant's rule without a material condition draws (None if it has
    none). ``endings`` maps a material ``(white kings, white men, black
    kings, black men)`` with at most :data:`_SMALL_MATERIAL` pieces to 0 when
    a rule draws it at once (insufficient material), or to :data:`_DRAWISH`
    when a rule draws it after a count: the strong side may still win, but the
    evaluation of a man ahead means little there.

    >>> import draughts
    >>> table = DrawTable(draughts.variant.INTERNATIONAL)
    >>> table.no_progress, table.endings[(3, 0, 1, 0)]
    (50, 8)
    """

    def __init__(self, variant: Variant) -> None:
        self.no_progress: int | None = None
        self.endings: dict[tuple[int, int, int, int], int] = {}
        for rule in variant.draw_rules:
            if rule.is_repetition:
                continue
            if not rule.endings:
                if rule.limit and Reset.ANY_PROGRESS in rule.resets:
                    plies = rule.limit * 2 if rule.strong_side_moves else rule.limit
                    if self.no_progress is None or plies < self.no_progress:
                        self.no_progress = plies
                continue
            kind = 0 if rule.limit == 0 else _DRAWISH
            for ending in rule.endings:
                for material in _materials(ending.strong, ending.weak, ending.pieces):
                    if self.endings.get(material, _DRAWISH) >= kind:
                        self.endings[material] = kind


def _materials(
    strong: object, weak: object, pieces: tuple[int, int]
) -> list[tuple[int, int, int, int]]:
    """Every small material, either colour strong, that an ending covers."""
    found = []
    counts = range(_SMALL_MATERIAL + 1)
    for sk in counts:
        for sm in counts:
            for wk in counts:
                for wm in counts:
                    total = sk + sm + wk + wm
                    if total > _SMALL_MATERIAL or not pieces[0] <= total <= pieces[1]:
                        continue
                    if strong.matches(kings=sk, men=sm) and weak.matches(kings=wk, men=wm):  # type: ignore[attr-defined]
                        found += [(sk, sm, wk, wm), (wk, wm, sk, sm)]
    return found


_DRAW_TABLES: dict[Variant, DrawTable] = {}


def _draw_table(variant: Variant) -> DrawTable:
    table = _DRAW_TABLES.get(variant)
    if table is None:
        if len(_DRAW_TABLES) >= 32:
            _DRAW_TABLES.clear()
        table = _DRAW_TABLES[variant] = DrawTable(variant)
    return table
