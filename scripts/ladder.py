"""The Elo ladder of the engine's levels: each level against its neighbours, at a fixed node budget.

    python -m scripts.ladder --levels 2-10 --pairs 50 --concurrency 2          # each level against the one below
    python -m scripts.ladder --levels 3-10 --pairs 50 --gap 2 --concurrency 2  # ... and against the one two below
    python -m scripts.ladder --fit                                             # the tables of what is recorded

Every match is played by scripts/match.py (game pairs from the opening book,
the rules core as referee, the same adjudication), the engine set to one
level on each side (``setoption name Level``) and ``go nodes NODES`` for
every move, so level 10, which has no budget of its own, searches NODES
nodes and each lower level its own budget: the results do not depend on the
machine or its load.

The results are kept in ``RESULTS`` (docs/data/ladder.json, in the
repository, so the ladder outlives the machine that played it): one entry a
*run* of a match, with the openings it played (``first`` to ``next``), its
games, the stronger level's points and the counts of its game pairs'
outcomes (``penta``), and where it came from (``source``).  ``--pairs N``
plays each match on until it has N pairs in the file, from the first opening
it has not played, so the same command continues where the last one stopped;
the file is written after every pair, and a TERM (``timeout``) or Ctrl+C ends
the run once the pairs under way are finished, keeping them.

The Elo differences of all the matches are fitted together by least squares
(each weighted by its games), level 1 anchored at ``ANCHOR``; a match won or
lost 100% counts as if half a game had gone the other way, so every
difference is finite.  Each level's 95% interval comes from refitting draws
of every run's game pairs from its own outcomes.  A run whose pairs were not
kept (``penta`` null: the first ladder's rows, re-entered from the tables of
docs/engine.md) is drawn as independent games won or lost at its score: the
same mean, and the variance of a score without draws or correlated pairs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import signal
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from cescacs_tui.engine.levels import LADDER_NODES
from scripts.match import BOOK, Control, EngineSpec, MatchState, PairResult, load_book, run_match
from scripts.sprt import PAIR_SCORES, Z95, elo_of, pair_points

ANCHOR: Final = 500
"""The Elo given to level 1: the scale's zero is arbitrary, its differences are measured."""
LEVELS: Final = 10
RESULTS: Final = Path(__file__).resolve().parent.parent / "docs" / "data" / "ladder.json"
"""The ladder's results, kept in the repository (the default ``--out``)."""
ABOUT: Final = (
    "The Elo ladder's matches, written by scripts/ladder.py (docs/engine.md, 'The Elo ladder'): one entry a run of"
    " a match, level 'strong' against level 'weak' at 'nodes' a move, openings 'first' to 'next' - 1 of"
    " scripts/data/openings.txt, each played twice; 'points' are the stronger level's; 'penta' counts its pairs"
    " that scored 0, 1/2, 1, 1 1/2 and 2 points, null where the pairs were not kept."
)
RUN_KEYS: Final = ("strong", "weak", "nodes", "first", "next", "games", "points", "penta", "source")


class ResultsError(ValueError):
    """A results file that is not what this script writes."""


def load(path: Path) -> list[dict[str, Any]]:
    """The runs recorded in ``path`` (none if it does not exist); :class:`ResultsError` if it is malformed."""
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as problem:
        raise ResultsError(f"{path}: {problem}") from None
    runs = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(runs, list):
        raise ResultsError(f"{path}: not a ladder's results (an object with a list of runs)")
    for number, run in enumerate(runs, 1):
        reason = _run_problem(run)
        if reason:
            raise ResultsError(f"{path}: run {number}: {reason}")
    return runs


