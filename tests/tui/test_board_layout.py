"""The board's screen geometry, cursor moves and cell texts, without Textual."""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from cescacs_tui.core.geometry import COLUMN, COLUMNS, HEX_NAMES, HEXES, LINE, ORTHOGONAL_NEIGHBOURS, hex_at, parse_hex
from cescacs_tui.core.pieces import FAN_GLYPHS, PEGASUS, WYVERN
from cescacs_tui.tui import board_layout
from cescacs_tui.tui.board_layout import (
    LABEL_WIDTH,
    START_HEX,
    TILE_FILLS,
    BoardView,
    CursorMove,
    LayoutMode,
    Mark,
    board_size,
    cell_blank_text,
    cell_lower_text,
    cell_name_text,
    cell_text,
    choose_mode,
    cycle_target,
    fallback_note,
    layout_for,
    move_cursor,
    piece_glyph,
    reading_order,
    target_towards,
    view_marks,
)

MODES: tuple[LayoutMode, ...] = ("compact", "full", "large")
VARIANTS = [(mode, flipped) for mode in MODES for flipped in (False, True)]
ARROWS: tuple[CursorMove, ...] = ("up", "down", "left", "right")


@pytest.fixture(params=VARIANTS, ids=[f"{m}-{'flipped' if f else 'white'}" for m, f in VARIANTS])
def layout(request):
    return layout_for(*request.param)


def owner_grid(layout):
    """Per content cell, the hex drawn there (checking no cell is drawn twice)."""
    grid: dict[tuple[int, int], int] = {}
    for h, rect in enumerate(layout.cells):
        for y in range(rect.y, rect.y + rect.height):
            for x in range(rect.x, rect.x + rect.width):
                assert (x, y) not in grid, f"{HEX_NAMES[h]} overlaps {HEX_NAMES[grid[x, y]]}"
                grid[x, y] = h
    return grid


# --- Geometry --------------------------------------------------------------------


def test_169_rectangles_inside_content_and_disjoint(layout):
    grid = owner_grid(layout)
    assert len(layout.cells) == 169
    assert len(set(layout.cells)) == 169
    assert len(grid) == 169 * layout.cell_width * layout.cells[0].height
    assert all(0 <= x < layout.width and 0 <= y < layout.height for x, y in grid)


def test_screen_to_hex_is_the_inverse(layout):
    grid = owner_grid(layout)
    for y in range(-1, layout.height + 1):
        for x in range(-1, layout.width + 1):
            assert layout.hex_at(x, y) == grid.get((x, y))


def test_rows_list_every_span_once_left_to_right(layout):
    for row in layout.rows:
        ends = [(span.x, span.x + span.width) for span in row]
        assert all(end <= start for (_, end), (start, _) in itertools.pairwise(ends))
    hex_spans = sum(1 for row in layout.rows for span in row if span.hex is not None)
    assert hex_spans == 169 * layout.cells[0].height


def test_adjacent_columns_are_offset_by_half_a_hex(layout):
    width = layout.cell_width
    for h in HEXES:
        for n in ORTHOGONAL_NEIGHBOURS[h]:
            if COLUMN[n] == COLUMN[h]:
                continue
            a, b = layout.cells[h], layout.cells[n]
            assert abs(a.x - b.x) == width
            if layout.mode == "full":
                assert abs(a.y - b.y) == 1  # half of the 2-row hex: the brick offset
            elif layout.mode == "large":
                assert abs(a.y - b.y) in (1, 2)  # "half" of the 3-row hex: one row, or two
            else:
                # Compact: one oblique neighbour shares the row, the other is a row away.
                assert abs(a.y - b.y) == (0 if (LINE[h] + LINE[n]) % 4 == 3 - 2 * layout.flipped else 1)


def test_column_neighbours_are_stacked(layout):
    for h in HEXES:
        above = hex_at(COLUMN[h], LINE[h] + 2)
        if above is None:
            continue
        a, b = layout.cells[h], layout.cells[above]
        assert a.x == b.x
        if layout.flipped:
            assert b.y == a.y + a.height
        else:
            assert a.y == b.y + b.height


