"""Fewer keys a move on the screen: each side's cursor, a piece's targets played from the move box, the hint played
with one key, the arrows along the row the full board draws.  tests/processes/test_terminal_input.py types the
move box's bursts into a real terminal."""

from __future__ import annotations

from cescacs_tui.core import HEX_NAMES, parse_hex
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.board_layout import reading_order
from tests.helpers.app import message
from tests.tui.test_move_entry import box, burst, sans


def number_of(app: CescacsApp, origin: str, target: str) -> str:
    """The number the board shows on ``target`` once the piece on ``origin`` is picked."""
    position = app.game.position
    targets = {m.target for m in position.legal_moves() if m.origin == parse_hex(origin)}
    return str(reading_order(targets, flipped=app.board.flipped).index(parse_hex(target)) + 1)


async def test_in_the_hot_seat_each_side_finds_the_cursor_on_the_piece_it_moved_last() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter")
        await pilot.pause()
        assert app.board.cursor == parse_hex("E13")  # White's, not Black's last move
        await pilot.press(*"f8-f12", "enter")
        await pilot.pause()
        assert app.board.cursor == parse_hex("E15")


async def test_a_hex_typed_picks_the_piece_and_a_number_typed_next_plays_its_target_in_one_burst() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        burst(app, "/e7\r" + number_of(app, "E7", "E13"))
        await pilot.pause()
        assert sans(app) == ["E7-E13"] and box(app).value == ""
        assert app.focused is box(app)  # the next move is typed on


async def test_a_target_hex_typed_after_the_pieces_is_played() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        burst(app, "/e7\re13\re21\re15\r")
        await pilot.pause()
        assert sans(app) == ["E7-E13", "E21-E15"]


async def test_a_number_typed_with_no_piece_picked_says_what_to_do_and_is_not_typed() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", "3")
        await pilot.pause()
        assert "3: pick a piece first" in message(app)
        assert box(app).value == "" and sans(app) == []
        await pilot.press(*"e7-e13", "enter")  # a digit inside a move is typed as ever
        assert sans(app) == ["E7-E13"]


async def test_one_key_plays_the_hint_shown() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        assert "no hint on the board" in message(app) and sans(app) == []
        session = app.session
        session.show_hint((), session.game.position.parse_move("H6-H12"))  # as the engine's hint leaves it
        await pilot.press("x")
        await pilot.pause()
        assert sans(app) == ["H6-H12"]


async def test_left_on_the_full_board_follows_the_row_the_player_sees() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"d14", "enter", "escape")  # an empty hex: no targets to jump among
        await pilot.pause()
        assert app.board.mode == "full" and app.board.cursor == parse_hex("D14")
        await pilot.press("left")
        assert HEX_NAMES[app.board.cursor] == "B14"  # not C13, a half-row lower
        await pilot.press("right", "right")
        assert HEX_NAMES[app.board.cursor] == "F14"


async def test_the_hex_description_follows_the_position_not_the_last_cursor_move() -> None:
    from cescacs_tui.tui.widgets.move_entry import MoveEntry

    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", *"e21-e15", "enter", "escape")
        await pilot.pause()
        assert app.board.cursor == parse_hex("E13")

        def described() -> str:
            return str(app.screen.query_one(MoveEntry).query_one("#cursor-info").render())

        assert described() == "E13 White Pawn"
        await pilot.press("left_curly_bracket")  # the start position: E13 is empty there, the cursor did not move
        await pilot.pause()
        assert app.board.cursor == parse_hex("E13") and described() == "E13"


def movable(app: CescacsApp, letter: str) -> tuple[int, ...]:
    """The hexes of the side to move's pieces of ``letter`` that can move, as the board is read."""
    from cescacs_tui.core.pieces import PIECE_BY_LETTER

    position = app.game.position
    origins = {m.origin for m in position.legal_moves()}
    kind = PIECE_BY_LETTER[letter]
    mine = [h for h, piece in position.pieces(position.turn) if piece.type == kind and h in origins]
    return reading_order(mine, flipped=app.board.flipped)


async def test_a_pieces_letter_picks_it_and_again_the_next_one_then_a_number_plays() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        first, second, *_ = movable(app, "E")
        await pilot.press("E")
        assert app.session.selection is not None and app.session.selection.selected == first
        assert app.board.cursor == first and app.board.view.targets
        await pilot.press("E")
        assert app.session.selection is not None and app.session.selection.selected == second
        target = app.board.numbered_target(1)
        await pilot.press("1")
        assert sans(app) == [f"E{HEX_NAMES[second]}-{HEX_NAMES[target]}"]  # type: ignore[index]
        knight = movable(app, "N")[0]  # Black's now
        await pilot.press("N")
        assert app.session.selection is not None and app.session.selection.selected == knight
        assert app.game.position.piece_at(knight).colour == app.game.position.turn  # type: ignore[union-attr]


async def test_a_letter_and_a_number_in_one_burst_play_a_move() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        queen_less = movable(app, "N")[0]
        burst(app, "N1")
        await pilot.pause()
        assert [node.move.origin for node in app.game.nodes] == [queen_less]


async def test_a_kind_that_cannot_move_says_so_and_picks_nothing() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert movable(app, "R") == ()
        await pilot.press("R")
        assert "White has no Rook that can move" in message(app)
        assert app.session.selection is not None and app.session.selection.selected is None
        await pilot.press("E", "tab")  # an Elephant picked, the cursor on its first target
        cursor, elephant = app.board.cursor, app.session.selection.selected
        await pilot.press("R")
        assert (app.board.cursor, app.session.selection.selected) == (cursor, elephant)  # nothing moved


async def test_letters_typed_in_the_move_box_are_the_move_not_a_pick() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"NE3-D8")
        assert box(app).value == "NE3-D8"
        assert app.session.selection is not None and app.session.selection.selected is None
        await pilot.press("enter")
        assert sans(app) == ["NE3-D8"]


async def test_a_letter_when_no_move_can_be_played_says_why() -> None:
    app = CescacsApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"e7-e13", "enter", "escape", "left_square_bracket", "K")
        assert "reviewing an earlier move" in message(app)
        assert app.session.selection is None
