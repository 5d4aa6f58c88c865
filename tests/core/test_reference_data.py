"""The rules core against every file of the reference data (tests/data)."""

from __future__ import annotations

import itertools

import pytest

from cescacs_tui.core import PDTLError, Position, perft
from tests.helpers.reference import PERFT, POSITIONS, RULE_VECTORS, bad_pdtl_lines


def _check_row(row: dict) -> None:
    position = Position.from_pdtl(row["pdtl"])
    moves = position.legal_moves()
    assert sorted(str(m) for m in moves) == row["moves"]
    assert position.to_pdtl() == row["pdtl"]
    by_name = {str(m): m for m in moves}
    assert {name: position.ctl_an(by_name[name]) for name in row["ctl_an"]} == row["ctl_an"]
    kind = position.check_kind()
    assert (None if kind is None else str(kind)) == row["check"]
    assert position.result() == row["result"]


@pytest.mark.parametrize("row", POSITIONS, ids=[row["id"] for row in POSITIONS])
def test_game_position(row: dict) -> None:
    _check_row(row)


def test_games_replay_ply_by_ply() -> None:
    """Playing ``played`` in each position gives the PDTL of the next ply of the same game."""
    checked = 0
    for row, following in itertools.pairwise(POSITIONS):
        if row["played"] is None:
            continue
        position = Position.from_pdtl(row["pdtl"])
        move = position.parse_move(row["played"])
        position.push(move)
        assert position.to_pdtl() == following["pdtl"], row["id"]
        checked += 1
    assert checked == len(POSITIONS) - sum(1 for row in POSITIONS if row["played"] is None)


@pytest.mark.parametrize("row", RULE_VECTORS, ids=[row["id"] for row in RULE_VECTORS])
def test_rule_vector(row: dict) -> None:
    _check_row(row)
    position = Position.from_pdtl(row["pdtl"])
    names = {str(m) for m in position.legal_moves()}
    assert set(row["key_legal"]) <= names
    assert not set(row["key_illegal"]) & names
    if row.get("play"):
        position.push(position.parse_move(row["play"]))
        assert position.to_pdtl() == row["pdtl_after"]


@pytest.mark.parametrize(("text", "reason"), bad_pdtl_lines())
def test_bad_pdtl_rejected(text: str, reason: str) -> None:
    strict = reason.startswith("strict:")
    with pytest.raises(PDTLError) as caught:
        Position.from_pdtl(text, strict=strict)
    assert caught.value.field  # the message names the field at fault
    if strict:
        seen: list[str] = []
        Position.from_pdtl(text, warnings=seen)  # a tolerant reader accepts it...
        assert seen, "...but warns"


PERFT_CASES = [
    pytest.param(
        entry["name"],
        entry["pdtl"],
        int(depth),
        count,
        id=f"{entry['name']}-{depth}",
        marks=[pytest.mark.slow] if int(depth) == 3 else [],  # a second or so each
    )
    for entry in PERFT
    for depth, count in entry["perft"].items()
    if int(depth) <= 3
]


@pytest.mark.parametrize(("name", "pdtl", "depth", "count"), PERFT_CASES)
def test_perft(name: str, pdtl: str, depth: int, count: int) -> None:
    position = Position.from_pdtl(pdtl)
    before = position.to_pdtl()
    assert perft(position, depth) == count
    assert position.to_pdtl() == before
