"""The rules core must stay free of user-interface libraries (pure Python, usable by engines and scripts)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import cescacs_tui.core

CORE = Path(cescacs_tui.core.__file__).parent
FORBIDDEN = ("textual", "rich")


def _imported_modules(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
            "import_module",
            "__import__",
        ):
            found.update(arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    return found


def test_core_sources_exist():
    sources = sorted(CORE.rglob("*.py"))
    assert CORE.name == "core"
    assert {"position.py", "notation.py", "pdtl.py", "geometry.py"} <= {p.name for p in sources}


def test_core_sources_do_not_import_textual_or_rich():
    offenders = {}
    for source in sorted(CORE.rglob("*.py")):
        bad = {m for m in _imported_modules(source) if m.split(".")[0] in FORBIDDEN}
        if bad:
            offenders[str(source.relative_to(CORE))] = sorted(bad)
    assert offenders == {}


def test_the_ast_check_would_notice_a_ui_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom rich.text import Text\nimport textual.app as app\n", encoding="utf-8")
    assert {m.split(".")[0] for m in _imported_modules(sample)} & set(FORBIDDEN) == {"rich", "textual"}


def test_importing_the_core_loads_neither_textual_nor_rich():
    code = (
        "import sys\n"
        "import cescacs_tui.core\n"
        "from cescacs_tui.core import Position\n"
        "Position.initial().legal_moves()\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == ""
