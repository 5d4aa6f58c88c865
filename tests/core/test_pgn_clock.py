"""The ``[%clk]`` comment command: written rounded up, read strictly (h:mm:ss, minutes and seconds below 60)."""

from __future__ import annotations

import math

import pytest

from cescacs_tui.core.clock import ClockError
from cescacs_tui.core.pgn_clock import format_clk, parse_clk


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (898, "0:14:58"),
        (3723, "1:02:03"),
        (36000, "10:00:00"),
        (10, "0:00:10"),
        (9.7, "0:00:09.7"),
        (0.01, "0:00:00.1"),
        (0, "0:00:00.0"),
        (-1, "0:00:00.0"),
    ],
)
def test_format_clk(seconds: float, text: str) -> None:
    assert format_clk(seconds) == text


@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_format_clk_refuses_a_time_that_is_not_finite(bad: float) -> None:
    with pytest.raises(ClockError, match="finite"):
        format_clk(bad)


@pytest.mark.parametrize(
    ("comment", "seconds"),
    [
        ("[%clk 0:14:58]", 898),
        ("good move [%clk 1:02:03] under pressure", 3723),
        ("[%clk 0:00:09.7]", 9.7),
        ("[%emt 0:00:05][%clk 0:01:00]", 60),
        ("[%clk  12:00:00 ]", 43200),
        ("[%clk 0:75:00] [%clk 0:01:30]", 90),  # the first is malformed, the second counts
    ],
)
def test_parse_clk_finds_the_clock_command(comment: str, seconds: float) -> None:
    assert parse_clk(comment) == seconds


@pytest.mark.parametrize(
    "comment",
    ["", "no clock here", "[%clk]", "[%clk 14:58]", "[%clk 0:75:00]", "[%clk 0:1:00]", "[%clk abc]", "%clk 0:01:00"],
)
def test_parse_clk_ignores_garbage(comment: str) -> None:
    assert parse_clk(comment) is None


@pytest.mark.parametrize("seconds", [0, 0.4, 9.7, 10, 59, 898, 3723, 86399])
def test_format_clk_reads_back_with_parse_clk(seconds: float) -> None:
    assert parse_clk(f"[%clk {format_clk(seconds)}]") == seconds
