"""A stand-in for a running ``cescacs``, for tests with several real processes on one data directory.

It owns an autosave slot as the app does and plays what it is told, one
command a line on stdin, one JSON answer a line on stdout:

* ``open``: :func:`~cescacs_tui.data.slots.open_autosave` (resumes the game offered);
* ``fresh``: :func:`~cescacs_tui.data.slots.fresh_slot` (a separate game);
* ``take``: own the main autosave if its owner has gone (then resume its game);
* ``play MOVE``: play and save, answer the moves of the game as saved;
* ``quit``: release the slot and exit; ``exit``: exit without releasing it by hand;
  ``die``: ``SIGKILL`` itself, releasing nothing.

:class:`Player` drives one from a test.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent.parent


class Player:
    """One stand-in process on the data directory ``data``."""

    def __init__(self, data: Path) -> None:
        env = {**os.environ, "CESCACS_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.helpers.autosave_player"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def ask(self, command: str, timeout: float = 60) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, f"no answer to {command!r}"
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def quit(self) -> int:
        self.ask("quit")
        return self.process.wait(timeout=60)

    def kill(self) -> int:
        self.process.send_signal(signal.SIGKILL)
        return self.process.wait(timeout=60)


def main() -> None:
    from cescacs_tui.core.game import Game
    from cescacs_tui.data.lock import AutosaveBusy
    from cescacs_tui.data.slots import AutosaveSlot, fresh_slot, open_autosave, slot_path

    slot: AutosaveSlot | None = None
    game = Game.new()

    def say(**answer: Any) -> None:
        print(json.dumps(answer), flush=True)

    for line in sys.stdin:
        command, _, argument = line.strip().partition(" ")
        if command == "open":
            start = open_autosave()
            slot = start.slot
            if start.saved is not None:
                game = start.saved.game
            say(slot=slot and slot.path.name, busy=start.busy and start.busy.pid, moves=[n.san for n in game.nodes])
        elif command == "fresh":
            slot = fresh_slot()
            say(slot=slot.path.name)
        elif command == "take":
            try:
                slot = AutosaveSlot.acquire(slot_path(1))
            except AutosaveBusy as busy:
                say(busy=busy.pid)
                continue
            saved = slot.load().saved
            if saved is not None:
                game = saved.game
            say(slot=slot.path.name, moves=[n.san for n in game.nodes])
        elif command == "play":
            assert slot is not None
            game.play_text(argument)
            slot.save(game)
            say(moves=[n.san for n in game.nodes])
        elif command == "exit":  # a normal exit without releasing anything by hand
            say(bye=True)
            return
        elif command == "quit":
            if slot is not None:
                slot.release()
            say(bye=True)
            return
        elif command == "die":
            os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    main()
