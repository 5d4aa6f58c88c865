"""The asyncio engine client: moves, streamed analysis, stop at once, and engines that misbehave.

The real engine runs as a subprocess (the default command); the
misbehaving ones are small Python scripts that speak just enough of the
protocol to fail in one particular way.
"""

from __future__ import annotations

import asyncio
import sys
import textwrap
from typing import cast

import pytest

from cescacs_tui.core import Position
from cescacs_tui.core.build_info import build
from cescacs_tui.engine.client import (
    DEFAULT_COMMAND,
    BestMove,
    EngineClient,
    EngineError,
    EngineInfo,
    Search,
    go_command,
    parse_info,
    position_command,
)
from cescacs_tui.engine.pv import format_score, pv_moves, pv_to_ctl_an
from cescacs_tui.engine.search import Limits
from tests.helpers.engine import PATIENCE
from tests.helpers.reference import load_jsonl

MATE_IN_ONE = next(r for r in load_jsonl("mates.jsonl") if r["mate_in"] == 1 and len(r["solutions"]) == 1)


def fake_engine(body: str) -> list[str]:
    """A Python command running ``body``, with ``say(text)`` to write a line."""
    script = textwrap.dedent(
        """
        import sys
        def say(text):
            sys.stdout.write(text + "\\n"); sys.stdout.flush()
        """
    ) + textwrap.dedent(body)
    return [sys.executable, "-c", script]


GREETS = """
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        say("id name Fake"); say("option name Level type spin default 1 min 1 max 10"); say("uciok")
    elif word == "isready":
        say("readyok")
    elif word == "go":
        {on_go}
"""


async def test_the_engine_answers_a_legal_move_and_streams_its_analysis():
    infos: list[EngineInfo] = []
    async with await EngineClient.start(options={"Level": 10, "Seed": 3}, timeout=PATIENCE) as client:
        assert client.name == f"cescacs-tui engine ({build()})"
        assert "Level" in client.declared_options
        start = Position.initial()
        moves = [start.parse_move("E7-E13")]
        search = await client.go(start, moves, Limits(depth=3), on_info=infos.append)
        best = await search.result(timeout=PATIENCE)
        position = start.copy()
        position.push(moves[0])
        assert best.move in position.legal_moves()
        assert infos and [i.depth for i in infos] == sorted(i.depth or 0 for i in infos)
        last = infos[-1]
        assert last.turn == position.turn
        assert last.score is not None and last.white_score == -last.score  # Black to move
        assert last.moves and last.moves[0] == best.move
        assert len(last.moves) == len(last.pv)  # every move of the line is legal and understood
        assert best.info == last


async def test_stop_during_infinite_analysis_answers_at_once_and_the_loop_keeps_running():
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    async with await EngineClient.start(timeout=PATIENCE) as client:
        seen = asyncio.Event()
        search = await client.go(Position.initial(), [], Limits(infinite=True), on_info=lambda info: seen.set())
        task = asyncio.ensure_future(ticker())
        await asyncio.wait_for(seen.wait(), PATIENCE)
        await asyncio.sleep(0.2)
        best = await search.stop()
        task.cancel()
        assert ticks > 0  # the event loop ran while the engine thought
        assert best.move in Position.initial().legal_moves()
        assert search.done
        # a new search after a stop works, and a running one is stopped by the next go
        first = await client.go(Position.initial(), [], Limits(infinite=True))
        second = await client.go(Position.initial(), [], Limits(nodes=200))
        assert first.done
        assert (await second.result(timeout=PATIENCE)).move is not None


async def test_the_beginners_rule_is_sent_with_the_position():
    async with await EngineClient.start(timeout=PATIENCE) as client:
        start = Position.initial(castling=False)
        best = await client.best_move(start, [], Limits(nodes=100))
        assert best.move is not None
        assert client._castling is False
        await client.best_move(Position.initial(), [], Limits(nodes=100))
        assert client._castling is True


