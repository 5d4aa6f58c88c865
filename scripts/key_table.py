"""The README's table of keys, made from the action table, so the README cannot list a key the app does not have.

    python scripts/key_table.py           # print the table
    python scripts/key_table.py --write   # put it in README.md, between its two markers

The app's bindings, footer, command palette and help page are generated from
:data:`cescacs_tui.session.ACTIONS`; this makes the README's table from it
too.  ``tests/project/test_docs.py`` checks that the README holds exactly this table.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cescacs_tui.session import ACTIONS
from cescacs_tui.session.actions import key_name

README = Path(__file__).resolve().parent.parent / "README.md"
BEGIN = "<!-- keys: made by python scripts/key_table.py --write from the action table; do not edit by hand -->"
END = "<!-- end of keys -->"
PALETTE = "`Ctrl+P`"
"""What an action without a key is reached by: the command palette, where every action is listed by title."""


def key_table() -> str:
    """Every action, in the action table's order: its keys (or the palette), its title and what it does."""
    rows = ["| key | action | what it does |", "| --- | --- | --- |"]
    for action in ACTIONS.values():
        keys = " ".join(f"`{key_name(key)}`" for key in action.keys.split(",")) if action.keys else PALETTE
        rows.append(f"| {keys} | {action.title} | {action.help} |")
    return "\n".join(rows)


def with_table(readme: str) -> str:
    """``readme`` with the text between the markers replaced by :func:`key_table`."""
    head, found, rest = readme.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not (found and found_end):
        raise SystemExit(f"{README.name}: the markers {BEGIN!r} and {END!r} are missing")
    return f"{head}{BEGIN}\n{key_table()}\n{END}{tail}"


def main(arguments: list[str]) -> int:
    if arguments == ["--write"]:
        README.write_text(with_table(README.read_text(encoding="utf-8")), encoding="utf-8")
    elif not arguments:
        print(key_table())
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
