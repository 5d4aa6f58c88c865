"""Preferences in the app: themes, piece set, layout, auto-flip and new-game defaults persist."""

from __future__ import annotations

from pathlib import Path

from cescacs_tui.core import BLACK, WHITE, parse_hex
from cescacs_tui.data.settings import Settings
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.board_layout import cursor_step
from cescacs_tui.tui.dialogs.help import help_plain
from cescacs_tui.tui.dialogs.new_game import NewGameDialog
from cescacs_tui.tui.themes import known_themes


async def test_theme_and_piece_set_changes_are_saved(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    app = CescacsApp(settings_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.theme == "cescacs-dark"
        await pilot.press("T")
        assert app.theme == "cescacs-light"
        await pilot.press("g")
        assert app.board.piece_set == "fan"
        await pilot.press("L")
        assert app.board.layout_mode == "full"
    saved = Settings.load(path, themes=known_themes())
    assert (saved.theme, saved.piece_set, saved.board_layout) == ("cescacs-light", "fan", "full")
    again = CescacsApp(settings=saved)
    async with again.run_test(size=(120, 40)):
        assert again.theme == "cescacs-light"
        assert again.board.piece_set == "fan" and again.board.layout_mode == "full"


async def test_auto_flip_turns_the_board_to_the_side_to_move() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F")
        assert app.settings.auto_flip and not app.board.flipped
        await pilot.press("slash", *"e7-e13", "enter")
        assert app.game.position.turn == BLACK and app.board.flipped
        await pilot.press(*"e21-e15", "enter")
        assert app.game.position.turn == WHITE and not app.board.flipped


async def test_with_auto_flip_each_side_keeps_its_own_cursor() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F")
        await pilot.pause()
        await pilot.press("slash", *"f14", "enter")  # White looks at the centre, then plays by typing
        assert app.board.cursor == parse_hex("F14")
        await pilot.press(*"e7-e13", "enter")
        await pilot.pause()
        assert app.board.cursor == app.game.position.king(BLACK)  # Black's cursor starts on its King
        await pilot.press(*"b20", "enter", *"e21-e15", "enter")
        await pilot.pause()
        assert app.board.cursor == parse_hex("E13")  # White's cursor is on the piece White moved last
        await pilot.press(*"f8-f12", "enter")
        await pilot.pause()
        assert app.board.cursor == parse_hex("E15")  # Black's too: it moved after it looked at B20


async def test_new_game_dialog_uses_and_remembers_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    app = CescacsApp(settings=Settings(white="Ana", time_control="600+5"), settings_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.game.tags["White"] == "Ana" and app.game.time_control.to_tag() == "600+5"
        await pilot.press("n")
        assert isinstance(app.screen, NewGameDialog)
        black = app.screen.query_one("#black")
        black.value = "Bru"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameDialog)
        assert (app.game.tags["White"], app.game.tags["Black"]) == ("Ana", "Bru")
    assert Settings.load(path).black == "Bru"


async def test_unusable_settings_are_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "no-such-theme"\npiece_set = 7\n', encoding="utf-8")
    settings = Settings.load(path)
    app = CescacsApp(settings=settings)
    async with app.run_test(size=(120, 40)):
        assert app.theme == "cescacs-dark"
        assert len(settings.problems) == 2


async def test_resizing_the_terminal_re_lays_out_the_board_live() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.board.mode == "full"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.board.mode == "compact"
        assert app.query_one("#side").region.right <= 80 and app.query_one("#moves").region.height >= 3
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert app.board.mode == "large"  # from 160x50 the large hexes fit


async def test_the_players_keys_rebind_actions_and_board_keys_and_every_word_that_names_them() -> None:
    settings = Settings(keys={"takeback": "z", "board.up": "w", "no_such_action": "x"})
    app = CescacsApp(settings=settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter")
        app.board.focus()
        await pilot.pause()
        await pilot.press("u")
        assert app.game.ply == 1  # u is no longer the takeback
        assert app.screen.active_bindings["z"].binding.id == "takeback"  # the footer shows z
        await pilot.press("z")
        assert app.game.ply == 0
        start = app.board.cursor
        await pilot.press("w")
        assert app.board.cursor == cursor_step(start, "up", {}, mode=app.board.mode)
        assert app.session.how("takeback") == "z"
        assert "z" in help_plain(app.game_screen.keys).split("Takeback")[0].splitlines()[-1]
        shown = [n.message for n in app._notifications]
        assert "[keys] 'no_such_action': no action or board key has that name; ignored" in shown
        app.game_screen.action_vim_keys()  # the vim keys come under the player's own: l moves, k does not
        await pilot.pause()
        before = app.board.cursor
        await pilot.press("k")
        assert app.board.cursor == before
        await pilot.press("l")
        assert app.board.cursor == cursor_step(before, "right", {}, mode=app.board.mode)
        assert app.settings.vim_keys
