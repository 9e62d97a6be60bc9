"""The one GameType -> preset lookup (:func:`draughts.variant.gametype_preset`)
and the PDN code built on it; and a game whose last line ends in a rejected move."""

from __future__ import annotations

import io

import pytest

from draughts import pdn
from draughts.variant import (
    DAMA,
    DAMA_FLYING,
    ENGLISH,
    INTERNATIONAL,
    KILLER,
    RUSSIAN,
    VARIANTS,
    Variant,
    find_variant,
    gametype_preset,
)


@pytest.mark.parametrize(
    ("gametype", "variant_tag", "expected"),
    [
        (20, None, INTERNATIONAL),
        ("20", None, INTERNATIONAL),
        ("20,W,10,10,N2,0", None, INTERNATIONAL),
        (" 25 , W,8,8,A0,0", None, RUSSIAN),
        ("21,B,8,8,N1,0", None, ENGLISH),
        ("21,W,8,8,N2,1", None, ENGLISH),  # the geometry is not looked at
        ("21", "dama", DAMA),
        (21, " Dama ", DAMA),
        ("21,W,8,8,N1,0", "dama_flying", DAMA_FLYING),
        ("20", "killer", KILLER),
        ("21", "no-such-tag", None),
        (99, None, None),
        ("99,W,8,8,N1,0", None, None),
        ("russian", None, None),
        ("", None, None),
        ("-1", None, None),
    ],
)
def test_gametype_preset(
    gametype: int | str, variant_tag: str | None, expected: Variant | None
) -> None:
    assert gametype_preset(gametype, variant_tag) is expected


def test_find_variant_by_number_is_the_preset() -> None:
    for variant in VARIANTS:
        preset = gametype_preset(variant.gametype)
        assert preset is not None and find_variant(variant.gametype) is preset
    with pytest.raises(ValueError, match="unknown GameType"):
        find_variant(99)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_variant_tags_name_the_variant_again(variant: Variant) -> None:
    headers = pdn.Headers()
    pdn.set_variant_tags(headers, variant)
    assert headers.variant() == variant
    assert pdn.variant_of_tags(headers.get("GameType"), headers.get("Variant"), None) == variant


def test_variant_tag_falls_back_to_the_gametype_preset() -> None:
    assert pdn.variant_of_tags("21", "English", None) is ENGLISH
    assert pdn.variant_of_tags("21,B,8,8,N1,0", "dama", None) is DAMA


@pytest.mark.parametrize(
    "text",
    [
        "1. 32-28 32-28\n",
        '[Event "x"]\n1. 32-28 32-28\n',
        "1. 32-28 19-23\n2. 28x19 28x19\n",
    ],
)
def test_a_rejected_move_ending_the_file_keeps_the_game(text: str) -> None:
    handle = io.StringIO(text)
    game = pdn.read_game(handle)
    assert game is not None
    assert [error.kind for error in game.errors] == ["illegal"]
    assert text.rstrip().endswith(game.errors[0].unparsed)
    assert pdn.read_game(handle) is None
