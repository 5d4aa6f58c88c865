"""What the rules core says to players, kept as an English template and its values, to be said in any language.

The core speaks English (``str()`` of a :class:`Message`, exceptions, logs and
tests), yet players read its explanations (an illegal move, how a game ended,
why no draw can be claimed) in the interface's language.  So each such
sentence is a :class:`Message`: a template marked with :func:`N_` (which the
catalogs' extraction collects), and the values to put in it.  A front end
says it with :meth:`Message.say`, giving its own translation of the template
and its own words for the values (a :class:`~cescacs_tui.core.pieces.Colour`
or a piece type is a word too); the core imports nothing to do so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["N_", "Message", "Nn_", "PieceWord", "Translator", "a", "the"]


def N_(template: str) -> str:
    """Mark ``template`` for the catalogs; it is returned unchanged (the front end translates it)."""
    return template


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and a plural template for the catalogs (a :class:`Message` picks one by its ``count``)."""
    return singular, plural


class Translator(Protocol):
    """What a front end's language offers a :class:`Message`: gettext's two functions."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int, /) -> str: ...


class _English:
    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return singular if count == 1 else plural


ENGLISH: Translator = _English()


@dataclass(frozen=True)
class PieceWord:
    """A kind of piece with its article ("the Bishop", "an Elephant"): languages whose articles agree in gender
    say the whole phrase their own way ("l'Alfil", "la Dama")."""

    kind: int
    article: str
    """``"the"`` or ``"a"``."""


def the(kind: int) -> PieceWord:
    """ "the Bishop": a kind of piece with the definite article."""
    return PieceWord(kind, "the")


def a(kind: int) -> PieceWord:
    """ "a Bishop", "an Elephant": a kind of piece with the indefinite article."""
    return PieceWord(kind, "a")


def english_word(value: object) -> str:
    """A value as the English templates say it: a side's title, a piece type's name, "the Bishop"."""
    from .pieces import ELEPHANT, NAMES, Colour, PieceType

    if isinstance(value, Colour):
        return value.title
    if isinstance(value, PieceType):
        return NAMES[value]
    if isinstance(value, PieceWord):
        article = "an" if value.article == "a" and value.kind == ELEPHANT else value.article
        return f"{article} {NAMES[value.kind]}"
    return str(value)


class Message:
    """A sentence of the core: ``template`` (or a singular and plural one, chosen by ``count``) and its values.

    Values are put in with :meth:`str.format` by name (``{piece}``); ``count``
    is available as ``{count}``.  A message without values is said as it is
    (its template may then hold braces).
    """

    __slots__ = ("count", "literal", "plural", "template", "values")

    def __init__(self, template: str | tuple[str, str], /, count: int | None = None, **values: object) -> None:
        if isinstance(template, tuple):
            self.template, plural = template
            self.plural: str | None = plural
        else:
            self.template, self.plural = template, None
        self.count = count
        self.values = values
        self.literal = False

    @classmethod
    def verbatim(cls, text: str) -> Message:
        """Text that is said as it is in every language (a record's own words, a file's name)."""
        message = cls(text)
        message.literal = True
        return message

    def say(self, translator: Translator = ENGLISH, word: Callable[[object], str] = english_word) -> str:
        """The sentence in ``translator``'s language, each value said by ``word`` (nested messages too)."""
        if self.literal:
            return self.template
        if self.plural is not None and self.count is not None:
            template = translator.ngettext(self.template, self.plural, self.count)
        else:
            template = translator.gettext(self.template)
        if not self.values and self.count is None:
            return template
        said = {
            name: value.say(translator, word) if isinstance(value, Message) else word(value)
            for name, value in self.values.items()
        }
        return template.format(count=self.count, **said)

    def __str__(self) -> str:
        return self.say()

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.template, self.plural, self.count, self.values) == (
            other.template,
            other.plural,
            other.count,
            other.values,
        )

    def __hash__(self) -> int:
        return hash((self.template, self.plural, self.count))
