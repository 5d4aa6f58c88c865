"""The project's reference data (tests/data, copied from the shared test data): positions, rule vectors, perft."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent.parent / "data"


def load_jsonl(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


POSITIONS = load_jsonl("positions.jsonl")
RULE_VECTORS = load_jsonl("rules_vectors.jsonl")
RULE_VECTOR_BY_RULE = {row["rule"]: row for row in RULE_VECTORS}
PERFT = json.loads((DATA / "perft.json").read_text(encoding="utf-8"))


def bad_pdtl_lines() -> list[tuple[str, str]]:
    out = []
    for line in (DATA / "bad_pdtl.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            text, _, reason = line.partition("  # ")
            out.append((text, reason))
    return out
