"""A record's comments and variations, shown for the position under review (NOTATION.md 7: comments, variations)."""

from __future__ import annotations

import pytest

from cescacs_tui.core import Colour, read_pgn
from cescacs_tui.core.game import Game, Node
from cescacs_tui.session.words import move_label
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.widgets.annotations import AnnotationPanel, annotation_text
from cescacs_tui.tui.widgets.move_list import NOTE_MARK, MoveList
from tests.helpers.app import panels_ready
from tests.helpers.games import FOOLS_MATE, annotated

HINT = "i or a click on Instead follows a line; Esc comes back"


def shown(game: Game, ply: int) -> str | None:
    game.go_to(ply)
    text = annotation_text(game)
    return None if text is None else text.plain


def test_a_commented_move_shows_itself_and_its_comment():
    assert shown(annotated(), 1) == "1. H6-H12 ?!\n@W: curious pawn to open"
    assert shown(annotated(), 2) == "1\u2026 I23-I19 ?!\n@B: plays along with it"


def test_a_variation_given_instead_of_the_move_is_shown_numbered():
    assert shown(annotated(), 7) == (
        "4. EH4-H8 ??\n@W: Removing ~EH4 leaves ~K unattended\nInstead: 4. GD2-F6 {@W would avoid ~gL5-H6+^}\n" + HINT
    )


def test_every_variation_is_shown_with_its_comments_and_nested_variations():
    lines = shown(annotated(), 9)
    assert lines is not None
    assert lines.splitlines() == [
        "5. I5-I9 ??",
        "@W: Has ignored threats",
        "Instead: 5. GD2-F6 {@W is still in time to avoid ~gL5-H6+^}",
        "Instead: 5. K4-K10 ?? {@W: Displacing P threatens ~gL5 with ~RI3} 5\u2026 GL5-H6+^ "
        "{@B: Check without reinforcement will not succeed, but will capture ~RI3} "
        "6. KG1-H4 GH6\u00d7RI3 (6\u2026 GH6-K12) 7. KH4\u00d7GI3",
        HINT,
    ]


def test_a_move_without_comments_or_variations_shows_nothing():
    assert shown(annotated(), 5) is None  # 3. L5-L7


def test_the_closing_comments_show_at_the_end_of_the_game():
    assert shown(annotated(), 12) == "@B Must neglect ~JF6 and ~EH4\n@W Attack ~K to knight's leap with ~g i ~n"


def test_the_introduction_shows_at_the_start():
    game = read_pgn("[Variant \"C'escacs\"]\n{ Introduction to C'escacs }\n1. H6-H12 *\n")[0]
    assert shown(game, 0) == "Introduction to C'escacs"
    assert shown(game, 1) is None


def test_a_game_being_played_has_no_annotations_anywhere():
    game = Game.new()
    for text in FOOLS_MATE:
        game.play(game.position.parse_move(text))
    assert all(shown(game, ply) is None for ply in range(game.ply + 1))


@pytest.mark.parametrize(
    ("number", "colour_index", "first", "label"),
    [
        (12, 0, False, "12. E7-E13"),
        (12, 1, True, "12\u2026 E7-E13"),
        (12, 1, False, "E7-E13"),
        (None, 0, True, "E7-E13"),
    ],
)
def test_move_labels_number_white_always_and_black_where_a_line_starts(number, colour_index, first, label):
    move = Game.new().position.parse_move("E7-E13")
    node = Node(move=move, san="E7-E13", colour=Colour(colour_index), number=number)
    assert move_label(node, first=first) == label


def test_record_text_is_never_markup():
    game = annotated()
    game.nodes[0].comments = ["[bold red]not a style[/]"]
    assert shown(game, 1) == "1. H6-H12 ?!\n[bold red]not a style[/]"


async def test_the_panel_follows_the_review_and_the_move_list_marks_annotated_moves():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await panels_ready(pilot)
        panel = app.query_one(AnnotationPanel)
        moves = app.query_one(MoveList)
        assert moves.cell_text(3, 0) == f"EH4-H8 ?? {NOTE_MARK}"  # row 4.
        assert moves.cell_text(3, 1) == "GZ11-L5"  # no comment, no variation: no mark
        await pilot.press("}")  # the end of the game
        await pilot.pause()
        assert panel.display and "Must neglect" in str(panel.query_one("Static").render())
        await pilot.press(*"[" * 3)  # back to 5. I5-I9
        await pilot.pause()
        assert app.game.cursor == 9
        assert panel.display and "Has ignored threats" in str(panel.query_one("Static").render())
        await pilot.press(*"[" * 4)  # 3. L5-L7: nothing to say
        await pilot.pause()
        assert not panel.display


async def test_the_panel_stays_hidden_in_a_new_game():
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"h6-h12", "enter")
        await pilot.pause()
        assert not app.query_one(AnnotationPanel).display


async def test_the_notes_keep_their_scroll_when_the_screen_is_redrawn_for_the_same_move():
    app = CescacsApp(annotated())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("}", *"[[[")  # 5. I5-I9: more notes than the panel holds at 80x24
        await pilot.pause()
        panel = app.query_one(AnnotationPanel)
        panel.scroll_end(animate=False)
        await pilot.pause()
        assert panel.scroll_y > 0
        where = panel.scroll_y
        await pilot.press("f")  # a flip redraws everything
        await pilot.pause()
        assert panel.scroll_y == where
        await pilot.press("[")  # another move: its notes start at the top
        await pilot.press("]")
        await pilot.pause()
        assert panel.scroll_y == 0
