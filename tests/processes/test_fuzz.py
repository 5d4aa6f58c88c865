"""A small, fixed share of the fuzz run (scripts/fuzz.py): no traceback, no hang, from the readers or the command.

The full run (20,000 core inputs, 1,000 runs of the command) takes minutes and
is a script; its figures are in docs/development.md's reliability section.  This share
runs with its own seeds, different from the script's default, so the suite
adds inputs to what the full run covers instead of repeating them.
"""

from __future__ import annotations

from scripts.fuzz import fuzz_cli, fuzz_core


def test_a_thousand_core_inputs_give_no_traceback_and_no_hang() -> None:
    tally = fuzz_core(seed=2201, count=1_000)
    assert tally.total == 1_000
    assert (tally.tracebacks, tally.hangs) == ([], [])


def test_a_dozen_runs_of_the_command_with_hostile_arguments_give_no_traceback_and_no_hang() -> None:
    tally = fuzz_cli(seed=2202, count=12)
    assert tally.total == 12
    assert (tally.tracebacks, tally.hangs) == ([], [])
