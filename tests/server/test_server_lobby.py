"""The server's lobby on every storage backend: registration, keys, offers, moves, draws, resignations,
deadlines on an injected clock, live clocks, ratings and records; several lobbies on one storage."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

import pytest

from cescacs_tui.core import read_pgn
from cescacs_tui.core.clock import TimeControl
from cescacs_tui.core.pieces import BLACK, WHITE
from cescacs_tui.data.archive import list_archive
from cescacs_tui.server.lobby import BEAT, STALE, DrawAnswer, Lobby, LobbyOptions, Refusal, Registration, Terms
from cescacs_tui.server.model import Account, ChangeKind, GameKind, GameStatus, SidePreference, StoredGame
from cescacs_tui.server.storage import Storage
from tests.helpers.games import FOOLS_MATE, KNIGHT_SHUFFLE
from tests.helpers.server import START, Clock, Turns, caller, make_lobby
from tests.helpers.waiting import PATIENCE


@pytest.fixture
def lobby_parts(storage: Storage) -> tuple[Lobby, Clock, Turns]:
    return make_lobby(storage)


@pytest.fixture
def lobby(lobby_parts: tuple[Lobby, Clock, Turns]) -> Lobby:
    return lobby_parts[0]


async def refused(call: object) -> str:
    """The reason a lobby call is refused (it must be)."""
    with pytest.raises(Refusal) as refusal:
        await call  # type: ignore[misc]
    return str(refusal.value)


async def players(lobby: Lobby, *names: str) -> list[Account]:
    return [await lobby.register(caller(), name) for name in names]


async def game_between(lobby: Lobby, terms: Terms | None = None) -> tuple[StoredGame, Account, Account]:
    """A game under way: alice (White) against bob (Black), 3 days a move unless ``terms`` say otherwise."""
    alice, bob = await players(lobby, "alice", "bob")
    offered = await lobby.challenge(alice, "bob", terms or Terms.correspondence(3, SidePreference.WHITE))
    return await lobby.accept(bob, offered.id), alice, bob


async def play_all(lobby: Lobby, game: StoredGame, white: Account, black: Account, moves: list[str]) -> StoredGame:
    for index, move in enumerate(moves):
        game = (await lobby.play(white if index % 2 == 0 else black, game.id, move)).game
    return game


# --- accounts -------------------------------------------------------------------------------------------------


async def test_a_key_registers_one_name_and_is_then_that_player(lobby: Lobby) -> None:
    key = caller()
    alice = await lobby.register(key, "Alice")
    assert await lobby.whoami(key) == alice and alice.name == "Alice"
    assert await refused(lobby.register(key, "other")) == "your key is Alice's already"
    assert "register NAME" in await refused(lobby.account_of(caller()))


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("a", "a name has 2 to 20 characters"),
        ("jo sé", "a name has no spaces"),
        ("b\u202eob", "control or invisible"),
        ("pаypal", "mixes Latin and Cyrillic"),
        ("_x", "begins with a letter"),
    ],
)
async def test_a_name_the_server_refuses_is_refused_with_its_reason(lobby: Lobby, name: str, reason: str) -> None:
    assert reason in await refused(lobby.register(caller(), name))


@pytest.mark.parametrize("look_alike", ["ALICE", "a1ice", "aIice", "\u0430\u04cf\u0456\u0441\u0435"])
async def test_a_look_alike_of_a_players_name_is_refused_naming_that_player(lobby: Lobby, look_alike: str) -> None:
    await lobby.register(caller(), "alice")
    said = await refused(lobby.register(caller(), look_alike))
    assert said.endswith("looks too much like alice, a player's name already: choose another")


async def test_an_invite_only_server_takes_a_new_player_with_a_working_code(storage: Storage) -> None:
    lobby, _, _ = make_lobby(storage, LobbyOptions(registration=Registration.INVITATION))
    assert "by invitation" in await refused(lobby.register(caller(), "alice"))
    assert "does not work" in await refused(lobby.register(caller(), "alice", "XXXX-XXXX-XXXX"))
    code = await lobby.invite(uses=1)
    assert (await lobby.register(caller(), "alice", code.lower())).name == "alice"
    assert "does not work" in await refused(lobby.register(caller(), "bob", code))


async def test_a_player_adds_a_key_with_a_code_used_from_that_key_and_removes_another(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, _ = lobby_parts
    desktop, laptop = caller(), caller()
    alice = await lobby.register(desktop, "alice")
    code, expires = await lobby.link_code(alice)
    assert expires == START + datetime.timedelta(minutes=15)
    clock.advance(minutes=1)
    assert await lobby.link(laptop, code) == alice
    assert await lobby.whoami(laptop) == alice
    assert "does not work" in await refused(lobby.link(caller(), code))  # used once already
    assert [k.fingerprint for k in await lobby.keys(alice)] == [desktop.key.fingerprint, laptop.key.fingerprint]
    assert "logged in with that key" in await refused(lobby.remove_key(alice, laptop, laptop.key.fingerprint))
    await lobby.remove_key(alice, laptop, desktop.key.fingerprint)
    assert await lobby.whoami(desktop) is None


async def test_a_link_code_stops_working_after_its_minutes(lobby_parts: tuple[Lobby, Clock, Turns]) -> None:
    lobby, clock, _ = lobby_parts
    alice = await lobby.register(caller(), "alice")
    code, _ = await lobby.link_code(alice)
    clock.advance(minutes=16)
    assert "does not work" in await refused(lobby.link(caller(), code))


# --- seeks and challenges -------------------------------------------------------------------------------------


async def test_a_challenge_finds_its_opponent_by_any_spelling_and_starts_when_accepted(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, _, turns = lobby_parts
    alice, bob, carol = await players(lobby, "alice", "Bob", "carol")
    challenge = await lobby.challenge(alice, "BOB", Terms.correspondence(2, SidePreference.BLACK))
    assert challenge.status is GameStatus.CHALLENGE and challenge.opponent_name == "Bob"
    assert "not to you" in await refused(lobby.accept(carol, challenge.id))
    game = await lobby.accept(bob, challenge.id)
    assert (game.white_name, game.black_name) == ("Bob", "alice")
    assert game.deadline == START + datetime.timedelta(days=2)
    assert turns.calls == []  # Bob, who accepted, is to move: he knows
    assert "has started already" in await refused(lobby.accept(bob, challenge.id))


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        ("nobody", "there is no player called nobody"),
        ("alice", "you cannot challenge yourself"),
    ],
)
async def test_a_challenge_to_no_one_or_to_oneself_is_refused(lobby: Lobby, call: str, reason: str) -> None:
    (alice,) = await players(lobby, "alice")
    assert reason in await refused(lobby.challenge(alice, call, Terms.correspondence(3)))


async def test_a_seek_is_taken_by_one_other_player_who_tells_the_maker_it_is_their_move(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, _, turns = lobby_parts
    alice, bob, carol = await players(lobby, "alice", "bob", "carol")
    seek = await lobby.seek(alice, Terms.live(TimeControl.from_tag("300+5")))
    assert [s.id for s in await lobby.seeks()] == [seek.id]
    assert "your own seek" in await refused(lobby.accept(alice, seek.id))
    game = await lobby.accept(bob, seek.id)
    assert game.white_name == "alice"  # the side chooser picks White for the maker
    assert turns.calls == [("alice", game.id)]
    assert "has started already" in await refused(lobby.accept(carol, seek.id))
    assert await lobby.seeks() == []


async def test_offers_are_withdrawn_or_declined_and_bounded(storage: Storage) -> None:
    lobby, _, _ = make_lobby(storage, LobbyOptions(max_offers=2))
    alice, bob = await players(lobby, "alice", "bob")
    seek = await lobby.seek(alice, Terms.correspondence(1))
    challenge = await lobby.challenge(alice, "bob", Terms.correspondence(1))
    assert "2 seeks and challenges open already" in await refused(lobby.seek(alice, Terms.correspondence(1)))
    assert "no seek or challenge of yours" in await refused(lobby.decline(bob, seek.id))
    await lobby.decline(bob, challenge.id)
    await lobby.decline(alice, seek.id)
    assert await lobby.games(alice) == []


def test_a_live_game_has_a_clock_and_minutes_per_move() -> None:
    with pytest.raises(Refusal, match="a live game has a clock"):
        Terms.live(TimeControl.from_tag("-"))
    with pytest.raises(Refusal, match="use --days"):
        Terms.live(TimeControl.from_tag("*7200"))
    assert Terms.correspondence(3).control.to_tag() == "*259200"


# --- moves ----------------------------------------------------------------------------------------------------


async def test_a_move_is_refused_out_of_turn_in_someone_elses_game_and_when_malformed(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby)
    (carol,) = await players(lobby, "carol")
    assert "it is not your move in game 1: alice (White) is to move" in await refused(
        lobby.play(bob, game.id, "E21-E17")
    )
    assert "you do not play in it" in await refused(lobby.play(carol, game.id, "E7-E13"))
    assert "cannot be played in game 1: not a CTL-AN move" in await refused(lobby.play(alice, game.id, "E7-"))
    assert "the Pawn on E7 cannot go to E17" in await refused(lobby.play(alice, game.id, "E7-E17"))
    assert "there is no game 99" in await refused(lobby.play(alice, 99, "E7-E13"))
    seek = await lobby.seek(carol, Terms.correspondence(1))
    assert "has not started" in await refused(lobby.play(carol, seek.id, "E7-E13"))


async def test_a_move_moves_the_deadline_and_tells_the_opponent_if_they_want(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, turns = lobby_parts
    game, alice, bob = await game_between(lobby)
    clock.advance(hours=5)
    played = await lobby.play(alice, game.id, "E7-E13")
    assert played.move == "E7-E13" and played.game.to_move == BLACK
    assert played.game.deadline == clock.now + datetime.timedelta(days=3)
    assert turns.calls[-1] == ("bob", game.id)
    await lobby.set_notify(bob, False)
    await lobby.play(bob, game.id, "E21-E17")
    await lobby.play(alice, game.id, "F8-F10")
    assert turns.calls == [("alice", game.id), ("bob", game.id), ("alice", game.id)]  # the first: bob accepted


async def test_a_mate_ends_the_game_rates_both_players_and_its_record_reads_back(lobby: Lobby, tmp_path: Path) -> None:
    game, alice, bob = await game_between(lobby)
    ended = await play_all(lobby, game, alice, bob, FOOLS_MATE)
    assert ended.status is GameStatus.FINISHED and ended.result == "0-3" and ended.ending == "checkmate"
    assert ended.black_ratings is not None and ended.black_ratings[1] > 1500
    assert "is over: 0-3, Black mates" in await refused(lobby.play(alice, game.id, "E7-E13"))
    table = await lobby.ratings(GameKind.CORRESPONDENCE)
    assert [entry.name for entry in table] == ["bob", "alice"] and await lobby.ratings(GameKind.LIVE) == []
    record = await lobby.pgn(game.id)
    (read,) = read_pgn(record)
    assert [node.san for node in read.nodes] == FOOLS_MATE and read.result == "0-3"
    tags = read.tags
    assert (tags["White"], tags["Black"], tags["Mode"], tags["WhiteType"], tags["BlackType"]) == (
        "alice", "bob", "ICS", "human", "human"
    )  # fmt: skip
    assert tags["AnnotatorId"] == "cescacs" and tags["TimeControl"] == "*259200" and tags["Date"] == "2026-03-01"
    path = await lobby.archive(game.id, tmp_path / "games")
    assert [entry.path for entry in list_archive(tmp_path / "games")] == [path]
    assert path.read_text(encoding="utf-8") == record


async def test_only_a_finished_game_is_archived(lobby: Lobby, tmp_path: Path) -> None:
    game, _, _ = await game_between(lobby)
    assert "not finished" in await refused(lobby.archive(game.id, tmp_path))


# --- draws and resignations -----------------------------------------------------------------------------------


async def test_a_draw_is_offered_after_a_move_and_accepted_by_the_opponent(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby)
    assert "together with a move" in await refused(lobby.draw(bob, game.id))
    await lobby.play(alice, game.id, "E7-E13")
    answer, offered = await lobby.draw(alice, game.id)
    assert answer is DrawAnswer.OFFERED and offered.draw_offer == WHITE
    assert "offered a draw already" in await refused(lobby.draw(alice, game.id))
    answer, drawn = await lobby.draw(bob, game.id)
    assert answer is DrawAnswer.ACCEPTED and drawn.result == "1-1" and drawn.ending == "agreement"
    assert "1. E7-E13 (=):" in await lobby.pgn(game.id)


async def test_a_move_declines_a_draw_offer_and_the_record_keeps_the_offer(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby)
    await lobby.play(alice, game.id, "E7-E13", offer_draw=True)
    declined = (await lobby.play(bob, game.id, "E21-E17")).game
    assert declined.draw_offer is None
    assert "no draw to claim" in await refused(lobby.draw(alice, game.id))
    assert "1. E7-E13 (=), E21-E17" in await lobby.pgn(game.id)


async def test_a_draw_is_claimed_on_the_third_repetition(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby)
    game = await play_all(lobby, game, alice, bob, KNIGHT_SHUFFLE * 2)
    answer, drawn = await lobby.draw(alice, game.id)
    assert answer is DrawAnswer.CLAIMED and drawn.result == "1-1" and drawn.ending == "threefold repetition"


async def test_either_player_resigns_on_either_turn(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby)
    resigned = await lobby.resign(bob, game.id)
    assert resigned.result == "3-0" and resigned.ending == "resignation"
    assert resigned.black_ratings is not None and resigned.black_ratings[1] < 1500
    assert "is over" in await refused(lobby.resign(alice, game.id))


# --- time -----------------------------------------------------------------------------------------------------


async def test_a_move_after_the_deadline_is_refused_and_the_game_lost_on_time(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, _ = lobby_parts
    game, alice, bob = await game_between(lobby)
    await lobby.play(alice, game.id, "E7-E13")
    clock.advance(days=3)
    assert "game 1 is over: Black ran out of time" in await refused(lobby.play(bob, game.id, "E21-E17"))
    ended = (await lobby.look(game.id))[0]
    assert ended.result == "3-0" and ended.ending == "time forfeit"
    assert '[Termination "time forfeit"]' in await lobby.pgn(game.id)


async def test_the_sweep_ends_every_game_past_its_deadline_and_no_other(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, _ = lobby_parts
    game, _, _ = await game_between(lobby)
    carol, dave = await players(lobby, "carol", "dave")
    other = await lobby.accept(dave, (await lobby.challenge(carol, "dave", Terms.correspondence(5))).id)
    clock.advance(days=4)
    assert [g.id for g in await lobby.sweep()] == [game.id]
    assert (await lobby.look(game.id))[0].result == "0-3"
    assert (await lobby.look(other.id))[0].status is GameStatus.PLAYING
    assert await lobby.sweep() == []


async def test_a_live_clock_starts_with_whites_first_move_and_counts_each_turn(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, _ = lobby_parts
    game, alice, bob = await game_between(lobby, Terms.live(TimeControl.from_tag("60+2"), SidePreference.WHITE))
    assert game.deadline is None and (game.white_clock, game.black_clock) == (60.0, 60.0)
    clock.advance(seconds=30)  # before the first move: nobody's time runs
    first = (await lobby.play(alice, game.id, "E7-E13")).game
    assert (first.white_clock, first.black_clock) == (62.0, 60.0)
    assert first.deadline == clock.now + datetime.timedelta(seconds=60)
    clock.advance(seconds=10)
    second = (await lobby.play(bob, game.id, "E21-E17")).game
    assert second.black_clock == pytest.approx(52.0) and second.deadline == clock.now + datetime.timedelta(seconds=62)
    found = await lobby.storage.game_and_moves(game.id)
    assert found is not None and [m.clock for m in found[1]] == [62.0, pytest.approx(52.0)]
    assert "[%clk 0:00:52]" in await lobby.pgn(game.id)
    clock.advance(seconds=63)
    assert "White ran out of time" in await refused(lobby.play(alice, game.id, "F8-F10"))


async def test_the_live_and_correspondence_pools_are_rated_apart(lobby: Lobby) -> None:
    game, alice, bob = await game_between(lobby, Terms.live(TimeControl.from_tag("300"), SidePreference.WHITE))
    await lobby.resign(alice, game.id)
    assert [e.name for e in await lobby.ratings(GameKind.LIVE)] == ["bob", "alice"]
    assert await lobby.ratings(GameKind.CORRESPONDENCE) == []
    assert await lobby.storage.rating(bob.id, GameKind.CORRESPONDENCE) == await lobby.storage.rating(
        alice.id, GameKind.CORRESPONDENCE
    )


async def test_a_game_another_process_changed_is_read_again_before_the_move_is_judged(lobby: Lobby) -> None:
    """The lobby reads, judges, then writes only if the game is where it was read: a stale reader is refused."""
    game, alice, bob = await game_between(lobby)
    await lobby.look(game.id)  # this lobby keeps the game replayed
    other = Lobby(lobby.storage, clock=lobby.clock)
    await other.play(alice, game.id, "E7-E13")
    assert "not your move" in await refused(lobby.play(alice, game.id, "E7-E11"))
    assert (await lobby.play(bob, game.id, "E21-E17")).game.ply == 2


async def test_a_game_is_replayed_once_then_kept_while_it_is_stored_as_kept(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cescacs_tui.server import games, model
    from cescacs_tui.server import lobby as module

    replays: list[int] = []
    real = games.replay

    def counted(game: StoredGame, *args: object, **kwargs: str) -> object:
        replays.append(game.ply)
        return real(game, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "replay", counted)
    game, alice, bob = await game_between(lobby)
    await play_all(lobby, game, alice, bob, ["E7-E13", "E21-E17", "F8-F10"])
    await refused(lobby.play(alice, game.id, "E13-E15"))  # not alice's move: the game is kept as it was
    await refused(lobby.draw(bob, game.id))  # nothing to claim: kept as it was
    await lobby.draw(alice, game.id)
    assert "2. F8-F10 (=):" in await lobby.pgn(game.id)
    assert replays == [0]
    await lobby.storage.update_game(game.id, 3, model.Update(None, None, "0-3", "resignation", None, None, None,
                                                              None), lobby.clock())  # fmt: skip
    assert (await lobby.look(game.id))[1].result == "0-3" and replays == [0, 3]


async def test_games_under_way_are_bounded_for_both_players(storage: Storage) -> None:
    lobby, _, _ = make_lobby(storage, LobbyOptions(max_games=1))
    alice, bob, carol = await players(lobby, "alice", "bob", "carol")
    await lobby.accept(bob, (await lobby.challenge(alice, "bob", Terms.correspondence(1))).id)
    assert "you have 1 game under way already: finish it first" in await refused(
        lobby.accept(bob, (await lobby.challenge(carol, "bob", Terms.correspondence(1))).id)
    )
    assert "alice has 1 game under way already" in await refused(
        lobby.accept(carol, (await lobby.seek(alice, Terms.correspondence(1))).id)
    )


async def test_a_challenge_finds_a_name_typed_in_full_width_or_look_alike_letters(lobby: Lobby) -> None:
    alice, _ = await players(lobby, "alice", "bob")
    for typed in ("ｂｏｂ", "B0B", "b\u043eb"):  # full-width letters; a zero; a Cyrillic o
        assert (await lobby.challenge(alice, typed, Terms.correspondence(1))).opponent_name == "bob"


# --- several lobbies on one storage: what changed, who is here -----------------------------------------------------


async def test_a_lobby_hears_a_move_made_through_another_and_reads_it_from_the_storage(lobby: Lobby) -> None:
    game, alice, _ = await game_between(lobby)
    other = Lobby(lobby.storage, clock=lobby.clock)
    async with lobby.changes() as changes:
        await other.play(alice, game.id, "E7-E13")
        heard = await asyncio.wait_for(anext(changes), PATIENCE)
    assert (heard.kind, heard.id, heard.ply) == (ChangeKind.GAME, game.id, 1)
    assert (await lobby.look(heard.id))[0].ply == 1


async def test_players_are_online_through_any_lobby_until_the_lobby_they_came_through_falls_silent(
    lobby_parts: tuple[Lobby, Clock, Turns],
) -> None:
    lobby, clock, _ = lobby_parts
    other = Lobby(lobby.storage, clock=clock)
    assert lobby.node != other.node
    alice, bob = await players(lobby, "alice", "bob")
    await lobby.arrive(alice)
    await other.arrive(bob)
    assert [a.name for a in await other.online()] == ["alice", "bob"]
    clock.advance(seconds=(STALE - BEAT).total_seconds())
    assert await other.beat() == 0  # the first lobby was heard of a while ago, not too long ago
    clock.advance(seconds=2 * BEAT.total_seconds())
    assert await other.beat() == 1
    assert [a.name for a in await lobby.online()] == ["bob"]
    await other.leave(bob)
    assert await lobby.online() == []