def test_flipped_is_a_half_turn():
    for mode in MODES:
        white, black = layout_for(mode, False), layout_for(mode, True)
        for h in HEXES:
            turned = hex_at(14 - COLUMN[h], 28 - LINE[h])
            assert turned is not None and black.cells[h] == white.cells[turned]


def test_labels_are_off_the_hexes_and_each_other(layout):
    grid = owner_grid(layout)
    used = set()
    for label in layout.labels:
        for x in range(label.x, label.x + len(label.text)):
            assert (x, label.y) not in grid
            assert (x, label.y) not in used
            assert 0 <= x < layout.width
            used.add((x, label.y))


def test_column_letters_top_and_bottom_over_their_column(layout):
    letters = [label for label in layout.labels if label.text.isalpha()]
    assert sorted(label.text for label in letters) == sorted(COLUMNS * 2)
    for label in letters:
        assert label.y in (0, layout.height - 1)
        column = COLUMNS.index(label.text)
        below = [h for h in HEXES if COLUMN[h] == column]
        assert all(layout.cells[h].x <= label.x < layout.cells[h].x + layout.cell_width for h in below)


def edge_numbers(layout, y):
    """The line numbers at the left and right edges of text row ``y``."""
    found = {label.x: int(label.text) for label in layout.labels if label.y == y and not label.text.isalpha()}
    return found.get(0), found.get(layout.width - LABEL_WIDTH)


def test_every_line_number_can_be_read_at_the_edges_of_its_row(layout):
    """Each hex's line is written at an edge of the row of its piece; in compact rows, on its parity's edge."""
    numbered = set()
    for h in HEXES:
        y = layout.piece_y(h)
        left, right = edge_numbers(layout, y)
        assert LINE[h] in (left, right), HEX_NAMES[h]
        numbered.add(LINE[h])
        view_column = 14 - COLUMN[h] if layout.flipped else COLUMN[h]
        lines_here = {LINE[n] for n in HEXES if layout.piece_y(n) == y}
        if len(lines_here) == 1:
            assert left == right == LINE[h]
        else:  # two lines: the columns at even places on the screen are numbered at the left
            assert (left if view_column % 2 == 0 else right) == LINE[h], HEX_NAMES[h]
    assert numbered == set(range(29))
    numbers = [label for label in layout.labels if not label.text.isalpha()]
    assert all(label.x in (0, layout.width - LABEL_WIDTH) for label in numbers)
    assert {label.y for label in numbers} == {layout.piece_y(h) for h in HEXES}


def test_the_centre_row_of_the_compact_board_reads_13_and_14():
    compact = layout_for("compact")
    assert edge_numbers(compact, compact.piece_y(START_HEX)) == (13, 14)  # F14 is on the row of E13 and G13
    assert edge_numbers(layout_for("full"), layout_for("full").piece_y(START_HEX)) == (14, 14)


def test_content_sizes():
    assert (layout_for("compact").width, layout_for("compact").height) == (49, 17)
    assert (layout_for("full").width, layout_for("full").height) == (79, 32)
    assert (layout_for("large").width, layout_for("large").height) == (109, 47)
    assert layout_for("compact", True).height == 17 and layout_for("full", True).width == 79


def test_white_view_puts_f0_at_the_bottom_and_p_at_the_left():
    white = layout_for("full")
    f0, f28, p13 = (white.cells[parse_hex(n)] for n in ("F0", "F28", "P13"))
    assert f0.y > f28.y
    assert p13.x == LABEL_WIDTH
    assert layout_for("compact").cells[parse_hex("E27")].y == layout_for("compact").cells[parse_hex("F28")].y == 1


def test_the_large_layout_puts_the_piece_on_the_middle_row():
    large = layout_for("large")
    assert large.piece_row == 1 and large.cells[0].height == 3
    assert large.piece_y(START_HEX) == large.cells[START_HEX].y + 1
    assert layout_for("full").piece_row == layout_for("compact").piece_row == 0


