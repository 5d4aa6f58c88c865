"""The Elo ladder of the engine's levels: each level against its neighbours, at a fixed node budget.

    python -m scripts.ladder --pairs 50 --nodes 40000 --concurrency 2 --out ladder.json
    python -m scripts.ladder --pairs 25 --gap 2 ...        # each level against the level two below

Every match is played by scripts/match.py (game pairs from the opening book,
the rules core as referee, the same adjudication), the engine set to one
level on each side (``setoption name Level``) and ``go nodes NODES`` for
every move, so level 10, which has no budget of its own, searches NODES
nodes and each lower level its own budget: the results do not depend on the
machine or its load.  The Elo differences of all the matches are fitted
together by least squares (each weighted by its games), level 1 anchored at
``ANCHOR``; a match won or lost 100% counts as if half a game had gone the
other way, so every difference is finite.  One line a game pair; the table
and the ladder at the end (and in ``--out`` as JSON, merged with what is
already there, so the neighbours and the levels two apart can be run apart).
A match already in ``--out`` at the same node budget is continued: its next
pairs start at the first opening it has not played, and are added to it.  A
TERM (``timeout``) or Ctrl+C ends the run once the pairs under way are
finished, keeping them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import signal
import sys
from pathlib import Path
from typing import Any, Final

from scripts.match import BOOK, Control, EngineSpec, load_book, run_match
from scripts.sprt import elo_of, estimate

ANCHOR: Final = 500
"""The Elo given to level 1: the scale's zero is arbitrary, its differences are measured."""
LEVELS: Final = 10


def fit(results: list[dict[str, Any]]) -> list[float]:
    """Elo per level (index 0 is level 1) fitting every match's difference, weighted by its games.

    A level that no match reaches has no equation: it comes out at the
    anchor, a number that says nothing (:func:`measured` tells which levels
    have a value)."""
    n = LEVELS - 1  # unknowns: levels 2..10, level 1 fixed at 0
    normal = [[0.0] * n for _ in range(n)]
    right = [0.0] * n
    for row in results:
        games = row["games"]
        score = (row["points"] + 0.5) / (games + 1) if row["points"] in (0, games) else row["points"] / games
        difference = elo_of(score)  # stronger minus weaker
        strong, weak = int(row["strong"]) - 2, int(row["weak"]) - 2  # -1: level 1, fixed
        for i, sign in ((strong, 1.0), (weak, -1.0)):
            if i < 0:
                continue
            right[i] += games * sign * difference
            for j, other in ((strong, 1.0), (weak, -1.0)):
                if j >= 0:
                    normal[i][j] += games * sign * other
    for i in range(n):
        normal[i][i] += 1e-9  # keeps the system solvable when a level has no match (it then stays at 0)
    solved = _solve(normal, right)
    return [ANCHOR] + [ANCHOR + x for x in solved]


def measured(results: list[dict[str, Any]]) -> set[int]:
    """The levels the fit can place: level 1 (the anchor) and those joined to it through the matches."""
    joined = {1}
    grown = True
    while grown:
        grown = False
        for row in results:
            pair = {int(row["strong"]), int(row["weak"])}
            if pair & joined and not pair <= joined:
                joined |= pair
                grown = True
    return joined


