"""One table of actions: the key bindings, the footer, the command palette and the help all come from it."""

from __future__ import annotations

from collections import Counter

import pytest
from textual.binding import Binding
from textual.widgets import Footer

from cescacs_tui.core.game import Game
from cescacs_tui.session import ACTIONS, GameSession, Scope
from cescacs_tui.session.actions import PICKS, keys_label
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.help import help_plain
from cescacs_tui.tui.screens.game import GameScreen
from cescacs_tui.tui.widgets.message_line import MessageLine
from tests.helpers.app import message
from tests.helpers.games import FOOLS_MATE, annotated, play


def test_every_action_is_named_once_and_every_key_is_bound_once() -> None:
    names = [action.name for action in ACTIONS.values()]
    assert len(names) == len(set(names))
    keys = Counter(key for action in ACTIONS.values() if action.keys for key in action.keys.split(","))
    assert [key for key, count in keys.items() if count > 1] == []


@pytest.mark.parametrize("action", list(ACTIONS.values()), ids=list(ACTIONS))
def test_every_action_has_something_that_does_it(action) -> None:
    if action.scope is Scope.SESSION:
        assert callable(getattr(GameSession, action.name))
    elif action.name in PICKS:  # a piece's letter: the screen picks that kind of piece
        assert callable(GameScreen.pick_piece)
    else:
        assert callable(getattr(GameScreen, f"action_{action.name}"))


def test_the_screens_bindings_are_generated_from_the_table() -> None:
    bound = {b.id: b for b in GameScreen.BINDINGS if isinstance(b, Binding)}
    with_keys = {name: action for name, action in ACTIONS.items() if action.keys}
    assert set(bound) == set(with_keys)
    for name, action in with_keys.items():
        binding = bound[name]
        assert (binding.key, binding.description, binding.show) == (action.keys, action.label, action.footer)
        assert binding.action == f"perform('{name}')"


async def test_the_palette_lists_every_action_of_the_table_with_its_keys() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
        for action in ACTIONS.values():
            assert action.title in commands
            if action.keys:
                assert commands[action.title].endswith(f"({keys_label(action.keys)})")


def test_the_help_page_lists_every_key_of_the_table() -> None:
    text = help_plain()
    for action in ACTIONS.values():
        if action.keys and action.name not in PICKS:
            assert f"  {keys_label(action.keys):<18}{action.label}\n" in text
    letters = " ".join(ACTIONS[name].keys for name in PICKS)
    assert f"  {letters} Pick a piece by its letter (again: the next one)\n" in text


async def test_a_key_hidden_from_the_footer_still_says_why_it_does_nothing() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("c")  # claim a draw: hidden while there are no grounds
        assert "no draw to claim" in message(app)
        await pilot.press("u")  # take back at the start
        assert message(app) == "no move to take back: this is the start of the game"


async def test_a_palette_command_that_cannot_act_says_why() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Claim a draw"].callback()
        await pilot.pause()
        assert "no draw to claim" in message(app)


async def test_the_footer_fits_80_columns_in_every_state_of_the_game() -> None:
    """The footer shows the board's Select and the table's footer actions; even with all of them it fits."""
    app = CescacsApp(annotated())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("[")  # a commented move with variations: follow and takeback both shown
        await pilot.pause()
        keys = [key for key in app.query_one(Footer).children if key.display]
        labels = [getattr(key, "description", "") for key in keys]
        assert labels[0] == "Select" and "Variation" in labels and "Takeback" in labels
        assert "Cancel" not in labels  # Esc is announced where a selection is made
        assert sum(key.outer_size.width for key in keys) <= 80


def _refusal_states() -> dict[str, Game]:
    """Games in which many actions cannot act: the start, after one move, after a mate."""
    one_move, mate = Game.new(), Game.new()
    play(one_move, "E7-E13")
    play(mate, *FOOLS_MATE)
    return {"start": Game.new(), "one move": one_move, "mate": mate}


REFUSED = [
    (state, name)
    for state, game in _refusal_states().items()
    for name, action in ACTIONS.items()
    if GameSession(game).refusal(name) is not None and action.keys != "escape"
]
"""Every action that cannot act in those games.  Esc is left out: on the board it also cancels a selection, and a
bare Esc stays silent rather than saying "no variation is being followed" after every Esc out of the move box."""


@pytest.mark.parametrize("way", ["key", "palette"])
@pytest.mark.parametrize("state", sorted({state for state, _ in REFUSED}))
async def test_every_key_and_palette_command_that_cannot_act_says_why(state: str, way: str) -> None:
    """One app per game and way, every refused action in turn (an app's start was most of this file's CPU): a
    refusal leaves the game as it was, so each later one is still asked of the same game; the line is emptied
    before each, so a reason left by the one before cannot pass for its own."""
    game = _refusal_states()[state]
    session = GameSession(game)
    names = [name for refused_in, name in REFUSED if refused_in == state]
    said: dict[str, str] = {}
    app = CescacsApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        line = app.query_one("#message", MessageLine)
        for name in names:
            line.say("")
            if way == "key":
                await pilot.press(ACTIONS[name].keys.split(",")[0])
            else:
                commands = {command.title: command for command in app.get_system_commands(app.screen)}
                commands[ACTIONS[name].title].callback()
            await pilot.pause()
            said[name] = message(app)
    assert said == {name: session.refusal(name) for name in names}


@pytest.mark.parametrize("size", [(80, 24), (200, 50)], ids=["80x24", "200x50"])
async def test_a_reason_too_long_for_the_line_is_shown_whole_in_a_notification(size: tuple[int, int]) -> None:
    reason = GameSession().refusal("claim_draw")
    assert reason is not None and len(reason) > 80  # the claim's counts come last
    app = CescacsApp()
    shown: list[str] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.notify = lambda text, **options: shown.append(text)  # type: ignore[method-assign]
        await pilot.press("c")
        await pilot.pause()
        assert message(app) == reason
        fits = app.screen.query_one("#message").content_region.width >= len(reason)
        assert shown == ([] if fits else [reason])
        await pilot.press("u")  # a short reason: the line holds it
        await pilot.pause()
        assert shown == ([] if fits else [reason])


@pytest.mark.parametrize(
    ("language", "named"),
    [("en", ["Enter", "Esc", "Home", "Shift+Tab", "Ctrl+s", "}"]),
     ("ca", ["Retorn", "Esc", "Inici", "Maj+Tab", "Ctrl+s", "}"]),
     ("es", ["Intro", "Esc", "Inicio", "Mayús+Tab", "Ctrl+s", "}"])],
)  # fmt: skip
def test_key_names_are_the_keyboards_words_of_the_interfaces_language(language: str, named: list[str]) -> None:
    from cescacs_tui import i18n
    from cescacs_tui.session.actions import key_name

    i18n.set_language(language)
    try:
        keys = ["enter", "escape", "home", "shift+tab", "ctrl+s", "right_curly_bracket"]
        assert [key_name(key) for key in keys] == named
        assert "Retorn" not in help_plain() or language == "ca"
    finally:
        i18n.set_language("en")


def test_the_help_names_the_board_keys_in_catalan() -> None:
    from cescacs_tui import i18n

    i18n.set_language("ca")
    try:
        text = help_plain()
        assert "Inici" in text and "Retorn" in text and "  Home " not in text
    finally:
        i18n.set_language("en")
