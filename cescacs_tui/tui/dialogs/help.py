"""The help page: every key (from the widgets' bindings and the action table, so it never goes stale) and CTL-AN."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Final

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.binding import Binding

from ...core.safe_text import safe_text
from ...i18n import N_, _
from ...session import ACTIONS
from ...session.actions import NO_KEYMAP, PICKS, keys_label, keys_of
from ..keymap import VIM_HELP, VIM_LETTERS
from ..widgets.board import HexBoard
from ..widgets.move_list import MoveList


def ctl_an_guide() -> str:
    """The notation guide of the help page, in the interface's language (the notation itself never changes)."""
    return _(CTL_AN_GUIDE)


CTL_AN_GUIDE = N_("""\
Moves are typed in CTL-AN (lower case and an x between hexes are fine here):

  E7-E13        a pawn move: no letter for pawns (here a triple step)
  NE3-D8        a piece move: its letter, its hex, a hyphen, the target
  E13×F16       a capture: × (or * or x); a captured piece is named:
  EF12×NF14       the Elephant on F12 takes a Knight
  F12@@G9       en passant (@@: on the far crossed hex after a triple step)
  E15@F14       taking a scornful pawn
  B20-B24=G     promotion: = and the regained piece
  A19-A23=&     a pawn that reaches its last hex with nothing to regain
  P21=J         promoting a pawn that was waiting (the forced turn)
  KRK-HIO       castling: King + king's rook (KRK), queen's rook (KRD) or both (KRR)

Pieces: K King, D Queen, V Wyvern, R Rook, G Pegasus, N Knight, J Bishop,
E Elephant (aliases such as Q, W, T, C, B, H are understood too).
Check marks (+^ adjoining, +∞ from afar, ++ double, # mate) are optional.
The canonical coordinate form also works: E3-A11, F26-F28=D.

On the board: · a move (1-9 its number key), × a capture, [ ] the cursor,
> < the selected piece, ! a King in check, P? a pawn awaiting promotion,
{ } a typed move's preview.  With a piece selected, the arrows jump among its targets.
The arrows follow the rows drawn: on the full and large boards a row is one
line (← from D4 goes to B4), on the compact board a row holds two (← from D4
goes to C3).  In the hot seat each side's cursor starts on the piece it moved
last (or picked since).
""")


def _binding_rows(bindings: list[Binding], keymap: Mapping[str, str]) -> list[tuple[str, str]]:
    """One row per binding, with the keymap's keys; the bindings of one group share a row (the board's 1 to 9)."""
    rows: list[tuple[str, str]] = []
    groups: dict[int, int] = {}  # group id -> its row
    for binding in bindings:
        keys = keys_label(keymap.get(binding.id, binding.key) if binding.id else binding.key)
        if binding.group is None:
            rows.append((keys, _(binding.description) if binding.description else binding.action))
        elif id(binding.group) in groups:
            index = groups[id(binding.group)]
            rows[index] = (rows[index][0] + ("" if binding.group.compact else " ") + keys, rows[index][1])
        else:
            groups[id(binding.group)] = len(rows)
            rows.append((keys, _(binding.group.description)))
    return rows


def _game_rows(keymap: Mapping[str, str]) -> list[tuple[str, str]]:
    """One row per action with keys, but one for all the piece letters (``K D V R G N J E P``), where the first is."""
    keyed = [(action, keys) for action in ACTIONS.values() if (keys := keys_of(action.name, keymap))]
    letters = " ".join(keys_label(keys) for action, keys in keyed if action.name in PICKS)
    rows: list[tuple[str, str]] = []
    for action, keys in keyed:
        if action.name not in PICKS:
            rows.append((keys_label(keys), _(action.label)))
        elif letters:
            rows.append((letters, _("Pick a piece by its letter (again: the next one)")))
            letters = ""
    return rows


ALSO: Final = N_(
    "Also: Tab moves between the board, the move list and the move box\n"
    "(and the notes beside the move list, when a record comments on a move: ¶;\n"
    "i follows a variation the record gives there, Esc comes back out of it);\n"
    "click a hex to pick it, click a move in the list to review it;\n"
    "type a hex name (f14) in the move box to put the cursor there: your piece's\n"
    "hex picks it, then the number shown on a target (or its hex) plays it;\n"
    "Ctrl+P opens the command palette (Language: Català, Español, English);\n"
    "Ctrl+Q quits (the game is saved).\n"
)
NOTATION: Final = "CTL-AN"
"""The notation's name, the guide's title in every language."""
_EXAMPLE: Final = re.compile(r"  (\S+)( +)(.*)")
"""A line of the guide's examples: two spaces, the move, the spaces that align its words, the words."""


def _key_rows(rows: list[tuple[str, str]]) -> Table:
    """Keys and what they do, two columns: a description too long for its line goes on under itself."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for keys, description in rows:
        grid.add_row(safe_text(keys), description)  # the player's own keys come from their settings file
    return grid


def _flowing(paragraph: str) -> Text:
    """A paragraph as one line that the page wraps at its width (the catalogs break its lines for reading)."""
    return Text(" ".join(line.strip() for line in paragraph.strip().splitlines()))


def _guide(guide: str) -> list[RenderableType]:
    """The notation guide: its examples as two columns (the words under themselves when they wrap), the rest as
    paragraphs that flow."""
    parts: list[RenderableType] = []
    for block in guide.strip("\n").split("\n\n"):
        lines = block.splitlines()
        examples = [_EXAMPLE.fullmatch(line) for line in lines]
        if all(examples):
            column = min(len(match[1]) + len(match[2]) for match in examples if match)
            rows = [
                (match[1], " " * (len(match[1]) + len(match[2]) - column) + match[3]) for match in examples if match
            ]
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True, min_width=column - 1)
            grid.add_column()
            for move, words in rows:
                grid.add_row(move, words)
            parts.append(Padding(grid, (0, 0, 0, 2)))
        else:
            parts.append(_flowing(block))
        parts.append(Text())
    return parts[:-1]


def help_text(keymap: Mapping[str, str] = NO_KEYMAP) -> Group:
    """The help page: board keys, move-list keys, then every game action (the keys ``keymap`` gives), then the
    notation guide; laid out for any width (the 80-column terminal's included): descriptions and paragraphs
    wrap at the page's width, each under itself."""
    sections = (
        (
            _("On the board"),
            [
                *_binding_rows([b for b in HexBoard.BINDINGS if isinstance(b, Binding)], keymap),
                ("".join(VIM_LETTERS.values()), _(VIM_HELP)),
            ],
        ),
        (_("In the move list"), _binding_rows([b for b in MoveList.BINDINGS if isinstance(b, Binding)], keymap)),
        (_("Game"), _game_rows(keymap)),
    )
    width = max(13, *(cell_len(keys) for _title, rows in sections for keys, _description in rows))
    parts: list[RenderableType] = []
    for title, rows in sections:
        parts.append(Text(title, style="bold underline"))
        grid = _key_rows(rows)
        grid.columns[0].min_width = width
        parts.append(Padding(grid, (0, 0, 1, 2)))
    parts += [_flowing(_(ALSO)), Text(), Text(NOTATION, style="bold underline"), *_guide(ctl_an_guide())]
    return Group(*parts)


def help_plain(keymap: Mapping[str, str] = NO_KEYMAP, *, width: int = 200) -> str:
    """The help page as plain text, laid out ``width`` columns wide (for the tests, and to read it in a pipe)."""
    console = Console(width=width, no_color=True, record=True, file=io.StringIO(), legacy_windows=False)
    console.print(help_text(keymap))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())
