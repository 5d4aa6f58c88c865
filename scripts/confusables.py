"""Write cescacs_tui/server/confusables.py: the letters a player's name may use, and the TR39 prototypes of
every character such a name can hold.

    python scripts/confusables.py UCD_DIR    # UCD_DIR holds confusables.txt, IdentifierStatus.txt, Scripts.txt

The three files are Unicode's own: ``https://www.unicode.org/Public/security/<version>/confusables.txt`` and
``IdentifierStatus.txt`` (UTS #39, Unicode Security Mechanisms), and ``https://www.unicode.org/Public/<version>/
ucd/Scripts.txt``.  Names are letters of one of :data:`SCRIPTS` (only those UTS #39 allows in identifiers), the
combining marks it allows, ASCII digits and a few separators (:mod:`cescacs_tui.server.names`); the table keeps
the prototype of every character that can reach a name's skeleton (the name's characters decomposed, as written
and case-folded), so it is a few hundred entries instead of the file's ten thousand.  Adding a script to
:data:`SCRIPTS` and running this again is all a new script needs.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "cescacs_tui" / "server" / "confusables.py"
SCRIPTS = ("Latin", "Greek", "Cyrillic")
"""The scripts a name may be written in (one per name): Europe's three alphabets."""
EXTRA = "0123456789-_.\u00b7"
"""Characters of the Common script a name may hold besides its letters: ASCII digits, separators and the
middle dot of Catalan's ``l·l`` (:mod:`cescacs_tui.server.names` says where each may stand)."""

DIACRITICS = (0x0300, 0x036F)
"""The block of combining marks a name may use (Combining Diacritical Marks): the accents of these scripts."""

_RANGE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([A-Za-z_]+)")
_VERSION = re.compile(r"^#\s*Version:\s*([0-9.]+)", re.MULTILINE)


def _ranges(path: Path) -> Iterable[tuple[int, int, str]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := _RANGE.match(line):
            first = int(match[1], 16)
            yield first, int(match[2], 16) if match[2] else first, match[3]


def _compact(codes: Iterable[int]) -> list[tuple[int, int]]:
    ranges: list[list[int]] = []
    for code in sorted(set(codes)):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return [(first, last) for first, last in ranges]


def _quoted(text: str) -> str:
    """``text`` as a double-quoted Python literal, non-ASCII characters escaped."""
    escaped = (c if c.isascii() and c.isprintable() and c not in '\\"' else f"\\u{ord(c):04x}" for c in text)
    return '"' + "".join(escaped) + '"'


def _assigned(code: int) -> bool:
    """Whether this Python's Unicode database knows the character (names use nothing it cannot normalise)."""
    return unicodedata.category(chr(code)) != "Cn"


def build(folder: Path) -> str:
    allowed = {
        code
        for first, last, status in _ranges(folder / "IdentifierStatus.txt")
        if status == "Allowed"
        for code in range(first, last + 1)
        if _assigned(code)
    }
    script_of = {
        code: script
        for first, last, script in _ranges(folder / "Scripts.txt")
        for code in range(first, last + 1)
        if code in allowed
    }
    letter_codes = {
        script: [c for c, s in script_of.items() if s == script and unicodedata.category(chr(c))[0] == "L"]
        for script in SCRIPTS
    }
    mark_codes = [
        c
        for c, s in script_of.items()
        if s == "Inherited" and unicodedata.category(chr(c))[0] == "M" and DIACRITICS[0] <= c <= DIACRITICS[1]
    ]
    reaching = set(EXTRA)
    for code in [*(c for codes in letter_codes.values() for c in codes), *mark_codes]:
        for form in (chr(code), chr(code).casefold()):
            reaching.update(unicodedata.normalize("NFD", form))
    confusables_text = (folder / "confusables.txt").read_text(encoding="utf-8-sig")
    prototypes: dict[str, str] = {}
    for line in confusables_text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = chr(int(fields[0].strip(), 16))
        if source in reaching:
            prototypes[source] = "".join(chr(int(part, 16)) for part in fields[1].split())
    version = _VERSION.search(confusables_text)
    letters = {script: _compact(codes) for script, codes in letter_codes.items()}
    return _module(version[1] if version else "?", letters, _compact(mark_codes), prototypes)


def _module(
    version: str, letters: dict[str, list[tuple[int, int]]], marks: list[tuple[int, int]], prototypes: dict[str, str]
) -> str:
    def ranges(values: list[tuple[int, int]], indent: str) -> str:
        return "\n".join(f"{indent}(0x{first:04X}, 0x{last:04X})," for first, last in values)

    out = [
        '"""What a player\'s name may be made of, and which characters look alike: Unicode\'s data for',
        ":mod:`cescacs_tui.server.names`.",
        "",
        f"Generated by ``python scripts/confusables.py UCD_DIR`` from Unicode {version}'s ``confusables.txt`` and",
        "``IdentifierStatus.txt`` (UTS #39) and ``Scripts.txt``: do not edit it by hand, run the script.  The data",
        "is Unicode's, © Unicode, Inc., used under the Unicode License v3 (https://www.unicode.org/license.txt).",
        '"""',
        "",
        "from typing import Final",
        "",
        f'UNICODE_VERSION: Final = "{version}"',
        f"SCRIPTS: Final = ({', '.join(map(_quoted, SCRIPTS))})",
        '"""The scripts a name may be written in, one per name."""',
        f"EXTRA: Final = {_quoted(EXTRA)}",
        '"""The characters of no script a name may hold: digits, separators and the middle dot of ``l·l``."""',
        "LETTERS: Final[dict[str, tuple[tuple[int, int], ...]]] = {",
    ]
    for script, values in letters.items():
        out += [f'    "{script}": (', ranges(values, " " * 8), "    ),"]
    out += [
        "}",
        '"""Each script\'s letters that UTS #39 allows in identifiers (Identifier_Status=Allowed), as ranges."""',
        "MARKS: Final[tuple[tuple[int, int], ...]] = (",
        ranges(marks, " " * 4),
        ")",
        '"""The combining marks of no script (Inherited) that UTS #39 allows in identifiers."""',
        "PROTOTYPES: Final[dict[str, str]] = {",
    ]
    for source, target in sorted(prototypes.items()):
        out.append(f'    "\\u{ord(source):04x}": {_quoted(target)},  # {unicodedata.name(source, "?")}')
    out += [
        "}",
        '"""The prototype (``confusables.txt``) of every character a name\'s skeleton can meet."""',
        "",
    ]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    TARGET.write_text(build(Path(argv[0])), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
