"""The arrows point one way: tui → session → data → core, and session → engine → core.  Core, data, engine and
session never import a UI; the engine knows nothing of the session or the data it serves.  The server's
foundation (accounts, games, ratings, its storage and its commands) builds on core, data and session only: the
SSH server and the lobby screens that will serve it sit above it.

Both are read as source (every import, relative ones resolved to the package
they name) and imported in a fresh interpreter, which must not load Textual
or Rich: an engine, a script or a plain front end can use them alone.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import cescacs_tui

PACKAGE = Path(cescacs_tui.__file__).parent
UI_LIBRARIES = ("textual", "rich")
FRONT_ENDS = ("cescacs_tui.tui", "cescacs_tui.app", "cescacs_tui.web", "cescacs_tui.cli")
UI_FREE = {
    "core": (*FRONT_ENDS, "cescacs_tui.session", "cescacs_tui.data", "cescacs_tui.engine"),
    "data": (*FRONT_ENDS, "cescacs_tui.session", "cescacs_tui.engine"),
    "engine": (*FRONT_ENDS, "cescacs_tui.session", "cescacs_tui.data", "cescacs_tui.plain", "cescacs_tui.remote"),
    "session": FRONT_ENDS,
    "server": (*FRONT_ENDS, "cescacs_tui.engine", "cescacs_tui.plain", "cescacs_tui.remote"),
}
"""For each UI-free layer, the project's own packages it must not import (besides the UI libraries)."""


def module_name(source: Path) -> str:
    parts = source.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: Path) -> set[str]:
    """Every module ``source`` imports, relative imports resolved (``from ..tui import x`` → ``cescacs_tui.tui``).

    ``from X import y`` counts as importing ``X`` and ``X.y`` (``y`` may be a module: ``from .. import tui``).
    """
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    package = module_name(source) if source.name == "__init__.py" else module_name(source).rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base)
                origin = f"{prefix}.{node.module}" if node.module else prefix
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


def forbidden_imports(layer: str) -> dict[str, list[str]]:
    offenders = {}
    for source in sorted((PACKAGE / layer).rglob("*.py")):
        bad = sorted(
            module
            for module in imported_modules(source)
            if module.split(".")[0] in UI_LIBRARIES or module.startswith(UI_FREE[layer])
        )
        if bad:
            offenders[module_name(source)] = bad
    return offenders


@pytest.mark.slow
@pytest.mark.parametrize("layer", list(UI_FREE))
def test_the_layer_imports_no_user_interface(layer: str) -> None:
    assert (PACKAGE / layer / "__init__.py").exists()
    assert forbidden_imports(layer) == {}


def test_the_check_sees_relative_and_absolute_ui_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "cescacs_tui"
    (fake / "session").mkdir(parents=True)
    (fake / "session" / "__init__.py").write_text("", encoding="utf-8")
    (fake / "session" / "sample.py").write_text(
        "import os\nfrom rich.text import Text\nfrom ..tui.board import HexBoard\nfrom . import feedback\n"
        "from .. import tui\nfrom ..data import storage\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert forbidden_imports("session") == {
        "cescacs_tui.session.sample": [
            "cescacs_tui.tui",
            "cescacs_tui.tui.board",
            "cescacs_tui.tui.board.HexBoard",
            "rich.text",
            "rich.text.Text",
        ]
    }


DATA_MODULES = ("settings", "choices", "storage", "autosave", "slots", "lock", "archive", "records", "ratings")
SERVER_MODULES = ("storage", "sqlite", "postgres", "fanout", "lobby", "commands", "notify")


@pytest.mark.slow
@pytest.mark.parametrize(
    "modules",
    [
        ("cescacs_tui.core",),
        ("cescacs_tui.session", "cescacs_tui.session.opponent"),
        tuple(f"cescacs_tui.data.{name}" for name in DATA_MODULES),
        ("cescacs_tui.engine", "cescacs_tui.engine.client", "cescacs_tui.engine.computer", "cescacs_tui.engine.serve"),
        tuple(f"cescacs_tui.server.{name}" for name in SERVER_MODULES),
    ],
    ids=["core", "session", "data", "engine", "server"],
)
def test_importing_the_layer_loads_neither_textual_nor_rich(modules: tuple[str, ...]) -> None:
    code = (
        "import sys, importlib\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "from cescacs_tui.session import GameSession\n"
        "GameSession().play_text('E7-E13')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == ""
