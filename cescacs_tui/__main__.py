"""``python -m cescacs_tui`` and the ``cescacs`` command: the command's modules loaded with the collector off.

Loading the rules core, the session and the command line makes long-lived
objects (modules, classes, tables) and almost no garbage, yet Python's cyclic
collector would scan the growing heap again and again meanwhile.  So it is off
while they load; then they are frozen (kept out of every later collection,
which would otherwise scan them all at once) and it is on again.  The app turns
it off again until its first frame (``cli._play``).  About 5 ms of the first
frame of every ``cescacs`` (benchmarks/README.md).
"""

import gc
import sys


def main() -> int:
    """Entry point of the ``cescacs`` console script and of ``python -m cescacs_tui``."""
    gc.disable()
    try:
        from .cli import main as run
    finally:
        gc.freeze()
        gc.enable()
    return run()


if __name__ == "__main__":
    sys.exit(main())
