"""Write ``openings/english-3move.pdn``: the 156 three-move openings of
English draughts (checkers) that the American Checker Federation's
tournament deck holds, in a shuffled order (seed 2026) so that the first
openings of the file, which a short match uses, are varied. The file is
the ballot of ``draughts match --variant english --openings``.

The source is the ACF's "156-Opening Three-Move Deck"
(http://www.usacheckers.com/156openingdeck.php and its rankings page): the
144 openings of the former deck and the 12 added at the 2003 U.S.
Nationals (George Miller's "Completing the Deck", wylliedraughts.com Week
007, names the candidates). The 18 other three-move openings that players
consider are barred from the deck as losing for one side; they are listed
here too, and left out of the file. Every opening is played on a board
here, so an illegal or mistyped one stops the script.

Run from the repository root: ``python benchmarks/make_english_ballot.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

from make_ballot import write_ballots  # its sibling in benchmarks/ (on the path when run)

import draughts

OUT = Path(__file__).resolve().parent / "openings" / "english-3move.pdn"

# Black's first move and White's reply, then Black's third moves: those in
# the deck before the "|", those barred as losing after it.
DECK = """
9-13 21-17: 5-9 6-9 | 10-14
9-13 22-17: 13-22
9-13 22-18: 6-9 10-14 10-15 11-15 11-16 12-16
9-13 23-18: 5-9 6-9 10-15 11-15 11-16 12-16 | 10-14
9-13 23-19: 5-9 6-9 10-14 10-15 11-16
9-13 24-19: 5-9 6-9 10-14 11-15 11-16 | 10-15
9-13 24-20: 5-9 6-9 10-14 10-15 11-15 11-16 | 12-16
9-14 22-17: 5-9 6-9 11-15 11-16
9-14 22-18: 5-9 10-15 11-15 11-16 | 12-16 14-17
9-14 23-18: 14-23
9-14 23-19: 5-9 11-16 14-18 | 10-15
9-14 24-19: 5-9 11-15 11-16 | 10-15
9-14 24-20: 5-9 10-15 11-15 11-16
10-14 22-17: 7-10 9-13 11-15 11-16 14-18
10-14 22-18: 6-10 7-10 11-15 11-16 12-16
10-14 23-18: 14-23
10-14 23-19: 6-10 7-10 11-15 11-16 14-18
10-14 24-19: 6-10 7-10 11-16 14-18 | 11-15
10-14 24-20: 6-10 7-10 11-15 11-16 14-18
10-15 21-17: 6-10 7-10 9-13 11-16 15-18 | 9-14
10-15 22-17: 6-10 7-10 9-13 11-16 15-19 | 9-14
10-15 22-18: 15-22
10-15 23-18: 6-10 7-10 9-14 11-16 12-16
10-15 23-19: 6-10 7-10 11-16
10-15 24-19: 15-24
10-15 24-20: 6-10 7-10 15-19 | 11-16
11-15 21-17: 8-11 9-13 9-14 15-19 | 10-14
11-15 22-17: 8-11 9-13 15-18 15-19
11-15 22-18: 15-22
11-15 23-18: 8-11 9-14 10-14 12-16 15-19
11-15 23-19: 8-11 9-13 9-14
11-15 24-19: 15-24
11-15 24-20: 8-11 12-16 15-18
11-16 21-17: 7-11 8-11 9-13 9-14 16-20 | 10-14
11-16 22-17: 7-11 8-11 9-13 16-20
11-16 22-18: 7-11 8-11 16-19 16-20 | 10-15
11-16 23-18: 7-11 8-11 9-14 10-14 16-20
11-16 23-19: 16-23
11-16 24-19: 7-11 8-11 16-20 | 10-15
11-16 24-20: 7-11 16-19
12-16 21-17: 9-13 9-14 16-19 16-20
12-16 22-17: 16-19 16-20
12-16 22-18: 16-19 16-20
12-16 23-18: 16-19 16-20 | 9-14
12-16 23-19: | 16-23
12-16 24-19: 16-20
12-16 24-20: 8-12 10-15
"""


def openings() -> tuple[list[list[str]], list[list[str]]]:
    """The deck's openings and the barred ones, each as its three moves,
    in the order of the table."""
    deck: list[list[str]] = []
    barred: list[list[str]] = []
    for row in DECK.strip().splitlines():
        start, _, thirds = row.partition(":")
        kept, _, losing = thirds.partition("|")
        deck += [[*start.split(), third] for third in kept.split()]
        barred += [[*start.split(), third] for third in losing.split()]
    return deck, barred


def played(moves: list[str]) -> draughts.Board:
    """The board after ``moves``; ValueError for an illegal one."""
    board = draughts.Board(variant="english")
    for text in moves:
        board.push_pdn(text)
    return board


def main() -> None:
    deck, barred = openings()
    for moves in deck + barred:
        played(moves)  # raises for an illegal or mistyped move
    assert len(deck) == 156 and len(barred) == 18, (len(deck), len(barred))
    assert len({tuple(m) for m in deck + barred}) == 174, "an opening listed twice"
    order = list(deck)
    random.Random(2026).shuffle(order)
    lines = []
    for moves in order:
        board = draughts.Board(variant="english")
        lines.append([board.push_pdn(text) for text in moves])
    write_ballots(lines, "english", "ACF 3-move ballot", OUT)


if __name__ == "__main__":
    main()
