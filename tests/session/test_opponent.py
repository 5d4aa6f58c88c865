"""The computer at the table (session/opponent.py) with the real engine, a few hundred nodes a move, and with
engines that cannot start or speak garbage: moves, stale answers dropped, hints, analysis, clear failures."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.game import Game
from cescacs_tui.core.pieces import BLACK
from cescacs_tui.data.engine_slots import EngineSlots
from cescacs_tui.engine.client import EngineInfo
from cescacs_tui.engine.search import Limits
from cescacs_tui.session import GameSession, Tone
from cescacs_tui.session.opponent import Analysis, Opponent, score_words
from cescacs_tui.session.players import HUMAN, TWO_PEOPLE, Contender
from tests.helpers.waiting import PATIENCE, until

FAST = Limits(nodes=300)


def opponent_for(session: GameSession, **kwargs: object) -> Opponent:
    options = {"options": {"Seed": 7}, "limits": FAST, "hint_limits": FAST, "timeout": PATIENCE, **kwargs}
    return Opponent(session, **options)  # type: ignore[arg-type]


async def test_the_computer_plays_its_turn_like_a_person_and_repeats_itself_with_a_seed() -> None:
    moves = []
    for _ in range(2):
        session = GameSession()
        session.players = (Contender(5), HUMAN)
        opponent = opponent_for(session)
        try:
            played = await opponent.play_turn()
            assert played.done and (played.text or "").startswith("White played ")
            assert session.game.ply == 1 and not session.computer_to_move
            assert (await opponent.play_turn()).text is None  # not its turn: nothing happens
            moves.append(session.game.moves[0])
        finally:
            await opponent.close()
    assert moves[0] == moves[1]


async def test_the_clock_runs_for_the_computer_and_switches_to_the_person_after_its_move() -> None:
    game = Game.new(time_control=TimeControl.from_tag("300"))
    assert game.clock is not None
    game.clock.start(game.position.turn)
    session = GameSession(game)
    session.players = (Contender(2), HUMAN)
    opponent = opponent_for(session, limits=None)  # by the clock, as in a real game
    try:
        assert (await opponent.play_turn()).done
    finally:
        await opponent.close()
    assert game.clock.running == game.position.turn  # Black's clock now
    assert game.clock.remaining(game.position.turn.opponent) < 300


async def test_an_answer_about_a_position_taken_back_is_dropped() -> None:
    session = GameSession()
    session.players = (HUMAN, Contender(10))
    session.play_text("E7-E13")
    infos: list[EngineInfo] = []
    opponent = opponent_for(session, limits=Limits(infinite=True))  # it thinks until told to stop
    try:
        turn = asyncio.ensure_future(opponent.play_turn(on_info=infos.append))
        await until(lambda: infos, "the computer's first report")
        assert opponent.thinking
        session.takeback()  # the person takes the move back while the computer thinks
        await opponent.stop()
        dropped = await turn
        assert dropped.text is None and not dropped.done
        assert session.game.ply == 0 and not opponent.thinking
        session.play_text("H6-H12")
        opponent.limits = FAST
        assert (await opponent.play_turn()).done  # the engine is free again, for the new position
        assert str(session.game.moves[0]) == "H6-H12" and session.game.ply == 2
    finally:
        await opponent.close()


async def test_cancelling_the_computers_turn_stops_the_engines_search() -> None:
    session = GameSession()
    session.players = (Contender(10), HUMAN)
    infos: list[EngineInfo] = []
    opponent = opponent_for(session, limits=Limits(infinite=True))
    try:
        turn = asyncio.ensure_future(opponent.play_turn(on_info=infos.append))
        await until(lambda: infos, "the computer's first report")
        turn.cancel()
        with pytest.raises(asyncio.CancelledError):
            await turn
        assert session.game.ply == 0 and not opponent.thinking
        client = await opponent.client()
        best = await client.best_move(session.game.start, [], FAST)  # answered: no search was left running
        assert best.move is not None
    finally:
        await opponent.close()


async def test_a_hint_previews_the_best_move_with_its_score_and_plays_nothing() -> None:
    session = GameSession()
    opponent = opponent_for(session)
    try:
        said = await opponent.hint()
        assert said.tone is Tone.INFO and (said.text or "").startswith("hint: ")
        assert "from White's side" in (said.text or "")
        assert len(session.preview) >= 2 and session.game.ply == 0
        session.play_text("E7-E13")
        assert session.preview == ()
        session.players = (HUMAN, Contender(3))
        assert (await opponent.hint()).text == (
            "the computer is thinking: wait for its move, or take yours back with u"
        )
    finally:
        await opponent.close()


async def test_the_hint_found_is_the_one_played_by_its_key() -> None:
    session = GameSession()
    opponent = opponent_for(session)
    try:
        said = await opponent.hint()
        assert (said.text or "").endswith("x plays it")
        hinted = session.hinted
        assert hinted is not None and session.play_hint().done
        assert session.game.moves == [hinted]
    finally:
        await opponent.close()


async def test_the_analysis_follows_the_position_shown_and_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    session = GameSession()
    session.play_text("E7-E13")
    reports: list[Analysis] = []
    opponent = opponent_for(session)
    try:
        await opponent.analyse(reports.append)
        await until(lambda: reports, "an analysis report")
        assert not opponent.analysis_stale()
        assert reports[-1].line.startswith("1... ") and reports[-1].depth is not None
        session.review_back()
        assert opponent.analysis_stale()  # the review moved: the front end starts it again
        client = await opponent.client()
        stop = client.stop

        async def stop_after_a_last_report() -> None:  # as a loaded machine has it: one more line before bestmove
            client._on_info("info depth 1 score cp 20 nodes 416 pv E21-E15 C5-C11")
            await stop()

        monkeypatch.setattr(client, "stop", stop_after_a_last_report)
        reports.clear()
        await opponent.analyse(reports.append)
        await until(lambda: reports, "a report about the start")
        assert all(report.line.startswith("1. ") for report in reports)  # never the old position's
        await opponent.stop()
        assert opponent.analysis_stale()
    finally:
        await opponent.close()


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["/nonexistent/engine-of-nobody"], "the computer cannot play: cannot start the engine /nonexistent"),
        ([sys.executable, "-c", "print('hello, I am no engine'); import sys; sys.stdin.read()"], "did not answer uci"),
        ([sys.executable, "-c", "print('Traceback: nonsense')"], "the engine exited"),
    ],
    ids=["missing", "garbage", "exits"],
)
async def test_an_engine_that_cannot_play_says_why_and_people_play_on(command: list[str], expected: str) -> None:
    session = GameSession()
    session.players = (Contender(3), HUMAN)
    opponent = Opponent(session, command, timeout=0.5)
    try:
        said = await opponent.play_turn()
    finally:
        await opponent.close()
    assert said.tone is Tone.ERROR and expected in (said.text or ""), said.text
    assert "people play both sides now" in (said.text or "")
    assert session.players == TWO_PEOPLE and session.game.ply == 0
    assert session.play_text("E7-E13").done  # nothing is stuck


def test_scores_read_from_whites_side() -> None:
    assert score_words(EngineInfo(score=130)) == "+1.3"
    assert score_words(EngineInfo(score=130, turn=BLACK)) == "-1.3"
    assert score_words(EngineInfo(score=-3)) == "0.0"
    assert score_words(EngineInfo(mate=2)) == "White mates in 2"
    assert score_words(EngineInfo(mate=2, turn=BLACK)) == "Black mates in 2"
    assert score_words(EngineInfo(mate=-1)) == "Black mates in 1"
    assert score_words(EngineInfo()) == "?"


# --- a server's shared engine places ------------------------------------------------------------


async def test_on_a_server_an_engine_runs_only_in_a_free_place_and_gives_it_back_when_done(tmp_path: Path) -> None:
    places = EngineSlots(tmp_path, 1)
    places.prepare()
    session = GameSession()
    opponent = opponent_for(session, places=places)
    try:
        held = places.take()  # another visitor's engine holds the only place
        assert held is not None
        refused = await opponent.hint()
        assert refused.tone is Tone.ERROR and refused.text == (
            "the server's engine is busy with another visitor: try again in a moment"
        )
        held.release()
        hinted = await opponent.hint()
        assert (hinted.text or "").startswith("hint: ")
        again = places.take()  # the hint is over: its engine ended and the place is free
        assert again is not None
        again.release()
    finally:
        await opponent.close()


async def test_on_a_server_the_computers_turn_waits_for_a_place_then_plays(tmp_path: Path) -> None:
    places = EngineSlots(tmp_path, 1)
    places.prepare()
    session = GameSession()
    session.players = (Contender(3), HUMAN)
    opponent = opponent_for(session, places=places)
    held = places.take()
    assert held is not None
    turn = asyncio.ensure_future(opponent.play_turn())
    try:
        await until(lambda: opponent.thinking, "the computer to start its turn")
        for _ in range(3):  # a few rounds of the loop: still no place, so no engine was started
            await asyncio.sleep(0)
        assert opponent._client is None and not turn.done() and session.game.ply == 0
        held.release()
        played = await asyncio.wait_for(turn, PATIENCE)
        assert played.done and session.game.ply == 1
        assert places.take() is not None  # its move made, its engine ended: the place is free
    finally:
        turn.cancel()
        await opponent.close()
