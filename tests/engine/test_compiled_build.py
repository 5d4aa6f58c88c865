"""The compiled build (mypyc, docs/engine.md "Speed") searches exactly what the pure-Python one does.

Run where the compiled build is installed (.ci/run's second virtual
environment): a few searches in this process, compiled, and the same in a
subprocess that imports a copy of the installed package without its
extensions, pure Python, must agree in move, score, depth and nodes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import cescacs_tui
from cescacs_tui.core import Position
from cescacs_tui.core.build_info import COMPILED, COMPILED_MODULES, PURE, build
from tests.helpers.reference import load_jsonl

SEARCHES = """
import json, sys
from cescacs_tui.core.build_info import build
from cescacs_tui.core import Position
from cescacs_tui.engine import SearchBoard, Searcher
from cescacs_tui.engine.search import Limits

def run(pdtls, limits):
    out = []
    for pdtl in pdtls:
        for limit in limits:
            result = Searcher().search(SearchBoard(Position.from_pdtl(pdtl)), Limits(**limit), overhead=0.0)
            out.append([str(result.move), result.score, result.depth, result.nodes])
    return out

if __name__ == "__main__":
    pdtls, limits = json.load(sys.stdin)
    json.dump({"build": build(), "results": run(pdtls, limits)}, sys.stdout)
"""
LIMITS = [{"depth": 3}, {"nodes": 3000}]


def positions() -> list[str]:
    """The start and the two busiest positions of the test data (the most moves: the most work per node)."""
    rows = sorted(load_jsonl("positions.jsonl"), key=lambda row: -len(row["moves"]))
    return [Position.initial().to_pdtl(), str(rows[0]["pdtl"]), str(rows[1]["pdtl"])]


def in_process(pdtls: list[str]) -> list[list[object]]:
    namespace: dict[str, object] = {}
    exec(SEARCHES, namespace)
    return namespace["run"](pdtls, LIMITS)  # type: ignore[operator]


def test_build_says_whether_the_search_is_an_extension():
    import cescacs_tui.engine.search as search

    compiled = not search.__file__.endswith(".py")
    assert build() == (COMPILED if compiled else PURE)
    assert "cescacs_tui.engine.search" in COMPILED_MODULES


@pytest.mark.skipif(build() != COMPILED, reason="the compiled build is not installed here (pure Python)")
def test_compiled_and_pure_python_search_the_same_nodes(tmp_path):
    package = Path(cescacs_tui.__file__).parent
    shutil.copytree(
        package, tmp_path / "cescacs_tui", ignore=shutil.ignore_patterns(*(f"*{s}" for s in EXTENSION_SUFFIXES))
    )
    pdtls = positions()
    pure = subprocess.run(
        [sys.executable, "-c", SEARCHES],
        input=json.dumps([pdtls, LIMITS]),
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,  # the copy comes first on the path: python -c puts the working directory there
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    answer = json.loads(pure.stdout)
    assert answer["build"] == PURE
    compiled = in_process(pdtls)
    assert compiled == answer["results"]
    assert sum(row[3] for row in answer["results"]) > 10_000  # real searches, not trivially equal
