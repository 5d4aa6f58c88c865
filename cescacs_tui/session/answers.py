"""The words that answer a yes/no question, in the player's language: the same in every front end.

The catalogs say which key answers yes in each language (``s`` for *sí* in
Catalan and Spanish, ``y`` in English): the app's question dialogs show and
take that key, and the plain mode shows it and reads the words.  The English
words are understood in every language too; Enter and Esc give a question's
safe answer everywhere.
"""

from __future__ import annotations

from typing import Final

from ..i18n import NC_, pgettext

__all__ = ["CANCEL", "NO", "YES", "answer_key", "answer_words", "answers_of", "words_of"]

ANSWER_CONTEXT: Final = "answer to a question"
"""The catalogs' context of the words that answer a question (the first word is the key a question shows)."""
YES: Final = NC_("answer to a question", "y yes")
NO: Final = NC_("answer to a question", "n no")
CANCEL: Final = NC_("answer to a question", "cancel")


def words_of(context: str, message: str) -> tuple[str, ...]:
    """The words a translation in ``context`` gives (space-separated), then the English ones, each once."""
    found = [*pgettext(context, message).split(), *message.split()]
    return tuple(dict.fromkeys(found))


def answer_words(words: str) -> tuple[str, ...]:
    """The words that give one answer (:data:`YES`...): the language's, then the English ones."""
    return words_of(ANSWER_CONTEXT, words)


def answer_key(yes: bool) -> str:
    """The key a question shows for yes or no: the language's first word (``y``, ``s``; ``n``)."""
    return answer_words(YES if yes else NO)[0]


def answers_of(character: str) -> bool | None:
    """What a single key answers: ``True`` (``s``, ``y``...), ``False`` (``n``), or ``None`` (no answer)."""
    key = character.lower()
    for answer in (True, False):
        if key in (word for word in answer_words(YES if answer else NO) if len(word) == 1):
            return answer
    return None
