"""A process playing on the server's storage, for the tests that kill one or race two.

python -m tests.helpers.server_child burst DB WHITE BLACK SEED
    plays random legal moves for the accounts WHITE and BLACK (ids) in their games, a new game when one
    ends, and prints ``ACK game ply move`` as soon as the lobby says each move was played;
python -m tests.helpers.server_child race DB GAME WHITE BLACK PICK
    for each ``go PLY`` line on its input, plays a legal move (the first if PICK is 0, the last otherwise)
    in GAME for the player whose move it is at PLY (of the accounts WHITE and BLACK), and prints
    ``OK ply`` or ``REFUSED reason``; any other line ends it.
python -m tests.helpers.server_child node DB
    a server process's lobby: prints ``READY`` once it listens for changes, then what it hears, read from the
    storage (``SAW game ply move stamp`` for a move, ``SEEKS id,...`` for an offer, ``ONLINE name,...`` for
    presence; the stamp is ``time.monotonic()``, one clock for every process of the machine), and obeys its
    input: ``play GAME ACCOUNT PICK`` (the first legal move if PICK is 0, the last otherwise: ``PLAYED ply
    move stamp`` or ``REFUSED reason``), ``seek ACCOUNT``, ``arrive ACCOUNT``; an empty line or the end of
    its input ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time

from cescacs_tui.core.pieces import WHITE
from cescacs_tui.server.lobby import Lobby, Refusal, Terms
from cescacs_tui.server.model import ChangeKind, GameStatus
from cescacs_tui.server.storage import open_storage


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def burst(db: str, white_id: int, black_id: int, seed: int) -> None:
    storage = await open_storage(db)
    lobby = Lobby(storage, choose=lambda sides: sides[0])
    white, black = await storage.account(white_id), await storage.account(black_id)
    assert white is not None and black is not None
    rng = random.Random(seed)
    while True:
        playing = [g for g in await storage.games_of(white_id) if g.status is GameStatus.PLAYING]
        if playing:
            game = playing[0]
        else:
            offered = await lobby.challenge(white, black.name, Terms.correspondence(3))
            game = await lobby.accept(black, offered.id)
            say(f"GAME {game.id}")
        _, core = await lobby.look(game.id)
        move = rng.choice(sorted(core.position.legal_moves(), key=str))
        mover = white if game.to_move == WHITE else black
        played = await lobby.play(mover, game.id, core.position.ctl_an(move))
        say(f"ACK {game.id} {played.game.ply} {played.move}")


async def race(db: str, game_id: int, white_id: int, black_id: int, pick: int) -> None:
    storage = await open_storage(db)
    lobby = Lobby(storage)
    white, black = await storage.account(white_id), await storage.account(black_id)
    assert white is not None and black is not None
    say("READY")
    for line in sys.stdin:
        words = line.split()
        if len(words) != 2 or words[0] != "go":
            break
        _, core = await lobby.look(game_id)
        moves = sorted(core.position.legal_moves(), key=str)
        move = moves[0] if pick == 0 else moves[-1]
        try:
            mover = white if int(words[1]) % 2 == 0 else black
            played = await lobby.play(mover, game_id, core.position.ctl_an(move))
        except Refusal as refused:
            say(f"REFUSED {refused}")
        else:
            say(f"OK {played.game.ply}")
    await storage.close()


async def node(db: str) -> None:
    storage = await open_storage(db)
    lobby = Lobby(storage)
    loop = asyncio.get_running_loop()

    async def hear() -> None:
        async with lobby.changes() as changes:
            listening.set()
            async for change in changes:
                if change.kind is ChangeKind.GAME and change.ply:
                    found = await storage.game_and_moves(change.id)
                    if found is not None and found[1]:
                        last = found[1][-1]
                        say(f"SAW {change.id} {last.ply} {last.move} {time.monotonic()}")
                elif change.kind is ChangeKind.GAME:
                    say("SEEKS " + ",".join(str(seek.id) for seek in await lobby.seeks()))
                elif change.kind is ChangeKind.PRESENCE:
                    say("ONLINE " + ",".join(account.name for account in await lobby.online()))

    listening = asyncio.Event()
    hearing = asyncio.create_task(hear())
    await listening.wait()
    say("READY")
    while words := (await loop.run_in_executor(None, sys.stdin.readline)).split():
        account = await storage.account(int(words[2] if words[0] == "play" else words[1]))
        assert account is not None
        if words[0] == "play":
            _, core = await lobby.look(int(words[1]))
            moves = sorted(core.position.legal_moves(), key=str)
            move = moves[0] if words[3] == "0" else moves[-1]
            try:
                played = await lobby.play(account, int(words[1]), core.position.ctl_an(move))
            except Refusal as refused:
                say(f"REFUSED {refused}")
            else:
                say(f"PLAYED {played.game.ply} {played.move} {time.monotonic()}")
        elif words[0] == "seek":
            await lobby.seek(account, Terms.correspondence(2))
        elif words[0] == "arrive":
            await lobby.arrive(account)
    hearing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await hearing
    await storage.close()


def main(argv: list[str]) -> None:
    match argv:
        case ["burst", db, white, black, seed]:
            asyncio.run(burst(db, int(white), int(black), int(seed)))
        case ["race", db, game, white, black, pick]:
            asyncio.run(race(db, int(game), int(white), int(black), int(pick)))
        case ["node", db]:
            asyncio.run(node(db))
        case _:
            raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
