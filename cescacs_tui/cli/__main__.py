"""``python -m cescacs_tui.cli``: the same as the ``cescacs`` command."""

import sys

from . import main

sys.exit(main())
