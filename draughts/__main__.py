"""``python -m draughts``: the command line (see :mod:`draughts._cli`)."""

from draughts._cli import main

# Guarded: a worker process started by spawn or forkserver (the default from
# Python 3.14) imports this module again as "__mp_main__", and must not run
# the command line a second time.
if __name__ == "__main__":
    raise SystemExit(main())
