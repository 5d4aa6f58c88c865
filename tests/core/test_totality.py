"""The readers are total: only their documented exceptions escape, whatever the input (issue 17).

``Position.from_pdtl`` raises only :class:`PDTLError`, ``Position.parse_move`` only :class:`MoveError`,
``read_pgn`` and ``write_pgn`` only :class:`PGNError`, and every message is printable.  The strategies
build input that is pathological in its *structure* (deep nesting, huge numbers, Unicode digits,
control characters, lone surrogates) around pieces of real notation, so that most examples get
past the first check and reach the deeper ones.  Seeded (derandomised) and bounded: seconds in CI.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cescacs_tui.core import INITIAL_PDTL, MoveError, PDTLError, PGNError, Position, read_pgn, write_pgn
from tests.helpers.games import FOOLS_MATE
from tests.helpers.reference import DATA

CHECKS = settings(
    max_examples=250, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)

ODD_DIGITS = ["²", "³", "٣", "١٢", "۲", "߂", "𝟗", "９", "①", "Ⅻ"]
"""Characters ``str.isdigit`` or ``\\d`` take for digits, which the notation does not."""
CONTROLS = ["\x00", "\x07", "\x1b", "\x1b]52;c;eA==\x07", "\x1b[2J", "\x7f", "\x85", "\x9b", "\u202e", "\u2028"]
SURROGATES = ["\ud800", "\udfff", "a\udc80b"]
WEIRD = st.sampled_from(ODD_DIGITS + CONTROLS + SURROGATES + ["\ufeff", "\u00a0", "\u3000", "é", "🩒"])

numbers = st.one_of(
    st.integers(0, 200).map(str),
    st.sampled_from(["0", "00", "01", "007", "999999", "1000000", "9" * 400, "9" * 4301, "9" * 5001, "-1", "1e3"]),
    st.lists(st.sampled_from([*ODD_DIGITS, "1", "2"]), min_size=1, max_size=3).map("".join),
)
"""Move numbers, clocks, lines: ordinary, too large for ``int()``, with leading zeros, or in other scripts."""


def noisy(parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``parts`` joined, with a weird character slipped in now and then."""
    return st.lists(st.one_of(parts, parts, parts, WEIRD), max_size=6).map("".join)


# --- PDTL -------------------------------------------------------------------------------------


def _reference_pdtls() -> list[str]:
    rows = [json.loads(line) for line in (DATA / "positions.jsonl").read_text(encoding="utf-8").splitlines()[:40]]
    return [INITIAL_PDTL, "/27:1k/24:p4/23:K5/ b -- A23@21 0 30", *(row["pdtl"] for row in rows)]


REAL_PDTLS = _reference_pdtls()
hexes = st.tuples(st.sampled_from("PTABCDEFGHIKLXZa"), numbers).map("".join)
specials = st.one_of(
    st.sampled_from(["-", "A23@21", "G15@13", "F14", "E15@F14", "P@C9[E11]", "P@G9,11[G13]", "E13@9-11", "@", "P@"]),
    st.tuples(hexes, st.sampled_from(["", "@", "@@"]), st.one_of(numbers, hexes)).map("".join),
    st.tuples(hexes, st.just("@"), numbers, st.just("-"), numbers).map("".join),
)
cells = noisy(st.sampled_from([*"kKpPrRdDvVgGnNjJeEtTmM123456789", "0"]))
placements = st.one_of(
    st.sampled_from([pdtl.split()[0] for pdtl in REAL_PDTLS]),
    st.lists(st.tuples(numbers, cells).map(lambda entry: f"{entry[0]}:{entry[1]}"), max_size=8).map(
        lambda entries: "/" + "/".join(entries) + "/"
    ),
)
fields = st.tuples(
    placements,
    st.one_of(st.sampled_from(["w", "b", "W", "x", ""]), WEIRD),
    st.one_of(st.sampled_from(["RKRrkr", "--", "-", "RKR-", "TKTtkt", "‐‐", "KRkr", "rkrRKR"]), noisy(st.just("R"))),
    specials,
    st.one_of(numbers, st.just("-")),
    st.one_of(numbers, st.sampled_from(["?", "-"])),
)
pdtls = st.one_of(
    st.sampled_from(REAL_PDTLS),
    st.tuples(fields, st.integers(3, 6), st.sampled_from([" ", "  ", "\t", "\u00a0"])).map(
        lambda t: t[2].join(t[0][: t[1]])
    ),
    st.tuples(st.sampled_from(REAL_PDTLS), st.integers(0, 80), WEIRD).map(lambda t: t[0][: t[1]] + t[2] + t[0][t[1] :]),
)


@CHECKS
@given(pdtls, st.booleans(), st.booleans())
def test_from_pdtl_raises_only_pdtl_errors(text: str, strict: bool, castling: bool) -> None:
    found: list[str] = []
    try:
        position = Position.from_pdtl(text, strict=strict, castling=castling, warnings=found)
    except PDTLError as error:
        assert str(error).isprintable() and error.reason.isprintable()
    else:
        assert (
            Position.from_pdtl(position.to_pdtl(), castling=castling) == position
        )  # what is accepted is written canonically
    assert all(warning.isprintable() for warning in found)


# --- moves ---------------------------------------------------------------------------------------

