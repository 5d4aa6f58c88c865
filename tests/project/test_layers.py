"""The contract of every package: which of the project's packages, and which libraries, it may import.

The layers point one way (a layer may import any below it, not only the next)::

    cli ──► tui, plain, web ──► remote ──► session ──┬──► data ────┬──► core
                                                      └──► engine ──┘

    server ──► data ──► core      (the C'escacs server's foundation: accounts, games, ratings, storage; no UI)
    tui, plain, cli ──► learn ──► data, engine, core   (review, puzzles, lessons, the drill; no UI)

(``i18n``, ``arguments`` and ``tasks`` are small modules the layers above
``core`` may use, as the table says.)  Each package is checked twice, after harlequin's import-hygiene
tests: on its source (every import, relative ones resolved, those inside
functions too) and in a fresh interpreter that imports every module of it
(what really loads, the import-time half of the contract).  A package, or
a module of the top level, that is not in the table fails the test: a new
one states what it may import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

import cescacs_tui

PACKAGE = Path(cescacs_tui.__file__).parent

UI: Final = frozenset({"textual", "rich"})
LIBRARIES: Final = frozenset(
    {
        *UI,
        *("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2", "asyncssh", "pyperclip", "platformdirs", "tomli_w"),
        *("psycopg", "psycopg_pool"),
    }
)
"""The project's dependencies a contract rules on (the standard library is free to every package)."""
LOADS: Final = {
    "textual": frozenset({"rich"}),
    "psycopg_pool": frozenset({"psycopg"}),
    "textual_serve": frozenset({"rich", "aiohttp", "aiohttp_jinja2", "jinja2"}),
}
"""What a library loads of the others when imported (textual-serve logs through Rich): allowed with it at run time."""

CONTRACT: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    # unit: (the project's packages it may import, the libraries it may import)
    "core": (frozenset(), frozenset()),
    "i18n": (frozenset(), frozenset()),
    "arguments": (frozenset({"core", "i18n"}), frozenset()),
    "tasks": (frozenset(), frozenset()),
    "data": (frozenset({"core", "i18n"}), frozenset({"platformdirs", "tomli_w"})),
    "engine": (frozenset({"core"}), frozenset()),
    "session": (frozenset({"core", "data", "engine", "i18n"}), frozenset()),
    "learn": (frozenset({"core", "data", "engine", "i18n"}), frozenset()),
    "remote": (
        frozenset({"core", "data", "session", "server", "i18n", "arguments", "tasks"}),
        frozenset({"asyncssh"}),
    ),
    "plain": (frozenset({"core", "data", "engine", "session", "remote", "i18n", "learn", "tasks"}), frozenset()),
    "tui": (frozenset({"core", "data", "engine", "session", "remote", "i18n", "learn"}), UI | {"pyperclip"}),
    "web": (
        frozenset({"core", "data", "session", "remote", "i18n", "arguments"}),
        frozenset({"textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2"}),
    ),
    "cli": (
        frozenset({"core", "data", "engine", "session", "remote", "plain", "tui", "i18n", "arguments", "learn"}),
        frozenset(),
    ),
    "server": (frozenset({"core", "data", "i18n", "tasks"}), frozenset({"psycopg", "psycopg_pool"})),
    "__main__": (frozenset({"cli"}), frozenset()),
}
"""Every package and top-level module of ``cescacs_tui``, and what it may import besides itself."""


def units() -> list[str]:
    """The packages and top-level modules of the project (``__init__`` is the empty top package)."""
    found = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    found |= {path.stem for path in PACKAGE.glob("*.py") if path.name != "__init__.py"}
    return sorted(found)


def module_name(source: Path) -> str:
    parts = source.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(unit: str) -> list[Path]:
    folder = PACKAGE / unit
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [PACKAGE / f"{unit}.py"]


