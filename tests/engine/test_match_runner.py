"""scripts/match.py and scripts/sprt.py: the statistics that accept engine changes, and the referee that plays them.

The statistics are checked against what they must agree with (the normal
approximation of the log-likelihood ratio, the error bounds of the test); the
referee plays real games between real ``cescacs engine`` processes at a tiny
node budget, and games against small scripts that fail in one way each.
"""

from __future__ import annotations

import itertools
import math
import sys
import textwrap
from typing import Any

import pytest

from cescacs_tui.core import Position
from scripts.match import (
    BOOK,
    RESIGN_PLIES,
    Control,
    Engine,
    EngineSpec,
    load_book,
    play_game,
    run_match,
)
from scripts.sprt import SPRT, elo_of, estimate, expected_score, log_likelihood_ratio, pair_points

ENGINE = EngineSpec("engine", (sys.executable, "-m", "cescacs_tui", "engine"))


FIRST_LEGAL = """
from cescacs_tui.core import Position
position = Position.initial()
for text in moves:
    position.push(position.parse_move(text))
first = min(str(m) for m in position.legal_moves())
"""


def fake(name: str, on_go: str) -> EngineSpec:
    """An engine that greets like the real one and answers ``go`` with ``on_go`` (``moves`` holds the game)."""
    script = textwrap.dedent(
        """
        import sys
        moves = []
        def say(text):
            sys.stdout.write(text + "\\n"); sys.stdout.flush()
        for line in sys.stdin:
            words = line.split()
            word = words[0] if words else ""
            if word == "uci":
                say("id name Fake"); say("uciok")
            elif word == "isready":
                say("readyok")
            elif word == "position":
                moves = words[words.index("moves") + 1:] if "moves" in words else []
            elif word == "quit":
                break
            elif word == "go":
        """
    ) + textwrap.indent(textwrap.dedent(on_go), " " * 8)
    return EngineSpec(name, (sys.executable, "-c", script))


# --- the statistics ---------------------------------------------------------------------------


def test_expected_score_and_elo_are_inverse():
    for elo in (-400.0, -50.0, 0.0, 5.0, 200.0):
        assert elo_of(expected_score(elo)) == pytest.approx(elo)
    assert expected_score(0) == 0.5
    assert elo_of(0.0) == -math.inf and elo_of(1.0) == math.inf


def test_pair_points_index_the_pentanomial():
    assert [pair_points(a, b) for a, b in ((0, 0), (0.5, 0), (1, 0), (0.5, 0.5), (1, 0.5), (1, 1))] == [
        0,
        1,
        2,
        2,
        3,
        4,
    ]


def test_the_llr_agrees_with_its_normal_approximation():
    # For small Elo differences the generalised LLR is close to N (s1 - s0)(2 s - s0 - s1) / (2 var).
    counts = [40, 260, 520, 300, 60]
    pairs = sum(counts)
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)
    mean = sum(c * a for c, a in zip(counts, scores, strict=True)) / pairs
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts, scores, strict=True)) / pairs
    s0, s1 = expected_score(0), expected_score(5)
    approximation = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert log_likelihood_ratio(counts, 0, 5) == pytest.approx(approximation, rel=0.02)


def test_the_sprt_decides_for_a_clear_gain_and_against_a_clear_loss_and_waits_in_between():
    test = SPRT(0, 5)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95)) and test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.verdict([0, 0, 0, 0, 0]) is None and test.llr([0] * 5) == 0
    assert test.verdict([100, 1000, 2000, 1400, 200]) == "H1"  # about +26 Elo over 4,700 pairs
    assert test.verdict([200, 1400, 2000, 1000, 100]) == "H0"
    assert test.verdict([10, 100, 200, 100, 10]) is None  # even, and too few pairs to say
    assert "LLR" in test.describe([1, 2, 3, 2, 1])


