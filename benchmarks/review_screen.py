"""The review screen's figures: keys pressed while the engine reviews a game in the app, and how fast each is seen.

python benchmarks/review_screen.py                  # the longest reference game, first 100 half-moves, 0.5 s each
python benchmarks/review_screen.py --plies 40 --movetime 0.2

The app runs headless (Textual's pilot) with the real engine; while the
review runs, ``→`` or ``←`` is delivered every 100 ms to the app, as its
terminal driver delivers keys, and the time until the eval graph has chosen
the next half-move (its panel is updated in the same handler) is taken: what a
player waits for a key, the engine searching all along (issue 27: every key
answered within a frame, the engine never blocking the UI).  The machine's
load is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from textual import events

from benchmarks.review import first_plies, longest_reference_game
from cescacs_tui.data.settings import Settings
from cescacs_tui.learn import DEFAULT_MOVETIME
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.screens.review import ReviewScreen

PRESS_EVERY = 0.1


async def measure(plies: int, movetime: float) -> tuple[float, list[float], int]:
    """The review's wall time, each key's time until it is shown (seconds), and the half-moves judged by the end."""
    game = first_plies(longest_reference_game(), plies)
    app = CescacsApp(game, settings=Settings(review_seconds=movetime))
    waits: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        began = time.perf_counter()
        await pilot.press("r")
        while not isinstance(app.screen, ReviewScreen):
            await asyncio.sleep(0.01)
        screen = app.screen
        step = 1
        while screen.running:
            chosen = screen.graph.chosen
            if chosen >= game.ply:
                step = -1
            elif chosen <= 1:
                step = 1
            key = "right" if step > 0 else "left"
            pressed = time.perf_counter()
            app.post_message(events.Key(key, None))  # as the terminal's driver delivers it (the pilot's own waits
            while screen.graph.chosen == chosen:  # for the app to seem idle would be counted too)
                await asyncio.sleep(0.001)
            waits.append(time.perf_counter() - pressed)
            await asyncio.sleep(PRESS_EVERY)
        elapsed = time.perf_counter() - began
        judged = len(screen.plies)
    return elapsed, waits, judged


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--movetime", type=float, default=DEFAULT_MOVETIME)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f}")
    elapsed, waits, judged = asyncio.run(measure(args.plies, args.movetime))
    print(f"review of {judged} half-moves at {args.movetime:g} s a position, in the app: {elapsed:.1f} s")
    print(
        f"{len(waits)} keys pressed meanwhile, each shown after: median {statistics.median(waits) * 1000:.0f} ms, "
        f"worst {max(waits) * 1000:.0f} ms"
    )
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
