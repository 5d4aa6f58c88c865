"""Game review: the scoring formulas, a planted blunder found by the real engine, progress and cancellation, the
review written into the record and read back by our reader, and ``cescacs review`` / ``cescacs puzzles``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cescacs_tui.cli import main
from cescacs_tui.core import Game, read_pgn
from cescacs_tui.core.pgn import write_pgn
from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.engine.client import EngineClient
from cescacs_tui.engine.search import Limits
from cescacs_tui.i18n import set_language
from cescacs_tui.learn.annotate import annotate, eval_comment, parse_eval, read_annotations
from cescacs_tui.learn.puzzles import Puzzle
from cescacs_tui.learn.review import Evaluation, PlyReview, Review, ReviewError, review_game
from cescacs_tui.learn.review_words import ply_json, ply_sentence, review_sentences
from cescacs_tui.learn.scoring import Class, classify, expected, mate_cp, mean_accuracy, move_accuracy

PLANTED = ("G7-G13", "H22-H16", "JF4-K16", "I23-K22", "DE1-I13", "H16×DI13")
"""White's Queen goes where a pawn takes it, for nothing (ply 5)."""
BLUNDER_PLY = 5
RECORD = """[Variant "C'escacs"]
[White "Planted"]
[Black "Blunder"]
[Result "*"]

1. G7-G13, H22-H16
2. JF4-K16, I23-K22
3. DE1-I13, H16×DI13
*
"""


def planted() -> Game:
    game = Game()
    for text in PLANTED:
        game.play_text(text)
    return game


# --- scoring ---------------------------------------------------------------------------------------------------


def test_the_expected_score_curve_and_the_class_thresholds() -> None:
    assert expected(0) == 0.5
    assert expected(1500) == pytest.approx(0.953, abs=0.001)
    assert expected(mate_cp(3)) == 1.0 and expected(-mate_cp(3)) == 0.0
    assert classify(0.059) is None
    assert classify(0.06) is Class.INACCURACY
    assert classify(0.12) is Class.MISTAKE
    assert classify(0.2) is Class.BLUNDER
    assert [c.assessment for c in Class] == ["?!", "?", "??"]


def test_accuracy() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.45) < 15
    assert mean_accuracy([]) is None
    assert mean_accuracy([0.0, 0.0]) == pytest.approx(100.0, abs=0.01)


def test_an_engine_score_is_turned_to_whites_side() -> None:
    assert Evaluation.of_engine(120, None, BLACK) == Evaluation(-120)
    assert Evaluation.of_engine(None, 2, BLACK) == Evaluation(-mate_cp(2), -2)
    assert Evaluation.of_engine(None, -1, WHITE).for_side(BLACK) == mate_cp(1)
    with pytest.raises(ReviewError):
        Evaluation.of_engine(None, None, WHITE)


# --- the review, by the engine ------------------------------------------------------------------------------------


async def test_a_planted_blunder_is_classed_blunder_with_a_better_move() -> None:
    seen: list[tuple[int, int]] = []
    judged: list[PlyReview] = []
    review = await review_game(
        planted(), movetime=0.1, on_progress=lambda done, total: seen.append((done, total)), on_ply=judged.append
    )
    assert seen == [(n, 7) for n in range(1, 8)]
    assert tuple(judged) == review.plies  # each half-move told as soon as it is judged
    assert len(review.plies) == 6
    blunder = review.plies[BLUNDER_PLY - 1]
    assert (blunder.move, blunder.colour, blunder.kind) == ("DE1-I13", WHITE, Class.BLUNDER)
    assert blunder.best is not None and blunder.best != "DE1-I13"
    assert blunder.best_line and blunder.best_line[0] == planted().position_at(4).parse_move(blunder.best)
    assert blunder.pawns_lost >= 10
    assert blunder.after.for_side(WHITE) < -1000
    white, black = review.accuracy(WHITE), review.accuracy(BLACK)
    assert white is not None and black is not None and white < black
    assert review.plies[-1].kind is None  # taking the Queen is no mistake


