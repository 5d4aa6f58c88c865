"""Which build of the package is running: the mypyc-compiled rules core and search, or pure Python.

``pip install .`` compiles the modules of :data:`COMPILED_MODULES` with mypyc
into C extensions when mypyc and a C compiler are available, and installs
pure Python otherwise (``setup.py`` reads the list from here; editable
installs stay pure Python).  Both builds play exactly the same moves; the
compiled one searches about twice as many nodes a second (docs/engine.md,
Speed).  This module imports nothing of the package, so ``setup.py`` can read
it before the package is built.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Final

COMPILED_MODULES: Final = (
    "cescacs_tui.core.geometry",
    "cescacs_tui.core.move",
    "cescacs_tui.core.pieces",
    "cescacs_tui.core.state",
    "cescacs_tui.core.position",
    "cescacs_tui.engine.board",
    "cescacs_tui.engine.evaluation",
    "cescacs_tui.engine.search",
)
"""The modules the compiled build compiles: the rules core a search plays on, and the search."""

COMPILED: Final = "compiled"
PURE: Final = "pure Python"


def build() -> str:
    """:data:`COMPILED` when the search was installed as a compiled extension, else :data:`PURE`.

    Read from where the module would be loaded from, without importing it.
    """
    spec = find_spec("cescacs_tui.engine.search")
    origin = spec.origin if spec is not None else None
    return PURE if origin is None or origin.endswith(".py") else COMPILED


__all__ = ["COMPILED", "COMPILED_MODULES", "PURE", "build"]
