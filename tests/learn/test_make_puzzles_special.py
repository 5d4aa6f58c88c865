"""The special hunt of ``scripts/make_puzzles.py``: a move's theme read from the move's own kind (never from its
notation), the rules-only sieve that decides which castling positions the engine is asked about, and a scornful
capture made a puzzle by the margin scan with the capture as its lead."""

from __future__ import annotations

import argparse

import pytest

from cescacs_tui.core import Game, Position
from cescacs_tui.core.geometry import HEX_NAMES, HEXES, parse_hex
from cescacs_tui.core.pieces import Colour
from cescacs_tui.engine import SearchBoard
from cescacs_tui.learn.puzzles import verify
from cescacs_tui.learn.themes import material
from scripts.make_puzzles import (
    Builder,
    Engine,
    castle_rooks,
    forked_rooks,
    level_range,
    special_theme,
    telling_castlings,
)

EN_PASSANT_CHECK = (
    "/24:k2e1/19:1p4p1/18:3v3/16:5p1/14:5j1/12:4p2/11:4P3/10:2P4/9:2R1KP2/7:2P5/6:5P1/5:2E3/4:3EN/2:E2/0:R/"
    " w -- H12@14 0 64"
)  # RULES.md 14.3: the pawn that just played H16-H12 checks; G11@H14 takes it en passant
FORCED_PROMOTION = (
    "/28:v/27:dk/26:gjg/25:2nr/24:r1jep/23:3epp/22:p2jp2/21:P1n1p3/20:3p3/19:3e4/18:1J5/17:2p5/16:1Re4/15:3p4"
    "/14:1pP4/8:3P3/7:3PP3/6:2P1P2/5:2EEPP/4:PEJEP/3:1NNR/2:GJG/1:DK/0:V/ w KRkr - 4 13"
)  # RULES.md 7.5, before 13. JB18×NC21 GD26×JC21


def special_moves(position: Position) -> dict[str, str]:
    return {position.ctl_an(m): theme for m in position.legal_moves() if (theme := special_theme(m)) is not None}


def test_an_en_passant_capture_is_found_by_its_kind() -> None:
    assert special_moves(Position.from_pdtl(EN_PASSANT_CHECK)) == {"G11@H14": "en-passant"}


def test_a_scornful_capture_is_found_by_its_kind() -> None:
    game = Game(Position.initial())
    for text in ("E7-E13", "E21-E15", "E13-F14"):  # RULES.md 6.5: E13-F14 scorns the pawn on E15
        game.play(game.position.parse_move(text))
    assert special_moves(game.position) == {"E15@F14": "scornful-pawn"}


def test_a_promotion_that_regains_a_piece_is_special_and_awaiting_is_not() -> None:
    game = Game(Position.from_pdtl(FORCED_PROMOTION))
    assert special_moves(game.position) == {}  # the pawn on P21 awaits: nothing to regain yet
    for text in ("JB18×NC21", "GD26×JC21"):
        game.play(game.position.parse_move(text))
    assert set(special_moves(game.position).values()) == {"promotion"}  # P21=J, in place


def test_castling_is_special_and_the_sieve_asks_about_a_rook_under_attack() -> None:
    position = Position.from_pdtl("/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1")  # RULES.md 8.7
    castlings = [m for m in position.legal_moves() if special_theme(m) == "castling"]
    assert len(castlings) == 15
    assert telling_castlings(position, castlings) == castlings  # both Rooks attacked down their columns


def test_the_sieve_keeps_the_castlings_that_move_the_attacked_rook() -> None:
    position = Position.from_pdtl("/27:1k/25:r3/3:R2R/1:1K/ w RKRk - 0 1")  # only the queen's Rook attacked
    castlings = [m for m in position.legal_moves() if special_theme(m) == "castling"]
    rooks = {str(m): castle_rooks(m, position.turn) for m in castlings}
    assert {len(homes) for token, homes in rooks.items() if token.startswith("KRR")} == {2}
    telling = [str(m) for m in telling_castlings(position, castlings)]
    assert [t for t in telling if t.startswith("KRK")] == ["KRK-HG", "KRK-FG"]  # the king's Rook checks on G5
    assert [t for t in telling if not t.startswith("KRK")] == [
        str(m) for m in castlings if str(m).startswith(("KRD", "KRR"))
    ]


def test_the_sieve_passes_over_a_castling_that_changes_nothing() -> None:
    position = Position.from_pdtl(
        "/28:v/27:dk/26:gj1/25:rnnr/24:pejep/23:ppee1p/22:2pjp2/21:3pp3/20:3p3/19:5p2/15:2J5/12:4P2/11:7g/8:3P3"
        "/7:3PP3/6:2PG3/5:PPEEPP/4:PEJEP/3:RNNR/2:1JG/1:DK/0:V/ b RKRrkr - 3 3"
    )  # KRK-II only: no check, no Rook attacked, and the Rook on I21 would attack the protected Bishop on C15
    castlings = [m for m in position.legal_moves() if special_theme(m) == "castling"]
    assert [str(m) for m in castlings] == ["KRK-II"]
    assert telling_castlings(position, castlings) == []