def test_choose_mode():
    assert choose_mode("auto", 80, 22) == "compact"
    assert choose_mode("auto", 79, 32) == "full"
    assert choose_mode("auto", 78, 40) == "compact"
    assert choose_mode("auto", 120, 31) == "compact"
    assert choose_mode("auto", 160, 46) == "full"
    assert choose_mode("auto", 160, 47) == "large"
    assert choose_mode("full", 200, 60) == "full"
    assert choose_mode("compact", 200, 60) == "compact"
    assert choose_mode("large", 120, 40) == "full"  # a forced layout that does not fit falls back
    assert choose_mode("full", 10, 10) == "compact"
    assert choose_mode("compact", 10, 10) == "compact"  # the smallest, even where nothing fits
    with pytest.raises(ValueError):
        choose_mode("huge", 80, 24)  # type: ignore[arg-type]  # refused at run time
    with pytest.raises(ValueError):
        layout_for("huge")


def test_fallback_note_says_why():
    assert fallback_note("auto", 10, 10) is None
    assert fallback_note("full", 120, 40) is None
    assert fallback_note("compact", 10, 10) is None
    assert fallback_note("full", 80, 21) == "the full board needs 79x32 cells and has 80x21: showing the compact board"
    assert fallback_note("large", 120, 40) == (
        "the large board needs 109x47 cells and has 120x40: showing the full board"
    )


# --- Cursor ----------------------------------------------------------------------


@pytest.mark.parametrize("flipped", [False, True])
def test_arrow_keys_reach_every_hex(flipped):
    seen = {START_HEX}
    queue = deque([START_HEX])
    while queue:
        h = queue.popleft()
        for key in ARROWS:
            n = move_cursor(h, key, flipped=flipped)
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert len(seen) == 169


@pytest.mark.parametrize("flipped", [False, True])
def test_left_right_keep_the_screen_row(flipped):
    compact, full = layout_for("compact", flipped), layout_for("full", flipped)
    kept = 0
    for h in HEXES:
        here = compact.cells[h]
        sideways: tuple[tuple[CursorMove, int], ...] = (("left", -3), ("right", 3))
        for key, dx in sideways:
            target = move_cursor(h, key, flipped=flipped)
            same_row = compact.hex_at(here.x + dx, here.y)
            if same_row is not None:
                kept += 1
                assert target == same_row
                assert full.cells[target].y in (full.cells[h].y - 1, full.cells[h].y + 1)  # rows overlap
                back: CursorMove = "left" if key == "right" else "right"
                assert move_cursor(target, back, flipped=flipped) == h
            elif (
                compact.hex_at(here.x + dx, here.y - 1) is not None
                or compact.hex_at(here.x + dx, here.y + 1) is not None
            ):
                assert compact.cells[target].x == here.x + dx  # the rim: the other oblique neighbour
            else:
                assert target == h  # no column that way
    assert kept > 250


@pytest.mark.parametrize("flipped", [False, True])
def test_moves_are_in_screen_terms(flipped):
    full = layout_for("full", flipped)
    f14 = full.cells[START_HEX]
    expected: dict[CursorMove, tuple[int, int]] = {
        "up": (0, -2),
        "down": (0, 2),
        "up_left": (-5, -1),
        "up_right": (5, -1),
        "down_left": (-5, 1),
        "down_right": (5, 1),
    }
    for key, (dx, dy) in expected.items():
        moved = full.cells[move_cursor(START_HEX, key, flipped=flipped)]
        assert (moved.x - f14.x, moved.y - f14.y) == (dx, dy), key
    assert move_cursor(START_HEX, "up", flipped=flipped) == parse_hex("F12" if flipped else "F16")


def test_cursor_stays_at_the_edge_and_jumps_to_column_ends():
    f28, f0 = parse_hex("F28"), parse_hex("F0")
    assert move_cursor(f28, "up") == f28
    assert move_cursor(f0, "down") == f0
    assert move_cursor(f0, "up", flipped=True) == f0
    assert move_cursor(parse_hex("P13"), "left") == parse_hex("P13")
    assert move_cursor(START_HEX, "top") == f28
    assert move_cursor(START_HEX, "bottom") == f0
    assert move_cursor(START_HEX, "top", flipped=True) == f0
    assert move_cursor(parse_hex("Z7"), "left", flipped=True) == parse_hex("Z7")  # Z is at the left when flipped
    assert COLUMN[move_cursor(parse_hex("Z7"), "right", flipped=True)] == COLUMNS.index("X")
    with pytest.raises(ValueError):
        move_cursor(START_HEX, "sideways")  # type: ignore[arg-type]  # refused at run time