def intervals(results: list[dict[str, Any]], rounds: int = 2000, seed: int = 1) -> list[tuple[float, float]]:
    """The 95% interval of each level's Elo on the ladder, by a parametric bootstrap of the game pairs.

    Each round draws every match's pairs again from its own pentanomial
    frequencies and fits the ladder anew; a level's interval is the middle
    95% of its fitted Elo.  Errors add up along the ladder from the anchor,
    so the higher levels' intervals are the wider ones.
    """
    rng = random.Random(seed)
    fitted: list[list[float]] = [[] for _ in range(LEVELS)]
    for _ in range(rounds):
        drawn = []
        for row in results:
            counts = [0] * 5
            for outcome in rng.choices(range(5), weights=row["penta"], k=sum(row["penta"])):
                counts[outcome] += 1
            drawn.append({**row, "points": sum(i * c for i, c in enumerate(counts)) / 2})
        for i, elo in enumerate(fit(drawn)):
            fitted[i].append(elo)
    low, high = round(0.025 * (rounds - 1)), round(0.975 * (rounds - 1))
    return [(sorted(values)[low], sorted(values)[high]) for values in fitted]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(a[r][column]))
        a[column], a[pivot] = a[pivot], a[column]
        for r in range(n):
            if r != column and a[column][column]:
                factor = a[r][column] / a[column][column]
                for c in range(column, n + 1):
                    a[r][c] -= factor * a[column][c]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=f"{shlex.quote(sys.executable)} -m cescacs_tui engine")
    parser.add_argument("--nodes", type=int, default=40_000, help="the node budget of every move (level 10's)")
    parser.add_argument("--pairs", type=int, default=50, help="game pairs a match")
    parser.add_argument("--gap", type=int, default=1, help="levels between the two of a match")
    parser.add_argument("--levels", default="1-10", help="the stronger levels to play, as FIRST-LAST")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", type=Path, help="a JSON file of the results (merged with its contents)")
    args = parser.parse_args()
    first, _, last = args.levels.partition("-")
    results: list[dict[str, Any]] = json.loads(args.out.read_text()) if args.out and args.out.exists() else []
    command = tuple(shlex.split(args.engine))
    openings = load_book(BOOK)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a TERM stops the run like Ctrl+C
    for strong in range(max(int(first), 1 + args.gap), int(last or first) + 1):
        weak = strong - args.gap
        earlier = next((r for r in results if (r["strong"], r["weak"], r["nodes"]) == (strong, weak, args.nodes)), None)
        start = earlier.get("next", earlier["games"] // 2) if earlier else 0
        spec = [EngineSpec(f"level {n}", command, (("Level", str(n)), ("Seed", str(n)))) for n in (strong, weak)]
        state = run_match(
            spec[0],
            spec[1],
            Control(nodes=args.nodes),
            openings,
            pairs=args.pairs,
            first_pair=start,
            concurrency=args.concurrency,
            on_pair=lambda pair, state: print(f"  {state.summary(None)}", flush=True),
        )
        played = state.penta
        pairs = sum(played)
        print(f"level {strong} vs level {weak}: {state.summary(None)}", flush=True)
        if not pairs:
            break
        row = {
            "strong": strong,
            "weak": weak,
            "games": 2 * pairs,
            "points": state.wins + state.draws / 2,
            "penta": played,
            "nodes": args.nodes,
            "next": start + pairs,
        }
        if earlier:
            row["games"] += earlier["games"]
            row["points"] += earlier["points"]
            row["penta"] = [a + b for a, b in zip(earlier["penta"], played, strict=True)]
        results = [r for r in results if (r["strong"], r["weak"]) != (strong, weak)] + [row]
        if args.out:
            args.out.write_text(json.dumps(results, indent=1) + "\n")
        if state.interrupted:
            break
    print("\n| match | games | score | Elo difference (95%) |\n|---|---|---|---|")
    for row in sorted(results, key=lambda r: (r["strong"] - r["weak"], r["strong"])):
        interval = estimate(row["penta"]).describe()
        print(
            f"| {int(row['strong'])} vs {int(row['weak'])} | {int(row['games'])} |"
            f" {100 * row['points'] / row['games']:.0f}% | {interval} |"
        )
    ladder = fit(results)
    assert all(math.isfinite(e) for e in ladder)
    print(f"\n| level | Elo (level 1 anchored at {ANCHOR}) | 95% |\n|---|---|---|")
    placed = measured(results)
    for number, (elo, (low, high)) in enumerate(zip(ladder, intervals(results), strict=True), 1):
        print(f"| {number} | {elo:.0f} | {low:.0f} to {high:.0f} |" if number in placed else f"| {number} | - | - |")


if __name__ == "__main__":
    main()
