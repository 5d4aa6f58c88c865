"""Every recorded game in tests/data/games behaves as games/SOURCES.md says."""

from __future__ import annotations

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.pgn import PGNError, read_pgn
from tests.helpers.games import GAMES
from tests.helpers.games import record_text as record

FIRST_GAME_COPIES = [
    "site-file_2020-07-20.txt",
    "site-file_2022-08-14.2.txt",
    "site-en_Cescacs-A0001-24_2020-07-20.txt",
    "site-en_Cescacs-A0001-44_2022-08-14.txt",
    "ts-savedGames_a-game.txt",
]
FOOLS_MATES = sorted(p.name for p in GAMES.glob("site-*_fools-mate_*.txt"))


@pytest.mark.parametrize("name", FIRST_GAME_COPIES)
def test_the_first_game_replays_to_whites_mate(name: str) -> None:
    (game,) = read_pgn(record(name))
    assert game.ply == 69
    assert game.nodes[-1].san == "DC19-E25#"
    assert (game.result, game.termination) == ("3-0", "White mates")
    assert game.position.is_checkmate()


@pytest.mark.parametrize("name", ["site-file_2020-07-20.txt", "site-en_Cescacs-A0001-24_2020-07-20.txt"])
def test_a_result_tag_contradicting_the_mate_is_reported_and_the_game_kept(name: str) -> None:
    (game,) = read_pgn(record(name))
    assert game.result == "3-0"
    assert any("0-3" in warning and "3-0" in warning for warning in game.warnings)


@pytest.mark.parametrize("name", ["site-file_2022-08-14.1.txt", "site-en_Cescacs-A0001-43_2022-08-14.txt"])
def test_the_second_game_replays_to_blacks_mate(name: str) -> None:
    (game,) = read_pgn(record(name))
    assert game.ply == 100
    assert (game.result, game.termination) == ("0-3", "Black mates")
    assert game.position.is_checkmate()
    assert game.repeated_tags == [("Annotator", "Sasal, Cesc"), ("Annotator", "Cescacs")]


@pytest.mark.parametrize("name", FOOLS_MATES)
def test_fools_mate_main_line_and_every_variation(name: str) -> None:
    (game,) = read_pgn(record(name))
    assert game.ply == 12 and game.result == "0-3"
    assert game.nodes[-1].san == "GL5-H6#"
    assert game.nodes[0].assessment == "?!"
    variations = [(index, variation) for index, node in enumerate(game.nodes) for variation in node.variations]
    if "-V-" not in name:
        assert variations == []
        return
    # (4. GD2-F6) (5. GD2-F6) (5. K4-K10 ... 7. KH4×GI3) (6. GD2-F6) (6. RI3-I7): each replaces a White move.
    assert [(index, [n.san for n in v]) for index, v in variations] == [
        (6, ["GD2-F6"]),
        (8, ["GD2-F6"]),
        (8, ["K4-K10", "GL5-H6+^", "KG1-H4", "GH6×RI3", "KH4×GI3"]),
        (10, ["GD2-F6"]),
        (10, ["RI3-I7"]),
    ]
    nested = variations[2][1][3].variations
    assert [[n.san for n in line] for line in nested] == [["GH6-K12"]]
    # The comment about White's 4th move is tied to it by its @W marker.
    assert any("@W" in c for c in game.nodes[6].comments)
    assert sorted(c.strip()[:2] for c in game.final_comments) == ["@B", "@W"]


@pytest.mark.parametrize(
    "name",
    [
        "site-en-notation_Cescacs-A0001-24_DPTL-continuation.txt",
        "site-es-ca-notation_Cescacs-A0001-24_DPTL-continuation.txt",
    ],
)
def test_the_continuation_from_a_dptl_tag_replays_both_parts(name: str) -> None:
    first, second = read_pgn(record(name))
    assert first.ply == 39 and first.result == "*"
    assert second.start.fullmove_number is None  # the PDTL has no move number: "1?" numbering
    assert second.nodes[0].san == "GL5×GE5+^"
    assert (second.result, second.termination) == ("3-0", "White mates")
    assert any("DPTL" in w for w in second.warnings)
    # The continuation starts where the first part stopped (the tag's legacy castling field aside).
    assert first.position.to_pdtl().split()[0] == second.start.to_pdtl().split()[0]