# --- Cell contents ---------------------------------------------------------------


def test_piece_glyphs():
    assert piece_glyph(0) == ""
    assert piece_glyph(9) == "K" and piece_glyph(-9) == "k"
    assert [piece_glyph(code) for code in range(1, 10)] == list("PEJNGRVDK")
    assert piece_glyph(9, "fan") == FAN_GLYPHS[9][0] and piece_glyph(-9, "fan") == FAN_GLYPHS[9][1]
    assert piece_glyph(PEGASUS, "fan") == FAN_GLYPHS[PEGASUS][0]
    assert piece_glyph(PEGASUS, "fan-safe") == "G" and piece_glyph(-WYVERN, "fan-safe") == "v"
    assert piece_glyph(-8, "fan-safe") == FAN_GLYPHS[8][1]


def test_wide_glyph_falls_back_to_the_letter(monkeypatch):
    wide = FAN_GLYPHS[WYVERN][0]
    monkeypatch.setattr(board_layout, "cell_len", lambda text: 2 if text == wide else 1)
    assert piece_glyph(WYVERN, "fan") == "V"
    assert piece_glyph(-WYVERN, "fan") == FAN_GLYPHS[WYVERN][1]


@pytest.mark.parametrize(
    ("glyph", "marks", "compact", "full"),
    [
        ("K", Mark.NONE, " K ", "  K  "),
        ("K", Mark.CURSOR, "[K]", "[ K ]"),
        ("", Mark.CURSOR, "[ ]", "[   ]"),
        ("", Mark.TARGET, " · ", "  ·  "),
        ("k", Mark.CAPTURE, "×k ", " ×k  "),
        ("", Mark.CAPTURE, " × ", "  ×  "),
        ("k", Mark.CAPTURE | Mark.CURSOR, "[k]", "[×k ]"),
        ("K", Mark.SELECTED, ">K<", " >K< "),
        ("K", Mark.CHECK | Mark.THREATENED, "!K!", " !K! "),
        ("K", Mark.CHECK | Mark.CURSOR, "[K]", "[!K ]"),  # never "!K]": is the cursor left or right?
        ("P", Mark.AWAITING | Mark.CURSOR, "[P]", "[ P?]"),
        ("P", Mark.AWAITING, " P?", "  P? "),
        ("P", Mark.PREVIEW, "{P}", " {P} "),
        ("", Mark.PREVIEW, "{ }", " { } "),
        ("N", Mark.THREATENED, " N!", "  N! "),
        ("n", Mark.ATTACKED, " n°", "  n° "),
        ("", Mark.ATTACKED, " ° ", "  °  "),
        ("", Mark.ATTACKED | Mark.TARGET, " · ", "  ·  "),
        ("R", Mark.LAST_MOVE, " R ", "  R  "),
    ],
)
def test_cell_text(glyph, marks, compact, full):
    assert cell_text(glyph, marks, "compact") == compact
    assert cell_text(glyph, marks, "full") == full
    assert cell_text(glyph, marks, "large") == f" {full} "


@pytest.mark.parametrize(
    ("glyph", "marks", "compact", "full"),
    [
        ("", Mark.TARGET, " 3 ", "  3  "),
        ("", Mark.TARGET | Mark.CURSOR, "[3]", "[ 3 ]"),
        ("k", Mark.CAPTURE, "×k3", " ×k3 "),
        ("", Mark.CAPTURE, " ×3", "  ×3 "),  # en passant: the captured pawn is elsewhere
        ("", Mark.TARGET | Mark.PREVIEW, "{3}", " {3} "),
        ("k", Mark.CAPTURE | Mark.PREVIEW, "×k}", " ×k} "),  # the preview's brackets win the slot
        ("K", Mark.NONE, " K ", "  K  "),  # only targets show a number
    ],
)
def test_targets_show_their_number_key(glyph, marks, compact, full):
    assert cell_text(glyph, marks, "compact", number=3) == compact
    assert cell_text(glyph, marks, "full", number=3) == full


