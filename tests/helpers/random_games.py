"""Random legal games for property tests: hypothesis picks a start and the move at every ply.

The starts are the initial position and positions met in the reference games
and rule vectors, so that promotions, castling and special captures come up.
"""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cescacs_tui.core import INITIAL_PDTL, Position
from tests.helpers.reference import POSITIONS, RULE_VECTORS

__all__ = ["STARTS", "budget", "random_game"]

STARTS = [INITIAL_PDTL] + [row["pdtl"] for row in RULE_VECTORS] + [row["pdtl"] for row in POSITIONS[::7]]


def budget(examples: int) -> settings:
    """Few examples, no deadline: each test stays well under 20 s on a slow machine."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def random_game(data: st.DataObject, plies: int) -> Iterator[Position]:
    """Yield the position after each ply of a random legal game (the same object, mutated)."""
    castling = data.draw(st.booleans(), label="castling option")
    position = Position.from_pdtl(data.draw(st.sampled_from(STARTS), label="start"), castling=castling)
    yield position
    for _ in range(plies):
        moves = position.legal_tuples()  # no Move built for the moves not chosen
        if not moves:
            return
        position.push(moves[data.draw(st.integers(0, len(moves) - 1), label="move index")])
        yield position
