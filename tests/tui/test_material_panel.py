"""The recoverable-pieces panel: one letter case per side, Bishops by the tone of their hexes, tidy wrapping."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from textual.app import App, ComposeResult

from cescacs_tui.core.game import Game
from cescacs_tui.tui.widgets.panels import HEX_TONES, MaterialPanel, material_rows, material_table
from scripts.screenshots import middlegame
from tests.helpers.games import play


def test_each_side_in_its_own_letter_case_and_bishops_by_tone():
    rows = material_rows(middlegame())
    assert rows == [
        ("White", "", ""),
        ("", "regain:", "J(light)"),
        ("", "lost:", "P P P E E J"),
        ("Black", "", ""),
        ("", "regain:", "n"),
        ("", "lost:", "p p n e e"),
        ("Balance", "", "even"),  # each side lost 10 points
    ]
    for _, _, pieces in rows[1:3]:
        assert pieces.replace("(light)", "").upper() == pieces.replace("(light)", "")
    for _, _, pieces in rows[4:6]:
        assert pieces.lower() == pieces


def test_the_tones_cannot_be_read_as_a_side():
    assert HEX_TONES == ("light", "dark", "mid")
    assert not {"white", "black"} & {word.lower() for word in HEX_TONES}


def test_nothing_to_regain_or_lost_at_the_start():
    assert [pieces for _, label, pieces in material_rows(Game.new()) if label] == ["nothing"] * 4


def test_a_long_list_wraps_under_itself():
    console = Console(width=18, color_system=None, record=True)
    console.print(material_table(material_rows(middlegame())))
    text = console.export_text().splitlines()
    start = text[2].index("P")  # where White's lost pieces begin
    labels = ("regain", "lost", "White", "Black", "Balance")
    continued = [line for line in text if line and not line.lstrip().startswith(labels)]
    assert continued, text  # 18 cells are too few for one line of lost pieces
    assert all(len(line) - len(line.lstrip()) == start for line in continued), text


def test_the_balance_is_the_official_values_of_the_pieces_on_the_board():
    from cescacs_tui.core.pieces import VALUES, PieceType
    from cescacs_tui.tui.widgets.panels import balance_words, material_balance

    assert material_balance(Game.new().position) == 0 and balance_words(0) == "even"
    game = middlegame()
    lost = {"White": "P P P E E J", "Black": "p p n e e"}
    letters = {"P": PieceType.PAWN, "E": PieceType.ELEPHANT, "J": PieceType.BISHOP, "N": PieceType.KNIGHT}
    white_lost = sum(VALUES[letters[x]] for x in lost["White"].split())
    black_lost = sum(VALUES[letters[x.upper()]] for x in lost["Black"].split())
    assert material_balance(game.reviewed_position()) == black_lost - white_lost  # what each lost, the other is up
    assert balance_words(-2) == "Black +2"


class PanelApp(App[None]):
    """The material panel in a narrow column, where long lists of pieces wrap."""

    CSS = "MaterialPanel { width: 21; }"

    def compose(self) -> ComposeResult:
        yield MaterialPanel()


async def test_the_screen_is_laid_out_again_only_when_the_table_changes_height(monkeypatch):
    """A capture changes a list of pieces, seldom the table's height: a repaint, not a layout of the screen."""
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(MaterialPanel)
        panel.show_game(Game.new())
        await pilot.pause()
        height = panel.size.height
        layouts: list[object] = []
        laid_out = app.screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            layouts.append(args)
            laid_out(*args, **kwargs)

        monkeypatch.setattr(app.screen, "_refresh_layout", counted)
        game = Game.new()
        play(game, "E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13×F16")  # a Pawn lost: "nothing" becomes "p"
        panel.show_game(game)
        await pilot.pause()
        assert "p" in [pieces for _, label, pieces in material_rows(game) if label == "lost:"]
        assert (panel.size.height, layouts) == (height, [])
        panel.show_game(middlegame())  # long lists that wrap onto more lines
        await pilot.pause()
        assert layouts and panel.size.height > height