@pytest.mark.slow
def test_every_mark_combination_keeps_the_cell_width_and_the_piece_in_the_middle():
    widths: dict[LayoutMode, int] = {"compact": 3, "full": 5, "large": 7}
    for value in range(sum(Mark) + 1):
        marks = Mark(value)
        for glyph in ("", "K", "♞"):
            for mode, width in widths.items():
                for number in (None, 7):
                    text = cell_text(glyph, marks, mode, number=number)
                    assert len(text) == width
                    if glyph:
                        assert text[width // 2] == glyph
            if marks & Mark.CURSOR:
                compact = cell_text(glyph, marks, "compact")
                assert compact[0] + compact[2] == "[]"  # the cursor never shares the slots


def test_lower_row_names_the_cursor_hex():
    assert cell_lower_text(START_HEX, Mark.CURSOR | Mark.TARGET) == " F14 "
    assert cell_lower_text(START_HEX, Mark.TARGET) == "     "
    assert cell_name_text(START_HEX) == "  F14  "
    assert cell_name_text(parse_hex("F0")) == "   F0  "


def test_tile_fills_mark_the_three_hex_colours_without_colour():
    assert len(set(TILE_FILLS)) == 3 and all(len(fill) == 1 for fill in TILE_FILLS)
    fill = TILE_FILLS[1]
    assert cell_text("k", Mark.NONE, "compact", fill=fill) == f"{fill}k{fill}"
    assert cell_text("", Mark.TARGET, "full", fill=fill) == f"{fill * 2}·{fill * 2}"
    assert cell_text("K", Mark.CURSOR, "large", fill=fill) == f"{fill}[{fill}K{fill}]{fill}"
    assert cell_lower_text(START_HEX, Mark.CURSOR, fill) == " F14 "  # the name keeps its spaces
    assert cell_lower_text(parse_hex("F0"), Mark.CURSOR, fill) == f"{fill} F0 "
    assert cell_lower_text(START_HEX, Mark.NONE, fill) == fill * 5
    assert cell_name_text(START_HEX, fill) == f"{fill} F14 {fill}"
    assert cell_blank_text("large", fill) == fill * 7


# --- Playing among targets --------------------------------------------------------


def names(hexes):
    return [HEX_NAMES[h] for h in hexes]


def test_reading_order_is_top_line_first_then_left_to_right():
    hexes = [parse_hex(n) for n in ("E9", "D8", "E11", "E13", "G9")]
    assert names(reading_order(hexes)) == ["E13", "E11", "E9", "G9", "D8"]
    assert names(reading_order(hexes, flipped=True)) == ["D8", "G9", "E9", "E11", "E13"]


def test_tab_cycles_the_targets_from_where_the_cursor_is():
    order = reading_order([parse_hex(n) for n in ("E13", "E11", "E9", "D8")])
    e7 = parse_hex("E7")  # the pawn, below all of them: Tab wraps to the first
    assert HEX_NAMES[cycle_target(order, e7, 1)] == "E13"
    assert HEX_NAMES[cycle_target(order, e7, -1)] == "D8"
    assert HEX_NAMES[cycle_target(order, parse_hex("E13"), 1)] == "E11"
    assert HEX_NAMES[cycle_target(order, parse_hex("D8"), 1)] == "E13"  # wraps
    assert HEX_NAMES[cycle_target(order, parse_hex("E13"), -1)] == "D8"
    assert HEX_NAMES[cycle_target(order, parse_hex("F10"), 1)] == "E9"  # from a hex between them
    visited, h = [], e7
    for _ in order:
        h = cycle_target(order, h, 1)
        visited.append(h)
    assert sorted(visited) == sorted(order)
    assert cycle_target((), e7, 1) == e7


@pytest.mark.parametrize("flipped", [False, True])
def test_direction_keys_jump_to_the_nearest_target_that_way(flipped):
    e7 = parse_hex("E7")
    targets = [parse_hex(n) for n in ("E9", "E11", "E13", "D8", "K4")]
    vertical: tuple[CursorMove, CursorMove] = ("down", "up") if flipped else ("up", "down")
    up, down = vertical
    assert names([target_towards(e7, up, targets, flipped=flipped)]) == ["E9"]
    assert names([target_towards(parse_hex("E9"), up, targets, flipped=flipped)]) == ["E11"]
    assert target_towards(parse_hex("E13"), up, targets, flipped=flipped) is None  # nothing further that way
    assert target_towards(e7, down, targets, flipped=flipped) is None
    sideways: tuple[CursorMove, CursorMove] = ("left", "right") if flipped else ("right", "left")
    right, left = sideways
    assert names([target_towards(e7, right, targets, flipped=flipped)]) == ["K4"]
    assert names([target_towards(e7, left, targets, flipped=flipped)]) == ["D8"]
    assert target_towards(e7, "up", [], flipped=flipped) is None


def test_view_marks():
    e7, e9, g21, g27 = (parse_hex(n) for n in ("E7", "E9", "G21", "G27"))
    view = BoardView(
        selected=e7,
        targets={e9: "move", g21: "capture"},
        last_move=(e9, g21),
        check=g27,
        attacked=frozenset({e9}),
        threatened=frozenset({g27}),
        awaiting=frozenset({e7}),
        preview=(g27,),
    )
    marks = view_marks(view)
    assert marks[e7] == Mark.SELECTED | Mark.AWAITING
    assert marks[e9] == Mark.TARGET | Mark.LAST_MOVE | Mark.ATTACKED
    assert marks[g21] == Mark.CAPTURE | Mark.LAST_MOVE
    assert marks[g27] == Mark.CHECK | Mark.THREATENED | Mark.PREVIEW
    assert sum(1 for m in marks if m) == 4
    assert view_marks(BoardView()) == (Mark.NONE,) * 169


def test_board_view_checks_its_input():
    assert BoardView(codes=(0,) * 169).targets == {}
    with pytest.raises(ValueError):
        BoardView(codes=(0,) * 168)
    with pytest.raises(ValueError):
        BoardView(targets={0: "jump"})


@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("mode", ["full", "large"])
def test_left_right_follow_the_line_the_full_and_large_boards_draw_as_a_row(flipped, mode):
    layout = layout_for(mode, flipped)
    along = 0
    for h in HEXES:
        here = layout.cells[h]
        sideways: tuple[tuple[CursorMove, int], ...] = (("left", -2 * here.width), ("right", 2 * here.width))
        for key, dx in sideways:
            target = move_cursor(h, key, flipped=flipped, mode=mode)
            beside = layout.hex_at(here.x + dx, layout.piece_y(h))
            if beside is not None:  # the next hex on the row the eye sees (D4, B4: the same line)
                along += 1
                assert target == beside and LINE[target] == LINE[h]
                back: CursorMove = "left" if key == "right" else "right"
                assert move_cursor(target, back, flipped=flipped, mode=mode) == h
            else:  # the rim: to a neighbouring column, as on the compact board
                assert target == move_cursor(h, key, flipped=flipped)
    assert along > 200
    assert move_cursor(parse_hex("D4"), "left", mode=mode) == parse_hex("B4")


@pytest.mark.parametrize("mode", ["full", "large"])
def test_arrow_keys_reach_every_hex_on_the_full_and_large_boards(mode):
    seen = {START_HEX}
    queue = deque([START_HEX])
    while queue:
        h = queue.popleft()
        for key in ARROWS:
            n = move_cursor(h, key, mode=mode)
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert len(seen) == 169


@pytest.mark.parametrize("mode", MODES)
def test_the_board_size_of_a_mode_is_its_layouts_either_way_up(mode: LayoutMode) -> None:
    for flipped in (False, True):
        layout = layout_for(mode, flipped)
        assert board_size(mode) == (layout.width, layout.height)


def test_choosing_a_mode_builds_no_layout() -> None:
    """The start asks which mode fits before it draws: the layouts it does not draw are not built (~0.5 ms each)."""
    layout_for.cache_clear()
    assert choose_mode("auto", 120, 40) == "full"
    assert fallback_note("large", 120, 40) is not None
    assert layout_for.cache_info().currsize == 0
