"""``python -m draughts``: the command line (see :mod:`draughts._cli`)."""

from draughts._cli import main

raise SystemExit(main())