@pytest.mark.parametrize(
    "name",
    [
        "site-en_example_Mestre-Sasal_2021-06-04.txt",
        "site-es_example_Mestre-Sasal_2021-06-04.txt",
        "site-ca_example_Mestre-Sasal_2021-06-04.txt",
    ],
)
def test_the_layout_example_is_rejected_at_its_impossible_move(name: str) -> None:
    with pytest.raises(PGNError) as caught:
        read_pgn(record(name))
    error = caught.value
    assert error.token == "EE5-E11"
    assert "move 2 (White)" in str(error) and "Elephant on E5 cannot go to E11" in str(error)
    assert error.line == 14 and error.column == 4  # counted without the source line


def test_the_continuation_numbering_fragment_parses_but_cannot_be_replayed() -> None:
    from cescacs_tui.core.pgn_syntax import parse_records

    (syntax,) = parse_records(record("site-en_continuation-numbering-fragment.txt"))
    assert syntax.unknown_start_number
    assert [(h.number, h.colour.name if h.colour is not None else None, h.text) for h in syntax.moves] == [
        (1, "BLACK", "RC25-D26"),
        (2, "WHITE", "VF10-H14"),
        (2, "BLACK", "RD26-H22"),
    ]
    with pytest.raises(PGNError, match="White is to move"):
        read_pgn(record("site-en_continuation-numbering-fragment.txt"))


def test_the_seed_fragment_is_rejected_with_its_line() -> None:
    with pytest.raises(PGNError) as caught:
        read_pgn(record("seed-000_fools-mate-fragment-es.txt"))
    assert caught.value.line == 2 and "variation before any move" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "plies"), [("ts-savedGames_gambit.txt", 10), ("ts-savedGames_elephants-playing.txt", 47)]
)
def test_unfinished_opening_sequences_replay(name: str, plies: int) -> None:
    (game,) = read_pgn(record(name))
    assert game.ply == plies and game.result == "*"
    assert any("not CTL-PGN" in w for w in game.warnings)  # the file's "//" note


def _pdtl_and_moves(name: str) -> tuple[str, str]:
    lines = [line for line in record(name).splitlines() if line.strip() and not line.startswith("//")]
    return lines[0], "\n".join(lines[1:])


def test_the_closed_castling_position_is_reached_from_the_start() -> None:
    target, moves = _pdtl_and_moves("ts-savedGames_castling-closed-position.txt")
    (game,) = read_pgn(moves)
    assert [n.san for n in game.nodes if n.move.castling] == ["KRK-HIOO", "KRK-HIO"]
    # The saved PDTL is in the official implementation's legacy form (single "-" castling field).
    assert game.position.to_pdtl().split()[:2] == target.split()[:2]
    assert Position.from_pdtl(target).to_pdtl().split()[0] == game.position.to_pdtl().split()[0]


def test_the_awaiting_pawn_must_promote_after_the_illustrative_move() -> None:
    pdtl, moves = _pdtl_and_moves("ts-savedGames_wait-for-promotion-illustrative.txt")
    (game,) = read_pgn(f'[Variant "C\'escacs"]\n[PDTL "{pdtl}"]\n\n{moves}\n')
    assert game.ply == 2
    assert [str(m) for m in game.position.legal_moves()] == ["P21=J"]


def test_saved_positions_valid_ones_load_and_the_others_fail_precisely() -> None:
    loaded, rejected = [], []
    for line in record("ts-savedGames_positions.txt").splitlines():
        if not line.startswith("/") or line.startswith(("//", "/*")):
            continue
        try:
            loaded.append(Position.from_pdtl(line))
        except ValueError as error:
            rejected.append(str(error))
    assert len(loaded) == 15
    assert len(rejected) == 1 and "Almogaver" in rejected[0]  # the Grand C'escacs piece m
