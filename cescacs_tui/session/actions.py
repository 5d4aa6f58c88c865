"""Every action a player can take, once: its keys, its words, and when it cannot act.

The app's key bindings, its footer, its command palette and its help page are
all generated from :data:`ACTIONS`, so an action is never listed twice and
the four can never disagree.  Each action's ``refusal`` says, in words, why
it cannot act now (``None`` when it can): a key pressed at the wrong moment
explains itself instead of doing nothing.

An action of :attr:`Scope.SESSION` is the :class:`GameSession` method of the
same name; one of :attr:`Scope.SCREEN` is something only a screen can do
(flip the board, show the help, copy to the clipboard), which the front end
implements.  Keys are Textual key names, comma-separated: the table's are
the defaults, which a front end's keymap (the player's ``[keys]`` setting)
may change; :func:`keys_of` and :func:`press` read both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, auto
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ..i18n import N_, NC_, _, pgettext
from .policy import Need
from .terms import capitalised, say, side, termination

if TYPE_CHECKING:
    from .game_session import GameSession

__all__ = ["ACTIONS", "NO_KEYMAP", "Action", "Keymap", "Scope", "key_name", "keys_label", "keys_of", "press"]


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
    ``help`` are the command palette's (all three are English message ids,
    marked with ``N_``: front ends show them through ``_()``, so a language
    switch takes effect at the next redraw); ``footer`` puts it in the footer,
    ``only_when_possible`` shows it there only while it can act (the keys of
    such an action still say why when pressed); ``needs`` is what it takes
    from the machine the app runs on.
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
    needs: frozenset[Need] = frozenset()
    """What it needs from the machine the app runs on: the launch's :class:`~.policy.Policy` decides whether and
    how the person at the keyboard gets it (a visitor of a server is not its owner)."""


# --- why not now ----------------------------------------------------------------------


def _variation_shown(session: GameSession) -> str | None:
    top = session.variations.top
    if top is None:
        return None
    return _("{variation} is on the board: {key} returns to the game").format(
        variation=top.describe(), key=session.how("leave_variation")
    )


def _game_over(session: GameSession) -> str | None:
    game = session.game
    return _("the game is over ({reason})").format(reason=termination(game)) if game.is_over else None


def _reviewing(session: GameSession) -> str | None:
    live = session.how("review_live")
    if session.game.is_live:
        return None
    return _("you are reviewing an earlier move: {key} returns to the live position").format(key=live)


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
    return _("{reason}: {takeback} takes back a move, {new} starts a new game").format(
        reason=over, takeback=session.how("takeback"), new=session.how("new_game")
    )


def computer_thinking(session: GameSession) -> str | None:
    """Why a player cannot act while the computer thinks, or ``None`` when it is not its turn."""
    if not session.computer_to_move:
        return None
    return _("the computer is thinking: wait for its move, or take yours back with {key}").format(
        key=session.how("takeback")
    )


def computer_plays_on(session: GameSession) -> str | None:
    """Why no draw can be offered to the computer, or ``None`` when the opponent is a person."""
    return _("the computer plays on: it takes no draw offers") if session.against_computer else None


def no_move_now(session: GameSession) -> str | None:
    """Why no move can be played now (the computer is thinking, a variation is shown, an earlier move reviewed,
    the game over), or ``None``."""
    return _first(computer_thinking, _variation_shown, _reviewing, _over_until_taken_back)(session)


def _blocked(session: GameSession) -> str | None:
    """Why no move can be played now, as the session's port says (a joined game has reasons of its own)."""
    return session.blocked()


def _no_hint_shown(session: GameSession) -> str | None:
    if session.hinted is not None:
        return None
    return _("no hint on the board for this position: {key} asks the engine for one").format(key=session.how("hint"))


def _no_position_to_search(session: GameSession) -> str | None:
    """Why the engine cannot look at the position shown now: the computer is busy with its move, or it has none."""
    if (thinking := computer_thinking(session)) is not None:
        return thinking
    if not session.shown.reviewed_position().has_legal_moves():
        return _("there is no move to look for in this position")
    return None


