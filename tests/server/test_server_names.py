"""Players' names on the server (server/names.py): what a name may be, and which names look alike (UTS #39)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cescacs_tui.core.safe_text import is_safe
from cescacs_tui.server import confusables
from cescacs_tui.server.names import MAX_NAME, NameRefused, look_alike_keys, parse_name, skeleton


@pytest.mark.parametrize(
    "name",
    [
        "Marcel·la",
        "Núria",
        "Íñigo",
        "jordi_p",
        "joan.m",
        "Ana-María",
        "Çelik",
        "Αλέξης",
        "Ирина",
        "Zoë",
        "R2D2",
        "Ørjan",
    ],
)
def test_names_in_one_european_alphabet_are_taken_as_written(name: str) -> None:
    assert parse_name(name).text == unicodedata.normalize("NFKC", name)


def test_a_name_is_kept_in_its_compatibility_form() -> None:
    assert parse_name("Ｂｏｂ").text == "Bob"
    assert parse_name("Marceŀla").text == "Marcel·la"  # U+0140, the Catalan l with a middle dot


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x", "a name has 2 to 20 characters"),
        ("x" * (MAX_NAME + 1), "a name has 2 to 20 characters"),
        ("x" * 10_000, "a name has 2 to 20 characters"),
        ("ana maria", "a name has no spaces"),
        ("ana\tmaria", "a name has no spaces"),
        ("ana\u00a0maria", "a name has no spaces"),
        ("bob\x1b[2J", "control or invisible"),
        ("b\u200bob", "control or invisible"),
        ("bo\u202eb", "control or invisible"),
        ("2pac", "a name begins with a letter"),
        (".bob", "a name begins with a letter"),
        ("bob-", "a separator (- _ .) stands alone"),
        ("bo__b", "a separator (- _ .) stands alone"),
        ("bo·b", "the middle dot stands only between two l's"),
        ("pаypal", "mixes Latin and Cyrillic"),
        ("Ωmega", "mixes Greek and Latin"),
        ("李小龙", "is not a letter a name may hold"),
        ("bob@home", "a name cannot hold @ (U+0040)"),
        ("bob♔", "a name cannot hold ♔ (U+2654)"),
        ("zalgo\u0301\u0301\u0301", "a letter carries at most two"),
        ("ab\u0301\u0302", None),
        ("\u0301ab", "a name begins with a letter"),
    ],
)
def test_a_name_is_refused_with_one_clear_reason(name: str, reason: str | None) -> None:
    if reason is None:
        assert parse_name(name)
        return
    with pytest.raises(NameRefused) as refused:
        parse_name(name)
    assert reason in str(refused.value)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("bob", "BOB"),
        ("bob", "Bob"),
        ("bob", "b0b"),  # the digit zero and the letter o
        ("Iris", "lris"),  # a capital I and a small l
        ("ALI", "ALl"),
        ("will", "wi11"),
        ("mario", "rnario"),  # m and r n
        ("pay", "рау"),  # Latin and Cyrillic, each alone
        ("alice", "\u0430\u04cf\u0456\u0441\u0435"),
        ("TAXI", "ΤΑΧΙ"),  # Latin and Greek capitals
    ],
)
def test_look_alike_names_share_a_key(one: str, other: str) -> None:
    first, second = parse_name(one), parse_name(other)
    assert first.fold == second.fold or first.shape == second.shape


@pytest.mark.parametrize(("one", "other"), [("iris", "lris"), ("josé", "jose"), ("anna", "ana"), ("ALI", "all")])
def test_names_that_only_resemble_each_other_loosely_do_not(one: str, other: str) -> None:
    first, second = parse_name(one), parse_name(other)
    assert first.fold != second.fold and first.shape != second.shape


def test_the_skeleton_is_tr39s() -> None:
    assert skeleton("ѕсоре") == skeleton("scope") == "scope"
    assert skeleton("1") == skeleton("I") == skeleton("l") == "l"
    assert look_alike_keys("B0B") == ("bob", "BOB")


def test_the_table_is_unicodes_and_its_prototypes_stand_for_themselves() -> None:
    assert confusables.UNICODE_VERSION == "17.0.0"
    assert confusables.SCRIPTS == ("Latin", "Greek", "Cyrillic")
    for target in confusables.PROTOTYPES.values():
        assert skeleton(target) == unicodedata.normalize("NFD", target)
    for script, ranges in confusables.LETTERS.items():
        for first, last in ranges:
            for code in range(first, last + 1):
                assert unicodedata.name(chr(code)).startswith(script.upper())


@given(st.text(max_size=40))
def test_any_text_is_a_name_or_refused_with_a_reason_and_an_accepted_name_is_safe_to_show(text: str) -> None:
    try:
        name = parse_name(text)
    except NameRefused as refused:
        assert str(refused.reason)
    else:
        assert is_safe(name.text) and name.text.isprintable() and 2 <= len(name.text) <= MAX_NAME
