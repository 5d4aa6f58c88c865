"""Engine matches: games between two players, refereed by the rules core's :class:`Game`.

The referee is the same game model the app uses, so every move a player
returns is checked for legality (an illegal one raises) and the game ends by
the rules (mate, stalemate, fivefold repetition, the seventy-five-move rule,
insufficient material).  Two adjudications keep matches finite: a side ahead
by a crushing material margin for a while wins, and a game reaching the ply
cap is decided by material (or drawn when close).

Openings are a few random plies from the start, each played twice with the
colours swapped, so a match measures the players, not the first move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ..core.game import Game
from ..core.move import Move
from ..core.outcome import Ending, Outcome
from ..core.pieces import BLACK, WHITE
from ..core.position import Position
from .evaluation import DEFAULT_TABLES
from .players import Player

CRUSHING: Final = 2_000
"""Material margin (centipawns) at which a game is adjudicated when it lasts (a Queen and a Rook's worth, about)."""
CRUSHING_PLIES: Final = 12
"""For how many consecutive plies the margin must hold."""
CLOSE: Final = 300
"""At the ply cap, a material margin below this is a draw."""


@dataclass(frozen=True)
class GameRecord:
    """One finished match game."""

    white: str
    black: str
    outcome: Outcome
    """How it ended; an adjudication is a resignation (or an agreed draw) with a note saying why."""
    plies: int
    moves: tuple[Move, ...]

    @property
    def result(self) -> str:
        """Points White-Black, as a record writes them."""
        return self.outcome.result

    @property
    def reason(self) -> str:
        return self.outcome.reason

    @property
    def white_score(self) -> float:
        """1 for a White win (mate, stalemate or adjudication), 0.5 a draw, 0 a loss."""
        winner = self.outcome.winner
        return 0.5 if winner is None else (1.0 if winner == WHITE else 0.0)


@dataclass
class MatchResult:
    """The games of a match between ``first`` and ``second``, from ``first``'s side."""

    first: str
    second: str
    games: list[GameRecord] = field(default_factory=list)

    def score_of(self, record: GameRecord) -> float:
        return record.white_score if record.white == self.first else 1.0 - record.white_score

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if self.score_of(g) == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if self.score_of(g) == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if self.score_of(g) == 0.0)

    @property
    def score(self) -> float:
        """``first``'s share of the points, 0-1 (a win 1, a draw 0.5)."""
        return sum(self.score_of(g) for g in self.games) / len(self.games) if self.games else 0.0

    def summary(self) -> str:
        return (
            f"{self.first} vs {self.second}: +{self.wins} ={self.draws} -{self.losses}"
            f" ({100 * self.score:.0f}% of {len(self.games)} games)"
        )


def material_balance(position: Position) -> int:
    """White's material minus Black's, in centipawns (the engine's material values)."""
    values = DEFAULT_TABLES.values
    return sum(values[abs(code) + 9] * (1 if code > 0 else -1) for code in position.raw_board if code)


def play_game(
    white: Player,
    black: Player,
    start: Position | None = None,
    *,
    max_plies: int = 300,
    opening: tuple[Move, ...] = (),
    crushing: int | None = CRUSHING,
) -> GameRecord:
    """Play one game (after the ``opening`` moves) and return how it ended.

    ``crushing=None`` turns the material adjudication off (the game goes on to mate or the ply cap).
    """
    game = Game(start or Position.initial())
    for move in opening:
        game.play(move)
    for player in (white, black):
        player.new_game()
    lead_plies = 0
    while game.outcome is None:
        position = game.position
        if game.ply >= max_plies:
            balance = material_balance(position)
            note = f"adjudicated at the ply cap ({balance:+d} cp)"
            if abs(balance) < CLOSE:
                outcome = Outcome(Ending.AGREEMENT, note=note)
            else:
                outcome = Outcome(Ending.RESIGNATION, WHITE if balance > 0 else BLACK, note=note)
            return GameRecord(white.name, black.name, outcome, game.ply, tuple(game.moves))
        mover = white if position.turn == WHITE else black
        move = mover.choose(game.start, game.moves)
        game.play(move)  # raises on an illegal move: the referee's check
        balance = material_balance(game.position)
        lead_plies = lead_plies + 1 if crushing is not None and abs(balance) >= crushing else 0
        if lead_plies >= CRUSHING_PLIES and game.outcome is None:
            note = f"adjudicated: {balance:+d} cp for {CRUSHING_PLIES} plies"
            outcome = Outcome(Ending.RESIGNATION, WHITE if balance > 0 else BLACK, note=note)
            return GameRecord(white.name, black.name, outcome, game.ply, tuple(game.moves))
    return GameRecord(white.name, black.name, game.outcome, game.ply, tuple(game.moves))


def random_opening(rng: random.Random, plies: int, start: Position | None = None) -> tuple[Move, ...]:
    """``plies`` random legal moves from ``start`` that leave a game going."""
    while True:
        position = (start or Position.initial()).copy()
        moves: list[Move] = []
        for _ in range(plies):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            position.push(move)
            moves.append(move)
        if len(moves) == plies and position.has_legal_moves():
            return tuple(moves)


def play_match(
    first: Player,
    second: Player,
    pairs: int,
    *,
    seed: int = 1,
    opening_plies: int = 4,
    max_plies: int = 300,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """``pairs`` openings, each played with ``first`` as White then as Black."""
    rng = random.Random(seed)
    match = MatchResult(first.name, second.name)
    for _ in range(pairs):
        opening = random_opening(rng, opening_plies)
        for white, black in ((first, second), (second, first)):
            record = play_game(white, black, opening=opening, max_plies=max_plies)
            match.games.append(record)
            if on_game is not None:
                on_game(record)
    return match


__all__ = ["GameRecord", "MatchResult", "material_balance", "play_game", "play_match", "random_opening"]
