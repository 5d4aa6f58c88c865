"""The interface's gettext catalogs, with Babel: extract the messages, update the ``.po`` files, compile the ``.mo``.

    python scripts/catalogs.py update    # extract from the code, then add new messages to every .po, drop stale ones
    python scripts/catalogs.py compile   # write every .mo from its .po (the .mo files are shipped in the package)
    python scripts/catalogs.py check     # exit 1 if a .po misses, leaves untranslated or keeps a stale message,
                                         # or a .mo does not say what its .po says

A message is whatever the code passes to ``_``, ``ngettext``, ``pgettext``,
``N_``, ``NC_`` (:mod:`cescacs_tui.i18n`) and, in the rules core, ``N_`` and ``Nn_``
(:mod:`cescacs_tui.core.message`).  A comment starting with ``Translators:``
just above a message goes into the catalogs with it.  The ``.mo`` files are
committed, so ``pip install .`` needs neither Babel nor a network; the test
suite runs :func:`problems` so a ``.po`` changed without ``compile`` fails CI.
"""

from __future__ import annotations

import gettext
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "cescacs_tui" / "locale"
DOMAIN = "cescacs"
TRANSLATED = ("ca", "es")
"""The languages with a catalog (English is the source language)."""
KEYWORDS = {**DEFAULT_KEYWORDS, "Nn_": (1, 2), "NC_": ((1, "c"), 2)}
METHOD_MAP = [("cescacs_tui/**.py", "python")]
COMMENT_TAGS = ("Translators:",)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def extract() -> Catalog:
    """Every message of the code, as a fresh template catalog."""
    template = Catalog(project="cescacs-tui", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(
        str(ROOT), METHOD_MAP, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def write(catalog: Catalog, language: str) -> None:
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=120, include_lineno=False, omit_header=False)


def update() -> None:
    """Bring every ``.po`` in line with the code: new messages added untranslated, stale ones dropped."""
    template = extract()
    for language in TRANSLATED:
        catalog = read(language) if po_path(language).exists() else Catalog(locale=language, domain=DOMAIN)
        _set_header(catalog)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, language)


def _set_header(catalog: Catalog) -> None:
    """The header every catalog keeps: the project, and gettext's two plural forms (CLDR's third form of Catalan
    and Spanish, for exact millions, is one no message of this interface needs)."""
    catalog.project = "cescacs-tui"
    catalog.version = ""
    catalog.copyright_holder = "cescacs-tui developers"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "cescacs-tui developers"
    catalog.language_team = {"ca": "Català", "es": "Español"}[str(catalog.locale)]
    catalog.fuzzy = False
    catalog._num_plurals = 2  # type: ignore[assignment]
    catalog._plural_expr = "(n != 1)"  # type: ignore[assignment]


def compiled(catalog: Catalog) -> bytes:
    buffer = BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def compile_all() -> None:
    for language in TRANSLATED:
        mo_path(language).write_bytes(compiled(read(language)))


def _key(message_id: object, context: str | None) -> object:
    return message_id if context is None else (context, message_id)


def problems() -> list[str]:
    """What is wrong with the catalogs, one line each (none: every message of the code is translated everywhere)."""
    template = extract()
    wanted = {_key(m.id, m.context) for m in template if m.id}
    found: list[str] = []
    for language in TRANSLATED:
        catalog = read(language)
        have = {_key(m.id, m.context): m for m in catalog if m.id}
        found += [f"{language}: missing {key!r}" for key in wanted - have.keys()]
        found += [f"{language}: stale {key!r}" for key in have.keys() - wanted]
        for key, message in have.items():
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                found.append(f"{language}: fuzzy {key!r}")
            elif not all(strings):
                found.append(f"{language}: untranslated {key!r}")
        if catalog.obsolete:
            found.append(f"{language}: {len(catalog.obsolete)} obsolete entries kept (run update)")
        found += [f"{language}: {line}" for line in _mo_differences(catalog, language)]
    return found


def _mo_differences(catalog: Catalog, language: str) -> list[str]:
    """How the shipped ``.mo`` differs from what its ``.po`` compiles to (as gettext reads them)."""
    path = mo_path(language)
    if not path.exists():
        return [f"{path.name} is missing (run compile)"]
    with path.open("rb") as shipped:
        have = gettext.GNUTranslations(shipped)._catalog  # type: ignore[attr-defined]
    want = gettext.GNUTranslations(BytesIO(compiled(catalog)))._catalog  # type: ignore[attr-defined]
    if have != want:
        return [f"{path.name} does not match {po_path(language).name} (run compile)"]
    return []


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        for problem in (found := problems()):
            print(problem)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