def _no_move_to_take_back(session: GameSession) -> str | None:
    return None if session.game.nodes else _("no move to take back: this is the start of the game")


def _nothing_to_redo(session: GameSession) -> str | None:
    return None if session.game.can_redo else _("nothing to redo: no move has been taken back")


def _no_offer_now(session: GameSession) -> str | None:
    game = session.game
    if not game.nodes:
        offer = session.how("offer_draw")
        return _("a draw is offered with a move: make yours, then offer it: {key} (or type the move with (=))").format(
            key=offer
        )
    last = game.nodes[-1]
    if game.draw_offered_by is not None:
        return _("the draw offer of {side} is waiting for an answer").format(side=side(game.draw_offered_by))
    if last.draw_offer or session.offered_with is last:
        return capitalised(
            _("{side} has already offered a draw with {move}").format(side=side(last.colour), move=last.san)
        )
    return None


def _no_grounds_for_a_claim(session: GameSession) -> str | None:
    status = session.game.claim_status()
    return None if status.claimable else say(status.explanation())


def _no_clock(session: GameSession) -> str | None:
    return None if session.game.clock is not None else _("this game has no clock")


def _at_start(session: GameSession) -> str | None:
    return _("this is already the start of the game") if session.shown.cursor == 0 else None


def _at_live_end(session: GameSession) -> str | None:
    shown = session.shown
    return _("this is already the last move played") if shown.is_live else None


def _nothing_to_follow(session: GameSession) -> str | None:
    if session.variations.can_follow(session.game):
        return None
    return _("the record gives no other line instead of the move shown")


def _in_no_variation(session: GameSession) -> str | None:
    return None if session.variations else _("no variation is being followed")


_S = Scope.SESSION
_U = Scope.SCREEN

