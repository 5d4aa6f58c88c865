"""The recoverable-pieces panel: one letter case per side, Bishops by the tone of their hexes, tidy wrapping."""

from __future__ import annotations

from rich.console import Console

from cescacs_tui.core.game import Game
from cescacs_tui.tui.widgets.panels import HEX_TONES, material_rows, material_table
from scripts.screenshots import middlegame


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