def _run_problem(run: object) -> str | None:
    """Why ``run`` is not a run of a match, or ``None``."""
    if not isinstance(run, dict) or set(run) != set(RUN_KEYS):
        return f"not an object with the keys {', '.join(RUN_KEYS)}"
    numbers = [run[key] for key in ("strong", "weak", "nodes", "first", "next", "games")]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
        return "strong, weak, nodes, first, next and games must be whole numbers, not negative"
    if not 1 <= run["weak"] < run["strong"] <= LEVELS:
        return f"the levels must be 1-{LEVELS}, the stronger first"
    if run["games"] != 2 * (run["next"] - run["first"]):
        return "its games are not two for each opening from first to next"
    points = run["points"]
    if not isinstance(points, int | float) or isinstance(points, bool) or not 0 <= points <= run["games"]:
        return "its points are not between 0 and its games"
    penta = run["penta"]
    if penta is not None and (
        not isinstance(penta, list)
        or len(penta) != len(PAIR_SCORES)
        or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in penta)
        or 2 * sum(penta) != run["games"]
        or sum(i * c for i, c in enumerate(penta)) != 2 * points
    ):
        return "its penta are not five counts of pairs adding up to its games and points"
    if not isinstance(run["source"], str):
        return "its source is not a text"
    return None


def save(path: Path, runs: list[dict[str, Any]]) -> None:
    """Write ``runs`` to ``path`` (a run a line, for readable differences), replacing it in one step."""
    lines = ",\n".join("  " + json.dumps({key: run[key] for key in RUN_KEYS}, ensure_ascii=False) for run in runs)
    text = f'{{"about": {json.dumps(ABOUT)},\n "runs": [\n{lines}\n]}}\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def matches(runs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs of each match added up: strong, weak, games, points, ``unpaired`` (the games of runs without pairs)."""
    total: dict[tuple[int, int], dict[str, Any]] = {}
    for run in runs:
        key = (int(run["strong"]), int(run["weak"]))
        match = total.setdefault(key, {"strong": key[0], "weak": key[1], "games": 0, "points": 0.0, "unpaired": 0})
        match["games"] += run["games"]
        match["points"] += run["points"]
        match["unpaired"] += run["games"] if run.get("penta") is None else 0
    return [total[key] for key in sorted(total, key=lambda k: (k[0] - k[1], k[0]))]


def fit(results: list[dict[str, Any]]) -> list[float]:
    """Elo per level (index 0 is level 1) fitting every match's difference, weighted by its games.

    The runs of one match count as one (their games and points added).  A
    level that no match reaches has no equation: it comes out at the
    anchor, a number that says nothing (:func:`measured` tells which levels
    have a value)."""
    n = LEVELS - 1  # unknowns: levels 2..10, level 1 fixed at 0
    normal = [[0.0] * n for _ in range(n)]
    right = [0.0] * n
    for row in matches(results):
        games = row["games"]
        if not games:
            continue
        difference = elo_of(_finite_score(row["points"], games))  # stronger minus weaker
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


def _finite_score(points: float, games: int) -> float:
    """The score of ``points`` in ``games``, a shutout counted as if half a game had gone the other way."""
    return (points + 0.5) / (games + 1) if points in (0, games) else points / games


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


def pair_odds(run: dict[str, Any]) -> list[float]:
    """How often a pair of ``run`` scored 0, ½, 1, 1½ and 2 points: its own counts, or a model where none were kept.

    Without the pairs, its games are taken as independent wins or losses at
    its score ``p``: pairs of 2 points with odds ``p²``, 1 point ``2p(1-p)``,
    0 points ``(1-p)²`` (the same mean; the variance of a score without draws
    and without the correlation of a pair's two games)."""
    if run.get("penta") is not None:
        return [float(count) for count in run["penta"]]
    pairs = run["games"] / 2
    p = run["points"] / run["games"] if run["games"] else 0.5
    return [pairs * (1 - p) ** 2, 0.0, pairs * 2 * p * (1 - p), 0.0, pairs * p * p]


