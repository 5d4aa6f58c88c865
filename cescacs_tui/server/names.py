"""Players' names on the server: what a name may be, and when two names look alike.

A name is chosen once (``register NAME``) and then shown to everyone, in
lists, records and notifications, so the server refuses what could deceive:

- control and invisible characters (:func:`~cescacs_tui.core.safe_text.is_safe`),
  spaces, and anything but letters, combining accents, ASCII digits and the
  separators ``-``, ``_`` and ``.`` (and the middle dot of Catalan's ``l·l``);
- letters of more than one script (``pаypal`` with a Cyrillic ``а``), and
  scripts other than those :data:`~cescacs_tui.server.confusables.SCRIPTS`
  names, and letters UTS #39 does not allow in identifiers;
- a name that looks like one already taken.  Two names look alike when their
  skeletons (Unicode TR39: each character replaced by the prototype of the
  characters it is confusable with, ``1``, ``I`` and ``l`` all ``l``) are
  equal, compared twice: once as the names are written (``Iris`` and ``lris``),
  and once case-folded before and after (``BOB``, ``bob`` and ``b0b``).  The
  two keys (:attr:`Name.shape` and :attr:`Name.fold`) are unique in the
  storage, so the database itself refuses a look-alike, even when two visitors
  register at once.

The name kept is the one given in Unicode's compatibility form (NFKC: a
full-width ``Ｂｏｂ`` is ``Bob``), which is also what the checks read.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass
from typing import Final

from ..core.message import Message
from ..core.safe_text import is_safe, printable
from ..i18n import N_
from .confusables import EXTRA, LETTERS, MARKS, PROTOTYPES

__all__ = ["MAX_NAME", "MIN_NAME", "Name", "NameRefused", "parse_name", "skeleton"]

MIN_NAME: Final = 2
MAX_NAME: Final = 20
"""A name's length in characters (after normalising), both included."""
SEPARATORS: Final = "-_."
MIDDLE_DOT: Final = "\u00b7"
MAX_MARKS: Final = 2
"""Combining accents one letter may carry (more is a "zalgo" name that draws over its neighbours)."""

TOO_MANY_ACCENTS: Final = N_("an accent goes on a letter, and a letter carries at most two")
SCRIPT_WORDS: Final = {"Latin": N_("Latin"), "Greek": N_("Greek"), "Cyrillic": N_("Cyrillic")}
"""The names of :data:`~cescacs_tui.server.confusables.SCRIPTS`, for the catalogs."""


_SCRIPT_RANGES: Final = sorted((first, last, script) for script, ranges in LETTERS.items() for first, last in ranges)
_SCRIPT_STARTS: Final = [first for first, _, _ in _SCRIPT_RANGES]
_MARK_STARTS: Final = [first for first, _ in MARKS]


class NameRefused(ValueError):
    """A name the server does not accept; :attr:`reason` says why, for the player's language."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True)
class Name:
    """A name the server accepts: ``text`` as shown, and the two keys under which no other name may exist."""

    text: str
    fold: str
    """Look-alike key of the name case-folded (``BOB``, ``bob`` and ``b0b`` share it)."""
    shape: str
    """Look-alike key of the name as written (``Iris`` and ``lris`` share it)."""


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: decomposed, each character replaced by its prototype, decomposed again.

    Only the characters a name can hold are in the table
    (:data:`~cescacs_tui.server.confusables.PROTOTYPES`); any other is its own
    prototype here.
    """
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(PROTOTYPES.get(ch, ch) for ch in decomposed))


def look_alike_keys(text: str) -> tuple[str, str]:
    """The :attr:`Name.fold` and :attr:`Name.shape` keys of a name (as typed: it is normalised first), with which
    a name is found however it is spelled."""
    text = unicodedata.normalize("NFKC", text)
    return skeleton(text.casefold()).casefold(), skeleton(text)


def _script(ch: str) -> str | None:
    code = ord(ch)
    index = bisect.bisect_right(_SCRIPT_STARTS, code) - 1
    if index >= 0 and code <= _SCRIPT_RANGES[index][1]:
        return _SCRIPT_RANGES[index][2]
    return None


def _is_mark(ch: str) -> bool:
    code = ord(ch)
    index = bisect.bisect_right(_MARK_STARTS, code) - 1
    return index >= 0 and code <= MARKS[index][1]


def _character(ch: str) -> Message:
    return Message.verbatim(f"{printable(ch)} (U+{ord(ch):04X})")


def parse_name(raw: str) -> Name:
    """The name ``raw`` asks for, or :class:`NameRefused` saying why not (its look-alikes are the storage's)."""
    length = Message(N_("a name has {least} to {most} characters"), least=MIN_NAME, most=MAX_NAME)
    if len(raw) > 4 * MAX_NAME:
        raise NameRefused(length)
    if not is_safe(raw):
        raise NameRefused(Message(N_("a name cannot hold control or invisible characters")))
    text = unicodedata.normalize("NFKC", raw)
    if any(ch.isspace() for ch in text):
        raise NameRefused(Message(N_("a name has no spaces: join its words with - _ or .")))
    if not MIN_NAME <= len(text) <= MAX_NAME:
        raise NameRefused(length)
    if _script(text[0]) is None and not unicodedata.category(text[0]).startswith("L"):
        raise NameRefused(Message(N_("a name begins with a letter")))
    scripts: list[str] = []
    for index, ch in enumerate(text):
        if (script := _script(ch)) is not None:
            if script not in scripts:
                scripts.append(script)
        elif _is_mark(ch):
            if _script(text[index - 1]) is None and not _is_mark(text[index - 1]):
                raise NameRefused(Message(TOO_MANY_ACCENTS))
        elif ch in EXTRA:
            _check_separator(text, index)
        elif unicodedata.category(ch).startswith("L"):
            said = N_("{character} is not a letter a name may hold: names are written in Latin, Greek or Cyrillic")
            raise NameRefused(Message(said, character=_character(ch)))
        else:
            raise NameRefused(Message(N_("a name cannot hold {character}"), character=_character(ch)))
    if _most_accents(text) > MAX_MARKS:
        raise NameRefused(Message(TOO_MANY_ACCENTS))
    if len(scripts) > 1:
        first, second = (Message(SCRIPT_WORDS[script]) for script in scripts[:2])
        said = N_("a name is written in one script: this one mixes {first} and {second}")
        raise NameRefused(Message(said, first=first, second=second))
    fold, shape = look_alike_keys(text)
    return Name(text, fold, shape)


def _most_accents(text: str) -> int:
    """The most combining marks one letter of ``text`` carries, precomposed ones counted (``ó`` is ``o`` and one)."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", text):
        run = run + 1 if unicodedata.combining(ch) else 0
        most = max(most, run)
    return most


def _check_separator(text: str, index: int) -> None:
    """A separator stands alone between two letters or digits; the middle dot only in ``l·l``."""
    ch = text[index]
    if ch == MIDDLE_DOT:
        before, after = text[index - 1 : index], text[index + 1 : index + 2]
        if before.casefold() != "l" or after.casefold() != "l":
            raise NameRefused(Message(N_("the middle dot stands only between two l's, as in Marcel·la")))
    elif ch in SEPARATORS:
        neighbours = (text[index - 1 : index], text[index + 1 : index + 2])
        if any(not neighbour or neighbour in SEPARATORS or neighbour == MIDDLE_DOT for neighbour in neighbours):
            raise NameRefused(Message(N_("a separator (- _ .) stands alone, between letters or digits")))
