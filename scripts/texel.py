"""Texel tuning of the evaluation: quiet positions from fast self-play, labelled by how their game ended.

    python scripts/texel.py play --games 600 --nodes 1500 --out positions.jsonl [--worker 1/2]
    python scripts/texel.py tune positions.jsonl --out tuned.json

``play`` plays the engine against itself from the openings of
scripts/data/openings.txt at a fixed number of nodes a move, varied by up to
a half from game to game (the same games on any machine, and another game
each time an opening comes round again) and writes every *quiet* position after the opening (not in
check, and the quiescence search agrees with the static evaluation: no
capture or promotion pending) with the game's result for White (1, ½, 0).
Games are refereed by the rules core and adjudicated as in
:mod:`cescacs_tui.engine.match`.  ``--worker i/n`` plays every n-th game, so
two processes can share the work.

``tune`` finds the weights whose evaluation best predicts those results: it
minimises the mean squared difference between each result and
``1 / (1 + 10^(-K e / 400))``, ``e`` the static evaluation from White's side
(the method of the Texel engine, P. Österlund).  ``K`` is fitted first, then
held.  The evaluation is not linear in the weights (the middlegame/endgame
blend depends on the material values, the King's shelter on the attackers'),
so each round linearises it (the change of every position's evaluation per
unit of each weight, by finite differences over the real evaluation) and
takes a damped Gauss-Newton step (Levenberg-Marquardt), keeping it only if
the real error falls.  A weak prior (``--prior``) pulls each weight toward
its current value, in units of its size, so weights the games say little
about stay put instead of wandering.  The pawn stays 100 (it sets the
scale), no weight goes below 0, ``mobility`` is not tuned (it costs more than
it gives, see docs/engine.md).  A tenth of the positions, in whole blocks of
consecutive lines (so mostly whole games, whose positions are alike), is
held out: the report shows the error on them before and after, so
overfitting would show.  The result is
a weights file for ``scripts/tune_engine.py verify`` and, above all, for the
SPRT of ``scripts/match.py``, which alone decides whether it is adopted.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Final

from cescacs_tui.core import Position
from cescacs_tui.core.pieces import KING
from cescacs_tui.engine.board import SearchBoard, board_sums
from cescacs_tui.engine.evaluation import Tables, Weights, evaluate_parts
from cescacs_tui.engine.levels import level
from cescacs_tui.engine.match import play_game
from cescacs_tui.engine.players import EnginePlayer
from cescacs_tui.engine.search import Limits, Searcher

BOOK: Final = Path(__file__).resolve().parent / "data" / "openings.txt"
FIXED: Final = frozenset({"pawn", "mobility"})
"""Weights never tuned: the pawn sets the scale; mobility stays off."""
STEP: Final = 4
"""The finite difference (in the weight's units) that measures each weight's effect."""

Sample = tuple[list[int], int, int, float]
"""A position as the tuner keeps it: board codes, castling rights, side to move (0 White), White's result."""


# --- play ---------------------------------------------------------------------------------------


def play(args: argparse.Namespace) -> None:
    worker, workers = (int(x) for x in args.worker.split("/"))
    openings = [line.split() for line in BOOK.read_text().splitlines() if line.strip() and not line.startswith("#")]
    searcher = Searcher(hash_entries=1 << 12)
    written = 0
    started = time.monotonic()
    with Path(args.out).open("a", encoding="utf-8") as out:
        for number in range(worker - 1, args.games, workers):
            position = Position.initial()
            moves = []
            for text in openings[number % len(openings)]:
                move = position.parse_move(text)
                position.push(move)
                moves.append(move)
            opening = tuple(moves)
            # The budget varies a little from game to game: a book opening played again gives another game.
            limits = Limits(nodes=args.nodes + (number * 37) % max(1, args.nodes // 2))
            white = EnginePlayer(limits, level(10), seed=2 * number, label="white")
            black = EnginePlayer(limits, level(10), seed=2 * number + 1, label="black")
            record = play_game(white, black, opening=opening, max_plies=args.max_plies)
            result = record.white_score
            position = Position.initial()
            for ply, move in enumerate(record.moves):
                position.push(move)
                if ply < len(opening) or position.is_check() or not position.has_legal_moves():
                    continue
                board = SearchBoard(position)
                static = board.evaluate()
                if abs(static) <= args.max_score and searcher.quiet_score(board) == static:
                    out.write(json.dumps({"pdtl": position.to_pdtl(), "result": result}) + "\n")
                    written += 1
            out.flush()
            print(
                f"game {number + 1}: {record.result} in {record.plies} plies ({record.reason});"
                f" {written} positions, {time.monotonic() - started:.0f} s",
                flush=True,
            )


# --- tune ---------------------------------------------------------------------------------------


BLOCK: Final = 100
"""Consecutive positions held out together (one or two games)."""


def load(paths: list[str]) -> tuple[list[Sample], list[Sample]]:
    """The positions to fit and those held out (every tenth block of consecutive lines)."""
    training: list[Sample] = []
    held: list[Sample] = []
    for path in paths:
        lines = [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
        for i, line in enumerate(lines):
            row = json.loads(line)
            position = Position.from_pdtl(row["pdtl"])
            sample = (list(position.raw_board), position.rights, int(position.turn), float(row["result"]))
            (held if (i // BLOCK) % 10 == 0 else training).append(sample)
    return training, held


def white_evaluation(tables: Tables, sample: Sample) -> int:
    """The engine's static evaluation of ``sample`` from White's side (its tempo bonus included)."""
    board, rights, turn, _ = sample
    middlegame, endgame, counters, prospects = board_sums(board, tables)
    kings = (board.index(KING), board.index(-KING))
    score = evaluate_parts(tables, middlegame, endgame, counters, prospects, board, kings, rights)
    return score + (tables.weights.tempo if turn == 0 else -tables.weights.tempo)


def evaluations(weights: Weights, samples: list[Sample]) -> list[int]:
    tables = Tables.build(weights)
    return [white_evaluation(tables, sample) for sample in samples]


def sigmoid(k: float, score: float) -> float:
    return 1 / (1 + 10 ** (-k * score / 400))


def error(k: float, scores: list[int] | list[float], samples: list[Sample]) -> float:
    return sum((s[3] - sigmoid(k, e)) ** 2 for e, s in zip(scores, samples, strict=True)) / len(samples)


def fit_k(scores: list[int], samples: list[Sample]) -> float:
    """The scaling constant that best fits the current evaluation (golden-section search)."""
    low, high = 0.05, 5.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if error(a, scores, samples) < error(b, scores, samples):
            high = b
        else:
            low = a
    return (low + high) / 2


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are a few dozen unknowns)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(a[r][column]))
        a[column], a[pivot] = a[pivot], a[column]
        if abs(a[column][column]) < 1e-12:
            continue
        for r in range(column + 1, n):
            factor = a[r][column] / a[column][column]
            if factor:
                for c in range(column, n + 1):
                    a[r][c] -= factor * a[column][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(a[r][r]) >= 1e-12:
            x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def with_values(weights: Weights, names: list[str], values: list[float]) -> Weights:
    return replace(weights, **{n: max(0, round(v)) for n, v in zip(names, values, strict=True)})


def tune(args: argparse.Namespace) -> None:
    training, validation = load(args.positions)
    start = Weights()
    weights = start
    names = [n for n in Weights.names() if n not in FIXED]
    scale = [max(abs(getattr(start, n)), 20) for n in names]
    prior = args.prior * len(training)
    started = time.monotonic()
    scores = evaluations(weights, training)
    k = fit_k(scores, training)

    def objective(candidate: Weights, candidate_scores: list[int]) -> float:
        moved = zip(names, scale, strict=True)
        pull: float = sum(((getattr(candidate, n) - getattr(start, n)) / s) ** 2 for n, s in moved)
        weight: float = args.prior
        return error(k, candidate_scores, training) + weight * pull

    best = objective(weights, scores)
    before = error(k, evaluations(weights, validation), validation)
    print(
        f"{len(training)} positions to fit, {len(validation)} held out; K = {k:.3f};"
        f" error {error(k, scores, training):.5f} (held out {before:.5f})"
    )
    damping = args.damping
    for round_number in range(1, args.rounds + 1):
        values = [float(getattr(weights, n)) for n in names]
        columns = []
        for name in names:
            nudged = replace(weights, **{name: getattr(weights, name) + STEP})
            columns.append([(b - a) / STEP for a, b in zip(scores, evaluations(nudged, training), strict=True)])
        # Gauss-Newton on r_i = result_i - sigmoid(K e_i): J_ij = sigmoid' K de_i/dw_j, plus the prior's terms.
        n = len(names)
        normal = [[0.0] * n for _ in range(n)]
        gradient = [-prior * (v - getattr(start, name)) / s**2 for v, name, s in zip(values, names, scale, strict=True)]
        factor = k * math.log(10) / 400
        for i, sample in enumerate(training):
            p = sigmoid(k, scores[i])
            slope = p * (1 - p) * factor
            row = [slope * columns[j][i] for j in range(n)]
            residual = sample[3] - p
            for j in range(n):
                rj = row[j]
                if rj:
                    gradient[j] += rj * residual
                    line = normal[j]
                    for m in range(j, n):
                        line[m] += rj * row[m]
        for j in range(n):
            normal[j][j] += prior / scale[j] ** 2
            for m in range(j):
                normal[j][m] = normal[m][j]
        while True:
            damped = [row[:] for row in normal]
            for j in range(n):
                damped[j][j] += damping * (normal[j][j] + 1e-9)
            delta = solve(damped, gradient)
            candidate = with_values(weights, names, [v + d for v, d in zip(values, delta, strict=True)])
            candidate_scores = evaluations(candidate, training)
            candidate_objective = objective(candidate, candidate_scores)
            if candidate_objective < best:
                weights, scores, best = candidate, candidate_scores, candidate_objective
                damping = max(damping / 3, 1e-4)
                break
            damping *= 4
            if damping > 1e6:
                break
        held_error = error(k, evaluations(weights, validation), validation)
        print(
            f"round {round_number}: error {error(k, scores, training):.5f} (held out {held_error:.5f}),"
            f" damping {damping:.3g}, {time.monotonic() - started:.0f} s",
            flush=True,
        )
        if args.out:
            Path(args.out).write_text(json.dumps({n: getattr(weights, n) for n in names}, indent=1) + "\n")
        if damping > 1e6:
            break
    print("\nchanged weights (start -> tuned):")
    for name in names:
        if getattr(start, name) != getattr(weights, name):
            print(f"    {name}: {getattr(start, name)} -> {getattr(weights, name)}")
    print(json.dumps(asdict(weights)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    games = sub.add_parser("play", help="self-play games, their quiet positions written with the result")
    games.add_argument("--games", type=int, default=600)
    games.add_argument("--nodes", type=int, default=1500, help="nodes a move")
    games.add_argument("--max-plies", type=int, default=300)
    games.add_argument("--max-score", type=int, default=3000, help="positions evaluated beyond this are left out")
    games.add_argument("--worker", default="1/1", help="i/n: play every n-th game starting with the i-th")
    games.add_argument("--out", required=True)
    games.set_defaults(run=play)
    fit = sub.add_parser("tune", help="fit the weights to the positions' results")
    fit.add_argument("positions", nargs="+", help="files written by play")
    fit.add_argument("--prior", type=float, default=2e-5, help="pull toward the current weights")
    fit.add_argument("--rounds", type=int, default=6)
    fit.add_argument("--damping", type=float, default=0.1)
    fit.add_argument("--out", help="a JSON file of the tuned weights")
    fit.set_defaults(run=tune)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
