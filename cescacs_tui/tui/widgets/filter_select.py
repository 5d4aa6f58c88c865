"""A drop-down list that typing filters: Textual's ``Select``, whose open list keeps only what matches.

Textual's own list jumps to the first option that contains what was typed
(and forgets it after 0.7 s); with 19 clocks, "Custom…" was still many
presses away.  Here what is typed stays (Backspace takes a character back,
the top line of the list shows it) and every option that does not contain it,
in any case and without accents, is disabled: dimmed, and skipped by the arrow
keys, so ↓ and Enter go only through the matches.  Typing on the closed list
opens it with that character.
"""

from __future__ import annotations

from typing import Generic

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import Select
from textual.widgets._select import SelectCurrent, SelectOverlay, SelectType

from ...i18n import folded

__all__ = ["FilterSelect"]


class FilterOverlay(SelectOverlay):
    """The open list: what is typed disables the options that do not contain it."""

    def __init__(self) -> None:
        super().__init__(type_to_search=False)
        self.typed = ""
        """What the player has typed since the list opened."""

    def watch_has_focus(self, value: bool) -> None:
        super().watch_has_focus(value)
        if not value and self.typed:  # closed: the next time it opens, whole (or filtered by the key that opens it)
            self.filter_by("")

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
        elif event.character is not None and event.is_printable and (event.key != "space" or self.typed):
            self.typed += event.character  # a space inside what is typed ("level 10"), not one alone
        else:
            return
        event.stop()
        event.prevent_default()
        self.filter_by(self.typed)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        printable = character is not None and character.isprintable() and (key != "space" or bool(self.typed))
        return printable or key == "backspace"

    def filter_by(self, typed: str) -> None:
        """Keep the options that contain ``typed`` (disable the others) and highlight the first one kept."""
        self.typed = typed
        wanted = folded(typed)
        first = None
        for index, option in enumerate(self.options):
            prompt = option.prompt
            label = prompt.plain if isinstance(prompt, Text) else str(prompt)
            if wanted in folded(label):
                self.enable_option_at_index(index)
                first = index if first is None else first
            else:
                self.disable_option_at_index(index)
        highlighted = self.highlighted
        if first is not None and (highlighted is None or self.get_option_at_index(highlighted).disabled):
            self.select(first)
        self.border_title = self.typed or None


class FilterSelect(Select[SelectType], Generic[SelectType]):
    """A ``Select`` whose list typing filters (see the module's docstring)."""

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield FilterOverlay().data_bind(compact=Select.compact)

    async def _on_key(self, event: events.Key) -> None:
        """A character typed on the closed list opens it, filtered by that character."""
        if self.expanded or event.character is None or not event.is_printable or event.key == "space":
            return
        event.stop()
        event.prevent_default()
        self.action_show_overlay()
        self.query_one(FilterOverlay).filter_by(event.character)