def imported_modules(source: Path) -> set[str]:
    """Every module ``source`` imports, relative imports resolved (``from ..tui import x`` → ``cescacs_tui.tui``).

    ``from X import y`` counts as importing ``X`` and ``X.y`` (``y`` may be a module: ``from .. import tui``);
    ``import_module("x")`` and ``__import__("x")`` with a constant name count too.
    """
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    package = module_name(source) if source.name == "__init__.py" else module_name(source).rpartition(".")[0]
    found: set[str] = set()
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


def below(unit: str) -> frozenset[str]:
    """Every unit ``unit`` may reach, directly or through the units it may import."""
    reached: set[str] = set()
    waiting = list(CONTRACT[unit][0])
    while waiting:
        if (next_unit := waiting.pop()) not in reached:
            reached.add(next_unit)
            waiting.extend(CONTRACT[next_unit][0])
    return frozenset(reached)


def breaches(unit: str, modules: set[str], *, loaded: bool = False) -> list[str]:
    """The modules in ``modules`` that ``unit``'s contract does not allow (the project's, and the ruled libraries).

    ``loaded``: what a fresh interpreter holds after importing ``unit``, which includes what the units below it
    import (allowed, since the unit may import them).
    """
    packages, libraries = CONTRACT[unit]
    if loaded:
        packages = below(unit)
        libraries = libraries.union(*(CONTRACT[other][1] for other in packages))
        libraries = libraries.union(*(LOADS.get(library, frozenset()) for library in libraries))
    bad = []
    for module in modules:
        parts = module.split(".")
        ours = parts[0] == "cescacs_tui" and len(parts) > 1 and parts[1] not in (unit, *packages)
        if ours or (parts[0] in LIBRARIES and parts[0] not in libraries):
            bad.append(module)
    return sorted(bad)


def forbidden_imports(unit: str) -> dict[str, list[str]]:
    offenders = {}
    for source in sources(unit):
        if bad := breaches(unit, imported_modules(source)):
            offenders[module_name(source)] = bad
    return offenders


def test_every_package_and_top_level_module_has_a_contract() -> None:
    assert units() == sorted(CONTRACT)


def test_the_contracts_point_one_way() -> None:
    """No two units may import each other, however far round: the table itself is free of cycles."""

    assert [unit for unit in CONTRACT if unit in below(unit)] == []


@pytest.mark.parametrize("unit", sorted(CONTRACT))
def test_the_source_imports_only_what_the_contract_allows(unit: str) -> None:
    assert forbidden_imports(unit) == {}


def test_the_check_sees_relative_absolute_lazy_and_library_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "cescacs_tui"
    (fake / "session").mkdir(parents=True)
    (fake / "session" / "__init__.py").write_text("", encoding="utf-8")
    (fake / "session" / "sample.py").write_text(
        "import os\nfrom rich.text import Text\nfrom ..tui.widgets.board import HexBoard\nfrom . import feedback\n"
        "from ..data import storage\n\ndef later():\n    from ..remote import port\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert forbidden_imports("session") == {
        "cescacs_tui.session.sample": [
            "cescacs_tui.remote",
            "cescacs_tui.remote.port",
            "cescacs_tui.tui.widgets.board",
            "cescacs_tui.tui.widgets.board.HexBoard",
            "rich.text",
            "rich.text.Text",
        ]
    }


@pytest.mark.slow
@pytest.mark.parametrize("unit", sorted(set(CONTRACT) - {"__main__"}))
def test_importing_every_module_loads_only_what_the_contract_allows(unit: str) -> None:
    """In a fresh interpreter: what importing the whole package loads (the session's also plays a move, which
    loads the record writer and the autosave's code on first use)."""
    names = [module_name(source) for source in sources(unit) if source.stem != "__main__"]  # which would run
    code = (
        "import sys, importlib\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        + (
            "from cescacs_tui.session import GameSession\nGameSession().play_text('E7-E13')\n"
            if unit == "session"
            else ""
        )
        + "print('\\n'.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert breaches(unit, set(result.stdout.split()), loaded=True) == []
