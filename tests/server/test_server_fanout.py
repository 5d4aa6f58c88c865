"""Fan-out's own parts: the payload every process reads (strict: any client of the database may NOTIFY), and a
listener that falls behind."""

from __future__ import annotations

import pytest

from cescacs_tui.server.fanout import LISTENER_BACKLOG, LocalFanout, decode, encode
from cescacs_tui.server.model import Change, ChangeKind


@pytest.mark.parametrize(
    "change", [Change(ChangeKind.GAME, 12, 31), Change(ChangeKind.PRESENCE), Change(ChangeKind.ACCOUNT, 7)]
)
def test_a_change_is_read_back_as_it_was_written(change: Change) -> None:
    assert decode(encode(change)) == change


@pytest.mark.parametrize(
    "payload",
    ["", "game 12", "game 12 31 4", "move 12 31", "game -1 0", "game 12 3.5", "game ١٢ 0", "game  12 0",
     "game 1234567890123 0", "game 1 1" + " " * 80, "GAME 1 1", "game 1 1\n"],
)  # fmt: skip
def test_any_other_payload_is_refused(payload: str) -> None:
    assert decode(payload) is None


async def test_a_listener_that_falls_behind_is_told_to_read_again_and_hears_what_follows() -> None:
    fanout = LocalFanout()
    async with fanout.listen() as changes:
        for number in range(LISTENER_BACKLOG + 10):
            fanout.tell(Change(ChangeKind.ACCOUNT, number))
        fanout.tell(Change(ChangeKind.GAME, 1, 1))
        assert await anext(changes) == Change(ChangeKind.RESYNC)
        assert [await anext(changes) for _ in range(10)][-1] == Change(ChangeKind.GAME, 1, 1)
