"""Styled text from outside, made safe to show: :func:`~cescacs_tui.core.safe_text.safe_text` keeping the styles."""

from __future__ import annotations

from rich.text import Text

from ..core.safe_text import is_safe, safe_text


def safe_rich(text: Text) -> Text:
    """A styled text with :func:`safe_text` applied to its characters; its styles stay where they were."""
    plain = text.plain
    if is_safe(plain):
        return text
    safe = text.copy()
    safe.plain = safe_text(plain)  # one code point for one: the spans still cover the same characters
    return safe