def test_the_estimate_has_a_confidence_interval_from_the_pairs():
    even = estimate([10, 20, 40, 20, 10])
    assert even.score == pytest.approx(0.5) and even.elo == pytest.approx(0.0)
    assert even.score_low < 0.5 < even.score_high
    more = estimate([40, 80, 160, 80, 40])
    assert (more.score_high - more.score_low) == pytest.approx((even.score_high - even.score_low) / 2)
    assert estimate([0, 0, 0, 0, 3]).score == 1.0
    assert "Elo" in estimate([1, 2, 3, 4, 5]).describe()
    assert estimate([0] * 5).describe() == "no games"


# --- the referee --------------------------------------------------------------------------------


def test_the_book_holds_varied_playable_openings():
    openings = load_book(BOOK)
    assert len(openings) >= 500
    assert len(set(openings)) == len(openings)
    for opening in openings[::50]:
        position = Position.initial()
        for text in opening:
            position.push(position.parse_move(text))
        assert position.has_legal_moves()


@pytest.mark.slow
def test_a_pair_between_real_engines_is_refereed_to_the_end():
    state = run_match(ENGINE, ENGINE, Control(nodes=150), load_book(BOOK), pairs=1)
    assert sum(state.penta) == 1 and state.wins + state.draws + state.losses == 2


@pytest.mark.slow
def test_an_illegal_move_a_crash_and_a_hang_each_lose_the_game():
    opening = ("E7-E13",)  # Black to move: the fake plays Black
    cases = {
        "illegal": ('say("bestmove E7-E13")', "played 'E7-E13'", False),
        "crash": ("sys.exit(3)", "has exited", True),
        "hang": ("pass", "did not answer within 2 s", True),
        "error": ('say("info string error: go: confused"); say("bestmove (none)")', "confused", True),
    }
    for name, (on_go, reason, failed) in cases.items():
        white, black = Engine(ENGINE), Engine(fake(name, on_go))
        try:
            white.start()
            black.start()
            record = play_game(white, black, opening, Control(nodes=100, move_timeout=2.0))
        finally:
            white.close()
            black.close()
        assert record.white_score == 1.0, (name, record.reason)
        assert reason in record.reason, (name, record.reason)
        assert black.failed == failed  # a failed engine is replaced before the next game


@pytest.mark.slow
def test_two_engines_that_agree_one_side_is_lost_end_the_game_by_adjudication():
    # Both engines play the first legal move of a fixed list and say White is far ahead.
    on_go = (
        FIRST_LEGAL
        + """
score = 3000 if len(moves) % 2 == 0 else -3000
say(f"info depth 1 score cp {score} nodes 1 pv x")
say(f"bestmove {first}")
"""
    )
    white, black = Engine(fake("white", on_go)), Engine(fake("black", on_go))
    try:
        white.start()
        black.start()
        record = play_game(white, black, (), Control(nodes=1))
    finally:
        white.close()
        black.close()
    assert record.white_score == 1.0
    assert record.reason.startswith("adjudicated: both engines agree")
    assert len(record.moves) == RESIGN_PLIES + 1  # the first reply has no score of the other side yet


@pytest.mark.slow
def test_a_clock_game_takes_the_answer_time_off_and_a_slow_engine_loses_on_time():
    slow = fake("slow", FIRST_LEGAL + 'import time; time.sleep(0.4); say(f"bestmove {first}")')
    white, black = Engine(ENGINE), Engine(slow)
    try:
        white.start()
        black.start()
        record = play_game(white, black, ("E7-E13",), Control(base=1.0))
    finally:
        white.close()
        black.close()
    assert record.flagged and record.white_score == 1.0
    assert "lost on time" in record.reason
    assert record.move_times and all(spent > 0 for spent, _ in record.move_times)


def test_the_ladder_fits_every_match_and_keeps_wins_of_every_game_finite():
    from scripts.ladder import ANCHOR, fit

    def row(strong: int, weak: int, score: float, games: int = 100) -> dict[str, object]:
        return {"strong": strong, "weak": weak, "games": games, "points": score * games}

    even_steps = [row(n, n - 1, expected_score(100)) for n in range(2, 11)]
    ladder = fit(even_steps)
    assert ladder[0] == ANCHOR
    assert [round(b - a) for a, b in itertools.pairwise(ladder)] == [100] * 9
    # a level two apart that says 150, not 200, pulls both steps toward it, weighted by games
    pulled = fit([*even_steps, row(3, 1, expected_score(150))])
    assert 150 < pulled[2] - pulled[0] < 200
    shutout = fit([row(n, n - 1, 1.0, 10) for n in range(2, 11)])
    assert all(math.isfinite(e) for e in shutout) and shutout == sorted(shutout)


