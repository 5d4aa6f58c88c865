"""Every action a player can take, once: its keys, its words, and when it cannot act.

The app's key bindings, its footer, its command palette and its help page are
all generated from :data:`ACTIONS`, so an action is never listed twice and
the four can never disagree.  Each action's ``refusal`` says, in words, why
it cannot act now (``None`` when it can): a key pressed at the wrong moment
explains itself instead of doing nothing.

An action of :attr:`Scope.SESSION` is the :class:`GameSession` method of the
same name; one of :attr:`Scope.SCREEN` is something only a screen can do
(flip the board, show the help, copy to the clipboard), which the front end
implements.  Keys are Textual key names, comma-separated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, auto
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .game_session import GameSession

__all__ = ["ACTIONS", "Action", "Scope", "key_name", "keys_label", "press"]


class Scope(Enum):
    SESSION = auto()
    """The session's method of the same name does it."""
    SCREEN = auto()
    """The front end does it (it touches only the screen, the clipboard or the settings)."""


Refusal = Callable[["GameSession"], "str | None"]


def _never(session: GameSession) -> str | None:
    return None


@dataclass(frozen=True)
class Action:
    """One thing a player can do.

    ``label`` is the short name in the footer and the help; ``title`` and
    ``help`` are the command palette's; ``footer`` puts it in the footer,
    ``only_when_possible`` shows it there only while it can act (the keys of
    such an action still say why when pressed).
    """

    name: str
    keys: str
    label: str
    title: str
    help: str
    scope: Scope
    refusal: Refusal = _never
    footer: bool = False
    only_when_possible: bool = False


# --- why not now ----------------------------------------------------------------------


def _variation_shown(session: GameSession) -> str | None:
    top = session.variations.top
    if top is None:
        return None
    return f"{top.describe()} is on the board: {session.how('leave_variation')} returns to the game"


def _game_over(session: GameSession) -> str | None:
    game = session.game
    return f"the game is over ({game.termination})" if game.is_over else None


def _reviewing(session: GameSession) -> str | None:
    live = session.how("review_live")
    return None if session.game.is_live else f"you are reviewing an earlier move: {live} returns to the live position"


def _first(*checks: Refusal) -> Refusal:
    """The first reason any of ``checks`` gives."""

    def refusal(session: GameSession) -> str | None:
        for check in checks:
            if (reason := check(session)) is not None:
                return reason
        return None

    return refusal


def _over_until_taken_back(session: GameSession) -> str | None:
    if (over := _game_over(session)) is None:
        return None
    return f"{over}: {session.how('takeback')} takes back a move, {session.how('new_game')} starts a new game"


def no_move_now(session: GameSession) -> str | None:
    """Why no move can be played now (a variation is shown, an earlier move reviewed, the game over), or ``None``."""
    return _first(_variation_shown, _reviewing, _over_until_taken_back)(session)


def _no_move_to_take_back(session: GameSession) -> str | None:
    return None if session.game.nodes else "no move to take back: this is the start of the game"


def _nothing_to_redo(session: GameSession) -> str | None:
    return None if session.game.can_redo else "nothing to redo: no move has been taken back"


def _no_offer_now(session: GameSession) -> str | None:
    game = session.game
    if not game.nodes:
        offer = session.how("offer_draw")
        return f"a draw is offered with a move: make yours, then offer it: {offer} (or type the move with (=))"
    last = game.nodes[-1]
    if game.draw_offered_by is not None:
        return f"{game.draw_offered_by.title}'s draw offer is waiting for an answer"
    if last.draw_offer or session.offered_with is last:
        return f"{last.colour.title} has already offered a draw with {last.san}"
    return None


def _no_grounds_for_a_claim(session: GameSession) -> str | None:
    status = session.game.claim_status()
    return None if status.claimable else status.explain()


def _no_clock(session: GameSession) -> str | None:
    return None if session.game.clock is not None else "this game has no clock"


def _at_start(session: GameSession) -> str | None:
    return "this is already the start of the game" if session.shown.cursor == 0 else None


def _at_live_end(session: GameSession) -> str | None:
    shown = session.shown
    return "this is already the last move played" if shown.is_live else None


def _nothing_to_follow(session: GameSession) -> str | None:
    if session.variations.can_follow(session.game):
        return None
    return "the record gives no other line instead of the move shown"


def _in_no_variation(session: GameSession) -> str | None:
    return None if session.variations else "no variation is being followed"


_S = Scope.SESSION
_U = Scope.SCREEN

