"""Key bindings whose descriptions (the footer's and the help page's words) follow the interface's language.

Textual keeps the bindings a class declares (English message ids here) and
gives every widget a copy.  :class:`TranslatedBindings` makes each new
widget's copy speak the interface's language; :func:`retranslate` does it
again for every widget alive when the player switches language, from the
class's English, so nothing is ever translated twice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from ..i18n import N_, _

__all__ = ["TranslatedBindings", "retranslate", "translated_bindings"]

TEXTUAL_WORDS = (N_("Quit"), N_("palette"), N_("Focus Next"), N_("Focus Previous"))
"""What Textual's own bindings show in the footer, for the catalogs."""


def translated_bindings(node: DOMNode) -> BindingsMap:
    """``node``'s class bindings with descriptions in the interface's language (a group's once, shared)."""
    merged = type(node)._merged_bindings
    if merged is None:
        return BindingsMap()
    groups: dict[int, Binding.Group] = {}

    def translate(binding: Binding) -> Binding:
        group = binding.group
        if group is not None:
            group = groups.setdefault(id(group), replace(group, description=_(group.description)))
        description = _(binding.description) if binding.description else ""
        return replace(binding, description=description, group=group)

    return BindingsMap.from_keys(
        {key: [translate(binding) for binding in bindings] for key, bindings in merged.key_to_bindings.items()}
    )


class TranslatedBindings:
    """Mixed into a widget or screen (before its Textual class): its bindings speak the interface's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        node = cast(DOMNode, self)
        node._bindings = translated_bindings(node)


def retranslate(root: DOMNode) -> None:
    """The language has changed: every binding under ``root`` (its screens' widgets too) in the new one."""
    nodes = [root, *root.walk_children(with_self=False)]
    if hasattr(root, "screen_stack"):
        for screen in root.screen_stack:
            nodes += [screen, *screen.walk_children(with_self=False)]
    for node in nodes:
        if isinstance(node, TranslatedBindings):
            node._bindings = translated_bindings(node)