def test_the_ladder_intervals_hold_each_level_and_widen_away_from_the_anchor():
    from scripts.ladder import ANCHOR, fit, intervals

    # 50 pairs a match, 64%: pairs 2-0 25 times, 1-1 14 times, 0-2 11 times
    results = [
        {"strong": n, "weak": n - 1, "games": 100, "points": 64.0, "penta": [11, 0, 14, 0, 25]} for n in range(2, 11)
    ]
    ladder, bounds = fit(results), intervals(results, rounds=400)
    assert bounds[0] == (ANCHOR, ANCHOR)
    assert all(low < elo < high for elo, (low, high) in zip(ladder[1:], bounds[1:], strict=True))
    widths = [high - low for low, high in bounds]
    assert widths[1] < widths[5] < widths[9]
    assert 60 < widths[1] < 250  # one match of 100 games: about ±70 Elo


def test_the_ladder_says_which_levels_its_matches_reach():
    from scripts.ladder import measured

    def row(strong: int, weak: int) -> dict[str, object]:
        return {"strong": strong, "weak": weak, "games": 10, "points": 5.0}

    assert measured([row(2, 1), row(3, 2), row(5, 3)]) == {1, 2, 3, 5}
    assert measured([row(2, 1), row(9, 8)]) == {1, 2}  # 8 and 9 are joined to each other, not to the anchor
    assert measured([]) == {1}


def _run(strong: int, weak: int, penta: list[int] | None, points: float | None = None, first: int = 0) -> dict:
    pairs = sum(penta) if penta is not None else 5
    if points is None:
        points = sum(i * c for i, c in enumerate(penta or [])) / 2
    return {
        "strong": strong,
        "weak": weak,
        "nodes": 32000,
        "first": first,
        "next": first + pairs,
        "games": 2 * pairs,
        "points": points,
        "penta": penta,
        "source": "a test",
    }


def test_the_ladder_adds_up_the_runs_of_a_match_before_fitting_it():
    from scripts.ladder import fit, matches

    one = [_run(2, 1, [1, 0, 2, 0, 7])]
    two = [_run(2, 1, [1, 0, 0, 0, 4]), _run(2, 1, [0, 0, 2, 0, 3], first=5)]
    assert matches(two) == [{"strong": 2, "weak": 1, "games": 20, "points": 16.0, "unpaired": 0}]
    assert fit(two) == fit(one)  # not the mean of the two runs' differences (one of them a shutout)


def test_a_run_without_its_pairs_is_drawn_as_independent_wins_and_losses_at_its_score():
    from scripts.ladder import intervals, match_interval, pair_odds

    unpaired = {**_run(2, 1, None), "next": 20, "games": 40, "points": 30.0}  # 75%
    assert pair_odds(unpaired) == pytest.approx([20 / 16, 0, 20 * 6 / 16, 0, 20 * 9 / 16])
    score, low, high = match_interval([unpaired])
    assert score == 0.75 and high - score == pytest.approx(score - low)
    assert score - low == pytest.approx(1.959963984540054 * math.sqrt(0.75 * 0.25 / 40))  # the binomial's
    kept = _run(2, 1, [1, 2, 3, 2, 2])
    assert match_interval([kept]) == pytest.approx(
        (estimate(kept["penta"]).score, estimate(kept["penta"]).score_low, estimate(kept["penta"]).score_high)
    )
    low2, high2 = intervals([unpaired, kept], rounds=200)[1]  # level 2's: both runs drawn
    assert low2 < 500 + elo_of(0.7) < high2


