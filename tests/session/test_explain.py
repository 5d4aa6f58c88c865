"""Explain: the position in words, on positions of RULES.md's cases, in the app (E) and in the plain mode."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import Static

from cescacs_tui import i18n
from cescacs_tui.core import Game, Position, parse_hex
from cescacs_tui.session.explain import explain, explain_attacks, explain_check, explain_last_move, new_attacks
from cescacs_tui.tui.app import CescacsApp
from cescacs_tui.tui.dialogs.questions import TextDialog
from tests.helpers.builders import pdtl
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.plain import Typist
from tests.helpers.waiting import until

ELEPHANT_CHECK = "/18:5e1/14:1k1P1K1/13:4E3/9:1p1P4/7:2E1E3/6:5P1/ w -- - 2 101"
"""RULES.md 14.3: the Black Elephant on K18 checks K14 through the empty K16."""
DOUBLE_CHECK = (
    "/26:2j/25:R1e1/23:2k3/20:2e4/19:1D6/18:V6/17:4r1G1/15:6g1/14:3E1p1/12:4p2/10:5P1/7:7R/6:2E4/5:2KE2/4:3E1/"
    "2:1J1/ b -- C25@23 0 105"
)
"""RULES.md 14.3: the Black King on E23 checked by the Rook on C25 and the Queen on A19."""
FORK = pdtl("KG1 NE9 kG27 dD18 rH18")
"""The Knight's jump E9-F14 attacks the Queen on D18 and the Rook on H18 (J9 and J5 from F14)."""


def test_a_check_by_a_line_piece_can_be_blocked_on_the_hexes_between() -> None:
    said = explain_check(Position.from_pdtl(pdtl("KF10 rF20 kG27")))
    assert said == (
        "White is in check from afar: the Rook on F20 attacks the King on F10. "
        "It can be blocked on F12, F14, F16 or F18; or take the checker, or move the King."
    )


def test_the_elephants_two_hex_check_can_be_blocked_on_the_hex_it_crosses() -> None:
    said = explain_check(Position.from_pdtl(ELEPHANT_CHECK))
    assert said.startswith("White is in check from afar: the Elephant on K18 attacks the King on K14.")
    assert "It can be blocked on K16;" in said


@pytest.mark.parametrize(("letter", "name"), [("n", "Knight"), ("g", "Pegasus")])
def test_a_knight_jump_check_cannot_be_blocked(letter: str, name: str) -> None:
    said = explain_check(Position.from_pdtl(pdtl(f"KF10 {letter}I11 kG27")))
    assert said == (
        f"White is in adjoining check: the {name} on I11 attacks the King on F10. "
        f"It cannot be blocked (the {name} jumps, and nothing stops a jump): take the checker or move the King."
    )


def test_an_adjacent_checker_cannot_be_blocked() -> None:
    said = explain_check(Position.from_pdtl(pdtl("KF10 rF12 kG27")))
    assert "It cannot be blocked (the Rook stands next to the King)" in said


def test_a_double_check_is_answered_only_by_the_king() -> None:
    said = explain_check(Position.from_pdtl(DOUBLE_CHECK))
    assert said == (
        "Black is in double check: the Rook on C25 and the Queen on A19 attack the King on E23. "
        "No piece can block or take two checkers at once: only a King move answers it."
    )


def test_checkmate_and_stalemate_are_said() -> None:
    mate = Game.new()
    play(mate, *FOOLS_MATE)
    assert explain_check(mate.position).endswith("No move answers it: checkmate.")
    assert explain_check(Position.initial()) == "White is not in check."


def test_a_hanging_piece_is_said_under_attack_and_unprotected() -> None:
    position = Position.from_pdtl(pdtl("KF0 DF14 kX22 pG17"))
    white, _loose = explain_attacks(position, position.turn)
    assert white == "White's pieces under attack: Queen F14 by Pawn G17, unprotected."
    protected = Position.from_pdtl(pdtl("KF0 DF14 kX22 pG17 RF8"))
    assert explain_attacks(protected, protected.turn)[0] == "White's pieces under attack: Queen F14 by Pawn G17."


def test_unprotected_pieces_not_attacked_are_named() -> None:
    position = Position.initial()
    assert explain_attacks(position, position.turn) == [
        "No piece of White is under attack.",
        "Unprotected, not attacked: Rook C3, Rook I3, Pawn A5, Pawn L5.",  # RULES.md 4.3
    ]


def test_the_last_moves_threat_is_the_new_attacks_it_made() -> None:
    before = Position.from_pdtl(FORK)
    move = before.parse_move("NE9-F14")
    after = before.copy()
    after.push(move)
    f14 = parse_hex("F14")
    assert new_attacks(before, move, after) == {parse_hex("D18"): (f14,), parse_hex("H18"): (f14,)}
    assert explain_last_move(before, move, after) == (
        "The last move, White Knight E9 to F14, attacks: Queen D18 by Knight F14, unprotected; "
        "Rook H18 by Knight F14."  # the Queen protects it along line 18
    )


def test_an_attack_that_was_there_before_the_move_is_not_new() -> None:
    before = Position.from_pdtl(pdtl("KG1 NE9 RD8 kG27 dD18", turn="w"))  # the Rook on D8 attacks D18 already
    move = before.parse_move("NE9-F14")
    after = before.copy()
    after.push(move)
    said = explain_last_move(before, move, after)
    assert said == "The last move, White Knight E9 to F14, attacks: Queen D18 by Knight F14, unprotected."


def test_a_discovered_attack_is_new() -> None:
    before = Position.from_pdtl(pdtl("KG1 RD4 ND8 kG27 dD18", turn="w"))  # the Knight on D8 blocks the Rook
    move = before.parse_move("ND8-A9")
    after = before.copy()
    after.push(move)
    assert "Queen D18 by Rook D4" in explain_last_move(before, move, after)


def test_explain_follows_the_reviewed_position() -> None:
    game = Game.new(pdtl=FORK)
    game.play(game.position.parse_move("NE9-F14"))
    assert explain(game)[-1].startswith("The last move, White Knight E9 to F14, attacks:")
    game.go_to(0)
    assert not any(line.startswith("The last move") for line in explain(game))


def test_the_plain_mode_says_the_same_words() -> None:
    game = Game.new(pdtl=DOUBLE_CHECK)
    assert Typist(game).type("explain") == explain(game)
    assert Typist(game).type("e") == explain(game)


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


def test_the_words_are_translated(speak: object) -> None:
    i18n.set_language("ca")
    said = explain_check(Position.from_pdtl(pdtl("KF10 nI11 kG27")))
    assert "F10" in said and "Cavall" in said and "cannot" not in said
    i18n.set_language("es")
    assert Typist(Game.new(pdtl=DOUBLE_CHECK)).type("explicar")[0].startswith("Las negras")


async def test_the_explain_key_shows_the_same_words_as_plain_text() -> None:
    game = Game.new(pdtl=DOUBLE_CHECK)
    app = CescacsApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("E")
        await until(lambda: isinstance(app.screen, TextDialog), "the explanation")
        body = app.screen.query_one("#text-body", Static).render()
        assert body.plain.splitlines() == explain(game)
        assert not body.spans  # plain text: no colour or style carries a meaning