POSITIONS = [Position.from_pdtl(pdtl) for pdtl in REAL_PDTLS[:12] if pdtl != REAL_PDTLS[1]]
LEGAL_TEXTS = sorted({position.ctl_an(move) for position in POSITIONS for move in position.legal_moves()})
move_texts = st.one_of(
    st.sampled_from(LEGAL_TEXTS),
    st.tuples(
        st.sampled_from(["", "N", "E", "K", "T", "P", "Z", "🩒"]),
        hexes,
        st.sampled_from(["-", "×", "@", "@@", "x", "*", "‐", "–"]),
        st.sampled_from(["", "N", "J", "D"]),
        hexes,
        st.sampled_from(["", "=D", "=&", "=", "=K"]),
        st.sampled_from(["", "+", "#", "++", "+^", "^+", "+∞", " ?!", "(=)", ":", "!!"]),
    ).map("".join),
    st.tuples(
        st.just("K"),
        st.sampled_from("RTKDQ"),
        st.sampled_from("KDRT"),
        st.sampled_from(["-", "‐", ""]),
        st.text("HIOEFGDK", max_size=5),
    ).map("".join),
    st.tuples(st.sampled_from(LEGAL_TEXTS), st.integers(0, 8), WEIRD).map(lambda t: t[0][: t[1]] + t[2] + t[0][t[1] :]),
    noisy(st.sampled_from([*LEGAL_TEXTS[:20], "", " ", "/27:1k/", "0-0", "e13xf14"])),
)


@CHECKS
@given(st.sampled_from(POSITIONS), move_texts, st.booleans())
def test_parse_move_raises_only_move_errors(position: Position, text: str, strict: bool) -> None:
    before = position.to_pdtl()
    found: list[str] = []
    try:
        move = position.parse_move(text, strict=strict, warnings=found)
    except MoveError as error:
        assert str(error).isprintable() and error.reason.isprintable()
    else:
        assert position.is_legal(move)
    assert all(warning.isprintable() for warning in found)
    assert position.to_pdtl() == before


# --- CTL-PGN -------------------------------------------------------------------------------------

tag_values = st.one_of(
    st.sampled_from(["C'escacs", "*", "3-0", "0 - 3", "2‐1", "1-1", "3-1", "", "No", "T@R", "A@J, C@N", "FAN", "X@Y"]),
    st.sampled_from(["900+10", "*180", "300d3", "40/9000", "?", "-"]),
    numbers,
    pdtls,
    noisy(st.sampled_from(["White", "resigns", " "])),
)
tags = st.lists(
    st.tuples(
        st.sampled_from(["Variant", "Result", "TimeControl", "PDTL", "DPTL", "Redefine", "Castling", "White", "X"]),
        tag_values,
    ).map(lambda tag: f'[{tag[0]} "{tag[1].replace(chr(34), "")}"]'),
    max_size=6,
)
comments = st.one_of(
    st.sampled_from(["{ a comment }", "{: @W [%clk 0:15:10] }", "{ [%clk 1:02:03.5] }", "{: White resigns }"]),
    numbers.map(lambda hours: f"{{ [%clk {hours}:00:00] }}"),
    st.sampled_from(["9" * 5001, "9" * 400, "1234567", "\u0661"]).map(lambda hours: f"{{ [%clk {hours}:00:00] }}"),
    noisy(st.just("x")).map(lambda text: "{" + text.replace("}", "") + "}"),
)
items = st.one_of(
    st.sampled_from([*FOOLS_MATE, "1.", "2.", "1?", "…", ",", "(", ")", "(=)", ":", "?!", "*", "0-3", "3 - 0", "//"]),
    numbers.map(lambda n: n + "."),
    numbers.map(lambda n: "$" + n),
    comments,
    move_texts,
    WEIRD,
)


def _numbered(moves: list[str]) -> list[str]:
    """The fool's mate as a record writes it: ``1. H6-H12, I23-I19 2. ...``."""
    out: list[str] = []
    for index, move in enumerate(moves):
        out.extend([f"{index // 2 + 1}.", move] if index % 2 == 0 else [",", move])
    return out


@st.composite
def records(draw: st.DrawFn) -> str:
    """Tags, then either a legal game with pathological annotations (so that the replay reaches them)
    or a soup of notation, with variations nested up to 3,000 deep somewhere."""
    head = "\n".join(['[Variant "C\'escacs"]', *draw(tags)])
    if draw(st.booleans()):
        body = _numbered(FOOLS_MATE[: draw(st.integers(1, len(FOOLS_MATE)))])
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(2, len(body)))
            body.insert(at, draw(st.one_of(comments, numbers.map(lambda n: "$" + n), st.sampled_from(["(=)", "?!"]))))
    else:
        body = draw(st.lists(items, max_size=30))
    depth = draw(st.sampled_from([0, 0, 1, 3, 99, 100, 101, 500, 3000]))  # pytest runs with a limit near 2,000
    if depth:
        nest = "".join(f"(1. {FOOLS_MATE[0 if level % 2 else 4]} " for level in range(depth))
        close = ")" * draw(st.sampled_from([depth, depth, depth - 1, 0]))
        body = ["1. H6-H12", nest + close, *body[2:]] if body[:2] == ["1.", "H6-H12"] else [*body, nest + close]
    return head + "\n\n" + " ".join(body) + "\n"


@CHECKS
@given(st.lists(records(), min_size=1, max_size=3).map("\n".join), st.booleans())
def test_read_and_write_pgn_raise_only_pgn_errors(text: str, strict: bool) -> None:
    try:
        games = read_pgn(text, strict=strict)
    except PGNError as error:
        assert str(error).isprintable() and error.reason.isprintable()
        return
    for game in games:
        assert all(warning.isprintable() for warning in game.warnings)
        for fan in (False, True):
            try:
                written = write_pgn(game, fan=fan)
            except PGNError:
                continue
            written.encode("utf-8")  # always encodable
            assert [node.move for node in read_pgn(written)[0].nodes] == game.moves
