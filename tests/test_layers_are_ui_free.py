"""The rules core and the data layer stay free of user-interface code (usable by engines, scripts, any front end).

Arrows point one way: the front ends (``tui``, ``app``, ``web``, ``cli``) and
the session use ``data`` and ``core``; ``data`` uses ``core``; ``core`` uses
neither.  Every import is checked, absolute or relative (``from ..tui import x``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import cescacs_tui

PACKAGE = Path(cescacs_tui.__file__).parent
UI = ("textual", "rich", "cescacs_tui.tui", "cescacs_tui.app", "cescacs_tui.web", "cescacs_tui.cli")
FORBIDDEN = {
    "core": (*UI, "cescacs_tui.session", "cescacs_tui.data"),
    "data": (*UI, "cescacs_tui.session"),
}


def _module_name(source: Path) -> str:
    parts = list(source.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(source: Path, module: str) -> set[str]:
    """Every module ``source`` (the module named ``module``) imports, relative imports made absolute.

    ``from X import y`` counts as importing both ``X`` and ``X.y`` (``y`` may be a module).
    """
    package = module if source.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            found.add(origin)
            found.update(f"{origin}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
            "import_module",
            "__import__",
        ):
            found.update(arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    return found


def _offences(imported: set[str], forbidden: tuple[str, ...]) -> set[str]:
    return {name for name in imported if any(name == bad or name.startswith(bad + ".") for bad in forbidden)}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_the_layer_has_its_sources(layer: str) -> None:
    names = {p.name for p in (PACKAGE / layer).rglob("*.py")}
    expected = {"core": {"position.py", "notation.py", "pdtl.py", "geometry.py"}, "data": {"settings.py", "storage.py"}}
    assert expected[layer] <= names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_source_of_the_layer_imports_the_ui(layer: str) -> None:
    offenders = {}
    for source in sorted((PACKAGE / layer).rglob("*.py")):
        bad = _offences(_imported_modules(source, _module_name(source)), FORBIDDEN[layer])
        if bad:
            offenders[str(source.relative_to(PACKAGE))] = sorted(bad)
    assert offenders == {}


def test_the_check_notices_absolute_relative_and_dynamic_imports(tmp_path: Path) -> None:
    sample = PACKAGE / "data" / "sample.py"  # named as if it were in the data layer; never written there
    code = (
        "import os\nfrom rich.text import Text\nimport textual.app as app\n"
        "from ..tui.board import HexBoard\nfrom .. import tui\nfrom ..session import GameSession\n"
        "from . import storage\nfrom ..core import Position\n"
        "importlib.import_module('textual.widgets')\n"
    )
    written = tmp_path / "sample.py"
    written.write_text(code, encoding="utf-8")
    imported = _imported_modules(written, _module_name(sample))
    assert _offences(imported, FORBIDDEN["data"]) == {
        "rich.text",
        "rich.text.Text",
        "textual.app",
        "cescacs_tui.tui",
        "cescacs_tui.tui.board",
        "cescacs_tui.tui.board.HexBoard",
        "cescacs_tui.session",
        "cescacs_tui.session.GameSession",
        "textual.widgets",
    }
    assert {"cescacs_tui.data.storage", "cescacs_tui.core.Position"} <= imported


def test_relative_imports_of_a_package_init_are_resolved_from_the_package(tmp_path: Path) -> None:
    written = tmp_path / "__init__.py"
    written.write_text("from .settings import Settings\nfrom ..tui import themes\n", encoding="utf-8")
    imported = _imported_modules(written, "cescacs_tui.data")
    assert {"cescacs_tui.data.settings", "cescacs_tui.tui", "cescacs_tui.tui.themes"} <= imported


@pytest.mark.parametrize(
    ("modules", "use"),
    [
        (("cescacs_tui.core",), "cescacs_tui.core.Position.initial().legal_moves()"),
        (
            (
                "cescacs_tui.data.settings",
                "cescacs_tui.data.autosave",
                "cescacs_tui.data.archive",
                "cescacs_tui.data.lock",
                "cescacs_tui.data.slots",
                "cescacs_tui.data.records",
            ),
            "cescacs_tui.data.settings.Settings.from_dict({})",
        ),
    ],
)
def test_importing_the_layer_loads_no_ui_module(modules: tuple[str, ...], use: str) -> None:
    code = (
        "import sys, importlib\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "import cescacs_tui\n"
        f"{use}\n"
        f"print(','.join(sorted(m for m in sys.modules if any(m == b or m.startswith(b + '.') for b in {UI!r}))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == ""