_TABLE: Final = (
    Action("help", "question_mark", N_("Help"), N_("Help"), N_("Keys and the CTL-AN move syntax"), _U, footer=True),
    Action(
        "focus_input", "slash,colon", N_("Type move"), N_("Type a move"), N_("Go to the CTL-AN move box"), _U,
        footer=True,
    ),
    Action("flip", "f", N_("Flip"), N_("Flip the board"), N_("Show the board from the other side"), _U, footer=True),
    Action(
        "takeback", "u", N_("Takeback"), N_("Take back"), N_("Undo the last half-move"), _S,
        _first(_variation_shown, _no_move_to_take_back), footer=True, only_when_possible=True,
    ),
    Action(
        "redo", "U", N_("Redo"), N_("Redo"), N_("Replay a taken-back half-move"), _S,
        _first(_variation_shown, _nothing_to_redo, _game_over),
    ),
    Action(
        "offer_draw", "o", N_("Offer draw"), N_("Offer a draw"), N_("Offer a draw with the move just made"), _S,
        _first(_variation_shown, _game_over, computer_plays_on, _reviewing, _no_offer_now),
    ),
    Action(
        "claim_draw", "c", N_("Claim draw"), N_("Claim a draw"), N_("Threefold repetition or the fifty-move rule"),
        _S, _first(_variation_shown, _game_over, computer_thinking, _reviewing, _no_grounds_for_a_claim), footer=True,
        only_when_possible=True,
    ),
    Action(
        "resign", "R", N_("Resign"), N_("Resign"), N_("The player to move resigns (asks first)"), _S,
        _first(_variation_shown, _game_over),
    ),
    Action(
        "new_game", "n", N_("New"), N_("New game"), N_("Start a new game: names, clock, options"), _U,
        needs=frozenset({Need.SETTINGS}),
    ),
    # The engine's keys: h (H too, for players whose vim keys give h to the board); A for the analysis, since a is
    # the board's down-left step.
    Action(
        "hint", "h,H", N_("Hint"), N_("Hint"), N_("The engine's best move here, shown on the board, with its score"),
        _U, _no_position_to_search, footer=True, needs=frozenset({Need.ENGINE}),
    ),
    Action(
        "play_hint", "x", N_("Play hint"), N_("Play the hint"), N_("Play the move the last hint shows on the board"),
        _S, _first(_blocked, _no_hint_shown),
    ),
    Action(
        "analysis", "A", N_("Analysis"), N_("Analysis panel"),
        N_("Show or hide the engine's live analysis of the position shown: score, depth, best line"), _U,
        needs=frozenset({Need.ENGINE}),
    ),
    Action(
        "explain", "E", N_("Explain"), N_("Explain the position"),
        N_("Say in words what the position shows: the check, the pieces under attack, what the last move threatened"),
        _U,
    ),
    Action(
        "lessons", "", N_("Lessons"), N_("Lessons"),
        N_("Short lessons, one per piece and special rule, each with a task on the board (Esc returns to the game)"),
        _U, needs=frozenset({Need.PROGRESS}),
    ),
    Action(
        "cycle_overlays", "t", N_("Overlays"), N_("Overlays"),
        N_("Cycle: attacked hexes, threatened pieces, both, none"), _S,
    ),
    Action(
        "pause_clock", "p", N_("Pause clock"), N_("Pause or resume the clock"),
        N_("Stop or restart the running clock"), _S, _first(_no_clock, _game_over),
    ),
    Action(
        "archive", "G", N_("Archive"), N_("Archived games"),
        N_("The finished games kept in the archive, newest first: type to filter, Enter opens one for review"), _U,
        needs=frozenset({Need.ARCHIVE}),
    ),
    Action(
        "copy_pgn", "y", N_("Copy PGN"), N_("Copy game (CTL-PGN)"),
        N_("Copy the record to the clipboard, also over SSH"), _U, footer=True, needs=frozenset({Need.CLIPBOARD}),
    ),
    Action(
        "copy_pdtl", "Y", N_("Copy PDTL"), N_("Copy position (PDTL)"), N_("Copy the position shown to the clipboard"),
        _U, needs=frozenset({Need.CLIPBOARD}),
    ),
    Action(
        "view_record", "v", N_("View record"), N_("View record"), N_("Show the CTL-PGN text, to copy it by hand"), _U,
    ),
    Action(
        "save", "ctrl+s", N_("Save"), N_("Save game"), N_("Save the game as a .ctl-pgn file"), _U,
        needs=frozenset({Need.RECORD_OUT}),
    ),
    Action(
        "open", "ctrl+o", N_("Open"), N_("Open game"), N_("Open a .ctl-pgn record"), _U,
        needs=frozenset({Need.RECORD_IN}),
    ),
    Action(
        "screenshot", "", N_("Screenshot"), N_("Screenshot"), N_("Save an SVG picture of the screen"), _U,
        needs=frozenset({Need.SCREENSHOT}),
    ),
    Action(
        "review_back", "left_square_bracket", N_("Back"), N_("Review: back"),
        N_("Show the position one half-move earlier"), _S, _at_start,
    ),
    Action(
        "review_forward", "right_square_bracket", N_("Forward"), N_("Review: forward"),
        N_("Show the position one half-move later"), _S, _at_live_end,
    ),
    Action(
        "review_start", "left_curly_bracket", N_("Start"), N_("Review: start"), N_("Show the start position"), _S,
        _at_start,
    ),
    Action(
        "review_live", "right_curly_bracket", N_("Live"), N_("Review: live position"),
        N_("Back to the position where play goes on"), _S, _at_live_end,
    ),
    Action(
        "follow_variation", "i", N_("Variation"), N_("Follow a variation"),
        N_("Step into a line the record gives instead of the move shown (again: the next one)"), _S,
        _nothing_to_follow, footer=True, only_when_possible=True,
    ),
    Action(
        "leave_variation", "escape", N_("Leave variation"), N_("Leave the variation"),
        N_("Back to the line the variation left"), _S, _in_no_variation,
    ),
    Action(
        "next_theme", "T", N_("Theme"), N_("Next theme"), N_("Dark, light, or 16 ANSI colours for basic terminals"),
        _U, needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "piece_set", "g", N_("Piece set"), N_("Piece set"),
        N_("Letters, CTL-FAN glyphs, or glyphs with letters for Pegasus and Wyvern"), _U,
        needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "board_layout", "L", N_("Board layout"), N_("Board layout"), N_("Automatic, full hexes, or compact"), _U,
        needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "auto_flip", "F", N_("Auto-flip"), N_("Auto-flip"),
        N_("Turn the board to the side to move after each move (hot seat)"), _U, needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "bell", "", N_("Bell"), N_("Bell on the opponent's moves"),
        N_("Ring the terminal's bell when the computer or a player elsewhere has moved (off by default)"), _U,
        needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "vim_keys", "", N_("Vim keys"), N_("Vim keys"),
        N_("h j k l and y u b n move the cursor on the board (they then leave u, y, n to the board)"), _U,
        needs=frozenset({Need.SETTINGS}),
    ),
    Action(
        "language", "", N_("Language"), N_("Language: Català, Español, English"),
        N_("The language of the interface (saved in the settings)"), _U, needs=frozenset({Need.SETTINGS}),
    ),
)  # fmt: skip

