"""A review without the engine: the planted blunder's game, judged by fixed scores, and analyses that a test paces."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cescacs_tui.core.game import Game
from cescacs_tui.learn.review import Evaluation, PlyReview, Review, judge

PLANTED = ("G7-G13", "H22-H16", "JF4-K16", "I23-K22", "DE1-I13", "H16×DI13")
"""White's Queen goes where a pawn takes it, for nothing (ply 5)."""
BLUNDER_PLY = 5


def planted() -> Game:
    game = Game.new(white="Planted", black="Blunder")
    for text in PLANTED:
        game.play_text(text)
    return game


def planted_plies(game: Game) -> list[PlyReview]:
    """Every move level, but ply 5 a blunder (+1.42 before, -13.70 after) with H6-H10 better."""
    plies = []
    for ply, node in enumerate(game.nodes, 1):
        position = game.position_at(ply - 1)
        if ply == BLUNDER_PLY:
            plies.append(judge(game, ply, Evaluation(142), [position.parse_move("H6-H10")], Evaluation(-1370)))
        else:
            plies.append(judge(game, ply, Evaluation(10), [node.move], Evaluation(10)))
    return plies


async def instant_review(
    game: Game, on_progress: Callable[[int, int], None], on_ply: Callable[[PlyReview], None]
) -> Review:
    """The planted review, all at once."""
    plies = planted_plies(game)
    for done, ply in enumerate(plies, 2):
        on_ply(ply)
        on_progress(done, len(plies) + 1)
    return Review(tuple(plies), 0.5)


class PacedReview:
    """The planted review, one half-move each time the test calls :meth:`step`; it knows when it was cancelled."""

    def __init__(self) -> None:
        self.steps: asyncio.Queue[None] = asyncio.Queue()
        self.cancelled = False
        self.started = False

    def step(self, count: int = 1) -> None:
        for _ in range(count):
            self.steps.put_nowait(None)

    async def __call__(
        self, game: Game, on_progress: Callable[[int, int], None], on_ply: Callable[[PlyReview], None]
    ) -> Review:
        self.started = True
        plies = planted_plies(game)
        try:
            for done, ply in enumerate(plies, 2):
                await self.steps.get()
                on_ply(ply)
                on_progress(done, len(plies) + 1)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return Review(tuple(plies), 0.5)
