"""The build step: the rules core and the search compiled with mypyc when possible, pure Python otherwise.

The project's metadata is in pyproject.toml; this file only adds the C
extensions.  They are built for a regular install (``pip install .``, a wheel)
when mypyc (a build requirement) type-checks the modules of
``cescacs_tui/core/build_info.py``'s ``COMPILED_MODULES`` and a C compiler builds
them.  Anything missing or failing (no compiler, ``CESCACS_PURE=1`` in the
environment) leaves the pure-Python package, which plays exactly the same
moves, about half as fast.  Editable installs (``pip install -e``) are never
compiled: the sources being edited are the code that runs.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _warn(message: str) -> None:
    print(f"cescacs-tui: {message}; installing the pure-Python build", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Builds the extensions all or none: a failure (no C compiler, say) removes them and keeps pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as problem:  # the compiler's errors have no common class: any failure means pure Python
            _warn(f"the compiled build failed ({problem})")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []


def _extensions() -> list[Any]:
    if os.environ.get("CESCACS_PURE"):
        return []
    if any(command in sys.argv for command in ("editable_wheel", "develop", "egg_info", "sdist", "dist_info")):
        return []  # editable installs, metadata and source distributions: no compiling
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available")
        return []
    modules = runpy.run_path(str(HERE / "cescacs_tui" / "core" / "build_info.py"))["COMPILED_MODULES"]
    paths = [module.replace(".", "/") + ".py" for module in modules]
    try:
        return list(mypycify(paths, opt_level="3", group_name="cescacs_tui"))
    except (Exception, SystemExit) as problem:  # mypy's errors end in SystemExit
        _warn(f"mypyc could not compile ({problem})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