ACTIONS: Final[Mapping[str, Action]] = MappingProxyType({action.name: action for action in _TABLE})
"""Every action by name, in the order the help page and the palette list them."""


_KEY_NAMES: Final = {
    "question_mark": "?", "slash": "/", "colon": ":", "left_square_bracket": "[", "right_square_bracket": "]",
    "left_curly_bracket": "{", "right_curly_bracket": "}", "up": "↑", "down": "↓", "left": "←", "right": "→",
}  # fmt: skip
"""Keys shown as the character or arrow they are, the same in every language."""
KEY_WORD_CONTEXT: Final = "key name"
_KEY_WORDS: Final = {
    "space": NC_("key name", "Space"), "enter": NC_("key name", "Enter"), "escape": NC_("key name", "Esc"),
    "home": NC_("key name", "Home"), "end": NC_("key name", "End"), "pageup": NC_("key name", "PgUp"),
    "pagedown": NC_("key name", "PgDn"), "tab": NC_("key name", "Tab"), "shift": NC_("key name", "Shift"),
    "ctrl": NC_("key name", "Ctrl"),
}  # fmt: skip
"""Keys shown by a word, as the keyboards of the interface's language name them (Retorn, Intro; Maj, Mayús)."""


def key_name(key: str) -> str:
    """A Textual key name as a person reads it in the interface's language (``"right_curly_bracket"`` → ``"}"``,
    ``"ctrl+s"`` → ``"Ctrl+s"``, ``"enter"`` → ``"Retorn"`` in Catalan)."""
    *modifiers, base = key.split("+")
    named = _KEY_NAMES.get(base) or (pgettext(KEY_WORD_CONTEXT, _KEY_WORDS[base]) if base in _KEY_WORDS else base)
    words = [pgettext(KEY_WORD_CONTEXT, _KEY_WORDS[m]) if m in _KEY_WORDS else m for m in modifiers]
    return "+".join([*words, named])


def keys_label(keys: str) -> str:
    """Textual key names, comma-separated, as a person reads them (``"slash,colon"`` → ``"/, :"``)."""
    return ", ".join(key_name(k.strip()) for k in keys.split(","))


Keymap = Mapping[str, str]
"""Keys (Textual key names, comma-separated) by action name: the player's, over the table's."""
NO_KEYMAP: Final[Keymap] = MappingProxyType({})


def keys_of(action: str, keymap: Keymap = NO_KEYMAP) -> str:
    """The keys of ``action``: the keymap's, else the table's (``""``: none; such an action has no binding to
    rebind, and is reached through the command palette)."""
    keys = ACTIONS[action].keys
    return keymap.get(action, keys) if keys else ""


def press(action: str, keymap: Keymap = NO_KEYMAP) -> str:
    """How the app's keyboard does ``action``: its first key (``"}"``), or the command palette's title."""
    keys = keys_of(action, keymap)
    return key_name(keys.split(",")[0]) if keys else f"{_(ACTIONS[action].title)} (Ctrl+P)"