def test_the_ladder_results_are_checked_when_read_and_kept_a_run_a_line(tmp_path):
    from scripts.ladder import ResultsError, load, save

    path = tmp_path / "ladder.json"
    assert load(path) == []
    runs = [_run(2, 1, [0, 1, 1, 1, 2]), _run(3, 1, None, points=9.5)]
    save(path, runs)
    assert load(path) == runs
    assert len(path.read_text().splitlines()) == 2 + len(runs) + 1  # about, "runs", a line each, the end
    for broken, reason in [
        ("[]", "not a ladder's results"),
        ('{"runs": [{"strong": 2}]}', "run 1: not an object with the keys"),
        ("{", "Expecting"),
    ]:
        path.write_text(broken)
        with pytest.raises(ResultsError, match=reason):
            load(path)
    changes: list[tuple[dict[str, Any], str]] = [
        ({"strong": 1}, "the stronger first"),
        ({"games": 12}, "two for each opening"),
        ({"points": 4.0}, "five counts of pairs"),
        ({"points": 11}, "between 0 and its games"),
        ({"nodes": True}, "whole numbers"),
    ]
    for change, reason in changes:
        save(path, [{**runs[0], **change}])
        with pytest.raises(ResultsError, match=reason):
            load(path)


def test_the_ladder_refuses_a_broken_results_file_with_its_reason_and_status_2(tmp_path, monkeypatch, capsys):
    from scripts import ladder

    path = tmp_path / "ladder.json"
    path.write_text('{"runs": 3}')
    monkeypatch.setattr(sys, "argv", ["ladder", "--fit", "--out", str(path)])
    with pytest.raises(SystemExit) as stopped:
        ladder.main()
    assert stopped.value.code == 2
    assert "not a ladder's results" in capsys.readouterr().err


def test_the_ladder_plays_a_match_on_from_its_first_unplayed_opening_to_the_pairs_asked(tmp_path, monkeypatch):
    from scripts import ladder
    from scripts.match import GameRecord, MatchState, PairResult

    path = tmp_path / "ladder.json"
    runs = [_run(8, 7, None, points=7.0)]  # openings 0-4, pairs not kept
    ladder.save(path, runs)
    asked: list[tuple[int, int]] = []
    saved: list[list[int]] = []

    def fake_match(first, second, control, openings, *, pairs, first_pair, concurrency, on_pair):
        asked.append((first_pair, pairs))
        state = MatchState(first.name, second.name)
        game = GameRecord(first.name, second.name, ())
        order = list(range(first_pair, first_pair + pairs))
        order[0], order[1] = order[1], order[0]  # the second pair finishes first
        for index in order:
            result = PairResult(index, (game, game), (1.0, 0.5))
            state.add(result)
            on_pair(result, state)
            saved.append([run["next"] for run in ladder.load(path)])
        return state

    monkeypatch.setattr(ladder, "run_match", fake_match)
    options: dict[str, Any] = {
        "nodes": 32000,
        "command": ("engine",),
        "concurrency": 2,
        "source": "a test",
        "out": path,
    }
    assert ladder.play(runs, 8, 7, pairs=9, **options) is not None
    assert asked == [(5, 4)]
    assert saved == [[5], [5, 7], [5, 8], [5, 9]]  # pair 6 waited for pair 5; the file written as they came
    assert runs[1] == {**_run(8, 7, [0, 0, 0, 4, 0], first=5), "source": "a test"}
    assert ladder.load(path) == runs
    assert ladder.play(runs, 8, 7, pairs=9, **options) is None  # it has its 9 pairs
    assert ladder.play(runs, 8, 7, pairs=10, **{**options, "nodes": 16000}) is not None  # another budget: anew
    assert asked[-1] == (0, 10)


def test_the_kept_ladder_gives_each_level_its_elo():
    from cescacs_tui.engine.levels import LADDER_NODES, LEVELS
    from scripts.ladder import RESULTS, fit, load

    runs = [run for run in load(RESULTS) if run["nodes"] == LADDER_NODES]
    assert [round(elo) for elo in fit(runs)] == [level.elo for level in LEVELS]
