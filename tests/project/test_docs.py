"""The documentation's promises: its examples print what their comments say, and every link in it leads somewhere."""

from __future__ import annotations

import contextlib
import io
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "benchmarks" / "README.md", *ROOT.glob("docs/*.md")])
LIBRARY = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+).+?\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
"""An inline link or image, ``[text](target "title")``, the text holding at most one level of brackets."""
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def _prose(text: str) -> str:
    """``text`` without its code: what a Markdown renderer reads as links and headings."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its words lower-cased, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = text.replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor in ``page``, a repeated heading's with GitHub's ``-1``, ``-2``... suffix."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """The links of ``page`` to a file that is not there, or to a heading the file does not have."""
    broken: list[str] = []
    for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
        if SCHEME.match(target):
            continue  # a web address: not this repository's to check
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no such heading in {path or page.name}")
    return broken


def test_the_anchor_of_a_heading_is_githubs() -> None:
    assert slug("Playing without the board (screen readers)") == "playing-without-the-board-screen-readers"
    assert slug("`cescacs host`: one game over TCP") == "cescacs-host-one-game-over-tcp"
    assert slug("Languages: English, Català, Español") == "languages-english-català-español"
    assert slug("what_it does") == "what_it-does"


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# A title\n\n## Twice\n\n## Twice\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-title) [ok](other.md#twice-1) [ok](#here) ![ok](other.md) [web](https://example.org/x)\n"
        "`[code](nowhere.md)` [gone](gone.md) [bad](other.md#nothing) [bad](#nowhere) [bad](other.md#twice-2)\n"
        "```\n[fenced](nowhere.md)\n```\n\n## Here\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "gone.md: no such file",
        "other.md#nothing: no such heading in other.md",
        "#nowhere: no such heading in page.md",
        "other.md#twice-2: no such heading in other.md",
    ]


def test_every_relative_link_and_anchor_in_the_documentation_resolves() -> None:
    assert ROOT / "docs" / "playing.md" in PAGES
    broken = {str(page.relative_to(ROOT)): links for page in PAGES if (links := broken_links(page))}
    assert broken == {}


def test_the_documentation_links_this_repository_by_relative_paths() -> None:
    for page in PAGES:
        for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
            assert "github.com/" not in target or "cescacs-tui" not in target, (page.name, target)


def test_every_page_of_docs_is_reached_from_the_readme() -> None:
    readme = _prose((ROOT / "README.md").read_text(encoding="utf-8"))
    linked = {target.partition("#")[0] for target in LINK.findall(readme)}
    for page in ROOT.glob("docs/*.md"):
        assert f"docs/{page.name}" in linked, page.name


ARCHITECTURE = ROOT / "docs" / "architecture.md"
PATH_SPAN = re.compile(r"`((?:[a-z_]+/)+(?:[a-z_]+\.(?:py|md|po))?)`")
"""A file or a folder of the repository named in a code span: ``session/actions.py``, ``tui/``."""


def test_the_architecture_page_names_files_and_packages_that_exist() -> None:
    named = set(PATH_SPAN.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    assert {"core/", "session/actions.py", "tests/project/test_layers.py"} <= named
    missing = [
        path for path in sorted(named) if not any((base / path).exists() for base in (ROOT, ROOT / "cescacs_tui"))
    ]
    assert missing == []


def test_the_architecture_page_draws_the_layers_the_contract_test_holds() -> None:
    from tests.project.test_layers import CONTRACT

    page = ARCHITECTURE.read_text(encoding="utf-8")
    packages = {unit for unit in CONTRACT if (ROOT / "cescacs_tui" / unit).is_dir()}
    assert {row for row in re.findall(r"^\| `([a-z_]+)/` \|", page, re.M)} == packages


def _run_example(marker: str) -> tuple[list[str], dict[str, object]]:
    code = next(block for block in re.findall(r"```python\n(.*?)\n```", LIBRARY, re.S) if marker in block)
    out = io.StringIO()
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/library.md", "exec"), scope)
    return out.getvalue().splitlines(), scope


def test_the_core_example_prints_what_its_comments_say() -> None:
    lines, _ = _run_example("perft")
    assert lines[0] == "E7-E13"
    assert lines[1].endswith(" b RKRrkr E13@9-11 0 1")
    assert lines[2] == "68 None None"  # Black has the mirror of White's 68 first moves
    assert lines[3] == "340385"
    assert lines[4] == "True"


def test_the_session_example_prints_what_its_comments_say() -> None:
    lines, scope = _run_example("GameSession")
    assert lines[0].startswith("ee5-e11: the Elephant on E5 cannot go to E11")
    assert lines[1] == "White played H6-H12"
    feedback = scope["feedback"]
    assert feedback.question.answer(True).text.startswith("Black resigns")  # type: ignore[attr-defined]