@pytest.mark.slow  # an engine search of 200,000 nodes: a second or more of CPU
def test_a_scornful_capture_that_wins_a_pawn_is_a_puzzle_by_the_pawns_margin() -> None:
    start = Position.from_pdtl(
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:pp1epp/22:2pjp2/21:4p3/20:3p3/19:3e4/15:3p4/14:3P3/9:3E4/8:3P3"
        "/7:4P3/6:2PJP2/5:PP1EPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F14 0 3"
    )  # a record's position after White's E13-F14 instead of the move played: E15@F14 wins the pawn
    lead = start.parse_move("E15@F14")
    builder = Builder(argparse.Namespace(deep_nodes=4_000), Engine(200_000))
    puzzle = builder.tactic_puzzle(SearchBoard(start), "a test", lead=lead)
    assert puzzle is not None and puzzle.moves == ("E15@F14",) and puzzle.themes == ("material", "scornful-pawn")
    assert verify(puzzle) == []


PROMOTION_AT_HAND = (
    "/28:v/27:1k/26:1jg/25:2n1/24:1ede1/23:3e2/21:1p6/18:1pP2p1/17:4N3/16:1P1e3/14:P3p2/12:2J4/10:5Pp/8:4E2/7:6P1"
    "/6:4P2/5:P1E3/4:1E1EP/3:2N1/2:GJG/1:1K/0:V/ b Kk - 0 40"
)  # self-play seed 27, game 7, ply 79 with White's L5-L7 instead: X10-X6 regains a Rook, a Pegasus or less


@pytest.mark.slow  # an engine search of 200,000 nodes: a second or more of CPU
def test_a_promotion_is_a_puzzle_only_as_the_best_of_the_pawns_choices() -> None:
    start = Position.from_pdtl(PROMOTION_AT_HAND)
    builder = Builder(argparse.Namespace(deep_nodes=4_000), Engine(200_000))
    puzzle = builder.tactic_puzzle(SearchBoard(start), "a test", lead=start.parse_move("X10-X6=R"))
    assert puzzle is not None and puzzle.moves == ("X10-X6=R",) and puzzle.themes == ("material", "promotion")
    assert verify(puzzle) == []
    assert builder.tactic_puzzle(SearchBoard(start), "a test", lead=start.parse_move("X10-X6=G")) is None
    assert builder.harvest.rejected == {"the best move is not the lead": 1}  # the Rook's: tried as its own lead


def test_the_self_play_levels_are_a_range_from_1_to_10() -> None:
    assert level_range("2-4") == (2, 4) and level_range("5") == (5, 5)
    for bad in ("0-3", "4-2", "x", "3-11"):
        with pytest.raises(argparse.ArgumentTypeError):
            level_range(bad)


def test_a_derived_fork_moves_one_enemy_piece_the_game_has_and_stays_legal() -> None:
    start = Position.from_pdtl("/27:1k/25:1g2/3:R2R/1:1K/ w RKRk - 0 30")  # a black Pegasus far from the Rooks
    derived = list(forked_rooks(start))
    assert derived  # the Pegasus has hexes that attack both Rooks
    before = start.raw_board
    for position, said in derived:
        board = position.raw_board
        changed = [h for h in HEXES if board[h] != before[h]]
        assert len(changed) == 2, said  # moved, not added: one hex emptied, one filled, with the same piece
        origin, target = sorted(changed, key=lambda h: board[h] != 0)
        assert board[origin] == 0 and board[target] == before[origin] < 0
        assert f"from {HEX_NAMES[origin]} to {HEX_NAMES[target]}" in said
        assert material(position, Colour.WHITE) == material(start, Colour.WHITE)
        assert Position.from_pdtl(position.to_pdtl()) == position  # legal: Black, not to move, is not in check
        assert not position.is_check() and not position.attackers(target, Colour.WHITE)
        attacked = {h for h in (parse_hex("C3"), parse_hex("I3")) if target in position.attackers(h, Colour.BLACK)}
        assert attacked and any(
            set(castle_rooks(m, Colour.WHITE)) & attacked for m in position.legal_moves() if m.is_castling
        )  # a castling takes an attacked Rook away


def test_no_derived_fork_where_no_castling_is_at_hand() -> None:
    assert list(forked_rooks(Position.initial())) == []  # every castling path is blocked in the start position
