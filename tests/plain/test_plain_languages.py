"""The plain mode in Catalan and Spanish: its sentences, its commands' words, and the real command in a pipe.

A blind player of another language hears every move, answer, prompt and
error in that language, types the commands in it (``ajuda``, ``desfés``,
``surt``; ``ayuda``, ``deshacer``, ``salir``) or in English, answers ``s``
(sí) as well as ``y``, and names directions in it; the one-letter questions
and the move notation are the same in every language.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cescacs_tui import i18n
from cescacs_tui.core import HEX_NAMES, find_hex
from cescacs_tui.core.game import Game
from cescacs_tui.plain import COMMANDS
from cescacs_tui.plain.commands import find_command, help_lines, typed
from cescacs_tui.plain.front_end import plain_how
from cescacs_tui.plain.questions import DIRECTIONS, direction_name, find_direction
from cescacs_tui.session import ACTIONS
from tests.helpers.games import FOOLS_MATE, play
from tests.helpers.plain import Typist
from tests.helpers.terminal import PATIENCE, terminal_environment

LANGUAGES = ("en", "ca", "es")


@pytest.fixture
def speak() -> Iterator[object]:
    yield i18n.set_language
    i18n.set_language("en")


# --- the commands' words ------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_names_one_command_and_none_looks_like_a_hex_or_a_move(speak: object, language: str) -> None:
    i18n.set_language(language)
    owner: dict[str, str] = {}
    for command in COMMANDS.values():
        for word in command.words:
            assert owner.setdefault(typed(word), command.name) == command.name, (word, command.name, owner[typed(word)])
            assert find_hex(word.upper()) is None and " " not in word and "-" not in word, word
            assert find_command(word) is command
        assert command.name in command.words  # the English word always works
    for direction, _delta in DIRECTIONS:
        assert find_direction(direction) == direction == find_direction(direction_name(direction).upper())


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ca", {"help": "ajuda", "takeback": "desfés", "quit": "surt", "save": "desa", "b": "b", "new": "nova"}),
        ("es", {"help": "ayuda", "takeback": "deshacer", "quit": "salir", "save": "guardar", "b": "b"}),
    ],
)
def test_the_help_shows_the_languages_words_and_the_english_ones_still_work(
    speak: object, language: str, words: dict[str, str]
) -> None:
    i18n.set_language(language)
    for name, word in words.items():
        assert COMMANDS[name].word == word
        assert find_command(word.upper()) is COMMANDS[name] is find_command(name)
    lines = help_lines()
    assert lines[0].startswith(("Jugades: escriviu CTL-AN", "Jugadas: escribid CTL-AN"))
    takeback = next(line for line in lines if line.startswith(words["takeback"]))
    assert (
        takeback
        == f"{words['takeback']} ({'també' if language == 'ca' else 'también'} takeback, u, undo): "
        + i18n._(ACTIONS["takeback"].help)
    )
    assert plain_how("takeback") == words["takeback"] and plain_how("new_game") == COMMANDS["new"].word


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_help_fits_80_columns_each_entry_starting_a_line(speak: object, language: str) -> None:
    i18n.set_language(language)
    lines = Typist().type(COMMANDS["help"].word)
    assert lines and all(len(line) <= 80 for line in lines), max(lines, key=len)
    entries = [line for line in lines if not line.startswith("  ")]
    assert len(entries) == len(help_lines())  # a continuation is indented, an entry never is
    assert " ".join(" ".join(lines).split()) == " ".join(" ".join(help_lines()).split())  # no word lost or cut


def test_catalan_commands_answers_and_directions_are_typed_without_accents_too(speak: object) -> None:
    i18n.set_language("ca")
    typist = Typist()
    assert typist.answer("desfes") == typist.answer("desfés") == typist.answer("takeback")
    assert typist.answer("desfes").startswith("Cap jugada per desfer")
    typist.type("h6-h12")
    assert typist.answer("desfes").startswith("Desfet: Peó blanc H6 a H12, pas triple. Juguen les blanques.")
    typist.type("h6-h12")
    asked = typist.type("abandona")
    assert asked == [
        "Les negres abandonen: les blanques guanyen la partida. Segur? s: Sí, n: No (una línia buida: No)."
    ]
    assert typist.answer("n") == "La partida continua."
    typist.type("abandona")
    assert typist.type("sí")[0] == "Fi de la partida: les negres abandonen (3-0)."
    around = Typist().type("x E7 AMUNT")
    assert around == ["E7: Peó blanc.", "amunt: E9, E11, E13, E15, E17, E19 buits, després Peó negre a E21."]
    assert Typist().type("x E7 Amunt-Dreta")[1].startswith("amunt-dreta: ")


def test_spanish_answers_to_the_board_questions(speak: object) -> None:
    i18n.set_language("es")
    typist = Typist()
    assert typist.answer("p N") == "Caballos de las blancas: E3, G3."
    assert typist.answer("p negras").startswith("Las negras, 27 piezas: Rey G27; Dama E27; Guiverno F28; 2 Roques")
    assert (
        typist.answer("m E27")
        == "Dama negra E27: es el turno de las blancas, así que ahora no tiene ninguna jugada legal."
    )
    assert typist.answer("F14") == "F14, hexcaque de color: vacío."
    assert typist.answer("c") == "Esta partida no tiene reloj."
    assert typist.answer("zzz") == "zzz: no es una orden ni una jugada. Escribid ayuda para ver las órdenes."
    assert typist.answer("m Q99") == "Q99: no es un hexcaque del tablero; m necesita un hexcaque como E7 o F14."


# --- the real command ----------------------------------------------------------------------------


def _plain(tmp_path: Path, *args: str, locale: str | None = None) -> list[str]:
    environment = terminal_environment(tmp_path)
    for variable in (*i18n.LOCALE_VARIABLES, "LANGUAGE"):
        environment.pop(variable, None)
    if locale is not None:
        environment["LANG"] = locale
    result = subprocess.run(
        [sys.executable, "-m", "cescacs_tui", "--plain", *args],
        input=("\n".join(FOOLS_MATE) + "\n").encode(),
        capture_output=True,
        env=environment,
        timeout=PATIENCE * 3,
    )
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert b"\x1b" not in result.stdout
    return result.stdout.decode().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "locale", "expected"),
    [
        (
            ("--lang", "ca"),
            None,
            [
                "C'escacs en text pla. Escriviu ajuda per veure les ordres, o una jugada com e7-e13.",
                "Juguen les blanques.",
                "Peó blanc H6 a H12, pas triple. Juguen les negres.",
                "Cavall negre G25 a L17. Juguen les blanques.",
                "Pegàs negre L5 a H6, escac i mat. Fi de la partida: les negres fan mat (0-3).",
                "Fi de l'entrada. Adéu.",
            ],
        ),
        (
            ("--lang", "es"),
            "ca_ES.UTF-8",
            [
                "C'escacs en texto plano. Escribid ayuda para ver las órdenes, o una jugada como e7-e13.",
                "Juegan las blancas.",
                "Peón blanco H6 a H12, paso triple. Juegan las negras.",
                "Caballo negro G25 a L17. Juegan las blancas.",
                "Pegaso negro L5 a H6, jaque mate. Fin de la partida: las negras dan mate (0-3).",
                "Fin de la entrada. Adiós.",
            ],
        ),
        ((), "ca_ES.UTF-8", ["C'escacs en text pla. Escriviu ajuda per veure les ordres, o una jugada com e7-e13."]),
    ],
)
def test_the_fools_mate_piped_in_is_announced_in_the_chosen_language(
    tmp_path: Path, args: tuple[str, ...], locale: str | None, expected: list[str]
) -> None:
    out = _plain(tmp_path, *args, locale=locale)
    assert [line for line in out if line in expected] == expected
    assert len(out) == 2 + len(FOOLS_MATE) + 2  # greeting, situation, a line per move, where it is archived, goodbye
    assert out[-2].startswith(("La partida s'ha arxivat a ", "La partida se ha archivado en "))


@pytest.mark.slow
def test_every_move_of_a_game_is_announced_in_words_of_the_language(tmp_path: Path) -> None:
    out = _plain(tmp_path, "--lang", "ca")
    game = Game.new()
    play(game, *FOOLS_MATE)
    announced = out[2:-2]
    for node, line in zip(game.nodes, announced, strict=True):
        assert HEX_NAMES[node.move.origin] in line and HEX_NAMES[node.move.target] in line
        assert line.split()[0] in {"Peó", "Alfil", "Pegàs", "Cavall", "Elefant"}, line
    assert os.linesep not in "".join(announced)
