"""Boards, moves, variants and outcomes pickle to equal values; a board's
per-variant machinery is rebuilt on the other side, never shipped."""

from __future__ import annotations

import os
import pickle
import pickletools
import random
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import variant as V
from draughts.move import Move
from draughts.outcome import Outcome, Termination
from draughts.piece import BLACK, WHITE

ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)
CUSTOM = [
    attrs.evolve(V.RUSSIAN, name="russian-10", width=10, height=10, men_rows=4),
    attrs.evolve(V.INTERNATIONAL, name="all-squares", all_squares=True),
    attrs.evolve(V.FRISIAN, name="frisian-12", width=12, height=12, men_rows=5),
    # Kept the preset's name: still not the preset.
    attrs.evolve(V.ENGLISH, flying_kings=True),
]


def roundtrip(value: object, protocol: int = pickle.DEFAULT_PROTOCOL) -> object:
    return pickle.loads(pickle.dumps(value, protocol=protocol))


def playout(variant: draughts.Variant, plies: int, seed: int) -> draughts.Board:
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


def assert_same_board(copy: draughts.Board, board: draughts.Board) -> None:
    assert isinstance(copy, draughts.Board)
    assert copy == board
    assert copy.variant == board.variant
    assert copy.fen() == board.fen()
    assert copy.move_stack == board.move_stack
    assert [m.path for m in copy.move_stack] == [m.path for m in board.move_stack]
    assert copy.position_key == board.position_key
    assert copy.draw_rule_counts() == board.draw_rule_counts()
    assert copy.halfmove_clock == board.halfmove_clock
    assert copy.outcome() == board.outcome()
    assert list(copy.legal_moves) == list(board.legal_moves)


def globals_named(data: bytes) -> set[str]:
    """The classes and functions a pickle names (module.name)."""
    names: set[str] = set()
    strings: list[str] = []
    for opcode, arg, _ in pickletools.genops(data):
        if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(str(arg))
        elif opcode.name == "STACK_GLOBAL":
            names.add(".".join(strings[-2:]))
        elif opcode.name in ("GLOBAL", "INST"):
            names.add(str(arg).replace(" ", "."))
    return names


# -- Boards -----------------------------------------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_board_pickles_with_every_protocol(protocol: int) -> None:
    board = playout(V.INTERNATIONAL, 20, 1)
    copy = roundtrip(board, protocol)
    assert isinstance(copy, draughts.Board)
    assert_same_board(copy, board)


@pytest.mark.parametrize("variant", CUSTOM, ids=lambda v: v.name)
def test_a_board_of_a_custom_variant_pickles(variant: draughts.Variant) -> None:
    board = playout(variant, 30, 2)
    copy = roundtrip(board)
    assert isinstance(copy, draughts.Board)
    assert_same_board(copy, board)
    assert copy.variant != V.gametype_preset(variant.gametype)
    while board.move_stack:
        assert copy.pop() == board.pop()
        assert copy == board and copy.position_key == board.position_key


def test_a_board_pickle_is_small_and_names_no_tables() -> None:
    board = draughts.Board()
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        board.push_pdn(text)
    list(board.legal_moves)  # the legal move cache is filled too
    list(draughts.Board("W:WK46:B37,22").legal_moves)  # a king's capture search is built
    data = pickle.dumps(board)
    # It was 3 KB: the preset was written field by field, rule sources and all.
    assert len(data) < 2000
    # The context is named as the function that makes it again, the preset by name.
    assert globals_named(data) == {
        "draughts.board.Board",
        "draughts._context.context",
        "draughts.variant.find_variant",
        "draughts.move.Move",
    }


@pytest.mark.parametrize("variant", CUSTOM, ids=lambda v: v.name)
def test_a_custom_board_pickle_ships_its_variant_and_no_tables(variant: draughts.Variant) -> None:
    board = playout(variant, 10, 4)
    list(board.legal_moves)
    data = pickle.dumps(board)
    assert len(data) < 10_000  # a context's tables are hundreds of kilobytes
    names = globals_named(data)
    assert "draughts.variant.Variant" in names and "draughts._context.context" in names
    assert not any("_core" in name or "Context" in name or "Geometry" in name for name in names)


