"""The server's commands for scripts (server/commands.py): argv in, text and a status out, in the caller's language;
every refusal one sentence and status 2, never a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cescacs_tui.server.commands import COMMANDS, Reply, run_command
from cescacs_tui.server.lobby import Caller, Lobby
from cescacs_tui.server.storage import Storage
from tests.helpers.games import FOOLS_MATE
from tests.helpers.server import Clock, Turns, caller, make_lobby

INTERNAL = "the server could not do that"


@pytest.fixture
def parts(storage: Storage) -> tuple[Lobby, Clock, Turns]:
    return make_lobby(storage)


@pytest.fixture
def lobby(parts: tuple[Lobby, Clock, Turns]) -> Lobby:
    return parts[0]


async def run(lobby: Lobby, who: Caller, *argv: str, language: str = "en") -> Reply:
    reply = await run_command(lobby, who, list(argv), language)
    assert INTERNAL not in reply.text and reply.status in (0, 2)
    return reply


async def ok(lobby: Lobby, who: Caller, *argv: str) -> str:
    reply = await run(lobby, who, *argv)
    assert reply.status == 0, reply.text
    return reply.text


async def no(lobby: Lobby, who: Caller, *argv: str, language: str = "en") -> str:
    reply = await run(lobby, who, *argv, language=language)
    assert reply.status == 2, reply.text
    assert "\n" not in reply.text
    return reply.text


async def two_players(lobby: Lobby) -> tuple[Caller, Caller]:
    alice, bob = caller(), caller()
    assert await ok(lobby, alice, "register", "alice") == "welcome, alice: this key is your account now"
    await ok(lobby, bob, "register", "bob")
    return alice, bob


async def started(lobby: Lobby, *terms: str) -> tuple[Caller, Caller, int]:
    """alice (White) and bob, and the id of a game between them that bob accepted."""
    alice, bob = await two_players(lobby)
    offer = json.loads(await ok(lobby, alice, "challenge", "bob", "--as", "white", *terms, "--json"))
    assert offer["status"] == "challenge" and offer["opponent"] == "bob"
    game = json.loads(await ok(lobby, bob, "accept", str(offer["id"]), "--json"))
    assert (game["white"], game["black"], game["your_side"]) == ("alice", "bob", "black")
    return alice, bob, int(game["id"])


# --- the done-when of the issue, at the commands ------------------------------------------------------------


async def test_a_correspondence_challenge_is_accepted_and_played_and_games_json_says_whose_move_and_until_when(
    lobby: Lobby,
) -> None:
    alice, bob = await two_players(lobby)
    said = await ok(lobby, alice, "challenge", "bob", "--days", "2", "--as", "white")
    assert said.startswith("game 1: your challenge to bob (2 days per move)")
    assert "alice challenges you: accept 1 or decline 1" in await ok(lobby, bob, "games")
    assert "game 1 has begun: you play Black against alice" in await ok(lobby, bob, "accept", "1")
    assert "played E7-E13 in game 1: bob's move, until 2026-03-03 12:00 UTC" in await ok(
        lobby, alice, "play", "1", "E7-E13"
    )
    (game,) = json.loads(await ok(lobby, bob, "games", "--json"))
    assert (game["to_move"], game["your_move"], game["deadline"], game["ply"]) == (
        "black", True, "2026-03-03T12:00:00+00:00", 1
    )  # fmt: skip
    (mine,) = json.loads(await ok(lobby, alice, "games", "--json"))
    assert mine["your_move"] is False


async def test_a_move_out_of_turn_in_someone_elses_game_or_malformed_is_refused_with_status_2(lobby: Lobby) -> None:
    alice, bob, game = await started(lobby)
    carol = caller()
    await ok(lobby, carol, "register", "carol")
    number = str(game)
    assert await no(lobby, bob, "play", number, "E21-E17") == "it is not your move in game 1: alice (White) is to move"
    assert await no(lobby, carol, "play", number, "E7-E13") == (
        "game 1 is between alice and bob: you do not play in it"
    )
    malformed = await no(lobby, alice, "play", number, "E7-")
    assert malformed.startswith("E7- cannot be played in game 1: not a CTL-AN move")
    assert (
        await no(lobby, alice, "play", "one", "E7-E13")
        == "'one' is not a whole number from 1 to 999999999 (digits 0-9)"
    )
    assert await no(lobby, alice, "play", number) == "MOVE is missing"
    assert await no(lobby, caller(), "play", number, "E7-E13") == (
        "your key has no account on this server yet: choose a name with register NAME"
    )


@pytest.mark.parametrize(
    ("language", "piece"), [("en", "the Elephant on E5 needs its letter"), ("ca", "l'Elefant"), ("es", "el Elefante")]
)
async def test_a_refusal_that_names_a_piece_names_it_in_words(lobby: Lobby, language: str, piece: str) -> None:
    alice, _, game = await started(lobby)
    assert piece in await no(lobby, alice, "play", str(game), "E5-E7", language=language)


async def test_a_resignation_ends_the_game_and_moves_both_ratings(lobby: Lobby) -> None:
    alice, bob, game = await started(lobby)
    assert await ok(lobby, bob, "resign", str(game)) == "you resign game 1: 3-0"
    table = json.loads(await ok(lobby, alice, "ratings", "correspondence", "--json"))
    assert [(r["name"], r["games"]) for r in table] == [("alice", 1), ("bob", 1)]
    assert table[0]["rating"] > 1500 > table[1]["rating"]
    (finished,) = json.loads(await ok(lobby, alice, "games", "--finished", "--json"))
    assert finished["result"] == "3-0" and finished["ending"] == "resignation"
    assert finished["white_rating"][0] == 1500 and finished["white_rating"][1] > 1500


# --- each command ---------------------------------------------------------------------------------------------


async def test_games_lists_your_move_first_then_offers_and_says_when_there_is_none(lobby: Lobby) -> None:
    alice = caller()
    await ok(lobby, alice, "register", "alice")
    assert await ok(lobby, alice, "games") == "no games: seek or challenge NAME"
    assert await ok(lobby, alice, "games", "--finished") == "no finished games yet"
    bob = caller()
    await ok(lobby, bob, "register", "bob")
    await ok(lobby, alice, "seek", "--clock", "300+3")
    await ok(lobby, alice, "challenge", "bob", "--as", "white")
    await ok(lobby, bob, "accept", "2")
    lines = (await ok(lobby, alice, "games")).splitlines()
    assert "your move" in lines[0] and lines[0].lstrip().startswith("2")
    assert "your seek: anyone may accept it" in lines[1] and "(live, 5 min + 3 s)" in lines[1]


async def test_show_and_pgn_give_the_game_its_moves_and_its_position(lobby: Lobby) -> None:
    alice, bob, game = await started(lobby)
    await ok(lobby, alice, "play", str(game), "E7-E13", "--draw")
    shown = (await ok(lobby, caller(), "show", str(game))).splitlines()
    assert shown[0] == "game 1: alice - bob (3 days per move)"
    assert shown[1] == "1. E7-E13 (=)" and shown[2].startswith("PDTL ")
    assert shown[3].startswith("bob's move, until") and shown[3].endswith("; alice offers a draw")
    found = json.loads(await ok(lobby, bob, "show", str(game), "--json"))
    assert found["moves"] == ["E7-E13"] and found["draw_offer"] == "white" and found["your_move"] is True
    assert (await ok(lobby, bob, "pgn", str(game))) == (await lobby.pgn(game)).rstrip("\n")
    assert await no(lobby, bob, "show", "42") == "there is no game 42"


async def test_a_mate_is_said_with_its_result(lobby: Lobby) -> None:
    alice, bob, game = await started(lobby)
    said = ""
    for index, move in enumerate(FOOLS_MATE):
        said = await ok(lobby, alice if index % 2 == 0 else bob, "play", str(game), move)
    assert said == "played GL5-H6# in game 1: 0-3, Black mates"


async def test_draws_are_offered_accepted_and_refused_with_the_rules_reason(lobby: Lobby) -> None:
    alice, bob, game = await started(lobby)
    number = str(game)
    assert await no(lobby, alice, "draw", number) == (
        "no draw to claim: this position has occurred once (a claim needs 3), and 0 half-moves have passed "
        "without a capture or pawn move (a claim needs 100, 100 more); to offer a draw, offer it with your "
        "move: play 1 MOVE --draw"
    )
    await ok(lobby, alice, "play", number, "E7-E13")
    assert await ok(lobby, alice, "draw", number) == "you offer a draw in game 1: your opponent answers it"
    assert await ok(lobby, bob, "draw", number) == "game 1 is drawn: 1-1, draw by agreement"


async def test_challenges_and_seeks_read_their_terms_and_refuse_bad_ones(lobby: Lobby) -> None:
    alice, _ = await two_players(lobby)
    assert await no(lobby, alice, "challenge", "bob", "--days", "11") == (
        "'11' is not a whole number from 1 to 10 (digits 0-9)"
    )
    assert await no(lobby, alice, "challenge", "bob", "--days", "٣") == (
        "'٣' is not a whole number from 1 to 10 (digits 0-9)"
    )
    assert await no(lobby, alice, "seek", "--days", "3", "--clock", "60") == "a game has --days or --clock, not both"
    assert (await no(lobby, alice, "seek", "--clock", "fast")).startswith("TimeControl 'fast' is not understood")
    assert await no(lobby, alice, "seek", "--clock", "-") == "a live game has a clock: give one, such as --clock 600+5"
    assert await no(lobby, alice, "seek", "--as", "green") == "--as takes white, black or random, not 'green'"
    assert await no(lobby, alice, "seek", "--days") == "--days needs a value"
    assert await no(lobby, alice, "challenge", "nobody") == "there is no player called nobody"
    assert await no(lobby, alice, "challenge") == "NAME is missing"
    assert await no(lobby, alice, "seek", "extra") == "'extra' is not understood here"
    assert "your seek (3 days per move) is open to anyone; decline 1 withdraws it" in await ok(lobby, alice, "seek")


async def test_seeks_are_listed_and_accepted_or_withdrawn(lobby: Lobby) -> None:
    alice, bob = await two_players(lobby)
    assert await ok(lobby, bob, "seeks") == "no open seeks: seek offers one"
    await ok(lobby, alice, "seek", "--as", "black", "--days", "5")
    assert await ok(lobby, bob, "seeks") == "    1  alice (as Black, 5 days per move)"
    (seek,) = json.loads(await ok(lobby, bob, "seeks", "--json"))
    assert (seek["creator"], seek["creator_plays"], seek["days_per_move"]) == ("alice", "black", 5)
    assert await no(lobby, alice, "accept", "1") == "game 1 is your own seek: withdraw it with decline 1"
    assert await ok(lobby, alice, "decline", "1") == "game 1 is withdrawn"
    assert await no(lobby, bob, "accept", "1") == "there is no game 1"


async def test_ratings_are_listed_by_pool(lobby: Lobby) -> None:
    alice, _, game = await started(lobby, "--clock", "600+5")
    await ok(lobby, alice, "resign", str(game))
    table = await ok(lobby, alice, "ratings")
    assert table.splitlines()[:3] == [
        "Live games",
        "   1. bob  1662 ±290  (1 game)",
        "   2. alice  1338 ±290  (1 game)",
    ]
    assert table.splitlines()[3:] == ["Correspondence games", "  no rated games yet"]
    assert await no(lobby, alice, "ratings", "blitz") == "ratings takes live or correspondence, not 'blitz'"


async def test_keys_are_listed_added_from_the_new_key_and_removed(parts: tuple[Lobby, Clock, Turns]) -> None:
    lobby, clock, _ = parts
    desktop, laptop = caller(), caller()
    await ok(lobby, desktop, "register", "alice")
    listed = await ok(lobby, desktop, "keys")
    assert listed.startswith(desktop.key.fingerprint) and listed.endswith("(the key you use now)")
    said = await ok(lobby, desktop, "keys", "add")
    code = said.rsplit(" ", 1)[1]
    assert said.startswith("to add a key, log in with it before 2026-03-01 12:15 UTC and run: keys link ")
    clock.advance(minutes=1)
    assert await ok(lobby, laptop, "keys", "link", code) == "this key is alice's now"
    keys = json.loads(await ok(lobby, laptop, "keys", "--json"))
    assert [k["this_key"] for k in keys] == [False, True]
    assert await ok(lobby, laptop, "keys", "remove", desktop.key.fingerprint) == (
        f"the key {desktop.key.fingerprint} is removed"
    )
    assert await no(lobby, laptop, "keys", "remove", laptop.key.fingerprint) == (
        "you are logged in with that key: remove it while logged in with another of your keys"
    )
    assert await no(lobby, laptop, "keys", "burn") == "keys takes add, link CODE or remove FINGERPRINT, not 'burn'"


async def test_notifications_are_switched_on_and_off(lobby: Lobby) -> None:
    alice = caller()
    await ok(lobby, alice, "register", "alice")
    assert await ok(lobby, alice, "notify") == "notifications are on: the server tells you when it is your move"
    assert await ok(lobby, alice, "notify", "off") == "notifications are off"
    assert await ok(lobby, alice, "notify") == "notifications are off"
    assert await no(lobby, alice, "notify", "maybe") == "notify takes on or off, not 'maybe'"


async def test_who_lists_the_players_in_the_lobby(lobby: Lobby) -> None:
    alice, bob = await two_players(lobby)
    assert await ok(lobby, alice, "who") == "no one is in the lobby now"
    await lobby.arrive(await lobby.account_of(bob))
    await lobby.arrive(await lobby.account_of(alice))
    assert await ok(lobby, alice, "who") == "2 players here: alice, bob"
    await lobby.leave(await lobby.account_of(alice))
    assert json.loads(await ok(lobby, caller(), "who", "--json")) == ["bob"]


async def test_help_names_every_command_and_a_wrong_one_is_refused(lobby: Lobby) -> None:
    said = await ok(lobby, caller(), "help")
    assert {line.split()[0] for line in said.splitlines()} == set(COMMANDS) - {"help"}
    assert await no(lobby, caller(), "rm", "-rf") == "'rm' is no command: help lists them"
    assert await no(lobby, caller()) == "no command: help lists them"
    assert await no(lobby, caller(), "games", *["x"] * 20) == "too many words, or too long a word, for any command"
    assert await no(lobby, caller(), "\x1b]52;c;eA==\x07") == "'␛]52;c;eA==␇' is no command: help lists them"


@pytest.mark.parametrize(
    ("language", "refusal", "welcome"),
    [
        ("ca", "no és el vostre torn a la partida 1: alice (les blanques) ha de moure", "us donem la benvinguda"),
        ("es", "no es vuestro turno en la partida 1: alice (las blancas) debe mover", "os damos la bienvenida"),
    ],
)
async def test_a_player_reads_the_answers_in_their_language(
    lobby: Lobby, language: str, refusal: str, welcome: str
) -> None:
    _, bob, game = await started(lobby)
    assert await no(lobby, bob, "play", str(game), "E21-E17", language=language) == refusal
    reply = await run_command(lobby, caller(), ["register", "carol"], language)
    assert reply.text.startswith(welcome)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    argv=st.lists(
        st.one_of(
            st.sampled_from([*COMMANDS, "1", "2", "--json", "--days", "--clock", "--as", "--draw", "E7-E13", "bob"]),
            st.text(max_size=12),
        ),
        max_size=6,
    )
)
async def test_any_words_get_an_answer_and_a_status_never_an_exception(lobby: Lobby, argv: list[str]) -> None:
    await run(lobby, caller(), *argv)


async def test_whoami_says_the_callers_name_or_how_to_get_one(lobby: Lobby) -> None:
    alice, _bob = await two_players(lobby)
    assert await ok(lobby, alice, "whoami") == "alice"
    assert "register NAME" in await no(lobby, caller(), "whoami")


async def test_playing_lists_the_games_under_way_for_anyone_to_watch(lobby: Lobby) -> None:
    nobody = caller()
    assert await ok(lobby, nobody, "playing") == "no game is being played now"
    alice, bob, game = await started(lobby)
    await ok(lobby, alice, "seek", "--days", "2")  # a seek is no game under way
    listed = json.loads(await ok(lobby, nobody, "playing", "--json"))
    assert [(entry["id"], entry["white"], entry["black"], entry["your_side"]) for entry in listed] == [
        (game, "alice", "bob", None)
    ]
    assert json.loads(await ok(lobby, alice, "playing", "--json"))[0]["your_side"] == "white"
    assert "alice - bob" in await ok(lobby, nobody, "playing")
    await ok(lobby, bob, "resign", str(game))
    assert json.loads(await ok(lobby, nobody, "playing", "--json")) == []
