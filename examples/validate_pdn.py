"""Check every move of every game in PDN files and print what is wrong.

    python examples/validate_pdn.py examples/candidate95.pdn

Prints one line per game (its number, the variant it was read as, how many
plies were read and its errors) and a summary; exits with 1 if any game has
an error. Without arguments it checks the bundled sample files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from draughts import pdn

HERE = Path(__file__).resolve().parent


def main(paths: list[str]) -> int:
    files = paths or [str(path) for path in sorted(HERE.glob("*.pdn"))]
    with pdn.validate(files) as validation:
        for report in validation:
            errors = "; ".join(f"line {error.line}: {error.message}" for error in report.errors)
            print(
                f"{report.file} game {report.number}: {report.variant}, "
                f"{report.plies} plies{', ' + errors if errors else ''}"
            )
        summary = validation.summary()
    print(f"{summary.games} games, {summary.games_with_errors} with errors")
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
