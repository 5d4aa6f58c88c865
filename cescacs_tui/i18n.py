"""The interface in Catalan, Spanish or English: which language, and ``_()`` to say a text in it.

The texts are standard gettext catalogs: ``locale/<lang>/LC_MESSAGES/cescacs.po``
in the repository (English is the source language: its message ids are the
English texts), compiled to the ``.mo`` files that are shipped beside them
(``scripts/catalogs.py`` extracts, updates and compiles them with Babel; a test
checks that the shipped ``.mo`` files say what the ``.po`` files say).

Every user-facing text goes through :func:`_` or :func:`ngettext` *when it is
shown*, never when a module is imported: a text defined at import time (the
action table, the help page) is marked with :func:`N_` and translated where it
is displayed, so switching the language at run time (:func:`set_language`)
changes everything drawn after it.  The notation (piece letters, CTL-AN, PDTL,
CTL-PGN tags) never changes with the language.

The language is chosen by :func:`choose_language`: ``--lang``, else the
``language`` setting, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
as POSIX orders them), else English.
"""

from __future__ import annotations

import functools
import gettext
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "NC_",
    "N_",
    "_",
    "choose_language",
    "folded",
    "language",
    "language_from_locale",
    "locale_environment",
    "ngettext",
    "pgettext",
    "set_language",
    "translation",
]

DOMAIN: Final = "cescacs"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE: Final = "en"
LANGUAGES: Final[Mapping[str, str]] = {"en": "English", "ca": "Català", "es": "Español"}
"""The languages of the interface, by code, each named in itself (as a language menu shows them)."""

LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name the locale, strongest first (POSIX: the first one set decides)."""

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language: str = DEFAULT_LANGUAGE


def set_language(code: str) -> None:
    """Say everything from now on in the language ``code`` (one of :data:`LANGUAGES`).

    Raises ``ValueError`` for a language the interface does not have, and
    ``OSError`` if its catalog is missing from the installation.
    """
    global _translations, _language
    _translations = translation(code)
    _language = code


@functools.cache
def translation(code: str) -> gettext.NullTranslations:
    """The catalog of the language ``code``, for a text said in it whatever the interface speaks now.

    A server that answers each visitor in their own language (``cescacs-web``'s
    pages) uses this instead of :func:`set_language`, which changes the
    language of the whole process.  Raises as :func:`set_language` does.
    """
    if code not in LANGUAGES:
        raise ValueError(f"no interface language {code!r} (known: {', '.join(LANGUAGES)})")
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])


def language() -> str:
    """The code of the language the interface speaks now (``"en"``, ``"ca"`` or ``"es"``)."""
    return _language


def _(message: str) -> str:
    """``message`` (English, as written in the code) in the interface's language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or the plural for ``count``, by the language's own plural rule."""
    return _translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in ``context``: the same English word that is two words in another language."""
    return _translations.pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now: it is translated where it is shown."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for the catalogs without translating it now (say it with :func:`pgettext`)."""
    return message


def language_from_locale(environ: Mapping[str, str]) -> str | None:
    """The interface language the locale asks for (``ca_ES.UTF-8`` → ``"ca"``), or ``None``.

    The first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set decides,
    as it does for every program: ``C``, ``POSIX`` or a language the
    interface does not have give ``None`` (English, unless the settings say
    otherwise).
    """
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else None
    return None


LOCALES: Final = {"en": "en_US.UTF-8", "ca": "ca_ES.UTF-8", "es": "es_ES.UTF-8"}
"""The locale named to another process for a language (the interface reads only its language part)."""


def locale_environment(environment: Mapping[str, str], code: str) -> dict[str, str]:
    """``environment`` with its messages' locale set to the language ``code``, for a process started for a visitor
    (a browser, an SSH session) who asked for that language.

    It is what :func:`choose_language` reads after ``--lang`` and the
    setting, so a visitor's own choice in the app still wins.  ``LC_ALL``,
    which would hide ``LC_MESSAGES``, keeps only its character set
    (``LC_CTYPE``).
    """
    changed = dict(environment)
    if all_categories := changed.pop("LC_ALL", ""):
        changed["LC_CTYPE"] = all_categories
    changed["LC_MESSAGES"] = LOCALES[code]
    return changed


def choose_language(flag: str | None, setting: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``--lang`` (``flag``), else the ``language`` setting, else the locale, else English."""
    for candidate in (flag, setting):
        if candidate:
            return candidate
    return language_from_locale(environ) or DEFAULT_LANGUAGE


def folded(text: str) -> str:
    """``text`` as typed words are matched in any language: lower case, without accents (``Desfés`` → ``desfes``)."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
