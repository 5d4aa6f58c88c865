"""Playing the computer in a game: the engine to run, the time it is given, its move at the live end, hints."""

from __future__ import annotations

import asyncio
import random

import pytest

from cescacs_tui.core import Game, Position, TimeControl
from cescacs_tui.core.clock import ClockKind
from cescacs_tui.core.pieces import WHITE
from cescacs_tui.engine.client import DEFAULT_COMMAND, EngineClient, EngineError, EngineInfo
from cescacs_tui.engine.computer import (
    PER_MOVE_MARGIN,
    analyse,
    computer_move,
    engine_command,
    hint,
    limits_for,
)
from cescacs_tui.engine.search import Limits
from tests.helpers.clock import FakeTime
from tests.helpers.engine import PATIENCE
from tests.helpers.reference import load_jsonl


def test_the_engine_command_setting():
    assert engine_command(None) == engine_command("  ") == list(DEFAULT_COMMAND)
    assert engine_command("/opt/engines/other --uci 'two words'") == ["/opt/engines/other", "--uci", "two words"]
    with pytest.raises(ValueError, match="cannot be read"):
        engine_command("engine 'unclosed")


def test_the_computer_is_given_a_fixed_time_without_a_clock():
    assert limits_for(Game.new()) == Limits(movetime=2.0)
    assert limits_for(Game.new(), movetime=0.5) == Limits(movetime=0.5)


def test_the_computer_is_given_the_clock_with_its_increment_or_delay():
    time = FakeTime()
    game = Game.new(time_control=TimeControl(ClockKind.FISCHER, base=300, increment=5), time_source=time)
    game.play_text("E7-E13")  # starts the clocks: Black's runs
    time.advance(10)
    assert limits_for(game) == Limits(white_time=305, black_time=290, white_increment=5, black_increment=5)
    delay = Game.new(time_control=TimeControl(ClockKind.BRONSTEIN, base=60, delay=3))
    assert limits_for(delay).white_increment == 3
    per_move = Game.new(time_control=TimeControl(ClockKind.PER_MOVE, base=10))
    assert limits_for(per_move) == Limits(movetime=10 - PER_MOVE_MARGIN)


async def test_computer_move_plays_at_the_live_end_of_a_game():
    game = Game.new()
    game.play_text("E7-E13")
    async with await EngineClient.start(timeout=PATIENCE) as client:
        infos: list[EngineInfo] = []
        move = await computer_move(client, game, 3, movetime=0.2, on_info=infos.append)
        assert move in game.position.legal_moves()
        assert infos
        row = next(r for r in load_jsonl("mates.jsonl") if r["mate_in"] == 1)
        mated = Game(Position.from_pdtl(row["pdtl"]))
        mated.play_text(row["solutions"][0])
        assert mated.outcome is not None
        with pytest.raises(EngineError, match="no move to play"):
            await computer_move(client, mated, 3, movetime=0.1)


async def test_a_hint_and_an_analysis_at_any_ply_at_full_strength():
    game = Game.new()
    for text in ("E7-E13", "E21-E15", "F8-F12"):
        game.play_text(text)
    async with await EngineClient.start(options={"Level": 1}, timeout=PATIENCE) as client:
        best = await hint(client, game, 1, movetime=0.3)
        assert best.move in game.position_at(1).legal_moves()
        assert best.info is not None and best.info.moves[0] == best.move
        seen = asyncio.Event()
        infos: list[EngineInfo] = []

        def report(info: EngineInfo) -> None:
            infos.append(info)
            seen.set()

        search = await analyse(client, game, None, report)
        await asyncio.wait_for(seen.wait(), PATIENCE)
        final = await search.stop()
        assert final.move in game.position.legal_moves()
        assert all(info.turn == game.position.turn for info in infos)
        # the opponent's level is set again for its move
        await computer_move(client, game, 2, movetime=0.1)


async def test_a_game_against_the_computer_plays_to_the_end_the_same_way_twice():
    """The app's loop without the app: a person (here a random mover) against the engine process, refereed."""

    async def play() -> tuple[list[str], str]:
        game = Game.new()
        rng = random.Random(4)
        async with await EngineClient.start(options={"Seed": 9}, timeout=PATIENCE) as client:
            await client.new_game()
            while game.outcome is None and game.ply < 160:
                if game.position.turn == WHITE:
                    move = rng.choice(game.position.legal_moves())
                else:
                    move = await computer_move(client, game, 10, limits=Limits(nodes=300))
                game.play(move)
        return [str(m) for m in game.moves], game.result

    first, second = await play(), await play()
    assert first == second
    assert first[1] == "0-3"  # the computer mates the random mover