async def test_a_mate_score_and_a_position_without_moves():
    async with await EngineClient.start(timeout=PATIENCE) as client:
        start = Position.from_pdtl(MATE_IN_ONE["pdtl"])
        best = await client.best_move(start, [], Limits(depth=3))
        assert str(best.move) == MATE_IN_ONE["solutions"][0]
        assert best.info is not None and best.info.mate == 1 and best.info.white_mate == 1
        assert format_score(best.info.score, best.info.mate) == "#1"
        assert best.move is not None
        none = await client.best_move(start, [best.move], Limits(depth=1))
        assert none.move is None and none.text == "(none)"


async def test_refused_options_and_positions_raise_engine_errors():
    async with await EngineClient.start(timeout=PATIENCE) as client:
        with pytest.raises(EngineError, match="not between 1 and 10"):
            await client.set_option("Level", 99)
        with pytest.raises(EngineError, match="unknown option"):
            await client.set_option("Threads", 4)
        await client.new_game()
        assert (await client.best_move(Position.initial(), [], Limits(nodes=100))).move is not None


async def test_an_engine_that_crashes_mid_search_fails_the_search_clearly():
    crash = fake_engine(GREETS.format(on_go='sys.stderr.write("segmentation fault (pretend)\\n"); sys.exit(3)'))
    client = await EngineClient.start(crash, timeout=PATIENCE)
    with pytest.raises(EngineError, match=r"exited \(status 3\): segmentation fault \(pretend\)"):
        search = await client.go(Position.initial(), [], Limits(movetime=1.0))
        await search.result(timeout=PATIENCE)
    assert not client.alive
    with pytest.raises(EngineError, match="exited"):
        await client.is_ready()
    await client.close()


async def test_a_killed_engine_fails_pending_and_later_calls():
    client = await EngineClient.start(timeout=PATIENCE)
    search = await client.go(Position.initial(), [], Limits(infinite=True))
    client._process.kill()
    with pytest.raises(EngineError, match="exited"):
        await search.result(timeout=PATIENCE)
    with pytest.raises(EngineError):
        await client.go(Position.initial(), [], Limits(nodes=10))
    await client.close()


async def test_an_engine_that_cannot_start_or_never_greets():
    with pytest.raises(EngineError, match="cannot start the engine"):
        await EngineClient.start(["/nonexistent/engine-binary"])
    silent = fake_engine("import time\ntime.sleep(60)")
    with pytest.raises(EngineError, match=r"did not answer uciok within 0\.5 s"):
        await EngineClient.start(silent, timeout=0.5)
    dying = fake_engine('sys.stderr.write("no such option --fast\\n"); sys.exit(2)')
    with pytest.raises(EngineError, match=r"exited \(status 2\): no such option --fast"):
        await EngineClient.start(dying, timeout=PATIENCE)


async def test_an_engine_answering_an_illegal_move_or_garbage():
    liar = fake_engine(
        GREETS.format(on_go='say("info depth 1 score cp zz"); say("info garbage \\x1b[2J"); say("bestmove Z99-A1")')
    )
    async with await EngineClient.start(liar, timeout=PATIENCE) as client:
        assert client.name == "Fake"
        search = await client.go(Position.initial(), [], Limits(nodes=10))
        with pytest.raises(EngineError, match="illegal move: Z99-A1"):
            await search.result(timeout=PATIENCE)
        assert search.infos == [EngineInfo(turn=Position.initial().turn)]  # the unknown words are skipped


async def test_an_engine_that_ignores_stop_is_given_up_after_the_timeout():
    stubborn = fake_engine(GREETS.format(on_go="pass"))
    client = await EngineClient.start(stubborn, timeout=PATIENCE)  # a process's start, however slow the machine
    client.timeout = 0.5  # then the engine's answers: it never answers stop
    search = await client.go(Position.initial(), [], Limits(infinite=True))
    with pytest.raises(EngineError, match=r"did not answer stop within 0\.5 s"):
        await search.stop()
    await client.close()
    assert not client.alive


