"""The coordinate drill: as many hexes as the player can name or pick in a minute.

Three kinds: the board highlights a hex and the player types its name (:attr:`DrillKind.NAME`); a hex is named
and the player picks it on the board (:attr:`DrillKind.PICK`); or, in words, a hex and a direction are named and
the player names the hex one step that way (:attr:`DrillKind.STEP`: along a column the lines step by two).  The
clock is injected (a function returning seconds), so a test plays a whole round without waiting; the random
source too, so a round can be replayed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..core.geometry import COLUMN, DIAGONAL_DIRECTIONS, HEX_COUNT, LINE, ORTHOGONAL_DIRECTIONS, hex_at

__all__ = ["DRILL_SECONDS", "Drill", "DrillKind", "Question"]

DRILL_SECONDS: Final = 60.0
"""How long a round lasts."""
STEPS: Final = ORTHOGONAL_DIRECTIONS + DIAGONAL_DIRECTIONS
"""The twelve one-step directions a :attr:`DrillKind.STEP` question may name (RULES.md 3.1 and 3.2)."""


class DrillKind(StrEnum):
    NAME = "name"
    """A hex is highlighted: type its name."""
    PICK = "pick"
    """A hex is named: pick it on the board."""
    STEP = "step"
    """A hex and a direction are named: name the hex one step that way."""


@dataclass(frozen=True)
class Question:
    """What the player must find: ``answer``; for a step, from ``origin`` by ``step`` (a column and line offset)."""

    answer: int
    origin: int | None = None
    step: tuple[int, int] | None = None


class Drill:
    """One round after another of one kind of drill; :meth:`start` begins a round."""

    def __init__(
        self,
        kind: DrillKind,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        seconds: float = DRILL_SECONDS,
    ) -> None:
        self.kind = kind
        self.clock = clock
        self.rng = rng or random.Random()
        self.seconds = seconds
        self.started: float | None = None
        self.score = 0
        self.misses = 0
        self.question = self._ask(None)

    def start(self) -> None:
        """A new round: the clock starts, the score is 0."""
        self.started = self.clock()
        self.score = self.misses = 0
        self.question = self._ask(None)

    @property
    def left(self) -> float:
        """Seconds left in the round (the whole round before it starts)."""
        if self.started is None:
            return self.seconds
        return max(0.0, self.seconds - (self.clock() - self.started))

    @property
    def running(self) -> bool:
        return self.started is not None and self.left > 0

    def answer(self, h: int | None) -> bool:
        """The player's answer (``None``: a name that is no hex); whether it is right.  A right answer scores and
        asks the next question; a wrong one counts a miss and asks the same again.  Once the time is up, the
        answer counts for nothing (:attr:`running` is false)."""
        if not self.running:
            return False
        if h == self.question.answer:
            self.score += 1
            self.question = self._ask(self.question)
            return True
        self.misses += 1
        return False

    def _ask(self, previous: Question | None) -> Question:
        """A question on another hex than ``previous``'s."""
        while True:
            h = self.rng.randrange(HEX_COUNT)
            if previous is not None and h in (previous.answer, previous.origin):
                continue
            if self.kind is not DrillKind.STEP:
                return Question(h)
            step = self.rng.choice(STEPS)
            target = hex_at(COLUMN[h] + step[0], LINE[h] + step[1])
            if target is not None:
                return Question(target, h, step)
