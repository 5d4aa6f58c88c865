"""Tune the evaluation weights by self-play (SPSA), then check the result in a match.

    python scripts/tune_engine.py spsa --iterations 200 --nodes 1500 --out tuned.json
    python scripts/tune_engine.py verify tuned.json --pairs 20 --nodes 1500
    python scripts/tune_engine.py verify tuned.json --pairs 10 --movetime 300

``spsa`` is the simultaneous-perturbation method engine testers use: each
iteration plays one game pair (the same opening with both colours) between
the weights nudged up and down along a random sign vector, and moves every
weight in proportion to the result.  Games are played at a fixed number of
nodes per move, so the machine's load does not bias them.  ``verify`` plays
the weights of a file against the built-in ones (the material values are
not tuned here: ``scripts/texel.py`` fits them).  Every game is refereed by the rules core.

Both commands print one line per game pair or match, so a long run in the
background (``nice``) can be followed with ``tail -f``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Final

from cescacs_tui.engine.evaluation import Tables, Weights
from cescacs_tui.engine.match import play_game, play_match, random_opening
from cescacs_tui.engine.players import EnginePlayer
from cescacs_tui.engine.search import Limits

STEPS: Final[dict[str, float]] = {
    "centre_pawn": 2,
    "centre_elephant": 2,
    "centre_knight": 4,
    "centre_bishop": 2,
    "centre_pegasus": 3,
    "centre_rook": 2,
    "centre_wyvern": 2,
    "centre_queen": 2,
    "centre_endgame": 2,
    "pawn_advance": 2,
    "pawn_advance_endgame": 3,
    "promotion_near": 100,
    "promotion_two": 50,
    "promotion_three": 20,
    "awaiting": 50,
    "bishop_pair": 15,
    "bishop_trio": 25,
    "bad_bishop": 2,
    "king_home": 5,
    "king_centre_endgame": 4,
    "king_shelter": 5,
    "kings_leap": 12,
    "castling_rook": 4,
    "tempo": 5,
}
"""The tuned weights and the size of their perturbation (centipawns); the material values are left alone."""


def weights_from(values: dict[str, float], base: Weights) -> Weights:
    return replace(base, **{name: max(0, round(value)) for name, value in values.items()})


def player(weights: Weights, limits: Limits, seed: int, label: str) -> EnginePlayer:
    return EnginePlayer(limits, tables=Tables.build(weights), seed=seed, label=label)


def spsa(args: argparse.Namespace) -> None:
    base = Weights()
    theta = {name: float(getattr(base, name)) for name in STEPS}
    if args.start:
        theta.update({k: float(v) for k, v in json.loads(Path(args.start).read_text()).items() if k in STEPS})
    rng = random.Random(args.seed)
    limits = Limits(nodes=args.nodes)
    total = 0.0
    started = time.perf_counter()
    for k in range(1, args.iterations + 1):
        c = 1.0 / (k**0.101)
        a = args.rate / ((k + args.iterations / 10) ** 0.602) * (1 + args.iterations / 10) ** 0.602
        signs = {name: rng.choice((-1, 1)) for name in STEPS}
        plus = {n: theta[n] + c * STEPS[n] * signs[n] for n in STEPS}
        minus = {n: theta[n] - c * STEPS[n] * signs[n] for n in STEPS}
        opening = random_opening(rng, args.opening_plies)
        score = 0.0  # for "plus", -1..1 over the pair
        for plus_is_white in (True, False):
            up = player(weights_from(plus, base), limits, k, "plus")
            down = player(weights_from(minus, base), limits, k, "minus")
            white, black = (up, down) if plus_is_white else (down, up)
            record = play_game(white, black, opening=opening, max_plies=args.max_plies)
            plus_points = record.white_score if plus_is_white else 1 - record.white_score
            score += plus_points - 0.5
        total += score
        for name in STEPS:
            theta[name] += a * STEPS[name] * score * signs[name]
            theta[name] = max(0.0, theta[name])
        elapsed = time.perf_counter() - started
        print(
            f"iteration {k:4d}: pair {score:+.1f}  ({elapsed / k:5.1f} s a pair)  "
            + " ".join(f"{name}={theta[name]:.1f}" for name in STEPS),
            flush=True,
        )
        if args.out:
            Path(args.out).write_text(json.dumps({n: round(v, 2) for n, v in theta.items()}, indent=1) + "\n")
    final = weights_from(theta, base)
    print("\nchanged weights (paste into Weights):")
    for name in STEPS:
        old, new = getattr(base, name), getattr(final, name)
        if old != new:
            print(f"    {name}: int = {new}  # was {old}")


def verify(args: argparse.Namespace) -> None:
    values = json.loads(Path(args.weights).read_text())
    base = Weights() if not args.against else weights_from(json.loads(Path(args.against).read_text()), Weights())
    unknown = set(values) - set(Weights.names())
    if unknown:
        raise SystemExit(f"unknown weights in {args.weights}: {', '.join(sorted(unknown))}")
    tuned = weights_from(values, Weights())
    limits = Limits(nodes=args.nodes) if args.movetime is None else Limits(movetime=args.movetime / 1000)
    started = time.perf_counter()
    result = play_match(
        player(tuned, limits, 1, "tuned"),
        player(base, limits, 2, "base"),
        args.pairs,
        seed=args.seed,
        max_plies=args.max_plies,
        on_game=lambda g: print(f"  {g.white} - {g.black}: {g.result} ({g.reason}, {g.plies} plies)", flush=True),
    )
    score = result.score
    games = len(result.games)
    margin = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / games)
    print(f"{result.summary()} ±{100 * margin:.0f}% (95%), {time.perf_counter() - started:.0f} s")
    changed = {
        k: (getattr(base, k), getattr(tuned, k)) for k in Weights.names() if getattr(base, k) != getattr(tuned, k)
    }
    print("weights that differ (base -> tuned): " + ", ".join(f"{k} {a}->{b}" for k, (a, b) in changed.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"score": score, "games": games, "weights": asdict(tuned)}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tune = sub.add_parser("spsa", help="tune by SPSA self-play")
    tune.add_argument("--iterations", type=int, default=200)
    tune.add_argument("--nodes", type=int, default=1500, help="nodes a move")
    tune.add_argument("--rate", type=float, default=0.6, help="initial step, in perturbation sizes per full point")
    tune.add_argument("--start", help="a JSON file of weights to start from")
    tune.add_argument("--out", help="write the current weights here after every iteration")
    tune.set_defaults(run=spsa)
    check = sub.add_parser("verify", help="a match of a weights file against the built-in weights")
    check.add_argument("weights")
    check.add_argument("--against", help="another weights file instead of the built-in weights")
    check.add_argument("--pairs", type=int, default=20)
    check.add_argument("--nodes", type=int, default=1500)
    check.add_argument("--movetime", type=int, default=None, help="milliseconds a move instead of nodes")
    check.add_argument("--json", help="write the result here")
    check.set_defaults(run=verify)
    for command in (tune, check):
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--max-plies", type=int, default=240)
        command.add_argument("--opening-plies", type=int, default=4)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