def test_a_board_unpickles_in_another_process() -> None:
    # Another process, with another string hash seed, rebuilds the variant's
    # machinery (the variant's cached hash is not shipped) and plays on.
    variant = CUSTOM[0]
    board = playout(variant, 25, 3)
    expected = []
    after = board.copy()
    for _ in range(6):
        legal = sorted(after.legal_moves, key=str)
        if not legal:
            break
        after.push(legal[0])
        expected.append(after.fen())
    script = (
        "import pickle, sys\n"
        "board, variant = pickle.loads(sys.stdin.buffer.read())\n"
        "assert board.variant == variant and hash(board.variant) == hash(variant)\n"
        "assert {variant: 1}[board.variant] == 1\n"
        "for _ in range(6):\n"
        "    legal = sorted(board.legal_moves, key=str)\n"
        "    if not legal:\n"
        "        break\n"
        "    board.push(legal[0])\n"
        "    print(board.fen())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=pickle.dumps((board, variant)),
        capture_output=True,
        env=env,
        check=True,
    )
    assert done.stdout.decode().split() == expected


# -- Moves, variants, outcomes ---------------------------------------------------------


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_moves_pickle(protocol: int) -> None:
    for move in [
        Move(32, 28),
        Move(32, 14, captures=(27, 18), path=(32, 23, 14)),
        Move(46, 5, captures=(37,), path=(46, 5)),
    ]:
        copy = roundtrip(move, protocol)
        assert isinstance(copy, Move)
        assert copy == move and hash(copy) == hash(move)
        assert (copy.captures, copy.path) == (move.captures, move.path)


@pytest.mark.parametrize("variant", V.VARIANTS, ids=lambda v: v.name)
def test_a_preset_unpickles_as_itself(variant: draughts.Variant) -> None:
    for protocol in PROTOCOLS:
        assert roundtrip(variant, protocol) is variant
    assert len(pickle.dumps(variant)) < 100


@pytest.mark.parametrize("variant", CUSTOM, ids=lambda v: v.name)
def test_a_custom_variant_pickles_field_by_field(variant: draughts.Variant) -> None:
    for protocol in PROTOCOLS:
        copy = roundtrip(variant, protocol)
        assert isinstance(copy, draughts.Variant)
        assert copy == variant and hash(copy) == hash(variant)
        assert attrs.asdict(copy) == attrs.asdict(variant)
    assert roundtrip(variant) != V.gametype_preset(variant.gametype)


@pytest.mark.parametrize(
    "outcome",
    [
        Outcome(Termination.BLOCKED, WHITE),
        Outcome(Termination.NO_PIECES, BLACK, "international"),
        Outcome(Termination.REPETITION, None),
        Outcome(Termination.TWENTY_FIVE_MOVE_RULE, None, "international"),
    ],
)
def test_outcomes_pickle(outcome: Outcome) -> None:
    for protocol in PROTOCOLS:
        copy = roundtrip(outcome, protocol)
        assert copy == outcome
        assert isinstance(copy, Outcome) and copy.result() == outcome.result()


def test_the_outcome_of_an_unpickled_board_is_the_same() -> None:
    board = draughts.Board("W:W28:B23", variant="international")
    board.push_pdn("28x19")
    copy = roundtrip(board)
    assert isinstance(copy, draughts.Board)
    assert (
        copy.outcome() == board.outcome() == Outcome(Termination.NO_PIECES, WHITE, "international")
    )


# -- The property -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(V.VARIANTS), st.integers(0, 80), st.integers(0, 2**32 - 1))
def test_random_boards_of_every_preset_survive_pickling(
    variant: draughts.Variant, plies: int, seed: int
) -> None:
    board = playout(variant, plies, seed)
    copy = roundtrip(board)
    assert isinstance(copy, draughts.Board)
    assert copy.variant is variant
    assert_same_board(copy, board)
    while board.move_stack:
        assert copy.pop() == board.pop()
        assert copy.fen() == board.fen()
        assert copy.position_key == board.position_key
        assert copy.draw_rule_counts() == board.draw_rule_counts()
    assert copy.fen() == variant.starting_fen
