"""Values from the command line, checked before anything uses them: each refusal one clear sentence, status 2.

argparse calls these as ``type=`` converters; a refusal (``ArgumentTypeError``)
becomes the usage line and the reason.  They exist because the obvious
converters are too kind: ``int()`` and ``float()`` take ``'٣'`` and ``'²'`` for
digits (and ``float()`` takes ``'inf'`` and ``'1e308'``), and a host name of
100,000 characters, or one holding bytes that are not UTF-8, reached
``getaddrinfo`` and came back as a traceback.  Only ASCII digits make a
number here, every number is bounded, and host names are checked before a
socket sees them.  What a refusal quotes is :func:`~cescacs_tui.core.safe_text.printable`
and cut short, so a crafted argument cannot drive the terminal.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Final

from .core.safe_text import printable
from .i18n import _

__all__ = ["MAX_HOST_NAME", "decimal", "host_name", "quoted", "whole_number"]

MAX_HOST_NAME: Final = 253
"""The longest DNS name (RFC 1035), dots included."""
_LABEL: Final = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")
_WHOLE: Final = re.compile(r"[0-9]{1,9}")
_DECIMAL: Final = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?")


def quoted(text: str, limit: int = 40) -> str:
    """``text`` as a refusal quotes it: made printable, cut after ``limit`` characters, in quotes."""
    return f"'{printable(text, limit)}'"


def whole_number(lowest: int, highest: int) -> Callable[[str], int]:
    """A converter of ASCII digits to a whole number from ``lowest`` to ``highest``."""

    def convert(text: str) -> int:
        if _WHOLE.fullmatch(text) is None or not lowest <= int(text) <= highest:
            said = _("{text} is not a whole number from {lowest} to {highest} (digits 0-9)")
            raise argparse.ArgumentTypeError(said.format(text=quoted(text), lowest=lowest, highest=highest))
        return int(text)

    return convert


def decimal(lowest: float, highest: float) -> Callable[[str], float]:
    """A converter of ASCII digits, with an optional ``.`` and decimals, to a number from ``lowest`` to ``highest``."""

    def convert(text: str) -> float:
        if _DECIMAL.fullmatch(text) is None or not lowest <= float(text) <= highest:
            said = _("{text} is not a number from {lowest} to {highest} (digits 0-9 and a '.')")
            raise argparse.ArgumentTypeError(said.format(text=quoted(text), lowest=lowest, highest=highest))
        return float(text)

    return convert


def host_name(text: str) -> str:
    """An address to listen on or connect to: an IPv4 or IPv6 address, a DNS name, or ``""`` (every interface).

    A name is letters, digits, ``-`` and ``_`` in dot-separated labels of at
    most 63 characters, 253 in all (an internationalized name in its
    ``xn--`` form or as it is written, which IDNA turns into that form).
    """
    import ipaddress  # only the commands that serve or join need it

    if text == "":
        return text
    try:
        ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        return text
    refusal = _("{text} is not a host name or address: letters, digits, '-' and '.', at most {most} characters")
    try:
        ascii_name = text.encode("idna").decode("ascii") if len(text) <= MAX_HOST_NAME else ""
    except UnicodeError:  # not UTF-8 (bytes the shell passed on), a label IDNA refuses, too long a label
        ascii_name = ""
    labels = ascii_name.removesuffix(".").split(".")
    if not ascii_name or len(ascii_name) > MAX_HOST_NAME or not all(_LABEL.fullmatch(label) for label in labels):
        raise argparse.ArgumentTypeError(refusal.format(text=quoted(text), most=MAX_HOST_NAME))
    return text
