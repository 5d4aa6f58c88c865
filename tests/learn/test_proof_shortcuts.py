"""The mate prover's economies never change an answer: each test here is a position where a wrong shortcut would
(a quiet first move that mates in two, a move that stalemates, a refutation found only after many replies that
lose; tests/core has a King's step that uncovers mate), the answers compared to plain enumeration where cheap."""

from __future__ import annotations

from cescacs_tui.core import Position
from cescacs_tui.core.move import Move
from cescacs_tui.core.position import MoveTuple
from cescacs_tui.learn.proof import MateProver
from cescacs_tui.learn.puzzles import bundled_puzzles
from tests.helpers.builders import pdtl
from tests.helpers.mates import mates_by_playing_every_move

QUIET_MATE_IN_TWO = pdtl("kF0 pF2 pG1 pE1 pE3 KI9 JA9 RA7")
"""Black's King is walled in by its own pawns; the only mate in two is the Bishop's quiet JA9-G9."""


def plain_move_forces(position: Position, move: MoveTuple, moves: int) -> bool:
    """``move`` mates within ``moves``: every reply and every move played, nothing remembered, ordered or skipped."""
    position.push(move)
    try:
        replies = position.legal_tuples()
        if not replies:
            return position.is_check()
        return moves > 1 and all(plain_reply_loses(position, reply, moves - 1) for reply in replies)
    finally:
        position.pop()


def plain_reply_loses(position: Position, reply: MoveTuple, moves: int) -> bool:
    position.push(reply)
    try:
        return any(plain_move_forces(position, move, moves) for move in position.legal_tuples())
    finally:
        position.pop()


def plain_first_moves(position: Position, moves: int) -> list[MoveTuple]:
    return [move for move in position.legal_tuples() if plain_move_forces(position, move, moves)]


def test_a_quiet_first_move_that_mates_in_two_is_found_as_plain_enumeration_finds_it() -> None:
    position = Position.from_pdtl(QUIET_MATE_IN_TWO)
    expected = sorted(plain_first_moves(position.copy(), 2))
    assert [position.ctl_an(Move._make(m)) for m in expected] == ["JA9-G9"]
    assert not position.gives_check(Move._make(expected[0]))  # the last move's checks-only rule must not leak
    assert sorted(MateProver().first_moves(position.copy(), 2)) == expected
    assert plain_first_moves(position.copy(), 1) == MateProver().first_moves(position.copy(), 1) == []


def test_one_provers_memory_answers_each_depth_as_a_fresh_prover_does() -> None:
    """A mate in two remembered is no mate in one, and no mate in one remembered says nothing of two or three."""
    position = Position.from_pdtl(QUIET_MATE_IN_TWO)
    prover = MateProver()
    assert prover.forces(position, 2)
    assert not prover.forces(position, 1)
    assert prover.forces(position, 3)
    later = MateProver()
    assert not later.forces(position, 1)
    assert later.forces(position, 2) and later.distance(position) == 2


def test_a_move_that_stalemates_is_no_mate_at_any_depth() -> None:
    """P2716c87ae's I3-G7 leaves the other side no legal move and no check: a stalemate, which is no mate."""
    puzzle = next(p for p in bundled_puzzles() if p.id == "P2716c87ae")
    position = puzzle.start()
    stalemate = position.parse_move("I3-G7")
    position.push(stalemate)
    assert not position.is_check() and not position.has_legal_moves()
    position.pop()
    prover = MateProver()
    assert not any(prover.move_forces(position, stalemate, moves) for moves in (1, 2, 3))
    assert stalemate not in prover.first_moves(position, 1)
    assert sorted(MateProver().first_moves(position, 1)) == sorted(plain_first_moves(position, 1))


def test_a_first_move_with_one_refutation_among_many_replies_is_refuted() -> None:
    """In the mate in two puzzle Pad85a14b1, another first move leaves Black 24 replies of which only one, the
    King's KE27-D26 (the last in the list), escapes the mate: the proof must find it, and so keep the solution the
    only first move."""
    puzzle = next(p for p in bundled_puzzles() if p.id == "Pad85a14b1")
    position = puzzle.start()
    tempting = next(m for m in position.legal_moves() if (m.origin, m.target) == (107, 161))
    prover = MateProver()
    assert not prover.move_forces(position, tempting, 2)
    position.push(tempting)
    escapes = [reply for reply in position.legal_tuples() if not plain_reply_loses(position, reply, 1)]
    assert [position.ctl_an(Move._make(reply)) for reply in escapes] == ["KE27-D26"]
    position.pop()
    assert MateProver().first_moves(position, 2, limit=2) == [puzzle.line()[0]]


def test_the_mating_moves_of_bundled_positions_are_every_move_that_mates() -> None:
    """``Position.mating_tuples`` (which plays only the moves that could give check) against every legal move
    played, in a slice of the bundled mate in one puzzles, where there are mates to find."""
    mates_found = 0
    for puzzle in [p for p in bundled_puzzles() if p.mate_in == 1][::15]:
        position = puzzle.start()
        mates, _ = position.mating_tuples()
        assert sorted(mates) == sorted(mates_by_playing_every_move(position)), puzzle.id
        mates_found += len(mates)
    assert mates_found