async def test_a_cancelled_review_closes_the_engine_it_started(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[EngineClient] = []
    real_start = EngineClient.start

    async def start(*args: object, **kwargs: object) -> EngineClient:
        client = await real_start(*args, **kwargs)  # type: ignore[arg-type]
        started.append(client)
        return client

    monkeypatch.setattr(EngineClient, "start", start)
    first = asyncio.Event()
    task = asyncio.create_task(review_game(planted(), movetime=5.0, on_progress=lambda done, total: first.set()))
    await asyncio.wait_for(first.wait(), 60)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert started and not started[0].alive


async def test_a_lent_engine_is_left_running_and_idle_after_a_cancel() -> None:
    async with await EngineClient.start() as engine:
        first = asyncio.Event()
        task = asyncio.create_task(
            review_game(planted(), movetime=5.0, engine=engine, on_progress=lambda done, total: first.set())
        )
        await asyncio.wait_for(first.wait(), 60)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert engine.alive
        answer = await engine.best_move(planted().start, [], Limits(depth=1))
        assert answer.move is not None


async def test_an_engine_that_cannot_start_is_a_review_error(tmp_path: Path) -> None:
    with pytest.raises(ReviewError, match="cannot start"):
        await review_game(planted(), command=[str(tmp_path / "no-such-engine")])


# --- the review in the record ---------------------------------------------------------------------------------


def made_up_review(game: Game) -> Review:
    """A review without the engine: every move level, but ply 5 a blunder with H6-H10 better."""
    plies = []
    for ply, node in enumerate(game.nodes, 1):
        position = game.position_at(ply - 1)
        bad = ply == BLUNDER_PLY
        best_line = (position.parse_move("H6-H10"), position.copy().parse_move("H6-H10")) if bad else (node.move,)
        if bad:
            after_best = position.copy()
            after_best.push(best_line[0])
            best_line = (best_line[0], after_best.parse_move("EH24-H22"))
        plies.append(
            PlyReview(
                ply=ply,
                number=node.number,
                colour=node.colour,
                move=node.san,
                before=Evaluation(142 if bad else 10),
                after=Evaluation(-1370 if bad else 10),
                best="H6-H10" if bad else node.san,
                best_line=best_line,
                loss=0.51 if bad else 0.0,
                kind=Class.BLUNDER if bad else None,
                accuracy=8.0 if bad else 100.0,
            )
        )
    return Review(tuple(plies), 0.5)


def test_the_review_goes_into_the_record_and_our_reader_reads_it_back() -> None:
    game = planted()
    annotate(game, made_up_review(game))
    text = write_pgn(game)
    assert "3. DE1-I13 ??, H16×DI13" in text
    assert "{: @W [%eval -13.70] }" in text  # one comment for the half-move (NOTATION.md 7.4.2)
    assert "(3. H6-H10, EH24-H22" in text
    back = read_pgn(text)[0]
    marks = read_annotations(back)
    assert [m.assessment for m in marks] == ["", "", "", "", "??", ""]
    assert marks[4].better == ("H6-H10", "EH24-H22")
    assert marks[4].better_evaluation == Evaluation(142)
    assert marks[4].evaluation == Evaluation(-1370)
    assert [m.evaluation for m in marks[:4]] == [Evaluation(10)] * 4
    # Written again, the review replaces itself: the same record.
    annotate(back, made_up_review(back))
    assert write_pgn(back) == text


def test_a_persons_assessment_and_comments_are_kept() -> None:
    game = planted()
    game.nodes[4].assessment = "?!"
    game.nodes[4].comments.append("@W: a trap?")
    annotate(game, made_up_review(game))
    assert game.nodes[4].assessment == "?!"
    assert "@W: a trap?" in game.nodes[4].comments


def test_the_score_comment_forms() -> None:
    assert eval_comment(WHITE, Evaluation(-1370)) == ": @W [%eval -13.70]"
    assert eval_comment(BLACK, Evaluation(mate_cp(3), 3)) == ": @B [%eval #3]"
    assert parse_eval(": @B [%eval #-2] ") == Evaluation(-mate_cp(2), -2)
    assert parse_eval(" : @W [%eval 0.35]") == Evaluation(35)
    assert parse_eval("@W: [%eval 0.35]") is None
    assert parse_eval(": @W [%eval 0.35] and more") is None


# --- words and JSON -----------------------------------------------------------------------------------------


def test_the_sentences_and_the_json() -> None:
    review = made_up_review(planted())
    blunder = review.plies[BLUNDER_PLY - 1]
    assert ply_sentence(blunder) == "move 3, White: blunder, gave up 15 pawns; better was H6-H10"
    said = review_sentences(review)
    assert said[0] == ply_sentence(blunder)
    assert said[1].startswith("White: accuracy ") and "1 blunder, 0 mistakes, 0 inaccuracies" in said[1]
    assert ply_json(blunder) == {
        "ply": 5,
        "side": "white",
        "move": "DE1-I13",
        "score": -1370,
        "mate": None,
        "best": "H6-H10",
        "best_score": 142,
        "best_mate": None,
        "class": "blunder",
        "loss": 0.51,
        "accuracy": 8.0,
    }


@pytest.mark.parametrize(
    ("language", "expected_text"),
    [("ca", "jugada 3, Blanques: error greu, ha perdut 15 peons; millor era H6-H10"),
     ("es", "jugada 3, Blancas: error grave, ha perdido 15 peones; mejor era H6-H10")],
)  # fmt: skip
def test_the_sentences_are_translated(language: str, expected_text: str) -> None:
    set_language(language)
    try:
        assert ply_sentence(made_up_review(planted()).plies[BLUNDER_PLY - 1]) == expected_text
    finally:
        set_language("en")


def test_mates_are_said_as_mates() -> None:
    game = planted()
    review = made_up_review(game)
    blunder = review.plies[BLUNDER_PLY - 1]
    allowed = PlyReview(**{**blunder.__dict__, "after": Evaluation(-mate_cp(2), -2)})
    assert "allowed a mate in 2" in ply_sentence(allowed)
    assert ply_json(allowed)["score"] is None and ply_json(allowed)["mate"] == -2
    missed = PlyReview(**{**blunder.__dict__, "before": Evaluation(mate_cp(3), 3)})
    assert "missed a mate in 3" in ply_sentence(missed)


# --- the commands ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_cescacs_review_json_and_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "planted.ctl-pgn"
    record.write_text(RECORD, encoding="utf-8")
    saved = tmp_path / "reviewed.ctl-pgn"
    assert main(["review", str(record), "--json", "--movetime", "0.1", "--save", str(saved)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["ply"] for row in rows] == [1, 2, 3, 4, 5, 6]
    assert {"ply", "move", "score", "best", "best_score", "class"} <= set(rows[4])
    assert rows[4]["move"] == "DE1-I13" and rows[4]["class"] == "blunder" and rows[4]["best"] != "DE1-I13"
    assert rows[4]["score"] < -1000
    back = read_annotations(read_pgn(saved.read_text(encoding="utf-8"))[0])
    assert back[4].assessment == "??" and back[4].better and back[4].better[0] == rows[4]["best"]


@pytest.mark.slow
def test_cescacs_review_in_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "planted.ctl-pgn"
    record.write_text(RECORD, encoding="utf-8")
    assert main(["review", str(record), "--movetime", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "move 3, White: blunder, gave up " in out and "; better was " in out
    assert "Black: accuracy " in out


def test_cescacs_review_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.ctl-pgn"
    empty.write_text('[Variant "C\'escacs"]\n\n*\n', encoding="utf-8")
    assert main(["review", str(empty)]) == 2
    assert "no move to review" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        main(["review", str(empty), "--movetime", "0"])
    assert stopped.value.code == 2
    assert main(["review", "999999"]) == 2
    assert "there is no archived game 999999" in capsys.readouterr().err


def write_puzzles(path: Path, *puzzles: Puzzle) -> Path:
    path.write_text("".join(p.to_json() + "\n" for p in puzzles), encoding="utf-8")
    return path


MATE = Puzzle(
    "Pone",
    "/28:d/26:1jg/25:k3/23:2ee2/22:1p3p1/21:2G5/19:4p3/18:3D3/16:5G1/15:5p2/13:3NP3/11:2P2P2/10:5P1/8:2E4"
    "/5:P2E1P/4:1R1E1/3:3R/2:1J1/1:1K/0:V/ w KR- - 5 37",
    ("DF18-D24#",),
    ("mate-in-1",),
    800,
)


def test_cescacs_puzzles_check_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write_puzzles(tmp_path / "good.jsonl", MATE)
    assert main(["puzzles", "--check", "--file", str(good)]) == 0
    assert "1 puzzle checked: every one is sound" in capsys.readouterr().out
    wrong = Puzzle("Pwrong", MATE.pdtl, MATE.moves, ("mate-in-1", "fork"), 800)
    bad = write_puzzles(tmp_path / "bad.jsonl", MATE, wrong)
    assert main(["puzzles", "--check", "--file", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "Pwrong: themes" in out and "2 puzzles checked: 1 is wrong" in out
    assert main(["puzzles", "--export", "--file", str(good)]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [MATE.export()]
    assert main(["puzzles", "--export", "--file", str(good), "--theme", "promotion"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["puzzles", "--check", "--file", str(tmp_path / "missing.jsonl")]) == 2
