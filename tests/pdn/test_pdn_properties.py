"""Property tests for draughts.pdn: random annotated games survive export and
re-reading; arbitrary text never makes the reader or the strict check raise."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from draughts import pdn
from tests.conftest import game_tree

VARIANTS = ["international", "english", "russian", "brazilian", "pool", "dama-flying", "canadian"]
# Comment words: anything but "}" (which ends a comment) and whitespace (folded).
WORD_CHARS = "abcxyzKW0123456789-:()[]!?$%;/.*\"'éßЖ♛"
NAGS = [1, 2, 3, 4, 5, 6, 7, 10, 14, 255]


def words(rng: random.Random) -> str:
    return " ".join(
        "".join(rng.choice(WORD_CHARS) for _ in range(rng.randint(1, 8)))
        for _ in range(rng.randint(1, 6))
    )


def annotate(rng: random.Random, node: pdn.ChildNode) -> None:
    if rng.random() < 0.25:
        node.comment = words(rng)
    if rng.random() < 0.25:
        node.nags.update(rng.sample(NAGS, rng.randint(1, 3)))


def grow(rng: random.Random, node: pdn.GameNode, plies: int, depth: int) -> None:
    """A random line of ``plies`` moves from ``node``, with side lines."""
    board = node.board()
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            return
        move = rng.choice(legal)
        child = node.add_variation(move)
        annotate(rng, child)
        others = [m for m in legal if m != move]
        if depth < 3 and others and rng.random() < 0.2:
            side = node.add_variation(rng.choice(others))
            annotate(rng, side)
            if rng.random() < 0.3:
                side.starting_comment = words(rng)
            grow(rng, side, rng.randint(0, 4), depth + 1)
        board.push(move)
        node = child


@st.composite
def annotated_games(draw: st.DrawFn) -> pdn.Game:
    variant = draw(st.sampled_from(VARIANTS))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    game = pdn.Game(variant=variant)
    game.headers["Event"] = words(rng).replace("\\", "/")
    if rng.random() < 0.3:
        game.comment = words(rng)
    grow(rng, game, rng.randint(0, 60), 0)
    return game


def tree(node: pdn.GameNode) -> list[object]:
    # Moves compared as values (same captured set), not by route.
    return game_tree(node, move_key=lambda move: move)


@settings(max_examples=60, deadline=None)
@given(annotated_games())
def test_random_games_survive_export_and_reading(game: pdn.Game) -> None:
    text = str(game)
    again = pdn.read_game(io.StringIO(text))
    assert again is not None
    assert again.errors == [], text
    assert again.variant == game.variant
    assert dict(again.headers) == dict(game.headers)
    assert again.comment == game.comment
    assert tree(again) == tree(game)
    assert str(again) == text
    assert all(len(line) <= 80 or " " not in line for line in text.splitlines())


RESULTS = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "1:0", "1/2:1/2", "*", "?"]
TAG_VALUES = st.one_of(
    st.sampled_from(RESULTS),
    st.text(st.characters(blacklist_characters="\r\n"), max_size=20),
    st.text(alphabet=st.sampled_from(list('\\"] [x')), max_size=8),  # escapes and brackets
)
TAG_NAMES = st.one_of(
    st.sampled_from(["Event", "Site", "Date", "White", "Black", "Round", "Annotator"]),
    st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True).filter(
        lambda name: name not in ("GameType", "Variant", "FEN", "Result")
    ),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(TAG_NAMES, TAG_VALUES), max_size=8),
    st.sampled_from(RESULTS),
    st.sampled_from(VARIANTS),
    st.sampled_from([None, "2-0", "1-0", "variant"]),
)
def test_tags_read_back_as_they_were_written(
    tags: list[tuple[str, str]], result: str, variant: str, results: str | None
) -> None:
    # Every tag, the Result tag included, reads back as it was written, in
    # its order; the terminator written reads as a result whatever the tag.
    game = pdn.Game(variant=variant)
    for name, value in tags:
        game.headers[name] = value
    game.headers["Result"] = result
    game.add_variation(next(iter(game.board().legal_moves)))
    exporter = pdn.StringExporter(results=results)  # type: ignore[arg-type]
    text = game.accept(exporter)
    again = pdn.read_game(io.StringIO(text))
    assert again is not None
    assert again.errors == [], text
    expected = dict(game.headers)
    if results is not None:
        expected["Result"] = text.split('[Result "', 1)[1].split('"]', 1)[0]
        assert expected["Result"] in RESULTS[:7] or result in ("*", "?")
    assert list(again.headers.items()) == list(expected.items())
    assert again.mainline_moves() == game.mainline_moves()


PDNISH = st.text(
    alphabet=st.sampled_from(list('0123456789-x:()[]{}"*!?$/. \n\tabchWBK%;\\')), max_size=300
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(PDNISH, st.text(max_size=300)), st.sampled_from(VARIANTS))
def test_arbitrary_text_never_raises(text: str, variant: str) -> None:
    handle = io.StringIO(text)
    for _ in range(len(text) + 2):  # every game read consumes text
        game = pdn.read_game(handle, variant=variant)
        if game is None:
            break
        for error in game.errors:
            assert error.line >= 1 and error.column >= 1
        str(game)
    else:
        raise AssertionError("read_game did not reach the end")
    for error in pdn.check_strict(text):
        assert error.kind == "pdn3" and error.line >= 1
