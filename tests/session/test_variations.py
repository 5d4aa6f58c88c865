"""Following a record's variations (NOTATION.md 7.4): Game.branch, the stack of lines followed, and the app."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cescacs_tui.core.game import Game, GameError
from cescacs_tui.session.variations import VariationStack
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.widgets.annotations import AnnotationPanel
from tests.helpers.games import FOOLS_MATE, annotated

I5_I9 = 8
"""Index of 5. I5-I9 in the annotated fool's mate: two variations, the second with a nested one."""


def sans(game: Game) -> list[str]:
    return [node.san for node in game.nodes]


# --- Game.branch ------------------------------------------------------------------------------


def test_a_branch_plays_the_earlier_moves_then_the_variation():
    game = annotated()
    line = game.branch(I5_I9, 1)
    assert sans(line) == [*sans(game)[:I5_I9], "K4-K10", "GL5-H6+^", "KG1-H4", "GH6\u00d7RI3", "KH4\u00d7GI3"]
    assert line.cursor == I5_I9 + 1  # on the variation's first half-move
    assert [node.number for node in line.nodes[I5_I9:]] == [5, 5, 6, 6, 7]


def test_a_branch_keeps_the_records_annotations_and_nested_variations():
    line = annotated().branch(I5_I9, 1)
    assert line.nodes[I5_I9].assessment == "??"
    assert line.nodes[I5_I9].comments == [" @W: Displacing P threatens ~gL5 with ~RI3 "]
    assert [sans_of[0].san for sans_of in line.nodes[I5_I9 + 3].variations] == ["GH6-K12"]
    assert line.nodes[0].comments == [" @W: curious pawn to open "]


def test_a_branch_leaves_the_game_as_it_was():
    game = annotated()
    game.go_to(4)
    before = (sans(game), game.cursor, game.position.to_pdtl())
    line = game.branch(I5_I9, 0)
    line.go_to(0)
    assert (sans(game), game.cursor, game.position.to_pdtl()) == before


def test_a_branch_has_no_clock_and_can_be_branched_again():
    line = annotated().branch(I5_I9, 1)
    assert line.clock is None
    nested = line.branch(I5_I9 + 3, 0)
    assert sans(nested)[I5_I9:] == ["K4-K10", "GL5-H6+^", "KG1-H4", "GH6-K12"]


@pytest.mark.parametrize(("ply", "line"), [(4, 0), (I5_I9, 2), (-1, 0), (99, 0)])
def test_a_branch_that_the_record_does_not_give_is_an_index_error(ply, line):
    with pytest.raises(IndexError):
        annotated().branch(ply, line)


# --- the stack of lines followed ----------------------------------------------------------------


def test_follow_enters_the_first_variation_then_cycles_through_its_siblings():
    game = annotated()
    game.go_to(I5_I9 + 1)
    stack = VariationStack()
    assert stack.available(game) == 2 and stack.can_follow(game)
    first = stack.follow(game)
    assert first is not None and (first.index, first.count) == (0, 2)
    assert first.describe() == "Variation 1 of 2 instead of 5. I5-I9"
    second = stack.follow(game)
    assert second is not None and second.index == 1 and len(stack) == 1
    third = stack.follow(game)
    assert third is not None and third.index == 0  # after the last, the first again


def test_follow_goes_deeper_once_the_variation_is_under_way_and_leave_comes_back_out():
    game = annotated()
    game.go_to(I5_I9 + 1)
    stack = VariationStack()
    stack.follow(game, 1)
    stack.shown(game).go_to(I5_I9 + 4)  # 6… GH6×RI3, which has a variation
    nested = stack.follow(game)
    assert nested is not None and len(stack) == 2
    assert nested.describe() == "Variation instead of 6\u2026 GH6\u00d7RI3"
    assert stack.leave() is nested
    assert stack.shown(game).cursor == I5_I9 + 4  # the line left is as it was
    stack.leave()
    assert stack.shown(game) is game and stack.leave() is None


def test_nothing_to_follow_where_the_record_gives_no_variation():
    game = annotated()
    game.go_to(5)  # 3. L5-L7
    stack = VariationStack()
    assert not stack.can_follow(game)
    assert stack.follow(game) is None and not stack
    game.go_to(0)
    assert stack.follow(game) is None


# --- in the app -----------------------------------------------------------------------------------


