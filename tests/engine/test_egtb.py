"""Endgame bitbases: every position checked against a plain solver written
here on the public Board API, files written and read back, bad files
refused, known endings probed, and the engine's use of them."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import attrs
import pytest

import draughts
from draughts._context import context
from draughts.engine import Limit, builtin
from draughts.engine.egtb import BitbaseError, Bitbases, Probe, Wdl, probe
from draughts.engine.native_search import searcher
from draughts.engine.search import KNOWN_WIN, Searcher, raw_position
from draughts.piece import BLACK, KING, MAN, WHITE, Piece

# Small boards: the plain solver below makes a Board per position.
ENGLISH_6 = attrs.evolve(draughts.variant.ENGLISH, name="english-6", width=6, height=6, men_rows=2)
FLYING_6 = attrs.evolve(
    draughts.variant.INTERNATIONAL, name="international-6", width=6, height=6, men_rows=2
)

# Smaller still for the default run: 12 squares.
ENGLISH_4 = attrs.evolve(ENGLISH_6, name="english-6x4", height=4, men_rows=1)
FLYING_4 = attrs.evolve(FLYING_6, name="international-6x4", height=4, men_rows=1)

_Key = tuple[int, frozenset[tuple[int, Piece]]]


def _positions(variant: draughts.Variant, pieces: int) -> dict[_Key, draughts.Board]:
    """Every position of 2 to ``pieces`` pieces with a piece of each
    colour, either side to move, built from FEN text (which refuses a man
    on its crowning row)."""
    squares = range(1, draughts.Board(variant=variant).variant.square_count + 1)
    kinds = [Piece(c, k) for c in (WHITE, BLACK) for k in (MAN, KING)]
    found: dict[_Key, draughts.Board] = {}
    for count in range(2, pieces + 1):
        for chosen in itertools.combinations(squares, count):
            for pieces_of in itertools.product(kinds, repeat=count):
                if {p.color for p in pieces_of} != {WHITE, BLACK}:
                    continue
                placed = dict(zip(chosen, pieces_of, strict=True))
                for turn in "WB":
                    sides = []
                    for color, letter in ((WHITE, "W"), (BLACK, "B")):
                        own = [
                            ("K" if p.kind == KING else "") + str(s)
                            for s, p in placed.items()
                            if p.color == color
                        ]
                        sides.append(letter + ",".join(own))
                    try:
                        board = draughts.Board(f"{turn}:{sides[0]}:{sides[1]}", variant=variant)
                    except draughts.errors.InvalidFenError:
                        continue  # a man on its crowning row
                    found[_key(board)] = board
    return found


def _key(board: draughts.Board) -> _Key:
    return (int(board.turn), frozenset(board.piece_map().items()))


def _solve(boards: dict[_Key, draughts.Board]) -> dict[_Key, Wdl]:
    """Plain minimax to a fixed point over the whole graph at once: a
    position is won if a move leads to a lost one, lost if every move leads
    to a won one (or it has none), and a draw if never decided."""
    children: dict[_Key, list[_Key | None]] = {}
    for key, board in boards.items():
        moves = []
        for move in board.legal_moves:
            board.push(move)
            lost_at_once = not board.legal_moves  # no pieces or all blocked
            moves.append(None if lost_at_once else _key(board))
            board.pop()
        children[key] = moves
    value: dict[_Key, Wdl] = {}
    changed = True
    while changed:
        changed = False
        for key, moves in children.items():
            if key in value:
                continue
            results = [Wdl.LOSS if child is None else value.get(child) for child in moves]
            if Wdl.LOSS in results:
                value[key] = Wdl.WIN
            elif all(r == Wdl.WIN for r in results):
                value[key] = Wdl.LOSS
            else:
                continue
            changed = True
    return {key: value.get(key, Wdl.DRAW) for key in children}


def _check_all(variant: draughts.Variant, pieces: int) -> None:
    boards = _positions(variant, pieces)
    expected = _solve(boards)
    bases = Bitbases.build(variant, pieces)
    wrong = [
        (boards[key].fen(), bases.probe(boards[key]), value)
        for key, value in expected.items()
        if bases.probe(boards[key]) != value
    ]
    assert not wrong[:5], f"{len(wrong)} positions differ"
    # And the bitbases hold no position the enumeration missed.
    held = sum(sum(counts.values()) for counts in bases.statistics().values())
    assert held == len(expected)
    assert {Wdl.WIN, Wdl.DRAW, Wdl.LOSS} <= set(expected.values())


# English 3-piece bitbases are probed in the default run below; checked
# against the plain solver in the slow run.
@pytest.mark.parametrize(
    "variant", [pytest.param(ENGLISH_4, marks=pytest.mark.slow), FLYING_4], ids=lambda v: v.name
)
def test_small_boards_three_pieces_match_plain_solver(variant: draughts.Variant) -> None:
    _check_all(variant, 3)


@pytest.mark.slow
@pytest.mark.parametrize("variant", [ENGLISH_6, FLYING_6], ids=lambda v: v.name)
def test_6x6_boards_three_pieces_match_plain_solver(variant: draughts.Variant) -> None:
    _check_all(variant, 3)


def test_english_two_pieces_match_plain_solver() -> None:
    _check_all(draughts.variant.ENGLISH, 2)


@pytest.mark.slow
def test_english_three_pieces_match_plain_solver() -> None:
    _check_all(draughts.variant.ENGLISH, 3)  # 392,064 positions: about 6 minutes


@pytest.mark.slow
def test_international_two_pieces_match_plain_solver() -> None:
    # Three pieces (1.6 million positions) would take the plain solver
    # gigabytes; the flying kings' rules are checked with three pieces on
    # the small boards above.
    _check_all(draughts.variant.INTERNATIONAL, 2)


@pytest.fixture(scope="module")
def english3() -> Bitbases:
    return Bitbases.build("english", 3)


def test_english_two_kings_beat_one(english3: Bitbases) -> None:
    # English checkers: two kings against one king win (the lone king
    # cannot hold a double corner for ever).
    bases = english3
    board = draughts.Board("W:WK1,K2:BK32", variant="english")
    assert bases.probe(board) == Wdl.WIN
    assert bases.probe(draughts.Board("B:WK1,K2:BK32", variant="english")) == Wdl.LOSS
    # With the two kings to move, all but a few positions (both kings
    # stuck where every move gives one away) are won.
    values = Counter(
        bases.probe(draughts.Board(f"W:WK{a},K{b}:BK{k}", variant="english"))
        for a, b, k in itertools.permutations(range(1, 33), 3)
        if a < b
    )
    assert values[Wdl.WIN] > 0.99 * sum(values.values())
    assert values[Wdl.LOSS] == 0


def test_international_king_against_king_draws() -> None:
    bases = Bitbases.build("international", 2)
    assert bases.probe(draughts.Board("W:WK1:BK50")) == Wdl.DRAW
    assert bases.probe(draughts.Board("B:WK1:BK50")) == Wdl.DRAW


@pytest.mark.slow
def test_international_lone_king_on_long_diagonal_draws() -> None:
    # International draughts: two kings do not beat a king that holds the
    # long diagonal (46-5) when nothing can be taken; most such endings
    # are draws.
    bases = Bitbases.build("international", 3)
    assert bases.probe(draughts.Board("B:WK1,K50:BK28")) == Wdl.DRAW
    counts = bases.statistics()[0, 2, 0, 1]
    assert counts[Wdl.DRAW] > 2 * counts[Wdl.WIN]


def test_files_round_trip_and_bad_files(tmp_path: Path) -> None:
    bases = Bitbases.build(ENGLISH_6, 3)
    paths = bases.save(tmp_path)
    assert [p.name for p in paths] == ["english-6.2.wdl", "english-6.3.wdl"]
    loaded = Bitbases.load(tmp_path, ENGLISH_6)
    assert loaded is not None and loaded.pieces == 3
    assert loaded.statistics() == bases.statistics()
    assert Bitbases.load(tmp_path / "absent", ENGLISH_6) is None
    path = paths[1]
    good = path.read_bytes()
    header, _, data = good.partition(b"\n")
    broken = {
        "no 'draughts-egtb' header": b"\x00\x01garbage",
        "bitbase version 9": json.dumps({**json.loads(header), "version": 9}).encode() + b"\n",
        "squares is 32": json.dumps({**json.loads(header), "squares": 32}).encode() + b"\n" + data,
        "bytes of data": good[:-3],
    }
    for reason, content in broken.items():
        path.write_bytes(content)
        with pytest.raises(BitbaseError, match=reason) as caught:
            Bitbases.load(tmp_path, ENGLISH_6)
        assert str(path) in str(caught.value)


def test_other_goals_are_refused() -> None:
    with pytest.raises(BitbaseError, match="antidraughts"):
        Bitbases.build("antidraughts", 2)
    assert probe(draughts.Board(variant="breakthrough")) is None


def test_probe_defaults_and_coverage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert probe(draughts.Board()) is None  # 40 pieces
    board = draughts.Board("B:WK10:BK1", variant="english")
    assert probe(board) == Wdl.DRAW
    bases = Bitbases.build(ENGLISH_6, 2)
    assert bases.probe(board) is None  # another variant
    assert bases.probe(draughts.Board("W:WK1,K2:BK7", variant=ENGLISH_6)) is None  # 3 pieces


def test_engine_keeps_a_bitbase_win_and_wins(english3: Bitbases) -> None:
    bases = english3
    engine = builtin("hard", egtb=bases)
    board = draughts.Board("W:WK1,K2:BK32", variant="english")
    for _ in range(100):
        if board.is_game_over():
            break
        before = bases.probe(board)
        board.push(engine.play(board, Limit(depth=8)).move)
        after = bases.probe(board)
        assert (before, after) in ((Wdl.WIN, Wdl.LOSS), (Wdl.LOSS, Wdl.WIN), (Wdl.LOSS, None))
    assert board.is_game_over() and board.outcome().winner == WHITE


@pytest.mark.parametrize("kind", ["python", "default"])
def test_search_probes_below_the_root(english3: Bitbases, kind: str) -> None:
    # Four pieces: outside the 3-piece bitbases; the capture leads into a
    # won 2 kings against 1, which the search knows exactly only by probing.
    board = draughts.Board("W:WK14,K2:B18,K32", variant="english")
    ctx = context(board.variant)
    make = Searcher if kind == "python" else searcher
    pos = raw_position(board, ctx.core)
    plain = make(ctx.core, ctx.keys).iterate(pos, 4)[1]
    probing = make(ctx.core, ctx.keys)
    probing.use_bitbases(english3.prober())
    known = probing.iterate(pos, 4)[1]
    assert known >= KNOWN_WIN - 10 > plain


@pytest.mark.parametrize("kind", ["python", "default"])
def test_the_probe_changes_the_move_in_a_drawn_ending(english3: Bitbases, kind: str) -> None:
    # Two men against a king, White to move: a draw, which 27-24 throws
    # away (the 3-piece bitbases say so) and 20-16 keeps. Searched 4 plies
    # deep the evaluation prefers 27-24; with the 2-piece bitbases probed
    # below the root the search sees where the king takes a man, and keeps
    # the draw.
    board = draughts.Board("W:W20,27:BK19", variant="english")
    ctx = context(board.variant)
    make = Searcher if kind == "python" else searcher
    pos = raw_position(board, ctx.core)

    def best(probe: Probe | None) -> draughts.Move:
        search = make(ctx.core, ctx.keys)
        search.use_bitbases(probe)
        return ctx.core.moves.move(search.iterate(pos, 4)[2][0])

    def value_after(move: draughts.Move) -> Wdl | None:
        after = board.copy()
        after.push(move)
        return english3.probe(after)

    plain, probing = best(None), best(Bitbases.build("english", 2).prober())
    assert english3.probe(board) == Wdl.DRAW
    assert (str(plain), value_after(plain)) == ("27-24", Wdl.WIN)  # won for Black
    assert (str(probing), value_after(probing)) == ("20-16", Wdl.DRAW)


def test_a_prober_leaves_out_the_materials_asked(english3: Bitbases) -> None:
    ctx = context(draughts.variant.ENGLISH)
    pos = raw_position(draughts.Board("W:WK1,K2:BK32", variant="english"), ctx.core)
    assert english3.prober()(pos) == 1
    assert english3.prober([(0, 2, 0, 1)])(pos) is None
    assert english3.prober([(0, 2, 0, 1)])((pos[0], 0, 0, 0, 0)) is None  # no pieces


def test_cli_egtb_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from draughts._cli.main import main

    assert (
        main(["egtb", "build", "--variant", "english", "--pieces", "2", "--out", str(tmp_path)])
        == 0
    )
    out = capsys.readouterr().out
    assert "white 0 men 1 kings, black 0 men 1 kings: 1,984 positions" in out
    loaded = Bitbases.load(tmp_path, "english")
    assert loaded is not None and loaded.statistics() == Bitbases.build("english", 2).statistics()
    assert main(["egtb", "build", "--variant", "antidraughts", "--out", str(tmp_path)]) == 2
    assert "antidraughts" in capsys.readouterr().err
    assert main(["egtb", "build", "--variant", "nosuch", "--out", str(tmp_path)]) == 2
    assert main(["egtb", "build", "--pieces", "5", "--out", str(tmp_path)]) == 2
    assert "2 to 4" in capsys.readouterr().err


def test_directory_in_environment_and_engine_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from draughts.engine import egtb

    bases = Bitbases.build(ENGLISH_6, 3)
    bases.save(tmp_path)
    monkeypatch.setattr(egtb, "_DEFAULTS", {})
    monkeypatch.setenv("DRAUGHTS_EGTB", str(tmp_path))
    board = draughts.Board("W:WK1,K2:BK17", variant=ENGLISH_6)
    value = probe(board)
    assert value == bases.probe(board) == Wdl.WIN
    engine = builtin("hard", egtb=tmp_path)
    after = board.copy()
    after.push(engine.play(board, Limit(depth=2)).move)
    assert bases.probe(after) == -value  # the value kept, seen from the other side
