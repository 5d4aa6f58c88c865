"""``python -m cescacs_tui``: the same as the ``cescacs`` command."""

import sys

from .cli import main

sys.exit(main())