def status(app: CescacsApp) -> str:
    return str(app.query_one("#status").render())


async def reviewing_i5_i9(pilot) -> CescacsApp:
    app = pilot.app
    await pilot.pause()
    await pilot.press("}", *"[[[")
    await pilot.pause()
    assert app.game.cursor == I5_I9 + 1
    return app


async def test_i_follows_a_variation_on_the_board_and_esc_returns_to_the_game():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        game_pdtl = app.game.reviewed_position().to_pdtl()
        await pilot.press("i")
        await pilot.pause()
        assert app.session.shown is not app.game
        assert "Variation 1 of 2 instead of 5. I5-I9" in status(app)
        assert app.session.shown.reviewed_position().to_pdtl() != game_pdtl  # GD2-F6 is on the board
        await pilot.press("i", "]", "]")  # the second line, two half-moves on
        await pilot.pause()
        assert app.session.shown.nodes[app.session.shown.cursor - 1].san == "KG1-H4"
        await pilot.press("escape")
        await pilot.pause()
        assert app.session.shown is app.game and app.game.cursor == I5_I9 + 1
        assert app.game.reviewed_position().to_pdtl() == game_pdtl
        assert "Variation" not in status(app)


async def test_a_click_on_instead_follows_that_variation():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        text = app.query_one(AnnotationPanel).query_one(Static)
        rows = [text.render_line(y).text for y in range(text.size.height)]
        row = next(y for y, line in enumerate(rows) if line.lstrip().startswith("Instead: 5. K4-K10"))
        await pilot.click(text, offset=(2, row))
        await pilot.pause()
        top = app.session.variations.top
        assert top is not None and top.index == 1


async def test_inside_a_variation_the_game_cannot_be_changed():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        await pilot.press("}", "[", "i")  # the last move, 6. K4-K10, has two variations
        await pilot.pause()
        assert app.session.variations
        before = sans(app.game)
        await pilot.press("u")  # takeback: not for the game hidden behind the variation
        await pilot.pause()
        assert sans(app.game) == before
        assert app.session.available("takeback") is False
        await pilot.press("enter")  # a pick on the board is refused with a reason
        await pilot.pause()
        assert "Esc returns to the game" in str(app.query_one("#message").render())
        assert sans(app.game) == before


async def test_a_new_game_leaves_every_variation():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        await pilot.press("i")
        await pilot.pause()
        game = Game.new()
        for text in FOOLS_MATE[:2]:
            game.play(game.position.parse_move(text))
        app.game_screen.apply(app.session.start_game(game))
        await pilot.pause()
        assert not app.session.variations and app.session.shown is game


async def test_esc_steps_back_one_level_at_a_time_and_first_leaves_the_move_box():
    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        await pilot.press("i", "i", *"]]]", "i")  # the second line, then the one given inside it
        await pilot.pause()
        assert len(app.session.variations) == 2
        await pilot.press("slash", "escape")  # from the move box: back to the board only
        await pilot.pause()
        assert app.focused is app.board and len(app.session.variations) == 2
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.session.variations) == 1
        await pilot.press("tab", "escape")  # from the move list too
        await pilot.pause()
        assert not app.session.variations


async def test_a_move_typed_inside_a_variation_is_refused_and_the_game_is_unchanged():
    game = annotated()
    game.takeback()  # the game goes on: 6… GL5-H6# is taken back, Black to move
    app = CescacsApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("}", "i")  # 6. K4-K10 ??: the record gives two other moves
        await pilot.pause()
        assert app.session.variations
        before = sans(app.game)
        await pilot.press("slash", *"gl5-h6", "enter")
        await pilot.pause()
        assert sans(app.game) == before
        assert "Esc returns to the game" in str(app.query_one("#message").render())


async def test_a_variation_the_game_refuses_is_reported_not_a_crash(monkeypatch):
    def refuse(self: Game, ply: int, line: int = 0) -> Game:
        raise GameError("the game is over (draw by fivefold repetition)")

    app = CescacsApp(annotated())
    async with app.run_test(size=(120, 40)) as pilot:
        await reviewing_i5_i9(pilot)
        monkeypatch.setattr(Game, "branch", refuse)
        await pilot.press("i")
        await pilot.pause()
        assert app.is_running and not app.session.variations
        assert "cannot be followed" in str(app.query_one("#message").render())
