"""A stored game as the rules core sees it: replayed move by move, its clock, and its CTL-PGN record.

The storage keeps a game's moves as the record writes them (canonical
CTL-AN) and its state (whose draw offer waits, the clocks, the deadline, the
result); the rules core decides everything else: :func:`replay` plays the
moves again in a :class:`~cescacs_tui.core.game.Game`, so a new move is
judged in the real position, with its history (repetitions, the fifty-move
rule) and its endings (mate, stalemate, the automatic draws).

Both kinds of game are timed by the core's :class:`~cescacs_tui.core.clock.ChessClock`
on the moments the storage recorded: a live game by its time control, the
clock starting with White's first move as it does on a board; a
correspondence game of N days per move as a per-move control of N days
(``[TimeControl "*259200"]`` for three), so its deadline is when the turn
began plus N days.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..core.clock import ChessClock, ClockKind, TimeControl
from ..core.game import ANNOTATOR, VARIANT, Game
from ..core.outcome import UNFINISHED, Ending, Outcome
from ..core.pieces import BLACK, WHITE, Colour
from .model import GameKind, StoredGame, StoredMove

__all__ = [
    "CORRESPONDENCE_DAYS",
    "DAY",
    "ReplayError",
    "Timing",
    "after_move",
    "correspondence_control",
    "flagged",
    "record_tags",
    "replay",
    "start_timing",
    "time_control",
]

DAY: Final = 86_400
CORRESPONDENCE_DAYS: Final = range(1, 11)
"""Days a move may take in a correspondence game (a ``TimeControl`` tag holds at most 999,999 seconds)."""


class ReplayError(Exception):
    """A stored game the rules core cannot replay (a damaged database): the game is not touched."""


def correspondence_control(days: int) -> TimeControl:
    """N days per move, as the record's per-move time control."""
    return TimeControl(ClockKind.PER_MOVE, float(days * DAY))


def time_control(game: StoredGame) -> TimeControl:
    """The game's time control, from its ``TimeControl`` tag."""
    return TimeControl.from_tag(game.time_control)


def record_tags(game: StoredGame, *, site: str, server: str) -> dict[str, str]:
    """The record's tags (NOTATION.md 7): the roster, then the server's own.

    ``Mode`` is ``ICS`` (a chess server), both players are people
    (``WhiteType``, ``BlackType``), the program that checked every move is the
    first ``Annotator`` and ``AnnotatorId`` names this server, which published
    the record; ``site`` is the ``Site`` tag.
    """
    day = (game.started or game.created).astimezone(datetime.UTC).date()
    return {
        "Variant": VARIANT,
        "Event": "CG",
        "Site": site,
        "Date": day.isoformat(),
        "Round": "-",
        "White": game.white_name or "?",
        "Black": game.black_name or "?",
        "Result": game.result,
        "Annotator": ANNOTATOR,
        "AnnotatorId": server,
        "Mode": "ICS",
        "WhiteType": "human",
        "BlackType": "human",
        "TimeControl": game.time_control,
    }


def replay(game: StoredGame, moves: Sequence[StoredMove], *, site: str = "?", server: str = "?") -> Game:
    """The game in the rules core: its moves played again (their clocks and draw offers kept), its pending
    offer and its stored ending.  Raises :class:`ReplayError` if a stored move is not legal where it stands."""
    core = Game(tags=record_tags(game, site=site, server=server))
    for stored in moves:
        try:
            node = core.play(core.position.parse_move(stored.move), offer_draw=stored.draw_offer)
        except Exception as error:  # any refusal of the core: the stored game is damaged
            raise ReplayError(f"game {game.id}, half-move {stored.ply} ({stored.move}): {error}") from None
        node.clock = stored.clock
    core.draw_offered_by = game.draw_offer
    if game.over and core.outcome is None:
        core.set_recorded_outcome(Outcome.recorded(game.result, _ending(game.ending)))
    elif game.result == UNFINISHED and core.outcome is not None:
        raise ReplayError(f"game {game.id} is under way, but its moves end it ({core.termination})")
    return core


def _ending(value: str | None) -> Ending:
    try:
        return Ending(value or "")
    except ValueError:
        return Ending.RECORDED


@dataclass(frozen=True)
class Timing:
    """A game's clocks after a move: the mover's time left (``None`` for correspondence, which has no
    ``[%clk]``), both sides' times, and the deadline of the side now to move."""

    mover_left: float | None
    white: float | None
    black: float | None
    deadline: datetime.datetime | None


def start_timing(kind: GameKind, control: TimeControl, now: datetime.datetime) -> Timing:
    """The clocks of a game that starts at ``now``: a live game's wait for White's first move; a
    correspondence game's first deadline is ``now`` plus its days."""
    if kind is GameKind.CORRESPONDENCE:
        return Timing(None, None, None, now + datetime.timedelta(seconds=control.base))
    return Timing(None, control.base, control.base, None)


def after_move(game: StoredGame, control: TimeControl, now: datetime.datetime) -> Timing | None:
    """The clocks after the side to move moves at ``now``, or ``None`` if its time ran out first."""
    mover = game.to_move
    moment = [now.timestamp()]
    clock = ChessClock(control, time_source=lambda: moment[0])
    clock.set_remaining(
        control.base if game.white_clock is None else game.white_clock,
        control.base if game.black_clock is None else game.black_clock,
    )
    first_live_move = game.kind is GameKind.LIVE and game.ply == 0
    if not first_live_move and game.turn_started is not None:
        moment[0] = game.turn_started.timestamp()
    clock.start(mover)
    moment[0] = now.timestamp()
    if clock.check_flag() is not None:
        return None
    left = clock.press()
    until_flag = clock.seconds_until_flag()
    deadline = None if until_flag is None else now + datetime.timedelta(seconds=until_flag)
    if game.kind is GameKind.CORRESPONDENCE:
        return Timing(None, None, None, deadline)
    return Timing(left, clock.remaining(WHITE), clock.remaining(BLACK), deadline)


def flagged(game: StoredGame, now: datetime.datetime) -> Colour | None:
    """The side to move, if its deadline has passed at ``now``."""
    if game.deadline is not None and now >= game.deadline:
        return game.to_move
    return None
