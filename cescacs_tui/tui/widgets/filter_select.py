"""A drop-down list that typing filters: Textual's ``Select``, whose open list keeps only what matches.

Textual's own list jumps to the first option that contains what was typed
(and forgets it after 0.7 s); with 19 clocks, "Custom…" was still many
presses away.  Here what is typed stays (Backspace takes a character back,
the top line of the list shows it) and every option that does not contain it,
in any case and without accents, is disabled: dimmed, and skipped by the arrow
keys, so ↓ and Enter go only through the matches.  Typing on the closed list
opens it with that character.

Only Textual's public API is used: the ``Select`` is made with
``type_to_search=False``, so its open list (an ``OptionList``) lets printable
keys bubble up to it, where they filter that list; :meth:`check_consume_key`
keeps the screen's and the app's bindings of those keys from firing meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.widgets import OptionList, Select

from ...i18n import folded

__all__ = ["FilterSelect"]

_V = TypeVar("_V")


class FilterSelect(Select[_V], Generic[_V]):
    """A ``Select`` whose list typing filters (see the module's docstring)."""

    def __init__(self, options: Iterable[tuple[RenderableType, _V]], **settings: Any) -> None:
        super().__init__(options, type_to_search=False, **settings)
        self.typed = ""
        """What the player has typed since the list opened."""

    @property
    def option_list(self) -> OptionList:
        """The open list (Textual's overlay, an ``OptionList``)."""
        return self.query_one(OptionList)

    def watch_expanded(self, expanded: bool) -> None:
        if not expanded and self.typed:  # closed: the next time it opens, whole (or filtered by the key that opens it)
            self.filter_by("")

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        printable = character is not None and character.isprintable() and (key != "space" or bool(self.typed))
        return printable or (key == "backspace" and self.expanded)

    async def on_key(self, event: events.Key) -> None:
        """A character typed filters the list; on the closed list it opens it, filtered by that character."""
        if event.key == "backspace" and self.expanded and self.typed:
            typed = self.typed[:-1]
        elif event.character is not None and event.is_printable and (event.key != "space" or self.typed):
            typed = self.typed + event.character  # a space inside what is typed ("level 10"), not one alone
        else:
            return
        event.stop()
        event.prevent_default()
        if not self.expanded:
            self.action_show_overlay()
        self.filter_by(typed)

    def filter_by(self, typed: str) -> None:
        """Keep the options that contain ``typed`` (disable the others) and highlight the first one kept."""
        self.typed = typed
        wanted = folded(typed)
        options = self.option_list
        first = None
        for index, option in enumerate(options.options):
            prompt = option.prompt
            label = prompt.plain if isinstance(prompt, Text) else str(prompt)
            if wanted in folded(label):
                options.enable_option_at_index(index)
                first = index if first is None else first
            else:
                options.disable_option_at_index(index)
        highlighted = options.highlighted
        if first is not None and (highlighted is None or options.get_option_at_index(highlighted).disabled):
            options.highlighted = first
            options.scroll_to_highlight()
        options.border_title = self.typed or None