def intervals(results: list[dict[str, Any]], rounds: int = 2000, seed: int = 1) -> list[tuple[float, float]]:
    """The 95% interval of each level's Elo on the ladder, by a parametric bootstrap of the game pairs.

    Each round draws every run's pairs again from its own outcomes
    (:func:`pair_odds`) and fits the ladder anew; a level's interval is the
    middle 95% of its fitted Elo.  Errors add up along the ladder from the
    anchor, so the higher levels' intervals are the wider ones.
    """
    rng = random.Random(seed)
    fitted: list[list[float]] = [[] for _ in range(LEVELS)]
    odds = [pair_odds(row) for row in results]
    for _ in range(rounds):
        drawn = []
        for row, weights in zip(results, odds, strict=True):
            pairs = round(row["games"] / 2)
            outcomes = rng.choices(range(5), weights=weights, k=pairs) if pairs else []
            drawn.append({**row, "points": sum(outcomes) / 2})
        for i, elo in enumerate(fit(drawn)):
            fitted[i].append(elo)
    low, high = round(0.025 * (rounds - 1)), round(0.975 * (rounds - 1))
    return [(sorted(values)[low], sorted(values)[high]) for values in fitted]


def match_interval(runs: list[dict[str, Any]]) -> tuple[float, float, float]:
    """One match's score with its 95% interval (normal, from the variance of its runs' pairs: :func:`pair_odds`).

    With every pair kept this is :func:`scripts.sprt.estimate`'s interval."""
    pairs = sum(run["games"] for run in runs) / 2
    score = sum(run["points"] for run in runs) / (2 * pairs)
    variance = 0.0  # of the sum of the pairs' scores (each 0 to 1)
    for run in runs:
        odds = pair_odds(run)
        count = sum(odds)
        mean = sum(o * a for o, a in zip(odds, PAIR_SCORES, strict=True)) / count
        variance += sum(o * (a - mean) ** 2 for o, a in zip(odds, PAIR_SCORES, strict=True))
    margin = Z95 * math.sqrt(variance) / pairs
    return score, max(0.0, score - margin), min(1.0, score + margin)


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


def _elo_text(score: float) -> str:
    elo = elo_of(score)
    return "−∞" if elo == -math.inf else "+∞" if elo == math.inf else f"{elo:+.0f}".replace("-", "−")


def tables(runs: list[dict[str, Any]], rounds: int = 2000) -> str:
    """The matches and the ladder as the Markdown tables of docs/engine.md."""
    lines = ["| match | games | score | Elo difference (95%) |", "|---|---|---|---|"]
    for match in matches(runs):
        own = [run for run in runs if (run["strong"], run["weak"]) == (match["strong"], match["weak"])]
        score, low, high = match_interval(own)
        games = f"{match['games']}" + (f" ({match['unpaired']} without pairs)" if match["unpaired"] else "")
        lines.append(
            f"| {match['strong']} vs {match['weak']} | {games} | {100 * score:.1f}% |"
            f" {_elo_text(score)} ({_elo_text(low)} to {_elo_text(high)}) |"
        )
    played = [0] * (LEVELS + 1)
    for match in matches(runs):
        played[match["strong"]] += match["games"]
        played[match["weak"]] += match["games"]
    lines += ["", "| level | Elo | 95% interval | games it played |", "|---|---|---|---|"]
    placed = measured(runs)
    for number, (elo, (low, high)) in enumerate(zip(fit(runs), intervals(runs, rounds), strict=True), 1):
        if number == 1:
            lines.append(f"| 1 | {ANCHOR} | (the anchor) | {played[1]} |")
        elif number in placed:
            lines.append(f"| {number} | {elo:.0f} | {low:.0f}–{high:.0f} | {played[number]} |")
        else:
            lines.append(f"| {number} | – | – | {played[number]} |")
    return "\n".join(lines)


