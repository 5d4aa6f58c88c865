"""Which interface language a browser asks for: its ``Accept-Language`` header (RFC 9110, 12.5.4), read warily.

The header is whatever a visitor sends, so it is read as untrusted text: a
header longer than :data:`MAX_HEADER` characters or with more than
:data:`MAX_RANGES` ranges is not read past them (nor is a range the cut
leaves halved), a range or a weight that is
not of the RFC's form is skipped (never an error), and ``q=0`` means "not
this one".  Of the languages the interface speaks, the one with the highest
weight wins; on equal weights, the one the browser names first.  A region
does not matter (``ca-ES`` and ``ca-AD`` are Catalan); ``*`` names no
language in particular, so it chooses nothing.
"""

from __future__ import annotations

import re
from typing import Final

from ..i18n import LANGUAGES

__all__ = ["MAX_HEADER", "MAX_RANGES", "browser_language"]

MAX_HEADER: Final = 512
"""Characters of the header read (a browser sends under 100); the rest is ignored."""

MAX_RANGES: Final = 16
"""Language ranges read (a browser sends a handful); the rest are ignored."""

_RANGE: Final = re.compile(r"(?:[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)")
_WEIGHT: Final = re.compile(r"[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)")


def browser_language(header: str | None) -> str | None:
    """The code (``"ca"``) of the interface language ``header`` prefers, or ``None`` if it names none of them."""
    if not header:
        return None
    best: tuple[float, str] | None = None
    text = header if len(header) <= MAX_HEADER else header[:MAX_HEADER].rpartition(",")[0]  # no range cut short
    for item in text.split(",", MAX_RANGES)[:MAX_RANGES]:
        name, *parameters = (part.strip() for part in item.split(";"))
        if not _RANGE.fullmatch(name) or name == "*":
            continue
        weight = _weight(parameters)
        code = name.split("-")[0].lower()
        if weight is None or weight <= 0 or code not in LANGUAGES:
            continue
        if best is None or weight > best[0]:
            best = (weight, code)
    return None if best is None else best[1]


def _weight(parameters: list[str]) -> float | None:
    """A range's ``q`` (1 without one), or ``None`` if its parameters are not of the RFC's form."""
    if not parameters:
        return 1.0
    if len(parameters) != 1 or (found := _WEIGHT.fullmatch(parameters[0])) is None:
        return None
    return float(found.group(1))
