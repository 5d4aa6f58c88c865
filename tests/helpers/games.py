"""Model games and records the tests play and read."""

from __future__ import annotations

from pathlib import Path

from cescacs_tui.core import read_pgn
from cescacs_tui.core.game import Game

GAMES = Path(__file__).parent.parent / "data" / "games"

FOOLS_MATE = [
    "H6-H12", "I23-I19", "JF6-C15", "GH26-Z11", "L5-L7", "NG25-L17",
    "EH4-H8", "GZ11-L5", "I5-I9", "NL17-G9", "K4-K10", "GL5-H6#",
]  # fmt: skip
"""The main line of the website's model game "Fool's mate" (Cescacs-X01)."""

KNIGHT_SHUFFLE = ["NG3-H8", "NG25-H20", "NH8-G3", "NH20-G25"]
"""Four half-moves that bring the start position back."""


def play(game: Game, *moves: str) -> None:
    for text in moves:
        game.play_text(text)


def record_text(name: str) -> str:
    """A record of tests/data/games without its ``# source:`` line (where it was found), which is not part of it."""
    first, _, rest = (GAMES / name).read_text(encoding="utf-8").partition("\n")
    assert first.startswith("# source:")
    return rest


def record(name: str) -> Game:
    """The first game of a record of tests/data/games."""
    return read_pgn(record_text(name))[0]


def annotated() -> Game:
    """The site's fool's mate with comments and variations."""
    return record("site-en_fools-mate_Cescacs-X01-V-en.txt")