_TABLE: Final = (
    Action("help", "question_mark", "Help", "Help", "Keys and the CTL-AN move syntax", _U, footer=True),
    Action("focus_input", "slash,colon", "Type move", "Type a move", "Go to the CTL-AN move box", _U, footer=True),
    Action("flip", "f", "Flip", "Flip the board", "Show the board from the other side", _U, footer=True),
    Action(
        "takeback", "u", "Takeback", "Take back", "Undo the last half-move", _S,
        _first(_variation_shown, _no_move_to_take_back), footer=True, only_when_possible=True,
    ),
    Action(
        "redo", "U", "Redo", "Redo", "Replay a taken-back half-move", _S,
        _first(_variation_shown, _nothing_to_redo, _game_over),
    ),
    Action(
        "offer_draw", "o", "Offer draw", "Offer a draw", "Offer a draw with the move just made", _S,
        _first(_variation_shown, _game_over, _reviewing, _no_offer_now),
    ),
    Action(
        "claim_draw", "c", "Claim draw", "Claim a draw", "Threefold repetition or the fifty-move rule", _S,
        _first(_variation_shown, _game_over, _reviewing, _no_grounds_for_a_claim), footer=True, only_when_possible=True,
    ),
    Action(
        "resign", "R", "Resign", "Resign", "The player to move resigns (asks first)", _S,
        _first(_variation_shown, _game_over),
    ),
    Action("new_game", "n", "New", "New game", "Start a new game: names, clock, options", _U),
    Action(
        "cycle_overlays", "t", "Overlays", "Overlays", "Cycle: attacked hexes, threatened pieces, both, none", _S,
    ),
    Action(
        "pause_clock", "p", "Pause clock", "Pause or resume the clock", "Stop or restart the running clock", _S,
        _first(_no_clock, _game_over),
    ),
    Action("copy_pgn", "y", "Copy PGN", "Copy game (CTL-PGN)", "Copy the record to the clipboard, also over SSH", _U,
           footer=True),
    Action("copy_pdtl", "Y", "Copy PDTL", "Copy position (PDTL)", "Copy the position shown to the clipboard", _U),
    Action("view_record", "v", "View record", "View record", "Show the CTL-PGN text, to copy it by hand", _U),
    Action("save", "ctrl+s", "Save", "Save game", "Save the game as a .ctl-pgn file", _U),
    Action("open", "ctrl+o", "Open", "Open game", "Open a .ctl-pgn record", _U),
    Action(
        "review_back", "left_square_bracket", "Back", "Review: back", "Show the position one half-move earlier", _S,
        _at_start,
    ),
    Action(
        "review_forward", "right_square_bracket", "Forward", "Review: forward",
        "Show the position one half-move later", _S, _at_live_end,
    ),
    Action("review_start", "left_curly_bracket", "Start", "Review: start", "Show the start position", _S, _at_start),
    Action(
        "review_live", "right_curly_bracket", "Live", "Review: live position",
        "Back to the position where play goes on", _S, _at_live_end,
    ),
    Action(
        "follow_variation", "i", "Variation", "Follow a variation",
        "Step into a line the record gives instead of the move shown (again: the next one)", _S,
        _nothing_to_follow, footer=True, only_when_possible=True,
    ),
    Action(
        "leave_variation", "escape", "Leave variation", "Leave the variation",
        "Back to the line the variation left", _S, _in_no_variation,
    ),
    Action("next_theme", "T", "Theme", "Next theme", "Dark, light, or 16 ANSI colours for basic terminals", _U),
    Action(
        "piece_set", "g", "Piece set", "Piece set",
        "Letters, CTL-FAN glyphs, or glyphs with letters for Pegasus and Wyvern", _U,
    ),
    Action("board_layout", "L", "Board layout", "Board layout", "Automatic, full hexes, or compact", _U),
    Action(
        "auto_flip", "F", "Auto-flip", "Auto-flip", "Turn the board to the side to move after each move (hot seat)",
        _U,
    ),
    Action(
        "vim_keys", "", "Vim keys", "Vim keys",
        "h j k l and y u b n move the cursor on the board (they then leave u, y, n to the board)", _U,
    ),
)  # fmt: skip

ACTIONS: Final[Mapping[str, Action]] = MappingProxyType({action.name: action for action in _TABLE})
"""Every action by name, in the order the help page and the palette list them."""


_KEY_NAMES: Final = {
    "question_mark": "?", "slash": "/", "colon": ":", "left_square_bracket": "[", "right_square_bracket": "]",
    "left_curly_bracket": "{", "right_curly_bracket": "}", "space": "Space", "enter": "Enter",
    "escape": "Esc", "up": "↑", "down": "↓", "left": "←", "right": "→", "home": "Home", "end": "End",
    "pageup": "PgUp", "pagedown": "PgDn", "tab": "Tab", "shift+tab": "Shift+Tab",
}  # fmt: skip


def key_name(key: str) -> str:
    """A Textual key name as a person reads it (``"right_curly_bracket"`` → ``"}"``)."""
    return _KEY_NAMES.get(key, key.replace("ctrl+", "Ctrl+"))


def keys_label(keys: str) -> str:
    """Textual key names, comma-separated, as a person reads them (``"slash,colon"`` → ``"/, :"``)."""
    return ", ".join(key_name(k) for k in keys.split(","))


def press(action: str) -> str:
    """How the app's keyboard does ``action``: its first key (``"}"``), or the command palette's title."""
    entry = ACTIONS[action]
    return key_name(entry.keys.split(",")[0]) if entry.keys else f"{entry.title} (Ctrl+P)"