def play(
    runs: list[dict[str, Any]],
    strong: int,
    weak: int,
    *,
    pairs: int,
    nodes: int,
    command: tuple[str, ...],
    concurrency: int,
    source: str,
    out: Path | None,
) -> MatchState | None:
    """Play level ``strong`` against ``weak`` until the match has ``pairs`` pairs in ``runs`` (``None``: it had).

    A new run is appended to ``runs`` and grows with every pair finished in
    the book's order (a pair finished before an earlier one waits for it),
    ``out`` rewritten each time, so a run killed outright loses only the
    pairs then under way or waiting."""
    earlier = [run for run in runs if (run["strong"], run["weak"], run["nodes"]) == (strong, weak, nodes)]
    start = max((run["next"] for run in earlier), default=0)
    wanted = pairs - sum(run["games"] for run in earlier) // 2
    if wanted <= 0:
        return None
    run: dict[str, Any] = dict.fromkeys(RUN_KEYS)
    run.update(strong=strong, weak=weak, nodes=nodes, first=start, next=start, games=0, points=0.0)
    run.update(penta=[0] * len(PAIR_SCORES), source=source)
    finished: dict[int, PairResult] = {}

    def on_pair(pair: PairResult, state: MatchState) -> None:
        finished[pair.index] = pair
        grown = False
        while run["next"] in finished:
            done = finished.pop(run["next"])
            run["next"] += 1
            run["games"] += 2
            run["points"] += sum(done.first_points)
            run["penta"][pair_points(*done.first_points)] += 1
            grown = True
        if grown and out is not None:
            save(out, runs)
        print(f"  {state.summary(None)}", flush=True)

    runs.append(run)
    spec = [EngineSpec(f"level {n}", command, (("Level", str(n)), ("Seed", str(n)))) for n in (strong, weak)]
    state = run_match(
        spec[0],
        spec[1],
        Control(nodes=nodes),
        load_book(BOOK),
        pairs=wanted,
        first_pair=start,
        concurrency=concurrency,
        on_pair=on_pair,
    )
    if not run["games"]:
        runs.remove(run)
    if out is not None:
        save(out, runs)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=f"{shlex.quote(sys.executable)} -m cescacs_tui engine")
    parser.add_argument("--nodes", type=int, default=LADDER_NODES, help="the node budget of every move (level 10's)")
    parser.add_argument("--pairs", type=int, default=50, help="play each match until it has this many game pairs")
    parser.add_argument("--gap", type=int, default=1, help="levels between the two of a match")
    parser.add_argument("--levels", default="2-10", help="the stronger levels to play, as FIRST-LAST")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the results, continued (default {RESULTS})")
    parser.add_argument("--source", help="what played the games, kept with them (default: the engine command)")
    parser.add_argument("--fit", action="store_true", help="play nothing: the tables of the results in --out")
    args = parser.parse_args()
    first, _, last = args.levels.partition("-")
    if not (first.isdigit() and (last or first).isdigit()) or args.gap < 1 or args.pairs < 0 or args.nodes < 1:
        parser.error("--levels is FIRST-LAST (or one level), --gap at least 1, --pairs and --nodes not negative")
    try:
        runs = load(args.out)
    except ResultsError as problem:
        parser.error(str(problem))
    command = tuple(shlex.split(args.engine))
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a TERM stops the run like Ctrl+C
    for strong in [] if args.fit else range(max(int(first), 1 + args.gap), int(last or first) + 1):
        weak = strong - args.gap
        state = play(
            runs,
            strong,
            weak,
            pairs=args.pairs,
            nodes=args.nodes,
            command=command,
            concurrency=args.concurrency,
            source=args.source or args.engine,
            out=args.out,
        )
        print(f"level {strong} vs level {weak}: " + (state.summary(None) if state else "played already"), flush=True)
        if state is not None and state.interrupted:
            break
    print(f"\nAt {args.nodes} nodes a move, level 1 anchored at {ANCHOR}:\n")
    print(tables([run for run in runs if run["nodes"] == args.nodes]))


if __name__ == "__main__":
    main()