async def test_a_wait_for_the_answer_cancelled_as_the_answer_comes_is_cancelled():
    """Python 3.11's ``asyncio.wait_for`` returned what it waited for and dropped a cancellation that came in
    the same step (CPython gh-86296): a caller stopped as the engine answered went on with the answer."""
    answer: asyncio.Future[BestMove] = asyncio.get_running_loop().create_future()
    search = Search(cast(EngineClient, None), Position.initial(), None, answer)
    waiting = asyncio.ensure_future(search.result(timeout=PATIENCE))
    await asyncio.sleep(0)  # it waits for the answer
    answer.set_result(BestMove(None, "bestmove (none)", None))
    waiting.cancel()
    await asyncio.wait([waiting])
    assert waiting.cancelled()


def test_parse_info_reads_what_engines_say():
    start = Position.initial()
    info = parse_info(
        "info depth 5 seldepth 9 multipv 1 score cp -23 upperbound nodes 1234 nps 5000 hashfull 3 time 250"
        " currmove E7-E13 pv E7-E13 E21-E15 Z99-A1 F8-F10",
        start,
    )
    assert info is not None
    assert (info.depth, info.seldepth, info.score, info.bound, info.nodes, info.nps, info.time) == (
        5, 9, -23, "upperbound", 1234, 5000, 0.25,
    )  # fmt: skip
    assert info.pv == ("E7-E13", "E21-E15", "Z99-A1", "F8-F10")
    assert [str(m) for m in info.moves] == ["E7-E13", "E21-E15"]  # cut at the first illegal move
    assert parse_info("info score mate -3", start) == EngineInfo(mate=-3, turn=start.turn)
    assert parse_info("info string hello there", start) == EngineInfo(string="hello there", turn=start.turn)
    assert parse_info("info depth five", start) is None
    assert parse_info("info score wdl 1 2 3", start) is None
    assert parse_info("bestmove E7-E13", start) is None


def test_the_commands_the_client_sends():
    start = Position.initial()
    assert position_command(start, []) == "position startpos"
    assert position_command(start, [start.parse_move("E7-E13")]) == "position startpos moves E7-E13"
    other = Position.from_pdtl("/27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1")
    assert position_command(other, []) == "position pdtl /27:dk/25:r2r/3:R2R/1:DK/ w RKRrkr - 0 1"
    assert go_command(Limits(infinite=True)) == "go infinite"
    assert go_command(Limits()) == "go infinite"
    assert go_command(Limits(movetime=0.3)) == "go movetime 300"
    assert go_command(Limits(depth=4, nodes=1000)) == "go depth 4 nodes 1000"
    assert go_command(Limits(white_time=60, black_time=59.5, white_increment=1, moves_to_go=20)) == (
        "go wtime 60000 winc 1000 btime 59500 binc 0 movestogo 20"
    )
    assert DEFAULT_COMMAND[1:] == ("-m", "cescacs_tui", "engine")


def test_a_line_in_ctl_an_with_move_numbers():
    start = Position.initial()
    line = pv_moves(start, ["E7-E13", "E21-E15", "G3-H8", "not-a-move", "F8-F10"])
    assert pv_to_ctl_an(start, line) == "1. E7-E13 E21-E15 2. NG3-H8"
    after = start.copy()
    after.push(line[0])
    assert pv_to_ctl_an(after, line[1:]) == "1... E21-E15 2. NG3-H8"
    assert pv_to_ctl_an(after, line[1:], numbers=False) == "E21-E15 NG3-H8"
    assert format_score(125, None) == "+1.25"
    assert format_score(-40, None) == "-0.40"
    assert format_score(None, -2) == "-#2"
    assert format_score(None, None) == "?"
